//! Pointer copy propagation: `movw r31:r30, r19:r18` followed by loads and stores through
//! Z is, on the 6502, a copy of two zero-page bytes (12 cycles, 8 bytes) only to name a
//! pointer that `(zp),Y` can already reach where it is. When the copy is used only as a
//! pointer and is dead after its last use, the `movw` goes and each `ld`/`st` through the
//! copy addresses through the source pair instead (`LDA (r18),Y`).
//!
//! Assumes: `live_out` is the whole-program register liveness of [`crate::analysis::liveness`] (a
//! register not in it is never read before it is written again); `is_target` marks every
//! instruction reached other than from the one before; the source pair is a real register
//! pair in zero page (not Y, which a static frame may never set up: [`crate::frames::frame_slots`]).
//!
//! Guarantees: a copy is propagated only when all of these hold, and each use then reads
//! the very address the copy held:
//! - the copy is a `movw` into X or Z from another pair but Y, not after a skip
//!   instruction (which could skip the copy and not its uses);
//! - the instructions after it up to its last use are straight-line code (no jump target,
//!   no branch, skip, call, jump or return among them);
//! - among them the copy's pair is read only as the pointer of `ld`/`ld q`/`st`/`st q`
//!   (no increment or decrement), never as data, and is written by none of them;
//! - none of them but the last use writes the source pair (the last use reads its pointer
//!   before it writes its result);
//! - the copy's pair is dead after the last use, so its stale zero-page bytes are never
//!   read.
//!
//! A copy that steps (`ld r20, Z+`) and is copied back (`movw r13:r12, r31:r30`: LLVM has
//! more pointers live than X, Y and Z and parks one in a register pair between uses, a
//! copy loop's source or destination) goes too, with its copy back: each use then
//! addresses and steps the source pair itself, which at the copy back holds what the
//! copy would have. 24 cycles and 16 bytes a use. Then, between the copy and the copy
//! back:
//! - every instruction uses the copy's pair only as the pointer of an `ld`/`st` (any
//!   mode), whose data register is in neither pair, or names neither pair at all;
//! - the source pair is named by none of them (it is dead in the AVR until the copy back
//!   writes it, so the lockstep does not compare it);
//! - the copy back, `movw` of the copy's pair into the source pair, follows no skip, and
//!   the copy's pair is dead after it.

use crate::analysis::callgraph::writes_of;
use crate::analysis::liveness::reads_of;
use crate::input::decode::{Insn, Mode, Op, Ptr};

/// What becomes of one instruction.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Copy {
    /// Lowered as usual.
    #[default]
    Keep,
    /// A pointer copy nothing needs: no code. The copy's pair (its low register) does not
    /// hold the AVR's value from here to its last use, instruction `last`.
    Drop {
        /// The copy's low register.
        pair: u8,
        /// The copy's last use.
        last: usize,
    },
    /// A load or store whose pointer is this register pair instead (its low register).
    Through(u8),
}

/// Every register an instruction names as an operand, read or written (over-approximated:
/// a bit number or SREG bit counts as a register, word operations both halves).
pub(crate) fn mentions(i: &Insn) -> u32 {
    let bit = |n: u8| 1u32 << (n & 31);
    let pair = |n: u8| bit(n) | bit(n.saturating_add(1));
    let ops = match i.op {
        Op::Movw => pair(i.d) | pair(i.r),
        Op::Adiw | Op::Sbiw => pair(i.d),
        Op::Mul | Op::Muls | Op::Mulsu | Op::Fmul | Op::Fmuls | Op::Fmulsu => bit(i.d) | bit(i.r) | 0b11,
        _ => bit(i.d) | bit(i.r),
    };
    ops | reads_of(i) | writes_of(i)
}

/// Whether control can leave or skip from `i` other than to the next instruction.
fn breaks_flow(i: &Insn) -> bool {
    i.op.jumps() || matches!(i.op, Op::Rcall | Op::Call | Op::Icall | Op::Eicall | Op::Lpm | Op::Elpm | Op::Spm)
}

/// Whether `i` loads or stores through the pair `p` without changing it, and not to or
/// from the pair itself.
fn uses_as_pointer(i: &Insn, p: u8) -> bool {
    match i.op {
        Op::Ld(ptr, m) | Op::St(ptr, m) => ptr != Ptr::Y && ptr.reg() == p && m == Mode::Disp && i.d & !1 != p,
        _ => false,
    }
}

/// Whether `i` loads or stores through the pair `p`, stepping it or not, with a data
/// register in neither `p` nor `q`.
fn steps_as_pointer(i: &Insn, p: u8, q: u8) -> bool {
    match i.op {
        Op::Ld(ptr, _) | Op::St(ptr, _) => ptr != Ptr::Y && ptr.reg() == p && i.d & !1 != p && i.d & !1 != q,
        _ => false,
    }
}

