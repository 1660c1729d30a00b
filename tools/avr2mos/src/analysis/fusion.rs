//! Where the lowering may fuse: the neighbouring instructions whose 6502 code may be one
//! sequence. [`crate::lower`] lowers a compare chain with its branch, an instruction with
//! the branch or carry reader after it (across moves), a run of pushes or pops, an
//! indexed load, a pointer copy with its constant step, an increment written as a
//! subtraction of -1 and a shift by 4 through `swap` each as one sequence, which
//! nothing can enter or be inserted into but at its start. [`crate::frames::sink_saves`]
//! inserts saves and restores between instructions: it asks this map where it may, and the
//! lowering fuses only where this map allows, so the two agree by construction (they used
//! to disagree, and the translation was done again without moved saves).
//!
//! Computed once, from the AVR code as it is decoded, before any pass changes it: the
//! shapes of the fused forms and the flags they keep live. Assumes the flag liveness of
//! [`crate::analysis::flags`] and the jump targets of [`crate::input::flow`]. Guarantees:
//! no instruction reached other than from the one before joins it; every join the
//! lowering makes is one this map allows (each fused form checks [`Fusion::joins`]).

use crate::analysis::flags::{CZNV, FlagSet};
use crate::input::decode::{Insn, Mode, Op, Ptr};

/// For each instruction, whether the lowering may put its code inside the sequence of the
/// instruction before it.
#[derive(Debug, Clone, Default)]
pub struct Fusion {
    joins: Vec<bool>,
}

impl Fusion {
    /// Whether instruction `m` may be lowered inside the code of instruction `m - 1`.
    pub fn joins(&self, m: usize) -> bool {
        self.joins.get(m).copied().unwrap_or(false)
    }

    /// Whether code inserted before instruction `i` (`after`: after it, on its
    /// fall-through) could land inside a fused sequence.
    pub fn splits(&self, i: usize, after: bool) -> bool {
        self.joins(i) || (after && self.joins(i + 1))
    }

    /// The map that lets instruction `m` join the one before it where `joins[m]` (for
    /// the tests of the passes that ask it).
    #[cfg(test)]
    pub fn from_joins(joins: Vec<bool>) -> Fusion {
        Fusion { joins }
    }
}

/// The joins the lowering may make in `insns`, at byte addresses `addrs`, whose jump
/// targets are `is_target` and whose live flags after each instruction are `live_out`.
pub fn analyse(insns: &[Insn], addrs: &[u32], is_target: &[bool], live_out: &[FlagSet]) -> Fusion {
    let n = insns.len();
    let mut joins = vec![false; n];
    for m in 1..n {
        joins[m] = !is_target[m] && (keeps_flags_for(insns, live_out, m) || continues_run(insns[m - 1], insns[m]));
    }
    for i in 0..n {
        let folded = [
            indexed_load(insns, is_target, live_out, i),
            copy_step(insns, is_target, live_out, i),
            plus_one(insns, is_target, live_out, i),
            nibble_shift(insns, is_target, live_out, i),
            shift_loop(insns, addrs, is_target, live_out, i),
        ];
        for m in folded.into_iter().flatten().flatten() {
            joins[m] = true;
        }
    }
    Fusion { joins }
}

/// A compare chain, or an instruction whose flags a branch or a carry reader after it
/// tests in the 6502's `P`: every instruction folded into such a sequence is a `cpc`, a
/// move (which keeps the flags) or the branch, and some flag is live across each join.
fn keeps_flags_for(insns: &[Insn], live_out: &[FlagSet], m: usize) -> bool {
    let folded =
        matches!(insns[m].op, Op::Cpc | Op::Ldi | Op::Mov | Op::Movw | Op::Ld(..) | Op::St(..) | Op::Brbs | Op::Brbc);
    folded && live_out[m - 1] & CZNV != 0
}

