//! A differential fuzzer of our own: random AVR programs (byte arithmetic and carry
//! chains, compares and branches on every flag, skips, counted loops, pointer walks in
//! every addressing mode, pushes, multiplies, calls between functions and to the runtime)
//! run translated on the `mos6502` CPU and on the reference AVR simulator from the same
//! registers and memory; every function's defined registers and flags, and the memory
//! window, must agree. At both optimisation levels, and with every function interpreted.
//!
//! The bounded run here takes [`CASES`] programs from [`SEED`]. A longer run:
//! `FUZZ_CASES=100000 FUZZ_SEED=1 cargo test -p avr2mos --test fuzz`, or
//! `cargo xtask fuzz --cases N --seed S`. A failure prints the seed, the shrunk program's
//! AVR listing and the translator's listing of it; `FUZZ_SEED=<seed> FUZZ_CASES=1` runs that
//! one case again.

mod common;
#[path = "fuzz/generate.rs"]
mod generate;
#[path = "fuzz/insn.rs"]
mod insn;
#[path = "fuzz/program.rs"]
mod program;
#[path = "fuzz/run.rs"]
mod run;
#[path = "fuzz/shrink.rs"]
mod shrink;

use run::Config;

/// Programs in the bounded run of the normal test suite.
const CASES: u64 = 200;
/// The first seed of the bounded run.
const SEED: u64 = 0xBAC_0128;

/// Miscompiles the fuzzer found that are not fixed yet: `(seed, configuration, what)`. The bounded
/// run skips them (so the suite stays green while they wait) and
/// [`known_miscompiles_still_fail`] checks that each still fails, so a fix removes its line.
const KNOWN_MISCOMPILES: &[(u64, Config, &str)] = &[];

/// The seeds to run: `FUZZ_SEED` (default [`SEED`]) and `FUZZ_CASES` (default [`CASES`]).
fn settings() -> (u64, u64) {
    let var = |name: &str, default: u64| {
        std::env::var(name).ok().map_or(default, |v| {
            let v = v.trim();
            let parsed = match v.strip_prefix("0x") {
                Some(hex) => u64::from_str_radix(hex, 16),
                None => v.parse(),
            };
            parsed.unwrap_or_else(|e| panic!("{name}={v}: {e}"))
        })
    };
    (var("FUZZ_SEED", SEED), var("FUZZ_CASES", CASES))
}

/// The report of one failing case, its program shrunk first.
fn report(seed: u64, config: Config, p: &program::Program) -> String {
    let small = shrink::shrink(p, |c| run::run(c, config).is_err());
    let failure = match run::run(&small, config) {
        Err(f) => f,
        Ok(()) => unreachable!("the shrinker keeps only failing programs"),
    };
    format!(
        "seed {seed:#x} at {}: {}\n(run again: FUZZ_SEED={seed:#x} FUZZ_CASES=1 cargo test -p avr2mos --test fuzz)\n\
         registers at entry: {:02x?}\n\nAVR program (shrunk):\n{}\n6502 translation:\n{}",
        config.name(),
        failure.what,
        small.regs,
        failure.avr,
        failure.mos
    )
}

#[test]
fn random_programs_run_alike_translated_and_simulated() {
    let (first, cases) = settings();
    let mut failures = Vec::new();
    for seed in first..first + cases {
        let p = generate::program(seed);
        for config in Config::ALL {
            if KNOWN_MISCOMPILES.iter().any(|&(s, l, _)| s == seed && l == config) {
                continue;
            }
            if run::run(&p, config).is_err() {
                let text = report(seed, config, &p);
                eprintln!("{text}\n");
                failures.push(format!("seed {seed:#x} at {}", config.name()));
            }
        }
    }
    assert!(failures.is_empty(), "{} of {cases} cases failed: {}", failures.len(), failures.join(", "));
}

#[test]
fn the_programs_the_fuzzer_found_refused_translate() {
    // Valid programs the translator refused, by the seed that generated them (each named
    // where it was fixed); the refusal is static, so one register state is enough.
    let cases: [(u64, &str); 1] = [(
        0x1347,
        "runtime/interp.rs: a loop back to an interpreted function's own start taken for a tail call, \
         too far from the trampolines",
    )];
    for (seed, what) in cases {
        let p = generate::program(seed);
        for config in Config::ALL {
            if let Err(f) = run::run(&p, config) {
                panic!("{seed:#x} ({what}) at {}: {}", config.name(), f.what);
            }
        }
    }
}

