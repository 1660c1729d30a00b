//! Frame slots at fixed addresses: in a function with a static frame ([`crate::frames::static_frames`]),
//! Y (r29:r28) is followed through the code as "the frame's first byte + a constant", so
//! every `ldd`/`std` through Y becomes an absolute `LDA`/`STA` of its slot, a copy of Y
//! (`movw r24, r28`, `mov r24, r28`) becomes a constant, and everything that only kept Y
//! up to date goes: the prologue's `in r28/r29` of SP and its subtraction, the steps
//! (`subi`/`sbci`, `adiw`/`sbiw`) a function with more than 63 bytes of slots takes to
//! reach the far ones, the epilogue's addition, and the `push`/`pop` of r28 and r29
//! (the function no longer writes them, so the caller's Y is never disturbed).
//!
//! Assumes: the function's frame shape was checked by [`crate::frames::static_frames`] (SP read only by
//! the prologue's `in r28, 0x3d; in r29, 0x3e`, frame size N) and the function gets a
//! static frame; the AVR code keeps r28/r29 callee-saved, as the calling convention says.
//! The analysis is all or nothing: [`fold`] gives up (and the function keeps Y as a
//! pointer) unless, on every path,
//! - Y is written only by the prologue's `in` pair, by `subi r28; sbci r29` pairs and
//!   `adiw`/`sbiw r28` by constants, and by `pop r28`/`pop r29`, so its value is known
//!   at every instruction that reads it, the same along every path that meets there;
//! - none of those writes sets a flag that is read, or its flags are restored by an inert
//!   SREG save and restore around it ([`crate::avr_rewrites::sreg_saves`]), as LLVM does
//!   around the steps to far slots (they disappear), and nothing jumps between the two
//!   halves of a pair;
//! - Y is read only to reach a slot inside the frame (`ldd`/`std`/`ld`/`st` without
//!   increment, the slot in 0..N), to copy it (`mov`, `movw`), to set SP from it (the
//!   static frame already drops those `out`s), or, before the prologue, to push it;
//! - each `pop r28`/`pop r29` takes back the very byte the matching `push` stored (the
//!   pushes and pops between them balance), and the function leaves (by `ret` or a tail
//!   jump) with none of them outstanding; a path that runs off the function's end (after a
//!   call that does not return) never leaves.
//!
//! Guarantees: with the actions applied, the function computes what the AVR code does,
//! with r28/r29 left as the caller's: every slot access reaches the same byte of the frame
//! and every copy of Y holds the address Y would have held.

use std::ops::Range;

use crate::analysis::flags::{self, FlagSet};
use crate::input::decode::{Insn, Mode, Op, Ptr};

/// What becomes of one instruction of a function whose Y is folded.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Action {
    /// Lowered as usual.
    #[default]
    Keep,
    /// Nothing left to do: it only set Y, saved or restored it, or set SP from it.
    Drop,
    /// A load or store through Y that reaches the frame's byte at this offset.
    Slot(u16),
    /// A copy of Y (`movw`) or of one of its bytes (`mov` from r28 or r29): the frame's
    /// first byte plus this offset (wrapping, as a 16-bit address).
    Pointer(u16, Half),
}

/// Which part of Y a copy takes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Half {
    /// Both bytes (`movw`).
    Word,
    /// r28.
    Lo,
    /// r29.
    Hi,
}

/// Y at one instruction.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Y {
    /// The caller's (before the prologue, after the epilogue's pops).
    Caller,
    /// The frame's first byte plus this offset.
    Frame(u16),
    /// The first half of a pair (`in`, `subi`) is done; the second brings Y to this.
    Pair(u16),
}

/// What is known before an instruction: Y, the bytes pushed since the function began,
/// and at which depth r28 and r29 were pushed (register, depth), innermost last.
#[derive(Debug, Clone, PartialEq, Eq)]
struct State {
    y: Y,
    depth: i32,
    saved: Vec<(u8, i32)>,
}

/// Why a function's Y cannot be folded (for the unit tests and the listing).
pub type Why = &'static str;

/// Whether instruction `i` reads or writes r28 or r29 in any way (over-approximated:
/// a field naming 28 or 29 counts, whatever it means).
fn touches_y(i: &Insn) -> bool {
    let y = |r: u8| r == 28 || r == 29;
    y(i.d) || y(i.r) || matches!(i.op, Op::Ld(Ptr::Y, _) | Op::St(Ptr::Y, _))
}

