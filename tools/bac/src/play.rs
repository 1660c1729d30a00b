//! `bac play`: the game at the terminal, or a `.prg`/`.d81` in the built-in C128.
//!
//! Without a file it plays `bac-game`, the same code the C128 program runs, on the
//! terminal; with a file the built-in C128 runs it and the terminal shows its screen.

use anyhow::Result;
use clap::Args;

/// `bac play` options.
#[derive(Args, Debug)]
#[command(after_help = "\
Without FILE you play Baccarat at the terminal: the game's own code (bac-game, which the C128
program runs) with its title, options, table and help. Esc is RUN/STOP, F1-F8 the function
keys, Ctrl+Q or F12 quits (saving the bankrolls). With FILE (a .prg or a .d81) the built-in
C128 runs it in the terminal: keys go to the C128 keyboard, Ctrl+Q or F12 quits.")]
pub struct PlayArgs {
    /// A .prg or .d81 to run in the built-in C128.
    file: Option<std::path::PathBuf>,
    /// Show the 40-column (VIC-IIe) screen.
    #[arg(long = "40", conflicts_with = "eighty")]
    forty: bool,
    /// Start with the 40/80 key down and show the 80-column (VDC) screen.
    #[arg(long = "80")]
    eighty: bool,
    /// Without FILE: play these keys (as `bac run --keys` spells them) with no terminal,
    /// then print the last screen.
    #[arg(long, conflicts_with = "file")]
    keys: Option<String>,
    /// Without FILE: where saved bankrolls live (default: $XDG_DATA_HOME/bac128).
    #[arg(long, conflicts_with = "file")]
    save_dir: Option<std::path::PathBuf>,
}

/// Runs `bac play`.
pub fn run(args: PlayArgs) -> Result<()> {
    if let Some(file) = &args.file {
        return play_file(file, &args);
    }
    let save_dir = args.save_dir.clone().unwrap_or_else(crate::host_game::default_save_dir);
    let columns = if args.forty {
        Some(40)
    } else if args.eighty {
        Some(80)
    } else {
        None
    };
    match &args.keys {
        Some(keys) => {
            let screen = crate::host_game::play_script(columns.unwrap_or(40), keys, &save_dir)?;
            print!("{screen}");
            Ok(())
        }
        None => crate::host_game::play(columns, &save_dir),
    }
}

/// Starts `file` in a fresh C128 and hands it to the terminal front end.
fn play_file(file: &std::path::Path, args: &PlayArgs) -> Result<()> {
    use crate::run_cmd::{program_of, screen_choice};
    use anyhow::Context;
    use emulator_tests::{Config, RunOptions, start};
    let bytes = std::fs::read(file).with_context(|| format!("reading {}", file.display()))?;
    // The TOD clock starts at the time of day, as after a real power-on and a clock setting,
    // so that programs seeding their generator from it differ from run to run.
    let tenths = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_millis() / 100);
    let config =
        Config { eighty_columns: args.eighty, tod_start_tenths: (tenths % 864_000) as u64, ..Config::default() };
    let origin = file.display().to_string();
    let machine = start(program_of(file, &bytes, &origin), RunOptions { config, ..RunOptions::default() })
        .with_context(|| format!("starting {origin}"))?;
    crate::terminal::play(machine, screen_choice(args.forty, args.eighty))
}
