//! The interpreter's 6502 code: an entry, a fetch-and-dispatch loop, and one handler for
//! each group of AVR instructions, found through three tables of return addresses.
//!
//! # Assumes
//! - The machine state and the copies' format of the parent module's docs: the IPC, the
//!   operand bytes and the scratch bytes it names, each copy's operands already rewritten.
//! - Handlers are entered with the instruction word in `OPL`/`OPH` and the IPC stepped past
//!   it; each ends by jumping back to [`NEXT`] (or leaving the interpreter).
//!
//! # Guarantees
//! - Every AVR instruction the translator accepts has a handler that leaves registers,
//!   memory and every flag the instruction defines as the translated code would; a word
//!   that decodes to none of them is treated as a `nop` (the copies hold none).
//! - With the copies in bank 1 each read of AVR bytes is bracketed by the MMU's switch to
//!   bank 1 and back, and nothing else is read in bank 1.

use crate::mmap::{FLAGS, REGS, SPL, TFLAG, reg, temp};
use crate::runtime::Routine;
use mos_asm::asm::Locals;
use mos_asm::asm::{Arg, Asm, Item, Label, Part, Sym, op::*};

use super::{CopyPlace, ENTER, IPC, NEXT, Patch, SHADOW};

/// The dispatch tables: the main one, the one-register group's, the loads' and stores'.
const TABLE: Label = Label(0xC000_0002);
const ONE_TABLE: Label = Label(0xC000_0003);
const MEM_TABLE: Label = Label(0xC000_0004);
/// Bit masks by bit number, `bset`/`bclr` masks and branch masks by SREG bit.
const CONSTS: Label = Label(0xC000_0005);

/// A 16-bit vector: memory address of a load or store, callee of a call.
const VEC: u8 = temp(8);
/// The instruction word being executed.
const OPL: u8 = temp(6);
const OPH: u8 = temp(7);
/// The second operand (register value or immediate).
const OPB: u8 = temp(5);
/// The destination register number of a load or store.
const DIX: u8 = temp(4);
/// Scratch (also the first operand of the 8-bit multiplies).
const TMP: u8 = temp(0);

// Opcodes only the interpreter uses.
const LDA_ABY: u8 = 0xB9;
const STA_ABY: u8 = 0x99;
const LDY_ZPX: u8 = 0xB4;
const INC_ZPX: u8 = 0xF6;
const DEC_ZPX: u8 = 0xD6;
const LSR_ZPX: u8 = 0x56;
const ROR_ZPX: u8 = 0x76;
const CMP_ZPX: u8 = 0xD5;
const ADC_ZPX: u8 = 0x75;
const AND_ZPX: u8 = 0x35;
const AND_ABY: u8 = 0x39;

/// Emits `$FF00 = value` through `A` (no flags the interpreter reads are kept across it).
fn map_a(a: &mut Asm, value: u8) {
    a.b(LDA_IMM, value).w(STA_ABS, crate::mmap::MMU_CR);
}

/// Emits the interpreter. Returns its code and the patches of its dispatch tables.
///
/// With the copies in bank 1 every read of AVR bytes (the fetch, a skipped instruction's
/// first word, the second word of `jmp`/`call`/`lds`/`sts`, a trampoline) is bracketed by
/// `$FF00 = $7F` and `$FF00 = home`: the interpreter's code is in common RAM, so it keeps
/// running while the bank changes, and everything else it touches (registers, stack,
/// data, the code it calls) is seen in the program's own configuration.
pub fn emit(loc: &mut Locals, place: CopyPlace) -> (Asm, Vec<Patch>) {
    let (far, home) = match place {
        CopyPlace::Inline => (false, 0),
        CopyPlace::Bank1 { home } => (true, home),
    };
    let mut e = Emitter::new(loc, far, home);
    e.entry();
    e.operand_helpers();
    e.flag_tails();
    e.two_operand();
    e.skip();
    e.group_zero();
    e.one_register();
    e.memory();
    e.in_out();
    e.relative();
    e.bits();
    e.tables()
}

/// Labels that several handlers share: the operand decoders, the flag tails and the
/// bodies one handler jumps into from another.
struct Shared {
    /// X = d, OPB = Rr, A = Rd (two-register instructions).
    rr: Label,
    /// X = d (16..31), OPB = K, A = Rd (register-immediate instructions).
    k8: Label,
    /// X = d from bits 8..4.
    d5: Label,
    /// Flag tails, entered with the 6502 flags of the operation: addition, subtraction,
    /// chained subtraction, logic (and its merge into FLAGS), shifts, inc/dec.
    fl_a: Label,
    fl_s: Label,
    fl_sc: Label,
    fl_l: Label,
    fl_m: Label,
    fl_sh: Label,
    incdec: Label,
    /// Skips the next instruction (one or two words).
    skip: Label,
    /// Calls the 6502 address in VEC, keeping the IPC in the return stack.
    call_vec: Label,
    /// `JMP (VEC)`, the callee of `call_vec`.
    jv: Label,
    /// Loads or stores register DIX through the address in VEC.
    mem: Label,
    /// Adds A:TMP to the IPC (a relative jump).
    add_ipc: Label,
    /// The bodies of the subtraction, logic and compare handlers, which the immediate
    /// forms share.
    b_sub: Label,
    b_sbc: Label,
    b_and: Label,
    b_or: Label,
    b_cp: Label,
}

