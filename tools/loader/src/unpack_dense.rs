//! The 6502 decoder of bac-pack's dense format (`tools/pack/src/dense.rs`), which takes its
//! packed bytes one at a time from a routine the caller names: bytes in memory
//! ([`memory_get`], a file loaded whole and unpacked in place) or a byte off the serial
//! bus (the burst load, which decodes while the drive sends the next byte).
//!
//! Assumes: called with JSR with the output's first address in `zp.out` (two zero-page
//! bytes, low first), its end known when the program is built or in zero page ([`End`]),
//! the output's memory mapped, code, stack and zero page in view (common RAM for a bank-1
//! output), and `get` a routine that returns the next packed byte in A and keeps X (it
//! may change Y and the flags). Uses `zp.out`, `zp.from`, five bytes from `zp.scratch`,
//! A, X and Y.
//!
//! Guarantees: the output, byte for byte as `bac_pack::dense::unpack`'s, from `zp.out`'s
//! start up to the end, with `zp.out` at the end on return, having called `get` exactly
//! once for each byte of the stream (so a stream that is followed by other bytes, a
//! trailer, leaves them unread). 21 cycles a byte copied, 45 a literal byte with
//! [`memory_get`], 8 a bit of the codes: about 90 cycles a byte of output on the game's
//! files, three times the byte-aligned decoder ([`crate::unpack`]); it is meant to run
//! while the drive sends the next byte.

use crate::mmap::{MMU_CR, temp};
use mos_asm::asm::Locals;
use mos_asm::asm::{Arg, Asm, Item, Label, Part, Sym, op::*};

/// The decoder's zero page.
#[derive(Clone, Copy, Debug)]
pub struct Zp {
    /// The output's next byte (two bytes, low first).
    pub out: u8,
    /// A copy's source (two bytes).
    pub from: u8,
    /// Five bytes: the last copy's distance less one (two), a gamma number as it is read
    /// and then the pages of a run (two), and the bit byte, shifted left as bits are taken
    /// with a 1 below its last bit so that it turns 0 when it is used up ($80: none yet).
    pub scratch: u8,
}

/// Where the output ends (the address after its last byte).
#[derive(Clone, Copy, Debug)]
pub enum End {
    /// Known when the program is built.
    Sym(Sym),
    /// In two zero-page bytes, low first.
    Zp(u8),
}

/// The decoder. `get` is the label of the byte source.
pub fn emit(loc: &mut Locals, get: Label, zp: Zp, end: End) -> Asm {
    let (dst, from) = (zp.out, zp.from);
    let (distance, len, bits) = (zp.scratch, zp.scratch + 2, zp.scratch + 4);
    let mut a = Asm::default();
    let [literals, literal, after_copy, copy, copy_byte, done] = [(); 6].map(|_| loc.fresh());
    let [refill, gamma, gamma_bit, gamma_end, new_copy] = [(); 5].map(|_| loc.fresh());
    let bit = |a: &mut Asm| {
        a.b(ASL_ZP, bits).b(BNE, 3).to(JSR, refill);
    };
    a.b(LDA_IMM, 0x80).b(STA_ZP, bits).b(LDA_IMM, 0).b(STA_ZP, distance).b(STA_ZP, distance + 1);

    // Literals: a count, then the bytes.
    a.label(literals).to(JSR, gamma);
    count_in_x(&mut a, len);
    a.label(literal).to(JSR, get).b(LDY_IMM, 0).b(STA_IZY, dst);
    a.b(INC_ZP, dst).b(BNE, 2).b(INC_ZP, dst + 1);
    count_down(&mut a, len, literal);
    end_check(&mut a, loc, dst, end, done);
    // After literals: 1 a copy, 0 a repeat of the last distance.
    bit(&mut a);
    a.br(BCS, new_copy);
    a.to(JSR, gamma).to(JMP, copy);

    // After a copy: 1 a copy, 0 literals.
    a.label(after_copy);
    end_check(&mut a, loc, dst, end, done);
    bit(&mut a);
    a.br(BCC, literals);
    // A copy: gamma(high + 1), the low byte, gamma(length - 1).
    a.label(new_copy).to(JSR, gamma).b(LDA_ZP, len).i(SEC).b(SBC_IMM, 1).b(STA_ZP, distance + 1);
    a.to(JSR, get).b(STA_ZP, distance);
    a.to(JSR, gamma).b(INC_ZP, len).b(BNE, 2).b(INC_ZP, len + 1);
    // The source is the output less the distance: the output plus !(distance - 1).
    a.label(copy).b(LDA_ZP, distance).b(EOR_IMM, 0xFF).i(CLC).b(ADC_ZP, dst).b(STA_ZP, from);
    a.b(LDA_ZP, distance + 1).b(EOR_IMM, 0xFF).b(ADC_ZP, dst + 1).b(STA_ZP, from + 1);
    // A byte at a time from the start, so a copy longer than its distance repeats; Y runs
    // over each page and the pointers' high bytes move on when it wraps.
    count_in_x(&mut a, len);
    a.b(LDY_IMM, 0);
    a.label(copy_byte).b(LDA_IZY, from).b(STA_IZY, dst).i(INY).b(BNE, 4).b(INC_ZP, from + 1).b(INC_ZP, dst + 1);
    count_down(&mut a, len, copy_byte);
    a.i(TYA).i(CLC).b(ADC_ZP, dst).b(STA_ZP, dst).b(BCC, 2).b(INC_ZP, dst + 1);
    a.to(JMP, after_copy);
    a.label(done).i(RTS);

    // A new bit byte: its top bit into C, the marker below its last.
    a.label(refill).to(JSR, get).i(SEC).i(ROL_A).b(STA_ZP, bits).i(RTS);

    // An interlaced gamma number: a 1 and a bit while it goes on, a 0 at its end.
    a.label(gamma).b(LDA_IMM, 1).b(STA_ZP, len).b(LDA_IMM, 0).b(STA_ZP, len + 1);
    a.label(gamma_bit);
    bit(&mut a);
    a.br(BCC, gamma_end);
    bit(&mut a);
    a.b(ROL_ZP, len).b(ROL_ZP, len + 1).to(JMP, gamma_bit);
    a.label(gamma_end).i(RTS);
    a
}

