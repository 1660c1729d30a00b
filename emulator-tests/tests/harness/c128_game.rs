//! The game as a C128 owner gets it: `bac.d81` built from `disk/bac.toml`, booted, and played
//! through the keyboard matrix. Every rule set plays coups with the money at the table the
//! same before and after each one (the game's mailbox), a Loadstar session saves, quits to
//! BASIC and comes back with its bankroll, and damaged saves, full and write-protected disks
//! are reported without stopping the game.

use crate::built_game as game;

use d81::{Disk, FileType};
use game::{Game, boot, built};

/// The save file's name.
const SAVE: &[u8] = b"BAC SAVE";

/// Byte offset of the header sector (track 40, sector 0) in a `.d81`.
const HEADER_OFFSET: usize = 39 * 40 * 256;

/// Leaves the table and quits to BASIC: RUN/STOP, then Y at "quit?".
const QUIT: &str = "{RUN/STOP}Y";

fn image_with(edit: impl FnOnce(&mut Disk)) -> Vec<u8> {
    let mut disk = Disk::from_bytes(&built().image).unwrap();
    edit(&mut disk);
    disk.as_bytes().to_vec()
}

fn assert_money_kept(g: &Game, what: &str) {
    assert!(!g.settles.is_empty(), "{what}: no coup was settled\n{}", g.text());
    for s in &g.settles {
        assert_eq!(s.before, s.after, "{what}: the money at the table changed in coup {}", s.coups);
    }
}

#[test]
fn every_rule_set_plays_coups_with_the_money_kept() {
    // On the options screen RIGHT steps the rule set on from Loadstar (the default).
    for (rights, name, round) in [
        // A chip, a spot, deal, then a key for the next coup. Where the rules give the
        // player a choice (Loadstar's 5, the Chemin de fer banker's free choice) S answers
        // it ("stand") or, when nothing is asked, serves as that key; the space after it is
        // then a key the betting screen ignores.
        ("{RIGHT}{RIGHT}", "PUNTO BANCO", "1P{RETURN} "),
        ("{RIGHT}{RIGHT}{RIGHT}", "NO COMMISSION", "2B{RETURN} "),
        ("{RIGHT}{RIGHT}{RIGHT}{RIGHT}", "SAHARA SANDS", "1T{RETURN} "),
        ("", "LOADSTAR 128", "3P{RETURN}S "),
        // As banker: stake a chip and close; as punter: "Banco".
        ("{RIGHT}", "CHEMIN DE FER", "1B{RETURN}S "),
    ] {
        let mut g = boot(&built().image, false);
        assert!(g.text().contains("NEW GAME"), "the title screen:\n{}", g.text());
        g.keys(&format!("{{RETURN}}{rights}"));
        assert!(g.text().contains(name), "{name} on the options screen:\n{}", g.text());
        g.keys("{RETURN}DEE{RETURN}");
        g.keys(&round.repeat(3));
        assert_money_kept(&g, name);
        assert!(g.text().contains("DEE"), "{name}: the seat's name at the table:\n{}", g.text());
        g.keys(QUIT);
        let exit = g.exit.unwrap_or_else(|| panic!("{name}: back to BASIC:\n{}", g.text()));
        assert_eq!(exit.code, 0, "{name}");
        let saved = bac_game::save::decode(&g.disk().read(SAVE).unwrap().data).expect("a good save");
        assert_eq!(saved.seats[0].name.as_bytes(), b"DEE", "{name}");
    }
}

#[test]
fn a_loadstar_session_saves_quits_and_comes_back_in_80_columns() {
    let mut g = boot(&built().image, true);
    assert!(g.m.eighty_active(), "the 40/80 key down starts the game on the VDC");
    g.keys("{RETURN}{RETURN}ADA{RETURN}4P{RETURN}S "); // S: see an_ntsc_machine_plays_too
    assert_money_kept(&g, "Loadstar");
    g.keys(QUIT);
    assert!(g.exit.is_some(), "quit to BASIC:\n{}", g.text());
    let disk = g.disk();
    let saved = bac_game::save::decode(&disk.read(SAVE).unwrap().data).unwrap();
    assert_eq!(saved.seats[0].name.as_bytes(), b"ADA");
    let roll = saved.seats[0].bankroll;
    assert!(disk.find(b"BAC SAVE.NEW").is_none(), "the temporary file is gone");

    // The next start offers the saved game (F1) and the table shows its bankroll.
    let mut again = boot(disk.as_bytes(), true);
    assert!(again.text().contains("F1"), "the title offers the saved game:\n{}", again.text());
    again.keys("{F1}");
    let figure = bac_game::num::money(roll, bac_game::text::Lang::English);
    assert!(again.text().contains("ADA"), "{}", again.text());
    assert!(
        again.text().contains(core::str::from_utf8(figure.as_bytes()).unwrap()),
        "bankroll {roll:?}:\n{}",
        again.text()
    );
}

#[test]
fn a_damaged_save_is_reported_and_a_fresh_game_starts() {
    let image = image_with(|d| {
        d.write_file(SAVE, FileType::Seq, b"BAC1\x01not a save at all, but long enough").unwrap();
    });
    let mut g = boot(&image, false);
    let title = g.text();
    assert!(title.contains("NEW GAME"), "{title}");
    assert!(!title.contains("F1 "), "a damaged save is not offered:\n{title}");
    g.keys("{RETURN}{RETURN}BO{RETURN}1P{RETURN}S "); // S: see an_ntsc_machine_plays_too
    assert_money_kept(&g, "after a damaged save");
}

