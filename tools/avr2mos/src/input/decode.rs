//! Decoding of avr5 machine code: one flat table, checkable line by line against the
//! AVR instruction set manual.
//!
//! Each row is `(mask, pattern, op, operand format)`: an instruction word `w` matches when
//! `w & mask == pattern`. The first matching row wins, so rows with more specific masks
//! come before the general ones they overlap (for example `ld Y+` before `ldd`).

use std::fmt;

/// Pointer register used by `ld`/`st`/`ldd`/`std`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ptr {
    /// `X` = r27:r26.
    X,
    /// `Y` = r29:r28.
    Y,
    /// `Z` = r31:r30.
    Z,
}

impl Ptr {
    /// The low register of the pair.
    pub fn reg(self) -> u8 {
        match self {
            Ptr::X => 26,
            Ptr::Y => 28,
            Ptr::Z => 30,
        }
    }
}

/// Pointer update of a load or store.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// Plain or with displacement (`ldd`/`std`, displacement in `k`).
    Disp,
    /// Post-increment (`X+`).
    PostInc,
    /// Pre-decrement (`-X`).
    PreDec,
}

/// An avr5 operation. Aliases (`lsl`, `rol`, `tst`, `clr`, `brlt`...) decode to the base
/// instruction; their meaning is identical.
#[allow(missing_docs)] // The variants are the AVR mnemonics.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Op {
    Nop,
    Movw,
    Muls,
    Mulsu,
    Fmul,
    Fmuls,
    Fmulsu,
    Cpc,
    Sbc,
    Add,
    Cpse,
    Cp,
    Sub,
    Adc,
    And,
    Eor,
    Or,
    Mov,
    Cpi,
    Sbci,
    Subi,
    Ori,
    Andi,
    Ld(Ptr, Mode),
    St(Ptr, Mode),
    Lds,
    Sts,
    Lpm,
    Elpm,
    Pop,
    Push,
    Com,
    Neg,
    Swap,
    Inc,
    Asr,
    Lsr,
    Ror,
    Dec,
    Jmp,
    Call,
    Bset,
    Bclr,
    Ret,
    Reti,
    Sleep,
    Break,
    Wdr,
    Spm,
    Ijmp,
    Eijmp,
    Icall,
    Eicall,
    Adiw,
    Sbiw,
    Cbi,
    Sbic,
    Sbi,
    Sbis,
    Mul,
    In,
    Out,
    Rjmp,
    Rcall,
    Ldi,
    Brbs,
    Brbc,
    Bld,
    Bst,
    Sbrc,
    Sbrs,
}

impl Op {
    /// Whether the instruction skips the next one on a condition (`cpse`, `sbrc`, `sbrs`,
    /// `sbic`, `sbis`): the instruction after it may not run.
    pub fn skips(self) -> bool {
        matches!(self, Op::Cpse | Op::Sbrc | Op::Sbrs | Op::Sbic | Op::Sbis)
    }

    /// Whether the instruction may go somewhere other than the next instruction within the
    /// function: a jump, a conditional branch, a skip or a return. Calls are not in it:
    /// they come back to the next instruction.
    pub fn jumps(self) -> bool {
        matches!(
            self,
            Op::Rjmp
                | Op::Jmp
                | Op::Ijmp
                | Op::Eijmp
                | Op::Brbs
                | Op::Brbc
                | Op::Cpse
                | Op::Sbrc
                | Op::Sbrs
                | Op::Sbic
                | Op::Sbis
                | Op::Ret
                | Op::Reti
        )
    }
}

