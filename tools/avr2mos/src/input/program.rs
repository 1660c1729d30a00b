//! The translator's input: AVR code, data, functions and relocations, read from an
//! `elf32-avr` executable (see [`AvrProgram::from_elf`]) or built directly by tests.

use std::collections::BTreeMap;

use object::{Object, ObjectSection, ObjectSymbol, RelocationFlags, RelocationTarget, SectionKind};

use crate::error::{Location, TranslateError};

/// AVR ELF files put data-space addresses at this offset; code addresses start at 0.
pub const AVR_DATA_OFFSET: u64 = 0x80_0000;

/// A relocation type the translator understands, named as in the AVR ELF ABI.
#[allow(missing_docs)] // The variants are the ELF relocation names.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RelocKind {
    R16,
    R16Pm,
    Lo8Ldi,
    Hi8Ldi,
    Lo8LdiNeg,
    Hi8LdiNeg,
    Lo8LdiPm,
    Hi8LdiPm,
    Call,
    Pcrel7,
    Pcrel13,
    LdsSts16,
    /// Any other type, kept so that a use of it can be reported with its number.
    Other(u32),
}

impl RelocKind {
    fn from_elf(r: u32) -> Self {
        match r {
            4 => Self::R16,
            5 => Self::R16Pm,
            6 => Self::Lo8Ldi,
            7 => Self::Hi8Ldi,
            9 => Self::Lo8LdiNeg,
            10 => Self::Hi8LdiNeg,
            12 => Self::Lo8LdiPm,
            13 => Self::Hi8LdiPm,
            18 => Self::Call,
            2 => Self::Pcrel7,
            3 => Self::Pcrel13,
            33 => Self::LdsSts16,
            n => Self::Other(n),
        }
    }

    /// The ELF name of the type, for messages.
    pub fn name(self) -> String {
        match self {
            Self::R16 => "R_AVR_16".into(),
            Self::R16Pm => "R_AVR_16_PM".into(),
            Self::Lo8Ldi => "R_AVR_LO8_LDI".into(),
            Self::Hi8Ldi => "R_AVR_HI8_LDI".into(),
            Self::Lo8LdiNeg => "R_AVR_LO8_LDI_NEG".into(),
            Self::Hi8LdiNeg => "R_AVR_HI8_LDI_NEG".into(),
            Self::Lo8LdiPm => "R_AVR_LO8_LDI_PM".into(),
            Self::Hi8LdiPm => "R_AVR_HI8_LDI_PM".into(),
            Self::Call => "R_AVR_CALL".into(),
            Self::Pcrel7 => "R_AVR_7_PCREL".into(),
            Self::Pcrel13 => "R_AVR_13_PCREL".into(),
            Self::LdsSts16 => "R_AVR_LDS_STS_16".into(),
            Self::Other(n) => format!("R_AVR type {n}"),
        }
    }
}

/// What a relocated field points at, after adding the addend.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Target {
    /// A byte address in `.text`.
    Code(u32),
    /// An address in the data space (without [`AVR_DATA_OFFSET`]), relative to a symbol
    /// in the initialised data (`.rodata`, `.data`).
    Data(u32),
    /// The same, relative to a symbol in `.bss`. Kept apart from [`Target::Data`] because
    /// `.bss` may be placed elsewhere than after the data (a high stack moves it low), and
    /// the address just past the last data object equals the first `.bss` address: only
    /// the symbol tells which one is meant.
    Bss(u32),
    /// An absolute symbol outside the program: a routine the translator supplies
    /// natively (see [`crate::runtime`]), or a constant.
    Absolute {
        /// The symbol's name.
        name: String,
        /// Its value plus the addend.
        value: u32,
    },
}

/// One relocation of the linked program.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reloc {
    /// Byte offset of the field: in `.text` for code relocations, from the start of the data
    /// image for data relocations.
    pub offset: u32,
    /// The relocation type.
    pub kind: RelocKind,
    /// What the field points at.
    pub target: Target,
}

/// A function of the AVR program (an ELF function symbol).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Function {
    /// Symbol name (mangled, as in the ELF file).
    pub name: String,
    /// Byte address of its first instruction.
    pub addr: u32,
}