/// The interpreter as it is emitted: its code, where the copies are, and its three dispatch
/// tables as handlers fill them.
struct Emitter<'l> {
    a: Asm,
    loc: &'l mut Locals,
    /// The copies are in bank 1, with `home` the program's own MMU configuration.
    far: bool,
    home: u8,
    s: Shared,
    /// Handlers by the top 6 bits of the instruction word.
    main: Vec<Label>,
    /// The one-register group ($94-$95), by the low nibble.
    one: Vec<Label>,
    /// Loads and stores ($90-$93), by the low nibble (the pointer mode).
    memt: Vec<Label>,
}

impl<'l> Emitter<'l> {
    fn new(loc: &'l mut Locals, far: bool, home: u8) -> Self {
        let mut l = || loc.fresh();
        let [rr, k8, d5, fl_a, fl_s, fl_sc, fl_l, fl_m, fl_sh, incdec, skip, call_vec, jv, mem, add_ipc] =
            [(); 15].map(|_| l());
        let [b_sub, b_sbc, b_and, b_or, b_cp] = [(); 5].map(|_| l());
        let s = Shared {
            rr,
            k8,
            d5,
            fl_a,
            fl_s,
            fl_sc,
            fl_l,
            fl_m,
            fl_sh,
            incdec,
            skip,
            call_vec,
            jv,
            mem,
            add_ipc,
            b_sub,
            b_sbc,
            b_and,
            b_or,
            b_cp,
        };
        Emitter {
            a: Asm::default(),
            loc,
            far,
            home,
            s,
            main: vec![NEXT; 64],
            one: vec![NEXT; 16],
            memt: vec![NEXT; 16],
        }
    }

    /// `N` new labels.
    fn labels<const N: usize>(&mut self) -> [Label; N] {
        [(); N].map(|_| self.loc.fresh())
    }

    /// Maps bank 1 in, for a read of AVR bytes (nothing when the copies are inline).
    fn bank1(&mut self) {
        if self.far {
            map_a(&mut self.a, crate::mmap::MMU_CONFIG_BANK1);
        }
    }

    /// Maps the program's own configuration back after a read of AVR bytes.
    fn home(&mut self) {
        if self.far {
            map_a(&mut self.a, self.home);
        }
    }

    /// Entry: the copy starts right after the stub's JSR; the return address's footprint
    /// is kept on the AVR stack. Then fetch, step the IPC and dispatch through the table
    /// (RTS to handler - 1).
    fn entry(&mut self) {
        let a = &mut self.a;
        a.label(ENTER);
        if self.far {
            // The stub is `JSR ENTER` and the copy's address: read it through the return
            // address (which points at the JSR's last byte).
            a.i(PLA).b(STA_ZP, VEC).i(PLA).b(STA_ZP, VEC + 1).b(LDY_IMM, 1).b(LDA_IZY, VEC).b(STA_ZP, IPC);
            a.i(INY).b(LDA_IZY, VEC).b(STA_ZP, IPC + 1);
        } else {
            a.i(PLA).i(CLC).b(ADC_IMM, 1).b(STA_ZP, IPC).i(PLA).b(ADC_IMM, 0).b(STA_ZP, IPC + 1);
        }
        a.to(JSR, Routine::Enter.label());
        a.label(NEXT);
        self.bank1();
        let a = &mut self.a;
        a.b(LDY_IMM, 0).b(LDA_IZY, IPC).b(STA_ZP, OPL).i(INY).b(LDA_IZY, IPC).b(STA_ZP, OPH);
        if self.far {
            // X, not A: A holds the fetched high byte.
            a.b(LDX_IMM, self.home).w(STX_ABS, crate::mmap::MMU_CR);
        }
        a.i(LSR_A).i(LSR_A).i(TAX);
        a.b(LDA_ZP, IPC).i(CLC).b(ADC_IMM, 2).b(STA_ZP, IPC).b(BCC, 2).b(INC_ZP, IPC + 1);
        a.items.push(Item::Ins(LDA_ABX, Arg::Sym(Sym::Code(TABLE), Part::Word, 64)));
        a.i(PHA);
        a.items.push(Item::Ins(LDA_ABX, Arg::Sym(Sym::Code(TABLE), Part::Word, 0)));
        a.i(PHA).i(RTS);
    }

    /// The operand decoders `d5`, `rr` and `k8` ([`Shared`]).
    fn operand_helpers(&mut self) {
        let (a, s) = (&mut self.a, &self.s);
        a.label(s.d5).b(LDA_ZP, OPH).i(LSR_A).b(LDA_ZP, OPL).i(ROR_A).i(LSR_A).i(LSR_A).i(LSR_A).i(TAX).i(RTS);
        a.label(s.rr).to(JSR, s.d5).b(LDA_ZP, OPH).b(AND_IMM, 2).i(ASL_A).i(ASL_A).i(ASL_A).b(STA_ZP, TMP);
        a.b(LDA_ZP, OPL).b(AND_IMM, 0x0F).b(ORA_ZP, TMP).i(TAY).w(LDA_ABY, u16::from(REGS)).b(STA_ZP, OPB);
        a.b(LDA_ZPX, REGS).i(RTS);
        a.label(s.k8).b(LDA_ZP, OPL).i(LSR_A).i(LSR_A).i(LSR_A).i(LSR_A).b(ORA_IMM, 0x10).i(TAX);
        a.b(LDA_ZP, OPH).i(ASL_A).i(ASL_A).i(ASL_A).i(ASL_A).b(STA_ZP, TMP);
        a.b(LDA_ZP, OPL).b(AND_IMM, 0x0F).b(ORA_ZP, TMP).b(STA_ZP, OPB).b(LDA_ZPX, REGS).i(RTS);
    }