/// How the operands are packed into the instruction word.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Fmt {
    /// No operands.
    None,
    /// `ddddd` at bits 8..4 and `rrrrr` at bit 9 + bits 3..0.
    D5R5,
    /// `ddddd` at bits 8..4.
    D5,
    /// `dddd` (r16..r31) at bits 7..4, 8-bit immediate at bits 11..8 + 3..0.
    D4K8,
    /// `dddd`/`rrrr` register pairs (`movw`).
    Pair,
    /// `dddd`/`rrrr` r16..r31 (`muls`).
    D4R4,
    /// `ddd`/`rrr` r16..r23 (`mulsu`, `fmul*`).
    D3R3,
    /// `ddddd` plus a 16-bit address in the next word (`lds`/`sts`).
    D5K16,
    /// 22-bit word address (`jmp`/`call`).
    K22,
    /// 12-bit signed word offset (`rjmp`/`rcall`).
    K12,
    /// SREG bit in bits 2..0, 7-bit signed word offset in bits 9..3 (`brbs`/`brbc`).
    S3K7,
    /// SREG bit in bits 6..4 (`bset`/`bclr`).
    S3,
    /// Register pair r24/26/28/30 in bits 5..4 and 6-bit immediate (`adiw`/`sbiw`).
    Dw,
    /// `ddddd` and I/O address in bits 10..9 + 3..0 (`in`/`out`).
    D5A6,
    /// I/O address (5 bits) and bit number (`sbi`, `sbic`...).
    A5B3,
    /// `ddddd` and bit number in bits 2..0 (`bld`, `bst`, `sbrc`, `sbrs`).
    D5B3,
    /// `ddddd` and 6-bit displacement `q` (`ldd`/`std`).
    D5Q6,
}

