//! The tests' 6502 programs: raw opcode bytes plus named labels for jumps, branches and
//! data addresses, placed after the BASIC stub at 7181 ($1C0D) by the project's own
//! assembler and linker (mos-asm), the one the translator and the loader use.

use std::collections::HashMap;

use c128_emu::prg::with_basic_stub;
use mos_asm::asm::{self, Arg, Item, Label, Part, Sym};
use mos_asm::link;

/// Where the code after the standard stub starts.
pub const ORIGIN: u16 = 0x1C0D;

/// A program being written, its labels named by the test.
#[derive(Default)]
pub struct Asm {
    items: asm::Asm,
    labels: HashMap<&'static str, Label>,
}

impl Asm {
    /// An empty program.
    pub fn new() -> Self {
        Self::default()
    }

    /// The label called `name`, numbered the first time it is named.
    fn named(&mut self, name: &'static str) -> Label {
        let next = Label(self.labels.len() as u32);
        *self.labels.entry(name).or_insert(next)
    }

    /// The address of the next byte.
    pub fn here(&self) -> u16 {
        ORIGIN + self.code().len() as u16
    }

    /// Emits raw bytes.
    pub fn op(&mut self, bytes: &[u8]) -> &mut Self {
        self.items.items.push(Item::Bytes(bytes.to_vec()));
        self
    }

    /// Defines a label at the next byte.
    pub fn label(&mut self, name: &'static str) -> &mut Self {
        let label = self.named(name);
        self.items.items.push(Item::Label(label));
        self
    }

    /// An instruction with a 16-bit operand naming a label (JMP, JSR, LDA abs ...).
    pub fn abs(&mut self, opcode: u8, label: &'static str) -> &mut Self {
        let label = self.named(label);
        self.items.items.push(Item::Ins(opcode, Arg::Sym(Sym::Code(label), Part::Word, 0)));
        self
    }

    /// A branch to a label (the linker makes it long if the label is out of reach).
    pub fn branch(&mut self, opcode: u8, label: &'static str) -> &mut Self {
        let label = self.named(label);
        self.items.items.push(Item::Branch(opcode, label));
        self
    }

    /// An immediate load of a label's low (`high` false) or high byte.
    pub fn imm_addr(&mut self, opcode: u8, label: &'static str, high: bool) -> &mut Self {
        let label = self.named(label);
        let part = if high { Part::Hi } else { Part::Lo };
        self.items.items.push(Item::Ins(opcode, Arg::Sym(Sym::Code(label), part, 0)));
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
        link::assemble("test program", self.items.clone(), ORIGIN, &[]).unwrap_or_else(|e| panic!("{e}"))
    }

    /// The runnable `.prg`.
    pub fn prg(&self) -> Vec<u8> {
        let (prg, entry) = with_basic_stub(&self.code());
        assert_eq!(entry, ORIGIN);
        prg
    }
}
