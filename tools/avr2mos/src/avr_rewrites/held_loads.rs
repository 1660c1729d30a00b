//! A frame byte loaded into a register that already holds it. LLVM's AVR back end reloads
//! a value it keeps in the frame at the start of each block that uses it (`ldd r30, Y+33;
//! ldd r31, Y+34` for a pointer), also where the register still holds it from the block
//! before, or from the store that put it there. Where, on every way in, the register
//! holds the frame byte the load reads, the load becomes a `nop`: `ldd` sets no flag, so
//! every register, flag and byte of memory stays as the AVR leaves it, and the lockstep
//! comparison with the simulator holds at every instruction.
//!
//! The facts are "register r holds the byte at Y + q" for the current Y, worked out
//! forward to a fixed point over each function (met by intersection where ways join;
//! nothing is known where control enters from outside). A load or store through Y with a
//! displacement makes one; a `mov` or `movw` copies them; a write to the register ends
//! its own. Y moves by a known amount with `subi r28, lo; sbci r29, hi` (how LLVM reaches
//! past Y+63, the `sbci` not a target) and with `adiw`/`sbiw`, and the facts' offsets move
//! with it; any other write to r28 or r29 ends every fact.
//!
//! What else can write a frame byte ends every fact: a store through X or Z (a pointer
//! can point into the frame), a store through Y that moves Y, a store to a fixed address,
//! a push, and every call (a callee can write through a pointer into the caller's frame)
//! but those of the runtime's routines that write no memory ([`native_writes_memory`]:
//! the multiply, the divisions, `memcmp`), which write only the registers
//! [`native_writes`] names. A load needs no such
//! care: it writes only its register. Nothing outside the program writes the AVR stack
//! (the runtime's interrupt handlers keep to their own bytes).
//!
//! Assumes: `succs` names every way on from each instruction inside its function,
//! `entries` every instruction reached from outside it (Flow's); `native` names the
//! runtime routine a call goes to; decoded instructions only (this runs before every
//! other pass, so the liveness and every later analysis see the loads gone).

use crate::analysis::callgraph::{RegSet, writes_of};
use crate::analysis::liveness::{native_writes, native_writes_memory};
use crate::input::decode::{Insn, Mode, Op, Ptr};

/// What each register is known to hold: the offset from the current Y of a frame byte
/// equal to it.
type Held = [Option<u16>; 32];

/// Rewrites, in `range` (one translated function) of `insns`, each load through Y of a
/// byte the register already holds, and each store through Y of a byte the frame already
/// holds, as a `nop`, and each load of a byte another register holds as a `mov` from it
/// (a zero-page byte instead of the frame's). Returns how many of each: left out, moved.
pub fn rewrite<'p>(
    insns: &mut [Insn],
    succs: &[Vec<usize>],
    entries: &[bool],
    is_target: &[bool],
    native: &dyn Fn(&Insn) -> Option<&'p str>,
    range: std::ops::Range<usize>,
) -> (usize, usize) {
    let calls: Vec<Option<RegSet>> = insns[range.clone()].iter().map(|i| arithmetic_call(i, native)).collect();
    let before = held_before(insns, succs, entries, is_target, &calls, range.clone());
    let (mut dropped, mut moved) = (0, 0);
    for (i, held) in range.zip(before) {
        let (Some(held), Some(q)) = (held, frame_access(&insns[i])) else { continue };
        let insn = insns[i];
        if held[usize::from(insn.d)] == Some(q) {
            insns[i] = Insn { op: Op::Nop, d: 0, r: 0, k: 0, len: insn.len };
            dropped += 1;
        } else if matches!(insn.op, Op::Ld(..))
            // Not from Z: tried, moves from r30 and r31 made life 4 bytes and about 400
            // cycles larger, and nothing smaller.
            && let Some(from) = (0..28u8).find(|&r| held[usize::from(r)] == Some(q))
        {
            insns[i] = Insn { op: Op::Mov, d: insn.d, r: from, k: 0, len: insn.len };
            moved += 1;
        }
    }
    (dropped, moved)
}

/// How a listing shows instruction `written`, now `now` after the rewrite: as written,
/// with `(held)` where it became a `nop` and `(= rN)` where it became a `mov`.
pub fn shown(written: &Insn, now: &Insn) -> String {
    match now.op {
        _ if now == written => written.to_string(),
        Op::Nop => format!("{written} (held)"),
        Op::Mov => format!("{written} (= r{})", now.r),
        _ => written.to_string(),
    }
}

/// The offset from Y of the frame byte that `ldd r, Y+q` or `std Y+q, r` (`ld`, `st`
/// without a displacement too) reads or writes, r not a byte of Y.
fn frame_access(insn: &Insn) -> Option<u16> {
    let through_y = matches!(insn.op, Op::Ld(Ptr::Y, Mode::Disp) | Op::St(Ptr::Y, Mode::Disp));
    (through_y && !is_y(insn.d)).then_some(insn.k as u16)
}

