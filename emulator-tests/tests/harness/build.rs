//! The tests' side of [`bac_harness::build`]: each program's files in its own directory
//! under the tests' target directory, cargo's builds in the target directory every C128
//! build of the repository shares ([`bac_harness::build::shared_target`]: `core` is built
//! once a run), and a failed build fails the test with the pipeline's message.

use avr2mos::pipeline::BuildReport;
use std::path::PathBuf;

/// Builds the crate in `crate_dir` (relative to the repository root) into
/// `$CARGO_TARGET_TMPDIR/<name>/<name>.prg`.
pub fn program(crate_dir: &str, name: &str) -> BuildReport {
    let tmp = PathBuf::from(env!("CARGO_TARGET_TMPDIR"));
    let out = tmp.join(name).join(format!("{name}.prg"));
    let manifest = bac_harness::build::repo_root().join(crate_dir).join("Cargo.toml");
    bac_harness::build::shared_target(&manifest)
        .and_then(|target| bac_harness::build::program_into(crate_dir, None, &out, &target))
        .unwrap_or_else(|e| {
            let cause = std::error::Error::source(&e).map(|c| format!(": {c}")).unwrap_or_default();
            panic!("building {crate_dir}: {e}{cause}")
        })
}

/// The bytes of a built program.
pub fn bytes(report: &BuildReport) -> Vec<u8> {
    std::fs::read(&report.prg).unwrap_or_else(|e| panic!("{}: {e}", report.prg.display()))
}
