//! A random program as the fuzzer holds it: structured items (branches over code, counted
//! loops, balanced pushes, calls), the rules that make it one LLVM could have emitted, and
//! its assembly to AVR words with a listing.
//!
//! The rules are checked by [`check`], an abstract run of each function that follows what
//! is known at every point: which registers hold defined values under the AVR calling
//! convention, which flags are defined, whether r1 is zero, and the range of addresses each
//! register pair may hold. The generator proposes items and keeps those [`check`] accepts;
//! the shrinker drops items and keeps the programs it still accepts. So the translator is
//! only ever given code that follows the conventions its analyses assume (a callee-saved
//! register given back, r1 zero at calls and returns, no flag or call-used register read
//! across a call, every memory access inside the compared window): a difference is a
//! miscompile, not a broken promise.

use std::fmt::Write as _;

use crate::insn::{ARITH, Imm, Insn, LOGIC, One, Rr, S, T};

/// The addresses a load or store through a pointer may reach.
pub const ACCESS: std::ops::Range<i32> = 0x3F00..0x4500;
/// Where `lds`/`sts` with a constant address go, and where [`Item::Mask`] puts a pointer.
pub const DATA: std::ops::Range<u16> = 0x4000..0x4400;
/// Each function stores its defined registers and SREG here before it returns, 34 bytes
/// a function.
pub const DUMPS: u16 = 0x4600;
/// The memory compared after a run: the access window and the dumps. Both sides start with
/// the same random bytes in it.
pub const COMPARED: std::ops::Range<usize> = 0x3F00..0x4800;
/// The most functions a program has (their dumps must fit in [`COMPARED`]).
pub const MAX_FUNCS: usize = 8;

/// The registers that carry arguments (r8-r25).
pub const ARGS: u32 = 0x03FF_FF00;
/// The registers a function must give back as it found them (r2-r17, r28, r29).
pub const CALLEE_SAVED: u32 = 0x3003_FFFC;
/// The registers a call may change (r0, r1, r18-r27, r30, r31).
pub const CALL_USED: u32 = !CALLEE_SAVED;
/// r1, LLVM's zero register.
const R1: u32 = 1 << 1;

/// A test on which `sbrc`, `sbrs` or `cpse` skips the next instruction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SkipTest {
    /// `sbrc r, b`: skip if the bit is clear.
    Sbrc(u8, u8),
    /// `sbrs r, b`: skip if the bit is set.
    Sbrs(u8, u8),
    /// `cpse d, r`: skip if equal.
    Cpse(u8, u8),
}

/// A loop that terminates, with its counter.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LoopKind {
    /// `ldi c, n` ... `dec c; brne`.
    Down(u8, u8),
    /// `ldi c, 0` ... `inc c; cpi c, n; brne`.
    Up(u8, u8),
    /// ... `lsr c; brne`: at most 8 turns, whatever c holds.
    Shift(u8),
    /// `ldi r24, n; ldi r25, 0` ... `sbiw r24, 1; brne`.
    Word(u8),
}

impl LoopKind {
    /// The registers the body must leave alone.
    pub fn counter(self) -> u32 {
        match self {
            LoopKind::Down(c, _) | LoopKind::Up(c, _) | LoopKind::Shift(c) => 1 << c,
            LoopKind::Word(_) => 3 << 24,
        }
    }

    /// The most turns it makes.
    pub fn turns(self) -> u8 {
        match self {
            LoopKind::Down(_, n) | LoopKind::Up(_, n) | LoopKind::Word(n) => n,
            LoopKind::Shift(_) => 8,
        }
    }

    fn setup(self) -> Vec<Insn> {
        match self {
            LoopKind::Down(c, n) => vec![Insn::Imm(Imm::Ldi, c, n)],
            LoopKind::Up(c, _) => vec![Insn::Imm(Imm::Ldi, c, 0)],
            LoopKind::Shift(_) => vec![],
            LoopKind::Word(n) => vec![Insn::Imm(Imm::Ldi, 24, n), Insn::Imm(Imm::Ldi, 25, 0)],
        }
    }

