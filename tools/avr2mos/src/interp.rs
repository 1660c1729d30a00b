//! A 6502 interpreter of AVR code, and the interpreted copies of the functions it runs.
//!
//! Translated code is about 2.4 bytes of 6502 per byte of AVR code; the AVR bytes
//! themselves are much denser. Functions chosen by `[package.metadata.c128] interpret`
//! ([`selected`]) are therefore not lowered: their AVR bytes are copied into the image
//! (with every relocation rewritten, see [`copy_function`]) behind a 3-byte stub,
//! `JSR interp_enter`, which stands at the function's label. Anything calls the function
//! with a plain `JSR` to that label, exactly as a translated function: native code,
//! interpreted code, `icall` through relocated code pointers, vtables.
//!
//! # Machine state
//! The interpreter uses the state translated code uses ([`crate::mmap`]): the zero-page
//! registers, SP and the software stack, the flags byte and the T byte. It computes every
//! flag an instruction defines (C, Z, N, V; S is N xor V as everywhere), so wherever a
//! later instruction reads a flag it finds what the translation would have left. Its own
//! state is the interpreted PC (IPC, the 6502 address of the next AVR word) and a few
//! scratch bytes, all in the runtime scratch bytes T0 and T4..T11: runtime routines the
//! interpreter calls internally use T0..T3 only, and across any call out of the
//! interpreter the IPC is kept in its return stack ([`SHADOW`]).
//!
//! # Calls and re-entrancy
//! `interp_enter` takes the copy's address from its return address (the copy follows the
//! stub) and moves SP down by 2: every interpreted function keeps the AVR's 2-byte
//! return-address footprint on the AVR stack, as translated functions that read SP do
//! (a function that does not read SP cannot tell). `ret` moves SP back up and returns
//! with `RTS` to whoever called the stub. A call from interpreted code keeps the IPC in
//! the return stack ([`SHADOW`], indexed by the 6502 stack pointer) and `JSR`s the
//! callee's 6502 label (a translated function, a native
//! routine, or another stub), so the interpreter is re-entrant; a tail call (`jmp`,
//! `rjmp` or a branch to a function's first instruction) moves SP up and `JMP`s there.
//!
//! # How the copy differs from the AVR bytes
//! Only operands change, never sizes: data addresses and code pointers in `ldi`/`subi`/
//! `sbci`/`cpi`/`ori`/`andi` and `lds`/`sts` become their C128 values as in lowered code;
//! `call` holds the callee's 6502 address in its second word; `jmp` inside the function
//! holds the 6502 address of its target in the copy, and a tail-call `jmp` is marked by
//! bit 0 of its first word (bit 16 of the AVR target, always 0 in a 128 KB program) and
//! holds the callee's 6502 address. Relative calls, tail jumps and branches to another
//! function reach a 4-byte trampoline (a marked `jmp`) appended to the copy; `rcall`
//! reads the callee's address from the trampoline and calls it.

use std::collections::BTreeMap;

use crate::asm::{Arg, Asm, Item, Label, Part, Sym, op::*};
use crate::decode::Op;
use crate::error::TranslateError;
use crate::lower::Ctx;
use crate::mmap::{FLAGS, REGS, SPL, TFLAG, reg, temp};
use crate::runtime::{Locals, Routine};

/// The interpreter's entry: the stub of every interpreted function `JSR`s here.
pub const ENTER: Label = Label(0xC000_0000);
/// The interpreter's fetch-and-dispatch loop (named in the symbol map, for profiling).
pub const NEXT: Label = Label(0xC000_0001);
const TABLE: Label = Label(0xC000_0002);
const ONE_TABLE: Label = Label(0xC000_0003);
const MEM_TABLE: Label = Label(0xC000_0004);
const CONSTS: Label = Label(0xC000_0005);

/// The label of the interpreted copy of function `f` (right after its stub).
pub fn copy_label(f: usize) -> Label {
    Label(0xD000_0000 + f as u32)
}

/// The interpreter's return stack: a call out of interpreted code keeps the IPC at
/// `SHADOW + S + 1` (low) and `SHADOW + S` (high), where S is the 6502 stack pointer at the
/// call. Nested interpreted calls are at least one `JSR` (2 bytes of 6502 stack) apart,
/// so their slots never overlap, no counter has to be kept, and an interpreted call costs
/// the 6502 stack what a translated one does (2 bytes). These 256 bytes are the bottom of
/// the AVR stack's area ([`crate::mmap::STACK_LIMIT`]): in a program with interpreted
/// functions the AVR stack has 2,048 bytes.
pub const SHADOW: u16 = crate::mmap::STACK_LIMIT;

/// Interpreted PC (2 bytes): the 6502 address of the next AVR instruction word (public for
/// profilers, which read it to tell which interpreted function runs).
pub const IPC: u8 = temp(10);
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

/// A byte or word of the image written after layout: table entries of the interpreter
/// and relocated operands of the interpreted copies.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Patch {
    /// The label the offset counts from.
    pub base: Label,
    /// Byte offset from `base`.
    pub at: usize,
    /// The value.
    pub sym: Sym,
    /// Which part of it (a word is written little-endian).
    pub part: Part,
    /// Added to the value before taking the part.
    pub off: i32,
    /// The byte goes into the immediate field of an AVR instruction word (`ldi`, `subi`,
    /// ...: bits 11..8 and 3..0) rather than into a whole byte.
    pub avr_imm: bool,
}

