//! Outlining of code that is not hot: a run of 6502 instructions that appears several
//! times in code that runs a bounded number of times, or in the outer loops (not in a loop
//! inside a loop) of a function entered a bounded number of times ([`crate::analysis::cold::heat`]),
//! becomes one shared subroutine, and each
//! place it was becomes a `JSR` to it (3 bytes and 12 cycles for the run's bytes). Most of
//! a benchmark's set-up and of its outer loop's bookkeeping is copies of register pairs
//! and slot loads and stores through the same zero-page bytes, which repeat.
//!
//! Assumes the chunks of [`crate::lower::codegen`] after [`crate::mos_rewrites::peephole`]: one per AVR
//! instruction, opening with its label, local labels inside a chunk, and no code that reads
//! or writes a code address but `JSR`/`JMP`. Guarantees:
//! - only instructions that neither branch, jump, call, return nor touch the 6502 stack (no
//!   `PHA`/`PLA`/`PHP`/`PLP`/`TSX`/`TXS`, no operand in page 1) move, and no `SEI`/`CLI`:
//!   the subroutine does exactly what the run did, to A, X, Y, the flags and memory, and
//!   `JSR`/`RTS` change none of them; the only other difference is two more bytes of 6502
//!   stack while it runs;
//! - but a run may end with a `JSR` or `JMP` to an absolute address (its tail): then the
//!   subroutine ends with a `JMP` there and no `RTS`, and the place enters it as the tail
//!   did (`JSR` for a call, `JMP` for a jump). A callee then finds on the 6502 stack the
//!   address just after the place's `JSR`, where the code after its call now starts, and
//!   the stack is as deep as under the old call. Not a call with data after it in its
//!   chunk (the interpreter's entry reads its operand from its return address). Such a
//!   run costs 3 cycles a place (`JSR` and `JMP` for the `JSR`), not 12, and saves a byte
//!   more (no `RTS`), so in warm code it needs no `WARM_MIN_BYTES`;
//! - a run never contains a label, so nothing jumps into it; it lies within one chunk, or
//!   starts in one and takes every instruction of the chunks after it up to a chunk's
//!   end, and those chunks are of instructions nothing jumps to: a translated instruction
//!   either keeps the start of its code at its label or has no code left, so the map from
//!   6502 to AVR addresses still holds where code remains;
//! - a run is outlined only where it saves bytes: each of its `n` places saves its size
//!   less 3, the subroutine costs its size plus 1 (its size with a tail), and the saving
//!   must be positive; a place in warm code counts only for a run of `WARM_MIN_BYTES` or
//!   more or one with a tail, so that the cycles it adds buy a fair number of bytes; hot
//!   code never moves;
//! - the choice is deterministic: the largest saving first, ties to the earliest place.

use std::collections::HashMap;

use crate::analysis::cold::Heat;
use mos_asm::asm::{Arg, Item, Label, Part, Sym, op};
use mos_asm::link::{Chunk, Owner};

/// Labels of the outlined subroutines: `OUTLINED_BASE + n`.
const OUTLINED_BASE: u32 = 0xE000_0000;

/// The name of the `n`th outlined subroutine's chunk (its owner, in the map and listing).
pub fn name(n: u32) -> String {
    format!("outlined_{n}")
}

/// Whether a chunk's owner is an outlined subroutine: its bytes are the program's code.
pub fn is_outlined(owner: &Owner) -> bool {
    matches!(owner, Owner::Runtime(n) if n.starts_with("outlined_"))
}

/// The longest run considered, in instructions.
const MAX_RUN: usize = 32;

/// The shortest run, in bytes, outlined where it runs in warm code ([`Heat::Warm`]): each
/// such place then saves at least 7 bytes for the 12 cycles its `JSR`/`RTS` add each time
/// it runs. The static model counts a flat loop of many rounds as warm (an interpreter's
/// dispatch, a checksum's loop over its bytes), where a pair's copy outlined (8 bytes)
/// doubles its cycles every round. Measured with `bac bench --translator-only`: 8 bytes
/// to 10 took the suite from 0.400 to 0.394 of cc65's cycles (vm 0.92 -> 0.88, crc32 0.44
/// -> 0.42, base64 0.52 -> 0.49) and from 0.992 to 0.996 of its bytes, the rules
/// benchmark from 6,149 to 6,127 cycles a coup and 6,861 to 6,890 bytes; 12 bytes took
/// 0.6% more of the suite's cycles off for 0.5% more of its bytes.
const WARM_MIN_BYTES: usize = 10;

