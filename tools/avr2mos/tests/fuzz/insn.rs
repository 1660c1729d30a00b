//! The straight-line AVR instructions the fuzzer generates: their encodings, the registers
//! and flags they read and write, and how they print. Written from the AVR instruction set
//! manual, apart from the translator's decoder, so a mistake in one is not copied into the
//! other.

use std::fmt;

/// SREG flag bits (the manual's numbering).
pub const C: u8 = 1 << 0;
/// Zero.
pub const Z: u8 = 1 << 1;
/// Negative.
pub const N: u8 = 1 << 2;
/// Two's complement overflow.
pub const V: u8 = 1 << 3;
/// Sign (N xor V).
pub const S: u8 = 1 << 4;
/// The bit-copy flag of `bst`/`bld`.
pub const T: u8 = 1 << 6;
/// The flags an arithmetic instruction sets (H is neither generated nor compared: no
/// branch reads it and the translator refuses a branch on it).
pub const ARITH: u8 = C | Z | N | V | S;
/// What logic, `inc` and `dec` set.
pub const LOGIC: u8 = Z | N | V | S;

/// A pointer register pair.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ptr {
    /// r27:r26.
    X,
    /// r29:r28.
    Y,
    /// r31:r30.
    Z,
}

impl Ptr {
    /// The low register of the pair.
    pub fn lo(self) -> u8 {
        match self {
            Ptr::X => 26,
            Ptr::Y => 28,
            Ptr::Z => 30,
        }
    }
}

/// How a load or store uses its pointer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// `X`: the pointer as it is.
    Plain,
    /// `X+`: incremented after.
    PostInc,
    /// `-X`: decremented before.
    PreDec,
    /// `Y+q`, `Z+q` (0..=63; not with X).
    Disp(u8),
}

/// Two-register operations.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rr {
    Add,
    Adc,
    Sub,
    Sbc,
    And,
    Or,
    Eor,
    Cp,
    Cpc,
    Mov,
    Mul,
    Muls,
    Mulsu,
    Fmul,
    Fmuls,
    Fmulsu,
}

/// Register-immediate operations (r16-r31).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Imm {
    Subi,
    Sbci,
    Andi,
    Ori,
    Cpi,
    Ldi,
}

/// One-register operations.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum One {
    Com,
    Neg,
    Swap,
    Inc,
    Dec,
    Asr,
    Lsr,
    Ror,
}

/// One straight-line instruction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Insn {
    /// `op d, r`.
    Rr(Rr, u8, u8),
    /// `op d, k`.
    Imm(Imm, u8, u8),
    /// `op d`.
    One(One, u8),
    /// `movw d, r` (even registers).
    Movw(u8, u8),
    /// `adiw d, k` (d in 24, 26, 28, 30; k < 64).
    Adiw(u8, u8),
    /// `sbiw d, k`.
    Sbiw(u8, u8),
    /// `bst d, b`.
    Bst(u8, u8),
    /// `bld d, b`.
    Bld(u8, u8),
    /// `ld d, ptr` in a mode.
    Ld(u8, Ptr, Mode),
    /// `st ptr, r` in a mode.
    St(Ptr, Mode, u8),
    /// `lds d, addr`.
    Lds(u8, u16),
    /// `sts addr, r`.
    Sts(u16, u8),
    /// `push r`.
    Push(u8),
    /// `pop d`.
    Pop(u8),
    /// `in d, SREG`.
    InSreg(u8),
    /// `out SREG, r`.
    OutSreg(u8),
    /// `bset s` / `bclr s` (`sec`, `clc`, `set`, ...).
    Flag(u8, bool),
}

fn rr(base: u16, d: u8, r: u8) -> u16 {
    base | (u16::from(r & 0x10) << 5) | (u16::from(d) << 4) | u16::from(r & 0x0F)
}

fn disp(q: u8) -> u16 {
    let q = u16::from(q);
    ((q & 0x20) << 8) | ((q & 0x18) << 7) | (q & 7)
}

