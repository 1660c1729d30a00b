//! `cargo xtask`: the project's chores.
//!
//! - `cargo xtask test`: installs what the tests need on a fresh machine, then runs them:
//!   every test target of the workspace, two test binaries at a time (`testrun.rs`).
//! - `cargo xtask test --quick`: the edit-compile loop's tests, in a minute or two: every
//!   crate's unit tests and a few programs in the emulator (`QUICK` below). CI runs them all.
//! - `cargo xtask ci`: what CI runs: formatting, clippy, the tests, and the AVR build of the
//!   rules crate with its check that no floating-point or 64-bit division helpers creep in.
//! - `cargo xtask avr`: only the AVR build check.
//! - `cargo xtask firmware`: formatting and clippy for the crates outside the workspace
//!   (the runtime, the game's program, the test programs), built for `avr-none`.
//! - `cargo xtask doc`: the workspace's documentation, warnings denied.
//! - `cargo xtask fuzz [--cases N] [--seed S]`: the translator's differential fuzzer for
//!   longer than the test suite runs it (`tools/avr2mos/tests/fuzz.rs`).
//! - `cargo xtask vice`: the real-VICE check (`emulator-tests/vice/run.sh`: VICE 3.9's x128
//!   in headless Chromium boots the disks we build, test programs and the game, plays a
//!   coup, and its screens are compared with ours).

mod avr;
mod firmware;
mod setup;
mod testrun;

use anyhow::{Context, Result, bail};
use std::process::{Command, ExitCode};

