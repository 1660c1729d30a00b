//! Per-instruction tests, table-driven and differential: each AVR instruction (or short
//! sequence) runs with random registers and flags on the reference interpreter
//! (`avr2mos::avrsim`) and, translated, on the `mos6502` CPU; every register and every
//! flag a branch can read (C, Z, N, V, S, T) must agree. Flags are observed the way AVR
//! code observes them: by branches after the instruction, once all together (flags kept
//! in the flags byte) and once each alone (the branch fused with the instruction).

mod common;

use avr2mos::avrsim::{Avr, Stop};
use avr2mos::input::program::{AvrProgram, Function};

/// Registers that hold the probe results; tests never use them as operands.
const PROBE: [u8; 6] = [19, 20, 21, 22, 23, 2];
/// SREG bits probed, in the order of `PROBE`: C, Z, N, V, S, T.
const BITS: [u8; 6] = [0, 1, 2, 3, 4, 6];

fn rr(base: u16, d: u8, r: u8) -> u16 {
    base | (u16::from(r & 0x10) << 5) | (u16::from(d) << 4) | u16::from(r & 0x0F)
}
fn imm(base: u16, d: u8, k: u8) -> u16 {
    base | (u16::from(k & 0xF0) << 4) | (u16::from(d - 16) << 4) | u16::from(k & 0x0F)
}
fn one(base: u16, d: u8) -> u16 {
    base | (u16::from(d) << 4)
}
fn ldi(d: u8, k: u8) -> u16 {
    imm(0xE000, d, k)
}
fn mov(d: u8, r: u8) -> u16 {
    rr(0x2C00, d, r)
}
/// brbc s, .+2 (skip the next one-word instruction if the flag is clear).
fn brbc_skip1(s: u8) -> u16 {
    0xF400 | (1 << 3) | u16::from(s)
}
fn bset(s: u8, set: bool) -> u16 {
    (if set { 0x9408 } else { 0x9488 }) | (u16::from(s) << 4)
}
const RET: u16 = 0x9508;

/// A small deterministic generator (the tests must not depend on the host's randomness).
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u8 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 >> 24) as u8
    }
}

/// Builds: all registers from `regs`, probe registers cleared, C/Z/T from `flags`, the
/// code under test, the probes of `probe_bits`, `ret`.
fn program(regs: &[u8; 32], flags: (bool, bool, bool), body: &[u16], probe_bits: &[usize]) -> Vec<u16> {
    let mut w = Vec::new();
    for k in 0..16u8 {
        w.push(ldi(16, regs[usize::from(k)]));
        w.push(mov(k, 16));
    }
    for k in 16..32u8 {
        w.push(ldi(k, regs[usize::from(k)]));
    }
    for &p in &PROBE[..5] {
        w.push(ldi(p, 0));
    }
    w.push(mov(2, 1)); // The T probe: r2 = r1, becomes r31 if T is set.
    w.push(bset(0, flags.0));
    w.push(bset(1, flags.1));
    w.push(bset(6, flags.2));
    w.extend_from_slice(body);
    for &i in probe_bits {
        w.push(brbc_skip1(BITS[i]));
        if PROBE[i] >= 16 {
            w.push(ldi(PROBE[i], 1));
        } else {
            w.push(mov(PROBE[i], 31));
        }
    }
    w.push(RET);
    w
}

fn prog_of(words: &[u16]) -> AvrProgram {
    AvrProgram {
        text: words.iter().flat_map(|w| w.to_le_bytes()).collect(),
        data_base: 0x200,
        functions: vec![Function { name: "main".into(), addr: 0 }],
        entry: 0,
        // As the pipeline's linker script defines them.
        absolute: avr2mos::runtime::NATIVE.iter().map(|&(n, a, _)| (a, n.to_string())).collect(),
        ..Default::default()
    }
}

/// Runs `words` both ways (translated, or interpreted by the 6502 interpreter if
/// `interpret`); returns the registers (and memory $3000-$30FF) of each.
fn both(words: &[u16], mem_init: &[u8], interpret: bool) -> ([u8; 32], [u8; 32], Vec<u8>, Vec<u8>) {
    both_prog(&prog_of(words), mem_init, interpret)
}

/// [`both`] for a program of several functions.
fn both_prog(prog: &AvrProgram, mem_init: &[u8], interpret: bool) -> ([u8; 32], [u8; 32], Vec<u8>, Vec<u8>) {
    let opts = avr2mos::Options { interpret: if interpret { vec!["*".into()] } else { vec![] }, ..Default::default() };
    let t = avr2mos::translate_with(prog, &opts).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(t.stats.interpreter_bytes > 0, interpret, "the interpreter is there exactly when asked for");
    let mut prg = t.prg.clone();
    // Memory under test at $3000 (past the tiny image): patch it into the file image.
    let load = 0x1C01usize;
    let end = load + prg.len() - 2;
    assert!(end <= 0x3000, "test image overlaps the test buffer");
    prg.resize(0x3000 - load + 2, 0);
    prg.extend_from_slice(mem_init);
    let run = common::run(&prg, 200_000).unwrap_or_else(|e| panic!("{e}"));
    assert!(run.returned && run.exit.is_some(), "translated snippet did not finish");
    let mut r6502 = [0u8; 32];
    r6502.copy_from_slice(&run.zp[0x10..0x30]);
    let mut avr = Avr::new(prog.text.clone(), 0, avr2mos::mmap::STACK_TOP - 2);
    avr.mem[0x3000..0x3000 + mem_init.len()].copy_from_slice(mem_init);
    match avr.run(100_000) {
        Some(Stop::Exit(_)) => {}
        other => panic!("interpreter: {other:?}"),
    }
    (r6502, avr.r, run.mem[0x3000..0x3100].to_vec(), avr.mem[0x3000..0x3100].to_vec())
}

/// Checks one body with random inputs, all flags probed together and each alone.
fn check(name: &str, body: &dyn Fn(&mut Rng) -> Vec<u16>, defs: &[usize], cases: usize) {
    let mut rng =
        Rng(0x9E37_79B9_7F4A_7C15 ^ name.bytes().fold(0u64, |h, b| h.wrapping_mul(31).wrapping_add(u64::from(b))));
    for case in 0..cases {
        let mut regs = [0u8; 32];
        for r in regs.iter_mut() {
            *r = rng.next();
        }
        // Edge values often: 0, 0x80, 0x7F, 0xFF in the operands.
        if case % 3 == 0 {
            for r in regs.iter_mut() {
                *r = [0, 0x80, 0x7F, 0xFF, 1][usize::from(rng.next() % 5)];
            }
        }
        // The T probe copies r31 into r2 (which starts as r1): they must differ.
        regs[31] = regs[1] ^ 0x55;
        let flags = (rng.next() & 1 != 0, rng.next() & 1 != 0, rng.next() & 1 != 0);
        let code = body(&mut rng);
        let mem: Vec<u8> = (0..256).map(|_| rng.next()).collect();
        let mut variants: Vec<Vec<usize>> = vec![vec![], defs.to_vec()];
        variants.extend(defs.iter().map(|&d| vec![d]));
        for (probes, interpret) in variants.iter().flat_map(|p| [(p, false), (p, true)]) {
            let words = program(&regs, flags, &code, probes);
            let (a, b, ma, mb) = both(&words, &mem, interpret);
            if a != b || ma != mb {
                let diff: Vec<String> = (0..32)
                    .filter(|&i| a[i] != b[i])
                    .map(|i| format!("r{i}: 6502 {:02x} avr {:02x}", a[i], b[i]))
                    .collect();
                panic!(
                    "{name} case {case} probes {probes:?} interpreted {interpret} body {code:04x?} regs {regs:02x?} flags {flags:?}: {} {}",
                    diff.join(", "),
                    if ma != mb { "memory differs" } else { "" }
                );
            }
        }
    }
}

/// Operand registers: never the probe registers.
const OPS: [u8; 12] = [0, 3, 7, 12, 16, 17, 18, 24, 25, 26, 29, 30];
fn reg(rng: &mut Rng) -> u8 {
    OPS[usize::from(rng.next()) % OPS.len()]
}
fn hreg(rng: &mut Rng) -> u8 {
    [16, 17, 18, 24, 25, 26, 29, 30][usize::from(rng.next()) % 8]
}

const C: usize = 0;
const Z: usize = 1;
const N: usize = 2;
const V: usize = 3;
const S: usize = 4;
const T: usize = 5;
const ARITH: &[usize] = &[C, Z, N, V, S];

