//! Which `__mulsi3` calls multiply a division's quotient by its own divisor. When a
//! program needs both `x / d` and `x % d`, LLVM keeps only the division and computes the
//! remainder as `x - (x / d) * d`: a 32-bit multiply (about 290 cycles on the 6502) of
//! two values the division just had. The product is `x - x % d`, which the division's
//! helper knows when it returns: the division is lowered to a variant that also keeps
//! that product ([`crate::runtime::divide::PRODUCT`]), and the multiply to a copy of it.
//! Number formatting (`n % 10` and `n /= 10`) and money's "does it divide exactly" both
//! have the shape.
//!
//! Symbolic values over one straight-line run: every register starts as its own unknown
//! value (or the constant [`crate::analysis::constants`] knows), moves copy values, `ldi`
//! and `eor r, r` make constants, and any other write makes a new value, named by the
//! instruction that wrote it. A run has no jump target inside, so each name stands for
//! one value, and two registers that hold the same name hold the same bytes.
//!
//! Assumes: `is_target` and `entries` mark every instruction reached other than from the
//! one before it; callees preserve r2-r17, r28 and r29 (the AVR calling convention);
//! [`crate::analysis::liveness::defs_of`] names every register an instruction writes; the
//! divisions return the quotient in r21:r18 and the remainder in r25:r22, and `__mulsi3`
//! multiplies r25:r22 by r21:r18 (avr-gcc's conventions, [`crate::runtime`]).
//!
//! Guarantees: a pair is found only when the multiply's operands are, byte for byte, the
//! quotient and the divisor of a division earlier in the same run (in either order),
//! with no call of any kind between the two (so nothing else can replace the kept
//! product, and nothing the lowering calls between them touches it), and neither after a
//! skip (which could leave the division out and not the multiply). The product,
//! `q * d` modulo 2^32, is then exactly `x - r` for both divisions: unsigned, and signed
//! with truncation (the remainder takes the dividend's sign), with libgcc's answers for a
//! zero divisor too (the remainder is the dividend, the product zero).

use crate::analysis::liveness::{CALLEE_SAVED, defs_of};
use crate::input::decode::{Insn, Op};
use crate::runtime::Routine;

/// What the lowering does with a call.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role {
    /// A 32-bit division whose product a multiply after it reuses.
    Keep {
        /// `__divmodsi4` (else `__udivmodsi4`).
        signed: bool,
    },
    /// A `__mulsi3` of the last kept division's quotient and divisor.
    Reuse,
}

/// The calls with a role (see the module doc).
#[derive(Debug, Clone, Default)]
pub struct Products {
    role: Vec<Option<Role>>,
}

impl Products {
    /// The role of the call at instruction `i`, if it has one.
    pub fn role(&self, i: usize) -> Option<Role> {
        self.role.get(i).copied().flatten()
    }
}

/// A register's value in a run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Val {
    /// A known constant.
    Const(u8),
    /// What the register held when the run began.
    Start(u8),
    /// What instruction `.0` wrote into register `.1`.
    Def(usize, u8),
}

/// The longest run followed from a division to its multiply, in instructions.
const MAX_GAP: usize = 64;

fn is_call(op: Op) -> bool {
    matches!(op, Op::Call | Op::Rcall | Op::Icall | Op::Eicall)
}

/// The values after instruction `j` (after a skip when `skipped`), given `s` before it;
/// `has_reloc(j)`: its operand is relocated.
fn step(insns: &[Insn], j: usize, s: &mut [Val; 32], skipped: bool, has_reloc: &impl Fn(usize) -> bool) {
    let insn = &insns[j];
    let (d, r) = (usize::from(insn.d & 31), usize::from(insn.r & 31));
    let written = |s: &mut [Val; 32], mask: u32| {
        for (n, v) in s.iter_mut().enumerate() {
            if mask & (1 << n) != 0 {
                *v = Val::Def(j, n as u8);
            }
        }
    };
    if is_call(insn.op) {
        return written(s, !CALLEE_SAVED);
    }
    if skipped {
        // It may not run: whatever it writes holds one of two values.
        return written(s, defs_of(insn));
    }
    match insn.op {
        Op::Ldi if !has_reloc(j) => s[d] = Val::Const(insn.k as u8),
        Op::Mov => s[d] = s[r],
        Op::Movw => {
            let (lo, hi) = (s[r], s[(r + 1) & 31]);
            s[d] = lo;
            s[(d + 1) & 31] = hi;
        }
        Op::Eor | Op::Sub if d == r => s[d] = Val::Const(0),
        _ => written(s, defs_of(insn)),
    }
}

