//! The game on a scripted stand-in for the C128: keys in, screen text and money out.

use bac_game::App;
use bac_game::platform::{self, DiskError, Sound, key};
use bac_game::save::Seats;
use bac_game::text::Lang;
use bac_rules::{Event, Table};
use std::collections::{HashMap, VecDeque};

/// Frames after which a run is a hang.
const MAX_FRAMES: u64 = 50_000_000;
/// Keys fed once the script is used up, in a pseudo-random order until the game ends:
/// every screen leaves through them (STOP then Y quits, D answers a question). Random,
/// because pauses that swallow keys could otherwise keep a fixed cycle out of phase.
const WAY_OUT: [u8; 4] = [key::STOP, b'Y', key::STOP, b'D'];

/// A player who reads the screen (see [`Stand::player`]).
type Reader = dyn FnMut(&str, usize) -> String;

struct Stand {
    cols: u8,
    cells: Vec<[u8; 80]>,
    keys: VecDeque<u8>,
    way_out: usize,
    frames: u64,
    files: HashMap<Vec<u8>, Vec<u8>>,
    write_protected: bool,
    help: Option<(Vec<u8>, usize)>,
    settles: Vec<(u16, u32, u32)>,
    /// The screen as the game first asks for a key after each settled coup.
    settled_screens: Vec<String>,
    /// The screen at every key the game asks for, when `record_screens` is set.
    screens: Vec<String>,
    record_screens: bool,
    /// Cells written so far, and with `record_screens` the count as each screen was taken:
    /// what a key cost the screen (a whole screen is 1,000 cells at 40 columns).
    written: usize,
    written_at_screens: Vec<usize>,
    /// With `record_frames`: each new screen a frame shows, with the coups settled by then.
    frames_seen: Vec<(usize, String)>,
    record_frames: bool,
    sounds: Vec<Sound>,
    /// A player who reads the screen: when the script is used up, it gets the screen and
    /// the coups settled so far and answers with more keys (as [`keys`] reads them); an
    /// empty answer lets the way-out keys end the game.
    player: Option<Box<Reader>>,
    /// SPACE held down all along: every deal is hurried.
    space_held: bool,
    /// The frame count when the game last took a key, and for each settled coup the frames
    /// from then (the key that dealt it) to its settlement.
    last_key_frame: u64,
    deal_frames: Vec<u64>,
    /// The money checker, fed by [`Platform::audit`] and every save written (see [`Ledger`]).
    ledger: Option<Ledger>,
    /// Frames after which this run is a hang.
    max_frames: u64,
    /// The screen as each file was written.
    write_screens: Vec<String>,
    /// The screen as each help file was opened (paging back opens it anew).
    help_open_screens: Vec<String>,
    /// The memory the platform spares for the help text read (empty: none).
    spare: Vec<u8>,
    /// Bytes of help text read from the disk.
    help_bytes_read: usize,
}

impl Stand {
    fn new(script: &[u8]) -> Stand {
        Stand {
            cols: 40,
            cells: vec![[b' '; 80]; 25],
            keys: script.iter().copied().collect(),
            way_out: 0,
            frames: 0,
            files: HashMap::new(),
            write_protected: false,
            help: None,
            settles: Vec::new(),
            settled_screens: Vec::new(),
            screens: Vec::new(),
            record_screens: false,
            written: 0,
            written_at_screens: Vec::new(),
            frames_seen: Vec::new(),
            record_frames: false,
            sounds: Vec::new(),
            player: None,
            space_held: false,
            last_key_frame: 0,
            deal_frames: Vec::new(),
            ledger: None,
            max_frames: MAX_FRAMES,
            write_screens: Vec::new(),
            help_open_screens: Vec::new(),
            spare: Vec::new(),
            help_bytes_read: 0,
        }
    }

    fn row(&self, y: usize) -> String {
        self.cells[y][..usize::from(self.cols)].iter().map(|&c| screen_char(c)).collect()
    }

    fn screen(&self) -> String {
        (0..25).map(|y| self.row(y)).collect::<Vec<_>>().join("\n")
    }
}

fn screen_char(code: u8) -> char {
    match code & 0x7F {
        0 => '@',
        c @ 1..=26 => (b'A' + c - 1) as char,
        c @ 0x20..=0x3F => c as char,
        0x41 => '♠',
        0x53 => '♥',
        0x58 => '♣',
        0x5A => '♦',
        // The checkerboard of a card's back.
        0x66 => '▒',
        _ => '#',
    }
}

impl platform::Screen for Stand {
    fn columns(&self) -> u8 {
        self.cols
    }

    fn set_columns(&mut self, columns: u8, _background: u8) {
        assert!(columns == 40 || columns == 80);
        self.cols = columns;
        self.cells = vec![[b' '; 80]; 25];
    }

    fn put(&mut self, x: u8, y: u8, code: u8, _colour: u8) {
        if x < self.cols && y < 25 {
            self.cells[usize::from(y)][usize::from(x)] = code;
            self.written += 1;
        }
    }

    fn fill(&mut self, x: u8, y: u8, w: u8, h: u8, code: u8, colour: u8) {
        for yy in y..y.saturating_add(h) {
            for xx in x..x.saturating_add(w) {
                self.put(xx, yy, code, colour);
            }
        }
    }
}

impl platform::Keys for Stand {
    fn key(&mut self) -> Option<u8> {
        if self.settled_screens.len() < self.settles.len() {
            self.settled_screens.push(self.screen());
        }
        if self.record_screens {
            self.screens.push(self.screen());
            self.written_at_screens.push(self.written);
        }
        if self.keys.is_empty() {
            let (screen, settled) = (self.screen(), self.settles.len());
            if let Some(player) = self.player.as_mut() {
                self.keys.extend(keys(&player(&screen, settled)));
            }
        }
        self.last_key_frame = self.frames;
        if let Some(ledger) = self.ledger.as_mut() {
            let screen = self.cells.iter().map(|r| r.iter().map(|&c| screen_char(c)).collect::<String>());
            let screen: Vec<String> = screen.collect();
            assert!(!screen.iter().any(|r| r.contains("DAMAGED")), "run {}: a save called damaged", ledger.run);
        }
        if let Some(k) = self.keys.pop_front() {
            return Some(k);
        }
        self.way_out = self.way_out.wrapping_mul(1_103_515_245).wrapping_add(12_345);
        Some(WAY_OUT[(self.way_out >> 16) % WAY_OUT.len()])
    }

    fn hurry(&mut self) -> bool {
        self.space_held
    }
}

impl platform::Clock for Stand {
    fn frame(&mut self) {
        if self.record_frames {
            let screen = self.screen();
            if self.frames_seen.last().is_none_or(|(_, last)| *last != screen) {
                self.frames_seen.push((self.settles.len(), screen));
            }
        }
        self.frames += 1;
        assert!(self.frames < self.max_frames, "hung:\n{}", self.screen());
    }

    fn clock(&self) -> u8 {
        // Work takes no time here: the clock is the frames waited.
        self.frames as u8
    }

    fn ticks(&self) -> u32 {
        self.frames as u32
    }
}

impl platform::Speaker for Stand {
    fn sound(&mut self, sound: Sound) {
        self.sounds.push(sound);
    }
}

impl platform::Storage for Stand {
    fn read(&mut self, name: &[u8], buf: &mut [u8]) -> Result<usize, DiskError> {
        let data = self.files.get(name).ok_or(DiskError::NotFound)?;
        if data.len() > buf.len() {
            return Err(DiskError::TooLong);
        }
        buf[..data.len()].copy_from_slice(data);
        Ok(data.len())
    }

    fn write(&mut self, name: &[u8], data: &[u8]) -> Result<(), DiskError> {
        self.write_screens.push(self.screen());
        if self.write_protected {
            return Err(DiskError::WriteProtected);
        }
        if self.files.contains_key(name) {
            return Err(DiskError::Dos(63));
        }
        if let Some(ledger) = self.ledger.as_mut() {
            ledger.saved(data);
        }
        self.files.insert(name.to_vec(), data.to_vec());
        Ok(())
    }

    fn scratch(&mut self, name: &[u8]) -> Result<(), DiskError> {
        if self.write_protected {
            return Err(DiskError::WriteProtected);
        }
        self.files.remove(name).map(|_| ()).ok_or(DiskError::NotFound)
    }

    fn rename(&mut self, from: &[u8], to: &[u8]) -> Result<(), DiskError> {
        let data = self.files.remove(from).ok_or(DiskError::NotFound)?;
        self.files.insert(to.to_vec(), data);
        Ok(())
    }

    fn open_help(&mut self, lang: Lang) -> Result<(), DiskError> {
        self.help_open_screens.push(self.screen());
        let text = self.files.get(bac_game::help::file_name(lang)).ok_or(DiskError::NotFound)?.clone();
        self.help = Some((text, 0));
        Ok(())
    }

    fn help_byte(&mut self) -> Option<u8> {
        let (text, at) = self.help.as_mut()?;
        let b = text.get(*at).copied();
        *at += 1;
        self.help_bytes_read += usize::from(b.is_some());
        b
    }

    fn close_help(&mut self) {
        self.help = None;
    }

    fn spare_len(&mut self) -> u16 {
        self.spare.len() as u16
    }

    fn spare_store(&mut self, at: u16, bytes: &[u8]) {
        let at = usize::from(at);
        self.spare[at..at + bytes.len()].copy_from_slice(bytes);
    }

    fn spare_load(&mut self, at: u16, bytes: &mut [u8]) {
        let at = usize::from(at);
        bytes.copy_from_slice(&self.spare[at..at + bytes.len()]);
    }
}

impl platform::Witness for Stand {
    fn settled(&mut self, coups: u16, before: u32, after: u32) {
        self.settles.push((coups, before, after));
        self.deal_frames.push(self.frames - self.last_key_frame);
    }

    fn audit(&mut self, table: &Table, seats: &Seats, settled: &[Event]) {
        if let Some(ledger) = self.ledger.as_mut() {
            ledger.audit(table, seats, settled);
        }
    }
}

/// A seat as the money checker knows it: who, and everything it owns (its bankroll and its
/// stakes on the table), in cents.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Purse {
    computer: bool,
    name: Vec<u8>,
    cents: i64,
}

/// The money checker: it keeps the money each seat should own and the Loadstar house bank
/// should hold, and moves them only as the rules allow: by each settled coup's own records
/// (`Event::Settled`, each bet's stake and result), by a rebuy when nobody can cover the
/// table's minimum, by a newcomer's starting bankroll, and by a fresh house bank when the
/// old one was broken. Every count the game shows it ([`Platform::audit`]) and every save it
/// writes must agree to the cent, and every save must load.
#[derive(Default)]
struct Ledger {
    /// The seats as last counted, in table order; empty before the first count of a run.
    seats: Vec<Purse>,
    /// The rule set of the last count.
    preset: Option<bac_rules::Preset>,
    /// The Loadstar house bank as it was left (None: the next Loadstar table has a fresh one).
    house: Option<i64>,
    /// The last save written: its seats and its house.
    save: Option<(Vec<Purse>, Option<i64>)>,
    /// What the checker saw, for the test to ask of the run: counts, coups, rebuys, saves,
    /// games changed, and games changed while a tie stake stayed on the table.
    counts: usize,
    coups: usize,
    rebuys: usize,
    saves: usize,
    switches: usize,
    switches_with_a_tie_stake: usize,
    /// Whether the last count had a tie stake staying on the table.
    tie_stake_out: bool,
    /// Runs of the program so far, for the messages.
    run: usize,
}

fn cents_of(m: bac_rules::Money) -> i64 {
    i64::from(m.in_cents())
}

impl Ledger {
    /// A new run of the program: the money carries over only through the save.
    fn new_run(&mut self) {
        self.run += 1;
        self.seats.clear();
        self.preset = None;
    }

