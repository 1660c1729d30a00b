//! `__mulsi3` by a constant: when one operand of a 32-bit multiply is a known constant
//! (FNV's prime, a linear congruential generator's multiplier, a fixed-point scale, often
//! kept by LLVM in callee-saved registers from before the loop), the product is built from
//! shifts and adds of the other operand, with no call. The general routine loops over the
//! multiplier's bits, about 50 cycles a bit up to its highest; here only the set bits cost
//! an add, and shifts are shared between bits that lie the same distance above a byte
//! boundary: FNV's 0x01000193 takes about 350 cycles instead of about 820.
//!
//! Each set bit `8j + s` of the constant adds the operand shifted left by `s` (a copy in
//! scratch, shifted as `s` grows) into the product from its byte `j` up: bits 0, 8 and 24
//! cost one shifted copy and three adds of 4, 3 and 1 bytes.
//!
//! Assumes: the constant reaches the call on every path ([`crate::analysis::constants`]).
//! Guarantees: r25:r22 hold the low 32 bits of the product, as after `__mulsi3`, and no
//! other AVR register changes (the operand in r21:r18 is read, never written); the 6502
//! flags and the scratch T0..T3 are left undefined, as after any call of the runtime.

use crate::mmap::{reg, temp};
use mos_asm::asm::{Asm, Item, info, op::*};

/// The most bytes the sequence may take. The call it replaces is 3 bytes, but a program
/// whose every 32-bit multiply is by a constant also loses the general routine (140
/// bytes); FNV's prime takes 151.
pub const MAX_BYTES: u32 = 160;

/// Whether the sequence for `x * k` takes at most [`MAX_BYTES`].
pub fn fits(x: u8, k: u32) -> bool {
    size(&sequence(x, k)) <= MAX_BYTES
}

/// Emits r25:r22 = (the 32-bit operand at AVR register `x`, 18 or 22) * `k`, low 32
/// bits; `false` (nothing emitted) when the sequence would take more than [`MAX_BYTES`].
pub fn mul32_by(a: &mut Asm, x: u8, k: u32) -> bool {
    debug_assert!(x == 18 || x == 22, "the operands of __mulsi3 are r21:r18 and r25:r22");
    let code = sequence(x, k);
    if size(&code) > MAX_BYTES {
        return false;
    }
    a.items.extend(code.items);
    true
}

/// The bytes of `a`'s instructions.
fn size(a: &Asm) -> u32 {
    a.items
        .iter()
        .map(|it| match it {
            Item::Ins(o, _) => info(*o).map_or(3, |(s, _)| u32::from(s)),
            _ => 0,
        })
        .sum()
}

/// The code for `x * k` into r25:r22.
fn sequence(x: u8, k: u32) -> Asm {
    let mut a = Asm::default();
    let (product, operand) = (|j: usize| reg(22 + j as u8), |j: usize| reg(x + j as u8));
    let shifted = |j: usize| temp(j as u8);
    // The set bits by their distance above a byte boundary: (s, the bytes j with bit 8j + s).
    let mut terms: Vec<(u32, Vec<usize>)> = (0..8)
        .map(|s| (s, (0..4).filter(|j| k & (1 << (8 * j + s as usize)) != 0).collect::<Vec<_>>()))
        .filter(|(_, js)| !js.is_empty())
        .collect();
    // Bit 0 makes the product start as the operand itself; otherwise it starts at zero.
    let starts_as_operand = k & 1 != 0;
    if starts_as_operand {
        terms[0].1.remove(0);
    }
    let any_add = terms.iter().any(|(_, js)| !js.is_empty());
    if any_add {
        for j in 0..4 {
            a.b(LDA_ZP, operand(j)).b(STA_ZP, shifted(j));
        }
    }
    match (starts_as_operand, x) {
        (true, 22) => {}
        (true, _) => {
            for j in 0..4 {
                a.b(LDA_ZP, operand(j)).b(STA_ZP, product(j));
            }
        }
        (false, _) => {
            a.b(LDA_IMM, 0);
            for j in 0..4 {
                a.b(STA_ZP, product(j));
            }
        }
    }
    let mut at = 0;
    for (n, (s, js)) in terms.iter().enumerate() {
        if js.is_empty() {
            continue;
        }
        // Only the bytes some add still reads need shifting: an add into byte j reads the
        // shifted copy's bytes 0..4-j.
        let width = 4 - terms[n..].iter().flat_map(|(_, js)| js.iter()).copied().min().unwrap_or(0);
        shift(&mut a, shifted, width, s - at);
        at = *s;
        for &j in js {
            a.i(CLC);
            for b in 0..4 - j {
                a.b(LDA_ZP, product(j + b)).b(ADC_ZP, shifted(b)).b(STA_ZP, product(j + b));
            }
        }
    }
    a
}