/// The decoder table.
#[rustfmt::skip]
const TABLE: &[(u16, u16, Op, Fmt)] = &[
    (0xFFFF, 0x0000, Op::Nop, Fmt::None),
    (0xFF00, 0x0100, Op::Movw, Fmt::Pair),
    (0xFF00, 0x0200, Op::Muls, Fmt::D4R4),
    (0xFF88, 0x0300, Op::Mulsu, Fmt::D3R3),
    (0xFF88, 0x0308, Op::Fmul, Fmt::D3R3),
    (0xFF88, 0x0380, Op::Fmuls, Fmt::D3R3),
    (0xFF88, 0x0388, Op::Fmulsu, Fmt::D3R3),
    (0xFC00, 0x0400, Op::Cpc, Fmt::D5R5),
    (0xFC00, 0x0800, Op::Sbc, Fmt::D5R5),
    (0xFC00, 0x0C00, Op::Add, Fmt::D5R5),
    (0xFC00, 0x1000, Op::Cpse, Fmt::D5R5),
    (0xFC00, 0x1400, Op::Cp, Fmt::D5R5),
    (0xFC00, 0x1800, Op::Sub, Fmt::D5R5),
    (0xFC00, 0x1C00, Op::Adc, Fmt::D5R5),
    (0xFC00, 0x2000, Op::And, Fmt::D5R5),
    (0xFC00, 0x2400, Op::Eor, Fmt::D5R5),
    (0xFC00, 0x2800, Op::Or, Fmt::D5R5),
    (0xFC00, 0x2C00, Op::Mov, Fmt::D5R5),
    (0xF000, 0x3000, Op::Cpi, Fmt::D4K8),
    (0xF000, 0x4000, Op::Sbci, Fmt::D4K8),
    (0xF000, 0x5000, Op::Subi, Fmt::D4K8),
    (0xF000, 0x6000, Op::Ori, Fmt::D4K8),
    (0xF000, 0x7000, Op::Andi, Fmt::D4K8),
    (0xFE0F, 0x9000, Op::Lds, Fmt::D5K16),
    (0xFE0F, 0x9001, Op::Ld(Ptr::Z, Mode::PostInc), Fmt::D5),
    (0xFE0F, 0x9002, Op::Ld(Ptr::Z, Mode::PreDec), Fmt::D5),
    (0xFE0E, 0x9004, Op::Lpm, Fmt::D5),
    (0xFE0E, 0x9006, Op::Elpm, Fmt::D5),
    (0xFE0F, 0x9009, Op::Ld(Ptr::Y, Mode::PostInc), Fmt::D5),
    (0xFE0F, 0x900A, Op::Ld(Ptr::Y, Mode::PreDec), Fmt::D5),
    (0xFE0F, 0x900C, Op::Ld(Ptr::X, Mode::Disp), Fmt::D5),
    (0xFE0F, 0x900D, Op::Ld(Ptr::X, Mode::PostInc), Fmt::D5),
    (0xFE0F, 0x900E, Op::Ld(Ptr::X, Mode::PreDec), Fmt::D5),
    (0xFE0F, 0x900F, Op::Pop, Fmt::D5),
    (0xFE0F, 0x9200, Op::Sts, Fmt::D5K16),
    (0xFE0F, 0x9201, Op::St(Ptr::Z, Mode::PostInc), Fmt::D5),
    (0xFE0F, 0x9202, Op::St(Ptr::Z, Mode::PreDec), Fmt::D5),
    (0xFE0F, 0x9209, Op::St(Ptr::Y, Mode::PostInc), Fmt::D5),
    (0xFE0F, 0x920A, Op::St(Ptr::Y, Mode::PreDec), Fmt::D5),
    (0xFE0F, 0x920C, Op::St(Ptr::X, Mode::Disp), Fmt::D5),
    (0xFE0F, 0x920D, Op::St(Ptr::X, Mode::PostInc), Fmt::D5),
    (0xFE0F, 0x920E, Op::St(Ptr::X, Mode::PreDec), Fmt::D5),
    (0xFE0F, 0x920F, Op::Push, Fmt::D5),
    (0xFE0F, 0x9400, Op::Com, Fmt::D5),
    (0xFE0F, 0x9401, Op::Neg, Fmt::D5),
    (0xFE0F, 0x9402, Op::Swap, Fmt::D5),
    (0xFE0F, 0x9403, Op::Inc, Fmt::D5),
    (0xFE0F, 0x9405, Op::Asr, Fmt::D5),
    (0xFE0F, 0x9406, Op::Lsr, Fmt::D5),
    (0xFE0F, 0x9407, Op::Ror, Fmt::D5),
    (0xFE0F, 0x940A, Op::Dec, Fmt::D5),
    (0xFE0E, 0x940C, Op::Jmp, Fmt::K22),
    (0xFE0E, 0x940E, Op::Call, Fmt::K22),
    (0xFFFF, 0x9508, Op::Ret, Fmt::None),
    (0xFFFF, 0x9518, Op::Reti, Fmt::None),
    (0xFFFF, 0x9588, Op::Sleep, Fmt::None),
    (0xFFFF, 0x9598, Op::Break, Fmt::None),
    (0xFFFF, 0x95A8, Op::Wdr, Fmt::None),
    (0xFFFF, 0x95C8, Op::Lpm, Fmt::None),
    (0xFFFF, 0x95D8, Op::Elpm, Fmt::None),
    (0xFFFF, 0x95E8, Op::Spm, Fmt::None),
    (0xFF8F, 0x9408, Op::Bset, Fmt::S3),
    (0xFF8F, 0x9488, Op::Bclr, Fmt::S3),
    (0xFFFF, 0x9409, Op::Ijmp, Fmt::None),
    (0xFFFF, 0x9419, Op::Eijmp, Fmt::None),
    (0xFFFF, 0x9509, Op::Icall, Fmt::None),
    (0xFFFF, 0x9519, Op::Eicall, Fmt::None),
    (0xFF00, 0x9600, Op::Adiw, Fmt::Dw),
    (0xFF00, 0x9700, Op::Sbiw, Fmt::Dw),
    (0xFF00, 0x9800, Op::Cbi, Fmt::A5B3),
    (0xFF00, 0x9900, Op::Sbic, Fmt::A5B3),
    (0xFF00, 0x9A00, Op::Sbi, Fmt::A5B3),
    (0xFF00, 0x9B00, Op::Sbis, Fmt::A5B3),
    (0xFC00, 0x9C00, Op::Mul, Fmt::D5R5),
    (0xF800, 0xB000, Op::In, Fmt::D5A6),
    (0xF800, 0xB800, Op::Out, Fmt::D5A6),
    (0xF000, 0xC000, Op::Rjmp, Fmt::K12),
    (0xF000, 0xD000, Op::Rcall, Fmt::K12),
    (0xF000, 0xE000, Op::Ldi, Fmt::D4K8),
    (0xFC00, 0xF000, Op::Brbs, Fmt::S3K7),
    (0xFC00, 0xF400, Op::Brbc, Fmt::S3K7),
    (0xFE08, 0xF800, Op::Bld, Fmt::D5B3),
    (0xFE08, 0xFA00, Op::Bst, Fmt::D5B3),
    (0xFE08, 0xFC00, Op::Sbrc, Fmt::D5B3),
    (0xFE08, 0xFE00, Op::Sbrs, Fmt::D5B3),
    // ldd/std (and plain ld/st through Y and Z, which are ldd/std with q = 0).
    (0xD208, 0x8000, Op::Ld(Ptr::Z, Mode::Disp), Fmt::D5Q6),
    (0xD208, 0x8008, Op::Ld(Ptr::Y, Mode::Disp), Fmt::D5Q6),
    (0xD208, 0x8200, Op::St(Ptr::Z, Mode::Disp), Fmt::D5Q6),
    (0xD208, 0x8208, Op::St(Ptr::Y, Mode::Disp), Fmt::D5Q6),
];