    /// The flag tails ([`Shared`]): each turns the 6502's flags of an operation into the
    /// AVR's in FLAGS and goes on to the next instruction.
    fn flag_tails(&mut self) {
        let (a, s) = (&mut self.a, &self.s);
        a.label(s.fl_a).i(PHP).i(PLA).b(AND_IMM, 0xC3).b(STA_ZP, FLAGS).to(JMP, NEXT);
        a.label(s.fl_s).i(PHP).i(PLA).b(AND_IMM, 0xC3).b(EOR_IMM, 1).b(STA_ZP, FLAGS).to(JMP, NEXT);
        // Chained subtraction: Z stays set only if it was.
        a.label(s.fl_sc).i(PHP).i(PLA).b(AND_IMM, 0xC3).b(EOR_IMM, 1).b(STA_ZP, TMP);
        a.b(LDA_ZP, FLAGS).b(ORA_IMM, 0xFD).b(AND_ZP, TMP).b(STA_ZP, FLAGS).to(JMP, NEXT);
        // Logic: Z, N; V = 0; C kept.
        a.label(s.fl_l).i(PHP).i(PLA).b(AND_IMM, 0x82).b(STA_ZP, TMP);
        a.label(s.fl_m).b(LDA_ZP, FLAGS).b(AND_IMM, 0x01).b(ORA_ZP, TMP).b(STA_ZP, FLAGS).to(JMP, NEXT);
        // Shifts: C, Z, N; V = N xor C.
        a.label(s.fl_sh).i(PHP).i(PLA).b(AND_IMM, 0x83).b(BPL, 2).b(EOR_IMM, 0x40).b(BCC, 2).b(EOR_IMM, 0x40);
        a.b(STA_ZP, FLAGS).to(JMP, NEXT);
        // inc/dec (P pushed, Y = the result that overflows): Z, N; V = (Rd == Y); C kept.
        a.label(s.incdec).i(PLA).b(AND_IMM, 0x82).b(STA_ZP, TMP).i(TYA).b(CMP_ZPX, REGS).br(BNE, s.fl_m);
        a.b(LDA_ZP, TMP).b(ORA_IMM, 0x40).b(STA_ZP, TMP).to(JMP, s.fl_m);
    }

    /// Two-register and register-immediate arithmetic, logic, compares and moves
    /// (`add` ... `mov`, `cpse`, `cpi` ... `andi`, `ldi`).
    fn two_operand(&mut self) {
        let [h_add, h_adc, h_sub, h_sbc, h_cp, h_cpc, h_and, h_or, h_eor, h_mov, h_cpse] = self.labels();
        let [h_cpi, h_sbci, h_subi, h_ori, h_andi, h_ldi] = self.labels();
        let (a, s) = (&mut self.a, &self.s);
        let h = |a: &mut Asm, l: Label, helper: Label| {
            a.label(l).to(JSR, helper);
        };
        h(a, h_add, s.rr);
        a.i(CLC).b(ADC_ZP, OPB).b(STA_ZPX, REGS).to(JMP, s.fl_a);
        h(a, h_adc, s.rr);
        a.i(TAY).b(LDA_ZP, FLAGS).i(LSR_A).i(TYA).b(ADC_ZP, OPB).b(STA_ZPX, REGS).to(JMP, s.fl_a);
        h(a, h_sub, s.rr);
        a.label(s.b_sub).i(SEC).b(SBC_ZP, OPB).b(STA_ZPX, REGS).to(JMP, s.fl_s);
        h(a, h_cp, s.rr);
        a.label(s.b_cp).i(SEC).b(SBC_ZP, OPB).to(JMP, s.fl_s);
        h(a, h_sbc, s.rr);
        a.label(s.b_sbc).i(TAY).b(LDA_ZP, FLAGS).b(EOR_IMM, 1).i(LSR_A).i(TYA);
        a.b(SBC_ZP, OPB).b(STA_ZPX, REGS).to(JMP, s.fl_sc);
        h(a, h_cpc, s.rr);
        a.i(TAY).b(LDA_ZP, FLAGS).b(EOR_IMM, 1).i(LSR_A).i(TYA).b(SBC_ZP, OPB).to(JMP, s.fl_sc);
        h(a, h_and, s.rr);
        a.label(s.b_and).b(AND_ZP, OPB).b(STA_ZPX, REGS).to(JMP, s.fl_l);
        h(a, h_or, s.rr);
        a.label(s.b_or).b(ORA_ZP, OPB).b(STA_ZPX, REGS).to(JMP, s.fl_l);
        h(a, h_eor, s.rr);
        a.b(EOR_ZP, OPB).b(STA_ZPX, REGS).to(JMP, s.fl_l);
        h(a, h_mov, s.rr);
        a.b(LDA_ZP, OPB).b(STA_ZPX, REGS).to(JMP, NEXT);
        h(a, h_cpse, s.rr);
        a.b(CMP_ZP, OPB).br(BEQ, s.skip).to(JMP, NEXT);
        for (lab, body) in [(h_cpi, s.b_cp), (h_sbci, s.b_sbc), (h_subi, s.b_sub), (h_ori, s.b_or), (h_andi, s.b_and)] {
            h(a, lab, s.k8);
            a.to(JMP, body);
        }
        h(a, h_ldi, s.k8);
        a.b(LDA_ZP, OPB).b(STA_ZPX, REGS).to(JMP, NEXT);
        for (from, to, lab) in [
            (1, 2, h_cpc),
            (2, 3, h_sbc),
            (3, 4, h_add),
            (4, 5, h_cpse),
            (5, 6, h_cp),
            (6, 7, h_sub),
            (7, 8, h_adc),
            (8, 9, h_and),
            (9, 10, h_eor),
            (10, 11, h_or),
            (11, 12, h_mov),
            (12, 16, h_cpi),
            (16, 20, h_sbci),
            (20, 24, h_subi),
            (24, 28, h_ori),
            (28, 32, h_andi),
            (56, 60, h_ldi),
        ] {
            self.main[from..to].fill(lab);
        }
    }

