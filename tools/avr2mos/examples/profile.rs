//! Profiling aid: builds a crate through the pipeline, runs it on the flat-RAM 6502 with
//! optional mailbox bytes (`ADDR=HEX,...`), and prints where the cycles go, by function
//! and by AVR mnemonic.
//! `cargo run --release --example profile -- CRATE/Cargo.toml [BIN] [0b04=78563412,...]`

#[path = "../tests/common/mod.rs"]
mod common;

use std::collections::HashMap;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let opts = avr2mos::pipeline::BuildOptions {
        manifest_path: args[1].clone().into(),
        bin: args.get(2).filter(|b| !b.contains('=')).cloned(),
        target_dir: Some("/tmp/avr2mos-profile".into()),
        quiet: true,
        ..Default::default()
    };
    let report = avr2mos::pipeline::build_prg(&opts).expect("build");
    let t = avr2mos::pipeline::translate_elf(&report.elf).expect("translate");
    let prog = avr2mos::AvrProgram::from_elf(&std::fs::read(&report.elf).unwrap()).unwrap();
    let mut m = common::Machine::new(&t.prg);
    for spec in args.iter().skip(2).filter(|a| a.contains('=')).flat_map(|a| a.split(',')) {
        let (addr, hex) = spec.split_once('=').unwrap();
        let addr = usize::from_str_radix(addr, 16).unwrap();
        for (i, b) in (0..hex.len()).step_by(2).enumerate() {
            m.cpu.memory.mem[addr + i] = u8::from_str_radix(&hex[b..b + 2], 16).unwrap();
        }
    }
    let mut by_pc: HashMap<u16, u64> = HashMap::new();
    loop {
        let pc = m.cpu.registers.program_counter;
        let before = m.cpu.cycles;
        match m.step() {
            Ok(true) => {}
            Ok(false) => break,
            Err(e) => {
                eprintln!("{e}");
                break;
            }
        }
        *by_pc.entry(pc).or_default() += m.cpu.cycles - before;
        if m.cpu.cycles > 3_000_000_000 {
            break;
        }
    }
    let total: u64 = by_pc.values().sum();
    let mut syms = t.symbols.clone();
    syms.sort_by_key(|s| s.1);
    let mut by_fn: HashMap<String, u64> = HashMap::new();
    let mut by_op: HashMap<String, u64> = HashMap::new();
    for (&pc, &c) in &by_pc {
        let f = syms.iter().rev().find(|s| s.1 <= pc).map_or("?".to_string(), |s| s.0.clone());
        *by_fn.entry(f).or_default() += c;
        if let Some(a) = t.avr_address_of(pc)
            && !syms.iter().any(|s| {
                s.0.starts_with("rt_")
                    && s.1 <= pc
                    && pc < s.1 + 600
                    && syms.iter().filter(|x| x.1 > s.1).all(|x| x.1 > pc)
            })
        {
            let insn = avr2mos::input::decode::decode(&prog.text, a as usize, 0).map_or("?".into(), |i| i.to_string());
            *by_op.entry(insn.split_whitespace().next().unwrap_or("?").to_string()).or_default() += c;
        }
    }
    println!("total {total} cycles, output {:?}", String::from_utf8_lossy(&m.output));
    let mut by_insn: HashMap<u32, u64> = HashMap::new();
    for (&pc, &c) in &by_pc {
        if let Some(a) = t.avr_address_of(pc) {
            *by_insn.entry(a).or_default() += c;
        }
    }
    let mut v: Vec<_> = by_insn.into_iter().collect();
    v.sort_by_key(|e| std::cmp::Reverse(e.1));
    for (a, c) in v.iter().take(30) {
        let insn = avr2mos::input::decode::decode(&prog.text, *a as usize, 0).map_or("?".into(), |i| i.to_string());
        println!("{:5.1}% {c:>10} {} {insn}", 100.0 * *c as f64 / total as f64, prog.locate(*a));
    }
    let mut v: Vec<_> = by_fn.into_iter().collect();
    v.sort_by_key(|e| std::cmp::Reverse(e.1));
    for (f, c) in v.iter().take(25) {
        println!("{:5.1}% {c:>10} {f}", 100.0 * *c as f64 / total as f64);
    }
    let mut v: Vec<_> = by_op.into_iter().collect();
    v.sort_by_key(|e| std::cmp::Reverse(e.1));
    for (f, c) in v.iter().take(25) {
        println!("{:5.1}% {c:>10} {f}", 100.0 * *c as f64 / total as f64);
    }
}
