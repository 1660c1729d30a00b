//! The program's image: the generated chunks laid out from [`CODE_START`], the data after
//! them and `.bss` placed (and after it the start-up's save area, when it is not code),
//! every symbolic operand and data relocation resolved, and the `.prg` and bank-1 files
//! assembled.
//!
//! Assumes [`crate::lower::codegen`]'s chunks and [`crate::frames::frame_plan`]'s plan, which keeps
//! `.bss`, the frames and the save slots in the low area under a high stack whenever
//! `.bss` and the frames fit it. Guarantees: the image ends below the memory mode's limit
//! (or the high stack's bottom), the runtime and interpreter end in common RAM when
//! functions are interpreted from bank 1, or the error says what did not fit and where it
//! ended; every pointer in the data is a 6502 address.

use std::collections::HashMap;

use crate::Options;
use crate::error::TranslateError;
use crate::input::decode::Op;
use crate::input::flow::Flow;
use crate::input::program::{AvrProgram, RelocKind, Target};
use crate::lower::codegen::Code;
use crate::lower::{Ctx, insn_label};
use crate::mmap::{BANK1_END, BANK1_START, CODE_START, COMMON_END, LOAD_ADDR, LOW_BSS_END, LOW_BSS_START, MemoryMode};
use crate::runtime::Routine;
use c128_loader::basic_stub;
use mos_asm::link::{self, DataPlacement, Owner, Placed};

/// Where everything goes, before a byte is written: the code laid out from
/// [`CODE_START`], the data after it, `.bss` and the start-up's save area placed. Whether
/// it [`fits`](Layout::fits) is what the translator's size policy reads (`fastest_that_fits`
/// in [`mod@crate::translate`]); [`place`] refuses one that does not.
pub struct Layout {
    /// Each label's address, and the branches that need a long form.
    code: link::Layout,
    /// The 6502 address of the first data byte.
    data_addr: u32,
    /// The 6502 address of the first `.bss` byte.
    bss_addr: u32,
    /// The first address after code, data and (unless in the low area) `.bss`.
    end: u32,
    /// The first address the image may not reach.
    limit: u32,
}

impl Layout {
    /// Whether the image ends below the memory mode's limit (or the high stack's bottom).
    pub fn fits(&self) -> bool {
        self.end <= self.limit
    }
}

/// Lays out `code` with `bss_len` bytes of `.bss`, static frames and save slots; a high
/// stack's bottom is `stack_bottom`.
pub fn layout(
    prog: &AvrProgram,
    code: &Code,
    opts: &Options,
    bss_len: u32,
    stack_bottom: u16,
) -> Result<Layout, TranslateError> {
    let mut code_layout = link::layout(&code.chunks, CODE_START)?;
    let data_addr = u32::from(CODE_START) + code_layout.size;
    let data_end = data_addr + prog.data.len() as u32;
    let low_bss = opts.stack.is_some() && bss_len <= u32::from(LOW_BSS_END - LOW_BSS_START);
    let (bss_addr, mut end) =
        if low_bss { (u32::from(LOW_BSS_START), data_end) } else { (data_end, data_end + bss_len) };
    // The save area, when codegen took it out of the code, after `.bss` and the frames.
    if let Some(n) = code.save_area {
        code_layout.labels.insert(Routine::Save.label(), end as u16);
        end += u32::from(n);
    }
    let limit = match opts.stack {
        Some(_) => u32::from(stack_bottom),
        None => u32::from(opts.memory.image_end()),
    };
    Ok(Layout { code: code_layout, data_addr, bss_addr, end, limit })
}