/// The registers a call of a runtime routine that writes no memory writes, for a call of
/// one; `None` for any other instruction.
fn arithmetic_call<'p>(insn: &Insn, native: &dyn Fn(&Insn) -> Option<&'p str>) -> Option<RegSet> {
    let name = native(insn).filter(|name| !native_writes_memory(name))?;
    Some(native_writes(name))
}

/// What each register holds before each instruction of `range` (`None`: not reached);
/// `calls` has, for each, what [`arithmetic_call`] says.
fn held_before(
    insns: &[Insn],
    succs: &[Vec<usize>],
    entries: &[bool],
    is_target: &[bool],
    calls: &[Option<RegSet>],
    range: std::ops::Range<usize>,
) -> Vec<Option<Held>> {
    let base = range.start;
    let mut before: Vec<Option<Held>> = vec![None; range.len()];
    for i in range.clone() {
        if entries[i] {
            before[i - base] = Some([None; 32]);
        }
    }
    let mut work: Vec<usize> = range.clone().filter(|&i| entries[i]).collect();
    while let Some(i) = work.pop() {
        let Some(held) = before[i - base] else { continue };
        let after = match calls[i - base] {
            Some(written) => forget_registers(held, written),
            None => step(insns, is_target, i, held),
        };
        for &s in &succs[i] {
            if !range.contains(&s) {
                continue;
            }
            let met = match before[s - base] {
                None => after,
                Some(old) => std::array::from_fn(|r| if old[r] == after[r] { old[r] } else { None }),
            };
            if before[s - base] != Some(met) {
                before[s - base] = Some(met);
                work.push(s);
            }
        }
    }
    before
}

/// What each register holds after instruction `i`, given what it held before.
fn step(insns: &[Insn], is_target: &[bool], i: usize, mut held: Held) -> Held {
    const NOTHING: Held = [None; 32];
    let insn = insns[i];
    let (d, r) = (usize::from(insn.d), usize::from(insn.r & 31));
    let forget = |held: &mut Held, q: u16| held.iter_mut().filter(|h| **h == Some(q)).for_each(|h| *h = None);
    let moved = |held: &mut Held, by: u16| held.iter_mut().flatten().for_each(|q| *q = q.wrapping_add(by));
    match insn.op {
        Op::Nop => held,
        Op::Ld(Ptr::Y, Mode::Disp) if !is_y(insn.d) => {
            held[d] = Some(insn.k as u16);
            held
        }
        Op::St(Ptr::Y, Mode::Disp) => {
            let q = insn.k as u16;
            forget(&mut held, q);
            held[d] = Some(q);
            held
        }
        Op::St(..) | Op::Sts | Op::Push | Op::Call | Op::Rcall | Op::Icall | Op::Eicall => NOTHING,
        Op::Mov if !is_y(insn.d) => {
            held[d] = held[r];
            held
        }
        Op::Movw if !is_y(insn.d) => {
            held[d] = held[r];
            held[d + 1] = held[r + 1];
            held
        }
        // Y moved down by `hi:lo`: the byte at old Y + q is at new Y + q + hi:lo.
        Op::Subi if d == 28 => match paired_sbci(insns, is_target, i) {
            Some(hi) => {
                moved(&mut held, (hi << 8) | insn.k as u16);
                held[28] = None;
                held
            }
            None => NOTHING,
        },
        Op::Sbci if d == 29 => match i.checked_sub(1).and_then(|s| paired_sbci(insns, is_target, s)) {
            Some(_) => {
                held[29] = None;
                held
            }
            None => NOTHING,
        },
        Op::Adiw | Op::Sbiw if d == 28 => {
            let k = insn.k as u16;
            moved(&mut held, if insn.op == Op::Adiw { k.wrapping_neg() } else { k });
            held[28] = None;
            held[29] = None;
            held
        }
        _ => {
            let written = writes_of(&insn);
            if written & (0b11 << 28) != 0 {
                return NOTHING;
            }
            forget_registers(held, written)
        }
    }
}

/// `held` without what the registers in `written` held.
fn forget_registers(mut held: Held, written: RegSet) -> Held {
    for (reg, h) in held.iter_mut().enumerate() {
        if written & (1 << reg) != 0 {
            *h = None;
        }
    }
    held
}

/// For a `subi r28, lo` at `i` whose next instruction is `sbci r29, hi` and is reached
/// only from it: `hi`.
fn paired_sbci(insns: &[Insn], is_target: &[bool], i: usize) -> Option<u16> {
    let (subi, sbci) = (insns.get(i)?, insns.get(i + 1)?);
    (subi.op == Op::Subi && subi.d == 28 && sbci.op == Op::Sbci && sbci.d == 29 && !is_target[i + 1])
        .then_some(sbci.k as u16)
}