/// A prologue's pushes or an epilogue's pops of neighbouring registers (`push r2; push
/// r3`, `pop r3; pop r2`), which become one call.
fn continues_run(prev: Insn, next: Insn) -> bool {
    match (prev.op, next.op) {
        (Op::Push, Op::Push) => next.d == prev.d.wrapping_add(1),
        (Op::Pop, Op::Pop) => next.d == prev.d.wrapping_sub(1),
        _ => false,
    }
}

/// The instructions folded into `i` when it starts an indexed load's shape (`mov p, ri;
/// eor p+1, p+1; subi p, lo; sbci p+1, hi; ld rd, P+q`, [`crate::lower`]'s `indexed`).
fn indexed_load(insns: &[Insn], is_target: &[bool], live_out: &[FlagSet], i: usize) -> Option<std::ops::Range<usize>> {
    let [mv, hi0, lo, hi, ld] = [i, i + 1, i + 2, i + 3, i + 4].map(|m| insns.get(m).copied());
    let (mv, hi0, lo, hi, ld) = (mv?, hi0?, lo?, hi?, ld?);
    let p = mv.d;
    let ptr = match (mv.op, p) {
        (Op::Mov, 26) => Ptr::X,
        (Op::Mov, 30) => Ptr::Z,
        _ => return None,
    };
    let zero_hi = match hi0.op {
        Op::Eor => hi0.d == p + 1 && hi0.r == p + 1,
        Op::Ldi => hi0.d == p + 1 && hi0.k == 0,
        _ => false,
    };
    let shape = zero_hi
        && lo.op == Op::Subi
        && lo.d == p
        && hi.op == Op::Sbci
        && hi.d == p + 1
        && matches!(ld.op, Op::Ld(lp, Mode::Disp) if lp == ptr);
    (shape && live_out[i + 3] & CZNV == 0 && !(i + 1..i + 5).any(|m| is_target[m])).then_some(i + 1..i + 5)
}

/// The instructions folded into `i` when it is a pointer copy followed by a constant step
/// of the copy whose flags nothing reads (`movw r30, r24; adiw r30, 4`, or `subi`/`sbci`),
/// or by an add of another pair (`movw r26, r24; add r26, r22; adc r27, r23`: a sum into a
/// third pair, which AVR has no instruction for) that is neither half of the copy.
fn copy_step(insns: &[Insn], is_target: &[bool], live_out: &[FlagSet], i: usize) -> Option<std::ops::Range<usize>> {
    let mv = insns.get(i).filter(|mv| mv.op == Op::Movw)?;
    let step = insns.get(i + 1).filter(|_| !is_target[i + 1])?;
    if copy_sum(insns, i).is_some() && !is_target[i + 2] && live_out[i + 2] & CZNV == 0 {
        return Some(i + 1..i + 3);
    }
    match step.op {
        Op::Subi
            if step.d == mv.d
                && insns.get(i + 2).is_some_and(|h| h.op == Op::Sbci && h.d == mv.d + 1)
                && !is_target[i + 2]
                && live_out[i + 2] & CZNV == 0 =>
        {
            Some(i + 1..i + 3)
        }
        Op::Adiw | Op::Sbiw if step.d == mv.d && live_out[i + 1] & CZNV == 0 => Some(i + 1..i + 2),
        _ => None,
    }
}

/// For `movw d, s; add d, r; adc d+1, r+1` at `i`, with the pair `r` not the copy's: `r`.
pub fn copy_sum(insns: &[Insn], i: usize) -> Option<u8> {
    let [mv, lo, hi] = [i, i + 1, i + 2].map(|m| insns.get(m).copied());
    let (mv, lo, hi) = (mv?, lo?, hi?);
    let shape = mv.op == Op::Movw
        && lo.op == Op::Add
        && lo.d == mv.d
        && hi.op == Op::Adc
        && hi.d == mv.d + 1
        && hi.r == lo.r + 1
        && lo.r & 1 == 0
        && lo.r != mv.d;
    shape.then_some(lo.r)
}