#[test]
fn two_register_alu() {
    for (name, base) in
        [("add", 0x0C00), ("adc", 0x1C00), ("sub", 0x1800), ("sbc", 0x0800), ("cp", 0x1400), ("cpc", 0x0400)]
    {
        check(name, &|r| vec![rr(base, reg(r), reg(r))], ARITH, 40);
    }
    for (name, base) in [("and", 0x2000), ("or", 0x2800), ("eor", 0x2400)] {
        check(name, &|r| vec![rr(base, reg(r), reg(r))], &[Z, N, V, S], 30);
    }
}

#[test]
fn immediate_alu() {
    for (name, base) in [("subi", 0x5000), ("sbci", 0x4000), ("cpi", 0x3000)] {
        check(name, &|r| vec![imm(base, hreg(r), r.next())], ARITH, 40);
    }
    for (name, base) in [("andi", 0x7000), ("ori", 0x6000)] {
        check(name, &|r| vec![imm(base, hreg(r), r.next())], &[Z, N, V, S], 30);
    }
}

#[test]
fn an_increment_written_as_a_subtraction_of_minus_one() {
    // `subi rd, 0xff; sbci re, 0xff; ...` over 2 to 4 registers of their own: rustc's
    // `x + 1`, lowered as `INC` of each byte while the one below wrapped when no flag is
    // probed after it, as a subtraction when one is.
    check(
        "subi/sbci 0xff",
        &|r| {
            let mut regs: Vec<u8> = Vec::new();
            let n = 2 + usize::from(r.next() % 3);
            while regs.len() < n {
                let d = hreg(r);
                if !regs.contains(&d) {
                    regs.push(d);
                }
            }
            regs.iter().enumerate().map(|(i, &d)| imm(if i == 0 { 0x5000 } else { 0x4000 }, d, 0xFF)).collect()
        },
        ARITH,
        60,
    );
}

#[test]
fn one_register_alu() {
    for (name, base, defs) in [
        ("com", 0x9400, ARITH),
        ("neg", 0x9401, ARITH),
        ("inc", 0x9403, &[Z, N, V, S][..]),
        ("dec", 0x940A, &[Z, N, V, S][..]),
        ("asr", 0x9405, ARITH),
        ("lsr", 0x9406, ARITH),
        ("ror", 0x9407, ARITH),
        ("swap", 0x9402, &[][..]),
    ] {
        check(name, &|r| vec![one(base, reg(r))], defs, 40);
    }
}

#[test]
fn word_arithmetic_and_moves() {
    check(
        "adiw",
        &|r| {
            vec![0x9600 | (u16::from(r.next() % 4) << 4) | u16::from(r.next() & 0x0F) | (u16::from(r.next() & 3) << 6)]
        },
        ARITH,
        40,
    );
    check(
        "sbiw",
        &|r| {
            vec![0x9700 | (u16::from(r.next() % 4) << 4) | u16::from(r.next() & 0x0F) | (u16::from(r.next() & 3) << 6)]
        },
        ARITH,
        40,
    );
    check(
        "movw",
        &|r| {
            vec![
                0x0100
                    | u16::from([0u8, 4, 8, 12, 13, 14][usize::from(r.next()) % 6]) << 4
                    | u16::from([0u8, 6, 12, 13, 14][usize::from(r.next()) % 5]),
            ]
        },
        &[],
        20,
    );
    check("mov", &|r| vec![mov(reg(r), reg(r))], &[], 20);
}

#[test]
fn multiplies() {
    check("mul", &|r| vec![rr(0x9C00, reg(r), reg(r))], &[C, Z], 40);
    check("muls", &|r| vec![0x0200 | (u16::from(hreg(r) - 16) << 4) | u16::from(hreg(r) - 16)], &[C, Z], 40);
    for (name, base) in [("mulsu", 0x0300), ("fmul", 0x0308), ("fmuls", 0x0380), ("fmulsu", 0x0388)] {
        check(
            name,
            &|r| {
                vec![
                    base | (u16::from([0u8, 1, 2][usize::from(r.next()) % 3]) << 4)
                        | u16::from([0u8, 1, 2][usize::from(r.next()) % 3]),
                ]
            },
            &[C, Z],
            30,
        );
    }
    // By a constant loaded before: `mul` becomes shifts and adds; so do `muls` and `mulsu`
    // whose high byte is cleared unread (LLVM's 16-bit multiply), and with r1 then read
    // (or the flags probed) they stay the signed multiply.
    for (name, base) in [("mul", 0x9C00u16), ("muls", 0x0200), ("mulsu", 0x0300)] {
        for clear in [true, false] {
            let body = move |r: &mut Rng| {
                let k = [3u8, 10, 24, 0x80, 0xFF, r.next()][usize::from(r.next() % 6)];
                // mulsu takes r16-r23 only.
                let (d, c) = ([16u8, 17, 19][usize::from(r.next() % 3)], if base == 0x0300 { 18u8 } else { 24 });
                let op = match base {
                    0x9C00 => rr(base, d, c),
                    _ => base | (u16::from(d - 16) << 4) | u16::from(c - 16),
                };
                let mut v = vec![ldi(c, k), op, mov(25, 0)];
                if !clear {
                    v.push(mov(26, 1));
                }
                v.push(rr(0x2400, 1, 1)); // eor r1, r1
                v
            };
            check(&format!("{name} by a constant, r1 cleared {clear}"), &body, &[C, Z], 40);
        }
    }
}

#[test]
fn bits_and_t_flag() {
    check(
        "bst/bld",
        &|r| {
            vec![
                0xFA00 | (u16::from(reg(r)) << 4) | u16::from(r.next() & 7),
                0xF800 | (u16::from(reg(r)) << 4) | u16::from(r.next() & 7),
            ]
        },
        &[],
        40,
    );
    check("bst", &|r| vec![0xFA00 | (u16::from(reg(r)) << 4) | u16::from(r.next() & 7)], &[T], 40);
}

#[test]
fn skips_over_one_and_two_word_instructions() {
    // sbrc/sbrs/cpse skipping an ldi, or a two-word sts.
    let skip = |r: &mut Rng| {
        let first = match r.next() % 3 {
            0 => 0xFC00 | (u16::from(reg(r)) << 4) | u16::from(r.next() & 7),
            1 => 0xFE00 | (u16::from(reg(r)) << 4) | u16::from(r.next() & 7),
            _ => rr(0x1000, reg(r), reg(r)),
        };
        let skipped = if r.next() & 1 == 0 { vec![ldi(17, 0xA5)] } else { vec![0x9200 | (24 << 4), 0x3010] };
        let mut v = vec![first];
        v.extend(skipped);
        v.push(ldi(18, 0x5A));
        v
    };
    check("skips", &skip, &[], 60);
}

#[test]
fn loads_and_stores_in_every_pointer_mode() {
    // Pointers aimed into the buffer at $3000; X = r27:r26, Y = r29:r28, Z = r31:r30.
    let mem = |r: &mut Rng| {
        let (ptr, ld_bits, st_bits): (u8, [u16; 3], [u16; 3]) = match r.next() % 3 {
            0 => (26, [0x900C, 0x900D, 0x900E], [0x920C, 0x920D, 0x920E]),
            1 => (28, [0x8008, 0x9009, 0x900A], [0x8208, 0x9209, 0x920A]),
            _ => (30, [0x8000, 0x9001, 0x9002], [0x8200, 0x9201, 0x9202]),
        };
        let mut v = vec![ldi(ptr, 0x40 + (r.next() & 0x3F)), ldi(ptr + 1, 0x30)];
        let d: u8 = [0, 3, 7, 16, 17, 18, 24, 25][usize::from(r.next()) % 8];
        let mode = usize::from(r.next() % 3);
        let load = r.next() & 1 == 0;
        let mut w = if load { ld_bits[mode] } else { st_bits[mode] } | (u16::from(d) << 4);
        if mode == 0 && ptr != 26 {
            let q = u16::from(r.next() & 0x3F);
            w |= ((q & 0x20) << 8) | ((q & 0x18) << 7) | (q & 7);
        }
        v.push(w);
        // lds/sts with an absolute address.
        v.extend([0x9000 | (u16::from(d) << 4), 0x3000 + u16::from(r.next())]);
        v.extend([0x9200 | (17 << 4), 0x3000 + u16::from(r.next())]);
        v
    };
    check("ld/st", &mem, &[], 120);
    // Consecutive displacements through one pointer (the 6502 Y register is reused).
    let seq = |r: &mut Rng| {
        let ptr: u16 = if r.next() & 1 == 0 { 0x8008 } else { 0x8000 };
        let base = u16::from(r.next() % 59);
        let disp = |q: u16| ((q & 0x20) << 8) | ((q & 0x18) << 7) | (q & 7);
        let reg_ptr = if ptr == 0x8008 { 28 } else { 30 };
        vec![
            ldi(reg_ptr, 0x40),
            ldi(reg_ptr + 1, 0x30),
            ptr | (24 << 4) | disp(base),
            ptr | (25 << 4) | disp(base + 1),
            ptr | 0x0200 | (24 << 4) | disp(base + 3),
            ptr | 0x0200 | (25 << 4) | disp(base + 2),
            ptr | (16 << 4) | disp(base + 2),
        ]
    };
    check("ldd/std runs", &seq, &[], 40);
}

