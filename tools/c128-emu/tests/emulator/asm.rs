//! A tiny 6502 assembler for the tests: raw opcode bytes plus labels for jumps, branches and
//! data addresses, placed after the BASIC stub at 7181 ($1C0D).

use std::collections::HashMap;

use c128_emu::prg::with_basic_stub;

/// Where the code after the standard stub starts.
pub const ORIGIN: u16 = 0x1C0D;

enum Fixup {
    Absolute,
    Relative,
    Low,
    High,
}

/// Collects bytes and resolves labels when the program is built.
#[derive(Default)]
pub struct Asm {
    code: Vec<u8>,
    labels: HashMap<&'static str, u16>,
    fixups: Vec<(usize, &'static str, Fixup)>,
}

impl Asm {
    /// An empty program.
    pub fn new() -> Self {
        Self::default()
    }

    /// The address of the next byte.
    pub fn here(&self) -> u16 {
        ORIGIN + self.code.len() as u16
    }

    /// Emits raw bytes.
    pub fn op(&mut self, bytes: &[u8]) -> &mut Self {
        self.code.extend_from_slice(bytes);
        self
    }

    /// Defines a label at the next byte.
    pub fn label(&mut self, name: &'static str) -> &mut Self {
        let here = self.here();
        self.labels.insert(name, here);
        self
    }

    /// An instruction with a 16-bit operand naming a label (JMP, JSR, LDA abs ...).
    pub fn abs(&mut self, opcode: u8, label: &'static str) -> &mut Self {
        self.code.push(opcode);
        self.fixups.push((self.code.len(), label, Fixup::Absolute));
        self.code.extend_from_slice(&[0, 0]);
        self
    }

    /// A branch to a label.
    pub fn branch(&mut self, opcode: u8, label: &'static str) -> &mut Self {
        self.code.push(opcode);
        self.fixups.push((self.code.len(), label, Fixup::Relative));
        self.code.push(0);
        self
    }

    /// An immediate load of a label's low (`high` false) or high byte.
    pub fn imm_addr(&mut self, opcode: u8, label: &'static str, high: bool) -> &mut Self {
        self.code.push(opcode);
        self.fixups.push((self.code.len(), label, if high { Fixup::High } else { Fixup::Low }));
        self.code.push(0);
        self
    }

    /// `LDA #v / STA $D7FF / RTS`: exit with `v`.
    pub fn exit(&mut self, v: u8) -> &mut Self {
        self.op(&[0xA9, v, 0x8D, 0xFF, 0xD7, 0x60])
    }

    /// `LDA #c / JSR $FFD2` for each byte.
    pub fn print(&mut self, text: &[u8]) -> &mut Self {
        for &c in text {
            self.op(&[0xA9, c, 0x20, 0xD2, 0xFF]);
        }
        self
    }

    /// The code bytes with labels resolved.
    pub fn code(&self) -> Vec<u8> {
        let mut code = self.code.clone();
        for (at, label, kind) in &self.fixups {
            let target = *self.labels.get(label).unwrap_or_else(|| panic!("label {label}"));
            match kind {
                Fixup::Absolute => code[*at..*at + 2].copy_from_slice(&target.to_le_bytes()),
                Fixup::Relative => {
                    let from = ORIGIN as i32 + *at as i32 + 1;
                    let d = target as i32 - from;
                    assert!((-128..=127).contains(&d), "branch to {label} too far");
                    code[*at] = d as i8 as u8;
                }
                Fixup::Low => code[*at] = target as u8,
                Fixup::High => code[*at] = (target >> 8) as u8,
            }
        }
        code
    }

    /// The runnable `.prg`.
    pub fn prg(&self) -> Vec<u8> {
        let (prg, entry) = with_basic_stub(&self.code());
        assert_eq!(entry, ORIGIN);
        prg
    }
}