    fn audit(&mut self, table: &Table, seats: &Seats, settled: &[Event]) {
        let rules = *table.rules();
        let (min, start) = (cents_of(rules.min_bet), cents_of(rules.starting_bankroll));
        let loadstar = rules.preset == bac_rules::Preset::Loadstar;
        let counted: Vec<Purse> = seats.seats[..usize::from(seats.count)]
            .iter()
            .enumerate()
            .map(|(id, seat)| {
                let id = id as u8;
                let staked: i64 = bac_rules::Spot::ALL.iter().map(|&spot| cents_of(table.stake(id, spot))).sum();
                Purse {
                    computer: seat.kind == bac_rules::SeatKind::Computer,
                    name: seat.name.as_bytes().to_vec(),
                    cents: cents_of(table.bankroll(id).expect("a seat at the table")) + staked,
                }
            })
            .collect();
        let house = loadstar.then(|| cents_of(table.house()));
        if std::env::var("LEDGER_RUN").is_ok_and(|r| r == self.run.to_string()) {
            eprintln!("{:?} {counted:?} {house:?} {settled:?}", rules.preset);
        }
        self.counts += 1;
        if !settled.is_empty() {
            // A coup settled: each seat moves by its bets' results, the Loadstar house by the
            // opposite of their sum.
            let mut net = 0;
            for event in settled {
                if let Event::Settled { seat, stake, result, .. } = *event {
                    let change = match result {
                        bac_rules::BetResult::Won(w) | bac_rules::BetResult::WonAndStays(w) => cents_of(w),
                        bac_rules::BetResult::Lost => -cents_of(stake),
                        bac_rules::BetResult::Push => 0,
                    };
                    self.seats[usize::from(seat)].cents += change;
                    net += change;
                }
            }
            if loadstar {
                self.house = self.house.map(|h| h - net);
            }
            let run = self.run;
            assert_eq!(counted, self.seats, "run {run}: after a coup settled by {settled:?}");
            assert_eq!(
                house,
                self.house.filter(|_| loadstar),
                "run {run}: the house after a coup settled by {settled:?}"
            );
            self.coups += 1;
            if loadstar && self.house.is_some_and(|h| h < min) {
                // Broken: the game shows it and puts up a fresh bank at once.
                self.house = None;
            }
            self.tie_stake_out = seats_have_tie_stakes(table, seats);
            return;
        }
        // A round of bets opens. Since the last count the players may have changed game
        // (keeping everyone who stays, newcomers bringing the starting bankroll), been given
        // a rebuy, or (the run's first table) continued the saved game or begun a new one.
        let candidates: Vec<(Vec<Purse>, Option<i64>)> = if self.seats.is_empty() {
            let new = (fresh(&counted, start), None);
            self.save.iter().cloned().chain([new]).collect()
        } else {
            let old_humans: Vec<&Purse> = self.seats.iter().filter(|p| !p.computer).collect();
            let mut humans = 0;
            let seated = counted
                .iter()
                .map(|p| {
                    let before = if p.computer {
                        self.seats.iter().find(|q| q.computer && q.name == p.name)
                    } else {
                        humans += 1;
                        old_humans.get(humans - 1).copied()
                    };
                    match before {
                        Some(before) => before.clone(),
                        None => Purse { cents: start, ..p.clone() },
                    }
                })
                .collect();
            vec![(seated, self.house)]
        };
        let run = self.run;
        let opened: Vec<(Vec<Purse>, Option<i64>)> =
            candidates.into_iter().map(|(seats, house)| Ledger::open(&rules, seats, house)).collect();
        let Some((expected, kept)) =
            opened.iter().find(|(seats, h)| *seats == counted && h.filter(|_| loadstar) == house)
        else {
            panic!(
                "run {run}: as the bets open at {:?}: counted {counted:?} house {house:?}, expected one of {opened:?}",
                rules.preset
            );
        };
        self.rebuys +=
            usize::from(expected.iter().zip(&self.seats).any(|(p, q)| p.cents != q.cents && p.name == q.name));
        if self.preset.is_some_and(|p| p != rules.preset) {
            self.switches += 1;
            self.switches_with_a_tie_stake += usize::from(self.tie_stake_out);
        }
        self.house = *kept;
        self.seats = counted;
        self.preset = Some(rules.preset);
        self.tie_stake_out = seats_have_tie_stakes(table, seats);
    }

    /// What a table of `rules` opens its bets with, given the seats' money and the Loadstar
    /// house as they were left: a fresh house bank at Loadstar for one broken or never
    /// played, and when nobody can cover the table's minimum (no person, or at Chemin de fer
    /// fewer than two seats), each seat short of it topped up to the starting bankroll.
    fn open(rules: &bac_rules::RuleSet, mut seats: Vec<Purse>, mut house: Option<i64>) -> (Vec<Purse>, Option<i64>) {
        let (min, start) = (cents_of(rules.min_bet), cents_of(rules.starting_bankroll));
        if let bac_rules::Banking::House(fresh) = rules.banking
            && rules.preset == bac_rules::Preset::Loadstar
            && house.is_none_or(|h| h < min)
        {
            house = Some(cents_of(fresh));
        }
        let can_play = |p: &Purse| p.cents >= min;
        let humans_ok = seats.iter().any(|p| !p.computer && can_play(p));
        let players_ok =
            rules.banking != bac_rules::Banking::Seats || seats.iter().filter(|p| can_play(p)).count() >= 2;
        if !(humans_ok && players_ok) {
            for p in seats.iter_mut().filter(|p| !can_play(p)) {
                p.cents = start;
            }
        }
        (seats, house)
    }

    /// A save written: it must load, and hold what the seats and the house own.
    fn saved(&mut self, data: &[u8]) {
        let saved = bac_game::save::decode(data)
            .unwrap_or_else(|e| panic!("run {}: the game wrote a save it refuses: {e:?}", self.run));
        let seats: Vec<Purse> = saved.seats[..usize::from(saved.count)]
            .iter()
            .map(|seat| Purse {
                computer: seat.kind == bac_rules::SeatKind::Computer,
                name: seat.name.as_bytes().to_vec(),
                cents: cents_of(seat.bankroll) + cents_of(seat.tie_stake),
            })
            .collect();
        let house = saved.house.map(cents_of);
        assert_eq!(seats, self.seats, "run {}: the seats in the save", self.run);
        if self.preset == Some(bac_rules::Preset::Loadstar) || saved.house.is_some() {
            assert_eq!(house, self.house, "run {}: the house in the save", self.run);
        }
        self.saves += 1;
        self.save = Some((seats, house));
    }
}

/// `seats` each with `start`.
fn fresh(seats: &[Purse], start: i64) -> Vec<Purse> {
    seats.iter().map(|p| Purse { cents: start, ..p.clone() }).collect()
}

/// Whether a tie stake stays on the table for one of the seats.
fn seats_have_tie_stakes(table: &Table, seats: &Seats) -> bool {
    (0..seats.count).any(|id| table.tie_stays(id) > bac_rules::Money::ZERO)
}

fn run(stand: Stand) -> Stand {
    let mut app = App::new(stand, 40);
    app.run();
    app.p
}

/// Keys typed as text: `{R}` RETURN, `{S}` STOP, `{D}`/`{U}`/`{L}`/`{G}` cursor down, up,
/// left, right (G for "go right"), `{H}` HELP.
fn keys(script: &str) -> Vec<u8> {
    let mut out = Vec::new();
    let mut chars = script.chars();
    while let Some(c) = chars.next() {
        if c == '{' {
            let name: String = chars.by_ref().take_while(|&c| c != '}').collect();
            out.push(match name.as_str() {
                "R" => key::RETURN,
                "S" => key::STOP,
                "D" => key::DOWN,
                "U" => key::UP,
                "L" => key::LEFT,
                "G" => key::RIGHT,
                "H" => key::HELP,
                "F1" => key::F1,
                "F7" => key::F7,
                other => panic!("unknown key {other}"),
            });
        } else {
            out.push(c as u8);
        }
    }
    out
}

#[test]
fn a_loadstar_session_bets_deals_settles_and_saves() {
    // New game with the default options (Loadstar, one player), name ADA, then a 100 chip
    // on Player, deal, next coup, and quit.
    let script = keys("{R}{R}ADA{R}4P{R}");
    let mut stand = Stand::new(&script);
    stand.keys.extend(keys(" ")); // the key after the coup
    let stand = run(stand);
    assert!(!stand.settles.is_empty(), "no coup was settled");
    for (coup, before, after) in &stand.settles {
        assert_eq!(before, after, "money changed in coup {coup}");
    }
    let save = stand.files.get(&b"BAC SAVE"[..]).expect("the game saved");
    let saved = bac_game::save::decode(save).expect("a valid save");
    assert_eq!(saved.count, 1);
    assert_eq!(saved.seats[0].name.as_bytes(), b"ADA");
    let roll = saved.seats[0].bankroll.whole_units();
    assert!(roll == 100_000 || roll == 100_100 || roll == 99_900, "bankroll {roll}");
    assert!(!stand.files.contains_key(&b"BAC SAVE.NEW"[..]));
    assert!(stand.sounds.contains(&Sound::Card));
}

#[test]
fn a_saved_game_comes_back() {
    let first = run(Stand::new(&keys("{R}{R}BEA{R}4P{R} ")));
    let saved = first.files.get(&b"BAC SAVE"[..]).unwrap().clone();
    let mut second = Stand::new(&keys("{F1}"));
    second.files.insert(b"BAC SAVE".to_vec(), saved.clone());
    // Continue: the table shows BEA with the saved bankroll; then quit and save again.
    let second = run(second);
    let again = bac_game::save::decode(&second.files[&b"BAC SAVE"[..]]).unwrap();
    let before = bac_game::save::decode(&saved).unwrap();
    assert_eq!(again.seats[0].name, before.seats[0].name);
}

#[test]
fn a_damaged_save_is_reported_and_replaced() {
    let mut stand = Stand::new(&keys(""));
    stand.files.insert(b"BAC SAVE".to_vec(), b"BAC1\x01garbage that is long enough".to_vec());
    let mut app = App::new(stand, 40);
    // Look at the title screen through a run that quits at once.
    app.run();
    assert!(app.p.files.contains_key(&b"BAC SAVE"[..]), "the damaged file is left alone when nothing was played");
}

#[test]
fn a_write_protected_disk_does_not_stop_the_game() {
    let mut stand = Stand::new(&keys("{R}{R}CY{R}4P{R} "));
    stand.write_protected = true;
    let stand = run(stand);
    assert!(stand.files.is_empty());
    assert!(stand.screen().contains("WRITE PROTECTED"), "{}", stand.screen());
}

#[test]
fn every_preset_plays_coups_with_money_conserved() {
    // On the options screen RIGHT steps the rule set on from Loadstar (the default):
    // Chemin de fer, Punto Banco, No commission, Sahara Sands, then Loadstar again.
    for (rights, name, round) in [
        ("{G}{G}", "PUNTO BANCO", "1P{R} "),
        ("{G}{G}{G}", "NO COMMISSION", "2B{R} "),
        ("{G}{G}{G}{G}", "SAHARA SANDS", "1T{R} "),
        ("", "LOADSTAR 128", "3P{R}S "),
        // As banker: stake a chip and close; as punter: "Banco".
        ("{G}", "CHEMIN DE FER", "1B{R} "),
    ] {
        let script = format!("{{R}}{rights}{{R}}DEE{{R}}{}", round.repeat(8));
        let mut seen = false;
        let mut stand = Stand::new(&keys(&script));
        stand.keys.push_back(key::F1); // harmless at any prompt; marks the end of the rounds
        let mut app = App::new(stand, 40);
        app.run();
        let stand = app.p;
        seen |= stand.settles.len() >= 4;
        assert!(seen, "{name}: {} coups", stand.settles.len());
        for (coup, before, after) in &stand.settles {
            assert_eq!(before, after, "{name}: money changed in coup {coup}");
        }
        let saved = bac_game::save::decode(&stand.files[&b"BAC SAVE"[..]]).unwrap();
        assert_eq!(
            bac_game::text::Msg::preset(saved.settings.preset).text(bac_game::text::Lang::English),
            name.as_bytes()
        );
    }
}

/// The seat rows' columns at 40 columns, as the heads PLAYER, BANKER and TIE end at 26, 33
/// and 40: each column is the seven cells before its head's end.
const SPOT_COLUMNS: [(&str, std::ops::Range<usize>); 3] = [("PLAYER", 19..26), ("BANKER", 26..33), ("TIE", 33..40)];

/// Plays `coups` coups of one bet with one seat (DEE) and returns the screens as settled.
fn settled_screens(rights: &str, bet: &str, coups: usize) -> Vec<String> {
    let script = format!("{{R}}{rights}{{R}}DEE{{R}}{}", format!("{bet}{{R}} ").repeat(coups));
    let stand = run(Stand::new(&keys(&script)));
    assert!(stand.settled_screens.len() >= coups / 2, "{} coups settled", stand.settled_screens.len());
    stand.settled_screens
}

/// Where a seat row shows something: the heads of the columns that are not blank.
fn shown_under(row: &str) -> Vec<&'static str> {
    let cells: Vec<char> = row.chars().collect();
    SPOT_COLUMNS.iter().filter(|(_, r)| cells[r.clone()].iter().any(|&c| c != ' ')).map(|(h, _)| *h).collect()
}

/// A result to look for: the options keys, the bet, its heading, the result line of a coup
/// that must occur, and what the seat's row then shows under that heading.
type Case<'a> = (&'a str, &'a str, &'a str, &'a dyn Fn(&str) -> bool, &'a str);

