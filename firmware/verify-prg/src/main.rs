//! The C128 side of `bac verify`: reads the plan the host patched into this program, plays
//! its rounds with the rules crate, and prints one line per round:
//! `R <round> <digest> <coups> <bankroll>` (hexadecimal), then `DONE`. In verbose mode each
//! event comes first as `E <bytes>`, the bytes `bac_verify::encode` gives.
#![no_std]
#![no_main]

use bac_verify::{Plan, encode, play_round};

/// The plan: the magic, then defaults the host overwrites. `used` keeps it in the image;
/// the volatile reads keep the compiler from folding the defaults in.
#[used]
#[unsafe(no_mangle)]
static BAC_PLAN: [u8; 8 + Plan::LEN] = {
    let mut bytes = [0u8; 8 + Plan::LEN];
    let mut i = 0;
    while i < 8 {
        bytes[i] = Plan::MAGIC[i];
        i += 1;
    }
    // Seed 1, round 0, 1 round of 10 coups, quiet.
    bytes[8] = 1;
    bytes[16] = 1;
    bytes[20] = 10;
    bytes
};

fn read_plan() -> Plan {
    let mut bytes = [0u8; Plan::LEN];
    for (i, byte) in bytes.iter_mut().enumerate() {
        // SAFETY: reading our own static, in bounds.
        *byte = unsafe { core::ptr::read_volatile(BAC_PLAN.as_ptr().add(8 + i)) };
    }
    Plan::from_bytes(&bytes)
}

/// Prints `value` as `digits` upper-case hexadecimal digits: by hand, because `core::fmt`'s
/// integer formatting would more than double the size of this program on the C128.
fn print_hex(value: u32, digits: u8) {
    let mut text = [0u8; 8];
    let digits = usize::from(digits.min(8));
    for (i, slot) in text[..digits].iter_mut().enumerate() {
        let nibble = (value >> (4 * (digits - 1 - i))) & 0xF;
        *slot = b"0123456789ABCDEF"[nibble as usize];
    }
    c128_rt::print(&text[..digits]);
}

/// Plays the plan and exits with 0.
#[unsafe(no_mangle)]
pub extern "C" fn main() -> u8 {
    let plan = read_plan();
    for i in 0..plan.rounds {
        let round = plan.first_round.wrapping_add(i);
        let mut show = |event: &bac_verify::Event| {
            if plan.verbose {
                let mut bytes = [0u8; 12];
                let n = encode(event, &mut bytes);
                c128_rt::print(b"E");
                for &b in &bytes[..n] {
                    c128_rt::print(b" ");
                    print_hex(u32::from(b), 2);
                }
                c128_rt::print(b"\r");
            }
        };
        let result = play_round(&plan, round, &mut show);
        c128_rt::print(b"R ");
        print_hex(result.round, 8);
        c128_rt::print(b" ");
        print_hex(result.digest, 8);
        c128_rt::print(b" ");
        print_hex(u32::from(result.coups), 4);
        c128_rt::print(b" ");
        print_hex(result.bankroll, 8);
        c128_rt::print(b"\r");
    }
    c128_rt::print(b"DONE\r");
    0
}
