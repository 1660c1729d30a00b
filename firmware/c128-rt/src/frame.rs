//! Timing by the raster beam instead of the KERNAL's jiffy clock (which needs interrupts):
//! a frame ends when the VIC-IIe's raster reaches line 250, in the lower border on PAL
//! and NTSC alike.
//!
//! The beam runs whichever screen is shown and whatever the CPU's clock: at 1 MHz a raster
//! line lasts 63 (PAL) or 65 (NTSC) cycles, at 2 MHz twice as many. [`wait`] looks for the
//! six lines 250-255, a window no polling loop can miss.

use crate::global::Global;
use crate::hw::Reg8;

/// Raster line, bits 0-7.
const RASTER: Reg8 = Reg8::at(c128_map::io::VIC_RASTER);
/// Bit 7: raster line bit 8.
const CONTROL: Reg8 = Reg8::at(c128_map::io::VIC_CONTROL);

/// The first line of the window that ends a frame. Low bytes 250-255 occur only on lines
/// 250-255 (PAL's last line is 311 = $137, NTSC's 262), so bit 8 need not be read.
const FRAME_LINE: u8 = 250;

fn in_window() -> bool {
    RASTER.read() >= FRAME_LINE
}

/// Waits until the next frame begins (the raster enters line 250).
pub fn wait() {
    while in_window() {}
    while !in_window() {}
}

/// The frames counted by the key buffer's interrupt (a program built with `key_buffer =
/// true`), wrapping at 256: unlike a count of [`wait`]s it runs on while the program
/// computes, so a pause can take off the frames the work before it took. Without the key
/// buffer nothing counts, and it stands still.
pub fn count() -> u8 {
    Reg8::at(c128_map::key_buffer::FRAMES).read()
}

/// Waits for `n` frames.
pub fn wait_frames(n: u8) {
    for _ in 0..n {
        wait();
    }
}

/// 0 until measured, then 1 for PAL and 2 for NTSC.
static STANDARD: Global<u8> = Global::new(0);

/// Whether the machine is PAL (312 lines) rather than NTSC (263): measured once, by the
/// highest raster line of a frame (it takes up to a frame), then remembered.
pub fn is_pal() -> bool {
    if STANDARD.get() == 0 {
        // Wait for the lines above 255, then follow them to the frame's end.
        while CONTROL.read() & 0x80 != 0 {}
        while CONTROL.read() & 0x80 == 0 {}
        let mut highest = 0u8;
        while CONTROL.read() & 0x80 != 0 {
            let low = RASTER.read();
            if low > highest && low < 0x80 {
                highest = low;
            }
        }
        // PAL reaches line 311 ($37 above 256), NTSC 262 ($06).
        STANDARD.set(if highest > 0x10 { 1 } else { 2 });
    }
    STANDARD.get() == 1
}
