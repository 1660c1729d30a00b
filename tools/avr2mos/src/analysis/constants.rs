//! Which AVR registers hold a known constant before each instruction, on every path that
//! reaches it. LLVM loads a loop's constant once, before the loop (`ldi r17, 10` for a
//! division's `% 10`, then `mul r22, r17` inside): a scan back from the multiply finds
//! no `ldi`, this data-flow does, and the multiply becomes shifts and adds
//! ([`crate::avr_rewrites::const_mul`]). The specialised divisions and the inline
//! `memset` ask it the same way.
//!
//! A forward "must" data-flow over each function: at an entry nothing is known; `ldi`
//! (without a relocation: an address's byte is not known until the layout) sets a
//! constant, `mov` and `movw` copy what is known of their sources, `eor r, r` and
//! `sub r, r` set zero; a call keeps only the registers the callee must preserve (r2-r17,
//! r28, r29); any other write makes its registers unknown, and a join keeps a constant
//! only where every path into it agrees.
//!
//! Under the size policy's last resort ([`Reach::Run`]) only constants loaded by the run
//! of `ldi`, `mov` and `movw` just before an instruction count: a multiply by a constant
//! set just before it is still inline, one by a constant from before its loop stays a
//! call.
//!
//! Assumes: `succs` lists every successor of each instruction inside its function (a call
//! returns to the next instruction), `entries` marks every instruction reached from
//! outside that flow and `is_target` every jump target; callees preserve r2-r17, r28 and r29 as the AVR calling convention
//! says (a save the translator leaves out is one no caller reads after the call, so no
//! constant it kept is read there); [`crate::analysis::liveness::defs_of`] names every
//! register an instruction writes. Guarantees: [`Constants::before`] gives a value only
//! where the register holds it on every path from an entry; unreached code knows nothing.

use crate::analysis::liveness::{CALLEE_SAVED, defs_of};
use crate::input::decode::{Insn, Op};

/// What is known of the 32 registers at one point: `None` for unknown.
type State = [Option<u8>; 32];

/// The known constants before each instruction (see the module doc).
#[derive(Debug, Clone, Default)]
pub struct Constants {
    before: Vec<State>,
}

impl Constants {
    /// The constant register `r` holds before instruction `i` on every path, if any.
    pub fn before(&self, i: usize, r: u8) -> Option<u8> {
        self.before.get(i).and_then(|s| s[usize::from(r & 31)])
    }

    /// The constant in the pair `r+1:r` before instruction `i`, if both bytes are known.
    pub fn word_before(&self, i: usize, r: u8) -> Option<u16> {
        Some(u16::from_le_bytes([self.before(i, r)?, self.before(i, r + 1)?]))
    }

    /// The constant in the 32-bit register quad `r+3..r` before instruction `i`, if all
    /// four bytes are known.
    pub fn long_before(&self, i: usize, r: u8) -> Option<u32> {
        Some(u32::from(self.word_before(i, r)?) | u32::from(self.word_before(i, r + 2)?) << 16)
    }
}

/// The state after `insn` (at index `i`) given `s` before it; `has_reloc(i)`: the
/// instruction's operand is relocated.
fn after(insn: &Insn, i: usize, mut s: State, has_reloc: &impl Fn(usize) -> bool) -> State {
    let (d, r) = (usize::from(insn.d & 31), usize::from(insn.r & 31));
    match insn.op {
        Op::Ldi => s[d] = (!has_reloc(i)).then_some(insn.k as u8),
        Op::Mov => s[d] = s[r],
        Op::Movw => {
            let (lo, hi) = (s[r], s[(r + 1) & 31]);
            s[d] = lo;
            s[(d + 1) & 31] = hi;
        }
        Op::Eor | Op::Sub if d == r => s[d] = Some(0),
        Op::Call | Op::Rcall | Op::Icall | Op::Eicall => {
            for (n, v) in s.iter_mut().enumerate() {
                if CALLEE_SAVED & (1 << n) == 0 {
                    *v = None;
                }
            }
        }
        _ => {
            let defs = defs_of(insn);
            for (n, v) in s.iter_mut().enumerate() {
                if defs & (1 << n) != 0 {
                    *v = None;
                }
            }
        }
    }
    s
}

/// How far a constant is followed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reach {
    /// Across joins and loops, as the module doc says.
    Flow,
    /// Only through a run of `ldi`, `mov` and `movw` just before the instruction, with no
    /// jump target inside: the constants an operand was just loaded with (the size
    /// policy's last resort, where a loop's multiplies and `memset`s made inline would not
    /// fit).
    Run,
}

