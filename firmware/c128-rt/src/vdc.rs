//! The VDC (80-column chip) at speed: the update address, runs of bytes through the data
//! register (which advances the address by itself) and block fills.
//!
//! Every access selects a register at $D600 and waits for the ready bit before touching
//! $D601, as the KERNAL does: the chip is busy during block fills, and a write it misses is
//! lost. A run of bytes selects register 31 once and then only waits and writes, which is
//! what makes a full 80 x 25 redraw take a few frames rather than a second.

use crate::hw::{VDC_ADDR, VDC_DATA};

/// R18/R19: the update address (high byte first).
const UPDATE_HI: u8 = 18;
const UPDATE_LO: u8 = 19;
/// R24: bit 7 chooses block copy (1) or fill (0).
const BLOCK_MODE: u8 = 24;
/// R30: writing it runs a block fill of that many more bytes.
const WORD_COUNT: u8 = 30;
/// R31: the data register.
const DATA: u8 = 31;

/// Waits until the VDC can take the next access.
#[inline(always)]
fn wait_ready() {
    while VDC_ADDR.read() & 0x80 == 0 {}
}

/// Selects register `reg` and waits until the VDC is ready for its data: what
/// [`crate::hw::vdc_write`] does before the write, here written out in each function so
/// that the functions of a cell (an address, a run, a fill) call nothing and so keep no
/// register across a call: at 80 columns those saves cost more than the VDC's own
/// accesses (174,000 cycles of a settled coup's 899,000).
#[inline(always)]
fn select(reg: u8) {
    VDC_ADDR.write(reg);
    wait_ready();
}

/// Points the update address at `addr`.
#[inline(always)]
pub fn set_address(addr: u16) {
    select(UPDATE_HI);
    VDC_DATA.write((addr >> 8) as u8);
    select(UPDATE_LO);
    VDC_DATA.write(addr as u8);
}

/// Writes `bytes` from `addr` on.
pub fn write_run(addr: u16, bytes: impl Iterator<Item = u8>) {
    set_address(addr);
    VDC_ADDR.write(DATA);
    for b in bytes {
        wait_ready();
        VDC_DATA.write(b);
    }
}

/// Fills `count` bytes from `addr` with `value`: one data write, then block fills of up
/// to 255 more (a count of 0 writes nothing).
pub fn fill(addr: u16, value: u8, count: u16) {
    if count == 0 {
        return;
    }
    set_address(addr);
    select(BLOCK_MODE);
    let mode = VDC_DATA.read() & 0x7F;
    select(BLOCK_MODE);
    VDC_DATA.write(mode);
    select(DATA);
    VDC_DATA.write(value);
    let mut left = count - 1;
    while left > 0 {
        let n = if left > 255 { 255 } else { left as u8 };
        select(WORD_COUNT);
        VDC_DATA.write(n);
        left -= u16::from(n);
    }
}