    /// Skips the next instruction, one word or two (`jmp`, `call`, `lds`, `sts`), for
    /// `cpse`, `sbrc` and `sbrs`.
    fn skip(&mut self) {
        let [s_j, s_add, s_4] = self.labels();
        self.a.label(self.s.skip);
        self.bank1();
        let a = &mut self.a;
        a.b(LDY_IMM, 1).b(LDA_IZY, IPC).i(TAX).b(LDY_IMM, 0).b(LDA_IZY, IPC).b(STA_ZP, TMP);
        if self.far {
            // Y, not A: the first word's bytes are in X and TMP.
            a.b(LDY_IMM, self.home).w(STY_ABS, crate::mmap::MMU_CR);
        }
        a.b(LDY_IMM, 2);
        a.i(TXA).b(AND_IMM, 0xFC).b(CMP_IMM, 0x90).br(BNE, s_j);
        a.b(LDA_ZP, TMP).b(AND_IMM, 0x0F).br(BNE, s_add).br(BEQ, s_4);
        a.label(s_j).i(TXA).b(AND_IMM, 0xFE).b(CMP_IMM, 0x94).br(BNE, s_add);
        a.b(LDA_ZP, TMP).b(AND_IMM, 0x0C).b(CMP_IMM, 0x0C).br(BNE, s_add);
        a.label(s_4).b(LDY_IMM, 4);
        a.label(s_add).i(TYA).i(CLC).b(ADC_ZP, IPC).b(STA_ZP, IPC).b(BCC, 2).b(INC_ZP, IPC + 1).to(JMP, NEXT);
    }

    /// Group 0 (`nop`, `movw`, `muls`, `mulsu` and the `fmul`s) and `mul`, with the
    /// multiplies' flags.
    fn group_zero(&mut self) {
        let [g0, movw, muls, mul_nf, mul_f, m_go] = self.labels();
        let [f1, f2, f3] = self.labels();
        let h_mul = self.loc.fresh();
        let (a, s) = (&mut self.a, &self.s);
        let r = reg;
        a.label(g0).b(LDA_ZP, OPH).br(BEQ, NEXT).b(CMP_IMM, 1).br(BEQ, movw).b(CMP_IMM, 2).br(BEQ, muls);
        // mulsu/fmul*: d, r in r16..r23.
        a.b(LDA_ZP, OPL).i(LSR_A).i(LSR_A).i(LSR_A).i(LSR_A).b(AND_IMM, 7).b(ORA_IMM, 0x10).i(TAX);
        a.b(LDA_ZP, OPL).b(AND_IMM, 7).b(ORA_IMM, 0x10).i(TAY);
        a.b(LDA_ZPX, REGS).b(STA_ZP, temp(0)).w(LDA_ABY, u16::from(REGS)).b(STA_ZP, temp(1));
        a.b(LDA_ZP, OPL).b(AND_IMM, 0x88).br(BNE, f1);
        a.to(JSR, Routine::Mul8su.label()).to(JMP, mul_nf);
        a.label(f1).b(CMP_IMM, 0x08).br(BNE, f2).to(JSR, Routine::Mul8u.label()).to(JMP, mul_f);
        a.label(f2).b(CMP_IMM, 0x80).br(BNE, f3).to(JSR, Routine::Mul8s.label()).to(JMP, mul_f);
        a.label(f3).to(JSR, Routine::Mul8su.label()).to(JMP, mul_f);
        a.label(movw).b(LDA_ZP, OPL).b(AND_IMM, 0xF0).i(LSR_A).i(LSR_A).i(LSR_A).i(TAX);
        a.b(LDA_ZP, OPL).b(AND_IMM, 0x0F).i(ASL_A).i(TAY).w(LDA_ABY, u16::from(REGS)).b(STA_ZPX, REGS);
        a.w(LDA_ABY, u16::from(REGS) + 1).b(STA_ZPX, REGS + 1).to(JMP, NEXT);
        a.label(muls).b(LDA_ZP, OPL).i(LSR_A).i(LSR_A).i(LSR_A).i(LSR_A).b(ORA_IMM, 0x10).i(TAX);
        a.b(LDA_ZP, OPL).b(AND_IMM, 0x0F).b(ORA_IMM, 0x10).i(TAY);
        a.b(LDA_ZPX, REGS).b(STA_ZP, temp(0)).w(LDA_ABY, u16::from(REGS)).b(STA_ZP, temp(1));
        a.to(JSR, Routine::Mul8s.label()).to(JMP, mul_nf);
        // mul: d, r in r0..r31.
        a.label(h_mul).to(JSR, s.rr).b(STA_ZP, temp(0)).b(LDA_ZP, OPB).b(STA_ZP, temp(1));
        a.to(JSR, Routine::Mul8u.label());
        // Flags of the multiplies: C = bit 15 (or the bit fmul shifts out), Z = (r1:r0 == 0).
        a.label(mul_nf).b(LDA_ZP, r(1)).i(ASL_A).to(JMP, m_go);
        a.label(mul_f).b(ASL_ZP, r(0)).b(ROL_ZP, r(1));
        a.label(m_go).b(LDA_IMM, 0).i(ROL_A).b(STA_ZP, temp(2)).b(LDA_ZP, r(0)).b(ORA_ZP, r(1));
        a.i(PHP).i(PLA).b(AND_IMM, 0x02).b(ORA_ZP, temp(2)).b(STA_ZP, temp(2));
        a.b(LDA_ZP, FLAGS).b(AND_IMM, 0xC0).b(ORA_ZP, temp(2)).b(STA_ZP, FLAGS).to(JMP, NEXT);
        self.main[0] = g0;
        self.main[39] = h_mul;
    }

