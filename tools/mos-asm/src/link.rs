//! Layout: places the emitted code from its origin, shortens every branch
//! that reaches its target, places the data after the code, and resolves symbolic
//! operands and data relocations.

use std::collections::HashMap;

use crate::LinkError;
use crate::asm::{self, Arg, Item, Label, Part, Sym, op};

/// A run of items with the same owner (one AVR instruction or one runtime routine).
#[derive(Debug, Clone)]
pub struct Chunk {
    /// What the chunk came from, for the listing and the map.
    pub owner: Owner,
    /// The code.
    pub items: Vec<Item>,
}

/// Who emitted a chunk.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Owner {
    /// AVR instruction number `n` (index into the decoded instructions).
    Insn(usize),
    /// A runtime routine, by name.
    Runtime(String),
}

/// The placed code.
#[derive(Debug, Clone)]
pub struct Placed {
    /// The code bytes, starting at the code start address.
    pub code: Vec<u8>,
    /// Start address and length of each chunk's bytes, and their base cycle count.
    pub spans: Vec<(u16, u16, u32)>,
    /// The address of every label.
    pub labels: HashMap<Label, u16>,
}

/// Addresses the layout needs to resolve symbolic operands.
#[derive(Debug, Clone, Copy)]
pub struct DataPlacement {
    /// 6502 address of AVR data address `data_base`.
    pub data_addr: u16,
    /// AVR data address of the first data byte.
    pub data_base: u32,
    /// 6502 address of the first `.bss` byte.
    pub bss_addr: u16,
    /// AVR data address of the first `.bss` byte (just past the initialised data).
    pub bss_base: u32,
    /// Length of `.bss`.
    pub bss_len: u16,
    /// The address after the bank-1 file's last byte as it runs ([`crate::asm::Sym::Bank1End`]).
    pub bank1_end: u16,
}

impl DataPlacement {
    /// For code that stands apart from a program (a loader, the drive's routine): no
    /// data, no `.bss`, no bank-1 file.
    pub const NONE: DataPlacement =
        DataPlacement { data_addr: 0, data_base: 0, bss_addr: 0, bss_base: 0, bss_len: 0, bank1_end: 0 };

    /// The 6502 address of AVR data address `x`, an address in (or just past) the
    /// initialised data.
    pub fn map(&self, x: u32) -> u16 {
        (u32::from(self.data_addr).wrapping_add(x.wrapping_sub(self.data_base))) as u16
    }

    /// The 6502 address of AVR data address `x` in `.bss`, wherever `.bss` was placed.
    pub fn map_bss(&self, x: u32) -> u16 {
        (u32::from(self.bss_addr).wrapping_add(x.wrapping_sub(self.bss_base))) as u16
    }
}

/// The bytes an item takes, a branch in its long form or not.
pub fn size(item: &Item, long: bool) -> u16 {
    match item {
        Item::Ins(_, Arg::None) => 1,
        Item::Ins(_, Arg::Byte(_)) => 2,
        Item::Ins(_, Arg::Word(_)) => 3,
        Item::Ins(_, Arg::Sym(_, Part::Word, _)) => 3,
        Item::Ins(_, Arg::Sym(..)) => 2,
        Item::Branch(..) => {
            if long {
                5
            } else {
                2
            }
        }
        Item::Label(_) => 0,
        Item::Bytes(b) => b.len() as u16,
    }
}

/// The result of [`layout`]: label addresses, which branches stay long (per chunk and
/// item), and the code size.
#[derive(Debug, Clone)]
pub struct Layout {
    /// Address of every label.
    pub labels: HashMap<Label, u16>,
    /// For each chunk and item: whether a branch needs the long form.
    pub long: Vec<Vec<bool>>,
    /// Code size in bytes.
    pub size: u32,
}

/// Assembles code that stands apart from a program ([`DataPlacement::NONE`]) as one chunk
/// of `owner` at `origin`; `known` gives the addresses of labels it uses but does not
/// define.
pub fn assemble(owner: &str, a: asm::Asm, origin: u16, known: &[(Label, u16)]) -> Result<Vec<u8>, LinkError> {
    let chunks = [Chunk { owner: Owner::Runtime(owner.into()), items: a.items }];
    let layout = layout(&chunks, origin)?;
    let mut labels = layout.labels;
    labels.extend(known.iter().copied());
    Ok(encode(&chunks, origin, labels, &layout.long, &DataPlacement::NONE)?.code)
}