#[test]
fn known_miscompiles_still_fail() {
    for &(seed, config, what) in KNOWN_MISCOMPILES {
        let p = generate::program(seed);
        assert!(run::run(&p, config).is_err(), "seed {seed:#x} ({what}) passes now: take it off KNOWN_MISCOMPILES");
    }
}

/// Every construct the generator knows, by name, as [`features`] names them.
const EXPECTED_FEATURES: &[&str] = &[
    "add",
    "adc",
    "sub",
    "sbc",
    "and",
    "or",
    "eor",
    "cp",
    "cpc",
    "mov",
    "mul",
    "muls",
    "mulsu",
    "fmul",
    "fmuls",
    "fmulsu",
    "subi",
    "sbci",
    "andi",
    "ori",
    "cpi",
    "ldi",
    "com",
    "neg",
    "swap",
    "inc",
    "dec",
    "asr",
    "lsr",
    "ror",
    "movw",
    "adiw",
    "sbiw",
    "bst",
    "bld",
    "ld X",
    "ld X+",
    "ld -X",
    "ld Y+",
    "ld -Y",
    "ld Y+q",
    "ld Z",
    "ld Z+",
    "ld -Z",
    "ld Z+q",
    "st X",
    "st X+",
    "st -X",
    "st Y+",
    "st -Y",
    "st Y+q",
    "st Z",
    "st Z+",
    "st -Z",
    "st Z+q",
    "lds",
    "sts",
    "in",
    "out",
    "bset",
    "bclr",
    "branch on 0",
    "branch on 1",
    "branch on 2",
    "branch on 3",
    "branch on 4",
    "branch on 6",
    "else",
    "sbrc",
    "sbrs",
    "cpse",
    "loop down",
    "loop up",
    "loop shift",
    "loop word",
    "push",
    "call",
    "__mulsi3",
    "__udivmodqi4",
    "__divmodqi4",
    "__udivmodhi4",
    "__divmodhi4",
    "__udivmodsi4",
    "__divmodsi4",
    "anchor",
    "mask",
    "cpc with a register an ldi just set",
    "a move before a branch on Z, N or S",
];

/// The names of the constructs in `items` (an instruction by its mnemonic and addressing
/// mode), added to `out`.
fn features(items: &[program::Item], out: &mut std::collections::BTreeSet<String>) {
    use insn::{Imm, Insn, Rr};
    use program::{Item, LoopKind, SkipTest};
    // Pairs the lowering fuses: a compare with a constant, a move before a branch.
    for w in items.windows(2) {
        match w {
            [Item::I(Insn::Imm(Imm::Ldi, t, _)), Item::I(Insn::Rr(Rr::Cpc, _, r))] if t == r => {
                out.insert("cpc with a register an ldi just set".to_string());
            }
            [
                Item::I(Insn::Movw(..) | Insn::Rr(Rr::Mov, ..) | Insn::Imm(Imm::Ldi, ..)),
                Item::If { flag: 1 | 2 | 4, .. },
            ] => {
                out.insert("a move before a branch on Z, N or S".to_string());
            }
            _ => {}
        }
    }
    for it in items {
        match it {
            Item::I(i) | Item::Skip(_, i) => {
                let text = i.to_string();
                let mnemonic = text.split(' ').next().unwrap_or_default();
                let name = match i {
                    insn::Insn::Ld(..) | insn::Insn::St(..) => {
                        let operand = text.split(' ').find(|w| w.contains(['X', 'Y', 'Z'])).unwrap_or_default();
                        let operand = operand.trim_end_matches(',');
                        let operand = if operand.contains('+') && !operand.ends_with('+') {
                            format!("{}q", &operand[..operand.find('+').unwrap_or(0) + 1])
                        } else {
                            operand.to_string()
                        };
                        format!("{mnemonic} {operand}")
                    }
                    _ => mnemonic.to_string(),
                };
                out.insert(name);
                if let Item::Skip(test, _) = it {
                    out.insert(
                        match test {
                            SkipTest::Sbrc(..) => "sbrc",
                            SkipTest::Sbrs(..) => "sbrs",
                            SkipTest::Cpse(..) => "cpse",
                        }
                        .to_string(),
                    );
                }
            }
            Item::If { flag, then, els, .. } => {
                out.insert(format!("branch on {flag}"));
                if !els.is_empty() {
                    out.insert("else".to_string());
                }
                features(then, out);
                features(els, out);
            }
            Item::Loop(kind, body) => {
                out.insert(
                    match kind {
                        LoopKind::Down(..) => "loop down",
                        LoopKind::Up(..) => "loop up",
                        LoopKind::Shift(_) => "loop shift",
                        LoopKind::Word(_) => "loop word",
                    }
                    .to_string(),
                );
                features(body, out);
            }
            Item::Push(_, body, _) => {
                out.insert("push".to_string());
                features(body, out);
            }
            Item::Call(_) => {
                out.insert("call".to_string());
            }
            Item::Native(name) => {
                out.insert(name.to_string());
            }
            Item::Anchor(..) => {
                out.insert("anchor".to_string());
            }
            Item::Mask(_) => {
                out.insert("mask".to_string());
            }
        }
    }
}