/// Whether an item may move into a subroutine.
fn movable(item: &Item) -> bool {
    use op::*;
    let Item::Ins(o, arg) = item else { return false };
    let stack_page = match arg {
        Arg::Word(w) => (0x100..0x200).contains(w),
        _ => false,
    };
    let control = matches!(
        *o,
        JSR | JMP
            | JMP_IND
            | RTS
            | RTI
            | PHA
            | PLA
            | PHP
            | PLP
            | TSX
            | TXS
            | SEI
            | CLI
            | BPL
            | BMI
            | BVC
            | BVS
            | BCC
            | BCS
            | BNE
            | BEQ
    );
    !control && !stack_page && mos_asm::asm::info(*o).is_some()
}

/// Whether an item may end a run as its tail: a `JSR` or `JMP` to an absolute address,
/// whose subroutine then ends with a `JMP` there instead of the call and an `RTS` (the
/// callee returns straight to the place; see [`run`]). Not when data follows it in its
/// chunk (`rest`): a routine that reads bytes after its call (the interpreter's entry)
/// must keep its `JSR` where they are.
fn tail(item: &Item, rest: &[Item]) -> bool {
    matches!(item, Item::Ins(op::JSR | op::JMP, Arg::Sym(_, Part::Word, _) | Arg::Word(_)))
        && !rest.iter().any(|it| matches!(it, Item::Bytes(_)))
}

/// Whether a chunk holds a branch with a raw offset (`BCC +2` over the next instruction,
/// as the lowering writes short skips): the bytes it branches over or back across must
/// keep their size, so nothing of such a chunk moves.
fn has_raw_branch(items: &[Item]) -> bool {
    use op::*;
    items.iter().any(
        |it| matches!(it, Item::Ins(o, Arg::Byte(_)) if matches!(*o, BPL | BMI | BVC | BVS | BCC | BCS | BNE | BEQ)),
    )
}

/// An item's size in bytes.
fn size(item: &Item) -> usize {
    match item {
        Item::Ins(_, Arg::None) => 1,
        Item::Ins(_, Arg::Byte(_)) => 2,
        Item::Ins(_, Arg::Word(_)) | Item::Ins(_, Arg::Sym(_, Part::Word, _)) => 3,
        Item::Ins(_, Arg::Sym(..)) => 2,
        _ => 0,
    }
}

/// A stretch of movable instructions in code that is not hot, one after another as they
/// run: its items (cloned) and where each one is, `(chunk, item)`, with whether it ends
/// its chunk.
struct Stretch {
    items: Vec<Item>,
    at: Vec<(usize, usize, bool)>,
    /// Whether each item is in warm code ([`Heat::Warm`]).
    warm: Vec<bool>,
}

