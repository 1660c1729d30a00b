//! `c128-rt`'s platform drivers on the emulated C128, through the test program
//! `programs/platform` (built by `bac prg`'s pipeline): both screens against golden
//! pictures, the key codes of a script that covers the keyboard, the SID log of every
//! effect, and the disk errors of a good, a write-protected and a full disk.
//!
//! `BLESS=1 cargo test -p emulator-tests --test harness -- platform::` rewrites the golden pictures in
//! `tests/golden/` (see `golden`).

use c128_emu::chips::vic::VideoStandard;
use c128_emu::keys::{KeyEvent, KeyPress, char_press, parse_keys};
use c128_emu::{Config, Exit, Machine, Program, RunOptions, Screen, start};
use std::sync::OnceLock;

use crate::build;

/// The program's `.prg`, built once per test binary.
fn platform_prg() -> &'static Vec<u8> {
    static PRG: OnceLock<Vec<u8>> = OnceLock::new();
    PRG.get_or_init(|| {
        let report = build::program("emulator-tests/programs/platform", "platform");
        eprintln!("platform: {}", report.stats);
        build::bytes(&report)
    })
}

/// Which disk is in drive 8.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum DiskKind {
    Good,
    WriteProtected,
    Full,
}

fn disk(kind: DiskKind) -> Vec<u8> {
    let mut disk = d81::Disk::new(b"PLATFORM", *b"PT").unwrap();
    disk.write_file(b"PLATFORM PRG", d81::FileType::Prg, platform_prg()).unwrap();
    match kind {
        DiskKind::Good => {}
        // The write-protect tab is no part of an image: a 1581 also refuses to write
        // to a disk whose header has another DOS version than 'D' (track 40 sector 0,
        // byte 2), which an image can carry.
        DiskKind::WriteProtected => {}
        DiskKind::Full => {
            // One file of every free block.
            let free = usize::from(disk.blocks_free());
            disk.write_file(b"FILLER", d81::FileType::Seq, &vec![0xAA; free * 254]).unwrap();
            assert_eq!(disk.blocks_free(), 0);
        }
    }
    let mut image = Vec::new();
    disk.write_to(&mut image).unwrap();
    if kind == DiskKind::WriteProtected {
        image[39 * 40 * 256 + 2] = b'E';
        assert!(d81::Disk::from_bytes(&image).unwrap().is_write_protected());
    }
    image
}

/// A machine booting the program from `kind` of disk.
fn boot(kind: DiskKind) -> Machine {
    boot_with(kind, Config::default())
}

fn boot_with(kind: DiskKind, config: Config) -> Machine {
    let image = disk(kind);
    let config = Config { max_cycles: 400_000_000, ..config };
    let options = RunOptions { config, ..RunOptions::default() };
    let image = Box::leak(image.into_boxed_slice());
    start(Program::D81 { image, origin: "platform.d81" }, options).unwrap()
}

/// Runs frames until the program has printed `marker`; the exit if it ended too.
fn run_until_printed(machine: &mut Machine, marker: &str) -> Option<Exit> {
    for _ in 0..20_000 {
        if machine.output_text().contains(marker) {
            return None;
        }
        match machine.run_frame() {
            Ok(None) => {}
            Ok(Some(exit)) if machine.output_text().contains(marker) => return Some(exit),
            Ok(Some(exit)) => panic!("ended ({exit:?}) before {marker:?}:\n{}", machine.output_text()),
            Err(e) => panic!("{e}\n{}", machine.output_text()),
        }
    }
    panic!("no {marker:?} after 20,000 frames:\n{}", machine.output_text());
}

/// Types `events` and runs to `marker`.
fn type_and_run(machine: &mut Machine, events: Vec<KeyEvent>, marker: &str) -> Option<Exit> {
    machine.bus_mut().keyboard.type_events(events);
    run_until_printed(machine, marker)
}

/// The text the program printed between `from` and `to`.
fn section(output: &str, from: &str, to: &str) -> String {
    let start = output.find(from).unwrap_or_else(|| panic!("no {from:?} in {output}")) + from.len();
    let end = output[start..].find(to).unwrap_or_else(|| panic!("no {to:?} in {output}")) + start;
    output[start..end].trim().to_string()
}