impl Rr {
    /// The flags it writes.
    pub fn flags_written(self) -> u8 {
        match self {
            Rr::Add | Rr::Adc | Rr::Sub | Rr::Sbc | Rr::Cp | Rr::Cpc => ARITH,
            Rr::And | Rr::Or | Rr::Eor => LOGIC,
            Rr::Mov => 0,
            _ => C | Z,
        }
    }

    /// The flags it reads.
    pub fn flags_read(self) -> u8 {
        match self {
            Rr::Adc => C,
            Rr::Sbc | Rr::Cpc => C | Z,
            _ => 0,
        }
    }

    /// A multiply (result in r1:r0).
    pub fn is_mul(self) -> bool {
        matches!(self, Rr::Mul | Rr::Muls | Rr::Mulsu | Rr::Fmul | Rr::Fmuls | Rr::Fmulsu)
    }

    /// Whether it writes its destination register.
    pub fn writes_d(self) -> bool {
        !matches!(self, Rr::Cp | Rr::Cpc) && !self.is_mul()
    }
}

impl Insn {
    /// The instruction words.
    pub fn encode(self) -> Vec<u16> {
        let w = match self {
            Insn::Rr(op, d, r) => match op {
                Rr::Add => rr(0x0C00, d, r),
                Rr::Adc => rr(0x1C00, d, r),
                Rr::Sub => rr(0x1800, d, r),
                Rr::Sbc => rr(0x0800, d, r),
                Rr::And => rr(0x2000, d, r),
                Rr::Or => rr(0x2800, d, r),
                Rr::Eor => rr(0x2400, d, r),
                Rr::Cp => rr(0x1400, d, r),
                Rr::Cpc => rr(0x0400, d, r),
                Rr::Mov => rr(0x2C00, d, r),
                Rr::Mul => rr(0x9C00, d, r),
                Rr::Muls => 0x0200 | (u16::from(d - 16) << 4) | u16::from(r - 16),
                Rr::Mulsu => 0x0300 | (u16::from(d - 16) << 4) | u16::from(r - 16),
                Rr::Fmul => 0x0308 | (u16::from(d - 16) << 4) | u16::from(r - 16),
                Rr::Fmuls => 0x0380 | (u16::from(d - 16) << 4) | u16::from(r - 16),
                Rr::Fmulsu => 0x0388 | (u16::from(d - 16) << 4) | u16::from(r - 16),
            },
            Insn::Imm(op, d, k) => {
                let base = match op {
                    Imm::Subi => 0x5000,
                    Imm::Sbci => 0x4000,
                    Imm::Andi => 0x7000,
                    Imm::Ori => 0x6000,
                    Imm::Cpi => 0x3000,
                    Imm::Ldi => 0xE000,
                };
                base | (u16::from(k & 0xF0) << 4) | (u16::from(d - 16) << 4) | u16::from(k & 0x0F)
            }
            Insn::One(op, d) => {
                let low = match op {
                    One::Com => 0x0,
                    One::Neg => 0x1,
                    One::Swap => 0x2,
                    One::Inc => 0x3,
                    One::Asr => 0x5,
                    One::Lsr => 0x6,
                    One::Ror => 0x7,
                    One::Dec => 0xA,
                };
                0x9400 | (u16::from(d) << 4) | low
            }
            Insn::Movw(d, r) => 0x0100 | (u16::from(d / 2) << 4) | u16::from(r / 2),
            Insn::Adiw(d, k) | Insn::Sbiw(d, k) => {
                let base = if matches!(self, Insn::Adiw(..)) { 0x9600 } else { 0x9700 };
                base | (u16::from(k & 0x30) << 2) | (u16::from((d - 24) / 2) << 4) | u16::from(k & 0x0F)
            }
            Insn::Bst(d, b) => 0xFA00 | (u16::from(d) << 4) | u16::from(b),
            Insn::Bld(d, b) => 0xF800 | (u16::from(d) << 4) | u16::from(b),
            Insn::Ld(d, p, m) | Insn::St(p, m, d) => {
                let store = matches!(self, Insn::St(..));
                let base: u16 = match (p, m) {
                    (Ptr::X, Mode::Plain) => 0x900C,
                    (Ptr::X, Mode::PostInc) => 0x900D,
                    (Ptr::X, Mode::PreDec) => 0x900E,
                    (Ptr::X, Mode::Disp(_)) => unreachable!("X has no displacement"),
                    (Ptr::Y, Mode::Plain) => 0x8008,
                    (Ptr::Y, Mode::PostInc) => 0x9009,
                    (Ptr::Y, Mode::PreDec) => 0x900A,
                    (Ptr::Y, Mode::Disp(q)) => 0x8008 | disp(q),
                    (Ptr::Z, Mode::Plain) => 0x8000,
                    (Ptr::Z, Mode::PostInc) => 0x9001,
                    (Ptr::Z, Mode::PreDec) => 0x9002,
                    (Ptr::Z, Mode::Disp(q)) => 0x8000 | disp(q),
                };
                base | if store { 0x0200 } else { 0 } | (u16::from(d) << 4)
            }
            Insn::Lds(d, a) => return vec![0x9000 | (u16::from(d) << 4), a],
            Insn::Sts(a, r) => return vec![0x9200 | (u16::from(r) << 4), a],
            Insn::Push(r) => 0x920F | (u16::from(r) << 4),
            Insn::Pop(d) => 0x900F | (u16::from(d) << 4),
            Insn::InSreg(d) => 0xB000 | 0x0F | (0x30 << 5) | (u16::from(d) << 4),
            Insn::OutSreg(r) => 0xB800 | 0x0F | (0x30 << 5) | (u16::from(r) << 4),
            Insn::Flag(s, set) => (if set { 0x9408 } else { 0x9488 }) | (u16::from(s) << 4),
        };
        vec![w]
    }