/// The instructions folded into `i` when it starts an increment by one written as a
/// subtraction of -1 (`subi rd, 0xff; sbci re, 0xff`, up to 4 bytes, each in a register of
/// its own) whose flags nothing
/// reads after its last step ([`crate::lower`]'s `plus_one`).
fn plus_one(insns: &[Insn], is_target: &[bool], live_out: &[FlagSet], i: usize) -> Option<std::ops::Range<usize>> {
    insns.get(i).filter(|lo| lo.op == Op::Subi && lo.k as u8 == 0xFF)?;
    let steps = (1..4)
        .take_while(|&n| {
            insns.get(i + n).is_some_and(|h| {
                h.op == Op::Sbci
                    && h.k as u8 == 0xFF
                    && !insns[i..i + n].iter().any(|b| b.d == h.d)
                    && !is_target[i + n]
            })
        })
        .count();
    (steps > 0 && live_out[i + steps] & CZNV == 0).then_some(i + 1..i + 1 + steps)
}

/// A shift by 4 written with `swap` ([`nibble_shape`]): the bytes it shifts and the
/// instructions it takes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct NibbleShift {
    /// Towards the high byte (`x << 4`), or towards the low one (`x >> 4`, zeros in).
    pub left: bool,
    /// The registers of the shifted number, its high byte first; `bytes` of them.
    pub high_first: [u8; 4],
    /// How many bytes the number has (1 to 4).
    pub bytes: usize,
    /// The instructions after the first that the shift takes.
    pub folded: usize,
    /// The copies (destination, source) that bring a chain's later bytes in, in their
    /// order (`mov b, y` before `swap b`); `moves` of them. They read no byte of the chain,
    /// so they are done first.
    pub copies: [(u8, u8); 3],
    /// How many copies.
    pub moves: usize,
}

/// The shape of a shift by 4 through `swap` starting at `i`, if its instructions are there
/// with no immediate relocated (`reloc(m)`); the caller checks jump targets and flags.
/// LLVM writes them two ways:
/// - a pair with both swaps first: `swap hi; swap lo; andi hi, 0xf0; eor hi, lo; andi lo,
///   0xf0; eor hi, lo` (`<< 4`) or `swap lo; swap hi; andi lo, 0x0f; eor lo, hi; andi hi,
///   0x0f; eor lo, hi` (`>> 4`);
/// - a chain: `swap a; andi a, m` shifts the byte `a` (the high one for `<< 4`, mask 0xf0;
///   the low one for `>> 4`, mask 0x0f), and each step `swap b; eor a, b; andi b, m; eor
///   a, b` moves the next byte's nibble into `a` and shifts `b` (a 32-bit `>> 12` after
///   the byte moves is a chain of three bytes). A step may copy its byte in first, `mov
///   b, y`, from a register not in the chain (a 32-bit `<< 12`, `x << 8` moved into
///   place as it is shifted: xorshift's `x << 13`).
pub fn nibble_shape(insns: &[Insn], i: usize, reloc: impl Fn(usize) -> bool) -> Option<NibbleShift> {
    let at = |m: usize| insns.get(m).copied();
    let first = at(i).filter(|s| s.op == Op::Swap)?;
    let andi =
        |m: usize, d: u8, k: u8| at(m).is_some_and(|a| a.op == Op::Andi && a.d == d && a.k as u8 == k && !reloc(m));
    let eor = |m: usize, d: u8, r: u8| at(m).is_some_and(|e| e.op == Op::Eor && e.d == d && e.r == r);
    let swap = |m: usize| at(m).filter(|s| s.op == Op::Swap).map(|s| s.d);
    if let Some(y) = swap(i + 1).filter(|&y| y != first.d) {
        let x = first.d;
        let body = |k: u8| andi(i + 2, x, k) && eor(i + 3, x, y) && andi(i + 4, y, k) && eor(i + 5, x, y);
        let pair = |left: bool, hi: u8, lo: u8| NibbleShift {
            left,
            high_first: [hi, lo, 0, 0],
            bytes: 2,
            folded: 5,
            ..Default::default()
        };
        return match (body(0xF0), body(0x0F)) {
            (true, _) => Some(pair(true, x, y)),
            (_, true) => Some(pair(false, y, x)),
            _ => None,
        };
    }
    let left = andi(i + 1, first.d, 0xF0);
    if !left && !andi(i + 1, first.d, 0x0F) {
        return None;
    }
    let mask = if left { 0xF0 } else { 0x0F };
    // The chain's bytes in its order: from the byte the first swap shifts, away from it.
    let mut chain = vec![first.d];
    let (mut copies, mut moves) = ([(0, 0); 3], 0);
    let mut m = i + 2;
    loop {
        // `mov b, y` just before the step's `swap b`, y from outside the chain.
        let copy = at(m).filter(|c| c.op == Op::Mov && swap(m + 1) == Some(c.d) && !chain.contains(&c.r));
        let s = m + usize::from(copy.is_some());
        let Some(b) = swap(s).filter(|_| chain.len() < 4) else { break };
        let a = chain[chain.len() - 1];
        if chain.contains(&b) || !(eor(s + 1, a, b) && andi(s + 2, b, mask) && eor(s + 3, a, b)) {
            break;
        }
        if let Some(c) = copy {
            copies[moves] = (c.d, c.r);
            moves += 1;
        }
        chain.push(b);
        m = s + 4;
    }
    if !left {
        chain.reverse();
    }
    let mut high_first = [0; 4];
    high_first[..chain.len()].copy_from_slice(&chain);
    Some(NibbleShift { left, high_first, bytes: chain.len(), folded: m - i - 1, copies, moves })
}