/// Seed 000's payouts, each shown under the heading of the spot that was bet: a player win,
/// a banker win, a tie (8 to 1), a push of the player's bet on a tie, and at No Commission
/// a banker win with 6 paying half. The result line (row 9) names the winner.
#[test]
fn every_result_shows_under_its_own_spots_heading() {
    // (options keys, the bet, its heading, the result line (row 9, trimmed) of a coup that
    // must occur, and what the seat's row then shows under that heading)
    let banker_wins_with_6 = |l: &str| l.starts_with("BANKER WINS") && l.ends_with("-6");
    let cases: [Case; 6] = [
        ("{G}{G}", "1P", "PLAYER", &|l| l.starts_with("PLAYER WINS"), "+1"),
        ("{G}{G}", "1P", "PLAYER", &|l| l.starts_with("TIE"), "=1"),
        ("{G}{G}", "1B", "BANKER", &|l| l.starts_with("BANKER WINS"), "+0.95"),
        ("{G}{G}", "1T", "TIE", &|l| l.starts_with("TIE"), "+8"),
        ("{G}{G}", "1T", "TIE", &|l| l.starts_with("PLAYER WINS"), "-1"),
        ("{G}{G}{G}", "1B", "BANKER", &banker_wins_with_6, "+0.50"),
    ];
    for (rights, bet, head, result_line, shown) in cases {
        let screens = settled_screens(rights, bet, 60);
        let mut found = false;
        for screen in &screens {
            let (rows, at) = (screen.lines().collect::<Vec<&str>>(), lines(screen));
            let seat = rows[at.seats];
            assert!(seat.starts_with("DEE"), "{screen}");
            assert_eq!(shown_under(seat), [head], "a {bet} bet's result under its own heading:\n{screen}");
            let cells: Vec<char> = seat.chars().collect();
            let column = &SPOT_COLUMNS.iter().find(|(h, _)| *h == head).unwrap().1;
            let text: String = cells[column.clone()].iter().collect::<String>().trim().to_string();
            found |= result_line(rows[at.msg2].trim()) && text == shown;
        }
        assert!(found, "{bet}: no such coup with {shown} under {head} in {} coups", screens.len());
    }
}

/// What a preset does not take does not look open (seeds 002, 003 and 004): the heads over
/// the seats and the betting line's keys name only the spots that take bets, and the
/// options say "NO TIE BET" where there is no tie bet. Every option's value starts in the
/// same column.
#[test]
fn closed_spots_do_not_look_open() {
    // (options keys, rule set, banker bets, tie bets, the betting line, the tie option)
    for (rights, name, banker, tie, keys_line, tie_option) in [
        ("{G}{G}", "PUNTO BANCO", true, true, "P B T:BET", "8 TO 1"),
        ("{G}{G}{G}{G}", "SAHARA SANDS", false, true, "P T:BET", "8 TO 1 (FIXED)"),
        ("", "LOADSTAR 128", false, false, "P:BET", "NO TIE BET"),
        ("{G}", "CHEMIN DE FER", true, false, "B:BANCO", "NO TIE BET"),
    ] {
        let stand = screens_after(format!("{{R}}{rights}{{R}}DEE{{R}}"));
        let options = stand.screens.iter().find(|s| s.contains(name) && s.contains("TIE PAYS")).expect(name);
        let rows: Vec<&str> = options.lines().collect();
        let tie_row = rows.iter().find(|r| r.contains("TIE PAYS")).unwrap();
        assert_eq!(tie_row[19..].trim_end(), tie_option, "{name}:\n{options}");
        for y in (4..20).step_by(2) {
            let row: Vec<char> = rows[y].chars().collect();
            assert!(row[18] == ' ' && row[19] != ' ', "{name}: option row {y} not in the value column:\n{options}");
        }
        let table = stand.screens.iter().find(|s| s.contains("BANKROLL")).expect(name);
        let rows: Vec<&str> = table.lines().collect();
        let heads = rows.iter().find(|r| r.contains("BANKROLL")).unwrap();
        if name != "CHEMIN DE FER" {
            assert!(heads.contains("PLAYER"), "{name}: {heads}");
            assert_eq!(heads.contains("BANKER"), banker, "{name}: {heads}");
            assert_eq!(heads.contains("TIE"), tie, "{name}: {heads}");
        }
        assert!(rows[24].trim().starts_with(keys_line), "{name}: the betting line {:?}", rows[24]);
    }
}

/// Seed 000's cut card: the coup it comes out in and one more are the shoe's last, and the
/// screen says so; the coup after that starts a new shoe.
#[test]
fn the_cut_card_announces_one_more_coup_and_one_more_follows() {
    let script = format!("{{R}}{{G}}{{G}}{{R}}DEE{{R}}{}", "1P{R} ".repeat(120));
    let mut stand = Stand::new(&keys(&script));
    stand.record_frames = true;
    let stand = run(stand);
    let first = |text: &str, after: usize| {
        stand.frames_seen.iter().find(|(settled, s)| *settled >= after && s.contains(text)).map(|(settled, _)| *settled)
    };
    let cut = first("THE CUT CARD: ONE MORE COUP", 0).expect("the cut card came out in 120 coups");
    // Shown while coup cut + 1 is dealt; coup cut + 2 is the one more; then a new shoe.
    let shuffle = first("SHUFFLING THE SHOE", cut).expect("a new shoe after the cut card");
    assert_eq!(
        shuffle,
        cut + 2,
        "coups settled when the cut card showed: {cut}; when the shoe was shuffled: {shuffle}"
    );
}

/// Seed 003: the player chooses on 5. When the game asks, the betting keys are gone from the
/// bottom line, so the only keys on screen are the question's.
#[test]
fn a_question_is_asked_without_the_betting_keys_on_screen() {
    let script = format!("{{R}}{{R}}DEE{{R}}{}", "3P{R}S ".repeat(40));
    let stand = screens_after(script);
    let asked: Vec<&String> = stand.screens.iter().filter(|s| s.contains("D: DRAW   S: STAND")).collect();
    assert!(!asked.is_empty(), "no question on 5 in 40 Loadstar coups");
    for screen in asked {
        let keys_row = screen.lines().nth(24).unwrap();
        assert!(!keys_row.contains("BET"), "the betting keys while a question is asked:\n{screen}");
    }
}

#[test]
fn a_hundred_thousand_random_keys_never_hang_or_lose_money() {
    // A fixed xorshift so the run is the same every time.
    let mut x = 0x1234_5678u32;
    // No Y, O or Q: those would quit, and the point is to stay in the game.
    let alphabet = keys("PBTCAM0912345678DSN {R}{R}{R}{S}{D}{U}{L}{G}{H}{F1}{F7}");
    let script: Vec<u8> = (0..100_000)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            alphabet[(x % alphabet.len() as u32) as usize]
        })
        .collect();
    let mut stand = Stand::new(&script);
    stand.files.insert(b"BAC HELP".to_vec(), b"HELP TEXT\rSECOND LINE\r".repeat(40));
    let stand = run(stand);
    for (coup, before, after) in &stand.settles {
        assert_eq!(before, after, "money changed in coup {coup}");
    }
    assert!(stand.settles.len() > 100, "only {} coups in 100,000 keys", stand.settles.len());
}

/// The options keys for Chemin de fer with `humans` people (named DEE, EVA, FOX, GUS) and no
/// computer.
fn chemin_people(humans: usize) -> String {
    let more = "{G}".repeat(humans - 1);
    let names: String = ["DEE", "EVA", "FOX", "GUS"][..humans].iter().map(|n| format!("{n}{{R}}")).collect();
    format!("{{R}}{{G}}{{D}}{{D}}{{D}}{more}{{D}}{{L}}{{R}}{names}")
}

/// A stand that plays `script` (as [`keys`] reads it) and records every screen it shows
/// at a key: what most tests read.
fn screens_after(script: impl AsRef<str>) -> Stand {
    let mut stand = Stand::new(&keys(script.as_ref()));
    stand.record_screens = true;
    run(stand)
}

/// The screen's row `y`, trimmed.
fn row(screen: &str, y: usize) -> &str {
    screen.lines().nth(y).unwrap_or("").trim()
}

/// Where a 40-column table screen has its lines. They move down with fewer seats
/// (`bac_game::play::table_rows`), so they are found from the screen itself: its seats'
/// heads (the line that says BANKROLL) tell how many rows the seats left free.
#[derive(Clone, Copy, Debug)]
struct Lines {
    msg: usize,
    msg2: usize,
    chips: usize,
    seats: usize,
}

fn lines(screen: &str) -> Lines {
    let head = screen.lines().position(|r| r.contains("BANKROLL"));
    let rows = bac_game::play::table_rows_with_heads_on(40, head.map(|h| h as u8));
    Lines { msg: rows.msg.into(), msg2: rows.msg2.into(), chips: rows.chips.into(), seats: rows.seats.into() }
}

/// A Chemin de fer game of people who read the screen: `bank` is what a banker types to
/// stake, `punt` what a punter types, `asked` answers the questions of seed 004's matching
/// (M or N to make up a deficit, C or R for an excess; empty: not expected). Draw-or-stand
/// questions are answered S. Returns every screen seen, with the coups settled by then.
fn chemin_session(
    humans: usize,
    coups: usize,
    mut bank: impl FnMut() -> &'static str + 'static,
    mut punt: impl FnMut() -> &'static str + 'static,
    asked: &'static str,
) -> Vec<(usize, String)> {
    let mut stand = Stand::new(&keys(&chemin_people(humans)));
    stand.record_frames = true;
    stand.player = Some(Box::new(move |screen: &str, settled: usize| {
        if settled >= coups {
            return String::new();
        }
        let (m, m2) = (row(screen, lines(screen).msg), row(screen, lines(screen).msg2));
        let answer = if m.ends_with(": STAKE THE BANK") {
            bank()
        } else if m.ends_with(": BANCO OR BET") {
            punt()
        } else if m2.ends_with(": M:MAKE IT UP  N:NO") || m2.ends_with(": C:COVER IT  R:RETURN IT") {
            assert!(!asked.is_empty(), "asked unexpectedly:\n{screen}");
            asked
        } else if m2 == "D: DRAW   S: STAND" {
            "S"
        } else {
            "{R}"
        };
        answer.to_string()
    }));
    let stand = run(stand);
    assert!(stand.settles.len() >= coups, "{} coups:\n{}", stand.settles.len(), stand.screen());
    for (coup, before, after) in &stand.settles {
        assert_eq!(before, after, "money changed in coup {coup}");
    }
    stand.frames_seen
}

/// A row's cells in `range`, trimmed (by character: a suit is one cell).
fn cells(row: &str, range: std::ops::Range<usize>) -> String {
    row.chars().skip(range.start).take(range.len()).collect::<String>().trim().to_string()
}

/// The first screen showing `text` (anywhere), if any.
fn first_with<'a>(frames: &'a [(usize, String)], text: &str) -> Option<&'a String> {
    frames.iter().map(|(_, s)| s).find(|s| s.contains(text))
}

/// The banker's name on a screen: the seat row with the bank's mark (at 40 columns the
/// name takes nine cells, the mark the tenth).
fn banker_on(screen: &str) -> Option<String> {
    screen
        .lines()
        .skip(lines(screen).seats)
        .take(6)
        .find(|r| r.chars().nth(9) == Some('*'))
        .map(|r| r[..9].trim().to_string())
}

/// Seed 004: "If the total of the players' bets is less than that of the dealer, any player
/// makes up the deficit." A punter who bets 1 against a bank of 25 is asked, and either
/// makes up the 24 (then the Player hand's stake is the whole bank) or lets it go back to
/// the banker at the deal; the screen says which.
#[test]
fn chemin_de_fer_a_deficit_is_made_up_or_goes_back_on_screen() {
    let frames = chemin_session(2, 3, || "3B{R}", || "1P{R}", "M");
    let asked = first_with(&frames, "THE PUNTS FALL SHORT BY 24").expect("the deficit is shown");
    assert!(row(asked, lines(asked).msg2).ends_with(": M:MAKE IT UP  N:NO"), "{asked}");
    assert!(!row(asked, 24).contains("BET"), "the betting keys while the bank is matched:\n{asked}");
    let made = first_with(&frames, " MAKES UP 24").expect("the deficit made up is shown");
    let punter = row(made, lines(made).msg).split(' ').next().unwrap().to_string();
    let seat = made.lines().skip(lines(made).seats).find(|r| r.starts_with(&punter)).unwrap();
    assert_eq!(&cells(seat, 19..26), &"25", "the punter's stake after making up:\n{made}");
    assert!(first_with(&frames, " GETS BACK ").is_none(), "nothing goes back once made up");

    let frames = chemin_session(2, 3, || "3B{R}", || "1P{R}", "N");
    let back = first_with(&frames, " GETS BACK 24").expect("the uncovered bank goes back, on screen");
    let banker = banker_on(back).expect("a banker");
    assert!(row(back, lines(back).msg2).starts_with(&format!("{banker} GETS BACK 24")), "{back}");
}

/// Seed 004: "If the total of the players' bets is more than that of the dealer, the dealer
/// can make up the deficit or return the excess bets." A punter's 25 against a bank of 5:
/// the banker covers the 20 (the bank is then 25) or the punter gets 20 back.
#[test]
fn chemin_de_fer_an_excess_is_covered_or_returned_on_screen() {
    let frames = chemin_session(2, 3, || "2B{R}", || "3P{R}", "C");
    let asked = first_with(&frames, "BETS EXCEED THE BANK BY 20").expect("the excess is shown");
    let banker = banker_on(asked).expect("a banker");
    assert!(
        row(asked, lines(asked).msg2).starts_with(&format!("{banker}: C:COVER IT")),
        "the banker is asked:\n{asked}"
    );
    let covered = first_with(&frames, " COVERS 20").expect("the excess covered is shown");
    let seat = covered.lines().skip(lines(covered).seats).find(|r| r.starts_with(&banker)).unwrap();
    assert_eq!(&cells(seat, 26..33), &"25", "the bank after covering:\n{covered}");
    assert!(first_with(&frames, " GETS BACK ").is_none(), "nothing goes back once covered");

    let frames = chemin_session(2, 3, || "2B{R}", || "3P{R}", "R");
    let back = first_with(&frames, " GETS BACK 20").expect("the excess goes back, on screen");
    assert_ne!(banker_on(back).as_deref(), Some(row(back, lines(back).msg2).split(' ').next().unwrap()), "{back}");
}

