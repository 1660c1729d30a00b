//! Long branches that share a jump: a 6502 branch reaches 127 bytes forward and 128 back,
//! so the layout ([`mos_asm::link::layout`]) writes one to a farther target as the opposite
//! branch over a `JMP` (`BNE +3; JMP t`, 5 bytes). When another branch to the same
//! target has that long form within reach, this one branches to its `JMP` instead (2
//! bytes): the benchmark's compare chains branch to the same far exits from several
//! places in a row.
//!
//! Assumes the chunks as [`crate::lower::codegen`] leaves them after the outlining, to be placed
//! at [`crate::mmap::CODE_START`], and [`mos_asm::link::layout`]'s rule that every branch
//! starts long and shortens only while it stays in reach. Guarantees:
//! - a branch that shares a jump goes where it went: to a `JMP` to its own target, which
//!   changes no register, flag or memory (3 more cycles when it is taken, one fewer when
//!   it is not, the same bytes either way as the long form had);
//! - the branch that lends its jump is written out in its long form, as bytes the layout
//!   cannot shorten, so the jump stays; its new label is inside its chunk, never at a
//!   chunk's start (where [`mod@crate::translate`]'s map from 6502 to AVR addresses points:
//!   jumping there would look like running that AVR instruction);
//! - the branch that shares is still a branch the layout places: it is short when the jump
//!   is in reach, as it was in the layout this pass saw (code only shrinks after it), and
//!   long otherwise, so it is never wrong, at worst no shorter;
//! - a runtime routine's branch shares only a jump of its own routine (the interpreter
//!   runs with bank 1 mapped at times, and must not jump out of common RAM);
//! - the choice depends only on the code, so a build is deterministic.

use crate::mmap::CODE_START;
use mos_asm::asm::{self, Arg, Item, Label, Part, Sym, op};
use mos_asm::link::{self, Chunk, Owner};

/// Labels of the lent jumps: `LENT_BASE + n` (after the outlined subroutines' at
/// `0xE000_0000`).
const LENT_BASE: u32 = 0xE800_0000;

/// A branch that stays long in the layout.
struct Long {
    chunk: usize,
    item: usize,
    /// The address of its `JMP`, two bytes after the branch.
    jump_at: u32,
    target: Label,
    /// Whether it is a translated instruction's (else a runtime routine's).
    translated: bool,
}

/// Whether `b` may branch to `s`'s jump: both in translated code, or in the same chunk. A
/// runtime routine may run with bank 1 mapped (the interpreter, at times), where a jump
/// out of the common RAM it lies in would run bank 1's bytes.
fn may_borrow(b: &Long, s: &Long) -> bool {
    (b.translated && s.translated) || b.chunk == s.chunk
}

/// Points long branches at the `JMP` of another long branch to the same target in reach.
/// Returns how many now share one.
pub fn run(chunks: &mut [Chunk]) -> usize {
    let Ok(layout) = link::layout(chunks, CODE_START) else { return 0 };
    let mut longs = Vec::new();
    let mut addr = u32::from(CODE_START);
    for (ci, c) in chunks.iter().enumerate() {
        let translated = matches!(c.owner, Owner::Insn(_));
        for (ii, it) in c.items.iter().enumerate() {
            if let Item::Branch(_, target) = *it
                && layout.long[ci][ii]
            {
                longs.push(Long { chunk: ci, item: ii, jump_at: addr + 2, target, translated });
            }
            addr += u32::from(link::size(it, layout.long[ci][ii]));
        }
    }
    // Each long branch lends its jump or borrows one, never both. Each in turn borrows
    // from another in reach: one that already lends if there is one (so that one jump
    // serves many), else the earliest.
    let mut lent: Vec<Option<Label>> = (0..longs.len()).map(|_| None).collect();
    let mut borrows: Vec<Option<usize>> = vec![None; longs.len()];
    let mut next = 0;
    for b in 0..longs.len() {
        if lent[b].is_some() {
            continue;
        }
        let from = longs[b].jump_at; // the branch's own end, where its offset counts from
        let reach = |l: &Long| (-128..=127).contains(&(i64::from(l.jump_at) - i64::from(from)));
        let candidates = (0..longs.len())
            .filter(|&s| s != b && borrows[s].is_none() && longs[s].target == longs[b].target)
            .filter(|&s| reach(&longs[s]) && may_borrow(&longs[b], &longs[s]));
        let Some(s) = candidates.min_by_key(|&s| (lent[s].is_none(), s)) else { continue };
        if lent[s].is_none() {
            lent[s] = Some(Label(LENT_BASE + next));
            next += 1;
        }
        borrows[b] = Some(s);
    }
    for (b, s) in borrows.iter().enumerate() {
        if let (Some(s), &Item::Branch(o, _)) = (s, &chunks[longs[b].chunk].items[longs[b].item]) {
            let label = lent[*s].expect("a lender has a label");
            chunks[longs[b].chunk].items[longs[b].item] = Item::Branch(o, label);
        }
    }
    // The lenders last, from the end of each chunk, so that the indices above hold.
    let mut lenders: Vec<(usize, usize, Label)> =
        lent.iter().enumerate().filter_map(|(s, l)| l.map(|l| (longs[s].chunk, longs[s].item, l))).collect();
    lenders.sort_by_key(|&(ci, ii, _)| std::cmp::Reverse((ci, ii)));
    for (ci, ii, label) in lenders {
        let Item::Branch(o, target) = chunks[ci].items[ii].clone() else { unreachable!("a lender is a branch") };
        let long = [
            Item::Ins(asm::invert_branch(o), Arg::Byte(3)),
            Item::Label(label),
            Item::Ins(op::JMP, Arg::Sym(Sym::Code(target), Part::Word, 0)),
        ];
        chunks[ci].items.splice(ii..=ii, long);
    }
    borrows.iter().flatten().count()
}

