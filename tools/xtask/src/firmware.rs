//! The crates the host workspace leaves out, checked as the workspace is: the C128-only
//! crates (the runtime, the game's program, the test programs) have their own target, so a
//! workspace-wide `cargo fmt` or `cargo clippy` never sees them. Each is formatted and
//! linted here, for `avr-none` with `build-std` as `bac prg` builds it, warnings denied;
//! the cc65 reference, a host crate in a workspace of its own, is linted for the host.

use crate::{cargo, workspace_root};
use anyhow::{Context, Result};
use std::path::{Path, PathBuf};

/// Host crates outside the workspace (each declares a `[workspace]` of its own).
const OWN_WORKSPACES: &[&str] = &["emulator-tests/cc65/reference"];

/// Every crate in the root manifest's `workspace.exclude`, a listed folder without a
/// manifest standing for every crate directly inside it (`emulator-tests/programs`).
pub fn excluded_crates(root: &Path) -> Result<Vec<PathBuf>> {
    let manifest = root.join("Cargo.toml");
    let text = std::fs::read_to_string(&manifest).with_context(|| format!("reading {}", manifest.display()))?;
    let value: toml::Table = toml::from_str(&text).with_context(|| format!("parsing {}", manifest.display()))?;
    let excluded = value
        .get("workspace")
        .and_then(|w| w.get("exclude"))
        .and_then(|e| e.as_array())
        .context("the root manifest has no workspace.exclude")?;
    let mut crates = Vec::new();
    for entry in excluded {
        let dir = root.join(entry.as_str().context("workspace.exclude holds a non-string")?);
        if dir.join("Cargo.toml").is_file() {
            crates.push(dir);
            continue;
        }
        let mut inside: Vec<PathBuf> = std::fs::read_dir(&dir)
            .with_context(|| format!("reading {}", dir.display()))?
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.join("Cargo.toml").is_file())
            .collect();
        inside.sort();
        crates.extend(inside);
    }
    Ok(crates)
}

/// `cargo fmt --check` and `cargo clippy -D warnings` on every crate outside the workspace.
pub fn check() -> Result<()> {
    let root = workspace_root();
    let target = root.join("target/firmware-check");
    let target = target.to_str().context("the target directory's path is not UTF-8")?;
    for dir in excluded_crates(&root)? {
        let manifest = dir.join("Cargo.toml");
        let manifest = manifest.to_str().context("a crate's path is not UTF-8")?;
        cargo(&["fmt", "--check", "--manifest-path", manifest])?;
        cargo(&[
            "clippy",
            "--quiet",
            "--manifest-path",
            manifest,
            "--target",
            "avr-none",
            "-Z",
            "build-std=core",
            "--target-dir",
            target,
            "--config",
            "target.avr-none.rustflags=[\"-C\", \"target-cpu=atmega328p\", \"-C\", \"panic=abort\"]",
            "--",
            "-D",
            "warnings",
        ])?;
    }
    for dir in OWN_WORKSPACES {
        let manifest = root.join(dir).join("Cargo.toml");
        let manifest = manifest.to_str().context("a crate's path is not UTF-8")?;
        cargo(&["fmt", "--check", "--manifest-path", manifest])?;
        cargo(&["clippy", "--quiet", "--manifest-path", manifest, "--target-dir", target, "--", "-D", "warnings"])?;
    }
    Ok(())
}
