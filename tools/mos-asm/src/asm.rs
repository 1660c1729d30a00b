//! A small 6502 (NMOS) assembler: the items the lowering emits, labels, relaxable
//! branches, and the opcode table with sizes and cycle counts for the listing.
//!
//! Only documented opcodes are used. Operands that depend on the final layout (code
//! labels, relocated data addresses) stay symbolic until [`crate::link`] places them;
//! their size never depends on their value, so layout converges.

/// A code label: the start of a translated AVR instruction, a runtime routine, or a local
/// label inside a sequence.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Label(pub u32);

/// A value known only after layout.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Sym {
    /// The 6502 address of a label.
    Code(Label),
    /// The 6502 address of AVR data-space address (relocated data).
    Data(u32),
    /// The 6502 address of AVR data-space address in `.bss`, which may be placed apart
    /// from the initialised data.
    Bss(u32),
    /// The 6502 address of the first `.bss` byte.
    BssStart,
    /// The number of `.bss` bytes.
    BssLen,
    /// The address after the bank-1 file's last byte as it runs (its unpacked end).
    Bank1End,
}

/// Which part of a symbolic value an operand takes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Part {
    /// Low byte.
    Lo,
    /// High byte.
    Hi,
    /// Low byte of the negated value.
    NegLo,
    /// High byte of the negated value.
    NegHi,
    /// The whole 16-bit value (absolute operands).
    Word,
}

/// An operand of a 6502 instruction.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Arg {
    /// Implied or accumulator.
    None,
    /// One byte: immediate, zero page or a fixed relative offset.
    Byte(u8),
    /// Two bytes, little-endian: absolute address.
    Word(u16),
    /// A symbolic byte (`Part::Lo`...) or word (`Part::Word`).
    Sym(Sym, Part, i32),
}

/// One element of emitted code.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Item {
    /// An instruction with its operand.
    Ins(u8, Arg),
    /// A conditional branch to a label; becomes `Bxx rel` when in range, else the inverted
    /// branch over a `JMP`.
    Branch(u8, Label),
    /// Defines a label at this point.
    Label(Label),
    /// Raw data bytes (save areas).
    Bytes(Vec<u8>),
}

