//! `bac verify`: the rules crate on the C128 against the rules crate on the host.
//!
//! `firmware/verify-prg` is built through the AVR-to-6502 pipeline, its plan patched into
//! the image, and run in the built-in C128; every round's digest must equal the host's
//! digest of the same round (`bac_verify::play_round`). On the first difference the round
//! is replayed event by event on both sides and the first differing event is shown.

use anyhow::{Context, Result, bail};
use bac_verify::{Plan, RoundResult, encode, play_round};
use c128_emu::{Config, RunOptions, run_until_exit};
use clap::Args;
use std::path::PathBuf;

/// `bac verify` options.
#[derive(Args, Debug)]
pub struct VerifyArgs {
    /// Rounds to play (each a fresh shoe of the next preset and deck count).
    #[arg(long, default_value_t = 1000, value_parser = clap::value_parser!(u32).range(1..))]
    rounds: u32,
    /// Coups per round.
    #[arg(long, default_value_t = 100, value_parser = clap::value_parser!(u16).range(1..))]
    coups: u16,
    /// The master seed.
    #[arg(long, default_value_t = 1)]
    seed: u32,
    /// A verify program built already (default: build firmware/verify-prg now).
    #[arg(long, value_name = "VERIFY.prg")]
    prg: Option<PathBuf>,
}

/// Writes `plan` into the program image after its magic.
pub fn patch_plan(prg: &mut [u8], plan: &Plan) -> Result<()> {
    let Some(at) = prg.windows(Plan::MAGIC.len()).position(|w| w == Plan::MAGIC) else {
        bail!("the verify program carries no plan block (magic {:?} not found)", String::from_utf8_lossy(&Plan::MAGIC));
    };
    let start = at + Plan::MAGIC.len();
    let slot = prg.get_mut(start..start + Plan::LEN).context("the plan block is cut short")?;
    slot.copy_from_slice(&plan.to_bytes());
    Ok(())
}

/// Runs `plan` on the C128 and returns its output lines.
pub fn run_on_c128(prg: &[u8], plan: &Plan) -> Result<String> {
    let mut image = prg.to_vec();
    patch_plan(&mut image, plan)?;
    let config = Config { max_cycles: u64::MAX / 2, ..Config::default() };
    let report =
        run_until_exit(&image, RunOptions { config, ..RunOptions::default() }).context("running the verify program")?;
    if report.exit.code != 0 {
        bail!("the verify program ended with exit code {}: {}", report.exit.code, report.output());
    }
    Ok(report.output())
}

/// Reads the `R` lines of the program's output.
pub fn parse_rounds(output: &str) -> Result<Vec<RoundResult>> {
    let mut rounds = Vec::new();
    for line in output.lines().filter(|l| l.starts_with("R ")) {
        let fields: Vec<u32> = line[2..]
            .split(' ')
            .map(|f| u32::from_str_radix(f, 16))
            .collect::<Result<_, _>>()
            .with_context(|| format!("unreadable result line `{line}`"))?;
        let [round, digest, coups, bankroll] = fields[..] else {
            bail!("result line `{line}` has {} fields", fields.len())
        };
        rounds.push(RoundResult { round, digest, coups: coups as u16, bankroll });
    }
    if !output.contains("DONE") {
        bail!("the verify program stopped before DONE:\n{output}");
    }
    Ok(rounds)
}

/// Runs `plan`'s rounds on as many emulated C128s as the host has cores, each a
/// consecutive share of them (a round is independent of the others: its own shoe, seed
/// and bankroll), and returns their results in round order.
fn on_every_core(prg: &[u8], plan: &Plan) -> Result<Vec<RoundResult>> {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get() as u32);
    let share = plan.rounds.div_ceil(cores.clamp(1, plan.rounds));
    let shares: Vec<Plan> = (0..plan.rounds)
        .step_by(share as usize)
        .map(|first| Plan { first_round: first, rounds: share.min(plan.rounds - first), ..*plan })
        .collect();
    let results: Vec<Result<Vec<RoundResult>>> = std::thread::scope(|scope| {
        let runs: Vec<_> =
            shares.iter().map(|part| scope.spawn(move || parse_rounds(&run_on_c128(prg, part)?))).collect();
        runs.into_iter().map(|run| run.join().expect("a verify thread panicked")).collect()
    });
    let mut rounds = Vec::with_capacity(plan.rounds as usize);
    for (part, result) in shares.iter().zip(results) {
        let got =
            result.with_context(|| format!("rounds {} to {}", part.first_round, part.first_round + part.rounds - 1))?;
        if let Some(r) = got.iter().zip(part.first_round..).find(|(r, n)| r.round != *n) {
            bail!("the C128 reported round {} where round {} was due", r.0.round, r.1);
        }
        rounds.extend(got);
    }
    Ok(rounds)
}