/// Plays a coup on `image`, quits, and checks that the failed save is reported with the
/// choice to try again (RETURN, which fails again here) or to leave unsaved (RUN/STOP).
fn quit_on_a_disk_that_cannot_save(image: &[u8], why: &str) {
    let mut g = boot(image, false);
    g.keys("{RETURN}{RETURN}CY{RETURN}1P{RETURN}S "); // S: see an_ntsc_machine_plays_too
    assert_money_kept(&g, why);
    g.keys(QUIT);
    for attempt in ["first", "second"] {
        let shown = g.text();
        assert!(g.exit.is_none(), "{why}: the game waits after the {attempt} failed save:\n{shown}");
        assert!(shown.contains(why) && shown.contains("TRY AGAIN"), "{why}, {attempt} save:\n{shown}");
        if attempt == "first" {
            g.keys("{RETURN}");
        }
    }
    g.keys("{RUN/STOP}");
    assert!(g.exit.is_some(), "{why}: RUN/STOP leaves unsaved:\n{}", g.text());
    assert!(g.disk().find(SAVE).is_none(), "{why}");
}

#[test]
fn a_write_protected_disk_says_so_and_lets_the_player_choose() {
    // The 1581's soft write protection: a DOS version byte other than 'D' in the header
    // (track 40, sector 0); the tab itself is not part of an image.
    let mut image = built().image.clone();
    image[HEADER_OFFSET + 2] = b'P';
    assert!(Disk::from_bytes(&image).unwrap().is_write_protected());
    quit_on_a_disk_that_cannot_save(&image, "WRITE PROTECTED");
}

#[test]
fn a_full_disk_says_so_and_lets_the_player_choose() {
    let image = image_with(|d| {
        let free = usize::from(d.blocks_free());
        d.write_file(b"FILLER", FileType::Prg, &vec![0; free * 254]).unwrap();
        assert_eq!(d.blocks_free(), 0);
    });
    quit_on_a_disk_that_cannot_save(&image, "DISK FULL");
}

/// The xorshift seeds of the random-key sessions, one a test: the 100,000 keys shared out
/// over four sessions of their own, so that libtest runs them on both cores (one session
/// of 100,000 keys was the harness's critical path, about six minutes alone). The seeds
/// are fixed so that a failure replays.
const RANDOM_KEY_SHARDS: [u32; 4] = [0x2545_F491, 0x9E37_79B9, 0x7F4A_7C15, 0x1B87_3593];

/// The random keys of all the shards together.
const RANDOM_KEYS: usize = 100_000;

/// Boots the game and types shard `shard`'s share of the random keys. Keys the game answers
/// somewhere (no Y or O, which would leave the table when RUN/STOP asks), RETURN more often
/// so that coups get dealt, typed as fast as a person could (two frames down, two up)
/// whether or not the game is listening: keys pressed while it deals are lost, as on the
/// real machine. FUZZ_KEYS=N types N keys in all instead of 100,000 (a quarter a shard).
fn random_keys_never_crash_leave_or_lose_money(shard: usize) {
    let alphabet = [
        "P",
        "B",
        "T",
        "C",
        "1",
        "2",
        "3",
        "4",
        "5",
        "6",
        "7",
        "8",
        "D",
        "S",
        "N",
        " ",
        "{RETURN}",
        "{RETURN}",
        "{RETURN}",
        "{RUN/STOP}",
        "{DOWN}",
        "{UP}",
        "{LEFT}",
        "{RIGHT}",
        "{F1}",
        "{F7}",
        "A",
    ];
    let total: usize = std::env::var("FUZZ_KEYS").ok().and_then(|v| v.parse().ok()).unwrap_or(RANDOM_KEYS);
    let keys = total / RANDOM_KEY_SHARDS.len();
    let mut state = RANDOM_KEY_SHARDS[shard];
    let mut g = boot(&built().image, false);
    for _ in 0..keys {
        state ^= state << 13;
        state ^= state >> 17;
        state ^= state << 5;
        g.type_blind(alphabet[(state % alphabet.len() as u32) as usize]);
        assert!(g.exit.is_none(), "shard {shard}: the game left without being asked to:\n{}", g.text());
    }
    // Each table counts its own coups, so count the settles seen. The single session asked
    // for more than 100 coups in 100,000 keys; each shard asks for its share of them.
    let coups = g.settles.len();
    let wanted = 100 / RANDOM_KEY_SHARDS.len();
    assert!(total < RANDOM_KEYS || coups > wanted, "shard {shard}: only {coups} coups in {keys} keys");
    assert_money_kept(&g, &format!("random keys, shard {shard}"));
    eprintln!("shard {shard}: {keys} random keys, {coups} coups in {} frames", g.m.bus().frames);
}

#[test]
fn random_keys_never_crash_leave_or_lose_money_0() {
    random_keys_never_crash_leave_or_lose_money(0);
}

#[test]
fn random_keys_never_crash_leave_or_lose_money_1() {
    random_keys_never_crash_leave_or_lose_money(1);
}

#[test]
fn random_keys_never_crash_leave_or_lose_money_2() {
    random_keys_never_crash_leave_or_lose_money(2);
}

