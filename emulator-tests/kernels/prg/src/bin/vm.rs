//! The vm kernel of the suite on the C128 (`bac_kernels::vm`).
#![no_std]
#![no_main]

#[unsafe(no_mangle)]
pub extern "C" fn main() -> u8 {
    bac_kernels_prg::time(bac_kernels::vm::run)
}