fn host_events(plan: &Plan, round: u32) -> Vec<String> {
    let mut lines = Vec::new();
    play_round(plan, round, &mut |event| {
        let mut bytes = [0u8; 12];
        let n = encode(event, &mut bytes);
        let hex: Vec<String> = bytes[..n].iter().map(|b| format!("{b:02X}")).collect();
        lines.push(format!("E {}  ({event:?})", hex.join(" ")));
    });
    lines
}

/// Runs `bac verify`.
pub fn run(args: VerifyArgs) -> Result<()> {
    let prg = match &args.prg {
        Some(path) => std::fs::read(path).with_context(|| format!("reading {}", path.display()))?,
        None => crate::firmware::build("verify-prg", "verify")?,
    };
    let plan = Plan { seed: args.seed, first_round: 0, rounds: args.rounds, coups: args.coups, verbose: false };
    let c128 = on_every_core(&prg, &plan)?;
    for round in 0..args.rounds {
        let host = play_round(&plan, round, &mut |_| {});
        let Some(theirs) = c128.get(round as usize) else {
            bail!("the C128 reported {} rounds of {}", c128.len(), args.rounds)
        };
        if *theirs == host {
            continue;
        }
        let one = Plan { first_round: round, rounds: 1, verbose: true, ..plan };
        let c128_events: Vec<String> =
            run_on_c128(&prg, &one)?.lines().filter(|l| l.starts_with("E ")).map(String::from).collect();
        let host_events = host_events(&plan, round);
        let first = host_events.iter().zip(&c128_events).position(|(h, c)| !h.starts_with(c.as_str()));
        eprintln!(
            "round {round} (seed {}, {:?}) differs: host {host:?}, C128 {theirs:?}",
            args.seed,
            bac_verify::round_rules(round).preset
        );
        if let Some(i) = first {
            eprintln!("first difference at event {i}:\n  host: {}\n  C128: {}", host_events[i], c128_events[i]);
        }
        bail!("the C128 and the host disagree");
    }
    println!("{} rounds agree ({} coups)", args.rounds, u64::from(args.rounds) * u64::from(args.coups));
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn result_lines_parse_and_bad_ones_are_named() {
        let rounds =
            parse_rounds("PRESS\rR 00000001 DEADBEEF 0019 00000064\nDONE\n".replace('\r', "\n").as_str()).unwrap();
        assert_eq!(rounds, vec![RoundResult { round: 1, digest: 0xDEAD_BEEF, coups: 25, bankroll: 100 }]);
        assert!(parse_rounds("R 1 2 3 4\n").unwrap_err().to_string().contains("before DONE"));
        assert!(parse_rounds("R 1 XYZ 3 4\nDONE").unwrap_err().to_string().contains("unreadable"));
        assert!(parse_rounds("R 1 2 3\nDONE").unwrap_err().to_string().contains("3 fields"));
    }

    #[test]
    fn the_plan_goes_after_its_magic_or_nowhere() {
        let plan = Plan { seed: 7, first_round: 2, rounds: 3, coups: 4, verbose: false };
        let mut image = b"xxBACPLAN1".to_vec();
        image.extend_from_slice(&[0; Plan::LEN]);
        image.extend_from_slice(b"yy");
        patch_plan(&mut image, &plan).unwrap();
        assert_eq!(&image[10..10 + Plan::LEN], &plan.to_bytes());
        assert!(image.ends_with(b"yy"));
        assert!(patch_plan(&mut b"no magic here".to_vec(), &plan).unwrap_err().to_string().contains("no plan block"));
        assert!(patch_plan(&mut b"BACPLAN1abc".to_vec(), &plan).unwrap_err().to_string().contains("cut short"));
    }
}