/// The whole run on a good disk, with the screens, keys, sound and disk checked in turn.
#[test]
fn every_driver_on_a_good_disk() {
    let mut m = boot(DiskKind::Good);
    run_until_printed(&mut m, "DRAWN");
    let out = m.output_text();
    assert!(out.starts_with("PAL\nKEY 40\n"), "{out}");
    let redraw: u64 = section(&out, "REDRAW ", "\n").parse().unwrap_or_else(|_| panic!("{out}"));
    eprintln!("a full 80 x 25 redraw: {redraw} cycles of CIA 1 timer A ({:.1} frames)", redraw as f64 / 19_656.0);

    // Both screens as drawn.
    for (screen, name, title) in [
        (Screen::Forty, "platform-40.png", "BAC128 PLATFORM: 40 COLUMNS"),
        (Screen::Eighty, "platform-80.png", "BAC128 PLATFORM: 80 COLUMNS"),
    ] {
        crate::golden::check(&m.screenshot(screen), name);
        let text = m.screen_text(screen);
        assert!(text.starts_with(title), "{text}");
        assert!(text.contains("LOWER CASE SHOWS AS CAPITALS: 0123456789"), "{text}");
    }
    let bus = m.bus();
    assert_eq!(bus.cia2.pra & 3, 0, "VIC bank 3");
    assert_eq!(bus.vic.regs[0x18], 0x8A, "screen $E000, characters $E800");
    assert_eq!(bus.ram_peek(0, 0x0A2C), 0x8A, "VM1 follows");
    assert!(bus.vic.fast(), "FAST while 80 columns are open");
    assert_eq!(bus.ram_peek(0, 0xE800 + 0x41 * 8 + 3), bac_glyphs::UPPER[0x41][3], "the spade in RAM");
    assert_eq!(bus.vdc.peek(0x2000 + 0xC1 * 16 + 3), !bac_glyphs::UPPER[0x41][3], "the reverse spade on the VDC");

    // Keys: each press is reported once although the program polls every frame and a
    // scripted key stays down for two; SHIFT, CTRL, C= and ALT alone give nothing.
    let script = "A1{RETURN}{STOP}{HELP}{F1}{F2}{F7}{F8}{DOWN}{UP}{LEFT}{RIGHT}{HOME}{CLR}{DEL}{INST}\
                  {ESC}{TAB}{ENTER}!?Z {SHIFT}{CTRL}{C=}{ALT}{UP-ARROW}{DOWN-ARROW}{LEFT-ARROW}{RIGHT-ARROW}\
                  {KP7}{KP0}{KP+}:;,./@*=";
    let mut events = parse_keys(script).unwrap();
    // Two keys going down together come out one after the other; three at once may show a
    // phantom fourth in the matrix, so they give nothing.
    let together = |keys: &[char]| {
        KeyEvent::Press(KeyPress {
            keys: keys.iter().flat_map(|&c| char_press(c).unwrap().keys).collect(),
            petscii: None,
        })
    };
    events.push(together(&['J', 'K']));
    events.push(together(&['D', 'F', 'G']));
    events.extend(parse_keys("Q").unwrap());
    type_and_run(&mut m, events, "KEYS DONE");
    let out = m.output_text();
    let keys = section(&out, "DRAWN", "KEYS DONE");
    let want = "K65 K49 K13 K3 STOP DOWN K132 K133 K137 K136 K140 K17 K145 K157 K29 K19 K147 K20 K148 \
                K27 K9 K13 K33 K63 K90 K32 K145 K17 K157 K29 K55 K48 K43 K58 K59 K44 K46 K47 K64 K42 K61 \
                K74 K75 K81";
    assert_eq!(keys, want);

    // Sound: every effect opens and closes the gate of voice 1 at its own frequency.
    run_until_printed(&mut m, "SOUND DONE");
    let log = &m.bus().sid.log;
    let gates: Vec<(u64, bool, u16)> = log
        .iter()
        .enumerate()
        .filter(|(_, w)| w.reg == 0x04)
        .map(|(i, w)| {
            let freq = |reg| log[..i].iter().rev().find(|v| v.reg == reg).map_or(0, |v| u16::from(v.value));
            (w.cycle, w.value & 1 == 1, freq(0x00) | freq(0x01) << 8)
        })
        .collect();
    let ons: Vec<u16> = gates.iter().filter(|g| g.1).map(|g| g.2).collect();
    // One note, a run of three, two bursts with rests between them, an empty effect (no
    // gate opens), the one note again.
    assert_eq!(ons, [0x6000, 8911, 11227, 13351, 0x3000, 0x3800, 0x6000]);
    for (i, on) in gates.iter().enumerate().filter(|(_, g)| g.1) {
        let off = gates[i + 1..].iter().find(|g| !g.1).unwrap_or_else(|| panic!("gate {i} never closes"));
        assert!(off.0 > on.0 + 15_000, "each note lasts at least a frame: {on:?} {off:?}");
    }
    assert!(log.iter().any(|w| w.reg == 0x18 && w.value == 0x0F), "volume up");
    assert_eq!(log.last().map(|w| (w.reg, w.value)), Some((0x18, 0)), "silence() turns the volume off");

    // Disk: a round trip, the errors of each operation, and no drive 9.
    run_until_printed(&mut m, "DISK DONE");
    let out = m.output_text();
    assert_eq!(
        section(&out, "SOUND DONE", "DISK DONE"),
        "W:OK R:OK W2:DOS63 SHORT:TOOLONG MV:OK R2:NOTFOUND R3:OK RM:OK RM2:NOTFOUND NAME:TOOLONG DEV9:NODEVICE"
    );

    // Close gives BASIC its screens back.
    let exit = match type_and_run(&mut m, parse_keys("X").unwrap(), "CLOSED") {
        Some(exit) => exit,
        None => m.run().unwrap_or_else(|e| panic!("{e}\n{}", m.output_text())),
    };
    assert_eq!(exit.code, 0);
    let bus = m.bus();
    assert_eq!(bus.cia2.pra & 3, 3, "VIC bank 0");
    assert_eq!(bus.vic.regs[0x18], 0x14);
    assert_eq!(bus.ram_peek(0, 0x0A2C), 0x14);
    assert!(!bus.vic.fast());
    assert_eq!((bus.vic.regs[0x20] & 15, bus.vic.regs[0x21] & 15), (13, 11), "colours of power-on");
    let rom = c128_emu::font::charset();
    assert!((0..512u16).all(|c| (0..8).all(|r| bus.vdc.peek(0x2000 + c * 16 + r) == rom[usize::from(c * 8 + r)])));
    assert_eq!(m.screen_text(Screen::Eighty).trim(), "");
    assert_eq!(m.screen_text(Screen::Forty).trim(), "CLOSED", "printed after close() on BASIC's screen");
}

