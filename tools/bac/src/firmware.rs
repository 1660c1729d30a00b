//! Building the repository's own C128 programs (`firmware/<name>`) through the pipeline,
//! into one shared target directory, `target/c128`, so that `bac verify` and `bac bench`
//! reuse each other's build of `core` and the rules.

use anyhow::{Context, Result};
use std::path::{Path, PathBuf};

/// The repository this `bac` was built from.
pub fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// Builds `firmware/<crate_dir>` into `target/c128/<prg_name>.prg` and returns its bytes.
pub fn build(crate_dir: &str, prg_name: &str) -> Result<Vec<u8>> {
    let target = repo_root().join("target/c128");
    let report = bac_harness::build::program(&format!("firmware/{crate_dir}"), prg_name, &target)
        .with_context(|| format!("building firmware/{crate_dir}"))?;
    std::fs::read(&report.prg).with_context(|| format!("reading {}", report.prg.display()))
}

/// The game's crate, in `firmware/`.
const GAME_CRATE: &str = "game-prg";

/// The game's `Cargo.toml`, whose `[package.metadata.c128]` says how it is built.
pub fn game_manifest() -> PathBuf {
    repo_root().join("firmware").join(GAME_CRATE).join("Cargo.toml")
}

/// Builds the game (`firmware/game-prg`) into `target/c128/bac.prg`, with its bank-1 file
/// `bac-bank1.prg` and its boot stage `bac-boot.prg` beside it, and returns the `.prg`'s
/// path.
pub fn build_game() -> Result<PathBuf> {
    build(GAME_CRATE, "bac")?;
    Ok(repo_root().join("target/c128/bac.prg"))
}
