//! The boot loader runs on a 6502 (the `mos6502` crate) from $0B00, as the KERNAL calls
//! it, and must hand BASIC the line `RUN"<first file>",U<unit>`.

use d81::boot::{BASIC_EXECUTE_LINE, LOAD_ADDRESS};
use d81::{BootSector, Disk, FileType, Ts};
use mos6502::cpu::CPU;
use mos6502::instruction::Nmos6502;
use mos6502::memory::{Bus, Memory};

/// Runs the boot code of `sector` with FA = `unit` until it jumps to BASIC; returns the line
/// it hands over.
fn run_loader(sector: &[u8], unit: u8) -> Vec<u8> {
    let info = d81::BootInfo::parse(sector).expect("a boot sector");
    let mut memory = Memory::new();
    memory.set_bytes(LOAD_ADDRESS, sector);
    memory.set_byte(0xba, unit);
    let mut cpu = CPU::new(memory, Nmos6502);
    cpu.registers.program_counter = LOAD_ADDRESS + info.code_offset as u16;
    for _ in 0..1000 {
        if cpu.registers.program_counter == BASIC_EXECUTE_LINE {
            let text = u16::from(cpu.registers.index_y) << 8 | u16::from(cpu.registers.index_x);
            let mut line = Vec::new();
            let mut at = text.wrapping_add(1);
            loop {
                let b = cpu.memory.get_byte(at);
                if b == 0 {
                    return line;
                }
                line.push(b);
                at = at.wrapping_add(1);
                assert!(line.len() < 80, "the line never ends");
            }
        }
        let pc = cpu.registers.program_counter;
        assert!((LOAD_ADDRESS..LOAD_ADDRESS + 256).contains(&pc), "the loader left its sector: PC ${pc:04X}");
        cpu.single_step();
    }
    panic!("the loader never reached BASIC");
}

#[test]
fn the_loader_runs_the_program_from_the_boot_unit() {
    let sector = BootSector::new(b"BAC128", b"BAC").unwrap().to_bytes().unwrap();
    assert_eq!(run_loader(&sector, 8), b"RUN\"BAC\",U8");
    assert_eq!(run_loader(&sector, 9), b"RUN\"BAC\",U9");
    assert_eq!(run_loader(&sector, 10), b"RUN\"BAC\",U10");
    assert_eq!(run_loader(&sector, 11), b"RUN\"BAC\",U11");
    assert_eq!(run_loader(&sector, 30), b"RUN\"BAC\",U30");
}

#[test]
fn long_titles_and_names_move_the_code_and_still_work() {
    let sector = BootSector::new(&[b'T'; 150], b"SIXTEEN CHARS 16").unwrap().to_bytes().unwrap();
    assert_eq!(run_loader(&sector, 8), b"RUN\"SIXTEEN CHARS 16\",U8");
}

#[test]
fn the_boot_sector_is_allocated_and_never_given_to_a_file() {
    let mut disk = Disk::new(b"BAC128", *b"B1").unwrap();
    disk.install_boot_sector(&BootSector::new(b"BAC128", b"BAC").unwrap()).unwrap();
    assert!(!disk.is_free(Ts::new(1, 0)));
    assert_eq!(disk.blocks_free(), 3159);
    // Fill the whole disk: every data sector but the boot sector gets used.
    disk.write_file(b"ALL", FileType::Seq, &vec![0x55; 3159 * 254]).unwrap();
    assert_eq!(disk.blocks_free(), 0);
    let mut bytes = Vec::new();
    disk.write_to(&mut bytes).unwrap();
    let disk = Disk::from_bytes(&bytes).unwrap();
    let info = disk.boot_info().unwrap();
    assert_eq!(info.title, b"BAC128");
    let sector = disk.sector(Ts::new(1, 0)).unwrap();
    assert_eq!(run_loader(sector, 8), b"RUN\"BAC\",U8");
}

#[test]
fn a_boot_sector_cannot_take_a_files_sector() {
    let mut disk = Disk::new(b"X", *b"00").unwrap();
    disk.write_file(b"ALL", FileType::Seq, &vec![1; 3160 * 254]).unwrap();
    let err = disk.install_boot_sector(&BootSector::new(b"X", b"ALL").unwrap()).unwrap_err();
    assert!(err.to_string().contains("track 1 sector 0 is used by \"ALL\""), "{err}");
}

#[test]
fn a_fast_boot_sector_runs_fast_first() {
    let sector = BootSector::new(b"BAC128", b"BAC").unwrap().with_fast(true).unwrap().to_bytes().unwrap();
    assert_eq!(run_loader(&sector, 8), b"FAST:RUN\"BAC\",U8");
    assert_eq!(run_loader(&sector, 10), b"FAST:RUN\"BAC\",U10");
}