    /// The instructions before the branch back (`brne`).
    fn tail(self) -> Vec<Insn> {
        match self {
            LoopKind::Down(c, _) => vec![Insn::One(One::Dec, c)],
            LoopKind::Up(c, n) => vec![Insn::One(One::Inc, c), Insn::Imm(Imm::Cpi, c, n)],
            LoopKind::Shift(c) => vec![Insn::One(One::Lsr, c)],
            LoopKind::Word(_) => vec![Insn::Sbiw(24, 1)],
        }
    }
}

/// One piece of a function's body.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Item {
    /// A straight-line instruction.
    I(Insn),
    /// `brbs`/`brbc` on `flag` (a bit number) to the else part when the flag is `set`:
    /// `then` runs when the branch is not taken.
    If { flag: u8, set: bool, then: Vec<Item>, els: Vec<Item> },
    /// A skip instruction and the instruction it may skip.
    Skip(SkipTest, Insn),
    /// A counted loop.
    Loop(LoopKind, Vec<Item>),
    /// `push a`, the body, `pop b`.
    Push(u8, Vec<Item>, u8),
    /// `rcall` of a function of the program (a later one: calls form no cycle).
    Call(usize),
    /// `call` of a runtime routine (an `ori r22, 1` before a division keeps its divisor
    /// non-zero).
    Native(&'static str),
    /// `ldi lo; ldi hi`: a register pair (r16 and up) set to an address.
    Anchor(u8, u16),
    /// `andi hi, 0x03; ori hi, 0x40`: a pair's address forced into [`DATA`].
    Mask(u8),
}

/// A function: its body (the prologue, the dump of its registers and the epilogue are
/// added by [`assemble`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Func {
    /// The body.
    pub items: Vec<Item>,
}

/// A whole test program and the machine state it starts from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Program {
    /// The registers the entry sets before it calls the first function.
    pub regs: [u8; 32],
    /// The compared memory's first contents ([`COMPARED`]).
    pub mem: Vec<u8>,
    /// The functions; the first is called by the entry.
    pub funcs: Vec<Func>,
}

/// What is known at one point of a function.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct State {
    /// Registers whose value is defined (so the two sides must agree on it).
    pub defined: u32,
    /// Registers the function has written on every path so far.
    pub local_def: u32,
    /// Registers it may have read before writing them: its arguments.
    pub args: u32,
    /// Registers it may have written (a callee-saved one is saved in the prologue).
    pub written: u32,
    /// Flags defined (SREG bits).
    pub flags: u8,
    /// Whether r1 is zero.
    pub r1_zero: bool,
    /// For each register pair (by its low register / 2), the range of values it holds when
    /// that is known to be a window address.
    pub pairs: [Option<(i32, i32)>; 16],
    /// Registers the body must not write (loop counters).
    pub reserved: u32,
    /// Registers that hold a copy of SREG (`in r, SREG`): defined but for H and I, which
    /// neither side computes alike, so only `out SREG` may read them.
    pub sreg_copies: u32,
    /// The most instructions run so far (loops and calls multiplied out), which the
    /// generator keeps small so the interpreted runs stay short.
    pub cost: u32,
}

impl State {
    /// The state where a function starts: arguments, callee-saved registers and r1.
    pub fn entry() -> State {
        State {
            defined: ARGS | CALLEE_SAVED | R1,
            local_def: 0,
            args: 0,
            written: 0,
            flags: 0,
            r1_zero: true,
            pairs: [None; 16],
            reserved: 0,
            sreg_copies: 0,
            cost: 0,
        }
    }

    fn join(&self, o: &State) -> State {
        let mut pairs = [None; 16];
        for (p, (a, b)) in pairs.iter_mut().zip(self.pairs.iter().zip(&o.pairs)) {
            *p = match (a, b) {
                (Some((a0, a1)), Some((b0, b1))) => Some(((*a0).min(*b0), (*a1).max(*b1))),
                _ => None,
            };
        }
        State {
            defined: self.defined & o.defined,
            local_def: self.local_def & o.local_def,
            args: self.args | o.args,
            written: self.written | o.written,
            flags: self.flags & o.flags,
            r1_zero: self.r1_zero && o.r1_zero,
            pairs,
            reserved: self.reserved,
            sreg_copies: self.sreg_copies & o.sreg_copies,
            cost: self.cost.max(o.cost),
        }
    }

