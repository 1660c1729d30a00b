//! `bac`: the bac128 command line. Every subcommand is a thin layer over a library crate.

mod analyze;
mod bad_input;
mod bench;
mod choice;
mod disk_cmd;
mod firmware;
mod game_run;
mod host_game;
mod play;
mod prg_cmd;
mod profile_cmd;
mod rules_args;
mod run_cmd;
mod sim;
mod terminal;
mod verify;

use clap::{Parser, Subcommand};
use std::process::ExitCode;

/// Baccarat for the Commodore 128: odds, simulation, builds and the emulator.
#[derive(Parser, Debug)]
#[command(name = "bac", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Exact odds, house edges and the optimal strategy, by enumeration of a full shoe.
    Analyze(analyze::AnalyzeArgs),
    /// Monte-Carlo play of whole shoes with the real end-of-shoe policy.
    Sim(sim::SimArgs),
    /// Play Baccarat at the terminal (the game's own code), or a .prg or .d81 in the built-in C128.
    Play(play::PlayArgs),
    /// Measure the speed figures docs/speed.md reports.
    Bench(bench::BenchArgs),
    /// Profile the game's settle (last card to the settled screen) function by function.
    Profile(profile_cmd::ProfileArgs),
    /// Build a no_std crate (using c128-rt) into a C128 .prg.
    Prg(prg_cmd::PrgArgs),
    /// Run a .prg or boot a .d81 in the built-in C128; exits with the program's code.
    Run(run_cmd::RunArgs),
    /// Run the rules on the C128 (translated) and on the host, and compare them.
    Verify(verify::VerifyArgs),
    /// Build the game's .d81 and inspect or change disk images.
    Disk(disk_cmd::DiskArgs),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Run(args) => return finish(run_cmd::run(args).map(ExitCode::from)),
        Command::Analyze(args) => analyze::run(args),
        Command::Prg(args) => prg_cmd::run(args),
        Command::Sim(args) => sim::run(args),
        Command::Play(args) => play::run(args),
        Command::Bench(args) => bench::run(args),
        Command::Profile(args) => profile_cmd::run(args),
        Command::Verify(args) => verify::run(args),
        Command::Disk(args) => disk_cmd::run(args),
    };
    finish(result.map(|()| ExitCode::SUCCESS))
}

fn finish(result: anyhow::Result<ExitCode>) -> ExitCode {
    match result {
        Ok(code) => code,
        Err(error) => {
            eprintln!("bac: {error:#}");
            if error.downcast_ref::<bad_input::BadInput>().is_some() {
                ExitCode::from(bad_input::EXIT_CODE)
            } else {
                ExitCode::FAILURE
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use clap::CommandFactory;

    #[test]
    fn the_command_line_is_well_formed() {
        super::Cli::command().debug_assert();
    }
}
