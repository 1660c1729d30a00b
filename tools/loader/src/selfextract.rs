//! Packed programs that unpack themselves (`[package.metadata.c128] pack = true`): the
//! `.prg` on the disk is the BASIC stub, a mover, and the program packed with bac-pack;
//! `RUN` unpacks it where it runs and starts it as if it had been loaded whole.
//!
//! Assumes: `prg` is a translated program (load address $1C01, the BASIC stub, code from
//! [`CODE_START`]) that ends below $D000, started by BASIC's `RUN` (interrupts on, BASIC's
//! $FF00). Guarantees: the same bytes from [`CODE_START`] to the program's end as the
//! unpacked file would have loaded, then a jump to [`CODE_START`] with BASIC's $FF00, zero
//! page and stack as they were (the start-up code saves and restores them as usual) and
//! interrupts on; the memory above the program up to the packed file's top is left
//! holding the packed bytes and the decoder.
//!
//! How: the mover (at [`CODE_START`], in the file) maps all RAM, saves BASIC's $FF00 and the
//! decoder's zero page (T0-T10) on the stack, and moves the packed stream, its trailer and
//! the decoder page by page, highest byte first, up to where bac-pack placed the stream
//! (so that it unpacks over itself). It jumps to the decoder there ([`crate::unpack`]),
//! above the output, which unpacks from [`CODE_START`] up, puts back the zero page, and
//! from the cassette buffer at $0B00 (7 bytes) $FF00 and interrupts, and jumps to the
//! program.

use crate::LoaderError;
use crate::mmap::{CODE_START, IMAGE_END_ALL_RAM, LOAD_ADDR, MMU_CONFIG_ALL_RAM, MMU_CR, temp};
use bac_pack::Format;
use mos_asm::asm::Locals;
use mos_asm::asm::{Asm, Item, Sym, op::*};
use mos_asm::link;

/// Zero-page bytes the decoders use (T0-T9 the byte-aligned one, T0-T10 the dense one),
/// saved on the stack around them.
const ZP_USED: u8 = 11;
/// Where the last steps (BASIC's $FF00 back, interrupts on, the jump to the program) run:
/// the cassette buffer, common RAM that holds the boot sector until BASIC runs the program.
const LAST_STEPS: u16 = 0x0B00;

/// Assembles one chunk of code at `origin`.
fn assemble(a: Asm, origin: u16) -> Result<Vec<u8>, LoaderError> {
    Ok(link::assemble("rt_selfextract", a, origin, &[])?)
}

/// The mover: moves `pages` pages from `from` up to `to` (highest first), then jumps to
/// `decoder`.
fn mover(from: u16, to: u16, pages: u8, decoder: u16, loc: &mut Locals) -> Asm {
    let (page, byte, save) = (loc.fresh(), loc.fresh(), loc.fresh());
    let top = u16::from(pages - 1) * 256;
    let mut a = Asm::default();
    a.i(SEI).w(LDA_ABS, MMU_CR).i(PHA).b(LDA_IMM, MMU_CONFIG_ALL_RAM).w(STA_ABS, MMU_CR);
    a.b(LDX_IMM, ZP_USED - 1).label(save).b(LDA_ZPX, temp(0)).i(PHA).i(DEX).br(BPL, save);
    for (zp, at) in [(temp(0), from + top), (temp(2), to + top)] {
        a.b(LDA_IMM, at as u8).b(STA_ZP, zp).b(LDA_IMM, (at >> 8) as u8).b(STA_ZP, zp + 1);
    }
    a.b(LDX_IMM, pages);
    a.label(page).b(LDY_IMM, 0xFF);
    a.label(byte).b(LDA_IZY, temp(0)).b(STA_IZY, temp(2)).i(DEY).b(CPY_IMM, 0xFF).br(BNE, byte);
    a.b(DEC_ZP, temp(1)).b(DEC_ZP, temp(3)).i(DEX).br(BNE, page);
    a.w(JMP, decoder);
    a
}