/// Seed 004: "If any player wants to match the entire stake he says 'Banco'. Then other
/// players do not bet in this deal." With three people, the first punter bets 1 and the
/// second calls Banco: the screen says so, and that the first punter's 1 goes back.
#[test]
fn chemin_de_fer_banco_is_called_and_the_other_bets_go_back_on_screen() {
    // Alternate: the first punter asked in a round bets, the second calls Banco.
    let mut t = 0u32;
    let frames = chemin_session(
        3,
        2,
        || "3B{R}",
        move || {
            t += 1;
            if t % 2 == 1 { "1P{R}" } else { "B" }
        },
        "",
    );
    let banco = first_with(&frames, ": BANCO!").expect("Banco on screen");
    let caller = row(banco, lines(banco).msg).split(':').next().unwrap().to_string();
    let back = first_with(&frames, " GETS BACK 1").expect("the other punter's stake goes back, on screen");
    assert!(!row(back, lines(back).msg2).starts_with(&caller), "{back}");
    let seat = banco.lines().skip(lines(banco).seats).find(|r| r.starts_with(&caller)).unwrap();
    assert_eq!(&cells(seat, 19..26), &"25", "Banco stakes the whole bank:\n{banco}");
}

/// Seed 004: "If the 'dealer' has won he retains the deal, otherwise it passes on to the
/// next player." The banker's mark after each coup: moved when the Player hand won, kept
/// otherwise. The question on 5 goes to the Player hand's holder (a punter, never the
/// banker), the bank's questions to the banker; and while the cards for the bank are turned
/// the mark stays hidden until every seat's card is up.
#[test]
fn chemin_de_fer_the_bank_passes_when_it_loses_and_questions_reach_their_hands() {
    let frames = chemin_session(2, 12, || "3B{R}", || "1P{R}", "M");
    let mut checked = [0; 2];
    for coup in 1..=12 {
        let last_before = frames.iter().rev().find(|(n, s)| *n == coup - 1 && banker_on(s).is_some());
        let settled = frames.iter().find(|(n, _)| *n == coup);
        let (Some((_, before)), Some((_, after))) = (last_before, settled) else { continue };
        let result = row(after, lines(after).msg2);
        let (was, is) = (banker_on(before).unwrap(), banker_on(after).unwrap());
        if result.starts_with("PLAYER WINS") {
            assert_ne!(was, is, "a losing bank passes:\n{after}");
            checked[0] += 1;
        } else {
            assert_eq!(was, is, "a bank that did not lose stays ({result}):\n{after}");
            checked[1] += 1;
        }
    }
    assert!(checked[0] > 0 && checked[1] > 0, "coups where the bank lost and did not: {checked:?}");
    let mut asked = [0; 2];
    for (_, screen) in &frames {
        let m = row(screen, lines(screen).msg);
        let Some(banker) = banker_on(screen) else { continue };
        if m.ends_with(": YOU HAVE 5") {
            assert!(!m.starts_with(&banker), "the question on 5 goes to the punter:\n{screen}");
            asked[0] += 1;
        } else if m.contains(": BANK HAS ") {
            assert!(m.starts_with(&format!("{banker}:")), "the bank's question goes to the banker:\n{screen}");
            asked[1] += 1;
        }
    }
    assert!(asked[0] > 0 && asked[1] > 0, "questions on 5 and to the bank: {asked:?}");
    for (_, screen) in frames.iter().filter(|(_, s)| row(s, lines(s).msg) == "DRAWING FOR THE BANK") {
        let seats: Vec<&str> = screen.lines().skip(lines(screen).seats).take(2).collect();
        let cards_up = seats.iter().filter(|r| !cells(r, 19..26).is_empty()).count();
        if cards_up < 2 {
            assert!(banker_on(screen).is_none(), "the bank's mark before every card is up:\n{screen}");
        }
    }
    assert!(
        frames.iter().any(|(_, s)| row(s, lines(s).msg) == "DRAWING FOR THE BANK" && banker_on(s).is_some()),
        "the mark shows once the cards are up"
    );
}

/// A banker may give up the bank before the punters bet: the screen says so and the next
/// seat holds the bank.
#[test]
fn chemin_de_fer_a_banker_gives_up_the_bank_on_screen() {
    let mut first = true;
    let bank = move || if std::mem::take(&mut first) { "P" } else { "3B{R}" };
    let frames = chemin_session(2, 1, bank, || "1P{R}", "M");
    let given = first_with(&frames, " GIVES UP THE BANK").expect("giving up on screen");
    let who = row(given, lines(given).msg).split(' ').next().unwrap().to_string();
    let next = frames
        .iter()
        .map(|(_, s)| s)
        .skip_while(|s| !s.contains(" GIVES UP THE BANK"))
        .find(|s| row(s, lines(s).msg).ends_with(": STAKE THE BANK"))
        .expect("someone holds the bank next");
    assert!(!row(next, lines(next).msg).starts_with(&who), "{next}");
}

/// A sum of money as the screen shows it ("1,000,000", "99.50"), in cents.
fn cents(text: &str) -> i64 {
    let text: String = text.chars().filter(|&c| c != ',').collect();
    let (units, cents) = text.split_once('.').unwrap_or((&text, "0"));
    units.parse::<i64>().unwrap() * 100 + cents.parse::<i64>().unwrap()
}

/// The Loadstar house bank as the table's head shows it (row 1: "... BANK 1,000,000").
fn house_shown(screen: &str) -> Option<i64> {
    // Under the head at 40 columns, on it at 80 (left of the scoreboard panel's 28).
    screen.lines().take(2).find_map(|head| {
        let table: String = head.chars().take(52).collect();
        let (_, bank) = table.rsplit_once("BANK ")?;
        Some(cents(bank.trim()))
    })
}

/// The chip keys that stake `units` on `spot` with the game's chips, largest first.
fn chips_for(mut units: u32, spot: char) -> String {
    let chips = [(10_000, '8'), (5_000, '7'), (1_000, '6'), (500, '5'), (100, '4'), (25, '3'), (5, '2'), (1, '1')];
    let mut out = String::new();
    for (chip, key) in chips {
        if units >= chip {
            out.push(key);
            while units >= chip {
                out.push(spot);
                units -= chip;
            }
        }
    }
    out
}

/// Seed 003 and the original: you at 100,000 against a bank of 1,000,000. The bank shows
/// over the table and moves by exactly the player's result each coup; the player's 5 is
/// asked of the player (DEE); the bank's options are played, never asked; the bank comes
/// back as it was left after a save and a continue.
#[test]
fn loadstar_shows_its_bank_moves_it_by_each_result_and_keeps_it_in_the_save() {
    let mut stand = Stand::new(&keys("{R}{R}DEE{R}"));
    stand.record_frames = true;
    stand.player = Some(Box::new(|screen: &str, settled: usize| {
        let answer = if settled >= 400 {
            ""
        } else if row(screen, lines(screen).msg).ends_with(": YOUR BETS") {
            "4P{R}"
        } else if row(screen, lines(screen).msg2) == "D: DRAW   S: STAND" {
            "S"
        } else {
            "{R}"
        };
        answer.to_string()
    }));
    let stand = run(stand);
    assert!(stand.settled_screens.len() >= 400, "{} coups", stand.settled_screens.len());
    let mut bank = 100_000_000i64;
    for screen in &stand.settled_screens[..400] {
        let seat = screen.lines().nth(lines(screen).seats).unwrap();
        let result = cells(seat, 19..26);
        let change = match result.chars().next() {
            Some('+') => -cents(&result[1..]),
            Some('-') => cents(&result[1..]),
            Some('=') => 0,
            _ => panic!("no result under PLAYER:\n{screen}"),
        };
        bank += change;
        assert_eq!(house_shown(screen), Some(bank), "the bank after a {result} coup:\n{screen}");
    }
    let frames: Vec<&String> = stand.frames_seen.iter().map(|(_, s)| s).collect();
    assert!(frames.iter().any(|s| row(s, lines(s).msg) == "DEE: YOU HAVE 5"), "no question on 5 in 400 coups");
    assert!(!frames.iter().any(|s| row(s, lines(s).msg).contains(": BANK HAS ")), "the bank's options are asked");
    // Seed 003's options (3 against a 9, 5 against a 4) came up and were played.
    assert!(
        frames.iter().any(|s| row(s, lines(s).msg2) == "THE BANK DRAWS" || row(s, lines(s).msg2) == "THE BANK STANDS")
    );

    let file = stand.files[&b"BAC SAVE"[..]].clone();
    let saved = bac_game::save::decode(&file).unwrap();
    let last = house_shown(stand.settled_screens.last().unwrap()).unwrap();
    assert_eq!(saved.house.map(|h| i64::from(h.in_cents())), Some(last), "the bank in the save");
    let mut again = Stand::new(&keys("{F1}"));
    again.files.insert(b"BAC SAVE".to_vec(), file);
    again.record_screens = true;
    let again = run(again);
    let table = again.screens.iter().find(|s| s.contains("BANKROLL")).expect("the table after continuing");
    assert_eq!(house_shown(table), Some(last), "the bank after continuing:\n{table}");
}

/// The original's big moment: a player who wins the whole bank breaks it. From a saved
/// game with a bank of 50, DEE stakes the whole bank each coup (a stake past it is refused
/// with the bank's balance) until the Player hand wins: a screen says the bank is broken,
/// and the table goes on with a fresh bank of 1,000,000.
#[test]
fn loadstar_a_player_breaks_the_bank_and_a_fresh_one_follows() {
    for cols in [40u8, 80] {
        breaking_the_bank(cols);
    }
}

fn breaking_the_bank(cols: u8) {
    let mut settings = bac_game::settings::Settings::new(cols);
    settings.normalise();
    let mut seats = [bac_game::save::SavedSeat::BLANK; bac_game::save::MAX_SAVED_SEATS];
    seats[0].name = bac_game::settings::Name::new(b"DEE");
    seats[0].bankroll = bac_rules::Money::units(100_000);
    let saved = bac_game::save::Saved { settings, seats, count: 1, house: Some(bac_rules::Money::units(50)) };
    let mut buf = [0u8; bac_game::save::MAX_BYTES];
    let n = bac_game::save::encode(&saved, &mut buf);
    let mut stand = Stand::new(&keys("{F1}"));
    stand.files.insert(b"BAC SAVE".to_vec(), buf[..n].to_vec());
    stand.record_frames = true;
    let (mut first, mut broke) = (true, false);
    stand.player = Some(Box::new(move |screen: &str, settled: usize| {
        if settled >= 40 {
            return String::new();
        }
        if screen.contains("YOU BROKE THE BANK!") {
            broke = true;
            return "{R}".into();
        }
        // The rows are read by what they say: at 80 columns the messages sit lower.
        if screen.lines().any(|r| r.contains(": YOUR BETS")) {
            let bank = (house_shown(screen).unwrap() / 100) as u32;
            // The first time one unit past the bank: that last chip is refused.
            let stake = if broke { 1 } else { bank + u32::from(std::mem::take(&mut first)) };
            return format!("{}{{R}}", chips_for(stake, 'P'));
        }
        if screen.lines().any(|r| r.contains("D: DRAW   S: STAND")) { "S".into() } else { "{R}".into() }
    }));
    let stand = run(stand);
    let frames: Vec<&String> = stand.frames_seen.iter().map(|(_, s)| s).collect();
    assert!(
        frames.iter().any(|s| s.lines().any(|r| r.contains("THE BANK HOLDS ONLY 50"))),
        "{cols} columns: a stake past the bank is refused"
    );
    let broken = frames.iter().position(|s| s.contains("YOU BROKE THE BANK!")).expect("the bank broke in 40 coups");
    // Centred on the whole screen, as the line above it (issue 31: at 80 columns it was
    // centred on the table's 52).
    let fresh = "A FRESH BANK OF 1,000,000";
    let line = frames[broken].lines().find(|r| r.contains(fresh)).unwrap_or_else(|| panic!("{}", frames[broken]));
    assert_eq!(line.find(fresh), Some((usize::from(cols) - fresh.len()) / 2), "{cols} columns:\n{}", frames[broken]);
    let before = frames[..broken].iter().rev().find(|s| house_shown(s).is_some()).unwrap();
    assert_eq!(house_shown(before), Some(0), "the bank was empty:\n{before}");
    let after = frames[broken..].iter().find(|s| house_shown(s).is_some()).unwrap();
    assert_eq!(house_shown(after), Some(100_000_000), "a fresh bank:\n{after}");
}

