//! `bac analyze --choice`: the coach's question on the host. What drawing and standing are
//! worth at a free choice, from the cards the chooser has not seen, by the rules crate's
//! own coach (`bac_rules::coach`), so a player can check what the game shows.

use crate::bad_input::bad_input;
use crate::rules_args::{RulesArgs, strategy_label};
use anyhow::Result;
use bac_odds::composition::{Composition, parse_card, points};
use bac_odds::play::Play;
use bac_rules::coach::{self, CoachError, Ev, Unseen, Values};
use bac_rules::{Builtin, Decision, DrawRules, Rule, RuleSet};
use serde_json::{Value, json};

/// Who chooses, as `--choice` describes it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Chooser {
    /// True for the bank, false for the player.
    pub bank: bool,
    /// The chooser's two cards, as written.
    pub hand: [String; 2],
    /// For the bank: the player's third card as written, `None` if the player stood.
    pub third: Option<String>,
}

/// The grammar, for the error messages.
const GRAMMAR: &str = "`player C C`, `banker C C stood` or `banker C C third C` (C a card: A, 2-9, 10 or T, J, Q, K)";

fn card_points(word: &str, text: &str) -> Result<u8> {
    match parse_card(word) {
        Some((rank, _)) => Ok(points(rank)),
        None => bad_input(format!("--choice \"{text}\": `{word}` is not a card; write {GRAMMAR}")),
    }
}

/// Reads `--choice`.
pub fn parse(text: &str) -> Result<Chooser> {
    let words: Vec<&str> = text.split(|c: char| c.is_whitespace() || c == ',').filter(|w| !w.is_empty()).collect();
    let bad = |why: &str| bad_input(format!("--choice \"{text}\": {why}; write {GRAMMAR}"));
    let bank = match words.first().map(|w| w.to_ascii_lowercase()) {
        Some(w) if w == "player" => false,
        Some(w) if w == "banker" || w == "bank" => true,
        _ => return bad("say who chooses first"),
    };
    let (hand, rest) = match &words[1..] {
        [a, b, rest @ ..] => ([a.to_string(), b.to_string()], rest),
        _ => return bad("give the chooser's two cards"),
    };
    for word in &hand {
        card_points(word, text)?;
    }
    let third = match (bank, rest) {
        (false, []) => None,
        (true, [stood]) if stood.eq_ignore_ascii_case("stood") => None,
        (true, [third, card]) if third.eq_ignore_ascii_case("third") => {
            card_points(card, text)?;
            Some(card.to_string())
        }
        (false, _) => return bad("the player's choice needs only the player's two cards"),
        (true, _) => return bad("say whether the player stood or drew (`stood`, or `third` and the card)"),
    };
    Ok(Chooser { bank, hand, third })
}

/// The coach's answer, with what it was asked.
pub struct Answer {
    rules: RuleSet,
    strategy: &'static str,
    chooser: Chooser,
    total: u8,
    third: Option<u8>,
    unseen: u16,
    values: Values,
}

