//! Test support for the lowering's unit tests: runs a straight piece of generated 6502
//! code (instructions with byte or word operands and relative branches, as the lowering
//! emits them before any label is placed) on the `mos6502` crate's CPU, so a test checks
//! what the code computes rather than the model a test wrote of each opcode.

use mos_asm::asm::{Arg, Asm, Item, info};
use mos6502::cpu::CPU;
use mos6502::instruction::Nmos6502;
use mos6502::memory::Bus;

/// Where the snippet runs: above zero page and the stack.
const ORIGIN: u16 = 0x0200;

/// A snippet's memory: zero page, the stack page and the code, nothing else.
struct Small([u8; 0x400]);

impl Bus for Small {
    fn get_byte(&mut self, address: u16) -> u8 {
        self.0[usize::from(address) % self.0.len()]
    }
    fn set_byte(&mut self, address: u16, value: u8) {
        let len = self.0.len();
        self.0[usize::from(address) % len] = value;
    }
}

/// The bytes of `a`, which holds only instructions with plain operands.
fn bytes(a: &Asm) -> Vec<u8> {
    let mut out = Vec::new();
    for item in &a.items {
        let Item::Ins(opcode, arg) = item else { panic!("a snippet holds only instructions: {item:?}") };
        let (size, _) = info(*opcode).unwrap_or_else(|| panic!("opcode {opcode:#04x} is never emitted"));
        out.push(*opcode);
        match (size, arg) {
            (1, Arg::None) => {}
            (2, Arg::Byte(b)) => out.push(*b),
            (3, Arg::Word(w)) => out.extend(w.to_le_bytes()),
            _ => panic!("opcode {opcode:#04x} with {arg:?}"),
        }
    }
    out
}

/// Runs `a` from zero page `zp` (and A, X, Y, the flags all 0) to its end; returns zero
/// page afterwards. A branch out of the snippet or a loop that does not end is a failure.
pub fn run(a: &Asm, zp: [u8; 256]) -> [u8; 256] {
    let code = bytes(a);
    let mut memory = Small([0; 0x400]);
    memory.0[..256].copy_from_slice(&zp);
    memory.0[usize::from(ORIGIN)..usize::from(ORIGIN) + code.len()].copy_from_slice(&code);
    let end = ORIGIN + code.len() as u16;
    let mut cpu = CPU::new(memory, Nmos6502);
    cpu.registers.program_counter = ORIGIN;
    for _ in 0..100_000 {
        let pc = cpu.registers.program_counter;
        if pc == end {
            let mut out = [0; 256];
            out.copy_from_slice(&cpu.memory.0[..256]);
            return out;
        }
        assert!((ORIGIN..end).contains(&pc), "the snippet went to ${pc:04X}");
        cpu.single_step();
    }
    panic!("the snippet did not end in 100,000 instructions")
}
