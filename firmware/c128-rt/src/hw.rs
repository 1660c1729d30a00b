//! Typed volatile access to the C128's hardware registers.
//!
//! Data addresses of translated programs are the C128's own, so a register is a pointer
//! to its address. (Addresses $20-$5F cannot be used this way: the AVR compiler turns
//! them into I/O-port instructions, which have no C128 meaning.)

/// An 8-bit hardware register.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Reg8(u16);

impl Reg8 {
    /// The register at `addr`.
    pub const fn at(addr: u16) -> Self {
        Reg8(addr)
    }

    /// Its address.
    pub const fn addr(self) -> u16 {
        self.0
    }

    /// Reads the register (a volatile load: never merged or removed).
    pub fn read(self) -> u8 {
        // SAFETY: hardware registers are always mapped under the program's MMU setting.
        unsafe { core::ptr::read_volatile(self.0 as usize as *const u8) }
    }

    /// Writes the register (a volatile store).
    pub fn write(self, value: u8) {
        // SAFETY: as for `read`.
        unsafe { core::ptr::write_volatile(self.0 as usize as *mut u8, value) }
    }

    /// Reads, changes and writes back.
    pub fn modify(self, f: impl FnOnce(u8) -> u8) {
        self.write(f(self.read()));
    }
}

/// VIC-IIe border colour.
pub const VIC_BORDER: Reg8 = Reg8::at(c128_map::io::VIC_BORDER);
/// VIC-IIe background colour.
pub const VIC_BACKGROUND: Reg8 = Reg8::at(c128_map::io::VIC_BACKGROUND);
/// VIC-IIe clock register: bit 0 = FAST (2 MHz).
pub const VIC_CLOCK: Reg8 = Reg8::at(c128_map::io::VIC_CLOCK);
/// MMU mode configuration: bit 7 reads 0 while the 40/80 key is down.
pub const MMU_MODE: Reg8 = Reg8::at(c128_map::io::MMU_MODE);
/// VDC address/status register.
pub const VDC_ADDR: Reg8 = Reg8::at(c128_map::io::VDC_ADDRESS);
/// VDC data register.
pub const VDC_DATA: Reg8 = Reg8::at(c128_map::io::VDC_DATA);
/// SID volume and filter mode.
pub const SID_VOLUME: Reg8 = Reg8::at(c128_map::io::SID_VOLUME);
/// The VICE debug cartridge exit port.
pub const EXIT_PORT: Reg8 = Reg8::at(c128_map::test::EXIT_PORT);
/// The MMU configuration register (visible in every configuration).
pub const MMU_CR: Reg8 = Reg8::at(c128_map::io::MMU_CR);

/// Writes a VDC register: select it, wait until the VDC is ready, write the data.
pub fn vdc_write(reg: u8, value: u8) {
    VDC_ADDR.write(reg);
    while VDC_ADDR.read() & 0x80 == 0 {}
    VDC_DATA.write(value);
}

/// Reads a VDC register.
pub fn vdc_read(reg: u8) -> u8 {
    VDC_ADDR.write(reg);
    while VDC_ADDR.read() & 0x80 == 0 {}
    VDC_DATA.read()
}