    /// The registers it reads, as a mask (a pointer's pair for a load or store).
    pub fn reads(self) -> u32 {
        let bit = |r: u8| 1u32 << r;
        let pair = |r: u8| 3u32 << r;
        match self {
            Insn::Rr(op, d, r) => {
                let d_read = !matches!(op, Rr::Mov);
                if op == Rr::Eor && d == r {
                    0 // `eor r, r` clears r whatever it held.
                } else {
                    bit(r) | if d_read { bit(d) } else { 0 }
                }
            }
            Insn::Imm(Imm::Ldi, ..) => 0,
            Insn::Imm(_, d, _) | Insn::One(_, d) | Insn::Bst(d, _) | Insn::Bld(d, _) => bit(d),
            Insn::Movw(_, r) => pair(r),
            Insn::Adiw(d, _) | Insn::Sbiw(d, _) => pair(d),
            Insn::Ld(_, p, _) => pair(p.lo()),
            Insn::St(p, _, r) => pair(p.lo()) | bit(r),
            Insn::Lds(..) | Insn::Pop(_) | Insn::InSreg(_) | Insn::Flag(..) => 0,
            Insn::Sts(_, r) | Insn::Push(r) | Insn::OutSreg(r) => bit(r),
        }
    }

    /// The registers it writes.
    pub fn writes(self) -> u32 {
        let bit = |r: u8| 1u32 << r;
        let pair = |r: u8| 3u32 << r;
        match self {
            Insn::Rr(op, d, _) if op.is_mul() => pair(0) | if op.writes_d() { bit(d) } else { 0 },
            Insn::Rr(op, d, _) => {
                if op.writes_d() {
                    bit(d)
                } else {
                    0
                }
            }
            Insn::Imm(Imm::Cpi, ..) => 0,
            Insn::Imm(_, d, _) | Insn::One(_, d) | Insn::Bld(d, _) | Insn::Lds(d, _) | Insn::Pop(d) => bit(d),
            Insn::InSreg(d) => bit(d),
            Insn::Movw(d, _) | Insn::Adiw(d, _) | Insn::Sbiw(d, _) => pair(d),
            Insn::Ld(d, p, m) => bit(d) | if matches!(m, Mode::PostInc | Mode::PreDec) { pair(p.lo()) } else { 0 },
            Insn::St(p, m, _) => {
                if matches!(m, Mode::PostInc | Mode::PreDec) {
                    pair(p.lo())
                } else {
                    0
                }
            }
            Insn::Bst(..) | Insn::Sts(..) | Insn::Push(_) | Insn::OutSreg(_) | Insn::Flag(..) => 0,
        }
    }