/// The instructions folded into `i` when it starts a nibble shift ([`nibble_shape`]) whose
/// flags nothing reads: the 6502 shifts each bit four times instead (the shifts set C,
/// which `swap` and `andi` leave alone).
fn nibble_shift(insns: &[Insn], is_target: &[bool], live_out: &[FlagSet], i: usize) -> Option<std::ops::Range<usize>> {
    let n = nibble_shape(insns, i, |_| false)?.folded;
    let clear = !(i + 1..=i + n).any(|m| is_target[m]) && live_out[i + n] & CZNV == 0;
    clear.then_some(i + 1..i + 1 + n)
}

/// One step of a [`ShiftLoop`]: how one byte moves by a bit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Step {
    /// `add d, d` (`lsl`): bit 7 out into the carry, a zero in.
    Left,
    /// `adc d, d` (`rol`): the carry in at bit 0.
    LeftCarry,
    /// `lsr d`: bit 0 out, a zero in at bit 7.
    Right,
    /// `asr d`: bit 0 out, bit 7 kept.
    RightSigned,
    /// `ror d`: the carry in at bit 7.
    RightCarry,
}

/// A shift by a variable amount as LLVM's AVR back end writes it (`x << n`, `x >> n`, `1
/// << n`): a loop that counts a copy of the amount down, `L: dec c; brmi X; <steps>; rjmp
/// L; X:`, where the steps move a number of one to four bytes (none of them the counter)
/// by one bit, and `X` is the instruction after the `rjmp`. The counter leaves the loop as
/// the AVR's does: it is one less than zero when the amount was below 128.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ShiftLoop {
    /// The counter.
    pub counter: u8,
    /// The steps in their order, and the byte each moves; `len` of them.
    pub steps: [(Step, u8); 4],
    /// How many steps.
    pub len: usize,
}

impl ShiftLoop {
    /// The instructions after the `dec` that the loop takes: the branch, the steps and the
    /// jump back.
    pub fn folded(&self) -> usize {
        self.len + 2
    }

