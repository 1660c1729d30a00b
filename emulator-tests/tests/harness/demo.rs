//! The demo program (`firmware/demo`, built with `bac prg`'s pipeline) on a `.d81` in the
//! emulated C128: both screens against golden pictures, the key it read, the note it
//! played, and the files it wrote, read back and scratched, the disk then read by cc1541.
//!
//! `BLESS=1 cargo test -p emulator-tests --test harness -- demo::` rewrites the golden pictures in
//! `tests/golden/` (see `golden`).

use c128_emu::{Config, Program, RunOptions, Screen, start};
use std::path::PathBuf;
use std::process::Command;
use std::sync::OnceLock;

use crate::build;

/// The demo's `.prg`, built once per test binary.
fn demo_prg() -> &'static Vec<u8> {
    static PRG: OnceLock<Vec<u8>> = OnceLock::new();
    PRG.get_or_init(|| build::bytes(&build::program("firmware/demo", "demo")))
}

/// A fresh disk with the demo as its first file, and a file the demo will scratch.
fn demo_disk() -> Vec<u8> {
    let mut disk = d81::Disk::new(b"DEMO DISK", *b"DD").unwrap();
    disk.write_file(b"DEMO", d81::FileType::Prg, demo_prg()).unwrap();
    let mut image = Vec::new();
    disk.write_to(&mut image).unwrap();
    image
}

/// Boots the demo disk with `keys` typed, in 40 or 80 columns, and runs it to its end.
fn run_demo(keys: &str, eighty: bool) -> c128_emu::Machine {
    let image = demo_disk();
    let config = Config { eighty_columns: eighty, ..Config::default() };
    let options = RunOptions { config, keys: Some(keys.into()), ..RunOptions::default() };
    let mut machine = start(Program::D81 { image: &image, origin: "demo.d81" }, options).unwrap();
    let exit = machine.run().unwrap_or_else(|e| panic!("the demo failed: {e}\n{}", machine.output_text()));
    assert_eq!(exit.code, 0, "exit code {} (10 + the failed disk step): {}", exit.code, machine.output_text());
    machine
}

#[test]
fn both_screens_match_their_golden_pictures() {
    for (eighty, name) in [(false, "demo-40.png"), (true, "demo-80.png")] {
        let machine = run_demo("Z", eighty);
        let screen = if eighty { Screen::Eighty } else { Screen::Forty };
        crate::golden::check(&machine.screenshot(screen), name);
        let text = c128_emu::text::text(machine.bus(), screen);
        assert!(text.contains(if eighty { "BAC128 DEMO: 80 COLUMNS" } else { "BAC128 DEMO: 40 COLUMNS" }), "{text}");
        assert!(text.contains("KEY: Z"), "the key it read is on the screen:\n{text}");
        assert!(text.contains("DISK OK"), "{text}");
    }
}

#[test]
fn the_key_changes_what_is_shown() {
    let machine = run_demo("Q", false);
    let text = c128_emu::text::text(machine.bus(), Screen::Forty);
    assert!(text.contains("KEY: Q") && !text.contains("KEY: Z"), "{text}");
}

#[test]
fn it_plays_middle_c() {
    let machine = run_demo("Z", false);
    let log = &machine.bus().sid.log;
    let gate_on = log.iter().position(|w| w.reg == 0x04 && w.value & 1 == 1).expect("a gate-on write to voice 1");
    let gate_off = log.iter().position(|w| w.reg == 0x04 && w.value & 1 == 0).expect("a gate-off write");
    assert!(gate_on < gate_off);
    assert!(log[gate_off].cycle > log[gate_on].cycle, "the note lasts");
    let frequency = |reg| log[..gate_on].iter().rev().find(|w| w.reg == reg).map(|w| u16::from(w.value)).unwrap();
    assert_eq!(frequency(0x00) | frequency(0x01) << 8, 4455, "middle C on a PAL C128");
    assert!(log.iter().any(|w| w.reg == 0x18 && w.value & 0x0F == 0x0F), "volume up");
}

#[test]
fn its_files_are_on_the_disk_for_any_reader() {
    let machine = run_demo("Z", false);
    let image = machine.disk_image().expect("a disk in drive 8");
    let disk = d81::Disk::from_bytes(&image).unwrap();
    let saved = disk.read(b"DEMO FILE").unwrap();
    assert_eq!(saved.entry.file_type, d81::FileType::Seq);
    assert_eq!(saved.data, b"HELLO FROM RUST\r");
    assert!(disk.find(b"SCRATCH ME").is_none(), "scratched through the command channel");

    // The independent reader: cc1541 lists the same file, type and size.
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("demo-disk-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("after.d81"), &image).unwrap();
    let out = Command::new("cc1541")
        .arg("after.d81")
        .current_dir(&dir)
        .output()
        .unwrap_or_else(|e| panic!("cannot run cc1541 ({e}): apt-get install cc1541"));
    let listing = String::from_utf8_lossy(&out.stdout).to_lowercase();
    assert!(out.status.success(), "{listing}");
    let line = listing.lines().find(|l| l.contains("\"demo file\"")).unwrap_or_else(|| panic!("{listing}"));
    assert!(line.contains("seq"), "{line}");
    assert!(line.trim_start().starts_with('1'), "one block: {line}");
    assert!(!listing.contains("scratch me"), "{listing}");
    std::fs::remove_dir_all(&dir).ok();
}