#[test]
fn push_pop_and_stack_pointer() {
    let body = |r: &mut Rng| {
        let (a, b) = (reg(r), reg(r));
        vec![
            0x920F | (u16::from(a) << 4), // push a
            0xB7CD,                       // in r28, SP low
            0xB7DE,                       // in r29, SP high
            0x8008 | (18 << 4) | 1,       // ldd r18, Y+1: what was pushed
            0x900F | (u16::from(b) << 4), // pop b
        ]
    };
    check("push/pop", &body, &[], 30);
    // Runs of pushes (ascending registers) and pops (descending) become one call each.
    let runs = |r: &mut Rng| {
        let (first, n) = ([3u8, 7, 12, 24][usize::from(r.next()) % 4], 2 + r.next() % 3);
        let mut v: Vec<u16> = (0..n).map(|k| 0x920F | (u16::from(first + k) << 4)).collect();
        v.extend([0xB7CD, 0xB7DE, 0x8008 | (18 << 4) | 2]);
        // Pop back into shifted registers so the order is visible.
        v.extend((0..n).rev().map(|k| 0x900F | (u16::from(first + k + 1) << 4)));
        v
    };
    check("push/pop runs", &runs, &[], 30);
}

#[test]
fn counting_loops() {
    // dec/inc rX; cpi rX, 0; brne/breq: the compare reuses the flags of the count.
    let body = |r: &mut Rng| {
        let d = hreg(r);
        let step = if r.next() & 1 == 0 { 0x940A } else { 0x9403 };
        let branch = if r.next() & 1 == 0 { 0xF000 } else { 0xF400 } | (1 << 3) | 1;
        vec![one(step, d), imm(0x3000, d, 0), branch, ldi(18, 0x66)]
    };
    check("count", &body, &[], 60);
}

#[test]
fn compare_chains_and_every_branch() {
    // cp/cpc chains of 1..4 bytes followed by each conditional branch: the fused 6502
    // compare must take the branch exactly when the AVR would.
    for s in [0u8, 1, 2, 3, 4] {
        for set in [false, true] {
            for len in 1..=4u8 {
                let body = move |r: &mut Rng| {
                    let lo = [16u8, 24, 26][usize::from(r.next()) % 3];
                    let other = if lo == 16 { 24 } else { 16 };
                    let mut v = Vec::new();
                    for i in 0..len {
                        if i == 0 && r.next() & 1 == 0 {
                            // cpi, often against 0 (lowered to a bare load for equality).
                            let k = if r.next() & 1 == 0 { 0 } else { r.next() };
                            v.push(imm(0x3000, lo, k));
                        } else {
                            v.push(rr(if i == 0 { 0x1400 } else { 0x0400 }, lo + i, other + i));
                        }
                    }
                    // Often a move after the last compare: into a register the chain does
                    // not read, or over one it read (the branch must still see the flags
                    // the compare left).
                    match r.next() % 4 {
                        0 => v.push(mov(3, lo)),
                        1 => v.push(mov(lo, 3)),
                        _ => {}
                    }
                    // brbs/brbc s, .+2 over an ldi
                    v.push(if set { 0xF000 } else { 0xF400 } | (1 << 3) | u16::from(s));
                    v.push(ldi(18, 0x77));
                    // Sometimes T is read after the branch (live across it: the fused
                    // branch must leave it alone).
                    if r.next() & 1 == 0 {
                        v.push(0xF800 | (3 << 4) | 5); // bld r3, 5
                    }
                    v
                };
                check(&format!("chain{len} s{s} {set}"), &body, &[], 25);
            }
        }
    }
}

#[test]
fn equality_chains_whose_moves_overwrite_a_compared_register() {
    // LLVM loads the constant for the next compare into a register it has just compared
    // (`cpi r24, lo; cpc r25, r17; ldi r24, 0; ldi r25, 0; cpc r30, r24; cpc r31, r25`),
    // and sets a result over a compared register before the branch (`ldi r20, 1; breq`):
    // the moves cannot go first, so the chain runs in order. Equal operands are made half
    // the time, and unequal ones differ in one byte only, each byte in turn.
    for set in [false, true] {
        for trailing in [false, true] {
            let body = move |r: &mut Rng| {
                let (a, b, b2) = (r.next(), r.next(), r.next());
                let equal = r.next() & 1 == 0;
                let mut operands = [a, b, if equal { b } else { b2 }, 0, 0, a];
                if equal && r.next() & 1 == 0 {
                    // One byte off: the low compare's constant, the middle register, or a
                    // byte compared against the zeros loaded in between.
                    let which = [5, 2, 3, 4][usize::from(r.next() % 4)];
                    operands[which] ^= 1 << (r.next() % 8);
                }
                let [a, b, b2, c, d, a2] = operands;
                let mut v = vec![ldi(24, a), ldi(25, b), ldi(17, b2), ldi(30, c), ldi(31, d)];
                v.extend([imm(0x3000, 24, a2), rr(0x0400, 25, 17), ldi(24, 0), ldi(25, 0)]);
                v.extend([rr(0x0400, 30, 24), rr(0x0400, 31, 25)]);
                if trailing {
                    v.push(ldi(25, 1)); // Over a compared register, after the last compare.
                }
                v.push(if set { 0xF000 } else { 0xF400 } | (1 << 3) | 1); // brbs/brbc z, .+2
                v.push(ldi(18, 0x77));
                v
            };
            check(&format!("in-order equality {set} {trailing}"), &body, &[], 60);
        }
    }
}

#[test]
fn a_carry_or_overflow_branch_after_moves_reads_the_arithmetic() {
    // add/adc/sub/sbc/lsr/subi/sbci, then moves (over an operand or elsewhere), then a
    // branch on C or V: fused, the moves between must keep the flags.
    let ops = [0x0C00u16, 0x1C00, 0x1800, 0x0800];
    for s in [0u8, 3] {
        for set in [false, true] {
            let body = move |r: &mut Rng| {
                let (d, o) = (hreg(r), hreg(r));
                let mut v = match r.next() % 4 {
                    0 => vec![one(0x9406, d)],           // lsr
                    1 => vec![imm(0x5000, d, r.next())], // subi
                    2 => vec![imm(0x4000, d, r.next())], // sbci
                    _ => vec![rr(ops[usize::from(r.next() % 4)], d, o)],
                };
                for _ in 0..=r.next() % 3 {
                    match r.next() % 3 {
                        0 => v.push(mov(3, d)),
                        1 => v.push(mov(d, 3)),
                        _ => v.push(ldi(hreg(r), r.next())),
                    }
                }
                v.push(if set { 0xF000 } else { 0xF400 } | (1 << 3) | u16::from(s));
                v.push(ldi(18, 0x77));
                v
            };
            check(&format!("moves then s{s} {set}"), &body, &[], 40);
        }
    }
}

