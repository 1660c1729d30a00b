//! `bac prg`: any `no_std` crate that uses `c128-rt` becomes a C128 `.prg`.

use anyhow::{Context, Result};
use avr2mos::pipeline::{BuildOptions, build_prg};
use clap::Args;
use std::path::PathBuf;

/// `bac prg` options.
#[derive(Args, Debug)]
#[command(after_help = "\
The crate is built for avr-none with the pinned nightly (build-std), linked by rust-lld with
its relocations kept, and translated to 6502 code. Next to the .prg go its symbol map (.map)
and listing (.lst: every AVR instruction, the 6502 bytes it became and their cycles).")]
pub struct PrgArgs {
    /// The crate's Cargo.toml.
    #[arg(long, value_name = "CRATE/Cargo.toml")]
    manifest_path: PathBuf,
    /// The bin target, if the crate has several.
    #[arg(long)]
    bin: Option<String>,
    /// Where to write the program (default: beside the AVR executable, NAME.prg).
    #[arg(short, long, value_name = "OUT.prg")]
    out: Option<PathBuf>,
    /// Cargo's target directory for the AVR build.
    #[arg(long)]
    target_dir: Option<PathBuf>,
}

/// Runs `bac prg`.
pub fn run(args: PrgArgs) -> Result<()> {
    let options = BuildOptions {
        manifest_path: args.manifest_path.clone(),
        bin: args.bin,
        out: args.out,
        target_dir: args.target_dir,
        quiet: false,
    };
    let report = build_prg(&options).with_context(|| format!("building {}", args.manifest_path.display()))?;
    println!("{}", report.prg.display());
    eprintln!("{}", report.stats);
    Ok(())
}
