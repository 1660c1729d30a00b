//! The 6502 pull decoder of bac-pack's format (`tools/pack/src/format.rs`): it asks a
//! get-byte routine for each packed byte instead of reading them from memory, so a loader
//! can unpack a file while it receives it (`crate::stream`) and the file never
//! lies packed in memory. [`crate::unpack`] is the in-place decoder of the same format, for
//! a file that is already loaded.
//!
//! Assumes: the caller has mapped the memory the output goes to and set the output
//! pointer (`out`, two zero-page bytes, low first) to the output's first byte; the output
//! ends at the symbol `end` (known when the program is built: the stream has no end
//! marker); `get` is called with JSR and returns the next packed byte in A, keeps X and Y
//! (the flags and the carry it may change), and does not return when there is no byte
//! (it unwinds the stack itself). Uses `from` (two zero-page bytes), A, X and Y.
//!
//! Guarantees: the output, byte for byte as `bac_pack::unpack_prg`'s, from `out`'s start
//! up to `end`, with `out` at `end` on return; it asks for exactly the stream's bytes
//! (what follows the stream, a packed file's trailer, is the caller's to read). About 18
//! cycles a byte copied and 50 a token besides the get-byte calls.
//!
//! The get-byte interface is the seam for another format: a decoder of a denser stream
//! that calls the same `get` drops in here without a change to its callers.

use mos_asm::asm::Locals;
use mos_asm::asm::{Arg, Asm, Item, Label, Part, Sym, op::*};

/// The decoder: tokens until `out` reaches `end`.
pub fn emit(loc: &mut Locals, get: Label, out: u8, from: u8, end: Sym) -> Asm {
    let mut a = Asm::default();
    let mut f = || loc.fresh();
    let (next, literal, advance, copy, far, copy_from, byte, done) = (f(), f(), f(), f(), f(), f(), f(), f());
    let end_part = |part| Arg::Sym(end, part, 0);

    // Each token: stop once the output's pointer reaches its end.
    a.label(next).b(LDA_ZP, out);
    a.items.push(Item::Ins(CMP_IMM, end_part(Part::Lo)));
    a.b(LDA_ZP, out + 1);
    a.items.push(Item::Ins(SBC_IMM, end_part(Part::Hi)));
    a.br(BCS, done);
    a.to(JSR, get).i(TAX).br(BMI, copy);
    // 0nnnnnnn: n + 1 bytes from the stream.
    a.i(INX).b(LDY_IMM, 0);
    a.label(literal).to(JSR, get).b(STA_IZY, out).i(INY).i(DEX).br(BNE, literal);
    a.label(advance).i(TYA).i(CLC).b(ADC_ZP, out).b(STA_ZP, out).b(BCC, 2).b(INC_ZP, out + 1);
    a.to(JMP, next);

    // 10nnnnnn d: n + 2 bytes from d + 1 back; the source is the output plus the
    // complement of d (high byte $FF), which is the output less d + 1.
    a.label(copy).i(TXA).i(ASL_A).br(BMI, far);
    a.to(JSR, get).b(EOR_IMM, 0xFF).i(CLC).b(ADC_ZP, out).b(STA_ZP, from);
    a.b(LDA_ZP, out + 1).b(ADC_IMM, 0xFF).b(STA_ZP, from + 1);
    a.i(TXA).b(AND_IMM, 0x3F).i(TAX).i(INX).i(INX).to(JMP, copy_from);
    // 11nnnnnn d d: n + 3 bytes from d + 1 back, d in two bytes, low first.
    a.label(far).to(JSR, get).b(EOR_IMM, 0xFF).b(STA_ZP, from);
    a.to(JSR, get).b(EOR_IMM, 0xFF).b(STA_ZP, from + 1);
    a.b(LDA_ZP, from).i(CLC).b(ADC_ZP, out).b(STA_ZP, from);
    a.b(LDA_ZP, from + 1).b(ADC_ZP, out + 1).b(STA_ZP, from + 1);
    a.i(TXA).b(AND_IMM, 0x3F).i(TAX).i(INX).i(INX).i(INX);
    // The copy, a byte at a time from its start (so an overlapping one repeats).
    a.label(copy_from).b(LDY_IMM, 0);
    a.label(byte).b(LDA_IZY, from).b(STA_IZY, out).i(INY).i(DEX).br(BNE, byte);
    a.to(JMP, advance);

    a.label(done).i(RTS);
    a
}

#[cfg(test)]
mod tests {
    use super::*;
    use mos_asm::link::{self, Chunk, DataPlacement, Owner};
    use mos6502::cpu::CPU;
    use mos6502::instruction::Nmos6502;
    use mos6502::memory::{Bus, Memory};

