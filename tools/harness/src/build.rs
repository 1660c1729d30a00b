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
    bin_at(crate_dir, bin, name, target, avr2mos::OptLevel::Full)
}

/// [`bin`] translated at `opt_level` (the benchmark suite measures `--opt-level 0` too).
pub fn bin_at(
    crate_dir: &str,
    bin: Option<&str>,
    name: &str,
    target: &Path,
    opt_level: avr2mos::OptLevel,
) -> Result<BuildReport, PipelineError> {
    program_into_at(crate_dir, bin, &target.join(format!("{name}.prg")), target, opt_level)
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

/// The target directory under `tmp` that every test build of `manifest`'s kind shares, so
/// that a run builds `core` for `avr-none` once per profile instead of once per program:
/// one per panic strategy, since the strategy is a flag in the build's RUSTFLAGS and
/// cargo rebuilds what a change of RUSTFLAGS touches (programs that alternated in one
/// directory would rebuild `core` each time).
pub fn shared_target(tmp: &Path, manifest: &Path) -> Result<PathBuf, PipelineError> {
    Ok(tmp.join(match avr2mos::pipeline::panic_strategy(manifest)? {
        avr2mos::pipeline::PanicStrategy::Message => "avr-panic-message",
        avr2mos::pipeline::PanicStrategy::ImmediateAbort => "avr-panic-immediate-abort",
    }))
}

/// The game's disk as `bac disk build` makes it: `disk/bac.toml` with `prg` (the built
/// game, its bank-1 file beside it) as the game.
pub fn game_disk(prg: &Path) -> Result<d81::Disk, d81::ManifestError> {
    d81::Manifest::load(&repo_root().join("disk/bac.toml")).and_then(|m| m.build(Some(prg)))
}
