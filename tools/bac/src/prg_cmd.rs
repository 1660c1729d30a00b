//! `bac prg`: any `no_std` crate that uses `c128-rt` becomes a C128 `.prg`.

use anyhow::{Context, Result};
use avr2mos::OptLevel;
use avr2mos::pipeline::{BuildOptions, build_prg};
use clap::Args;
use std::path::{Path, PathBuf};

/// `bac prg` options.
#[derive(Args, Debug)]
#[command(after_help = "\
The crate is built for avr-none with the pinned nightly (build-std), linked by rust-lld with
its relocations kept, and translated to 6502 code. Next to the .prg go its symbol map (.map)
and listing (.lst: every AVR instruction, the 6502 bytes it became and their cycles).
--opt-level 0 gives the plain translation, one AVR instruction at a time.")]
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
    /// Cargo's target directory for the AVR build (default: for a crate of this repository
    /// the one every C128 build of it shares, under `target/c128-avr/`, so `core` is built
    /// once; for any other crate its own `target/`).
    #[arg(long)]
    target_dir: Option<PathBuf>,
    /// 0: each AVR instruction translated on its own, nothing carried across instructions
    /// (for hunting a miscompile: compare with 1); 1: the optimising translation.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u8).range(0..=1))]
    opt_level: u8,
}

/// Runs `bac prg`.
pub fn run(args: PrgArgs) -> Result<()> {
    let target_dir = match args.target_dir {
        Some(dir) => Some(dir),
        None => repository_target(&args.manifest_path)?,
    };
    let options = BuildOptions {
        manifest_path: args.manifest_path.clone(),
        bin: args.bin,
        out: args.out,
        target_dir,
        quiet: false,
        opt_level: OptLevel::from_number(args.opt_level).unwrap_or_default(),
    };
    let report = build_prg(&options).with_context(|| format!("building {}", args.manifest_path.display()))?;
    println!("{}", report.prg.display());
    eprintln!("{}", report.stats);
    Ok(())
}

/// The shared target directory ([`bac_harness::build::shared_target`]) when `manifest` is a
/// crate of this repository; `None` (cargo's choice) for any other.
fn repository_target(manifest: &Path) -> Result<Option<PathBuf>> {
    let canonical = |p: &Path| std::fs::canonicalize(p).ok();
    let (Some(crate_path), Some(root)) = (canonical(manifest), canonical(&bac_harness::build::repo_root())) else {
        return Ok(None);
    };
    if !crate_path.starts_with(root) {
        return Ok(None);
    }
    Ok(Some(bac_harness::build::shared_target(manifest).with_context(|| format!("reading {}", manifest.display()))?))
}