/// A run's length (1 to 65,535, at `len`) as a count in X and pages at `len` + 1, for
/// [`count_down`]. X counts the bytes below a page (from 0 it counts a whole page), the
/// byte after `len` the pages, one more when X does not start at 0: 5 cycles a byte
/// against 20 for a 16-bit count in zero page.
fn count_in_x(a: &mut Asm, len: u8) {
    a.b(LDX_ZP, len).b(BEQ, 2).b(INC_ZP, len + 1);
}

/// One byte of the run done: back to `again` until it is all done.
fn count_down(a: &mut Asm, len: u8, again: Label) {
    a.i(DEX).br(BNE, again).b(DEC_ZP, len + 1).br(BNE, again);
}

/// To `done` once the output has reached its end.
fn end_check(a: &mut Asm, loc: &mut Locals, dst: u8, end: End, done: Label) {
    let more = loc.fresh();
    let compare = |a: &mut Asm, k: u8| match end {
        End::Sym(sym) => {
            let part = if k == 0 { Part::Lo } else { Part::Hi };
            a.items.push(Item::Ins(CMP_IMM, Arg::Sym(sym, part, 0)));
        }
        End::Zp(zp) => {
            a.b(CMP_ZP, zp + k);
        }
    };
    a.b(LDA_ZP, dst);
    compare(a, 0);
    a.br(BNE, more).b(LDA_ZP, dst + 1);
    compare(a, 1);
    a.br(BEQ, done);
    a.label(more);
}

/// The byte source for a stream in memory: its address is the operand of its own LDA
/// ([`set_memory_source`]), which moves on a byte at a time, so it needs no zero page. It
/// keeps X and Y, so it serves [`crate::pull_unpack`]'s decoder too.
pub fn memory_get(label: Label) -> Asm {
    let mut a = Asm::default();
    a.label(label).w(LDA_ABS, 0);
    a.items.push(Item::Ins(INC_ABS, Arg::Sym(Sym::Code(label), Part::Word, 1)));
    a.b(BNE, 3);
    a.items.push(Item::Ins(INC_ABS, Arg::Sym(Sym::Code(label), Part::Word, 2)));
    a.i(RTS);
    a
}

/// Points [`memory_get`] at `label` to the address in A (low) and Y (high).
pub fn set_memory_source(a: &mut Asm, get: Label) {
    a.items.push(Item::Ins(STA_ABS, Arg::Sym(Sym::Code(get), Part::Word, 1)));
    a.items.push(Item::Ins(STY_ABS, Arg::Sym(Sym::Code(get), Part::Word, 2)));
}

/// The zero page [`in_place`] uses (T0/T1, T4-T10; its output's end in T2/T3).
pub const IN_PLACE_ZP: Zp = Zp { out: temp(0), from: temp(4), scratch: temp(6) };

