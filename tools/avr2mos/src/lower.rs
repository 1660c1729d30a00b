//! Lowering of one AVR instruction to 6502 code.
//!
//! The model: AVR registers live in zero page ([`crate::mmap`]); A, X and Y are scratch
//! between AVR instructions. Flags are stored in the flags byte in 6502 `P` layout, only
//! when a later instruction reads them ([`crate::flags`]): the core sequence of an
//! instruction leaves the 6502 flags equal to the AVR ones (the carry inverted after a
//! subtraction, because the 6502 carry means "no borrow"), `PHP`/`PLA` captures them, and
//! small fix-ups give the flags the 6502 computes differently (V of shifts and
//! increments, Z of `cpc`/`sbc` chains and of `adiw`/`sbiw`).
//!
//! Calls are `JSR`s; a function that reads SP moves SP down by 2 on entry and up by 2 on
//! return, so its stack arguments sit where the AVR code expects them, above a 2-byte
//! return address.

use std::collections::HashMap;

use crate::asm::{Arg, Asm, Item, Label, Part, Sym, op::*};
use crate::decode::{Insn, Mode, Op};
use crate::error::TranslateError;
use crate::flags::{self, C, CZNV, FlagSet, T, V, Z};
use crate::mmap::{FLAGS, SPH, SPL, TFLAG, reg, temp};
use crate::program::{AvrProgram, RelocKind, Target};
use crate::runtime::Routine;
use crate::specialise;

/// Everything the lowering needs to know about the whole program.
#[derive(Debug)]
pub struct Ctx<'a> {
    /// The program being translated.
    pub prog: &'a AvrProgram,
    /// Byte address of each instruction.
    pub addrs: &'a [u32],
    /// The decoded instructions.
    pub insns: &'a [Insn],
    /// Instruction index by address.
    pub index: &'a HashMap<u32, usize>,
    /// Index of the function containing each instruction.
    pub func_of: &'a [Option<usize>],
    /// Function index by start address.
    pub func_starts: &'a HashMap<u32, usize>,
    /// Whether each function keeps the 2-byte return address footprint on the AVR stack.
    pub adjusts: &'a [bool],
    /// Flags live after each instruction.
    pub live_out: &'a [FlagSet],
    /// Whether each instruction can be reached other than from the one before it.
    pub is_target: &'a [bool],
    /// SREG saves and restores that change nothing ([`flags::inert_sreg_pairs`]).
    pub inert: &'a [bool],
    /// Whether each function is interpreted ([`crate::interp`]): only its first
    /// instruction has a 6502 label (the stub).
    pub interp: &'a [bool],
    /// [`crate::OptLevel::Full`]: fuse across moves and specialise runtime calls.
    pub optimise: bool,
    /// Each function's static frame ([`crate::frames`]): where its first byte is;
    /// `in r28/r29, SP` load that address less one instead of SP.
    pub frames: &'a [Option<crate::frames::FrameBase>],
    /// The prologue subtractions of static frames, which have nothing left to do.
    pub frame_set_up: &'a [bool],
    /// What becomes of each instruction of a static frame's function whose Y is followed
    /// ([`crate::frame_slots`]).
    pub slots: &'a [crate::frame_slots::Action],
    /// Prologue pushes and epilogue pops of saves no caller needs ([`crate::saves`]).
    pub dropped_saves: &'a [bool],
    /// The static slot (a data address) of a save's push or pop ([`crate::saves`]).
    pub save_slots: &'a [Option<u32>],
    /// Keep SP as the AVR has it (the lockstep setting): a left-out save is still pushed,
    /// and its pops only move SP back, so stack addresses agree with the simulator's.
    pub keep_stack: bool,
    /// Pointer copies that go and the loads and stores that use their source instead
    /// ([`crate::ptr_copies`]).
    pub copies: &'a [crate::ptr_copies::Copy],
}

/// The label of instruction `i`.
pub fn insn_label(i: usize) -> Label {
    Label(i as u32)
}

/// How the core sequence of an instruction leaves the AVR flags in the 6502 `P`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    /// No flags.
    None,
    /// C, Z, N, V in `P`; carry inverted if `inv`; Z must be and-ed with the old Z if
    /// `chain` (`cpc`, `sbc`, `sbci`).
    Arith { inv: bool, chain: bool },
    /// Z and N in `P`; V is 0.
    Logic,
    /// Z and N in `P`; V is 0, C is 1.
    Com,
    /// C, Z, N in `P`; V = N xor C.
    Shift,
    /// Z, N in `P`; V = (register == value).
    IncDec { reg: u8, v: u8 },
    /// C, N, V in `P` (high byte); Z also needs the low byte zero; carry inverted if `inv`.
    Wide { lo: u8, inv: bool },
    /// C = bit 15 of r1:r0 (or the carry out of `fmul`'s shift), Z = r1:r0 == 0.
    Mul { fmul: bool },
}