#[test]
fn random_keys_never_crash_leave_or_lose_money_3() {
    random_keys_never_crash_leave_or_lose_money(3);
}

/// The game's screens against the pictures in `tests/golden/` (`docs/game.md` shows them):
/// the title, the betting screen and a dealt coup, in 40 and in 80 columns. The shuffle's
/// seed is fixed (`Game::fix_seed`): the frame and raster line it is taken at move with the
/// code's layout, which a checkout in another directory changes. `BLESS=1 cargo test -p emulator-tests --test harness -- c128_game::`
/// rewrites them (see `golden`).
#[test]
fn title_betting_and_dealt_coup_match_the_golden_screens() {
    for (columns, eighty) in [("40", false), ("80", true)] {
        let mut g = boot(&built().image, eighty);
        g.fix_seed(built().ticks_routine, 0x0012_3456);
        let shot = |g: &Game, what: &str| {
            let name = format!("game-{what}-{columns}.png");
            crate::golden::check(&g.m.screenshot(g.m.active_screen()), &name);
        };
        shot(&g, "title");
        g.keys("{RETURN}{RIGHT}{RIGHT}{RETURN}ADA{RETURN}5P");
        assert!(g.text().contains("PUNTO BANCO"), "{}", g.text());
        shot(&g, "betting");
        g.keys("{RETURN}");
        assert_eq!(g.settles.len(), 1, "one coup dealt:\n{}", g.text());
        shot(&g, "coup");
        // Deep in the shoe: the bead plate, the big road and, at 80 columns, the derived
        // roads (each coup hurried with SPACE held).
        for _ in 0..29 {
            g.keys("{RETURN}1P");
            g.keys_holding("{RETURN}", Some(" "), built().frame_routine);
        }
        assert_eq!(g.settles.len(), 30, "thirty coups dealt:\n{}", g.text());
        shot(&g, "shoe");
    }
}

/// SPACE held while a coup is dealt (a player hurrying the dealer) cuts each of its pauses
/// from half a second to two frames, and is no key: the settled coup still waits, and takes
/// the next key typed.
#[test]
fn space_hurries_the_deal_and_is_not_taken_as_a_key() {
    let mut g = boot(&built().image, false);
    g.fix_seed(built().ticks_routine, 0x0012_3456);
    g.keys("{RETURN}{RIGHT}{RIGHT}{RETURN}ADA{RETURN}5P");
    let frame = built().frame_routine;
    let dealer = g.keys_holding("{RETURN}", None, frame);
    assert_eq!(g.settles.len(), 1, "{}", g.text());
    g.keys("{RETURN}5P");
    let hurried = g.keys_holding("{RETURN}", Some(" "), frame);
    assert_eq!(g.settles.len(), 2, "{}", g.text());
    // Four cards at least, 25 frames before each at a dealer's pace; hurried, two each.
    assert!(dealer >= 4 * 25, "{dealer} frames at a dealer's pace");
    assert!(hurried < 25, "{hurried} frames hurried");
    // SPACE is up again: the settled coup still waits for a key, and the next one deals.
    g.idle(10);
    assert!(g.text().contains("RETURN: NEW BETS   L: LAST BETS, DEAL"), "SPACE was taken as a key:\n{}", g.text());
    assert_eq!(g.settles.len(), 2);
    g.keys("{RETURN}");
    assert!(g.text().contains("YOUR BETS"), "{}", g.text());
}

/// A SPACE held while the key ring is full still hurries the deal: the deal takes no key,
/// so shift presses typed during it fill the ring (15 readings), and then only the
/// interrupt's newest reading, kept even when the ring has no room, shows SPACE down.
/// Before it was kept, such a SPACE went unseen for the rest of the deal (at a dealer's
/// pace, 80 frames and more).
#[test]
fn space_held_after_the_key_ring_filled_still_hurries_the_deal() {
    let mut g = boot(&built().image, false);
    g.fix_seed(built().ticks_routine, 0x0012_3456);
    g.keys("{RETURN}{RIGHT}{RIGHT}{RETURN}ADA{RETURN}5P");
    g.keys_then_go_on("{RETURN}");
    // SHIFT gives no key, so the settled screen still waits; each press and release is a
    // reading: 20 of them overfill the ring.
    g.toggle("{SHIFT}", 10);
    let hurried = g.hold_until_key_request(Some(" "), built().frame_routine);
    assert_eq!(g.settles.len(), 1, "{}", g.text());
    assert!(hurried < 25, "{hurried} frames with SPACE held after the ring filled");
    g.idle(10);
    assert!(g.text().contains("RETURN: NEW BETS   L: LAST BETS, DEAL"), "a key was taken:\n{}", g.text());
}

