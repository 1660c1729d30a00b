//! The game from power-on to `READY.`: the title, the options, the players' names, quitting
//! and the saved game. The table itself is in [`crate::play`].

use bac_rules::{Card, Money, Preset, SeatKind, Suit, Table};

use crate::draw::{self, BACKGROUND, HIGHLIGHT, INK};
use crate::face;
use crate::help;
use crate::platform::{DiskError, Platform, Sound, colour, key};
use crate::play::view::View;
use crate::save::{self, MAX_SAVED_SEATS, SaveError, Saved, SavedSeat, Seats};
use crate::settings::{MAX_COMPUTERS, MAX_HUMANS, NAME_LEN, Name, Settings};
use crate::text::{Lang, Msg};

/// The names the computer players go by.
const COMPUTER_NAMES: [&[u8]; MAX_COMPUTERS as usize] = [b"MARCEL", b"SOPHIE"];

/// The title's row for the question whether to quit: under the panel (rows 1 to 11), over
/// the menu.
const TITLE_QUESTION_ROW: u8 = 12;
/// The options' row for the same question: a blank row between two options.
const OPTIONS_QUESTION_ROW: u8 = 9;

/// How the table was left.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Leave {
    /// To the options screen.
    Options,
    /// To BASIC.
    Quit,
}

/// What the title screen chose.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Start {
    New,
    Continue,
    Quit,
}

/// The whole game.
///
/// Each screen and each step of a coup (`title`, `options`, `play`, `bet`, `deal_coup`,
/// ...) is `#[inline(never)]`: inlined into `run`, their locals (a `Table` is over 500
/// bytes) would all sit in one stack frame, more than the C128 build's AVR stack holds.
/// Kept apart, only the screens on the current call chain take stack.
pub struct App<P: Platform> {
    /// The machine.
    pub p: P,
    /// The options in force.
    pub settings: Settings,
    /// The players.
    pub seats: Seats,
    /// A saved game offered on the title screen.
    saved: Option<Saved>,
    /// Why the saved game was not offered, if there was one.
    save_problem: Option<Msg>,
    /// Whether anything was played since the program started (nothing to save otherwise).
    pub played: bool,
    /// The table left for the options screen, kept while the game stays the same.
    pub(crate) table: Option<Table>,
    /// The settings that table was made with.
    pub(crate) table_settings: Settings,
    /// The table screen's memory: scoreboard, results, chip.
    pub(crate) view: View,
    /// Points of the Player hand's third card in the coup being dealt.
    pub(crate) player_third: Option<u8>,
    /// The Loadstar house bank as last left (None: a fresh bank), kept in the save.
    pub house: Option<Money>,
    /// The shuffle's seed from the disk's [`SEED_FILE`], if it has a good one: every table
    /// then deals the same shoe, so a test (or a player) can replay a deal. None: the seed
    /// comes from the clock, as on the shipped disk.
    pub(crate) seed: Option<u32>,
}

/// The file that fixes the shuffle's seed: 4 bytes, a little-endian `u32`. The shipped
/// disk has none; tests put one on a copy to get the same cards in every emulator.
pub const SEED_FILE: &[u8] = b"BAC SEED";

impl<P: Platform> App<P> {
    /// The game on `p`, showing `columns` columns until the options say otherwise.
    pub fn new(p: P, columns: u8) -> App<P> {
        let blank = SavedSeat::BLANK;
        App {
            p,
            settings: Settings::new(columns),
            seats: Seats { seats: [blank; MAX_SAVED_SEATS], count: 0 },
            saved: None,
            save_problem: None,
            played: false,
            table: None,
            table_settings: Settings::new(columns),
            view: View::new(),
            player_third: None,
            house: None,
            seed: None,
        }
    }

