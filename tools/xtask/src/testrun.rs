//! `cargo xtask test`: every test target of the workspace, built by one `cargo test
//! --no-run` and then run two binaries at a time.
//!
//! `cargo test` runs its test binaries one after another, and libtest runs the tests of one
//! binary on every core. Where a binary's last test is a long one (the translator's 16-bit
//! arithmetic, 200,000 pairs on the emulated 6502, about 80 s alone; `bac verify`'s
//! 100,000 coups) one core waits for it. Running [`jobs`] binaries side by side, the
//! longest first, keeps both cores busy: the same tests, the same binaries, the same
//! assertions, in less wall-clock time. Each binary runs as cargo runs it: in its
//! package's directory, with `CARGO`, `CARGO_MANIFEST_DIR`, `CARGO_MANIFEST_PATH` and
//! `CARGO_PKG_NAME` set; what it prints is shown in one block when it ends, and every
//! binary runs even after one fails (cargo's `--no-fail-fast`), so a CI run names every
//! failure at once.

use anyhow::{Context, Result, bail};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::Mutex;
use std::time::Instant;

use crate::workspace_root;

/// One test binary as `cargo test --no-run --message-format=json` reports it.
#[derive(Debug, Clone)]
struct TestBinary {
    /// The package it belongs to.
    package: String,
    /// The package's manifest.
    manifest: PathBuf,
    /// What cargo would call it: `tests/harness/main.rs`, `unittests src/lib.rs`, ...
    label: String,
    /// The executable.
    path: PathBuf,
}

/// What the build reports: the test binaries, and the `bac` command's executable built
/// alongside them (the CLI tests run it), which the VICE check can use too.
#[derive(Debug, Default)]
pub struct Built {
    binaries: Vec<TestBinary>,
    /// `target/debug/bac` as this build made it, when it did.
    pub bac: Option<PathBuf>,
}

/// Binaries that take the longest (from `cargo xtask ci`'s log), started first so that
/// the short ones fill the other core at the end: the emulator harness, the translator's
/// programs (the 16-bit arithmetic) and its interpreter, `bac verify`'s coups, the
/// instruction-level comparison.
const LONGEST_FIRST: &[&str] = &["harness", "programs", "interpreted", "verify", "instructions"];

/// How many test binaries run at once: one per core (each is libtest with its own threads).
fn jobs() -> usize {
    std::thread::available_parallelism().map_or(2, |n| n.get()).clamp(1, 4)
}

/// Builds every test target of the workspace (`cargo test --workspace --all-targets
/// --no-run`) and returns what to run.
pub fn build() -> Result<Built> {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_string());
    let args = ["test", "--workspace", "--all-targets", "--no-run", "--message-format=json-render-diagnostics"];
    eprintln!("$ cargo {}", args.join(" "));
    let output = Command::new(&cargo)
        .args(args)
        .current_dir(workspace_root())
        .stderr(Stdio::inherit())
        .output()
        .context("running cargo test --no-run")?;
    let stdout = String::from_utf8_lossy(&output.stdout);
    for line in stdout.lines().filter(|l| !l.starts_with('{')) {
        println!("{line}");
    }
    if !output.status.success() {
        bail!("building the tests failed ({})", output.status);
    }
    parse_artifacts(&stdout)
}

