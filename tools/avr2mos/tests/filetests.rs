//! Precise-output tests, in the manner of cranelift's filetests: every `*.avr` file in
//! `tests/filetests/` is a small AVR program (functions of hex instruction words) whose
//! translation at both optimisation levels, as the symbolic listing, is checked in next to
//! it as `*.expected`. A change of code shape or size shows as a diff in review; the test
//! prints a unified diff on a mismatch. `BLESS=1` rewrites the expected listings.
//!
//! Input format: `fn NAME` starts a function; other lines hold 16-bit instruction words in
//! hex (`940e 0004`, two words for `call`); `;` starts a comment. Comment lines before the
//! first function describe the case and open its listing. A word may name a relocation of
//! its immediate: `5a0c@-lo:0260` is `subi` by lo8(-(data address 0x260)), `-hi` the high
//! byte (256 bytes of data from 0x200 then exist).

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use avr2mos::{OptLevel, Options};

mod common;

fn dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/filetests")
}

/// The listing one input file must produce.
fn render(path: &Path) -> Result<String, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let (prog, about) = common::parse_avr(path, &text)?;
    let mut out = about;
    for (level, name) in [(OptLevel::Plain, "0"), (OptLevel::Full, "1")] {
        let opts = Options { opt_level: level, ..Default::default() };
        let t = avr2mos::translate_with(&prog, &opts).map_err(|e| format!("{}: {e}", path.display()))?;
        let code: usize = t.stats.code_bytes;
        let _ = writeln!(out, "\n== opt-level {name}: {code} bytes of 6502 code ==");
        out.push_str(t.symbolic.trim_start_matches('\n'));
    }
    Ok(out)
}

/// A unified diff of two texts (longest common subsequence of lines; inputs are small).
fn unified_diff(expected: &str, actual: &str) -> String {
    let a: Vec<&str> = expected.lines().collect();
    let b: Vec<&str> = actual.lines().collect();
    let mut lcs = vec![vec![0usize; b.len() + 1]; a.len() + 1];
    for i in (0..a.len()).rev() {
        for j in (0..b.len()).rev() {
            lcs[i][j] = if a[i] == b[j] { lcs[i + 1][j + 1] + 1 } else { lcs[i + 1][j].max(lcs[i][j + 1]) };
        }
    }
    // Every line tagged ' ', '-' or '+', then hunks with three lines of context.
    let mut lines = Vec::new();
    let (mut i, mut j) = (0, 0);
    while i < a.len() || j < b.len() {
        if i < a.len() && j < b.len() && a[i] == b[j] {
            lines.push((' ', a[i], i, j));
            i += 1;
            j += 1;
        } else if i < a.len() && (j == b.len() || lcs[i + 1][j] >= lcs[i][j + 1]) {
            lines.push(('-', a[i], i, j));
            i += 1;
        } else {
            lines.push(('+', b[j], i, j));
            j += 1;
        }
    }
    let changed: Vec<usize> = (0..lines.len()).filter(|&k| lines[k].0 != ' ').collect();
    let mut out = String::from("--- expected\n+++ actual\n");
    let mut k = 0;
    while k < changed.len() {
        let start = changed[k].saturating_sub(3);
        let mut end = changed[k] + 4;
        while k + 1 < changed.len() && changed[k + 1] < end + 3 {
            k += 1;
            end = changed[k] + 4;
        }
        let end = end.min(lines.len());
        let (_, _, ai, bj) = lines[start];
        let _ = writeln!(out, "@@ -{} +{} @@", ai + 1, bj + 1);
        for &(tag, text, _, _) in &lines[start..end] {
            let _ = writeln!(out, "{tag}{text}");
        }
        k += 1;
    }
    out
}

#[test]
fn every_input_translates_to_its_expected_listing() {
    let bless = std::env::var_os("BLESS").is_some();
    let mut inputs: Vec<PathBuf> = std::fs::read_dir(dir())
        .expect("tests/filetests exists")
        .map(|e| e.expect("readable directory entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "avr"))
        .collect();
    inputs.sort();
    assert!(!inputs.is_empty(), "no inputs in {}", dir().display());
    let mut failures = Vec::new();
    for input in &inputs {
        let expected_path = input.with_extension("expected");
        let actual = match render(input) {
            Ok(s) => s,
            Err(e) => {
                failures.push(e);
                continue;
            }
        };
        if bless {
            std::fs::write(&expected_path, &actual).expect("expected listing written");
            continue;
        }
        match std::fs::read_to_string(&expected_path) {
            Ok(expected) if expected == actual => {}
            Ok(expected) => failures.push(format!(
                "{} changed (BLESS=1 accepts it):\n{}",
                expected_path.display(),
                unified_diff(&expected, &actual)
            )),
            Err(_) => failures.push(format!("{} is missing (BLESS=1 writes it)", expected_path.display())),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn the_diff_shows_changed_lines_with_context() {
    let d = unified_diff("a\nb\nc\nd\n", "a\nB\nc\nd\n");
    assert!(d.contains("-b\n+B\n"), "{d}");
    assert!(d.contains(" a\n"), "{d}");
    assert_eq!(unified_diff("x\n", "x\n"), "--- expected\n+++ actual\n");
}

#[test]
fn a_bad_word_is_reported_with_its_line() {
    let e = common::parse_avr(Path::new("t.avr"), "fn main\n  95g8\n").unwrap_err();
    assert!(e.contains("t.avr:2") && e.contains("95g8"), "{e}");
}
