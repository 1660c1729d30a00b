//! The KERNAL file calls against a drive, the 1581 status codes, and booting `.d81` images.

use crate::asm::Asm;
use c128_emu::disk::{Drive, FileType, MemoryDrive};
use c128_emu::{Error, RunError, RunOptions, run_disk_until_exit, run_until_exit};

fn setnam(a: &mut Asm, label: &'static str, len: u8) {
    a.op(&[0xA9, len]).imm_addr(0xA2, label, false).imm_addr(0xA0, label, true);
    a.op(&[0x20, 0xBD, 0xFF]);
}

fn open(a: &mut Asm, lfn: u8, sa: u8) {
    a.op(&[0xA9, 0x00, 0xA2, 0x00, 0x20, 0x68, 0xFF]); // SETBNK 0, 0
    a.op(&[0xA9, lfn, 0xA2, 8, 0xA0, sa, 0x20, 0xBA, 0xFF, 0x20, 0xC0, 0xFF]);
}

fn close(a: &mut Asm, lfn: u8) {
    a.op(&[0x20, 0xCC, 0xFF, 0xA9, lfn, 0x20, 0xC3, 0xFF]);
}

/// Prints the command channel's status line (lfn 15 must be open).
fn print_status(a: &mut Asm, label: &'static str) {
    a.op(&[0xA2, 15, 0x20, 0xC6, 0xFF]) // CHKIN 15
        .label(label)
        .op(&[0x20, 0xCF, 0xFF, 0x20, 0xD2, 0xFF, 0xC9, 0x0D]) // CHRIN / CHROUT / CMP #13
        .branch(0xD0, label)
        .op(&[0x20, 0xCC, 0xFF]);
}

/// Writes "HI!" to a SEQ file named by `name`, closes it, and prints the status.
fn write_file(a: &mut Asm, name: &'static str, len: u8, status_label: &'static str) {
    setnam(a, name, len);
    open(a, 2, 2);
    a.op(&[0xA2, 2, 0x20, 0xC9, 0xFF]); // CKOUT 2
    a.print(b"HI!");
    close(a, 2);
    print_status(a, status_label);
}

fn with_drive(drive: impl Drive + 'static) -> RunOptions {
    RunOptions { drive: Some(Box::new(drive)), ..RunOptions::default() }
}

/// A program that opens the command channel, then runs `body`, then exits.
fn program(body: impl FnOnce(&mut Asm)) -> Asm {
    let mut a = Asm::new();
    setnam(&mut a, "empty", 0);
    open(&mut a, 15, 15);
    body(&mut a);
    close(&mut a, 15);
    a.exit(0);
    a.label("empty")
        .label("w")
        .op(b"0:DATA,S,W")
        .label("r")
        .op(b"DATA")
        .label("s")
        .op(b"S0:DATA")
        .label("rep")
        .op(b"@0:DATA,S,W")
        .label("nope")
        .op(b"NOPE")
        .label("ren")
        .op(b"R0:NEW=DATA")
        .label("app")
        .op(b"DATA,S,A")
        .label("dir")
        .op(b"$");
    a
}

#[test]
fn d81_commands_append_and_the_directory_go_through_the_disk() {
    let a = program(|a| {
        write_file(a, "w", 10, "st1");
        write_file(a, "app", 8, "st2");
        setnam(a, "ren", 11);
        open(a, 4, 15);
        close(a, 4);
        print_status(a, "st3");
        // LOAD"$",8 to $3000 (secondary address 0: to X/Y).
        setnam(a, "dir", 1);
        a.op(&[0xA9, 0x00, 0xA2, 0x00, 0x20, 0x68, 0xFF]);
        a.op(&[0xA9, 5, 0xA2, 8, 0xA0, 0, 0x20, 0xBA, 0xFF]);
        a.op(&[0xA9, 0x00, 0xA2, 0x00, 0xA0, 0x30, 0x20, 0xD5, 0xFF]);
    });
    let disk = d81::Disk::new(b"TEST", *b"01").unwrap();
    let d = c128_emu::d81drive::D81Drive { disk };
    let r = run_until_exit(&a.prg(), with_drive(d)).unwrap();
    assert_eq!(r.output(), "00, OK,00,00\n00, OK,00,00\n00, OK,00,00\n");
    let image = r.machine.kernal.drive.as_ref().unwrap().image().unwrap();
    let back = d81::Disk::from_bytes(&image).unwrap();
    assert_eq!(back.read(b"NEW").unwrap().data, b"HI!HI!");
    let listing = back.directory_listing(None);
    let loaded: Vec<u8> = (0..listing.len() - 2).map(|i| r.machine.bus().ram_peek(0, 0x3000 + i as u16)).collect();
    assert_eq!(loaded, listing[2..]);
}

#[test]
fn a_file_is_written_read_back_and_scratched() {
    let a = program(|a| {
        write_file(a, "w", 10, "st1");
        setnam(a, "r", 4);
        open(a, 3, 3);
        a.op(&[0xA2, 3, 0x20, 0xC6, 0xFF]) // CHKIN 3
            .label("rd")
            .op(&[0x20, 0xCF, 0xFF, 0x20, 0xD2, 0xFF]) // CHRIN / CHROUT
            .op(&[0x20, 0xB7, 0xFF, 0x29, 0x40]) // READST / AND #$40
            .branch(0xF0, "rd");
        close(a, 3);
        a.print(b"\r");
        setnam(a, "s", 7);
        open(a, 4, 15);
        close(a, 4);
        print_status(a, "st2");
    });
    let r = run_until_exit(&a.prg(), with_drive(MemoryDrive::default())).unwrap();
    assert_eq!(r.output(), "00, OK,00,00\nHI!\n01, FILES SCRATCHED,01,00\n");
}

