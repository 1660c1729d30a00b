//! SID 6581/8580: registers only, with every write logged with its cycle so that a test can
//! check that a program played a note (no audio is produced).

/// One logged SID register write.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SidWrite {
    /// The 1 MHz cycle of the write.
    pub cycle: u64,
    /// Register number, 0..=0x1F.
    pub reg: u8,
    /// The value written.
    pub value: u8,
}

/// The SID's write-only registers and the log of writes.
#[derive(Debug, Clone, Default)]
pub struct Sid {
    /// The last value written to each register.
    pub regs: [u8; 32],
    /// Every write, in order.
    pub log: Vec<SidWrite>,
    noise: u32,
}

impl Sid {
    /// Records a write.
    pub fn write(&mut self, now: u64, reg: u8, value: u8) {
        let reg = reg & 0x1F;
        self.regs[usize::from(reg)] = value;
        self.log.push(SidWrite { cycle: now, reg, value });
    }

    /// Reads a register: paddles read $FF, oscillator 3 a deterministic pseudo-random
    /// byte (programs use it as a noise source), the rest 0.
    pub fn read(&mut self, reg: u8) -> u8 {
        match reg & 0x1F {
            0x19 | 0x1A => 0xFF,
            0x1B => {
                // A 23-bit LFSR like the SID's noise generator, stepped once per read so
                // that runs stay deterministic.
                if self.noise == 0 {
                    self.noise = 0x7F_FFF8;
                }
                let bit = ((self.noise >> 22) ^ (self.noise >> 17)) & 1;
                self.noise = ((self.noise << 1) | bit) & 0x7F_FFFF;
                (self.noise >> 15) as u8
            }
            _ => 0,
        }
    }

    /// The frequency of a voice (0..=2) as last written (registers 0/1, 7/8, 14/15).
    pub fn voice_frequency(&self, voice: usize) -> u16 {
        let base = voice * 7;
        u16::from_le_bytes([self.regs[base], self.regs[base + 1]])
    }
}
