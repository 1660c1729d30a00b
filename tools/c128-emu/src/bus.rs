//! The C128's address bus as the 8502 sees it: RAM banks, the MMU, the processor port, ROM
//! areas (empty: there are no ROM images), the I/O block with its chips, and the clock that
//! paces them. It implements `mos6502`'s [`Bus`](mos6502::memory::Bus).

use mos6502::memory::Bus as CpuBus;

use crate::chips::cia::Cia;
use crate::chips::sid::Sid;
use crate::chips::vdc::Vdc;
use crate::chips::vic::{Vic, VideoStandard};
use crate::font;
use crate::keys::Keyboard;
use crate::mmu::{Mmu, Page, Rom, SLOW};

use c128_map::kernal::{IRQ_ENTRY, NMI_ENTRY, RESET_ENTRY};

/// The byte a RAM chip holds after power-on at `addr` (bank bit included): blocks of two
/// and four bytes of $00 and $FF, inverted in every other 16 KB, as VICE's x128 fills its
/// RAM (read from one of its snapshots) and as real DRAM tends to come up. Where nothing has
/// written, a program reads this and not zeros, so a variable it forgot to clear shows up
/// here as it would on the machine.
pub fn power_on_byte(addr: usize) -> u8 {
    let ones = ((addr + 2) >> 2) & 1 == 1;
    let inverted = (addr >> 14) & 1 == 1;
    if ones != inverted { 0xFF } else { 0x00 }
}

/// RAM as the KERNAL leaves it at `READY.`: the power-on pattern, except the system area
/// it clears and uses (bank 0 below $0C00 and $1000-$12FF: zero page, stack, screen,
/// editor and KERNAL variables, function keys; this emulator sets what it needs of them)
/// and bank 1 below $0400.
fn power_on_ram() -> Box<[u8; 0x2_0000]> {
    let mut ram: Box<[u8; 0x2_0000]> = vec![0u8; 0x2_0000].into_boxed_slice().try_into().expect("128 KB");
    for (addr, byte) in ram.iter_mut().enumerate() {
        let system = match addr >> 16 {
            0 => addr < 0x0C00 || (0x1000..0x1300).contains(&addr),
            _ => addr & 0xFFFF < 0x0400,
        };
        if !system {
            *byte = power_on_byte(addr);
        }
    }
    ram
}

/// The whole machine apart from the CPU registers.
#[derive(Debug, Clone)]
pub struct C128Bus {
    /// RAM banks 0 and 1, one after the other.
    pub ram: Box<[u8; 0x2_0000]>,
    /// The MMU and its page map.
    pub mmu: Mmu,
    /// Processor port data direction ($00).
    pub port_ddr: u8,
    /// Processor port data ($01).
    pub port_data: u8,
    /// Colour RAM, low nibbles: two banks of 1 KB, one after the other. The processor port's
    /// bit 0 ($01) says which one the CPU sees at $D800-$DBFF, bit 1 which one the VIC-IIe
    /// shows (an input bit reads high, so it selects bank 1). Read them through
    /// [`C128Bus::colour`] (what the VIC shows) and [`C128Bus::cpu_colour_mut`].
    pub colour_ram: [u8; 2048],
    /// The 40-column chip.
    pub vic: Vic,
    /// The 80-column chip.
    pub vdc: Vdc,
    /// CIA 1 (keyboard, joysticks, IRQ).
    pub cia1: Cia,
    /// CIA 2 (VIC bank, NMI).
    pub cia2: Cia,
    /// The sound chip.
    pub sid: Sid,
    /// Keys, joysticks and the key script.
    pub keyboard: Keyboard,
    /// Whether the 40/80 key is down (80 columns at boot).
    pub key_80: bool,
    /// The value written to $D7FF, once the program has written it.
    pub exit_code: Option<u8>,
    /// Time in half-cycles of 1 MHz (a 2 MHz cycle is one tick).
    ticks: u64,
    cia_now: u64,
    next_event: u64,
    raster_event: u64,
    frame_event: u64,
    /// Frames elapsed since power-on.
    pub frames: u64,
    /// Set when the CPU takes an interrupt, so the run loop can charge its 7 cycles.
    pub interrupt_taken: bool,
    /// End the run this many frames after the key script has been typed out.
    pub stop_after_keys: Option<u32>,
    idle_frames: u32,
    /// Set when the run should end although the program has not (see `stop_after_keys`).
    pub stop_requested: bool,
}