/// The cards come at a dealer's pace to the last one: the table settles every bet in the
/// last card's pause (interpreted, several frames of work), and the pause counts that work
/// instead of waiting its 25 frames on top of it.
#[test]
fn the_last_card_keeps_the_dealers_pace_while_the_bets_are_settled() {
    let b = built();
    let mut g = boot(&b.image, false);
    g.fix_seed(b.ticks_routine, 0x0012_3456);
    g.keys("{RETURN}{RIGHT}{RIGHT}{RETURN}ADA{RETURN}5P");
    // Each card comes through `card_shown`; face::card draws only the cards face up, and
    // turns the first four up at once.
    let card = b.code_map.symbol(|n| n.contains("10card_shown")).expect("card_shown in the map");
    let (cards, _) = g.entries_until_key("{RETURN}", &[card]).expect("a coup was dealt");
    assert!(cards.len() >= 4, "{} cards drawn", cards.len());
    let gaps: Vec<u64> = cards.windows(2).map(|w| w[1] - w[0]).collect();
    // A PAL frame at 1 MHz (the 40-column screen): 312 lines of 63 cycles.
    const FRAME: u64 = 312 * 63;
    let (least, most) = (gaps.iter().min().unwrap(), gaps.iter().max().unwrap());
    assert!(*least >= 24 * FRAME, "a card came before the dealer's pace: {gaps:?} cycles apart");
    assert!(most - least < 2 * FRAME, "the cards came {gaps:?} cycles apart");
}

/// The settled screen is drawn in the last card's pause, behind the screen the player sees
/// (`Platform::hold`): as that card is drawn, nothing of the result shows yet, in either
/// width; once it is, the whole settled screen does.
#[test]
fn the_settled_screen_drawn_ahead_shows_only_with_the_last_card() {
    let b = built();
    let card = b.code_map.symbol(|n| n.contains("8bac_game4face4card")).expect("face::card in the map");
    for eighty in [false, true] {
        let mut g = boot(&b.image, eighty);
        g.fix_seed(b.ticks_routine, 0x0012_3456);
        g.keys("{RETURN}{RIGHT}{RIGHT}{RETURN}ADA{RETURN}5P");
        let staked = g.text();
        let screens = g.screens_until_key("{RETURN}", &[card]).expect("a coup was dealt");
        let settled = g.text();
        assert!(screens.len() >= 4, "{} cards drawn", screens.len());
        // The result line: who won, then the totals (`PLAYER WINS  7-3`).
        let result = ["PLAYER WINS  ", "BANKER WINS  ", "TIE  "]
            .into_iter()
            .find(|r| settled.split(r).nth(1).is_some_and(|after| after.as_bytes()[1] == b'-'));
        let result = result.unwrap_or_else(|| panic!("no result on the settled screen:\n{settled}"));
        assert!(settled.contains("RETURN: NEW BETS   L: LAST BETS, DEAL"), "{settled}");
        let last = screens.last().unwrap();
        for (what, text) in [("the result", result), ("the next coup's key", "NEW BETS")] {
            assert!(!last.contains(text), "{what} showed before the last card (eighty: {eighty}):\n{last}");
        }
        // The seat's row as it was staked: its bankroll and stake, not yet its result.
        let seat =
            |screen: &str| screen.lines().find(|l| l.split_whitespace().next() == Some("ADA")).map(str::to_owned);
        assert_eq!(seat(last), seat(&staked), "the seat's row before the last card (eighty: {eighty})");
        assert_ne!(seat(&settled), seat(&staked), "the seat's row once settled (eighty: {eighty})");
    }
}

/// At 40 columns each card face is a white sprite under the card's cells. The last card's
/// is laid while the settled screen is drawn behind a held picture, and must come on with
/// that screen, which holds the card's rank and suit: on before it, it would show a blank
/// card. Read at each text row drawn: while the VIC-IIe shows the held copy, the faces on
/// are those of the cards before the last.
#[test]
fn the_last_card_face_comes_on_with_its_screen() {
    let b = built();
    let row = b.code_map.symbol(|n| n.ends_with("6screen7vic_row")).expect("vic_row in the map");
    let mut g = boot(&b.image, false);
    g.fix_seed(b.ticks_routine, 0x0012_3456);
    g.keys("{RETURN}{RIGHT}{RIGHT}{RETURN}ADA{RETURN}5P");
    // The VIC-IIe's screen and character memory ($D018) and the sprites on ($D015).
    let seen = |g: &Game| (g.m.bus().vic.read(0x18, 0), g.m.bus().vic.read(0x15, 0));
    let (rows, _) = g.until_key_noting("{RETURN}", &[row], seen).expect("a coup was dealt");
    let (screen, faces) = seen(&g);
    let held: Vec<u8> = rows.iter().filter(|&&(s, _)| s != screen).map(|&(_, f)| f).collect();
    assert!(!held.is_empty(), "no row was drawn behind a held picture");
    // The first four cards lie face down (no face) until they are turned up, which may come
    // with the last card too: while the picture is held, fewer faces are on than once
    // settled, and none that is not on then.
    for on in held {
        assert!(
            on & !faces == 0 && on.count_ones() < faces.count_ones(),
            "faces on while the picture was held: {on:08b}; once settled: {faces:08b}"
        );
    }
}

#[test]
fn the_help_pages_come_from_the_disk_in_both_widths() {
    for eighty in [false, true] {
        let mut g = boot(&built().image, eighty);
        g.keys("{F5}");
        let page = g.text();
        assert!(page.contains("BACCARAT FOR THE COMMODORE 128 - HELP"), "the first page of BAC HELP:\n{page}");
        g.keys(" ");
        assert_ne!(g.text(), page, "the next page");
        g.keys("{RUN/STOP}");
        assert!(g.text().contains("NEW GAME"), "back at the title:\n{}", g.text());
        // F7: the game in French, and its help from `BAC AIDE`.
        g.keys("{F7}{F5}");
        let page = g.text();
        assert!(page.contains("LE BACCARA POUR LE COMMODORE 128 - AIDE"), "the first page of BAC AIDE:\n{page}");
        assert!(page.contains("ESPACE: SUITE"), "the keys in French:\n{page}");
        g.keys("{RUN/STOP}");
        assert!(g.text().contains("NOUVELLE PARTIE"), "back at the French title:\n{}", g.text());
    }
}