    /// $94-$97: the one-register group (by the low nibble: `com` ... `ror`, `ret`,
    /// `bset`/`bclr`, `ijmp`/`icall`, `jmp`/`call`), `adiw` and `sbiw`.
    fn one_register(&mut self) {
        let [g9x, adsb, sbiw, wz] = self.labels();
        let [com, neg, swap, inc, dec, asr, lsr, ror, g8, g9, jc] = self.labels();
        let [bs_t, bs_clr, bset] = self.labels();
        let icall = self.loc.fresh();
        let [tailc, callc] = self.labels();
        let (a, s) = (&mut self.a, &self.s);
        a.label(g9x).b(LDA_ZP, OPH).b(AND_IMM, 2).br(BNE, adsb);
        a.b(LDA_ZP, OPL).b(AND_IMM, 0x0F).i(TAY);
        a.items.push(Item::Ins(LDA_ABY, Arg::Sym(Sym::Code(ONE_TABLE), Part::Word, 16)));
        a.i(PHA);
        a.items.push(Item::Ins(LDA_ABY, Arg::Sym(Sym::Code(ONE_TABLE), Part::Word, 0)));
        a.i(PHA).to(JSR, s.d5).b(LDA_ZPX, REGS).i(RTS);
        a.label(adsb).b(LDA_ZP, OPL).b(AND_IMM, 0x30).i(LSR_A).i(LSR_A).i(LSR_A).b(ORA_IMM, 24).i(TAX);
        a.b(LDA_ZP, OPL).b(AND_IMM, 0x0F).b(STA_ZP, TMP).b(LDA_ZP, OPL).i(LSR_A).i(LSR_A).b(AND_IMM, 0x30);
        a.b(ORA_ZP, TMP).b(STA_ZP, OPB).b(LDA_ZP, OPH).i(LSR_A).br(BCS, sbiw);
        a.i(CLC).b(LDA_ZPX, REGS).b(ADC_ZP, OPB).b(STA_ZPX, REGS).b(LDA_ZPX, REGS + 1).b(ADC_IMM, 0);
        a.b(STA_ZPX, REGS + 1).i(PHP).i(PLA).b(AND_IMM, 0xC3).to(JMP, wz);
        a.label(sbiw).i(SEC).b(LDA_ZPX, REGS).b(SBC_ZP, OPB).b(STA_ZPX, REGS).b(LDA_ZPX, REGS + 1).b(SBC_IMM, 0);
        a.b(STA_ZPX, REGS + 1).i(PHP).i(PLA).b(AND_IMM, 0xC3).b(EOR_IMM, 1);
        a.label(wz).b(LDY_ZPX, REGS).b(BEQ, 2).b(AND_IMM, 0xFD).b(STA_ZP, FLAGS).to(JMP, NEXT);

        // One-register instructions: A = Rd, X = d.
        a.label(com).b(EOR_IMM, 0xFF).b(STA_ZPX, REGS).i(PHP).i(PLA).b(AND_IMM, 0x82).b(ORA_IMM, 0x01);
        a.b(STA_ZP, FLAGS).to(JMP, NEXT);
        a.label(neg).i(SEC).b(LDA_IMM, 0).b(SBC_ZPX, REGS).b(STA_ZPX, REGS).to(JMP, s.fl_s);
        a.label(swap).to(JSR, Routine::SwapA.label()).b(STA_ZPX, REGS).to(JMP, NEXT);
        a.label(inc).b(INC_ZPX, REGS).i(PHP).b(LDY_IMM, 0x80).to(JMP, s.incdec);
        a.label(dec).b(DEC_ZPX, REGS).i(PHP).b(LDY_IMM, 0x7F).to(JMP, s.incdec);
        a.label(asr).b(CMP_IMM, 0x80).i(ROR_A).b(STA_ZPX, REGS).to(JMP, s.fl_sh);
        a.label(lsr).b(LSR_ZPX, REGS).to(JMP, s.fl_sh);
        a.label(ror).b(LDA_ZP, FLAGS).i(LSR_A).b(ROR_ZPX, REGS).to(JMP, s.fl_sh);
        // $9x08: ret ($95), bset/bclr ($94).
        a.label(g8).b(LDA_ZP, OPH).i(LSR_A);
        a.br(BCC, bset).to(JMP, Routine::Leave.label());
        a.label(bset)
            .b(LDA_ZP, OPL)
            .i(LSR_A)
            .i(LSR_A)
            .i(LSR_A)
            .i(LSR_A)
            .b(AND_IMM, 7)
            .i(TAY)
            .b(CPY_IMM, 6)
            .br(BEQ, bs_t);
        a.items.push(Item::Ins(LDA_ABY, Arg::Sym(Sym::Code(CONSTS), Part::Word, 8)));
        a.b(BIT_ZP, OPL).br(BMI, bs_clr).b(ORA_ZP, FLAGS).b(STA_ZP, FLAGS).to(JMP, NEXT);
        a.label(bs_clr).b(EOR_IMM, 0xFF).b(AND_ZP, FLAGS).b(STA_ZP, FLAGS).to(JMP, NEXT);
        a.label(bs_t).b(LDA_ZP, OPL).b(AND_IMM, 0x80).b(EOR_IMM, 0x80).b(STA_ZP, TFLAG).to(JMP, NEXT);
        // $9x09: ijmp ($94), icall ($95): Z holds a 6502 address.
        a.label(g9).b(LDA_ZP, OPH).i(LSR_A).br(BCS, icall).to(JSR, Routine::Leave.label());
        a.w(JMP_IND, u16::from(reg(30)));
        a.label(icall).b(LDA_ZP, reg(30)).b(STA_ZP, VEC).b(LDA_ZP, reg(31)).b(STA_ZP, VEC + 1).to(JMP, s.call_vec);
        // jmp/call: the second word is a 6502 address (see the parent module's docs).
        a.label(jc);
        self.bank1();
        let a = &mut self.a;
        a.b(LDY_IMM, 0).b(LDA_IZY, IPC).b(STA_ZP, VEC).i(INY).b(LDA_IZY, IPC).b(STA_ZP, VEC + 1);
        self.home();
        let (a, s) = (&mut self.a, &self.s);
        a.b(LDA_ZP, IPC).i(CLC).b(ADC_IMM, 2).b(STA_ZP, IPC).b(BCC, 2).b(INC_ZP, IPC + 1);
        a.b(LDA_ZP, OPL).b(AND_IMM, 3).b(CMP_IMM, 1).br(BEQ, tailc).br(BCS, callc);
        a.b(LDA_ZP, VEC).b(STA_ZP, IPC).b(LDA_ZP, VEC + 1).b(STA_ZP, IPC + 1).to(JMP, NEXT);
        a.label(tailc).to(JSR, Routine::Leave.label()).w(JMP_IND, u16::from(VEC));
        a.label(callc);
        a.label(s.call_vec).i(TSX).b(LDA_ZP, IPC).w(STA_ABX, SHADOW + 1).b(LDA_ZP, IPC + 1).w(STA_ABX, SHADOW);
        a.to(JSR, s.jv).i(TSX).w(LDA_ABX, SHADOW + 1).b(STA_ZP, IPC).w(LDA_ABX, SHADOW).b(STA_ZP, IPC + 1);
        a.to(JMP, NEXT);
        a.label(s.jv).w(JMP_IND, u16::from(VEC));
        self.one[..4].copy_from_slice(&[com, neg, swap, inc]);
        self.one[5..11].copy_from_slice(&[asr, lsr, ror, g8, g9, dec]);
        self.one[12..16].fill(jc);
        self.main[37] = g9x;
    }

