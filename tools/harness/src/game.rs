//! The C128 game (`firmware/game-prg`) in the emulator, played with keys the way a person
//! plays it, for the game's tests and `bac bench`.
//!
//! Keys are typed when the game asks for one: the game reads the key matrix once a frame
//! while it waits (its `Platform::key`), reports a key once when it goes down, and does not
//! look at the keyboard while it draws or deals. So [`Game::keys`] runs the machine until the
//! program is in that routine (twice: the game must see every key up before a new one goes
//! down), holds the key down for [`HOLD_FRAMES`] frames, and runs on until the game asks
//! again: each key is read exactly once, however long the game takes to answer it.

use c128_emu::keys::{KeyEvent, parse_keys};
use c128_emu::{Config, Exit, Machine, Program, RunOptions, Screen, start};

use crate::profile::Profiler;

/// Where the game posts each settled coup (see firmware/game-prg/src/c128.rs).
pub const MAILBOX: u16 = c128_map::test::MAILBOX;
/// Frames a key typed by [`Game::keys`] stays down (a quick typist's press).
pub const HOLD_FRAMES: u64 = 3;
/// The zero-page address of AVR register r22, where a translated function's `u32` result
/// starts (the translator's register map).
const AVR_R22: u16 = avr2mos::mmap::REGS as u16 + 22;
/// Frames the game may take to answer one key before it is called stuck.
pub const MAX_FRAMES_PER_KEY: u64 = 3_000;

/// The address of `<C128 as Keys>::key` in the game's symbol map (`bac.map`).
pub fn key_routine(map: &str) -> Option<u16> {
    symbol(map, |name| name.contains("C128") && name.ends_with("Keys3key"))
}

/// The address of `<C128 as Clock>::frame` (the game's wait for the next frame) in the
/// symbol map.
pub fn frame_routine(map: &str) -> Option<u16> {
    symbol(map, |name| name.contains("C128") && name.ends_with("Clock5frame"))
}

/// The address of `<C128 as Clock>::ticks` (the shuffle's seed) in the symbol map.
pub fn ticks_routine(map: &str) -> Option<u16> {
    symbol(map, |name| name.contains("C128") && name.ends_with("Clock5ticks"))
}