/// A packed file (bac-pack's in-place layout, dense stream) unpacked where it was loaded,
/// as [`crate::unpack::emit`] does for the byte-aligned one: reads the trailer below the
/// address at `loaded_end` (what the KERNAL's LOAD returned), maps `map` in $FF00, decodes
/// from the trailer's stream start to its output, and puts `home` in $FF00. Uses T0-T10,
/// A, X and Y; its code (the memory source's operand among it) must be in RAM.
pub fn in_place(loc: &mut Locals, loaded_end: (Sym, i32), map: u8, home: u8) -> Asm {
    let (end, get, decode) = (temp(2), loc.fresh(), loc.fresh());
    let zp = IN_PLACE_ZP;
    let mut a = Asm::default();
    a.b(LDY_IMM, map).w(STY_ABS, MMU_CR);
    // The trailer (output start, output end, stream start, each low first) is the six
    // bytes below the end; its pointer in T2/T3 turns into the output's end as it is read.
    a.items.push(Item::Ins(LDA_ABS, Arg::Sym(loaded_end.0, Part::Word, loaded_end.1)));
    a.i(SEC).b(SBC_IMM, 6).b(STA_ZP, end);
    a.items.push(Item::Ins(LDA_ABS, Arg::Sym(loaded_end.0, Part::Word, loaded_end.1 + 1)));
    a.b(SBC_IMM, 0).b(STA_ZP, end + 1);
    a.b(LDY_IMM, 4).b(LDA_IZY, end).i(PHA).i(INY).b(LDA_IZY, end).i(PHA);
    a.b(LDY_IMM, 0).b(LDA_IZY, end).b(STA_ZP, zp.out).i(INY).b(LDA_IZY, end).b(STA_ZP, zp.out + 1);
    a.i(INY).b(LDA_IZY, end).i(TAX).i(INY).b(LDA_IZY, end).b(STA_ZP, end + 1).b(STX_ZP, end);
    a.i(PLA).i(TAY).i(PLA);
    set_memory_source(&mut a, get);
    a.to(JSR, decode).b(LDY_IMM, home).w(STY_ABS, MMU_CR).i(RTS);
    a.items.extend(memory_get(get).items);
    a.label(decode);
    a.items.extend(emit(loc, get, zp, End::Zp(end)).items);
    a
}

#[cfg(test)]
mod tests {
    use super::*;
    use mos_asm::link::{self, Chunk, DataPlacement, Owner};
    use mos6502::cpu::CPU;
    use mos6502::instruction::Nmos6502;
    use mos6502::memory::{Bus, Memory};

    const ORIGIN: u16 = 0x0200;
    const STREAM: u16 = 0x0400;
    /// Where the in-place test keeps the loaded file's end, as the start-up code does (past
    /// the code and below the packed file).
    const LOADED_END: u16 = 0x0FF0;
    const ZP: Zp = Zp { out: temp(0), from: temp(2), scratch: temp(6) };

    /// Assembles `a` at [`ORIGIN`] with `fixed` labels at the addresses given; returns the
    /// code and every label's address.
    fn assemble(a: Asm, fixed: &[(Label, u16)]) -> (Vec<u8>, std::collections::HashMap<Label, u16>) {
        let chunks = [Chunk { owner: Owner::Runtime("test".into()), items: a.items }];
        let layout = link::layout(&chunks, ORIGIN).unwrap();
        let mut labels = layout.labels;
        labels.extend(fixed.iter().copied());
        let dp = DataPlacement { data_addr: 0, data_base: 0, bss_addr: 0, bss_base: 0, bss_len: 0, bank1_end: 0 };
        let code = link::encode(&chunks, ORIGIN, labels.clone(), &layout.long, &dp).unwrap().code;
        assert!(code.len() <= usize::from(STREAM - ORIGIN), "{} bytes of code reach the stream", code.len());
        (code, labels)
    }

    /// Runs `code` from [`ORIGIN`] until its BRK.
    fn run(code: &[u8], memory: &[(u16, &[u8])]) -> CPU<Memory, Nmos6502> {
        let mut cpu = CPU::new(Memory::new(), Nmos6502);
        cpu.memory.set_bytes(ORIGIN, code);
        for (at, bytes) in memory {
            cpu.memory.set_bytes(*at, bytes);
        }
        cpu.registers.program_counter = ORIGIN;
        cpu.registers.stack_pointer = mos6502::registers::StackPointer(0xFF);
        let mut steps = 0usize;
        while cpu.memory.get_byte(cpu.registers.program_counter) != BRK {
            cpu.single_step();
            steps += 1;
            assert!(steps < 20_000_000, "the decoder did not end");
        }
        cpu
    }

