//! Dead loads of A: once [`crate::mos_rewrites::dead_stores`] has removed a store, the load that fed it
//! may be left with nothing reading A (`movw r25:r24, r23:r22` overwritten before use was
//! `LDA r22; STA r24; LDA r23; STA r25` and is `LDA r22; LDA r23`). A load goes when the
//! next instruction to run loads A again, with nothing between that reads A or N and Z.
//!
//! Assumes: the chunks of [`crate::lower::codegen`], in the order they are placed, so that code
//! at the end of a chunk falls into the next one; runtime routines are left alone.
//! Guarantees: a load goes only when it reads nothing with a side effect (zero page, an
//! immediate, or a data symbol, never an address that may be I/O or a pointer that may
//! reach it) and, following the code from it, every instruction up to the next load into
//! A is one that reads neither A nor N and Z nor changes where control goes (labels, the
//! carry and V, X and Y loads and steps); that load overwrites A, N and Z on every path,
//! and the carry and V it leaves as the removed load did.

use mos_asm::asm::{Arg, Item, op::*};
use mos_asm::link::{Chunk, Owner};

/// Removes the dead loads of A from the translated instructions' chunks. Returns the bytes
/// saved.
pub fn run(chunks: &mut [Chunk]) -> usize {
    let mut saved = 0;
    for c in 0..chunks.len() {
        if !matches!(chunks[c].owner, Owner::Insn(_)) {
            continue;
        }
        let mut k = 0;
        while k < chunks[c].items.len() {
            if removable(&chunks[c].items[k]) && overwritten(chunks, c, k + 1) {
                chunks[c].items.remove(k);
                saved += 2;
            } else {
                k += 1;
            }
        }
    }
    saved
}

/// A load into A without side effects, two bytes long.
fn removable(item: &Item) -> bool {
    matches!(item, Item::Ins(LDA_IMM | LDA_ZP, Arg::Byte(_)))
}

/// Whether the code from item `k` of chunk `c` on loads A before anything reads A, N or
/// Z or leaves the straight line.
fn overwritten(chunks: &[Chunk], mut c: usize, mut k: usize) -> bool {
    loop {
        let Some(chunk) = chunks.get(c) else { return false };
        if !matches!(chunk.owner, Owner::Insn(_)) {
            return false;
        }
        for item in &chunk.items[k..] {
            match item {
                Item::Ins(LDA_IMM | LDA_ZP | LDA_ABS | LDA_IZY | LDA_ZPX | LDA_ABX | LDA_ABY | TXA | TYA, _) => {
                    return true;
                }
                Item::Ins(CLC | SEC | CLV | LDX_IMM | LDX_ZP | LDY_IMM | LDY_ZP | INX | INY | DEX | DEY, _)
                | Item::Label(_) => {}
                _ => return false,
            }
        }
        c += 1;
        k = 0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use mos_asm::asm::Label;

    fn chunk(i: usize, items: Vec<Item>) -> Chunk {
        let mut all = vec![Item::Label(Label(i as u32))];
        all.extend(items);
        Chunk { owner: Owner::Insn(i), items: all }
    }
    fn lda(z: u8) -> Item {
        Item::Ins(LDA_ZP, Arg::Byte(z))
    }

    #[test]
    fn a_load_that_the_next_load_overwrites_goes_also_across_chunks() {
        let mut chunks = vec![chunk(0, vec![lda(0x26), lda(0x27)]), chunk(1, vec![Item::Ins(LDA_IMM, Arg::Byte(1))])];
        assert_eq!(run(&mut chunks), 4);
        assert_eq!(chunks[0].items, vec![Item::Label(Label(0))]);
        assert_eq!(chunks[1].items.len(), 2, "the last load stays: nothing after it is known");
    }

    #[test]
    fn a_load_whose_value_or_flags_are_read_stays() {
        let sta = Item::Ins(STA_ZP, Arg::Byte(0x28));
        let beq = Item::Branch(BEQ, Label(9));
        let tax = Item::Ins(TAX, Arg::None);
        let jsr = Item::Ins(JSR, Arg::Word(0x1c8a));
        for read in [sta, beq, tax, jsr] {
            let mut chunks = vec![chunk(0, vec![lda(0x26), read.clone(), lda(0x27)])];
            assert_eq!(run(&mut chunks), 0, "{read:?}");
        }
        // A load with a side effect stays even when overwritten.
        let io = Item::Ins(LDA_ABS, Arg::Word(0xdc0d));
        let mut chunks = vec![chunk(0, vec![io, lda(0x27)])];
        assert_eq!(run(&mut chunks), 0);
        // The code after the last chunk is not known.
        let mut chunks = vec![chunk(0, vec![lda(0x26)])];
        assert_eq!(run(&mut chunks), 0);
    }

    #[test]
    fn carry_and_index_steps_between_do_not_read_a() {
        let mut chunks =
            vec![chunk(0, vec![lda(0x26), Item::Ins(CLC, Arg::None), Item::Ins(LDY_IMM, Arg::Byte(0)), lda(0x27)])];
        assert_eq!(run(&mut chunks), 2);
    }
}