/// Seed 002: "Ties are paid at 8:1 and the initial bet remains on the table for the next
/// hand." DEE bets 1 on Tie until a tie: it pays +8 and the 1 stays under TIE on the next
/// betting screen. Quitting there keeps it on the table in the save (not in the bankroll),
/// and continuing puts it back under TIE.
#[test]
fn sahara_a_tie_stake_stays_is_shown_and_survives_leaving() {
    let mut stand = Stand::new(&keys("{R}{G}{G}{G}{G}{R}DEE{R}"));
    stand.record_frames = true;
    stand.player = Some(Box::new(|screen: &str, settled: usize| {
        let answer = if settled >= 200 {
            ""
        } else if row(screen, 24) == "RETURN: NEW BETS   L: LAST BETS, DEAL"
            && row(screen, lines(screen).msg2).starts_with("TIE")
        {
            // Leave at once: STOP at the bets, then Y to quit (and save).
            "{S}Y"
        } else if row(screen, lines(screen).msg).ends_with(": YOUR BETS") {
            "1T{R}"
        } else {
            "{R}"
        };
        answer.to_string()
    }));
    let stand = run(stand);
    let frames: Vec<&String> = stand.frames_seen.iter().map(|(_, s)| s).collect();
    let tie = frames
        .iter()
        .position(|s| row(s, lines(s).msg2).starts_with("TIE") && row(s, 24) == "RETURN: NEW BETS   L: LAST BETS, DEAL")
        .expect("a tie in 200 coups");
    let seat = frames[tie].lines().nth(lines(frames[tie]).seats).unwrap();
    assert_eq!(cells(seat, 33..40), "+8", "the tie pays 8 to 1:\n{}", frames[tie]);
    let next = frames[tie..].iter().find(|s| row(s, lines(s).msg).ends_with(": YOUR BETS")).expect("the next bets");
    let seat = next.lines().nth(lines(next).seats).unwrap();
    assert_eq!(cells(seat, 33..40), "1", "the tie stake stays on the table:\n{next}");
    let shown_roll = cents(&cells(seat, 9..19));

    let file = stand.files[&b"BAC SAVE"[..]].clone();
    let saved = bac_game::save::decode(&file).unwrap();
    assert_eq!(saved.seats[0].tie_stake, bac_rules::Money::units(1), "the stake in the save");
    assert_eq!(i64::from(saved.seats[0].bankroll.in_cents()), shown_roll, "the bankroll without it");
    let mut again = Stand::new(&keys("{F1}"));
    again.files.insert(b"BAC SAVE".to_vec(), file);
    again.record_screens = true;
    let again = run(again);
    let bets = again
        .screens
        .iter()
        .find(|s| row(s, lines(s).msg).ends_with(": YOUR BETS"))
        .expect("the table after continuing");
    let seat = bets.lines().nth(lines(bets).seats).unwrap();
    assert_eq!(cells(seat, 33..40), "1", "the tie stake back under TIE:\n{bets}");
    assert_eq!(cents(&cells(seat, 9..19)), shown_roll, "{bets}");
}

/// A stake typed as a number (A): at Loadstar 100,000 in one go instead of ten 10K chips.
/// An amount past the bank, past the bankroll, or (at Punto Banco) past the table limit is
/// refused with a message saying which.
#[test]
fn a_typed_amount_is_staked_or_refused_with_a_message() {
    let script = "{R}{R}DEE{R}A1000001{R}A100001{R}A100000{R}P";
    let stand = screens_after(script);
    let said = |text: &str| stand.screens.iter().any(|s| row(s, lines(s).msg2) == text);
    assert!(said("THE BANK HOLDS ONLY 1,000,000"), "past the bank");
    assert!(said("NOT ENOUGH MONEY"), "past the bankroll");
    let typed =
        stand.screens.iter().find(|s| row(s, lines(s).chips).ends_with("10K 100,000")).expect("the amount in hand");
    assert!(!row(typed, lines(typed).chips).contains("A:SUM"), "{typed}");
    let staked = stand
        .screens
        .iter()
        .find(|s| s.lines().nth(lines(s).seats).is_some_and(|r| cells(r, 19..26) == "100K"))
        .expect("100,000 staked on PLAYER");
    assert_eq!(cells(staked.lines().nth(lines(staked).seats).unwrap(), 9..19), "0", "{staked}");

    let stand = screens_after("{R}{G}{G}{R}DEE{R}A20000{R}A0{R}");
    assert!(stand.screens.iter().any(|s| row(s, lines(s).msg2) == "TABLE LIMIT IS 10,000"), "past the table limit");
    assert!(
        stand.screens.iter().any(|s| row(s, lines(s).chips).ends_with("A:SUM")),
        "no amount in hand after a refusal"
    );
}

/// Issue 31: large amounts ran into each other (`RICH 40,000+10,000-10,000-10,000` at 40
/// columns, `100,0001,000,000` at 80), and a bankroll could grow past the 32-bit cents.
/// In both widths, a Loadstar seat of 9,950,000 is refused a stake of 100,000 that could
/// take it past the ceiling, then stakes 10,000: on every screen the seat's bankroll and
/// stakes keep a blank (or the grid's bar) between their columns.
#[test]
fn large_amounts_keep_to_their_columns_and_a_bankroll_stops_at_the_ceiling() {
    for cols in [40u8, 80] {
        let mut settings = bac_game::settings::Settings::new(cols);
        settings.normalise();
        let mut seats = [bac_game::save::SavedSeat::BLANK; bac_game::save::MAX_SAVED_SEATS];
        seats[0].name = bac_game::settings::Name::new(b"RICHARDSON");
        seats[0].bankroll = bac_rules::Money::units(9_950_000);
        let saved =
            bac_game::save::Saved { settings, seats, count: 1, house: Some(bac_rules::Money::units(1_000_000)) };
        let mut buf = [0u8; bac_game::save::MAX_BYTES];
        let n = bac_game::save::encode(&saved, &mut buf);
        let mut stand = Stand::new(&keys("{F1}A100000{R}PA10000{R}P{R}"));
        stand.files.insert(b"BAC SAVE".to_vec(), buf[..n].to_vec());
        stand.record_frames = true;
        stand.player = Some(Box::new(|screen: &str, settled: usize| {
            let asked = screen.lines().any(|r| r.trim() == "D: DRAW   S: STAND");
            match (settled, asked) {
                (0, true) => "S".into(),
                (0, false) => "{R}".into(),
                _ => String::new(),
            }
        }));
        let stand = run(stand);
        let frames: Vec<&String> = stand.frames_seen.iter().map(|(_, s)| s).collect();
        assert!(
            frames.iter().any(|s| s.lines().any(|r| r.trim() == "A BANKROLL STOPS AT 10,000,000")),
            "{cols} columns: the stake past the ceiling is refused"
        );
        assert!(!stand.settles.is_empty(), "{cols} columns: the stake of 10,000 was dealt");
        // Where the columns meet: after the name (a blank, or the banker's mark), and
        // before each stake (a blank at 40 columns, the grid's bar at 80, where Loadstar's
        // one open spot, PLAYER, has a bar before it and none after).
        let (gaps, bars): (&[usize], &[usize]) =
            if cols == 40 { (&[9, 19, 26, 33], &[]) } else { (&[11, 33, 42], &[24]) };
        // The seat's row: its name from column 0 (40) or 1 (80), cut to the name's width.
        let seat_row = if cols == 40 { "RICHARDSO" } else { " RICHARDSON" };
        let mut rows_seen = 0;
        for frame in &frames {
            for r in frame.lines().filter(|r| r.starts_with(seat_row)) {
                let c: Vec<char> = r.chars().collect();
                for &g in gaps {
                    assert_eq!(c[g], ' ', "{cols} columns: cell {g} of {r:?}");
                }
                for &b in bars {
                    assert!(c[b] != ' ' && !c[b].is_ascii_alphanumeric(), "{cols} columns: the bar at {b} of {r:?}");
                }
                rows_seen += 1;
            }
        }
        assert!(rows_seen > 3, "{cols} columns: the seat was on {rows_seen} screens");
        let won_or_lost = frames.iter().flat_map(|f| f.lines()).any(|r| {
            r.starts_with(seat_row)
                && (r.contains("+10K") || r.contains("-10K") || r.contains("+10,000") || r.contains("-10,000"))
        });
        assert!(won_or_lost, "{cols} columns: the result of the stake of 10,000 is shown");
    }
}

/// Issue 31: the options screen blanked on every key, and in French the value of `JOUEURS
/// ORDINATEUR` was written over its last letter. A key that moves or changes a line now
/// redraws the lines (far fewer cells than a screen), every label keeps a blank before
/// its value, and the tie pays "8 CONTRE 1" ("8 pour 1" would be 7 to 1).
#[test]
fn the_options_screen_redraws_its_lines_alone_and_keeps_labels_apart_from_values() {
    let stand = screens_after("{F7}{R}{D}{D}{D}{D}{G}{U}{U}{U}{U}{G}{G}{G}{G}{D}{D}");
    let first = stand.screens.iter().position(|s| s.contains("OPTIONS DE LA TABLE")).expect("the options in French");
    for i in first + 1..first + 16 {
        let cost = stand.written_at_screens[i] - stand.written_at_screens[i - 1];
        assert!(cost < 500, "key {} on the options screen wrote {cost} cells:\n{}", i - first, stand.screens[i]);
        assert!(stand.screens[i].contains("OPTIONS DE LA TABLE"), "{}", stand.screens[i]);
    }
    let all: Vec<&str> = stand.screens[first..first + 16].iter().flat_map(|s| s.lines()).collect();
    let computers = all.iter().find(|r| r.contains("JOUEURS ORDINATEUR")).expect("the computers' line");
    assert!(computers.contains("JOUEURS ORDINATEUR "), "{computers:?}");
    assert!(all.iter().any(|r| r.contains("EGALITE PAYEE") && r.contains(" CONTRE 1")), "the tie's odds in French");
}

/// Issue 31: a name of blanks gave a blank seat; it sits as PLAYER 1, as an empty one.
#[test]
fn a_blank_name_sits_as_player_1() {
    let stand = screens_after("{R}{R}   {R}");
    assert!(
        stand.screens.iter().any(|s| s.lines().any(|r| r.starts_with("PLAYER 1 ") && r.contains("100,000"))),
        "the seat's row:\n{}",
        stand.screens.last().unwrap()
    );
}

/// Issue 31: O (the French "oui") quit at the English `QUIT TO BASIC? Y/N`. In English it
/// is ignored and the question stays; Y quits.
#[test]
fn the_english_quit_question_is_answered_by_y_not_o() {
    let stand = screens_after("{S}O");
    let asked = stand.screens.iter().position(|s| s.contains("QUIT TO BASIC? Y/N")).expect("the question");
    let after_o = stand.screens.get(asked + 1).expect("the game still asks after O");
    assert!(after_o.contains("QUIT TO BASIC? Y/N"), "{after_o}");
}

/// Issue 31, defect 9: going back a page to one the platform's spare memory no longer
/// holds (here it has none) reads the help file again from its start, for seconds on a
/// 1581; the key line says so while it does, in both languages.
#[test]
fn paging_back_through_the_help_says_it_reads_the_disk() {
    for (lang_keys, said) in [("", "READING THE PAGE BEFORE..."), ("{F7}", "LECTURE DE LA PAGE PRECEDENTE...")] {
        let mut stand = Stand::new(&keys(&format!("{lang_keys}{{H}}  {{U}}")));
        stand.files.insert(b"BAC HELP".to_vec(), include_bytes!("../../../disk/help.txt").to_vec());
        stand.files.insert(b"BAC AIDE".to_vec(), include_bytes!("../../../disk/help.fr.txt").to_vec());
        let stand = run(stand);
        let reopened = stand.help_open_screens.get(1).expect("the help file opened again for UP");
        assert_eq!(row(reopened, 24), said, "{reopened}");
        assert_eq!(stand.help_open_screens.len(), 2, "one opening, and one for UP");
    }
}

/// The help pages shown for `script` (the pages turned with SPACE and UP) in `cols`
/// columns, with `spare` bytes of spare memory for the text read.
fn help_pages(script: &str, cols: u8, spare: usize) -> Stand {
    let mut stand = Stand::new(&keys(script));
    stand.cols = cols;
    stand.files.insert(b"BAC HELP".to_vec(), include_bytes!("../../../disk/help.txt").to_vec());
    stand.spare = vec![0; spare];
    stand.record_screens = true;
    run(stand)
}

/// The help pages among a stand's screens, as the game asked for a key at each: those
/// whose key line offers keys (`SPACE: NEXT PAGE ...`, `THE END  UP: BACK ...`).
fn help_screens(stand: &Stand) -> Vec<&String> {
    stand.screens.iter().filter(|s| s.lines().nth(24).is_some_and(|r| r.contains(": "))).collect()
}