#[test]
fn status_register_reads_and_writes() {
    // in rX, SREG after an instruction; out SREG, rX then every branch; and a save/restore
    // around a flag-changing adiw (how LLVM reaches frames beyond Y+63).
    check("in sreg", &|r| vec![rr(0x1800, hreg(r), hreg(r)), 0xB000 | 0x0F | (0x30 << 5) | (17 << 4)], &[], 40);
    check(
        "out sreg",
        &|r| vec![ldi(17, r.next() & 0x4F), 0xB800 | 0x0F | (0x30 << 5) | (17 << 4)],
        &[C, Z, N, V, S, T],
        40,
    );
    check(
        "save/restore subi/sbci",
        &|r| {
            // Y into the test buffer, down by k and back up, as LLVM reaches big frames.
            let k = r.next() & 0x3F;
            vec![
                ldi(28, 0x80),
                ldi(29, 0x30),
                rr(
                    0x1400,
                    [16, 17, 18, 24, 25][usize::from(r.next()) % 5],
                    [16, 17, 18, 24, 25][usize::from(r.next()) % 5],
                ),
                0xB000 | 0x0F | (0x30 << 5),
                imm(0x5000, 28, k),
                imm(0x4000, 29, 0),
                0x8208 | (17 << 4) | 1,
                imm(0x5000, 28, k.wrapping_neg()),
                imm(0x4000, 29, 0xFF),
                0xB800 | 0x0F | (0x30 << 5),
                mov(0, 16),
            ]
        },
        &[C, Z, N, V, S],
        40,
    );
    check(
        "save/restore",
        &|r| {
            vec![
                rr(0x1400, hreg(r), hreg(r)),
                0xB000 | 0x0F | (0x30 << 5),
                0x9600 | (0x20) | 3,
                0x9700 | (0x20) | 3,
                0xB800 | 0x0F | (0x30 << 5),
                // r0 is LLVM's scratch register: dead after the restore.
                mov(0, 16),
            ]
        },
        &[C, Z, N, V, S],
        40,
    );
}

#[test]
fn a_copy_and_an_add_of_another_pair_agree_with_the_simulator() {
    // movw d, s; add d, r; adc d+1, r+1: one sum into d where no flag is read after it
    // (the probes of the flags keep the plain lowering too); r may be s.
    let movw = |d: u8, s: u8| 0x0100 | (u16::from(d / 2) << 4) | u16::from(s / 2);
    let pairs = [16u8, 18, 20, 22, 24, 30];
    check(
        "movw; add; adc",
        &|r| {
            let d = pairs[usize::from(r.next()) % pairs.len()];
            let s = pairs[usize::from(r.next()) % pairs.len()];
            let mut a = pairs[usize::from(r.next()) % pairs.len()];
            if a == d {
                a = if d == 16 { 18 } else { 16 };
            }
            vec![movw(d, s), rr(0x0C00, d, a), rr(0x1C00, d + 1, a + 1)]
        },
        ARITH,
        60,
    );
}

#[test]
fn nibble_shifts_agree_with_the_simulator() {
    // LLVM's shifts by 4 through `swap`, which the translator turns into four 6502 shifts
    // where no flag is read after them (the probes of the flags keep the plain lowering
    // too): a byte left and right, a pair left and right.
    let swap = |d: u8| one(0x9402, d);
    let andi = |d: u8, k: u8| imm(0x7000, d, k);
    let eor = |d: u8, r: u8| rr(0x2400, d, r);
    let pair = |r: &mut Rng| [(17u8, 16u8), (25, 24), (19, 18), (31, 30)][usize::from(r.next() % 4)];
    for mask in [0xF0, 0x0F] {
        let body = move |r: &mut Rng| {
            let d = hreg(r);
            vec![swap(d), andi(d, mask)]
        };
        check(&format!("swap; andi {mask:#04x}"), &body, &[Z, N, V, S], 30);
    }
    // A pair, both swaps first: the high byte's for `<< 4`, the low byte's for `>> 4`.
    for left in [true, false] {
        let body = move |r: &mut Rng| {
            let (hi, lo) = pair(r);
            let (x, y, m) = if left { (hi, lo, 0xF0) } else { (lo, hi, 0x0F) };
            vec![swap(x), swap(y), andi(x, m), eor(x, y), andi(y, m), eor(x, y)]
        };
        check(if left { "pair << 4" } else { "pair >> 4" }, &body, &[Z, N, V, S], 30);
    }
    // Chains of three bytes (a 32-bit `>> 12` after its byte moves), each way.
    let chain = |m: u8, x: [u8; 3]| {
        let mut v = vec![swap(x[0]), andi(x[0], m)];
        for w in x.windows(2) {
            v.extend([swap(w[1]), eor(w[0], w[1]), andi(w[1], m), eor(w[0], w[1])]);
        }
        v
    };
    check("three bytes >> 4", &|_| chain(0x0F, [23, 24, 25]), &[Z, N, V, S], 30);
    check("three bytes << 4", &|_| chain(0xF0, [25, 24, 23]), &[Z, N, V, S], 30);
    // The later bytes copied in just before their swaps (xorshift's `x << 13`): `mov b, y;
    // swap b; ...`, y outside the chain; and with y a byte of the chain, which must be
    // read after that byte's step.
    for (name, y) in [("copied in", [16u8, 17]), ("copied from the chain", [25, 16])] {
        let body = move |_: &mut Rng| {
            let mut v = vec![swap(25), andi(25, 0xF0)];
            for (b, a, y) in [(24u8, 25u8, y[0]), (26, 24, y[1])] {
                v.extend([mov(b, y), swap(b), eor(a, b), andi(b, 0xF0), eor(a, b)]);
            }
            v
        };
        check(&format!("three bytes << 4, {name}"), &body, &[Z, N, V, S], 30);
    }
}

#[test]
fn variable_shift_loops_agree_with_the_simulator() {
    // LLVM's `x << n` and `x >> n`: `L: dec c; brmi X; <steps>; rjmp L; X:`, here inside an
    // outer loop (run once) so that the shift's loop is hot and becomes a 6502 loop counting
    // in X. Where a flag is probed after it (C comes from the last step), the plain lowering
    // stays. Counts include 0, 0x7f, 0x80 (128 rounds) and those above (none).
    let dec = |d: u8| one(0x940A, d);
    let (counter, outer) = (26u8, 27u8);
    let shift = move |steps: Vec<u16>, r: &mut Rng| {
        let len = steps.len() as u16;
        let amount = if r.next() & 1 == 0 {
            ldi(counter, [0, 1, 2, 3, 7, 8, 9, 15, 16, 31, 0x7F, 0x80, 0x81, 0xFF][usize::from(r.next() % 14)])
        } else {
            mov(counter, [3, 7, 12, 16, 17, 18, 24, 25][usize::from(r.next() % 8)])
        };
        let mut v = vec![ldi(outer, 1), amount, dec(counter), 0xF002 | ((len + 1) << 3)];
        v.extend(steps);
        v.push(0xC000 | ((len + 3).wrapping_neg() & 0xFFF)); // rjmp L
        v.extend([dec(outer), 0xF401 | (((len + 6).wrapping_neg() & 0x7F) << 3)]); // brne outer
        v
    };
    let regs = [3u8, 7, 12, 16, 17, 18, 24, 25, 29, 30];
    let pick = |r: &mut Rng| regs[usize::from(r.next()) % regs.len()];
    type Steps = fn(u8, u8, u8, u8) -> Vec<u16>;
    let shapes: [(&str, Steps); 7] = [
        ("byte <<", |a, _, _, _| vec![rr(0x0C00, a, a)]),
        ("byte >>", |a, _, _, _| vec![one(0x9406, a)]),
        ("signed byte >>", |a, _, _, _| vec![one(0x9405, a)]),
        ("byte rotated twice", |a, _, _, _| vec![rr(0x0C00, a, a), rr(0x1C00, a, a)]),
        ("pair <<", |a, b, _, _| vec![rr(0x0C00, a, a), rr(0x1C00, b, b)]),
        ("signed pair >>", |a, b, _, _| vec![one(0x9405, b), one(0x9407, a)]),
        ("long <<", |a, b, c, d| vec![rr(0x0C00, a, a), rr(0x1C00, b, b), rr(0x1C00, c, c), rr(0x1C00, d, d)]),
    ];
    for (name, steps) in shapes {
        let body = move |r: &mut Rng| {
            let mut four = [0u8; 4];
            for k in 0..4 {
                four[k] = loop {
                    let x = pick(r);
                    if !four[..k].contains(&x) {
                        break x;
                    }
                };
            }
            shift(steps(four[0], four[1], four[2], four[3]), r)
        };
        check(name, &body, &[C, Z, N, V, S], 40);
        // Unprobed, the loop counts in X (`DEX; BPL` back); a flag probed after it keeps the
        // AVR's loop (`DEC c`).
        let mut rng = Rng(7);
        for (probes, counts_in_x) in [(vec![], true), (vec![C], false)] {
            let words = program(&[0x11; 32], (false, false, false), &body(&mut rng), &probes);
            let t = avr2mos::translate_with(&prog_of(&words), &avr2mos::Options::default()).unwrap();
            let line = t.listing.lines().find(|l| l.contains("dec r26")).expect("the count in the listing");
            assert_eq!(line.contains(" ca 10 "), counts_in_x, "{name}, probes {probes:?}: {line}");
        }
    }
    // `1 << n`, the byte loaded with 1 just before the loop: a table for the counts below 8,
    // 0 up to 128 rounds, and the 1 kept from 129 on (no round).
    let pow2 = move |r: &mut Rng| {
        // `ldi` reaches r16-r31 only.
        let a = [16u8, 17, 18, 24, 25, 30][usize::from(r.next() % 6)];
        let amount = if r.next() & 1 == 0 {
            ldi(counter, [0, 1, 2, 3, 7, 8, 9, 15, 16, 0x7F, 0x80, 0x81, 0xFF][usize::from(r.next() % 13)])
        } else {
            mov(counter, [3, 7, 12, 16, 17, 18, 24, 25][usize::from(r.next() % 8)])
        };
        // outer: amount; ldi a, 1; L: dec c; brmi X; lsl a; rjmp L; X: ldi c, 0; dec outer;
        // brne outer (the count is dead after the loop, as where LLVM writes `1 << n`).
        let back = [0xC000 | (4u16.wrapping_neg() & 0xFFF), ldi(counter, 0), dec(outer)];
        let mut v = vec![ldi(outer, 1), amount, ldi(a, 1), dec(counter), 0xF002 | (2 << 3), rr(0x0C00, a, a)];
        v.extend(back);
        v.push(0xF401 | ((9u16.wrapping_neg() & 0x7F) << 3));
        v
    };
    check("1 << n", &pow2, &[C, Z, N, V, S], 60);
    let words = program(&[0x11; 32], (false, false, false), &pow2(&mut Rng(5)), &[]);
    let t = avr2mos::translate_with(&prog_of(&words), &avr2mos::Options::default()).unwrap();
    let line = t.listing.lines().find(|l| l.contains("dec r26")).expect("the count in the listing");
    assert!(line.contains(" e0 08 90 07 a9 00 e0 81 2a 90 03 bd "), "1 << n as a table: {line}");
    // Not in an outer loop, the shift runs a bounded number of times: its bytes count for
    // more, and it stays as it is.
    let mut v = shift(vec![rr(0x0C00, 24, 24)], &mut Rng(3));
    v.drain(..1);
    v.truncate(v.len() - 2);
    let t = avr2mos::translate_with(
        &prog_of(&program(&[0x11; 32], (false, false, false), &v, &[])),
        &avr2mos::Options::default(),
    )
    .unwrap();
    let line = t.listing.lines().find(|l| l.contains("dec r26")).expect("the count in the listing");
    assert!(!line.contains(" ca 10 "), "a shift run once keeps its loop: {line}");
}

