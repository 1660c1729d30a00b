//! Profiling aid for issue 12: runs the translated benchmark (`firmware/bench-prg`) in the
//! emulated C128 on the Punto Banco preset and prints where the coup phase's cycles go, by
//! AVR instruction, by function and by AVR mnemonic (a runtime routine is charged to
//! itself, not its caller), and the cycles of the shuffles (one, as in `bac bench`). `cargo run --release -p emulator-tests --example bench_profile
//! [COUPS]`.

use std::collections::HashMap;

use c128_emu::{Config, Machine};
use emulator_tests::build::{program, repo_root};

fn main() {
    let coups: u16 = std::env::args().nth(1).and_then(|a| a.parse().ok()).unwrap_or(1000);
    let target = repo_root().join("target/c128");
    let report = program("firmware/bench-prg", "rust-bench-profile", &target).expect("building the benchmark");
    let t = avr2mos::pipeline::translate_elf(&report.elf).expect("translating");
    let built = std::fs::read(&report.prg).expect("reading the .prg");
    assert_eq!(built, t.prg, "the bench's settings translate other than the defaults");
    let avr = avr2mos::AvrProgram::from_elf(&std::fs::read(&report.elf).expect("reading the ELF")).expect("ELF");
    let mailbox = c128_map::test::MAILBOX;
    let mut m = Machine::new(Config::default());
    m.load_prg(&t.prg).expect("loading");
    // The mailbox of bench.c: phase, seed 1, coups, 8 decks, cut card 14, no burn.
    let pokes: [(u16, &[u8]); 7] = [
        (0, &[0]),
        (4, &1u32.to_le_bytes()),
        (8, &coups.to_le_bytes()),
        (10, &[8]),
        (11, &[1]),
        (12, &14u16.to_le_bytes()),
        (14, &[0]),
    ];
    for (at, bytes) in pokes {
        for (i, &b) in bytes.iter().enumerate() {
            m.bus_mut().ram_poke(0, mailbox + at + i as u16, b);
        }
    }
    let entry = m.sys_address().expect("SYS line");
    m.start(entry);
    let mut by_pc: HashMap<u16, u64> = HashMap::new();
    let mut shuffle = 0;
    loop {
        let before = m.cpu.cycles;
        let pc = m.cpu.registers.program_counter;
        let phase = m.bus().ram_peek(0, mailbox);
        let coup = phase == 2;
        let ended = m.run_until(before + 1).expect("running");
        if phase == 1 {
            shuffle += m.cpu.cycles - before;
        }
        if coup {
            *by_pc.entry(pc).or_default() += m.cpu.cycles - before;
        }
        if ended.is_some() {
            break;
        }
    }
    let total: u64 = by_pc.values().sum();
    let per = |c: u64| c as f64 / f64::from(coups);
    println!("coup phase: {:.0} cycles per coup; shuffles: {shuffle} cycles", per(total));
    let mut syms = t.symbols.clone();
    syms.sort_by_key(|s| s.1);
    // Outside the program: the KERNAL's interrupt handler and its routines.
    let owner = |pc: u16| match pc {
        0x1C00.. if pc < 0xD000 => syms.iter().rev().find(|s| s.1 <= pc).map_or("?".to_string(), |s| s.0.clone()),
        _ => "<KERNAL, interrupts>".to_string(),
    };
    let mut by_fn: HashMap<String, u64> = HashMap::new();
    let mut by_insn: HashMap<u32, u64> = HashMap::new();
    let mut by_op: HashMap<String, u64> = HashMap::new();
    for (&pc, &c) in &by_pc {
        let f = owner(pc);
        let runtime = f.starts_with("rt_") || f.starts_with("__") || f.starts_with('<');
        *by_fn.entry(f.clone()).or_default() += c;
        match t.avr_address_of(pc) {
            Some(a) if !runtime && pc >= 0x1C00 => {
                *by_insn.entry(a).or_default() += c;
                let insn = avr2mos::decode::decode(&avr.text, a as usize, 0).map_or("?".into(), |i| i.to_string());
                *by_op.entry(insn.split_whitespace().next().unwrap_or("?").to_string()).or_default() += c;
            }
            _ => *by_op.entry(format!("<{f}>")).or_default() += c,
        }
    }
    let show = |title: &str, mut v: Vec<(String, u64)>, n: usize| {
        println!("\n{title}");
        v.sort_by_key(|e| std::cmp::Reverse(e.1));
        for (k, c) in v.into_iter().take(n) {
            println!("{:5.1}% {:>8.0} {k}", 100.0 * c as f64 / total as f64, per(c));
        }
    };
    show("by function", by_fn.into_iter().collect(), 25);
    show("by AVR mnemonic (runtime code in <>)", by_op.into_iter().collect(), 30);
    let insns = by_insn
        .into_iter()
        .map(|(a, c)| {
            let insn = avr2mos::decode::decode(&avr.text, a as usize, 0).map_or("?".into(), |i| i.to_string());
            (format!("{a:05x} {} {insn}", avr.locate(a)), c)
        })
        .collect();
    show("by AVR instruction", insns, 40);
}