fn main() -> ExitCode {
    let task = std::env::args().nth(1).unwrap_or_default();
    let result = match task.as_str() {
        "test" if std::env::args().nth(2).as_deref() == Some("--quick") => {
            setup::system_packages().and_then(|()| quick_test())
        }
        "test" => setup::system_packages().and_then(|()| test()),
        "ci" => ci(),
        "avr" => avr::check(),
        "firmware" => firmware::check(),
        "doc" => doc(),
        "vice" => vice(),
        "fuzz" => fuzz(std::env::args().skip(2).collect()),
        "setup" => setup::system_packages(),
        _ => {
            eprintln!("usage: cargo xtask <test [--quick]|ci|avr|firmware|doc|vice|fuzz [--cases N] [--seed S]|setup>");
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

/// The `bac` executable the test build made, for the VICE check that follows in CI.
static TESTED_BAC: std::sync::OnceLock<std::path::PathBuf> = std::sync::OnceLock::new();

/// Every test target of the workspace, as `cargo test --workspace --all-targets
/// --no-fail-fast` runs them, two binaries at a time ([`testrun`]).
fn test() -> Result<()> {
    let built = testrun::build()?;
    if let Some(bac) = &built.bac {
        let _ = TESTED_BAC.set(bac.clone());
    }
    testrun::run(&built)
}

/// The tests `--quick` runs besides the unit tests (package, test binary, name filters),
/// a few seconds each once built: translated instructions against the AVR simulator, a
/// program built through the whole pipeline and run on the emulated C128 with its disk,
/// and the game on it.
const QUICK: &[(&str, &str, &[&str])] = &[
    (
        "avr2mos",
        "instructions",
        &["loads_and_stores_in_every_pointer_mode", "multiplies", "push_pop_and_stack_pointer"],
    ),
    (
        "emulator-tests",
        "harness",
        &["platform::every_driver_on_a_good_disk", "c128_game::the_last_card_face_comes_on_with_its_screen"],
    ),
];

/// `cargo xtask test --quick`: the unit tests of every crate (`--lib --bins`) and the
/// tests of [`QUICK`].
fn quick_test() -> Result<()> {
    cargo(&["test", "--workspace", "--lib", "--bins"])?;
    for (package, binary, filters) in QUICK {
        let mut args = vec!["test", "--package", package, "--test", binary, "--"];
        args.extend_from_slice(filters);
        cargo(&args)?;
    }
    Ok(())
}

/// A stage of CI.
type Stage = fn() -> Result<()>;

/// CI's stages in order, each timed; the times are printed at the end (and so far, when a
/// stage fails), the figures the docs give for `.ci/run`.
fn ci() -> Result<()> {
    let stages: &[(&str, Stage)] = &[
        ("setup", setup::system_packages),
        ("fmt", || cargo(&["fmt", "--all", "--check"])),
        ("clippy", || cargo(&["clippy", "--workspace", "--all-targets", "--", "-D", "warnings"])),
        ("firmware", firmware::check),
        ("doc", doc),
        ("test", test),
        ("avr", avr::check),
        ("vice", vice),
    ];
    let mut times = Vec::new();
    let start = std::time::Instant::now();
    let mut result = Ok(());
    for (name, stage) in stages {
        let t = std::time::Instant::now();
        result = stage();
        times.push(format!("{name} {:.0} s", t.elapsed().as_secs_f64()));
        if result.is_err() {
            break;
        }
    }
    eprintln!("xtask ci: {} (total {:.1} min)", times.join(", "), start.elapsed().as_secs_f64() / 60.0);
    result
}

/// The workspace's documentation with rustdoc's warnings (broken links among them) denied,
/// private items included: nothing here is published, so the docs are the developers' map
/// of each crate, its internal modules first among them.
fn doc() -> Result<()> {
    let previous = std::env::var("RUSTDOCFLAGS").unwrap_or_default();
    let flags = format!("{previous} -D warnings");
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_string());
    eprintln!("$ RUSTDOCFLAGS='{}' cargo doc --workspace --no-deps --document-private-items", flags.trim());
    let status = Command::new(cargo)
        .args(["doc", "--workspace", "--no-deps", "--document-private-items"])
        .env("RUSTDOCFLAGS", flags.trim())
        .current_dir(workspace_root())
        .status()
        .context("running cargo doc")?;
    if !status.success() {
        bail!("cargo doc failed ({status})");
    }
    Ok(())
}

/// The translator's differential fuzzer with `--cases N` programs (default 10,000) from
/// `--seed S` (default: the time, printed, so a run finds new cases and can be repeated):
/// the test suite's bounded run, longer (the test profile is optimised).
fn fuzz(args: Vec<String>) -> Result<()> {
    let mut cases = "10000".to_string();
    let mut seed = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or_default()
        .to_string();
    let mut it = args.into_iter();
    while let Some(flag) = it.next() {
        let value = it.next().with_context(|| format!("{flag} needs a value"))?;
        match flag.as_str() {
            "--cases" => cases = value,
            "--seed" => seed = value,
            _ => bail!("unknown option {flag} (fuzz takes --cases N and --seed S)"),
        }
    }
    eprintln!("xtask fuzz: {cases} cases from seed {seed}");
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_string());
    let args = ["test", "-p", "avr2mos", "--test", "fuzz", "random_programs", "--", "--nocapture"];
    eprintln!("$ FUZZ_CASES={cases} FUZZ_SEED={seed} cargo {}", args.join(" "));
    let status = Command::new(cargo)
        .args(args)
        .env("FUZZ_CASES", &cases)
        .env("FUZZ_SEED", &seed)
        .current_dir(workspace_root())
        .status()
        .context("running the fuzzer")?;
    if !status.success() {
        bail!("the fuzzer found a difference ({status}); its report names the seed");
    }
    Ok(())
}

/// The real-VICE check; the script installs Chromium and its npm packages itself. After
/// the tests (in CI) it runs the `bac` they built (`VICE_BAC`), the test profile's, which
/// is optimised: a release build of its own took the check two minutes on a clean clone.
fn vice() -> Result<()> {
    let script = workspace_root().join("emulator-tests/vice/run.sh");
    let mut command = Command::new("bash");
    command.arg(&script);
    match TESTED_BAC.get() {
        Some(bac) if std::env::var_os("VICE_BAC").is_none() => {
            eprintln!("$ VICE_BAC={} bash {}", bac.display(), script.display());
            command.env("VICE_BAC", bac);
        }
        _ => eprintln!("$ bash {}", script.display()),
    }
    let status = command.status().context("running the VICE check")?;
    if !status.success() {
        bail!("the VICE check failed ({status})");
    }
    Ok(())
}