/// Finds the pairs (see the module doc). `native(i)` is the runtime routine call `i`
/// reaches, if any; `known(i, r)` a constant register `r` holds before instruction `i`.
pub fn find(
    insns: &[Insn],
    is_target: &[bool],
    entries: &[bool],
    native: impl Fn(usize) -> Option<Routine>,
    known: impl Fn(usize, u8) -> Option<u8>,
    has_reloc: impl Fn(usize) -> bool,
) -> Products {
    let n = insns.len();
    let mut role = vec![None; n];
    let starts = |i: usize| is_target[i] || entries[i];
    let after_skip = |i: usize| i > 0 && insns[i - 1].op.skips();
    for i in 0..n {
        let signed = match native(i) {
            Some(Routine::Udivmodsi4) => false,
            Some(Routine::Divmodsi4) => true,
            _ => continue,
        };
        if after_skip(i) || !is_call(insns[i].op) {
            continue;
        }
        let mut start = i;
        while start > 0 && !starts(start) {
            start -= 1;
        }
        let mut s: [Val; 32] = std::array::from_fn(|r| known(start, r as u8).map_or(Val::Start(r as u8), Val::Const));
        for j in start..i {
            step(insns, j, &mut s, after_skip(j), &has_reloc);
        }
        let divisor: [Val; 4] = std::array::from_fn(|b| s[18 + b]);
        step(insns, i, &mut s, false, &has_reloc);
        let quotient: [Val; 4] = std::array::from_fn(|b| s[18 + b]);
        for m in i + 1..n.min(i + 1 + MAX_GAP) {
            let op = insns[m].op;
            if starts(m) || (op.jumps() && !matches!(op, Op::Brbs | Op::Brbc) && !op.skips()) {
                break;
            }
            if is_call(op) {
                let (a, b): ([Val; 4], [Val; 4]) =
                    (std::array::from_fn(|k| s[22 + k]), std::array::from_fn(|k| s[18 + k]));
                let pair = (a == quotient && b == divisor) || (a == divisor && b == quotient);
                if native(m) == Some(Routine::Mulsi3) && !after_skip(m) && pair && role[i].is_none() {
                    role[i] = Some(Role::Keep { signed });
                    role[m] = Some(Role::Reuse);
                }
                break;
            }
            step(insns, m, &mut s, after_skip(m), &has_reloc);
        }
    }
    Products { role }
}

#[cfg(test)]
mod tests {
    use super::*;

    const DIV: u16 = 0xF0; // marks `call` words below
    const MUL: u16 = 0xF1;
    const SDIV: u16 = 0xF2;

    /// `movw d+1:d, r+1:r`.
    fn movw(d: u8, r: u8) -> u16 {
        0x0100 | (u16::from(d / 2) << 4) | u16::from(r / 2)
    }
    fn ldi(d: u8, k: u8) -> u16 {
        0xE000 | (u16::from(k & 0xF0) << 4) | (u16::from(d - 16) << 4) | u16::from(k & 0x0F)
    }

    /// The pairs found in `words` (one function, straight through; `jumps` adds targets),
    /// where DIV, SDIV and MUL stand for calls of the division and the multiply.
    fn roles(words: &[u16], targets: &[usize]) -> Vec<Option<Role>> {
        let mut code = Vec::new();
        let mut natives = Vec::new();
        for &w in words {
            let routine = match w {
                DIV => Some(Routine::Udivmodsi4),
                SDIV => Some(Routine::Divmodsi4),
                MUL => Some(Routine::Mulsi3),
                _ => None,
            };
            natives.push(routine);
            if routine.is_some() {
                code.extend([0x940E, 0x1000]); // call: a two-word instruction
            } else {
                code.push(w);
            }
        }
        let (insns, _) = crate::analysis::straight_flow(&code, &[]);
        let mut is_target = vec![false; insns.len()];
        for &t in targets {
            is_target[t] = true;
        }
        let mut entries = vec![false; insns.len()];
        entries[0] = true;
        let p = find(&insns, &is_target, &entries, |i| natives[i], |_, _| None, |_| false);
        (0..insns.len()).map(|i| p.role(i)).collect()
    }

