//! `memset` of a small constant length at its call site: a call whose length (r21:r20)
//! is known ([`crate::analysis::constants`]) to be 1..=128
//! bytes becomes a loop down through `(r24),Y`, without the runtime routine's set-up, its
//! page loop and the `JSR`/`RTS` (about 145 cycles for 13 bytes instead of about 210, and
//! 9 bytes of code instead of 3). LLVM calls `memset` to clear small locals (a hand's
//! cards, an array of counts).
//!
//! Assumes: `memset(dst: r25:r24, c: r22, n: r21:r20)` as the runtime has it
//! ([`crate::runtime`]); A and Y are scratch between AVR instructions; the code sits in
//! one instruction's chunk, so its backward branch has a fixed offset (which the
//! peephole's and the value tracking's rules leave alone: a chunk with such a loop is not
//! tracked, and the outliner never moves it).
//! Guarantees: the same bytes written as the routine writes (the stores are the same
//! `STA (zp),Y` kind, so the same accesses reach memory-mapped I/O), every AVR register
//! left as the routine leaves it (the destination stays in r25:r24); other lengths are
//! left to the routine (`false`, nothing emitted).

use crate::mmap::reg;
use mos_asm::asm::{Arg, Asm, Item, op::*};

/// The loop for a `memset` of `n` bytes, if `n` is 1 to 128; `false` (nothing emitted)
/// otherwise.
pub fn memset_by(a: &mut Asm, n: u16) -> bool {
    if !(1..=128).contains(&n) {
        return false;
    }
    // LDA c / LDY #n-1 / loop: STA (dst),Y / DEY / BPL loop.
    a.b(LDA_ZP, reg(22)).b(LDY_IMM, (n - 1) as u8);
    a.b(STA_IZY, reg(24)).i(DEY).b(BPL, (-5i8) as u8);
    true
}

/// The longest `memset` of a constant address that [`memset_at`] writes byte by byte.
pub const MAX_UNROLLED: u16 = 16;

/// A `memset` of `n` bytes (1 to [`MAX_UNROLLED`]) at an address known at translation
/// time, `at(j)` the operand of its byte `j`: one absolute store a byte (4 cycles and 3
/// bytes each). Only for an address in RAM (a static frame's local): an absolute store
/// does not read its target first, as `STA (zp),Y` does. `false` (nothing emitted) for
/// other lengths.
pub fn memset_at(a: &mut Asm, n: u16, at: impl Fn(i32) -> Arg) -> bool {
    if !(1..=MAX_UNROLLED).contains(&n) {
        return false;
    }
    a.b(LDA_ZP, reg(22));
    for j in 0..i32::from(n) {
        a.items.push(Item::Ins(STA_ABS, at(j)));
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Zero page with the destination at $80 and the byte `c`, every other byte $EE.
    fn before(c: u8) -> [u8; 256] {
        let mut zp = [0xEE; 256];
        zp[usize::from(reg(24))] = 0x80;
        zp[usize::from(reg(25))] = 0x00;
        zp[usize::from(reg(22))] = c;
        zp
    }

    #[test]
    fn small_lengths_write_exactly_their_bytes() {
        for n in [1u16, 2, 13, 100, 127] {
            let mut a = Asm::default();
            assert!(memset_by(&mut a, n));
            let zp = crate::snippet::run(&a, before(0x5A));
            let mut want = before(0x5A);
            want[0x80..0x80 + usize::from(n)].fill(0x5A);
            assert_eq!(zp, want, "memset of {n} bytes");
        }
    }

    #[test]
    fn the_longest_length_reaches_its_first_and_last_byte() {
        let mut a = Asm::default();
        assert!(memset_by(&mut a, 128));
        let mut zp = before(0);
        zp[usize::from(reg(24))] = 0x40;
        let out = crate::snippet::run(&a, zp);
        assert_eq!(out[0x40..0xC0], [0; 128], "every byte of the 128");
        assert_eq!((out[0x3F], out[0xC0]), (0xEE, 0xEE), "nothing outside");
    }

    #[test]
    fn a_known_address_gets_one_store_a_byte() {
        let mut a = Asm::default();
        assert!(memset_at(&mut a, 13, |j| Arg::Word(0x90 + j as u16)));
        let out = crate::snippet::run(&a, before(0x33));
        let mut want = before(0x33);
        want[0x90..0x9D].fill(0x33);
        assert_eq!(out, want);
        for n in [0u16, MAX_UNROLLED + 1] {
            let mut a = Asm::default();
            assert!(!memset_at(&mut a, n, |j| Arg::Word(0x90 + j as u16)), "{n}");
            assert!(a.items.is_empty());
        }
    }

    #[test]
    fn other_lengths_are_left_to_the_routine() {
        for n in [0u16, 129, 256, 0x1234] {
            let mut a = Asm::default();
            assert!(!memset_by(&mut a, n), "{n}");
            assert!(a.items.is_empty());
        }
    }
}