/// Issue 31, defect 9: going back through the help pages takes the lines already read
/// from spare RAM (bank 0's under the KERNAL ROM and bank 1's above the game's code, about
/// 7 KB: nearly the whole file): neither the file's opening nor its reading runs, where
/// before the 1581 sent the file again from its start (8 to 20 seconds in VICE). Each
/// page comes back as it first showed, in both widths.
#[test]
fn paging_back_through_the_help_reads_spare_ram_not_the_disk() {
    let b = built();
    let storage = |name: &str| {
        b.code_map.symbol(|n| n.contains("Storage") && n.ends_with(name)).unwrap_or_else(|| panic!("{name} in the map"))
    };
    let disk = [storage("9open_help"), storage("9help_line")];
    for eighty in [false, true] {
        let mut g = boot(&b.image, eighty);
        g.keys("{F5}");
        let mut pages = vec![g.text()];
        for _ in 0..3 {
            g.keys(" ");
            pages.push(g.text());
        }
        pages.dedup();
        assert_eq!(pages.len(), 4, "four pages (eighty: {eighty})");
        for back in pages.iter().rev().skip(1) {
            let (disk_calls, _) = g.entries_until_key("{UP}", &disk).expect("the help pages go on");
            assert!(disk_calls.is_empty(), "{} disk calls going back (eighty: {eighty})", disk_calls.len());
            assert_eq!(&g.text(), back, "the page as it first showed (eighty: {eighty})");
        }
    }
}

#[test]
fn cards_sound_on_the_sid_unless_the_sound_is_off() {
    // Options: the sixth line is the sound; LEFT or RIGHT switches it.
    for (options, sound) in [("", true), ("{DOWN}{DOWN}{DOWN}{DOWN}{DOWN}{RIGHT}", false)] {
        let mut g = boot(&built().image, false);
        g.keys(&format!("{{RETURN}}{{RIGHT}}{{RIGHT}}{options}"));
        assert!(g.text().contains(if sound { " ON" } else { " OFF" }), "{}", g.text());
        g.keys("{RETURN}SID{RETURN}1P");
        let before = g.m.bus().sid.log.len();
        g.keys("{RETURN}");
        let writes = g.m.bus().sid.log.len() - before;
        assert_eq!(g.settles.len(), 1);
        assert_eq!(
            writes > 0,
            sound,
            "{writes} SID writes during a coup with the sound {}",
            if sound { "on" } else { "off" }
        );
    }
}

#[test]
fn the_options_switch_between_40_and_80_columns() {
    use c128_emu::Screen::{Eighty, Forty};
    let mut g = boot(&built().image, false);
    assert!(!g.screen(Eighty).contains("NEW GAME"), "the title is on the VIC-IIe only");
    // The eighth line is the screen width: the options move to the VDC, and back.
    g.keys("{RETURN}{DOWN}{DOWN}{DOWN}{DOWN}{DOWN}{DOWN}{DOWN}{RIGHT}");
    let eighty = g.screen(Eighty);
    assert!(eighty.contains("TABLE OPTIONS") && eighty.contains("COLUMNS          80"), "{eighty}");
    g.keys("{RIGHT}");
    let forty = g.screen(Forty);
    assert!(forty.contains("TABLE OPTIONS") && forty.contains("COLUMNS          40"), "{forty}");
}

#[test]
fn an_ntsc_machine_plays_too() {
    use c128_emu::chips::vic::VideoStandard;
    let config = c128_emu::Config { standard: VideoStandard::Ntsc, ..c128_emu::Config::default() };
    let mut g = Game::boot_with(&built().image, config, built().key_routine);
    // S answers Loadstar's question on a player's 5 (whether it comes depends on the
    // shuffle, seeded by timing) or else is the next-coup key, as in the rule-set test.
    g.keys("{RETURN}{RETURN}NED{RETURN}1P{RETURN}S ");
    assert_money_kept(&g, "NTSC");
    assert!(g.text().contains("NED"), "{}", g.text());
}

#[test]
fn a_name_typed_at_speed_keeps_every_letter() {
    // Keys at the keyboard script's own pace (down 2 frames, up 2: 12 a second), not at
    // the game's key requests: a fast typist.
    for eighty in [false, true] {
        let mut g = boot(&built().image, eighty);
        g.keys("{RETURN}{RIGHT}{RIGHT}{RETURN}");
        assert!(g.text().contains("NAME OF PLAYER 1"), "the name prompt:\n{}", g.text());
        let columns = if eighty { 80 } else { 40 };
        g.type_blind("ADALINE{WAIT 50}");
        assert!(g.text().contains("ADALINE"), "every letter, {columns} columns:\n{}", g.text());
        g.type_blind("{DEL}{DEL}{WAIT 50}");
        assert!(
            g.text().contains("ADALI") && !g.text().contains("ADALIN"),
            "two letters deleted, {columns} columns:\n{}",
            g.text()
        );
        g.keys("{RETURN}");
        assert!(g.text().contains("ADALI: YOUR BETS"), "the seat's name at the table:\n{}", g.text());
    }
}