/// Reads cargo's JSON messages: every artifact with an executable, a test one when its
/// profile is the test profile's (`"test": true`).
fn parse_artifacts(stdout: &str) -> Result<Built> {
    let mut built = Built::default();
    for line in stdout.lines().filter(|l| l.starts_with('{')) {
        let message: serde_json::Value = serde_json::from_str(line).context("reading cargo's JSON output")?;
        if message["reason"] != "compiler-artifact" {
            continue;
        }
        let Some(path) = message["executable"].as_str() else { continue };
        let target = &message["target"];
        let name = target["name"].as_str().unwrap_or_default();
        if message["profile"]["test"] != true {
            if name == "bac" && target["kind"].as_array().is_some_and(|k| k.iter().any(|k| k == "bin")) {
                built.bac = Some(PathBuf::from(path));
            }
            continue;
        }
        let manifest = PathBuf::from(message["manifest_path"].as_str().context("an artifact without its manifest")?);
        let package = package_name(&message["package_id"], &manifest);
        let src = Path::new(target["src_path"].as_str().unwrap_or_default());
        let rel = src.strip_prefix(manifest.parent().unwrap_or(Path::new(""))).unwrap_or(src).display().to_string();
        let kinds: Vec<&str> =
            target["kind"].as_array().map(|k| k.iter().filter_map(|k| k.as_str()).collect()).unwrap_or_default();
        let label = if kinds.iter().any(|k| ["lib", "bin", "rlib", "proc-macro"].contains(k)) {
            format!("unittests {rel}")
        } else {
            rel
        };
        built.binaries.push(TestBinary { package, manifest, label, path: PathBuf::from(path) });
    }
    Ok(built)
}

/// The package's name: from its id (`path+file:///...#name@0.1.0`, or `...#0.1.0` where
/// the directory is the name), else the manifest's directory.
fn package_name(id: &serde_json::Value, manifest: &Path) -> String {
    let dir =
        || manifest.parent().and_then(|d| d.file_name()).map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let Some(id) = id.as_str() else { return dir() };
    match id.rsplit_once('#').map(|(_, tail)| tail) {
        Some(tail) if tail.contains('@') => tail.split('@').next().unwrap_or_default().to_string(),
        _ => dir(),
    }
}

/// How long a binary is expected to take, for the order: the known long ones first, in
/// [`LONGEST_FIRST`]'s order, the rest after in cargo's order.
fn rank(b: &TestBinary) -> usize {
    let stem = b.path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let name = stem.rsplit_once('-').map_or(stem.as_str(), |(n, _)| n).to_string();
    LONGEST_FIRST.iter().position(|l| *l == name && !b.label.starts_with("unittests")).unwrap_or(LONGEST_FIRST.len())
}

/// One finished binary.
struct Outcome {
    binary: TestBinary,
    ok: bool,
    seconds: f64,
}

/// Runs every binary of `built`, [`jobs`] at a time, longest first; fails naming every
/// binary that failed.
pub fn run(built: &Built) -> Result<()> {
    let mut queue: Vec<TestBinary> = built.binaries.clone();
    queue.sort_by_key(rank);
    queue.reverse();
    let jobs = jobs().min(queue.len().max(1));
    eprintln!("xtask test: {} test binaries, {jobs} at a time", queue.len());
    let queue = Mutex::new(queue);
    let outcomes = Mutex::new(Vec::new());
    let print = Mutex::new(());
    let start = Instant::now();
    std::thread::scope(|s| {
        for _ in 0..jobs {
            s.spawn(|| {
                loop {
                    let next = queue.lock().map(|mut q| q.pop()).unwrap_or(None);
                    let Some(binary) = next else { break };
                    let outcome = run_one(binary, &print);
                    if let Ok(mut o) = outcomes.lock() {
                        o.push(outcome);
                    }
                }
            });
        }
    });
    let outcomes = outcomes.into_inner().unwrap_or_default();
    let failed: Vec<String> =
        outcomes.iter().filter(|o| !o.ok).map(|o| format!("{} ({})", o.binary.label, o.binary.package)).collect();
    let mut slowest: Vec<&Outcome> = outcomes.iter().collect();
    slowest.sort_by(|a, b| b.seconds.total_cmp(&a.seconds));
    let slowest: Vec<String> =
        slowest.iter().take(5).map(|o| format!("{} {:.0} s", o.binary.label, o.seconds)).collect();
    eprintln!(
        "xtask test: {} binaries in {:.0} s, {jobs} at a time; the longest: {}",
        outcomes.len(),
        start.elapsed().as_secs_f64(),
        slowest.join(", ")
    );
    if !failed.is_empty() {
        bail!(
            "{} test binar{} failed: {}",
            failed.len(),
            if failed.len() == 1 { "y" } else { "ies" },
            failed.join(", ")
        );
    }
    Ok(())
}