/// The opcodes the translator emits.
#[allow(missing_docs)] // Standard 6502 mnemonics with their addressing mode.
pub mod op {
    pub const LDA_IMM: u8 = 0xA9;
    pub const LDA_ZP: u8 = 0xA5;
    pub const LDA_ABS: u8 = 0xAD;
    pub const LDA_IZY: u8 = 0xB1;
    pub const LDA_ZPX: u8 = 0xB5;
    pub const LDA_ABX: u8 = 0xBD;
    pub const STA_ZP: u8 = 0x85;
    pub const STA_ABS: u8 = 0x8D;
    pub const STA_IZY: u8 = 0x91;
    pub const STA_ZPX: u8 = 0x95;
    pub const STA_ABX: u8 = 0x9D;
    pub const STA_ABY: u8 = 0x99;
    pub const LDA_ABY: u8 = 0xB9;
    pub const CMP_ABX: u8 = 0xDD;
    pub const CMP_ABS: u8 = 0xCD;
    pub const LDX_IMM: u8 = 0xA2;
    pub const LDX_ZP: u8 = 0xA6;
    pub const LDX_ABS: u8 = 0xAE;
    pub const LDY_IMM: u8 = 0xA0;
    pub const LDY_ABS: u8 = 0xAC;
    pub const LDY_ZP: u8 = 0xA4;
    pub const LDY_ZPX: u8 = 0xB4;
    pub const STX_ZP: u8 = 0x86;
    pub const STX_ABS: u8 = 0x8E;
    pub const STY_ZP: u8 = 0x84;
    pub const STY_ZPX: u8 = 0x94;
    pub const STY_ABS: u8 = 0x8C;
    pub const ADC_IMM: u8 = 0x69;
    pub const ADC_ZP: u8 = 0x65;
    pub const ADC_ZPX: u8 = 0x75;
    pub const SBC_IMM: u8 = 0xE9;
    pub const SBC_ZP: u8 = 0xE5;
    pub const SBC_ZPX: u8 = 0xF5;
    pub const SBC_IZY: u8 = 0xF1;
    pub const CMP_IZY: u8 = 0xD1;
    pub const AND_IMM: u8 = 0x29;
    pub const AND_ZP: u8 = 0x25;
    pub const ORA_IMM: u8 = 0x09;
    pub const ORA_ZP: u8 = 0x05;
    pub const EOR_IMM: u8 = 0x49;
    pub const EOR_ZP: u8 = 0x45;
    pub const CMP_IMM: u8 = 0xC9;
    pub const CMP_ZP: u8 = 0xC5;
    pub const CPX_IMM: u8 = 0xE0;
    pub const CPY_IMM: u8 = 0xC0;
    pub const CPY_ZP: u8 = 0xC4;
    pub const BIT_ZP: u8 = 0x24;
    pub const INC_ZP: u8 = 0xE6;
    pub const INC_ZPX: u8 = 0xF6;
    pub const INC_ABS: u8 = 0xEE;
    pub const DEC_ZP: u8 = 0xC6;
    pub const INX: u8 = 0xE8;
    pub const INY: u8 = 0xC8;
    pub const DEX: u8 = 0xCA;
    pub const DEY: u8 = 0x88;
    pub const ASL_A: u8 = 0x0A;
    pub const ASL_ZP: u8 = 0x06;
    pub const ASL_ZPX: u8 = 0x16;
    pub const LSR_A: u8 = 0x4A;
    pub const LSR_ZP: u8 = 0x46;
    pub const ROL_A: u8 = 0x2A;
    pub const ROL_ZP: u8 = 0x26;
    pub const ROL_ZPX: u8 = 0x36;
    pub const ROR_A: u8 = 0x6A;
    pub const ROR_ZP: u8 = 0x66;
    pub const CLC: u8 = 0x18;
    pub const SEC: u8 = 0x38;
    pub const CLV: u8 = 0xB8;
    pub const CLD: u8 = 0xD8;
    pub const SEI: u8 = 0x78;
    pub const CLI: u8 = 0x58;
    pub const RTI: u8 = 0x40;
    pub const PHP: u8 = 0x08;
    pub const PLP: u8 = 0x28;
    pub const PHA: u8 = 0x48;
    pub const PLA: u8 = 0x68;
    pub const TAX: u8 = 0xAA;
    pub const TXA: u8 = 0x8A;
    pub const TAY: u8 = 0xA8;
    pub const TYA: u8 = 0x98;
    pub const TSX: u8 = 0xBA;
    pub const TXS: u8 = 0x9A;
    pub const JMP: u8 = 0x4C;
    pub const JMP_IND: u8 = 0x6C;
    pub const JSR: u8 = 0x20;
    pub const RTS: u8 = 0x60;
    pub const BPL: u8 = 0x10;
    pub const BMI: u8 = 0x30;
    pub const BVC: u8 = 0x50;
    pub const BVS: u8 = 0x70;
    pub const BCC: u8 = 0x90;
    pub const BCS: u8 = 0xB0;
    pub const BNE: u8 = 0xD0;
    pub const BEQ: u8 = 0xF0;
    pub const BIT_ABS: u8 = 0x2C;
    pub const DEC_ABS: u8 = 0xCE;
    pub const CPY_ABS: u8 = 0xCC;
    pub const CPX_ABS: u8 = 0xEC;
    pub const CMP_ABY: u8 = 0xD9;
    /// `BRK` with the byte after it (its signature), which the 6502 steps over on return.
    pub const BRK: u8 = 0x00;
}