    /// Loads and stores: `lds`/`sts`, through X, Y or Z with their increments, `push`/`pop`
    /// ($90-$93, by the low nibble), and `ldd`/`std` with a displacement.
    fn memory(&mut self) {
        let [ldst, m_abs, pre, plain, post, st, pp, push] = self.labels();
        let mem = self.s.mem;
        let a = &mut self.a;
        a.label(ldst).to(JSR, self.s.d5).b(STX_ZP, DIX).b(LDA_ZP, OPL).b(AND_IMM, 0x0F).i(TAY);
        a.items.push(Item::Ins(LDA_ABY, Arg::Sym(Sym::Code(MEM_TABLE), Part::Word, 16)));
        a.i(PHA);
        a.items.push(Item::Ins(LDA_ABY, Arg::Sym(Sym::Code(MEM_TABLE), Part::Word, 0)));
        a.i(PHA).i(RTS);
        a.label(m_abs);
        self.bank1();
        let a = &mut self.a;
        a.b(LDY_IMM, 0).b(LDA_IZY, IPC).b(STA_ZP, VEC).i(INY).b(LDA_IZY, IPC).b(STA_ZP, VEC + 1);
        self.home();
        let a = &mut self.a;
        a.b(LDA_ZP, IPC).i(CLC).b(ADC_IMM, 2).b(STA_ZP, IPC).b(BCC, 2).b(INC_ZP, IPC + 1).to(JMP, mem);
        self.memt[0] = m_abs;
        for (nibble, ptr, how) in
            [(1, 30, post), (2, 30, pre), (9, 28, post), (10, 28, pre), (12, 26, plain), (13, 26, post), (14, 26, pre)]
        {
            let m = self.loc.fresh();
            self.a.label(m).b(LDX_IMM, ptr).to(JMP, how);
            self.memt[nibble] = m;
        }
        let a = &mut self.a;
        a.label(pre).b(LDA_ZPX, REGS).b(BNE, 2).b(DEC_ZPX, REGS + 1).b(DEC_ZPX, REGS);
        a.label(plain).b(LDA_ZPX, REGS).b(STA_ZP, VEC).b(LDA_ZPX, REGS + 1).b(STA_ZP, VEC + 1).to(JMP, mem);
        a.label(post).b(LDA_ZPX, REGS).b(STA_ZP, VEC).b(LDA_ZPX, REGS + 1).b(STA_ZP, VEC + 1);
        a.b(INC_ZPX, REGS).br(BNE, mem).b(INC_ZPX, REGS + 1);
        a.label(mem).b(LDX_ZP, DIX).b(LDY_IMM, 0).b(LDA_ZP, OPH).b(AND_IMM, 2).br(BNE, st);
        a.b(LDA_IZY, VEC).b(STA_ZPX, REGS).to(JMP, NEXT);
        a.label(st).b(LDA_ZPX, REGS).b(STA_IZY, VEC).to(JMP, NEXT);
        a.label(pp).b(LDX_ZP, DIX).b(LDA_ZP, OPH).b(AND_IMM, 2).br(BNE, push);
        a.to(JSR, Routine::Pop.label()).b(STA_ZPX, REGS).to(JMP, NEXT);
        a.label(push).b(LDA_ZPX, REGS).to(JSR, Routine::Push.label()).to(JMP, NEXT);
        self.memt[15] = pp;

        let ldd = self.loc.fresh();
        let a = &mut self.a;
        // ldd/std: q = H5 | H3..2 << 1 | W2..0, through Y (W bit 3) or Z.
        a.label(ldd).to(JSR, self.s.d5).b(STX_ZP, DIX).b(LDA_ZP, OPL).b(AND_IMM, 7).b(STA_ZP, TMP);
        a.b(LDA_ZP, OPH).i(ASL_A).b(AND_IMM, 0x18).b(ORA_ZP, TMP).b(STA_ZP, TMP);
        a.b(LDA_ZP, OPH).b(AND_IMM, 0x20).b(ORA_ZP, TMP).i(TAY);
        a.b(LDX_IMM, 30).b(LDA_ZP, OPL).b(AND_IMM, 8).b(BEQ, 2).b(LDX_IMM, 28);
        a.i(TYA).i(CLC).b(ADC_ZPX, REGS).b(STA_ZP, VEC).b(LDA_ZPX, REGS + 1).b(ADC_IMM, 0).b(STA_ZP, VEC + 1);
        a.to(JMP, mem);
        self.main[32..36].fill(ldd);
        self.main[36] = ldst;
        self.main[40..44].fill(ldd);
    }

