//! The random program generator: proposes items in roughly the mix LLVM's AVR back end
//! emits (byte arithmetic and carry chains, compares and their branches, pointer walks,
//! counted loops, calls, multiplies) and keeps each one [`crate::program::item`] accepts,
//! so every program it returns follows the rules of [`crate::program`].

use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};

use crate::insn::{Imm, Insn, Mode, One, Ptr, Rr};
use crate::program::{self, COMPARED, DATA, Func, Item, LoopKind, MAX_FUNCS, Program, SkipTest, State, Summary};

/// The registers LLVM uses most (arguments, returns, its scratch pairs), chosen half the
/// time so that values flow between instructions instead of scattering over 32 bytes.
const HOT: [u8; 12] = [24, 25, 22, 23, 18, 19, 20, 21, 16, 17, 30, 31];

/// The most AVR instructions a function may run, calls included (with every function
/// interpreted, about 100 6502 cycles each).
const MAX_COST: u32 = 4000;

/// The runtime routines a program may call (the memory routines are left out: their
/// pointer arguments would need the window's bounds on lengths too).
const NATIVES: [&str; 7] =
    ["__mulsi3", "__udivmodqi4", "__divmodqi4", "__udivmodhi4", "__divmodhi4", "__udivmodsi4", "__divmodsi4"];

/// Generates the program of one seed.
pub fn program(seed: u64) -> Program {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut regs = [0u8; 32];
    let edges = rng.random_bool(0.3);
    for r in regs.iter_mut() {
        *r = if edges { [0, 1, 0x7F, 0x80, 0xFF][rng.random_range(0..5)] } else { rng.random() };
    }
    let mem: Vec<u8> = (0..COMPARED.len()).map(|_| rng.random()).collect();
    let count = rng.random_range(1..=MAX_FUNCS.min(4));
    let mut funcs = vec![Func { items: Vec::new() }; count];
    let mut sums = vec![Summary::default(); count];
    for f in (0..count).rev() {
        let len = rng.random_range(4..40);
        let mut g = Gen { rng: &mut rng, sums: &sums, me: f };
        let mut s = State::entry();
        funcs[f].items = g.block(&mut s, 0, len);
        sums[f] = program::summarise(&funcs[f].items, &sums, f).expect("the generator keeps only valid items");
    }
    Program { regs, mem, funcs }
}

struct Gen<'a> {
    rng: &'a mut StdRng,
    sums: &'a [Summary],
    me: usize,
}