/// Shifts the `width` low bytes of the copy left by `by` bits: passes inline (`2 * width`
/// bytes each), or a loop of one pass (`2 * width + 5` bytes, 5 cycles a pass more) where
/// that is smaller.
fn shift(a: &mut Asm, byte: impl Fn(usize) -> u8, width: usize, by: u32) {
    let pass = |a: &mut Asm| {
        a.b(ASL_ZP, byte(0));
        for j in 1..width {
            a.b(ROL_ZP, byte(j));
        }
    };
    let inline = by as usize * 2 * width;
    if inline <= 2 * width + 5 {
        for _ in 0..by {
            pass(a);
        }
    } else {
        a.b(LDX_IMM, by as u8);
        pass(a);
        // Back over the pass, `DEX` and the branch itself.
        let body = 2 * width as u8 + 1 + 2;
        a.i(DEX).b(BNE, body.wrapping_neg());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Runs `a` on the 6502 with r25:r22 = `p`, r21:r18 = `q`; returns (r25:r22, r21:r18).
    fn run(a: &Asm, p: u32, q: u32) -> (u32, u32) {
        let mut zp = [0u8; 256];
        for j in 0..4 {
            zp[usize::from(reg(22 + j))] = p.to_le_bytes()[usize::from(j)];
            zp[usize::from(reg(18 + j))] = q.to_le_bytes()[usize::from(j)];
        }
        let zp = crate::snippet::run(a, zp);
        let word = |r: u8| u32::from_le_bytes(std::array::from_fn(|j| zp[usize::from(reg(r + j as u8))]));
        (word(22), word(18))
    }

    const OPERANDS: [u32; 9] = [0, 1, 2, 0xFF, 0x100, 0x7FFF_FFFF, 0x8000_0000, 0xFFFF_FFFF, 0x1234_5678];

    #[test]
    fn constants_times_operands_are_the_low_32_bits_of_the_product() {
        // FNV's prime, a linear congruential generator's multiplier, powers of two, a
        // byte per bit position, and the edges.
        let constants =
            [0, 1, 2, 3, 10, 0x80, 0x100, 0x01000193, 1_103_515_245, 0x8000_0000, 0x0101_0101, 1000, 0xFFFF_FFFF];
        for k in constants {
            for x in [22, 18] {
                let mut a = Asm::default();
                if !mul32_by(&mut a, x, k) {
                    assert!(size(&sequence(x, k)) > MAX_BYTES, "{k:#x} should be inline");
                    continue;
                }
                for v in OPERANDS {
                    let (p, q) = if x == 22 { (v, 0x5A5A_5A5A) } else { (0xA5A5_A5A5, v) };
                    let (product, kept) = run(&a, p, q);
                    assert_eq!(product, v.wrapping_mul(k), "{v:#x} * {k:#x} from r{x}");
                    assert_eq!(kept, q, "r21:r18 unchanged ({v:#x} * {k:#x} from r{x})");
                }
            }
        }
    }

    #[test]
    fn fnv_prime_is_inline_and_a_dense_constant_is_not() {
        assert!(mul32_by(&mut Asm::default(), 22, 0x01000193));
        assert!(!mul32_by(&mut Asm::default(), 22, 0xFFFF_FFFF), "32 adds");
    }
}