/// A decoded instruction. Which fields mean something depends on `op`:
/// `d` is the destination (or only) register, `r` the source register, the SREG bit or the
/// bit number; `k` an immediate, an address (absolute byte address for branches, calls
/// and jumps), an I/O address or a displacement.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Insn {
    /// The operation.
    pub op: Op,
    /// Destination register (or the register operand of one-register instructions).
    pub d: u8,
    /// Source register, SREG bit or bit number.
    pub r: u8,
    /// Immediate, address, I/O port or displacement (see the type docs).
    pub k: u32,
    /// Length in bytes (2 or 4).
    pub len: u8,
}

/// Why a word could not be decoded.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DecodeError {
    /// No row of the table matches.
    Unknown,
    /// A 32-bit instruction is cut off by the end of the code.
    Truncated,
}

fn word(code: &[u8], at: usize) -> Option<u16> {
    Some(u16::from_le_bytes([*code.get(at)?, *code.get(at + 1)?]))
}

/// True if the instruction word starts a 32-bit instruction (`lds`, `sts`, `jmp`, `call`);
/// the skips need this to know how far to skip.
pub fn is_two_word(w: u16) -> bool {
    (w & 0xFC0F) == 0x9000 || (w & 0xFE0C) == 0x940C
}

/// Decodes the instruction at byte offset `at` of `code`, whose first byte is at AVR byte
/// address `base` (so that relative branches become absolute targets).
pub fn decode(code: &[u8], at: usize, base: u32) -> Result<Insn, DecodeError> {
    let w = word(code, at).ok_or(DecodeError::Truncated)?;
    let &(_, _, op, fmt) = TABLE.iter().find(|(mask, pat, _, _)| w & mask == *pat).ok_or(DecodeError::Unknown)?;
    let pc = base + at as u32;
    let d5 = ((w >> 4) & 0x1F) as u8;
    let r5 = (((w >> 5) & 0x10) | (w & 0x0F)) as u8;
    let k8 = u32::from(((w >> 4) & 0xF0) | (w & 0x0F));
    let mut insn = Insn { op, d: 0, r: 0, k: 0, len: 2 };
    match fmt {
        Fmt::None => {}
        Fmt::D5R5 => {
            insn.d = d5;
            insn.r = r5;
        }
        Fmt::D5 => insn.d = d5,
        Fmt::D4K8 => {
            insn.d = 16 + ((w >> 4) & 0x0F) as u8;
            insn.k = k8;
        }
        Fmt::Pair => {
            insn.d = 2 * ((w >> 4) & 0x0F) as u8;
            insn.r = 2 * (w & 0x0F) as u8;
        }
        Fmt::D4R4 => {
            insn.d = 16 + ((w >> 4) & 0x0F) as u8;
            insn.r = 16 + (w & 0x0F) as u8;
        }
        Fmt::D3R3 => {
            insn.d = 16 + ((w >> 4) & 0x07) as u8;
            insn.r = 16 + (w & 0x07) as u8;
        }
        Fmt::D5K16 => {
            insn.d = d5;
            insn.k = u32::from(word(code, at + 2).ok_or(DecodeError::Truncated)?);
            insn.len = 4;
        }
        Fmt::K22 => {
            let hi = u32::from(((w >> 3) & 0x3E) | (w & 1));
            let lo = u32::from(word(code, at + 2).ok_or(DecodeError::Truncated)?);
            insn.k = ((hi << 16) | lo) * 2;
            insn.len = 4;
        }
        Fmt::K12 => {
            let off = (((w & 0x0FFF) as i16) << 4) >> 4;
            insn.k = (pc as i64 + 2 + 2 * i64::from(off)) as u32;
        }
        Fmt::S3K7 => {
            insn.r = (w & 7) as u8;
            let off = ((((w >> 3) & 0x7F) as i16) << 9) >> 9;
            insn.k = (pc as i64 + 2 + 2 * i64::from(off)) as u32;
        }
        Fmt::S3 => insn.r = ((w >> 4) & 7) as u8,
        Fmt::Dw => {
            insn.d = 24 + 2 * ((w >> 4) & 3) as u8;
            insn.k = u32::from(((w >> 2) & 0x30) | (w & 0x0F));
        }
        Fmt::D5A6 => {
            insn.d = d5;
            insn.k = u32::from(((w >> 5) & 0x30) | (w & 0x0F));
        }
        Fmt::A5B3 => {
            insn.k = u32::from((w >> 3) & 0x1F);
            insn.r = (w & 7) as u8;
        }
        Fmt::D5B3 => {
            insn.d = d5;
            insn.r = (w & 7) as u8;
        }
        Fmt::D5Q6 => {
            insn.d = d5;
            insn.k = u32::from(((w >> 8) & 0x20) | ((w >> 7) & 0x18) | (w & 7));
        }
    }
    Ok(insn)
}