/// Issue 31, defect 9: the lines already read are kept in the platform's spare memory (on
/// the C128, about 7 KB of RAM under the KERNAL ROM and above the game's code in bank 1),
/// so going back a page takes them from there: the file is opened once and read once, and
/// each page shows as it did going forward, in both widths.
#[test]
fn paging_back_takes_the_help_text_from_spare_memory() {
    let script = format!("{{H}}{}{}{}{{S}}", " ".repeat(3), "{U}".repeat(3), " ".repeat(4));
    for cols in [40u8, 80] {
        let kept = help_pages(&script, cols, 7000);
        let read_again = help_pages(&script, cols, 0);
        assert_eq!(kept.help_open_screens.len(), 1, "{cols} columns: the file opened again");
        assert_eq!(read_again.help_open_screens.len(), 4, "{cols} columns: without spare memory, once a page back");
        let file_len = include_bytes!("../../../disk/help.txt").len();
        assert!(kept.help_bytes_read <= file_len, "{cols} columns: {} bytes read", kept.help_bytes_read);
        let mut pages = help_screens(&kept);
        assert_eq!(pages, help_screens(&read_again), "{cols} columns");
        pages.dedup();
        assert!(pages.len() >= 8, "{cols} columns: {} pages", pages.len());
        assert!(!kept.screens.iter().any(|s| s.contains("READING THE PAGE BEFORE")), "{cols} columns");
    }
}

/// A spare memory too small for every page read: going back takes the pages it still
/// holds from it and reads the file again for the others, and every page still shows as it
/// did going forward, whatever the memory's size (down to none) and wherever its ring of
/// lines wraps.
#[test]
fn paging_back_is_the_same_with_any_spare_memory() {
    let script = format!("{{H}}{}{}{}{{S}}", " ".repeat(6), "{U}".repeat(6), " ".repeat(8));
    for cols in [40u8, 80] {
        let none = help_pages(&script, cols, 0);
        for spare in [1, 82, 83, 84, 200, 611, 1000, 1777, 3000] {
            let some = help_pages(&script, cols, spare);
            assert_eq!(help_screens(&some), help_screens(&none), "{cols} columns, {spare} bytes spare");
            let openings = some.help_open_screens.len();
            assert!((1..=7).contains(&openings), "{cols} columns, {spare} bytes: {openings} openings");
        }
    }
}

/// The title's quit question is written under its panel, not over the panel's cards (it
/// was written on row 9, across the white faces of the 40-column cards), in both widths.
#[test]
fn the_title_asks_to_quit_under_its_cards() {
    for cols in [40u8, 80] {
        let mut stand = Stand::new(&keys("{S}N"));
        stand.cols = cols;
        stand.record_screens = true;
        let stand = run(stand);
        let asked = stand.screens.iter().find(|s| s.contains("QUIT TO BASIC? Y/N")).expect("the question");
        let rows: Vec<&str> = asked.lines().collect();
        let question = rows.iter().position(|r| r.contains("QUIT TO BASIC? Y/N")).unwrap();
        let cards = rows.iter().rposition(|r| r.chars().any(|c| "♠♥♣♦".contains(c))).expect("the title's cards");
        assert!(
            question > cards + 1,
            "{cols} columns: the question on row {question}, a card on row {cards}:\n{asked}"
        );
    }
}

/// Issue 31: in hot seat, an amount typed by one person (A) was the next person's chip
/// too, though it was checked against the first one's bankroll. Each person starts from
/// the chips.
#[test]
fn a_typed_amount_stays_with_the_person_who_typed_it() {
    let stand = screens_after("{R}{D}{D}{D}{G}{R}ADA{R}BOB{R}A50{R}P{R}");
    let bob = stand.screens.iter().find(|s| row(s, lines(s).msg).starts_with("BOB: ")).expect("BOB's turn to bet");
    assert!(row(bob, lines(bob).chips).ends_with("A:SUM"), "BOB's chips:\n{bob}");
    let ada = stand
        .screens
        .iter()
        .find(|s| row(s, lines(s).msg).starts_with("ADA: ") && row(s, lines(s).chips).ends_with(" 50"));
    assert!(ada.is_some(), "ADA's typed amount in hand");
}

/// The help pages in both languages, as the original's dialogue was English and French:
/// F7 on the title switches the game to French, and HELP then shows the disk's `BAC AIDE`.
#[test]
fn the_help_pages_come_in_english_and_in_french() {
    let mut stand = Stand::new(&keys("{H}{S}{F7}{H}{S}"));
    stand.files.insert(b"BAC HELP".to_vec(), include_bytes!("../../../disk/help.txt").to_vec());
    stand.files.insert(b"BAC AIDE".to_vec(), include_bytes!("../../../disk/help.fr.txt").to_vec());
    stand.record_screens = true;
    let stand = run(stand);
    let english = stand.screens.iter().position(|s| s.contains("BACCARAT FOR THE COMMODORE 128 - HELP"));
    let french = stand.screens.iter().position(|s| s.contains("LE BACCARA POUR LE COMMODORE 128 - AIDE"));
    let (english, french) = (english.expect("the English help"), french.expect("the French help"));
    assert!(english < french);
    assert!(stand.screens[french].contains("ESPACE: SUITE"), "{}", stand.screens[french]);
    assert!(!stand.screens[french].contains("HELP"), "English on the French page:\n{}", stand.screens[french]);
}

/// Every word of the help file is on its pages, in order, in both widths and both
/// languages: the 40-column screen reflows the file's 80-column lines and never cuts one
/// at a page's foot. On 40 columns a line's wrapped rows keep its indent, so a paragraph
/// reads as one column.
#[test]
fn the_help_pages_show_every_word_of_the_file_in_both_widths() {
    let files: [(&[u8], &[u8]); 2] = [
        (b"BAC HELP", include_bytes!("../../../disk/help.txt")),
        (b"BAC AIDE", include_bytes!("../../../disk/help.fr.txt")),
    ];
    for eighty in [false, true] {
        for (french, (name, text)) in files.iter().enumerate() {
            let lang = if french == 1 { "{F7}" } else { "" };
            let mut stand = Stand::new(&keys(&format!("{lang}{{H}}{}{{S}}", " ".repeat(16))));
            // The game starts in the width the machine shows (the 40/80 key).
            stand.cols = if eighty { 80 } else { 40 };
            stand.files.insert(name.to_vec(), text.to_vec());
            stand.record_screens = true;
            let stand = run(stand);
            let mut pages = help_screens(&stand);
            pages.dedup();
            assert!(pages.len() > 3, "{} pages", pages.len());
            let shown: Vec<String> = pages
                .iter()
                .flat_map(|page| {
                    page.lines().take(24).flat_map(|r| r.split_whitespace().map(str::to_string).collect::<Vec<_>>())
                })
                .collect();
            let words: Vec<String> =
                String::from_utf8_lossy(text).to_uppercase().split_whitespace().map(str::to_string).collect();
            let width = if eighty { 80 } else { 40 };
            assert_eq!(shown, words, "{width} columns, {}", String::from_utf8_lossy(name));
            // A page ends only where its next line has no room, so none is left holding
            // the last few words of a paragraph alone.
            for (n, page) in pages.iter().enumerate() {
                let rows = page.lines().take(24).filter(|r| !r.trim().is_empty()).count();
                assert!(rows >= 4, "page {} of {} holds {rows} rows ({width} columns):\n{page}", n + 1, pages.len());
            }
            // Issue 31: a heading (a line of the file in its first column) never ends a
            // page, away from its text; and only the last page offers no next one.
            let headings: Vec<String> = String::from_utf8_lossy(text)
                .lines()
                .filter(|l| l.starts_with(|c: char| c.is_ascii_alphabetic()))
                .map(str::to_uppercase)
                .collect();
            for (n, page) in pages.iter().enumerate() {
                let last_row = page.lines().take(23).filter(|r| !r.trim().is_empty()).last().unwrap_or("");
                let last = n + 1 == pages.len();
                assert!(
                    last || !headings.iter().any(|h| last_row.trim() == h.trim()),
                    "page {} ends with the heading {last_row:?} ({width} columns)",
                    n + 1
                );
                let keys = page.lines().nth(24).unwrap_or("").trim();
                let next_offered = keys.starts_with("SPACE") || keys.starts_with("ESPACE");
                assert_eq!(next_offered, !last, "page {} of {}: {keys:?}", n + 1, pages.len());
            }
            if !eighty {
                for page in &pages {
                    let rows: Vec<&str> = page.lines().take(24).collect();
                    for pair in rows.windows(2) {
                        let indent = |r: &str| r.len() - r.trim_start().len();
                        let (row, next) = (pair[0], pair[1]);
                        let wrapped = !row.trim().is_empty() && !next.trim().is_empty() && indent(row) > 0;
                        assert!(
                            !wrapped || indent(next) > 0,
                            "{next:?} lost the indent of {row:?} ({})",
                            String::from_utf8_lossy(name)
                        );
                    }
                }
            }
        }
    }
}

/// Saves this version writes, with every field at odd values (huge bankrolls, a house bank
/// of nothing or of everything, tie stakes at tables that keep them): each one loads and
/// plays, or the game goes on without it; none crashes or hangs the game, and no coup
/// changes the money at the table.
#[test]
fn any_save_this_version_writes_loads_or_is_set_aside_safely() {
    use bac_game::save::{MAX_BYTES, SavedSeat, encode};
    use bac_rules::{Money, Preset};
    let amounts = [0, 1, 99, 100, 5_000_000, 99_999_900, u32::MAX / 2, u32::MAX - 95, u32::MAX];
    let mut x = 0x9E37_79B9u32;
    let mut next = move || {
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        x
    };
    let mut played = 0;
    for round in 0..60 {
        let mut settings = bac_game::settings::Settings::new(40);
        settings.preset = Preset::ALL[round % Preset::ALL.len()];
        settings.decks = settings.preset.customary_decks().0;
        settings.humans = 1 + (next() % 2) as u8;
        settings.normalise();
        let mut seats = [SavedSeat::BLANK; bac_game::save::MAX_SAVED_SEATS];
        let count = settings.humans + settings.computers;
        for (i, seat) in seats.iter_mut().take(usize::from(count)).enumerate() {
            seat.kind = if i < usize::from(settings.humans) {
                bac_rules::SeatKind::Human
            } else {
                bac_rules::SeatKind::Computer
            };
            seat.name = bac_game::settings::Name::new(b"ODD");
            seat.bankroll = Money::cents(amounts[next() as usize % amounts.len()]);
            if settings.preset == Preset::Sahara {
                seat.tie_stake = Money::units(amounts[next() as usize % amounts.len()] / 100);
            }
        }
        let amount = Money::cents(amounts[next() as usize % amounts.len()]);
        let house = (next() % 4 != 0).then_some(amount);
        let saved = bac_game::save::Saved { settings, seats, count, house };
        let mut buf = [0u8; MAX_BYTES];
        let n = encode(&saved, &mut buf);
        let mut stand = Stand::new(&keys(&"{F1}1P1T1B{R}S  ".repeat(3)));
        stand.files.insert(b"BAC SAVE".to_vec(), buf[..n].to_vec());
        let stand = run(stand);
        for (coup, before, after) in &stand.settles {
            assert_eq!(before, after, "round {round}: money changed in coup {coup}");
        }
        played += usize::from(!stand.settles.is_empty());
    }
    assert!(played > 20, "only {played} of 60 saves played a coup");
}

/// The first settled coup's screen of a Loadstar session (ADA, 100 on Player) that starts
/// `start` frames after power-on, with `seed` as the disk's `BAC SEED` file if given.
fn first_coup(seed: Option<&[u8]>, start: u64) -> String {
    let mut stand = Stand::new(&keys("{R}{R}ADA{R}4P{R} "));
    stand.frames = start;
    if let Some(seed) = seed {
        stand.files.insert(bac_game::app::SEED_FILE.to_vec(), seed.to_vec());
    }
    let stand = run(stand);
    stand.settled_screens.first().cloned().expect("a coup was settled")
}

#[test]
fn a_seed_file_replays_the_same_shoe_whatever_the_timing() {
    // Without a seed the clock shuffles: other start times, other cards.
    assert_ne!(first_coup(None, 0), first_coup(None, 777), "the clock did not change the deal");
    // With one, the same cards whenever the table is built; another seed, another shoe.
    let seed = 1234u32.to_le_bytes();
    let seeded = first_coup(Some(&seed), 0);
    assert_eq!(seeded, first_coup(Some(&seed), 777));
    assert_eq!(seeded, first_coup(Some(&seed), 123_456));
    assert_ne!(seeded, first_coup(Some(&4321u32.to_le_bytes()), 0));
    // A file that is not 4 bytes is no seed: the game deals as without one, never fails.
    for bad in [&b""[..], &b"\x01\x02\x03"[..], &b"\x01\x02\x03\x04\x05"[..], &[7u8; 300][..]] {
        assert_eq!(first_coup(Some(bad), 777), first_coup(None, 777), "a {}-byte seed file", bad.len());
    }
}

