//! `bac profile`: where the game spends the time the player waits for, function by
//! function, in the built-in C128.
//!
//! Builds the game as `bac bench` does and plays the same coups (see `game_run`); for the
//! settle of the shoe's first and 30th coup, in 40 and 80 columns, prints the functions
//! that took the most cycles (their own code, not their callees'), how often each was
//! entered and whether it runs translated or through the interpreter; and for a whole coup
//! the share of the AVR instructions that ran translated.
//!
//! With `--placement FILE`, also the audit of the game's placement
//! (`firmware/game-prg/placement.toml`): every function that ran, with its cycles in the
//! settles and in the whole coups and where the placement puts it, written to FILE as data
//! (through a temporary file renamed into place), and the interpreted functions that took
//! at least `--hot` cycles printed as the candidates to translate. The placement itself
//! stays a choice by hand: what to translate is a trade of those cycles against bytes of
//! bank 0, which no threshold of cycles makes alone.

use anyhow::Result;
use bac_harness::profile::Profile;
use clap::Args;

/// `bac profile` options.
#[derive(Args, Debug)]
pub struct ProfileArgs {
    /// Functions to list for each settle.
    #[arg(long, default_value_t = 20)]
    top: usize,
    /// Only 40 columns, or only 80.
    #[arg(long, value_parser = ["40", "80"])]
    columns: Option<String>,
    /// Also list this many of the interpreted AVR instructions that took the most cycles
    /// (by function and byte offset: `bac prg`'s listing of the function, or the ELF's
    /// disassembly, says which).
    #[arg(long, default_value_t = 0)]
    instructions: usize,
    /// Also write the placement's audit to this file: every function that ran, its cycles
    /// and where the placement puts it (TOML).
    #[arg(long, value_name = "FILE")]
    placement: Option<std::path::PathBuf>,
    /// With `--placement`: the cycles in the whole coups from which an interpreted function
    /// is listed as a candidate to translate.
    #[arg(long, default_value_t = 10_000, requires = "placement")]
    hot: u64,
}

/// One function's figures in the placement's audit.
#[derive(Default)]
struct Measured {
    interpreted: bool,
    /// Cycles in the settles profiled.
    settles: u64,
    /// Cycles in the whole coups profiled.
    coups: u64,
    /// Times it was entered in the whole coups.
    calls: u64,
}

/// Whether a profile's item is a function the placement can place (not a runtime routine,
/// the frame waits or cycles outside any symbol).
fn placeable(name: &str) -> bool {
    !name.starts_with("rt_") && !name.starts_with('(')
}

/// The audit as TOML: a header that says what it is and how it was made, then one
/// `[[function]]` table a function, most cycles in the whole coups first.
fn audit_text(columns: &str, hot: u64, measured: &std::collections::BTreeMap<String, Measured>) -> String {
    use std::fmt::Write as _;
    let mut s = format!(
        "# The measure behind firmware/game-prg/placement.toml, written by\n\
         # `cargo run --release -p bac -- profile --placement FILE` ({columns} columns): every function\n\
         # that ran in the settles `bac profile` times (last card to settled, the shoe's first and\n\
         # 30th coup) and in a whole coup (the second, dealing key to settled screen, frame waits\n\
         # left out), its own cycles as placed today (`placed`: interpreted or translated) and its\n\
         # calls in the whole coups. Interpreted ones with at least {hot} cycles in the whole coups\n\
         # are the candidates to translate, bank 0's room allowing (`bac bench` prints it).\n"
    );
    let mut rows: Vec<(&String, &Measured)> = measured.iter().collect();
    rows.sort_by(|a, b| (b.1.coups, b.1.settles).cmp(&(a.1.coups, a.1.settles)).then_with(|| a.0.cmp(b.0)));
    for (name, m) in rows {
        let placed = if m.interpreted { "interpreted" } else { "translated" };
        let _ = write!(
            s,
            "\n[[function]]\nname = {name:?}\nplaced = \"{placed}\"\ncoup_cycles = {}\nsettle_cycles = {}\ncoup_calls = {}\n",
            m.coups, m.settles, m.calls
        );
    }
    s
}