    /// The byte every step moves, if they all move the same one (`add r30, r30`).
    pub fn single(&self) -> Option<u8> {
        let d = self.steps[0].1;
        self.steps[..self.len].iter().all(|&(_, b)| b == d).then_some(d)
    }
}

/// The shape of a variable shift's loop ([`ShiftLoop`]) starting at `i`, at byte addresses
/// `addrs`; the caller checks jump targets and flags. The first step reads no carry, so
/// each round starts afresh whatever the carry was before the loop. The loop leaves to the
/// instruction after it: a 6502 loop costs a few cycles more than the AVR's when it makes
/// no round, and one that left elsewhere would add a jump to that.
pub fn shift_loop_shape(insns: &[Insn], addrs: &[u32], i: usize) -> Option<ShiftLoop> {
    let dec = insns.get(i).filter(|d| d.op == Op::Dec)?;
    // `brbs n` is `brmi`.
    let exit = insns.get(i + 1).filter(|b| b.op == Op::Brbs && b.r == 2)?;
    let step = |s: &Insn, first: bool| -> Option<(Step, u8)> {
        let step = match s.op {
            Op::Add if s.r == s.d => Step::Left,
            Op::Adc if s.r == s.d && !first => Step::LeftCarry,
            Op::Lsr => Step::Right,
            Op::Asr => Step::RightSigned,
            Op::Ror if !first => Step::RightCarry,
            _ => return None,
        };
        (s.d != dec.d).then_some((step, s.d))
    };
    let mut steps = [(Step::Left, 0); 4];
    let mut len = 0;
    while len < 4 {
        let Some(s) = insns.get(i + 2 + len).and_then(|s| step(s, len == 0)) else { break };
        steps[len] = s;
        len += 1;
    }
    let back = insns.get(i + 2 + len).filter(|j| j.op == Op::Rjmp)?;
    let after = addrs.get(i + 3 + len)?;
    (len > 0 && back.k == addrs[i] && exit.k == *after).then_some(ShiftLoop { counter: dec.d, steps, len })
}

