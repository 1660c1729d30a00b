//! The entry points the `bac` CLI uses: start a program or a disk, run frame by frame, read
//! the screen as text, compare screenshots with golden images.

use crate::asm::Asm;
use c128_emu::screenshot::{GoldenError, compare_golden};
use c128_emu::{Error, Program, RunOptions, Screen, start};

fn scratch_dir(name: &str) -> std::path::PathBuf {
    let d = std::env::temp_dir().join(format!("bac128-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    d
}

#[test]
fn a_started_program_runs_frame_by_frame_and_keeps_its_machine_on_failure() {
    // Wait for three frame interrupts, print, then hit a BRK.
    let mut a = Asm::new();
    a.op(&[0xA5, 0xA2, 0x18, 0x69, 0x03, 0x85, 0xFB])
        .label("w")
        .op(&[0xA5, 0xA2, 0xC5, 0xFB])
        .branch(0xD0, "w")
        .print(b"DONE")
        .op(&[0x00]);
    let prg = a.prg();
    let mut m = start(Program::from_file("x.prg", &prg), RunOptions::default()).unwrap();
    let mut frames = 0;
    let err = loop {
        frames += 1;
        match m.run_frame() {
            Ok(None) => assert!(frames < 10, "should have ended"),
            Ok(Some(exit)) => panic!("unexpected exit {exit:?}"),
            Err(e) => break e,
        }
    };
    assert!((3..=5).contains(&frames), "{frames}");
    assert!(matches!(err, c128_emu::RunError::Brk(_)));
    assert_eq!(m.output_text(), "DONE");
    assert!(m.screen_text(Screen::Forty).starts_with("DONE\n"));
}

#[test]
fn screen_text_shows_both_screens() {
    let mut a = Asm::new();
    a.print(b"BANKER WINS\r").print(&[0x12]).print(b"9").print(&[0x61]).op(&[0x20, 0x5F, 0xFF]);
    a.print(b"EIGHTY").exit(0);
    let r = c128_emu::run_until_exit(&a.prg(), RunOptions::default()).unwrap();
    let forty = r.machine.screen_text(Screen::Forty);
    assert_eq!(forty.lines().take(2).collect::<Vec<_>>(), ["BANKER WINS", "9♠"]);
    assert!(r.machine.screen_text(Screen::Eighty).starts_with("EIGHTY\n"));
    assert_eq!(r.machine.active_screen(), Screen::Eighty);
    let cells = c128_emu::text::cells(r.machine.bus(), Screen::Forty);
    assert_eq!(cells[1][0].bg, c128_emu::screenshot::VIC_PALETTE[13], "reverse 9");
}

#[test]
fn golden_screenshots_match_and_mismatches_leave_a_diff_elsewhere() {
    let dir = scratch_dir("golden");
    let golden = dir.join("screen.png");
    let diffs = dir.join("diffs");
    let mut a = Asm::new();
    a.print(b"ONE").exit(0);
    let one = c128_emu::run_until_exit(&a.prg(), RunOptions::default()).unwrap();
    let img = one.machine.screenshot(Screen::Forty);
    // A golden picture that does not exist fails (and is not written): only BLESS makes one.
    match compare_golden(&img, &golden, &diffs) {
        Err(GoldenError::Missing { actual, .. }) => assert!(std::path::Path::new(&actual).starts_with(&diffs)),
        other => panic!("{other:?}"),
    }
    assert!(!golden.exists());
    c128_emu::screenshot::save_png(&img, &golden).unwrap();
    compare_golden(&img, &golden, &diffs).unwrap();
    let mut b = Asm::new();
    b.print(b"TWO").exit(0);
    let two = c128_emu::run_until_exit(&b.prg(), RunOptions::default()).unwrap();
    match compare_golden(&two.machine.screenshot(Screen::Forty), &golden, &diffs) {
        Err(GoldenError::Mismatch { pixels, diff, .. }) => {
            assert!(pixels > 0 && pixels < 3 * 64);
            assert!(std::path::Path::new(&diff).starts_with(&diffs) && std::path::Path::new(&diff).exists());
        }
        other => panic!("{other:?}"),
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn unknown_key_names_fail_before_running() {
    let prg = Asm::new().exit(0).prg();
    let opts = RunOptions { keys: Some("{F9}".into()), ..RunOptions::default() };
    let e = start(Program::Prg(&prg), opts).unwrap_err();
    assert!(matches!(e, Error::Keys(_)) && e.to_string().contains("{F9}"), "{e}");
    assert!(c128_emu::keys::named("f1").is_some());
    assert!(c128_emu::keys::named("F9").is_none());
}

#[test]
fn a_wrong_size_disk_is_refused_by_name() {
    let e = start(Program::from_file("GAME.D81", &[0; 10]), RunOptions::default()).unwrap_err();
    assert!(matches!(e, Error::Disk(_)) && e.to_string().contains("GAME.D81"), "{e}");
}

#[test]
fn errors_suit_anyhow_and_the_machine_can_move_to_a_thread() {
    fn send_sync<T: Send + Sync + 'static>() {}
    fn send<T: Send>() {}
    send_sync::<Error>();
    send::<c128_emu::Machine>();
    let prg = Asm::new().exit(3).prg();
    let m = start(Program::Prg(&prg), RunOptions::default()).unwrap();
    let code = std::thread::spawn(move || {
        let mut m = m;
        m.run().unwrap().code
    });
    assert_eq!(code.join().unwrap(), 3);
}
