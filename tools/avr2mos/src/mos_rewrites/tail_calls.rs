//! Tail calls at the 6502 level: a `JSR` whose next instruction to run is an `RTS` becomes
//! a `JMP`, and the `RTS` goes. The callee's own `RTS` then returns straight to the
//! caller's caller: a byte and 6 cycles less at each place. The commonest place is an
//! epilogue whose last step is a runtime call (`pop r17; pop r16; ...; ret` is
//! `LDX #r17; LDA #n; JSR rt_poprun; RTS` in a program planned without static saves).
//!
//! Assumes the chunks of [`crate::lower::codegen`], one per AVR instruction and opening
//! with its label, in the order they are placed, and `joins`: the instructions whose code
//! can be entered other than by falling in. Guarantees:
//! - the `RTS` goes only where nothing else reaches it: no label lies between the `JSR`
//!   and it but the own labels of chunks that nothing jumps to (chunks left empty by
//!   fusion), so the only way to it is through the `JSR`;
//! - the callee runs as before, with the same A, X, Y, flags and memory, and with the
//!   6502 stack two bytes higher: the caller's return address is where its own return
//!   address was. Nothing a translated program calls reads the return address of a call
//!   that an `RTS` follows: the one routine that reads its return address, the
//!   interpreter's entry, is called from its stub with the copy's address as data after
//!   the `JSR`, never an `RTS`;
//! - runtime routines and calls to addresses not known at translation (`JMP (ind)`) are
//!   left alone.

use mos_asm::asm::{Arg, Item, Part, op};
use mos_asm::link::{Chunk, Owner};

/// Turns each `JSR` that an `RTS` follows into a `JMP` and removes the `RTS`; `joins` is
/// by AVR instruction. Returns the bytes saved.
pub fn run(chunks: &mut [Chunk], joins: &[bool]) -> usize {
    let mut saved = 0;
    // The last instruction on the way here, `(chunk, item)`, while only falling in.
    let mut last: Option<(usize, usize)> = None;
    for ci in 0..chunks.len() {
        let Owner::Insn(i) = chunks[ci].owner else {
            last = None;
            continue;
        };
        if joins[i] {
            last = None;
        }
        let mut ii = 0;
        while ii < chunks[ci].items.len() {
            match &chunks[ci].items[ii] {
                Item::Label(l) if ii == 0 && l.0 as usize == i => {}
                Item::Ins(op::RTS, Arg::None) if last.is_some_and(|(c, k)| is_call(&chunks[c].items[k])) => {
                    let (c, k) = last.take().expect("checked");
                    let Item::Ins(_, arg) = chunks[c].items[k] else { unreachable!("a call") };
                    chunks[c].items[k] = Item::Ins(op::JMP, arg);
                    chunks[ci].items.remove(ii);
                    saved += 1;
                    continue;
                }
                Item::Ins(..) => last = Some((ci, ii)),
                _ => last = None,
            }
            ii += 1;
        }
    }
    saved
}

/// A `JSR` to an absolute address, known at translation.
fn is_call(item: &Item) -> bool {
    matches!(item, Item::Ins(op::JSR, Arg::Sym(_, Part::Word, _) | Arg::Word(_)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use mos_asm::asm::Label;
    use mos_asm::asm::op::*;

    fn chunk(i: u32, code: &[Item]) -> Chunk {
        let mut items = vec![Item::Label(Label(i))];
        items.extend(code.iter().cloned());
        Chunk { owner: Owner::Insn(i as usize), items }
    }

    fn call() -> Item {
        Item::Ins(JSR, Arg::Word(0x1234))
    }

    fn rts() -> Item {
        Item::Ins(RTS, Arg::None)
    }

    /// A call, an empty chunk (an instruction fused into the one before) and a return:
    /// the call becomes a jump and the return goes.
    #[test]
    fn a_call_before_a_return_becomes_a_jump() {
        let mut chunks = vec![chunk(0, &[Item::Ins(LDA_IMM, Arg::Byte(2)), call()]), chunk(1, &[]), chunk(2, &[rts()])];
        assert_eq!(run(&mut chunks, &[false; 3]), 1);
        assert_eq!(chunks[0].items[2], Item::Ins(JMP, Arg::Word(0x1234)));
        assert_eq!(chunks[2].items, vec![Item::Label(Label(2))]);
    }

    /// A return that something else jumps to, one after a local label (a branch inside the
    /// chunk reaches it), and one after data stay; so does the call.
    #[test]
    fn a_return_reached_otherwise_stays() {
        let cases: [(Vec<Chunk>, [bool; 2]); 3] = [
            (vec![chunk(0, &[call()]), chunk(1, &[rts()])], [false, true]),
            (vec![chunk(0, &[call()]), chunk(1, &[Item::Label(Label(0x4000_0001)), rts()])], [false; 2]),
            (vec![chunk(0, &[call(), Item::Bytes(vec![1, 2])]), chunk(1, &[rts()])], [false; 2]),
        ];
        for (mut chunks, joins) in cases {
            let before = chunks.clone();
            assert_eq!(run(&mut chunks, &joins), 0);
            assert_eq!(
                chunks.iter().map(|c| &c.items).collect::<Vec<_>>(),
                before.iter().map(|c| &c.items).collect::<Vec<_>>()
            );
        }
    }
}
