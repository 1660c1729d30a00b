//! Every test program of `emulator-tests/programs/expected.toml`, built through the
//! translator and run in the emulated C128, against its entry there: its exit code and
//! everything it prints, to the character.

use crate::build;
use c128_emu::{RunOptions, run_until_exit};
use std::path::Path;

/// A program's entry in the table.
struct Expected {
    name: String,
    exit: u8,
    output: String,
}

fn table() -> Vec<Expected> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("programs/expected.toml");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let table: toml::Table = toml::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    table
        .iter()
        .map(|(name, entry)| {
            let field = |key: &str| entry.get(key).unwrap_or_else(|| panic!("{name}: no {key} in {}", path.display()));
            let exit = field("exit").as_integer().and_then(|n| u8::try_from(n).ok()).expect("an exit code 0-255");
            let output = field("output").as_str().expect("the output as a string").to_string();
            Expected { name: name.clone(), exit, output }
        })
        .collect()
}

#[test]
fn every_listed_program_prints_and_exits_as_its_entry_says() {
    let table = table();
    assert!(table.len() >= 4, "the table lists the programs: {}", table.len());
    for entry in table {
        let report =
            build::program(&format!("emulator-tests/programs/{}", entry.name), &format!("expected-{}", entry.name));
        let prg = build::bytes(&report);
        let run = run_until_exit(&prg, RunOptions::default()).unwrap_or_else(|e| panic!("{}: {e}", entry.name));
        assert_eq!(run.output(), entry.output, "{}: what it printed", entry.name);
        assert_eq!(run.exit.code, entry.exit, "{}: its exit code", entry.name);
    }
}