impl C128Bus {
    /// A machine in the state the KERNAL leaves it after boot, its TOD clocks at
    /// `tod_start` tenths of a second after midnight.
    pub fn new(standard: VideoStandard, vdc_ram_kb: usize, key_80: bool, tod_start: u64) -> Self {
        let tenth = standard.clock_hz() / 10;
        let mut bus = C128Bus {
            ram: power_on_ram(),
            mmu: Mmu::new(),
            port_ddr: 0x2F,
            port_data: 0x37,
            colour_ram: [13; 2048],
            vic: Vic::new(standard),
            vdc: Vdc::new(vdc_ram_kb),
            cia1: Cia::new(tod_start, tenth),
            cia2: Cia::new(tod_start, tenth),
            sid: Sid::default(),
            keyboard: Keyboard::default(),
            key_80,
            exit_code: None,
            ticks: 0,
            cia_now: 0,
            next_event: 0,
            raster_event: 0,
            frame_event: 0,
            frames: 0,
            interrupt_taken: false,
            stop_after_keys: None,
            idle_frames: 0,
            stop_requested: false,
        };
        bus.cia2.pra = 0x97;
        bus.cia2.ddra = 0x3F;
        bus.cia1.ddra = 0xFF;
        load_vdc_charset(&mut bus);
        bus.raster_event = bus.vic.next_compare(0);
        bus.frame_event = standard.cycles_per_frame();
        bus.schedule();
        bus
    }

    /// The 1 MHz cycle count.
    pub fn now(&self) -> u64 {
        self.ticks / 2
    }

    fn schedule(&mut self) {
        self.next_event = self.raster_event.min(self.frame_event) * 2;
    }

    /// Advances time by `cpu_cycles` cycles of the 8502 (half as long each in FAST mode).
    #[inline]
    pub fn advance(&mut self, cpu_cycles: u64) {
        self.ticks += cpu_cycles << u32::from(!self.vic.fast());
        if self.cia1.busy() || self.cia2.busy() {
            let now = self.now();
            let d = now - self.cia_now;
            self.cia1.tick(d);
            self.cia2.tick(d);
        }
        self.cia_now = self.now();
        if self.ticks >= self.next_event {
            self.events();
        }
    }

    #[cold]
    fn events(&mut self) {
        let now = self.now();
        while self.raster_event <= now {
            self.vic.irq_flags |= 0x01;
            self.raster_event = self.vic.next_compare(self.raster_event);
        }
        while self.frame_event <= now {
            self.keyboard.frame();
            self.frames += 1;
            if let Some(limit) = self.stop_after_keys {
                if self.keyboard.script_done() {
                    self.idle_frames += 1;
                    self.stop_requested |= self.idle_frames > limit;
                } else {
                    self.idle_frames = 0;
                }
            }
            self.frame_event += self.vic.standard.cycles_per_frame();
        }
        self.schedule();
    }

    /// Reads RAM bank `bank` directly, bypassing the MMU.
    pub fn ram_peek(&self, bank: u8, addr: u16) -> u8 {
        self.ram[(usize::from(bank & 1) << 16) | usize::from(addr)]
    }

    /// Writes RAM bank `bank` directly, bypassing the MMU.
    pub fn ram_poke(&mut self, bank: u8, addr: u16, value: u8) {
        self.ram[(usize::from(bank & 1) << 16) | usize::from(addr)] = value;
    }

