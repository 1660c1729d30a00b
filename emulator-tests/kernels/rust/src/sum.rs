//! The checksum kernels fold their output into: Fletcher's two 16-bit sums, modulo 2^16
//! rather than 65,535 (cheap on an 8-bit machine and good enough to catch a wrong byte).

/// A running Fletcher-style sum.
#[derive(Default)]
pub struct Sum {
    low: u16,
    high: u16,
}

impl Sum {
    /// Adds one byte.
    pub fn byte(&mut self, b: u8) {
        self.low = self.low.wrapping_add(u16::from(b));
        self.high = self.high.wrapping_add(self.low);
    }

    /// Adds a 16-bit number, low byte first.
    pub fn word(&mut self, w: u16) {
        self.byte(w as u8);
        self.byte((w >> 8) as u8);
    }

    /// Adds every byte of `bytes`.
    pub fn bytes(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.byte(b);
        }
    }

    /// The checksum: the second sum over the first.
    pub fn value(&self) -> u32 {
        (u32::from(self.high) << 16) | u32::from(self.low)
    }
}
