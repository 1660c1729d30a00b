//! What A holds where code joins: [`crate::mos_rewrites::peephole`] forgets everything at
//! the start of an AVR instruction's code that can be jumped to; this pass works out what A
//! and the zero-page bytes hold there on every way in, and removes the loads that this
//! makes redundant (a load of X or Y with what A holds becomes a transfer). The case it is
//! for is a chain of compares on one register (`cpi r17, 1; breq A; cpi r17, 4; breq B;
//! ...`, a `match`): each compare after a branch target loaded the register again,
//! although A holds it on every way there.
//!
//! Assumes: the chunks as [`crate::lower::codegen`] makes them, each starting with its AVR
//! instruction's label, after [`crate::mos_rewrites::peephole`]; N and Z are never read at
//! the start of an AVR instruction's code; fixed-offset branches go forward, or backward
//! within their chunk (a loop inside one instruction's code, where [`AValue`] tracks
//! nothing). `entries` marks the AVR instructions entered other than by the program's own
//! jumps and branches (function starts, call targets, code addresses taken).
//! Guarantees: the state at a chunk's start is the meet of the states on every way in:
//! falling in from the chunk before (also when a skip lands at that chunk's end, with the
//! state at the skip), and each `Bxx label` and `JMP label` to it in translated code. A
//! label reached in any other way (a call, an address taken, an entry, from a runtime
//! routine or an interpreted function) starts with nothing known, and so does the code
//! after a runtime routine; runtime routines are never changed. The states are computed to
//! a fixed point before anything is removed, and a removed load is one that changes no
//! state: the result is what [`crate::mos_rewrites::peephole`]'s removals of loads would
//! give on straight-line code.

use crate::mos_rewrites::values::{AValue, is_branch};
use mos_asm::asm::{Arg, Item, Label, Part, Sym, op::*};
use mos_asm::link::{Chunk, Owner, size};
use std::collections::HashMap;

/// Removes the loads of what A already holds at the joins of `chunks`, and makes a load of
/// X or Y with it a `TAX` or `TAY`; `entries` as in the module doc. Returns the bytes
/// saved. A store of what its byte already holds stays: the byte holds it by a store on
/// each way in, which [`crate::mos_rewrites::dead_stores`] may find dead (its record of
/// lost stores follows the fall-through alone and stops at joins).
pub fn run(chunks: &mut [Chunk], entries: &[bool]) -> usize {
    let ways = Ways::of(chunks, entries);
    let states = fixed_point(chunks, &ways);
    let mut saved = 0;
    for (c, chunk) in chunks.iter_mut().enumerate() {
        if matches!(chunk.owner, Owner::Runtime(_)) {
            continue;
        }
        let mut a = states[c].unwrap_or_default();
        a.enter_chunk(&chunk.items, false, false);
        let mut k = 0;
        while k < chunk.items.len() {
            let load = matches!(chunk.items[k], Item::Ins(LDA_IMM | LDA_ZP, _));
            if load && a.redundant(&chunk.items[k]) && crate::mos_rewrites::peephole::nz_dead(&chunk.items[k + 1..]) {
                saved += usize::from(size(&chunk.items[k], false));
                chunk.items.remove(k);
                continue;
            }
            if let Some(transfer) = a.transfer_for(&chunk.items[k]) {
                chunk.items[k] = Item::Ins(transfer, Arg::None);
                saved += 1;
            } else if let Some(immediate) = a.immediate_for(&chunk.items[k]) {
                chunk.items[k] = immediate;
            }
            a.step(&chunk.items[k]);
            k += 1;
        }
    }
    saved
}

/// How each chunk can be entered.
struct Ways {
    /// The chunk each AVR label starts.
    chunk_of: HashMap<Label, usize>,
    /// Chunks entered in some way the pass does not follow: they start knowing nothing.
    open: Vec<bool>,
}

