//! The 6502 decoder of bac-pack's dense format (`tools/pack/src/dense.rs`), which takes its
//! packed bytes one at a time from a routine the caller names: bytes in memory
//! ([`memory_get`], a file loaded whole and unpacked in place) or a byte off the serial
//! bus (the burst load, which decodes while the drive sends the next byte).
//!
//! Assumes: called with JSR with the output's first address in [`DST`] and the address
//! after its last in [`END`] (each two zero-page bytes, low first), the output's memory
//! mapped, and `get` a routine that returns the next packed byte in A and keeps X (it may
//! change Y and the flags). Uses T0-T10 ([`crate::mmap::TEMP`]), A, X and Y; code and
//! stack must stay mapped (common RAM for a bank-1 output).
//!
//! Guarantees: the output, byte for byte as `bac_pack::dense::unpack`'s, from [`DST`] up to
//! [`END`], having called `get` exactly once for each byte of the stream (so a stream
//! that is followed by other bytes, a trailer, leaves them unread). 21 cycles a byte
//! copied, 45 a literal byte with [`memory_get`], 8 a bit of the codes, about 110 cycles a
//! byte of output on the game's files, three times the byte-aligned decoder
//! ([`crate::unpack`]): it is meant to run while the drive sends the next byte.

use crate::asm::{Arg, Asm, Item, Label, Part, Sym, op::*};
use crate::mmap::temp;
use crate::runtime::Locals;

/// The output's next byte (two zero-page bytes, low first).
pub const DST: u8 = temp(0);
/// The address after the output's last byte.
pub const END: u8 = temp(2);
/// The last copy's distance less one.
const DISTANCE: u8 = temp(4);
/// A gamma number as it is read, then the pages of a run.
const LEN: u8 = temp(6);
/// A copy's source.
const FROM: u8 = temp(8);
/// The bit byte, shifted left as bits are taken, with a 1 below its last bit so that it
/// turns 0 when it is used up ($80: none yet).
const BITS: u8 = temp(10);

/// The decoder. `get` is the label of the byte source.
pub fn emit(loc: &mut Locals, get: Label) -> Asm {
    let mut a = Asm::default();
    let [literals, literal, after_copy, copy, copy_byte, done] = [(); 6].map(|_| loc.fresh());
    let [refill, gamma, gamma_bit, gamma_end, new_copy] = [(); 5].map(|_| loc.fresh());
    a.b(LDA_IMM, 0x80).b(STA_ZP, BITS).b(LDA_IMM, 0).b(STA_ZP, DISTANCE).b(STA_ZP, DISTANCE + 1);

    // Literals: a count, then the bytes.
    a.label(literals).to(JSR, gamma);
    count_in_x(&mut a);
    a.label(literal).to(JSR, get).b(LDY_IMM, 0).b(STA_IZY, DST);
    a.b(INC_ZP, DST).b(BNE, 2).b(INC_ZP, DST + 1);
    count_down(&mut a, literal);
    end_check(&mut a, loc, done);
    // After literals: 1 a copy, 0 a repeat of the last distance.
    bit(&mut a, refill);
    a.br(BCS, new_copy);
    a.to(JSR, gamma).to(JMP, copy);

    // After a copy: 1 a copy, 0 literals.
    a.label(after_copy);
    end_check(&mut a, loc, done);
    bit(&mut a, refill);
    a.br(BCC, literals);
    // A copy: gamma(high + 1), the low byte, gamma(length - 1).
    a.label(new_copy).to(JSR, gamma).b(LDA_ZP, LEN).i(SEC).b(SBC_IMM, 1).b(STA_ZP, DISTANCE + 1);
    a.to(JSR, get).b(STA_ZP, DISTANCE);
    a.to(JSR, gamma).b(INC_ZP, LEN).b(BNE, 2).b(INC_ZP, LEN + 1);
    // The source is the output less the distance: DST + !(distance - 1).
    a.label(copy).b(LDA_ZP, DISTANCE).b(EOR_IMM, 0xFF).i(CLC).b(ADC_ZP, DST).b(STA_ZP, FROM);
    a.b(LDA_ZP, DISTANCE + 1).b(EOR_IMM, 0xFF).b(ADC_ZP, DST + 1).b(STA_ZP, FROM + 1);
    // A byte at a time from the start, so a copy longer than its distance repeats; Y runs
    // over each page and the pointers' high bytes move on when it wraps.
    count_in_x(&mut a);
    a.b(LDY_IMM, 0);
    a.label(copy_byte).b(LDA_IZY, FROM).b(STA_IZY, DST).i(INY).b(BNE, 4).b(INC_ZP, FROM + 1).b(INC_ZP, DST + 1);
    count_down(&mut a, copy_byte);
    a.i(TYA).i(CLC).b(ADC_ZP, DST).b(STA_ZP, DST).b(BCC, 2).b(INC_ZP, DST + 1);
    a.to(JMP, after_copy);
    a.label(done).i(RTS);

    // A new bit byte: its top bit into C, the marker below its last.
    a.label(refill).to(JSR, get).i(SEC).i(ROL_A).b(STA_ZP, BITS).i(RTS);

    // An interlaced gamma number into LEN: a 1 and a bit while it goes on, a 0 at its end.
    a.label(gamma).b(LDA_IMM, 1).b(STA_ZP, LEN).b(LDA_IMM, 0).b(STA_ZP, LEN + 1);
    a.label(gamma_bit);
    bit(&mut a, refill);
    a.br(BCC, gamma_end);
    bit(&mut a, refill);
    a.b(ROL_ZP, LEN).b(ROL_ZP, LEN + 1).to(JMP, gamma_bit);
    a.label(gamma_end).i(RTS);
    a
}

