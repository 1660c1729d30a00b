//! Spare RAM: memory that a program in the all-RAM mode with a bank-1 file (`memory =
//! "all-ram"` and `bank1` under `[package.metadata.c128]`) may fill with what would be dear
//! to fetch again. The game keeps there the help text it has read from the disk.
//!
//! It is two parts, seen as one run of offsets:
//! - bank 0's $F000-$FEFF, RAM under the KERNAL ROM that the translator leaves to the
//!   program. The drivers use $F000-$F7FF only for the held picture's copy
//!   ([`crate::held`]), from `hold` to `show`: a hold overwrites what is kept there;
//! - bank 1's RAM above the bank-1 file, up to the MMU's registers at $FF00.
//!
//! The translator implements the two symbols of the second part natively (its runtime's
//! `far` module): only the runtime knows where the file ends, which differs from build to
//! build, and only code in the common RAM at the bottom keeps running while bank 1 is
//! mapped. A program without a bank-1 file that calls them does not link.

use c128_map::mmu;

unsafe extern "C" {
    fn __c128_bank1_end() -> u16;
    fn __c128_far_copy(dst: u16, src: u16, n: u16, maps: u16);
}

/// The first part, in bank 0.
const LOW: u16 = 0xF000;
/// Its length: up to the MMU's registers' page.
const LOW_LEN: u16 = 0x0F00;

/// Where the second part starts in bank 1.
fn bank1_start() -> u16 {
    // SAFETY: implemented natively by the translator; it reads nothing but the build.
    unsafe { __c128_bank1_end() }
}

/// How many bytes there are.
pub fn len() -> u16 {
    LOW_LEN + mmu::BANK1_TOP.saturating_sub(bank1_start())
}

/// Copies `bytes` to the spare RAM at offset `at`; whatever would go past its end is left
/// out.
pub fn store(at: u16, bytes: &[u8]) {
    let low = in_bank0(at, bytes.len());
    // SAFETY: `low` bytes from `at` lie within $F000-$FEFF, which no Rust object uses.
    unsafe { core::ptr::copy_nonoverlapping(bytes.as_ptr(), usize::from(LOW + at) as *mut u8, low) };
    let rest = &bytes[low..];
    if !rest.is_empty() {
        let (far, n) = in_bank1(at + low as u16, rest.len());
        let src = rest.as_ptr() as usize as u16;
        // SAFETY: the routine reads `n` bytes of `rest` (n <= its length) with the
        // program's own configuration and writes them within bank 1's part, where no Rust
        // object lives.
        unsafe { __c128_far_copy(far, src, n, maps(mmu::ALL_RAM, mmu::BANK1)) }
    }
}

/// Copies the spare RAM's bytes at offset `at` into `bytes`; what would come from past its
/// end is left as it was.
pub fn load(at: u16, bytes: &mut [u8]) {
    let low = in_bank0(at, bytes.len());
    // SAFETY: as in `store`, the other way round.
    unsafe { core::ptr::copy_nonoverlapping(usize::from(LOW + at) as *const u8, bytes.as_mut_ptr(), low) };
    let rest = &mut bytes[low..];
    if !rest.is_empty() {
        let (far, n) = in_bank1(at + low as u16, rest.len());
        let dst = rest.as_mut_ptr() as usize as u16;
        // SAFETY: the routine writes `n` bytes to `rest` (n <= its length) with the
        // program's own configuration, read from within bank 1's part.
        unsafe { __c128_far_copy(dst, far, n, maps(mmu::BANK1, mmu::ALL_RAM)) }
    }
}

/// How many of `wanted` bytes from offset `at` lie in bank 0's part.
fn in_bank0(at: u16, wanted: usize) -> usize {
    usize::from(LOW_LEN.saturating_sub(at)).min(wanted)
}

/// Bank 1's address of offset `at` (in bank 1's part), and how many of `wanted` bytes
/// from there lie within the part.
fn in_bank1(at: u16, wanted: usize) -> (u16, u16) {
    let start = bank1_start() + (at - LOW_LEN);
    let room = mmu::BANK1_TOP.saturating_sub(start);
    (start, room.min(u16::try_from(wanted).unwrap_or(u16::MAX)))
}

/// The copy's configurations: the source's in the low byte, the destination's in the high.
fn maps(from: u8, to: u8) -> u16 {
    u16::from_le_bytes([from, to])
}