#[test]
fn native_helpers_keep_their_conventions() {
    // A call to each native routine with random operands (non-zero divisors; the overflow
    // flag pointer aimed at the test buffer) must give what the interpreter computes from
    // the routines' documented conventions.
    let call = |addr: u32| [0x940E | (((addr / 2) >> 16) as u16 & 1), ((addr / 2) & 0xFFFF) as u16];
    for (name, addr) in [
        ("__mulsi3", 0x3F000u32),
        ("__divmodhi4", 0x3F004),
        ("__divmodqi4", 0x3F008),
        ("__udivmodqi4", 0x3F01C),
        ("__udivmodhi4", 0x3F020),
        ("__mulosi4", 0x3F014),
        ("__mulodi4", 0x3F018),
    ] {
        let body = move |r: &mut Rng| {
            let mut v = vec![imm(0x6000, 22, 1 + (r.next() & 3))]; // ori r22: a non-zero divisor
            if r.next() & 1 == 0 {
                v.push(ldi(23, 0)); // and often a small one
            }
            // Overflow pointers: r17:r16 and r9:r8 -> $3010.
            v.extend([ldi(16, 0x10), ldi(17, 0x30), mov(8, 16), mov(9, 17)]);
            v.extend(call(addr));
            v
        };
        check(name, &body, &[], 60);
    }
    // Constant divisors (an `ldi r22` before the call): lowered to code for that divisor.
    for k in [1u8, 2, 3, 8, 10, 13, 64, 100, 255] {
        let body = move |r: &mut Rng| {
            let mut v = vec![ldi(22, k)];
            if r.next() & 1 == 0 {
                v.push(mov(24, 16)); // a move between the constant and the call
            }
            v.extend(call(0x3F01C));
            v
        };
        check(&format!("__udivmodqi4 by {k}"), &body, &[], 30);
    }
    // Small 32-bit operands (high bytes zero on either side or both: the multiply's and
    // the divisions' short paths), against the general answers.
    for (name, addr) in [("__mulsi3", 0x3F000u32), ("__udivmodsi4", 0x3F024), ("__divmodsi4", 0x3F028)] {
        let body = move |r: &mut Rng| {
            let mut v = vec![];
            // Every operand byte set here (r19-r23 start as probes, cleared).
            for base in [18u8, 22] {
                let zeros = r.next() % 4;
                for b in 0..4 {
                    v.push(ldi(base + b, if b >= 4 - zeros { 0 } else { r.next() }));
                }
            }
            if r.next().is_multiple_of(8) {
                v.extend([ldi(18, 0), ldi(19, 0), ldi(20, 0), ldi(21, 0)]);
            }
            v.extend(call(addr));
            v
        };
        check(&format!("{name} small"), &body, &[], 80);
    }
    // The 32-bit divisions, with zero divisors (libgcc's answers), -1 and small ones too.
    for (name, addr) in [("__udivmodsi4", 0x3F024u32), ("__divmodsi4", 0x3F028)] {
        let body = move |r: &mut Rng| {
            let mut v = vec![];
            match r.next() % 5 {
                0 => v.extend([ldi(18, 0), ldi(19, 0), ldi(20, 0), ldi(21, 0)]),
                1 => v.extend([ldi(18, 0xFF), ldi(19, 0xFF), ldi(20, 0xFF), ldi(21, 0xFF)]),
                2 => v.extend([ldi(20, 0), ldi(21, 0)]),
                _ => {}
            }
            if r.next().is_multiple_of(4) {
                v.extend([ldi(22, 0), ldi(23, 0), ldi(24, 0), ldi(25, 0x80)]);
            }
            v.extend(call(addr));
            v
        };
        check(name, &body, &[], 80);
    }
}

#[test]
fn wide_multiply_and_divisions_agree_on_edge_operands() {
    // Every pair of these operands, each routine: zero, one, the rates money meets (19,
    // 20), the ends of every byte width, the sign bit and all ones, so that each operand
    // choice of the multiply and each path of the divisions (by 1, below 256, zero, wide)
    // meets its edges. The interpreter's answers are libgcc's conventions.
    // Two more: a small negative number (a fixed-point square of it negates both
    // operands first) and FNV's prime, whose zero middle byte the multiply skips.
    const EDGES: [u32; 17] = [
        0,
        1,
        2,
        19,
        20,
        0xFF,
        0x100,
        0xFFFF,
        0x1_0000,
        0xFF_FFFF,
        0x100_0000,
        0x7FFF_FFFF,
        0x8000_0000,
        0xFFFF_FFFF,
        0x1234_5678,
        0xFFFF_EC78,
        0x0100_0193,
    ];
    let call = |addr: u32| [0x940E | (((addr / 2) >> 16) as u16 & 1), ((addr / 2) & 0xFFFF) as u16];
    for (name, addr) in [("__mulsi3", 0x3F000u32), ("__udivmodsi4", 0x3F024), ("__divmodsi4", 0x3F028)] {
        let pair = std::cell::Cell::new(0usize);
        let body = |_: &mut Rng| {
            let n = pair.get();
            pair.set(n + 1);
            let (a, b) = (EDGES[n / EDGES.len()], EDGES[n % EDGES.len()]);
            let mut v: Vec<u16> = (0..4).map(|i| ldi(22 + i, a.to_le_bytes()[usize::from(i)])).collect();
            v.extend((0..4).map(|i| ldi(18 + i, b.to_le_bytes()[usize::from(i)])));
            v.extend(call(addr));
            v
        };
        check(&format!("{name} edges"), &body, &[], EDGES.len() * EDGES.len());
    }
}