/// SPACE held through the deal (as a player taps to hurry the dealer) cuts every pause of
/// the coup to two frames: the same cards, the same results and the same screens, sooner.
#[test]
fn space_hurries_the_deal_and_changes_nothing_else() {
    let script = format!("{{R}}{{G}}{{G}}{{R}}DEE{{R}}{}", "1P{R} ".repeat(5));
    let play = |space_held: bool| {
        let mut stand = Stand::new(&keys(&script));
        stand.space_held = space_held;
        run(stand)
    };
    let (dealer, hurried) = (play(false), play(true));
    assert_eq!(dealer.settles.len(), 5);
    assert_eq!(dealer.settled_screens, hurried.settled_screens, "hurrying changed a coup");
    assert_eq!(dealer.settles, hurried.settles);
    // Four cards at least, half a second before each at a dealer's pace; two frames each
    // when hurried (the first coup also shuffles the shoe: one more pause).
    for (coup, (&slow, &fast)) in dealer.deal_frames.iter().zip(&hurried.deal_frames).enumerate() {
        assert!(slow >= 4 * 25, "coup {coup}: {slow} frames at a dealer's pace");
        assert!(fast <= 2 * 7, "coup {coup}: {fast} frames hurried");
    }
}

/// Issue 31, defect 3: a Sahara tie stake that stays (seed 002) is the seat's money on the
/// Sahara table; when the players take another game it comes back to the bankroll, as a
/// player picks up the chips when leaving a table. DEE bets 1 on Tie until a tie, then
/// moves to Punto Banco: the bankroll there holds the stake; back at Sahara nothing
/// reappears under TIE; and the save written at the end loads, with all of it in the
/// bankroll.
#[test]
fn a_tie_stake_that_stays_goes_back_to_the_bankroll_at_another_game() {
    use std::cell::RefCell;
    use std::rc::Rc;
    // The money DEE owns, bankroll and stake, as the bets after the tie show it; then what
    // each later betting screen showed.
    let seen: Rc<RefCell<Vec<(i64, String)>>> = Rc::default();
    let log = Rc::clone(&seen);
    let mut stand = Stand::new(&keys("{R}{L}{R}DEE{R}"));
    let mut phase = 0;
    stand.player = Some(Box::new(move |screen: &str, settled: usize| {
        let bets = row(screen, lines(screen).msg).ends_with(": YOUR BETS");
        let seat = screen.lines().nth(lines(screen).seats).unwrap_or("");
        let (roll, tie) = (cells(seat, 9..19), cells(seat, 33..40));
        match phase {
            _ if settled >= 300 => String::new(),
            0 if bets && tie.is_empty() => "1T{R}".into(),
            0 if bets => {
                // The tie stake stays: the next bets show it under TIE.
                log.borrow_mut().push((cents(&roll) + cents(&tie), screen.to_string()));
                phase = 1;
                // To the options, and three presets on: Loadstar, Chemin de fer, Punto Banco.
                "{S}O{G}{G}{G}{R}".into()
            }
            1 if bets => {
                log.borrow_mut().push((cents(&roll), screen.to_string()));
                phase = 2;
                // Back two presets: No commission, Sahara Sands.
                "{S}O{L}{L}{R}".into()
            }
            2 if bets => {
                log.borrow_mut()
                    .push((cents(&roll) + if tie.is_empty() { 0 } else { cents(&tie) }, screen.to_string()));
                assert!(tie.is_empty(), "the stake came back under TIE:\n{screen}");
                phase = 3;
                "{S}Y".into()
            }
            _ => "{R}".into(),
        }
    }));
    let stand = run(stand);
    let seen = seen.borrow();
    assert_eq!(seen.len(), 3, "no tie in 300 coups, or the table did not come back");
    let owned = seen[0].0;
    assert!(seen[0].1.contains("SAHARA"), "{}", seen[0].1);
    assert!(seen[1].1.contains("PUNTO BANCO"), "{}", seen[1].1);
    assert_eq!(seen[1].0, owned, "the bankroll at Punto Banco holds the stake:\n{}", seen[1].1);
    assert_eq!(seen[2].0, owned, "back at Sahara:\n{}", seen[2].1);
    let saved = bac_game::save::decode(&stand.files[&b"BAC SAVE"[..]]).expect("a save that loads");
    assert_eq!(saved.seats[0].tie_stake, bac_rules::Money::ZERO);
    assert_eq!(i64::from(saved.seats[0].bankroll.in_cents()), owned, "the save");
}

/// Issue 31, defect 3, the first path: a Sahara tie stake stays, the players go to the
/// options, choose Loadstar and quit at once from its table. The save must load.
#[test]
fn a_save_after_leaving_sahara_with_a_tie_stake_loads() {
    let mut stand = Stand::new(&keys("{R}{L}{R}DEE{R}"));
    let mut done = false;
    stand.player = Some(Box::new(move |screen: &str, settled: usize| {
        let bets = row(screen, lines(screen).msg).ends_with(": YOUR BETS");
        let tie = cells(screen.lines().nth(lines(screen).seats).unwrap_or(""), 33..40);
        if done || settled >= 300 {
            String::new()
        } else if bets && tie.is_empty() {
            "1T{R}".into()
        } else if bets {
            done = true;
            "{S}O{G}{R}{S}Y".into()
        } else {
            "{R}".into()
        }
    }));
    let stand = run(stand);
    let file = stand.files[&b"BAC SAVE"[..]].clone();
    let saved = bac_game::save::decode(&file).expect("a save that loads");
    assert_eq!(saved.settings.preset, bac_rules::Preset::Loadstar, "no tie in 300 coups");
    let mut again = Stand::new(&keys("{F1}"));
    again.files.insert(b"BAC SAVE".to_vec(), file);
    again.record_screens = true;
    let again = run(again);
    assert!(again.screens[0].contains("CONTINUE THE SAVED GAME"), "{}", again.screens[0]);
}

/// A save of one person at `preset` with `cents` in the bankroll.
fn one_seat_save(preset: bac_rules::Preset, cents: u32) -> Vec<u8> {
    let mut settings = bac_game::settings::Settings::new(40);
    settings.preset = preset;
    settings.decks = 6;
    settings.normalise();
    let mut seats = [bac_game::save::SavedSeat::BLANK; bac_game::save::MAX_SAVED_SEATS];
    seats[0].name = bac_game::settings::Name::new(b"DEE");
    seats[0].bankroll = bac_rules::Money::cents(cents);
    let saved = bac_game::save::Saved { settings, seats, count: 1, house: None };
    let mut buf = [0u8; bac_game::save::MAX_BYTES];
    let n = bac_game::save::encode(&saved, &mut buf);
    buf[..n].to_vec()
}

/// Issue 31, defect 5: 0.80 left after the commission is less than the smallest stake the
/// table takes (1 unit): the player can bet nothing, so the rebuy is offered, as at 0.
#[test]
fn a_player_short_of_the_table_minimum_is_offered_the_rebuy() {
    for preset in [bac_rules::Preset::PuntoBanco, bac_rules::Preset::Loadstar] {
        let mut stand = Stand::new(&keys("{F1} "));
        stand.files.insert(b"BAC SAVE".to_vec(), one_seat_save(preset, 80));
        stand.record_screens = true;
        let stand = run(stand);
        assert!(
            stand.screens.iter().any(|s| row(s, lines(s).msg) == "NO MONEY LEFT: A NEW STAKE FOR ALL"),
            "{preset:?}: no rebuy offered:\n{}",
            stand.screens.last().unwrap()
        );
        let start = bac_rules::RuleSet::preset(preset).starting_bankroll;
        let saved = bac_game::save::decode(&stand.files[&b"BAC SAVE"[..]]).unwrap();
        assert_eq!(saved.seats[0].bankroll, start, "{preset:?}: topped up to the table's stake");
    }
    // One unit is enough to bet: no rebuy.
    let mut stand = Stand::new(&keys("{F1}"));
    stand.files.insert(b"BAC SAVE".to_vec(), one_seat_save(bac_rules::Preset::PuntoBanco, 180));
    stand.record_screens = true;
    let stand = run(stand);
    assert!(!stand.screens.iter().any(|s| row(s, lines(s).msg).starts_with("NO MONEY LEFT")));
}

/// The options left with STOP leave the game in play as it was: a change of players or
/// rules made there and then abandoned (STOP, then Y to quit) must not reach the save,
/// whose seats would no longer match its settings.
#[test]
fn options_left_with_stop_do_not_change_the_game_in_play() {
    // At the table: STOP, O for the options, two more people and Punto Banco, STOP, Y.
    let stand = run(Stand::new(&keys("{R}{R}DEE{R}1P{R} {S}O{G}{G}{G}{D}{D}{D}{G}{G}{S}Y")));
    let saved = bac_game::save::decode(&stand.files[&b"BAC SAVE"[..]]).expect("a save that loads");
    assert_eq!((saved.settings.preset, saved.settings.humans, saved.count), (bac_rules::Preset::Loadstar, 1, 1));
}

/// Issue 31: random keys across preset switches, saves, quits, continues and rebuys. The
/// money (every bankroll, every stake on the table, the Loadstar house bank) changes only
/// by settled coups (their own `Event::Settled` records), rebuys and fresh banks, and every
/// save the game writes loads again (see [`Ledger`]). Each run of the program types random
/// keys, drawn from the keys the screen in front of it takes (so that the runs reach the
/// tables, ties and options rather than knock at one prompt), then quits, saving; the next
/// run starts on the same disk, with F1 (continue) or RETURN (a new game).
///
/// A failure names its run; `LEDGER_RUN=<run>` prints that run's keys, with the rows of the
/// screen they answered, and every count of its money.
#[test]
fn money_moves_only_by_settled_coups_across_presets_saves_and_rebuys() {
    // A fixed xorshift so the run is the same every time.
    let mut x = 0x0031_0031u32;
    let mut next = move || {
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        x
    };
    let runs = 2_000;
    let (mut files, mut ledger) = (HashMap::new(), Ledger::default());
    for r in 1..=runs {
        let (mut left, mut y) = (20 + next() % 300, next() | 1);
        let debug = std::env::var("LEDGER_RUN").is_ok_and(|d| d == r.to_string());
        let mut stand = Stand::new(&[]);
        stand.files = std::mem::take(&mut files);
        stand.player = Some(Box::new(move |screen: &str, _: usize| {
            if left == 0 {
                // Out: N refuses a question of seed 004's matching, D answers a draw, STOP
                // and Y (Q in French) leave the table, saving, and RETURN ends a message.
                return "N{S}YQD{R}".to_string();
            }
            left -= 1;
            // The keys the screen takes, some more often than others: the bets (the tie
            // most, for seed 002's stake that stays), leaving the table for the options or
            // BASIC, a preset (LEFT and RIGHT on the options' first line) or the players.
            let alphabet: &[&str] = if row(screen, lines(screen).msg2).contains("O:OPTIONS") {
                &["O", "O", "O", "Y", "N"]
            } else if ["YOUR BETS", "STAKE THE BANK", "BANCO OR BET"]
                .iter()
                .any(|m| row(screen, lines(screen).msg).ends_with(m))
            {
                &["T", "T", "T", "P", "P", "B", "1", "2", "3", "5", "6", "7", "C", "A", "{R}", "{R}", "{R}", "{S}"]
            } else if screen.contains("RETURN: PLAY") {
                &["{L}", "{L}", "{G}", "{D}", "{U}", "{R}", "{R}", "{S}"]
            } else if row(screen, lines(screen).msg2).starts_with("QUIT TO BASIC") {
                &["Y", "N", "N", "N"]
            } else {
                &["{R}", "{R}", " ", "D", "S", "M", "N", "C", "R", "{F1}", "{F1}", "1", "0"]
            };
            y ^= y << 13;
            y ^= y >> 17;
            y ^= y << 5;
            let k = alphabet[y as usize % alphabet.len()].to_string();
            if debug {
                eprintln!("|{}\nKEY {k}", screen.lines().skip(8).take(5).collect::<Vec<_>>().join("\n|"));
            }
            k
        }));
        stand.max_frames = 2_000_000;
        ledger.new_run();
        stand.ledger = Some(ledger);
        let mut stand = run(stand);
        files = std::mem::take(&mut stand.files);
        ledger = stand.ledger.take().unwrap();
    }
    eprintln!(
        "{runs} runs: {} counts, {} coups, {} rebuys, {} saves, {} games changed, {} with a tie stake out",
        ledger.counts, ledger.coups, ledger.rebuys, ledger.saves, ledger.switches, ledger.switches_with_a_tie_stake
    );
    assert!(ledger.coups > 1_000 && ledger.saves > runs / 2, "too little was played");
    assert!(ledger.switches > 50 && ledger.switches_with_a_tie_stake > 0, "too few changes of game");
}

/// The cells of card `card` (0-2) of hand `hand` (0 Player, 1 Banker) on a 40-column
/// screen: rows 3 to 7, five cells from column 1 or 21, six cells a card.
fn card_cells(screen: &str, hand: usize, card: usize) -> String {
    let x = [1, 21][hand] + 6 * card;
    screen.lines().skip(3).take(5).map(|r| cells(r, x..x + 5)).collect::<Vec<_>>().join("|")
}

