//! Module state of the drivers (which screen is open, the keys seen down, the note
//! playing) without `static mut`.
//!
//! A translated program is one thread, and the drivers' state is never touched from an
//! interrupt handler, so a plain cell is enough: `get` and `set` copy values in and out and
//! never hand out references that could alias.

use core::cell::UnsafeCell;

/// A value shared by the functions of one driver.
pub(crate) struct Global<T: Copy>(UnsafeCell<T>);

// SAFETY: the program has one thread and no interrupt handler uses a `Global` (see the
// module docs); every access copies the value, so no reference outlives a call.
unsafe impl<T: Copy> Sync for Global<T> {}

impl<T: Copy> Global<T> {
    /// A cell holding `value`.
    pub(crate) const fn new(value: T) -> Self {
        Global(UnsafeCell::new(value))
    }

    /// The value now.
    pub(crate) fn get(&self) -> T {
        // SAFETY: single-threaded, no reference to the inside exists (see above).
        unsafe { *self.0.get() }
    }

    /// Replaces the value.
    pub(crate) fn set(&self, value: T) {
        // SAFETY: as for `get`.
        unsafe { *self.0.get() = value }
    }
}