/// Answers `chooser` at `rules` from `shoe` (the cards not seen before the coup), the other
/// side playing `args`'s strategy.
pub fn answer(args: &RulesArgs, rules: RuleSet, shoe: &Composition, chooser: Chooser, text: &str) -> Result<Answer> {
    if rules.draw == DrawRules::PuntoBanco {
        return bad_input(format!("--choice: {} leaves no choice to anyone", rules.preset.name()));
    }
    // The chooser's cards come out of the shoe by rank and suit where the shoe knows them
    // (a `remove` list), by value where it knows only counts.
    let mut left = shoe.clone();
    let mut take = |word: &str| -> Result<u8> {
        let v = card_points(word, text)?;
        let taken = if left.knows_ranks() {
            left.remove(word).is_ok()
        } else {
            match left.without_points(v) {
                Some(rest) => {
                    left = rest;
                    true
                }
                None => false,
            }
        };
        if !taken {
            return bad_input(format!(
                "--choice \"{text}\": the shoe has no `{word}` left for it (--shoe less the cards before it)"
            ));
        }
        Ok(v)
    };
    let (a, b) = (take(&chooser.hand[0])?, take(&chooser.hand[1])?);
    let third = chooser.third.as_deref().map(&mut take).transpose()?;
    let total = (a + b) % 10;
    let Some(unseen) = Unseen::from_points(left.by_points().map(|n| n as u16)) else {
        return bad_input("--choice: the shoe holds more cards than eight decks");
    };
    let who = if chooser.bank { "bank" } else { "player" };
    if total >= 8 {
        return bad_input(format!("--choice \"{text}\": the {who} holds a natural {total}; the coup is over"));
    }
    let free = if chooser.bank { rules.draw.banker(total, third) } else { rules.draw.player(total) };
    if free != Rule::Choose {
        let against = match (chooser.bank, third) {
            (false, _) => String::new(),
            (true, None) => " against a player who stood".into(),
            (true, Some(c)) => format!(" against a third card {c}"),
        };
        let rule = if free == Rule::Draw { "draws" } else { "stands" };
        return bad_input(format!(
            "--choice \"{text}\": under {} the {who} on {total}{against} {rule}; there is no choice",
            rules.preset.name()
        ));
    }
    let (name, builtin) = args.strategy(&rules);
    // The optimal play as the firmware holds it, not read back through probabilities.
    let play = match builtin {
        Builtin::Optimal(solution) => *solution,
        other => Play::of(other).to_solution(),
    };
    let values = if chooser.bank {
        coach::banker_values(rules.draw, total, third, &unseen, &play)
    } else {
        coach::player_values(rules.draw, total, &unseen, &play)
    };
    let values = match values {
        Ok(values) => values,
        Err(CoachError::TooFewCards(n)) => {
            return bad_input(format!("--choice: {n} cards unseen, too few for the hidden hand and the third cards"));
        }
        Err(e) => return bad_input(format!("--choice \"{text}\": no hidden hand fits what was seen ({e:?})")),
    };
    Ok(Answer { rules, strategy: strategy_label(name), chooser, total, third, unseen: unseen.total(), values })
}

fn shown(ev: Ev) -> String {
    let fixed = ev.to_fixed(4);
    format!(
        "{}{}.{:04}",
        if fixed < 0 { "-" } else { "+" },
        fixed.unsigned_abs() / 10_000,
        fixed.unsigned_abs() % 10_000
    )
}

fn exact(ev: Ev) -> f64 {
    ev.numerator as f64 / ev.denominator as f64
}

fn better(values: &Values) -> &'static str {
    match values.better() {
        Some(Decision::Draw) => "draw",
        Some(Decision::Stand) => "stand",
        None => "equal",
    }
}

impl Answer {
    fn question(&self) -> String {
        let hand = self.chooser.hand.join(" ");
        match (self.chooser.bank, self.third) {
            (false, _) => format!("the player on {} ({hand})", self.total),
            (true, None) => format!("the bank on {} ({hand}), the player stood", self.total),
            (true, Some(c)) => format!("the bank on {} ({hand}), the player's third card a {c}", self.total),
        }
    }

    /// Prints the answer as a table.
    pub fn print(&self) {
        let decks = self.rules.decks;
        println!(
            "{} with {decks} deck{}: {}",
            self.rules.preset.name(),
            if decks == 1 { "" } else { "s" },
            self.question()
        );
        println!("{} cards unseen by the chooser; the other side plays {}", self.unseen, self.strategy);
        println!();
        println!("  expected value per unit staked, to the chooser:");
        println!("    draw   {}   ({:+.10})", shown(self.values.draw), exact(self.values.draw));
        println!("    stand  {}   ({:+.10})", shown(self.values.stand), exact(self.values.stand));
        println!("  better: {}", better(&self.values));
    }

    /// The answer as `--json` prints it.
    pub fn to_json(&self) -> Value {
        let option = |ev: Ev| json!({ "ev": exact(ev), "shown": shown(ev), "numerator": ev.numerator, "denominator": ev.denominator });
        json!({
            "rules": self.rules.preset.name(),
            "decks": self.rules.decks,
            "strategy": self.strategy,
            "choice": {
                "chooser": if self.chooser.bank { "banker" } else { "player" },
                "hand": self.chooser.hand,
                "total": self.total,
                "player_third": self.third,
                "unseen": self.unseen,
                "draw": option(self.values.draw),
                "stand": option(self.values.stand),
                "better": better(&self.values),
            },
        })
    }
}