#[test]
fn missing_files_report_62() {
    let a = program(|a| {
        setnam(a, "nope", 4);
        open(a, 2, 2);
        close(a, 2);
        print_status(a, "st");
    });
    let r = run_until_exit(&a.prg(), with_drive(MemoryDrive::default())).unwrap();
    assert_eq!(r.output(), "62,FILE NOT FOUND,00,00\n");
}

#[test]
fn saving_over_a_file_reports_63_unless_replacing() {
    let a = program(|a| {
        write_file(a, "w", 10, "st1");
        write_file(a, "w", 10, "st2");
        write_file(a, "rep", 11, "st3");
    });
    let r = run_until_exit(&a.prg(), with_drive(MemoryDrive::default())).unwrap();
    assert_eq!(r.output(), "00, OK,00,00\n63,FILE EXISTS,00,00\n00, OK,00,00\n");
}

#[test]
fn a_full_disk_reports_72_and_a_protected_one_26() {
    let a = program(|a| write_file(a, "w", 10, "st"));
    let full = MemoryDrive { free_blocks: Some(0), ..MemoryDrive::default() };
    let r = run_until_exit(&a.prg(), with_drive(full)).unwrap();
    assert_eq!(r.output(), "72,DISK FULL,00,00\n");

    let mut disk = d81::Disk::new(b"TEST", *b"01").unwrap();
    disk.set_write_protected(true);
    let d = c128_emu::d81drive::D81Drive { disk };
    let r = run_until_exit(&a.prg(), with_drive(d)).unwrap();
    assert_eq!(r.output(), "26,WRITE PROTECT ON,00,00\n");
}

#[test]
fn files_written_to_a_d81_are_on_the_image() {
    let a = program(|a| write_file(a, "w", 10, "st"));
    let disk = d81::Disk::new(b"TEST", *b"01").unwrap();
    let d = c128_emu::d81drive::D81Drive { disk };
    let r = run_until_exit(&a.prg(), with_drive(d)).unwrap();
    let image = r.machine.disk_image().unwrap();
    let back = d81::Disk::from_bytes(&image).unwrap();
    let f = back.read(b"DATA").unwrap();
    assert_eq!(f.data, b"HI!");
    assert_eq!(f.entry.file_type, d81::FileType::Seq);
}

#[test]
fn device_not_present_without_a_drive() {
    let mut a = Asm::new();
    setnam(&mut a, "n", 1);
    open(&mut a, 2, 2);
    a.op(&[0x8D, 0xFF, 0xD7, 0x60]).label("n").op(b"X");
    let r = run_until_exit(&a.prg(), RunOptions::default()).unwrap();
    assert_eq!(r.exit.code, 5);
    assert_eq!(r.machine.bus().ram_peek(0, 0x90), 0x80);
}

fn hello_prg() -> Vec<u8> {
    let mut a = Asm::new();
    a.print(b"BOOTED").exit(7);
    a.prg()
}

#[test]
fn a_d81_boots_through_its_boot_sector() {
    let mut disk = d81::Disk::new(b"GAME", *b"01").unwrap();
    disk.write_file(b"OTHER", d81::FileType::Prg, &[0x01, 0x1C, 0, 0]).unwrap();
    disk.write_file(b"HELLO", d81::FileType::Prg, &hello_prg()).unwrap();
    disk.install_boot_sector(&d81::BootSector::new(b"TEST", b"HELLO").unwrap()).unwrap();
    let r = run_disk_until_exit(disk.as_bytes(), "game.d81", RunOptions::default()).unwrap();
    assert_eq!((r.exit.code, r.output().as_str()), (7, "BOOTED"));
}

#[test]
fn a_d81_without_boot_sector_runs_its_first_program() {
    let mut disk = d81::Disk::new(b"GAME", *b"01").unwrap();
    disk.write_file(b"NOTES", d81::FileType::Seq, b"x").unwrap();
    disk.write_file(b"HELLO", d81::FileType::Prg, &hello_prg()).unwrap();
    let r = run_disk_until_exit(disk.as_bytes(), "game.d81", RunOptions::default()).unwrap();
    assert_eq!(r.exit.code, 7);
}

#[test]
fn a_boot_sector_naming_a_missing_file_fails_as_basic_would() {
    let mut disk = d81::Disk::new(b"GAME", *b"01").unwrap();
    disk.install_boot_sector(&d81::BootSector::new(b"TEST", b"GONE").unwrap()).unwrap();
    match run_disk_until_exit(disk.as_bytes(), "game.d81", RunOptions::default()) {
        Err(Error::Run { error: RunError::Basic { message, .. }, .. }) => {
            assert!(message.contains("FILE NOT FOUND") && message.contains("GONE"), "{message}");
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn bad_images_are_disk_errors() {
    let e = run_disk_until_exit(&[0u8; 1000], "short.d81", RunOptions::default()).unwrap_err();
    assert!(matches!(e, Error::Disk(_)) && e.to_string().contains("short.d81"), "{e}");
    let empty = d81::Disk::new(b"EMPTY", *b"01").unwrap();
    let e = run_disk_until_exit(empty.as_bytes(), "empty.d81", RunOptions::default()).unwrap_err();
    assert!(matches!(e, Error::Disk(_)), "{e}");
}

#[test]
fn memory_drive_types_survive() {
    let mut d = MemoryDrive::default();
    d.write(b"A", FileType::Usr, b"1", false).unwrap();
    assert_eq!(d.read(b"A").unwrap().0, FileType::Usr);
}