    /// The flags it reads.
    pub fn flags_read(self) -> u8 {
        match self {
            Insn::Rr(op, ..) => op.flags_read(),
            Insn::Imm(Imm::Sbci, ..) => C | Z,
            Insn::One(One::Ror, _) => C,
            Insn::Bld(..) => T,
            Insn::InSreg(_) => ARITH | T,
            _ => 0,
        }
    }

    /// The flags it writes.
    pub fn flags_written(self) -> u8 {
        match self {
            Insn::Rr(op, ..) => op.flags_written(),
            Insn::Imm(Imm::Ldi, ..) => 0,
            Insn::Imm(Imm::Andi | Imm::Ori, ..) => LOGIC,
            Insn::Imm(..) => ARITH,
            Insn::One(One::Swap, _) => 0,
            Insn::One(One::Inc | One::Dec, _) => LOGIC,
            Insn::One(..) | Insn::Adiw(..) | Insn::Sbiw(..) => ARITH,
            Insn::Bst(..) => T,
            Insn::OutSreg(_) => ARITH | T,
            Insn::Flag(s, _) => 1 << s,
            _ => 0,
        }
    }

    /// How many bytes it moves a pointer pair by (`X+`, `-X`, `adiw`, `sbiw`): the pair's
    /// low register and the signed step.
    pub fn pointer_step(self) -> Option<(u8, i32)> {
        match self {
            Insn::Ld(_, p, Mode::PostInc) | Insn::St(p, Mode::PostInc, _) => Some((p.lo(), 1)),
            Insn::Ld(_, p, Mode::PreDec) | Insn::St(p, Mode::PreDec, _) => Some((p.lo(), -1)),
            Insn::Adiw(d, k) => Some((d, i32::from(k))),
            Insn::Sbiw(d, k) => Some((d, -i32::from(k))),
            _ => None,
        }
    }
}

impl fmt::Display for Ptr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Ptr::X => "X",
            Ptr::Y => "Y",
            Ptr::Z => "Z",
        })
    }
}

fn pointer(p: Ptr, m: Mode) -> String {
    match m {
        Mode::Plain => format!("{p}"),
        Mode::PostInc => format!("{p}+"),
        Mode::PreDec => format!("-{p}"),
        Mode::Disp(q) => format!("{p}+{q}"),
    }
}

impl fmt::Display for Insn {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let lower = |s: String| s.to_lowercase();
        match *self {
            Insn::Rr(op, d, r) => write!(f, "{} r{d}, r{r}", lower(format!("{op:?}"))),
            Insn::Imm(op, d, k) => write!(f, "{} r{d}, 0x{k:02x}", lower(format!("{op:?}"))),
            Insn::One(op, d) => write!(f, "{} r{d}", lower(format!("{op:?}"))),
            Insn::Movw(d, r) => write!(f, "movw r{d}, r{r}"),
            Insn::Adiw(d, k) => write!(f, "adiw r{d}, {k}"),
            Insn::Sbiw(d, k) => write!(f, "sbiw r{d}, {k}"),
            Insn::Bst(d, b) => write!(f, "bst r{d}, {b}"),
            Insn::Bld(d, b) => write!(f, "bld r{d}, {b}"),
            Insn::Ld(d, p, m) => write!(f, "ld r{d}, {}", pointer(p, m)),
            Insn::St(p, m, r) => write!(f, "st {}, r{r}", pointer(p, m)),
            Insn::Lds(d, a) => write!(f, "lds r{d}, 0x{a:04x}"),
            Insn::Sts(a, r) => write!(f, "sts 0x{a:04x}, r{r}"),
            Insn::Push(r) => write!(f, "push r{r}"),
            Insn::Pop(d) => write!(f, "pop r{d}"),
            Insn::InSreg(d) => write!(f, "in r{d}, SREG"),
            Insn::OutSreg(r) => write!(f, "out SREG, r{r}"),
            Insn::Flag(s, set) => write!(f, "{} {s}", if set { "bset" } else { "bclr" }),
        }
    }
}