/// The next bit into C, in line: 8 cycles, and a call of `refill` once a byte.
fn bit(a: &mut Asm, refill: Label) {
    a.b(ASL_ZP, BITS).b(BNE, 3).to(JSR, refill);
}

/// A run's length (1 to 65,535, in LEN) as a count in X and pages in LEN + 1, for
/// [`count_down`]. X counts the bytes below a page (from 0 it counts a whole page), LEN + 1
/// the pages, one more when X does not start at 0: 5 cycles a byte against 20 for a
/// 16-bit count in zero page.
fn count_in_x(a: &mut Asm) {
    a.b(LDX_ZP, LEN).b(BEQ, 2).b(INC_ZP, LEN + 1);
}

/// One byte of the run done: back to `again` until it is all done.
fn count_down(a: &mut Asm, again: Label) {
    a.i(DEX).br(BNE, again).b(DEC_ZP, LEN + 1).br(BNE, again);
}

/// To `done` once the output has reached its end.
fn end_check(a: &mut Asm, loc: &mut Locals, done: Label) {
    let more = loc.fresh();
    a.b(LDA_ZP, DST).b(CMP_ZP, END).br(BNE, more).b(LDA_ZP, DST + 1).b(CMP_ZP, END + 1).br(BEQ, done);
    a.label(more);
}

/// The byte source for a stream in memory: its address is the operand of its own LDA
/// ([`set_memory_source`]), which moves on a byte at a time, so it needs no zero page.
pub fn memory_get(label: Label) -> Asm {
    let mut a = Asm::default();
    let operand = Arg::Sym(Sym::Code(label), Part::Word, 1);
    a.label(label).w(LDA_ABS, 0);
    a.items.push(Item::Ins(INC_ABS, operand));
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::link::{self, Chunk, DataPlacement, Owner};
    use mos6502::cpu::CPU;
    use mos6502::instruction::Nmos6502;
    use mos6502::memory::{Bus, Memory};

    const ORIGIN: u16 = 0x0200;
    const STREAM: u16 = 0x0400;

    /// The decoder and a memory source, assembled at [`ORIGIN`], then a JSR to it from a
    /// stub that ends in BRK.
    fn program() -> (Vec<u8>, u16, u16) {
        let mut loc = Locals::default();
        let (entry, get) = (loc.fresh(), loc.fresh());
        let mut a = Asm::default();
        let [lo, hi] = STREAM.to_le_bytes();
        a.b(LDA_IMM, lo).b(LDY_IMM, hi);
        set_memory_source(&mut a, get);
        a.to(JSR, entry).i(BRK);
        a.label(entry);
        a.items.extend(emit(&mut loc, get).items);
        a.items.extend(memory_get(get).items);
        let chunks = [Chunk { owner: Owner::Runtime("test".into()), items: a.items }];
        let layout = link::layout(&chunks, ORIGIN).unwrap();
        let dp = DataPlacement { data_addr: 0, data_base: 0, bss_addr: 0, bss_base: 0, bss_len: 0 };
        let get_at = layout.labels[&get];
        (link::encode(&chunks, ORIGIN, layout.labels, &layout.long, &dp).unwrap().code, ORIGIN, get_at)
    }

    /// Runs the decoder on `data` packed; returns the output and the stream bytes read.
    fn decode_on_6502(data: &[u8]) -> (Vec<u8>, usize, usize) {
        let stream = bac_pack::dense_parse::pack(data);
        let (code, origin, get_at) = program();
        let mut cpu = CPU::new(Memory::new(), Nmos6502);
        cpu.memory.set_bytes(origin, &code);
        cpu.memory.set_bytes(STREAM, &stream);
        // The output as high as it goes, so that files of up to 40 KB fit above the stream.
        let out_at = (0x10000 - data.len()).min(0x8000) as u16;
        assert!(usize::from(STREAM) + stream.len() <= usize::from(out_at), "{} bytes do not fit", data.len());
        let end = out_at.wrapping_add(data.len() as u16);
        for (zp, word) in [(DST, out_at), (END, end)] {
            cpu.memory.set_bytes(u16::from(zp), &word.to_le_bytes());
        }
        cpu.registers.program_counter = origin;
        cpu.registers.stack_pointer = mos6502::registers::StackPointer(0xFF);
        let mut steps = 0usize;
        while cpu.memory.get_byte(cpu.registers.program_counter) != BRK {
            cpu.single_step();
            steps += 1;
            assert!(steps < 20_000_000, "the decoder did not end");
        }
        let out = (0..data.len()).map(|k| cpu.memory.get_byte(out_at.wrapping_add(k as u16))).collect();
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
            let (out, read, len) = decode_on_6502(&data);
            assert!(out == data, "{what}: the output differs");
            assert_eq!(read, len, "{what}: stream bytes read");
        }
    }
}