    /// What the CPU would read at `addr`, without side effects on I/O (for error reports,
    /// opcode checks and disassembly).
    #[inline]
    pub fn peek(&self, addr: u16) -> u8 {
        let e = self.mmu.read_map[usize::from(addr >> 8)];
        if e & SLOW == 0 {
            return self.ram[(e as usize | usize::from(addr & 0xFF)) & 0x1_FFFF];
        }
        match self.mmu.pages[usize::from(addr >> 8)] {
            _ if (0xFF00..=0xFF04).contains(&addr) => self.mmu.read_ff((addr & 0xFF) as u8),
            Page::Ram(o) => self.ram[(o as usize | usize::from(addr & 0xFF)) & 0x1_FFFF],
            Page::Rom(rom, _) => rom_byte(rom, addr),
            Page::Io => 0xFF,
        }
    }

    /// The page-map entry for the page holding `addr`.
    pub fn page(&self, addr: u16) -> Page {
        self.mmu.pages[usize::from(addr >> 8)]
    }

    /// Whether the fast path cannot fetch code from the page holding `addr`.
    #[inline]
    pub fn slow_page(&self, addr: u16) -> bool {
        self.mmu.read_map[usize::from(addr >> 8)] & SLOW != 0
    }

    #[cold]
    fn read_slow(&mut self, addr: u16) -> u8 {
        if (0xFF00..=0xFF04).contains(&addr) {
            return self.mmu.read_ff((addr & 0xFF) as u8);
        }
        match self.mmu.pages[usize::from(addr >> 8)] {
            Page::Ram(o) => self.ram[(o as usize | usize::from(addr & 0xFF)) & 0x1_FFFF],
            Page::Rom(rom, _) => rom_byte(rom, addr),
            Page::Io => self.read_io(addr),
        }
    }

    #[cold]
    fn write_slow(&mut self, addr: u16, value: u8) {
        if (0xFF00..=0xFF04).contains(&addr) {
            self.mmu.write_ff((addr & 0xFF) as u8, value);
            return;
        }
        match self.mmu.pages[usize::from(addr >> 8)] {
            Page::Ram(o) | Page::Rom(_, o) => {
                self.ram[(o as usize | usize::from(addr & 0xFF)) & 0x1_FFFF] = value;
            }
            Page::Io => self.write_io(addr, value),
        }
    }

    fn read_io(&mut self, addr: u16) -> u8 {
        let now = self.now();
        match addr {
            0xD000..=0xD3FF => self.vic.read((addr & 0x3F) as u8, now),
            0xD400..=0xD4FF => self.sid.read(addr as u8),
            0xD500..=0xD5FF => self.mmu.read_d5(addr as u8, self.key_80),
            0xD600..=0xD6FF if addr & 1 == 0 => self.vdc.read_status(now, self.vic.standard.cycles_per_frame()),
            0xD600..=0xD6FF => self.vdc.read_data(),
            0xD800..=0xDBFF => self.colour_ram[self.cpu_colour_index(addr)] | 0xF0,
            0xDC00..=0xDCFF => {
                let joy2 = !self.keyboard.joystick[1] & 0x1F | 0xE0;
                let rows = self.keyboard.rows((self.cia1.pra | !self.cia1.ddra) & joy2, self.vic.regs[0x2F]);
                let port_b = rows & (!self.keyboard.joystick[0] | 0xE0);
                self.cia1.read(addr as u8, now, joy2, port_b)
            }
            0xDD00..=0xDDFF => self.cia2.read(addr as u8, now, 0xFF, 0xFF),
            _ => 0xFF,
        }
    }

    fn write_io(&mut self, addr: u16, value: u8) {
        let now = self.now();
        match addr {
            0xD000..=0xD3FF => {
                let reg = (addr & 0x3F) as u8;
                self.vic.write(reg, value);
                if reg == 0x11 || reg == 0x12 {
                    self.raster_event = self.vic.next_compare(now);
                    self.schedule();
                }
            }
            0xD400..=0xD4FF => self.sid.write(now, addr as u8, value),
            0xD500..=0xD5FF => {
                self.mmu.write_d5(addr as u8, value);
            }
            0xD600..=0xD6FF if addr & 1 == 0 => self.vdc.select(value),
            0xD600..=0xD6FF => self.vdc.write_data(value, now),
            c128_map::test::EXIT_PORT => {
                if self.exit_code.is_none() {
                    self.exit_code = Some(value);
                }
            }
            0xD800..=0xDBFF => self.colour_ram[self.cpu_colour_index(addr)] = value & 0x0F,
            0xDC00..=0xDCFF => self.cia1.write(addr as u8, value, now),
            0xDD00..=0xDDFF => self.cia2.write(addr as u8, value, now),
            _ => {}
        }
    }