/// Size in bytes and base cycle count of an emitted opcode (no page-crossing or
/// taken-branch penalties), or `None` for an opcode the translator never emits.
pub fn info(opcode: u8) -> Option<(u8, u8)> {
    use op::*;
    Some(match opcode {
        LDA_IMM | LDX_IMM | LDY_IMM | ADC_IMM | SBC_IMM | AND_IMM | ORA_IMM | EOR_IMM | CMP_IMM | CPX_IMM | CPY_IMM => {
            (2, 2)
        }
        LDA_ZP | LDX_ZP | LDY_ZP | STA_ZP | STX_ZP | STY_ZP | ADC_ZP | SBC_ZP | AND_ZP | ORA_ZP | EOR_ZP | CMP_ZP
        | BIT_ZP | CPY_ZP => (2, 3),
        LDA_ZPX | STA_ZPX | SBC_ZPX | ADC_ZPX | LDY_ZPX | STY_ZPX => (2, 4),
        INC_ZP | DEC_ZP | ASL_ZP | LSR_ZP | ROL_ZP | ROR_ZP => (2, 5),
        INC_ZPX | ASL_ZPX | ROL_ZPX => (2, 6),
        LDA_IZY | SBC_IZY | CMP_IZY => (2, 5),
        STA_IZY => (2, 6),
        LDA_ABS | STA_ABS | LDX_ABS | STX_ABS | LDY_ABS | STY_ABS | CMP_ABS | LDA_ABX | LDA_ABY | CMP_ABX | BIT_ABS
        | CPY_ABS | CPX_ABS | CMP_ABY => (3, 4),
        STA_ABX | STA_ABY => (3, 5),
        INC_ABS | DEC_ABS => (3, 6),
        BRK => (2, 7),
        INX | INY | DEX | DEY | ASL_A | LSR_A | ROL_A | ROR_A | CLC | SEC | CLV | CLD | SEI | CLI | TAX | TXA | TAY
        | TYA | TSX | TXS => (1, 2),
        PHP | PHA => (1, 3),
        PLP | PLA => (1, 4),
        JMP => (3, 3),
        JMP_IND => (3, 5),
        JSR | RTS | RTI => (if opcode == JSR { 3 } else { 1 }, 6),
        BPL | BMI | BVC | BVS | BCC | BCS | BNE | BEQ => (2, 2),
        _ => return None,
    })
}

/// How an instruction takes its operand, for listings.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// No operand.
    Implied,
    /// The accumulator.
    Acc,
    /// `#byte`.
    Imm,
    /// A zero-page byte.
    Zp,
    /// A zero-page byte indexed by X.
    Zpx,
    /// An absolute address.
    Abs,
    /// An absolute address indexed by X.
    Abx,
    /// An absolute address indexed by Y.
    Aby,
    /// Through a zero-page pointer, indexed by Y.
    Izy,
    /// Through an absolute pointer (`JMP (abs)`).
    Ind,
    /// A branch displacement.
    Rel,
}