#[test]
fn bets_typed_at_speed_are_all_placed() {
    // Keys at the keyboard script's own pace (down 2 frames, up 2), while the table is
    // still drawing after each bet: the frame interrupt's key buffer keeps them.
    for eighty in [false, true] {
        let mut g = boot(&built().image, eighty);
        g.keys("{RETURN}{RIGHT}{RIGHT}{RETURN}ADA{RETURN}");
        g.type_blind("5P4B3T{WAIT 100}");
        let text = g.text();
        let seat = text.lines().find(|l| l.split_whitespace().next() == Some("ADA")).unwrap_or_default();
        // The figures of the row, between spaces or the grid's bars (80 columns), before
        // the scoreboard panel's border.
        let table = seat.split('│').take(4).collect::<Vec<_>>().join(" ");
        let figures: Vec<&str> = table.split_whitespace().skip(1).collect();
        assert_eq!(figures, ["375", "500", "100", "25"], "bankroll and the three bets, {eighty}:\n{}", g.text());
    }
}

/// A result to look for: the options keys, the bet, its heading, the result line of a coup
/// that must occur, and what the seat's row then shows under that heading.
type Case<'a> = (&'a str, &'a str, &'a str, &'a dyn Fn(&str) -> bool, &'a str);

/// The real program shows each bet's result under its own spot's heading, as the scripted
/// game does (`bac-game`'s `every_result_shows_under_its_own_spots_heading`): at Punto
/// Banco a tie bet's +8 under TIE and its losses there too; at No Commission a banker bet's
/// half win on a banker 6 under BANKER. The seat's row is read off the 40-column screen,
/// whose heads PLAYER, BANKER and TIE end at columns 26, 33 and 40.
#[test]
fn results_show_under_their_own_spots_heading() {
    let columns = [("PLAYER", 19..26), ("BANKER", 26..33), ("TIE", 33..40)];
    let banker_6 = |l: &str| l.starts_with("BANKER WINS") && l.ends_with("-6");
    let cases: [Case; 2] = [
        ("{RIGHT}{RIGHT}", "1T", "TIE", &|l| l.starts_with("TIE"), "+8"),
        ("{RIGHT}{RIGHT}{RIGHT}", "1B", "BANKER", &banker_6, "+0.50"),
    ];
    for (rights, bet, head, result_line, shown) in cases {
        let mut g = boot(&built().image, false);
        g.fix_seed(built().ticks_routine, 0x0012_3456);
        g.keys(&format!("{{RETURN}}{rights}{{RETURN}}DEE{{RETURN}}"));
        let mut found = false;
        // One seat: its row and the result's, as the game places them.
        let at = bac_game::play::table_rows(40, 1);
        let (seat_row, result_row) = (usize::from(at.seats), usize::from(at.msg2));
        for _ in 0..60 {
            g.keys(&format!("{bet}{{RETURN}}"));
            let text = g.text();
            let rows: Vec<&str> = text.lines().collect();
            // The screen's text ends each row at its last ink.
            let seat: Vec<char> = format!("{:40}", rows[seat_row]).chars().collect();
            assert!(rows[seat_row].starts_with("DEE"), "{text}");
            for (name, range) in &columns {
                let shows = seat[range.clone()].iter().any(|&c| c != ' ');
                assert_eq!(shows, name == &head, "{bet}: something under {name}:\n{text}");
            }
            let under: String = seat[columns.iter().find(|(n, _)| *n == head).unwrap().1.clone()].iter().collect();
            found |= result_line(rows[result_row].trim()) && under.trim() == shown;
            if found {
                break;
            }
            g.keys("{RETURN}");
        }
        assert!(found, "{bet}: no coup showed {shown} under {head}:\n{}", g.text());
        assert_money_kept(&g, bet);
    }
}

/// Row `y` of a 40-column screen's text, padded to 40 cells (the text ends each row at its
/// last ink).
fn row40(text: &str, y: usize) -> Vec<char> {
    format!("{:40}", text.lines().nth(y).unwrap_or("")).chars().take(40).collect()
}

/// The cells `range` of row `y`, trimmed.
fn cells(text: &str, y: usize, range: std::ops::Range<usize>) -> String {
    row40(text, y)[range].iter().collect::<String>().trim().to_string()
}

/// Row `y`, trimmed.
fn line(text: &str, y: usize) -> String {
    row40(text, y).iter().collect::<String>().trim().to_string()
}

/// Where a 40-column table screen has its lines: they move down with fewer seats
/// (`bac_game::play::table_rows`), so they are found from the screen itself, by its seats'
/// heads (the line that says BANKROLL).
fn at(text: &str) -> bac_game::play::TableRows {
    let head = text.lines().position(|r| r.contains("BANKROLL"));
    bac_game::play::table_rows_with_heads_on(40, head.map(|h| h as u8))
}

/// The row of the message (`at(text).msg`), or of the line under it, or of the first seat.
fn msg(text: &str) -> usize {
    usize::from(at(text).msg)
}
fn msg2(text: &str) -> usize {
    usize::from(at(text).msg2)
}
fn seat0(text: &str) -> usize {
    usize::from(at(text).seats)
}

/// The Chemin de fer banker: the seat row with the bank's mark in its tenth cell.
fn banker_row(text: &str) -> Option<usize> {
    let first = seat0(text);
    (first..first + 6).find(|&y| row40(text, y)[9] == '*')
}

