//! Static frames: a function that is never active twice at once gets its stack frame at a
//! fixed address after `.bss`, so it no longer reads or moves SP. Its prologue's
//! `in r28, 0x3d` / `in r29, 0x3e` load the fixed address less one (what Y would hold
//! after the prologue's subtraction of the frame size, which then goes when no flag it
//! sets is read), and its `out 0x3d/0x3e` that set SP to the frame and back disappear.
//! Frame slots are then absolute addresses where [`crate::frames::frame_slots`] can follow Y
//! through the function, and reached through Y otherwise; pointers to them
//! (`movw r24, r28`) are ordinary addresses. Such a function also no longer keeps the
//! AVR's 2-byte return address footprint, which only SP-relative code needs.
//!
//! Assumes the call graph of [`crate::analysis::callgraph`]. A function qualifies when:
//! - its only SP reads are one `in r28, 0x3d` and one `in r29, 0x3e`, followed at once by
//!   the frame's subtraction (`sbiw r28, N` or `subi r28, lo; sbci r29, hi`), and it
//!   writes SP only from r28/r29 (`out 0x3d, r28`, `out 0x3e, r29`);
//! - either nothing else writes r28 or r29 but the epilogue's `adiw r28, N` (or
//!   `subi/sbci` by -N) and `pop r28`/`pop r29`, so Y is the frame pointer wherever it is
//!   used, and every `ldd`/`std` through Y reaches a slot inside the frame (1..=N), so it
//!   reads no stack arguments; or [`crate::frames::frame_slots`] follows Y through the function
//!   (steps for far slots included) and finds every slot inside the frame;
//! - it is not recursive and nothing it calls calls through a pointer (so it cannot be
//!   entered again while active), and every function it calls directly either does not
//!   read SP or qualifies itself (so it passes no arguments on the stack, which a callee
//!   would read relative to SP).
//!
//! Guarantees: each qualifying function gets a frame of its size ([`crate::frames::overlay`]
//! places them); a function that does not qualify is left exactly as the plain lowering
//! makes it.

use crate::analysis::callgraph::{Reason, Summary};
use crate::input::decode::{Insn, Mode, Op, Ptr};
use mos_asm::asm::{Arg, Part, Sym};

/// The prologue of a function that reads SP only to set up its frame.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Shape {
    /// The frame size N.
    pub size: u32,
    /// The prologue's subtraction of N from Y (instruction indices).
    pub subtract: std::ops::Range<usize>,
    /// Y is the frame pointer wherever it is used, and every slot is inside the frame.
    pub simple: bool,
}

/// Where a static frame's first byte is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FrameBase {
    /// This AVR data address past `.bss` (placed with it).
    Bss(u32),
    /// This C128 address (the entry's frame, at the top of the AVR stack).
    Fixed(u16),
}

impl FrameBase {
    /// The operand for `part` of the frame's address plus `off`.
    pub fn operand(self, part: Part, off: i32) -> Arg {
        match self {
            FrameBase::Bss(x) => Arg::Sym(Sym::Bss(x), part, off),
            FrameBase::Fixed(a) => {
                let v = (i32::from(a) + off) as u16;
                match part {
                    Part::Lo => Arg::Byte(v as u8),
                    Part::Hi => Arg::Byte((v >> 8) as u8),
                    Part::NegLo => Arg::Byte(v.wrapping_neg() as u8),
                    Part::NegHi => Arg::Byte((v.wrapping_neg() >> 8) as u8),
                    Part::Word => Arg::Word(v),
                }
            }
        }
    }
}

/// A function's static frame.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Frame {
    /// Offset of the frame's first byte from the start of the static frames.
    pub offset: u32,
    /// Its size in bytes (N).
    pub size: u32,
    /// The prologue's subtraction of N from Y (instruction indices): with Y loaded with
    /// the frame's start less one, it has nothing left to do.
    pub subtract: std::ops::Range<usize>,
    /// Y is followed through the function and its slots are absolute addresses
    /// ([`crate::frames::frame_slots`]).
    pub folded: bool,
}