impl Ways {
    fn of(chunks: &[Chunk], entries: &[bool]) -> Ways {
        let mut chunk_of = HashMap::new();
        let mut open = vec![false; chunks.len()];
        for (c, chunk) in chunks.iter().enumerate() {
            match (&chunk.owner, chunk.items.first()) {
                (Owner::Insn(i), Some(Item::Label(l))) if l.0 as usize == *i => {
                    chunk_of.insert(*l, c);
                    open[c] = entries.get(*i).copied().unwrap_or(true);
                }
                _ => open[c] = true,
            }
            // What a runtime routine falls into is not followed either.
            if c > 0 && matches!(chunks[c - 1].owner, Owner::Runtime(_)) {
                open[c] = true;
            }
        }
        open[0] = true;
        // A label named other than as a branch's or a jump's target in translated code (a
        // call, an address taken, an interpreted function's stub, anything in a runtime
        // routine, whose states the pass does not follow) may be entered from anywhere.
        for (chunk, item) in chunks.iter().flat_map(|c| c.items.iter().map(move |it| (c, it))) {
            let runtime = matches!(chunk.owner, Owner::Runtime(_));
            let named = match (jump_target(item), item) {
                (Some(l), _) => runtime.then_some(l),
                (None, Item::Ins(_, Arg::Sym(Sym::Code(l), _, _))) => Some(l),
                _ => None,
            };
            if let Some(c) = named.and_then(|l| chunk_of.get(l)) {
                open[*c] = true;
            }
        }
        Ways { chunk_of, open }
    }
}

/// The state at each chunk's start (`None`: no way in was seen), to a fixed point.
fn fixed_point(chunks: &[Chunk], ways: &Ways) -> Vec<Option<AValue>> {
    let n = chunks.len();
    let mut states: Vec<Option<AValue>> = (0..n).map(|c| ways.open[c].then(AValue::default)).collect();
    let join = |states: &mut Vec<Option<AValue>>, c: usize, s: &AValue| -> bool {
        let new = match &states[c] {
            Some(old) => old.meet(s),
            None => *s,
        };
        let changed = !states[c].is_some_and(|old| old.same_facts(&new));
        states[c] = Some(new);
        changed
    };
    let mut changed = true;
    while changed {
        changed = false;
        for c in 0..n {
            if matches!(chunks[c].owner, Owner::Runtime(_)) {
                continue;
            }
            let Some(mut a) = states[c] else { continue };
            let items = &chunks[c].items;
            a.enter_chunk(items, false, false);
            let end: usize = items.iter().map(|it| usize::from(size(it, false))).sum();
            let mut at = 0;
            // The state with which control leaves at the chunk's end, if it can.
            let mut leaves: Option<AValue> = None;
            let mut leave = |s: AValue| leaves = Some(leaves.map_or(s, |l: AValue| l.meet(&s)));
            for item in items {
                // The state where the branch or jump leaves (a `JMP` forgets what it knew
                // as it steps, being no instruction that keeps A).
                if let Some(&t) = jump_target(item).and_then(|l| ways.chunk_of.get(l)) {
                    changed |= join(&mut states, t, &a.at_target());
                }
                at += usize::from(size(item, false));
                // A skip to the chunk's end (`BNE +3` over a final `JMP`, a far branch)
                // enters the next chunk with the state the branch had; one past the end,
                // into the next chunk's middle, knows nothing there.
                if let Item::Ins(o, Arg::Byte(b)) = item
                    && is_branch(*o)
                    && *b < 0x80
                    && at + usize::from(*b) >= end
                {
                    leave(if at + usize::from(*b) == end { a.at_target() } else { AValue::default() });
                }
                a.step(item);
            }
            if !matches!(items.last(), Some(Item::Ins(JMP | JMP_IND | RTS | RTI, _))) {
                leave(a.at_target());
            }
            if c + 1 < n
                && let Some(s) = leaves
            {
                changed |= join(&mut states, c + 1, &s);
            }
        }
    }
    states
}