    fn read(&mut self, mask: u32) -> Result<(), String> {
        if mask & !self.defined != 0 {
            return Err(format!("reads undefined registers {:#010x}", mask & !self.defined));
        }
        self.args |= mask & !self.local_def;
        Ok(())
    }

    fn write(&mut self, mask: u32) -> Result<(), String> {
        if mask & self.reserved != 0 {
            return Err("writes a loop counter".into());
        }
        self.defined |= mask;
        self.local_def |= mask;
        self.written |= mask;
        self.sreg_copies &= !mask;
        for (p, range) in self.pairs.iter_mut().enumerate() {
            if mask & (3 << (2 * p)) != 0 {
                *range = None;
            }
        }
        Ok(())
    }

    /// The addresses a pointer pair may hold, if it is known to be in the window.
    pub fn pair(&self, lo: u8) -> Option<(i32, i32)> {
        self.pairs[usize::from(lo / 2)]
    }
}

/// What a caller needs to know of a function.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Summary {
    /// The registers it reads before writing them.
    pub args: u32,
    /// The call-used registers it writes on every path.
    pub must: u32,
    /// The registers its dump stores.
    pub dumped: u32,
    /// The flags its dump stores defined.
    pub flags: u8,
    /// The callee-saved registers its prologue saves.
    pub saved: u32,
    /// The most instructions its body runs.
    pub cost: u32,
}

/// The abstract effect of one instruction; an error when it breaks a rule.
pub fn insn(s: &mut State, i: Insn) -> Result<(), String> {
    if matches!(i, Insn::Push(_) | Insn::Pop(_)) {
        return Err("a push or pop outside a balanced pair".into());
    }
    match i {
        Insn::OutSreg(r) if s.sreg_copies & (1 << r) != 0 => {}
        _ => s.read(i.reads())?,
    }
    if i.flags_read() & !s.flags != 0 {
        return Err(format!("{i} reads undefined flags"));
    }
    match i {
        Insn::Ld(d, p, m) | Insn::St(p, m, d) => {
            use crate::insn::Mode;
            let (lo, hi) = s.pair(p.lo()).ok_or_else(|| format!("{i}: {p} is not a window address"))?;
            let (a, b) = match m {
                Mode::Plain | Mode::PostInc => (lo, hi),
                Mode::PreDec => (lo - 1, hi - 1),
                Mode::Disp(q) => (lo + i32::from(q), hi + i32::from(q)),
            };
            if !(ACCESS.contains(&a) && ACCESS.contains(&b)) {
                return Err(format!("{i} may reach {a:#x}..={b:#x}"));
            }
            if matches!(m, Mode::PostInc | Mode::PreDec) && d & !1 == p.lo() {
                return Err(format!("{i}: the pointer is the data register (undefined on the AVR)"));
            }
        }
        Insn::Lds(_, a) | Insn::Sts(a, _) if !DATA.contains(&a) => return Err(format!("{i} is outside the window")),
        Insn::InSreg(_) if s.flags & (ARITH | T) != ARITH | T => return Err(format!("{i} reads undefined flags")),
        _ => {}
    }
    let w = i.writes();
    let step = i.pointer_step().map(|(p, k)| (p, s.pair(p).map(|(a, b)| (a + k, b + k))));
    let copy = match i {
        Insn::Movw(_, r) => Some(s.pair(r)),
        _ => None,
    };
    match i {
        Insn::Rr(Rr::Eor, 1, 1) => {
            s.write(w)?;
            s.r1_zero = true;
        }
        Insn::Rr(op, ..) if op.is_mul() => {
            s.write(w)?;
            s.r1_zero = false;
        }
        _ if w & R1 != 0 => return Err(format!("{i} writes r1")),
        _ => s.write(w)?,
    }
    if let Insn::InSreg(d) = i {
        s.defined &= !(1 << d);
        s.sreg_copies |= 1 << d;
    }
    if let (Insn::Movw(d, _), Some(range)) = (i, copy) {
        s.pairs[usize::from(d / 2)] = range;
    }
    if let Some((p, range)) = step {
        s.pairs[usize::from(p / 2)] = range;
    }
    s.flags |= i.flags_written();
    if let Insn::Flag(2 | 3, _) = i {
        // `sen`, `clv` and the like leave S as it was on the AVR; the translator keeps S as
        // N xor V (and LLVM never sets N or V alone).
        s.flags &= !S;
    }
    s.cost += 1;
    Ok(())
}