fn r(n: u8) -> u8 {
    reg(n)
}

/// Emits the code that stores the live flags the instruction defines into the flags byte.
fn capture(a: &mut Asm, kind: Kind, defs: FlagSet, live: FlagSet) {
    let need = live & defs & CZNV;
    let keep = live & !defs & CZNV;
    if need == 0 || kind == Kind::None {
        return;
    }
    match kind {
        Kind::Logic if need & V != 0 => {
            a.i(CLV);
        }
        Kind::Com => {
            if need & V != 0 {
                a.i(CLV);
            }
            if need & C != 0 {
                a.i(SEC);
            }
        }
        _ => {}
    }
    if let Kind::Mul { fmul } = kind {
        if !fmul {
            a.b(LDA_ZP, r(1)).i(ASL_A);
        }
        a.b(LDA_IMM, 0).i(ROL_A).b(STA_ZP, temp(2)).b(LDA_ZP, r(0)).b(ORA_ZP, r(1));
        a.i(PHP).i(PLA).b(AND_IMM, 0xFE).b(ORA_ZP, temp(2));
    } else {
        a.i(PHP).i(PLA);
    }
    match kind {
        Kind::Arith { inv: true, .. } | Kind::Wide { inv: true, .. } if need & C != 0 => {
            a.b(EOR_IMM, 0x01);
        }
        _ => {}
    }
    match kind {
        Kind::Shift if need & V != 0 => {
            // V = N xor C: N is bit 7 of A (PLA set the 6502 N from it), C is still the
            // 6502 carry.
            a.b(AND_IMM, 0xBF).b(BPL, 2).b(EOR_IMM, 0x40).b(BCC, 2).b(EOR_IMM, 0x40);
        }
        Kind::IncDec { reg, v } if need & V != 0 => {
            a.b(AND_IMM, 0xBF).b(LDX_ZP, reg).b(CPX_IMM, v).b(BNE, 2).b(ORA_IMM, 0x40);
        }
        Kind::Wide { lo, .. } if need & Z != 0 => {
            a.b(LDX_ZP, lo).b(BEQ, 2).b(AND_IMM, 0xFD);
        }
        Kind::Arith { chain: true, .. } if need & Z != 0 => {
            a.b(STA_ZP, temp(0)).b(LDA_ZP, FLAGS).b(ORA_IMM, 0xFD).b(AND_ZP, temp(0));
        }
        _ => {}
    }
    if keep != 0 {
        a.b(EOR_ZP, FLAGS).b(AND_IMM, !keep).b(EOR_ZP, FLAGS);
    }
    a.b(STA_ZP, FLAGS);
}

/// The result of lowering one instruction.
#[derive(Debug, Clone)]
pub struct Lowered {
    /// The code.
    pub asm: Asm,
    /// How many following instructions were folded into this one (their code is empty).
    pub consumed: usize,
    /// The AVR carry is in the 6502 carry at the end (inverted for subtraction chains),
    /// for the next instruction, which reads it.
    pub carry_out: bool,
}

/// Whether the 6502 carry holds the AVR carry after an instruction of this kind, and
/// inverted (`Some(true)`, subtraction) or not.
fn carry_polarity(kind: Kind) -> Option<bool> {
    match kind {
        Kind::Arith { inv, .. } | Kind::Wide { inv, .. } => Some(inv),
        Kind::Shift => Some(false),
        _ => None,
    }
}

/// Whether an instruction reads the carry through the 6502 carry, and inverted or not.
fn consumes_carry(i: &Insn) -> Option<bool> {
    match i.op {
        Op::Adc | Op::Ror => Some(false),
        Op::Sbc | Op::Sbci | Op::Cpc => Some(true),
        _ => None,
    }
}

/// Loads the AVR carry into the 6502 carry (`inv`: inverted, for subtraction).
fn carry_in(a: &mut Asm, inv: bool) {
    a.b(LDA_ZP, FLAGS);
    if inv {
        a.b(EOR_IMM, 1);
    }
    a.i(LSR_A);
}

