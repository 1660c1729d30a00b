//! What one benchmark run played, in the same form from both sides of the cc65 differential
//! test: read from the C program's mailbox (`harness.rs`) or computed by the Rust rules
//! crate (`reference/`), and compared record by record.
//!
//! Shared by file (`#[path]`) between the test and the reference crate, which cannot depend
//! on each other. The layout is `bench.c`'s: see the comment at its top.

use std::fmt;

/// The trace records at most this many coups (`TRACE_MAX` in `bench.c`).
pub const TRACE_MAX: usize = 1000;
/// Cards recorded after the first shuffle (`FIRST_CARDS` in `bench.c`).
pub const FIRST_CARDS: usize = 32;
/// What a seat starts with, in cents (`START_BANKROLL` in `bench.c`): 100,000 units.
pub const START_BANKROLL: u32 = 10_000_000;
/// A card slot the coup did not use.
pub const NO_CARD: u8 = 255;

/// `ShoeNews` as the bits `bench.c` records (`NEWS_` in `rules.h`).
pub mod news {
    /// `ShoeNews::Shuffled`.
    pub const SHUFFLED: u8 = 1;
    /// `ShoeNews::Burned`.
    pub const BURNED: u8 = 2;
    /// `ShoeNews::CutCardOut`.
    pub const CUT_CARD_OUT: u8 = 4;
    /// `ShoeNews::Replenished`.
    pub const REPLENISHED: u8 = 8;
}

/// `BetResult` as `bench.c` records it, plus "no bet".
pub mod bet {
    /// `BetResult::Lost`.
    pub const LOST: u8 = 0;
    /// `BetResult::Won`.
    pub const WON: u8 = 1;
    /// `BetResult::Push`.
    pub const PUSH: u8 = 2;
    /// The stake was more than the bankroll.
    pub const NONE: u8 = 3;
}

/// The end-of-shoe policy (`EndOfShoe`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Policy {
    /// `EndOfShoe::ReshuffleAt { remaining }`.
    ReshuffleAt(u16),
    /// `EndOfShoe::CutCard { from_end }`.
    CutCard(u16),
}

/// One run's parameters.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Params {
    /// The generator's seed.
    pub seed: u32,
    /// Coups to play.
    pub coups: u16,
    /// Decks in the shoe (the shoe refuses anything outside 1-8).
    pub decks: u8,
    /// When the shoe is shuffled again.
    pub policy: Policy,
    /// `Burn::ByFirstCard` when true, `Burn::None` when false.
    pub burn: bool,
}

impl Params {
    /// The Punto Banco preset's shoe (`RuleSet::preset(Preset::PuntoBanco)`): eight decks,
    /// the cut card 14 from the end, no burn.
    pub const fn punto_banco(seed: u32, coups: u16) -> Params {
        Params { seed, coups, decks: 8, policy: Policy::CutCard(14), burn: false }
    }

    /// The parameters as command-line words, for the reference program.
    pub fn to_args(self) -> Vec<String> {
        let (policy, threshold) = match self.policy {
            Policy::ReshuffleAt(k) => ("reshuffle-at", k),
            Policy::CutCard(k) => ("cut-card", k),
        };
        [
            self.seed.to_string(),
            self.coups.to_string(),
            self.decks.to_string(),
            policy.to_string(),
            threshold.to_string(),
            u8::from(self.burn).to_string(),
        ]
        .into()
    }

    /// Reads what [`Params::to_args`] wrote.
    pub fn from_args(args: &[String]) -> Result<Params, String> {
        let [seed, coups, decks, policy, threshold, burn] = args else {
            return Err(format!("expected 6 arguments (seed coups decks policy threshold burn), got {}", args.len()));
        };
        let number = |what: &str, text: &str| text.parse::<u32>().map_err(|e| format!("{what} {text:?}: {e}"));
        let threshold = u16::try_from(number("threshold", threshold)?).map_err(|e| format!("threshold: {e}"))?;
        let policy = match policy.as_str() {
            "reshuffle-at" => Policy::ReshuffleAt(threshold),
            "cut-card" => Policy::CutCard(threshold),
            other => return Err(format!("policy {other:?}: expected reshuffle-at or cut-card")),
        };
        Ok(Params {
            seed: number("seed", seed)?,
            coups: u16::try_from(number("coups", coups)?).map_err(|e| format!("coups: {e}"))?,
            decks: u8::try_from(number("decks", decks)?).map_err(|e| format!("decks: {e}"))?,
            policy,
            burn: match burn.as_str() {
                "0" => false,
                "1" => true,
                other => return Err(format!("burn {other:?}: expected 0 or 1")),
            },
        })
    }
}

/// One coup as `bench.c` records it: eight bytes.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct CoupRecord(pub [u8; 8]);

impl CoupRecord {
    /// Builds a record from its parts (the reference's side).
    pub fn new(player: &[u8], banker: &[u8], totals: (u8, u8), winner: u8, bet: u8, news: u8) -> CoupRecord {
        let mut bytes = [NO_CARD; 8];
        for (slot, &card) in bytes[..3].iter_mut().zip(player) {
            *slot = card;
        }
        for (slot, &card) in bytes[3..6].iter_mut().zip(banker) {
            *slot = card;
        }
        bytes[6] = (totals.0 << 4) | totals.1;
        bytes[7] = winner | (bet << 2) | (news << 4);
        CoupRecord(bytes)
    }