/// The frame size N of function `range` if it reads SP only in its prologue and writes it
/// only from Y, the indices of the prologue's subtraction, and whether Y is simple (the
/// frame pointer wherever it is used, every slot inside the frame).
pub fn frame_shape(insns: &[Insn], range: std::ops::Range<usize>) -> Option<Shape> {
    let first = range.start;
    let code = &insns[range];
    let y_writes = |i: &Insn| crate::analysis::callgraph::writes_of(i) & (0b11 << 28) != 0;
    let sp_read = |i: &Insn| i.op == Op::In && (i.k == 0x3D || i.k == 0x3E);
    let p = code.iter().position(sp_read)?;
    let (lo, hi) = (code[p], *code.get(p + 1)?);
    if (lo.op, lo.d, lo.k, hi.op, hi.d, hi.k) != (Op::In, 28, 0x3D, Op::In, 29, 0x3E) {
        return None;
    }
    let (size, prologue_len) = match (code.get(p + 2), code.get(p + 3)) {
        (Some(s), _) if s.op == Op::Sbiw && s.d == 28 => (s.k, 3),
        (Some(l), Some(h)) if (l.op, l.d, h.op, h.d) == (Op::Subi, 28, Op::Sbci, 29) => ((h.k << 8) | l.k, 4),
        _ => return None,
    };
    if size == 0 || size > 0x4000 {
        return None;
    }
    let neg = 0x1_0000 - size;
    let mut simple = true;
    let mut k = 0;
    while k < code.len() {
        let i = &code[k];
        if (p..p + prologue_len).contains(&k) {
            k += 1;
            continue;
        }
        if sp_read(i) {
            return None;
        }
        if i.op == Op::Out && ((i.k == 0x3D && i.d != 28) || (i.k == 0x3E && i.d != 29)) {
            return None;
        }
        if let Op::Ld(Ptr::Y, Mode::Disp) | Op::St(Ptr::Y, Mode::Disp) = i.op
            && (i.k == 0 || i.k > size)
        {
            simple = false;
        }
        let epilogue = match (i.op, code.get(k + 1)) {
            (Op::Adiw, _) if i.d == 28 && i.k == size => 1,
            (Op::Subi, Some(h)) if i.d == 28 && h.op == Op::Sbci && h.d == 29 && (h.k << 8 | i.k) == neg => 2,
            (Op::Pop, _) if i.d == 28 || i.d == 29 => 1,
            _ => 0,
        };
        if epilogue > 0 {
            k += epilogue;
            continue;
        }
        if y_writes(i) {
            simple = false;
        }
        k += 1;
    }
    Some(Shape { size, subtract: first + p + 2..first + p + prologue_len, simple })
}

/// Whether a function can never be active twice at once: it is not recursive, not
/// interpreted, and neither it nor anything it calls calls through a pointer (which could
/// enter it again).
pub fn once(s: &Summary) -> bool {
    !s.reasons.iter().any(|r| matches!(r, Reason::Recursive | Reason::IndirectCall | Reason::Interpreted))
        && !s.reaches_pointer_call
}

/// The frame shape of every function that reads SP.
pub fn shapes(insns: &[Insn], ranges: &[std::ops::Range<usize>], sums: &[Summary]) -> Vec<Option<Shape>> {
    (0..sums.len())
        .map(|f| if sums[f].reasons.contains(&Reason::ReadsSp) { frame_shape(insns, ranges[f].clone()) } else { None })
        .collect()
}

/// Which functions get a static frame (at offset 0: [`crate::frames::overlay`] places them).
/// `shapes` come from [`shapes`]; `folded` says whose Y [`crate::frames::frame_slots`] follows (a
/// shape that is not simple needs it).
pub fn plan(shapes: &[Option<Shape>], folded: &[bool], sums: &[Summary]) -> Vec<Option<Frame>> {
    let n = sums.len();
    let reads_sp = |g: usize| sums[g].reasons.contains(&Reason::ReadsSp);
    let usable = |g: usize| shapes[g].as_ref().is_some_and(|s| s.simple || folded[g]);
    let mut frames = vec![None; n];
    for f in 0..n {
        let Some(shape) = shapes[f].clone().filter(|_| usable(f)) else { continue };
        let s = &sums[f];
        let blocked = !once(s) || s.callees.iter().any(|&g| reads_sp(g) && !usable(g));
        if !blocked {
            frames[f] = Some(Frame { offset: 0, size: shape.size, subtract: shape.subtract, folded: folded[f] });
        }
    }
    frames
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::input::decode::decode_words as insns;

    // push r28; push r29; in r28,0x3d; in r29,0x3e; sbiw r28,4; out 0x3e,r29; out 0x3d,r28;
    // std Y+4,r24; ldd r24,Y+1; adiw r28,4; out 0x3e,r29; out 0x3d,r28; pop r29; pop r28; ret
    const FRAME4: [u16; 15] = [
        0x93CF, 0x93DF, 0xB7CD, 0xB7DE, 0x9724, 0xBFDE, 0xBFCD, 0x838C, 0x8189, 0x9624, 0xBFDE, 0xBFCD, 0x91DF, 0x91CF,
        0x9508,
    ];

    #[test]
    fn the_prologue_and_epilogue_shape_gives_the_frame_size() {
        let code = insns(&FRAME4);
        assert_eq!(frame_shape(&code, 0..code.len()), Some(Shape { size: 4, subtract: 4..5, simple: true }));
    }

    #[test]
    fn a_slot_beyond_the_frame_is_a_stack_argument_and_is_not_simple() {
        let mut w = FRAME4;
        w[8] = 0x818D; // ldd r24, Y+5
        let code = insns(&w);
        assert!(!frame_shape(&code, 0..code.len()).unwrap().simple);
    }

    #[test]
    fn sp_set_from_another_register_blocks_it() {
        let mut w = FRAME4;
        w[6] = 0xBF8D; // out 0x3d, r24
        let code = insns(&w);
        assert_eq!(frame_shape(&code, 0..code.len()), None);
    }

    #[test]
    fn any_other_write_to_y_is_not_simple() {
        let mut w = FRAME4;
        w[8] = 0x2FC8; // mov r28, r24
        let code = insns(&w);
        assert!(!frame_shape(&code, 0..code.len()).unwrap().simple);
    }
}