/// The label a branch or a `JMP` goes to: the ways in that the pass follows.
fn jump_target(item: &Item) -> Option<&Label> {
    match item {
        Item::Branch(_, l) | Item::Ins(JMP, Arg::Sym(Sym::Code(l), Part::Word, 0)) => Some(l),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mos_rewrites::insn_chunk as chunk;

    fn lda(z: u8) -> Item {
        Item::Ins(LDA_ZP, Arg::Byte(z))
    }
    fn cmp(k: u8) -> Item {
        Item::Ins(CMP_IMM, Arg::Byte(k))
    }
    fn beq(l: u32) -> Item {
        Item::Branch(BEQ, Label(l))
    }
    fn jmp(l: u32) -> Item {
        Item::Ins(JMP, Arg::Sym(Sym::Code(Label(l)), Part::Word, 0))
    }
    fn rts() -> Item {
        Item::Ins(RTS, Arg::None)
    }

    /// Runs the pass on `chunks` with `entries` and gives each chunk's items after it.
    fn after(mut chunks: Vec<Chunk>, entries: &[bool]) -> Vec<Vec<Item>> {
        run(&mut chunks, entries);
        chunks.into_iter().map(|c| c.items).collect()
    }

    /// A `match` on r17 (byte $21): every compare loads it, and at the join (reached by a
    /// branch and by falling in) A holds it on both ways: the load goes.
    #[test]
    fn a_load_at_a_join_goes_when_every_way_in_holds_it() {
        let chunks = || {
            vec![
                chunk(0, vec![lda(0x21), cmp(1), beq(2)]),
                chunk(1, vec![lda(0x21), cmp(4), beq(3)]),
                chunk(2, vec![lda(0x21), cmp(7), beq(3), rts()]),
                chunk(3, vec![lda(0x21), Item::Ins(ADC_IMM, Arg::Byte(1)), rts()]),
            ]
        };
        let out = after(chunks(), &[true, false, false, false]);
        assert_eq!(out[1], vec![Item::Label(Label(1)), cmp(4), beq(3)]);
        assert_eq!(out[2], vec![Item::Label(Label(2)), cmp(7), beq(3), rts()]);
        assert_eq!(out[3], vec![Item::Label(Label(3)), Item::Ins(ADC_IMM, Arg::Byte(1)), rts()]);
        // An entry (a function start, a call target) keeps its load, and so does a label
        // named other than by a branch or a jump (here an address taken).
        let out = after(chunks(), &[true, false, true, false]);
        assert_eq!(out[2][1], lda(0x21));
        let mut taken = chunks();
        taken[0].items.insert(1, Item::Ins(LDX_IMM, Arg::Sym(Sym::Code(Label(2)), Part::Lo, 0)));
        assert_eq!(after(taken, &[true, false, false, false])[2][1], lda(0x21));
    }

    /// A way in where A holds something else keeps the load: a jump from elsewhere, and a
    /// loop's way back.
    #[test]
    fn a_load_stays_when_one_way_in_does_not_hold_it() {
        let chunks = vec![
            chunk(0, vec![lda(0x21), cmp(1), beq(2)]),
            chunk(1, vec![lda(0x22), jmp(2)]),
            chunk(2, vec![lda(0x21), cmp(7), beq(2), rts()]),
        ];
        assert_eq!(after(chunks, &[true, false, false])[2][1], lda(0x21));
        let chunks = vec![
            chunk(0, vec![lda(0x21), cmp(1)]),
            chunk(
                1,
                vec![
                    lda(0x21),
                    Item::Ins(ADC_IMM, Arg::Byte(1)),
                    Item::Ins(STA_ZP, Arg::Byte(0x21)),
                    lda(0x22),
                    beq(1),
                ],
            ),
            chunk(2, vec![rts()]),
        ];
        assert_eq!(after(chunks.clone(), &[true, false, false])[1][1], lda(0x21), "the way back holds r18");
        // Without the load of r18, A is r17 (r17 + 1 stored back) on the way back too.
        let mut back = chunks;
        back[1].items.remove(4);
        assert_eq!(after(back, &[true, false, false])[1][1], Item::Ins(ADC_IMM, Arg::Byte(1)));
    }

    /// A skip that lands at the end of a chunk ending in a jump (`BNE +3; JMP far`) is a
    /// way into the next chunk, with what it knew at the branch: here A holds r18 on it and
    /// r17 on the `BEQ`, so the load stays.
    #[test]
    fn a_skip_past_a_jump_is_a_way_in() {
        let chunks = vec![
            chunk(0, vec![lda(0x21), cmp(1), beq(2)]),
            chunk(1, vec![lda(0x22), cmp(4), Item::Ins(BNE, Arg::Byte(3)), jmp(3)]),
            chunk(2, vec![lda(0x21), cmp(7), rts()]),
            chunk(3, vec![rts()]),
        ];
        assert_eq!(after(chunks, &[true, false, false, false])[2][1], lda(0x21));
    }

    /// A far branch of a compare chain (`CMP #1; BNE +3; JMP far`): the next compare's load
    /// of the same byte goes, as the skip is the only way in. A skip that lands in the next
    /// chunk's middle, and so a byte past its start, enters it knowing nothing.
    #[test]
    fn a_skip_over_a_final_jump_carries_its_state() {
        let chunks = |skip: u8| {
            vec![
                chunk(0, vec![lda(0x21), cmp(1), Item::Ins(BNE, Arg::Byte(skip)), jmp(2)]),
                chunk(1, vec![lda(0x21), cmp(4), rts()]),
                chunk(2, vec![rts()]),
            ]
        };
        assert_eq!(after(chunks(3), &[true, false, false])[1], vec![Item::Label(Label(1)), cmp(4), rts()]);
        assert_eq!(after(chunks(5), &[true, false, false])[1][1], lda(0x21));
    }
}
