//! Quitting the game leaves BASIC nothing to type. The KERNAL's keyboard scan runs in its
//! interrupt while the game's disk calls have the KERNAL mapped (the help pages, the save),
//! and takes the keys held down then: into its keyboard buffer, or, for a function key, as
//! that key's BASIC text (F5 is `DSAVE"`). The game reads the key matrix itself and never
//! takes them out, so at `READY.` BASIC typed them: `BOOT` became `DSAVE"...BOOT`. The
//! emulated KERNAL scans keys held on the matrix as the real one does, and these tests hold
//! each key the game reads through a disk call, quit, run on to BASIC and look at what the
//! KERNAL has for it.

use crate::built_game::{Game, boot, built};

use bac_harness::game::HOLD_FRAMES;
use c128_emu::ExitKind;
use c128_emu::keys::{KeyEvent, MatrixKey, parse_keys};
use c128_map::zp::{KEYD, KEYIDX, KYNDX, NDX, PKYDEF};

/// What BASIC would type at `READY.`: the rest of a function key's text, then the keyboard
/// buffer, as GETIN hands them out.
fn waiting_for_basic(g: &Game) -> Vec<u8> {
    let bus = g.m.bus();
    let buffer = (0..bus.ram_peek(0, NDX).min(10)).map(|i| bus.ram_peek(0, KEYD + u16::from(i)));
    pending_text(g).into_iter().chain(buffer).collect()
}

/// Runs the game on to its return to BASIC, past its exit port (the runtime's exit puts
/// BASIC's zero page back after it writes the port), and returns what BASIC would type
/// there.
fn at_basic(g: &mut Game, what: &str) -> Vec<u8> {
    let limit = g.m.cpu.cycles + 100_000_000;
    loop {
        match g.m.run_until(limit) {
            Ok(Some(exit)) if exit.kind == ExitKind::DebugCartridge => {
                assert_eq!(exit.code, 0, "{what}");
                g.m.bus_mut().exit_code = None;
            }
            Ok(Some(exit)) if exit.kind == ExitKind::ReturnedToBasic => return waiting_for_basic(g),
            other => panic!("{what}: no return to BASIC: {other:?}\n{}", g.text()),
        }
    }
}

/// The keys of a script, as held on the matrix.
fn matrix_keys(key: &str) -> Vec<MatrixKey> {
    parse_keys(key)
        .unwrap_or_else(|e| panic!("{key:?}: {e}"))
        .into_iter()
        .flat_map(|e| match e {
            KeyEvent::Press(p) => p.keys,
            KeyEvent::Wait(_) => Vec::new(),
        })
        .collect()
}

/// Presses `key` and holds it down until the game next asks for a key (or quits): through
/// all the disk calls the key starts.
fn hold(g: &mut Game, key: &str) {
    hold_then(g, key, |_| {});
}

/// [`hold`], running `while_held` after the game's answer to the key and before the key
/// is let go.
fn hold_then(g: &mut Game, key: &str, while_held: impl FnOnce(&mut Game)) {
    let keys = matrix_keys(key);
    // A frame with every key up first: the game takes a key when it sees it go down.
    g.idle(1);
    for &k in &keys {
        g.m.bus_mut().keyboard.set_key(k, true);
    }
    g.idle(HOLD_FRAMES);
    while_held(g);
    for &k in &keys {
        g.m.bus_mut().keyboard.set_key(k, false);
    }
}

/// Runs the KERNAL's keyboard scan once unless it has taken a function key's text already:
/// the real KERNAL's interrupt runs it inside its serial calls (VICE's took F5 as `DSAVE"`
/// while the help came from the disk). Our emulator's KERNAL calls take no emulated time,
/// so its interrupt falls inside one only where each build's timing puts it.
fn kernal_scan_unless_taken(g: &mut Game) {
    if pending_text(g).is_empty() {
        c128_emu::kernal::Kernal::scan_keyboard(g.m.bus_mut());
    }
}

/// The function key's text the KERNAL has pending for BASIC.
fn pending_text(g: &Game) -> Vec<u8> {
    let bus = g.m.bus();
    let (pending, at) = (bus.ram_peek(0, KYNDX), bus.ram_peek(0, KEYIDX));
    (0..pending).map(|i| bus.ram_peek(0, PKYDEF + u16::from(at.wrapping_add(i)))).collect()
}

#[test]
fn quitting_after_the_help_leaves_basic_no_dsave_in_both_widths() {
    for eighty in [false, true] {
        let mut g = boot(&built().image, eighty);
        // F5 held while the first help page comes from the disk.
        hold_then(&mut g, "{F5}", kernal_scan_unless_taken);
        assert!(g.text().contains("- HELP"), "the help page:\n{}", g.text());
        assert_eq!(pending_text(&g), b"DSAVE\"", "the KERNAL took F5 as its BASIC text ({eighty})");
        g.keys("{RUN/STOP}{RETURN}{RETURN}DEE{RETURN}1P{RETURN}S {RUN/STOP}");
        // Y held through the save.
        hold(&mut g, "Y");
        let left = at_basic(&mut g, "quit with a save");
        assert!(left.is_empty(), "{eighty}: BASIC would type {:?} at READY.", String::from_utf8_lossy(&left));
    }
}

#[test]
fn quitting_leaves_basic_no_key_held_through_the_save() {
    // Every key the game reads, held down from Y's release at "quit?" until the game is back
    // in BASIC: through the save's disk calls.
    let keys = [
        "{F1}",
        "{F3}",
        "{F5}",
        "{F7}",
        "{HELP}",
        "{RETURN}",
        " ",
        "{DOWN}",
        "{UP}",
        "{LEFT}",
        "{RIGHT}",
        "{DEL}",
        "{ESC}",
        "{RUN/STOP}",
        "+",
        "-",
        "P",
        "B",
        "T",
        "D",
        "S",
        "Y",
        "N",
        "O",
        "A",
        "Z",
        "0",
        "1",
        "5",
        "9",
    ];
    let forget = built().code_map.symbol(|name| name.contains("forget_keys")).expect("forget_keys in the game's map");
    let mut left = Vec::new();
    for key in keys {
        let mut g = boot(&built().image, false);
        g.keys("{RETURN}{RETURN}DEE{RETURN}{RUN/STOP}");
        assert!(g.exit.is_none(), "{key}: the game asks before it quits:\n{}", g.text());
        g.keys_then_go_on("Y");
        for k in matrix_keys(key) {
            g.m.bus_mut().keyboard.set_key(k, true);
        }
        // The KERNAL took the key while it was held, as the runtime's exit comes to empty
        // its buffer (else this test shows nothing).
        let limit = g.m.cpu.cycles + 100_000_000;
        match g.m.run_to(&[forget], limit) {
            Ok(None) if g.m.cpu.registers.program_counter == forget => {}
            other => panic!("{key}: the exit does not empty the KERNAL's keys: {other:?}"),
        }
        assert!(!waiting_for_basic(&g).is_empty(), "{key}: the KERNAL took nothing while it was held");
        let at_ready = at_basic(&mut g, key);
        if !at_ready.is_empty() {
            left.push(format!("{key}: {:?}", String::from_utf8_lossy(&at_ready)));
        }
    }
    assert!(left.is_empty(), "BASIC would type at READY. after the key held: {left:?}");
}
