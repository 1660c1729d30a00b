//! KERNAL calls. Each wrapper moves its arguments into A, X, Y and the carry as the
//! KERNAL documents, through the translator's native gateway `__c128_kernal`.
//!
//! Calls that report errors through the carry return `Result<_, u8>` with the KERNAL's
//! error code in A.

use crate::hw::Reg8;

/// The 6502 registers after a KERNAL call.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Regs {
    /// Accumulator.
    pub a: u8,
    /// X register.
    pub x: u8,
    /// Y register.
    pub y: u8,
    /// The carry flag, which most KERNAL calls set on error.
    pub carry: bool,
}

unsafe extern "C" {
    fn __c128_kernal(addr: u16, a: u8, x: u8, y: u8, carry: u8) -> u32;
}

/// Calls the KERNAL routine at `addr` with the given registers.
pub fn call(addr: u16, a: u8, x: u8, y: u8, carry: bool) -> Regs {
    // SAFETY: the gateway is implemented natively by the translator; it only changes
    // the registers it returns.
    let r = unsafe { __c128_kernal(addr, a, x, y, u8::from(carry)) };
    let [a, x, y, c] = r.to_le_bytes();
    Regs { a, x, y, carry: c & 1 != 0 }
}

/// Entry points, as in the C128 KERNAL jump table (named once, in `c128-map`).
pub use c128_map::kernal as addr;

fn result(r: Regs) -> Result<(), u8> {
    if r.carry { Err(r.a) } else { Ok(()) }
}

/// Writes one byte to the output channel.
pub fn chrout(c: u8) {
    call(addr::CHROUT, c, 0, 0, false);
}

/// Reads a key from the keyboard buffer; 0 if none is waiting.
pub fn getin() -> u8 {
    call(addr::GETIN, 0, 0, 0, false).a
}

/// Scans the keyboard into the keyboard buffer, as the KERNAL's IRQ does 60 times a
/// second. A program in the all-RAM memory mode (`memory = "all-ram"`) runs with
/// interrupts disabled, so it calls this before [`getin`].
pub fn scnkey() {
    call(addr::SCNKEY, 0, 0, 0, false);
}

/// Empties the KERNAL's keyboard buffer (NDX) and drops what is left of a function key's
/// text (KYNDX), so that BASIC does not type them at `READY.` when the program returns.
///
/// The KERNAL's keyboard scan runs in its interrupt, which is on during the KERNAL calls of
/// a program in the all-RAM mode with the key buffer (the game's disk calls) and all the
/// time in the default mode: it takes a key held down then into the buffer, and a function
/// key as its BASIC text (F5 is `DSAVE"`, HELP `HELP` and RETURN). A program that reads
/// the key matrix itself never takes them out.
///
/// Never inlined: the game's tests stop at it to see what the KERNAL had taken.
#[inline(never)]
pub fn forget_keys() {
    Reg8::at(c128_map::zp::KYNDX).write(0);
    Reg8::at(c128_map::zp::NDX).write(0);
}

/// Reads one byte from the input channel.
pub fn chrin() -> u8 {
    call(addr::CHRIN, 0, 0, 0, false).a
}

/// The cursor position as (row, column).
pub fn plot_get() -> (u8, u8) {
    let r = call(addr::PLOT, 0, 0, 0, true);
    (r.x, r.y)
}

/// Moves the cursor to (row, column).
pub fn plot_set(row: u8, col: u8) {
    call(addr::PLOT, 0, row, col, false);
}

/// Selects the RAM banks of the data and of the file name for the next OPEN/LOAD/SAVE
/// (call it before OPEN, or the DOS may report error 62).
pub fn setbnk(data_bank: u8, name_bank: u8) {
    call(addr::SETBNK, data_bank, name_bank, 0, false);
}

/// Sets logical file number, device and secondary address for OPEN.
pub fn setlfs(file: u8, device: u8, secondary: u8) {
    call(addr::SETLFS, file, device, secondary, false);
}

/// Sets the file name for OPEN. The name must stay in place until OPEN is done.
pub fn setnam(name: &[u8]) {
    let p = name.as_ptr() as usize as u16;
    call(addr::SETNAM, name.len() as u8, p as u8, (p >> 8) as u8, false);
}

/// Opens the file set up by [`setlfs`] and [`setnam`].
pub fn open() -> Result<(), u8> {
    result(call(addr::OPEN, 0, 0, 0, false))
}

/// Closes a logical file.
pub fn close(file: u8) {
    call(addr::CLOSE, file, 0, 0, false);
}

/// Makes a logical file the input channel.
pub fn chkin(file: u8) -> Result<(), u8> {
    result(call(addr::CHKIN, 0, file, 0, false))
}

/// Makes a logical file the output channel.
pub fn chkout(file: u8) -> Result<(), u8> {
    result(call(addr::CKOUT, 0, file, 0, false))
}

/// Restores the keyboard and screen as the input and output channels.
pub fn clrchn() {
    call(addr::CLRCH, 0, 0, 0, false);
}

/// The I/O status byte (bit 6 = end of file).
pub fn readst() -> u8 {
    call(addr::READST, 0, 0, 0, false).a
}
