//! What the game needs from the machine, and nothing more, one trait a concern:
//! [`Screen`] (character cells), [`Keys`], [`Clock`] (frames and time), [`Speaker`] and
//! [`Storage`] (SEQ files and the help text). [`Platform`] is all of them, with the
//! [`Witness`] that checks watch the money through. The C128 program implements them on
//! the VIC-IIe and the VDC, the key matrix, the raster, the SID and the 1581; `bac play
//! --host` on a terminal; the host tests on a scripted keyboard.

mod clock;
mod keys;
mod screen;
mod speaker;
mod storage;
mod witness;

pub use clock::Clock;
pub use keys::{Keys, key};
pub use screen::{Colour, Screen, colour};
pub use speaker::{Sound, Speaker};
pub use storage::{DiskError, Storage};
pub use witness::Witness;

/// The machine under the game: every concern it needs, and the witness of its money.
/// Implemented for every type that implements the parts.
pub trait Platform: Screen + Keys + Clock + Speaker + Storage + Witness {}

impl<T: Screen + Keys + Clock + Speaker + Storage + Witness> Platform for T {}

/// Waits for a key, keeping the frames (and the sound) going.
pub fn wait_key(p: &mut (impl Keys + Clock)) -> u8 {
    loop {
        p.frame();
        if let Some(k) = p.key() {
            return k;
        }
    }
}
