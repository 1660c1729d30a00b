//! Where the Rust benchmark's coups spend their cycles: builds `firmware/bench-prg` as
//! `bac bench` does, runs it in the emulator on the benchmark's parameters and prints, for
//! the coup phase only, three views of the same cycles:
//! - by function and runtime routine: its own cycles per coup (what runs at addresses from
//!   its symbol to the next) and how often per coup it is entered;
//! - by AVR mnemonic, the translated code charged to the AVR instruction it came from and
//!   the runtime's routines each one line;
//! - by AVR instruction, with its source location.
//!
//! What runs outside the program's code (the KERNAL's interrupt handler in ROM) is one line.
//! `cargo run --release -p bac-harness --example coup_profile [COUPS [ROWS]]`, ROWS the
//! number of AVR instructions the last view lists (40 unless given).

use std::collections::HashMap;

use avr2mos::AvrProgram;
use bac_harness::cc65::harness::{self, phase};
use bac_harness::cc65::trace::Params;

/// The line for cycles outside the program's code.
const OUTSIDE: &str = "(outside the program: the KERNAL's interrupt handler)";

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let coups: u16 = std::env::args().nth(1).map_or(Ok(1000), |a| a.parse())?;
    let listed: usize = std::env::args().nth(2).map_or(Ok(40), |a| a.parse())?;
    let target = bac_harness::build::repo_root().join("target/c128");
    let report = bac_harness::build::program("firmware/bench-prg", "bench", &target)?;
    let prg = std::fs::read(&report.prg)?;
    let elf = std::fs::read(&report.elf)?;
    // Translated again with the defaults, for its map from 6502 addresses to AVR ones; the
    // views would lie if the bench's own settings translated otherwise.
    let translation = avr2mos::pipeline::translate_elf(&report.elf)?;
    if translation.prg != prg {
        return Err("firmware/bench-prg's settings translate other than the defaults".into());
    }
    let avr = AvrProgram::from_elf(&elf)?;
    let mut symbols: Vec<(u16, String)> = translation.symbols.iter().map(|(name, at)| (*at, name.clone())).collect();
    symbols.sort();
    let first = symbols.first().map_or(0, |s| s.0);
    let code_end = translation.stats.end_addr;

    let mut by_pc: HashMap<u16, u64> = HashMap::new();
    let mut entered: HashMap<u16, u64> = HashMap::new();
    let run = harness::run_observed(&prg, &Params::punto_banco(1, coups), &mut |_, pc, shown, cycles| {
        if shown != phase::COUP {
            return;
        }
        *by_pc.entry(pc).or_default() += cycles;
        *entered.entry(pc).or_default() += 1;
    })?;
    let timed = run.phase_cycles[phase::COUP] as f64 / f64::from(coups);
    let per = |c: u64| c as f64 / f64::from(coups);
    let owner = |pc: u16| {
        if pc < first || u32::from(pc) >= code_end {
            OUTSIDE
        } else {
            symbols[symbols.partition_point(|&(at, _)| at <= pc) - 1].1.as_str()
        }
    };
    let is_runtime = |name: &str| name.starts_with("rt_") || name.starts_with("__") || name == OUTSIDE;

    let mut by_fn: HashMap<&str, (u64, u64)> = HashMap::new();
    let mut by_op: HashMap<String, u64> = HashMap::new();
    let mut by_insn: HashMap<u32, u64> = HashMap::new();
    for (&pc, &c) in &by_pc {
        let f = owner(pc);
        let row = by_fn.entry(f).or_default();
        row.0 += c;
        if symbols.binary_search_by_key(&pc, |s| s.0).is_ok() {
            row.1 += entered[&pc];
        }
        match translation.avr_address_of(pc) {
            Some(a) if !is_runtime(f) => {
                *by_insn.entry(a).or_default() += c;
                let mnemonic = mnemonic(&avr, a);
                *by_op.entry(mnemonic).or_default() += c;
            }
            _ => *by_op.entry(format!("<{f}>")).or_default() += c,
        }
    }

    println!("{timed:.0} cycles per coup over {coups} coups");
    println!("\nby function: own cycles per coup, share, entries per coup");
    let mut rows: Vec<(&str, (u64, u64))> = by_fn.into_iter().collect();
    rows.sort_by_key(|&(name, (c, _))| (std::cmp::Reverse(c), name));
    for (name, (c, n)) in rows {
        println!("{:9.1} {:5.1}% {:7.2}  {name}", per(c), 100.0 * per(c) / timed, per(n));
    }
    let show = |title: &str, mut rows: Vec<(String, u64)>, n: usize| {
        println!("\n{title}");
        rows.sort_by_key(|r| (std::cmp::Reverse(r.1), r.0.clone()));
        for (k, c) in rows.into_iter().take(n) {
            println!("{:9.1} {:5.1}%  {k}", per(c), 100.0 * per(c) / timed);
        }
    };
    show("by AVR mnemonic (runtime routines in <>)", by_op.into_iter().collect(), 30);
    let insns = by_insn
        .into_iter()
        .map(|(a, c)| {
            let text = avr2mos::input::decode::decode(&avr.text, a as usize, 0).map_or("?".into(), |i| i.to_string());
            (format!("{a:05x} {} {text}", avr.locate(a)), c)
        })
        .collect();
    show("by AVR instruction", insns, listed);
    Ok(())
}

/// The mnemonic of the AVR instruction at `a`, `?` where it does not decode.
fn mnemonic(avr: &AvrProgram, a: u32) -> String {
    let text = avr2mos::input::decode::decode(&avr.text, a as usize, 0).map_or("?".into(), |i| i.to_string());
    text.split_whitespace().next().unwrap_or("?").to_string()
}