/// Runs one binary as cargo would, its output kept and printed in one block at its end.
fn run_one(binary: TestBinary, print: &Mutex<()>) -> Outcome {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_string());
    let dir = binary.manifest.parent().map(Path::to_path_buf).unwrap_or_else(workspace_root);
    let t = Instant::now();
    let output = Command::new(&binary.path)
        .current_dir(&dir)
        .env("CARGO", &cargo)
        .env("CARGO_MANIFEST_DIR", &dir)
        .env("CARGO_MANIFEST_PATH", &binary.manifest)
        .env("CARGO_PKG_NAME", &binary.package)
        .stdin(Stdio::null())
        .output();
    let seconds = t.elapsed().as_secs_f64();
    let _guard = print.lock();
    eprintln!("     Running {} ({}) [{}], {seconds:.1} s", binary.label, binary.path.display(), binary.package);
    let ok = match output {
        Ok(output) => {
            print!("{}", String::from_utf8_lossy(&output.stdout));
            eprint!("{}", String::from_utf8_lossy(&output.stderr));
            if !output.status.success() {
                eprintln!("error: test failed: {} ({}), {}", binary.label, binary.package, output.status);
            }
            output.status.success()
        }
        Err(error) => {
            eprintln!("error: could not run {}: {error}", binary.path.display());
            false
        }
    };
    Outcome { binary, ok, seconds }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn artifacts_give_the_test_binaries_and_bac() {
        let out = r#"{"reason":"compiler-artifact","package_id":"path+file:///r/tools/bac#0.1.0","manifest_path":"/r/tools/bac/Cargo.toml","target":{"kind":["bin"],"name":"bac","src_path":"/r/tools/bac/src/main.rs"},"profile":{"test":false},"executable":"/r/target/debug/bac"}
{"reason":"compiler-artifact","package_id":"path+file:///r/tools/bac#0.1.0","manifest_path":"/r/tools/bac/Cargo.toml","target":{"kind":["test"],"name":"verify","src_path":"/r/tools/bac/tests/verify.rs"},"profile":{"test":true},"executable":"/r/target/debug/deps/verify-0123"}
{"reason":"compiler-artifact","package_id":"path+file:///r/tools/pack#bac-pack@0.1.0","manifest_path":"/r/tools/pack/Cargo.toml","target":{"kind":["lib"],"name":"bac_pack","src_path":"/r/tools/pack/src/lib.rs"},"profile":{"test":true},"executable":"/r/target/debug/deps/bac_pack-4567"}
{"reason":"compiler-artifact","package_id":"registry+https://github.com/rust-lang/crates.io-index#rand@0.10.0","manifest_path":"/c/rand/Cargo.toml","target":{"kind":["lib"],"name":"rand","src_path":"/c/rand/src/lib.rs"},"profile":{"test":false},"executable":null}
{"reason":"build-finished","success":true}
Finished"#;
        let built = parse_artifacts(out).unwrap();
        assert_eq!(built.bac, Some(PathBuf::from("/r/target/debug/bac")));
        let got: Vec<(&str, &str)> = built.binaries.iter().map(|b| (b.package.as_str(), b.label.as_str())).collect();
        assert_eq!(got, [("bac", "tests/verify.rs"), ("bac-pack", "unittests src/lib.rs")]);
        assert_eq!(rank(&built.binaries[0]), 3, "verify is one of the long ones");
        assert_eq!(rank(&built.binaries[1]), LONGEST_FIRST.len());
    }

    #[test]
    fn bad_json_is_an_error_not_a_panic() {
        assert!(parse_artifacts("{not json").is_err());
    }
}