    /// The Player hand's cards in the order dealt.
    pub fn player(&self) -> impl Iterator<Item = u8> + '_ {
        self.0[..3].iter().copied().filter(|&c| c != NO_CARD)
    }

    /// The Banker hand's cards in the order dealt.
    pub fn banker(&self) -> impl Iterator<Item = u8> + '_ {
        self.0[3..6].iter().copied().filter(|&c| c != NO_CARD)
    }

    /// The Player total.
    pub fn player_total(&self) -> u8 {
        self.0[6] >> 4
    }

    /// The Banker total.
    pub fn banker_total(&self) -> u8 {
        self.0[6] & 15
    }

    /// Cards dealt in the coup.
    pub fn cards(&self) -> usize {
        self.player().count() + self.banker().count()
    }

    /// 0 Player, 1 Banker, 2 Tie.
    pub fn winner(&self) -> u8 {
        self.0[7] & 3
    }

    /// One of [`bet`].
    pub fn bet(&self) -> u8 {
        (self.0[7] >> 2) & 3
    }

    /// The [`news`] bits of the coup (from `begin_coup` and every `deal`).
    pub fn news(&self) -> u8 {
        self.0[7] >> 4
    }
}

/// A card as `AC`, `TD`, `KS`: rank then suit (clubs, diamonds, hearts, spades).
fn card_name(card: u8) -> String {
    let rank = b"A23456789TJQK".get(usize::from(card % 13)).copied().unwrap_or(b'?');
    let suit = b"CDHS".get(usize::from(card / 13)).copied().unwrap_or(b'?');
    format!("{}{}", rank as char, suit as char)
}

impl fmt::Debug for CoupRecord {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let hand = |cards: &mut dyn Iterator<Item = u8>| cards.map(card_name).collect::<Vec<_>>().join(" ");
        let winner = ["player", "banker", "tie", "?"][usize::from(self.winner())];
        let bet = ["lost", "won", "push", "no bet"][usize::from(self.bet())];
        write!(
            f,
            "player {} ({}), banker {} ({}), {winner} wins, bet {bet}, news {:#06b}",
            hand(&mut self.player()),
            self.player_total(),
            hand(&mut self.banker()),
            self.banker_total(),
            self.news()
        )
    }
}

/// A whole run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Trace {
    /// The first [`FIRST_CARDS`] cards after the first shuffle.
    pub first_cards: Vec<u8>,
    /// The first [`TRACE_MAX`] coups.
    pub coups: Vec<CoupRecord>,
    /// The bankroll after the last coup, in cents.
    pub bankroll: u32,
    /// The generator's next word after the last coup.
    pub next_word: u32,
    /// Cards left in the shoe after the last coup.
    pub remaining: u16,
}

impl Trace {
    /// The trace as text: one line per item, numbers in decimal.
    pub fn to_text(&self) -> String {
        let words = |bytes: &[u8]| bytes.iter().map(u8::to_string).collect::<Vec<_>>().join(" ");
        let mut text = format!("first {}\n", words(&self.first_cards));
        for coup in &self.coups {
            text += &format!("coup {}\n", words(&coup.0));
        }
        text += &format!("bankroll {}\nnext {}\nremaining {}\n", self.bankroll, self.next_word, self.remaining);
        text
    }

    /// Reads what [`Trace::to_text`] wrote.
    pub fn from_text(text: &str) -> Result<Trace, String> {
        let mut trace = Trace { first_cards: Vec::new(), coups: Vec::new(), bankroll: 0, next_word: 0, remaining: 0 };
        for (n, line) in text.lines().enumerate() {
            let bad = |why: String| format!("line {}: {why}: {line:?}", n + 1);
            let (key, rest) = line.split_once(' ').ok_or_else(|| bad("no value".into()))?;
            let bytes = || -> Result<Vec<u8>, String> {
                rest.split(' ').map(|w| w.parse::<u8>().map_err(|e| bad(e.to_string()))).collect()
            };
            let number = || rest.parse::<u32>().map_err(|e| bad(e.to_string()));
            match key {
                "first" => trace.first_cards = bytes()?,
                "coup" => {
                    let record = <[u8; 8]>::try_from(bytes()?).map_err(|_| bad("not 8 bytes".into()))?;
                    trace.coups.push(CoupRecord(record));
                }
                "bankroll" => trace.bankroll = number()?,
                "next" => trace.next_word = number()?,
                "remaining" => trace.remaining = u16::try_from(number()?).map_err(|e| bad(e.to_string()))?,
                other => return Err(bad(format!("unknown key {other:?}"))),
            }
        }
        Ok(trace)
    }

    /// The first place where `self` (cc65) and `rust` disagree, described for a failure
    /// message; `None` when they agree everywhere.
    pub fn first_difference(&self, rust: &Trace) -> Option<String> {
        if self.first_cards != rust.first_cards {
            let names = |cards: &[u8]| cards.iter().map(|&c| card_name(c)).collect::<Vec<_>>().join(" ");
            return Some(format!(
                "first cards after the shuffle differ:\n  cc65: {}\n  rust: {}",
                names(&self.first_cards),
                names(&rust.first_cards)
            ));
        }
        if let Some(i) = (0..self.coups.len().min(rust.coups.len())).find(|&i| self.coups[i] != rust.coups[i]) {
            return Some(format!("coup {i} differs:\n  cc65: {:?}\n  rust: {:?}", self.coups[i], rust.coups[i]));
        }
        if self.coups.len() != rust.coups.len() {
            return Some(format!("cc65 recorded {} coups, rust {}", self.coups.len(), rust.coups.len()));
        }
        if (self.bankroll, self.next_word, self.remaining) != (rust.bankroll, rust.next_word, rust.remaining) {
            return Some(format!(
                "the ends differ: cc65 bankroll {} cents, next word {:#010x}, {} cards left; \
                 rust {} cents, {:#010x}, {} left",
                self.bankroll, self.next_word, self.remaining, rust.bankroll, rust.next_word, rust.remaining
            ));
        }
        None
    }
}