    fn read(cpu: &mut CPU<Memory, Nmos6502>, at: u16, len: usize) -> Vec<u8> {
        (0..len).map(|k| cpu.memory.get_byte(at.wrapping_add(k as u16))).collect()
    }

    /// Runs the decoder on `data` packed, its end known when built (`Sym`) or in zero page;
    /// returns the output and the stream bytes read, and the stream's length.
    fn decode_on_6502(data: &[u8], end_in_zp: bool) -> (Vec<u8>, usize, usize) {
        let stream = bac_pack::dense_parse::pack(data);
        // The output as high as it goes, so that files of up to 40 KB fit above the stream.
        let out_at = (0x10000 - data.len()).min(0x8000) as u16;
        assert!(usize::from(STREAM) + stream.len() <= usize::from(out_at), "{} bytes do not fit", data.len());
        let end = out_at.wrapping_add(data.len() as u16);
        let mut loc = Locals::default();
        let (entry, get, end_label) = (loc.fresh(), loc.fresh(), loc.fresh());
        let mut a = Asm::default();
        let [lo, hi] = STREAM.to_le_bytes();
        a.b(LDA_IMM, lo).b(LDY_IMM, hi);
        set_memory_source(&mut a, get);
        a.to(JSR, entry).i(BRK);
        a.label(entry);
        let end_at = if end_in_zp { End::Zp(temp(4)) } else { End::Sym(Sym::Code(end_label)) };
        a.items.extend(emit(&mut loc, get, ZP, end_at).items);
        a.items.extend(memory_get(get).items);
        let (code, labels) = assemble(a, &[(end_label, end)]);
        let zp = [out_at.to_le_bytes(), end.to_le_bytes()].concat();
        let mut cpu = run(&code, &[(STREAM, &stream), (u16::from(ZP.out), &zp[..2]), (u16::from(temp(4)), &zp[2..])]);
        let out = read(&mut cpu, out_at, data.len());
        let get_at = labels[&get];
        let src = u16::from_le_bytes([cpu.memory.get_byte(get_at + 1), cpu.memory.get_byte(get_at + 2)]);
        (out, usize::from(src - STREAM), stream.len())
    }

    fn noise(seed: u32, n: usize) -> Vec<u8> {
        let mut x = seed | 1;
        (0..n)
            .map(|_| {
                x ^= x << 13;
                x ^= x >> 17;
                x ^= x << 5;
                x as u8
            })
            .collect()
    }

    #[test]
    fn the_6502_decoder_gives_the_packed_bytes_back_and_reads_exactly_the_stream() {
        let code: Vec<u8> = (0..3000u32).flat_map(|k| [0x91, (k % 7) as u8, 0x0E, 0x94, (k % 251) as u8]).collect();
        let mut long_run = vec![0u8; 1000];
        long_run.extend(noise(3, 300));
        long_run.extend(vec![0xEA; 700]);
        let text = b"THE BANKER DRAWS ON 3 AGAINST 0. PLAYER WINS 8 OVER 5. ".repeat(30);
        for (what, data) in [
            ("one byte", vec![7]),
            ("code", code),
            ("runs and noise", long_run),
            ("text", text),
            ("noise", noise(9, 2000)),
        ] {
            for end_in_zp in [true, false] {
                let (out, read, len) = decode_on_6502(&data, end_in_zp);
                assert!(
                    out == data,
                    "{what} (end in zero page: {end_in_zp}): the output differs: {:?}",
                    &out[..out.len().min(8)]
                );
                assert_eq!(read, len, "{what}: stream bytes read");
            }
        }
    }

    #[test]
    fn a_loaded_file_unpacks_over_itself_from_its_trailer() {
        let data: Vec<u8> = (0..9000u32).map(|k| ((k * 7) ^ (k >> 5)) as u8).collect();
        let start = 0x4000;
        let packed = bac_pack::pack_prg(&data, start, 0xF000, bac_pack::Format::Dense).unwrap();
        let loaded_end = packed.load + (packed.file.len() - 2) as u16;
        let mut loc = Locals::default();
        let (entry, word) = (loc.fresh(), loc.fresh());
        let mut a = Asm::default();
        a.to(JSR, entry).i(BRK).label(entry);
        a.items.extend(in_place(&mut loc, (Sym::Code(word), 0), 0x7F, 0x3E).items);
        let (code, _) = assemble(a, &[(word, LOADED_END)]);
        let mut cpu = run(&code, &[(packed.load, &packed.file[2..]), (LOADED_END, &loaded_end.to_le_bytes())]);
        assert!(read(&mut cpu, start, data.len()) == data, "the output differs");
        assert_eq!(cpu.memory.get_byte(MMU_CR), 0x3E, "$FF00 is home");
    }
}