/// A linked AVR program, ready to translate.
#[derive(Debug, Clone, Default)]
pub struct AvrProgram {
    /// The code, starting at byte address 0.
    pub text: Vec<u8>,
    /// Initialised data (`.rodata` and `.data`), starting at data address `data_base`.
    pub data: Vec<u8>,
    /// Data-space address of `data[0]` (without [`AVR_DATA_OFFSET`]).
    pub data_base: u32,
    /// Number of zero-initialised bytes (`.bss`) that follow `data`.
    pub bss_len: u32,
    /// Functions, sorted by address.
    pub functions: Vec<Function>,
    /// Absolute symbols outside the program's sections, by value (native routines).
    pub absolute: BTreeMap<u32, String>,
    /// Relocations of `.text`, by offset of the relocated field.
    pub text_relocs: BTreeMap<u32, Reloc>,
    /// Relocations of the data image.
    pub data_relocs: Vec<Reloc>,
    /// Byte address of the entry point (`_start`, else `main`).
    pub entry: u32,
}

fn bad(msg: impl Into<String>) -> TranslateError {
    TranslateError::BadElf(msg.into())
}

impl AvrProgram {
    /// The absolute symbol (a native routine, see [`crate::runtime`]) that a call or jump
    /// to `target` reaches. None for an address inside `.text`: there the target is the
    /// instruction, whatever absolute symbols share the value. The linker defines the AVR's
    /// I/O constants as absolute symbols too (`__SP_L__`, `__SP_H__` and `__SREG__` are
    /// $3D-$3F, `__zero_reg__` 1), which are also the first functions' code addresses.
    pub fn native_at(&self, target: u32) -> Option<&str> {
        if (target as usize) < self.text.len() {
            return None;
        }
        self.absolute.get(&target).map(String::as_str)
    }

    /// The native routine instruction `insn` calls (`call` or `rcall`), if it calls one.
    pub fn native_call(&self, insn: &crate::input::decode::Insn) -> Option<&str> {
        use crate::input::decode::Op;
        matches!(insn.op, Op::Call | Op::Rcall).then(|| self.native_at(insn.k)).flatten()
    }

    /// The function that contains `addr` and the location of `addr` in it, for messages.
    pub fn locate(&self, addr: u32) -> Location {
        match self.functions.iter().rev().find(|f| f.addr <= addr) {
            Some(f) => Location { function: f.name.clone(), offset: addr - f.addr, address: addr },
            None => Location { function: "<text>".into(), offset: addr, address: addr },
        }
    }