impl Ctx<'_> {
    pub(crate) fn err(&self, i: usize, why: &str) -> TranslateError {
        TranslateError::Unsupported {
            at: self.prog.locate(self.addrs[i]),
            insn: self.insns[i].to_string(),
            why: why.into(),
        }
    }

    /// The static frame of instruction `i`'s function, if it has one.
    fn static_frame(&self, i: usize) -> Option<crate::frames::FrameBase> {
        self.func_of[i].and_then(|f| self.frames[f])
    }

    /// Emits instruction `i` as [`crate::frame_slots`] decided, if it decided anything:
    /// a slot is an absolute address (a plain `LDA`/`STA`: frames are RAM below the I/O
    /// area), a copy of Y a constant, and what only kept Y up to date nothing.
    fn frame_slot(&self, i: usize, a: &mut Asm) -> bool {
        use crate::frame_slots::{Action, Half};
        let insn = self.insns[i];
        let Some(base) = self.static_frame(i) else { return false };
        let at = |off: u16| base.operand(Part::Word, i32::from(off));
        match self.slots[i] {
            Action::Keep => return false,
            Action::Drop => {}
            Action::Slot(off) if matches!(insn.op, Op::Ld(..)) => {
                a.items.push(Item::Ins(LDA_ABS, at(off)));
                a.b(STA_ZP, r(insn.d));
            }
            Action::Slot(off) => {
                a.b(LDA_ZP, r(insn.d));
                a.items.push(Item::Ins(STA_ABS, at(off)));
            }
            Action::Pointer(off, half) => {
                let off = i32::from(off as i16);
                let parts: &[(Part, u8)] = match half {
                    Half::Word => &[(Part::Lo, insn.d), (Part::Hi, insn.d + 1)],
                    Half::Lo => &[(Part::Lo, insn.d)],
                    Half::Hi => &[(Part::Hi, insn.d)],
                };
                for &(part, d) in parts {
                    a.items.push(Item::Ins(LDA_IMM, base.operand(part, off)));
                    a.b(STA_ZP, r(d));
                }
            }
        }
        true
    }

    fn adjusting(&self, i: usize) -> bool {
        self.func_of[i].is_some_and(|f| self.adjusts[f])
    }

    /// The label of the instruction at `target`, or an error naming instruction `i`. Inside
    /// an interpreted function only the first instruction has a label; only the function
    /// itself may reach the others.
    fn target(&self, i: usize, target: u32) -> Result<Label, TranslateError> {
        let t = *self.index.get(&target).ok_or_else(|| TranslateError::BadTarget {
            at: self.prog.locate(self.addrs[i]),
            insn: self.insns[i].to_string(),
            target,
        })?;
        if self.interp_middle(t) && self.func_of[i] != self.func_of[t] {
            return Err(self.err(i, "reaches the middle of an interpreted function"));
        }
        Ok(insn_label(t))
    }

    /// Whether instruction `t` is inside an interpreted function but not its first.
    pub(crate) fn interp_middle(&self, t: usize) -> bool {
        self.func_of[t].is_some_and(|f| self.interp[f] && self.prog.functions[f].addr != self.addrs[t])
    }

    /// A call or tail-call target: an instruction, or a native routine.
    pub(crate) fn callee(&self, i: usize, target: u32) -> Result<Label, TranslateError> {
        if let Some(name) = self.prog.absolute.get(&target) {
            return match Routine::for_symbol(name) {
                Some(rt) => Ok(rt.label()),
                None => Err(self.err(i, &format!("calls absolute symbol `{name}`, which has no native routine"))),
            };
        }
        self.target(i, target)
    }

    /// A symbolic operand for a relocation of instruction `i` at `offset`, if there is one.
    pub(crate) fn reloc_sym(&self, i: usize, offset: u32) -> Result<Option<(Sym, Part)>, TranslateError> {
        let Some(rel) = self.prog.text_relocs.get(&offset) else {
            return Ok(None);
        };
        let part = match rel.kind {
            RelocKind::Lo8Ldi | RelocKind::Lo8LdiPm => Part::Lo,
            RelocKind::Hi8Ldi | RelocKind::Hi8LdiPm => Part::Hi,
            RelocKind::Lo8LdiNeg => Part::NegLo,
            RelocKind::Hi8LdiNeg => Part::NegHi,
            RelocKind::R16 | RelocKind::LdsSts16 => Part::Word,
            RelocKind::Call | RelocKind::Pcrel7 | RelocKind::Pcrel13 => return Ok(None),
            other => {
                return Err(TranslateError::Relocation {
                    at: self.prog.locate(self.addrs[i]),
                    kind: other.name(),
                    why: format!("not supported on `{}`", self.insns[i]),
                });
            }
        };
        let sym = match &rel.target {
            Target::Data(x) => Sym::Data(*x),
            Target::Bss(x) => Sym::Bss(*x),
            Target::Code(c) => {
                let label = self.target(i, *c)?;
                if self.index.get(c).is_some_and(|&t| self.interp_middle(t)) {
                    return Err(TranslateError::Relocation {
                        at: self.prog.locate(self.addrs[i]),
                        kind: rel.kind.name(),
                        why: "a code address inside an interpreted function (only its start has a 6502 address)".into(),
                    });
                }
                Sym::Code(label)
            }
            Target::Absolute { name, .. } => match Routine::for_symbol(name) {
                Some(rt) => Sym::Code(rt.label()),
                None => return Ok(None),
            },
        };
        Ok(Some((sym, part)))
    }

    fn imm(&self, i: usize, a: &mut Asm, opcode: u8) -> Result<(), TranslateError> {
        match self.reloc_sym(i, self.addrs[i])? {
            Some((sym, part)) => a.s(opcode, sym, part),
            None => a.b(opcode, self.insns[i].k as u8),
        };
        Ok(())
    }

    fn abs(&self, i: usize, a: &mut Asm, opcode: u8) -> Result<(), TranslateError> {
        match self.reloc_sym(i, self.addrs[i] + 2)? {
            Some((sym, Part::Word)) => a.s(opcode, sym, Part::Word),
            Some(_) => return Err(self.err(i, "byte relocation on a 16-bit address")),
            None => a.w(opcode, self.insns[i].k as u16),
        };
        Ok(())
    }

    /// Jump to another function's entry (a tail call): undo this function's stack
    /// adjustment first.
    fn tail(&self, i: usize, a: &mut Asm, target: Label) {
        if self.adjusting(i) {
            a.to(JSR, Routine::Leave.label());
        }
        a.to(JMP, target);
    }

    /// Lowers instruction `i`. `cpu_carry` says that the previous instruction left the
    /// AVR carry in the 6502 carry (see [`Lowered::carry_out`]).
    pub fn lower(&self, i: usize, cpu_carry: bool) -> Result<Lowered, TranslateError> {
        let insn = self.insns[i];
        // Inside an inert SREG save/restore, flags are neither computed nor stored.
        let live = if self.inert[i] { 0 } else { self.live_out[i] };
        let defs = flags::defs(&insn);
        let need = live & defs;
        let (d, rr, k) = (insn.d, insn.r, insn.k);
        let (rd, rs) = (r(d), r(rr));
        let mut a = Asm::default();
        if self.frame_set_up[i] {
            // A static frame's Y is loaded already set up.
            return Ok(Lowered { asm: a, consumed: 0, carry_out: false });
        }
        if self.frame_slot(i, &mut a) {
            return Ok(Lowered { asm: a, consumed: 0, carry_out: false });
        }
        if let Some(f) = self.func_of[i]
            && self.adjusts[f]
            && self.prog.functions[f].addr == self.addrs[i]
        {
            a.to(JSR, Routine::Enter.label());
        }
        if let crate::ptr_copies::Copy::Drop { .. } = self.copies[i] {
            return Ok(Lowered { asm: a, consumed: 0, carry_out: false });
        }
        if self.dropped_saves[i] && !(self.keep_stack && insn.op == Op::Push) {
            if self.keep_stack {
                a.to(JSR, Routine::Pop.label());
            }
            return Ok(Lowered { asm: a, consumed: 0, carry_out: false });
        }
        if let Some(slot) = self.save_slots[i] {
            let at = Arg::Sym(Sym::Bss(slot), Part::Word, 0);
            if insn.op == Op::Push {
                a.b(LDA_ZP, r(insn.d)).items.push(Item::Ins(STA_ABS, at));
            } else {
                a.items.push(Item::Ins(LDA_ABS, at));
                a.b(STA_ZP, r(insn.d));
            }
            return Ok(Lowered { asm: a, consumed: 0, carry_out: false });
        }
        if let Some(consumed) = self.compare_chain(i, &mut a)? {
            return Ok(Lowered { asm: a, consumed, carry_out: false });
        }
        let mut kind = Kind::None;
        let arith = |inv, chain| Kind::Arith { inv, chain };
        match insn.op {
            Op::Nop => {}
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
                    carry_in(&mut a, false);
                }
                if d == rr && need & V == 0 {
                    a.b(ROL_ZP, rd);
                } else {
                    a.b(LDA_ZP, rd).b(ADC_ZP, rs).b(STA_ZP, rd);
                }
                kind = arith(false, false);
            }
            Op::Sub => {
                a.i(SEC).b(LDA_ZP, rd).b(SBC_ZP, rs).b(STA_ZP, rd);
                kind = arith(true, false);
            }
            Op::Sbc => {
                if !cpu_carry {
                    carry_in(&mut a, true);
                }
                a.b(LDA_ZP, rd).b(SBC_ZP, rs).b(STA_ZP, rd);
                kind = arith(true, true);
            }
            Op::Subi => {
                a.i(SEC).b(LDA_ZP, rd);
                self.imm(i, &mut a, SBC_IMM)?;
                a.b(STA_ZP, rd);
                kind = arith(true, false);
            }
            Op::Sbci => {
                if !cpu_carry {
                    carry_in(&mut a, true);
                }
                a.b(LDA_ZP, rd);
                self.imm(i, &mut a, SBC_IMM)?;
                a.b(STA_ZP, rd);
                kind = arith(true, true);
            }
            Op::Cp | Op::Cpi => {
                if need & CZNV != 0 {
                    if need & V != 0 {
                        a.i(SEC).b(LDA_ZP, rd);
                        if insn.op == Op::Cp {
                            a.b(SBC_ZP, rs);
                        } else {
                            a.b(SBC_IMM, k as u8);
                        }
                    } else if insn.op == Op::Cp {
                        a.b(LDA_ZP, rd).b(CMP_ZP, rs);
                    } else {
                        a.b(LDA_ZP, rd).b(CMP_IMM, k as u8);
                    }
                    kind = arith(true, false);
                }
            }
            Op::Cpc => {
                if need & CZNV != 0 {
                    if !cpu_carry {
                        carry_in(&mut a, true);
                    }
                    a.b(LDA_ZP, rd).b(SBC_ZP, rs);
                    kind = arith(true, true);
                }
            }
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
            Op::Andi if k == 0 && self.reloc_sym(i, self.addrs[i])?.is_none() => {
                a.b(LDA_IMM, 0).b(STA_ZP, rd);
                kind = Kind::Logic;
            }
            Op::Andi | Op::Ori => {
                a.b(LDA_ZP, rd);
                self.imm(i, &mut a, if insn.op == Op::Andi { AND_IMM } else { ORA_IMM })?;
                a.b(STA_ZP, rd);
                kind = Kind::Logic;
            }
            Op::Mov => {
                a.b(LDA_ZP, rs).b(STA_ZP, rd);
            }
            Op::Movw => {
                if let Some(consumed) = self.copy_plus_constant(i, &mut a)? {
                    return Ok(Lowered { asm: a, consumed, carry_out: false });
                }
                a.b(LDA_ZP, rs).b(STA_ZP, rd).b(LDA_ZP, rs + 1).b(STA_ZP, rd + 1);
            }
            Op::Ldi => {
                self.imm(i, &mut a, LDA_IMM)?;
                a.b(STA_ZP, rd);
            }
            Op::Com => {
                a.b(LDA_ZP, rd).b(EOR_IMM, 0xFF).b(STA_ZP, rd);
                kind = Kind::Com;
            }
            Op::Neg => {
                a.i(SEC).b(LDA_IMM, 0).b(SBC_ZP, rd).b(STA_ZP, rd);
                kind = arith(true, false);
            }
            Op::Swap => {
                a.b(LDA_ZP, rd).to(JSR, Routine::SwapA.label()).b(STA_ZP, rd);
            }
            Op::Inc => {
                a.b(INC_ZP, rd);
                kind = Kind::IncDec { reg: rd, v: 0x80 };
            }
            Op::Dec => {
                a.b(DEC_ZP, rd);
                kind = Kind::IncDec { reg: rd, v: 0x7F };
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
                    carry_in(&mut a, false);
                }
                a.b(ROR_ZP, rd);
                kind = Kind::Shift;
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
            Op::Mul | Op::Muls | Op::Mulsu | Op::Fmul | Op::Fmuls | Op::Fmulsu => {
                a.b(LDA_ZP, rd).b(STA_ZP, temp(0)).b(LDA_ZP, rs).b(STA_ZP, temp(1));
                let rt = match insn.op {
                    Op::Mul | Op::Fmul => Routine::Mul8u,
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
            Op::Ld(p, mode) | Op::St(p, mode) => {
                let pr = match self.copies[i] {
                    crate::ptr_copies::Copy::Through(src) => r(src),
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
                self.abs(i, &mut a, LDA_ABS)?;
                a.b(STA_ZP, rd);
            }
            Op::Sts => {
                a.b(LDA_ZP, rd);
                self.abs(i, &mut a, STA_ABS)?;
            }
            Op::Push | Op::Pop => {
                // Prologues push r2, r3, ... and epilogues pop them back in reverse: a run
                // of two or more becomes one call.
                let step: i16 = if insn.op == Op::Push { 1 } else { -1 };
                let mut n = 1usize;
                while let Some(next) = self.insns.get(i + n)
                    && !self.is_target[i + n]
                    && self.slots[i + n] == crate::frame_slots::Action::Keep
                    && !(self.dropped_saves[i + n] && !(self.keep_stack && next.op == Op::Push))
                    && self.save_slots[i + n].is_none()
                    && next.op == insn.op
                    && i16::from(next.d) == i16::from(d) + step * n as i16
                    && n < 32
                {
                    n += 1;
                }
                if n >= 2 {
                    let rt = if insn.op == Op::Push { Routine::PushRun } else { Routine::PopRun };
                    a.b(LDX_IMM, rd).b(LDA_IMM, n as u8).to(JSR, rt.label());
                    return Ok(Lowered { asm: a, consumed: n - 1, carry_out: false });
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
                0x3F if self.inert[i] => {}
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
                0x3F if self.inert[i] => {}
                0x3F => {
                    a.b(LDA_ZP, rd).to(JSR, Routine::SregWrite.label());
                }
                _ => return Err(self.err(i, "only the I/O ports SP and SREG exist on the C128")),
            },
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
                if self.func_starts.contains_key(&k) || self.prog.absolute.contains_key(&k) {
                    let l = self.callee(i, k)?;
                    self.tail(i, &mut a, l);
                } else if self.addrs.get(i + 1) != Some(&k) {
                    a.to(JMP, self.target(i, k)?);
                }
            }
            Op::Rcall | Op::Call => {
                if insn.op == Op::Rcall && self.addrs.get(i + 1) == Some(&k) {
                    // `rcall .+0` only reserves two bytes of stack.
                    a.to(JSR, Routine::Enter.label());
                } else if self.optimise
                    && self.prog.absolute.get(&k).and_then(|n| Routine::for_symbol(n)) == Some(Routine::Udivmodqi4)
                    && let Some(c) = specialise::constant_before(self.insns, self.is_target, i, 22, |m| {
                        self.prog.text_relocs.contains_key(&self.addrs[m])
                    })
                    && specialise::udivmodqi4_by(&mut a, c)
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
        }
        // A branch right after (or after moves, when it reads C or V, which loads and
        // stores keep): test the 6502 flags directly.
        if let Some(j) = self.fusable_branch(i) {
            let mut b = Asm::default();
            if self.branch_from_p(&mut b, kind, self.insns[j].r, self.insns[j].op == Op::Brbs, j)? {
                for m in i + 1..j {
                    let l = self.lower(m, false)?;
                    a.items.extend(l.asm.items.into_iter().filter(|it| !matches!(it, Item::Label(_))));
                }
                a.items.extend(b.items);
                return Ok(Lowered { asm: a, consumed: j - i, carry_out: false });
            }
        }
        // A carry chain: leave the carry in the 6502 carry for the next instruction (always
        // between the two halves of an inert frame step, whose flags are never stored).
        let inert_chain = self.inert[i]
            && self.insns.get(i + 1).is_some_and(|n| n.op == Op::Sbci)
            && self.inert.get(i + 1) == Some(&true);
        if (live & CZNV == C || inert_chain)
            && let Some(inv) = carry_polarity(kind)
            && let Some(next) = self.insns.get(i + 1)
            && !self.is_target[i + 1]
            && consumes_carry(next) == Some(inv)
        {
            return Ok(Lowered { asm: a, consumed: 0, carry_out: true });
        }
        capture(&mut a, kind, defs, live);
        Ok(Lowered { asm: a, consumed: 0, carry_out: false })
    }

    /// Whether instruction `m` only moves a byte, as loads and stores (`LDA`/`STA`), which
    /// keep C and V: `ldi`, `mov`, `movw`, and at the full level a load or store of a
    /// static frame's slot ([`crate::frame_slots`]), which is an absolute `LDA`/`STA`.
    fn is_move(&self, m: usize) -> bool {
        let n = self.insns[m];
        match n.op {
            Op::Ldi | Op::Mov | Op::Movw => true,
            Op::Ld(..) | Op::St(..) => {
                self.optimise
                    && self.static_frame(m).is_some()
                    && matches!(self.slots[m], crate::frame_slots::Action::Slot(_))
            }
            _ => false,
        }
    }

    /// The registers move `m` writes (none for a store).
    fn move_writes(&self, m: usize) -> std::ops::Range<u8> {
        let n = self.insns[m];
        match n.op {
            Op::Movw => n.d..n.d + 2,
            Op::St(..) => n.d..n.d,
            _ => n.d..n.d + 1,
        }
    }

    /// The branch after instruction `i` if it can test the flags `i` leaves in `P`: not a
    /// jump target, and no flag live after it. A branch on C or V may come after up to
    /// four moves ([`Ctx::is_move`]: loads and stores, which keep C and V), none of them a
    /// jump target.
    fn fusable_branch(&self, i: usize) -> Option<usize> {
        let mut j = i + 1;
        while j < self.insns.len() && self.is_move(j) && !self.is_target[j] && j - i <= 4 && self.optimise {
            j += 1;
        }
        let b = self.insns.get(j)?;
        let reads_kept_flag = j == i + 1 || matches!(b.r, 0 | 3);
        (matches!(b.op, Op::Brbs | Op::Brbc) && reads_kept_flag && !self.is_target[j] && self.live_out[j] & CZNV == 0)
            .then_some(j)
    }

    /// Emits branch `j` on SREG bit `s` testing the 6502 flags left by an instruction of
    /// `kind`; `false` (and nothing emitted) if `P` does not hold that flag.
    fn branch_from_p(&self, a: &mut Asm, kind: Kind, s: u8, set: bool, j: usize) -> Result<bool, TranslateError> {
        let arith = matches!(kind, Kind::Arith { .. });
        let plain = matches!(
            kind,
            Kind::Arith { chain: false, .. } | Kind::Logic | Kind::Com | Kind::Shift | Kind::IncDec { .. }
        );
        let (if_set, if_clear) = match s {
            0 => match carry_polarity(kind) {
                Some(true) => (BCC, BCS),
                Some(false) => (BCS, BCC),
                None => return Ok(false),
            },
            1 if plain => (BEQ, BNE),
            2 if plain || matches!(kind, Kind::Wide { .. }) => (BMI, BPL),
            3 if arith => (BVS, BVC),
            4 if arith => {
                a.b(BVC, 2).b(EOR_IMM, 0x80);
                (BMI, BPL)
            }
            4 if kind == Kind::Logic => (BMI, BPL),
            _ => return Ok(false),
        };
        let target = self.branch_target(j, self.insns[j].k)?;
        a.br(if set { if_set } else { if_clear }, target);
        Ok(true)
    }

    /// A compare chain (`cp`/`cpi`, then `cpc`s, with moves between: [`Ctx::is_move`]) ending in
    /// a branch that only reads the chain's flags: lowered to the 6502's own multi-byte
    /// compare. Returns the number of instructions folded into `i`.
    fn compare_chain(&self, i: usize, a: &mut Asm) -> Result<Option<usize>, TranslateError> {
        if !matches!(self.insns[i].op, Op::Cp | Op::Cpi) {
            return Ok(None);
        }
        let mut j = i + 1;
        let mut last_cmp = i;
        while let Some(n) = self.insns.get(j) {
            if self.is_target[j] {
                return Ok(None);
            }
            match n.op {
                Op::Cpc => last_cmp = j,
                _ if self.optimise && self.is_move(j) => {}
                Op::Brbs | Op::Brbc => break,
                _ => return Ok(None),
            }
            j += 1;
        }
        let Some(br) = self.insns.get(j) else { return Ok(None) };
        // Moves after the last compare keep C and V (loads and stores only), and the
        // equality form does its moves first: only N and S need the compare last.
        let trailing_ok = last_cmp == j - 1 || matches!(br.r, 0 | 1 | 3);
        if !trailing_ok || self.live_out[j] & CZNV != 0 || !matches!(br.r, 0..=4) {
            return Ok(None);
        }
        let target = self.branch_target(j, br.k)?;
        let set = br.op == Op::Brbs;
        let cmp = |a: &mut Asm, m: usize, first: bool, sbc: bool| {
            let n = self.insns[m];
            if first && sbc {
                a.i(SEC);
            }
            a.b(LDA_ZP, r(n.d));
            let o = match (n.op, first && !sbc) {
                (Op::Cpi, true) => CMP_IMM,
                (Op::Cpi, false) => SBC_IMM,
                (_, true) => CMP_ZP,
                (_, false) => SBC_ZP,
            };
            if n.op == Op::Cpi {
                a.b(o, n.k as u8)
            } else {
                a.b(o, r(n.r))
            };
        };
        if br.r == 1 {
            // Equality: compare byte by byte and leave at the first difference. Moves
            // between compares are done first (they must not feed an earlier compare).
            let cmps: Vec<usize> = (i..j).filter(|&m| matches!(self.insns[m].op, Op::Cp | Op::Cpi | Op::Cpc)).collect();
            for m in i..j {
                if self.is_move(m) {
                    let clash = cmps.iter().filter(|&&c| c < m).any(|&c| {
                        let cn = self.insns[c];
                        self.move_writes(m).any(|w| w == cn.d || (cn.op != Op::Cpi && w == cn.r))
                    });
                    if clash {
                        return Ok(None);
                    }
                }
            }
            for m in i..j {
                if self.is_move(m) {
                    let l = self.lower(m, false)?;
                    a.items.extend(l.asm.items.into_iter().filter(|it| !matches!(it, Item::Label(_))));
                }
            }
            let after = insn_label(j + 1);
            if j + 1 >= self.insns.len() {
                return Ok(None);
            }
            for (n, &m) in cmps.iter().enumerate() {
                let c = self.insns[m];
                if c.op == Op::Cpi && c.k == 0 {
                    // Equality with zero: the load sets Z already.
                    a.b(LDA_ZP, r(c.d));
                } else {
                    cmp(a, m, true, false);
                }
                if n + 1 < cmps.len() {
                    a.br(BNE, if set { after } else { target });
                } else {
                    a.br(if set { BEQ } else { BNE }, target);
                }
            }
            return Ok(Some(j - i));
        }
        // Ordered: one multi-byte subtraction, then the 6502 flags of the last byte.
        let sbc = matches!(br.r, 3 | 4);
        for m in i..j {
            match self.insns[m].op {
                Op::Cp | Op::Cpi => cmp(a, m, true, sbc),
                Op::Cpc => cmp(a, m, false, true),
                _ => {
                    let l = self.lower(m, false)?;
                    a.items.extend(l.asm.items.into_iter().filter(|it| !matches!(it, Item::Label(_))));
                }
            }
        }
        let (if_set, if_clear) = match br.r {
            0 => (BCC, BCS),
            2 => (BMI, BPL),
            3 => (BVS, BVC),
            _ => {
                a.b(BVC, 2).b(EOR_IMM, 0x80);
                (BMI, BPL)
            }
        };
        a.br(if set { if_set } else { if_clear }, target);
        Ok(Some(j - i))
    }

    /// A pointer copy and a constant step of the copy (`movw r30, r24` then `subi r30, lo;
    /// sbci r31, hi`, or `adiw`/`sbiw r30, k`), with no flag of the step read after it and
    /// nothing jumping between: one 16-bit addition or subtraction from the source into
    /// the copy, without first storing the copy. Returns the number of instructions
    /// folded into `i`.
    fn copy_plus_constant(&self, i: usize, a: &mut Asm) -> Result<Option<usize>, TranslateError> {
        use crate::frame_slots::Action;
        let mv = self.insns[i];
        let plain = |m: usize| {
            m < self.insns.len()
                && !self.is_target[m]
                && self.slots[m] == Action::Keep
                && self.copies[m] == crate::ptr_copies::Copy::Keep
                && !self.frame_set_up[m]
        };
        if !self.optimise || !plain(i + 1) {
            return Ok(None);
        }
        let (rd, rs) = (r(mv.d), r(mv.r));
        let step = self.insns[i + 1];
        match step.op {
            Op::Subi
                if step.d == mv.d
                    && plain(i + 2)
                    && self.insns[i + 2].op == Op::Sbci
                    && self.insns[i + 2].d == mv.d + 1
                    && self.live_out[i + 2] & CZNV == 0 =>
            {
                a.i(SEC).b(LDA_ZP, rs);
                self.imm(i + 1, a, SBC_IMM)?;
                a.b(STA_ZP, rd).b(LDA_ZP, rs + 1);
                self.imm(i + 2, a, SBC_IMM)?;
                a.b(STA_ZP, rd + 1);
                Ok(Some(2))
            }
            Op::Adiw | Op::Sbiw if step.d == mv.d && self.live_out[i + 1] & CZNV == 0 => {
                let (carry, o) = if step.op == Op::Adiw { (CLC, ADC_IMM) } else { (SEC, SBC_IMM) };
                a.i(carry).b(LDA_ZP, rs).b(o, step.k as u8).b(STA_ZP, rd);
                a.b(LDA_ZP, rs + 1).b(o, 0).b(STA_ZP, rd + 1);
                Ok(Some(1))
            }
            _ => Ok(None),
        }
    }

    /// The label after the instruction that a skip instruction skips.
    fn skip_target(&self, i: usize) -> Result<Label, TranslateError> {
        match self.insns.get(i + 1) {
            Some(_) if i + 2 < self.insns.len() => Ok(insn_label(i + 2)),
            _ => Err(self.err(i, "skips past the end of the code")),
        }
    }

    /// A conditional branch target, which must be in the same function unless no stack
    /// adjustment has to be undone.
    fn branch_target(&self, i: usize, k: u32) -> Result<Label, TranslateError> {
        if self.func_starts.contains_key(&k) && self.adjusting(i) {
            return Err(self.err(i, "conditional tail call from a function that reads SP"));
        }
        self.target(i, k)
    }
}
