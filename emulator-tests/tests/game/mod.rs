//! The C128 game (`firmware/game-prg`) on its real disk (`disk/bac.toml`), booted in the
//! emulator and played with keys, for the game tests.
//!
//! Keys are typed when the game asks for one: the game reads the key matrix once a frame
//! while it waits (its `Platform::key`), reports a key once when it goes down, and does not
//! look at the keyboard while it draws or deals. So [`Game::keys`] runs the machine until the
//! program is in that routine, holds the key down for the emulator's usual two frames, and
//! runs on until the game asks again: each key is read exactly once, however long the game
//! takes to answer it.

#![allow(dead_code)] // Each test binary uses a different part of this module.

use std::path::Path;
use std::sync::OnceLock;

use emulator_tests::keys::parse_keys;
use emulator_tests::{Exit, Machine, Program, RunOptions, Screen, start};

#[path = "../build/mod.rs"]
mod build;

/// Where the game posts each settled coup (see firmware/game-prg/src/c128.rs).
pub const MAILBOX: u16 = 0x0B00;
/// Frames the game may take to answer one key before the test calls it stuck.
const MAX_FRAMES_PER_KEY: u64 = 3_000;

/// The built game: its disk image and the address of its key routine.
pub struct Built {
    /// `bac.d81` as `bac disk build` makes it.
    pub image: Vec<u8>,
    /// The 6502 address of `<C128 as Platform>::key`.
    pub key_routine: u16,
}

/// Builds the game and its disk once for the whole test binary.
pub fn built() -> &'static Built {
    static BUILT: OnceLock<Built> = OnceLock::new();
    BUILT.get_or_init(|| {
        let report = build::program("firmware/game-prg", "bac");
        assert!(report.bank1.is_some(), "the game keeps its interpreted code in bank 1");
        let manifest = Path::new(env!("CARGO_MANIFEST_DIR")).join("../disk/bac.toml");
        let disk = d81::Manifest::load(&manifest)
            .and_then(|m| m.build(Some(&report.prg)))
            .unwrap_or_else(|e| panic!("building the disk: {e}"));
        let map = std::fs::read_to_string(&report.map).unwrap();
        let key_routine = map
            .lines()
            .find(|l| l.contains("C128") && l.ends_with("Platform3key"))
            .and_then(|l| u16::from_str_radix(l.split(' ').next()?, 16).ok())
            .expect("the key routine in the symbol map");
        Built { image: disk.as_bytes().to_vec(), key_routine }
    })
}

/// One settled coup as the mailbox reports it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Settle {
    /// Coups settled since the table opened.
    pub coups: u16,
    /// All money at the table before the coup, in cents.
    pub before: u32,
    /// And after it.
    pub after: u32,
}

/// A game being played.
pub struct Game {
    /// The machine.
    pub m: Machine,
    key_routine: u16,
    /// Every settle seen, in order.
    pub settles: Vec<Settle>,
    last_mailbox: [u8; 10],
    /// Set when the program has ended.
    pub exit: Option<Exit>,
}

impl Game {
    /// Boots `image` (40 columns, or 80 with the 40/80 key down).
    pub fn boot(image: &[u8], eighty: bool) -> Game {
        let mut options = RunOptions::default();
        options.config.eighty_columns = eighty;
        options.config.max_cycles = u64::MAX;
        let m = start(Program::D81 { image, origin: "bac.d81" }, options).expect("boots");
        let key_routine = built().key_routine;
        let mut g = Game { m, key_routine, settles: Vec::new(), last_mailbox: [0; 10], exit: None };
        g.wait_for_key_request();
        // The game clears the mailbox as it starts (it held the boot sector).
        assert_eq!(g.mailbox(), [0; 10], "the mailbox is clear at the title screen");
        g.last_mailbox = g.mailbox();
        g.settles.clear();
        g
    }

    fn mailbox(&self) -> [u8; 10] {
        core::array::from_fn(|i| self.m.bus().ram_peek(0, MAILBOX + i as u16))
    }

    fn note_settle(&mut self) {
        let b = self.mailbox();
        if b != self.last_mailbox {
            self.last_mailbox = b;
            self.settles.push(Settle {
                coups: u16::from_le_bytes([b[0], b[1]]),
                before: u32::from_le_bytes([b[2], b[3], b[4], b[5]]),
                after: u32::from_le_bytes([b[6], b[7], b[8], b[9]]),
            });
        }
    }

    /// Runs until the game reads the keyboard (or ends). Panics if it takes longer than
    /// [`MAX_FRAMES_PER_KEY`] frames: the game is stuck.
    pub fn wait_for_key_request(&mut self) {
        let limit = self.m.bus().frames + MAX_FRAMES_PER_KEY;
        while self.exit.is_none() && self.m.cpu.registers.program_counter != self.key_routine {
            if self.m.bus().frames > limit {
                panic!("the game has not asked for a key for {MAX_FRAMES_PER_KEY} frames:\n{}", self.text());
            }
            self.step(1);
        }
        // The game posts a settle byte by byte; while it waits for a key the post is whole.
        self.note_settle();
    }

    fn step(&mut self, cycles: u64) {
        match self.m.run_until(self.m.cpu.cycles + cycles) {
            Ok(Some(exit)) => self.exit = Some(exit),
            Ok(None) => {}
            Err(e) => panic!("the game crashed: {e}\n{}", self.text()),
        }
    }

    /// Types a script (characters, names in braces as `bac run --keys` spells them), each
    /// key when the game asks for one; runs until it asks again or ends.
    pub fn keys(&mut self, script: &str) {
        for event in parse_keys(script).unwrap_or_else(|e| panic!("{script:?}: {e}")) {
            if self.exit.is_some() {
                return;
            }
            self.wait_for_key_request();
            self.m.bus_mut().keyboard.type_events([event]);
            while !self.m.bus().keyboard.script_done() && self.exit.is_none() {
                self.step(2_000);
            }
            self.wait_for_key_request();
        }
    }

    /// The active screen as text.
    pub fn text(&self) -> String {
        self.m.screen_text(self.m.active_screen())
    }

    /// One screen as text.
    pub fn screen(&self, screen: Screen) -> String {
        self.m.screen_text(screen)
    }

    /// The disk as the game left it.
    pub fn disk(&self) -> d81::Disk {
        d81::Disk::from_bytes(&self.m.disk_image().expect("a disk in drive 8")).expect("a good image")
    }
}
