//! The boot loader runs on a 6502 (the `mos6502` crate) from $0B00, as the KERNAL calls
//! it, and must hand BASIC the line `RUN"<first file>",U<unit>`.

use d81::boot::{BASIC_EXECUTE_LINE, LOAD_ADDRESS};
use d81::{BootSector, BootStage, Disk, FileType, Ts};
use mos6502::cpu::CPU;
use mos6502::instruction::Nmos6502;
use mos6502::memory::{Bus, Memory};

/// Runs the boot code of `sector` with FA = `unit` until it jumps to BASIC; returns the line
/// it hands over.
fn run_loader(sector: &[u8], unit: u8) -> Vec<u8> {
    run_staged(sector, unit, &[])
}

/// [`run_loader`] with `stage`'s bytes where the header says the KERNAL puts them.
fn run_staged(sector: &[u8], unit: u8, stage: &[u8]) -> Vec<u8> {
    let info = d81::BootInfo::parse(sector).expect("a boot sector");
    let mut memory = Memory::new();
    memory.set_bytes(LOAD_ADDRESS, sector);
    memory.set_bytes(info.extra_address, stage);
    let stage_code = info.extra_address..info.extra_address + stage.len() as u16;
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
        let in_sector = (LOAD_ADDRESS..LOAD_ADDRESS + 256).contains(&pc);
        assert!(in_sector || stage_code.contains(&pc), "the loader left its sector and stage: PC ${pc:04X}");
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

/// A boot sector for BAC with a stage at $1300 of `code`.
fn staged(code: &[u8]) -> (BootSector, BootStage) {
    let stage = BootStage::from_prg(&[&[0x00, 0x13][..], code].concat()).unwrap();
    let boot = BootSector::new(b"BAC128", b"BAC").unwrap().with_fast(true).unwrap().with_stage(stage.clone()).unwrap();
    (boot, stage)
}

#[test]
fn a_stage_that_loaded_the_program_has_it_run_and_one_that_could_not_has_it_loaded() {
    const CLC: u8 = 0x18;
    const SEC: u8 = 0x38;
    const RTS: u8 = 0x60;
    let (loaded, stage) = staged(&[CLC, RTS]);
    let sector = loaded.to_bytes().unwrap();
    let info = d81::BootInfo::parse(&sector).unwrap();
    assert_eq!((info.extra_address, info.extra_bank, info.extra_blocks), (0x1300, 0, 1));
    assert_eq!(run_staged(&sector, 8, &stage.code), b"RUN", "the program is in memory: RUN it");
    let (failed, stage) = staged(&[SEC, RTS]);
    let sector = failed.to_bytes().unwrap();
    assert_eq!(run_staged(&sector, 8, &stage.code), b"FAST:RUN\"BAC\",U8", "as without a stage");
    assert_eq!(run_staged(&sector, 10, &stage.code), b"FAST:RUN\"BAC\",U10");
}

#[test]
fn a_stage_s_blocks_follow_the_boot_sector_and_are_never_given_to_a_file() {
    let code: Vec<u8> = (0..600).map(|i| (i % 250) as u8).collect();
    let (boot, _) = staged(&code);
    let mut disk = Disk::new(b"BAC128", *b"B1").unwrap();
    disk.install_boot_sector(&boot).unwrap();
    assert_eq!(disk.blocks_free(), 3160 - 4, "the boot sector and three blocks");
    for (n, chunk) in code.chunks(256).enumerate() {
        let block = disk.sector(Ts::new(1, n as u8 + 1)).unwrap();
        assert_eq!(&block[..chunk.len()], chunk, "block {n}");
        assert!(block[chunk.len()..].iter().all(|&b| b == 0), "block {n} padded");
    }
    disk.write_file(b"ALL", FileType::Seq, &vec![0x55; 3156 * 254]).unwrap();
    assert_eq!(disk.blocks_free(), 0);
    assert_eq!(disk.sector(Ts::new(1, 3)).unwrap()[..88], code[512..]);

    // A disk that booted without a stage, and then filled up.
    let mut full = Disk::new(b"X", *b"00").unwrap();
    full.install_boot_sector(&BootSector::new(b"BAC128", b"BAC").unwrap()).unwrap();
    full.write_file(b"ALL", FileType::Seq, &vec![1; 3159 * 254]).unwrap();
    let err = full.install_boot_sector(&boot).unwrap_err();
    assert!(err.to_string().contains("track 1 sector 1 is used by \"ALL\""), "{err}");
}

#[test]
fn stages_that_the_boot_cannot_load_are_refused() {
    let too_low = BootStage::from_prg(&[0x00, 0x0b, 0x60]).unwrap_err().to_string();
    assert!(too_low.contains("$0B00-$0BFF"), "{too_low}");
    let into_io = BootStage::from_prg(&[&[0x00, 0xcf][..], &[0xea; 257]].concat()).unwrap_err().to_string();
    assert!(into_io.contains("$CF00-$D0FF"), "{into_io}");
    let empty = BootStage::from_prg(&[0x00, 0x13]).unwrap_err().to_string();
    assert!(empty.contains("0 bytes of code"), "{empty}");
    assert!(BootStage::from_prg(&[0x13]).is_err());
    let huge = BootStage::from_prg(&[&[0x00, 0x20][..], &[0xea; 16 * 256 + 1]].concat()).unwrap_err().to_string();
    assert!(huge.contains("4097 bytes of code"), "{huge}");
}
