//! `bac analyze`: exact odds, house edges and the game-theoretic solution, for the main
//! bets and (`--side-bets`) every side bet, from a full shoe or any composition (`--shoe`),
//! with the effects of removal (`--eor`) that card counters build their counts from.

use crate::bad_input::bad_input;
use crate::rules_args::{RulesArgs, strategy_label};
use anyhow::Result;
use bac_odds::analysis::{ShoeAnalysis, analyze_shoe, removals};
use bac_odds::composition::Composition;
use bac_odds::edge::{house_edge, spot_name};
use bac_odds::exact::Odds;
use bac_odds::play::Play;
use bac_odds::side::{NAMES, SideBet};
use bac_odds::solve::{Equilibrium, solve};
use bac_rules::tableau::PLAYER_STOOD;
use bac_rules::{DrawRules, RuleSet, Spot};
use clap::Args;
use serde_json::{Map, Value, json};
use std::time::Instant;

/// `bac analyze` options.
#[derive(Args, Debug)]
pub struct AnalyzeArgs {
    #[command(flatten)]
    rules: RulesArgs,
    /// Print one JSON object instead of a table.
    #[arg(long)]
    json: bool,
    /// Value the side bets too: all of them, or those named (comma-separated).
    #[arg(long, value_name = "BETS", num_args = 0..=1, require_equals = true, default_missing_value = "all")]
    side_bets: Option<String>,
    /// The shoe left: `remove CARD ...` (A, 2-9, 10 or T, J, Q, K, suit s/h/d/c optional:
    /// "remove 5 5 6 Ks") from a full shoe of --decks, or ten counts (aces to nines, then
    /// tens and faces).
    #[arg(long, value_name = "SHOE")]
    shoe: Option<String>,
    /// Print the effect of removing one card of each rank (each value, for a shoe given by
    /// counts) on the bettor's expectation of every bet.
    #[arg(long)]
    eor: bool,
    /// The coach's question at a free choice: what drawing and standing are worth to the
    /// chooser, from the cards unseen (--shoe less the chooser's own): "player 2 3",
    /// "banker K 6 stood" or "banker A 2 third 9".
    #[arg(long, value_name = "CHOICE", conflicts_with_all = ["side_bets", "eor"])]
    choice: Option<String>,
}

/// The side bets `--side-bets` asked for, by name, in report order.
pub fn side_bet_names(asked: Option<&str>) -> Result<Vec<&'static str>> {
    let Some(asked) = asked else { return Ok(Vec::new()) };
    if asked == "all" {
        return Ok(NAMES.to_vec());
    }
    let mut names = Vec::new();
    for word in asked.split(',').map(str::trim).filter(|w| !w.is_empty()) {
        match NAMES.iter().find(|n| **n == word) {
            Some(name) if !names.contains(name) => names.push(*name),
            Some(_) => {}
            None => {
                return bad_input(format!("--side-bets: no bet is called `{word}`; the bets: {}", NAMES.join(", ")));
            }
        }
    }
    if names.is_empty() {
        return bad_input("--side-bets=: name at least one bet, or give --side-bets alone for all");
    }
    Ok(names)
}

/// The composition `--shoe` describes, from a full shoe of `decks`.
pub fn shoe(decks: u8, text: Option<&str>) -> Result<Composition> {
    match text {
        None => Ok(Composition::full(decks)),
        Some(text) => match Composition::parse(decks, text) {
            Ok(shoe) => Ok(shoe),
            Err(e) => {
                bad_input(format!("--shoe \"{text}\" (from {decks} deck{}): {e}", if decks == 1 { "" } else { "s" }))
            }
        },
    }
}

