//! `bac profile`: where the game spends the time the player waits for, function by
//! function, in the built-in C128.
//!
//! Builds the game as `bac bench` does and plays the same coups (see `game_run`); for the
//! settle of the shoe's first and 30th coup, in 40 and 80 columns, prints the functions
//! that took the most cycles (their own code, not their callees'), how often each was
//! entered and whether it runs translated or through the interpreter; and for a whole coup
//! the share of the AVR instructions that ran translated.

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
    for (columns, eighty) in [("40", false), ("80", true)] {
        if args.columns.as_deref().is_some_and(|c| c != columns) {
            continue;
        }
        let run = crate::game_run::play(&built, eighty, true)?;
        if let Some((first, thirtieth)) = &run.settles {
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
        println!();
    }
    Ok(())
}