/// For a copy of `src` into `dst` at `c`: the copy back of a stepped copy (see the module
/// doc) and the uses before it, if the copy has that form.
fn copied_back(
    insns: &[Insn],
    c: usize,
    end: usize,
    live_out: &[u32],
    is_target: &[bool],
) -> Option<(usize, Vec<usize>)> {
    let (dst, src) = (insns[c].d, insns[c].r);
    let both = (0b11u32 << dst) | (0b11u32 << src);
    let mut uses = Vec::new();
    for m in c + 1..end {
        let insn = insns[m];
        if is_target[m] || breaks_flow(&insn) {
            return None;
        }
        if insn.op == Op::Movw && insn.d == src && insn.r == dst {
            let kept = insns[m - 1].op.skips() || live_out[m] & (0b11 << dst) != 0 || uses.is_empty();
            return (!kept).then_some((m, uses));
        }
        if steps_as_pointer(&insn, dst, src) {
            uses.push(m);
        } else if mentions(&insn) & both != 0 {
            return None;
        }
    }
    None
}

/// Decides, for each instruction of `range` (one translated function), what pointer copy
/// propagation makes of it. `live_out` are the registers live after each instruction.
pub fn plan(insns: &[Insn], range: std::ops::Range<usize>, live_out: &[u32], is_target: &[bool], out: &mut [Copy]) {
    for c in range.clone() {
        let mv = insns[c];
        let (dst, src) = (mv.d, mv.r);
        if mv.op != Op::Movw || !(dst == 26 || dst == 30) || src == 28 || src == dst || out[c] != Copy::Keep {
            continue;
        }
        if c > range.start && insns[c - 1].op.skips() {
            continue;
        }
        if let Some((back, uses)) = copied_back(insns, c, range.end, live_out, is_target) {
            out[c] = Copy::Drop { pair: dst, last: back };
            out[back] = Copy::Drop { pair: dst, last: back };
            for m in uses {
                out[m] = Copy::Through(src);
            }
            continue;
        }
        let (dst_pair, src_pair) = (0b11u32 << dst, 0b11u32 << src);
        let mut uses = Vec::new();
        let mut last = None;
        for m in c + 1..range.end {
            let insn = insns[m];
            if is_target[m] || breaks_flow(&insn) {
                break;
            }
            if uses_as_pointer(&insn, dst) {
                uses.push(m);
                last = Some(m);
                if writes_of(&insn) & src_pair != 0 {
                    break;
                }
                continue;
            }
            if mentions(&insn) & dst_pair != 0 || writes_of(&insn) & src_pair != 0 {
                break;
            }
        }
        let Some(last) = last else { continue };
        if live_out[last] & dst_pair != 0 {
            continue;
        }
        out[c] = Copy::Drop { pair: dst, last };
        for m in uses {
            out[m] = Copy::Through(src);
        }
    }
}