    /// Reads a linked `elf32-avr` executable. It must have been linked with `--emit-relocs`
    /// so that every address in code and data can be told from a plain number.
    pub fn from_elf(bytes: &[u8]) -> Result<Self, TranslateError> {
        let file = object::File::parse(bytes).map_err(|e| bad(e.to_string()))?;
        if file.architecture() != object::Architecture::Avr {
            return Err(bad(format!("architecture is {:?}, not AVR", file.architecture())));
        }
        let text_sec = file.section_by_name(".text").ok_or_else(|| bad("no .text section"))?;
        if text_sec.address() != 0 {
            return Err(bad(format!(".text starts at {:#x}, expected 0", text_sec.address())));
        }
        let text = text_sec.data().map_err(|e| bad(e.to_string()))?.to_vec();
        let text_index = text_sec.index();

        // The data image: every allocated section in the data space, in address order.
        let mut data_secs: Vec<_> = file
            .sections()
            .filter(|s| s.address() >= AVR_DATA_OFFSET && s.size() > 0)
            .filter(|s| !matches!(s.kind(), SectionKind::Metadata | SectionKind::Other))
            .collect();
        data_secs.sort_by_key(|s| s.address());
        let data_start = data_secs.first().map_or(AVR_DATA_OFFSET + 0x200, |s| s.address());
        let mut data = Vec::new();
        let mut end = data_start;
        let mut file_end = data_start;
        for s in &data_secs {
            let start = (s.address() - data_start) as usize;
            let bytes = if s.kind() == SectionKind::UninitializedData {
                vec![0; s.size() as usize]
            } else {
                file_end = file_end.max(s.address() + s.size());
                s.data().map_err(|e| bad(e.to_string()))?.to_vec()
            };
            if data.len() < start + bytes.len() {
                data.resize(start + bytes.len(), 0);
            }
            data[start..start + bytes.len()].copy_from_slice(&bytes);
            end = end.max(s.address() + s.size());
        }
        data.truncate((file_end - data_start) as usize);
        let bss_len = (end - file_end) as u32;
        let data_base = (data_start - AVR_DATA_OFFSET) as u32;
        if u64::from(data_base) + data.len() as u64 + u64::from(bss_len) > 0x1_0000 {
            return Err(bad("data space larger than 64 KiB"));
        }
        let in_data = |a: u64| a >= data_start && a <= end;

        let mut functions = Vec::new();
        let mut absolute = BTreeMap::new();
        let mut entry = None;
        let mut main = None;
        for sym in file.symbols() {
            let name = sym.name().unwrap_or("").to_string();
            if sym.section_index() == Some(text_index)
                && !name.is_empty()
                && matches!(sym.kind(), object::SymbolKind::Text)
            {
                if name == "_start" {
                    entry = Some(sym.address() as u32);
                }
                if name == "main" {
                    main = Some(sym.address() as u32);
                }
                functions.push(Function { name, addr: sym.address() as u32 });
            } else if sym.section() == object::SymbolSection::Absolute && !name.is_empty() {
                absolute.insert(sym.address() as u32, name);
            }
        }
        functions.sort_by(|a, b| a.addr.cmp(&b.addr).then(a.name.cmp(&b.name)));
        functions.dedup_by_key(|f| f.addr);
        let entry = entry.or(main).ok_or(TranslateError::NoEntry)?;

        let mut prog = AvrProgram { text, data, data_base, bss_len, functions, absolute, entry, ..Default::default() };

        let target_of = |rel: &object::Relocation| -> Result<Target, String> {
            let (value, section, name) = match rel.target() {
                RelocationTarget::Symbol(i) => {
                    let sym = file.symbol_by_index(i).map_err(|e| e.to_string())?;
                    (sym.address(), sym.section(), sym.name().unwrap_or("").to_string())
                }
                RelocationTarget::Section(i) => {
                    let s = file.section_by_index(i).map_err(|e| e.to_string())?;
                    (s.address(), object::SymbolSection::Section(i), String::new())
                }
                RelocationTarget::Absolute => (0, object::SymbolSection::Absolute, String::new()),
                _ => return Err("unknown relocation target".into()),
            };
            let v = (value as i64 + rel.addend()) as u64;
            let uninitialised = |i| file.section_by_index(i).is_ok_and(|s| s.kind() == SectionKind::UninitializedData);
            match section {
                object::SymbolSection::Section(i) if i == text_index => Ok(Target::Code(v as u32)),
                object::SymbolSection::Section(i) if in_data(value) && uninitialised(i) => {
                    Ok(Target::Bss((v.wrapping_sub(AVR_DATA_OFFSET)) as u32))
                }
                _ if in_data(value) => Ok(Target::Data((v.wrapping_sub(AVR_DATA_OFFSET)) as u32)),
                object::SymbolSection::Absolute | object::SymbolSection::Undefined => {
                    Ok(Target::Absolute { name, value: v as u32 })
                }
                _ => Err(format!("target {name} at {value:#x} is in no section the translator places")),
            }
        };

        for sec in file.sections() {
            let is_text = sec.index() == text_index;
            let is_data = data_secs.iter().any(|d| d.index() == sec.index());
            for (off, rel) in sec.relocations() {
                let kind = match rel.flags() {
                    RelocationFlags::Elf { r_type } => RelocKind::from_elf(r_type.0),
                    _ => RelocKind::Other(u32::MAX),
                };
                if !is_text && !is_data {
                    continue;
                }
                let (offset, at) = if is_text {
                    (off as u32, prog.locate(off as u32))
                } else {
                    // Executables carry absolute addresses in `r_offset`.
                    let abs = if off >= sec.address() { off } else { sec.address() + off };
                    let o = (abs - data_start) as u32;
                    (o, Location { function: sec.name().unwrap_or("?").into(), offset: off as u32, address: o })
                };
                let target = target_of(&rel).map_err(|why| TranslateError::Relocation {
                    at: at.clone(),
                    kind: kind.name(),
                    why,
                })?;
                let r = Reloc { offset, kind, target };
                if is_text {
                    prog.text_relocs.insert(offset, r);
                } else {
                    prog.data_relocs.push(r);
                }
            }
        }
        Ok(prog)
    }
}
