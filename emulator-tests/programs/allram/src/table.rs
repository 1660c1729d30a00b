//! The table, shared with the host test (`emulator-tests/tests/allram.rs` includes this
//! file): large enough that the program's data passes $C000.

/// Bytes of the table (two statics of half as many: an AVR object may not pass 32 KB).
pub const LEN: usize = 40_000;
/// Bytes of each half.
pub const HALF: usize = LEN / 2;

/// Byte `i` of the table.
pub const fn byte(i: usize) -> u8 {
    (i as u8).wrapping_mul(31) ^ (i >> 8) as u8 ^ (i >> 13) as u8
}

/// A Fletcher sum of bytes (position-sensitive, cheap on the 6502).
pub fn digest(bytes: impl Iterator<Item = u8>) -> u32 {
    let (mut a, mut s) = (1u16, 0u16);
    for b in bytes {
        a = a.wrapping_add(u16::from(b));
        s = s.wrapping_add(a);
    }
    u32::from(s) << 16 | u32::from(a)
}

/// The bytes of the table's end that go to disk and back.
pub const FILE_LEN: usize = 200;
