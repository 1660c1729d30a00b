//! Indexed loads from a table at a fixed address: LLVM reads `table[i]` for a byte `i` as
//! `mov r26, ri; eor r27, r27; subi r26, lo8(-table); sbci r27, hi8(-table); ld rd, X`
//! (or through Z, with a displacement). On the 6502 that is `LDX ri; LDA table+q,X;
//! STA rd`: 11 cycles instead of about 40, and no pointer in zero page.
//!
//! Assumes: the register liveness of [`crate::analysis::liveness`] (`live_regs`: a register not
//! in it is never read before it is written again) and the flag liveness of
//! [`crate::analysis::flags`]; the table is a `.data` or `.bss` symbol (RAM below the I/O area, so
//! the 6502's extra read of `LDA abs,X` on a page crossing reads RAM).
//! Guarantees: the run is fused only when no instruction but its first can be jumped
//! to, none of them is taken over by another pass (frame slots, pointer copies), the
//! pointer pair is dead after the load (but where the load writes it), and no flag the
//! steps set is read; then the loaded register holds what the `ld` would load and every
//! other register read afterwards is as the AVR leaves it.

use super::*;
use crate::input::decode::Ptr;

impl Ctx<'_> {
    /// `mov p, ri; eor p+1, p+1 (or ldi p+1, 0); subi p, lo; sbci p+1, hi; ld rd, P(+q)`
    /// with P the X or Z pair at p and `-(hi:lo)` a data symbol: one `LDA abs,X`.
    /// Returns the number of instructions folded into `i`.
    pub(super) fn indexed_load(&self, i: usize, a: &mut Asm) -> Result<Option<usize>, TranslateError> {
        use crate::frames::frame_slots::Action;
        let plain = |m: usize| {
            m < self.insns.len()
                && self.frames.slots[m] == Action::Keep
                && self.copies[m] == crate::avr_rewrites::ptr_copies::Copy::Keep
                && !self.frames.set_up[m]
                && self.flow.func_of[m] == self.flow.func_of[i]
        };
        if !self.optimise || !(i..i + 5).all(plain) || !(i + 1..i + 5).all(|m| self.fusion.joins(m)) {
            return Ok(None);
        }
        let [mv, hi0, lo, hi, ld] = [i, i + 1, i + 2, i + 3, i + 4].map(|m| self.insns[m]);
        let p = mv.d;
        let ptr = match p {
            26 => Ptr::X,
            30 => Ptr::Z,
            _ => return Ok(None),
        };
        let zero_hi = match hi0.op {
            Op::Eor => hi0.d == p + 1 && hi0.r == p + 1,
            Op::Ldi => hi0.d == p + 1 && hi0.k == 0 && self.reloc_sym(i + 1, self.flow.addrs[i + 1])?.is_none(),
            _ => false,
        };
        let q = match ld.op {
            Op::Ld(lp, Mode::Disp) if lp == ptr => ld.k as u8,
            _ => return Ok(None),
        };
        if !zero_hi || lo.op != Op::Subi || lo.d != p || hi.op != Op::Sbci || hi.d != p + 1 {
            return Ok(None);
        }
        if self.flags.live_out[i + 3] & CZNV != 0 {
            return Ok(None);
        }
        let dead_after = |reg: u8| reg == ld.d || self.saves.live.live_out[i + 4] & (1 << reg) == 0;
        if !dead_after(p) || !dead_after(p + 1) {
            return Ok(None);
        }
        let table =
            match (self.reloc_sym(i + 2, self.flow.addrs[i + 2])?, self.reloc_sym(i + 3, self.flow.addrs[i + 3])?) {
                (Some((s, Part::NegLo)), Some((t, Part::NegHi)))
                    if s == t && matches!(s, Sym::Data(_) | Sym::Bss(_)) =>
                {
                    s
                }
                _ => return Ok(None),
            };
        a.b(LDX_ZP, r(mv.r));
        a.items.push(Item::Ins(LDA_ABX, Arg::Sym(table, Part::Word, i32::from(q))));
        a.b(STA_ZP, r(ld.d));
        Ok(Some(4))
    }
}
