//! Lowering of the arithmetic instructions: additions, subtractions, compares, negation,
//! increments, 16-bit steps and the multiplies (by a constant without the runtime,
//! [`crate::avr_rewrites::const_mul`], also a signed one whose high byte is never read).

use super::*;

impl Ctx<'_> {
    /// Lowers an arithmetic instruction; the flags it leaves in `P`.
    pub(super) fn arith(&self, i: usize, cpu_carry: bool, a: &mut Asm) -> Result<Core, TranslateError> {
        let insn = self.insns[i];
        let live = self.live_after(i);
        let need = live & flags::defs(&insn);
        let (d, rr, k) = (insn.d, insn.r, insn.k);
        let (rd, rs) = (r(d), r(rr));
        let mut kind = Kind::None;
        let arith = |inv, chain| Kind::Arith { inv, chain };
        match insn.op {
            Op::Add => {
                if d == rr && need & V == 0 {
                    a.b(ASL_ZP, rd);
                } else {
                    a.i(CLC).b(LDA_ZP, rd).b(ADC_ZP, rs).b(STA_ZP, rd);
                }
                kind = arith(false, false);
            }
            Op::Adc => {
                if !cpu_carry {
                    carry_in(a, false);
                }
                if d == rr && need & V == 0 {
                    a.b(ROL_ZP, rd);
                } else {
                    a.b(LDA_ZP, rd).b(ADC_ZP, rs).b(STA_ZP, rd);
                }
                kind = arith(false, false);
            }
            Op::Sub => {
                if d == rr {
                    // `sub r, r` is 0 whatever r holds, and the liveness counts no read of
                    // r: a value of r in A only may never have been stored (the fuzzer's
                    // seed 0x2dcc9b). Carry clear (set inverted), Z set, N and V clear.
                    a.i(SEC);
                    if need & V != 0 {
                        a.i(CLV);
                    }
                    a.b(LDA_IMM, 0).b(STA_ZP, rd);
                } else {
                    a.i(SEC).b(LDA_ZP, rd).b(SBC_ZP, rs).b(STA_ZP, rd);
                }
                kind = arith(true, false);
            }
            Op::Sbc => {
                if !cpu_carry {
                    carry_in(a, true);
                }
                a.b(LDA_ZP, rd).b(SBC_ZP, rs).b(STA_ZP, rd);
                kind = arith(true, true);
            }
            Op::Subi => {
                if let Some(consumed) = self.plus_one(i, a) {
                    return Ok(Core::Done(consumed));
                }
                a.i(SEC).b(LDA_ZP, rd);
                self.imm(i, a, SBC_IMM)?;
                a.b(STA_ZP, rd);
                kind = arith(true, false);
            }
            Op::Sbci => {
                if !cpu_carry {
                    carry_in(a, true);
                }
                a.b(LDA_ZP, rd);
                self.imm(i, a, SBC_IMM)?;
                a.b(STA_ZP, rd);
                kind = arith(true, true);
            }
            Op::Cp | Op::Cpi => {
                // An operand set by an `ldi` just before is compared as an immediate
                // (`Ctx::compare_operands`).
                if need & CZNV != 0 {
                    if need & V != 0 {
                        a.i(SEC);
                        self.compare_operands(i, a, SBC_ZP, SBC_IMM)?;
                    } else {
                        self.compare_operands(i, a, CMP_ZP, CMP_IMM)?;
                    }
                    kind = arith(true, false);
                }
            }
            Op::Cpc => {
                if need & CZNV != 0 {
                    if !cpu_carry {
                        carry_in(a, true);
                    }
                    self.compare_operands(i, a, SBC_ZP, SBC_IMM)?;
                    kind = arith(true, true);
                }
            }
            Op::Neg => {
                a.i(SEC).b(LDA_IMM, 0).b(SBC_ZP, rd).b(STA_ZP, rd);
                kind = arith(true, false);
            }
            Op::Inc => {
                a.b(INC_ZP, rd);
                kind = Kind::IncDec { reg: rd, v: 0x80 };
            }
            Op::Dec => {
                a.b(DEC_ZP, rd);
                kind = Kind::IncDec { reg: rd, v: 0x7F };
            }
            Op::Adiw | Op::Sbiw => {
                let add = insn.op == Op::Adiw;
                if need & CZNV == 0 && k == 1 {
                    // Counters and pointers: step by one.
                    if add {
                        a.b(INC_ZP, rd).b(BNE, 2).b(INC_ZP, rd + 1);
                    } else {
                        a.b(LDA_ZP, rd).b(BNE, 2).b(DEC_ZP, rd + 1).b(DEC_ZP, rd);
                    }
                } else if need & CZNV == 0 {
                    a.b(LDA_ZP, rd).i(if add { CLC } else { SEC });
                    a.b(if add { ADC_IMM } else { SBC_IMM }, k as u8).b(STA_ZP, rd);
                    a.b(if add { BCC } else { BCS }, 2).b(if add { INC_ZP } else { DEC_ZP }, rd + 1);
                } else {
                    let (o_imm, o) = if add { (ADC_IMM, CLC) } else { (SBC_IMM, SEC) };
                    a.i(o).b(LDA_ZP, rd).b(o_imm, k as u8).b(STA_ZP, rd);
                    a.b(LDA_ZP, rd + 1).b(o_imm, 0).b(STA_ZP, rd + 1);
                    kind = Kind::Wide { lo: rd, inv: !add };
                }
            }
            // A signed multiply whose high byte and flags nothing reads is the unsigned one:
            // the low byte of a product is the same either way (LLVM's 16-bit multiply
            // takes the cross products' low bytes with `muls`, then clears r1).
            Op::Mul | Op::Muls | Op::Mulsu
                if self.optimise
                    && (insn.op == Op::Mul || (need == 0 && self.saves.live.live_out[i] & (1 << 1) == 0))
                    && let Some((x, k)) = self.constant_operand(i)
                    && crate::avr_rewrites::const_mul::mul8_by(a, x, k) =>
            {
                kind = Kind::Mul { fmul: false };
            }
            Op::Mul | Op::Muls | Op::Mulsu | Op::Fmul | Op::Fmuls | Op::Fmulsu => {
                a.b(LDA_ZP, rd).b(STA_ZP, temp(0)).b(LDA_ZP, rs).b(STA_ZP, temp(1));
                // The same for a multiply by a variable: the unsigned routine, without the
                // signed one's corrections of the high byte (vm's and sort's 16-bit
                // products; a program with no other signed multiply drops Mul8s).
                let low_byte_only = self.optimise && need == 0 && self.saves.live.live_out[i] & (1 << 1) == 0;
                let rt = match insn.op {
                    Op::Mul | Op::Fmul => Routine::Mul8u,
                    Op::Muls | Op::Mulsu if low_byte_only => Routine::Mul8u,
                    Op::Muls | Op::Fmuls => Routine::Mul8s,
                    _ => Routine::Mul8su,
                };
                a.to(JSR, rt.label());
                let fmul = matches!(insn.op, Op::Fmul | Op::Fmuls | Op::Fmulsu);
                if fmul {
                    a.b(ASL_ZP, r(0)).b(ROL_ZP, r(1));
                }
                kind = Kind::Mul { fmul };
            }
            _ => return Err(self.err(i, "not an arithmetic instruction (the dispatch in Ctx::lower sent it here)")),
        }
        Ok(Core::Flags(kind))
    }

    /// For a `mul` at `i` with one operand a known constant ([`Ctx::consts`]): the other
    /// operand and the constant ([`crate::avr_rewrites::const_mul`]).
    fn constant_operand(&self, i: usize) -> Option<(u8, u8)> {
        let insn = self.insns[i];
        let known = |r: u8| self.consts.before(i, r);
        known(insn.r).map(|k| (insn.d, k)).or_else(|| known(insn.d).map(|k| (insn.r, k)))
    }
}
