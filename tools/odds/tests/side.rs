//! The side bets against a second, independent computation (a brute-force enumeration in
//! exact integers, card by card, by rank and suit) and against the published figures.

use bac_odds::analysis::analyze_shoe;
use bac_odds::composition::{Composition, ShoeError};
use bac_odds::outcomes::Outcomes;
use bac_odds::play::Play;
use bac_odds::side::SideBet;
use bac_rules::{Builtin, DrawRules, Rule};
use std::collections::HashMap;

fn casino() -> Play {
    Play::of(Builtin::Casino)
}

fn edge(bets: &[SideBet], key: &str) -> f64 {
    bets.iter().find(|b| b.key == key).unwrap_or_else(|| panic!("no bet {key}")).house_edge()
}

fn line(bets: &[SideBet], key: &str, index: usize) -> f64 {
    bets.iter().find(|b| b.key == key).unwrap().lines[index].probability
}

/// The eight-deck house edges the references publish, to their printed digits:
/// Player/Banker Pair 11:1 10.36% (Wizard of Odds; also Eliot Jacobson, 888casino's "Pairs
/// bet", 10.361%); Either Pair 5:1 13.71%; Perfect Pairs version 1 25:1 13.03% (Wizard of
/// Odds, "Perfect Pairs (Version 1)"); Dragon 7 7.61%, Panda 8 10.19%, EZ banker 1.02%
/// (Wizard of Odds, EZ Baccarat); Dragon Bonus player 2.65%, banker 9.37% (Wizard of Odds,
/// Baccarat appendix 5); Small Tiger 22:1 14.33%, Big Tiger 50:1 15.2533% (Eliot Jacobson,
/// "Card Counting the Big Tiger Baccarat Side Bet", advancedadvantageplay.com, 2024).
#[test]
fn eight_decks_match_the_published_edges() {
    let a = analyze_shoe(DrawRules::PuntoBanco, &Composition::full(8), &casino());
    let published = [
        ("player-pair", 0.1036),
        ("banker-pair", 0.1036),
        ("either-pair", 0.1371),
        ("perfect-pair", 0.1303),
        ("dragon-7", 0.0761),
        ("panda-8", 0.1019),
        ("ez-banker", 0.0102),
        ("ez-player", 0.0124),
        ("dragon-bonus-player", 0.0265),
        ("dragon-bonus-banker", 0.0937),
        ("small-tiger", 0.1433),
        ("big-tiger", 0.152533),
    ];
    for (key, figure) in published {
        let e = edge(&a.side, key);
        assert!((e - figure).abs() < 5e-5, "{key}: {e} against the published {figure}");
    }
    // Dragon Bonus, player side, line by line (Wizard of Odds' table, six places).
    let lines = [0.162589, 0.017871, 0.003683, 0.006822, 0.017924, 0.028257, 0.033244, 0.037368];
    for (i, figure) in lines.into_iter().enumerate() {
        let p = line(&a.side, "dragon-bonus-player", i);
        assert!((p - figure).abs() < 5e-7, "dragon bonus line {i}: {p} against {figure}");
    }
    // Standard deviations per unit: Dragon 7 6.0849 (Jacobson, "Card Counting the
    // Dragon/Fortune 7 Baccarat Side Bet"), Big Tiger 6.519 (Jacobson, 2024).
    let sd = |key: &str| a.side.iter().find(|b| b.key == key).unwrap().standard_deviation();
    for (key, figure, places) in [("dragon-7", 6.0849, 5e-5), ("big-tiger", 6.519, 5e-4)] {
        assert!((sd(key) - figure).abs() < places, "{key}: sd {} against {figure}", sd(key));
    }
    // Big 4.35% and Small 5.27% are six-deck figures (Wizard of Odds' 4-5-6 table: four
    // cards 0.378925 with six decks, 0.378868 with eight).
    let six = analyze_shoe(DrawRules::PuntoBanco, &Composition::full(6), &casino());
    assert!((edge(&six.side, "big") - 0.0435).abs() < 5e-5);
    assert!((edge(&six.side, "small") - 0.0527).abs() < 5e-5);
    assert!((line(&six.side, "small", 0) - 0.378925).abs() < 5e-7);
    assert!((line(&a.side, "small", 0) - 0.378868).abs() < 5e-7);
}