    /// The processor port's pins: outputs as written, inputs high.
    fn port_pins(&self) -> u8 {
        (self.port_data & self.port_ddr) | !self.port_ddr
    }

    /// Where the CPU's colour RAM cell at `addr` ($D800-$DBFF) is in [`C128Bus::colour_ram`].
    fn cpu_colour_index(&self, addr: u16) -> usize {
        usize::from(self.port_pins() & 1) << 10 | usize::from(addr & 0x3FF)
    }

    /// The colour of cell `cell` (0-1023) as the VIC-IIe shows it, from the colour RAM
    /// bank the processor port's bit 1 gives it.
    pub fn colour(&self, cell: u16) -> u8 {
        self.colour_ram[usize::from(self.port_pins() >> 1 & 1) << 10 | usize::from(cell & 0x3FF)]
    }

    /// Colour RAM cell `cell` (0-1023) in the bank the CPU sees.
    pub fn cpu_colour_mut(&mut self, cell: u16) -> &mut u8 {
        let i = self.cpu_colour_index(cell);
        &mut self.colour_ram[i]
    }

    /// The 64 KB VIC bank offset in its RAM bank, from CIA 2 port A bits 0-1 (inverted).
    pub fn vic_base(&self) -> u32 {
        let bits = (self.cia2.pra | !self.cia2.ddra) & 3;
        u32::from(3 - bits) * 0x4000
    }

    /// A byte as the VIC fetches it at `addr` (0..0x3FFF) of its current bank: RAM of the
    /// bank $D506 selects, or the character ROM at $1000-$1FFF of VIC banks 0 and 2.
    pub fn vic_fetch(&self, addr: u16) -> u8 {
        let base = self.vic_base();
        let addr = u32::from(addr & 0x3FFF);
        if (base == 0 || base == 0x8000) && (0x1000..0x2000).contains(&addr) {
            return font::charset()[(addr - 0x1000) as usize];
        }
        self.ram[((self.mmu.vic_bank() << 16) | base | addr) as usize & 0x1_FFFF]
    }

    /// Whether the VIC character generator is the built-in ROM font (true) or RAM.
    pub fn vic_uses_rom_font(&self) -> bool {
        let base = self.vic_base();
        let cb = u32::from(self.vic.charset_base());
        (base == 0 || base == 0x8000) && (0x1000..0x2000).contains(&cb)
    }
}

/// What the KERNAL's DLCHR does, at power-on and when called: the character ROM (both
/// sets, each glyph followed by its reverse image) into VDC RAM at $2000, 16 bytes a glyph
/// with the last 8 cleared.
pub fn load_vdc_charset(bus: &mut C128Bus) {
    let rom = font::charset();
    for code in 0..512u16 {
        for row in 0..16u16 {
            let value = if row < 8 { rom[usize::from(code * 8 + row)] } else { 0 };
            bus.vdc.poke(0x2000 + code * 16 + row, value);
        }
    }
}

/// What a read of ROM gives. There is no ROM image: the KERNAL vectors point at the trapped
/// entries, the character ROM shows the built-in font, and everything else reads $FF.
fn rom_byte(rom: Rom, addr: u16) -> u8 {
    match (rom, addr) {
        (Rom::Kernal, 0xFFFA..=0xFFFF) => {
            let v = [NMI_ENTRY, RESET_ENTRY, IRQ_ENTRY][usize::from((addr - 0xFFFA) / 2)];
            if addr & 1 == 0 { v as u8 } else { (v >> 8) as u8 }
        }
        (Rom::Character, _) => font::charset()[usize::from(addr & 0x0FFF)],
        _ => 0xFF,
    }
}