const SREG_BITS: [char; 8] = ['c', 'z', 'n', 'v', 's', 'h', 't', 'i'];

impl fmt::Display for Insn {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (d, r, k) = (self.d, self.r, self.k);
        let ptr = |p: Ptr| match p {
            Ptr::X => "X",
            Ptr::Y => "Y",
            Ptr::Z => "Z",
        };
        let name = format!("{:?}", self.op).to_lowercase();
        match self.op {
            Op::Movw => write!(f, "movw r{}:r{}, r{}:r{}", d + 1, d, r + 1, r),
            Op::Muls
            | Op::Mulsu
            | Op::Fmul
            | Op::Fmuls
            | Op::Fmulsu
            | Op::Cpc
            | Op::Sbc
            | Op::Add
            | Op::Cpse
            | Op::Cp
            | Op::Sub
            | Op::Adc
            | Op::And
            | Op::Eor
            | Op::Or
            | Op::Mov
            | Op::Mul => write!(f, "{name} r{d}, r{r}"),
            Op::Cpi | Op::Sbci | Op::Subi | Op::Ori | Op::Andi | Op::Ldi => {
                write!(f, "{name} r{d}, {k:#04x}")
            }
            Op::Ld(p, Mode::Disp) if k == 0 => write!(f, "ld r{d}, {}", ptr(p)),
            Op::Ld(p, Mode::Disp) => write!(f, "ldd r{d}, {}+{k}", ptr(p)),
            Op::Ld(p, Mode::PostInc) => write!(f, "ld r{d}, {}+", ptr(p)),
            Op::Ld(p, Mode::PreDec) => write!(f, "ld r{d}, -{}", ptr(p)),
            Op::St(p, Mode::Disp) if k == 0 => write!(f, "st {}, r{d}", ptr(p)),
            Op::St(p, Mode::Disp) => write!(f, "std {}+{k}, r{d}", ptr(p)),
            Op::St(p, Mode::PostInc) => write!(f, "st {}+, r{d}", ptr(p)),
            Op::St(p, Mode::PreDec) => write!(f, "st -{}, r{d}", ptr(p)),
            Op::Lds => write!(f, "lds r{d}, {k:#06x}"),
            Op::Sts => write!(f, "sts {k:#06x}, r{d}"),
            Op::Lpm
            | Op::Elpm
            | Op::Pop
            | Op::Push
            | Op::Com
            | Op::Neg
            | Op::Swap
            | Op::Inc
            | Op::Asr
            | Op::Lsr
            | Op::Ror
            | Op::Dec => write!(f, "{name} r{d}"),
            Op::Jmp | Op::Call | Op::Rjmp | Op::Rcall => write!(f, "{name} {k:#x}"),
            Op::Bset => write!(f, "se{}", SREG_BITS[usize::from(r & 7)]),
            Op::Bclr => write!(f, "cl{}", SREG_BITS[usize::from(r & 7)]),
            Op::Adiw | Op::Sbiw => write!(f, "{name} r{}:r{}, {k}", d + 1, d),
            Op::Cbi | Op::Sbic | Op::Sbi | Op::Sbis => write!(f, "{name} {k:#04x}, {r}"),
            Op::In => write!(f, "in r{d}, {k:#04x}"),
            Op::Out => write!(f, "out {k:#04x}, r{d}"),
            Op::Brbs => write!(f, "brbs {}, {k:#x}", SREG_BITS[usize::from(r & 7)]),
            Op::Brbc => write!(f, "brbc {}, {k:#x}", SREG_BITS[usize::from(r & 7)]),
            Op::Bld | Op::Bst | Op::Sbrc | Op::Sbrs => write!(f, "{name} r{d}, {r}"),
            _ => write!(f, "{name}"),
        }
    }
}