/// Plays Chemin de fer in the real program with two people, DEE and EVA, reading the
/// screen: `bank` staked by the banker, `punt` by the punter, `matched` answers seed 004's
/// matching question (the bank short or exceeded: `(prompt, key)`), and `settled` checks
/// each settled screen with the banker's row before the coup. Plays `coups` coups.
fn chemin_in_the_c128(
    coups: usize,
    bank: &str,
    punt: &str,
    matched: impl FnMut(&str, &str) -> &'static str,
    settled: impl FnMut(&str, usize),
) -> Game {
    chemin_of_people_in_the_c128(&["DEE", "EVA"], coups, bank, || punt.to_string(), matched, settled)
}

/// [`chemin_in_the_c128`] with `people` at the table and `punt` asked for each punter's
/// keys in turn.
fn chemin_of_people_in_the_c128(
    people: &[&str],
    coups: usize,
    bank: &str,
    mut punt: impl FnMut() -> String,
    mut matched: impl FnMut(&str, &str) -> &'static str,
    mut settled: impl FnMut(&str, usize),
) -> Game {
    let mut g = boot(&built().image, false);
    g.fix_seed(built().ticks_routine, 0x0012_3456);
    let more = "{RIGHT}".repeat(people.len() - 1);
    let names: String = people.iter().map(|n| format!("{n}{{RETURN}}")).collect();
    g.keys(&format!("{{RETURN}}{{RIGHT}}{{DOWN}}{{DOWN}}{{DOWN}}{more}{{DOWN}}{{LEFT}}{{RETURN}}{names}"));
    let mut banker = None;
    for _ in 0..400 {
        if g.settles.len() >= coups {
            break;
        }
        let text = g.text();
        let (m, m2) = (line(&text, msg(&text)), line(&text, msg2(&text)));
        let punted;
        let keys = if m.ends_with(": STAKE THE BANK") {
            bank
        } else if m.ends_with(": BANCO OR BET") {
            banker = banker_row(&text);
            punted = punt();
            &punted
        } else if m2.ends_with(": M:MAKE IT UP  N:NO") || m2.ends_with(": C:COVER IT  R:RETURN IT") {
            matched(&m, &m2)
        } else if m2 == "D: DRAW   S: STAND" {
            let asked = &text.lines().nth(banker.unwrap_or(seat0(&text))).unwrap_or("")[..3];
            // Seed 004: the player chooses on 5, the banker is free.
            assert_eq!(m.starts_with(asked), m.contains(": BANK HAS "), "who is asked:\n{text}");
            "S"
        } else if line(&text, 24) == "RETURN: NEXT COUP" {
            settled(&text, banker.expect("a banker before the coup"));
            "{RETURN}"
        } else {
            " "
        };
        g.keys(keys);
    }
    assert!(g.settles.len() >= coups, "{} coups:\n{}", g.settles.len(), g.text());
    assert_money_kept(&g, "Chemin de fer");
    g
}

/// Seed 004 in the real program: a punter's 1 against a bank of 25 is short by 24, the
/// punter is asked and makes it up, so each settled coup shows 25 won, lost or returned
/// under PUNTO and under BANK; the bank passes when the Player hand wins and stays
/// otherwise; the question on 5 goes to the punter and the bank's to the banker.
#[test]
fn chemin_de_fer_makes_up_a_deficit_and_passes_the_bank_in_the_c128() {
    let mut outcomes = [0; 2];
    chemin_in_the_c128(
        6,
        "3B{RETURN}",
        "1P{RETURN}",
        |m, m2| {
            assert_eq!(m, "THE PUNTS FALL SHORT BY 24", "{m2}");
            "M"
        },
        |text, banker| {
            let first = seat0(text);
            let punter = if banker == first { first + 1 } else { first };
            let (punto, bank) = (cells(text, punter, 19..26), cells(text, banker, 26..33));
            assert_eq!(&punto[1..], "25", "the punter's stake made up to the bank:\n{text}");
            assert_eq!(&bank[1..], "25", "the bank:\n{text}");
            let player_won = line(text, msg2(text)).starts_with("PLAYER WINS");
            assert_eq!(banker_row(text) != Some(banker), player_won, "the bank passes only on a loss:\n{text}");
            outcomes[usize::from(player_won)] += 1;
        },
    );
    assert!(outcomes[0] > 0 && outcomes[1] > 0, "coups the bank kept and lost: {outcomes:?}");
}

/// Seed 004: "If any player wants to match the entire stake he says 'Banco'. Then other
/// players do not bet in this deal." Three people: the first punter bets 1, the second
/// calls Banco. Each settled coup shows 25 under the caller's PUNTO and nothing under the
/// first punter's, whose 1 went back.
#[test]
fn chemin_de_fer_banco_matches_the_bank_alone_in_the_c128() {
    let mut turn = 0;
    chemin_of_people_in_the_c128(
        &["DEE", "EVA", "FOX"],
        3,
        "3B{RETURN}",
        || {
            turn += 1;
            if turn % 2 == 1 { "1P{RETURN}" } else { "B" }.to_string()
        },
        |m, m2| panic!("no matching after Banco: {m} / {m2}"),
        |text, banker| {
            let seats = seat0(text);
            let b = banker - seats;
            let (first, caller) = (seats + (b + 1) % 3, seats + (b + 2) % 3);
            assert_eq!(&cells(text, caller, 19..26)[1..], "25", "Banco matches the bank:\n{text}");
            assert_eq!(cells(text, first, 19..26), "", "the other punter's stake went back:\n{text}");
        },
    );
}