/// Every bet's lines are probabilities, and no bet pays more than it takes in. (One deck
/// holds no two cards of the same rank and suit: Perfect Pairs then always loses.)
#[test]
fn every_bet_at_every_deck_count_is_a_house_bet() {
    for decks in 1..=8 {
        let a = analyze_shoe(DrawRules::PuntoBanco, &Composition::full(decks), &casino());
        assert_eq!(a.side.len(), bac_odds::side::NAMES.len());
        for bet in &a.side {
            assert!(bet.lines.iter().all(|l| (0.0..=1.0).contains(&l.probability)), "{}", bet.key);
            assert!(bet.loses() > 0.0, "{}", bet.key);
            assert!(
                bet.house_edge() > 0.0 && bet.house_edge() <= 1.0,
                "{decks} decks {}: {}",
                bet.key,
                bet.house_edge()
            );
        }
    }
}

/// A shoe by (rank 1-13, suit 0-3): how many of each card it holds.
type Cards = [[u64; 4]; 13];

fn full(decks: u64) -> Cards {
    [[decks; 4]; 13]
}

fn falling(n: u64, k: u64) -> u128 {
    (0..k).map(|i| u128::from(n.saturating_sub(i))).product()
}

/// The pair figures by brute force: every ordered choice of the first four cards (player,
/// bank, player, bank), weighed by how many ways the shoe deals it. Numerators over n^(4).
struct PairCounts {
    player: u128,
    both: u128,
    twin: u128,
    perfect_player: u128,
    perfect_both: u128,
    ways: u128,
}

fn brute_pairs(shoe: &Cards) -> PairCounts {
    let mut c = PairCounts { player: 0, both: 0, twin: 0, perfect_player: 0, perfect_both: 0, ways: 0 };
    let mut left = *shoe;
    deal_four(&mut left, &mut Vec::new(), 1, &mut |dealt, w| {
        let (p1, b1, p2, b2) = (dealt[0], dealt[1], dealt[2], dealt[3]);
        let (pp, bp) = (p1.0 == p2.0, b1.0 == b2.0);
        let (ps, bs) = (p1 == p2, b1 == b2);
        c.ways += w;
        c.player += if pp { w } else { 0 };
        c.both += if pp && bp { w } else { 0 };
        c.twin += if pp && bp && p1.0 == b1.0 { w } else { 0 };
        c.perfect_player += if ps { w } else { 0 };
        c.perfect_both += if ps && bs { w } else { 0 };
    });
    c
}

/// Every ordered deal of four cards, each with the number of ways the shoe deals it.
fn deal_four(
    left: &mut Cards,
    dealt: &mut Vec<(usize, usize)>,
    ways: u128,
    visit: &mut impl FnMut(&[(usize, usize)], u128),
) {
    if dealt.len() == 4 {
        visit(dealt, ways);
        return;
    }
    for r in 0..13 {
        for s in 0..4 {
            let n = left[r][s];
            if n == 0 {
                continue;
            }
            left[r][s] -= 1;
            dealt.push((r, s));
            deal_four(left, dealt, ways * u128::from(n), visit);
            dealt.pop();
            left[r][s] += 1;
        }
    }
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-13 * b.abs().max(1e-3)
}

fn ratio(n: u128, d: u128) -> f64 {
    n as f64 / d as f64
}

/// The closed forms against the brute force, for full shoes of one and two decks and for
/// shoes with cards of known suit taken out.
#[test]
fn pair_figures_match_a_brute_force_enumeration() {
    let mut cases: Vec<(Cards, Composition)> = Vec::new();
    for decks in [1u8, 2] {
        cases.push((full(u64::from(decks)), Composition::full(decks)));
    }
    let mut one = full(1);
    one[12][0] -= 1; // Ks
    one[4][1] -= 1; // 5h
    one[4][2] -= 1; // 5d
    cases.push((one, Composition::parse(1, "remove Ks 5h 5d").unwrap()));
    for (cards, shoe) in cases {
        let brute = brute_pairs(&cards);
        let (rank, suit) = (shoe.pair_moments(false), shoe.pair_moments(true));
        let ways = brute.ways;
        assert!(close(rank.one, ratio(brute.player, ways)), "{} {}", rank.one, ratio(brute.player, ways));
        assert!(close(rank.both, ratio(brute.both, ways)));
        assert!(close(rank.twin, ratio(brute.twin, ways)));
        assert!(close(suit.one, ratio(brute.perfect_player, ways)));
        assert!(close(suit.both, ratio(brute.perfect_both, ways)));
    }
}