/// Everything `analyze` computes for one rule set.
pub struct Analysis {
    /// The rules analysed.
    pub rules: RuleSet,
    /// The strategy's name.
    pub strategy: &'static str,
    /// The odds under that strategy.
    pub odds: Odds,
    /// The solution, for games with choices.
    pub equilibrium: Option<Equilibrium>,
    /// The side bets asked for.
    pub side: Vec<SideBet>,
    /// The shoe, when not a full one: its description and cards left.
    pub shoe: Option<(String, u32)>,
    /// Per card taken out: its name and the analysis of the shoe without it.
    pub eor: Vec<(&'static str, ShoeAnalysis)>,
}

/// Computes the analysis: one walk of the shoe for the main bets and every side bet.
pub fn analyze(args: &AnalyzeArgs) -> Result<Analysis> {
    let names = side_bet_names(args.side_bets.as_deref())?;
    let rules = args.rules.rule_set()?;
    let composition = shoe(rules.decks, args.shoe.as_deref())?;
    let args_rules = &args.rules;
    let (name, builtin) = args_rules.strategy(&rules);
    let equilibrium = (rules.draw != DrawRules::PuntoBanco).then(|| solve(rules.draw, rules.decks));
    // The optimal strategy is analysed exactly as solved, not as rounded for the firmware.
    let play = match (&equilibrium, name) {
        (Some(eq), crate::rules_args::StrategyName::Optimal) => eq.play,
        _ => Play::of(builtin),
    };
    let whole = analyze_shoe(rules.draw, &composition, &play);
    let pick = |side: &[SideBet]| side.iter().filter(|b| names.contains(&b.key)).cloned().collect();
    let eor = if args.eor {
        removals(&composition)
            .into_iter()
            .map(|(card, less)| {
                let a = analyze_shoe(rules.draw, &less, &play);
                (card, ShoeAnalysis { side: pick(&a.side), ..a })
            })
            .collect()
    } else {
        Vec::new()
    };
    Ok(Analysis {
        rules,
        strategy: strategy_label(name),
        odds: whole.odds,
        equilibrium,
        side: pick(&whole.side),
        shoe: args.shoe.as_ref().map(|text| (text.clone(), composition.total())),
        eor,
    })
}

/// Runs `bac analyze`.
pub fn run(args: AnalyzeArgs) -> Result<()> {
    let started = Instant::now();
    if let Some(text) = &args.choice {
        let chooser = crate::choice::parse(text)?;
        let rules = args.rules.rule_set()?;
        let composition = shoe(rules.decks, args.shoe.as_deref())?;
        let answer = crate::choice::answer(&args.rules, rules, &composition, chooser, text)?;
        if args.json {
            println!("{}", answer.to_json());
        } else {
            answer.print();
        }
        return Ok(());
    }
    let analysis = analyze(&args)?;
    let elapsed = started.elapsed();
    if args.json {
        let mut object = to_json(&analysis);
        object["elapsed_ms"] = json!(elapsed.as_secs_f64() * 1e3);
        println!("{object}");
    } else {
        print_table(&analysis);
        print_side(&analysis.side);
        print_eor(&analysis);
        let what = if analysis.shoe.is_some() { "the shoe" } else { "a full shoe" };
        println!("\n(exact enumeration of {what} in {:.1} ms)", elapsed.as_secs_f64() * 1e3);
    }
    Ok(())
}

fn edges(analysis: &Analysis) -> Vec<(&'static str, f64)> {
    main_edges(&analysis.rules, &analysis.odds)
}

fn main_edges(rules: &RuleSet, odds: &Odds) -> Vec<(&'static str, f64)> {
    Spot::ALL.into_iter().filter_map(|spot| Some((spot_name(spot), house_edge(&rules.pays, odds, spot)?))).collect()
}

/// Every bet's house edge on one shoe: the main bets the rules allow, then the side bets.
fn all_edges(rules: &RuleSet, odds: &Odds, side: &[SideBet]) -> Vec<(&'static str, f64)> {
    let mut edges = main_edges(rules, odds);
    edges.extend(side.iter().map(|b| (b.key, b.house_edge())));
    edges
}

/// Per bet, per card taken out: the change in the bettor's expectation per unit staked.
fn effects(analysis: &Analysis) -> Vec<(&'static str, Vec<(&'static str, f64)>)> {
    let base = all_edges(&analysis.rules, &analysis.odds, &analysis.side);
    let less: Vec<_> =
        analysis.eor.iter().map(|(card, a)| (*card, all_edges(&analysis.rules, &a.odds, &a.side))).collect();
    base.iter()
        .enumerate()
        .map(|(i, (bet, edge))| (*bet, less.iter().map(|(card, edges)| (*card, edge - edges[i].1)).collect()))
        .collect()
}

fn side_json(bet: &SideBet) -> Value {
    let pays: Vec<Value> = bet
        .lines
        .iter()
        .map(|l| json!({ "event": l.event, "pays": l.pays.to_string(), "probability": l.probability }))
        .collect();
    json!({
        "table": bet.table.name,
        "source": bet.table.source,
        "pays": pays,
        "loses": bet.loses(),
        "edge": bet.house_edge(),
        "standard_deviation": bet.standard_deviation(),
    })
}

fn print_side(side: &[SideBet]) {
    for bet in side {
        println!();
        println!(
            "  {} ({}): house edge {:.4}%, standard deviation {:.4}",
            bet.key,
            bet.table.name,
            bet.house_edge() * 100.0,
            bet.standard_deviation()
        );
        println!("    source: {}", bet.table.source);
        for l in &bet.lines {
            println!("    {:<46} {:>7}  {:.10}", l.event, l.pays.to_string(), l.probability);
        }
        println!("    {:<46} {:>7}  {:.10}", "anything else", "loses", bet.loses());
    }
}

fn print_eor(analysis: &Analysis) {
    if analysis.eor.is_empty() {
        return;
    }
    println!();
    println!("  effect of removing one card on the bettor's expectation, in % of the stake:");
    let cards: Vec<&str> = analysis.eor.iter().map(|(c, _)| *c).collect();
    let head: String = cards.iter().map(|c| format!("{c:>9}")).collect();
    println!("    {:<20}{head}", "bet");
    for (bet, row) in effects(analysis) {
        let cells: String = row.iter().map(|(_, e)| format!("{:>9.4}", e * 100.0)).collect();
        println!("    {bet:<20}{cells}");
    }
}

