//! `bac play`: the game's disk, or any `.prg`/`.d81`, in the built-in C128 at the terminal;
//! or, with `--host`, the game's own code (`bac-game`) compiled for this machine.
//!
//! Without a file it builds the game and `target/bac.d81` and boots that: the program a
//! C128 owner loads, 6502 code and all. A disk the program wrote to (the game's save) is
//! written back when the play ends.

use anyhow::Result;
use clap::Args;

/// `bac play` options.
#[derive(Args, Debug)]
#[command(after_help = "\
Without FILE the game is built (firmware/game-prg and target/bac.d81, keeping a save already
on that disk) and the built-in C128 boots it; with FILE (a .prg or a .d81) it runs that. Keys
go to the C128 keyboard (Esc is RUN/STOP, F1-F8 the function keys); Ctrl+Q or F12 leaves.
What the program wrote to a .d81 (the bankrolls the game saves when you quit) is written
back to the image.

With --host you play the game's own code (bac-game) compiled for this machine instead, with
its saves in --save-dir; --keys plays a key script that way and prints the screen it led to, then the last one.")]
pub struct PlayArgs {
    /// A .prg or .d81 to run in the built-in C128.
    file: Option<std::path::PathBuf>,
    /// Show the 40-column (VIC-IIe) screen.
    #[arg(long = "40", conflicts_with = "eighty")]
    forty: bool,
    /// Start with the 40/80 key down and show the 80-column (VDC) screen.
    #[arg(long = "80")]
    eighty: bool,
    /// Play bac-game compiled for this machine, not the C128 program.
    #[arg(long, conflicts_with = "file")]
    host: bool,
    /// With --host: play these keys (as `bac run --keys` spells them) with no terminal,
    /// then print the screen they led to and the last one.
    #[arg(long, requires = "host")]
    keys: Option<String>,
    /// With --host: where saved bankrolls live (default: $XDG_DATA_HOME/bac128).
    #[arg(long, requires = "host")]
    save_dir: Option<std::path::PathBuf>,
}

/// Runs `bac play`.
pub fn run(args: PlayArgs) -> Result<()> {
    if let Some(file) = &args.file {
        return play_file(file, &args);
    }
    if !args.host {
        let disk = crate::disk_cmd::build_game_disk()?;
        return play_file(&disk, &args);
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
    use c128_emu::{Config, RunOptions, start};
    let bytes = std::fs::read(file).with_context(|| format!("reading {}", file.display()))?;
    // The TOD clock starts at the time of day, as after a real power-on and a clock setting,
    // so that programs seeding their generator from it differ from run to run.
    let tenths = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_millis() / 100);
    let config =
        Config { eighty_columns: args.eighty, tod_start_tenths: (tenths % 864_000) as u64, ..Config::default() };
    let origin = file.display().to_string();
    let machine = start(program_of(file, &bytes, &origin), RunOptions { config, ..RunOptions::default() })
        .with_context(|| format!("starting {origin}"))?;
    let machine = crate::terminal::play(machine, screen_choice(args.forty, args.eighty))?;
    // Keep what the program wrote to its disk, as a real drive would.
    if let Some(image) = machine.disk_image().filter(|image| image.as_slice() != bytes.as_slice()) {
        let disk = d81::Disk::from_bytes(&image).with_context(|| format!("the disk left in drive 8 ({origin})"))?;
        disk.save(file).with_context(|| format!("writing {} back", file.display()))?;
        println!("Wrote what the program saved back to {}.", file.display());
    }
    Ok(())
}