impl CpuBus for C128Bus {
    #[inline]
    fn get_byte(&mut self, addr: u16) -> u8 {
        if addr < 2 {
            return if addr == 0 {
                self.port_ddr
            } else {
                // Bit 6 is the CAPS LOCK key (up); inputs read 1.
                (self.port_data & self.port_ddr) | (!self.port_ddr & 0x7F)
            };
        }
        let e = self.mmu.read_map[usize::from(addr >> 8)];
        if e & SLOW == 0 { self.ram[(e as usize | usize::from(addr & 0xFF)) & 0x1_FFFF] } else { self.read_slow(addr) }
    }

    #[inline]
    fn set_byte(&mut self, addr: u16, value: u8) {
        if addr < 2 {
            if addr == 0 {
                self.port_ddr = value;
            } else {
                self.port_data = value;
            }
            return;
        }
        let e = self.mmu.write_map[usize::from(addr >> 8)];
        if e & SLOW == 0 {
            self.ram[(e as usize | usize::from(addr & 0xFF)) & 0x1_FFFF] = value;
        } else {
            self.write_slow(addr, value);
        }
    }

    fn nmi_pending(&mut self) -> bool {
        self.cia2.irq()
    }

    fn irq_pending(&mut self) -> bool {
        self.vic.irq() || self.cia1.irq()
    }