/// The placed program.
pub struct Image {
    /// The placed code: its bytes, each chunk's span and every label's address.
    pub placed: Placed,
    /// Where the data and `.bss` went.
    pub dp: DataPlacement,
    /// The 6502 address of the first data byte.
    pub data_addr: u32,
    /// The 6502 address of the first `.bss` byte.
    pub bss_addr: u32,
    /// The first address after code, data and (unless in the low area) `.bss`.
    pub end: u32,
    /// The first address the image may not reach.
    pub limit: u32,
    /// The initialised data, its pointers relocated.
    pub data: Vec<u8>,
    /// The interpreted copies in bank 1, unpacked (empty without a bank-1 file).
    pub bank1_image: Vec<u8>,
    /// The `.prg` file.
    pub prg: Vec<u8>,
    /// The bank-1 file, packed.
    pub bank1: Option<Vec<u8>>,
    /// The AVR code with its relocated operands as the C128 sees them.
    pub relocated_text: Vec<u8>,
}

/// Places `code` where `layout` says, or says what did not fit.
pub fn place(
    prog: &AvrProgram,
    flow: &Flow,
    ctx: &Ctx,
    code: &Code,
    layout: Layout,
    opts: &Options,
) -> Result<Image, TranslateError> {
    let chunks = &code.chunks;
    let Layout { code: link::Layout { labels, long, .. }, data_addr, bss_addr, end, limit } = layout;
    if end > limit {
        let what = match opts.memory {
            MemoryMode::Kernal => "code, data and .bss (memory = \"all-ram\" would allow up to $CFFF)",
            MemoryMode::AllRam if opts.stack.is_some() => "code and data (below the high stack)",
            MemoryMode::AllRam => "code, data and .bss (memory = \"all-ram\")",
        };
        return Err(TranslateError::TooLarge { what: what.into(), end, limit });
    }
    let dp = DataPlacement {
        data_addr: data_addr as u16,
        data_base: prog.data_base,
        bss_addr: bss_addr as u16,
        bss_base: prog.data_base + prog.data.len() as u32,
        // The start-up zeroes `.bss` only: a static frame, like a stack frame, starts
        // undefined (zeroing the game's 633 bytes of frames cost 24,000 cycles).
        bss_len: prog.bss_len as u16,
        // The bank-1 image is the far copies one after the other (below).
        bank1_end: (usize::from(BANK1_START) + code.far_copies.iter().map(|(_, b)| b.len()).sum::<usize>()) as u16,
    };
    let mut placed = link::encode(chunks, CODE_START, labels, &long, &dp)?;
    // Bank-1 copies: their labels, and the interpreter below the end of common RAM.
    let mut bank1_image = Vec::new();
    let mut far_offset = HashMap::new();
    for (label, bytes) in &code.far_copies {
        let at = BANK1_START + bank1_image.len() as u16;
        placed.labels.insert(*label, at);
        far_offset.insert(*label, bank1_image.len());
        bank1_image.extend_from_slice(bytes);
    }
    if opts.bank1.is_some()
        && let Some(ci) = chunks.iter().position(|c| matches!(&c.owner, Owner::Runtime(n) if n == "rt_interp"))
    {
        let (start, len, _) = placed.spans[ci];
        let end = u32::from(start) + u32::from(len);
        if end > u32::from(COMMON_END) {
            return Err(TranslateError::TooLarge {
                what: "the runtime and interpreter (they must be in common RAM)".into(),
                end,
                limit: u32::from(COMMON_END),
            });
        }
    }
    // The interpreter's tables and the interpreted copies' relocated operands.
    for p in &code.patches {
        let base = placed.labels.get(&p.base).copied();
        let v = link::resolve(p.sym, p.part, p.off, &placed.labels, &dp);
        let (Some(base), Some(v)) = (base, v) else {
            return Err(TranslateError::BadElf(format!("unresolved interpreter patch {p:?}")));
        };
        match far_offset.get(&p.base) {
            Some(&o) => p.write(&mut bank1_image, o + p.at, v),
            None => p.write(&mut placed.code, usize::from(base - CODE_START) + p.at, v),
        }
    }
    debug_assert!(opts.bank1.is_none() || usize::from(dp.bank1_end) == usize::from(BANK1_START) + bank1_image.len());
    let data = relocate_data(prog, flow, &placed, &dp)?;
    let relocated_text = relocate_text(prog, flow, ctx, &placed, &dp)?;

    let mut prg = LOAD_ADDR.to_le_bytes().to_vec();
    prg.extend(basic_stub());
    prg.extend(&placed.code);
    prg.extend(&data);
    // Packed to unpack in place (bac-pack), below the MMU registers.
    let bank1 = match opts.bank1 {
        Some(_) => Some(
            bac_pack::pack_prg(&bank1_image, BANK1_START, BANK1_END, opts.packer)
                .map_err(|e| TranslateError::Settings(format!("bank-1 file: {e}")))?
                .file,
        ),
        None => None,
    };
    Ok(Image { placed, dp, data_addr, bss_addr, end, limit, data, bank1_image, prg, bank1, relocated_text })
}