/// The decoder and what follows it, at its place above the output: unpacks, restores the
/// zero page, $FF00 and interrupts, and starts the program. `end` is the packed file's top.
fn decoder(end: u16, format: Format, loc: &mut Locals) -> Asm {
    let (data, restore, unpack) = (loc.fresh(), loc.fresh(), loc.fresh());
    let mut a = Asm::default();
    a.to(JSR, unpack);
    a.b(LDX_IMM, 0).label(restore).i(PLA).b(STA_ZPX, temp(0)).i(INX).b(CPX_IMM, ZP_USED).br(BNE, restore);
    // BASIC's $FF00 hides this code (BASIC's ROM is above $4000): the last steps run from
    // the cassette buffer, free once BASIC has run the program.
    let [lo, hi] = CODE_START.to_le_bytes();
    let [mmu_lo, mmu_hi] = MMU_CR.to_le_bytes();
    for (i, byte) in [STA_ABS, mmu_lo, mmu_hi, CLI, JMP, lo, hi].into_iter().enumerate() {
        a.b(LDX_IMM, byte).w(STX_ABS, LAST_STEPS + i as u16);
    }
    a.i(PLA).w(JMP, LAST_STEPS);
    a.label(unpack);
    let end_at = (Sym::Code(data), 0);
    let unpack = match format {
        Format::Bytes => crate::unpack::emit(loc, end_at, MMU_CONFIG_ALL_RAM, MMU_CONFIG_ALL_RAM),
        Format::Dense => crate::unpack_dense::in_place(loc, end_at, MMU_CONFIG_ALL_RAM, MMU_CONFIG_ALL_RAM),
    };
    a.items.extend(unpack.items);
    a.label(data);
    a.items.push(Item::Bytes(end.to_le_bytes().to_vec()));
    a
}

/// A self-unpacking program and where its parts are.
#[derive(Debug, Clone)]
pub struct PackedProgram {
    /// The `.prg`, load address first.
    pub file: Vec<u8>,
    /// Where bac-pack's stream starts in `file` (after the stub and the mover).
    pub stream_at: usize,
    /// The address after the program's last byte once unpacked.
    pub end: u16,
    /// The stream's format.
    pub format: Format,
}

/// The self-unpacking `.prg` of a translated program `prg`, its stream in `format`.
pub fn pack_program(prg: &[u8], format: Format) -> Result<Vec<u8>, LoaderError> {
    pack_program_parts(prg, format).map(|p| p.file)
}

/// [`pack_program`], with where its parts are (for [`crate::first_stage`], which streams
/// it).
pub fn pack_program_parts(prg: &[u8], format: Format) -> Result<PackedProgram, LoaderError> {
    let stub_len = usize::from(CODE_START - LOAD_ADDR);
    if prg.len() < 2 + stub_len || prg[..2] != LOAD_ADDR.to_le_bytes() {
        return Err(LoaderError::Settings("pack: not a translated program (no BASIC stub at $1C01)".into()));
    }
    let too_high = |e: bac_pack::InPlaceError| LoaderError::Settings(format!("pack: {e}"));
    let packed = bac_pack::pack_prg(&prg[2 + stub_len..], CODE_START, IMAGE_END_ALL_RAM, format).map_err(too_high)?;
    let stream = &packed.file[2..];
    let decoder_at = packed.load + stream.len() as u16;
    let mut loc = Locals::default();
    let decoder = assemble(decoder(decoder_at, format, &mut loc), decoder_at)?;
    // The mover's size does not depend on its operands: assemble once to learn it.
    let mover_len = assemble(mover(0, 0, 1, 0, &mut loc), CODE_START)?.len() as u16;
    let from = CODE_START + mover_len;
    let moved = stream.len() + decoder.len();
    let pages = moved.div_ceil(256);
    let top = u32::from(packed.load) + (pages * 256) as u32;
    if top > u32::from(IMAGE_END_ALL_RAM) || pages > 255 || u32::from(packed.load) < u32::from(from) {
        return Err(LoaderError::TooLarge {
            what: "the packed program, moved up to unpack in place".into(),
            end: top,
            limit: u32::from(IMAGE_END_ALL_RAM),
        });
    }
    let mover = assemble(mover(from, packed.load, pages as u8, decoder_at, &mut loc), CODE_START)?;
    let mut file = prg[..2 + stub_len].to_vec();
    file.extend(&mover);
    let stream_at = file.len();
    file.extend(stream);
    file.extend(&decoder);
    Ok(PackedProgram { file, stream_at, end: packed.end, format })
}