/// The abstract effect of the items of a body.
pub fn items(s: &mut State, body: &[Item], sums: &[Summary], me: usize) -> Result<(), String> {
    body.iter().try_for_each(|it| item(s, it, sums, me))
}

/// The abstract effect of one item.
pub fn item(s: &mut State, it: &Item, sums: &[Summary], me: usize) -> Result<(), String> {
    match it {
        Item::I(i) => insn(s, *i),
        Item::If { flag, set: _, then, els } => {
            if s.flags & (1 << flag) == 0 {
                return Err(format!("a branch on undefined flag {flag}"));
            }
            let mut a = s.clone();
            items(&mut a, then, sums, me)?;
            let mut b = s.clone();
            items(&mut b, els, sums, me)?;
            *s = a.join(&b);
            Ok(())
        }
        Item::Skip(test, i) => {
            match *test {
                SkipTest::Sbrc(r, _) | SkipTest::Sbrs(r, _) => s.read(1 << r)?,
                SkipTest::Cpse(d, r) => s.read(1 << d | 1 << r)?,
            }
            let mut ran = s.clone();
            insn(&mut ran, *i)?;
            *s = s.join(&ran);
            Ok(())
        }
        Item::Loop(kind, body) => {
            for i in kind.setup() {
                insn(s, i)?;
            }
            if let LoopKind::Shift(c) = kind {
                s.read(1 << c)?;
            }
            let counter = kind.counter();
            if counter & s.reserved != 0 {
                return Err("a loop counter already in use".into());
            }
            let outer = s.reserved;
            // Each turn starts from what every earlier turn may have left: iterated as
            // often as the loop can turn, so a pointer walk is checked to its end.
            let mut start = s.clone();
            start.reserved |= counter;
            start.cost = 0;
            let mut exit = None;
            let mut turn_cost = 0;
            for _ in 0..kind.turns() {
                let mut x = start.clone();
                items(&mut x, body, sums, me)?;
                x.reserved = outer;
                for i in kind.tail() {
                    insn(&mut x, i)?;
                }
                x.reserved = outer | counter;
                turn_cost = turn_cost.max(x.cost + 1);
                x.cost = 0;
                let joined = start.join(&x);
                let done = joined == start;
                start = joined;
                exit = Some(x);
                if done {
                    break;
                }
            }
            let mut exit = exit.expect("a loop turns at least once");
            exit.reserved = outer;
            exit.cost = s.cost + turn_cost * u32::from(kind.turns());
            *s = exit;
            Ok(())
        }
        Item::Push(a, body, b) => {
            s.read(1 << a)?;
            items(s, body, sums, me)?;
            if *b == 1 {
                return Err("pop r1".into());
            }
            s.write(1 << b)
        }
        Item::Call(g) => {
            let g = *g;
            if g <= me || g >= sums.len() {
                return Err(format!("function {me} calls {g}"));
            }
            if !s.r1_zero {
                return Err("a call with r1 not zero".into());
            }
            if s.reserved & CALL_USED != 0 {
                return Err("a call inside a loop counted in a call-used register".into());
            }
            if s.defined & CALLEE_SAVED != CALLEE_SAVED {
                // The callee finds every callee-saved register defined (and dumps it); one
                // holds an SREG copy on some path.
                return Err("a call with an undefined callee-saved register".into());
            }
            s.read(sums[g].args)?;
            s.cost += sums[g].cost + 60;
            let must = sums[g].must & CALL_USED;
            s.defined = (s.defined & (CALLEE_SAVED | R1)) | must;
            s.local_def = (s.local_def & CALLEE_SAVED) | must;
            s.written |= must;
            s.sreg_copies &= CALLEE_SAVED;
            s.flags = 0;
            for (p, range) in s.pairs.iter_mut().enumerate() {
                if CALL_USED & (3 << (2 * p)) != 0 {
                    *range = None;
                }
            }
            Ok(())
        }
        Item::Native(name) => {
            if !s.r1_zero {
                return Err("a call with r1 not zero".into());
            }
            if name.contains("div") {
                insn(s, Insn::Imm(Imm::Ori, 22, 1))?;
            }
            s.read(avr2mos::analysis::liveness::native_args(name))?;
            let w = avr2mos::analysis::liveness::native_writes(name);
            if w & s.reserved != 0 {
                return Err("a runtime call over a loop counter".into());
            }
            s.write(w)?;
            s.flags = 0;
            s.cost += 100;
            Ok(())
        }
        Item::Anchor(lo, a) => {
            if *lo < 16 || lo % 2 != 0 {
                return Err(format!("anchor r{lo}"));
            }
            s.write(3 << lo)?;
            s.pairs[usize::from(lo / 2)] = Some((i32::from(*a), i32::from(*a)));
            Ok(())
        }
        Item::Mask(lo) => {
            if *lo < 16 || lo % 2 != 0 {
                return Err(format!("mask r{lo}"));
            }
            s.read(3 << lo)?;
            s.write(2 << lo)?;
            s.flags |= LOGIC;
            s.pairs[usize::from(lo / 2)] = Some((i32::from(DATA.start), i32::from(DATA.end) - 1));
            Ok(())
        }
    }
}

