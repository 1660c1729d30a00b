#![no_std]
unsafe extern "C" {
    fn __c128_kernal(addr: u16, a: u8, x: u8, y: u8, carry: u8) -> u32;
    fn __c128_exit(code: u8) -> !;
}
unsafe extern "Rust" {
}
pub fn chrout(c: u8) { unsafe { __c128_kernal(0xffd2, c, 0, 0, 0); } }
pub fn print(s: &[u8]) { for &c in s { chrout(c) } }
pub fn exit(code: u8) -> ! { unsafe { __c128_exit(code) } }
#[panic_handler]
fn panic(_i: &core::panic::PanicInfo) -> ! { print(b"PANIC"); exit(101) }
unsafe extern "C" { fn main() -> u8; }
#[unsafe(no_mangle)]
pub extern "C" fn _start() -> ! { let c = unsafe { main() }; exit(c) }