/// A card taken out unseen is any of the cards it could be, equally likely: "remove K" is
/// the mean of "remove Ks", "remove Kh", "remove Kd" and "remove Kc", each by brute force;
/// and a count vector with one ten fewer is the mean over the sixteen tens of one deck.
#[test]
fn cards_of_unknown_suit_or_rank_average_over_what_they_could_be() {
    let mean = |shoes: &[Cards]| {
        let mut sum = [0.0; 5];
        for cards in shoes {
            let b = brute_pairs(cards);
            let fields = [b.player, b.both, b.twin, b.perfect_player, b.perfect_both];
            for (s, f) in sum.iter_mut().zip(fields) {
                *s += ratio(f, b.ways) / shoes.len() as f64;
            }
        }
        sum
    };
    let figures = |shoe: &Composition| {
        let (r, s) = (shoe.pair_moments(false), shoe.pair_moments(true));
        [r.one, r.both, r.twin, s.one, s.both]
    };
    let kings: Vec<Cards> = (0..4)
        .map(|suit| {
            let mut c = full(1);
            c[12][suit] -= 1;
            c
        })
        .collect();
    let shoe = Composition::parse(1, "remove K").unwrap();
    for (a, b) in figures(&shoe).into_iter().zip(mean(&kings)) {
        assert!(close(a, b), "remove K: {a} against {b}");
    }
    let tens: Vec<Cards> = (9..13)
        .flat_map(|rank| (0..4).map(move |suit| (rank, suit)))
        .map(|(rank, suit)| {
            let mut c = full(1);
            c[rank][suit] -= 1;
            c
        })
        .collect();
    let shoe = Composition::parse(1, "4 4 4 4 4 4 4 4 4 15").unwrap();
    for (a, b) in figures(&shoe).into_iter().zip(mean(&tens)) {
        assert!(close(a, b), "one ten fewer: {a} against {b}");
    }
}

/// An ending as the brute force keys it: player total, bank total, player cards, bank
/// cards, natural.
type EndingKey = (u8, u8, u8, u8, bool);

/// Deals each rank left in turn, calling `f` with the shoe without it, its point value and
/// how many of it there were.
fn deal(left: &mut [u64; 13], f: &mut dyn FnMut(&mut [u64; 13], u8, u128)) {
    for r in 0..13 {
        let n = left[r];
        if n > 0 {
            left[r] -= 1;
            f(left, if r >= 9 { 0 } else { r as u8 + 1 }, u128::from(n));
            left[r] += 1;
        }
    }
}

/// Every ending of a coup by brute force: cards by rank, dealt in the order of the table
/// (player, bank, player, bank, then the thirds by the rules crate's tableau), counted in
/// integers over n^(6).
fn brute_endings(rules: DrawRules, by_rank: [u64; 13]) -> (HashMap<EndingKey, u128>, u128) {
    let total: u64 = by_rank.iter().sum();
    let mut endings = HashMap::new();
    let mut left = by_rank;
    let mut record = |key, ways: u128, dealt: u64| {
        *endings.entry(key).or_insert(0) += ways * falling(total - dealt, 6 - dealt);
    };
    deal(&mut left, &mut |left, p1, w1| {
        deal(left, &mut |left, b1, w2| {
            deal(left, &mut |left, p2, w3| {
                deal(left, &mut |left, b2, w4| {
                    let w = w1 * w2 * w3 * w4;
                    let (p, b) = ((p1 + p2) % 10, (b1 + b2) % 10);
                    if p >= 8 || b >= 8 {
                        record((p, b, 2, 2, true), w, 4);
                        return;
                    }
                    let banker = |left: &mut [u64; 13],
                                  p: u8,
                                  pc: u8,
                                  third: Option<u8>,
                                  w: u128,
                                  record: &mut dyn FnMut(EndingKey, u128, u64)| {
                        let dealt = 2 + u64::from(pc);
                        if rules.banker(b, third) == Rule::Draw {
                            deal(left, &mut |_, b3, w5| record((p, (b + b3) % 10, pc, 3, false), w * w5, dealt + 1));
                        } else {
                            record((p, b, pc, 2, false), w, dealt);
                        }
                    };
                    if rules.player(p) == Rule::Draw {
                        deal(left, &mut |left, p3, w5| banker(left, (p + p3) % 10, 3, Some(p3), w * w5, &mut record));
                    } else {
                        banker(left, p, 2, None, w, &mut record);
                    }
                })
            })
        })
    });
    (endings, falling(total, 6))
}