/// Checks every function (the last first: a caller needs its callees' summaries) and
/// returns their summaries.
pub fn check(p: &Program) -> Result<Vec<Summary>, String> {
    if p.funcs.is_empty() || p.funcs.len() > MAX_FUNCS {
        return Err("function count".into());
    }
    let mut sums = vec![Summary::default(); p.funcs.len()];
    for f in (0..p.funcs.len()).rev() {
        sums[f] = summarise(&p.funcs[f].items, &sums, f).map_err(|e| format!("f{f}: {e}"))?;
    }
    Ok(sums)
}

/// The summary of one function's body, given its callees'.
pub fn summarise(body: &[Item], sums: &[Summary], me: usize) -> Result<Summary, String> {
    let mut s = State::entry();
    items(&mut s, body, sums, me)?;
    if !s.r1_zero {
        return Err("returns with r1 not zero".into());
    }
    let flags = s.flags & (ARITH | T);
    // The dump's `in r0, SREG` leaves r0 an SREG copy: written, not defined.
    let written = s.written | u32::from(flags != 0);
    let must = s.local_def & s.defined & !u32::from(flags != 0);
    // An argument register the body never read may hold anything in a caller (say an
    // SREG copy): the dump leaves it out.
    let dumped = s.defined & (s.local_def | s.args | CALLEE_SAVED | R1);
    Ok(Summary { args: s.args, must, dumped, flags, saved: written & CALLEE_SAVED, cost: s.cost + 40 })
}

/// A branch's encoding: `brbs`/`brbc` flag, by a word offset.
fn branch(flag: u8, set: bool, offset: i32) -> u16 {
    assert!((-64..64).contains(&offset), "branch offset {offset}");
    (if set { 0xF000 } else { 0xF400 }) | ((offset as u16 & 0x7F) << 3) | u16::from(flag)
}

fn rjmp(offset: i32) -> u16 {
    0xC000 | (offset as u16 & 0x0FFF)
}

/// The assembled program: AVR words, each function's start (a byte address), and a
/// listing.
pub struct Image {
    /// The code.
    pub words: Vec<u16>,
    /// Byte addresses of `main` and of each function.
    pub starts: Vec<u32>,
    /// One line per instruction.
    pub listing: String,
}

struct Asm {
    words: Vec<u16>,
    listing: String,
    /// `(word index, function)`: an `rcall` to fill in.
    calls: Vec<(usize, usize)>,
}

impl Asm {
    fn emit(&mut self, words: &[u16], text: &str, depth: usize) {
        let _ =
            writeln!(self.listing, "  {:5x}: {:<10} {}{text}", 2 * self.words.len(), hex(words), "  ".repeat(depth));
        self.words.extend_from_slice(words);
    }

    fn insn(&mut self, i: Insn, depth: usize) {
        self.emit(&i.encode(), &i.to_string(), depth);
    }

    fn label(&mut self, text: &str) {
        let _ = writeln!(self.listing, "{text}:");
    }
}

fn hex(words: &[u16]) -> String {
    words.iter().map(|w| format!("{w:04x}")).collect::<Vec<_>>().join(" ")
}

