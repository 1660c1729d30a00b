//! `bac sim`: Monte-Carlo play of whole shoes, set beside the exact odds: the main bets,
//! the side bets (`--side-bets`), and a side-bet counting system (`--count`).

use crate::analyze::side_bet_names;
use crate::bad_input::bad_input;
use crate::rules_args::{RulesArgs, strategy_label};
use anyhow::Result;
use bac_odds::count::{CountSystem, SYSTEMS, system};
use bac_odds::edge::spot_name;
use bac_odds::side::table;
use bac_odds::sim::{Counts, SimConfig, simulate};
use bac_rules::Spot;
use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};
use serde_json::{Map, Value, json};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// `bac sim` options.
#[derive(Args, Debug)]
pub struct SimArgs {
    #[command(flatten)]
    rules: RulesArgs,
    /// Coups to play.
    #[arg(long, default_value_t = 10_000_000, value_parser = clap::value_parser!(u64).range(1..))]
    hands: u64,
    /// The seed: the same seed and thread count give the same figures.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Worker threads (default: every core).
    #[arg(long, value_parser = clap::value_parser!(u16).range(1..=1024))]
    threads: Option<u16>,
    /// Print one JSON object instead of a table.
    #[arg(long)]
    json: bool,
    /// Settle side bets too: all of them, or those named (comma-separated).
    #[arg(long, value_name = "BETS", num_args = 0..=1, require_equals = true, default_missing_value = "all")]
    side_bets: Option<String>,
    /// Play a side-bet counting system over whole shoes: dragon-7 (Stephen How's unbalanced
    /// count) or big-tiger (Eliot Jacobson's).
    #[arg(long, value_name = "SYSTEM")]
    count: Option<String>,
    /// Deal every coup from a fresh shuffle of this shoe instead of playing whole shoes
    /// (the same syntax as `bac analyze --shoe`): the simulation of what `analyze` computes.
    #[arg(long, value_name = "SHOE")]
    shoe: Option<String>,
}

fn count_system(name: Option<&str>) -> Result<Option<&'static CountSystem>> {
    let Some(name) = name else { return Ok(None) };
    match system(name) {
        Some(system) => Ok(Some(system)),
        None => {
            let known: Vec<&str> = SYSTEMS.iter().map(|s| s.name).collect();
            bad_input(format!("--count: no counting system is called `{name}`; the systems: {}", known.join(", ")))
        }
    }
}

/// Runs `bac sim`.
pub fn run(args: SimArgs) -> Result<()> {
    let side_bets = side_bet_names(args.side_bets.as_deref())?;
    let count = count_system(args.count.as_deref())?;
    let rules = args.rules.rule_set()?;
    let (name, strategy) = args.rules.strategy(&rules);
    let threads = args.threads.map_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()), usize::from);
    if args.shoe.is_some() && count.is_some() {
        return bad_input("--count plays whole shoes and --shoe deals every coup from one composition: give one");
    }
    let shoe = match &args.shoe {
        Some(text) => Some(crate::analyze::shoe(rules.decks, Some(text))?),
        None => None,
    };
    let config =
        SimConfig { side_bets, count, shoe, ..SimConfig::new(rules, args.hands, args.seed, threads, strategy) };
    let progress = AtomicU64::new(0);
    let bar = ProgressBar::new(args.hands);
    bar.set_style(
        ProgressStyle::with_template("{bar:40} {human_pos}/{human_len} coups, {per_sec}, eta {eta}")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    let started = Instant::now();
    let counts = std::thread::scope(|scope| {
        let worker = scope.spawn(|| simulate(&config, &progress));
        while !worker.is_finished() {
            bar.set_position(progress.load(Ordering::Relaxed));
            std::thread::sleep(Duration::from_millis(100));
        }
        worker.join().map_err(|_| anyhow::anyhow!("a simulation thread panicked"))
    })??;
    let seconds = started.elapsed().as_secs_f64();
    bar.finish_and_clear();
    let report = Report {
        config: &config,
        counts: &counts,
        seconds,
        strategy: strategy_label(name),
        shoe: args.shoe.as_deref(),
    };
    if args.json {
        println!("{}", report.to_json())
    } else {
        report.print()
    }
    Ok(())
}

struct Report<'a> {
    config: &'a SimConfig,
    counts: &'a Counts,
    seconds: f64,
    strategy: &'static str,
    shoe: Option<&'a str>,
}