impl Patch {
    /// Writes `value` (the resolved symbol) into `code` at `at`.
    pub fn write(&self, code: &mut [u8], at: usize, value: u16) {
        if self.part == Part::Word {
            code[at..at + 2].copy_from_slice(&value.to_le_bytes());
        } else if self.avr_imm {
            let w = u16::from_le_bytes([code[at], code[at + 1]]);
            let w = (w & 0xF0F0) | ((value & 0xF0) << 4) | (value & 0x0F);
            code[at..at + 2].copy_from_slice(&w.to_le_bytes());
        } else {
            code[at] = value as u8;
        }
    }
}

/// Whether the function called `name` (mangled) is interpreted under the `interpret`
/// setting: `"*"` selects every function, any other entry is a prefix of the demangled
/// name (`"bac_game::"`); an entry starting with `!` is a prefix that stays translated
/// although another entry selects it (`"!bac_game::draw::"`: the hot drawing code of an
/// otherwise interpreted crate); an entry ending in `$` is the whole name, not a prefix.
pub fn selected(interpret: &[String], name: &str) -> bool {
    if interpret.is_empty() {
        return false;
    }
    // Methods demangle as `<bac_game::menu::Menu>::draw` or `<bac_game::menu::Menu as
    // core::fmt::Display>::fmt`: the self type's path counts as the function's.
    let plain = demangle(name);
    let path = plain.strip_prefix('<').unwrap_or(&plain);
    // A pattern ending in `$` names one function whole (`…::App<…>>::t$` is not `::title`).
    let matches = |p: &str| match p.strip_suffix('$') {
        Some(whole) => path == whole || name == whole,
        None => p == "*" || path.starts_with(p) || name.starts_with(p),
    };
    let (excluded, included): (Vec<&String>, Vec<&String>) = interpret.iter().partition(|p| p.starts_with('!'));
    included.iter().any(|p| matches(p)) && !excluded.iter().any(|p| matches(&p[1..]))
}

/// The demangled path of a Rust symbol without its hash (`_RNvNtCs…_4core3fmt5write` →
/// `core::fmt::write`); other names unchanged.
pub fn demangle(name: &str) -> String {
    format!("{:#}", rustc_demangle::demangle(name))
}

/// An interpreted function's copy: its bytes (relocated operands left as they are),
/// the patches that relocate them, and the 6502 labels it calls.
#[derive(Debug, Clone)]
pub struct Copy {
    /// The AVR bytes and the trampolines.
    pub bytes: Vec<u8>,
    /// Operands to rewrite after layout, counted from [`copy_label`].
    pub patches: Vec<Patch>,
    /// Labels the copy calls or jumps to (they must be kept in the image).
    pub uses: Vec<Label>,
}

fn word_at(b: &[u8], at: usize) -> u16 {
    u16::from_le_bytes([b[at], b[at + 1]])
}

fn set_word(b: &mut [u8], at: usize, w: u16) {
    b[at..at + 2].copy_from_slice(&w.to_le_bytes());
}

/// Builds the interpreted copy of function `f`, instructions `first..end`. Every
/// instruction is lowered too (and the code dropped) so that the interpreter accepts
/// exactly what the translator accepts.
pub fn copy_function(ctx: &Ctx, f: usize, first: usize, end: usize) -> Result<Copy, TranslateError> {
    let start = ctx.addrs[first];
    let stop = ctx.addrs.get(end).copied().unwrap_or(ctx.prog.text.len() as u32);
    let mut bytes = ctx.prog.text[start as usize..stop as usize].to_vec();
    let base = copy_label(f);
    let mut patches = Vec::new();
    let mut uses = Vec::new();
    let mut tramps: BTreeMap<u32, usize> = BTreeMap::new();
    let mut tail = Vec::new();
    let body_len = bytes.len();
    let patch = |at: usize, sym: Sym, part: Part, off: i32| Patch { base, at, sym, part, off, avr_imm: false };
    for i in first..end {
        ctx.lower(i, false)?;
        let insn = ctx.insns[i];
        let a = ctx.addrs[i];
        let o = (a - start) as usize;
        let k = insn.k;
        let is_entry = ctx.func_starts.contains_key(&k)
            || ctx.prog.absolute.get(&k).is_some_and(|name| Routine::for_symbol(name).is_some());
        let local = |ctx: &Ctx| {
            if (start..stop).contains(&k) {
                Ok(())
            } else {
                Err(ctx.err(i, "interpreted code cannot jump into another function's middle"))
            }
        };
        match insn.op {
            Op::Ldi | Op::Subi | Op::Sbci | Op::Cpi | Op::Ori | Op::Andi => {
                if let Some((sym, part)) = ctx.reloc_sym(i, a)? {
                    patches.push(Patch { avr_imm: true, ..patch(o, sym, part, 0) });
                }
            }
            Op::Lds | Op::Sts => match ctx.reloc_sym(i, a + 2)? {
                Some((sym, Part::Word)) => patches.push(patch(o + 2, sym, Part::Word, 0)),
                Some(_) => return Err(ctx.err(i, "byte relocation on a 16-bit address")),
                None => {}
            },
            Op::Call => {
                let l = ctx.callee(i, k)?;
                set_word(&mut bytes, o, 0x940E);
                patches.push(patch(o + 2, Sym::Code(l), Part::Word, 0));
                uses.push(l);
            }
            Op::Jmp if is_entry => {
                let l = ctx.callee(i, k)?;
                set_word(&mut bytes, o, 0x940D);
                patches.push(patch(o + 2, Sym::Code(l), Part::Word, 0));
                uses.push(l);
            }
            Op::Jmp => {
                local(ctx)?;
                set_word(&mut bytes, o, 0x940C);
                patches.push(patch(o + 2, Sym::Code(base), Part::Word, (k - start) as i32));
            }
            Op::Rcall if k == a + 2 => {}
            Op::Rcall if !is_entry => {
                return Err(ctx.err(i, "interpreted code can only call the start of a function"));
            }
            Op::Rjmp | Op::Brbs | Op::Brbc if !is_entry => local(ctx)?,
            Op::Rjmp | Op::Rcall | Op::Brbs | Op::Brbc => {
                let l = ctx.callee(i, k)?;
                let t = *tramps.entry(k).or_insert_with(|| {
                    let t = body_len + tail.len();
                    tail.extend_from_slice(&[0x0D, 0x94, 0, 0]);
                    patches.push(patch(t + 2, Sym::Code(l), Part::Word, 0));
                    uses.push(l);
                    t
                });
                let rel = (t as i64 - (o as i64 + 2)) / 2;
                let w = word_at(&bytes, o);
                let w = if matches!(insn.op, Op::Brbs | Op::Brbc) {
                    if !(-64..=63).contains(&rel) {
                        return Err(ctx.err(i, "conditional tail call too far from the interpreter's trampolines"));
                    }
                    (w & 0xFC07) | (((rel as u16) & 0x7F) << 3)
                } else {
                    if !(-2048..=2047).contains(&rel) {
                        return Err(ctx.err(i, "relative call too far from the interpreter's trampolines"));
                    }
                    (w & 0xF000) | ((rel as u16) & 0x0FFF)
                };
                set_word(&mut bytes, o, w);
            }
            _ => {}
        }
    }
    bytes.extend(tail);
    Ok(Copy { bytes, patches, uses })
}