/// The number of words an item takes.
fn size(it: &Item) -> i32 {
    let body = |b: &[Item]| b.iter().map(size).sum::<i32>();
    match it {
        Item::I(i) => i.encode().len() as i32,
        Item::If { then, els, .. } => {
            let (t, e) = (body(then), body(els));
            let jump = i32::from(!els.is_empty());
            let reach = t + jump;
            (if reach < 64 { 1 } else { 2 }) + t + jump + e
        }
        Item::Skip(_, i) => 1 + i.encode().len() as i32,
        Item::Loop(kind, b) => {
            let tail: i32 = kind.tail().iter().map(|i| i.encode().len() as i32).sum();
            let back = body(b) + tail + 1;
            kind.setup().len() as i32 + body(b) + tail + if back <= 64 { 1 } else { 2 }
        }
        Item::Push(_, b, _) => 2 + body(b),
        Item::Call(_) => 1,
        Item::Native(name) => 2 + i32::from(name.contains("div")),
        Item::Anchor(..) | Item::Mask(_) => 2,
    }
}

fn asm_items(a: &mut Asm, body: &[Item], depth: usize) {
    for it in body {
        asm_item(a, it, depth);
    }
}

fn flag_name(flag: u8, set: bool) -> String {
    let names = ["c", "z", "n", "v", "s", "h", "t", "i"];
    format!("{} {}", if set { "brbs" } else { "brbc" }, names[usize::from(flag)])
}

fn asm_item(a: &mut Asm, it: &Item, depth: usize) {
    let at = a.words.len() as i32;
    match it {
        Item::I(i) => a.insn(*i, depth),
        Item::If { flag, set, then, els } => {
            let t: i32 = then.iter().map(size).sum();
            let jump = i32::from(!els.is_empty());
            let reach = t + jump;
            let else_at = at + size(it) - els.iter().map(size).sum::<i32>();
            let end = at + size(it);
            if reach < 64 {
                a.emit(
                    &[branch(*flag, *set, reach)],
                    &format!("{} -> {:x}", flag_name(*flag, *set), 2 * else_at),
                    depth,
                );
            } else {
                a.emit(&[branch(*flag, !set, 1)], &format!("{} .+2 (long form)", flag_name(*flag, !set)), depth);
                let here = a.words.len() as i32;
                a.emit(&[rjmp(else_at - here - 1)], &format!("rjmp {:x}", 2 * else_at), depth);
            }
            asm_items(a, then, depth + 1);
            if !els.is_empty() {
                let here = a.words.len() as i32;
                a.emit(&[rjmp(end - here - 1)], &format!("rjmp {:x}", 2 * end), depth);
                asm_items(a, els, depth + 1);
            }
        }
        Item::Skip(test, i) => {
            let (w, text) = match *test {
                SkipTest::Sbrc(r, b) => (0xFC00 | (u16::from(r) << 4) | u16::from(b), format!("sbrc r{r}, {b}")),
                SkipTest::Sbrs(r, b) => (0xFE00 | (u16::from(r) << 4) | u16::from(b), format!("sbrs r{r}, {b}")),
                SkipTest::Cpse(d, r) => (
                    0x1000 | (u16::from(r & 0x10) << 5) | (u16::from(d) << 4) | u16::from(r & 0x0F),
                    format!("cpse r{d}, r{r}"),
                ),
            };
            a.emit(&[w], &text, depth);
            a.insn(*i, depth + 1);
        }
        Item::Loop(kind, body) => {
            for i in kind.setup() {
                a.insn(i, depth);
            }
            let head = a.words.len() as i32;
            a.label(&format!("  loop {:x}", 2 * head));
            asm_items(a, body, depth + 1);
            for i in kind.tail() {
                a.insn(i, depth);
            }
            let here = a.words.len() as i32;
            let back = head - here - 1;
            if back >= -64 {
                a.emit(&[branch(1, false, back)], &format!("brne {:x}", 2 * head), depth);
            } else {
                a.emit(&[branch(1, true, 1)], "breq .+2 (long form)", depth);
                a.emit(&[rjmp(back - 1)], &format!("rjmp {:x}", 2 * head), depth);
            }
        }
        Item::Push(r, body, d) => {
            a.insn(Insn::Push(*r), depth);
            asm_items(a, body, depth + 1);
            a.insn(Insn::Pop(*d), depth);
        }
        Item::Call(g) => {
            a.calls.push((a.words.len(), *g + 1));
            a.emit(&[0xD000], &format!("rcall f{g}"), depth);
        }
        Item::Native(name) => {
            if name.contains("div") {
                a.insn(Insn::Imm(Imm::Ori, 22, 1), depth);
            }
            let addr = avr2mos::runtime::NATIVE.iter().find(|n| n.0 == *name).expect("a runtime routine").1;
            let w = addr / 2;
            a.emit(&[0x940E | ((w >> 16) as u16 & 1), (w & 0xFFFF) as u16], &format!("call {name}"), depth);
        }
        Item::Anchor(lo, addr) => {
            a.insn(Insn::Imm(Imm::Ldi, *lo, *addr as u8), depth);
            a.insn(Insn::Imm(Imm::Ldi, lo + 1, (addr >> 8) as u8), depth);
        }
        Item::Mask(lo) => {
            a.insn(Insn::Imm(Imm::Andi, lo + 1, 0x03), depth);
            a.insn(Insn::Imm(Imm::Ori, lo + 1, 0x40), depth);
        }
    }
    debug_assert_eq!(a.words.len() as i32 - at, size(it), "size of {it:?}");
}