/// The endings from the one-walk enumeration against the brute force, bin by bin, for one
/// deck full and one deck less 5 5 6 K; then the bets read off them.
#[test]
fn endings_match_a_brute_force_enumeration() {
    let shoes = [
        ("full", [4u64; 13]),
        ("less 5 5 6 K", {
            let mut r = [4u64; 13];
            r[4] -= 2;
            r[5] -= 1;
            r[12] -= 1;
            r
        }),
    ];
    for (name, by_rank) in shoes {
        let (brute, ways) = brute_endings(DrawRules::PuntoBanco, by_rank);
        let mut by_points = [0u32; 10];
        for (r, n) in by_rank.iter().enumerate() {
            by_points[if r >= 9 { 0 } else { r + 1 }] += *n as u32;
        }
        let outcomes = Outcomes::of_shoe(DrawRules::PuntoBanco, by_points, &casino());
        let mut seen = 0;
        for (e, p) in outcomes.each() {
            let key = (e.player, e.banker, e.player_cards, e.banker_cards, e.natural);
            let exact = brute.get(&key).map_or(0.0, |&n| ratio(n, ways));
            assert!((p - exact).abs() < 1e-15, "{name} {key:?}: {p} against {exact}");
            seen += usize::from(exact > 0.0);
        }
        assert_eq!(seen, brute.len(), "{name}: every brute-force ending is a bin");
        // Dragon 7, Panda 8 and the Tiger's three-card line straight from the brute force.
        let sum =
            |f: &dyn Fn(&EndingKey) -> bool| ratio(brute.iter().filter(|(k, _)| f(k)).map(|(_, n)| n).sum(), ways);
        let shoe = if name == "full" { Composition::full(1) } else { Composition::parse(1, "remove 5 5 6 K").unwrap() };
        let a = analyze_shoe(DrawRules::PuntoBanco, &shoe, &casino());
        assert!(close(line(&a.side, "dragon-7", 0), sum(&|k| k.1 == 7 && k.1 > k.0 && k.3 == 3)));
        assert!(close(line(&a.side, "panda-8", 0), sum(&|k| k.0 == 8 && k.0 > k.1 && k.2 == 3)));
        assert!(close(line(&a.side, "big-tiger", 0), sum(&|k| k.1 == 6 && k.1 > k.0 && k.3 == 3)));
        assert!(close(line(&a.side, "big", 0), sum(&|k| k.2 + k.3 > 4)));
    }
}

/// The main bets read off the endings are the main enumeration's own figures.
#[test]
fn the_endings_give_the_main_odds() {
    for decks in [1, 6, 8] {
        let from_endings =
            Outcomes::of_shoe(DrawRules::PuntoBanco, bac_odds::exact::full_shoe(decks), &casino()).odds();
        let direct = bac_odds::exact::odds(DrawRules::PuntoBanco, decks, &casino());
        for (a, b) in [
            (from_endings.banker, direct.banker),
            (from_endings.tie, direct.tie),
            (from_endings.banker_six, direct.banker_six),
            (from_endings.natural, direct.natural),
        ] {
            // The same leaves summed in another order: rounding of about 1e-13.
            assert!((a - b).abs() < 1e-11, "{decks} decks: {a} against {b}");
        }
    }
}

/// Bad shoes are refused with what is wrong in them.
#[test]
fn bad_shoes_are_refused_by_name() {
    let refuse = |text: &str| Composition::parse(1, text).unwrap_err();
    assert_eq!(refuse("remove K K K K K"), ShoeError::TooMany { card: "K".into(), held: 0 });
    assert_eq!(refuse("remove Ks Ks"), ShoeError::TooMany { card: "Ks".into(), held: 3 });
    assert_eq!(refuse("remove 11"), ShoeError::NotACard("11".into()));
    assert_eq!(refuse("remove Kx"), ShoeError::NotACard("Kx".into()));
    assert_eq!(refuse(""), ShoeError::Empty);
    assert_eq!(refuse("1 2 3"), ShoeError::Length(3));
    assert_eq!(refuse("5 4 4 4 4 4 4 4 4 16"), ShoeError::CountTooLarge { value: "A", count: 5, held: 4 });
    assert_eq!(refuse("0 0 0 0 0 0 0 0 0 0"), ShoeError::TooFew(0));
    assert_eq!(refuse("1 1 1 0 0 0 0 0 0 0"), ShoeError::TooFew(3));
    assert_eq!(refuse("four 4 4 4 4 4 4 4 4 16"), ShoeError::NotACount("four".into()));
    assert!(refuse("4 4 4 4 4 4 4 4 4 -1").to_string().contains("`-1` is not a count"));
    assert!(Composition::parse(8, "remove k 10H t q").is_ok());
}