    /// `in`/`out` of SPL ($3D), SPH ($3E) and SREG ($3F).
    fn in_out(&mut self) {
        let [io, io_out, sreg, sreg_out] = self.labels();
        let a = &mut self.a;
        a.label(io).to(JSR, self.s.d5).b(LDA_ZP, OPL).b(AND_IMM, 0x0F).b(CMP_IMM, 0x0F).br(BEQ, sreg);
        a.b(AND_IMM, 1).b(EOR_IMM, 1).i(TAY).b(LDA_ZP, OPH).b(AND_IMM, 8).br(BNE, io_out);
        a.w(LDA_ABY, u16::from(SPL)).b(STA_ZPX, REGS).to(JMP, NEXT);
        a.label(io_out).b(LDA_ZPX, REGS).w(STA_ABY, u16::from(SPL)).to(JMP, NEXT);
        a.label(sreg).b(LDA_ZP, OPH).b(AND_IMM, 8).br(BNE, sreg_out);
        a.to(JSR, Routine::SregRead.label()).b(STA_ZPX, REGS).to(JMP, NEXT);
        a.label(sreg_out).b(LDA_ZPX, REGS).to(JSR, Routine::SregWrite.label()).to(JMP, NEXT);
        self.main[44..48].fill(io);
    }

    /// `rjmp`, `rcall` (through the copy's trampolines) and the conditional branches.
    fn relative(&mut self) {
        let [off12, rjmp, rcall, rc] = self.labels();
        let [br, br_s, br_t, br_go, br_clear, take] = self.labels();
        let (a, s) = (&mut self.a, &self.s);
        // off12: TMP = low byte of 2 * offset, A = high byte.
        a.label(off12).b(LDA_ZP, OPL).i(ASL_A).b(STA_ZP, TMP).b(LDA_ZP, OPH).i(ROL_A).b(AND_IMM, 0x1F);
        a.b(CMP_IMM, 0x10).b(BCC, 2).b(ORA_IMM, 0xE0).i(RTS);
        a.label(rjmp).to(JSR, off12);
        a.label(s.add_ipc).i(TAY).b(LDA_ZP, IPC).i(CLC).b(ADC_ZP, TMP).b(STA_ZP, IPC).i(TYA).b(ADC_ZP, IPC + 1);
        a.b(STA_ZP, IPC + 1).to(JMP, NEXT);
        // rcall .+0 only reserves two bytes of stack; any other reaches a trampoline.
        a.label(rcall).b(LDA_ZP, OPL).br(BNE, rc).b(LDA_ZP, OPH).b(AND_IMM, 0x0F).br(BNE, rc);
        a.to(JSR, Routine::Enter.label()).to(JMP, NEXT);
        a.label(rc).to(JSR, off12).i(TAY).b(LDA_ZP, IPC).i(CLC).b(ADC_ZP, TMP).b(STA_ZP, VEC).i(TYA);
        a.b(ADC_ZP, IPC + 1).b(STA_ZP, VEC + 1);
        self.bank1();
        let a = &mut self.a;
        a.b(LDY_IMM, 2).b(LDA_IZY, VEC).i(TAX).i(INY).b(LDA_IZY, VEC);
        a.b(STA_ZP, VEC + 1).b(STX_ZP, VEC);
        self.home();
        let a = &mut self.a;
        a.to(JMP, self.s.call_vec);

        // brbs/brbc: A = the flag (non-zero if set).
        a.label(br).b(LDA_ZP, OPL).b(AND_IMM, 7).i(TAY).b(CPY_IMM, 4).br(BEQ, br_s).b(CPY_IMM, 6).br(BEQ, br_t);
        a.b(LDA_ZP, FLAGS);
        a.items.push(Item::Ins(AND_ABY, Arg::Sym(Sym::Code(CONSTS), Part::Word, 16)));
        a.to(JMP, br_go);
        a.label(br_s).b(LDA_ZP, FLAGS).i(ASL_A).b(EOR_ZP, FLAGS).b(AND_IMM, 0x80).to(JMP, br_go);
        a.label(br_t).b(LDA_ZP, TFLAG);
        a.label(br_go).br(BEQ, br_clear).b(LDA_ZP, OPH).b(AND_IMM, 4).br(BEQ, take).to(JMP, NEXT);
        a.label(br_clear).b(LDA_ZP, OPH).b(AND_IMM, 4).br(BNE, take).to(JMP, NEXT);
        a.label(take).b(LDA_ZP, OPL).b(AND_IMM, 0xF8).b(STA_ZP, TMP).b(LDA_ZP, OPH).i(LSR_A).b(ROR_ZP, TMP);
        a.i(LSR_A).b(ROR_ZP, TMP).b(LDA_ZP, TMP).b(BPL, 2).b(DEC_ZP, IPC + 1).i(CLC).b(ADC_ZP, IPC);
        a.b(STA_ZP, IPC).b(BCC, 2).b(INC_ZP, IPC + 1).to(JMP, NEXT);
        self.main[48..52].fill(rjmp);
        self.main[52..56].fill(rcall);
        self.main[60..62].fill(br);
    }