/// A card shows its face: a suit.
fn face_up(cells: &str) -> bool {
    cells.chars().any(|c| "♠♥♣♦".contains(c))
}

/// A card shows its back: the checkerboard, and no suit.
fn face_down(cells: &str) -> bool {
    cells.contains('▒') && !face_up(cells)
}

/// The total beside a hand's head (row 2, the head's column plus 8), if one shows.
fn total_shown(screen: &str, hand: usize) -> Option<char> {
    screen.lines().nth(2)?.chars().nth([1, 21][hand] + 8).filter(|c| c.is_ascii_digit())
}

/// A game of one person (DEE) who reads the screen: `bet` at each round of bets, S at each
/// question, RETURN at anything else, for `coups` coups; every screen at a key and every
/// frame kept.
fn reading_session(options: &str, coups: usize, bet: &'static str) -> Stand {
    let mut stand = Stand::new(&keys(&format!("{{R}}{options}{{R}}DEE{{R}}")));
    stand.record_screens = true;
    stand.record_frames = true;
    stand.player = Some(Box::new(move |screen: &str, settled: usize| {
        let answer = if settled >= coups {
            ""
        } else if row(screen, lines(screen).msg).ends_with(": YOUR BETS") {
            bet
        } else if row(screen, lines(screen).msg2) == "D: DRAW   S: STAND" {
            "S"
        } else {
            "{R}"
        };
        answer.to_string()
    }));
    run(stand)
}

/// Issue 31, defect 2. Seed 004 deals every card face down, and seed 003 turns a natural up
/// at once; a person who chooses decides from what the rules let them see (their own two
/// cards and a third card, dealt face up), and the other hand stays down until the choice
/// is made. At Loadstar DEE, asked on 5, sees the Player hand and its total, the bank's
/// backs and no total; at Chemin de fer the banker, asked, sees the bank's cards and the
/// punter's third card only, and the punter on 5 the Player hand only. Where nobody
/// chooses (Punto Banco) both hands are up before any third card, and every settled
/// screen shows every card.
#[test]
fn cards_lie_face_down_until_the_rules_let_the_chooser_see_them() {
    let stand = reading_session("", 80, "3P{R}");
    let asked: Vec<&String> = stand.screens.iter().filter(|s| row(s, lines(s).msg2) == "D: DRAW   S: STAND").collect();
    assert!(!asked.is_empty(), "no question on 5 in 80 Loadstar coups");
    for s in &asked {
        for card in 0..2 {
            assert!(face_up(&card_cells(s, 0, card)), "the chooser's own card {card}:\n{s}");
            assert!(face_down(&card_cells(s, 1, card)), "the bank's card {card} is covered:\n{s}");
        }
        assert_eq!((total_shown(s, 0), total_shown(s, 1)), (Some('5'), None), "the totals:\n{s}");
    }
    assert!(stand.frames_seen.iter().any(|(_, s)| s.contains('▒')), "no card was dealt face down");
    for s in &stand.settled_screens {
        assert!(!s.contains('▒'), "a settled coup shows every card:\n{s}");
        for (hand, card) in [(0, 0), (0, 1), (1, 0), (1, 1)] {
            assert!(face_up(&card_cells(s, hand, card)), "hand {hand} card {card} settled:\n{s}");
        }
    }
    assert!(
        stand.settled_screens.iter().any(|s| row(s, lines(s).msg).starts_with("NATURAL")),
        "no natural in 80 coups"
    );

    let stand = reading_session("{G}{G}", 40, "1P{R}");
    for (_, s) in
        stand.frames_seen.iter().filter(|(_, s)| face_up(&card_cells(s, 0, 2)) || face_up(&card_cells(s, 1, 2)))
    {
        assert!(!s.contains('▒'), "a third card beside a covered hand at Punto Banco:\n{s}");
    }

    let frames = chemin_session(2, 30, || "3B{R}", || "1P{R}", "M");
    let mut asked = [0; 2];
    for (_, s) in &frames {
        let m = row(s, lines(s).msg);
        if m.ends_with(": YOU HAVE 5") {
            for card in 0..2 {
                assert!(face_up(&card_cells(s, 0, card)) && face_down(&card_cells(s, 1, card)), "on 5:\n{s}");
            }
            asked[0] += 1;
        } else if m.contains(": BANK HAS ") {
            for card in 0..2 {
                assert!(face_down(&card_cells(s, 0, card)) && face_up(&card_cells(s, 1, card)), "the bank:\n{s}");
            }
            assert_eq!(total_shown(s, 0), None, "the punter's total to the banker:\n{s}");
            assert_eq!(m.contains(" AGAINST "), face_up(&card_cells(s, 0, 2)), "the punter's third card:\n{s}");
            asked[1] += 1;
        }
    }
    assert!(asked[0] > 0 && asked[1] > 0, "questions on 5 and to the bank: {asked:?}");
}

/// Issue 31, defect 7: HELP at a question comes back to the whole table (the heads, the
/// seats, the cards as they lie and the chooser's total), and the coup's result after the
/// answer shows every card under its hand's head.
#[test]
fn help_at_a_question_comes_back_to_the_whole_table() {
    let mut stand = Stand::new(&keys("{R}{R}DEE{R}"));
    stand.files.insert(b"BAC HELP".to_vec(), b"HELP TEXT\rSECOND LINE\r".repeat(3));
    stand.record_screens = true;
    let mut helped = (0, false);
    stand.player = Some(Box::new(move |screen: &str, settled: usize| {
        let answer = if helped.0 >= 3 || settled >= 100 {
            ""
        } else if row(screen, 24).ends_with("STOP: END") {
            "{S}"
        } else if row(screen, lines(screen).msg).ends_with(": YOUR BETS") {
            "3P{R}"
        } else if row(screen, lines(screen).msg2) == "D: DRAW   S: STAND" {
            helped.1 = !helped.1;
            if helped.1 {
                helped.0 += 1;
                "{H}"
            } else {
                "S"
            }
        } else {
            "{R}"
        };
        answer.to_string()
    }));
    let stand = run(stand);
    let mut back = 0;
    for (i, s) in stand.screens.iter().enumerate().skip(1) {
        if !row(&stand.screens[i - 1], 24).ends_with("STOP: END") || row(s, lines(s).msg2) != "D: DRAW   S: STAND" {
            continue;
        }
        back += 1;
        let heads = s.lines().nth(2).unwrap();
        assert!(heads.contains("PLAYER") && heads.contains("BANKER"), "the hands' heads after the help:\n{s}");
        assert!(s.contains("BANKROLL") && s.lines().nth(lines(s).seats).unwrap().starts_with("DEE"), "the seats:\n{s}");
        assert!(row(s, 0).starts_with("LOADSTAR 128"), "the head:\n{s}");
        for card in 0..2 {
            assert!(face_up(&card_cells(s, 0, card)) && face_down(&card_cells(s, 1, card)), "the cards:\n{s}");
        }
        assert_eq!(total_shown(s, 0), Some('5'), "the chooser's total:\n{s}");
        let result =
            |s: &&String| ["PLAYER WINS", "BANKER WINS", "TIE  "].iter().any(|r| row(s, lines(s).msg2).starts_with(r));
        let settled = stand.screens[i..].iter().find(result).unwrap();
        let heads = settled.lines().nth(2).unwrap();
        assert!(heads.contains("PLAYER") && heads.contains("BANKER"), "the result's heads:\n{settled}");
        for (hand, card) in [(0, 0), (0, 1), (1, 0), (1, 1)] {
            assert!(face_up(&card_cells(settled, hand, card)), "hand {hand} card {card} at the result:\n{settled}");
        }
    }
    assert_eq!(back, 3, "the question after each of three helps");
}

/// Issue 31, defect 6: every key at the settled screen acts or is ignored on purpose.
/// SPACE (the hurry key) leaves the result on the screen; L stakes the last bets again and
/// deals; a chip typed at the result is the first key of the bets; RETURN goes to the bets,
/// where RETURN with nothing staked warns before it deals.
#[test]
fn the_settled_screen_keeps_its_keys_space_l_a_bet_typed_ahead_and_return() {
    let script = "{R}{G}{G}{R}DEE{R}4P{R} L5B{R}{R}{R}{R}";
    let stand = screens_after(script);
    assert!(stand.settles.len() >= 4, "{} coups:\n{}", stand.settles.len(), stand.screen());
    let key_line = "RETURN: NEW BETS   L: LAST BETS, DEAL";
    let first = stand.screens.iter().position(|s| row(s, 24) == key_line).expect("a result");
    assert_eq!(stand.screens[first + 1], stand.screens[first], "SPACE at the result changed the screen");
    let seat = |coup: usize| {
        stand.settled_screens[coup].lines().nth(lines(&stand.settled_screens[coup]).seats).unwrap().to_string()
    };
    let under = |coup: usize, range| cells(&seat(coup), range);
    for coup in 0..2 {
        let player = under(coup, 19..26);
        assert!(["+100", "-100", "=100"].contains(&player.as_str()), "coup {coup}: {player:?}:\n{}", seat(coup));
        assert_eq!(under(coup, 26..33), "", "coup {coup}: a bet on the Banker");
    }
    let banker = under(2, 26..33);
    assert!(["+475", "-500", "=500"].contains(&banker.as_str()), "the 5 typed at the result: {banker:?}");
    assert!(
        stand.screens.iter().any(|s| row(s, lines(s).msg2) == "NO BET: RETURN AGAIN TO DEAL"),
        "RETURN with nothing staked warns first"
    );
    assert_eq!((under(3, 19..26), under(3, 26..33)), (String::new(), String::new()), "a coup with no stake");
}

/// A card's rank as the seat's drawing for the bank shows it ("10♥", "K♠"), 1 to 13.
fn rank_of(text: &str) -> Option<u8> {
    let rank: String = text.chars().take_while(|c| c.is_ascii_alphanumeric()).collect();
    match rank.as_str() {
        "A" => Some(1),
        "J" => Some(11),
        "Q" => Some(12),
        "K" => Some(13),
        n => n.parse().ok(),
    }
}

/// Issue 31, defect 8: no silent moments. SAVING... shows while the save is written; the
/// key line says SPACE hurries the deal while a coup is dealt; a tie for the highest card
/// at the draw for the bank is said before the tied seats draw again.
#[test]
fn the_game_says_when_it_saves_hurries_and_draws_again_for_the_bank() {
    let mut stand = Stand::new(&keys("{R}{R}ADA{R}4P{R}"));
    stand.record_frames = true;
    let stand = run(stand);
    assert!(!stand.write_screens.is_empty(), "nothing saved");
    for s in &stand.write_screens {
        assert_eq!(row(s, 11), "SAVING...", "while the save is written:\n{s}");
    }
    assert!(
        stand
            .frames_seen
            .iter()
            .any(|(n, s)| *n == 0 && face_down(&card_cells(s, 0, 0)) && row(s, 24) == "SPACE: HURRY THE DEAL"),
        "the hurry key while the cards are dealt"
    );

    let mut said = 0;
    for seed in 1..=30u32 {
        let mut stand = Stand::new(&keys(&chemin_people(4)));
        stand.files.insert(bac_game::app::SEED_FILE.to_vec(), seed.to_le_bytes().to_vec());
        stand.record_frames = true;
        let stand = run(stand);
        let frames: Vec<&String> = stand.frames_seen.iter().map(|(_, s)| s).collect();
        let Some(again) = frames.iter().position(|s| row(s, lines(s).msg) == "A TIE FOR THE HIGHEST CARD: DRAW AGAIN")
        else {
            continue;
        };
        said += 1;
        let ranks: Vec<u8> = frames[again - 1]
            .lines()
            .skip(lines(frames[again - 1]).seats)
            .take(4)
            .filter_map(|r| rank_of(&cells(r, 19..26)))
            .collect();
        let best = ranks.iter().max().copied().unwrap_or(0);
        assert_eq!(ranks.len(), 4, "every seat's card is up before the tie is said:\n{}", frames[again - 1]);
        assert!(ranks.iter().filter(|&&r| r == best).count() >= 2, "no tie:\n{}", frames[again - 1]);
    }
    assert!(said > 0, "no tie for the bank in 30 draws of four seats");
}

/// Issue 31, defects 6 and 8: the help (English and French) names the hurry key, the keys
/// of the result and the three derived roads.
#[test]
fn the_help_names_the_hurry_key_the_results_keys_and_the_derived_roads() {
    let en = include_str!("../../../disk/help.txt").replace("\n  ", " ");
    let fr = include_str!("../../../disk/help.fr.txt").replace("\n  ", " ");
    for words in [
        "SPACE, tapped or held, hurries the deal",
        "L (last bets)",
        "face down",
        "BIG EYE BOY",
        "SMALL ROAD",
        "COCKROACH",
    ] {
        assert!(en.contains(words), "help.txt: {words}");
    }
    for words in [
        "ESPACE, tape ou tenu, accelere la donne",
        "L (les memes)",
        "face cachee",
        "GRAND OEIL",
        "PETITE ROUTE",
        "CAFARD",
    ] {
        assert!(fr.contains(words), "help.fr.txt: {words}");
    }
}