/// Seed 004: "the dealer can make up the deficit or return the excess bets". A punter's 25
/// against a bank of 5: covered by the banker, both stakes are 25; returned, both are 5.
#[test]
fn chemin_de_fer_covers_or_returns_an_excess_in_the_c128() {
    for (answer, stake) in [("C", "25"), ("R", "5")] {
        chemin_in_the_c128(
            2,
            "2B{RETURN}",
            "3P{RETURN}",
            |m, m2| {
                assert_eq!(m, "BETS EXCEED THE BANK BY 20", "{m2}");
                answer
            },
            |text, banker| {
                let first = seat0(text);
                let punter = if banker == first { first + 1 } else { first };
                assert_eq!(&cells(text, punter, 19..26)[1..], stake, "{answer}: the punt:\n{text}");
                assert_eq!(&cells(text, banker, 26..33)[1..], stake, "{answer}: the bank:\n{text}");
            },
        );
    }
}

/// Seed 003 and the original in the real program: the bank shows over the table, moves by
/// exactly the player's result each coup, goes into the save and is there after BOOT and F1.
#[test]
fn the_loadstar_bank_moves_with_each_result_and_survives_save_and_continue_in_the_c128() {
    let bank_of = |text: &str| -> i64 {
        let head = line(text, 1);
        let figure = head.rsplit_once("BANK ").map(|(_, b)| b.replace(',', "")).expect("the bank shown");
        figure.parse::<i64>().unwrap()
    };
    let mut g = boot(&built().image, false);
    g.fix_seed(built().ticks_routine, 0x0012_3456);
    g.keys("{RETURN}{RETURN}DEE{RETURN}");
    let mut bank = bank_of(&g.text());
    assert_eq!(bank, 1_000_000, "{}", g.text());
    let mut checked = 0;
    for _ in 0..60 {
        if checked >= 5 {
            break;
        }
        let text = g.text();
        let keys = if line(&text, msg(&text)).ends_with(": YOUR BETS") {
            "4P{RETURN}"
        } else if line(&text, msg2(&text)) == "D: DRAW   S: STAND" {
            assert_eq!(line(&text, msg(&text)), "DEE: YOU HAVE 5", "only the player's 5 is asked:\n{text}");
            "S"
        } else if line(&text, 24) == "RETURN: NEW BETS   L: LAST BETS, DEAL" {
            let result = cells(&text, seat0(&text), 19..26);
            bank -= match &result[..1] {
                "+" => 100,
                "-" => -100,
                _ => 0,
            };
            assert_eq!(bank_of(&text), bank, "after {result}:\n{text}");
            checked += 1;
            "{RETURN}"
        } else {
            " "
        };
        g.keys(keys);
    }
    assert!(checked >= 5, "{}", g.text());
    // On to the next bets (past a last question or settled screen), then quit.
    for _ in 0..3 {
        let shown = g.text();
        if !line(&shown, msg(&shown)).ends_with(": YOUR BETS") {
            g.keys("S");
        }
    }
    g.keys(QUIT);
    let disk = g.disk();
    let saved = bac_game::save::decode(&disk.read(SAVE).unwrap().data).unwrap();
    assert_eq!(saved.house.map(|h| i64::from(h.in_cents())), Some(bank * 100), "the bank in the save");
    let mut again = boot(disk.as_bytes(), false);
    again.keys("{F1}");
    assert_eq!(bank_of(&again.text()), bank, "the bank after continuing:\n{}", again.text());
}

/// Seed 002 in the real program: a won tie bet pays 8 to 1 and its stake stays under TIE
/// for the next coup; quitting then keeps it on the table in the save.
#[test]
fn a_sahara_tie_stake_stays_on_screen_and_in_the_save_in_the_c128() {
    let mut g = boot(&built().image, false);
    g.fix_seed(built().ticks_routine, 0x0012_3456);
    g.keys("{RETURN}{RIGHT}{RIGHT}{RIGHT}{RIGHT}{RETURN}DEE{RETURN}");
    let mut tied = false;
    for _ in 0..200 {
        let text = g.text();
        if line(&text, msg(&text)).ends_with(": YOUR BETS") && tied {
            assert_eq!(cells(&text, seat0(&text), 33..40), "1", "the tie stake stays:\n{text}");
            break;
        }
        let keys = if line(&text, msg(&text)).ends_with(": YOUR BETS") {
            "1T{RETURN}"
        } else if line(&text, 24) == "RETURN: NEW BETS   L: LAST BETS, DEAL" {
            if line(&text, msg2(&text)).starts_with("TIE") {
                assert_eq!(cells(&text, seat0(&text), 33..40), "+8", "{text}");
                tied = true;
            }
            "{RETURN}"
        } else {
            " "
        };
        g.keys(keys);
    }
    assert!(tied, "no tie in {} coups:\n{}", g.settles.len(), g.text());
    assert_money_kept(&g, "Sahara");
    g.keys(QUIT);
    let saved = bac_game::save::decode(&g.disk().read(SAVE).unwrap().data).unwrap();
    assert_eq!(saved.seats[0].tie_stake.in_cents(), 100, "the stake in the save");
}
