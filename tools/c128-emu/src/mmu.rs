//! The C128's memory management unit (8722): its registers and the page map they produce.
//!
//! The MMU decides, for every 256-byte page the 8502 addresses, whether it reaches RAM bank 0,
//! RAM bank 1, a ROM or the I/O block. Rather than decide on every access, the map is rebuilt
//! whenever a register that shapes it changes, so the bus's hot path is one table lookup.

/// Which ROM a page would show. There are no ROM images here: reads of ROM give fixed values
/// and execution in ROM is only allowed at trapped KERNAL entry points.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Rom {
    /// BASIC low ROM, $4000-$7FFF.
    BasicLow,
    /// BASIC high ROM, $8000-$BFFF.
    BasicHigh,
    /// The internal or external function ROM sockets, empty on a stock machine.
    Function,
    /// The screen editor ROM, $C000-$CFFF.
    Editor,
    /// The character ROM as the CPU sees it at $D000-$DFFF.
    Character,
    /// The KERNAL ROM, $E000-$FFFF.
    Kernal,
}

/// Where one page of the CPU's address space goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Page {
    /// RAM; the value is the page's offset in the 128 KB of physical RAM.
    Ram(u32),
    /// The I/O block ($D000-$DFFF with I/O enabled).
    Io,
    /// A ROM; writes fall through to the RAM offset underneath.
    Rom(Rom, u32),
}

/// Marks a `read_map` or `write_map` entry that the fast path cannot serve.
pub const SLOW: u32 = 0x8000_0000;

/// The MMU's registers and the page map derived from them.
#[derive(Debug, Clone)]
pub struct Mmu {
    /// $D500 / $FF00: the configuration register.
    pub cr: u8,
    /// $D501-$D504: the four pre-configuration registers.
    pub pcr: [u8; 4],
    /// $D505: the mode configuration register as written (bit 7 comes from the 40/80 key).
    pub mcr: u8,
    /// $D506: RAM configuration (common RAM size and place, VIC bank).
    pub rcr: u8,
    /// $D507-$D50A: page 0 and page 1 pointers (low = page, high = bank).
    pub p0l: u8,
    /// Latched bank of the zero page pointer; takes effect when `p0l` is written.
    pub p0h: u8,
    /// Page of the stack pointer register.
    pub p1l: u8,
    /// Latched bank of the stack pointer register.
    pub p1h: u8,
    /// The map for reads: a RAM offset, or [`SLOW`] for I/O, ROM and the MMU page.
    pub read_map: [u32; 256],
    /// The map for writes: a RAM offset, or [`SLOW`].
    pub write_map: [u32; 256],
    /// What each page is, for the slow path and for deciding whether code may run there.
    pub pages: [Page; 256],
    /// The maps built so far, by the registers they derive from ([`Mmu::map_key`]): the
    /// KERNAL switches $FF00 back and forth at every interrupt and call, and a map copied
    /// from here costs a fraction of one recomputed (the bench spent a quarter of its time
    /// in `rebuild`).
    built: Vec<(u64, Box<Maps>)>,
}

/// A page map: `read_map`, `write_map` and `pages`.
type Maps = ([u32; 256], [u32; 256], [Page; 256]);

/// At most this many maps are kept (a program uses a handful of configurations).
const MAPS_KEPT: usize = 16;

impl Default for Mmu {
    fn default() -> Self {
        Self::new()
    }
}

impl Mmu {
    /// The MMU as the KERNAL leaves it after boot: bank 15 ($00), 1 KB of common RAM at the
    /// bottom, zero page and stack in place, pre-configurations as the KERNAL sets them.
    pub fn new() -> Self {
        let mut mmu = Mmu {
            cr: 0x00,
            pcr: [0x3F, 0x7F, 0x01, 0x41],
            mcr: 0x31,
            rcr: 0x04,
            p0l: 0,
            p0h: 0,
            p1l: 1,
            p1h: 0,
            read_map: [SLOW; 256],
            write_map: [SLOW; 256],
            pages: [Page::Ram(0); 256],
            built: Vec::new(),
        };
        mmu.rebuild();
        mmu
    }

