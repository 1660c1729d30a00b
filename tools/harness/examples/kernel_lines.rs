//! Where a suite kernel's translation spends its cycles, line by line of its listing
//! (issue 30): builds `emulator-tests/kernels` kernel NAME through the translator, runs
//! it on `seed` in the emulator, and gives each AVR instruction of the listing the cycles
//! of the 6502 code laid down for it (a fused group's cycles go to the line that carries
//! its bytes). Prints the functions, then the hottest lines with the lines just before
//! them, so a pattern shows in its context.
//!
//! `cargo run --release -p bac-harness --example kernel_lines -- NAME [TOP] [--o0]`

use avr2mos::OptLevel;
use bac_harness::kernels;

/// One line of the listing that laid down 6502 code: where, and the text.
struct Line {
    at: u16,
    /// The 6502 bytes laid down for it (none for an instruction fused into the next).
    len: u16,
    function: usize,
    text: String,
}

fn parse_listing(lst: &str) -> (Vec<String>, Vec<Line>) {
    let mut functions = Vec::new();
    let mut lines = Vec::new();
    for l in lst.lines() {
        if let Some(name) = l.strip_suffix(':').filter(|n| !n.starts_with(' ') && !n.contains(' ')) {
            functions.push(bac_harness::profile::short_name(name));
            continue;
        }
        // `  +4     00004  81 2d        mov r24, r1                $1cfc    6c  a5 11 85 28`
        let Some(dollar) = l.find(" $") else { continue };
        let at = &l[dollar + 2..];
        let Some(hex) = at.get(..4) else { continue };
        let Ok(at) = u16::from_str_radix(hex, 16) else { continue };
        if !l.starts_with("  +") || functions.is_empty() {
            continue;
        }
        // After the address, the cycles (`6c`), then the bytes.
        let len = l[dollar + 6..].split_whitespace().skip(1).take_while(|b| b.len() == 2).count() as u16;
        lines.push(Line { at, len, function: functions.len() - 1, text: l.trim_end().to_string() });
    }
    (functions, lines)
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let name = args.first().ok_or("kernel_lines NAME [TOP] [--o0]")?;
    let top: usize = args.get(1).filter(|a| !a.starts_with("--")).map_or(Ok(40), |a| a.parse())?;
    let level = if args.iter().any(|a| a == "--o0") { OptLevel::Plain } else { OptLevel::Full };
    let target = bac_harness::build::repo_root().join("target/c128/kernels");
    let prg = kernels::build_rust_at(name, &target, level)?;
    let stem = match level {
        OptLevel::Full => format!("kernel-{name}"),
        OptLevel::Plain => format!("kernel-{name}-o0"),
    };
    let lst = std::fs::read_to_string(target.join(format!("{stem}.lst")))?;
    let (functions, lines) = parse_listing(&lst);
    // The line whose code holds an address: the last line at or below it that has bytes.
    let mut starts: Vec<(u16, usize)> =
        lines.iter().enumerate().filter(|(_, l)| l.len > 0).map(|(i, l)| (l.at, i)).collect();
    starts.sort();
    // What the listing does not cover (the runtime, the outlined runs) counts by the map's
    // symbols.
    let symbols: Vec<(u16, String)> =
        bac_harness::profile::map_symbols(&std::fs::read_to_string(target.join(format!("{stem}.map")))?)
            .into_iter()
            .map(|(at, name)| (at, bac_harness::profile::short_name(&name)))
            .collect();
    let mut by_symbol = vec![0u64; symbols.len()];
    let mut by_line = vec![0u64; lines.len()];
    let mut outside = 0u64;
    let mut total = 0u64;
    let run = kernels::run_observed(&prg, 2026, &mut |_, pc, phase, cycles| {
        if phase != 1 {
            return;
        }
        total += cycles;
        match starts.partition_point(|s| s.0 <= pc).checked_sub(1) {
            Some(k) if pc.wrapping_sub(starts[k].0) < lines[starts[k].1].len => by_line[starts[k].1] += cycles,
            _ => {
                outside += cycles;
                if let Some(k) = symbols.partition_point(|s| s.0 <= pc).checked_sub(1) {
                    by_symbol[k] += cycles;
                }
            }
        }
    })?;
    println!("{name}: {} cycles (result {:#x}); {outside} outside the listing's functions", run.cycles, run.result);
    let mut by_function = vec![0u64; functions.len()];
    for (l, c) in lines.iter().zip(&by_line) {
        by_function[l.function] += c;
    }
    let mut rows: Vec<(u64, &str)> = by_function.iter().copied().zip(functions.iter().map(String::as_str)).collect();
    rows.extend(by_symbol.iter().copied().zip(symbols.iter().map(|s| s.1.as_str())));
    rows.sort_by_key(|r| std::cmp::Reverse(r.0));
    for (c, f) in rows.iter().take(12).filter(|r| r.0 > 0) {
        println!("{:>9} {:5.1}%  {f}", c, *c as f64 * 100.0 / total.max(1) as f64);
    }
    let mut hot: Vec<usize> = (0..lines.len()).filter(|&i| by_line[i] > 0).collect();
    hot.sort_by_key(|&i| std::cmp::Reverse(by_line[i]));
    let mut shown = std::collections::BTreeSet::new();
    for &i in hot.iter().take(top) {
        shown.extend(i.saturating_sub(3)..=i);
    }
    let mut last: Option<usize> = None;
    for i in shown {
        if last.is_some_and(|l| l + 1 != i) {
            println!("  ...");
        }
        if last.is_none_or(|l| lines[l].function != lines[i].function) {
            println!("{}:", functions[lines[i].function]);
        }
        println!("{:>9}  {}", by_line[i], lines[i].text);
        last = Some(i);
    }
    Ok(())
}
