//! The all-RAM memory mode (`memory = "all-ram"`): prints the digest of a 40,000-byte
//! table (in two halves) that reaches past $C000 and the address where it ends, calls 6502 code it puts at
//! $E000 (RAM the mode leaves to the program, under the KERNAL ROM), writes the table's
//! last bytes to a disk file and reads them back through the KERNAL trampoline, and ends
//! with exit code 7 (10 + the step, when a disk step fails).
#![no_std]
#![no_main]

mod table;

use c128_rt::kernal;
use core::hint::black_box;

/// The table's halves (an AVR object may not pass 32 KB).
static LOW: [u8; table::HALF] = half(0);
static HIGH: [u8; table::HALF] = half(table::HALF);

const fn half(from: usize) -> [u8; table::HALF] {
    let mut t = [0u8; table::HALF];
    let mut i = 0;
    while i < table::HALF {
        t[i] = table::byte(from + i);
        i += 1;
    }
    t
}

/// RAM above the program, under the KERNAL ROM: code at $E000, a name at $E100 and a
/// buffer at $E200.
const HIGH_CODE: usize = 0xE000;
const HIGH_NAME: usize = 0xE100;
const HIGH_BUF: usize = 0xE200;

fn hex(label: &[u8], v: u32, digits: u32) {
    c128_rt::print(label);
    for i in (0..digits).rev() {
        let d = (v >> (4 * i)) as u8 & 15;
        c128_rt::print(&[if d < 10 { b'0' + d } else { b'A' + d - 10 }]);
    }
    c128_rt::print(b"\r");
}

/// `LDA #$28 / STA r24 / LDA #$C1 / STA r25 / RTS`: returns 0xC128 in r25:r24 as an
/// `extern "C" fn() -> u16` does on the AVR.
const HIGH_FN: [u8; 9] = [0xA9, 0x28, 0x85, 0x28, 0xA9, 0xC1, 0x85, 0x29, 0x60];

fn high(at: usize, len: usize) -> &'static mut [u8] {
    // SAFETY: $E000-$FEFF is RAM the all-RAM mode leaves to the program; nothing else
    // uses these bytes.
    unsafe { core::slice::from_raw_parts_mut(at as *mut u8, len) }
}

fn open(name: &[u8], file: u8) -> Result<(), u8> {
    let buf = high(HIGH_NAME, name.len());
    buf.copy_from_slice(name);
    kernal::setbnk(0, 0);
    kernal::setlfs(file, 8, file);
    kernal::setnam(buf);
    kernal::open()
}

fn disk() -> Result<(), u8> {
    let tail = &HIGH[table::HALF - table::FILE_LEN..];
    open(b"@0:ALLRAM,S,W", 2).map_err(|_| 1)?;
    kernal::chkout(2).map_err(|_| 2)?;
    for &b in tail {
        kernal::chrout(b);
    }
    kernal::clrchn();
    kernal::close(2);
    open(b"ALLRAM,S,R", 2).map_err(|_| 3)?;
    kernal::chkin(2).map_err(|_| 4)?;
    let buf = high(HIGH_BUF, table::FILE_LEN);
    let mut n = 0;
    while n < buf.len() {
        buf[n] = kernal::chrin();
        n += 1;
        if kernal::readst() & 0x40 != 0 {
            break;
        }
    }
    kernal::clrchn();
    kernal::close(2);
    if &buf[..n] != tail { Err(5) } else { Ok(()) }
}

/// Runs the checks; the exit code says which failed.
#[unsafe(no_mangle)]
pub extern "C" fn main() -> u8 {
    let (low, high_half): (&[u8], &[u8]) = (black_box(&LOW[..]), black_box(&HIGH[..]));
    hex(b"SUM ", table::digest(low.iter().chain(high_half).copied()), 8);
    let end = (low.as_ptr_range().end as usize).max(high_half.as_ptr_range().end as usize);
    hex(b"END ", end as u32, 4);
    high(HIGH_CODE, HIGH_FN.len()).copy_from_slice(&HIGH_FN);
    // SAFETY: HIGH_FN is a complete 6502 routine with this signature's convention.
    let f: extern "C" fn() -> u16 = unsafe { core::mem::transmute(black_box(HIGH_CODE)) };
    hex(b"HIGH ", u32::from(f()), 4);
    match disk() {
        Ok(()) => {
            c128_rt::print(b"DISK OK\r");
            7
        }
        Err(step) => 10 + step,
    }
}