/// The registers whose zero-page bytes do not hold what the AVR has before each
/// instruction, for want of a copy that went: what a comparison with the AVR must skip.
pub fn elsewhere(copies: &[Copy]) -> Vec<u32> {
    let mut out = vec![0; copies.len()];
    for (c, copy) in copies.iter().enumerate() {
        if let Copy::Drop { pair, last } = *copy {
            for held in &mut out[c + 1..=last] {
                *held |= 0b11 << pair;
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::input::decode::decode_words;

    fn run(words: &[u16], live_after: &[(usize, u32)]) -> Vec<Copy> {
        let insns = decode_words(words);
        let mut live = vec![0u32; insns.len()];
        for &(i, set) in live_after {
            live[i] = set;
        }
        let targets = vec![false; insns.len()];
        let mut out = vec![Copy::Keep; insns.len()];
        plan(&insns, 0..insns.len(), &live, &targets, &mut out);
        out
    }

    const MOVW_Z_R18: u16 = 0x01F9; // movw r30, r18
    const LD_R26_Z: u16 = 0x81A0; // ld r26, Z
    const LDD_R27_Z1: u16 = 0x81B1; // ldd r27, Z+1
    const RET: u16 = 0x9508;

    #[test]
    fn a_copy_used_only_as_a_pointer_goes() {
        let out = run(&[MOVW_Z_R18, LD_R26_Z, LDD_R27_Z1, RET], &[]);
        assert_eq!(out, vec![Copy::Drop { pair: 30, last: 2 }, Copy::Through(18), Copy::Through(18), Copy::Keep]);
    }

    #[test]
    fn a_copy_of_x_into_z_goes_and_a_copy_of_y_stays() {
        // movw r30, r26; ld r26, Z (the last use may overwrite its source).
        let out = run(&[0x01FD, LD_R26_Z, RET], &[]);
        assert_eq!(out, vec![Copy::Drop { pair: 30, last: 1 }, Copy::Through(26), Copy::Keep]);
        // movw r30, r28: Y may be a static frame's, never set up.
        let out = run(&[0x01FE, LD_R26_Z, RET], &[]);
        assert_eq!(out, vec![Copy::Keep; 3]);
    }

    #[test]
    fn a_copy_live_after_its_uses_stays() {
        let z = 0b11 << 30;
        let out = run(&[MOVW_Z_R18, LD_R26_Z, LDD_R27_Z1, RET], &[(2, z)]);
        assert_eq!(out, vec![Copy::Keep; 4]);
    }

    #[test]
    fn the_source_written_between_uses_ends_the_propagation() {
        // movw r30, r18; ld r18, Z; ldd r27, Z+1: the second use needs the old r18.
        let ld_r18 = 0x8120;
        let out = run(&[MOVW_Z_R18, ld_r18, LDD_R27_Z1, RET], &[(1, 0b11 << 30)]);
        assert_eq!(out, vec![Copy::Keep; 4]);
        // With the write in the last use, the pointer is read first: fine.
        let out = run(&[MOVW_Z_R18, LDD_R27_Z1, ld_r18, RET], &[]);
        assert_eq!(out, vec![Copy::Drop { pair: 30, last: 2 }, Copy::Through(18), Copy::Through(18), Copy::Keep]);
    }

    #[test]
    fn the_copy_read_as_data_or_stepped_stays() {
        // mov r24, r30 reads the copy as data.
        let out = run(&[MOVW_Z_R18, 0x2F8E, LD_R26_Z, RET], &[]);
        assert_eq!(out, vec![Copy::Keep; 4]);
        // ld r26, Z+ changes it.
        let out = run(&[MOVW_Z_R18, 0x91A1, RET], &[]);
        assert_eq!(out, vec![Copy::Keep; 3]);
    }

    const MOVW_Z_R12: u16 = 0x01F6; // movw r30, r12
    const LD_R20_ZINC: u16 = 0x9141; // ld r20, Z+
    const ST_ZINC_R20: u16 = 0x9341; // st Z+, r20
    const MOVW_R12_Z: u16 = 0x016F; // movw r12, r30

    #[test]
    fn a_stepped_copy_goes_with_its_copy_back() {
        let out = run(&[MOVW_Z_R12, LD_R20_ZINC, ST_ZINC_R20, MOVW_R12_Z, RET], &[]);
        let drop = Copy::Drop { pair: 30, last: 3 };
        assert_eq!(out, vec![drop, Copy::Through(12), Copy::Through(12), drop, Copy::Keep]);
        // Z read after the copy back: both copies stay.
        let out = run(&[MOVW_Z_R12, LD_R20_ZINC, MOVW_R12_Z, RET], &[(2, 0b11 << 30)]);
        assert_eq!(out, vec![Copy::Keep; 4]);
        // Data into the source pair (ld r12, Z+), the source read between, a skip before the
        // copy back, or no copy back at all: they stay.
        let out = run(&[MOVW_Z_R12, 0x90C1, MOVW_R12_Z, RET], &[]);
        assert_eq!(out, vec![Copy::Keep; 4]);
        let out = run(&[MOVW_Z_R12, LD_R20_ZINC, 0x2D8C, MOVW_R12_Z, RET], &[]); // mov r24, r12
        assert_eq!(out, vec![Copy::Keep; 5]);
        let out = run(&[MOVW_Z_R12, LD_R20_ZINC, 0xFD80, MOVW_R12_Z, RET], &[]); // sbrc r24, 0
        assert_eq!(out, vec![Copy::Keep; 5]);
        let out = run(&[MOVW_Z_R12, LD_R20_ZINC, RET], &[]);
        assert_eq!(out, vec![Copy::Keep; 3]);
    }

    #[test]
    fn a_copy_after_a_skip_stays() {
        // sbrc r24, 0 may skip the copy and not the load.
        let out = run(&[0xFD80, MOVW_Z_R18, LD_R26_Z, RET], &[]);
        assert_eq!(out, vec![Copy::Keep; 4]);
    }

    #[test]
    fn a_jump_target_between_copy_and_use_stops_it() {
        let insns = decode_words(&[MOVW_Z_R18, LD_R26_Z, LDD_R27_Z1, RET]);
        // The load after the target reads Z: the copy is live after the first load.
        let live = vec![0, 0b11 << 30, 0, 0];
        let mut targets = vec![false; 4];
        targets[2] = true;
        let mut out = vec![Copy::Keep; 4];
        plan(&insns, 0..4, &live, &targets, &mut out);
        assert_eq!(out, vec![Copy::Keep; 4]);
        // Without the target the whole run goes.
        plan(&insns, 0..4, &live, &[false; 4], &mut out);
        assert_eq!(out, vec![Copy::Drop { pair: 30, last: 2 }, Copy::Through(18), Copy::Through(18), Copy::Keep]);
    }
}
