//! Baccarat for the Commodore 128: `bac-game` on the real machine.
//!
//! The game runs with interrupts off and polls everything itself: the key matrix once a
//! frame, the raster for time, the SID's effects from the frame loop. The KERNAL is used
//! only for the disk (saved bankrolls, the help text), through c128-rt.
#![no_std]
#![no_main]

mod c128;
mod sounds;

use core::mem::MaybeUninit;

use bac_game::App;
use c128_rt::screen::{self, Width};

/// The game's state lives in `.bss`, not on the 2 KB software stack that the translated
/// code's frames share.
static mut APP: MaybeUninit<App<c128::C128>> = MaybeUninit::uninit();

/// Starts at the screen the 40/80 key selects, as C128 programs do, plays until the
/// player quits, and gives BASIC its screens back.
#[unsafe(no_mangle)]
pub extern "C" fn main() -> u8 {
    let columns = match screen::key_40_80() {
        Width::Forty => 40,
        Width::Eighty => 80,
    };
    let slot: *mut MaybeUninit<App<c128::C128>> = &raw mut APP;
    // SAFETY: `main` runs once, with interrupts off; nothing else touches APP.
    let app = unsafe { (*slot).write(App::new(c128::C128::new(), columns)) };
    app.run();
    c128_rt::sound::silence();
    screen::close();
    0
}