#[test]
fn a_multiply_that_reuses_a_divisions_product_agrees_with_the_simulator() {
    // LLVM's `x % d` after `x / d`: the divisor kept in r7:r4 across the division, the
    // quotient moved, both in place for `__mulsi3`, which then becomes a copy of
    // the product the division kept. Every pair of edge operands, both divisions; and
    // with a quotient byte changed between the calls (the multiply stays a multiply).
    const EDGES: [u32; 10] = [0, 1, 10, 0xFF, 0x100, 0xFFFF, 0x7FFF_FFFF, 0x8000_0000, 0xFFFF_FFF6, 0x1234_5678];
    let call = |addr: u32| [0x940E | (((addr / 2) >> 16) as u16 & 1), ((addr / 2) & 0xFFFF) as u16];
    let movw = |d: u8, s: u8| 0x0100 | (u16::from(d / 2) << 4) | u16::from(s / 2);
    let shape = |a: u32, b: u32, div: u32, changed: bool| {
        let mut v: Vec<u16> = (0..4).map(|i| ldi(22 + i, a.to_le_bytes()[usize::from(i)])).collect();
        v.extend((0..4).map(|i| ldi(18 + i, b.to_le_bytes()[usize::from(i)])));
        v.extend([movw(4, 18), movw(6, 20)]);
        v.extend(call(div));
        v.extend([movw(22, 18), movw(24, 20), movw(18, 4), movw(20, 6)]);
        if changed {
            v.push(one(0x9403, 23)); // inc r23
        }
        v.extend(call(0x3F000));
        v
    };
    for (name, div) in [("__udivmodsi4", 0x3F024u32), ("__divmodsi4", 0x3F028)] {
        for changed in [false, true] {
            let words = program(&[0; 32], (false, false, false), &shape(7, 3, div, changed), &[]);
            let t = avr2mos::translate_with(&prog_of(&words), &avr2mos::Options::default()).unwrap();
            assert_eq!(t.map.contains("keep"), !changed, "{name}: the product kept exactly when it is reused");
            let pair = std::cell::Cell::new(0usize);
            let body = |_: &mut Rng| {
                let n = pair.get();
                pair.set(n + 1);
                shape(EDGES[n / EDGES.len()], EDGES[n % EDGES.len()], div, changed)
            };
            check(&format!("{name} then __mulsi3, changed {changed}"), &body, &[], EDGES.len() * EDGES.len());
        }
    }
}

#[test]
fn a_division_routine_is_its_byte_path_when_every_divisor_is_known_and_small() {
    // At each width, two divisions, unsigned by 10 and signed by -7, their divisors
    // loaded just before: the unsigned routine is then only its byte path. A third
    // division whose divisor comes from memory keeps the whole routine. Either way every
    // result agrees with the simulator, for edge dividends.
    const DIVIDENDS: [u32; 6] = [0, 9, 0xFF, 0x7FFF_FFFF, 0x8000_0000, 0xFFFF_FFFF];
    let call = |addr: u32| [0x940E | (((addr / 2) >> 16) as u16 & 1), ((addr / 2) & 0xFFFF) as u16];
    let sts = |d: u8, k: u16| [0x9200 | (u16::from(d) << 4), k];
    let load = |base: u8, v: u32, n: u8| (0..n).map(move |j| ldi(base + j, v.to_le_bytes()[usize::from(j)]));
    // (routine name, width in bytes, dividend's register, divisor's, unsigned, signed)
    let widths =
        [("rt_udivmodsi4", 4u8, 22u8, 18u8, 0x3F024u32, 0x3F028u32), ("rt_udivmodhi4", 2, 24, 22, 0x3F020, 0x3F004)];
    for (name, n, dividend, divisor, unsigned, signed) in widths {
        let shape = |x: u32, variable: bool| {
            let mut v: Vec<u16> = Vec::new();
            for (d, routine, at) in [(10u32, unsigned, 0x3040u16), ((-7i32) as u32, signed, 0x3048)] {
                v.extend(load(dividend, x, n));
                v.extend(load(divisor, d, n));
                v.extend(call(routine));
                // The quotient and the remainder to memory.
                for j in 0..n {
                    v.extend(sts(divisor + j, at + u16::from(j)));
                    v.extend(sts(dividend + j, at + 4 + u16::from(j)));
                }
            }
            if variable {
                v.extend(load(dividend, x, n));
                v.extend(load(divisor, 0, n));
                v.extend([0x9000 | (u16::from(divisor) << 4), 0x3000]); // lds divisor, 0x3000
                v.extend(call(unsigned));
            }
            v
        };
        let routine_bytes = |listing: &str| -> usize {
            let line =
                listing.lines().find(|l| l.starts_with(&format!("{name}:"))).expect("the routine in the listing");
            line.split_whitespace().rev().nth(1).and_then(|b| b.parse().ok()).expect("its size")
        };
        for variable in [false, true] {
            let words = program(&[0; 32], (false, false, false), &shape(7, variable), &[]);
            let t = avr2mos::translate_with(&prog_of(&words), &avr2mos::Options::default()).unwrap();
            let bytes = routine_bytes(&t.listing);
            let small = if n == 4 { 73 } else { 51 };
            assert_eq!(bytes == small, !variable, "{name} takes {bytes} bytes, variable divisor {variable}");
            let k = std::cell::Cell::new(0usize);
            let body = |_: &mut Rng| {
                let i = k.get();
                k.set(i + 1);
                shape(DIVIDENDS[i % DIVIDENDS.len()], variable)
            };
            check(&format!("{name} by 10 and -7, variable {variable}"), &body, &[], DIVIDENDS.len());
        }
    }
}

#[test]
fn a_32_bit_multiply_by_a_constant_agrees_with_the_simulator() {
    // `__mulsi3` in a loop (once round) with one operand a constant: in r21:r18, copied
    // there from r15:r12, set before the loop (as LLVM keeps FNV's prime), or in r25:r22,
    // set inside the loop before the call. The product is shifts and adds of the other
    // operand, with no call, for a constant short enough (the map then has no rt_mulsi3,
    // and the copies into r21:r18, dead after the loop, leave no code); every constant and
    // operand here against the simulator.
    const CONSTANTS: [u32; 8] = [0, 1, 3, 10, 0x100, 0x01000193, 0x8000_0000, 0x0001_0001];
    const OPERANDS: [u32; 6] = [0, 1, 0xFF, 0x7FFF_FFFF, 0xFFFF_FFFF, 0x1234_5678];
    let call = [0x940F, 0xF800]; // call __mulsi3 (byte address 0x3F000)
    let sts = |d: u8, k: u16| [0x9200 | (u16::from(d) << 4), k];
    let shape = |k: u32, x: u32, k_first: bool, kept: bool| {
        let load = |base: u8, v: u32| (0..4).map(move |j| ldi(base + j, v.to_le_bytes()[usize::from(j)]));
        let movw = |d: u8, s: u8| 0x0100 | (u16::from(d / 2) << 4) | u16::from(s / 2);
        let mut v: Vec<u16> = Vec::new();
        if k_first {
            v.extend(load(16, k));
            v.extend([movw(12, 16), movw(14, 18)]);
            v.extend(load(22, x));
        } else {
            v.extend(load(18, x));
        }
        v.push(ldi(16, 1));
        let top = v.len();
        if k_first {
            v.extend([movw(18, 12), movw(20, 14)]);
        } else {
            v.extend(load(22, k));
        }
        v.extend(call);
        v.push(one(0x940A, 16)); // dec r16
        let back = (v.len() - top + 1) as u16;
        v.push(0xF401 | ((back.wrapping_neg() & 0x7F) << 3)); // brne back to the top
        if kept {
            // r21:r18 read after the loop: the copies into them stay.
            for j in 0..4u8 {
                v.extend(sts(18 + j, 0x3000 + u16::from(j)));
            }
        } else {
            // r21:r18 dead after the loop: the copies into them only fed the multiply.
            v.extend(load(18, 0x0BAD_CAFE));
        }
        v
    };
    for (k_first, kept) in [(true, false), (true, true), (false, false)] {
        for k in CONSTANTS {
            let words = program(&[0; 32], (false, false, false), &shape(k, 7, k_first, kept), &[]);
            let t = avr2mos::translate_with(&prog_of(&words), &avr2mos::Options::default()).unwrap();
            // All inline but FNV's prime times r21:r18: 167 bytes, over the 160 allowed (151
            // with the operand in r25:r22, which is where the product goes).
            let inline = !(k == 0x01000193 && !k_first);
            assert_eq!(
                t.map.contains("rt_mulsi3"),
                !inline,
                "{k:#x} (first {k_first}): a call exactly when not inline"
            );
            // The copies of the constant into r21:r18 leave no code when the multiply is inline.
            if k_first {
                let line = t.listing.lines().find(|l| l.contains("movw r19:r18, r13:r12")).expect("the copy");
                assert_eq!(line.trim_end().ends_with(" 0c"), inline && !kept, "{k:#x}, kept {kept}: {line}");
            }
            let n = std::cell::Cell::new(0usize);
            let body = |_: &mut Rng| {
                let i = n.get();
                n.set(i + 1);
                shape(k, OPERANDS[i % OPERANDS.len()], k_first, kept)
            };
            check(&format!("__mulsi3 by {k:#x}, constant first {k_first}, kept {kept}"), &body, &[], OPERANDS.len());
        }
    }
}

