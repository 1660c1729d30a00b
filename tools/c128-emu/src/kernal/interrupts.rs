//! The KERNAL's interrupt path: the IRQ and NMI entries save the registers and jump through
//! the RAM vectors ($0314, $0316, $0318), so that a program's handler chains to the screen
//! editor's frame work ($FA65: the VIC's mode from its shadows, the jiffy clock, the keyboard
//! scan) and to the exit that restores the MMU and returns, as on the real machine.

use mos6502::memory::Bus as _;
use mos6502::registers::Status;

use super::{Cpu, Kernal, Outcome, Trap, pull, push};
use c128_map::kernal::IRQ_EXIT;
use c128_map::zp::{GRAPHM, TIME, VM1, VM2};

impl Kernal {
    /// The KERNAL's IRQ entry ($FF17): saves the registers and jumps through $0314, or
    /// $0316 for a BRK (the B flag in the status the 6502 pushed).
    pub(super) fn irq_entry(&mut self, cpu: &mut Cpu) -> Trap {
        let sp = cpu.registers.stack_pointer.0;
        let stacked_p = cpu.memory.get_byte(0x0100 + u16::from(sp.wrapping_add(1)));
        let vector = if stacked_p & 0x10 != 0 { 0x0316 } else { 0x0314 };
        self.enter_interrupt(cpu, vector);
        Trap::Done(Outcome::Jumped, 29)
    }

    /// The screen editor's frame work ($FA65): the VIC's mode from its shadows, the jiffy
    /// clock and the keyboard scan on a raster interrupt, then the KERNAL's exit.
    pub(super) fn editor_irq(cpu: &mut Cpu) -> Trap {
        let bus = &mut cpu.memory;
        if bus.vic.irq_flags & 0x01 != 0 {
            bus.vic.write(0x19, 0x01);
            // The editor puts the VIC in the mode GRAPHM asks for, from the shadows:
            // text from VM1, a bitmap (GRAPHM bit 5) from VM2, multicolour (bit 7).
            let graphm = bus.ram_peek(0, GRAPHM);
            let d011 = bus.vic.regs[0x11];
            if graphm & 0x20 == 0 {
                let vm1 = bus.ram_peek(0, VM1);
                bus.vic.write(0x18, vm1);
                bus.vic.write(0x11, d011 & !0x20);
            } else {
                let vm2 = bus.ram_peek(0, VM2);
                bus.vic.write(0x18, vm2);
                bus.vic.write(0x11, d011 | 0x20);
                let d016 = bus.vic.regs[0x16] & !0x10;
                bus.vic.write(0x16, d016 | if graphm & 0x80 != 0 { 0x10 } else { 0 });
            }
            let t =
                u32::from_be_bytes([0, bus.ram_peek(0, TIME), bus.ram_peek(0, TIME + 1), bus.ram_peek(0, TIME + 2)]);
            let t = (t + 1) % 5_184_000;
            let b = t.to_be_bytes();
            for i in 0..3 {
                bus.ram_poke(0, TIME + i, b[usize::from(i) + 1]);
            }
            Self::scan_keyboard(bus);
        }
        let now = bus.now();
        bus.cia1.read(13, now, 0xFF, 0xFF);
        cpu.registers.program_counter = IRQ_EXIT;
        Trap::Done(Outcome::Jumped, 900)
    }

    /// The KERNAL's interrupt exit ($FF33): restores the MMU, Y, X and A, then returns as
    /// RTI does.
    pub(super) fn irq_exit(cpu: &mut Cpu) -> Trap {
        let cr = pull(cpu);
        cpu.memory.mmu.write_ff(0, cr);
        cpu.registers.index_y = pull(cpu);
        cpu.registers.index_x = pull(cpu);
        cpu.registers.accumulator = pull(cpu);
        let p = pull(cpu);
        cpu.registers.status = Status::from_bits_truncate(p & !0x10) | Status::PS_UNUSED;
        let lo = pull(cpu);
        let hi = pull(cpu);
        cpu.registers.program_counter = u16::from_le_bytes([lo, hi]);
        Trap::Done(Outcome::Jumped, 26)
    }

    /// The KERNAL's NMI entry ($FF05).
    pub(super) fn nmi_entry(&mut self, cpu: &mut Cpu) -> Trap {
        // As the IRQ entry, through the NMI vector at $0318.
        self.enter_interrupt(cpu, 0x0318);
        Trap::Done(Outcome::Jumped, 29)
    }

    /// The default NMI handler ($FA40): acknowledges CIA 2, then the KERNAL's exit.
    pub(super) fn editor_nmi(cpu: &mut Cpu) -> Trap {
        let now = cpu.memory.now();
        cpu.memory.cia2.read(13, now, 0xFF, 0xFF);
        cpu.registers.program_counter = IRQ_EXIT;
        Trap::Done(Outcome::Jumped, 60)
    }

    /// The KERNAL's interrupt entry: saves A, X, Y and the MMU configuration on the stack,
    /// switches to bank 15 and jumps through `vector`.
    pub(super) fn enter_interrupt(&mut self, cpu: &mut Cpu, vector: u16) {
        let (a, x, y) = (cpu.registers.accumulator, cpu.registers.index_x, cpu.registers.index_y);
        push(cpu, a);
        push(cpu, x);
        push(cpu, y);
        let cr = cpu.memory.mmu.cr;
        push(cpu, cr);
        cpu.memory.mmu.write_ff(0, 0x00);
        let lo = cpu.memory.get_byte(vector);
        let hi = cpu.memory.get_byte(vector + 1);
        cpu.registers.program_counter = u16::from_le_bytes([lo, hi]);
    }
}