/// The initialised data with its pointers to data and code (vtables) made 6502 addresses.
fn relocate_data(
    prog: &AvrProgram,
    flow: &Flow,
    placed: &Placed,
    dp: &DataPlacement,
) -> Result<Vec<u8>, TranslateError> {
    let mut data = prog.data.clone();
    for rel in &prog.data_relocs {
        let at = || prog.locate(rel.offset);
        let bad = |why: String| TranslateError::Relocation { at: at(), kind: rel.kind.name(), why };
        let value = match (&rel.target, rel.kind) {
            (Target::Code(a), RelocKind::R16 | RelocKind::R16Pm) => {
                let i = flow.index.get(a).ok_or_else(|| bad(format!("code address {a:#x} is not an instruction")))?;
                *placed.labels.get(&insn_label(*i)).ok_or_else(|| {
                    bad(format!("code address {a:#x} is inside an interpreted function (only its start has one)"))
                })?
            }
            (Target::Data(x), RelocKind::R16) => dp.map(*x),
            (Target::Bss(x), RelocKind::R16) => dp.map_bss(*x),
            (Target::Absolute { name, value }, RelocKind::R16 | RelocKind::R16Pm) => match Routine::for_symbol(name) {
                Some(rt) => placed.labels[&rt.label()],
                None => *value as u16,
            },
            (_, kind) => return Err(bad(format!("{} in data is not supported", kind.name()))),
        };
        let o = rel.offset as usize;
        if o + 2 > data.len() {
            return Err(bad("outside the initialised data".into()));
        }
        data[o..o + 2].copy_from_slice(&value.to_le_bytes());
    }
    Ok(data)
}

/// The AVR code as the C128 sees its addresses, for the reference interpreter.
fn relocate_text(
    prog: &AvrProgram,
    flow: &Flow,
    ctx: &Ctx,
    placed: &Placed,
    dp: &DataPlacement,
) -> Result<Vec<u8>, TranslateError> {
    let mut relocated_text = prog.text.clone();
    for (i, insn) in flow.insns.iter().enumerate() {
        let a = flow.addrs[i] as usize;
        let imm = matches!(insn.op, Op::Ldi | Op::Subi | Op::Sbci | Op::Cpi | Op::Ori | Op::Andi);
        let abs = matches!(insn.op, Op::Lds | Op::Sts);
        let at = if abs { flow.addrs[i] + 2 } else { flow.addrs[i] };
        if !(imm || abs) {
            continue;
        }
        if let Some((sym, part)) = ctx.reloc_sym(i, at)? {
            let v = link::resolve(sym, part, 0, &placed.labels, dp).unwrap_or(0);
            if abs {
                relocated_text[a + 2..a + 4].copy_from_slice(&v.to_le_bytes());
            } else {
                let w = u16::from_le_bytes([relocated_text[a], relocated_text[a + 1]]);
                let w = (w & 0xF0F0) | ((v & 0xF0) << 4) | (v & 0x0F);
                relocated_text[a..a + 2].copy_from_slice(&w.to_le_bytes());
            }
        }
    }
    Ok(relocated_text)
}
