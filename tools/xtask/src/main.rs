//! `cargo xtask`: the project's chores.
//!
//! - `cargo xtask test`: installs what the tests need on a fresh machine, then runs them.
//! - `cargo xtask ci`: what CI runs: formatting, clippy, the tests, and the AVR build of the
//!   rules crate with its check that no floating-point or 64-bit division helpers creep in.
//! - `cargo xtask avr`: only the AVR build check.
//! - `cargo xtask firmware`: formatting and clippy for the crates outside the workspace
//!   (the runtime, the game's program, the test programs), built for `avr-none`.
//! - `cargo xtask doc`: the workspace's documentation, warnings denied.
//! - `cargo xtask vice`: the real-VICE check (`emulator-tests/vice/run.sh`: VICE 3.9's x128
//!   in headless Chromium boots the disks we build, test programs and the game, plays a
//!   coup, and its screens are compared with ours).

mod avr;
mod firmware;
mod setup;

use anyhow::{Context, Result, bail};
use std::process::{Command, ExitCode};

fn main() -> ExitCode {
    let task = std::env::args().nth(1).unwrap_or_default();
    let result = match task.as_str() {
        "test" => setup::system_packages().and_then(|()| test()),
        "ci" => ci(),
        "avr" => avr::check(),
        "firmware" => firmware::check(),
        "doc" => doc(),
        "vice" => vice(),
        "setup" => setup::system_packages(),
        _ => {
            eprintln!("usage: cargo xtask <test|ci|avr|firmware|doc|vice|setup>");
            return ExitCode::from(2);
        }
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("xtask {task}: {error:#}");
            ExitCode::FAILURE
        }
    }
}

/// Runs `cargo` with `args` in the workspace root, failing on a non-zero exit.
pub fn cargo(args: &[&str]) -> Result<()> {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_string());
    eprintln!("$ cargo {}", args.join(" "));
    let status = Command::new(cargo)
        .args(args)
        .current_dir(workspace_root())
        .status()
        .with_context(|| format!("running cargo {}", args.join(" ")))?;
    if !status.success() {
        bail!("cargo {} failed ({status})", args.join(" "));
    }
    Ok(())
}

/// The repository's top level.
pub fn workspace_root() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn test() -> Result<()> {
    cargo(&["test", "--workspace", "--all-targets"])
}

fn ci() -> Result<()> {
    setup::system_packages()?;
    cargo(&["fmt", "--all", "--check"])?;
    cargo(&["clippy", "--workspace", "--all-targets", "--", "-D", "warnings"])?;
    firmware::check()?;
    doc()?;
    test()?;
    avr::check()?;
    vice()
}

/// The workspace's documentation with rustdoc's warnings (broken links among them) denied.
fn doc() -> Result<()> {
    let previous = std::env::var("RUSTDOCFLAGS").unwrap_or_default();
    let flags = format!("{previous} -D warnings");
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_string());
    eprintln!("$ RUSTDOCFLAGS='{}' cargo doc --workspace --no-deps", flags.trim());
    let status = Command::new(cargo)
        .args(["doc", "--workspace", "--no-deps"])
        .env("RUSTDOCFLAGS", flags.trim())
        .current_dir(workspace_root())
        .status()
        .context("running cargo doc")?;
    if !status.success() {
        bail!("cargo doc failed ({status})");
    }
    Ok(())
}

/// The real-VICE check; the script installs Chromium and its npm packages itself.
fn vice() -> Result<()> {
    let script = workspace_root().join("emulator-tests/vice/run.sh");
    eprintln!("$ bash {}", script.display());
    let status = Command::new("bash").arg(&script).status().context("running the VICE check")?;
    if !status.success() {
        bail!("the VICE check failed ({status})");
    }
    Ok(())
}