    fn irq_vector(&mut self) -> u16 {
        self.interrupt_taken = true;
        mos6502::memory::IRQ_INTERRUPT_VECTOR_LO
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bus() -> C128Bus {
        C128Bus::new(VideoStandard::Pal, 16, false, 0)
    }

    #[test]
    fn unwritten_ram_holds_the_power_on_pattern_vice_shows() {
        let b = bus();
        // Bytes from an x128 snapshot (VICE 3.9) of RAM nothing had written.
        let vice: [(u8, u16, [u8; 8]); 4] = [
            (0, 0xC000, [0xFF, 0xFF, 0, 0, 0, 0, 0xFF, 0xFF]),
            (0, 0xE800, [0xFF, 0xFF, 0, 0, 0, 0, 0xFF, 0xFF]),
            (1, 0x2000, [0, 0, 0xFF, 0xFF, 0xFF, 0xFF, 0, 0]),
            (0, 0x0C00, [0, 0, 0xFF, 0xFF, 0xFF, 0xFF, 0, 0]),
        ];
        for (bank, at, bytes) in vice {
            for (i, &want) in bytes.iter().enumerate() {
                let addr = at + i as u16;
                assert_eq!(b.ram[(usize::from(bank) << 16) | usize::from(addr)], want, "bank {bank} ${addr:04X}");
            }
        }
        assert_eq!(b.ram[0x00FB], 0, "zero page is the KERNAL's, cleared");
    }

    #[test]
    fn banks_are_separate_and_common_ram_is_shared() {
        let mut b = bus();
        b.set_byte(0xFF00, 0x3F);
        b.set_byte(0x2000, 0x11);
        b.set_byte(0x0200, 0x22);
        b.set_byte(0xFF00, 0x7F);
        assert_eq!(b.get_byte(0x2000), 0x00);
        b.set_byte(0x2000, 0x33);
        assert_eq!(b.get_byte(0x0200), 0x22);
        assert_eq!(b.ram_peek(0, 0x2000), 0x11);
        assert_eq!(b.ram_peek(1, 0x2000), 0x33);
    }

    #[test]
    fn d500_mirrors_ff00_and_rom_writes_reach_ram() {
        let mut b = bus();
        b.set_byte(0xD500, 0x0E);
        assert_eq!(b.get_byte(0xFF00), 0x0E);
        b.set_byte(0xE000, 0x44);
        assert_eq!(b.get_byte(0xE000), 0xFF);
        assert_eq!(b.ram_peek(0, 0xE000), 0x44);
        assert_eq!(b.get_byte(0xFFFE), IRQ_ENTRY as u8);
        b.set_byte(0xFF00, 0x3F);
        assert_eq!(b.get_byte(0xE000), 0x44);
        assert_eq!(b.get_byte(0xD000), power_on_byte(0xD000), "RAM under the I/O block, as it came up");
    }

    #[test]
    fn processor_port_reads_back_outputs() {
        let mut b = bus();
        b.set_byte(0, 0xFF);
        b.set_byte(1, 0x5A);
        assert_eq!(b.get_byte(1), 0x5A);
        b.set_byte(0, 0x0F);
        assert_eq!(b.get_byte(1) & 0x0F, 0x0A);
        assert_eq!(b.get_byte(1) & 0x40, 0x40);
    }

    #[test]
    fn forty_eighty_key_reads_in_d505() {
        let mut b = bus();
        assert_eq!(b.get_byte(0xD505) & 0x80, 0x80);
        b.key_80 = true;
        assert_eq!(b.get_byte(0xD505) & 0x80, 0);
    }

    #[test]
    fn raster_interrupt_fires_once_a_frame() {
        let mut b = bus();
        assert!(!b.irq_pending());
        b.advance(251 * 63);
        assert!(b.irq_pending());
        b.set_byte(0xD019, 0x01);
        assert!(!b.irq_pending());
        b.advance(63);
        assert!(!b.irq_pending());
        assert_eq!(b.frames, 0);
        b.advance(312 * 63);
        assert!(b.irq_pending());
        assert_eq!(b.frames, 1);
    }

    #[test]
    fn fast_mode_halves_cycle_time() {
        let mut b = bus();
        b.set_byte(0xD030, 1);
        b.advance(1000);
        assert_eq!(b.now(), 500);
        b.set_byte(0xD030, 0);
        b.advance(1000);
        assert_eq!(b.now(), 1500);
    }

    #[test]
    fn vic_bank_3_shows_ram_under_the_kernal() {
        let mut b = bus();
        // The game's layout: screen at $E000, characters at $E800, written with the
        // KERNAL ROM mapped ($0E), where writes land in RAM.
        b.set_byte(0xFF00, 0x0E);
        b.set_byte(0xE000, 0x41);
        b.set_byte(0xE800 + 0x41 * 8, 0x18);
        b.set_byte(0xD000, 0x99);
        b.set_byte(0xDD02, 0x3F);
        b.set_byte(0xDD00, 0x94);
        assert_eq!(b.vic_base(), 0xC000);
        assert_eq!(b.vic_fetch(0x2000), 0x41);
        assert_eq!(b.vic_fetch(0x2800 + 0x41 * 8), 0x18);
        // No character ROM image in bank 3: $D000 of the bank is RAM.
        assert_eq!(b.vic_fetch(0x1000), b.ram_peek(0, 0xD000));
        b.set_byte(0xD018, 0x8A);
        assert!(!b.vic_uses_rom_font());
        // Port A bits that are inputs read high: bank 0, with the ROM font at $1000.
        b.set_byte(0xDD02, 0x3C);
        assert_eq!(b.vic_base(), 0);
        assert_eq!(b.vic_fetch(0x1000 + 8), font::charset()[8]);
    }

    #[test]
    fn keyboard_matrix_reads_through_cia1() {
        let mut b = bus();
        b.keyboard.set_key(crate::keys::MatrixKey::Main { col: 1, row: 2 }, true);
        b.set_byte(0xDC00, !0x02);
        assert_eq!(b.get_byte(0xDC01), !0x04);
        b.set_byte(0xDC00, !0x01);
        assert_eq!(b.get_byte(0xDC01), 0xFF);
        b.keyboard.set_key(crate::keys::MatrixKey::Extra { line: 0, row: 0 }, true);
        b.set_byte(0xDC00, 0xFF);
        b.set_byte(0xD02F, 0xFE);
        assert_eq!(b.get_byte(0xDC01), 0xFE);
    }
}
