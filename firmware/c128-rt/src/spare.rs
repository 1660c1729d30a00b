//! Bank 1's spare RAM: what a program with a bank-1 file (`bank1` under
//! `[package.metadata.c128]`) has above that file's bytes, up to the MMU's registers at
//! $FF00. Nothing else uses it while the program runs, so it holds what would be dear to
//! fetch again: the game keeps there the help text it has read from the disk.
//!
//! The translator implements both symbols natively (its runtime's `far` module): only the
//! runtime knows where the file ends, which differs from build to build, and only code in
//! the common RAM at the bottom keeps running while bank 1 is mapped. A program without a
//! bank-1 file that calls them does not link.

use c128_map::mmu;

unsafe extern "C" {
    fn __c128_bank1_end() -> u16;
    fn __c128_far_copy(dst: u16, src: u16, n: u16, maps: u16);
}

/// Where the spare RAM starts in bank 1.
fn start() -> u16 {
    // SAFETY: implemented natively by the translator; it reads nothing but the build.
    unsafe { __c128_bank1_end() }
}

/// How many bytes there are.
pub fn len() -> u16 {
    mmu::BANK1_TOP.saturating_sub(start())
}

/// Copies `bytes` to the spare RAM at offset `at`; whatever would go past its end is left
/// out.
pub fn store(at: u16, bytes: &[u8]) {
    let (start, n) = within(at, bytes.len());
    let src = bytes.as_ptr() as usize as u16;
    // SAFETY: the routine reads `n` bytes of `bytes` (n <= its length) with the program's
    // own configuration and writes them within the spare RAM (at + n <= len()), where no
    // Rust object lives.
    unsafe { __c128_far_copy(start + at, src, n, maps(mmu::ALL_RAM, mmu::BANK1)) }
}

/// Copies the spare RAM's bytes at offset `at` into `bytes`; what would come from past its
/// end is left as it was.
pub fn load(at: u16, bytes: &mut [u8]) {
    let (start, n) = within(at, bytes.len());
    let dst = bytes.as_mut_ptr() as usize as u16;
    // SAFETY: the routine writes `n` bytes to `bytes` (n <= its length) with the program's
    // own configuration, read from within the spare RAM.
    unsafe { __c128_far_copy(dst, start + at, n, maps(mmu::BANK1, mmu::ALL_RAM)) }
}

/// The copy's configurations: the source's in the low byte, the destination's in the high.
fn maps(from: u8, to: u8) -> u16 {
    u16::from_le_bytes([from, to])
}

/// Where the spare RAM starts, and how many of `wanted` bytes from offset `at` lie within
/// it.
fn within(at: u16, wanted: usize) -> (u16, u16) {
    let start = start();
    let room = mmu::BANK1_TOP.saturating_sub(start).saturating_sub(at);
    (start, room.min(u16::try_from(wanted).unwrap_or(u16::MAX)))
}