/// Runs the program on a bad disk to its disk report.
fn disk_report(kind: DiskKind) -> String {
    let mut m = boot(kind);
    run_until_printed(&mut m, "DRAWN");
    type_and_run(&mut m, parse_keys("Q").unwrap(), "DISK DONE");
    section(&m.output_text(), "SOUND DONE", "DISK DONE")
}

#[test]
fn a_write_protected_disk_refuses_writes() {
    assert_eq!(
        disk_report(DiskKind::WriteProtected),
        "W:PROTECTED R:NOTFOUND W2:PROTECTED SHORT:NOTFOUND MV:PROTECTED R2:NOTFOUND R3:NOTFOUND RM:PROTECTED \
         RM2:PROTECTED NAME:TOOLONG DEV9:NODEVICE"
    );
}

#[test]
fn a_full_disk_says_so() {
    assert_eq!(
        disk_report(DiskKind::Full),
        "W:FULL R:NOTFOUND W2:FULL SHORT:NOTFOUND MV:NOTFOUND R2:NOTFOUND R3:NOTFOUND RM:NOTFOUND RM2:NOTFOUND \
         NAME:TOOLONG DEV9:NODEVICE"
    );
}

#[test]
fn ntsc_is_told_from_pal_and_the_80_column_key_is_read() {
    let config = Config { standard: VideoStandard::Ntsc, eighty_columns: true, ..Config::default() };
    let mut m = boot_with(DiskKind::Good, config);
    run_until_printed(&mut m, "DRAWN");
    let out = m.output_text();
    assert!(out.starts_with("NTSC\nKEY 80\n"), "{out}");
}
