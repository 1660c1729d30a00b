//! The tests' side of [`bac_harness::build`]: each program in its own directory under the
//! tests' target directory, and a failed build fails the test with the pipeline's message.

use avr2mos::pipeline::BuildReport;
use std::path::PathBuf;

/// Builds the crate in `crate_dir` (relative to the repository root) into
/// `$CARGO_TARGET_TMPDIR/<name>/<name>.prg`.
pub fn program(crate_dir: &str, name: &str) -> BuildReport {
    let target = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(name);
    bac_harness::build::program(crate_dir, name, &target).unwrap_or_else(|e| {
        let cause = std::error::Error::source(&e).map(|c| format!(": {c}")).unwrap_or_default();
        panic!("building {crate_dir}: {e}{cause}")
    })
}

/// The bytes of a built program.
pub fn bytes(report: &BuildReport) -> Vec<u8> {
    std::fs::read(&report.prg).unwrap_or_else(|e| panic!("{}: {e}", report.prg.display()))
}