    /// `bld`/`bst` ($F8-$FB) and `sbrc`/`sbrs` ($FC-$FF): TMP = the bit's mask.
    fn bits(&mut self) {
        let [bits, bst, sbr, sbr_clear] = self.labels();
        let (a, s) = (&mut self.a, &self.s);
        a.label(bits).to(JSR, s.d5).b(LDA_ZP, OPL).b(AND_IMM, 7).i(TAY);
        a.items.push(Item::Ins(LDA_ABY, Arg::Sym(Sym::Code(CONSTS), Part::Word, 0)));
        a.b(STA_ZP, TMP).b(LDA_ZP, OPH).b(CMP_IMM, 0xFC).br(BCS, sbr).b(AND_IMM, 2).br(BNE, bst);
        a.b(LDA_ZP, TMP).b(EOR_IMM, 0xFF).b(AND_ZPX, REGS).b(LDY_ZP, TFLAG).b(BEQ, 2).b(ORA_ZP, TMP);
        a.b(STA_ZPX, REGS).to(JMP, NEXT);
        a.label(bst).b(LDA_ZPX, REGS).b(AND_ZP, TMP).b(STA_ZP, TFLAG).to(JMP, NEXT);
        a.label(sbr).b(LDA_ZPX, REGS).b(AND_ZP, TMP).br(BEQ, sbr_clear);
        a.b(LDA_ZP, OPH).b(AND_IMM, 2).br(BNE, s.skip).to(JMP, NEXT);
        a.label(sbr_clear).b(LDA_ZP, OPH).b(AND_IMM, 2).br(BEQ, s.skip).to(JMP, NEXT);
        self.main[62..64].fill(bits);
    }

    /// The dispatch tables (return addresses, handler - 1: low bytes, then high bytes) and
    /// the constants: bit masks (0..7), `bset`/`bclr` masks by SREG bit (8..15), branch
    /// masks (16..23).
    fn tables(mut self) -> (Asm, Vec<Patch>) {
        let mut patches = Vec::new();
        for (label, entries) in [(TABLE, &self.main), (ONE_TABLE, &self.one), (MEM_TABLE, &self.memt)] {
            let n = entries.len();
            self.a.label(label).items.push(Item::Bytes(vec![0; 2 * n]));
            for (k, &e) in entries.iter().enumerate() {
                let entry = |at, part| Patch { base: label, at, sym: Sym::Code(e), part, off: -1, avr_imm: false };
                patches.push(entry(k, Part::Lo));
                patches.push(entry(n + k, Part::Hi));
            }
        }
        let mut consts = vec![1, 2, 4, 8, 16, 32, 64, 128];
        consts.extend([0x01, 0x02, 0x80, 0x40, 0, 0, 0, 0]);
        consts.extend([0x01, 0x02, 0x80, 0x40, 0, 0, 0, 0]);
        self.a.label(CONSTS).items.push(Item::Bytes(consts));
        (self.a, patches)
    }
}