#[test]
fn a_condition_made_a_byte_and_tested_agrees_with_the_simulator() {
    // LLVM's `ldi b, 1; cp; brXX .+2; mov b, r1; andi b, 1; cpi b, 0; breq/brne T`, the
    // byte dead after (overwritten on both paths): the first branch goes to T itself.
    // r25 says which way it went. Every flag a compare sets, both senses of both branches.
    let brbx = |set: bool, s: u8, words: u16| (if set { 0xF000 } else { 0xF400 }) | (words << 3) | u16::from(s);
    let shape = |r: &mut Rng| {
        let (s, first, last) = (r.next() % 5, r.next() & 1 == 0, r.next() & 1 == 0);
        vec![
            rr(0x2400, 1, 1), // eor r1, r1: the zero register, as compiled code has it
            ldi(24, 1),
            rr(0x1400, reg(r), reg(r)), // cp
            brbx(first, s, 1),
            mov(24, 1),
            imm(0x7000, 24, 1), // andi r24, 1
            imm(0x3000, 24, 0), // cpi r24, 0
            brbx(last, 1, 1),
            ldi(25, 0x77),
            ldi(24, 0x33),
        ]
    };
    let words = program(&[0; 32], (false, false, false), &shape(&mut Rng(7)), &[]);
    let t = avr2mos::translate_with(&prog_of(&words), &avr2mos::Options::default()).unwrap();
    let mov = t.listing.lines().find(|l| l.contains("mov r24, r1")).expect("the mov in the listing");
    assert!(mov.trim_end().ends_with(" 0c"), "the mov left no code: {mov}");
    check("a condition made a byte and tested", &shape, &[], 200);
}

#[test]
fn sixteen_bit_divisions_agree_on_edge_operands() {
    // Every pair, both 16-bit divisions: the divisor below 256 (its byte path, with the
    // dividend's high byte zero or not, and a remainder that needs a ninth bit for a
    // moment), 256 and more, and zero (libgcc's answers); the signs' edges too.
    const EDGES: [u16; 14] = [0, 1, 2, 3, 10, 24, 0x7F, 0x80, 0xFF, 0x100, 0x1234, 0x7FFF, 0x8000, 0xFFFF];
    let call = |addr: u32| [0x940E | (((addr / 2) >> 16) as u16 & 1), ((addr / 2) & 0xFFFF) as u16];
    for (name, addr) in [("__udivmodhi4", 0x3F020u32), ("__divmodhi4", 0x3F004)] {
        let pair = std::cell::Cell::new(0usize);
        let body = |_: &mut Rng| {
            let n = pair.get();
            pair.set(n + 1);
            let (a, b) = (EDGES[n / EDGES.len()], EDGES[n % EDGES.len()]);
            let [a0, a1] = a.to_le_bytes();
            let [b0, b1] = b.to_le_bytes();
            let mut v = vec![ldi(24, a0), ldi(25, a1), ldi(22, b0), ldi(23, b1)];
            v.extend(call(addr));
            v
        };
        check(&format!("{name} edges"), &body, &[], EDGES.len() * EDGES.len());
    }
}

#[test]
fn native_memory_functions_keep_their_conventions() {
    // Pointers into the compared buffer at $3000-$30FF, lengths that stay inside it.
    let call = |addr: u32| [0x940E | (((addr / 2) >> 16) as u16 & 1), ((addr / 2) & 0xFFFF) as u16];
    for (name, addr) in
        [("memcpy", 0x3F02Cu32), ("memmove", 0x3F030), ("memset", 0x3F034), ("memcmp", 0x3F038), ("bcmp", 0x3F03C)]
    {
        let body = move |r: &mut Rng| {
            let (x, y) = (r.next() & 0x7F, if r.next().is_multiple_of(4) { 0 } else { r.next() & 0x7F });
            let y = if name.ends_with("cmp") && r.next().is_multiple_of(3) { x } else { y };
            let n = [0, 1, 2, 0x7F, 0x80, r.next() & 0x7F][usize::from(r.next() % 6)];
            // memcpy's buffers must not overlap.
            let n = if name == "memcpy" { n.min(x.abs_diff(y)) } else { n };
            let mut v = vec![ldi(24, x), ldi(25, 0x30), ldi(22, y), ldi(23, 0x30), ldi(20, n), ldi(21, 0)];
            v.extend(call(addr));
            v
        };
        check(name, &body, &[], 60);
    }
}

#[test]
fn native_routines_change_only_the_registers_the_liveness_names() {
    // The data copies live across a native call when it leaves their pairs alone
    // (`liveness::native_writes`): the same program with and without the call may differ
    // only in those registers, whatever the operands (zero divisors included).
    let call = |addr: u32| [0x940E | (((addr / 2) >> 16) as u16 & 1), ((addr / 2) & 0xFFFF) as u16];
    for &(name, addr, _) in avr2mos::runtime::NATIVE {
        if matches!(name, "__c128_kernal" | "__c128_exit" | "__mulosi4" | "__mulodi4") {
            continue; // a KERNAL call, the exit, and two the liveness takes as call-used
        }
        if matches!(name, "__c128_bank1_end" | "__c128_far_copy") {
            // Only a program with a bank-1 file has them (the game's help pages run them
            // in the harness); the liveness takes them as call-used.
            assert_eq!(avr2mos::analysis::liveness::native_writes(name), avr2mos::analysis::callgraph::CALL_USED);
            continue;
        }
        let writes = avr2mos::analysis::liveness::native_writes(name);
        let mut rng = Rng(0x5EED ^ u64::from(addr));
        for case in 0..24 {
            let mut regs = [0u8; 32];
            for r in regs.iter_mut() {
                *r = rng.next();
            }
            regs[31] = regs[1] ^ 0x55;
            // Pointers into the compared buffer at $3000-$30FF and lengths inside it.
            let setup = if name.starts_with("mem") || name == "bcmp" {
                let (x, y) = (rng.next() & 0x7F, rng.next() & 0x7F);
                let n = if name == "memcpy" { (rng.next() & 0x7F).min(x.abs_diff(y)) } else { rng.next() & 0x7F };
                vec![ldi(24, x), ldi(25, 0x30), ldi(22, y), ldi(23, 0x30), ldi(20, n), ldi(21, 0)]
            } else {
                Vec::new()
            };
            let mem: Vec<u8> = (0..256).map(|_| rng.next()).collect();
            let with: Vec<u16> = setup.iter().copied().chain(call(addr)).collect();
            let (after_call, ..) = both(&program(&regs, (false, false, false), &with, &[]), &mem, false);
            let (before, ..) = both(&program(&regs, (false, false, false), &setup, &[]), &mem, false);
            for r in (0..32).filter(|&r| after_call[r] != before[r]) {
                assert!(writes & (1 << r) != 0, "{name} case {case} changed r{r}, which native_writes leaves out");
            }
        }
    }
}