    /// Common RAM size in bytes from $D506 bits 0-1.
    fn common_size(&self) -> u32 {
        [0x400, 0x1000, 0x2000, 0x4000][usize::from(self.rcr & 3)]
    }

    /// The RAM bank (0 or 1) the CPU sees at `addr` once common RAM is accounted for.
    fn ram_bank(&self, addr: u32) -> u32 {
        let size = self.common_size();
        let bottom = self.rcr & 0x04 != 0 && addr < size;
        let top = self.rcr & 0x08 != 0 && addr >= 0x1_0000 - size;
        if bottom || top { 0 } else { u32::from((self.cr >> 6) & 1) }
    }

    /// The RAM bank the VIC-IIe fetches from ($D506 bit 6).
    pub fn vic_bank(&self) -> u32 {
        u32::from((self.rcr >> 6) & 1)
    }

    /// Every register the page map derives from (`p0h` and `p1h` as they are now, as
    /// [`Mmu::compute`] reads them).
    fn map_key(&self) -> u64 {
        u64::from_le_bytes([self.cr, self.rcr, self.p0l, self.p0h & 1, self.p1l, self.p1h & 1, 0, 0])
    }

    /// Sets the page map after a register change: a map built before for the same
    /// registers, or one computed now (by `Mmu::compute`) and kept.
    pub fn rebuild(&mut self) {
        let key = self.map_key();
        if let Some((_, maps)) = self.built.iter().find(|(k, _)| *k == key) {
            (self.read_map, self.write_map, self.pages) = **maps;
            return;
        }
        self.compute();
        if self.built.len() == MAPS_KEPT {
            self.built.remove(0);
        }
        self.built.push((key, Box::new((self.read_map, self.write_map, self.pages))));
    }

    /// Computes the page map from the registers.
    fn compute(&mut self) {
        for p in 0..256u32 {
            let addr = p << 8;
            // Zero page and stack come from bank 0 unless relocated; the page they were
            // relocated to shows the original page in its place (the MMU swaps them).
            let ram_offset = if p == 0 {
                (u32::from(self.p0h & 1) << 16) | (u32::from(self.p0l) << 8)
            } else if p == 1 {
                (u32::from(self.p1h & 1) << 16) | (u32::from(self.p1l) << 8)
            } else {
                // The page a relocated zero page or stack moved to shows page 0 or 1 of the
                // relocation's bank instead.
                if p == u32::from(self.p0l) && self.p0l != 0 {
                    u32::from(self.p0h & 1) << 16
                } else if p == u32::from(self.p1l) && self.p1l != 1 {
                    (u32::from(self.p1h & 1) << 16) | 0x100
                } else {
                    (self.ram_bank(addr) << 16) | addr
                }
            };
            let cr = self.cr;
            let page = match p {
                0x40..=0x7F if cr & 0x02 == 0 => Page::Rom(Rom::BasicLow, ram_offset),
                0x80..=0xBF => match (cr >> 2) & 3 {
                    0 => Page::Rom(Rom::BasicHigh, ram_offset),
                    1 | 2 => Page::Rom(Rom::Function, ram_offset),
                    _ => Page::Ram(ram_offset),
                },
                0xD0..=0xDF if cr & 0x01 == 0 => Page::Io,
                0xC0..=0xFF => match (cr >> 4) & 3 {
                    0 => Page::Rom(
                        match p {
                            0xC0..=0xCF => Rom::Editor,
                            0xD0..=0xDF => Rom::Character,
                            _ => Rom::Kernal,
                        },
                        ram_offset,
                    ),
                    1 | 2 => Page::Rom(Rom::Function, ram_offset),
                    _ => Page::Ram(ram_offset),
                },
                _ => Page::Ram(ram_offset),
            };
            let i = p as usize;
            self.pages[i] = page;
            (self.read_map[i], self.write_map[i]) = match page {
                Page::Ram(o) => (o, o),
                Page::Rom(_, o) => (SLOW, o),
                Page::Io => (SLOW, SLOW),
            };
        }
        // $FF00-$FF04 are the MMU in every configuration.
        self.read_map[0xFF] = SLOW;
        self.write_map[0xFF] = SLOW;
    }

