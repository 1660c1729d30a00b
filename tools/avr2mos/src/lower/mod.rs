//! Lowering of one AVR instruction to 6502 code.
//!
//! The model: AVR registers live in zero page ([`crate::mmap`]); A, X and Y are scratch
//! between AVR instructions. Flags are stored in the flags byte in 6502 `P` layout, only
//! when a later instruction reads them ([`crate::analysis::flags`]): the core sequence of an
//! instruction leaves the 6502 flags equal to the AVR ones (the carry inverted after a
//! subtraction, because the 6502 carry means "no borrow"), `PHP`/`PLA` captures them, and
//! small fix-ups give the flags the 6502 computes differently (V of shifts and
//! increments, Z of `cpc`/`sbc` chains and of `adiw`/`sbiw`).
//!
//! The instruction families are lowered in `arith`, `bits`, `moves` and `flow`; `fuse`
//! lowers an instruction together with the ones after it (compare chains, branches on
//! the flags in `P`, a pointer copy and its constant step), and `indexed` a load from a
//! table at a fixed address indexed by a byte.
//!
//! Calls are `JSR`s; a function that reads SP moves SP down by 2 on entry and up by 2 on
//! return, so its stack arguments sit where the AVR code expects them, above a 2-byte
//! return address.

use crate::analysis::flags::{self, C, CZNV, FlagFacts, FlagSet, T, V, Z};
use crate::avr_rewrites::specialise;
use crate::error::TranslateError;
use crate::frames::frame_plan::{Frames, Saves};
use crate::frames::zp_slots::Slot as ZpSlot;
use crate::input::decode::{Insn, Mode, Op};
use crate::input::flow::Flow;
use crate::input::program::{AvrProgram, RelocKind, Target};
use crate::mmap::{FLAGS, SPH, SPL, TFLAG, reg, temp};
use crate::runtime::Routine;
use mos_asm::asm::{Arg, Asm, Item, Label, Part, Sym, op::*};

mod arith;
mod bits;
pub mod codegen;
mod flow;
mod fuse;
mod indexed;
mod moves;

/// What lowering an instruction's own operation gave: the flags it leaves in `P` for the
/// code that follows (fused branch, carry chain, capture), or the number of following
/// instructions it folded in, its code complete.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Core {
    Flags(Kind),
    Done(usize),
}

/// Everything the lowering needs to know about the whole program.
#[derive(Debug)]
pub struct Ctx<'a> {
    /// The program being translated.
    pub prog: &'a AvrProgram,
    /// The decoded program and its control flow: addresses, functions, jump targets.
    pub flow: &'a Flow,
    /// The instructions as the lowering reads them: [`Flow::insns`] with the rewrites of
    /// the frame plan ([`crate::frames::frame_plan::FramePlan::insns`]).
    pub insns: &'a [Insn],
    /// The live flags and the inert SREG saves ([`FlagFacts`]).
    pub flags: &'a FlagFacts,
    /// Whether each function is interpreted ([`crate::runtime::interp`]): only its first
    /// instruction has a 6502 label (the stub).
    pub interp: &'a [bool],
    /// [`crate::OptLevel::Full`]: fuse across moves and specialise runtime calls.
    pub optimise: bool,
    /// The static frames ([`Frames`]): where each starts (`in r28/r29, SP` loads that
    /// address less one instead of SP), what becomes of the instructions that reach their
    /// slots, and which functions keep the return address footprint.
    pub frames: &'a Frames,
    /// The saves ([`Saves`]): which went, which use static slots, which moved, and the
    /// registers live once they have gone ([`crate::analysis::liveness`]).
    pub saves: &'a Saves,
    /// Keep SP as the AVR has it (the lockstep setting): a left-out save is still pushed,
    /// and its pops only move SP back, so stack addresses agree with the simulator's.
    pub keep_stack: bool,
    /// Pointer copies that go and the loads and stores that use their source instead
    /// ([`crate::avr_rewrites::ptr_copies`]).
    pub copies: &'a [crate::avr_rewrites::ptr_copies::Copy],
    /// Whether r1 is zero before each instruction ([`crate::analysis::zero_reg`]).
    pub r1_zero: &'a [bool],
    /// The registers that hold a known constant before each instruction of [`Ctx::insns`]
    /// ([`crate::analysis::constants`]): a multiply, a division or a `memset` by one is
    /// specialised.
    pub consts: &'a crate::analysis::constants::Constants,
    /// The divisions whose product a multiply after them reuses, and those multiplies
    /// ([`crate::analysis::div_products`]).
    pub products: &'a crate::analysis::div_products::Products,
    /// The static slots that live in zero page ([`crate::frames::zp_slots`]).
    pub zp_homes: &'a crate::frames::zp_slots::Homes,
    /// Where an instruction may be lowered inside the code of the one before it
    /// ([`crate::analysis::fusion`]): every fused form asks it.
    pub fusion: &'a crate::analysis::fusion::Fusion,
    /// The functions whose calls can afford a few cycles for bytes
    /// ([`crate::analysis::cold::amortised`]): their runs of saves may be loops.
    pub amortised: &'a [bool],
    /// How often each instruction runs ([`crate::analysis::cold::heat`]): what code may
    /// grow for speed.
    pub heat: &'a [crate::analysis::cold::Heat],
    /// The registers live before and after each instruction of [`Flow::insns`] under the
    /// calling convention ([`crate::mos_rewrites::dead_stores::abi_liveness`]): a value
    /// nothing reads after may be left unstored.
    pub live_abi: &'a crate::analysis::liveness::Liveness,
}