/// The known constants of a function-by-function flow (see the module doc); with
/// [`Reach::Run`], `is_target` marks the instructions where runs start.
pub fn analyse(
    insns: &[Insn],
    succs: &[Vec<usize>],
    entries: &[bool],
    is_target: &[bool],
    reach: Reach,
    has_reloc: impl Fn(usize) -> bool,
) -> Constants {
    let n = insns.len();
    // Unreached code starts at "anything" (no state) and is lowered to the meet of what
    // reaches it. A run's start under `Reach::Run` is an entry.
    let entries: Vec<bool> = (0..n).map(|i| entries[i] || (reach == Reach::Run && is_target[i])).collect();
    let mut before: Vec<Option<State>> = vec![None; n];
    let mut work = Vec::new();
    for i in (0..n).filter(|&i| entries[i]) {
        before[i] = Some([None; 32]);
        work.push(i);
    }
    while let Some(i) = work.pop() {
        let Some(s) = before[i] else { continue };
        let out = match insns[i].op {
            Op::Ldi | Op::Mov | Op::Movw => after(&insns[i], i, s, &has_reloc),
            _ if reach == Reach::Run => [None; 32],
            _ => after(&insns[i], i, s, &has_reloc),
        };
        for &t in &succs[i] {
            let met = match before[t] {
                None if entries[t] => continue,
                None => out,
                Some(old) => {
                    let mut m = old;
                    for (x, y) in m.iter_mut().zip(out) {
                        if *x != y {
                            *x = None;
                        }
                    }
                    m
                }
            };
            if before[t] != Some(met) {
                before[t] = Some(met);
                work.push(t);
            }
        }
    }
    Constants { before: before.into_iter().map(|s| s.unwrap_or([None; 32])).collect() }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The data-flow of one function made of `words`, falling straight through except
    /// for the extra edges in `jumps` (from, to).
    fn run(words: &[u16], jumps: &[(usize, usize)], relocs: &[usize]) -> Constants {
        run_with(words, jumps, relocs, Reach::Flow)
    }

    fn run_with(words: &[u16], jumps: &[(usize, usize)], relocs: &[usize], reach: Reach) -> Constants {
        let (insns, succs) = crate::analysis::straight_flow(words, jumps);
        let n = insns.len();
        let mut entries = vec![false; n];
        entries[0] = true;
        let mut is_target = vec![false; n];
        for &(_, t) in jumps {
            is_target[t] = true;
        }
        analyse(&insns, &succs, &entries, &is_target, reach, |i| relocs.contains(&i))
    }

    const LDI_R17_10: u16 = 0xE01A;
    const LDI_R17_3: u16 = 0xE013;
    const MOV_R24_R17: u16 = 0x2F81;
    const MUL_R22_R17: u16 = 0x9F61;
    const CLR_R25: u16 = 0x2799;
    const RCALL_0: u16 = 0xD000;
    const LDI_R24_1: u16 = 0xE081;
    const INC_R17: u16 = 0x9513;
    const RET: u16 = 0x9508;

    #[test]
    fn a_constant_loaded_before_a_loop_reaches_the_loop() {
        // 0: ldi r17, 10; 1: mul r22, r17; 2: mov r24, r17; 3: clr r25; 4: ret, with 3 -> 1.
        let c = run(&[LDI_R17_10, MUL_R22_R17, MOV_R24_R17, CLR_R25, RET], &[(3, 1)], &[]);
        assert_eq!(c.before(1, 17), Some(10));
        assert_eq!(c.before(3, 24), Some(10), "a move copies it");
        assert_eq!(c.before(4, 25), Some(0), "eor r, r is zero");
        assert_eq!(c.before(1, 25), None, "the loop's head meets the unknown r25 of the entry");
        assert_eq!(c.before(2, 0), None, "the multiply wrote r1:r0");
    }

    #[test]
    fn a_run_knows_only_the_loads_and_moves_just_before() {
        let words = [LDI_R17_10, MUL_R22_R17, MOV_R24_R17, CLR_R25, RET];
        let c = run_with(&words, &[(3, 1)], &[], Reach::Run);
        assert_eq!(c.before(1, 17), None, "the loop's head is a jump target");
        let c = run_with(&words, &[], &[], Reach::Run);
        assert_eq!(c.before(1, 17), Some(10), "no jump: loaded just before");
        assert_eq!(c.before(2, 17), None, "the multiply is no load or move");
        let c = run_with(&[LDI_R17_10, LDI_R24_1, MOV_R24_R17, MUL_R22_R17, RET], &[], &[], Reach::Run);
        assert_eq!(c.before(3, 17), Some(10), "through other loads and moves");
    }

    #[test]
    fn paths_that_disagree_know_nothing() {
        // 0: ldi r17, 10; 1: ldi r17, 3 (skipped by 0 -> 2); 2: mul.
        let c = run(&[LDI_R17_10, LDI_R17_3, MUL_R22_R17, RET], &[(0, 2)], &[]);
        assert_eq!(c.before(2, 17), None);
        let c = run(&[LDI_R17_10, LDI_R17_10, MUL_R22_R17, RET], &[(0, 2)], &[]);
        assert_eq!(c.before(2, 17), Some(10), "both paths load 10");
    }

    #[test]
    fn calls_keep_the_callee_saved_registers_and_writes_spoil() {
        let c = run(&[LDI_R17_10, LDI_R24_1, RCALL_0, INC_R17, RET], &[], &[]);
        assert_eq!(c.before(3, 17), Some(10), "r17 survives the call");
        assert_eq!(c.before(2, 24), Some(1));
        assert_eq!(c.before(3, 24), None, "r24 does not");
        assert_eq!(c.before(4, 17), None, "inc wrote it");
    }

    #[test]
    fn a_relocated_load_and_unreached_code_are_unknown() {
        let c = run(&[LDI_R17_10, MUL_R22_R17, RET], &[], &[0]);
        assert_eq!(c.before(1, 17), None);
        // 0: ret; 1: ldi; 2: mul: nothing reaches 1 or 2.
        let c = run(&[RET, LDI_R17_10, MUL_R22_R17], &[], &[]);
        assert_eq!(c.before(2, 17), None);
    }
}