/// Decodes a whole instruction stream given as 16-bit words, as the analyses' unit tests
/// write their small programs; panics on a word that does not decode (a test's own bug).
#[cfg(test)]
pub(crate) fn decode_words(words: &[u16]) -> Vec<Insn> {
    let text: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
    let mut out = Vec::new();
    let mut at = 0;
    while at < text.len() {
        let i = decode(&text, at, 0).unwrap();
        at += usize::from(i.len);
        out.push(i);
    }
    out
}

/// Test support: the decoded `words` with the byte address of each instruction, the first
/// at 0.
#[cfg(test)]
pub(crate) fn decode_with_addrs(words: &[u16]) -> (Vec<Insn>, Vec<u32>) {
    let insns = decode_words(words);
    let addrs = insns.iter().scan(0u32, |a, i| {
        let at = *a;
        *a += u32::from(i.len);
        Some(at)
    });
    let addrs = addrs.collect();
    (insns, addrs)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dec(words: &[u16]) -> Insn {
        let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
        decode(&bytes, 0, 0x100).unwrap()
    }

    #[test]
    fn decodes_reference_encodings() {
        // Encodings checked against the AVR instruction set manual.
        assert_eq!(dec(&[0x0F01]).to_string(), "add r16, r17"); // 0000 11rd dddd rrrr
        assert_eq!(dec(&[0x1F88]).to_string(), "adc r24, r24");
        assert_eq!(dec(&[0xE28A]).to_string(), "ldi r24, 0x2a");
        assert_eq!(dec(&[0x01FC]).to_string(), "movw r31:r30, r25:r24");
        assert_eq!(dec(&[0x9508]).to_string(), "ret");
        assert_eq!(dec(&[0x920F]).to_string(), "push r0");
        assert_eq!(dec(&[0x91DF]).to_string(), "pop r29");
        assert_eq!(dec(&[0xB7CD]).to_string(), "in r28, 0x3d");
        assert_eq!(dec(&[0xBFDE]).to_string(), "out 0x3e, r29");
        assert_eq!(dec(&[0x9720]).to_string(), "sbiw r29:r28, 0");
        assert_eq!(dec(&[0x96FF]).to_string(), "adiw r31:r30, 63");
        assert_eq!(dec(&[0x8189]).to_string(), "ldd r24, Y+1");
        assert_eq!(dec(&[0xAFFF]).to_string(), "std Y+63, r31");
        assert_eq!(dec(&[0x9181]).to_string(), "ld r24, Z+");
        assert_eq!(dec(&[0x93ED]).to_string(), "st X+, r30");
        assert_eq!(dec(&[0x9180, 0xD020]).to_string(), "lds r24, 0xd020");
        assert_eq!(dec(&[0x9380, 0xD020]).to_string(), "sts 0xd020, r24");
        assert_eq!(dec(&[0x9C23]).to_string(), "mul r2, r3");
        assert_eq!(dec(&[0x0323]).to_string(), "mulsu r18, r19");
        assert_eq!(dec(&[0xFD87]).to_string(), "sbrc r24, 7");
    }

    #[test]
    fn relative_targets_are_absolute() {
        // rjmp .-2 at 0x100 jumps to itself; brne .+4 skips two words.
        assert_eq!(dec(&[0xCFFF]).k, 0x100);
        let brne = dec(&[0xF411]);
        assert_eq!((brne.op, brne.r, brne.k), (Op::Brbc, 1, 0x106));
        let call = dec(&[0x940E, 0x0080]);
        assert_eq!((call.op, call.k, call.len), (Op::Call, 0x100, 4));
    }

    #[test]
    fn two_word_detection_matches_the_table() {
        for w in 0..=u16::MAX {
            let bytes = [w.to_le_bytes(), [0, 0]].concat();
            if let Ok(i) = decode(&bytes, 0, 0) {
                assert_eq!(is_two_word(w), i.len == 4, "{w:#06x} {i}");
            }
        }
    }

    #[test]
    fn unknown_words_are_errors() {
        // 0x9404 would be `jmp`-adjacent `lpm`-family space unused on avr5.
        assert_eq!(decode(&0xFF0Fu16.to_le_bytes(), 0, 0), Err(DecodeError::Unknown));
        assert_eq!(decode(&[0x0E], 0, 0), Err(DecodeError::Truncated));
    }
}
