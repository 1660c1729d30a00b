//! `avr2mos`: the translator from the command line (a thin shell over the library; the
//! project's own entry point is `bac prg`).

use std::path::PathBuf;
use std::process::ExitCode;

use avr2mos::OptLevel;
use avr2mos::pipeline::{self, BuildOptions};
use clap::{Parser, Subcommand};

#[derive(Parser)]
#[command(version, about = "AVR (avr5) ELF files and no_std crates to Commodore 128 programs")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Builds a no_std crate for avr-none and translates it to a .prg (with .map and .lst).
    Build {
        /// The crate's Cargo.toml.
        #[arg(long)]
        manifest_path: PathBuf,
        /// The bin target, if the crate has several.
        #[arg(long)]
        bin: Option<String>,
        /// Where to write the .prg.
        #[arg(short, long)]
        out: Option<PathBuf>,
        /// Cargo's target directory.
        #[arg(long)]
        target_dir: Option<PathBuf>,
        /// 0: each AVR instruction on its own (for hunting a miscompile); 1: optimised.
        #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u8).range(0..=1))]
        opt_level: u8,
    },
    /// Translates a linked AVR ELF file (linked with --emit-relocs) to a .prg.
    Translate {
        /// The ELF file.
        elf: PathBuf,
        /// Where to write the .prg (default: the ELF's name with .prg).
        #[arg(short, long)]
        out: Option<PathBuf>,
        /// The memory mode (a crate's `[package.metadata.c128] memory`): kernal or all-ram.
        #[arg(long, default_value = "kernal", value_parser = ["kernal", "all-ram"])]
        memory: String,
        /// 0: each AVR instruction on its own (for hunting a miscompile); 1: optimised.
        #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u8).range(0..=1))]
        opt_level: u8,
    },
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Build { manifest_path, bin, out, target_dir, opt_level } => {
            let opt_level = OptLevel::from_number(opt_level).unwrap_or_default();
            pipeline::build_prg(&BuildOptions { manifest_path, bin, out, target_dir, quiet: false, opt_level })
                .map(|r| (r.prg, r.stats))
        }
        Command::Translate { elf, out, memory, opt_level } => {
            let memory = avr2mos::mmap::MemoryMode::from_name(&memory).unwrap_or_default();
            let opt_level = OptLevel::from_number(opt_level).unwrap_or_default();
            pipeline::translate_elf_with(&elf, &avr2mos::Options { memory, opt_level, ..Default::default() })
        }
        .and_then(|t| {
            let prg = out.unwrap_or_else(|| elf.with_extension("prg"));
            pipeline::write_atomic(&prg.with_extension("map"), t.map.as_bytes())?;
            pipeline::write_atomic(&prg.with_extension("lst"), t.listing.as_bytes())?;
            pipeline::write_atomic(&prg, &t.prg)?;
            Ok((prg, t.stats))
        }),
    };
    match result {
        Ok((prg, s)) => {
            println!("{}: {s}", prg.display());
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("avr2mos: {e}");
            ExitCode::FAILURE
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    #[test]
    fn cli_is_well_formed() {
        Cli::command().debug_assert();
    }
}
