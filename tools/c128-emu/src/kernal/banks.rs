//! Calls across RAM banks: GETCFG's table of configurations, JSRFAR and JMPFAR (and the
//! return from a far call), and INDFET, INDSTA and INDCMP, which read, write and compare a
//! byte in another bank.

use mos6502::registers::Status;

use super::{Cpu, Kernal, Outcome, Trap, push_return, rts, set_flag, set_nz};

/// Where a routine called through JSRFAR returns to: the registers are stored for the
/// caller and its configuration restored. Recognised in every configuration.
pub const FAR_RETURN: u16 = 0xFFF7;
/// The MMU configuration of each KERNAL bank number (what GETCFG returns).
pub const BANK_CONFIGS: [u8; 16] =
    [0x3F, 0x7F, 0xBF, 0xFF, 0x16, 0x56, 0x96, 0xD6, 0x2A, 0x6A, 0xAA, 0xEA, 0x06, 0x0A, 0x01, 0x00];

impl Kernal {
    /// GETCFG: the MMU configuration of bank number X.
    pub(super) fn getcfg(cpu: &mut Cpu) -> Trap {
        let x = cpu.registers.index_x;
        let cfg = BANK_CONFIGS[usize::from(x & 0x0F)];
        cpu.registers.accumulator = cfg;
        Trap::Done(Outcome::Return, 20)
    }

    /// JSRFAR (`call`) and JMPFAR: bank, PC high, PC low, status, A, X, Y in $02-$08.
    pub(super) fn far_jump(&mut self, cpu: &mut Cpu, call: bool) -> Trap {
        // JSRFAR/JMPFAR: bank, PC high, PC low, status, A, X, Y in $02-$08.
        let z = |cpu: &Cpu, at: u16| cpu.memory.ram_peek(0, at);
        let bank = z(cpu, 2);
        let target = u16::from_be_bytes([z(cpu, 3), z(cpu, 4)]);
        let (p, a, x, y) = (z(cpu, 5), z(cpu, 6), z(cpu, 7), z(cpu, 8));
        if call {
            self.far_calls.push(cpu.memory.mmu.cr);
            push_return(cpu, FAR_RETURN);
        }
        cpu.memory.mmu.write_ff(0, BANK_CONFIGS[usize::from(bank & 0x0F)]);
        let r = &mut cpu.registers;
        (r.accumulator, r.index_x, r.index_y) = (a, x, y);
        r.status = Status::from_bits_truncate(p & !0x10) | Status::PS_UNUSED;
        r.program_counter = target;
        Trap::Done(Outcome::Jumped, 60)
    }

    /// INDFET: A = zero-page pointer, X = bank, Y = offset; the byte in A.
    pub(super) fn indfet(cpu: &mut Cpu) -> Trap {
        let (a, x, y) = (cpu.registers.accumulator, cpu.registers.index_x, cpu.registers.index_y);
        let ptr = u16::from(a);
        let base = u16::from_le_bytes([cpu.memory.ram_peek(0, ptr), cpu.memory.ram_peek(0, (ptr + 1) & 0xFF)]);
        let v = cpu.memory.ram_peek(bank_of(x), base.wrapping_add(u16::from(y)));
        cpu.registers.accumulator = v;
        set_nz(cpu, v);
        Trap::Done(Outcome::Return, 40)
    }

    /// INDSTA (`store`) and INDCMP: the pointer's zero-page address is in $02B9 (INDSTA)
    /// or $02C8 (INDCMP), X = bank, Y = offset, A the byte to store or compare.
    pub(super) fn indirect_store_or_compare(cpu: &mut Cpu, store: bool) -> Trap {
        let (a, x, y) = (cpu.registers.accumulator, cpu.registers.index_x, cpu.registers.index_y);
        let vec_at = if store { 0x02B9 } else { 0x02C8 };
        let ptr = u16::from(cpu.memory.ram_peek(0, vec_at));
        let base = u16::from_le_bytes([cpu.memory.ram_peek(0, ptr), cpu.memory.ram_peek(0, (ptr + 1) & 0xFF)]);
        let target = base.wrapping_add(u16::from(y));
        if store {
            cpu.memory.ram_poke(bank_of(x), target, a);
        } else {
            let m = cpu.memory.ram_peek(bank_of(x), target);
            let d = a.wrapping_sub(m);
            set_nz(cpu, d);
            set_flag(cpu, Status::PS_CARRY, a >= m);
        }
        Trap::Done(Outcome::Return, 40)
    }

    /// Whether a JSRFAR call is waiting for its routine to return.
    pub(crate) fn in_far_call(&self) -> bool {
        !self.far_calls.is_empty()
    }

    /// The return from a JSRFAR routine: stores the registers in $05-$08, restores the
    /// caller's configuration and returns to the caller.
    pub(crate) fn far_return(&mut self, cpu: &mut Cpu) {
        let r = cpu.registers;
        let values = [r.status.bits(), r.accumulator, r.index_x, r.index_y];
        for (i, v) in values.into_iter().enumerate() {
            cpu.memory.ram_poke(0, 5 + i as u16, v);
        }
        if let Some(cr) = self.far_calls.pop() {
            cpu.memory.mmu.write_ff(0, cr);
        }
        rts(cpu);
    }
}

/// The RAM bank behind a KERNAL bank number (0-15): odd banks below 4 are RAM 1.
pub(super) fn bank_of(bank: u8) -> u8 {
    if bank < 4 { bank & 1 } else { 0 }
}
