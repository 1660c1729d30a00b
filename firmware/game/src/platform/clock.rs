//! Time: frames, the clock that counts them, and the counter that seeds the shuffle.

/// Frames and time.
pub trait Clock {
    /// Waits for the next frame (1/50 s on PAL, 1/60 on NTSC) and moves sound effects on.
    fn frame(&mut self);
    /// The frames that have passed, wrapping at 256, counted by the machine's clock rather
    /// than by calls of [`Self::frame`]: work done between two frames counts too, so a pause
    /// can take off the time the work before it already took. A platform with no such
    /// clock may count its calls of [`Self::frame`]; a pause then runs whole.
    fn clock(&self) -> u8;
    /// A counter that runs with time and with the raster: the generator's seed.
    fn ticks(&self) -> u32;
}
