//! VDC 8563: the 80-column chip, reached through the $D600 (register select and status) and
//! $D601 (data) window, with its own RAM, update-address auto-increment and block fill/copy.
//!
//! Block operations complete at once in VDC RAM, but the ready bit (bit 7 of $D600) reads 0
//! for a while after a block fill or copy (an estimate of two bytes a microsecond), so a
//! program that polls it, as it must on the real chip, waits about as long.

/// The VDC's registers and RAM.
#[derive(Debug, Clone)]
pub struct Vdc {
    /// Registers R0-R37.
    pub regs: [u8; 38],
    /// Video RAM: 16 KB, or 64 KB on machines with the larger option.
    pub ram: Vec<u8>,
    /// The register selected through $D600.
    pub selected: u8,
    /// The 1 MHz cycle until which a block operation keeps the chip busy.
    busy_until: u64,
}

impl Vdc {
    /// A VDC as the KERNAL programs it: 80 x 25 text, display at $0000, attributes at $0800,
    /// character set at $2000, attributes enabled. `ram_kb` is 16 or 64.
    pub fn new(ram_kb: usize) -> Self {
        let mut regs = [0u8; 38];
        let init: [(usize, u8); 14] = [
            (0, 126),
            (1, 80),
            (6, 25),
            (9, 7),
            (12, 0x00),
            (13, 0x00),
            (20, 0x08),
            (21, 0x00),
            (22, 0x78),
            (23, 0x08),
            (25, 0x47),
            (26, 0xF0),
            (27, 0x00),
            (28, 0x20),
        ];
        for (r, v) in init {
            regs[r] = v;
        }
        let size = if ram_kb >= 64 { 0x1_0000 } else { 0x4000 };
        if size == 0x1_0000 {
            regs[28] |= 0x10;
        }
        Vdc { regs, ram: vec![0; size], selected: 0, busy_until: 0 }
    }

    fn word(&self, hi: usize) -> u16 {
        u16::from_be_bytes([self.regs[hi], self.regs[hi + 1]])
    }

    fn set_word(&mut self, hi: usize, value: u16) {
        [self.regs[hi], self.regs[hi + 1]] = value.to_be_bytes();
    }

    fn mask(&self, addr: u16) -> usize {
        usize::from(addr) & (self.ram.len() - 1)
    }

    /// Reads a byte of VDC RAM (wrapping at its size).
    pub fn peek(&self, addr: u16) -> u8 {
        self.ram[self.mask(addr)]
    }

    /// Writes a byte of VDC RAM (wrapping at its size).
    pub fn poke(&mut self, addr: u16, value: u8) {
        let i = self.mask(addr);
        self.ram[i] = value;
    }

    /// Reads $D600: ready (bit 7), vertical blank (bit 5) and the chip version.
    pub fn read_status(&self, now: u64, cycles_per_frame: u64) -> u8 {
        let in_vblank = now % cycles_per_frame > cycles_per_frame * 85 / 100;
        let ready = if now >= self.busy_until { 0x80 } else { 0 };
        ready | if in_vblank { 0x20 } else { 0 } | 0x01
    }

    /// Writes $D600: selects a register.
    pub fn select(&mut self, value: u8) {
        self.selected = value & 0x3F;
    }

    /// Reads $D601: the selected register; R31 reads RAM at the update address and
    /// advances it.
    pub fn read_data(&mut self) -> u8 {
        match self.selected {
            31 => {
                let addr = self.word(18);
                let v = self.peek(addr);
                self.set_word(18, addr.wrapping_add(1));
                v
            }
            r @ 0..=37 => self.regs[usize::from(r)],
            _ => 0xFF,
        }
    }

    /// Writes $D601 at 1 MHz cycle `now`: the selected register; R31 writes RAM at the
    /// update address, R30 runs a block fill or copy of that many bytes (0 means 256).
    pub fn write_data(&mut self, value: u8, now: u64) {
        let r = usize::from(self.selected);
        if r > 37 {
            return;
        }
        self.regs[r] = value;
        match r {
            31 => {
                let addr = self.word(18);
                self.poke(addr, value);
                self.set_word(18, addr.wrapping_add(1));
            }
            30 => {
                let n = self.block(value);
                self.busy_until = now + n as u64 / 2;
            }
            _ => {}
        }
    }