/// Mnemonic and addressing mode of an emitted opcode, or `None` for one the translator
/// never emits (listings name the instruction rather than its number).
pub fn mnemonic(opcode: u8) -> Option<(&'static str, Mode)> {
    use op::*;
    Some(match opcode {
        LDA_IMM => ("LDA", Mode::Imm),
        LDA_ZP => ("LDA", Mode::Zp),
        LDA_ABS => ("LDA", Mode::Abs),
        LDA_IZY => ("LDA", Mode::Izy),
        LDA_ZPX => ("LDA", Mode::Zpx),
        LDA_ABX => ("LDA", Mode::Abx),
        STA_ZP => ("STA", Mode::Zp),
        STA_ABS => ("STA", Mode::Abs),
        STA_IZY => ("STA", Mode::Izy),
        STA_ZPX => ("STA", Mode::Zpx),
        STA_ABX => ("STA", Mode::Abx),
        STA_ABY => ("STA", Mode::Aby),
        LDA_ABY => ("LDA", Mode::Aby),
        CMP_ABX => ("CMP", Mode::Abx),
        CMP_ABS => ("CMP", Mode::Abs),
        LDX_IMM => ("LDX", Mode::Imm),
        LDX_ZP => ("LDX", Mode::Zp),
        LDX_ABS => ("LDX", Mode::Abs),
        LDY_IMM => ("LDY", Mode::Imm),
        LDY_ABS => ("LDY", Mode::Abs),
        LDY_ZP => ("LDY", Mode::Zp),
        LDY_ZPX => ("LDY", Mode::Zpx),
        STX_ZP => ("STX", Mode::Zp),
        STX_ABS => ("STX", Mode::Abs),
        STY_ZP => ("STY", Mode::Zp),
        STY_ZPX => ("STY", Mode::Zpx),
        STY_ABS => ("STY", Mode::Abs),
        ADC_IMM => ("ADC", Mode::Imm),
        ADC_ZP => ("ADC", Mode::Zp),
        ADC_ZPX => ("ADC", Mode::Zpx),
        SBC_IMM => ("SBC", Mode::Imm),
        SBC_ZP => ("SBC", Mode::Zp),
        SBC_ZPX => ("SBC", Mode::Zpx),
        SBC_IZY => ("SBC", Mode::Izy),
        CMP_IZY => ("CMP", Mode::Izy),
        AND_IMM => ("AND", Mode::Imm),
        AND_ZP => ("AND", Mode::Zp),
        ORA_IMM => ("ORA", Mode::Imm),
        ORA_ZP => ("ORA", Mode::Zp),
        EOR_IMM => ("EOR", Mode::Imm),
        EOR_ZP => ("EOR", Mode::Zp),
        CMP_IMM => ("CMP", Mode::Imm),
        CMP_ZP => ("CMP", Mode::Zp),
        CPX_IMM => ("CPX", Mode::Imm),
        CPY_IMM => ("CPY", Mode::Imm),
        CPY_ZP => ("CPY", Mode::Zp),
        BIT_ZP => ("BIT", Mode::Zp),
        INC_ZP => ("INC", Mode::Zp),
        INC_ZPX => ("INC", Mode::Zpx),
        INC_ABS => ("INC", Mode::Abs),
        DEC_ZP => ("DEC", Mode::Zp),
        INX => ("INX", Mode::Implied),
        INY => ("INY", Mode::Implied),
        DEX => ("DEX", Mode::Implied),
        DEY => ("DEY", Mode::Implied),
        ASL_A => ("ASL", Mode::Acc),
        ASL_ZP => ("ASL", Mode::Zp),
        ASL_ZPX => ("ASL", Mode::Zpx),
        LSR_A => ("LSR", Mode::Acc),
        LSR_ZP => ("LSR", Mode::Zp),
        ROL_A => ("ROL", Mode::Acc),
        ROL_ZP => ("ROL", Mode::Zp),
        ROL_ZPX => ("ROL", Mode::Zpx),
        ROR_A => ("ROR", Mode::Acc),
        ROR_ZP => ("ROR", Mode::Zp),
        CLC => ("CLC", Mode::Implied),
        SEC => ("SEC", Mode::Implied),
        CLV => ("CLV", Mode::Implied),
        CLD => ("CLD", Mode::Implied),
        SEI => ("SEI", Mode::Implied),
        CLI => ("CLI", Mode::Implied),
        RTI => ("RTI", Mode::Implied),
        PHP => ("PHP", Mode::Implied),
        PLP => ("PLP", Mode::Implied),
        PHA => ("PHA", Mode::Implied),
        PLA => ("PLA", Mode::Implied),
        TAX => ("TAX", Mode::Implied),
        TXA => ("TXA", Mode::Implied),
        TAY => ("TAY", Mode::Implied),
        TYA => ("TYA", Mode::Implied),
        TSX => ("TSX", Mode::Implied),
        TXS => ("TXS", Mode::Implied),
        JMP => ("JMP", Mode::Abs),
        JMP_IND => ("JMP", Mode::Ind),
        JSR => ("JSR", Mode::Abs),
        RTS => ("RTS", Mode::Implied),
        BPL => ("BPL", Mode::Rel),
        BMI => ("BMI", Mode::Rel),
        BVC => ("BVC", Mode::Rel),
        BVS => ("BVS", Mode::Rel),
        BCC => ("BCC", Mode::Rel),
        BCS => ("BCS", Mode::Rel),
        BNE => ("BNE", Mode::Rel),
        BEQ => ("BEQ", Mode::Rel),
        BIT_ABS => ("BIT", Mode::Abs),
        DEC_ABS => ("DEC", Mode::Abs),
        CPY_ABS => ("CPY", Mode::Abs),
        CPX_ABS => ("CPX", Mode::Abs),
        CMP_ABY => ("CMP", Mode::Aby),
        BRK => ("BRK", Mode::Imm),
        _ => return None,
    })
}