#[cfg(test)]
mod tests {
    use super::*;
    use mos_asm::link::DataPlacement;

    /// Two branches to `far` (label 9), `gap` bytes between them, then 200 bytes and `far`.
    fn program(gap: usize) -> Vec<Chunk> {
        let chunk = |n: usize, mut items: Vec<Item>| {
            items.insert(0, Item::Label(Label(n as u32)));
            Chunk { owner: Owner::Insn(n), items }
        };
        vec![
            chunk(0, vec![Item::Branch(op::BNE, Label(9))]),
            chunk(1, vec![Item::Bytes(vec![0xEA; gap])]),
            chunk(2, vec![Item::Branch(op::BEQ, Label(9))]),
            chunk(3, vec![Item::Bytes(vec![0xEA; 200])]),
            chunk(9, vec![Item::Ins(op::RTS, Arg::None)]),
        ]
    }

    fn encode(chunks: &[Chunk]) -> Vec<u8> {
        let layout = link::layout(chunks, CODE_START).expect("a layout");
        let dp = DataPlacement { data_addr: 0, data_base: 0, bss_addr: 0, bss_base: 0, bss_len: 0, bank1_end: 0 };
        link::encode(chunks, CODE_START, layout.labels, &layout.long, &dp).expect("the code").code
    }

    #[test]
    fn a_long_branch_borrows_the_jump_of_another_to_the_same_target() {
        let mut chunks = program(4);
        let before = encode(&chunks);
        assert_eq!(run(&mut chunks), 1);
        let after = encode(&chunks);
        assert_eq!(after.len(), before.len() - 3);
        let far = (CODE_START + 2 + 4 + 5 + 200).to_le_bytes();
        // BNE to the second's JMP (its own end + 4 + 2), then 4 bytes, then the second's
        // long form, which is what it was.
        assert_eq!(after[..2], [op::BNE, 6]);
        assert_eq!(after[6..11], [asm::invert_branch(op::BEQ), 3, op::JMP, far[0], far[1]]);
        assert_eq!(before.len(), 5 + 4 + 5 + 200 + 1, "both long before");
        assert_eq!(after[11..], [[0xEA; 200].as_slice(), &[op::RTS]].concat(), "the rest the same");
        // The lent jump's label is inside its chunk, after the branch over it.
        assert_eq!(chunks[2].items[2], Item::Label(Label(LENT_BASE)));
    }

    #[test]
    fn a_runtime_routine_borrows_only_from_itself() {
        let mut chunks = program(4);
        chunks[0].owner = Owner::Runtime("rt_interp".into());
        assert_eq!(run(&mut chunks), 0, "the routine may run with bank 1 mapped");
        let mut one = program(4);
        let second = one.remove(2);
        one[0].items.extend(second.items);
        one[0].owner = Owner::Runtime("rt_interp".into());
        assert_eq!(run(&mut one), 1, "both branches in the routine");
    }

    #[test]
    fn a_jump_out_of_reach_is_not_borrowed_nor_a_branch_in_reach_of_its_target() {
        let mut chunks = program(140);
        assert_eq!(run(&mut chunks), 0, "the two jumps are 145 bytes apart");
        assert!(chunks.iter().all(|c| !c.items.contains(&Item::Label(Label(LENT_BASE)))));
        let mut near = vec![Chunk {
            owner: Owner::Insn(0),
            items: vec![Item::Branch(op::BNE, Label(9)), Item::Branch(op::BEQ, Label(9)), Item::Label(Label(9))],
        }];
        assert_eq!(run(&mut near), 0, "short branches have no jump to share");
    }
}