/// Whether the instruction calls, returns or jumps: control does not simply go on to the
/// next one.
pub(super) fn transfers_control(op: Op) -> bool {
    matches!(
        op,
        Op::Call | Op::Rcall | Op::Icall | Op::Eicall | Op::Ret | Op::Reti | Op::Ijmp | Op::Eijmp | Op::Jmp | Op::Rjmp
    )
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

/// The `LDA`/`STA` pair that saves register `reg` to its static save slot `slot` (`save`),
/// or restores it from there: in the slot's zero-page home if it has one
/// ([`crate::frames::zp_slots`]).
pub(crate) fn save_copy(homes: &crate::frames::zp_slots::Homes, slot: u32, reg: u8, save: bool) -> [Item; 2] {
    let (load, store) = match homes.of(ZpSlot::Save(slot)) {
        Some(zp) => (Item::Ins(LDA_ZP, Arg::Byte(zp)), Item::Ins(STA_ZP, Arg::Byte(zp))),
        None => {
            let at = Arg::Sym(Sym::Bss(slot), Part::Word, 0);
            (Item::Ins(LDA_ABS, at), Item::Ins(STA_ABS, at))
        }
    };
    if save { [Item::Ins(LDA_ZP, Arg::Byte(r(reg))), store] } else { [load, Item::Ins(STA_ZP, Arg::Byte(r(reg)))] }
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
    /// The flags live after instruction `i`; none inside an inert SREG save and restore,
    /// where flags are neither computed nor stored.
    fn live_after(&self, i: usize) -> FlagSet {
        if self.flags.inert[i] { 0 } else { self.flags.live_out[i] }
    }

    pub(crate) fn err(&self, i: usize, why: &str) -> TranslateError {
        TranslateError::Unsupported {
            at: self.prog.locate(self.flow.addrs[i]),
            insn: self.insns[i].to_string(),
            why: why.into(),
        }
    }

    /// The static frame of instruction `i`'s function, if it has one.
    fn static_frame(&self, i: usize) -> Option<crate::frames::static_frames::FrameBase> {
        self.flow.func_of[i].and_then(|f| self.frames.starts[f])
    }

    /// Emits instruction `i` as [`crate::frames::frame_slots`] decided, if it decided anything:
    /// a slot is an absolute address (a plain `LDA`/`STA`: frames are RAM below the I/O
    /// area), a copy of Y a constant, and what only kept Y up to date nothing.
    fn frame_slot(&self, i: usize, a: &mut Asm) -> bool {
        use crate::frames::frame_slots::{Action, Half};
        let insn = self.insns[i];
        let Some(base) = self.static_frame(i) else { return false };
        // A slot with a zero-page home is reached there; the others at their address.
        let at = |off: u16, zp_op: u8, abs_op: u8| {
            let home = self.flow.func_of[i].and_then(|func| self.zp_homes.of(ZpSlot::Frame { func, offset: off }));
            match home {
                Some(zp) => Item::Ins(zp_op, Arg::Byte(zp)),
                None => Item::Ins(abs_op, base.operand(Part::Word, i32::from(off))),
            }
        };
        match self.frames.slots[i] {
            Action::Keep => return false,
            Action::Drop => {}
            Action::Slot(off) if matches!(insn.op, Op::Ld(..)) => {
                a.items.push(at(off, LDA_ZP, LDA_ABS));
                a.b(STA_ZP, r(insn.d));
            }
            Action::Slot(off) => {
                a.b(LDA_ZP, r(insn.d));
                a.items.push(at(off, STA_ZP, STA_ABS));
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

    /// Whether instructions `i + 1..=i + n` may be lowered inside the code of instruction
    /// `i`: the fusion map lets each join the one before, and none is a frame slot's
    /// access, a dropped pointer copy or a static frame's set-up, which lower otherwise.
    fn folds(&self, i: usize, n: usize) -> bool {
        use crate::frames::frame_slots::Action;
        (i + 1..=i + n).all(|m| {
            self.fusion.joins(m)
                && self.frames.slots[m] == Action::Keep
                && self.copies[m] == crate::avr_rewrites::ptr_copies::Copy::Keep
                && !self.frames.set_up[m]
        })
    }

    fn adjusting(&self, i: usize) -> bool {
        self.flow.func_of[i].is_some_and(|f| self.frames.adjusts[f])
    }

    /// The label of the instruction at `target`, or an error naming instruction `i`. Inside
    /// an interpreted function only the first instruction has a label; only the function
    /// itself may reach the others.
    fn target(&self, i: usize, target: u32) -> Result<Label, TranslateError> {
        let t = *self.flow.index.get(&target).ok_or_else(|| TranslateError::BadTarget {
            at: self.prog.locate(self.flow.addrs[i]),
            insn: self.insns[i].to_string(),
            target,
        })?;
        if self.interp_middle(t) && self.flow.func_of[i] != self.flow.func_of[t] {
            return Err(self.err(i, "reaches the middle of an interpreted function"));
        }
        Ok(insn_label(t))
    }

    /// Whether instruction `t` is inside an interpreted function but not its first.
    pub(crate) fn interp_middle(&self, t: usize) -> bool {
        self.flow.func_of[t].is_some_and(|f| self.interp[f] && self.prog.functions[f].addr != self.flow.addrs[t])
    }

    /// A call or tail-call target: an instruction, or a native routine.
    pub(crate) fn callee(&self, i: usize, target: u32) -> Result<Label, TranslateError> {
        if let Some(name) = self.prog.native_at(target) {
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
                    at: self.prog.locate(self.flow.addrs[i]),
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
                if self.flow.index.get(c).is_some_and(|&t| self.interp_middle(t)) {
                    return Err(TranslateError::Relocation {
                        at: self.prog.locate(self.flow.addrs[i]),
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
        match self.reloc_sym(i, self.flow.addrs[i])? {
            Some((sym, part)) => a.s(opcode, sym, part),
            None => a.b(opcode, self.insns[i].k as u8),
        };
        Ok(())
    }

    fn abs(&self, i: usize, a: &mut Asm, opcode: u8) -> Result<(), TranslateError> {
        match self.reloc_sym(i, self.flow.addrs[i] + 2)? {
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
        let live = self.live_after(i);
        let defs = flags::defs(&insn);
        let mut a = Asm::default();
        if self.frames.set_up[i] {
            // A static frame's Y is loaded already set up.
            return Ok(Lowered { asm: a, consumed: 0, carry_out: false });
        }
        if self.frame_slot(i, &mut a) {
            return Ok(Lowered { asm: a, consumed: 0, carry_out: false });
        }
        if let Some(f) = self.flow.func_of[i]
            && self.frames.adjusts[f]
            && self.prog.functions[f].addr == self.flow.addrs[i]
        {
            a.to(JSR, Routine::Enter.label());
        }
        if let crate::avr_rewrites::ptr_copies::Copy::Drop { .. } = self.copies[i] {
            return Ok(Lowered { asm: a, consumed: 0, carry_out: false });
        }
        if self.feeds_inline_multiply(i).is_some() {
            return Ok(Lowered { asm: a, consumed: 0, carry_out: false });
        }
        if self.saves.dropped[i] && !(self.keep_stack && insn.op == Op::Push) {
            if self.keep_stack {
                a.to(JSR, Routine::Pop.label());
            }
            return Ok(Lowered { asm: a, consumed: 0, carry_out: false });
        }
        if let Some(slot) = self.saves.slot_of[i] {
            let consumed = self.save_loop(i, &mut a);
            if consumed == 0 {
                a.items.extend(save_copy(self.zp_homes, slot, insn.d, insn.op == Op::Push));
            }
            return Ok(Lowered { asm: a, consumed, carry_out: false });
        }
        if let Some(consumed) = self.shift_loop(i, &mut a) {
            return Ok(Lowered { asm: a, consumed, carry_out: false });
        }
        if let Some(consumed) = self.compare_chain(i, &mut a)? {
            return Ok(Lowered { asm: a, consumed, carry_out: false });
        }
        let core = match insn.op {
            Op::Add
            | Op::Adc
            | Op::Sub
            | Op::Sbc
            | Op::Subi
            | Op::Sbci
            | Op::Cp
            | Op::Cpi
            | Op::Cpc
            | Op::Neg
            | Op::Inc
            | Op::Dec
            | Op::Adiw
            | Op::Sbiw
            | Op::Mul
            | Op::Muls
            | Op::Mulsu
            | Op::Fmul
            | Op::Fmuls
            | Op::Fmulsu => self.arith(i, cpu_carry, &mut a)?,
            Op::And
            | Op::Or
            | Op::Eor
            | Op::Andi
            | Op::Ori
            | Op::Com
            | Op::Swap
            | Op::Asr
            | Op::Lsr
            | Op::Ror
            | Op::Bset
            | Op::Bclr
            | Op::Bst
            | Op::Bld => self.bits(i, cpu_carry, &mut a)?,
            Op::Mov
            | Op::Movw
            | Op::Ldi
            | Op::Ld(..)
            | Op::St(..)
            | Op::Lds
            | Op::Sts
            | Op::Push
            | Op::Pop
            | Op::In
            | Op::Out => self.moves(i, &mut a)?,
            Op::Nop
            | Op::Cpse
            | Op::Sbrc
            | Op::Sbrs
            | Op::Brbs
            | Op::Brbc
            | Op::Rjmp
            | Op::Jmp
            | Op::Rcall
            | Op::Call
            | Op::Ret
            | Op::Icall
            | Op::Ijmp
            | Op::Lpm
            | Op::Elpm
            | Op::Reti
            | Op::Sleep
            | Op::Break
            | Op::Wdr
            | Op::Spm
            | Op::Eijmp
            | Op::Eicall
            | Op::Cbi
            | Op::Sbic
            | Op::Sbi
            | Op::Sbis => self.flow(i, &mut a)?,
        };
        let kind = match core {
            Core::Flags(kind) => kind,
            Core::Done(consumed) => return Ok(Lowered { asm: a, consumed, carry_out: false }),
        };
        // A branch right after (or after moves, when it reads C or V, which loads and
        // stores keep): test the 6502 flags directly.
        if let Some(j) = self.fusable_branch(i) {
            let mut b = Asm::default();
            if self.branch_from_p(&mut b, kind, self.insns[j].r, self.insns[j].op == Op::Brbs, j)? {
                for m in i + 1..j {
                    self.lower_folded(m, &mut a)?;
                }
                a.items.extend(b.items);
                return Ok(Lowered { asm: a, consumed: j - i, carry_out: false });
            }
        }
        // A branch on Z, N or S after moves: the moves through X and Y around the code.
        if let Some(consumed) = self.branch_after_moves(i, kind, &mut a)? {
            return Ok(Lowered { asm: a, consumed, carry_out: false });
        }
        // A carry chain: leave the carry in the 6502 carry for the next instruction (always
        // between the two halves of an inert frame step, whose flags are never stored).
        let inert_chain = self.flags.inert[i]
            && self.insns.get(i + 1).is_some_and(|n| n.op == Op::Sbci)
            && self.flags.inert.get(i + 1) == Some(&true);
        if (live & CZNV == C || inert_chain)
            && let Some(inv) = carry_polarity(kind)
            && let Some(next) = self.insns.get(i + 1)
            && !self.flow.is_target[i + 1]
            && consumes_carry(next) == Some(inv)
        {
            return Ok(Lowered { asm: a, consumed: 0, carry_out: true });
        }
        if live & CZNV == C
            && let Some(inv) = carry_polarity(kind)
            && let Some((moves, consumed)) = self.carry_over_moves(i, inv)?
        {
            a.items.extend(moves.items);
            return Ok(Lowered { asm: a, consumed, carry_out: true });
        }
        capture(&mut a, kind, defs, live);
        Ok(Lowered { asm: a, consumed: 0, carry_out: false })
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
        if self.flow.func_starts.contains_key(&k) && self.adjusting(i) {
            return Err(self.err(i, "conditional tail call from a function that reads SP"));
        }
        self.target(i, k)
    }
}
