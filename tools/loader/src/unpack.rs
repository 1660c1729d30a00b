//! The 6502 decoder of packed files (bac-pack's format, `tools/pack/src/format.rs`): the
//! start-up code unpacks the bank-1 file with it, in place, where the file was loaded, and
//! a packed program unpacks itself with it.
//!
//! Assumes: it is called with JSR from common RAM (the bottom 16 KB, $D506 set), with
//! interrupts off; the address after the packed file's last byte is at `end` (two
//! absolute bytes, low first: what the KERNAL's LOAD returned in X and Y); the file was
//! made by `bac_pack::pack_prg`, so its last six bytes are the trailer (output start,
//! output end, stream start) and its load address lets the stream unpack over itself.
//! Uses T0-T9 ([`crate::mmap::TEMP`]), A, X and Y.
//!
//! Guarantees: the output, byte for byte as `bac_pack::unpack_prg`'s, between the
//! trailer's start and end in the memory that the MMU configuration `map` shows (RAM 1,
//! [`crate::mmap::MMU_CONFIG_BANK1`], for the bank-1 file; all of RAM 0 for a program that
//! unpacks itself, [`crate::selfextract`]), then `home` in $FF00. About 40 cycles a byte
//! of output.

use crate::mmap::{MMU_CR, temp};
use mos_asm::asm::Locals;
use mos_asm::asm::{Arg, Asm, Item, Part, Sym, op::*};

fn t(n: u8) -> u8 {
    temp(n)
}

/// The decoder: reads the trailer below the address in `end`, then tokens until the output
/// reaches its end. Pointers: T0/T1 the trailer, then T2/T3 the output, T4/T5 its end,
/// T6/T7 the stream, T8/T9 a copy's source.
pub fn emit(loc: &mut Locals, end: (Sym, i32), map: u8, home: u8) -> Asm {
    let mut a = Asm::default();
    let (next, literal, advance_dst, copy, far, copy_loop, done) =
        (loc.fresh(), loc.fresh(), loc.fresh(), loc.fresh(), loc.fresh(), loc.fresh(), loc.fresh());
    let (src, dst, stop, from) = (t(6), t(2), t(4), t(8));
    a.b(LDY_IMM, map).w(STY_ABS, MMU_CR);
    // The trailer: six bytes below the end, copied to T2..T7 as they lie.
    a.items.push(Item::Ins(LDA_ABS, Arg::Sym(end.0, Part::Word, end.1)));
    a.i(SEC).b(SBC_IMM, 6).b(STA_ZP, t(0));
    a.items.push(Item::Ins(LDA_ABS, Arg::Sym(end.0, Part::Word, end.1 + 1)));
    a.b(SBC_IMM, 0).b(STA_ZP, t(1));
    let trailer = loc.fresh();
    a.b(LDY_IMM, 5).label(trailer).b(LDA_IZY, t(0)).w(STA_ABY, u16::from(dst)).i(DEY).br(BPL, trailer);

    // Each token: stop once the output's pointer reaches its end.
    a.label(next).b(LDA_ZP, dst).b(CMP_ZP, stop).b(LDA_ZP, dst + 1).b(SBC_ZP, stop + 1).br(BCS, done);
    a.b(LDY_IMM, 0).b(LDA_IZY, src).i(TAX);
    a.b(INC_ZP, src).b(BNE, 2).b(INC_ZP, src + 1);
    a.i(TXA).br(BMI, copy);
    // 0nnnnnnn: n + 1 bytes from the stream.
    a.i(INX);
    a.label(literal).b(LDA_IZY, src).b(STA_IZY, dst).i(INY).i(DEX).br(BNE, literal);
    a.i(TYA).i(CLC).b(ADC_ZP, src).b(STA_ZP, src).b(BCC, 2).b(INC_ZP, src + 1);
    a.label(advance_dst).i(TYA).i(CLC).b(ADC_ZP, dst).b(STA_ZP, dst).b(BCC, 2).b(INC_ZP, dst + 1);
    a.to(JMP, next);

    // 10nnnnnn d: n + 2 bytes from d + 1 back; the source is the output plus the
    // complement of d (high byte $FF), which is the output less d + 1.
    a.label(copy).i(ASL_A).br(BMI, far);
    a.b(LDA_IZY, src).b(EOR_IMM, 0xFF).i(CLC).b(ADC_ZP, dst).b(STA_ZP, from);
    a.b(LDA_ZP, dst + 1).b(ADC_IMM, 0xFF).b(STA_ZP, from + 1);
    a.b(INC_ZP, src).b(BNE, 2).b(INC_ZP, src + 1);
    a.i(TXA).b(AND_IMM, 0x3F).i(TAX).i(INX).i(INX).to(JMP, copy_loop);
    // 11nnnnnn d d: n + 3 bytes from d + 1 back, d in two bytes.
    a.label(far).b(LDA_IZY, src).b(EOR_IMM, 0xFF).i(CLC).b(ADC_ZP, dst).b(STA_ZP, from);
    a.i(INY).b(LDA_IZY, src).b(EOR_IMM, 0xFF).b(ADC_ZP, dst + 1).b(STA_ZP, from + 1);
    a.b(LDA_ZP, src).i(CLC).b(ADC_IMM, 2).b(STA_ZP, src).b(BCC, 2).b(INC_ZP, src + 1);
    a.i(TXA).b(AND_IMM, 0x3F).i(TAX).i(INX).i(INX).i(INX);
    // The copy, a byte at a time from its start (so an overlapping one repeats).
    a.label(copy_loop).b(LDY_IMM, 0);
    let byte = loc.fresh();
    a.label(byte).b(LDA_IZY, from).b(STA_IZY, dst).i(INY).i(DEX).br(BNE, byte);
    a.to(JMP, advance_dst);

    a.label(done).b(LDY_IMM, home).w(STY_ABS, MMU_CR).i(RTS);
    a
}