/// The first symbol of a map (`addr name` lines) whose name passes `wanted`.
pub fn symbol(map: &str, wanted: impl Fn(&str) -> bool) -> Option<u16> {
    map.lines().find_map(|l| {
        let (addr, name) = l.split_once(' ')?;
        if wanted(name) { u16::from_str_radix(addr, 16).ok() } else { None }
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
    /// With [`Game::fix_seed`]: the ticks routine's address and the value it returns.
    seed: Option<(u16, u32)>,
    /// With [`Game::watch`]: counts every instruction the machine runs.
    pub profiler: Option<Profiler>,
    /// Entering one of these resets the profiler: it profiles from the last visit.
    profile_from: Vec<u16>,
}

impl Game {
    /// Boots `image` (40 columns, or 80 with the 40/80 key down) and runs it to the title
    /// screen's first key request. `key_routine` is from [`key_routine`].
    pub fn boot(image: &[u8], eighty: bool, key_routine: u16) -> Game {
        let config = Config { eighty_columns: eighty, ..Config::default() };
        Game::boot_with(image, config, key_routine)
    }

    /// [`Game::boot`] on a machine of another configuration (NTSC, say).
    pub fn boot_with(image: &[u8], mut config: Config, key_routine: u16) -> Game {
        config.max_cycles = u64::MAX;
        let options = RunOptions { config, ..RunOptions::default() };
        let m = start(Program::D81 { image, origin: "bac.d81" }, options).expect("boots");
        let mut g = Game {
            m,
            key_routine,
            settles: Vec::new(),
            last_mailbox: [0; 10],
            exit: None,
            seed: None,
            profiler: None,
            profile_from: Vec::new(),
        };
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

    /// CPU cycles in one frame at the clock the program runs at now (FAST doubles them).
    fn frame_cycles(&self) -> u64 {
        self.m.config.standard.cycles_per_frame() * if self.m.bus().vic.fast() { 2 } else { 1 }
    }

    /// The cycle count by which the game must have asked for a key again: at most
    /// [`MAX_FRAMES_PER_KEY`] frames from now, counted at 2 MHz.
    fn key_deadline(&self) -> u64 {
        self.m.cpu.cycles + MAX_FRAMES_PER_KEY * self.m.config.standard.cycles_per_frame() * 2
    }

    /// Runs to one of `pcs` (see [`Machine::run_to`]) or `limit`. Returns whether the
    /// program is still running (its exit is kept); panics with the screen if it crashed.
    fn run_to(&mut self, pcs: &[u16], limit: u64) -> bool {
        loop {
            let mut stops = pcs.to_vec();
            stops.extend(self.seed.map(|(at, _)| at));
            let result =
                if self.profiler.is_some() { self.run_profiled(&stops, limit) } else { self.m.run_to(&stops, limit) };
            match result {
                Ok(Some(exit)) => {
                    self.exit = Some(exit);
                    return false;
                }
                Ok(None) => {}
                Err(e) => panic!("the game crashed: {e}\n{}", self.text()),
            }
            match self.seed {
                Some((at, value)) if self.m.cpu.registers.program_counter == at && !pcs.contains(&at) => {
                    self.return_from_ticks(value)
                }
                _ => return true,
            }
        }
    }

    /// [`Machine::run_to`] one instruction at a time, each counted by the profiler.
    fn run_profiled(&mut self, stops: &[u16], limit: u64) -> Result<Option<Exit>, c128_emu::RunError> {
        let Some(mut profiler) = self.profiler.take() else { return self.m.run_to(stops, limit) };
        let result = loop {
            let pc = self.m.cpu.registers.program_counter;
            if self.profile_from.contains(&pc) {
                profiler.reset();
            }
            let before = self.m.cpu.cycles;
            let result = self.m.run_until(before + 1);
            profiler.count(&self.m, pc, self.m.cpu.cycles - before);
            let at = self.m.cpu.registers.program_counter;
            if !matches!(result, Ok(None)) || self.m.cpu.cycles >= limit || stops.contains(&at) {
                break result;
            }
        };
        self.profiler = Some(profiler);
        result
    }

    /// Profiles everything the game runs from now on (until [`Game::profiler`] is taken),
    /// from the last time it entered one of `from` (from now, if empty).
    pub fn watch(&mut self, profiler: Profiler, from: &[u16]) {
        self.profiler = Some(profiler);
        self.profile_from = from.to_vec();
    }

    /// Makes the game's `Platform::ticks`, from which it seeds the shuffle, return `value`
    /// from now on, so that a coup deals the same cards however the code is laid out: the
    /// seed is the frame count and the raster line when the game asks, and a build in
    /// another directory (other crate hashes, another layout, other cycle counts) asks at
    /// another line. `ticks_routine` is from [`ticks_routine`].
    pub fn fix_seed(&mut self, ticks_routine: u16, value: u32) {
        self.seed = Some((ticks_routine, value));
    }

    /// Returns from the translated `ticks` at its entry with `value`, as its own `RTS`
    /// would: the result in AVR registers r22-r25, the return address from the 6502 stack.
    fn return_from_ticks(&mut self, value: u32) {
        for (i, byte) in value.to_le_bytes().into_iter().enumerate() {
            self.m.bus_mut().ram_poke(0, AVR_R22 + i as u16, byte);
        }
        let sp = self.m.cpu.registers.stack_pointer.0;
        let lo = self.m.bus().ram_peek(0, 0x0100 | u16::from(sp.wrapping_add(1)));
        let hi = self.m.bus().ram_peek(0, 0x0100 | u16::from(sp.wrapping_add(2)));
        self.m.cpu.registers.stack_pointer.0 = sp.wrapping_add(2);
        self.m.cpu.registers.program_counter = u16::from_le_bytes([lo, hi]).wrapping_add(1);
    }

    fn at_key_request(&self) -> bool {
        self.m.cpu.registers.program_counter == self.key_routine
    }

    /// Runs until the game reads the keyboard (or ends). Panics if it takes longer than
    /// [`MAX_FRAMES_PER_KEY`] frames: the game is stuck.
    pub fn wait_for_key_request(&mut self) {
        if self.exit.is_none()
            && !self.at_key_request()
            && self.run_to(&[self.key_routine], self.key_deadline())
            && !self.at_key_request()
        {
            panic!("the game has not asked for a key for {MAX_FRAMES_PER_KEY} frames:\n{}", self.text());
        }
        // The game posts a settle byte by byte; while it waits for a key the post is whole.
        self.note_settle();
    }

    fn step(&mut self, cycles: u64) {
        self.run_to(&[], self.m.cpu.cycles + cycles);
    }

    /// Presses one key of a script when the game asks for one, holds it [`HOLD_FRAMES`]
    /// frames and lets it go for a frame (a wait just lets its frames pass).
    fn press(&mut self, event: KeyEvent) {
        // Let the game read the keyboard once with the last key up: it reports a key when
        // it sees it go down, so a key pressed again at once would not count.
        self.wait_for_key_request();
        self.step(1);
        self.wait_for_key_request();
        let frame = self.frame_cycles();
        match event {
            KeyEvent::Press(press) => {
                for &k in &press.keys {
                    self.m.bus_mut().keyboard.set_key(k, true);
                }
                self.step(HOLD_FRAMES * frame);
                for &k in &press.keys {
                    self.m.bus_mut().keyboard.set_key(k, false);
                }
                self.step(frame);
            }
            KeyEvent::Wait(frames) => self.step(u64::from(frames) * frame),
        }
    }

    /// Types a script (characters, names in braces as `bac run --keys` spells them), each
    /// key when the game asks for one; runs until it asks again or ends.
    ///
    /// Each key goes down when the game asks for the second time (so that it has seen the
    /// keyboard with every key up: the driver ignores keys held since it last looked) and
    /// is held for [`HOLD_FRAMES`] frames.
    pub fn keys(&mut self, script: &str) {
        for event in parse_keys(script).unwrap_or_else(|e| panic!("{script:?}: {e}")) {
            if self.exit.is_some() {
                return;
            }
            self.press(event);
            self.wait_for_key_request();
        }
    }

    /// Types `script` as [`Game::keys`] does, then holds the keys of `held` (if any) down
    /// from when the script's last key is let go until the game next asks for a key, and
    /// lets them go there. Returns how many times the program entered `routine` on that
    /// way (with the frame routine: the frames the game waited, say while it dealt).
    pub fn keys_holding(&mut self, script: &str, held: Option<&str>, routine: u16) -> u64 {
        self.keys_then_go_on(script);
        self.hold_until_key_request(held, routine)
    }

    /// Types `script` as [`Game::keys`] does, but runs on after its last key only the frame
    /// it is let go for, not until the game asks again: for what happens while the game
    /// acts on that key (a deal).
    pub fn keys_then_go_on(&mut self, script: &str) {
        let mut events = parse_keys(script).unwrap_or_else(|e| panic!("{script:?}: {e}"));
        let last = events.pop().unwrap_or_else(|| panic!("{script:?}: no key"));
        for event in events {
            self.press(event);
            self.wait_for_key_request();
        }
        self.press(last);
    }

    /// Presses `key` for a frame and lets it go for a frame, `times` times, without waiting
    /// for the game to ask: each press and each release is a new reading of the matrix for
    /// the key ring, so a game that takes no key meanwhile (a deal) sees its ring fill.
    pub fn toggle(&mut self, key: &str, times: u32) {
        let keys: Vec<_> = parse_keys(key)
            .unwrap_or_else(|e| panic!("{key:?}: {e}"))
            .into_iter()
            .flat_map(|e| match e {
                KeyEvent::Press(p) => p.keys,
                KeyEvent::Wait(_) => Vec::new(),
            })
            .collect();
        let frame = self.frame_cycles();
        for _ in 0..times {
            for down in [true, false] {
                for &k in &keys {
                    self.m.bus_mut().keyboard.set_key(k, down);
                }
                self.step(frame);
            }
        }
    }

    /// Holds the keys of `held` (if any) down until the game next asks for a key and lets
    /// them go there. Returns how many times the program entered `routine` on that way.
    pub fn hold_until_key_request(&mut self, held: Option<&str>, routine: u16) -> u64 {
        let held: Vec<_> = match held.map(parse_keys) {
            Some(Ok(events)) => events
                .into_iter()
                .flat_map(|e| match e {
                    KeyEvent::Press(p) => p.keys,
                    KeyEvent::Wait(_) => Vec::new(),
                })
                .collect(),
            Some(Err(e)) => panic!("{held:?}: {e}"),
            None => Vec::new(),
        };
        for &k in &held {
            self.m.bus_mut().keyboard.set_key(k, true);
        }
        let mut entered = 0;
        let limit = self.key_deadline();
        while self.exit.is_none() && self.run_to(&[self.key_routine, routine], limit) && !self.at_key_request() {
            if self.m.cpu.cycles >= limit {
                panic!("the game has not asked for a key for {MAX_FRAMES_PER_KEY} frames:\n{}", self.text());
            }
            entered += 1;
        }
        for &k in &held {
            self.m.bus_mut().keyboard.set_key(k, false);
        }
        self.note_settle();
        entered
    }

    /// Runs `frames` frames with no key down, then until the game asks for a key.
    pub fn idle(&mut self, frames: u64) {
        let frame = self.frame_cycles();
        self.step(frames * frame);
        self.wait_for_key_request();
    }

    /// Types a key without waiting for the game to ask: it goes down at once and stays down
    /// for the usual two frames, and is lost if the game is busy all that time, as a key
    /// pressed during a deal is on the real machine. Every key request on the way is used to
    /// read the mailbox. For fuzzing, where keys should keep coming whatever the game does.
    pub fn type_blind(&mut self, key: &str) {
        self.m.bus_mut().keyboard.type_events(parse_keys(key).unwrap_or_else(|e| panic!("{key:?}: {e}")));
        while !self.m.bus().keyboard.script_done() && self.run_to(&[self.key_routine], self.m.cpu.cycles + 2_000) {
            if self.at_key_request() {
                self.note_settle();
            }
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

    /// Types one key as [`Game::keys`] does, then runs until the game asks for the next,
    /// returning the cycles from the last time the program entered any of `marks` to that
    /// request (`None` if it never did): how long the game took from, say, drawing the last
    /// card to its settled screen.
    pub fn time_from_last(&mut self, key: &str, marks: &[u16]) -> Option<u64> {
        let (entries, end) = self.entries_until_key(key, marks)?;
        entries.last().map(|at| end - at)
    }

    /// Types one key as [`Game::keys`] does, then runs until the game asks for the next,
    /// returning the cycle count at each entry into any of `marks` and at that request
    /// (`None` if the program ended): when each card of a coup was drawn, say.
    pub fn entries_until_key(&mut self, key: &str, marks: &[u16]) -> Option<(Vec<u64>, u64)> {
        self.until_key_noting(key, marks, |g| g.m.cpu.cycles)
    }

    /// Types one key as [`Game::keys`] does, then runs until the game asks for the next,
    /// returning the screen as the player sees it ([`Game::text`]) at each entry into any of
    /// `marks` (`None` if the program ended): what showed as each card was drawn, say.
    pub fn screens_until_key(&mut self, key: &str, marks: &[u16]) -> Option<Vec<String>> {
        self.until_key_noting(key, marks, |g| g.text()).map(|(screens, _)| screens)
    }

    /// [`Game::entries_until_key`] with what `note` reads at each entry (and the cycle
    /// count at the key request): the sprites on as a routine starts, say.
    pub fn until_key_noting<T>(
        &mut self,
        key: &str,
        marks: &[u16],
        note: impl Fn(&Self) -> T,
    ) -> Option<(Vec<T>, u64)> {
        for event in parse_keys(key).unwrap_or_else(|e| panic!("{key:?}: {e}")) {
            self.press(event);
        }
        if self.exit.is_some() {
            return None;
        }
        let mut stops = marks.to_vec();
        stops.push(self.key_routine);
        let mut entries = Vec::new();
        let limit = self.key_deadline();
        while self.run_to(&stops, limit) && !self.at_key_request() {
            if self.m.cpu.cycles >= limit {
                panic!("the game has not asked for a key for {MAX_FRAMES_PER_KEY} frames:\n{}", self.text());
            }
            entries.push(note(self));
        }
        if self.exit.is_some() {
            return None;
        }
        self.note_settle();
        Some((entries, self.m.cpu.cycles))
    }
}