/// The instructions folded into `i` when it starts a variable shift's loop
/// ([`shift_loop_shape`]) that nothing enters but at its `dec` and whose flags nothing reads
/// after it. The steps set every flag but T from nothing, so the flags live after the
/// branch are those live where the loop leaves.
fn shift_loop(
    insns: &[Insn],
    addrs: &[u32],
    is_target: &[bool],
    live_out: &[FlagSet],
    i: usize,
) -> Option<std::ops::Range<usize>> {
    let n = shift_loop_shape(insns, addrs, i)?.folded();
    let clear = !(i + 1..=i + n).any(|m| is_target[m]) && live_out[i + 1] & CZNV == 0;
    clear.then_some(i + 1..i + 1 + n)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::flags::{C, N, Z};
    use crate::input::decode::{decode_with_addrs, decode_words};

    /// The joins of `words` as straight code that nothing jumps into, with the flags
    /// `live_out` live after each instruction.
    fn joins_of(words: &[u16], live_out: &[FlagSet]) -> Vec<bool> {
        let (insns, addrs) = decode_with_addrs(words);
        let fusion = analyse(&insns, &addrs, &vec![false; insns.len()], live_out);
        (0..insns.len()).map(|m| fusion.joins(m)).collect()
    }

    #[test]
    fn a_pointer_copy_and_its_step_join_unless_the_step_flags_are_read() {
        // movw r30, r24; adiw r30, 4; ret
        let words = [0x01FC, 0x9634, 0x9508];
        assert_eq!(joins_of(&words, &[0, 0, 0]), [false, true, false]);
        assert_eq!(joins_of(&words, &[0, Z, 0]), [false, false, false]);
    }

    #[test]
    fn a_copy_and_an_add_of_another_pair_join_unless_the_flags_are_read() {
        // movw r26, r24; add r26, r22; adc r27, r23; ret
        let words = [0x01DC, 0x0FA6, 0x1FB7, 0x9508];
        assert_eq!(joins_of(&words, &[0, C, 0, 0]), [false, true, true, false]);
        assert_eq!(joins_of(&words, &[0, C, C, 0]), [false, false, false, false]);
        // add r26, r26: the copy itself, no sum of another pair.
        assert_eq!(copy_sum(&decode_words(&[0x01DC, 0x0FAA, 0x1FBB, 0x9508]), 0), None);
    }

    #[test]
    fn an_increment_written_as_a_subtraction_of_minus_one_joins_unless_its_flags_are_read() {
        // subi r24, 0xff; sbci r25, 0xff; ret
        let words = [0x5F8F, 0x4F9F, 0x9508];
        assert_eq!(joins_of(&words, &[C | Z, 0, 0]), [false, true, false]);
        assert_eq!(joins_of(&words, &[C | Z, Z, 0]), [false, false, false]);
        // subi r24, 0xff; sbci r24, 0xff: not a wider number.
        assert_eq!(joins_of(&[0x5F8F, 0x4F8F, 0x9508], &[C | Z, 0, 0]), [false; 3]);
    }

    #[test]
    fn a_nibble_shift_joins_unless_its_flags_are_read() {
        // swap r17; swap r16; andi r17, 0xf0; eor r17, r16; andi r16, 0xf0; eor r17, r16; ret
        let words = [0x9512, 0x9502, 0x7F10, 0x2710, 0x7F00, 0x2710, 0x9508];
        let insns = decode_words(&words);
        let pair = NibbleShift { left: true, high_first: [17, 16, 0, 0], bytes: 2, folded: 5, ..Default::default() };
        assert_eq!(nibble_shape(&insns, 0, |_| false), Some(pair));
        assert_eq!(joins_of(&words, &[0; 7]), [false, true, true, true, true, true, false]);
        assert_eq!(joins_of(&words, &[0, 0, 0, 0, 0, Z, 0]), [false; 7]);
        // swap r24; andi r24, 0x0f: a byte; with another mask, or a relocated one, none.
        let insns = decode_words(&[0x9582, 0x708F, 0x9508]);
        let byte = NibbleShift { left: false, high_first: [24, 0, 0, 0], bytes: 1, folded: 1, ..Default::default() };
        assert_eq!(nibble_shape(&insns, 0, |_| false), Some(byte));
        assert_eq!(nibble_shape(&insns, 0, |m| m == 1), None);
        assert_eq!(nibble_shape(&decode_words(&[0x9582, 0x7387, 0x9508]), 0, |_| false), None);
        // A chain, r25:r24:r23 >> 4: swap r23; andi r23, 0x0f; then r24's step and r25's.
        let words = [0x9572, 0x707F, 0x9582, 0x2778, 0x708F, 0x2778, 0x9592, 0x2789, 0x709F, 0x2789, 0x9508];
        let chain = NibbleShift { left: false, high_first: [25, 24, 23, 0], bytes: 3, folded: 9, ..Default::default() };
        assert_eq!(nibble_shape(&decode_words(&words), 0, |_| false), Some(chain));
        // Cut short where a step is not whole (the last eor missing): two bytes.
        let cut = nibble_shape(&decode_words(&words[..9]), 0, |_| false);
        assert_eq!(
            cut,
            Some(NibbleShift { left: false, high_first: [24, 23, 0, 0], bytes: 2, folded: 5, ..Default::default() })
        );
        // A chain whose later bytes are copied in first (xorshift's `x << 13`): swap r21;
        // andi r21, 0xf0; mov r20, r19; swap r20; eor r21, r20; andi r20, 0xf0; eor r21,
        // r20; the same for r23 from r18.
        let mut words = vec![0x9552, 0x7F50, 0x2F43, 0x9542, 0x2754, 0x7F40, 0x2754];
        words.extend([0x2F72, 0x9572, 0x2747, 0x7F70, 0x2747, 0x9508]);
        let copied = NibbleShift {
            left: true,
            high_first: [21, 20, 23, 0],
            bytes: 3,
            folded: 11,
            copies: [(20, 19), (23, 18), (0, 0)],
            moves: 2,
        };
        assert_eq!(nibble_shape(&decode_words(&words), 0, |_| false), Some(copied));
        // A copy from a byte of the chain (mov r20, r21) would read it shifted: one byte.
        words[2] = 0x2F45;
        let byte = NibbleShift { left: true, high_first: [21, 0, 0, 0], bytes: 1, folded: 1, ..Default::default() };
        assert_eq!(nibble_shape(&decode_words(&words), 0, |_| false), Some(byte));
    }

    #[test]
    fn a_variable_shift_loop_joins_when_it_leaves_to_the_next_instruction() {
        // L: dec r22; brmi X; add r24, r24; adc r25, r25; rjmp L; X: ret
        let words = [0x956A, 0xF01A, 0x0F88, 0x1F99, 0xCFFB, 0x9508];
        let (insns, addrs) = decode_with_addrs(&words);
        let pair = ShiftLoop {
            counter: 22,
            steps: [(Step::Left, 24), (Step::LeftCarry, 25), (Step::Left, 0), (Step::Left, 0)],
            len: 2,
        };
        assert_eq!(shift_loop_shape(&insns, &addrs, 0), Some(pair));
        assert_eq!(pair.single(), None);
        assert_eq!(joins_of(&words, &[N, 0, 0, 0, 0, 0]), [false, true, true, true, true, false]);
        // A flag read where it leaves (the carry of the last step): only the branch joins
        // its `dec`, as any branch on the flags of the instruction before.
        assert_eq!(joins_of(&words, &[N, C, 0, 0, 0, 0]), [false, true, false, false, false, false]);
        // The first step reading the carry (adc), a step on the counter, a loop leaving
        // past the next instruction, a `brpl`: not this shape.
        let not = |w: &[u16]| {
            let (insns, addrs) = decode_with_addrs(w);
            shift_loop_shape(&insns, &addrs, 0)
        };
        assert_eq!(not(&[0x956A, 0xF01A, 0x1F88, 0x1F99, 0xCFFB, 0x9508]), None);
        assert_eq!(not(&[0x956A, 0xF01A, 0x0F88, 0x1F66, 0xCFFB, 0x9508]), None);
        assert_eq!(not(&[0x956A, 0xF022, 0x0F88, 0x1F99, 0xCFFB, 0x9508, 0x9508]), None);
        assert_eq!(not(&[0x956A, 0xF41A, 0x0F88, 0x1F99, 0xCFFB, 0x9508]), None);
    }

    #[test]
    fn a_compare_joins_its_branch_and_a_carry_chain_does_not_fold() {
        // cp r24, r22; brne .+2; subi r24, 1; sbci r25, 0; ret
        let words = [0x1786, 0xF409, 0x5081, 0x4090, 0x9508];
        assert_eq!(joins_of(&words, &[Z, 0, C, 0, 0]), [false, true, false, false, false]);
    }

    #[test]
    fn code_inserted_after_an_instruction_splits_the_sequence_it_starts() {
        let words = [0x01FC, 0x9634, 0x9508];
        let (insns, addrs) = decode_with_addrs(&words);
        let fusion = analyse(&insns, &addrs, &[false; 3], &[0; 3]);
        assert!(!fusion.splits(0, false), "before the copy: before the whole sequence");
        assert!(fusion.splits(0, true) && fusion.splits(1, false));
        // The step's code is inside the copy's: nothing goes at the step, after it either.
        assert!(fusion.splits(1, true));
        assert!(!fusion.splits(2, false), "before the return: after the whole sequence");
    }
}
