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
/// `<out_dir>/<name>.prg` (with its `.map`, `.lst` and any bank-1 file beside it), with
/// the [`shared_target`] as cargo's target directory.
pub fn program(crate_dir: &str, name: &str, out_dir: &Path) -> Result<BuildReport, PipelineError> {
    bin(crate_dir, None, name, out_dir)
}

/// [`program`] for the bin target `bin` of a crate with several (`None`: its only one).
pub fn bin(crate_dir: &str, bin: Option<&str>, name: &str, out_dir: &Path) -> Result<BuildReport, PipelineError> {
    bin_at(crate_dir, bin, name, out_dir, avr2mos::OptLevel::Full)
}

/// [`bin`] translated at `opt_level` (the benchmark suite measures `--opt-level 0` too).
pub fn bin_at(
    crate_dir: &str,
    bin: Option<&str>,
    name: &str,
    out_dir: &Path,
    opt_level: avr2mos::OptLevel,
) -> Result<BuildReport, PipelineError> {
    let target_dir = shared_target(&repo_root().join(crate_dir).join("Cargo.toml"))?;
    program_into_at(crate_dir, bin, &out_dir.join(format!("{name}.prg")), &target_dir, opt_level)
}

/// Builds the bin target `bin` (`None`: the only one) of the crate in `crate_dir`
/// (relative to the repository root) into `out` (with its `.map`, `.lst` and any bank-1
/// file beside it), with `target_dir` as cargo's target directory: programs built in one
/// target directory share their `core` (see [`shared_target`]).
pub fn program_into(
    crate_dir: &str,
    bin: Option<&str>,
    out: &Path,
    target_dir: &Path,
) -> Result<BuildReport, PipelineError> {
    program_into_at(crate_dir, bin, out, target_dir, avr2mos::OptLevel::Full)
}

/// [`program_into`] translated at `opt_level`.
fn program_into_at(
    crate_dir: &str,
    bin: Option<&str>,
    out: &Path,
    target_dir: &Path,
    opt_level: avr2mos::OptLevel,
) -> Result<BuildReport, PipelineError> {
    let options = BuildOptions {
        manifest_path: repo_root().join(crate_dir).join("Cargo.toml"),
        bin: bin.map(str::to_string),
        out: Some(out.to_path_buf()),
        target_dir: Some(target_dir.to_path_buf()),
        quiet: true,
        opt_level,
    };
    build_prg(&options)
}

/// Cargo's target directory for a crate of this repository built for the C128:
/// `target/c128-avr/` and the crate's panic strategy
/// ([`avr2mos::pipeline::shared_target_dir`]), the same for the tests, `bac prg`, `bac disk
/// build` and the examples, so that a run of them all builds `core` for `avr-none` once per
/// strategy.
pub fn shared_target(manifest: &Path) -> Result<PathBuf, PipelineError> {
    avr2mos::pipeline::shared_target_dir(&repo_root().join("target/c128-avr"), manifest)
}

/// The game's disk as `bac disk build` makes it: `disk/bac.toml` with `prg` (the built
/// game, its bank-1 file beside it) as the game.
pub fn game_disk(prg: &Path) -> Result<d81::Disk, d81::ManifestError> {
    d81::Manifest::load(&repo_root().join("disk/bac.toml")).and_then(|m| m.build(Some(prg)))
}
