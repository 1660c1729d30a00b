//! The 6502 decoder of bac-pack's dense format (`tools/pack/src/dense.rs`), which takes its
//! packed bytes one at a time from a routine the caller names: bytes in memory
//! ([`memory_get`], a file loaded whole and unpacked in place) or a byte off the serial
//! bus (the burst load, which decodes while the drive sends the next byte).
//!
//! Assumes: called with JSR with the output's first address in [`DST`] and the address
//! after its last in [`END`] (each two zero-page bytes, low first), the output's memory
//! mapped, and `get` a routine that returns the next packed byte in A and keeps X (it may
//! change Y and the flags). Uses [`DST`], [`END`], T4-T9 ([`crate::mmap::TEMP`]), A, X and
//! Y.
//!
//! Guarantees: the output, byte for byte as `bac_pack::dense::unpack`'s, from [`DST`] up to
//! [`END`], having called `get` exactly once for each byte of the stream (so a stream
//! that is followed by other bytes, a trailer, leaves them unread). About 36 cycles a byte
//! copied and 63 a literal byte with [`memory_get`].

use crate::asm::{Asm, Label, op::*};
use crate::mmap::temp;
use crate::runtime::Locals;

/// The output's next byte (two zero-page bytes, low first).
pub const DST: u8 = temp(0);
/// The address after the output's last byte.
pub const END: u8 = temp(2);
/// The last copy's distance less one.
const DISTANCE: u8 = temp(4);
/// A gamma number as it is read, then the length of a run.
const LEN: u8 = temp(6);
/// A copy's source.
const FROM: u8 = temp(8);
/// The packed stream's next byte, for [`memory_get`].
pub const SRC: u8 = temp(10);

/// The decoder. `get` is the label of the byte source.
pub fn emit(loc: &mut Locals, get: Label) -> Asm {
    let mut a = Asm::default();
    let [literals, literal, after_copy, copy, copy_byte, done] = [(); 6].map(|_| loc.fresh());
    let [bit, fetched, gamma, gamma_bit, gamma_end, new_copy] = [(); 6].map(|_| loc.fresh());
    // X holds the bit byte, shifted left as bits are taken, with a 1 below the last bit
    // so that the byte turns 0 when it is used up ($80: none yet).
    a.b(LDX_IMM, 0x80).b(LDA_IMM, 0).b(STA_ZP, DISTANCE).b(STA_ZP, DISTANCE + 1);

    // Literals: a count, then the bytes.
    a.label(literals).to(JSR, gamma);
    a.label(literal).to(JSR, get).b(LDY_IMM, 0).b(STA_IZY, DST);
    a.b(INC_ZP, DST).b(BNE, 2).b(INC_ZP, DST + 1);
    count_down(&mut a, literal);
    end_check(&mut a, loc, done);
    // After literals: 1 a copy, 0 a repeat of the last distance.
    a.to(JSR, bit).br(BCS, new_copy);
    a.to(JSR, gamma).to(JMP, copy);

    // After a copy: 1 a copy, 0 literals.
    a.label(after_copy);
    end_check(&mut a, loc, done);
    a.to(JSR, bit).br(BCC, literals);
    // A copy: gamma(high + 1), the low byte, gamma(length - 1).
    a.label(new_copy).to(JSR, gamma).b(LDA_ZP, LEN).i(SEC).b(SBC_IMM, 1).b(STA_ZP, DISTANCE + 1);
    a.to(JSR, get).b(STA_ZP, DISTANCE);
    a.to(JSR, gamma).b(INC_ZP, LEN).b(BNE, 2).b(INC_ZP, LEN + 1);
    // The source is the output less the distance: DST + !(distance - 1).
    a.label(copy).b(LDA_ZP, DISTANCE).b(EOR_IMM, 0xFF).i(CLC).b(ADC_ZP, DST).b(STA_ZP, FROM);
    a.b(LDA_ZP, DISTANCE + 1).b(EOR_IMM, 0xFF).b(ADC_ZP, DST + 1).b(STA_ZP, FROM + 1);
    // A byte at a time from the start, so a copy longer than its distance repeats; Y runs
    // over each page and the pointers' high bytes move on when it wraps.
    a.b(LDY_IMM, 0);
    a.label(copy_byte).b(LDA_IZY, FROM).b(STA_IZY, DST).i(INY).b(BNE, 4).b(INC_ZP, FROM + 1).b(INC_ZP, DST + 1);
    count_down(&mut a, copy_byte);
    a.i(TYA).i(CLC).b(ADC_ZP, DST).b(STA_ZP, DST).b(BCC, 2).b(INC_ZP, DST + 1);
    a.to(JMP, after_copy);
    a.label(done).i(RTS);

    // One bit into C.
    a.label(bit).i(TXA).i(ASL_A).br(BNE, fetched);
    a.to(JSR, get).i(SEC).i(ROL_A);
    a.label(fetched).i(TAX).i(RTS);

    // An interlaced gamma number into LEN: a 1 and a bit while it goes on, a 0 at its end.
    a.label(gamma).b(LDA_IMM, 1).b(STA_ZP, LEN).b(LDA_IMM, 0).b(STA_ZP, LEN + 1);
    a.label(gamma_bit).to(JSR, bit).br(BCC, gamma_end);
    a.to(JSR, bit).b(ROL_ZP, LEN).b(ROL_ZP, LEN + 1).to(JMP, gamma_bit);
    a.label(gamma_end).i(RTS);
    a
}