/// Lays out `main` (which sets every register and calls `f0`) and the functions, each with
/// its prologue, its body, the dump of its defined registers and flags, and its epilogue.
pub fn assemble(p: &Program, sums: &[Summary]) -> Image {
    let mut a = Asm { words: Vec::new(), listing: String::new(), calls: Vec::new() };
    let mut starts = vec![0];
    a.label("main");
    for k in (0..16u8).filter(|&k| k != 1) {
        a.insn(Insn::Imm(Imm::Ldi, 16, p.regs[usize::from(k)]), 0);
        a.insn(Insn::Rr(Rr::Mov, k, 16), 0);
    }
    for k in 16..32u8 {
        a.insn(Insn::Imm(Imm::Ldi, k, p.regs[usize::from(k)]), 0);
    }
    a.insn(Insn::Rr(Rr::Eor, 1, 1), 0);
    a.calls.push((a.words.len(), 1));
    a.emit(&[0xD000], "rcall f0", 0);
    a.emit(&[0x9508], "ret", 0);
    for (f, func) in p.funcs.iter().enumerate() {
        starts.push(2 * a.words.len() as u32);
        a.label(&format!("f{f}"));
        let saved: Vec<u8> = (0..32).filter(|r| sums[f].saved & (1 << r) != 0).collect();
        for &r in &saved {
            a.insn(Insn::Push(r), 0);
        }
        asm_items(&mut a, &func.items, 0);
        let dump = DUMPS + 34 * f as u16;
        for r in (0..32u8).filter(|r| sums[f].dumped & (1 << r) != 0) {
            a.insn(Insn::Sts(dump + u16::from(r), r), 0);
        }
        if sums[f].flags != 0 {
            a.insn(Insn::InSreg(0), 0);
            a.insn(Insn::Sts(dump + 32, 0), 0);
        }
        for &r in saved.iter().rev() {
            a.insn(Insn::Pop(r), 0);
        }
        a.emit(&[0x9508], "ret", 0);
    }
    for &(at, g) in &a.calls {
        let offset = starts[g] as i32 / 2 - at as i32 - 1;
        a.words[at] = 0xD000 | (offset as u16 & 0x0FFF);
    }
    Image { words: a.words, starts, listing: a.listing }
}

/// The bytes of memory two runs must agree on, as `(address, mask)`: the window, and of
/// each function's dump the registers and flags it defines.
pub fn compared(sums: &[Summary]) -> Vec<(usize, u8)> {
    let mut out = Vec::new();
    let dumps = usize::from(DUMPS)..usize::from(DUMPS) + 34 * MAX_FUNCS;
    for a in COMPARED.clone().filter(|a| !dumps.contains(a)) {
        out.push((a, 0xFF));
    }
    for (f, s) in sums.iter().enumerate() {
        let dump = usize::from(DUMPS) + 34 * f;
        for r in (0..32).filter(|r| s.dumped & (1 << r) != 0) {
            out.push((dump + r, 0xFF));
        }
        if s.flags != 0 {
            out.push((dump + 32, s.flags));
        }
    }
    out
}