/// Where the interpreted copies are, for [`emit`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CopyPlace {
    /// Right after each stub, in the image (bank 0).
    Inline,
    /// In RAM bank 1 ([`crate::mmap`], "Interpreted functions in RAM bank 1"); the stub's
    /// `JSR` is followed by the copy's bank-1 address. `home` is the MMU configuration the
    /// program runs in, put back after each read of AVR bytes.
    Bank1 {
        /// $FF00 while the program's own code runs.
        home: u8,
    },
}

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
    let mut a = Asm::default();
    let (far, home) = match place {
        CopyPlace::Inline => (false, 0),
        CopyPlace::Bank1 { home } => (true, home),
    };
    let bank1 = |a: &mut Asm| {
        if far {
            map_a(a, crate::mmap::MMU_CONFIG_BANK1);
        }
    };
    let mut l = || loc.fresh();
    let r = |n: u8| reg(n);
    let [rr, k8, d5, fl_a, fl_s, fl_sc, fl_l, fl_m, fl_sh, incdec, skip, call_vec, jv, mem, add_ipc] =
        [(); 15].map(|_| l());
    let [b_sub, b_sbc, b_and, b_or, b_cp] = [(); 5].map(|_| l());
    // The table of every handler, by the top 6 bits of the instruction word.
    let mut main: Vec<Label> = vec![NEXT; 64];
    let mut one: Vec<Label> = vec![NEXT; 16];
    let mut memt: Vec<Label> = vec![NEXT; 16];

    // Entry: the copy starts right after the stub's JSR; keep the return address
    // footprint on the AVR stack.
    a.label(ENTER);
    if far {
        // The stub is `JSR ENTER` and the copy's address: read it through the return
        // address (which points at the JSR's last byte).
        a.i(PLA).b(STA_ZP, VEC).i(PLA).b(STA_ZP, VEC + 1).b(LDY_IMM, 1).b(LDA_IZY, VEC).b(STA_ZP, IPC);
        a.i(INY).b(LDA_IZY, VEC).b(STA_ZP, IPC + 1);
    } else {
        a.i(PLA).i(CLC).b(ADC_IMM, 1).b(STA_ZP, IPC).i(PLA).b(ADC_IMM, 0).b(STA_ZP, IPC + 1);
    }
    a.to(JSR, Routine::Enter.label());
    // Fetch, step IPC, dispatch through the table (RTS to handler - 1).
    a.label(NEXT);
    bank1(&mut a);
    a.b(LDY_IMM, 0).b(LDA_IZY, IPC).b(STA_ZP, OPL).i(INY).b(LDA_IZY, IPC).b(STA_ZP, OPH);
    if far {
        a.b(LDX_IMM, home).w(STX_ABS, crate::mmap::MMU_CR);
    }
    a.i(LSR_A).i(LSR_A).i(TAX);
    a.b(LDA_ZP, IPC).i(CLC).b(ADC_IMM, 2).b(STA_ZP, IPC).b(BCC, 2).b(INC_ZP, IPC + 1);
    a.items.push(Item::Ins(LDA_ABX, Arg::Sym(Sym::Code(TABLE), Part::Word, 64)));
    a.i(PHA);
    a.items.push(Item::Ins(LDA_ABX, Arg::Sym(Sym::Code(TABLE), Part::Word, 0)));
    a.i(PHA).i(RTS);

    // Operand helpers. d5: X = d (bits 8..4).
    a.label(d5).b(LDA_ZP, OPH).i(LSR_A).b(LDA_ZP, OPL).i(ROR_A).i(LSR_A).i(LSR_A).i(LSR_A).i(TAX).i(RTS);
    // rr: X = d, OPB = Rr, A = Rd.
    a.label(rr).to(JSR, d5).b(LDA_ZP, OPH).b(AND_IMM, 2).i(ASL_A).i(ASL_A).i(ASL_A).b(STA_ZP, TMP);
    a.b(LDA_ZP, OPL).b(AND_IMM, 0x0F).b(ORA_ZP, TMP).i(TAY).w(LDA_ABY, u16::from(REGS)).b(STA_ZP, OPB);
    a.b(LDA_ZPX, REGS).i(RTS);
    // k8: X = d (16..31), OPB = K, A = Rd.
    a.label(k8).b(LDA_ZP, OPL).i(LSR_A).i(LSR_A).i(LSR_A).i(LSR_A).b(ORA_IMM, 0x10).i(TAX);
    a.b(LDA_ZP, OPH).i(ASL_A).i(ASL_A).i(ASL_A).i(ASL_A).b(STA_ZP, TMP);
    a.b(LDA_ZP, OPL).b(AND_IMM, 0x0F).b(ORA_ZP, TMP).b(STA_ZP, OPB).b(LDA_ZPX, REGS).i(RTS);

    // Flag tails, entered with the 6502 flags of the operation.
    a.label(fl_a).i(PHP).i(PLA).b(AND_IMM, 0xC3).b(STA_ZP, FLAGS).to(JMP, NEXT);
    a.label(fl_s).i(PHP).i(PLA).b(AND_IMM, 0xC3).b(EOR_IMM, 1).b(STA_ZP, FLAGS).to(JMP, NEXT);
    // Chained subtraction: Z stays set only if it was.
    a.label(fl_sc).i(PHP).i(PLA).b(AND_IMM, 0xC3).b(EOR_IMM, 1).b(STA_ZP, TMP);
    a.b(LDA_ZP, FLAGS).b(ORA_IMM, 0xFD).b(AND_ZP, TMP).b(STA_ZP, FLAGS).to(JMP, NEXT);
    // Logic: Z, N; V = 0; C kept.
    a.label(fl_l).i(PHP).i(PLA).b(AND_IMM, 0x82).b(STA_ZP, TMP);
    a.label(fl_m).b(LDA_ZP, FLAGS).b(AND_IMM, 0x01).b(ORA_ZP, TMP).b(STA_ZP, FLAGS).to(JMP, NEXT);
    // Shifts: C, Z, N; V = N xor C.
    a.label(fl_sh).i(PHP).i(PLA).b(AND_IMM, 0x83).b(BPL, 2).b(EOR_IMM, 0x40).b(BCC, 2).b(EOR_IMM, 0x40);
    a.b(STA_ZP, FLAGS).to(JMP, NEXT);
    // inc/dec (P pushed, Y = the result that overflows): Z, N; V = (Rd == Y); C kept.
    a.label(incdec).i(PLA).b(AND_IMM, 0x82).b(STA_ZP, TMP).i(TYA).b(CMP_ZPX, REGS).br(BNE, fl_m);
    a.b(LDA_ZP, TMP).b(ORA_IMM, 0x40).b(STA_ZP, TMP).to(JMP, fl_m);

    // Two-register and immediate arithmetic.
    let h = |a: &mut Asm, l: Label, helper: Label| {
        a.label(l).to(JSR, helper);
    };
    let [h_add, h_adc, h_sub, h_sbc, h_cp, h_cpc, h_and, h_or, h_eor, h_mov, h_cpse] = [(); 11].map(|_| l());
    let [h_cpi, h_sbci, h_subi, h_ori, h_andi, h_ldi] = [(); 6].map(|_| l());
    h(&mut a, h_add, rr);
    a.i(CLC).b(ADC_ZP, OPB).b(STA_ZPX, REGS).to(JMP, fl_a);
    h(&mut a, h_adc, rr);
    a.i(TAY).b(LDA_ZP, FLAGS).i(LSR_A).i(TYA).b(ADC_ZP, OPB).b(STA_ZPX, REGS).to(JMP, fl_a);
    h(&mut a, h_sub, rr);
    a.label(b_sub).i(SEC).b(SBC_ZP, OPB).b(STA_ZPX, REGS).to(JMP, fl_s);
    h(&mut a, h_cp, rr);
    a.label(b_cp).i(SEC).b(SBC_ZP, OPB).to(JMP, fl_s);
    h(&mut a, h_sbc, rr);
    a.label(b_sbc).i(TAY).b(LDA_ZP, FLAGS).b(EOR_IMM, 1).i(LSR_A).i(TYA);
    a.b(SBC_ZP, OPB).b(STA_ZPX, REGS).to(JMP, fl_sc);
    h(&mut a, h_cpc, rr);
    a.i(TAY).b(LDA_ZP, FLAGS).b(EOR_IMM, 1).i(LSR_A).i(TYA).b(SBC_ZP, OPB).to(JMP, fl_sc);
    h(&mut a, h_and, rr);
    a.label(b_and).b(AND_ZP, OPB).b(STA_ZPX, REGS).to(JMP, fl_l);
    h(&mut a, h_or, rr);
    a.label(b_or).b(ORA_ZP, OPB).b(STA_ZPX, REGS).to(JMP, fl_l);
    h(&mut a, h_eor, rr);
    a.b(EOR_ZP, OPB).b(STA_ZPX, REGS).to(JMP, fl_l);
    h(&mut a, h_mov, rr);
    a.b(LDA_ZP, OPB).b(STA_ZPX, REGS).to(JMP, NEXT);
    h(&mut a, h_cpse, rr);
    a.b(CMP_ZP, OPB).br(BEQ, skip).to(JMP, NEXT);
    for (lab, body) in [(h_cpi, b_cp), (h_sbci, b_sbc), (h_subi, b_sub), (h_ori, b_or), (h_andi, b_and)] {
        h(&mut a, lab, k8);
        a.to(JMP, body);
    }
    h(&mut a, h_ldi, k8);
    a.b(LDA_ZP, OPB).b(STA_ZPX, REGS).to(JMP, NEXT);

    // Skip the next instruction (one or two words).
    let [s_j, s_add, s_4] = [(); 3].map(|_| l());
    a.label(skip);
    bank1(&mut a);
    a.b(LDY_IMM, 1).b(LDA_IZY, IPC).i(TAX).b(LDY_IMM, 0).b(LDA_IZY, IPC).b(STA_ZP, TMP);
    if far {
        a.b(LDY_IMM, home).w(STY_ABS, crate::mmap::MMU_CR);
    }
    a.b(LDY_IMM, 2);
    a.i(TXA).b(AND_IMM, 0xFC).b(CMP_IMM, 0x90).br(BNE, s_j);
    a.b(LDA_ZP, TMP).b(AND_IMM, 0x0F).br(BNE, s_add).br(BEQ, s_4);
    a.label(s_j).i(TXA).b(AND_IMM, 0xFE).b(CMP_IMM, 0x94).br(BNE, s_add);
    a.b(LDA_ZP, TMP).b(AND_IMM, 0x0C).b(CMP_IMM, 0x0C).br(BNE, s_add);
    a.label(s_4).b(LDY_IMM, 4);
    a.label(s_add).i(TYA).i(CLC).b(ADC_ZP, IPC).b(STA_ZP, IPC).b(BCC, 2).b(INC_ZP, IPC + 1).to(JMP, NEXT);

    // Group 0: nop, movw, muls, mulsu and the fmuls.
    let [g0, movw, muls, mul_nf, mul_f, m_go] = [(); 6].map(|_| l());
    a.label(g0).b(LDA_ZP, OPH).br(BEQ, NEXT).b(CMP_IMM, 1).br(BEQ, movw).b(CMP_IMM, 2).br(BEQ, muls);
    // mulsu/fmul*: d, r in r16..r23.
    a.b(LDA_ZP, OPL).i(LSR_A).i(LSR_A).i(LSR_A).i(LSR_A).b(AND_IMM, 7).b(ORA_IMM, 0x10).i(TAX);
    a.b(LDA_ZP, OPL).b(AND_IMM, 7).b(ORA_IMM, 0x10).i(TAY);
    a.b(LDA_ZPX, REGS).b(STA_ZP, temp(0)).w(LDA_ABY, u16::from(REGS)).b(STA_ZP, temp(1));
    let [f1, f2, f3] = [(); 3].map(|_| l());
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
    let h_mul = l();
    a.label(h_mul).to(JSR, rr).b(STA_ZP, temp(0)).b(LDA_ZP, OPB).b(STA_ZP, temp(1)).to(JSR, Routine::Mul8u.label());
    // Flags of the multiplies: C = bit 15 (or the bit fmul shifts out), Z = (r1:r0 == 0).
    a.label(mul_nf).b(LDA_ZP, r(1)).i(ASL_A).to(JMP, m_go);
    a.label(mul_f).b(ASL_ZP, r(0)).b(ROL_ZP, r(1));
    a.label(m_go).b(LDA_IMM, 0).i(ROL_A).b(STA_ZP, temp(2)).b(LDA_ZP, r(0)).b(ORA_ZP, r(1));
    a.i(PHP).i(PLA).b(AND_IMM, 0x02).b(ORA_ZP, temp(2)).b(STA_ZP, temp(2));
    a.b(LDA_ZP, FLAGS).b(AND_IMM, 0xC0).b(ORA_ZP, temp(2)).b(STA_ZP, FLAGS).to(JMP, NEXT);

    // $94-$97: one-register group (by the low nibble), adiw, sbiw.
    let [g9x, adsb, sbiw, wz] = [(); 4].map(|_| l());
    a.label(g9x).b(LDA_ZP, OPH).b(AND_IMM, 2).br(BNE, adsb);
    a.b(LDA_ZP, OPL).b(AND_IMM, 0x0F).i(TAY);
    a.items.push(Item::Ins(LDA_ABY, Arg::Sym(Sym::Code(ONE_TABLE), Part::Word, 16)));
    a.i(PHA);
    a.items.push(Item::Ins(LDA_ABY, Arg::Sym(Sym::Code(ONE_TABLE), Part::Word, 0)));
    a.i(PHA).to(JSR, d5).b(LDA_ZPX, REGS).i(RTS);
    a.label(adsb).b(LDA_ZP, OPL).b(AND_IMM, 0x30).i(LSR_A).i(LSR_A).i(LSR_A).b(ORA_IMM, 24).i(TAX);
    a.b(LDA_ZP, OPL).b(AND_IMM, 0x0F).b(STA_ZP, TMP).b(LDA_ZP, OPL).i(LSR_A).i(LSR_A).b(AND_IMM, 0x30);
    a.b(ORA_ZP, TMP).b(STA_ZP, OPB).b(LDA_ZP, OPH).i(LSR_A).br(BCS, sbiw);
    a.i(CLC).b(LDA_ZPX, REGS).b(ADC_ZP, OPB).b(STA_ZPX, REGS).b(LDA_ZPX, REGS + 1).b(ADC_IMM, 0);
    a.b(STA_ZPX, REGS + 1).i(PHP).i(PLA).b(AND_IMM, 0xC3).to(JMP, wz);
    a.label(sbiw).i(SEC).b(LDA_ZPX, REGS).b(SBC_ZP, OPB).b(STA_ZPX, REGS).b(LDA_ZPX, REGS + 1).b(SBC_IMM, 0);
    a.b(STA_ZPX, REGS + 1).i(PHP).i(PLA).b(AND_IMM, 0xC3).b(EOR_IMM, 1);
    a.label(wz).b(LDY_ZPX, REGS).b(BEQ, 2).b(AND_IMM, 0xFD).b(STA_ZP, FLAGS).to(JMP, NEXT);

    // One-register instructions: A = Rd, X = d.
    let [com, neg, swap, inc, dec, asr, lsr, ror, g8, g9, jc] = [(); 11].map(|_| l());
    a.label(com).b(EOR_IMM, 0xFF).b(STA_ZPX, REGS).i(PHP).i(PLA).b(AND_IMM, 0x82).b(ORA_IMM, 0x01);
    a.b(STA_ZP, FLAGS).to(JMP, NEXT);
    a.label(neg).i(SEC).b(LDA_IMM, 0).b(SBC_ZPX, REGS).b(STA_ZPX, REGS).to(JMP, fl_s);
    a.label(swap).to(JSR, Routine::SwapA.label()).b(STA_ZPX, REGS).to(JMP, NEXT);
    a.label(inc).b(INC_ZPX, REGS).i(PHP).b(LDY_IMM, 0x80).to(JMP, incdec);
    a.label(dec).b(DEC_ZPX, REGS).i(PHP).b(LDY_IMM, 0x7F).to(JMP, incdec);
    a.label(asr).b(CMP_IMM, 0x80).i(ROR_A).b(STA_ZPX, REGS).to(JMP, fl_sh);
    a.label(lsr).b(LSR_ZPX, REGS).to(JMP, fl_sh);
    a.label(ror).b(LDA_ZP, FLAGS).i(LSR_A).b(ROR_ZPX, REGS).to(JMP, fl_sh);
    // $9x08: ret ($95), bset/bclr ($94).
    let [bs_t, bs_clr, bset] = [(); 3].map(|_| l());
    a.label(g8).b(LDA_ZP, OPH).i(LSR_A);
    a.br(BCC, bset).to(JMP, Routine::Leave.label());
    a.label(bset).b(LDA_ZP, OPL).i(LSR_A).i(LSR_A).i(LSR_A).i(LSR_A).b(AND_IMM, 7).i(TAY).b(CPY_IMM, 6).br(BEQ, bs_t);
    a.items.push(Item::Ins(LDA_ABY, Arg::Sym(Sym::Code(CONSTS), Part::Word, 8)));
    a.b(BIT_ZP, OPL).br(BMI, bs_clr).b(ORA_ZP, FLAGS).b(STA_ZP, FLAGS).to(JMP, NEXT);
    a.label(bs_clr).b(EOR_IMM, 0xFF).b(AND_ZP, FLAGS).b(STA_ZP, FLAGS).to(JMP, NEXT);
    a.label(bs_t).b(LDA_ZP, OPL).b(AND_IMM, 0x80).b(EOR_IMM, 0x80).b(STA_ZP, TFLAG).to(JMP, NEXT);
    // $9x09: ijmp ($94), icall ($95): Z holds a 6502 address.
    let icall = l();
    a.label(g9).b(LDA_ZP, OPH).i(LSR_A).br(BCS, icall).to(JSR, Routine::Leave.label());
    a.w(JMP_IND, u16::from(r(30)));
    a.label(icall).b(LDA_ZP, r(30)).b(STA_ZP, VEC).b(LDA_ZP, r(31)).b(STA_ZP, VEC + 1).to(JMP, call_vec);
    // jmp/call: the second word is a 6502 address (see the module docs).
    let [tailc, callc] = [(); 2].map(|_| l());
    a.label(jc);
    bank1(&mut a);
    a.b(LDY_IMM, 0).b(LDA_IZY, IPC).b(STA_ZP, VEC).i(INY).b(LDA_IZY, IPC).b(STA_ZP, VEC + 1);
    if far {
        map_a(&mut a, home);
    }
    a.b(LDA_ZP, IPC).i(CLC).b(ADC_IMM, 2).b(STA_ZP, IPC).b(BCC, 2).b(INC_ZP, IPC + 1);
    a.b(LDA_ZP, OPL).b(AND_IMM, 3).b(CMP_IMM, 1).br(BEQ, tailc).br(BCS, callc);
    a.b(LDA_ZP, VEC).b(STA_ZP, IPC).b(LDA_ZP, VEC + 1).b(STA_ZP, IPC + 1).to(JMP, NEXT);
    a.label(tailc).to(JSR, Routine::Leave.label()).w(JMP_IND, u16::from(VEC));
    a.label(callc);
    a.label(call_vec).i(TSX).b(LDA_ZP, IPC).w(STA_ABX, SHADOW + 1).b(LDA_ZP, IPC + 1).w(STA_ABX, SHADOW);
    a.to(JSR, jv).i(TSX).w(LDA_ABX, SHADOW + 1).b(STA_ZP, IPC).w(LDA_ABX, SHADOW).b(STA_ZP, IPC + 1).to(JMP, NEXT);
    a.label(jv).w(JMP_IND, u16::from(VEC));
    one[0] = com;
    one[1] = neg;
    one[2] = swap;
    one[3] = inc;
    one[5] = asr;
    one[6] = lsr;
    one[7] = ror;
    one[8] = g8;
    one[9] = g9;
    one[10] = dec;
    one[12..16].copy_from_slice(&[jc; 4]);

    // Loads and stores, $90-$93: pointer mode by the low nibble.
    let [ldst, m_abs, pre, plain, post, st, pp, push] = [(); 8].map(|_| l());
    a.label(ldst).to(JSR, d5).b(STX_ZP, DIX).b(LDA_ZP, OPL).b(AND_IMM, 0x0F).i(TAY);
    a.items.push(Item::Ins(LDA_ABY, Arg::Sym(Sym::Code(MEM_TABLE), Part::Word, 16)));
    a.i(PHA);
    a.items.push(Item::Ins(LDA_ABY, Arg::Sym(Sym::Code(MEM_TABLE), Part::Word, 0)));
    a.i(PHA).i(RTS);
    a.label(m_abs);
    bank1(&mut a);
    a.b(LDY_IMM, 0).b(LDA_IZY, IPC).b(STA_ZP, VEC).i(INY).b(LDA_IZY, IPC).b(STA_ZP, VEC + 1);
    if far {
        map_a(&mut a, home);
    }
    a.b(LDA_ZP, IPC).i(CLC).b(ADC_IMM, 2).b(STA_ZP, IPC).b(BCC, 2).b(INC_ZP, IPC + 1).to(JMP, mem);
    let mut modes = Vec::new();
    for (nibble, ptr, how) in
        [(1, 30, post), (2, 30, pre), (9, 28, post), (10, 28, pre), (12, 26, plain), (13, 26, post), (14, 26, pre)]
    {
        let m = l();
        a.label(m).b(LDX_IMM, ptr).to(JMP, how);
        modes.push((nibble, m));
    }
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
    memt[0] = m_abs;
    for (nibble, m) in modes {
        memt[nibble] = m;
    }
    memt[15] = pp;

    // ldd/std: q = H5 | H3..2 << 1 | W2..0, through Y (W bit 3) or Z.
    let ldd = l();
    a.label(ldd).to(JSR, d5).b(STX_ZP, DIX).b(LDA_ZP, OPL).b(AND_IMM, 7).b(STA_ZP, TMP);
    a.b(LDA_ZP, OPH).i(ASL_A).b(AND_IMM, 0x18).b(ORA_ZP, TMP).b(STA_ZP, TMP);
    a.b(LDA_ZP, OPH).b(AND_IMM, 0x20).b(ORA_ZP, TMP).i(TAY);
    a.b(LDX_IMM, 30).b(LDA_ZP, OPL).b(AND_IMM, 8).b(BEQ, 2).b(LDX_IMM, 28);
    a.i(TYA).i(CLC).b(ADC_ZPX, REGS).b(STA_ZP, VEC).b(LDA_ZPX, REGS + 1).b(ADC_IMM, 0).b(STA_ZP, VEC + 1);
    a.to(JMP, mem);

    // in/out: SPL ($3D), SPH ($3E), SREG ($3F).
    let [io, io_out, sreg, sreg_out] = [(); 4].map(|_| l());
    a.label(io).to(JSR, d5).b(LDA_ZP, OPL).b(AND_IMM, 0x0F).b(CMP_IMM, 0x0F).br(BEQ, sreg);
    a.b(AND_IMM, 1).b(EOR_IMM, 1).i(TAY).b(LDA_ZP, OPH).b(AND_IMM, 8).br(BNE, io_out);
    a.w(LDA_ABY, u16::from(SPL)).b(STA_ZPX, REGS).to(JMP, NEXT);
    a.label(io_out).b(LDA_ZPX, REGS).w(STA_ABY, u16::from(SPL)).to(JMP, NEXT);
    a.label(sreg).b(LDA_ZP, OPH).b(AND_IMM, 8).br(BNE, sreg_out);
    a.to(JSR, Routine::SregRead.label()).b(STA_ZPX, REGS).to(JMP, NEXT);
    a.label(sreg_out).b(LDA_ZPX, REGS).to(JSR, Routine::SregWrite.label()).to(JMP, NEXT);

    // rjmp/rcall: TMP = low byte of 2 * offset, A = high byte.
    let [off12, rjmp, rcall, rc] = [(); 4].map(|_| l());
    a.label(off12).b(LDA_ZP, OPL).i(ASL_A).b(STA_ZP, TMP).b(LDA_ZP, OPH).i(ROL_A).b(AND_IMM, 0x1F);
    a.b(CMP_IMM, 0x10).b(BCC, 2).b(ORA_IMM, 0xE0).i(RTS);
    a.label(rjmp).to(JSR, off12);
    a.label(add_ipc).i(TAY).b(LDA_ZP, IPC).i(CLC).b(ADC_ZP, TMP).b(STA_ZP, IPC).i(TYA).b(ADC_ZP, IPC + 1);
    a.b(STA_ZP, IPC + 1).to(JMP, NEXT);
    // rcall .+0 only reserves two bytes of stack; any other reaches a trampoline.
    a.label(rcall).b(LDA_ZP, OPL).br(BNE, rc).b(LDA_ZP, OPH).b(AND_IMM, 0x0F).br(BNE, rc);
    a.to(JSR, Routine::Enter.label()).to(JMP, NEXT);
    a.label(rc).to(JSR, off12).i(TAY).b(LDA_ZP, IPC).i(CLC).b(ADC_ZP, TMP).b(STA_ZP, VEC).i(TYA);
    a.b(ADC_ZP, IPC + 1).b(STA_ZP, VEC + 1);
    bank1(&mut a);
    a.b(LDY_IMM, 2).b(LDA_IZY, VEC).i(TAX).i(INY).b(LDA_IZY, VEC);
    a.b(STA_ZP, VEC + 1).b(STX_ZP, VEC);
    if far {
        map_a(&mut a, home);
    }
    a.to(JMP, call_vec);

    // brbs/brbc: A = the flag (non-zero if set).
    let [br, br_s, br_t, br_go, br_clear, take] = [(); 6].map(|_| l());
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

    // bld/bst ($F8-$FB), sbrc/sbrs ($FC-$FF): TMP = the bit's mask.
    let [bits, bst, sbr, sbr_clear] = [(); 4].map(|_| l());
    a.label(bits).to(JSR, d5).b(LDA_ZP, OPL).b(AND_IMM, 7).i(TAY);
    a.items.push(Item::Ins(LDA_ABY, Arg::Sym(Sym::Code(CONSTS), Part::Word, 0)));
    a.b(STA_ZP, TMP).b(LDA_ZP, OPH).b(CMP_IMM, 0xFC).br(BCS, sbr).b(AND_IMM, 2).br(BNE, bst);
    a.b(LDA_ZP, TMP).b(EOR_IMM, 0xFF).b(AND_ZPX, REGS).b(LDY_ZP, TFLAG).b(BEQ, 2).b(ORA_ZP, TMP);
    a.b(STA_ZPX, REGS).to(JMP, NEXT);
    a.label(bst).b(LDA_ZPX, REGS).b(AND_ZP, TMP).b(STA_ZP, TFLAG).to(JMP, NEXT);
    a.label(sbr).b(LDA_ZPX, REGS).b(AND_ZP, TMP).br(BEQ, sbr_clear);
    a.b(LDA_ZP, OPH).b(AND_IMM, 2).br(BNE, skip).to(JMP, NEXT);
    a.label(sbr_clear).b(LDA_ZP, OPH).b(AND_IMM, 2).br(BEQ, skip).to(JMP, NEXT);

    // The main table, by the top 6 bits.
    let rows: [(usize, usize, Label); 24] = [
        (0, 1, g0),
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
        (32, 36, ldd),
        (36, 37, ldst),
        (37, 38, g9x),
        (39, 40, h_mul),
        (40, 44, ldd),
        (44, 48, io),
        (48, 52, rjmp),
    ];
    for (from, to, lab) in rows {
        main[from..to].fill(lab);
    }
    main[52..56].fill(rcall);
    main[56..60].fill(h_ldi);
    main[60..62].fill(br);
    main[62..64].fill(bits);

    // Tables: return addresses (handler - 1), low bytes then high bytes.
    let mut patches = Vec::new();
    for (label, entries) in [(TABLE, &main), (ONE_TABLE, &one), (MEM_TABLE, &memt)] {
        let n = entries.len();
        a.label(label).items.push(Item::Bytes(vec![0; 2 * n]));
        for (k, &e) in entries.iter().enumerate() {
            let entry = |at, part| Patch { base: label, at, sym: Sym::Code(e), part, off: -1, avr_imm: false };
            patches.push(entry(k, Part::Lo));
            patches.push(entry(n + k, Part::Hi));
        }
    }
    // Bit masks (0..7), bset/bclr masks by SREG bit (8..15), branch masks (16..23).
    let mut consts = vec![1, 2, 4, 8, 16, 32, 64, 128];
    consts.extend([0x01, 0x02, 0x80, 0x40, 0, 0, 0, 0]);
    consts.extend([0x01, 0x02, 0x80, 0x40, 0, 0, 0, 0]);
    a.label(CONSTS).items.push(Item::Bytes(consts));
    (a, patches)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn demangles_legacy_paths_without_the_hash() {
        assert_eq!(demangle("_ZN8bac_game4menu4draw17h0123456789abcdefE"), "bac_game::menu::draw");
        assert_eq!(demangle("main"), "main");
        assert!(selected(&["bac_game::".into()], "_ZN8bac_game4menu4draw17h0123456789abcdefE"));
        assert!(!selected(&["bac_game::".into()], "_ZN4core3fmt5write17h0123456789abcdefE"));
        assert!(selected(&["*".into()], "memcpy_helper"));
        let method = "_RNvXs_NtCs1_8bac_game4menuNtB4_4MenuNtNtCs2_4core3fmt7Display3fmt";
        assert_eq!(demangle(method), "<bac_game::menu::Menu as core::fmt::Display>::fmt");
        assert!(selected(&["bac_game::".into()], method));
        assert!(!selected(&[], "main"));
        let but_draw = ["bac_game::".to_string(), "!bac_game::draw::".to_string()];
        assert!(selected(&but_draw, "_ZN8bac_game4menu4draw17h0123456789abcdefE"));
        assert!(!selected(&but_draw, "_ZN8bac_game4draw4text17h0123456789abcdefE"));
        let but_t = ["bac_game::".to_string(), "!bac_game::menu::t$".to_string()];
        assert!(!selected(&but_t, "_ZN8bac_game4menu1t17h0123456789abcdefE"));
        assert!(selected(&but_t, "_ZN8bac_game4menu5title17h0123456789abcdefE"));
        assert!(!selected(&["!bac_game::draw::".to_string()], "_ZN8bac_game4menu4draw17h0123456789abcdefE"));
    }
}