/// LEN less one; back to `again` while it is not 0.
fn count_down(a: &mut Asm, again: Label) {
    a.b(LDA_ZP, LEN).b(BNE, 2).b(DEC_ZP, LEN + 1).b(DEC_ZP, LEN);
    a.b(LDA_ZP, LEN).b(ORA_ZP, LEN + 1).br(BNE, again);
}

/// To `done` once the output has reached its end.
fn end_check(a: &mut Asm, loc: &mut Locals, done: Label) {
    let more = loc.fresh();
    a.b(LDA_ZP, DST).b(CMP_ZP, END).br(BNE, more).b(LDA_ZP, DST + 1).b(CMP_ZP, END + 1).br(BEQ, done);
    a.label(more);
}

/// The byte source for a stream in memory: the byte at [`SRC`], which moves on.
pub fn memory_get(label: Label) -> Asm {
    let mut a = Asm::default();
    a.label(label).b(LDY_IMM, 0).b(LDA_IZY, SRC).b(INC_ZP, SRC).b(BNE, 2).b(INC_ZP, SRC + 1).i(RTS);
    a
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::link::{self, Chunk, DataPlacement, Owner};
    use mos6502::cpu::CPU;
    use mos6502::instruction::Nmos6502;
    use mos6502::memory::{Bus, Memory};

    const ORIGIN: u16 = 0x1000;
    const STREAM: u16 = 0x2000;
    const OUT: u16 = 0x8000;

    /// The decoder and a memory source, assembled at [`ORIGIN`], then a JSR to it from a
    /// stub that ends in BRK.
    fn program() -> (Vec<u8>, u16) {
        let mut loc = Locals::default();
        let (entry, get) = (loc.fresh(), loc.fresh());
        let mut a = Asm::default();
        a.to(JSR, entry).i(BRK);
        a.label(entry);
        a.items.extend(emit(&mut loc, get).items);
        a.items.extend(memory_get(get).items);
        let chunks = [Chunk { owner: Owner::Runtime("test".into()), items: a.items }];
        let layout = link::layout(&chunks, ORIGIN).unwrap();
        let dp = DataPlacement { data_addr: 0, data_base: 0, bss_addr: 0, bss_base: 0, bss_len: 0 };
        (link::encode(&chunks, ORIGIN, layout.labels, &layout.long, &dp).unwrap().code, ORIGIN)
    }

    /// Runs the decoder on `data` packed; returns the output and the stream bytes read.
    fn decode_on_6502(data: &[u8]) -> (Vec<u8>, usize, usize) {
        let stream = bac_pack::dense_parse::pack(data);
        let (code, origin) = program();
        let mut cpu = CPU::new(Memory::new(), Nmos6502);
        cpu.memory.set_bytes(origin, &code);
        cpu.memory.set_bytes(STREAM, &stream);
        let end = OUT + data.len() as u16;
        for (zp, word) in [(DST, OUT), (END, end), (SRC, STREAM)] {
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
        let out = (0..data.len()).map(|k| cpu.memory.get_byte(OUT + k as u16)).collect();
        let src = u16::from_le_bytes([cpu.memory.get_byte(u16::from(SRC)), cpu.memory.get_byte(u16::from(SRC) + 1)]);
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
