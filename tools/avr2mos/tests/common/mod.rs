//! Shared test support: a flat 64 KiB RAM bus for the `mos6502` CPU with the few KERNAL
//! entry points the tests use trapped, and one `run` loop for every test.

#![allow(dead_code)] // Each test binary uses a different part of this module.

use mos6502::cpu::CPU;
use mos6502::instruction::Nmos6502;
use mos6502::memory::Bus;
use mos6502::registers::StackPointer;

/// Where the emulated `SYS` returns to; reaching it ends the run.
pub const RETURN_TRAP: u16 = 0xFFF8;

/// Flat RAM with the debug-cartridge exit port at $D7FF.
pub struct FlatBus {
    /// The memory.
    pub mem: Vec<u8>,
    /// The exit code written to $D7FF, if any.
    pub exit: Option<u8>,
    /// Zero page at the moment of the exit write (the program restores BASIC's after).
    pub zp_at_exit: Vec<u8>,
}

impl Bus for FlatBus {
    fn get_byte(&mut self, address: u16) -> u8 {
        self.mem[usize::from(address)]
    }
    fn set_byte(&mut self, address: u16, value: u8) {
        if address == 0xD7FF && self.exit.is_none() {
            self.exit = Some(value);
            self.zp_at_exit = self.mem[..256].to_vec();
        }
        self.mem[usize::from(address)] = value;
    }
}

/// The outcome of a run.
pub struct Run {
    /// Exit code written to $D7FF.
    pub exit: Option<u8>,
    /// Bytes written through CHROUT.
    pub output: Vec<u8>,
    /// Zero page at exit.
    pub zp: Vec<u8>,
    /// Memory after the run.
    pub mem: Vec<u8>,
    /// Cycles used.
    pub cycles: u64,
    /// Whether the program returned to the `SYS` caller.
    pub returned: bool,
}

/// Loads a `.prg` and runs it as `RUN` would (`SYS 7181`), up to `max_cycles`.
pub fn run(prg: &[u8], max_cycles: u64) -> Result<Run, String> {
    let mut mem = vec![0u8; 0x10000];
    let load = usize::from(u16::from_le_bytes([prg[0], prg[1]]));
    mem[load..load + prg.len() - 2].copy_from_slice(&prg[2..]);
    // BASIC's zero page holds something; the program must give it back unchanged.
    for (i, b) in mem[0x02..0x90].iter_mut().enumerate() {
        *b = (i as u8).wrapping_mul(37) ^ 0x5A;
    }
    let basic_zp = mem[..0x90].to_vec();
    let mut cpu = CPU::new(FlatBus { mem, exit: None, zp_at_exit: vec![] }, Nmos6502);
    let ret = RETURN_TRAP - 1;
    cpu.memory.mem[0x1FF] = (ret >> 8) as u8;
    cpu.memory.mem[0x1FE] = ret as u8;
    cpu.registers.stack_pointer = StackPointer(0xFD);
    cpu.registers.program_counter = 0x1C0D;
    let mut output = Vec::new();
    let mut returned = false;
    while cpu.cycles < max_cycles {
        let pc = cpu.registers.program_counter;
        match pc {
            RETURN_TRAP => {
                returned = true;
                break;
            }
            0xFFD2 | 0xFFE4 => {
                if pc == 0xFFD2 {
                    output.push(cpu.registers.accumulator);
                } else {
                    cpu.registers.accumulator = 0;
                }
                let sp = cpu.registers.stack_pointer.0;
                let lo = cpu.memory.mem[0x100 + usize::from(sp.wrapping_add(1))];
                let hi = cpu.memory.mem[0x100 + usize::from(sp.wrapping_add(2))];
                cpu.registers.stack_pointer = StackPointer(sp.wrapping_add(2));
                cpu.registers.program_counter = u16::from_le_bytes([lo, hi]).wrapping_add(1);
                cpu.cycles += 6;
                continue;
            }
            _ => {}
        }
        let op = cpu.memory.mem[usize::from(pc)];
        if op == 0x00 {
            return Err(format!("BRK at {pc:04x}, output so far {:?}", String::from_utf8_lossy(&output)));
        }
        if !cpu.single_step() {
            return Err(format!("CPU stopped at {pc:04x} (opcode {op:02x})"));
        }
    }
    if returned && cpu.memory.mem[..0x90] != basic_zp[..] {
        return Err("BASIC zero page not restored".into());
    }
    Ok(Run {
        exit: cpu.memory.exit,
        output,
        zp: cpu.memory.zp_at_exit.clone(),
        mem: cpu.memory.mem.clone(),
        cycles: cpu.cycles,
        returned,
    })
}