/// Bank cells where the equilibrium differs from always drawing or always standing.
fn banker_cells(eq: &Equilibrium) -> Vec<((u8, u8), f64)> {
    eq.cells.iter().map(|&((t, c), _)| ((t, c), eq.play.banker[usize::from(t)][usize::from(c)])).collect()
}

fn column_name(column: u8) -> String {
    if usize::from(column) == PLAYER_STOOD { "stood".to_string() } else { column.to_string() }
}

/// The JSON object `--json` prints.
pub fn to_json(analysis: &Analysis) -> Value {
    let o = &analysis.odds;
    let edge: Map<String, Value> = edges(analysis).into_iter().map(|(k, v)| (k.to_string(), json!(v))).collect();
    let mut object = json!({
        "rules": analysis.rules.preset.name(),
        "decks": analysis.rules.decks,
        "strategy": analysis.strategy,
        "banker": o.banker,
        "player": o.player,
        "tie": o.tie,
        "banker_six": o.banker_six,
        "natural": o.natural,
        "edge": edge,
        "cards": { "4": o.cards[0], "5": o.cards[1], "6": o.cards[2] },
    });
    if let Some(odds) = analysis.rules.pays.tie {
        object["tie_pays"] = json!(odds.win);
    }
    if !analysis.side.is_empty() {
        let side: Map<String, Value> = analysis.side.iter().map(|b| (b.key.to_string(), side_json(b))).collect();
        object["side"] = Value::Object(side);
    }
    if let Some((text, cards)) = &analysis.shoe {
        object["shoe"] = json!({ "description": text, "cards": cards });
    }
    if !analysis.eor.is_empty() {
        let eor: Map<String, Value> = effects(analysis)
            .into_iter()
            .map(|(bet, row)| {
                let cells: Map<String, Value> = row.into_iter().map(|(c, e)| (c.to_string(), json!(e))).collect();
                (bet.to_string(), Value::Object(cells))
            })
            .collect();
        object["eor"] = Value::Object(eor);
    }
    if let Some(eq) = &analysis.equilibrium {
        let banker: Map<String, Value> =
            banker_cells(eq).into_iter().map(|((t, c), p)| (format!("{t}/{}", column_name(c)), json!(p))).collect();
        object["optimal"] = json!({
            "player_draw_on_5": eq.play.player_on_five,
            "value": eq.value,
            "banker_draw": banker,
        });
    }
    object
}

fn print_table(analysis: &Analysis) {
    let (rules, o) = (&analysis.rules, &analysis.odds);
    println!(
        "{} with {} deck{}, strategy {}",
        rules.preset.name(),
        rules.decks,
        if rules.decks == 1 { "" } else { "s" },
        analysis.strategy
    );
    if let Some((text, cards)) = &analysis.shoe {
        println!("shoe: {text} ({cards} cards left)");
        if analysis.equilibrium.is_some() {
            println!("(the free choices follow the full shoe's solution, not one for this shoe)");
        }
    }
    println!();
    println!("  banker wins   {:.10}", o.banker);
    println!("  player wins   {:.10}", o.player);
    println!("  tie           {:.10}", o.tie);
    println!("  naturals      {:.10}", o.natural);
    println!("  cards 4/5/6   {:.6} / {:.6} / {:.6}", o.cards[0], o.cards[1], o.cards[2]);
    println!();
    for (name, edge) in edges(analysis) {
        println!("  house edge on {name:<7} {:>8.4}%", edge * 100.0);
    }
    if let Some(eq) = &analysis.equilibrium {
        println!();
        println!("  optimal play: the player draws on 5 with probability {:.6}", eq.play.player_on_five);
        let cells = banker_cells(eq);
        if cells.len() <= 4 {
            for ((t, c), p) in cells {
                let against = if usize::from(c) == PLAYER_STOOD {
                    "the player standing".to_string()
                } else {
                    format!("a third card {c}")
                };
                println!("    the bank on {t} against {against}: draws with probability {p:.6}");
            }
        } else {
            print_bank_grid(&cells);
        }
        println!("  value of the game to the player: {:+.6} per unit per coup", eq.value);
    }
}

/// The bank's free cells as a grid: `D` draw, `.` stand, a probability where it mixes.
fn print_bank_grid(cells: &[((u8, u8), f64)]) {
    println!("    the bank's play: rows its total, columns the player's third card (- = stood);");
    println!("    D draws, . stands, a number is the chance of drawing");
    println!("           0     1     2     3     4     5     6     7     8     9     -");
    for total in 0..8u8 {
        let row: Vec<String> = (0..=PLAYER_STOOD as u8)
            .map(|c| match cells.iter().find(|((t, col), _)| *t == total && *col == c) {
                Some((_, p)) if *p >= 1.0 => "    D ".to_string(),
                Some((_, p)) if *p <= 0.0 => "    . ".to_string(),
                Some((_, p)) => format!("{p:>5.3} "),
                None => "      ".to_string(),
            })
            .collect();
        println!("      {total}  {}", row.concat().trim_end());
    }
}