/// The branch that tests the opposite condition (used for long branches).
pub fn invert_branch(opcode: u8) -> u8 {
    opcode ^ 0x20
}

/// A growing sequence of items with helpers for the common forms.
#[derive(Debug, Default, Clone)]
pub struct Asm {
    /// The emitted items.
    pub items: Vec<Item>,
}

impl Asm {
    /// An instruction without operand.
    pub fn i(&mut self, opcode: u8) -> &mut Self {
        self.items.push(Item::Ins(opcode, Arg::None));
        self
    }
    /// An instruction with a one-byte operand (immediate, zero page, fixed offset).
    pub fn b(&mut self, opcode: u8, byte: u8) -> &mut Self {
        self.items.push(Item::Ins(opcode, Arg::Byte(byte)));
        self
    }
    /// An instruction with an absolute address.
    pub fn w(&mut self, opcode: u8, word: u16) -> &mut Self {
        self.items.push(Item::Ins(opcode, Arg::Word(word)));
        self
    }
    /// An instruction with a symbolic operand.
    pub fn s(&mut self, opcode: u8, sym: Sym, part: Part) -> &mut Self {
        self.items.push(Item::Ins(opcode, Arg::Sym(sym, part, 0)));
        self
    }
    /// `JMP`/`JSR` to a label.
    pub fn to(&mut self, opcode: u8, label: Label) -> &mut Self {
        self.s(opcode, Sym::Code(label), Part::Word)
    }
    /// A relaxable conditional branch.
    pub fn br(&mut self, opcode: u8, label: Label) -> &mut Self {
        self.items.push(Item::Branch(opcode, label));
        self
    }
    /// Places a label.
    pub fn label(&mut self, label: Label) -> &mut Self {
        self.items.push(Item::Label(label));
        self
    }
}

/// The first local label: labels from here up are [`Locals`]' fresh ones, below it are
/// the labels of AVR instructions and runtime routines that their emitters number.
pub const LOCAL_BASE: u32 = 0x4000_0000;

/// Allocates local labels for code sequences.
#[derive(Debug, Default)]
pub struct Locals(u32);

impl Locals {
    /// A fresh label.
    pub fn fresh(&mut self) -> Label {
        self.0 += 1;
        Label(LOCAL_BASE + self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_emitted_opcode_has_size_and_cycles() {
        use op::*;
        for o in [LDA_IMM, STA_IZY, JSR, RTS, BEQ, PHP, PLA, INC_ZP, JMP_IND, TXS] {
            assert!(info(o).is_some(), "{o:#04x}");
        }
        assert_eq!(info(0x02), None, "illegal opcodes are never emitted");
        assert_eq!(mnemonic(LDA_IZY), Some(("LDA", Mode::Izy)));
        assert_eq!(mnemonic(0x02), None);
        for o in 0..=255u8 {
            assert_eq!(info(o).is_some(), mnemonic(o).is_some(), "{o:#04x}: size table and mnemonics disagree");
        }
        assert_eq!(invert_branch(BEQ), BNE);
        assert_eq!(invert_branch(BCC), BCS);
        assert_eq!(invert_branch(BPL), BMI);
        assert_eq!(invert_branch(BVC), BVS);
    }
}
