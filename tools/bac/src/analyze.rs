//! `bac analyze`: exact odds, house edges and the game-theoretic solution.

use crate::rules_args::{RulesArgs, strategy_label};
use anyhow::Result;
use bac_odds::edge::{house_edge, spot_name};
use bac_odds::exact::{Odds, odds};
use bac_odds::play::Play;
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
}

/// Computes the analysis.
pub fn analyze(args: &RulesArgs) -> Result<Analysis> {
    let rules = args.rule_set()?;
    let (name, builtin) = args.strategy(&rules);
    let equilibrium = (rules.draw != DrawRules::PuntoBanco).then(|| solve(rules.draw, rules.decks));
    // The optimal strategy is analysed exactly as solved, not as rounded for the firmware.
    let play = match (&equilibrium, name) {
        (Some(eq), crate::rules_args::StrategyName::Optimal) => eq.play,
        _ => Play::of(builtin),
    };
    Ok(Analysis { rules, strategy: strategy_label(name), odds: odds(rules.draw, rules.decks, &play), equilibrium })
}

/// Runs `bac analyze`.
pub fn run(args: AnalyzeArgs) -> Result<()> {
    let started = Instant::now();
    let analysis = analyze(&args.rules)?;
    let elapsed = started.elapsed();
    if args.json {
        let mut object = to_json(&analysis);
        object["elapsed_ms"] = json!(elapsed.as_secs_f64() * 1e3);
        println!("{object}");
    } else {
        print_table(&analysis);
        println!("\n(exact enumeration of a full shoe in {:.1} ms)", elapsed.as_secs_f64() * 1e3);
    }
    Ok(())
}

fn edges(analysis: &Analysis) -> Vec<(&'static str, f64)> {
    Spot::ALL
        .into_iter()
        .filter_map(|spot| Some((spot_name(spot), house_edge(&analysis.rules.pays, &analysis.odds, spot)?)))
        .collect()
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