#[test]
fn the_generator_reaches_every_construct_in_the_bounded_run() {
    // A rule of the checker that rejected every loop, or a weight that never fires, would
    // leave the fuzzer testing less than it claims: the bounded run's programs must hold
    // every construct of the list.
    let mut seen = std::collections::BTreeSet::new();
    for seed in SEED..SEED + CASES {
        for f in &generate::program(seed).funcs {
            features(&f.items, &mut seen);
        }
    }
    let missing: Vec<&str> = EXPECTED_FEATURES.iter().copied().filter(|f| !seen.contains(*f)).collect();
    assert!(missing.is_empty(), "never generated: {missing:?} (seen: {seen:?})");
}

#[test]
fn the_checker_refuses_programs_that_break_the_conventions() {
    // The generator is only as good as this checker: code the translator may assume away
    // (a flag read across a call, a pointer outside the window) must never reach it.
    use insn::{Imm, Insn, Mode, Ptr, Rr};
    use program::{Func, Item, LoopKind, Program};
    let with = |funcs: Vec<Vec<Item>>| Program {
        regs: [0; 32],
        mem: vec![0; program::COMPARED.len()],
        funcs: funcs.into_iter().map(|items| Func { items }).collect(),
    };
    let walk = |start: u16| {
        vec![
            Item::Anchor(30, start),
            Item::Loop(
                LoopKind::Down(16, 8),
                vec![Item::I(Insn::Ld(24, Ptr::Z, Mode::PostInc)), Item::I(Insn::Adiw(30, 8))],
            ),
        ]
    };
    let good = with(vec![
        vec![
            Item::Anchor(30, 0x4100),
            Item::I(Insn::Ld(24, Ptr::Z, Mode::PostInc)),
            Item::I(Insn::Rr(Rr::Mul, 24, 25)),
            Item::I(Insn::Rr(Rr::Eor, 1, 1)),
            Item::Call(1),
        ],
        walk(0x4100),
    ]);
    assert_eq!(program::check(&good).map(|_| ()), Ok(()));
    let cases = [
        ("a load through a pointer never set", vec![vec![Item::I(Insn::Ld(24, Ptr::Z, Mode::Plain))]]),
        (
            "a displacement past the window",
            vec![vec![Item::Anchor(30, 0x44FF), Item::I(Insn::Ld(24, Ptr::Z, Mode::Disp(2)))]],
        ),
        ("a walk that leaves the window on a later turn", vec![walk(0x44E0)]),
        ("r1 left non-zero", vec![vec![Item::I(Insn::Rr(Rr::Mul, 24, 25))]]),
        (
            "a call-used register read after a call",
            vec![vec![Item::Call(1), Item::I(Insn::Rr(Rr::Mov, 2, 18))], vec![]],
        ),
        (
            "a flag read after a call",
            vec![vec![Item::I(Insn::Rr(Rr::Cp, 24, 25)), Item::Call(1), Item::I(Insn::Rr(Rr::Adc, 24, 25))], vec![]],
        ),
        (
            "a loop body that writes its counter",
            vec![vec![Item::Loop(LoopKind::Down(16, 3), vec![Item::I(Insn::Imm(Imm::Ldi, 16, 1))])]],
        ),
        ("a call of an earlier function", vec![vec![], vec![Item::Call(0)]]),
    ];
    for (why, funcs) in cases {
        assert!(program::check(&with(funcs)).is_err(), "accepted {why}");
    }
}