    /// Reads an MMU register at $D500 + `reg` (reg 0..=0xFF).
    pub fn read_d5(&self, reg: u8, key_80: bool) -> u8 {
        match reg {
            0 => self.cr,
            1..=4 => self.pcr[usize::from(reg - 1)],
            5 => (self.mcr & 0x7F) | if key_80 { 0 } else { 0x80 },
            6 => self.rcr | 0x30,
            7 => self.p0l,
            8 => self.p0h | 0xF0,
            9 => self.p1l,
            10 => self.p1h | 0xF0,
            11 => 0x20,
            _ => 0xFF,
        }
    }

    /// Writes an MMU register at $D500 + `reg`. Returns true when the page map changed.
    pub fn write_d5(&mut self, reg: u8, value: u8) -> bool {
        match reg {
            0 => self.cr = value,
            1..=4 => {
                self.pcr[usize::from(reg - 1)] = value;
                return false;
            }
            5 => {
                self.mcr = value;
                return false;
            }
            6 => self.rcr = value,
            7 => self.p0l = value,
            8 => {
                self.p0h = value;
                return false;
            }
            9 => self.p1l = value,
            10 => {
                self.p1h = value;
                return false;
            }
            _ => return false,
        }
        self.rebuild();
        true
    }

    /// Reads $FF00-$FF04.
    pub fn read_ff(&self, reg: u8) -> u8 {
        match reg {
            0 => self.cr,
            _ => self.pcr[usize::from(reg - 1)],
        }
    }

    /// Writes $FF00-$FF04: $FF00 sets the configuration, $FF01-$FF04 load a
    /// pre-configuration whatever value is written.
    pub fn write_ff(&mut self, reg: u8, value: u8) {
        self.cr = match reg {
            0 => value,
            _ => self.pcr[usize::from(reg - 1)],
        };
        self.rebuild();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn configuration_0e_has_ram_below_c000_and_kernal_above() {
        let mut mmu = Mmu::new();
        mmu.write_ff(0, 0x0E);
        assert_eq!(mmu.pages[0x1C], Page::Ram(0x1C00));
        assert_eq!(mmu.pages[0xBF], Page::Ram(0xBF00));
        assert_eq!(mmu.pages[0xD0], Page::Io);
        assert!(matches!(mmu.pages[0xFF], Page::Rom(Rom::Kernal, _)));
        assert!(matches!(mmu.pages[0xC0], Page::Rom(Rom::Editor, _)));
    }

    #[test]
    fn bank_1_keeps_common_ram_and_zero_page_in_bank_0() {
        let mut mmu = Mmu::new();
        mmu.write_ff(0, 0x7F);
        assert_eq!(mmu.pages[0x00], Page::Ram(0));
        assert_eq!(mmu.pages[0x03], Page::Ram(0x300));
        assert_eq!(mmu.pages[0x04], Page::Ram(0x1_0400));
        assert_eq!(mmu.pages[0xFF], Page::Ram(0x1_FF00));
    }

    #[test]
    fn preconfiguration_write_loads_its_register() {
        let mut mmu = Mmu::new();
        mmu.write_d5(2, 0x3E);
        mmu.write_ff(2, 0x99);
        assert_eq!(mmu.cr, 0x3E);
        assert_eq!(mmu.pages[0xD0], Page::Io);
        assert_eq!(mmu.pages[0xE0], Page::Ram(0xE000));
    }

    #[test]
    fn zero_page_relocation_swaps_pages() {
        let mut mmu = Mmu::new();
        mmu.write_d5(8, 0);
        mmu.write_d5(7, 0x20);
        assert_eq!(mmu.pages[0x00], Page::Ram(0x2000));
        assert_eq!(mmu.pages[0x20], Page::Ram(0x0000));
    }
}