/// The stretches of `chunks` where runs may be taken from.
fn stretches(chunks: &[Chunk], heat: &[Heat], is_target: &[bool]) -> Vec<Stretch> {
    let mut out = Vec::new();
    let mut cur = Stretch { items: Vec::new(), at: Vec::new(), warm: Vec::new() };
    // The chunk the open stretch took whole, to its end (a chunk after it may go on it).
    let mut whole: Option<usize> = None;
    let mut flush = |cur: &mut Stretch| {
        if cur.items.len() >= 2 {
            out.push(std::mem::replace(cur, Stretch { items: Vec::new(), at: Vec::new(), warm: Vec::new() }));
        } else {
            cur.items.clear();
            cur.at.clear();
            cur.warm.clear();
        }
    };
    for (ci, c) in chunks.iter().enumerate() {
        let Owner::Insn(i) = c.owner else {
            flush(&mut cur);
            whole = None;
            continue;
        };
        // A stretch goes on into this chunk only if nothing jumps to it and the stretch
        // took the chunk before it to its end.
        let movable_heat = heat[i] != Heat::Hot;
        if !(movable_heat && !is_target[i] && whole.is_some_and(|w| w + 1 == ci)) {
            flush(&mut cur);
        }
        whole = None;
        if !movable_heat || has_raw_branch(&c.items) {
            flush(&mut cur);
            continue;
        }
        let n = c.items.len();
        let mut open = true;
        for (ii, it) in c.items.iter().enumerate() {
            match it {
                Item::Label(l) if ii == 0 && l.0 as usize == i => {}
                _ if movable(it) => {
                    cur.items.push(it.clone());
                    cur.at.push((ci, ii, ii + 1 == n));
                    cur.warm.push(heat[i] == Heat::Warm);
                    open = true;
                }
                // A tail ends the stretch: a run may end with it, never go on past it.
                _ if tail(it, &c.items[ii + 1..]) => {
                    cur.items.push(it.clone());
                    cur.at.push((ci, ii, ii + 1 == n));
                    cur.warm.push(heat[i] == Heat::Warm);
                    flush(&mut cur);
                    open = false;
                }
                _ => {
                    flush(&mut cur);
                    open = false;
                }
            }
        }
        if open {
            whole = Some(ci);
        }
    }
    flush(&mut cur);
    out
}

/// Outlines repeated runs of code that is not hot into subroutines appended to `chunks`;
/// `heat` and `is_target` are by AVR instruction.
pub fn run(chunks: &mut Vec<Chunk>, heat: &[Heat], is_target: &[bool]) {
    let mut next = 0u32;
    loop {
        let found = stretches(chunks, heat, is_target);
        let Some((run, places)) = best(&found) else { break };
        let label = Label(OUTLINED_BASE + next);
        // A run that ends with a call or jump is entered as that instruction was (a jump
        // stays a jump, a call a call) and leaves by a `JMP` to its target: a callee's
        // `RTS` returns to the place, just after the `JSR` that now stands for the run.
        let len = run.len();
        let (enter, body) = match run.split_last() {
            Some((Item::Ins(o @ (op::JSR | op::JMP), arg), body)) => {
                let mut body = body.to_vec();
                body.push(Item::Ins(op::JMP, *arg));
                (*o, body)
            }
            _ => {
                let mut body = run;
                body.push(Item::Ins(op::RTS, Arg::None));
                (op::JSR, body)
            }
        };
        // From the last place back, so the positions of earlier places stay valid.
        for &(s, start) in places.iter().rev() {
            let at = &found[s].at[start..start + len];
            let (first_chunk, first_item, _) = at[0];
            for &(ci, ii, _) in at.iter().rev() {
                if ci != first_chunk || ii != first_item {
                    remove_at(chunks, ci, ii);
                }
            }
            chunks[first_chunk].items[first_item] = Item::Ins(enter, Arg::Sym(Sym::Code(label), Part::Word, 0));
        }
        let mut items = vec![Item::Label(label)];
        items.extend(body);
        chunks.push(Chunk { owner: Owner::Runtime(name(next)), items });
        next += 1;
    }
}

/// Whether a run ends with a tail ([`tail`]): the stretches hold no other call or jump.
fn ends_with_tail(run: &[Item]) -> bool {
    matches!(run.last(), Some(Item::Ins(op::JSR | op::JMP, _)))
}

/// Removes item `ii` of chunk `ci` (the position a folded chunk's end marker names, one
/// past its items, removes nothing).
fn remove_at(chunks: &mut [Chunk], ci: usize, ii: usize) {
    if ii < chunks[ci].items.len() {
        chunks[ci].items.remove(ii);
    }
}

/// Where a run starts: its stretch and its first instruction there.
type Place = (usize, usize);

/// A run chosen for outlining: its instructions and its places, none overlapping another.
struct Choice<'a> {
    saving: i64,
    run: &'a [Item],
    places: Vec<Place>,
}

