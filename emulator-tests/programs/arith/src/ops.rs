//! The arithmetic exercised by the `arith` program, shared word for word with the host
//! test that checks it (as a `#[path]` module there), so both sides compute the same digests.

/// xorshift32: small, deterministic, the same on every target.
pub struct Rng(pub u32);

impl Rng {
    /// The next 32 random bits.
    pub fn next(&mut self) -> u32 {
        let mut x = self.0;
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        self.0 = x;
        x
    }
    /// The next 64 random bits.
    pub fn next64(&mut self) -> u64 {
        (u64::from(self.next()) << 32) | u64::from(self.next())
    }
}

/// A cheap order-sensitive digest: 32 bits of state, byte-sized rotations (byte moves on
/// an 8-bit CPU) and one add. A 64-bit state rotated by odd amounts cost more than the
/// operations it checks.
pub struct Digest(pub u32);

impl Digest {
    /// Feeds one value (never inlined: it is called two dozen times per operand pair).
    #[inline(never)]
    pub fn feed(&mut self, v: u64) {
        let folded = (v as u32) ^ ((v >> 32) as u32).rotate_left(16);
        self.0 = (self.0 ^ folded).rotate_left(8).wrapping_add(0x9E37_79B9);
    }
}

/// Operand pairs per type, shared by the programs and the host test: 1,040,000 in all
/// (8- and 16-bit types 200,000 each, 32-bit 60,000, 64-bit 40,000).
pub const PAIRS_8: u32 = 200_000;
/// See [`PAIRS_8`].
pub const PAIRS_16: u32 = 200_000;
/// See [`PAIRS_8`].
pub const PAIRS_32: u32 = 60_000;
/// See [`PAIRS_8`].
pub const PAIRS_64: u32 = 40_000;

macro_rules! exercise {
    ($name:ident, $t:ty, $u:ty) => {
        /// Runs every operation on `n` random operand pairs of this type.
        #[inline(never)]
        pub fn $name(rng: &mut Rng, n: u32) -> u64 {
            let mut d = Digest(0x811C_9DC5);
            for i in 0..n {
                let mut a = rng.next64() as $t;
                let mut b = rng.next64() as $t;
                // Small and edge operands are where the bugs live.
                match i % 8 {
                    0 => b = (b as $u % 7) as $t,
                    1 => a = <$t>::MIN,
                    2 => b = <$t>::MAX,
                    3 => {
                        a = (a as $u % 100) as $t;
                        b = (b as $u % 17) as $t
                    }
                    _ => {}
                }
                let s = (b as u32) % (<$t>::BITS + 3);
                let f = |v: $t| v as u64;
                d.feed(f(a.wrapping_add(b)));
                d.feed(f(a.wrapping_sub(b)));
                d.feed(f(a.wrapping_mul(b)));
                d.feed(a.checked_div(b).map_or(0xDEAD, f));
                d.feed(a.checked_rem(b).map_or(0xBEEF, f));
                d.feed(f(a.wrapping_shl(s)));
                d.feed(f(a.wrapping_shr(s)));
                d.feed(a.checked_shl(s).map_or(0xABCD, f));
                d.feed(f(a.rotate_left(s)));
                d.feed(f(a.rotate_right(s)));
                d.feed(f(a.saturating_add(b)));
                d.feed(f(a.saturating_sub(b)));
                d.feed(f(a.saturating_mul(b)));
                d.feed(a.checked_add(b).map_or(0x1111, f));
                d.feed(a.checked_sub(b).map_or(0x2222, f));
                d.feed(a.checked_mul(b).map_or(0x3333, f));
                d.feed(
                    u64::from(a < b)
                        | u64::from(a <= b) << 1
                        | u64::from(a == b) << 2
                        | u64::from(a > b) << 3
                        | u64::from(a >= b) << 4
                        | u64::from(a != b) << 5,
                );
                d.feed(f(a.max(b)) ^ f(a.min(b)).rotate_left(7));
                d.feed(f(a & b) ^ f(a | b).rotate_left(3) ^ f(a ^ b).rotate_left(5) ^ f(!a));
                d.feed(
                    u64::from(a.count_ones()) | u64::from(a.leading_zeros()) << 8 | u64::from(a.trailing_zeros()) << 16,
                );
                d.feed(f(a.wrapping_neg()));
                d.feed(f(a.wrapping_abs_or_self()));
            }
            u64::from(d.0)
        }
    };
}

/// `wrapping_abs` for signed types, identity for unsigned ones (so one macro serves both).
pub trait AbsOrSelf {
    /// See the trait docs.
    fn wrapping_abs_or_self(self) -> Self;
}
macro_rules! abs_signed { ($($t:ty),*) => { $(impl AbsOrSelf for $t { fn wrapping_abs_or_self(self) -> Self { self.wrapping_abs() } })* } }
macro_rules! abs_unsigned { ($($t:ty),*) => { $(impl AbsOrSelf for $t { fn wrapping_abs_or_self(self) -> Self { self } })* } }
abs_signed!(i8, i16, i32, i64);
abs_unsigned!(u8, u16, u32, u64);

exercise!(ops_u8, u8, u8);
exercise!(ops_i8, i8, u8);
exercise!(ops_u16, u16, u16);
exercise!(ops_i16, i16, u16);
exercise!(ops_u32, u32, u32);
exercise!(ops_i32, i32, u32);
exercise!(ops_u64, u64, u64);
exercise!(ops_i64, i64, u64);