/// The actions for function `range`, whose static frame has `size` bytes, or why Y cannot
/// be folded. `succs` are every instruction's successors (none for a return or a tail
/// jump), `live_out` the flags read after each, `inert` the SREG saves and restores that
/// change nothing and the steps of Y between them, `is_target` whether it is reached
/// other than by falling in, `relocated` whether its immediate is a relocation.
#[allow(clippy::too_many_arguments)] // Each is one of the translator's per-instruction tables.
pub fn fold(
    insns: &[Insn],
    range: Range<usize>,
    size: u32,
    succs: &[Vec<usize>],
    live_out: &[FlagSet],
    inert: &[bool],
    is_target: &[bool],
    relocated: &dyn Fn(usize) -> bool,
) -> Result<Vec<Action>, Why> {
    let first = range.start;
    let n = range.len();
    let mut at: Vec<Option<State>> = vec![None; n];
    let mut actions = vec![Action::Keep; n];
    at[0] = Some(State { y: Y::Caller, depth: 0, saved: Vec::new() });
    let mut work = vec![first];
    let quiet = |j: usize| inert[j] || live_out[j] & flags::defs(&insns[j]) == 0;
    let pair_next = |j: usize, op: Op, d: u8| -> Option<Insn> {
        let nx = insns.get(j + 1).filter(|_| range.contains(&(j + 1)) && !is_target[j + 1])?;
        (nx.op == op && nx.d == d).then_some(*nx)
    };
    while let Some(i) = work.pop() {
        let mut s = at[i - first].clone().expect("a visited instruction has a state");
        let insn = insns[i];
        let (d, k) = (insn.d, insn.k);
        let mut action = Action::Keep;
        match (insn.op, s.y) {
            (Op::In, Y::Caller) if d == 28 && k == 0x3D => {
                pair_next(i, Op::In, 29).filter(|nx| nx.k == 0x3E).ok_or("SP read other than as a pair")?;
                s.y = Y::Pair((size as u16).wrapping_sub(1));
                action = Action::Drop;
            }
            (Op::In, Y::Pair(o)) if d == 29 && k == 0x3E => {
                s.y = Y::Frame(o);
                action = Action::Drop;
            }
            (Op::Subi, Y::Frame(o)) if d == 28 => {
                let hi = pair_next(i, Op::Sbci, 29).ok_or("a subi on r28 without its sbci")?;
                if relocated(i) || relocated(i + 1) || !quiet(i + 1) {
                    return Err("a step of Y whose flags are read");
                }
                s.y = Y::Pair(o.wrapping_sub(((hi.k << 8) | k) as u16));
                action = Action::Drop;
            }
            (Op::Sbci, Y::Pair(o)) if d == 29 => {
                s.y = Y::Frame(o);
                action = Action::Drop;
            }
            (Op::Adiw | Op::Sbiw, Y::Frame(o)) if d == 28 => {
                if !quiet(i) {
                    return Err("a step of Y whose flags are read");
                }
                s.y = Y::Frame(if insn.op == Op::Adiw { o.wrapping_add(k as u16) } else { o.wrapping_sub(k as u16) });
                action = Action::Drop;
            }
            (Op::Push, Y::Caller) if d == 28 || d == 29 => {
                s.saved.push((d, s.depth));
                s.depth += 1;
                action = Action::Drop;
            }
            (Op::Pop, Y::Caller | Y::Frame(_)) if d == 28 || d == 29 => {
                if s.saved.pop() != Some((d, s.depth - 1)) {
                    return Err("a pop of r28/r29 that does not take back its push");
                }
                s.depth -= 1;
                s.y = Y::Caller;
                action = Action::Drop;
            }
            (Op::Out, _) if (k == 0x3D && d == 28) || (k == 0x3E && d == 29) => action = Action::Drop,
            (Op::Ld(Ptr::Y, Mode::Disp) | Op::St(Ptr::Y, Mode::Disp), Y::Frame(o)) if d != 28 && d != 29 => {
                let slot = o.wrapping_add(k as u16);
                if u32::from(slot) >= size {
                    return Err("a slot outside the frame");
                }
                action = Action::Slot(slot);
            }
            (Op::Movw, Y::Frame(o)) if insn.r == 28 && d != 28 => action = Action::Pointer(o, Half::Word),
            (Op::Mov, Y::Frame(o)) if (insn.r == 28 || insn.r == 29) && d != 28 && d != 29 => {
                action = Action::Pointer(o, if insn.r == 28 { Half::Lo } else { Half::Hi });
            }
            (_, Y::Pair(_)) => return Err("Y used between the halves of a pair"),
            (_, _) if touches_y(&insn) => return Err("Y used other than for slots"),
            (Op::Push, _) => s.depth += 1,
            (Op::Pop, _) => {
                if s.saved.last().is_some_and(|&(_, at)| at == s.depth - 1) {
                    return Err("a pop takes back the byte of r28/r29");
                }
                s.depth -= 1;
            }
            // `rcall .+0` reserves two bytes of stack.
            (Op::Rcall, _) if insns.get(i + 1).is_some() && succs[i] == [i + 1] && k == 0 => s.depth += 2,
            _ => {}
        }
        actions[i - first] = action;
        let tail = matches!(insn.op, Op::Rjmp | Op::Jmp | Op::Brbs | Op::Brbc)
            && succs[i].iter().any(|t| !range.contains(t) && *t != i + 1);
        if (succs[i].is_empty() || tail) && !s.saved.is_empty() {
            return Err("leaves with r28/r29 still pushed");
        }
        for &t in succs[i].iter().filter(|t| range.contains(t)) {
            match &at[t - first] {
                None => {
                    at[t - first] = Some(s.clone());
                    work.push(t);
                }
                Some(known) if *known == s => {}
                Some(_) => return Err("Y differs between paths that meet"),
            }
        }
    }
    Ok(actions)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::input::decode::decode_words as insns;

    /// Straight-line successors, none after `ret`.
    fn run(words: &[u16], size: u32) -> Result<Vec<Action>, Why> {
        let code = insns(words);
        let succs: Vec<Vec<usize>> =
            code.iter().enumerate().map(|(i, c)| if c.op == Op::Ret { vec![] } else { vec![i + 1] }).collect();
        let n = code.len();
        fold(&code, 0..n, size, &succs, &vec![0; n], &vec![false; n], &vec![false; n], &|_| false)
    }

    /// push r28; push r29; in r28,0x3d; in r29,0x3e; subi r28,0x40; sbci r29,0x01 (N =
    /// 0x140); out 0x3e,r29; out 0x3d,r28; subi r28,0xc1; sbci r29,0xff (Y += 0x3f);
    /// std Y+9,r24; subi r28,0x3f; sbci r29,0 (back); movw r24,r28; pop r29; pop r28; ret
    const FAR: [u16; 17] = [
        0x93CF, 0x93DF, 0xB7CD, 0xB7DE, 0x54C0, 0x40D1, 0xBFDE, 0xBFCD, 0x5CC1, 0x4FDF, 0x8789, 0x53CF, 0x40D0, 0x01CE,
        0x91DF, 0x91CF, 0x9508,
    ];

    #[test]
    fn far_slots_are_reached_through_the_steps_of_y() {
        // After the prologue Y is the frame's start less one (offset 0xffff); the step adds
        // 0x3f, so Y+9 is slot 0x3f - 1 + 9 = 0x47.
        let a = run(&FAR, 0x140).unwrap();
        assert_eq!(a[..10], [Action::Drop; 10]);
        assert_eq!(a[10], Action::Slot(0x47));
        assert_eq!(a[11..13], [Action::Drop; 2]);
        assert_eq!(a[13], Action::Pointer(0xFFFF, Half::Word), "movw r24, r28 is the start less one");
        assert_eq!(a[14..16], [Action::Drop; 2]);
        assert_eq!(a[16], Action::Keep);
    }

    #[test]
    fn a_slot_past_the_frame_or_other_use_of_y_gives_up() {
        assert_eq!(run(&FAR, 0x40), Err("a slot outside the frame"), "slot 0x47 of a 64-byte frame");
        let mut other = FAR;
        other[13] = 0x0F8C; // add r24, r28
        assert_eq!(run(&other, 0x140), Err("Y used other than for slots"));
        let mut unbalanced = FAR;
        unbalanced[15] = 0x0000; // nop in place of pop r28
        assert_eq!(run(&unbalanced, 0x140), Err("leaves with r28/r29 still pushed"));
        let mut flags_read = FAR;
        flags_read[11] = 0x0000; // nop in place of subi r28: sbci r29 alone
        assert_eq!(run(&flags_read, 0x140), Err("Y used other than for slots"));
    }

    #[test]
    fn paths_that_meet_with_different_y_give_up() {
        // in; in; sbiw r28,4; brne +1; adiw r28,1; ldd r24,Y+1; ret
        let code = insns(&[0xB7CD, 0xB7DE, 0x9724, 0xF409, 0x9621, 0x8189, 0x9508]);
        let succs = vec![vec![1], vec![2], vec![3], vec![4, 5], vec![5], vec![6], vec![]];
        let targets = [false, false, false, false, false, true, false];
        let r = fold(&code, 0..7, 4, &succs, &[0; 7], &[false; 7], &targets, &|_| false);
        assert_eq!(r, Err("Y differs between paths that meet"));
    }
}