fn print(title: &str, p: &Profile, top: usize, instructions: usize) {
    println!("{title}: {} cycles", p.cycles);
    println!("  {:>9} {:>6} {:>7}  how          function", "cycles", "share", "calls");
    for item in p.items.iter().take(top) {
        println!(
            "  {:>9} {:>5.1}% {:>7}  {:<11}  {}",
            item.cycles,
            100.0 * item.cycles as f64 / p.cycles.max(1) as f64,
            item.calls,
            if item.interpreted { "interpreted" } else { "translated" },
            item.name
        );
        for (caller, cycles, calls) in item.callers.iter().take(3) {
            println!("  {cycles:>9} {:>6} {calls:>7}  {:<11}    from {caller}", "", "");
        }
    }
    let interpreted: u64 = p.items.iter().filter(|i| i.interpreted).map(|i| i.cycles).sum();
    println!(
        "  interpreted functions: {interpreted} cycles ({:.1}%); AVR instructions run: {} translated, {} interpreted",
        100.0 * interpreted as f64 / p.cycles.max(1) as f64,
        p.translated,
        p.interpreted
    );
    for (function, offset, cycles) in p.hot_interpreted.iter().take(instructions) {
        println!("  {cycles:>9}  interpreted  {function}+0x{offset:x}");
    }
}

/// Runs `bac profile`.
pub fn run(args: ProfileArgs) -> Result<()> {
    let built = crate::game_run::Built::read(&crate::firmware::build_game()?)?;
    println!("the game: {} bytes free in bank 0", built.bank0_free);
    let mut measured = std::collections::BTreeMap::<String, Measured>::new();
    let mut add = |p: &Profile, coup: bool| {
        for item in p.items.iter().filter(|i| placeable(&i.name)) {
            let m = measured.entry(item.name.clone()).or_default();
            m.interpreted = item.interpreted;
            if coup {
                m.coups += item.cycles;
                m.calls += item.calls;
            } else {
                m.settles += item.cycles;
            }
        }
    };
    for (columns, eighty) in [("40", false), ("80", true)] {
        if args.columns.as_deref().is_some_and(|c| c != columns) {
            continue;
        }
        let run = crate::game_run::play(&built, eighty, true)?;
        if let Some((first, thirtieth)) = &run.settles {
            add(first, false);
            add(thirtieth, false);
            print(
                &format!("{columns} columns, last card to settled, first coup of the shoe"),
                first,
                args.top,
                args.instructions,
            );
            print(
                &format!("{columns} columns, last card to settled, 30th coup"),
                thirtieth,
                args.top,
                args.instructions,
            );
        }
        println!(
            "{columns} columns, a whole coup (the second, dealing key to settled screen, frame waits left out): \
             {:.1}% of {} AVR instructions translated",
            100.0 * run.coup.translated_share(),
            run.coup.translated + run.coup.interpreted
        );
        add(&run.coup, true);
        println!();
    }
    if let Some(file) = &args.placement {
        let columns = args.columns.as_deref().unwrap_or("40 and 80");
        avr2mos::pipeline::write_atomic(file, audit_text(columns, args.hot, &measured).as_bytes())?;
        let mut hot: Vec<(&String, &Measured)> =
            measured.iter().filter(|(_, m)| m.interpreted && m.coups >= args.hot).collect();
        hot.sort_by(|a, b| b.1.coups.cmp(&a.1.coups).then_with(|| a.0.cmp(b.0)));
        println!(
            "the placement's audit: {} functions ran, in {}; interpreted with at least {} cycles in the whole coups:",
            measured.len(),
            file.display(),
            args.hot
        );
        for (name, m) in hot {
            println!("  {:>9} cycles {:>6} calls  {name}", m.coups, m.calls);
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_audit_lists_functions_most_cycles_first_and_leaves_out_the_runtime() {
        let mut measured = std::collections::BTreeMap::new();
        let mut add = |name: &str, interpreted, coups, settles| {
            if placeable(name) {
                measured.insert(name.to_string(), Measured { interpreted, settles, coups, calls: 1 });
            }
        };
        add("a::cold", true, 5, 0);
        add("<C128 as Keys>::hurry", true, 900, 0);
        add("rt_poprun", false, 10_000, 0);
        add("(frame waits)", false, 10_000, 0);
        add("b::drawn", false, 900, 40);
        let text = audit_text("40", 100, &measured);
        assert!(text.starts_with("# The measure behind firmware/game-prg/placement.toml"), "{text}");
        let names: Vec<&str> = text.lines().filter_map(|l| l.strip_prefix("name = ")).collect();
        assert_eq!(names, ["\"b::drawn\"", "\"<C128 as Keys>::hurry\"", "\"a::cold\""]);
        assert!(text.contains(
            "name = \"b::drawn\"\nplaced = \"translated\"\ncoup_cycles = 900\nsettle_cycles = 40\ncoup_calls = 1\n"
        ));
    }
}
