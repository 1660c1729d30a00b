//! VIC-IIe (8564/8566) as far as text programs need: registers, the raster counter and its
//! interrupt, colours, the C128's extra keyboard lines ($D02F) and the clock register ($D030).

/// Video standard, which fixes the raster geometry and the frame rate.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum VideoStandard {
    /// 312 lines of 63 cycles, 50 frames a second.
    #[default]
    Pal,
    /// 263 lines of 65 cycles, 60 frames a second.
    Ntsc,
}

impl VideoStandard {
    /// Cycles per raster line.
    pub fn cycles_per_line(self) -> u64 {
        match self {
            VideoStandard::Pal => 63,
            VideoStandard::Ntsc => 65,
        }
    }

    /// Raster lines per frame.
    pub fn lines(self) -> u64 {
        match self {
            VideoStandard::Pal => 312,
            VideoStandard::Ntsc => 263,
        }
    }

    /// 1 MHz cycles per frame.
    pub fn cycles_per_frame(self) -> u64 {
        self.cycles_per_line() * self.lines()
    }

    /// The system clock in Hz.
    pub fn clock_hz(self) -> u64 {
        match self {
            VideoStandard::Pal => 985_248,
            VideoStandard::Ntsc => 1_022_727,
        }
    }
}

/// The VIC-IIe's register file and interrupt state.
#[derive(Debug, Clone)]
pub struct Vic {
    /// Registers $D000-$D030 as last written.
    pub regs: [u8; 0x31],
    /// Interrupt latch ($D019 bits 0-3).
    pub irq_flags: u8,
    /// The video standard.
    pub standard: VideoStandard,
}

impl Vic {
    /// A VIC as the KERNAL leaves it: text mode, screen $0400, characters from ROM, raster
    /// interrupt enabled on line 251 (the screen editor's frame interrupt).
    pub fn new(standard: VideoStandard) -> Self {
        let mut regs = [0u8; 0x31];
        regs[0x11] = 0x1B;
        regs[0x12] = 0xFB;
        regs[0x16] = 0xC8;
        regs[0x18] = 0x14;
        regs[0x1A] = 0x01;
        regs[0x20] = 13;
        regs[0x21] = 11;
        regs[0x2F] = 0xFF;
        Vic { regs, irq_flags: 0, standard }
    }

    /// The raster line at 1 MHz cycle `now`.
    pub fn raster(&self, now: u64) -> u16 {
        ((now / self.standard.cycles_per_line()) % self.standard.lines()) as u16
    }

    /// The raster line that triggers the interrupt.
    pub fn raster_compare(&self) -> u16 {
        u16::from(self.regs[0x12]) | (u16::from(self.regs[0x11] & 0x80) << 1)
    }

    /// The first cycle after `now` at which the raster reaches the compare line.
    pub fn next_compare(&self, now: u64) -> u64 {
        let frame = self.standard.cycles_per_frame();
        let line = u64::from(self.raster_compare()) % self.standard.lines();
        let at = (now / frame) * frame + line * self.standard.cycles_per_line();
        if at > now { at } else { at + frame }
    }

    /// Whether the VIC drives the IRQ line.
    pub fn irq(&self) -> bool {
        self.irq_flags & self.regs[0x1A] & 0x0F != 0
    }

    /// Reads register `reg` (already reduced to $00-$3F) at cycle `now`.
    pub fn read(&self, reg: u8, now: u64) -> u8 {
        match reg {
            0x11 => (self.regs[0x11] & 0x7F) | (((self.raster(now) >> 1) as u8) & 0x80),
            0x12 => self.raster(now) as u8,
            0x19 => self.irq_flags | 0x70 | if self.irq() { 0x80 } else { 0 },
            0x1A => self.regs[0x1A] | 0xF0,
            0x16 => self.regs[0x16] | 0xC0,
            0x18 => self.regs[0x18] | 0x01,
            0x20..=0x2E => self.regs[usize::from(reg)] | 0xF0,
            0x2F => self.regs[0x2F] | 0xF8,
            0x30 => self.regs[0x30] | 0xFC,
            0x31..=0x3F => 0xFF,
            _ => self.regs[usize::from(reg)],
        }
    }

    /// Writes register `reg` (already reduced to $00-$3F).
    pub fn write(&mut self, reg: u8, value: u8) {
        match reg {
            0x19 => self.irq_flags &= !value & 0x0F,
            0x31..=0x3F => {}
            _ => self.regs[usize::from(reg)] = value,
        }
    }

    /// Whether the 8502 runs at 2 MHz ($D030 bit 0).
    pub fn fast(&self) -> bool {
        self.regs[0x30] & 1 != 0
    }

    /// Screen memory offset within the VIC bank, from $D018 bits 4-7.
    pub fn screen_base(&self) -> u16 {
        u16::from(self.regs[0x18] >> 4) * 0x400
    }

    /// Character generator offset within the VIC bank, from $D018 bits 1-3.
    pub fn charset_base(&self) -> u16 {
        u16::from((self.regs[0x18] >> 1) & 7) * 0x800
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn raster_counts_lines_and_wraps_each_frame() {
        let vic = Vic::new(VideoStandard::Pal);
        assert_eq!(vic.raster(0), 0);
        assert_eq!(vic.raster(63 * 100 + 5), 100);
        assert_eq!(vic.raster(63 * 312 + 63), 1);
        assert_eq!(vic.read(0x12, 63 * 300), 300u16 as u8);
        assert_eq!(vic.read(0x11, 63 * 300) & 0x80, 0x80);
    }

    #[test]
    fn next_compare_is_strictly_in_the_future() {
        let vic = Vic::new(VideoStandard::Pal);
        let t = vic.next_compare(0);
        assert_eq!(t, 251 * 63);
        assert_eq!(vic.next_compare(t), t + 63 * 312);
    }
}