/// Computes addresses, shortening branches until nothing changes.
pub fn layout(chunks: &[Chunk], start: u16) -> Result<Layout, LinkError> {
    let mut long: Vec<Vec<bool>> = chunks.iter().map(|c| vec![true; c.items.len()]).collect();
    loop {
        let mut labels = HashMap::new();
        let mut addr = u32::from(start);
        let mut branches = Vec::new();
        for (ci, c) in chunks.iter().enumerate() {
            for (ii, it) in c.items.iter().enumerate() {
                if let Item::Label(l) = it {
                    labels.insert(*l, addr as u16);
                }
                if let Item::Branch(_, l) = it
                    && long[ci][ii]
                {
                    branches.push((ci, ii, addr, *l));
                }
                addr += u32::from(size(it, long[ci][ii]));
            }
        }
        if addr > 0x1_0000 {
            return Err(LinkError::TooLarge { what: "code".into(), end: addr, limit: 0xFFFF });
        }
        let mut changed = false;
        for (ci, ii, at, l) in branches {
            let target = *labels.get(&l).ok_or(LinkError::UnplacedLabel(l))?;
            let d = i32::from(target) - (at as i32 + 2);
            if (-128..=127).contains(&d) {
                long[ci][ii] = false;
                changed = true;
            }
        }
        if !changed {
            return Ok(Layout { labels, long, size: addr - u32::from(start) });
        }
    }
}

/// Resolves a symbolic value.
pub fn resolve(sym: Sym, part: Part, off: i32, labels: &HashMap<Label, u16>, dp: &DataPlacement) -> Option<u16> {
    let v = match sym {
        Sym::Code(l) => *labels.get(&l)?,
        Sym::Data(x) => dp.map(x),
        Sym::Bss(x) => dp.map_bss(x),
        Sym::BssStart => dp.bss_addr,
        Sym::BssLen => dp.bss_len,
        Sym::Bank1End => dp.bank1_end,
    };
    let v = (i32::from(v) + off) as u16;
    Some(match part {
        Part::Lo => v & 0xFF,
        Part::Hi => v >> 8,
        Part::NegLo => v.wrapping_neg() & 0xFF,
        Part::NegHi => v.wrapping_neg() >> 8,
        Part::Word => v,
    })
}

/// Encodes the chunks with the given layout.
pub fn encode(
    chunks: &[Chunk],
    start: u16,
    labels: HashMap<Label, u16>,
    long: &[Vec<bool>],
    dp: &DataPlacement,
) -> Result<Placed, LinkError> {
    let mut code = Vec::new();
    let mut spans = Vec::new();
    for (ci, c) in chunks.iter().enumerate() {
        let begin = start as usize + code.len();
        let mut cycles = 0u32;
        for (ii, it) in c.items.iter().enumerate() {
            let pc = (start as usize + code.len()) as u16;
            if let Item::Ins(o, _) | Item::Branch(o, _) = it {
                cycles += u32::from(asm::info(*o).map_or(0, |(_, c)| c));
            }
            match it {
                Item::Ins(o, arg) => {
                    code.push(*o);
                    match *arg {
                        Arg::None => {}
                        Arg::Byte(b) => code.push(b),
                        Arg::Word(w) => code.extend(w.to_le_bytes()),
                        Arg::Sym(s, p, off) => {
                            let v = resolve(s, p, off, &labels, dp).ok_or(LinkError::Unresolved(s))?;
                            if p == Part::Word {
                                code.extend(v.to_le_bytes());
                            } else {
                                code.push(v as u8);
                            }
                        }
                    }
                }
                Item::Branch(o, l) => {
                    let target = labels[l];
                    if long[ci][ii] {
                        code.extend([asm::invert_branch(*o), 3, op::JMP]);
                        code.extend(target.to_le_bytes());
                        cycles += 3;
                    } else {
                        code.extend([*o, (i32::from(target) - (i32::from(pc) + 2)) as u8]);
                    }
                }
                Item::Label(_) => {}
                Item::Bytes(b) => code.extend(b),
            }
        }
        let end = start as usize + code.len();
        spans.push((begin as u16, (end - begin) as u16, cycles));
    }
    Ok(Placed { code, spans, labels })
}
