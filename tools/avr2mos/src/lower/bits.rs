//! Lowering of the logic instructions, shifts, nibble swap and single-bit operations (on
//! registers, on SREG bits and on T).

use super::*;

impl Ctx<'_> {
    /// LLVM's shift by 4 through `swap` ([`crate::analysis::fusion::nibble_shape`]) as four
    /// 6502 shifts, where the fusion map lets it fold and no flag is read after it: 8 bytes
    /// and 14 cycles for a byte instead of 13 bytes and about 40 with the nibble swap's
    /// call, 16 bytes and 40 cycles for a pair instead of about 30 bytes and 90 cycles, and
    /// 8 bytes and 20 cycles more for each byte after.
    /// The instructions it took after the `swap`, or `None`.
    fn nibble_shift(&self, i: usize, a: &mut Asm) -> Option<usize> {
        use crate::analysis::fusion::nibble_shape;
        if !self.optimise {
            return None;
        }
        let shift = nibble_shape(self.insns, i, |m| self.prog.text_relocs.contains_key(&self.flow.addrs[m]))?;
        let n = shift.folded;
        if !self.folds(i, n) || self.live_after(i + n) & CZNV != 0 {
            return None;
        }
        for &(d, y) in &shift.copies[..shift.moves] {
            a.b(LDA_ZP, r(y)).b(STA_ZP, r(d));
        }
        let high_first = &shift.high_first[..shift.bytes];
        match (shift.left, high_first) {
            (left, &[d]) => {
                let o = if left { ASL_A } else { LSR_A };
                a.b(LDA_ZP, r(d)).i(o).i(o).i(o).i(o).b(STA_ZP, r(d));
            }
            (true, _) => {
                for _ in 0..4 {
                    let mut o = ASL_ZP;
                    for &d in high_first.iter().rev() {
                        a.b(o, r(d));
                        o = ROL_ZP;
                    }
                }
            }
            (false, _) => {
                for _ in 0..4 {
                    let mut o = LSR_ZP;
                    for &d in high_first {
                        a.b(o, r(d));
                        o = ROR_ZP;
                    }
                }
            }
        }
        Some(n)
    }

    /// LLVM's shift by a variable amount ([`crate::analysis::fusion::shift_loop_shape`]:
    /// `L: dec c; brmi X; <steps>; rjmp L`) as a 6502 loop that counts in X, where the
    /// fusion map lets it fold and no flag is read where it leaves. A byte shifted alone is
    /// shifted in A: `LDX c; LDA v; DEX; BMI +4; ASL A; DEX; BPL -4; STA v`, 7 cycles a
    /// round instead of 15 (and 6 more than the AVR's loop when it makes none), for 4 bytes
    /// more; a number of several bytes is shifted where it is, and counting in X instead of
    /// `DEC c` and a `JMP` takes 5 cycles a round instead of 10 (the same when it makes
    /// none), for 1 byte more. The counter is stored back only where it is read after the
    /// loop. Only in hot code: a shift that runs a bounded number of times keeps its bytes.
    /// The instructions it took after the `dec`, or `None`.
    pub(super) fn shift_loop(&self, i: usize, a: &mut Asm) -> Option<usize> {
        use crate::analysis::fusion::{Step, shift_loop_shape};
        // Where the loop is itself in no other loop of a function entered a bounded number
        // of times, it runs a bounded number of times: the bytes count for more there.
        if !self.optimise || self.heat[i] != crate::analysis::cold::Heat::Hot {
            return None;
        }
        let shift = shift_loop_shape(self.insns, &self.flow.addrs, i)?;
        let n = shift.folded();
        if !self.folds(i, n) || self.live_after(i + 1) & CZNV != 0 {
            return None;
        }
        let exit = i + n + 1;
        let single = shift.single();
        if let Some(d) = single
            && shift.steps[..shift.len] == [(Step::Left, d)]
            && !self.read_at(exit, shift.counter)
            && self.entered_holding(i, i + n, d) == Some(1)
        {
            // `1 << n` on a byte: a table for n below 8, the way taken first. The AVR's
            // loop makes n rounds for n up to 128, giving 0 from 8 on, and none from 129
            // on, where the byte keeps its 1: the carry of `CPX #$81` rolled into a 0. The
            // `ROL` leaves the carry clear, so the `BCC` after it always skips the table.
            a.b(LDX_ZP, r(shift.counter)).b(CPX_IMM, 8).b(BCC, 7);
            a.b(LDA_IMM, 0).b(CPX_IMM, 0x81).i(ROL_A).b(BCC, 3);
            a.to(LDA_ABX, Routine::Pow2.label()).b(STA_ZP, r(d));
            return Some(n);
        }
        let mut body = Asm::default();
        for &(step, d) in &shift.steps[..shift.len] {
            match (step, single) {
                (Step::Left, Some(_)) => body.i(ASL_A),
                (Step::LeftCarry, Some(_)) => body.i(ROL_A),
                (Step::Right, Some(_)) => body.i(LSR_A),
                (Step::RightCarry, Some(_)) => body.i(ROR_A),
                // Bit 7 into the carry, then back in at the top.
                (Step::RightSigned, Some(_)) => body.b(CMP_IMM, 0x80).i(ROR_A),
                (Step::Left, None) => body.b(ASL_ZP, r(d)),
                (Step::LeftCarry, None) => body.b(ROL_ZP, r(d)),
                (Step::Right, None) => body.b(LSR_ZP, r(d)),
                (Step::RightCarry, None) => body.b(ROR_ZP, r(d)),
                (Step::RightSigned, None) => body.b(LDA_ZP, r(d)).i(ASL_A).b(ROR_ZP, r(d)),
            };
        }
        let size: usize = body.items.iter().map(|it| usize::from(mos_asm::link::size(it, false))).sum();
        a.b(LDX_ZP, r(shift.counter));
        if let Some(d) = single {
            a.b(LDA_ZP, r(d));
        }
        // Over the rounds: their steps, `DEX` and the branch back.
        a.i(DEX).b(BMI, (size + 3) as u8);
        a.items.extend(body.items);
        a.i(DEX).b(BPL, ((size + 3) as u8).wrapping_neg());
        if let Some(d) = single {
            a.b(STA_ZP, r(d));
        }
        if self.read_at(exit, shift.counter) {
            a.b(STX_ZP, r(shift.counter));
        }
        Some(n)
    }

    /// The constant register `d` holds on every way into the loop at `head` other than its
    /// own jump back from `back`: the loop is entered only by falling in from the
    /// instruction before, which transfers no control and either loads `d` with a constant
    /// (`ldi`, not an address's byte) or leaves it as it was.
    fn entered_holding(&self, head: usize, back: usize, d: u8) -> Option<u8> {
        let before = head.checked_sub(1)?;
        let prev = self.insns[before];
        let transfers =
            transfers_control(prev.op) || matches!(prev.op, Op::Brbs | Op::Brbc | Op::Cpse | Op::Sbrc | Op::Sbrs);
        // Control reaches an instruction from its own function only (`succs`), or as an entry.
        let f = self.flow.func_of[head]?;
        let other_way = self.flow.entries[head]
            || self.flow.func_of[before] != Some(f)
            || self.flow.ranges[f].clone().any(|m| m != before && m != back && self.flow.succs[m].contains(&head));
        if transfers || other_way {
            return None;
        }
        match prev.op {
            Op::Ldi if prev.d == d => {
                (!self.prog.text_relocs.contains_key(&self.flow.addrs[before])).then_some(prev.k as u8)
            }
            _ if crate::analysis::liveness::defs_of(&prev) & (1 << d) != 0 => None,
            _ => self.consts.before(before, d),
        }
    }

    /// Whether register `reg` may be read from instruction `at` on: live there under the
    /// calling convention, or `at` is a call, a return or a jump (taken to read it).
    fn read_at(&self, at: usize, reg: u8) -> bool {
        transfers_control(self.flow.insns[at].op) || self.live_abi.live_in[at] & (1 << reg) != 0
    }

    /// Lowers a logic, shift or bit instruction; the flags it leaves in `P`.
    pub(super) fn bits(&self, i: usize, cpu_carry: bool, a: &mut Asm) -> Result<Core, TranslateError> {
        let insn = self.insns[i];
        let live = self.live_after(i);
        let need = live & flags::defs(&insn);
        let (d, rr, k) = (insn.d, insn.r, insn.k);
        let (rd, rs) = (r(d), r(rr));
        let mut kind = Kind::None;
        match insn.op {
            Op::And | Op::Or | Op::Eor => {
                if insn.op == Op::Eor && d == rr {
                    a.b(LDA_IMM, 0).b(STA_ZP, rd);
                } else if d == rr {
                    if need != 0 {
                        a.b(LDA_ZP, rd);
                    }
                } else {
                    let o = match insn.op {
                        Op::And => AND_ZP,
                        Op::Or => ORA_ZP,
                        _ => EOR_ZP,
                    };
                    a.b(LDA_ZP, rd).b(o, rs).b(STA_ZP, rd);
                }
                kind = Kind::Logic;
            }
            Op::Andi if k == 0 && self.reloc_sym(i, self.flow.addrs[i])?.is_none() => {
                a.b(LDA_IMM, 0).b(STA_ZP, rd);
                kind = Kind::Logic;
            }
            Op::Andi | Op::Ori => {
                a.b(LDA_ZP, rd);
                self.imm(i, a, if insn.op == Op::Andi { AND_IMM } else { ORA_IMM })?;
                a.b(STA_ZP, rd);
                kind = Kind::Logic;
            }
            Op::Com => {
                a.b(LDA_ZP, rd).b(EOR_IMM, 0xFF).b(STA_ZP, rd);
                kind = Kind::Com;
            }
            Op::Swap => {
                if let Some(consumed) = self.nibble_shift(i, a) {
                    return Ok(Core::Done(consumed));
                }
                a.b(LDA_ZP, rd).to(JSR, Routine::SwapA.label()).b(STA_ZP, rd);
            }
            Op::Asr => {
                a.b(LDA_ZP, rd).b(CMP_IMM, 0x80).i(ROR_A).b(STA_ZP, rd);
                kind = Kind::Shift;
            }
            Op::Lsr => {
                a.b(LSR_ZP, rd);
                kind = Kind::Shift;
            }
            Op::Ror => {
                if !cpu_carry {
                    carry_in(a, false);
                }
                a.b(ROR_ZP, rd);
                kind = Kind::Shift;
            }
            Op::Bset | Op::Bclr => {
                let set = insn.op == Op::Bset;
                match rr {
                    0..=3 => {
                        let bit = flags::sreg_bit(rr).unwrap_or(0);
                        a.b(LDA_ZP, FLAGS);
                        if set {
                            a.b(ORA_IMM, bit);
                        } else {
                            a.b(AND_IMM, !bit);
                        }
                        a.b(STA_ZP, FLAGS);
                    }
                    6 => {
                        a.b(LDA_IMM, u8::from(set)).b(STA_ZP, TFLAG);
                    }
                    // H is never read (brhs/brhc are rejected); I has no meaning here.
                    5 | 7 => {}
                    _ => return Err(self.err(i, "setting S directly is not supported")),
                }
            }
            Op::Bst => {
                if live & T != 0 {
                    a.b(LDA_ZP, rd).b(AND_IMM, 1 << rr).b(STA_ZP, TFLAG);
                }
            }
            Op::Bld => {
                a.b(LDA_ZP, rd).b(AND_IMM, !(1u8 << rr)).b(LDX_ZP, TFLAG).b(BEQ, 2);
                a.b(ORA_IMM, 1 << rr).b(STA_ZP, rd);
            }
            _ => {
                return Err(
                    self.err(i, "not a logic, shift or bit instruction (the dispatch in Ctx::lower sent it here)")
                );
            }
        }
        Ok(Core::Flags(kind))
    }
}