/// The run whose outlining saves the most bytes, with its places; `None` when no run
/// saves any.
fn best(found: &[Stretch]) -> Option<(Vec<Item>, Vec<Place>)> {
    let mut places: HashMap<&[Item], Vec<Place>> = HashMap::new();
    for (s, st) in found.iter().enumerate() {
        for start in 0..st.items.len() {
            let mut bytes = 0;
            let mut warm = false;
            for len in 1..=MAX_RUN.min(st.items.len() - start) {
                bytes += size(&st.items[start + len - 1]);
                warm |= st.warm[start + len - 1];
                let end = &st.at[start + len - 1];
                // Across chunks only up to a chunk's end.
                if st.at[start].0 != end.0 && !end.2 {
                    continue;
                }
                if len >= 2
                    && bytes > 3
                    && (!warm || bytes >= WARM_MIN_BYTES || ends_with_tail(&st.items[start..start + len]))
                {
                    places.entry(&st.items[start..start + len]).or_default().push((s, start));
                }
            }
        }
    }
    let mut choice: Option<Choice> = None;
    for (run, mut at) in places {
        if at.len() < 2 {
            continue;
        }
        // The places in order, each after the end of the one before in its stretch.
        at.sort_unstable();
        let mut kept: Vec<Place> = Vec::new();
        for p in at {
            if kept.last().is_none_or(|&(s, start)| s != p.0 || start + run.len() <= p.1) {
                kept.push(p);
            }
        }
        let bytes: usize = run.iter().map(size).sum();
        // The subroutine is the run and an `RTS`, or the run alone when its tail jumps.
        let own = if ends_with_tail(run) { bytes } else { bytes + 1 };
        let saving = kept.len() as i64 * (bytes as i64 - 3) - own as i64;
        if saving <= 0 {
            continue;
        }
        // The largest saving; of equal ones the earliest first place, then the longest run.
        let key = |c: &Choice| (c.saving, std::cmp::Reverse(c.places[0]), c.run.len());
        let candidate = Choice { saving, run, places: kept };
        if choice.as_ref().is_none_or(|c| key(&candidate) > key(c)) {
            choice = Some(candidate);
        }
    }
    choice.map(|c| (c.run.to_vec(), c.places))
}

#[cfg(test)]
mod tests {
    use super::*;
    use mos_asm::asm::op::*;

    fn chunk(i: u32, code: &[(u8, u8)]) -> Chunk {
        let mut items = vec![Item::Label(Label(i))];
        items.extend(code.iter().map(|&(o, b)| Item::Ins(o, Arg::Byte(b))));
        Chunk { owner: Owner::Insn(i as usize), items }
    }

    /// A copy of two register bytes, the run the three chunks share.
    const COPY: [(u8, u8); 4] = [(LDA_ZP, 2), (STA_ZP, 4), (LDA_ZP, 3), (STA_ZP, 5)];

    /// Ten bytes: the copy and one more load.
    const LONG: [(u8, u8); 5] = [(LDA_ZP, 2), (STA_ZP, 4), (LDA_ZP, 3), (STA_ZP, 5), (LDA_ZP, 6)];

    /// In warm code a run must be long enough to pay for the cycles of its `JSR`: 6 bytes
    /// of a copy at four warm places stay, and so does the whole copy (8 bytes) at two; 10
    /// bytes at two are outlined, and the short run is outlined where it is cold.
    #[test]
    fn warm_places_take_only_long_runs() {
        let short = &COPY[..3];
        for (code, heat, every, outlined) in [
            (short, Heat::Warm, true, false),
            (&COPY[..], Heat::Warm, false, false),
            (&LONG[..], Heat::Warm, false, true),
            (short, Heat::Cold, true, true),
            (&COPY[..], Heat::Hot, true, false),
        ] {
            let mut chunks: Vec<Chunk> =
                (0..4).map(|i| chunk(i, if every || i % 2 == 0 { code } else { &[] })).collect();
            run(&mut chunks, &[heat; 4], &[true; 4]);
            assert_eq!(chunks.len() == 5, outlined, "{heat:?}, {} bytes", code.len() * 2);
        }
    }

    /// A chunk of the copy and then `tail`, a call or jump to `to`.
    fn with_tail(i: u32, tail: u8, to: u16) -> Chunk {
        let mut c = chunk(i, &COPY);
        c.items.push(Item::Ins(tail, Arg::Word(to)));
        c
    }

