//! Lowering of the instructions that move bytes: register copies and constants, loads and
//! stores, the stack, and the SP and SREG ports.

use super::*;

impl Ctx<'_> {
    /// Lowers a move, load, store, push, pop, `in` or `out`; what it folded, if anything.
    pub(super) fn moves(&self, i: usize, a: &mut Asm) -> Result<Core, TranslateError> {
        let insn = self.insns[i];
        let (d, rr, k) = (insn.d, insn.r, insn.k);
        let (rd, rs) = (r(d), r(rr));
        match insn.op {
            Op::Mov => {
                if let Some(consumed) = self.indexed_load(i, a)? {
                    return Ok(Core::Done(consumed));
                }
                // A copy to itself (left by a rename of data_copies) changes nothing, not
                // even a flag.
                if rs == rd {
                } else if rr == 1 && self.optimise && self.r1_zero[i] {
                    // `mov r24, r1` is LLVM's way to write a zero: an immediate is a cycle
                    // less than the zero register's byte, and the clean-ups know A is 0.
                    a.b(LDA_IMM, 0).b(STA_ZP, rd);
                } else {
                    a.b(LDA_ZP, rs).b(STA_ZP, rd);
                }
            }
            Op::Movw => {
                if let Some(consumed) = self.copy_plus_constant(i, a)? {
                    return Ok(Core::Done(consumed));
                }
                if rs != rd {
                    a.b(LDA_ZP, rs).b(STA_ZP, rd).b(LDA_ZP, rs + 1).b(STA_ZP, rd + 1);
                }
            }
            Op::Ldi => {
                self.imm(i, a, LDA_IMM)?;
                a.b(STA_ZP, rd);
            }
            Op::Ld(p, mode) | Op::St(p, mode) => {
                let pr = match self.copies[i] {
                    crate::avr_rewrites::ptr_copies::Copy::Through(src) => r(src),
                    _ => r(p.reg()),
                };
                if mode == Mode::PreDec {
                    a.b(LDA_ZP, pr).b(BNE, 2).b(DEC_ZP, pr + 1).b(DEC_ZP, pr);
                }
                let q = if mode == Mode::Disp { k as u8 } else { 0 };
                if matches!(insn.op, Op::Ld(..)) {
                    a.b(LDY_IMM, q).b(LDA_IZY, pr).b(STA_ZP, rd);
                } else {
                    a.b(LDA_ZP, rd).b(LDY_IMM, q).b(STA_IZY, pr);
                }
                if mode == Mode::PostInc {
                    a.b(INC_ZP, pr).b(BNE, 2).b(INC_ZP, pr + 1);
                }
            }
            Op::Lds => {
                self.abs(i, a, LDA_ABS)?;
                a.b(STA_ZP, rd);
            }
            Op::Sts => {
                a.b(LDA_ZP, rd);
                self.abs(i, a, STA_ABS)?;
            }
            Op::Push | Op::Pop => {
                // Prologues push r2, r3, ... and epilogues pop them back in reverse: a run
                // of two or more becomes one call.
                let n = self.stack_run(i, |m, _| {
                    !(self.saves.dropped[m] && !(self.keep_stack && insn.op == Op::Push))
                        && self.saves.slot_of[m].is_none()
                });
                if n >= 2 {
                    if insn.op == Op::Pop && d == 17 {
                        a.b(LDA_IMM, n as u8).to(JSR, Routine::PopRun17.label());
                    } else {
                        let rt = if insn.op == Op::Push { Routine::PushRun } else { Routine::PopRun };
                        a.b(LDX_IMM, rd).b(LDA_IMM, n as u8).to(JSR, rt.label());
                    }
                    return Ok(Core::Done(n - 1));
                }
                if insn.op == Op::Push {
                    a.b(LDA_ZP, rd).to(JSR, Routine::Push.label());
                } else {
                    a.to(JSR, Routine::Pop.label()).b(STA_ZP, rd);
                }
            }
            Op::In
                if (k == 0x3D || k == 0x3E)
                    && let Some(base) = self.static_frame(i) =>
            {
                let part = if k == 0x3D { Part::Lo } else { Part::Hi };
                a.items.push(Item::Ins(LDA_IMM, base.operand(part, -1)));
                a.b(STA_ZP, rd);
            }
            // A static frame's function never moves SP.
            Op::Out if (k == 0x3D || k == 0x3E) && self.static_frame(i).is_some() => {}
            Op::In => match k {
                0x3D => {
                    a.b(LDA_ZP, SPL).b(STA_ZP, rd);
                }
                0x3E => {
                    a.b(LDA_ZP, SPH).b(STA_ZP, rd);
                }
                // SREG in AVR layout (I reads as 0: no AVR interrupts here). A save that
                // is restored unchanged is inert and costs nothing.
                0x3F if self.flags.inert[i] => {}
                0x3F => {
                    a.to(JSR, Routine::SregRead.label()).b(STA_ZP, rd);
                }
                _ => return Err(self.err(i, "only the I/O ports SP and SREG exist on the C128")),
            },
            Op::Out => match k {
                0x3D => {
                    a.b(LDA_ZP, rd).b(STA_ZP, SPL);
                }
                0x3E => {
                    a.b(LDA_ZP, rd).b(STA_ZP, SPH);
                }
                0x3F if self.flags.inert[i] => {}
                0x3F => {
                    a.b(LDA_ZP, rd).to(JSR, Routine::SregWrite.label());
                }
                _ => return Err(self.err(i, "only the I/O ports SP and SREG exist on the C128")),
            },
            _ => return Err(self.err(i, "not a move (the dispatch in Ctx::lower sent it here)")),
        }
        Ok(Core::Flags(Kind::None))
    }

    /// How many pushes (or pops) from `i` on make one run: each after the first joined to
    /// the one before ([`Ctx::fusion`]), left to the lowering by the frame plan, of the
    /// next register up (pushes) or down (pops), at most 32, and accepted by `fits(m, n)`
    /// (instruction `m`, the `n`th after `i`). The prologue's and epilogue's run calls and
    /// the save loops ([`Ctx::save_loop`]) differ only in `fits`.
    fn stack_run(&self, i: usize, fits: impl Fn(usize, usize) -> bool) -> usize {
        let insn = self.insns[i];
        let step: i16 = if insn.op == Op::Push { 1 } else { -1 };
        let mut n = 1usize;
        while let Some(next) = self.insns.get(i + n)
            && self.fusion.joins(i + n)
            && self.frames.slots[i + n] == crate::frames::frame_slots::Action::Keep
            && next.op == insn.op
            && i16::from(next.d) == i16::from(insn.d) + step * n as i16
            && fits(i + n, n)
            && n < 32
        {
            n += 1;
        }
        n
    }

    /// A run of three or more saves to static slots (or restores from them) of registers
    /// one after another, whose slots lie one after another too: one 6502 loop over the
    /// run (`LDX #n-1; LDA from,X; STA to,X; DEX; BPL`, 9 bytes in zero page, 10 with the
    /// slots in absolute memory) instead of an `LDA`/`STA` pair for each register (4 or 5
    /// bytes each). A prologue that saves r2..r17 takes 9 bytes instead of 64, for 7
    /// cycles more a register, so only in a function whose calls afford them
    /// ([`Ctx::amortised`]: entered a bounded number of times, or with a loop of its own).
    /// Writes the loop and returns how many instructions after `i` it took, 0 when there
    /// is no such run (nothing is written then).
    pub(super) fn save_loop(&self, i: usize, a: &mut Asm) -> usize {
        let insn = self.insns[i];
        let Some(first_slot) = self.saves.slot_of[i] else { return 0 };
        if !self.flow.func_of[i].is_some_and(|f| self.amortised[f]) {
            return 0;
        }
        // Pushes go up the registers and pops come back down; the slots follow.
        let step: i64 = if insn.op == Op::Push { 1 } else { -1 };
        let at = |n: usize, base: i64| base + step * n as i64;
        let home = |slot: u32| self.zp_homes.of(ZpSlot::Save(slot));
        let n = self.stack_run(i, |m, n| {
            !self.saves.dropped[m]
                && self.saves.slot_of[m].is_some_and(|slot| {
                    i64::from(slot) == at(n, i64::from(first_slot))
                        && match home(first_slot) {
                            Some(zp) => home(slot).map(i64::from) == Some(at(n, i64::from(zp))),
                            None => home(slot).is_none(),
                        }
                })
        });
        if n < 3 {
            return 0;
        }
        // The loop counts down from the run's last register to its first: index 0 is the
        // lowest register and the lowest slot.
        let low = (n - 1) as u32 * u32::from(insn.op == Op::Pop);
        let (reg, slot) = (insn.d - low as u8, first_slot - low);
        let registers = Item::Ins(if insn.op == Op::Push { LDA_ZPX } else { STA_ZPX }, Arg::Byte(r(reg)));
        let slots = match home(slot) {
            Some(zp) => Item::Ins(if insn.op == Op::Push { STA_ZPX } else { LDA_ZPX }, Arg::Byte(zp)),
            None => {
                Item::Ins(if insn.op == Op::Push { STA_ABX } else { LDA_ABX }, Arg::Sym(Sym::Bss(slot), Part::Word, 0))
            }
        };
        let (load, store) = if insn.op == Op::Push { (registers, slots) } else { (slots, registers) };
        // Back over the load, the store, `DEX` and the branch itself.
        let body = mos_asm::link::size(&load, false) + mos_asm::link::size(&store, false) + 1 + 2;
        a.b(LDX_IMM, (n - 1) as u8);
        a.items.push(load);
        a.items.push(store);
        a.i(DEX).b(BPL, (body as u8).wrapping_neg());
        n - 1
    }
}