impl Report<'_> {
    fn hands_per_second(&self) -> f64 {
        self.counts.hands as f64 / self.seconds.max(1e-9)
    }

    fn proportions(&self) -> [(&'static str, u64); 4] {
        let c = self.counts;
        [("banker", c.banker), ("player", c.player), ("tie", c.tie), ("natural", c.natural)]
    }

    fn edges(&self) -> Vec<(&'static str, (f64, f64))> {
        Spot::ALL
            .into_iter()
            .filter_map(|s| Some((spot_name(s), self.counts.edge_interval(&self.config.rules, s)?)))
            .collect()
    }

    fn to_json(&self) -> Value {
        let c = self.counts;
        let rules = &self.config.rules;
        let mut object = json!({
            "rules": rules.preset.name(),
            "decks": rules.decks,
            "strategy": self.strategy,
            "shoe": self.shoe,
            "hands": c.hands,
            "seed": self.config.seed,
            "threads": self.config.threads,
            "seconds": self.seconds,
            "hands_per_second": self.hands_per_second(),
        });
        for (name, count) in self.proportions() {
            object[name] = json!(count as f64 / c.hands.max(1) as f64);
            object[format!("{name}_ci95")] = json!(c.proportion_interval(count));
        }
        let cards: Map<String, Value> =
            (0..3).map(|i| ((i + 4).to_string(), json!(c.cards[i] as f64 / c.hands.max(1) as f64))).collect();
        object["cards"] = Value::Object(cards);
        let (edge, ci): (Map<_, _>, Map<_, _>) = self
            .edges()
            .into_iter()
            .map(|(name, (e, half))| ((name.to_string(), json!(e)), (name.to_string(), json!(half))))
            .unzip();
        object["edge"] = Value::Object(edge);
        object["edge_ci95"] = Value::Object(ci);
        let side: Map<String, Value> = self
            .side_edges()
            .into_iter()
            .map(|(name, (e, half))| (name.to_string(), json!({ "edge": e, "edge_ci95": half })))
            .collect();
        if !side.is_empty() {
            object["side"] = Value::Object(side);
        }
        if let Some(system) = self.config.count {
            let t = &c.count;
            let (edge, half) = c.count_edge_interval();
            object["count"] = json!({
                "system": system.name,
                "bet": system.bet,
                "source": system.source,
                "shoes": t.shoes,
                "bets": t.bets,
                "bet_frequency": t.bets as f64 / c.hands.max(1) as f64,
                "edge_when_betting": edge,
                "edge_when_betting_ci95": half,
                "units_won_per_shoe": t.won / t.shoes.max(1) as f64,
            });
        }
        object
    }

    fn side_edges(&self) -> Vec<(&'static str, (f64, f64))> {
        self.config
            .side_bets
            .iter()
            .enumerate()
            .filter_map(|(i, name)| Some((*name, self.counts.side_edge_interval(i, table(name)?))))
            .collect()
    }

    fn print(&self) {
        let c = self.counts;
        let rules = &self.config.rules;
        println!(
            "{} with {} decks, strategy {}: {} coups, seed {}",
            rules.preset.name(),
            rules.decks,
            self.strategy,
            c.hands,
            self.config.seed
        );
        if let Some(shoe) = self.shoe {
            println!("every coup from a fresh shuffle of: {shoe}");
        }
        println!();
        for (name, count) in self.proportions() {
            let p = count as f64 / c.hands.max(1) as f64;
            println!("  {name:<8} {p:.6} ± {:.6}", c.proportion_interval(count));
        }
        for (name, (edge, half)) in self.edges().into_iter().chain(self.side_edges()) {
            println!("  house edge on {name:<7} {:>8.4}% ± {:.4}%", edge * 100.0, half * 100.0);
        }
        if let Some(system) = self.config.count {
            let t = &c.count;
            let (edge, half) = c.count_edge_interval();
            println!();
            println!("  count {} on {} ({})", system.name, system.bet, system.source);
            println!(
                "    {} shoes; bet on {} coups ({:.3}% of them, {:.2} a shoe)",
                t.shoes,
                t.bets,
                100.0 * t.bets as f64 / c.hands.max(1) as f64,
                t.bets as f64 / t.shoes.max(1) as f64
            );
            println!(
                "    house edge when betting {:.3}% ± {:.3}%; the bettor wins {:+.4} units a shoe",
                edge * 100.0,
                half * 100.0,
                t.won / t.shoes.max(1) as f64
            );
        }
        println!();
        println!(
            "  {:.1} million coups per second on {} thread{} (95% intervals)",
            self.hands_per_second() / 1e6,
            self.config.threads,
            if self.config.threads == 1 { "" } else { "s" }
        );
    }
}