    /// A run that ends with a call or a jump takes it along: its subroutine ends with a
    /// `JMP` to the same place and no `RTS` (the callee returns to the place), and each
    /// place enters it the way it left before, by `JSR` after a call, by `JMP` after a
    /// jump.
    #[test]
    fn a_run_takes_its_closing_call_or_jump_along() {
        for (tail, enter) in [(JSR, JSR), (JMP, JMP)] {
            let mut chunks: Vec<Chunk> = (0..3).map(|i| with_tail(i, tail, 0x1234)).collect();
            run(&mut chunks, &[Heat::Cold; 3], &[true; 3]);
            assert_eq!(chunks.len(), 4, "one subroutine");
            let mut expected = vec![Item::Label(Label(OUTLINED_BASE))];
            expected.extend(COPY.iter().map(|&(o, b)| Item::Ins(o, Arg::Byte(b))));
            expected.push(Item::Ins(JMP, Arg::Word(0x1234)));
            assert_eq!(chunks[3].items, expected);
            for (i, c) in chunks[..3].iter().enumerate() {
                let jump = Item::Ins(enter, Arg::Sym(Sym::Code(Label(OUTLINED_BASE)), Part::Word, 0));
                assert_eq!(c.items, vec![Item::Label(Label(i as u32)), jump]);
            }
        }
    }

    /// In warm code a run with a tail costs 3 cycles a place, not 12: half a copy and a
    /// call (7 bytes, under `WARM_MIN_BYTES`) at three warm places are outlined; half a
    /// copy and an absolute load (7 bytes too, and as much saved) stay inline.
    #[test]
    fn warm_places_take_short_runs_with_a_tail() {
        for (last, outlined) in [(JSR, true), (LDA_ABS, false)] {
            let mut chunks: Vec<Chunk> = (0..3)
                .map(|i| {
                    let mut c = chunk(i, &COPY[..2]);
                    c.items.push(Item::Ins(last, Arg::Word(0x1234)));
                    c
                })
                .collect();
            run(&mut chunks, &[Heat::Warm; 3], &[true; 3]);
            assert_eq!(chunks.len() == 4, outlined, "{last:02x}");
        }
    }

    /// A call with data after it (the interpreter's entry reads its operand there) stays
    /// where it is; the copy before it is outlined alone, with its `RTS`.
    #[test]
    fn a_call_followed_by_data_stays() {
        // The stub's shape: the call, the label of the data, the data.
        let data = [Item::Label(Label(99)), Item::Bytes(vec![1, 2])];
        let mut chunks: Vec<Chunk> = (0..3)
            .map(|i| {
                let mut c = with_tail(i, JSR, 0x1234);
                c.items.extend(data.iter().cloned());
                c
            })
            .collect();
        run(&mut chunks, &[Heat::Cold; 3], &[true; 3]);
        assert_eq!(chunks.len(), 4, "one subroutine");
        assert_eq!(chunks[3].items.last(), Some(&Item::Ins(RTS, Arg::None)));
        for c in &chunks[..3] {
            assert_eq!(c.items[2..4], [Item::Ins(JSR, Arg::Word(0x1234)), data[0].clone()]);
        }
    }

    /// A raw branch counts the bytes it skips: the run it skips over stays as it is (a
    /// `JSR` there would put the branch's target inside the `JSR`), while the same run
    /// elsewhere is outlined.
    #[test]
    fn a_run_under_a_raw_branch_keeps_its_bytes() {
        let skip = [(BCC, 8)].iter().chain(COPY.iter()).copied().collect::<Vec<_>>();
        let mut chunks = vec![chunk(0, &COPY), chunk(1, &skip), chunk(2, &COPY)];
        let kept = chunks[1].clone();
        // Chunks 0 and 1 end with their copy: a stretch may run on into the next chunk,
        // so keep chunk 2 apart with a target.
        run(&mut chunks, &[Heat::Cold; 3], &[false, false, true]);
        assert_eq!(chunks[1].items, kept.items, "the skipped run moved");
        assert_eq!(chunks.len(), 4, "the two other copies share one subroutine");
        for c in [&chunks[0], &chunks[2]] {
            assert!(matches!(c.items[1], Item::Ins(JSR, _)), "{:?}", c.items);
        }
    }
}
