//! The command line as a user meets it: output shapes, and clear failures on bad input.

use std::process::{Command, Output};

fn bac(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_bac")).args(args).output().expect("the bac binary runs")
}

fn json(args: &[&str]) -> serde_json::Value {
    let out = bac(args);
    assert!(out.status.success(), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
    serde_json::from_slice(&out.stdout).expect("one JSON object")
}

#[test]
fn analyze_json_has_the_documented_fields() {
    let v = json(&["analyze", "--rules", "punto-banco", "--decks", "8", "--tie-pays", "9", "--json"]);
    assert_eq!(v["rules"], "punto-banco");
    assert_eq!(v["decks"], 8);
    assert_eq!(v["tie_pays"], 9);
    let (b, p, t) = (v["banker"].as_f64().unwrap(), v["player"].as_f64().unwrap(), v["tie"].as_f64().unwrap());
    assert!((b + p + t - 1.0).abs() < 1e-10);
    assert!((v["edge"]["tie"].as_f64().unwrap() - 0.048_440).abs() < 5e-6, "9:1 tie edge");
    for key in ["4", "5", "6"] {
        assert!(v["cards"][key].as_f64().unwrap() > 0.2);
    }
    assert!(v.get("optimal").is_none(), "Punto Banco has no choices to solve");

    let sahara = json(&["analyze", "--rules", "sahara", "--json"]);
    assert!(sahara["edge"].get("banker").is_none(), "Sahara Sands takes no banker bets");

    let chemin = json(&["analyze", "--rules", "chemin-de-fer", "--decks", "6", "--json"]);
    let p5 = chemin["optimal"]["player_draw_on_5"].as_f64().unwrap();
    assert!(p5 > 0.7 && p5 < 0.9, "{p5}");
    assert!(chemin["optimal"]["value"].as_f64().unwrap() < 0.0);
}

#[test]
fn analyze_side_bets_shoe_and_eor_in_json() {
    let v = json(&["analyze", "--side-bets", "--json"]);
    let side = v["side"].as_object().expect("side");
    assert_eq!(side.len(), 17, "every side bet");
    let d7 = &side["dragon-7"];
    assert_eq!(d7["pays"][0]["pays"], "40:1");
    assert!((d7["edge"].as_f64().unwrap() - 0.0761).abs() < 5e-5);
    assert!(d7["source"].as_str().unwrap().contains("EZ Baccarat"));

    let v = json(&["analyze", "--side-bets=dragon-7,panda-8", "--shoe", "remove 5 5 6 K", "--eor", "--json"]);
    assert_eq!(v["side"].as_object().unwrap().len(), 2);
    assert_eq!(v["shoe"]["cards"], 412);
    // Eights and nines out of the shoe help Dragon 7; fours to sevens hurt it (the signs of
    // every published Dragon 7 count).
    let eor = &v["eor"]["dragon-7"];
    for (card, sign) in [("8", 1.0), ("9", 1.0), ("4", -1.0), ("7", -1.0)] {
        assert!(eor[card].as_f64().unwrap() * sign > 0.0, "{card}: {}", eor[card]);
    }
    assert_eq!(v["eor"]["banker"].as_object().unwrap().len(), 13, "one column per rank");

    let counts = json(&["analyze", "--decks", "1", "--shoe", "4,4,4,4,4,4,4,4,4,16", "--eor", "--json"]);
    let full = json(&["analyze", "--decks", "1", "--json"]);
    assert!((counts["banker"].as_f64().unwrap() - full["banker"].as_f64().unwrap()).abs() < 1e-12);
    assert_eq!(counts["eor"]["tie"].as_object().unwrap().len(), 10, "one column per value");
}

/// The coach's figures for `unseen` (by points, tens first), less `seen`, as the rules
/// crate gives them to the game: the player's option if `bank` is false.
fn coach_values(
    rules: bac_rules::DrawRules,
    decks: u8,
    unseen: [u16; 10],
    seen: &[u8],
    bank: Option<(u8, Option<u8>)>,
) -> bac_rules::coach::Values {
    use bac_rules::coach::{self, Unseen};
    let mut unseen = Unseen::from_points(unseen).unwrap();
    for &points in seen {
        assert!(unseen.see_points(points));
    }
    let play = bac_rules::optimal::solution(rules, decks).unwrap();
    match bank {
        None => coach::player_values(rules, 5, &unseen, play).unwrap(),
        Some((total, third)) => coach::banker_values(rules, total, third, &unseen, play).unwrap(),
    }
}

/// `--json`'s figures for one option equal the coach's exact fraction, and the shown
/// figure is it to four decimals.
fn assert_option(choice: &serde_json::Value, option: &str, ev: bac_rules::coach::Ev) {
    let got = &choice[option];
    assert_eq!(got["numerator"].as_i64(), Some(ev.numerator), "{option}: {choice}");
    assert_eq!(got["denominator"].as_u64(), Some(ev.denominator), "{option}: {choice}");
    let exact = ev.numerator as f64 / ev.denominator as f64;
    assert!((got["ev"].as_f64().unwrap() - exact).abs() < 1e-15, "{option}: {choice}");
    let fixed = ev.to_fixed(4);
    let shown = format!("{}0.{:04}", if fixed < 0 { "-" } else { "+" }, fixed.unsigned_abs());
    assert_eq!(got["shown"], shown.as_str(), "{option}: {choice}");
}

#[test]
fn analyze_choice_gives_the_rules_crates_coach_figures() {
    use bac_rules::DrawRules::{ChemDeFer, Loadstar};
    // The player on 5 from a full eight-deck shoe: 414 cards unseen, the player's own out.
    let v = json(&["analyze", "--rules", "chemin-de-fer", "--decks", "8", "--choice", "player 2 3", "--json"]);
    assert_eq!((&v["rules"], &v["decks"], &v["strategy"]), (&"chemin-de-fer".into(), &8.into(), &"optimal".into()));
    let choice = &v["choice"];
    assert_eq!(choice["chooser"], "player");
    assert_eq!(choice["total"], 5);
    assert_eq!(choice["unseen"], 414);
    let full8 = [128, 32, 32, 32, 32, 32, 32, 32, 32, 32];
    let values = coach_values(ChemDeFer, 8, full8, &[2, 3], None);
    assert_option(choice, "draw", values.draw);
    assert_option(choice, "stand", values.stand);
    let better = match values.better() {
        Some(bac_rules::Decision::Draw) => "draw",
        Some(bac_rules::Decision::Stand) => "stand",
        None => "equal",
    };
    assert_eq!(choice["better"], better);

    // The bank on a shoe given by counts (aces to nines, then tens): the command takes out
    // the bank's two cards and the player's third, and nothing else.
    let v = json(&[
        "analyze",
        "--rules",
        "chemin-de-fer",
        "--decks",
        "1",
        "--shoe",
        "3,4,4,4,2,4,4,4,4,15",
        "--choice",
        "banker K 3 third 9",
        "--json",
    ]);
    assert_eq!(v["choice"]["unseen"], 45);
    assert_eq!(v["choice"]["player_third"], 9);
    let values = coach_values(ChemDeFer, 1, [15, 3, 4, 4, 4, 2, 4, 4, 4, 4], &[0, 3, 9], Some((3, Some(9))));
    assert_option(&v["choice"], "draw", values.draw);
    assert_option(&v["choice"], "stand", values.stand);

    // The Loadstar bank against a third card, from a shoe with cards removed by rank.
    let v = json(&[
        "analyze",
        "--rules",
        "loadstar",
        "--decks",
        "4",
        "--shoe",
        "remove 9 9 8 K Q",
        "--choice",
        "banker A 2 third 9",
        "--json",
    ]);
    let four = [62, 16, 16, 16, 16, 16, 16, 16, 15, 14];
    let values = coach_values(Loadstar, 4, four, &[1, 2, 9], Some((3, Some(9))));
    assert_eq!(v["choice"]["unseen"], 4 * 52 - 5 - 3);
    assert_option(&v["choice"], "draw", values.draw);
    assert_option(&v["choice"], "stand", values.stand);
}

#[test]
fn analyze_choice_prints_both_options_and_the_better() {
    let out = bac(&["analyze", "--rules", "chemin-de-fer", "--choice", "player 2 3"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8_lossy(&out.stdout);
    let v = json(&["analyze", "--rules", "chemin-de-fer", "--choice", "player 2 3", "--json"]);
    for option in ["draw", "stand"] {
        let shown = v["choice"][option]["shown"].as_str().unwrap();
        assert!(text.lines().any(|l| l.trim_start().starts_with(option) && l.contains(shown)), "{option}: {text}");
    }
    let better = v["choice"]["better"].as_str().unwrap();
    assert!(text.contains(&format!("better: {better}")), "{text}");
}

#[test]
fn bad_choices_exit_with_2() {
    let cases: &[(&[&str], &str)] = &[
        (&["analyze", "--rules", "loadstar", "--choice", "dealer 2 3"], "say who chooses"),
        (&["analyze", "--rules", "loadstar", "--choice", "player 2 X"], "`X` is not a card"),
        (&["analyze", "--rules", "loadstar", "--choice", "player 2 11"], "`11` is not a card"),
        (&["analyze", "--rules", "loadstar", "--choice", "player 2"], "the chooser's two cards"),
        (&["analyze", "--rules", "loadstar", "--choice", "player 2 3 stood"], "only the player's two cards"),
        (&["analyze", "--rules", "loadstar", "--choice", "player 2 2"], "the player on 4 draws"),
        (&["analyze", "--rules", "chemin-de-fer", "--choice", "player 3 3"], "the player on 6 stands"),
        (&["analyze", "--rules", "loadstar", "--choice", "banker 3 K third 8"], "stands; there is no choice"),
        (&["analyze", "--rules", "chemin-de-fer", "--choice", "banker 2 3"], "stood or drew"),
        (&["analyze", "--rules", "chemin-de-fer", "--choice", "banker 2 3 third Z"], "`Z` is not a card"),
        (&["analyze", "--rules", "chemin-de-fer", "--choice", "banker 4 4 stood"], "natural 8"),
        (&["analyze", "--choice", "player 2 3"], "punto-banco leaves no choice"),
        (&["analyze", "--rules", "sahara", "--choice", "player 2 3"], "sahara leaves no choice"),
        (
            &[
                "analyze",
                "--rules",
                "chemin-de-fer",
                "--decks",
                "1",
                "--shoe",
                "remove 5 5 5 5",
                "--choice",
                "player 5 K",
            ],
            "the shoe has no `5` left",
        ),
        (
            &["analyze", "--rules", "chemin-de-fer", "--decks", "1", "--choice", "player Ks Ks"],
            "the shoe has no `Ks` left",
        ),
        (
            &[
                "analyze",
                "--rules",
                "chemin-de-fer",
                "--decks",
                "1",
                "--shoe",
                "remove K K K",
                "--choice",
                "player K K 5",
            ],
            "only the player's two cards",
        ),
        (
            &[
                "analyze",
                "--rules",
                "chemin-de-fer",
                "--decks",
                "1",
                "--shoe",
                "remove K K K K",
                "--choice",
                "player K 5",
            ],
            "the shoe has no `K` left",
        ),
        (
            &[
                "analyze",
                "--rules",
                "chemin-de-fer",
                "--decks",
                "1",
                "--shoe",
                "remove 2 2 2 2 2",
                "--choice",
                "player 2 3",
            ],
            "--shoe",
        ),
        (&["analyze", "--rules", "loadstar", "--side-bets", "--choice", "player 2 3"], "cannot be used with"),
    ];
    for (args, mentions) in cases {
        let out = bac(args);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(stderr.contains(mentions), "{args:?}: {stderr}");
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
    }
}

#[test]
fn sim_settles_side_bets_and_plays_a_count() {
    let v = json(&["sim", "--hands", "300000", "--side-bets=dragon-7,big", "--count", "dragon-7", "--json"]);
    assert_eq!(v["side"].as_object().unwrap().len(), 2);
    assert!(v["side"]["big"]["edge_ci95"].as_f64().unwrap() > 0.0);
    let count = &v["count"];
    assert_eq!(count["bet"], "dragon-7");
    let frequency = count["bet_frequency"].as_f64().unwrap();
    assert!(frequency > 0.0 && frequency < 0.5, "{frequency}");
    assert!(count["shoes"].as_u64().unwrap() > 3000);

    let v = json(&["sim", "--hands", "200000", "--decks", "1", "--shoe", "remove 9 9 9 8 8 8", "--json"]);
    assert_eq!(v["shoe"], "remove 9 9 9 8 8 8");
    let exact = json(&["analyze", "--decks", "1", "--shoe", "remove 9 9 9 8 8 8", "--json"]);
    let (sim, exact) = (v["natural"].as_f64().unwrap(), exact["natural"].as_f64().unwrap());
    assert!((sim - exact).abs() < 5.0 * v["natural_ci95"].as_f64().unwrap() / 1.96, "{sim} against {exact}");
}

#[test]
fn bad_shoes_and_bet_names_exit_with_2() {
    let cases: &[(&[&str], &str)] = &[
        (&["analyze", "--decks", "1", "--shoe", "remove K K K K K"], "`K` is taken out more often"),
        (&["analyze", "--shoe", "remove 5 Z"], "`Z` is not a card"),
        (&["analyze", "--shoe", ""], "empty"),
        (&["analyze", "--shoe", "0 0 0 0 0 0 0 0 0 0"], "the shoe is empty"),
        (&["analyze", "--decks", "2", "--shoe", "9 8 8 8 8 8 8 8 8 32"], "value A"),
        (&["analyze", "--side-bets=dragon-9"], "no bet is called `dragon-9`"),
        (&["analyze", "--decks", "9"], "--decks"),
        (&["sim", "--side-bets=dragon-9"], "no bet is called `dragon-9`"),
        (&["sim", "--count", "hi-lo"], "no counting system is called `hi-lo`"),
        (&["sim", "--shoe", "remove 5 5 X"], "`X` is not a card"),
        (&["sim", "--shoe", "remove 5", "--count", "dragon-7"], "give one"),
    ];
    for (args, mentions) in cases {
        let out = bac(args);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(stderr.contains(mentions), "{args:?}: {stderr}");
        assert!(out.stdout.is_empty(), "{args:?}: nothing printed before the error");
    }
}

#[test]
fn sim_json_is_deterministic_for_a_seed() {
    let args = ["sim", "--rules", "loadstar", "--hands", "200000", "--seed", "9", "--threads", "2", "--json"];
    let (a, b) = (json(&args), json(&args));
    for key in ["banker", "player", "tie", "natural", "hands"] {
        assert_eq!(a[key], b[key], "{key}");
    }
    assert_eq!(a["hands"], 200_000);
    assert!(a["hands_per_second"].as_f64().unwrap() > 0.0);
    assert!(a["banker_ci95"].as_f64().unwrap() > 0.0);
}

#[test]
fn bad_arguments_fail_clearly() {
    let cases: &[(&[&str], &str)] = &[
        (&["analyze", "--decks", "0"], "--decks"),
        (&["analyze", "--decks", "9"], "--decks"),
        (&["analyze", "--rules", "blackjack"], "--rules"),
        (&["analyze", "--tie-pays", "7"], "--tie-pays"),
        (&["analyze", "--rules", "loadstar", "--tie-pays", "9"], "tie odds"),
        (&["sim", "--hands", "0"], "--hands"),
        (&["sim", "--hands", "many"], "--hands"),
        (&["sim", "--threads", "0"], "--threads"),
        (&["profile", "--columns", "64"], "--columns"),
        (&["profile", "--top", "many"], "--top"),
        (&["frobnicate"], "frobnicate"),
    ];
    for (args, mentions) in cases {
        let out = bac(args);
        assert!(!out.status.success(), "{args:?} should fail");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(stderr.contains(mentions), "{args:?}: {stderr}");
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
    }
}

#[test]
fn play_runs_the_game_from_a_key_script_and_saves() {
    let dir = std::env::temp_dir().join(format!("bac-cli-game-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    // RETURN: new game; RETURN: the default options (Loadstar); the name; a 100 chip on
    // Player; deal; a key after the coup. The way out (STOP, Y) then quits and saves.
    let out = bac(&[
        "play",
        "--host",
        "--keys",
        "{RETURN}{RETURN}ADA{RETURN}4P{RETURN}S ",
        "--save-dir",
        dir.to_str().unwrap(),
    ]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}\n{}", String::from_utf8_lossy(&out.stderr));
    assert!(stdout.contains("BANKROLLS SAVED"), "{stdout}");
    let save = std::fs::read(dir.join("BAC SAVE")).expect("the save file");
    let saved = bac_game::save::decode(&save).expect("a valid save");
    assert_eq!(saved.seats[0].name.as_bytes(), b"ADA");
    // Played again from the save (F1 on the title screen), the bankroll comes back.
    let out = bac(&["play", "--host", "--keys", "{F1}", "--save-dir", dir.to_str().unwrap()]);
    assert!(out.status.success());
    let again = bac_game::save::decode(&std::fs::read(dir.join("BAC SAVE")).unwrap()).unwrap();
    assert_eq!(again.seats[0], saved.seats[0]);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn play_without_a_terminal_or_with_a_bad_script_says_so() {
    let out = Command::new(env!("CARGO_BIN_EXE_bac"))
        .args(["play", "--host"])
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("needs a terminal"));
    let out = bac(&["play", "--host", "--keys", "{NOPE}"]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("unknown key name {NOPE}"));
    // A script needs --host: the C128 game is played with `bac run target/bac.d81 --keys`.
    let out = bac(&["play", "--keys", "{F1}"]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("--host"), "{}", String::from_utf8_lossy(&out.stderr));
}

/// `10 SYS 7181` at $1C01, then: print "HI" through CHROUT and exit with 7 via $D7FF.
fn hello_prg() -> Vec<u8> {
    let mut prg = vec![0x01, 0x1C, 0x0B, 0x1C, 0x0A, 0x00, 0x9E];
    prg.extend_from_slice(b"7181");
    prg.extend_from_slice(&[0, 0, 0]);
    prg.extend_from_slice(&[
        0xA9, b'H', 0x20, 0xD2, 0xFF, 0xA9, b'I', 0x20, 0xD2, 0xFF, 0xA9, 7, 0x8D, 0xFF, 0xD7, 0x60,
    ]);
    prg
}

#[test]
fn run_prints_the_output_and_returns_the_exit_code() {
    let dir = std::env::temp_dir().join(format!("bac-cli-run-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let prg = dir.join("hi.prg");
    std::fs::write(&prg, hello_prg()).unwrap();
    let png = dir.join("hi.png");
    let out = bac(&["run", prg.to_str().unwrap(), "--screenshot", png.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(7));
    assert_eq!(String::from_utf8_lossy(&out.stdout), "HI");
    let shot = std::fs::read(&png).unwrap();
    assert!(shot.starts_with(b"\x89PNG"), "a PNG was written");

    let truncated = dir.join("short.prg");
    std::fs::write(&truncated, [0x01]).unwrap();
    let broken_disk = dir.join("broken.d81");
    std::fs::write(&broken_disk, vec![0u8; 1000]).unwrap();
    let cases: &[(&[&str], &str)] = &[
        (&["run", truncated.to_str().unwrap()], "too short"),
        (&["run", broken_disk.to_str().unwrap()], "819200"),
        (&["run", prg.to_str().unwrap(), "--keys", "{NOSUCHKEY}"], "NOSUCHKEY"),
        (&["run", "/nonexistent/x.prg"], "/nonexistent/x.prg"),
        (&["run", prg.to_str().unwrap(), "--max-cycles", "ten"], "--max-cycles"),
    ];
    for (args, mentions) in cases {
        let out = bac(args);
        assert_eq!(out.status.code(), Some(if args.contains(&"ten") { 2 } else { 1 }), "{args:?}");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(stderr.contains(mentions), "{args:?}: {stderr}");
    }
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn play_with_a_file_needs_a_terminal_and_a_good_file() {
    let dir = std::env::temp_dir().join(format!("bac-cli-play-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let prg = dir.join("hi.prg");
    std::fs::write(&prg, hello_prg()).unwrap();
    let out = bac(&["play", prg.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("needs a terminal"));
    let short = dir.join("short.prg");
    std::fs::write(&short, [1]).unwrap();
    let out = bac(&["play", short.to_str().unwrap()]);
    assert!(String::from_utf8_lossy(&out.stderr).contains("too short"), "{}", String::from_utf8_lossy(&out.stderr));
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn run_with_keys_stops_an_endless_program_and_screenshots_it() {
    // Echoes every key through CHROUT until Q, which exits with 3.
    let mut prg = vec![0x01, 0x1C, 0x0B, 0x1C, 0x0A, 0x00, 0x9E];
    prg.extend_from_slice(b"7181");
    prg.extend_from_slice(&[0, 0, 0]);
    prg.extend_from_slice(&[
        0x20, 0xE4, 0xFF, 0xF0, 0xFB, 0xC9, 0x51, 0xF0, 0x06, 0x20, 0xD2, 0xFF, 0x4C, 0x0D, 0x1C, 0xA9, 3, 0x8D, 0xFF,
        0xD7, 0x60,
    ]);
    let dir = std::env::temp_dir().join(format!("bac-cli-keys-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("echo.prg");
    std::fs::write(&path, &prg).unwrap();
    let png = dir.join("echo.png");
    let out = bac(&["run", path.to_str().unwrap(), "--keys", "ABC{RETURN}DE", "--screenshot", png.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(String::from_utf8_lossy(&out.stdout), "ABC\nDE");
    assert!(std::fs::read(&png).unwrap().starts_with(b"\x89PNG"));
    let out = bac(&["run", path.to_str().unwrap(), "--keys", "XYQ"]);
    assert_eq!(out.status.code(), Some(3), "Q ends it with its own exit code");
    assert_eq!(String::from_utf8_lossy(&out.stdout), "XY");
    std::fs::remove_dir_all(&dir).ok();
}
