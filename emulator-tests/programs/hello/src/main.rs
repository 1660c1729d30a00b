#![no_std]
#![no_main]
use core::fmt::Write;
struct W;
impl Write for W { fn write_str(&mut self, s: &str) -> core::fmt::Result { c128_rt::print(s.as_bytes()); Ok(()) } }
#[unsafe(no_mangle)]
pub extern "C" fn main() -> u8 {
    c128_rt::print(b"HELLO\r");
    let x: u32 = core::hint::black_box(12345);
    let _ = write!(W, "N={} {}\r", x * 7, x / 3);
    42
}