/// Whether `reg` is a byte of Y (r28, r29).
fn is_y(reg: u8) -> bool {
    reg == 28 || reg == 29
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::input::decode::decode_with_addrs;

    /// A call to byte address 0x100 is one of `__mulsi3`.
    fn native(insn: &Insn) -> Option<&'static str> {
        (insn.op == Op::Call && insn.k == 0x100).then_some("__mulsi3")
    }

    /// The rewrite of `words`, one function entered at its first instruction, with the
    /// ways on that the branches and returns give.
    fn run(words: &[u16]) -> (Vec<Insn>, (usize, usize)) {
        let (mut insns, addrs) = decode_with_addrs(words);
        let n = insns.len();
        let at = |k: u32| addrs.iter().position(|&a| a == k).expect("a branch into the code");
        let succs: Vec<Vec<usize>> = (0..n)
            .map(|i| match insns[i].op {
                Op::Ret => vec![],
                Op::Rjmp => vec![at(insns[i].k)],
                Op::Brbs | Op::Brbc => vec![i + 1, at(insns[i].k)],
                _ => vec![i + 1],
            })
            .collect();
        let mut is_target = vec![false; n];
        for (i, s) in succs.iter().enumerate() {
            s.iter().filter(|&&t| t != i + 1).for_each(|&t| is_target[t] = true);
        }
        let entries: Vec<bool> = (0..n).map(|i| i == 0).collect();
        let count = rewrite(&mut insns, &succs, &entries, &is_target, &native, 0..n);
        (insns, count)
    }

    #[test]
    fn a_reload_the_register_holds_on_every_way_in_leaves_no_code() {
        // ldd r30, Y+33; ldd r31, Y+34; ld r24, Z; cpi r24, 0; breq .+2; inc r24;
        // ldd r30, Y+33; ldd r31, Y+34; st Z, r24; ldd r30, Y+33; ret
        let words = [0xA1E9, 0xA1FA, 0x8180, 0x3080, 0xF009, 0x9583, 0xA1E9, 0xA1FA, 0x8380, 0xA1E9, 0x9508];
        let (insns, n) = run(&words);
        assert_eq!(n, (2, 0));
        assert_eq!((insns[6].op, insns[7].op), (Op::Nop, Op::Nop), "Z holds Y+33 and Y+34 on both ways");
        // A store through a pointer may have written the frame.
        assert_eq!(insns[9].op, Op::Ld(Ptr::Y, Mode::Disp));
    }

    #[test]
    fn a_way_in_where_the_register_holds_something_else_keeps_the_load() {
        // ldd r24, Y+1; cpi r22, 0; breq .+2; ldi r24, 5; ldd r24, Y+1; ret
        let (insns, n) = run(&[0x8189, 0x3060, 0xF009, 0xE085, 0x8189, 0x9508]);
        assert_eq!((n, insns[4].op), ((0, 0), Op::Ld(Ptr::Y, Mode::Disp)));
        // ldd r24, Y+1; call 0; ldd r24, Y+1; ret: the callee may write the frame.
        let (_, n) = run(&[0x8189, 0x940E, 0x0000, 0x8189, 0x9508]);
        assert_eq!(n, (0, 0));
    }

    #[test]
    fn the_runtimes_arithmetic_forgets_only_the_registers_it_writes() {
        // ldd r16, Y+1; ldd r22, Y+2; call __mulsi3; ldd r16, Y+1; ldd r22, Y+2; ret
        let (insns, n) = run(&[0x8109, 0x816A, 0x940E, 0x0080, 0x8109, 0x816A, 0x9508]);
        assert_eq!(n, (1, 0));
        assert_eq!(insns[3].op, Op::Nop, "r16 holds Y+1 still");
        assert_eq!(insns[4].op, Op::Ld(Ptr::Y, Mode::Disp), "the product is in r25:r22");
    }

    #[test]
    fn the_offsets_follow_y_where_it_moves_by_a_known_amount() {
        // std Y+63, r24; subi r28, 0xfe; sbci r29, 0xff (Y + 2); ldd r24, Y+61 (the same
        // byte); ldd r25, Y+63; subi r28, 2; sbci r29, 0 (Y back); ldd r24, Y+63; ret
        let (insns, n) = run(&[0xAF8F, 0x5FCE, 0x4FDF, 0xAD8D, 0xAD9F, 0x50C2, 0x40D0, 0xAD8F, 0x9508]);
        assert_eq!(n, (2, 0));
        assert_eq!((insns[3].op, insns[4].op, insns[7].op), (Op::Nop, Op::Ld(Ptr::Y, Mode::Disp), Op::Nop));
    }

    #[test]
    fn a_store_of_what_the_frame_holds_goes_and_a_load_another_register_holds_is_a_move() {
        // ldd r24, Y+5; std Y+5, r24; ldd r22, Y+5; in r28, 0x3d; ldd r24, Y+5; ret
        let (insns, n) = run(&[0x818D, 0x838D, 0x816D, 0xB7CD, 0x818D, 0x9508]);
        assert_eq!(n, (1, 1));
        assert_eq!(insns[1].op, Op::Nop);
        assert_eq!((insns[2].op, insns[2].d, insns[2].r), (Op::Mov, 22, 24));
        // Y set anew: what it reached before is no longer known.
        assert_eq!(insns[4].op, Op::Ld(Ptr::Y, Mode::Disp));
    }
}
