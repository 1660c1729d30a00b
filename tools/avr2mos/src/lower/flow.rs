//! Lowering of control flow: skips, branches, jumps, calls and returns, and the AVR
//! instructions the C128 has no equivalent for.

use super::*;
use crate::analysis::div_products::Role;
use crate::runtime::divide::PRODUCT;

impl Ctx<'_> {
    /// Lowers a skip, branch, jump, call or return, or refuses an instruction the C128 cannot
    /// run.
    pub(super) fn flow(&self, i: usize, a: &mut Asm) -> Result<Core, TranslateError> {
        let insn = self.insns[i];
        let (d, rr, k) = (insn.d, insn.r, insn.k);
        let (rd, rs) = (r(d), r(rr));
        match insn.op {
            Op::Nop => {}
            Op::Cpse | Op::Sbrc | Op::Sbrs => {
                let skip = self.skip_target(i)?;
                match insn.op {
                    Op::Cpse => a.b(LDA_ZP, rd).b(CMP_ZP, rs).br(BEQ, skip),
                    Op::Sbrc => a.b(LDA_ZP, rd).b(AND_IMM, 1 << rr).br(BEQ, skip),
                    _ => a.b(LDA_ZP, rd).b(AND_IMM, 1 << rr).br(BNE, skip),
                };
            }
            Op::Brbs | Op::Brbc => {
                let set = insn.op == Op::Brbs;
                let target = self.branch_target(i, k)?;
                let (taken_if_set, taken_if_clear) = match rr {
                    0 => {
                        a.b(LDA_ZP, FLAGS).i(LSR_A);
                        (BCS, BCC)
                    }
                    1 => {
                        a.b(LDA_ZP, FLAGS).b(AND_IMM, 0x02);
                        (BNE, BEQ)
                    }
                    2 => {
                        a.b(LDA_ZP, FLAGS);
                        (BMI, BPL)
                    }
                    3 => {
                        a.b(BIT_ZP, FLAGS);
                        (BVS, BVC)
                    }
                    4 => {
                        // S = N xor V: shift V (bit 6) onto N (bit 7) and combine.
                        a.b(LDA_ZP, FLAGS).i(ASL_A).b(EOR_ZP, FLAGS);
                        (BMI, BPL)
                    }
                    6 => {
                        a.b(LDA_ZP, TFLAG);
                        (BNE, BEQ)
                    }
                    _ => return Err(self.err(i, "branches on H and I are not supported")),
                };
                a.br(if set { taken_if_set } else { taken_if_clear }, target);
            }
            Op::Rjmp | Op::Jmp => {
                if self.flow.func_starts.contains_key(&k) || self.prog.native_at(k).is_some() {
                    let l = self.callee(i, k)?;
                    self.tail(i, a, l);
                } else if self.flow.addrs.get(i + 1) != Some(&k) {
                    a.to(JMP, self.target(i, k)?);
                }
            }
            Op::Rcall | Op::Call => {
                if insn.op == Op::Rcall && self.flow.addrs.get(i + 1) == Some(&k) {
                    // `rcall .+0` only reserves two bytes of stack.
                    a.to(JSR, Routine::Enter.label());
                } else if self.optimise
                    && self.prog.native_at(k).and_then(Routine::for_symbol) == Some(Routine::Udivmodqi4)
                    && let Some(c) = self.consts.before(i, 22)
                    && specialise::udivmodqi4_by(a, c)
                {
                } else if self.optimise
                    && let Some(role) = self.products.role(i)
                {
                    match role {
                        Role::Keep { signed: false } => a.to(JSR, Routine::Udivmodsi4Keep.label()),
                        Role::Keep { signed: true } => a.to(JSR, Routine::Divmodsi4Keep.label()),
                        Role::Reuse => {
                            for b in 0..4 {
                                a.b(LDA_ZP, PRODUCT + b).b(STA_ZP, r(22 + b));
                            }
                            a
                        }
                    };
                } else if let Some((x, c)) = self.inline_multiply(i)
                    && crate::avr_rewrites::const_mul32::mul32_by(a, x, c)
                {
                } else if self.optimise
                    && self.prog.native_at(k).and_then(Routine::for_symbol) == Some(Routine::Memset)
                    && let Some(n) = self.constant_word_before(i, 20)
                    && (self.frame_pointer_before(i).is_some_and(|(base, off)| {
                        crate::avr_rewrites::inline_mem::memset_at(a, n, |j| base.operand(Part::Word, off + j))
                    }) || crate::avr_rewrites::inline_mem::memset_by(a, n))
                {
                } else {
                    a.to(JSR, self.callee(i, k)?);
                }
            }
            Op::Ret => {
                if self.adjusting(i) {
                    a.to(JMP, Routine::Leave.label());
                } else {
                    a.i(RTS);
                }
            }
            Op::Icall => {
                a.to(JSR, Routine::Icall.label());
            }
            Op::Ijmp => {
                if self.adjusting(i) {
                    a.to(JSR, Routine::Leave.label());
                }
                a.w(JMP_IND, u16::from(r(30)));
            }
            Op::Lpm | Op::Elpm => {
                return Err(self.err(i, "program memory reads: data must be in RAM on the C128"));
            }
            Op::Reti | Op::Sleep | Op::Break | Op::Wdr | Op::Spm | Op::Eijmp | Op::Eicall => {
                return Err(self.err(i, "no C128 equivalent"));
            }
            Op::Cbi | Op::Sbic | Op::Sbi | Op::Sbis => {
                return Err(self.err(i, "AVR I/O bit instructions have no C128 equivalent"));
            }
            _ => return Err(self.err(i, "not a control-flow instruction (the dispatch in Ctx::lower sent it here)")),
        }
        Ok(Core::Flags(Kind::None))
    }

    /// Where r25:r24 points before call `i` when a copy of Y in a folded static frame
    /// ([`crate::frames::frame_slots`], with its step folded by [`crate::frames::frame_steps`]) set it in
    /// the run just before (nothing between is a jump target or writes r24 or r25): the
    /// frame and the offset from its first byte.
    fn frame_pointer_before(&self, i: usize) -> Option<(crate::frames::static_frames::FrameBase, i32)> {
        use crate::frames::frame_slots::{Action, Half};
        let base = self.static_frame(i)?;
        let mut m = i;
        while m > 0 && !self.flow.is_target[m] && i - m < 8 {
            m -= 1;
            let n = self.insns[m];
            match (self.frames.slots[m], n.op) {
                (Action::Pointer(off, Half::Word), Op::Movw) if n.d == 24 => {
                    return Some((base, i32::from(off as i16)));
                }
                // Folded into a copy of Y, or a step of Y itself.
                (Action::Drop, _) => {}
                (Action::Keep, Op::Ldi | Op::Mov) if n.d != 24 && n.d != 25 => {}
                (Action::Keep, Op::Movw) if n.d != 24 => {}
                _ => return None,
            }
        }
        None
    }

    /// Whether every division of the program of one width (`wide`: 32 bits, every call
    /// of, or jump to, `__udivmodsi4` or `__divmodsi4`; else 16 bits, `__udivmodhi4` and
    /// `__divmodhi4`), in translated and interpreted code alike, has a divisor known
    /// before it whose magnitude is 1 to 255 ([`Ctx::consts`]), and no relocation names
    /// those routines but such a call's operand: the width's unsigned routine is then only
    /// its byte path ([`crate::runtime::divide::SmallDivisors`]). Number formatting
    /// divides by 10, a grid's index by its width; one division by a variable keeps the
    /// whole routine. Never at the plain level, whose translation is the reference.
    pub(crate) fn divisors_all_small(&self, wide: bool) -> bool {
        use crate::input::program::{RelocKind, Target};
        let (unsigned, signed) = match wide {
            true => (Routine::Udivmodsi4, Routine::Divmodsi4),
            false => (Routine::Udivmodhi4, Routine::Divmodhi4),
        };
        let routine = |k: u32| self.prog.native_at(k).and_then(Routine::for_symbol);
        let division = |k: u32| routine(k).is_some_and(|r| r == unsigned || r == signed);
        let mut any = false;
        for (i, insn) in self.insns.iter().enumerate() {
            if !matches!(insn.op, Op::Call | Op::Rcall | Op::Jmp | Op::Rjmp) || !division(insn.k) {
                continue;
            }
            any = true;
            let is_signed = routine(insn.k) == Some(signed);
            let magnitude = match wide {
                true => self.consts.long_before(i, 18).map(|d| if is_signed { (d as i32).unsigned_abs() } else { d }),
                false => self.consts.word_before(i, 22).map(|d| match is_signed {
                    true => u32::from((d as i16).unsigned_abs()),
                    false => u32::from(d),
                }),
            };
            if !magnitude.is_some_and(|m| (1..256).contains(&m)) {
                return false;
            }
        }
        let named = |t: &Target| matches!(t, Target::Code(a) if division(*a));
        let operand = |k: &RelocKind| matches!(k, RelocKind::Call | RelocKind::Pcrel13);
        let elsewhere = self.prog.text_relocs.values().filter(|r| !operand(&r.kind)).chain(&self.prog.data_relocs);
        any && self.optimise && !elsewhere.map(|r| &r.target).any(named)
    }

    /// Whether instruction `i` is a `__mulsi3` call lowered as shifts and adds
    /// ([`crate::avr_rewrites::const_mul32`]): translated, not cold, not a division's product
    /// ([`Ctx::products`] come first), one operand known, the sequence short enough. The
    /// register the other operand starts at, and the constant.
    pub(crate) fn inline_multiply(&self, i: usize) -> Option<(u8, u32)> {
        let insn = self.insns[i];
        let is_call = matches!(insn.op, Op::Call | Op::Rcall);
        let mulsi3 = self.prog.native_at(insn.k).and_then(Routine::for_symbol) == Some(Routine::Mulsi3);
        let translated = self.flow.func_of[i].is_some_and(|f| !self.interp[f]);
        if !(self.optimise && translated && is_call && mulsi3 && self.heat[i] != crate::analysis::cold::Heat::Cold) {
            return None;
        }
        if self.products.role(i).is_some() {
            return None;
        }
        self.mulsi3_constant(i).filter(|&(x, c)| crate::avr_rewrites::const_mul32::fits(x, c))
    }

    /// The multiply an argument copy only feeds, if any: `movw r19:r18, r13:r12` (or into
    /// r21:r20) just before a `__mulsi3` made shifts and adds whose constant is in
    /// r21:r18 ([`Ctx::inline_multiply`]), which reads those registers no more, with only
    /// loads and moves of other registers between and the pair dead after the call. LLVM
    /// copies a constant kept from before the loop there for each call. The copy then
    /// leaves no code; its pair is stale up to the call (the lockstep leaves it out there).
    pub(crate) fn feeds_inline_multiply(&self, i: usize) -> Option<usize> {
        use crate::analysis::liveness::{defs_of, reads_of};
        let insn = self.insns[i];
        if !(self.optimise && insn.op == Op::Movw && (insn.d == 18 || insn.d == 20)) {
            return None;
        }
        let plain = |m: usize| {
            self.copies[m] == crate::avr_rewrites::ptr_copies::Copy::Keep
                && self.frames.slots[m] == crate::frames::frame_slots::Action::Keep
        };
        if !plain(i) || self.fusion.joins(i) || self.fusion.joins(i + 1) {
            return None;
        }
        let pair = 0b11u32 << insn.d;
        for m in i + 1..(i + 9).min(self.insns.len()) {
            if self.flow.is_target[m] || !plain(m) {
                return None;
            }
            let next = self.insns[m];
            if matches!(next.op, Op::Call | Op::Rcall) {
                let feeds = self.inline_multiply(m).is_some_and(|(x, _)| x == 22);
                return (feeds && self.saves.live.live_out[m] & pair == 0).then_some(m);
            }
            if !matches!(next.op, Op::Ldi | Op::Mov | Op::Movw) || (reads_of(&next) | defs_of(&next)) & pair != 0 {
                return None;
            }
        }
        None
    }

    /// A `__mulsi3` call's known operand and the register the other one starts at: the
    /// constant in r21:r18 (LLVM's usual place) or else in r25:r22, all four bytes known
    /// before call `i` ([`Ctx::consts`]).
    fn mulsi3_constant(&self, i: usize) -> Option<(u8, u32)> {
        let known = |r: u8| self.consts.long_before(i, r);
        known(18).map(|k| (22, k)).or_else(|| known(22).map(|k| (18, k)))
    }

    /// The value of the register pair `r+1:r` before call `i` ([`Ctx::consts`]), if both
    /// bytes are known.
    fn constant_word_before(&self, i: usize, r: u8) -> Option<u16> {
        self.consts.word_before(i, r)
    }
}
