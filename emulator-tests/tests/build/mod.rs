//! Building the repository's C128 programs for the tests: through the same pipeline as
//! `bac prg`, each into its own directory under the tests' target directory.

#![allow(dead_code)]

use avr2mos::pipeline::{BuildOptions, BuildReport, build_prg};
use std::path::{Path, PathBuf};

/// Builds the crate in `crate_dir` (relative to the repository root) into
/// `$CARGO_TARGET_TMPDIR/<name>/<name>.prg`. A failed build fails the test with the
/// pipeline's message.
pub fn program(crate_dir: &str, name: &str) -> BuildReport {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let target = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(name);
    let options = BuildOptions {
        manifest_path: root.join(crate_dir).join("Cargo.toml"),
        bin: None,
        out: Some(target.join(format!("{name}.prg"))),
        target_dir: Some(target),
        quiet: true,
    };
    build_prg(&options).unwrap_or_else(|e| {
        let cause = std::error::Error::source(&e).map(|c| format!(": {c}")).unwrap_or_default();
        panic!("building {crate_dir}: {e}{cause}")
    })
}

/// The bytes of a built program.
pub fn bytes(report: &BuildReport) -> Vec<u8> {
    std::fs::read(&report.prg).unwrap_or_else(|e| panic!("{}: {e}", report.prg.display()))
}
