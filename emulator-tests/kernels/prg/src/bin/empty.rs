//! The program without a kernel: its bytes are what every kernel's program has besides
//! the kernel. It returns the seed, as `../c/empty.c` does.
#![no_std]
#![no_main]

#[unsafe(no_mangle)]
pub extern "C" fn main() -> u8 {
    bac_kernels_prg::time(u32::from)
}
