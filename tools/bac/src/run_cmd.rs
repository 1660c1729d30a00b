//! `bac run`: a `.prg` or a `.d81` in the built-in C128, its output on stdout, its exit
//! code as ours.

use anyhow::{Context, Result, bail};
use c128_emu::{Config, Program, RunOptions, Screen, start};
use clap::Args;
use std::path::PathBuf;

/// `bac run` options.
#[derive(Args, Debug)]
#[command(after_help = "\
KEYS: text is typed as it stands; named keys go in braces: {RETURN}, {F1}..{F8}, {DOWN}, {UP},
{LEFT}, {RIGHT}, {HOME}, {CLR}, {DEL}, {ESC}, {RUN/STOP}, ... and {WAIT 50} waits 50 frames.
An unknown name is an error.

A .d81 boots as a C128 does at power-on: the boot sector on track 1 sector 0 runs (its
RUN\"NAME\" is honoured); without one, the first program file is loaded and run.

The exit code is the program's: the value it wrote to $D7FF (VICE's debug cartridge), or 0
if it returned to BASIC. With --keys, a program that never ends is stopped a second after
the last key (exit code 0), so that --screenshot shows where the keys led. A run that goes wrong (BRK, a jammed CPU, the cycle budget spent,
...) prints the machine state and exits with 1.")]
pub struct RunArgs {
    /// The program (.prg) or disk image (.d81).
    file: PathBuf,
    /// Keys to type while it runs.
    #[arg(long)]
    keys: Option<String>,
    /// The cycle budget.
    #[arg(long, default_value_t = Config::default().max_cycles)]
    max_cycles: u64,
    /// Write a PNG of the screen when the program ends (the active one, or --40/--80).
    #[arg(long, value_name = "OUT.png")]
    screenshot: Option<PathBuf>,
    /// The 40-column (VIC-IIe) screen for the screenshot.
    #[arg(long = "40", conflicts_with = "eighty")]
    forty: bool,
    /// Start with the 40/80 key down (80 columns) and screenshot the VDC screen.
    #[arg(long = "80")]
    eighty: bool,
}

/// For a program built by `bac prg`, the listing beside it (`NAME.lst`) names the AVR
/// instruction each 6502 address came from, so that a crash report says where in the Rust.
fn listing_map(program: &std::path::Path) -> Option<c128_emu::SourceMap> {
    let listing = std::fs::read_to_string(program.with_extension("lst")).ok()?;
    Some(Box::new(move |pc| avr2mos::emit::listing::origin_of(&listing, pc).map(|origin| origin.to_string())))
}

/// A `.d81` is recognised by its size, whatever its name.
const D81_SIZE: usize = 819_200;

/// What `file` holds: a disk image (by size or by name) or a program.
pub fn program_of<'a>(file: &std::path::Path, bytes: &'a [u8], origin: &'a str) -> Program<'a> {
    let is_disk = bytes.len() == D81_SIZE || file.extension().is_some_and(|e| e.eq_ignore_ascii_case("d81"));
    if is_disk { Program::D81 { image: bytes, origin } } else { Program::Prg(bytes) }
}

/// The screen `--40`/`--80` ask for, or `None` for the active one.
pub fn screen_choice(forty: bool, eighty: bool) -> Option<Screen> {
    match (forty, eighty) {
        (true, _) => Some(Screen::Forty),
        (_, true) => Some(Screen::Eighty),
        _ => None,
    }
}

/// Runs `bac run`, returning the program's exit code.
pub fn run(args: RunArgs) -> Result<u8> {
    let bytes = std::fs::read(&args.file).with_context(|| format!("reading {}", args.file.display()))?;
    if bytes.is_empty() {
        bail!("{} is empty", args.file.display());
    }
    // With a key script, a program that never ends (a game) stops 50 frames (a second)
    // after the last key, so that `--keys ... --screenshot` shows where the keys led.
    let stop_frames_after_keys = args.keys.as_ref().map(|_| 50);
    let config = Config {
        max_cycles: args.max_cycles,
        eighty_columns: args.eighty,
        stop_frames_after_keys,
        ..Config::default()
    };
    let options =
        RunOptions { config, keys: args.keys.clone(), source_map: listing_map(&args.file), ..RunOptions::default() };
    let origin = args.file.display().to_string();
    let program = program_of(&args.file, &bytes, &origin);
    let mut machine = start(program, options).with_context(|| format!("starting {origin}"))?;
    let result = machine.run();
    print!("{}", machine.output_text());
    // The screenshot is written however the run ended: after a crash it shows where.
    if let Some(path) = &args.screenshot {
        machine
            .save_screenshot(screen_choice(args.forty, args.eighty), path)
            .with_context(|| format!("writing {}", path.display()))?;
    }
    let exit = result.with_context(|| format!("running {origin}"))?;
    Ok(exit.code)
}