    /// LLVM's shape for `x % 10` after `x / 10` (the format kernel): the divisor loaded and
    /// kept in r7:r4 across the call, the quotient copied out, both moved back for the
    /// multiply.
    fn digit(div: u16) -> Vec<u16> {
        vec![
            ldi(18, 10),
            ldi(19, 0),
            movw(4, 18),
            movw(6, 20),
            div,
            movw(10, 18),
            movw(22, 10),
            movw(24, 20),
            movw(18, 4),
            movw(20, 6),
            MUL,
        ]
    }

    #[test]
    fn a_multiply_of_the_quotient_by_the_divisor_reuses_the_division() {
        let r = roles(&digit(DIV), &[]);
        assert_eq!(r[4], Some(Role::Keep { signed: false }));
        assert_eq!(r[10], Some(Role::Reuse));
        let r = roles(&digit(SDIV), &[]);
        assert_eq!(r[4], Some(Role::Keep { signed: true }));
        // The operands the other way round.
        let mut w = digit(DIV);
        w[6..10].copy_from_slice(&[movw(18, 10), movw(20, 20), movw(22, 4), movw(24, 6)]);
        assert_eq!(roles(&w, &[])[10], Some(Role::Reuse));
    }

    #[test]
    fn anything_that_breaks_the_proof_leaves_the_multiply() {
        let plain = |r: &[Option<Role>]| r.iter().all(Option::is_none);
        // A divisor byte changed after the division.
        let mut w = digit(DIV);
        w.insert(8, 0x9543); // inc r20, which `movw r21:r20, r7:r6` then overwrites: still a pair
        assert!(!plain(&roles(&w, &[])));
        let mut w = digit(DIV);
        w.insert(10, 0x9543); // inc r20 after r21:r20 was set: no longer the divisor
        assert!(plain(&roles(&w, &[])));
        // A quotient byte changed.
        let mut w = digit(DIV);
        w.insert(7, 0x95A3); // inc r26: unrelated, still a pair
        assert!(!plain(&roles(&w, &[])));
        let mut w = digit(DIV);
        w.insert(7, 0x9563); // inc r22
        assert!(plain(&roles(&w, &[])));
        // A jump target between: another path may reach the multiply.
        assert!(plain(&roles(&digit(DIV), &[7])));
        // A call between, even a native one.
        let mut w = digit(DIV);
        w.insert(7, DIV);
        assert!(plain(&roles(&w, &[])));
        // A skip before either call.
        let mut w = digit(DIV);
        w.insert(10, 0xFD01); // sbrc r16, 1
        assert!(plain(&roles(&w, &[])));
        let mut w = digit(DIV);
        w.insert(4, 0xFD01);
        assert!(plain(&roles(&w, &[])));
        // A skip that may leave out a move of an operand.
        let mut w = digit(DIV);
        w.insert(8, 0xFD01);
        assert!(plain(&roles(&w, &[])));
        // The divisor changed before the division, after its copy: r7:r4 no longer hold it.
        let mut w = digit(DIV);
        w.insert(4, ldi(18, 9));
        assert!(plain(&roles(&w, &[])));
    }

    #[test]
    fn unknown_values_match_by_name_and_the_run_starts_at_a_jump_target() {
        // The divisor is whatever r7:r4 held when the run began (money's rate).
        let w = [movw(18, 4), movw(20, 6), DIV, movw(22, 18), movw(24, 20), movw(18, 4), movw(20, 6), MUL];
        let r = roles(&w, &[]);
        assert_eq!((r[2], r[7]), (Some(Role::Keep { signed: false }), Some(Role::Reuse)));
        // A write to r4 before the run's start does not matter; one inside it does.
        let mut w2 = vec![0x9443]; // inc r4
        w2.extend(w);
        assert!(roles(&w2, &[1]).contains(&Some(Role::Reuse)));
        let mut w3 = w.to_vec();
        w3.insert(3, 0x9443);
        assert!(roles(&w3, &[]).iter().all(Option::is_none));
    }
}