    /// Runs a block fill or copy; returns the number of bytes moved.
    fn block(&mut self, count: u8) -> usize {
        let count = if count == 0 { 256 } else { usize::from(count) };
        let copy = self.regs[24] & 0x80 != 0;
        let mut dst = self.word(18);
        let mut src = self.word(32);
        let fill = self.regs[31];
        for _ in 0..count {
            let v = if copy { self.peek(src) } else { fill };
            if copy {
                // The copy leaves the last byte moved in the data register, as the chip does.
                self.regs[31] = v;
                src = src.wrapping_add(1);
            }
            self.poke(dst, v);
            dst = dst.wrapping_add(1);
        }
        self.set_word(18, dst);
        if copy {
            self.set_word(32, src);
        }
        count
    }

    /// Start of the display in VDC RAM (R12/R13).
    pub fn display_start(&self) -> u16 {
        self.word(12)
    }

    /// Start of the attributes in VDC RAM (R20/R21).
    pub fn attribute_start(&self) -> u16 {
        self.word(20)
    }

    /// Start of the character set in VDC RAM (R28 bits 5-7).
    pub fn charset_start(&self) -> u16 {
        u16::from(self.regs[28] & 0xE0) << 8
    }

    /// Whether attributes are enabled (R25 bit 6).
    pub fn attributes_enabled(&self) -> bool {
        self.regs[25] & 0x40 != 0
    }

    /// Foreground (bits 4-7) and background (bits 0-3) colours from R26.
    pub fn colours(&self) -> (u8, u8) {
        (self.regs[26] >> 4, self.regs[26] & 0x0F)
    }

    /// Bytes per character in the character set (R9 + 1 scan lines, stored in 16 or 32).
    pub fn char_stride(&self) -> u16 {
        if self.regs[9] & 0x1F >= 16 { 32 } else { 16 }
    }

    /// Columns shown (R1) and rows shown (R6).
    pub fn size(&self) -> (u16, u16) {
        (u16::from(self.regs[1]), u16::from(self.regs[6]))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn write_reg(vdc: &mut Vdc, r: u8, v: u8) {
        vdc.select(r);
        vdc.write_data(v, 0);
    }

    #[test]
    fn data_register_auto_increments() {
        let mut vdc = Vdc::new(16);
        write_reg(&mut vdc, 18, 0x12);
        write_reg(&mut vdc, 19, 0x34);
        write_reg(&mut vdc, 31, 0xAA);
        write_reg(&mut vdc, 31, 0xBB);
        assert_eq!(vdc.peek(0x1234), 0xAA);
        assert_eq!(vdc.peek(0x1235), 0xBB);
        write_reg(&mut vdc, 18, 0x12);
        write_reg(&mut vdc, 19, 0x35);
        vdc.select(31);
        assert_eq!(vdc.read_data(), 0xBB);
    }

    #[test]
    fn fill_then_copy_move_blocks() {
        let mut vdc = Vdc::new(16);
        write_reg(&mut vdc, 18, 0x00);
        write_reg(&mut vdc, 19, 0x10);
        write_reg(&mut vdc, 24, 0x00);
        write_reg(&mut vdc, 31, 0x55);
        write_reg(&mut vdc, 30, 9);
        assert!((0x10..0x1A).all(|a| vdc.peek(a) == 0x55));
        assert_eq!(vdc.peek(0x1A), 0);
        write_reg(&mut vdc, 32, 0x00);
        write_reg(&mut vdc, 33, 0x10);
        write_reg(&mut vdc, 18, 0x01);
        write_reg(&mut vdc, 19, 0x00);
        write_reg(&mut vdc, 24, 0x80);
        write_reg(&mut vdc, 30, 10);
        assert!((0x100..0x10A).all(|a| vdc.peek(a) == 0x55));
        assert_eq!(vdc.peek(0x10A), 0);
    }

    #[test]
    fn a_block_fill_keeps_the_chip_busy_for_a_while() {
        let mut vdc = Vdc::new(16);
        assert_eq!(vdc.read_status(0, 19_656) & 0x80, 0x80);
        vdc.select(30);
        vdc.write_data(200, 1000);
        assert_eq!(vdc.read_status(1000, 19_656) & 0x80, 0);
        assert_eq!(vdc.read_status(1099, 19_656) & 0x80, 0);
        assert_eq!(vdc.read_status(1100, 19_656) & 0x80, 0x80);
    }

    #[test]
    fn sixteen_kb_ram_wraps() {
        let mut vdc = Vdc::new(16);
        vdc.poke(0x4001, 7);
        assert_eq!(vdc.peek(0x0001), 7);
        let mut big = Vdc::new(64);
        big.poke(0x4001, 7);
        assert_eq!(big.peek(0x0001), 0);
    }
}