#[test]
fn the_miscompiles_the_fuzzer_found_stay_fixed() {
    // The shrunk programs of the seeds that found translator bugs (each named where it was
    // fixed), from 16 random register states each so that every branch goes both ways.
    use insn::{Imm, Insn, Mode, Ptr, Rr};
    use program::{Func, Item, Program};
    use rand::{RngExt, SeedableRng};
    let cases: [(&str, Vec<Vec<Item>>); 8] = [
        (
            "0xbac0139, saves.rs: a pop before a jump inside the function",
            vec![
                vec![
                    Item::Call(1),
                    Item::I(Insn::Rr(Rr::Cp, 12, 8)),
                    Item::If {
                        flag: 4,
                        set: true,
                        then: vec![Item::Push(25, vec![], 6)],
                        els: vec![Item::I(Insn::Rr(Rr::Eor, 31, 25))],
                    },
                ],
                vec![Item::I(Insn::Imm(Imm::Ldi, 25, 0xD4)), Item::I(Insn::Imm(Imm::Ldi, 31, 0x5A))],
            ],
        ),
        (
            "0xbac0180, saves.rs: a leading push no epilogue pops",
            vec![vec![Item::Call(1)], vec![Item::Push(12, vec![], 22)]],
        ),
        (
            "0xf42ef, liveness.rs: a leading push of a call-used register",
            vec![vec![Item::Call(1)], vec![Item::Push(18, vec![], 18)]],
        ),
        (
            "0xf4492, saves.rs: a register pushed twice in the leading run",
            vec![
                vec![Item::Push(13, vec![], 5), Item::Call(1), Item::I(Insn::Rr(Rr::And, 13, 31))],
                vec![Item::Anchor(30, 0x40E3)],
            ],
        ),
        (
            "0x2dcc9b, lower/arith.rs: sub r, r after a value left in A only",
            vec![vec![
                Item::I(Insn::Movw(30, 24)),
                Item::I(Insn::Sbiw(30, 57)),
                Item::I(Insn::Imm(Imm::Sbci, 17, 0x80)),
                Item::I(Insn::Imm(Imm::Cpi, 17, 0x6B)),
                Item::I(Insn::Rr(Rr::Sub, 17, 17)),
            ]],
        ),
        (
            "0x75bcd76, lower/codegen.rs: what A holds carried into code an equality chain leaves early for",
            vec![vec![
                Item::I(Insn::Rr(Rr::Cp, 12, 14)),
                Item::I(Insn::Rr(Rr::Cpc, 13, 15)),
                Item::If { flag: 1, set: true, then: vec![Item::I(Insn::Rr(Rr::Mov, 24, 13))], els: vec![] },
                Item::I(Insn::Rr(Rr::Cp, 23, 17)),
                Item::I(Insn::Movw(26, 24)),
            ]],
        ),
        (
            "0x68417, liveness.rs: a callee's second push of a register reads it",
            vec![
                vec![Item::Push(
                    17,
                    vec![Item::Anchor(30, 0x41E5), Item::I(Insn::Ld(17, Ptr::Z, Mode::PostInc)), Item::Call(1)],
                    17,
                )],
                vec![Item::Push(17, vec![Item::Push(17, vec![], 17)], 17)],
            ],
        ),
        (
            "0x162, dead_stores.rs: r26 passed in X to the callee's last read of it, its byte stale for \
             the caller, which reads r26 after the call",
            vec![vec![Item::Call(1)], vec![Item::I(Insn::Movw(26, 18))]],
        ),
    ];
    let mut rng = rand::rngs::StdRng::seed_from_u64(SEED);
    for (what, funcs) in cases {
        for _ in 0..16 {
            let p = Program {
                regs: std::array::from_fn(|_| rng.random()),
                mem: (0..program::COMPARED.len()).map(|_| rng.random()).collect(),
                funcs: funcs.iter().map(|items| Func { items: items.clone() }).collect(),
            };
            for config in Config::ALL {
                if let Err(f) = run::run(&p, config) {
                    panic!("{what} at {}: {}\n{}\n{}", config.name(), f.what, f.avr, f.mos);
                }
            }
        }
    }
}