impl Gen<'_> {
    /// Up to `len` items from state `s`, which follows them.
    fn block(&mut self, s: &mut State, depth: u32, len: usize) -> Vec<Item> {
        let mut out = Vec::new();
        for _ in 0..len {
            for _attempt in 0..8 {
                let proposal = self.propose(s, depth);
                let mut t = s.clone();
                let valid = proposal.iter().all(|it| program::item(&mut t, it, self.sums, self.me).is_ok());
                if valid && t.cost <= MAX_COST {
                    *s = t;
                    out.extend(proposal);
                    break;
                }
            }
        }
        out
    }

    fn chance(&mut self, p: f64) -> bool {
        self.rng.random_bool(p)
    }

    fn pick<T: Copy>(&mut self, xs: &[T]) -> T {
        xs[self.rng.random_range(0..xs.len())]
    }

    /// A register in `mask`, one of [`HOT`] half the time when one is; r0 when none is.
    fn reg_in(&mut self, mask: u32) -> u8 {
        let hot: Vec<u8> = HOT.iter().copied().filter(|&r| mask & (1 << r) != 0).collect();
        if !hot.is_empty() && self.chance(0.5) {
            return self.pick(&hot);
        }
        let all: Vec<u8> = (0..32).filter(|&r| mask & (1 << r) != 0).collect();
        if all.is_empty() { 0 } else { self.pick(&all) }
    }

    /// A defined register (a source).
    fn src(&mut self, s: &State) -> u8 {
        self.reg_in(s.defined)
    }

    /// A register an instruction may write; defined too when `reads` (the instruction
    /// reads it first).
    fn dst(&mut self, s: &State, reads: bool, high: bool) -> u8 {
        let mut mask = !s.reserved & !(1 << 1);
        if reads {
            mask &= s.defined;
        }
        if high {
            mask &= 0xFFFF_0000;
        }
        // Pointers keep their addresses more often than not.
        if self.chance(0.7) {
            mask &= !0xFC00_0000 | s.reserved;
        }
        self.reg_in(mask)
    }

    fn propose(&mut self, s: &State, depth: u32) -> Vec<Item> {
        let roll = self.rng.random_range(0..100);
        match roll {
            0..=24 => vec![Item::I(self.alu2(s))],
            25..=36 => vec![Item::I(self.imm(s))],
            37..=43 => vec![Item::I(self.one(s))],
            44..=50 => self.word(s),
            51..=64 => self.memory(s),
            65..=67 => self.multiply(s),
            68..=70 => vec![Item::I(self.bits(s))],
            71..=79 if depth < 3 => self.branch(s, depth),
            80..=83 => vec![self.skip(s)],
            84..=88 if depth < 2 => vec![self.looped(s, depth)],
            89..=90 if depth < 3 => vec![self.pushed(s, depth)],
            91..=95 => {
                let later = self.me + 1..self.sums.len();
                if later.is_empty() {
                    vec![Item::I(self.alu2(s))]
                } else {
                    vec![Item::Call(self.rng.random_range(later))]
                }
            }
            96..=97 => vec![Item::Native(self.pick(&NATIVES))],
            _ => vec![Item::I(self.sreg(s))],
        }
    }

    fn alu2(&mut self, s: &State) -> Insn {
        let op = self.pick(&[
            Rr::Add,
            Rr::Add,
            Rr::Adc,
            Rr::Sub,
            Rr::Sbc,
            Rr::And,
            Rr::Or,
            Rr::Eor,
            Rr::Eor,
            Rr::Cp,
            Rr::Cpc,
            Rr::Mov,
            Rr::Mov,
            Rr::Mov,
        ]);
        let r = self.src(s);
        // `add d, d` is lsl, `adc d, d` rol, `eor d, d` clr, `sbc d, d` the sign fill.
        let d = if self.chance(0.15) { r } else { self.dst(s, op != Rr::Mov, false) };
        Insn::Rr(op, d, r)
    }

    fn imm(&mut self, s: &State) -> Insn {
        let op = self.pick(&[Imm::Subi, Imm::Sbci, Imm::Andi, Imm::Ori, Imm::Cpi, Imm::Ldi, Imm::Ldi]);
        let d = self.dst(s, op != Imm::Ldi, true);
        let k = if self.chance(0.4) { self.pick(&[0, 1, 0x7F, 0x80, 0xFF, 0x0F, 0xF0]) } else { self.rng.random() };
        Insn::Imm(op, d.max(16), k)
    }

    fn one(&mut self, s: &State) -> Insn {
        let op = self.pick(&[One::Com, One::Neg, One::Swap, One::Inc, One::Dec, One::Asr, One::Lsr, One::Ror]);
        Insn::One(op, self.dst(s, true, false))
    }

    /// Pair operations: movw, adiw/sbiw, and 16- or 32-bit carry chains.
    fn word(&mut self, s: &State) -> Vec<Item> {
        let pair = |g: &mut Self| 2 * g.rng.random_range(0..16u8);
        match self.rng.random_range(0..5) {
            0 => vec![Item::I(Insn::Movw(pair(self), pair(self)))],
            1 => {
                let d = self.pick(&[24u8, 26, 28, 30]);
                let k = if self.chance(0.7) { self.pick(&[1, 2, 4]) } else { self.rng.random_range(0..64) };
                vec![Item::I(if self.chance(0.5) { Insn::Adiw(d, k) } else { Insn::Sbiw(d, k) })]
            }
            2 => {
                // A chain over 2 or 4 bytes: add/adc, sub/sbc, cp/cpc, or subi/sbci.
                let bytes = if self.chance(0.7) { 2 } else { 4 };
                let d = if bytes == 2 { pair(self) } else { 4 * self.rng.random_range(0..8u8) };
                let r = if bytes == 2 { pair(self) } else { 4 * self.rng.random_range(0..8u8) };
                let (first, rest) =
                    self.pick(&[(Rr::Add, Rr::Adc), (Rr::Sub, Rr::Sbc), (Rr::Cp, Rr::Cpc), (Rr::Cp, Rr::Cpc)]);
                let _ = s;
                if d >= 16 && self.chance(0.3) {
                    let (a, b) = if self.chance(0.5) { (Imm::Subi, Imm::Sbci) } else { (Imm::Cpi, Imm::Sbci) };
                    let mut v = vec![Item::I(Insn::Imm(a, d, self.rng.random()))];
                    if a == Imm::Cpi && self.chance(0.5) {
                        // A compare against a constant as LLVM writes it: cpi, then for each
                        // higher byte an ldi into a scratch register and cpc with it.
                        for k in 1..bytes {
                            let t = self.dst(s, false, true).max(16);
                            v.push(Item::I(Insn::Imm(Imm::Ldi, t, self.rng.random())));
                            v.push(Item::I(Insn::Rr(Rr::Cpc, d + k, t)));
                        }
                    } else if a == Imm::Cpi {
                        // A compare chain against a constant: cpi, then cpc with a register.
                        v.extend((1..bytes).map(|k| Item::I(Insn::Rr(Rr::Cpc, d + k, r + k))));
                    } else {
                        v.extend((1..bytes).map(|k| Item::I(Insn::Imm(b, d + k, self.rng.random()))));
                    }
                    return v;
                }
                let mut v = vec![Item::I(Insn::Rr(first, d, r))];
                v.extend((1..bytes).map(|k| Item::I(Insn::Rr(rest, d + k, r + k))));
                v
            }
            3 => {
                // A shift over a pair: lsl/rol, lsr/ror, asr/ror.
                let d = pair(self);
                match self.rng.random_range(0..3) {
                    0 => vec![Item::I(Insn::Rr(Rr::Add, d, d)), Item::I(Insn::Rr(Rr::Adc, d + 1, d + 1))],
                    1 => vec![Item::I(Insn::One(One::Lsr, d + 1)), Item::I(Insn::One(One::Ror, d))],
                    _ => vec![Item::I(Insn::One(One::Asr, d + 1)), Item::I(Insn::One(One::Ror, d))],
                }
            }
            _ => {
                // Compare a pair with zero through r1, as LLVM does.
                let d = pair(self);
                vec![Item::I(Insn::Rr(Rr::Cp, d, 1)), Item::I(Insn::Rr(Rr::Cpc, d + 1, 1))]
            }
        }
    }

    /// A load or store through a pointer or at a constant address; a pointer not known to
    /// hold a window address gets one first.
    fn memory(&mut self, s: &State) -> Vec<Item> {
        if self.chance(0.15) {
            let a = self.rng.random_range(DATA);
            return vec![Item::I(if self.chance(0.5) {
                Insn::Lds(self.dst(s, false, false), a)
            } else {
                Insn::Sts(a, self.src(s))
            })];
        }
        let p = self.pick(&[Ptr::X, Ptr::Y, Ptr::Z, Ptr::Z]);
        let mut v = Vec::new();
        if s.pair(p.lo()).is_none_or(|(lo, hi)| hi - lo > 0x200) {
            if self.chance(0.3) && s.defined & (3 << p.lo()) == 3 << p.lo() {
                v.push(Item::Mask(p.lo()));
            } else if self.chance(0.3) {
                // Through r25:r24 and a movw, as LLVM passes a pointer.
                v.push(Item::Anchor(24, self.rng.random_range(0x4080..0x4380)));
                v.push(Item::I(Insn::Movw(p.lo(), 24)));
            } else {
                v.push(Item::Anchor(p.lo(), self.rng.random_range(0x4080..0x4380)));
            }
        }
        let mode = match self.rng.random_range(0..6) {
            0 | 1 => Mode::PostInc,
            2 => Mode::PreDec,
            3 if p != Ptr::X => Mode::Disp(self.rng.random_range(0..64)),
            _ => Mode::Plain,
        };
        let i = if self.chance(0.55) {
            let d = self.dst(s, false, false);
            Insn::Ld(d, p, mode)
        } else {
            Insn::St(p, mode, self.src(s))
        };
        v.push(Item::I(i));
        v
    }

    /// A multiply, the product moved out of r1:r0, and r1 cleared (as LLVM does).
    fn multiply(&mut self, s: &State) -> Vec<Item> {
        let op = self.pick(&[Rr::Mul, Rr::Mul, Rr::Muls, Rr::Mulsu, Rr::Fmul, Rr::Fmuls, Rr::Fmulsu]);
        let (lo, hi) = match op {
            Rr::Mul => (0u8, 32u8),
            Rr::Muls => (16, 32),
            _ => (16, 24),
        };
        let range = ((1u64 << hi) - 1) as u32 & !((1u32 << lo) - 1);
        let (d, r) = (self.reg_in(s.defined & range), self.reg_in(s.defined & range));
        let mut v = vec![Item::I(Insn::Rr(op, d.max(lo), r.max(lo)))];
        if self.chance(0.8) {
            let t = 2 * self.rng.random_range(8..13u8);
            v.push(Item::I(if self.chance(0.5) { Insn::Movw(t, 0) } else { Insn::Rr(Rr::Mov, t, 1) }));
        }
        v.push(Item::I(Insn::Rr(Rr::Eor, 1, 1)));
        v
    }

    fn bits(&mut self, s: &State) -> Insn {
        let b = self.rng.random_range(0..8);
        match self.rng.random_range(0..4) {
            0 | 1 => Insn::Bst(self.src(s), b),
            2 => Insn::Bld(self.dst(s, true, false), b),
            // Not S: the translator refuses `ses`/`cls` (LLVM never emits them).
            _ => Insn::Flag(self.pick(&[0, 1, 2, 3, 6]), self.chance(0.5)),
        }
    }

    fn sreg(&mut self, s: &State) -> Insn {
        let copies: Vec<u8> = (0..32).filter(|&r| s.sreg_copies & (1 << r) != 0).collect();
        if !copies.is_empty() && self.chance(0.7) {
            Insn::OutSreg(self.pick(&copies))
        } else if self.chance(0.6) {
            Insn::InSreg(self.dst(s, false, false))
        } else {
            Insn::OutSreg(self.src(s))
        }
    }

    /// A compare (usually), then a branch over code, with an else part sometimes.
    fn branch(&mut self, s: &State, depth: u32) -> Vec<Item> {
        let mut v = Vec::new();
        let mut t = s.clone();
        if self.chance(0.7) {
            let first = if self.chance(0.5) { self.word(s) } else { vec![Item::I(self.compare(s))] };
            for it in first {
                if program::item(&mut t, &it, self.sums, self.me).is_ok() {
                    v.push(it);
                } else {
                    return v;
                }
            }
            // Moves between a compare and its branch, which must keep the flags.
            while self.chance(0.2) {
                let it = if self.chance(0.4) {
                    Item::I(Insn::Rr(Rr::Mov, self.dst(&t, false, false), self.src(&t)))
                } else if self.chance(0.3) {
                    Item::I(Insn::Movw(self.dst(&t, false, false) & !1, self.src(&t) & !1))
                } else {
                    Item::I(Insn::Imm(Imm::Ldi, self.dst(&t, false, true).max(16), self.rng.random()))
                };
                if program::item(&mut t, &it, self.sums, self.me).is_ok() {
                    v.push(it);
                }
            }
        }
        let flag = self.pick(&[0, 1, 1, 2, 3, 4, 4, 6]);
        let set = self.chance(0.5);
        let len = self.rng.random_range(1..8);
        let then = self.block(&mut t.clone(), depth + 1, len);
        let els = if self.chance(0.3) {
            let len = self.rng.random_range(1..6);
            self.block(&mut t.clone(), depth + 1, len)
        } else {
            Vec::new()
        };
        v.push(Item::If { flag, set, then, els });
        v
    }

    fn compare(&mut self, s: &State) -> Insn {
        match self.rng.random_range(0..4) {
            0 => Insn::Imm(Imm::Cpi, self.reg_in(s.defined & 0xFFFF_0000).max(16), self.rng.random()),
            1 => Insn::Rr(Rr::Cp, self.src(s), 1),
            2 => Insn::One(One::Dec, self.dst(s, true, false)),
            _ => Insn::Rr(Rr::Cp, self.src(s), self.src(s)),
        }
    }

    fn skip(&mut self, s: &State) -> Item {
        let test = match self.rng.random_range(0..3) {
            0 => SkipTest::Sbrc(self.src(s), self.rng.random_range(0..8)),
            1 => SkipTest::Sbrs(self.src(s), self.rng.random_range(0..8)),
            _ => SkipTest::Cpse(self.src(s), self.src(s)),
        };
        let i = match self.rng.random_range(0..5) {
            0 => self.one(s),
            1 => Insn::Sts(self.rng.random_range(DATA), self.src(s)),
            2 => Insn::Lds(self.dst(s, false, false), self.rng.random_range(DATA)),
            _ => self.alu2(s),
        };
        Item::Skip(test, i)
    }

    /// A counted loop; its counter is callee-saved when the body may call.
    fn looped(&mut self, s: &State, depth: u32) -> Item {
        let n = self.rng.random_range(1..=6);
        let free = |c: u8| s.reserved & (1 << c) == 0;
        let kind = match self.rng.random_range(0..5) {
            0 if s.reserved & (3 << 24) == 0 => LoopKind::Word(n),
            1 => LoopKind::Shift(self.reg_in(s.defined & !s.reserved & 0x03FF_FFFC)),
            2 => {
                let c = self.pick(&[16u8, 17, 18, 19, 20, 21, 22, 23]);
                LoopKind::Up(if free(c) { c } else { 16 }, n)
            }
            _ => {
                let c = self.pick(&[16u8, 17, 18, 19, 20, 21, 22, 23]);
                LoopKind::Down(if free(c) { c } else { 17 }, n)
            }
        };
        let mut t = s.clone();
        for i in match kind {
            LoopKind::Down(c, n) => vec![Insn::Imm(Imm::Ldi, c, n)],
            LoopKind::Up(c, _) => vec![Insn::Imm(Imm::Ldi, c, 0)],
            LoopKind::Word(n) => vec![Insn::Imm(Imm::Ldi, 24, n), Insn::Imm(Imm::Ldi, 25, 0)],
            LoopKind::Shift(_) => vec![],
        } {
            let _ = program::insn(&mut t, i);
        }
        t.reserved |= kind.counter();
        let len = self.rng.random_range(1..10);
        let body = self.block(&mut t, depth + 1, len);
        Item::Loop(kind, body)
    }

    fn pushed(&mut self, s: &State, depth: u32) -> Item {
        let a = self.src(s);
        let len = self.rng.random_range(0..5);
        let body = self.block(&mut s.clone(), depth + 1, len);
        let b = if self.chance(0.6) { a } else { self.dst(s, false, false) };
        Item::Push(a, body, b)
    }
}