    /// The message in the current language. Out of line: every screen calls it, and
    /// game-prg's placement.toml translates it by name (inlined, its copies would run
    /// interpreted in each caller).
    #[inline(never)]
    pub fn t(&self, msg: Msg) -> &'static [u8] {
        msg.text(self.settings.lang)
    }

    /// Plays a sound if sound is on.
    pub fn sound(&mut self, s: Sound) {
        if self.settings.sound {
            self.p.sound(s);
        }
    }

    /// Waits for a key, keeping the frames (and the sound) going.
    pub fn wait_key(&mut self) -> u8 {
        crate::platform::wait_key(&mut self.p)
    }

    /// Waits `frames` frames without reading keys, so a key typed ahead is kept for the
    /// question it was meant for.
    pub fn pause(&mut self, frames: u8) {
        for _ in 0..frames {
            self.p.frame();
        }
    }

    /// Runs the game until the player quits to BASIC. The disk is asked for the seed and
    /// the saved game before the screen is opened: on the C128 the program starts at
    /// BASIC's clock (2 MHz after the boot's FAST, the 40-column screen blank), and the
    /// 40-column screen, once open, runs the machine at 1 MHz.
    pub fn run(&mut self) {
        self.look_for_seed();
        self.look_for_save();
        self.p.set_columns(self.settings.columns, BACKGROUND);
        loop {
            match self.title() {
                Start::Quit => {
                    if self.confirm_quit(TITLE_QUESTION_ROW) {
                        break;
                    }
                    continue;
                }
                Start::Continue => {
                    if let Some(saved) = self.saved.take() {
                        self.settings = saved.settings;
                        self.seats = Seats { seats: saved.seats, count: saved.count };
                        self.house = saved.house;
                        self.p.set_columns(self.settings.columns, BACKGROUND);
                    }
                }
                Start::New => {
                    self.saved = None;
                    self.house = None;
                    if !self.options() {
                        continue;
                    }
                    self.seat_players();
                }
            }
            if self.table_loop() == Leave::Quit {
                break;
            }
        }
        self.quit();
    }

    /// Plays tables until the players quit; the options screen in between may change the
    /// rules or the seats (bankrolls carry over).
    #[inline(never)]
    fn table_loop(&mut self) -> Leave {
        loop {
            match self.play() {
                Leave::Quit => return Leave::Quit,
                Leave::Options => {
                    if self.options() {
                        self.seat_players();
                    } else if self.confirm_quit(OPTIONS_QUESTION_ROW) {
                        return Leave::Quit;
                    }
                }
            }
        }
    }

    /// Reads [`SEED_FILE`] once: exactly 4 bytes make the seed; a missing file, a short or
    /// long one, or any disk error leaves the seed to the clock.
    #[inline(never)]
    fn look_for_seed(&mut self) {
        // One byte more than a seed, so a longer file is told apart (TooLong or 5 bytes).
        let mut buf = [0u8; 5];
        self.seed = match self.p.read(SEED_FILE, &mut buf) {
            Ok(4) => Some(u32::from_le_bytes([buf[0], buf[1], buf[2], buf[3]])),
            _ => None,
        };
    }

    #[inline(never)]
    fn look_for_save(&mut self) {
        let mut buf = [0u8; save::MAX_BYTES + 1];
        let found = match self.p.read(save::FILE, &mut buf) {
            // Quitting was interrupted after the new file was written and the old one
            // scratched: the new one is complete (it was closed before the scratch).
            Err(DiskError::NotFound) => self.p.read(save::NEW_FILE, &mut buf),
            other => other,
        };
        match found {
            Ok(n) => match save::decode(&buf[..n]) {
                Ok(saved) => self.saved = Some(saved),
                Err(SaveError::Version(_)) | Err(SaveError::NotASave) => self.save_problem = Some(Msg::SaveUnknown),
                Err(_) => self.save_problem = Some(Msg::SaveDamaged),
            },
            Err(DiskError::NotFound) => {}
            Err(DiskError::TooLong) => self.save_problem = Some(Msg::SaveDamaged),
            Err(_) => self.save_problem = Some(Msg::DiskTrouble),
        }
    }

    #[inline(never)]
    fn title(&mut self) -> Start {
        loop {
            self.draw_title();
            match self.wait_key() {
                key::RETURN => return Start::New,
                key::F1 if self.saved.is_some() => return Start::Continue,
                key::F1 => return Start::New,
                key::HELP | key::F5 => help::show(&mut self.p, self.settings.lang),
                key::F7 => self.settings.lang = self.settings.lang.other(),
                key::STOP | key::ESC => return Start::Quit,
                _ => {}
            }
        }
    }

    fn draw_title(&mut self) {
        let cols = self.p.columns();
        self.p.set_columns(cols, BACKGROUND);
        let x = (cols - 30) / 2;
        draw::panel(&mut self.p, x, 1, 30, 11, b"");
        draw::centred(&mut self.p, 3, b"B A C C A R A T   1 2 8", HIGHLIGHT);
        let sub = self.t(Msg::Subtitle);
        draw::centred(&mut self.p, 5, sub, INK);
        // A natural nine: the best hand there is.
        let fan = [(13, Suit::Spades), (4, Suit::Hearts), (5, Suit::Diamonds)];
        let (w, h) = face::card_size(cols);
        // Inside the panel, whose bottom edge is row 11.
        let (step, y) = (w + 1, 11 - h);
        for (i, (rank, suit)) in fan.into_iter().enumerate() {
            let x = cols / 2 - (3 * step - 1) / 2 + step * i as u8;
            if let Some(card) = Card::new(rank, suit) {
                face::card(&mut self.p, i as u8, x, y, card);
            }
        }
        let mut y = 14;
        if self.saved.is_some() {
            let line = self.t(Msg::TitleContinue);
            draw::centred(&mut self.p, y, line, colour::YELLOW);
            y += 1;
        } else if let Some(problem) = self.save_problem {
            let line = self.t(problem);
            draw::centred(&mut self.p, y, line, colour::LIGHT_RED);
            y += 1;
        }
        for msg in [Msg::TitleNew, Msg::TitleHelp, Msg::TitleLanguage, Msg::TitleQuit] {
            y += 1;
            let line = self.t(msg);
            draw::centred(&mut self.p, y, line, INK);
        }
        let credit = self.t(Msg::Credit);
        draw::centred(&mut self.p, 24, credit, colour::LIGHT_GREY);
    }

    /// The options screen. Returns false when the player backed out with STOP: the game's
    /// own choices made here (rules, decks, the tie's odds, the players) are then undone, so
    /// that the game in play, its seats and its save stay as they were; the screen's (sound,
    /// language, width) are kept, as they were shown at once.
    #[inline(never)]
    fn options(&mut self) -> bool {
        const LINES: u8 = 8;
        let mut line = 0u8;
        let before = self.settings;
        // The whole screen is drawn when it was wiped (on entry, after the help, after a
        // change of width or of language); a key that moves or changes one line redraws the
        // lines alone, so the screen never blanks under the player's finger.
        let mut whole = true;
        loop {
            self.settings.normalise();
            self.draw_options(line, whole);
            let lang = self.settings.lang;
            let columns = self.settings.columns;
            match self.wait_key() {
                key::DOWN => line = (line + 1) % LINES,
                key::UP => line = (line + LINES - 1) % LINES,
                key::RIGHT | key::SPACE | b'+' => self.change_option(line, true),
                key::LEFT | b'-' => self.change_option(line, false),
                key::RETURN | key::F1 => return true,
                key::HELP | key::F5 => {
                    help::show(&mut self.p, self.settings.lang);
                    whole = true;
                    continue;
                }
                key::STOP | key::ESC => {
                    let s = &mut self.settings;
                    (s.preset, s.decks, s.tie_pays, s.humans, s.computers) =
                        (before.preset, before.decks, before.tie_pays, before.humans, before.computers);
                    return false;
                }
                _ => self.sound(Sound::Error),
            }
            whole = self.settings.lang != lang || self.settings.columns != columns;
        }
    }

    fn change_option(&mut self, line: u8, up: bool) {
        let s = &mut self.settings;
        let step = |v: u8, low: u8, high: u8| -> u8 {
            if up {
                if v >= high { low } else { v + 1 }
            } else if v <= low {
                high
            } else {
                v - 1
            }
        };
        match line {
            0 => {
                let i = Preset::ALL.iter().position(|&p| p == s.preset).unwrap_or(0) as u8;
                s.preset = Preset::ALL[usize::from(step(i, 0, Preset::ALL.len() as u8 - 1))];
                // A new rule set starts from its own shoe.
                s.decks = bac_rules::RuleSet::preset(s.preset).decks;
            }
            1 => {
                let (low, high) = s.preset.customary_decks();
                s.decks = step(s.decks, low, high);
            }
            2 if s.tie_choice() => s.tie_pays = step(s.tie_pays, 8, 9),
            3 => s.humans = step(s.humans, 1, MAX_HUMANS),
            4 if s.computers_allowed() => s.computers = step(s.computers, 0, MAX_COMPUTERS),
            5 => s.sound = !s.sound,
            6 => s.lang = s.lang.other(),
            7 => {
                s.columns = if s.columns == 80 { 40 } else { 80 };
                let cols = s.columns;
                self.p.set_columns(cols, BACKGROUND);
            }
            _ => {
                self.sound(Sound::Error);
                return;
            }
        }
        self.sound(Sound::Chip);
    }

    /// Draws the options, the title and the keys too when `whole` (see [`Self::options`]).
    fn draw_options(&mut self, selected: u8, whole: bool) {
        const LABELS: [Msg; 8] = [
            Msg::OptRules,
            Msg::OptDecks,
            Msg::OptTie,
            Msg::OptPlayers,
            Msg::OptComputers,
            Msg::OptSound,
            Msg::OptLanguage,
            Msg::OptScreen,
        ];
        let cols = self.p.columns();
        if whole {
            face::clear_screen(&mut self.p);
            let title = self.t(Msg::OptionsTitle);
            draw::centred(&mut self.p, 1, title, HIGHLIGHT);
            let keys = self.t(Msg::OptionsKeys);
            draw::centred(&mut self.p, 22, keys, colour::LIGHT_GREY);
            let keys2 = self.t(Msg::OptionsKeys2);
            draw::centred(&mut self.p, 23, keys2, colour::LIGHT_GREY);
        }
        let s = self.settings;
        let x = if cols == 80 { 20 } else { 2 };
        // The values start one column after the longest label of the language (French's
        // `JOUEURS ORDINATEUR` is 18 long: a fixed 17 wrote the value over its last letter).
        let longest = LABELS.iter().map(|&m| self.t(m).len()).max().unwrap_or(0) as u8;
        let value_x = x + longest + 1;
        let yes_no = |on: bool| if on { Msg::On } else { Msg::Off };
        // Seeds 003 and 004 have no tie bet; seed 002 fixes it at 8 to 1.
        let tie = if s.rules().pays.tie.is_none() {
            Msg::NoTieBet
        } else if s.tie_choice() {
            Msg::Empty
        } else {
            Msg::TieFixed
        };
        let rows: [(Msg, u32); 8] = [
            (Msg::preset(s.preset), 0),
            (Msg::Empty, u32::from(s.decks)),
            (tie, u32::from(s.tie_pays)),
            (Msg::Empty, u32::from(s.humans)),
            (if s.computers_allowed() { Msg::Empty } else { Msg::ChemOnly }, u32::from(s.computers)),
            (yes_no(s.sound), 0),
            (Msg::LanguageName, 0),
            (Msg::Empty, u32::from(s.columns)),
        ];
        for (i, ((value, n), label)) in rows.iter().zip(LABELS).enumerate() {
            let y = 4 + 2 * i as u8;
            self.p.fill(x, y, cols - x, 1, draw::glyph::SPACE, INK);
            let ink = if i as u8 == selected { HIGHLIGHT } else { INK };
            let label = self.t(label);
            if i as u8 == selected {
                draw::text_reversed(&mut self.p, x, y, label, ink);
            } else {
                draw::text(&mut self.p, x, y, label, ink);
            }
            // Every value starts in one column: a number (with a note after it in grey), or
            // a word.
            let mut at = value_x;
            let note = *value == Msg::TieFixed || *value == Msg::ChemOnly;
            if *value == Msg::Empty || note {
                at = draw::text(&mut self.p, at, y, crate::num::number(*n).as_bytes(), ink);
                if i == 2 {
                    let to_one = self.t(Msg::ToOne);
                    at = draw::text(&mut self.p, at, y, to_one, ink);
                }
                at += 1;
            }
            if *value != Msg::Empty {
                let v = self.t(*value);
                draw::text(&mut self.p, at, y, v, if note { colour::LIGHT_GREY } else { ink });
            }
        }
    }

    /// Seats the players the options call for: people keep their names and bankrolls
    /// where they already sat, new people type a name, computers take theirs.
    #[inline(never)]
    fn seat_players(&mut self) {
        let s = self.settings;
        let start = s.rules().starting_bankroll;
        let old = self.seats;
        let mut seats = old;
        let mut count = 0usize;
        let humans = old.seats[..usize::from(old.count)].iter().filter(|seat| seat.kind == SeatKind::Human);
        let mut kept = 0u8;
        for seat in humans.take(usize::from(s.humans)) {
            seats.seats[count] = *seat;
            count += 1;
            kept += 1;
        }
        for n in kept..s.humans {
            let name = self.ask_name(n);
            seats.seats[count] = SavedSeat { name, bankroll: start, ..SavedSeat::BLANK };
            count += 1;
        }
        for name in COMPUTER_NAMES.iter().take(usize::from(s.computers)) {
            let previous = old.seats[..usize::from(old.count)]
                .iter()
                .find(|seat| seat.kind == SeatKind::Computer && seat.name.as_bytes() == *name);
            let bankroll = previous.map_or(start, |seat| seat.bankroll);
            let tie_stake = previous.map_or(Money::ZERO, |seat| seat.tie_stake);
            seats.seats[count] = SavedSeat { kind: SeatKind::Computer, name: Name::new(name), bankroll, tie_stake };
            count += 1;
        }
        seats.count = count as u8;
        self.seats = seats;
    }

    fn ask_name(&mut self, n: u8) -> Name {
        let mut name = Name::EMPTY;
        face::clear_screen(&mut self.p);
        let prompt = self.t(Msg::AskName);
        let at = draw::centred_at(&mut self.p, 10, prompt, HIGHLIGHT);
        draw::text(&mut self.p, at, 10, crate::num::number(u32::from(n) + 1).as_bytes(), HIGHLIGHT);
        let x = self.p.columns() / 2 - 6;
        draw::panel(&mut self.p, x - 1, 11, 13, 3, b"");
        let hint = self.t(Msg::NameKeys);
        draw::centred(&mut self.p, 15, hint, colour::LIGHT_GREY);
        loop {
            // Only the field is drawn again, a dozen cells: a whole screen takes frames,
            // and a key pressed and let go meanwhile would be lost.
            let end = draw::text(&mut self.p, x + 1, 12, name.as_bytes(), INK);
            let field_end = x + 1 + NAME_LEN as u8;
            if end < field_end {
                self.p.put(end, 12, draw::glyph::SPACE | draw::glyph::REVERSE, INK);
                self.p.fill(end + 1, 12, field_end - end - 1, 1, draw::glyph::SPACE, INK);
            }
            match self.wait_key() {
                key::RETURN => break,
                key::STOP => {
                    name = Name::EMPTY;
                    break;
                }
                key::DEL => name.pop(),
                k => {
                    if !name.push(k) {
                        self.sound(Sound::Error);
                    }
                }
            }
        }
        // A name of nothing but blanks would be a blank seat.
        if name.as_bytes().iter().all(|&c| c == b' ') {
            let mut default = Name::new(self.t(Msg::DefaultName));
            default.push(b' ');
            default.push(b'1' + n);
            return default;
        }
        name
    }

    /// Asks on `row` whether to quit to BASIC: at the title the row under its panel (the
    /// panel's cards lie on white faces, which a question written over them would sit on),
    /// at the options a blank row between two options.
    pub fn confirm_quit(&mut self, row: u8) -> bool {
        draw::clear_rows(&mut self.p, row, 2);
        let q = self.t(Msg::ReallyQuit);
        draw::centred(&mut self.p, row, q, HIGHLIGHT);
        loop {
            // Y, and in French O ("oui") too: the English question's O must not quit (it
            // reads as "Options" there, and a player may try it).
            let french = self.settings.lang == Lang::French;
            match self.wait_key() {
                b'Y' => return true,
                b'O' if french => return true,
                b'N' | key::STOP | key::ESC => return false,
                _ => {}
            }
        }
    }

    /// Saves the bankrolls and says how it went. When the save fails (a write-protected or
    /// full disk, a missing drive) the player may fix the disk and try again, or leave
    /// without saving: the bankrolls are never dropped without being asked.
    #[inline(never)]
    fn quit(&mut self) {
        if !self.played || self.seats.count == 0 {
            return;
        }
        let saved =
            Saved { settings: self.settings, seats: self.seats.seats, count: self.seats.count, house: self.house };
        let mut buf = [0u8; save::MAX_BYTES];
        let n = save::encode(&saved, &mut buf);
        loop {
            // The disk takes seconds: the screen says what it is doing meanwhile.
            face::clear_screen(&mut self.p);
            let saving = self.t(Msg::Saving);
            draw::centred(&mut self.p, 11, saving, INK);
            let result = self.replace_save(&buf[..n]);
            face::clear_screen(&mut self.p);
            let msg = match result {
                Ok(()) => Msg::Saved,
                Err(DiskError::WriteProtected) => Msg::WriteProtected,
                Err(DiskError::DiskFull) => Msg::DiskFull,
                Err(_) => Msg::DiskTrouble,
            };
            let line = self.t(msg);
            draw::centred(&mut self.p, 11, line, if result.is_ok() { INK } else { colour::LIGHT_RED });
            if result.is_err() {
                self.sound(Sound::Error);
                let retry = self.t(Msg::SaveRetry);
                draw::centred(&mut self.p, 13, retry, HIGHLIGHT);
                let again = loop {
                    match self.wait_key() {
                        key::RETURN => break true,
                        key::STOP | key::ESC => break false,
                        _ => {}
                    }
                };
                if again {
                    continue;
                }
                draw::clear_rows(&mut self.p, 13, 1);
            }
            break;
        }
        let bye = self.t(Msg::Goodbye);
        draw::centred(&mut self.p, 13, bye, INK);
        self.pause(100);
    }

    /// Writes the new save beside the old one, and only then scratches the old one and
    /// renames the new: whatever fails, one complete save stays on the disk.
    fn replace_save(&mut self, bytes: &[u8]) -> Result<(), DiskError> {
        match self.p.scratch(save::NEW_FILE) {
            Ok(()) | Err(DiskError::NotFound) => {}
            Err(e) => return Err(e),
        }
        self.p.write(save::NEW_FILE, bytes)?;
        match self.p.scratch(save::FILE) {
            Ok(()) | Err(DiskError::NotFound) => {}
            Err(e) => return Err(e),
        }
        self.p.rename(save::NEW_FILE, save::FILE)
    }
}

impl Lang {
    /// The other language.
    pub fn other(self) -> Lang {
        match self {
            Lang::English => Lang::French,
            Lang::French => Lang::English,
        }
    }
}