    const DECODER: u16 = 0x1000;
    const CALLER: u16 = 0x0E00;
    const STREAM: u16 = 0x2000;
    const OUT: u8 = 0xF0;
    const FROM: u8 = 0xF2;
    const DONE: u16 = 0x0E80;

    /// Packs `data` to run from `start`, decodes its stream with the 6502 decoder fed by
    /// [`crate::unpack_dense::memory_get`] (self-modifying, keeping X and Y as the interface
    /// asks), and returns the output and how many bytes were asked for.
    fn decode(data: &[u8], start: u16) -> (Vec<u8>, usize) {
        let packed = bac_pack::pack_prg(data, start, 0xFF00, bac_pack::Format::Bytes).expect("packs");
        let stream = &packed.file[2..packed.file.len() - 6];
        let end = start + data.len() as u16;
        let mut loc = Locals::default();
        let get = loc.fresh();
        let mut a = emit(&mut loc, get, OUT, FROM, Sym::BssLen);
        a.items.extend(crate::unpack_dense::memory_get(get).items);
        let chunks = [Chunk { owner: Owner::Runtime("pull_unpack".into()), items: a.items }];
        let layout = link::layout(&chunks, DECODER).unwrap();
        let get_at = layout.labels[&get];
        let dp = DataPlacement { data_addr: 0, data_base: 0, bss_addr: 0, bss_base: 0, bss_len: end, bank1_end: 0 };
        let code = link::encode(&chunks, DECODER, layout.labels, &layout.long, &dp).unwrap().code;

        let mut mem = Memory::new();
        mem.set_bytes(DECODER, &code);
        mem.set_bytes(STREAM, stream);
        mem.set_bytes(get_at + 1, &STREAM.to_le_bytes());
        // caller: the output pointer, JSR decoder, then a jump to itself at DONE.
        let [slo, shi] = start.to_le_bytes();
        let [dlo, dhi] = DECODER.to_le_bytes();
        mem.set_bytes(CALLER, &[0xA9, slo, 0x85, OUT, 0xA9, shi, 0x85, OUT + 1, 0x20, dlo, dhi, 0x4C]);
        let [jlo, jhi] = DONE.to_le_bytes();
        mem.set_bytes(CALLER + 12, &[jlo, jhi]);
        mem.set_bytes(DONE, &[0x4C, jlo, jhi]);
        let mut cpu = CPU::new(mem, Nmos6502);
        cpu.registers.program_counter = CALLER;
        for _ in 0..20_000_000 {
            if cpu.registers.program_counter == DONE {
                let m = &mut cpu.memory;
                let out = (0..data.len()).map(|i| m.get_byte(start + i as u16)).collect();
                let read = usize::from(u16::from_le_bytes([m.get_byte(get_at + 1), m.get_byte(get_at + 2)]) - STREAM);
                assert_eq!(u16::from_le_bytes([m.get_byte(OUT.into()), m.get_byte((OUT + 1).into())]), end);
                return (out, read);
            }
            cpu.single_step();
        }
        panic!("the decoder did not return");
    }

    fn check(data: &[u8], start: u16) {
        let packed = bac_pack::pack_prg(data, start, 0xFF00, bac_pack::Format::Bytes).unwrap();
        let (_, want) = bac_pack::unpack_prg(&packed.file, bac_pack::Format::Bytes).unwrap();
        let (got, read) = decode(data, start);
        assert_eq!(got, want, "output of {} bytes", data.len());
        assert_eq!(read, packed.file.len() - 8, "it reads the stream and no more");
    }

    #[test]
    fn the_pull_decoder_gives_what_bac_pack_unpacks() {
        // Literals only, runs (copies of distance 1), near and far copies, and a mix.
        let mut noise = Vec::new();
        let mut x = 0x1234_5678u32;
        for _ in 0..3000 {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            noise.push(x as u8);
        }
        check(&noise[..200], 0x4000);
        check(&[0xAA; 1000], 0x4000);
        let mut far = noise[..1500].to_vec();
        far.extend_from_slice(&noise[..1500]);
        check(&far, 0x5000);
        let text: Vec<u8> = b"THE BANKER DRAWS A THIRD CARD; THE PLAYER STANDS ON SIX OR SEVEN. "
            .iter()
            .cycle()
            .take(4000)
            .zip(noise.iter().cycle())
            .map(|(&c, &n)| if n < 16 { n } else { c })
            .collect();
        check(&text, 0x4000);
        check(&[7], 0x4000);
    }
}