#[test]
fn a_run_of_saves_in_static_slots_restores_every_register() {
    // main gives r2..r17 distinct values, calls f (`rounds` times, in a loop if more than
    // once) and stores them all to $3000, so f must keep every one: its saves go to static
    // slots. f pushes r2..r17, adds to them all (in a loop of its own when `looped`),
    // stores them at $3020 and pops them back. The run is one 6502 loop each way where
    // f's calls afford it: when f is called once, or has a loop; f called from a loop
    // with none of its own keeps a pair of moves a register.
    let push = |d: u8| 0x920F | (u16::from(d) << 4);
    let pop = |d: u8| 0x900F | (u16::from(d) << 4);
    let sts = |d: u8, k: u16| [0x9200 | (u16::from(d) << 4), k];
    let dec = |d: u8| 0x940A | (u16::from(d) << 4);
    // brne back to the start of the `words` words before it.
    let brne_back = |words: u16| 0xF401 | (((words + 1).wrapping_neg() & 0x7F) << 3);
    for (looped, rounds, expect_loop) in [(true, 1, true), (false, 1, true), (true, 3, true), (false, 3, false)] {
        let mut main = Vec::new();
        for k in 2..=17u8 {
            main.extend([ldi(24, 0x40 + k), mov(k, 24)]);
        }
        main.push(ldi(25, rounds));
        let at_call = main.len();
        main.extend([0x940E, 0]); // call f, its address below
        if rounds > 1 {
            main.extend([dec(25), brne_back(3)]);
        }
        for k in 2..=17u8 {
            main.extend(sts(k, 0x3000 + u16::from(k)));
        }
        main.push(RET);
        let f_at = 2 * main.len() as u16;
        main[at_call + 1] = f_at / 2;
        let mut f: Vec<u16> = (2..=17).map(push).collect();
        f.push(ldi(24, 3));
        let clobber: Vec<u16> = (2..=17).map(|k| one(0x9403, k)).collect(); // inc rk
        f.extend(&clobber);
        if looped {
            f.extend([dec(24), brne_back(clobber.len() as u16 + 1)]);
        }
        // What f made of them, so that its changes are not dead code.
        for k in 2..=17u8 {
            f.extend(sts(k, 0x3020 + u16::from(k)));
        }
        f.extend((2..=17).rev().map(pop));
        f.push(RET);
        let words = [main, f].concat();
        let prog = AvrProgram {
            functions: vec![
                Function { name: "main".into(), addr: 0 },
                Function { name: "f".into(), addr: u32::from(f_at) },
            ],
            ..prog_of(&words)
        };
        let case = format!("looped {looped}, {rounds} calls");
        let t = avr2mos::translate_with(&prog, &avr2mos::Options::default()).unwrap_or_else(|e| panic!("{case}: {e}"));
        assert!(t.listing.contains("saves in static slots: r2-r17"), "{case}: the saves are in static slots");
        for what in ["push r2 ", "pop r17 "] {
            let line = t.listing.lines().find(|l| l.contains(what)).unwrap_or_else(|| panic!("{case}: no {what}"));
            // `DEX; BPL` back.
            let looped_code = line.contains(" ca 10 ");
            assert_eq!(looped_code, expect_loop, "{case}: {what} is a loop exactly when f affords it: {line}");
        }
        let (r6502, ravr, m6502, mavr) = both_prog(&prog, &[], false);
        assert_eq!(r6502[2..18], ravr[2..18], "{case}: r2..r17 (the others are dead after the stores)");
        assert_eq!(m6502[..0x40], mavr[..0x40], "{case}: what f and then main stored");
        assert_eq!(mavr[2..18].to_vec(), (2..=17).map(|k| 0x40 + k).collect::<Vec<u8>>(), "{case}: f kept them");
    }
}

#[test]
fn runs_of_saves_in_absolute_slots_restore_every_register() {
    // A chain main -> f1 -> f2 -> f3 -> f4, each fn pushing r2..r17, and each caller
    // reading them all after its call: 64 save slots, more than zero page's 54 homes, so some runs
    // are in absolute memory (`STA slot,X`). Each fn is entered once, so its runs are
    // loops. Every register each one stored at its own $30x0 agrees with the simulator.
    let push = |d: u8| 0x920F | (u16::from(d) << 4);
    let pop = |d: u8| 0x900F | (u16::from(d) << 4);
    let sts = |d: u8, k: u16| [0x9200 | (u16::from(d) << 4), k];
    let inc = |d: u8| one(0x9403, d);
    let depth = 4usize;
    // Each fn: 16 pushes, 16 incs, call (2 words; the last fn has none), 16 sts (2 words
    // each), 16 pops, ret.
    let body_words = |last: bool| 16 + 16 + if last { 0 } else { 2 } + 32 + 16 + 1;
    let mut main = Vec::new();
    for k in 2..=17u8 {
        main.extend([ldi(24, 0x40 + k), mov(k, 24)]);
    }
    let main_len = main.len() + 2 + 32 + 1;
    main.extend([0x940E, main_len as u16]); // call f1
    for k in 2..=17u8 {
        main.extend(sts(k, 0x3000 + u16::from(k)));
    }
    main.push(RET);
    let mut words = main;
    let mut functions = vec![Function { name: "main".into(), addr: 0 }];
    for n in 1..=depth {
        let at = words.len();
        functions.push(Function { name: format!("f{n}"), addr: 2 * at as u32 });
        let last = n == depth;
        words.extend((2..=17).map(push));
        words.extend((2..=17).map(inc));
        if !last {
            words.extend([0x940E, (at + body_words(false)) as u16]); // call the next fn
        }
        for k in 2..=17u8 {
            words.extend(sts(k, 0x3000 + 0x20 * n as u16 + u16::from(k)));
        }
        words.extend((2..=17).rev().map(pop));
        words.push(RET);
        assert_eq!(words.len() - at, body_words(last));
    }
    let prog = AvrProgram { functions, ..prog_of(&words) };
    let t = avr2mos::translate_with(&prog, &avr2mos::Options::default()).unwrap_or_else(|e| panic!("{e}"));
    // The push and pop lines with code: each a loop (`DEX; BPL`), the runs split where the
    // slots leave zero page.
    let loops: Vec<&str> = t
        .listing
        .lines()
        .filter(|l| (l.contains(" push r") || l.contains(" pop r")) && !l.trim_end().ends_with(" 0c"))
        .collect();
    assert!(loops.iter().all(|l| l.contains(" ca 10 ")), "every run a loop: {loops:#?}");
    // STA abs,X (9d) in a save loop, LDA abs,X (bd) in a restore loop.
    assert!(loops.iter().any(|l| l.contains(" 9d ")), "a save loop into absolute slots: {loops:#?}");
    assert!(loops.iter().any(|l| l.contains(" bd ")), "a restore loop from absolute slots: {loops:#?}");
    let (r6502, ravr, m6502, mavr) = both_prog(&prog, &[], false);
    assert_eq!(r6502[2..18], ravr[2..18], "r2..r17 back in main");
    assert_eq!(m6502[..0x100], mavr[..0x100], "what each fn stored");
}

#[test]
fn a_jump_to_an_address_an_io_constant_shares_reaches_the_instruction() {
    // The linker defines `__SP_L__`, `__SP_H__` and `__SREG__` as absolute symbols at
    // $3D-$3F, where the first functions have their code: a jump to $3E is a jump to the
    // instruction there, not a call of a routine named `__SP_H__` (rustc emitted such a
    // jump in `Coup::give` once the shoe's refill was no longer inlined into it).
    let target_word = 0x3E / 2;
    let mut words = vec![ldi(24, 0x11), 0xC000 | (target_word - 2)]; // rjmp .+2*(target-2)
    while words.len() < usize::from(target_word) {
        words.push(ldi(25, 0x99)); // Skipped by the jump.
    }
    words.extend([ldi(18, 0x42), RET]);
    let mut prog = prog_of(&words);
    for (name, value) in [("__SP_L__", 0x3D), ("__SP_H__", 0x3E), ("__SREG__", 0x3F)] {
        prog.absolute.insert(value, name.to_string());
    }
    assert_eq!(prog.native_at(0x3E), None, "an address inside .text is code");
    assert_eq!(prog.native_at(0x3F000), Some("__mulsi3"));
    for interpret in [false, true] {
        let opts =
            avr2mos::Options { interpret: if interpret { vec!["*".into()] } else { vec![] }, ..Default::default() };
        let t = avr2mos::translate_with(&prog, &opts).unwrap_or_else(|e| panic!("interpret {interpret}: {e}"));
        let run = common::run(&t.prg, 200_000).unwrap_or_else(|e| panic!("{e}"));
        assert!(run.returned, "interpret {interpret}: the program did not return");
        let (r18, r24, r25) = (run.zp[0x10 + 18], run.zp[0x10 + 24], run.zp[0x10 + 25]);
        assert_eq!((r18, r24), (0x42, 0x11), "interpret {interpret}: the jump's target ran");
        assert_ne!(r25, 0x99, "interpret {interpret}: the skipped instructions ran");
    }
}
