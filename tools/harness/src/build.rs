//! Building the repository's C128 programs through the same pipeline as `bac prg`, and the
//! game's disk from `disk/bac.toml`: the one builder the tests and `bac` share.

use avr2mos::error::PipelineError;
use avr2mos::pipeline::{BuildOptions, BuildReport, build_prg};
use std::path::{Path, PathBuf};

/// The repository this harness was built from.
pub fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// Builds the crate in `crate_dir` (relative to the repository root) into
/// `<target>/<name>.prg` (with its `.map`, `.lst` and any bank-1 file beside it), using
/// `target` as cargo's target directory so that programs built together share `core`.
pub fn program(crate_dir: &str, name: &str, target: &Path) -> Result<BuildReport, PipelineError> {
    bin(crate_dir, None, name, target)
}

/// [`program`] for the bin target `bin` of a crate with several (`None`: its only one).
pub fn bin(crate_dir: &str, bin: Option<&str>, name: &str, target: &Path) -> Result<BuildReport, PipelineError> {
    let options = BuildOptions {
        manifest_path: repo_root().join(crate_dir).join("Cargo.toml"),
        bin: bin.map(str::to_string),
        out: Some(target.join(format!("{name}.prg"))),
        target_dir: Some(target.to_path_buf()),
        quiet: true,
        ..Default::default()
    };
    build_prg(&options)
}

/// The game's disk as `bac disk build` makes it: `disk/bac.toml` with `prg` (the built
/// game, its bank-1 file beside it) as the game.
pub fn game_disk(prg: &Path) -> Result<d81::Disk, d81::ManifestError> {
    d81::Manifest::load(&repo_root().join("disk/bac.toml")).and_then(|m| m.build(Some(prg)))
}
