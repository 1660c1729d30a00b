//! The cases, shared with the host test (`tools/avr2mos/tests/programs.rs` includes this
//! file), which runs them natively and compares the digests the C128 prints.

use core::hint::black_box;

/// Bytes of the buffer the copies work in.
pub const BUF: usize = 2100;

/// The lengths copied: empty, one, a page around its edges, and more than three pages.
pub const LENGTHS: [usize; 6] = [0, 1, 255, 256, 257, 1000];

/// A Fletcher sum over the whole buffer (position-sensitive, and cheap on the 6502): a
/// copy that writes one byte too many or too few, or in the wrong place, shows.
pub fn digest(buf: &[u8]) -> u32 {
    let (mut a, mut s) = (1u16, 0u16);
    for &b in buf {
        a = a.wrapping_add(u16::from(b));
        s = s.wrapping_add(a);
    }
    u32::from(s) << 16 | u32::from(a)
}

fn fill(buf: &mut [u8], seed: u8) {
    for (i, b) in buf.iter_mut().enumerate() {
        *b = (i as u8).wrapping_mul(7).wrapping_add(seed) ^ (i >> 8) as u8;
    }
}

/// Every copy, move, fill and compare; one digest each, given to `out`.
pub fn memory(buf: &mut [u8; BUF], out: &mut dyn FnMut(u32)) {
    for n in LENGTHS {
        let n = black_box(n);
        // memcpy: from near the start to near the end, never overlapping.
        fill(buf, 1);
        let p = buf.as_mut_ptr();
        // SAFETY: both ranges are inside the buffer and apart (n is at most 1000).
        unsafe { core::ptr::copy_nonoverlapping(p.add(black_box(3)), p.add(black_box(BUF - n - 2)), n) };
        out(digest(buf));
        // memmove, both directions, overlapping by all but a few bytes.
        for (from, to) in [(5, 9), (9, 5), (0, 300), (300, 0), (2, 3), (3, 2)] {
            fill(buf, 2);
            let len = n.min(BUF - from.max(to));
            // SAFETY: both ranges are inside the buffer (they may overlap: memmove).
            unsafe {
                let p = buf.as_mut_ptr();
                core::ptr::copy(p.add(black_box(from)), p.add(black_box(to)), len)
            };
            out(digest(buf));
        }
        // memset.
        fill(buf, 3);
        // SAFETY: inside the buffer.
        unsafe { core::ptr::write_bytes(buf.as_mut_ptr().add(black_box(7)), black_box(0xA5), n) };
        out(digest(buf));
        // memcmp and bcmp (slice order and equality), equal and differing at the end.
        fill(buf, 4);
        let (a, b) = buf.split_at_mut(BUF / 2);
        let m = n.min(BUF / 2 - 1);
        b[..m].copy_from_slice(&a[..m]);
        let same = (a[..m] == b[..m], a[..m].cmp(&b[..m]) as i8);
        if m > 0 {
            b[m - 1] = b[m - 1].wrapping_add(black_box(1));
        }
        let differ = (a[..m] == b[..m], a[..m].cmp(&b[..m]) as i8);
        out(u32::from(same.0) | (same.1 as u8 as u32) << 8 | u32::from(differ.0) << 16 | (differ.1 as u8 as u32) << 24);
    }
}

/// Unsigned pairs at the edges of 32-bit division.
pub const U32_PAIRS: [(u32, u32); 19] = [
    (0, 1),
    (1, 1),
    (u32::MAX, 1),
    (u32::MAX, u32::MAX),
    (u32::MAX, 2),
    (0x8000_0000, 0xFFFF_FFFF),
    (0xFFFF_FFFE, 0xFFFF_FFFF),
    (1, 0x8000_0000),
    (12_345_678, 1000),
    (0x8000_0000, 0x8000_0001),
    (0xDEAD_BEEF, 0x10000),
    (0x1234_5678, 0xFF),
    (u32::MAX, 0xFF),
    (u32::MAX, 0x100),
    (0xFF, 0xFF),
    (13_300, 20),
    (0x00FF_FFFF, 1),
    (0xFF00_0000, 3),
    (0x0000_FFFF, 0xFE),
];

/// Signed pairs at the edges (MIN / -1 wraps, as `wrapping_div` asks).
pub const I32_PAIRS: [(i32, i32); 12] = [
    (i32::MIN, -1),
    (i32::MIN, 1),
    (i32::MIN, i32::MIN),
    (i32::MIN, i32::MAX),
    (i32::MAX, -1),
    (i32::MAX, i32::MIN),
    (-7, 2),
    (7, -2),
    (-7, -2),
    (-1, i32::MIN),
    (0, -5),
    (-1_000_000, 7),
];

/// The divisions: the edge pairs, then `random` pseudo-random pairs of mixed sizes.
pub fn division(random: u32, out: &mut dyn FnMut(u32)) {
    for (x, y) in U32_PAIRS {
        let (x, y) = (black_box(x), black_box(y));
        out(x / y);
        out(x % y);
    }
    for (x, y) in I32_PAIRS {
        let (x, y) = (black_box(x), black_box(y));
        out(x.wrapping_div(y) as u32);
        out(x.wrapping_rem(y) as u32);
    }
    let mut s = 0x1234_5678u32;
    let mut next = move || {
        s ^= s << 13;
        s ^= s >> 17;
        s ^= s << 5;
        s
    };
    let (mut du, mut di) = (0u32, 0u32);
    for _ in 0..random {
        let x = next() >> (next() % 32);
        let y = (next() >> (next() % 32)).max(1);
        du = du.rotate_left(5) ^ (x / y) ^ (x % y).rotate_left(16);
        let (xi, yi) = (x as i32, if y as i32 == -1 && x as i32 == i32::MIN { 1 } else { y as i32 });
        di = di.rotate_left(5) ^ (xi / yi) as u32 ^ ((xi % yi) as u32).rotate_left(16);
    }
    out(du);
    out(di);
}

/// Multiplier edges: zero, one, the largest and smallest of one and two bytes, either
/// operand the small one.
pub const MUL_PAIRS: [(u32, u32); 14] = [
    (0, 0),
    (0, u32::MAX),
    (u32::MAX, 0),
    (1, u32::MAX),
    (u32::MAX, 1),
    (u32::MAX, 0xFF),
    (0xFF, u32::MAX),
    (u32::MAX, 0x100),
    (0x100, 0xFF),
    (0xFF, 0xFF),
    (500, 19),
    (0x80, 0x8000_0000),
    (0xFFFF, 0xFFFF),
    (0x1234_5678, 0x10001),
];

/// The 32-bit multiplications: the edge pairs, then `random` pseudo-random pairs of mixed
/// sizes (often one operand below 256).
pub fn multiplication(random: u32, out: &mut dyn FnMut(u32)) {
    for (x, y) in MUL_PAIRS {
        out(black_box(x).wrapping_mul(black_box(y)));
    }
    let mut s = 0x8765_4321u32;
    let mut next = move || {
        s ^= s << 13;
        s ^= s >> 17;
        s ^= s << 5;
        s
    };
    let mut d = 0u32;
    for _ in 0..random {
        let x = next() >> (next() % 32);
        let y = next() >> (next() % 32);
        d = d.rotate_left(5) ^ black_box(x).wrapping_mul(black_box(y));
    }
    out(d);
}
