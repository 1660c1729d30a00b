//! Dead register stores: the lowering writes every AVR register an instruction defines to
//! its zero-page byte, also when no later code reads that byte (`ldi r24, 1; std Y+47,
//! r24` with r24 dead after the `std` is `LDA #1; STA r24; STA slot`, and once
//! [`crate::mos_rewrites::peephole`] has dropped the reload, nothing reads `r24`). A `STA` of a
//! register's byte goes when no code on any path from it reads the byte before it is
//! written again. Two passes: [`prune`], on each chunk as it is lowered, and [`run`],
//! across chunks after the peephole passes, when the loads that A made redundant are gone.
//!
//! Assumes: a chunk is the code of AVR instructions `i..=j` (an instruction and those
//! folded into it), and `live` holds the registers live after each instruction
//! ([`abi_liveness`]: a register not in it is never read, on any path, before it is
//! written again); an instruction's code reads a register's byte only where the AVR
//! instruction reads the register, but for the exceptions the caller names: the source
//! pair of a copy another pass left out, whose uses read the source instead
//! ([`Facts::hidden_reads`]), and the restores [`crate::frames::sink_saves`] moved ahead of their
//! `pop` ([`Facts::pinned`]). Y (r28, r29) is left alone: [`crate::frames::frame_slots`] may
//! leave its writes out of the code. The clean-ups may drop a load (the value comes from
//! A) or a store of a byte that "already holds" A ([`crate::mos_rewrites::values`]): the code after that
//! store then relies on the byte written before it, so [`run`] keeps a store whose path
//! reaches a chunk that lost a store of the same byte.
//!
//! Guarantees: a store goes only when nothing can read what it wrote, on every way on
//! from it: the code after it in its chunk, then each chunk it falls or branches into (the
//! branches and jumps to AVR instructions, up to [`MAX_CHUNKS`] chunks). Along each way no
//! instruction reads the byte (directly, as half of a `(zp),Y` pointer, through an index
//! or an absolute address that may reach zero page), calls, returns, jumps anywhere but to
//! an AVR instruction, or holds data; and the way ends where a plain store writes the byte
//! again before any branch in its chunk, or where the register is dead after a chunk with
//! code (the registers live where the chunk's code leaves, [`Facts::live`], cover every
//! branch out of it: a chunk's branches are its instructions' own, and liveness joins
//! their targets). A chunk without code is passed through to the next: it is an
//! instruction folded into the chunk before, or one whose work the code before took over,
//! and what liveness says after it is not what runs there. Ways into a chunk from
//! elsewhere do not matter: the byte is dead on every way from the store, whoever else
//! comes. A chunk with a loop inside it (a backward branch) keeps its stores, and a way
//! passes through it only where nothing in it touches the byte; r0 and r1 keep theirs
//! (the multiply's result and the zero register, which runtime code may read), and so do
//! bytes that are no register's. Between such a store and the reads that now
//! take the value from A, the register's byte is stale: [`run`] says where, and the
//! lockstep comparison with the AVR simulator leaves it out there
//! ([`crate::Translation::live_in`]).

use crate::analysis::callgraph::RegSet;
use crate::mmap::REGS;
use mos_asm::asm::{Arg, Item, Mode, mnemonic, op::*};
use mos_asm::link::{Chunk, Owner};

/// The registers live after each instruction when every function gives back every
/// callee-saved register (the AVR convention): what the passes here read. The liveness the
/// saves are planned on ([`crate::frames::saves::exits`]) leaves the callee-saved registers out of
/// a vouched function's returns, because [`crate::frames::saves`] works out what its callers need
/// itself; there a restoring pop's store would look dead. Here a callee-saved register is
/// live at every return, which also keeps a store that reaches a return after its save
/// was left out (no caller reads it then; keeping it costs a little, never correctness).
/// The program's entry hands every register back to the start-up code: what it leaves is
/// what a test harness reads.
///
/// Of the call-used registers, a function whose every caller is a call or jump in the
/// program (its address never taken) returns only those some caller reads after the call,
/// or hands on to its own caller after a tail call: a scratch register written just
/// before the `ret` (`ldi r20, 1` for a compare with `0x1a0`) is not kept for a 64-bit
/// result nobody asked for, and a caller that reads r26 after the call (no rustc code
/// does; hand-written or generated code may) gets what the callee left there. What the
/// callers read depends on the liveness itself, so the two are worked out together, from
/// no call-used register up, to a fixed point.
pub fn abi_liveness(
    prog: &crate::AvrProgram,
    flow: &crate::input::flow::Flow,
    sums: &[crate::analysis::callgraph::Summary],
) -> crate::analysis::liveness::Liveness {
    use crate::analysis::callgraph::CALL_USED;
    use crate::analysis::callgraph::Reason;
    use crate::analysis::liveness::{ALL, CALLEE_SAVED, Callee, RETURNS, ZERO_REG};
    let entry = flow.func_starts.get(&prog.entry).copied();
    let known = |f: usize| Some(f) != entry && !sums[f].reasons.contains(&Reason::AddressTaken);
    let mut exits: Vec<RegSet> = (0..sums.len())
        .map(|f| match f {
            _ if Some(f) == entry => ALL,
            _ if known(f) => ZERO_REG | CALLEE_SAVED,
            _ => ZERO_REG | RETURNS | CALLEE_SAVED,
        })
        .collect();
    let callees = crate::analysis::liveness::program_callees(prog, &flow.addrs, &flow.insns);
    loop {
        let live = crate::analysis::liveness::of_program(
            prog,
            &flow.addrs,
            &flow.insns,
            &flow.succs,
            &flow.func_of,
            sums,
            &exits,
        );
        let mut next = exits.clone();
        for (i, callee) in callees.iter().enumerate() {
            let Callee::Function { f, tail } = *callee else { continue };
            next[f] |= CALL_USED
                & match (tail, flow.func_of[i]) {
                    (false, _) => live.live_out[i],
                    (true, Some(g)) => exits[g],
                    (true, None) => ALL,
                };
        }
        if next == exits {
            return live;
        }
        exits = next;
    }
}

/// Removes the dead register stores from one chunk's `items` as it is lowered; `live`
/// are the registers live after the chunk's last AVR instruction, and the stores of
/// `pinned` stay (see [`Facts::pinned`]). Returns the bytes saved.
pub fn prune(items: &mut Vec<Item>, live: RegSet, pinned: RegSet) -> usize {
    if has_loop(items) {
        return 0;
    }
    let locals = local_labels(items);
    let mut saved = 0;
    let mut k = 0;
    while k < items.len() {
        if let Item::Ins(STA_ZP, Arg::Byte(z)) = items[k]
            && let Some(n) = register_of(z)
            && pinned & (1 << n) == 0
        {
            let mut path = Path::default();
            if path.scan(&items[k + 1..], z, &locals).unwrap_or(live & (1 << n) == 0) {
                items.remove(k);
                saved += 2;
                continue;
            }
        }
        k += 1;
    }
    saved
}

/// The registers whose bytes each chunk stores to: taken before the clean-ups, so that
/// [`run`] knows which chunks lost a store.
pub fn stores(chunks: &[Chunk]) -> Vec<RegSet> {
    chunks
        .iter()
        .map(|c| {
            c.items.iter().fold(0, |acc, it| match it {
                Item::Ins(STA_ZP, Arg::Byte(z)) => acc | register_of(*z).map_or(0, |n| 1 << n),
                _ => acc,
            })
        })
        .collect()
}

/// How far [`run`] follows the code after a store, in chunks.
const MAX_CHUNKS: usize = 48;

/// What [`run`] knows of each AVR instruction.
#[derive(Debug, Clone, Copy)]
pub struct Facts<'a> {
    /// The registers live after each instruction ([`abi_liveness`]); for the last of
    /// instructions lowered as one chunk, those live where the chunk's code leaves (at
    /// each instruction outside the chunk that one of them goes to).
    pub live: &'a [RegSet],
    /// The instructions whose code is in the chunk of the one before.
    pub folded: &'a [bool],
    /// The instructions reached other than from the one before.
    pub is_target: &'a [bool],
    /// Registers whose stores in the instruction's chunk stay: restores that
    /// [`crate::frames::sink_saves`] moved there from a later `pop`, which liveness counts as the
    /// write.
    pub pinned: &'a [RegSet],
    /// Registers the code from the instruction on reads where the AVR code does not: the
    /// source pair of a copy that [`crate::avr_rewrites::ptr_copies`] or [`crate::avr_rewrites::data_copies`] left out,
    /// whose uses read the source instead of the copy.
    pub hidden_reads: &'a [RegSet],
}

/// Removes the register stores that nothing reads, following the code from chunk to
/// chunk (see the module doc); `before` is what [`stores`] gave before the clean-ups.
/// Returns, for each instruction, the registers live at its start whose byte no longer
/// holds the AVR's value there (it passes in A from the store that went to its reads).
pub fn run(chunks: &mut [Chunk], facts: &Facts, before: &[RegSet]) -> Vec<RegSet> {
    let Facts { live, folded, is_target, pinned, hidden_reads } = *facts;
    let after = stores(chunks);
    let lost: Vec<RegSet> = before.iter().zip(&after).map(|(b, a)| b & !a).collect();
    // The chunk of each instruction, and the last instruction whose code each holds.
    let mut chunk_of = vec![None; live.len()];
    for (c, chunk) in chunks.iter().enumerate() {
        if let Owner::Insn(i) = chunk.owner {
            chunk_of[i] = Some(c);
        }
    }
    let last_of = |i: usize| (i + 1..folded.len()).find(|&j| !folded[j]).map_or(folded.len() - 1, |j| j - 1);
    // What the code of instructions i..=last reads that the AVR code does not.
    let hidden = |i: usize, last: usize| hidden_reads[i..=last].iter().fold(0, |acc, r| acc | r);
    let info: Vec<Option<(usize, Vec<mos_asm::asm::Label>)>> = chunks
        .iter()
        .map(|c| match c.owner {
            Owner::Insn(i) if !has_loop(&c.items) => Some((last_of(i), local_labels(&c.items))),
            _ => None,
        })
        .collect();
    // Whether the code from instruction `i` on, entered only by falling in, reaches a
    // chunk that lost its store of register `n` before anything else stores it: that
    // chunk's code relies on the byte as the code before left it.
    let relied_on = |mut i: usize, n: u8| {
        for _ in 0..MAX_CHUNKS {
            let Some(Some(d)) = chunk_of.get(i) else { return false };
            if is_target[i] {
                return false;
            }
            if before[*d] & (1 << n) != 0 {
                return lost[*d] & (1 << n) != 0;
            }
            match &info[*d] {
                Some((last, _)) => i = last + 1,
                None => return true,
            }
        }
        true
    };
    // Whether nothing can read register `n`'s byte after item `k` of chunk `c` before it is
    // written again, on any way on through the chunks after it: the fall-through and the
    // branches and jumps to AVR instructions, as far as the register is live after a
    // chunk. If so, the instructions of the chunks passed, where the byte may be stale.
    let dead_after = |chunks: &[Chunk], c: usize, k: usize, n: u8| -> Option<Vec<std::ops::RangeInclusive<usize>>> {
        let z = REGS + n;
        let mut passed = Vec::new();
        // Chunks to follow, each with the item it is entered at; the store's own chunk is
        // followed from the store on, and again from its start if a way leads back to it.
        let mut todo = vec![(c, k + 1)];
        let mut entered: Vec<usize> = Vec::new();
        while let Some((d, from)) = todo.pop() {
            let Owner::Insn(first) = chunks[d].owner else { return None };
            // A chunk with a loop inside it is passed only where nothing in it touches the
            // byte: then how often its loop runs does not matter.
            let looped;
            let (last, locals) = match &info[d] {
                Some((last, locals)) => (*last, locals),
                None if d != c => {
                    let labels = local_labels(&chunks[d].items);
                    let untouched = chunks[d]
                        .items
                        .iter()
                        .all(|it| matches!(effect(it, z, &labels), Effect::None | Effect::Splits));
                    if !untouched {
                        return None;
                    }
                    looped = labels;
                    (last_of(first), &looped)
                }
                None => return None,
            };
            let whole = d != c || from == 0;
            if whole {
                if (lost[d] | hidden(first, last)) & (1 << n) != 0 {
                    return None;
                }
                passed.push(first..=last);
            }
            let mut path = Path::default();
            match path.scan(&chunks[d].items[from..], z, locals) {
                Some(false) => return None,
                Some(true) => continue,
                None => {}
            }
            let mut exits = path.exits.into_iter().collect::<Option<Vec<usize>>>()?;
            if !whole && hidden(first, last) & (1 << n) != 0 {
                return None;
            }
            // A chunk without code passes control on to the next: an instruction folded
            // into the chunk before, or one whose work the code before took over (`brcs
            // .+2; rjmp far` as one `BCC`), which liveness would take at its word.
            let empty = chunks[d].items.iter().all(|it| matches!(it, Item::Label(_)));
            if !empty && live[last] & (1 << n) == 0 {
                // Liveness speaks for the branches out too: they are the last
                // instruction's (see the module doc).
                if relied_on(last + 1, n) {
                    return None;
                }
                continue;
            }
            exits.push(last + 1);
            for t in exits {
                let e = chunk_of.get(t).copied().flatten()?;
                if !entered.contains(&e) {
                    entered.push(e);
                    todo.push((e, 0));
                }
            }
            if entered.len() > MAX_CHUNKS {
                return None;
            }
        }
        Some(passed)
    };
    let mut stale = vec![0; live.len()];
    // The load the last value passed in X goes to (chunk, item).
    let mut carried_to: Option<(usize, usize)> = None;
    for c in 0..chunks.len() {
        let Some((last, _)) = &info[c] else { continue };
        let Owner::Insn(first) = chunks[c].owner else { continue };
        let mut k = 0;
        while k < chunks[c].items.len() {
            let Item::Ins(STA_ZP, Arg::Byte(z)) = chunks[c].items[k] else {
                k += 1;
                continue;
            };
            let Some(n) = register_of(z).filter(|n| pinned[first] & (1 << n) == 0) else {
                k += 1;
                continue;
            };
            if let Some(passed) = dead_after(chunks, c, k, n) {
                chunks[c].items.remove(k);
                mark_stale(&mut stale, passed.into_iter().flatten(), n);
                continue;
            }
            // Read once more, by a load on the straight way on: the value can pass in X,
            // unless X already carries another value past this store. Not for a
            // callee-saved register: its byte would stay stale past later calls, at whose
            // callees' entries it counts as live (and the lockstep compares it).
            if carried_to < Some((c, k))
                && crate::analysis::liveness::CALLEE_SAVED & (1 << n) == 0
                && let Some((d, j)) = x_carrier(chunks, &chunk_of, &info, is_target, c, k, z)
                && let Some(passed) = dead_after(chunks, d, j, n)
                && crate::mos_rewrites::peephole::nz_dead(&chunks[c].items[k + 1..])
            {
                chunks[c].items[k] = Item::Ins(TAX, Arg::None);
                chunks[d].items[j] = Item::Ins(TXA, Arg::None);
                carried_to = Some((d, j));
                // Stale from the store's chunk on to the load's, then where the load's
                // followed.
                let load_last = info[d].as_ref().map_or(*last, |(l, _)| *l);
                mark_stale(&mut stale, (last + 1..=load_last).chain(passed.into_iter().flatten()), n);
            }
            k += 1;
        }
    }
    stale
}

/// Marks register `n`'s byte stale at the start of each of instructions `at`.
fn mark_stale(stale: &mut [RegSet], at: impl IntoIterator<Item = usize>, n: u8) {
    for i in at {
        stale[i] |= 1 << n;
    }
}

/// The AVR instruction a branch or jump to an instruction's code goes to.
fn insn_target(item: &Item) -> Option<usize> {
    match item {
        Item::Branch(_, l) | Item::Ins(JMP, Arg::Sym(mos_asm::asm::Sym::Code(l), _, _)) if l.0 < LOCAL_LABELS => {
            Some(l.0 as usize)
        }
        _ => None,
    }
}

/// How an item uses X.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum XUse {
    /// Sets X without reading it.
    Writes,
    /// May read X, or go where code may (a call, a return, a branch).
    Reads,
    /// Neither.
    None,
}

fn x_use(item: &Item) -> XUse {
    let Item::Ins(o, _) = item else {
        return if matches!(item, Item::Label(_)) { XUse::None } else { XUse::Reads };
    };
    match mnemonic(*o) {
        Some(("LDX", Mode::Imm | Mode::Zp | Mode::Abs | Mode::Aby)) | Some(("TAX" | "TSX", _)) => XUse::Writes,
        Some((m, mode)) if m.contains('X') || matches!(mode, Mode::Zpx | Mode::Abx | Mode::Rel) => XUse::Reads,
        Some(("JSR" | "JMP" | "RTS" | "RTI" | "BRK", _)) | None => XUse::Reads,
        Some(_) => XUse::None,
    }
}

/// Whether the rest of a chunk reads X only after writing it on every path: its first
/// use of X is a write with no branch before it, or nothing in it may read X (a branch
/// out is no read: X carries nothing to another AVR instruction's code).
fn x_dead_after(rest: &[Item]) -> bool {
    let branch = |it: &Item| match it {
        Item::Branch(..) => true,
        Item::Ins(o, _) => matches!(mnemonic(*o), Some((_, Mode::Rel))),
        _ => false,
    };
    let mut split = false;
    for it in rest {
        if branch(it) {
            split = true;
            continue;
        }
        match x_use(it) {
            XUse::Writes if !split => return true,
            XUse::Reads => return false,
            XUse::Writes | XUse::None => {}
        }
    }
    true
}

/// Where a store's value can pass in X instead of zero page: the one read of byte `z`
/// after the store at item `k` of chunk `c`, when it is a `LDA z` on the straight way on
/// (no branch, jump, call, label or join between, and no skip from before the store
/// landing past it), nothing between them touches X, and after the load X is written
/// before anything may read it, or the load's chunk ends: X carries nothing from one AVR
/// instruction's code to the next. The caller still needs the byte dead after the load,
/// and N and Z dead after the store, for `TAX` sets them. Returns the load's chunk and
/// item.
fn x_carrier(
    chunks: &[Chunk],
    chunk_of: &[Option<usize>],
    info: &[Option<(usize, Vec<mos_asm::asm::Label>)>],
    is_target: &[bool],
    c: usize,
    k: usize,
    z: u8,
) -> Option<(usize, usize)> {
    // A fixed-offset branch before the store may land past it and reach the load without
    // the `TAX`.
    if chunks[c].items[..k]
        .iter()
        .any(|it| matches!(it, Item::Ins(o, Arg::Byte(_)) if matches!(mnemonic(*o), Some((_, Mode::Rel)))))
    {
        return None;
    }
    let (mut d, mut from) = (c, k + 1);
    for _ in 0..MAX_CHUNKS {
        let (last, locals) = info[d].as_ref()?;
        for (j, it) in chunks[d].items.iter().enumerate().skip(from) {
            if x_use(it) != XUse::None || matches!(it, Item::Label(_)) {
                return None;
            }
            match effect(it, z, locals) {
                Effect::None => {}
                Effect::Reads if *it == Item::Ins(LDA_ZP, Arg::Byte(z)) => {
                    return x_dead_after(&chunks[d].items[j + 1..]).then_some((d, j));
                }
                _ => return None,
            }
        }
        // On into the next instruction's code, if nothing else enters it.
        let next = last + 1;
        if is_target.get(next).copied().unwrap_or(true) {
            return None;
        }
        d = chunk_of.get(next).copied().flatten()?;
        from = 1;
        if !matches!(chunks[d].items.first(), Some(Item::Label(_))) {
            return None;
        }
    }
    None
}

/// The register whose home is zero-page byte `z`, if it is one whose stores the passes
/// may remove: not r0 and r1 (the multiply's result and the zero register, which runtime
/// code reads), nor Y, r28 and r29, whose writes [`crate::frames::frame_slots`] may leave out of
/// the code while the code after them still reads the byte as written before (the frame's
/// start), so that liveness, which counts those writes, does not speak for the code. Z is
/// judged as any other register: the code reads it only where an AVR instruction does, or
/// where a copy of it was left out and the copy's uses read it ([`Facts::hidden_reads`]).
fn register_of(z: u8) -> Option<u8> {
    let n = z.checked_sub(REGS)?;
    ((2..28).contains(&n) || (30..32).contains(&n)).then_some(n)
}

/// The local labels a chunk defines (branches to them stay inside it).
fn local_labels(items: &[Item]) -> Vec<mos_asm::asm::Label> {
    items.iter().filter_map(|it| if let Item::Label(l) = it { Some(*l) } else { None }).collect()
}

/// Whether the chunk loops: a branch back to an earlier label of its own or a
/// fixed-offset branch backwards.
fn has_loop(items: &[Item]) -> bool {
    items.iter().enumerate().any(|(k, it)| match it {
        Item::Ins(o, Arg::Byte(b)) => matches!(mnemonic(*o), Some((_, Mode::Rel))) && *b >= 0x80,
        Item::Branch(_, l) => items[..k].contains(&Item::Label(*l)),
        _ => false,
    })
}

/// Labels at or above this are local to a routine or a chunk; below, an AVR instruction's.
const LOCAL_LABELS: u32 = 0x4000_0000;

/// What one item does to zero-page byte `z`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Effect {
    /// May read it, or go where code may.
    Reads,
    /// Writes it without reading it.
    Writes,
    /// A branch inside the chunk: paths part here.
    Splits,
    /// A branch or jump to an AVR instruction's code: liveness speaks for what it reads.
    Exits,
    /// Neither.
    None,
}

fn effect(item: &Item, z: u8, locals: &[mos_asm::asm::Label]) -> Effect {
    let to_insn = |l: &mos_asm::asm::Label| l.0 < LOCAL_LABELS;
    let (o, arg) = match item {
        Item::Ins(o, arg) => (*o, arg),
        Item::Branch(_, l) if locals.contains(l) => return Effect::Splits,
        Item::Branch(_, l) if to_insn(l) => return Effect::Exits,
        Item::Label(_) => return Effect::None,
        _ => return Effect::Reads,
    };
    let Some((_, mode)) = mnemonic(o) else { return Effect::Reads };
    match (o, mode, arg) {
        (JMP, _, Arg::Sym(mos_asm::asm::Sym::Code(l), _, _)) if to_insn(l) => Effect::Exits,
        (JSR | JMP | JMP_IND | RTS | RTI, _, _) => Effect::Reads,
        (_, Mode::Rel, _) => Effect::Splits,
        (STA_ZP | STX_ZP | STY_ZP, Mode::Zp, Arg::Byte(b)) if *b == z => Effect::Writes,
        (_, Mode::Zp, Arg::Byte(b)) if *b == z => Effect::Reads,
        (_, Mode::Izy, Arg::Byte(b)) if *b == z || b.wrapping_add(1) == z => Effect::Reads,
        (_, Mode::Zpx, _) => Effect::Reads,
        (_, Mode::Abs | Mode::Abx | Mode::Aby, arg) if may_reach_zero_page(arg) => Effect::Reads,
        _ => Effect::None,
    }
}

/// Whether an absolute operand may address zero page (or reach it through an index): a
/// literal address below $200 may; a data symbol (a frame or save slot, `.data`, `.bss`)
/// or a table in the code (`rt_pow2`) is placed above it ([`crate::mmap`]).
fn may_reach_zero_page(arg: &Arg) -> bool {
    use mos_asm::asm::Sym;
    match arg {
        Arg::Word(w) => *w < 0x200,
        Arg::Sym(Sym::Data(_) | Sym::Bss(_) | Sym::Code(_), _, _) => false,
        _ => true,
    }
}

/// The way from a store on through the code after it.
#[derive(Debug, Default)]
struct Path {
    /// A branch has been passed: a later store may not run on every path.
    split: bool,
    /// The AVR instructions the branches and jumps out passed go to (`None` for one that
    /// names no instruction).
    exits: Vec<Option<usize>>,
}

impl Path {
    /// Follows `items` after a store to `z`: `Some(true)` if they write the byte again
    /// before anything may read it on every path, `Some(false)` if something may read it,
    /// `None` if neither happens before their end.
    fn scan(&mut self, items: &[Item], z: u8, locals: &[mos_asm::asm::Label]) -> Option<bool> {
        for it in items {
            match effect(it, z, locals) {
                Effect::Reads => return Some(false),
                Effect::Writes if !self.split => return Some(true),
                Effect::Splits => self.split = true,
                Effect::Exits => {
                    self.split = true;
                    self.exits.push(insn_target(it));
                }
                Effect::Writes | Effect::None => {}
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use mos_asm::asm::{Label, Part, Sym};

    const R24: u8 = REGS + 24;
    const R25: u8 = REGS + 25;

    fn lda(k: u8) -> Item {
        Item::Ins(LDA_IMM, Arg::Byte(k))
    }
    fn sta(z: u8) -> Item {
        Item::Ins(STA_ZP, Arg::Byte(z))
    }
    fn slot(n: u32) -> Item {
        Item::Ins(STA_ABS, Arg::Sym(Sym::Bss(n), Part::Word, 0))
    }

    #[test]
    fn a_store_of_a_dead_register_goes_and_of_a_live_one_stays() {
        let mut items = vec![lda(1), sta(R24), slot(0x200)];
        assert_eq!(prune(&mut items, 0, 0), 2);
        assert_eq!(items, vec![lda(1), slot(0x200)]);
        let mut items = vec![lda(1), sta(R24), slot(0x200)];
        assert_eq!(prune(&mut items, 1 << 24, 0), 0, "r24 is read later");
        assert_eq!(items.len(), 3);
    }

    #[test]
    fn a_read_inside_the_chunk_keeps_the_store() {
        let reads = [
            Item::Ins(ADC_ZP, Arg::Byte(R24)),
            Item::Ins(LDA_IZY, Arg::Byte(R24)),
            Item::Ins(LDA_IZY, Arg::Byte(R24 - 1)),
            Item::Ins(INC_ZP, Arg::Byte(R24)),
            Item::Ins(LDA_ZPX, Arg::Byte(0)),
            Item::Ins(LDA_ABS, Arg::Word(R24.into())),
            Item::Ins(JSR, Arg::Word(0x1c8a)),
            Item::Ins(RTS, Arg::None),
            Item::Bytes(vec![0]),
        ];
        for read in reads {
            let mut items = vec![lda(1), sta(R24), read.clone()];
            assert_eq!(prune(&mut items, 0, 0), 0, "{read:?} may read r24");
        }
        // A read of another byte, or a store through a data symbol, does not.
        let mut items = vec![lda(1), sta(R24), Item::Ins(ADC_ZP, Arg::Byte(R25)), slot(0x300)];
        assert_eq!(prune(&mut items, 0, 0), 2);
    }

    #[test]
    fn a_store_overwritten_before_any_branch_goes_even_when_live() {
        let mut items = vec![lda(1), sta(R24), lda(2), sta(R24)];
        assert_eq!(prune(&mut items, 1 << 24, 0), 2);
        assert_eq!(items, vec![lda(1), lda(2), sta(R24)]);
        // A branch between them: the second store may not run.
        let skip = Item::Ins(BEQ, Arg::Byte(2));
        let mut items = vec![lda(1), sta(R24), skip.clone(), lda(2), sta(R24)];
        assert_eq!(prune(&mut items, 1 << 24, 0), 0);
        let mut items = vec![lda(1), sta(R24), skip, lda(2), sta(R24)];
        assert_eq!(prune(&mut items, 0, 0), 4, "both dead when r24 is dead after the chunk");
    }

    #[test]
    fn loops_r0_r1_and_other_bytes_are_left_alone() {
        let back = Item::Ins(BNE, Arg::Byte(0xFA));
        let mut items = vec![lda(1), sta(R24), back];
        assert_eq!(prune(&mut items, 0, 0), 0, "a loop inside the chunk may come back to a read");
        let l = Label(0x4000_0001);
        let mut items = vec![Item::Label(l), lda(1), sta(R24), Item::Branch(BNE, l)];
        assert_eq!(prune(&mut items, 0, 0), 0);
        let mut items = vec![lda(0), sta(REGS + 1), sta(REGS), sta(crate::mmap::temp(0))];
        assert_eq!(prune(&mut items, 0, 0), 0, "r0, r1 and scratch bytes");
        let mut items = vec![lda(0), sta(REGS + 28), sta(REGS + 29)];
        assert_eq!(prune(&mut items, 0, 0), 0, "Y, whose writes frame slots may leave out");
        let mut items = vec![lda(0), sta(R24), sta(R25)];
        assert_eq!(prune(&mut items, 0, 1 << 24), 2, "a restore moved here stays");
        assert_eq!(items, vec![lda(0), sta(R24)]);
    }

    const R26: u8 = REGS + 26;

    /// Runs [`run`] on one chunk per AVR instruction, none a jump target, with `live` the
    /// registers live after each.
    fn run_on(code: Vec<Vec<Item>>, live: &[RegSet]) -> Vec<Vec<Item>> {
        let n = code.len();
        let mut chunks: Vec<Chunk> =
            code.into_iter().enumerate().map(|(i, c)| crate::mos_rewrites::insn_chunk(i as u32, c)).collect();
        let (folded, is_target, zero) = (vec![false; n], vec![false; n], vec![0; n]);
        let facts = Facts { live, folded: &folded, is_target: &is_target, pinned: &zero, hidden_reads: &zero };
        let before = stores(&chunks);
        run(&mut chunks, &facts, &before);
        chunks.into_iter().map(|c| c.items[1..].to_vec()).collect()
    }
    fn lda_zp(z: u8) -> Item {
        Item::Ins(LDA_ZP, Arg::Byte(z))
    }
    fn adc(z: u8) -> Item {
        Item::Ins(ADC_ZP, Arg::Byte(z))
    }
    fn tax() -> Item {
        Item::Ins(TAX, Arg::None)
    }
    fn txa() -> Item {
        Item::Ins(TXA, Arg::None)
    }

    /// A branch to an instruction's code, as the lowering writes it.
    fn branch_to(i: u32) -> Item {
        Item::Branch(BEQ, mos_asm::asm::Label(i))
    }

    #[test]
    fn a_store_goes_when_every_way_on_writes_the_byte_first() {
        // r24 is live after chunk 0 (the AVR reads it on both ways: say the code after
        // takes it from A instead), but each way stores it again before any read.
        let code = || {
            vec![
                vec![lda(1), sta(R24), branch_to(2)],
                vec![lda(2), sta(R24), Item::Ins(JMP, Arg::Sym(Sym::Code(mos_asm::asm::Label(3)), Part::Word, 0))],
                vec![lda(3), sta(R24)],
                vec![lda_zp(R24), sta(R26)],
            ]
        };
        let live = [1 << 24, 1 << 24, 1 << 24, 1 << 26];
        assert_eq!(run_on(code(), &live)[0], vec![lda(1), branch_to(2)]);
        // One way reads it first: the store stays.
        let mut read = code();
        read[2].insert(0, lda_zp(R24));
        assert_eq!(run_on(read, &live)[0], vec![lda(1), sta(R24), branch_to(2)]);
    }

    #[test]
    fn a_way_passes_a_loop_that_leaves_the_byte_alone() {
        // Chunk 1 counts X down in a loop of its own; chunk 2 stores r24 again.
        let code = |in_loop: Item| {
            vec![
                vec![lda(1), sta(R24)],
                vec![
                    Item::Ins(LDX_IMM, Arg::Byte(3)),
                    in_loop,
                    Item::Ins(DEX, Arg::None),
                    Item::Ins(BNE, Arg::Byte(0xfb)),
                ],
                vec![lda(2), sta(R24)],
            ]
        };
        let live = [1 << 24, 1 << 24, 1 << 24];
        let untouched = code(Item::Ins(ASL_ZP, Arg::Byte(R25)));
        assert_eq!(run_on(untouched, &live)[0], vec![lda(1)]);
        // The loop reads r24: the store stays.
        let read = code(Item::Ins(ASL_ZP, Arg::Byte(R24)));
        assert_eq!(run_on(read, &live)[0], vec![lda(1), sta(R24)]);
    }

    #[test]
    fn a_chunk_without_code_passes_control_on() {
        // Chunk 1 is an instruction whose work chunk 0's branch took over (an `rjmp` to
        // chunk 3): liveness after it says r24 is dead, but the code falls into chunk 2,
        // which reads it.
        let code =
            vec![vec![lda(1), sta(R24), branch_to(3)], vec![], vec![lda_zp(R24), sta(R26)], vec![lda(4), sta(R24)]];
        let live = [1 << 24, 0, 1 << 26, 1 << 24];
        assert_eq!(run_on(code, &live)[0], vec![lda(1), sta(R24), branch_to(3)]);
    }

    /// `ldi r24, 1; ldi r25, 2; add r25, r24` with r24 dead after the add: r24's one read
    /// is a load two instructions on, so its value passes in X.
    #[test]
    fn a_value_read_once_on_the_straight_way_passes_in_x() {
        let code = || {
            vec![
                vec![lda(1), sta(R24)],
                vec![lda(2), sta(R25)],
                vec![Item::Ins(CLC, Arg::None), lda_zp(R24), adc(R25), sta(R25)],
            ]
        };
        let live = [1 << 24, 1 << 24 | 1 << 25, 1 << 25];
        let out = run_on(code(), &live);
        assert_eq!(out[0], vec![lda(1), tax()]);
        assert_eq!(out[2][1], txa());
        // r24 read again later, or X used between, or a branch between: the byte stays.
        let mut later = code();
        later.push(vec![lda_zp(R24), sta(R26)]);
        let out = run_on(later, &[1 << 24, 1 << 24 | 1 << 25, 1 << 24 | 1 << 25, 1 << 26]);
        assert_eq!(out[0], vec![lda(1), sta(R24)], "read twice");
        let mut x_between = code();
        x_between[1].insert(0, Item::Ins(LDX_IMM, Arg::Byte(0)));
        assert_eq!(run_on(x_between, &live)[0], vec![lda(1), sta(R24)], "X set between");
        let mut branch = code();
        branch[1].push(Item::Ins(BEQ, Arg::Byte(0)));
        assert_eq!(run_on(branch, &live)[0], vec![lda(1), sta(R24)], "a branch between");
        let mut x_after = code();
        x_after[2].push(Item::Ins(STX_ZP, Arg::Byte(R26)));
        assert_eq!(run_on(x_after, &live)[0], vec![lda(1), sta(R24)], "X read after the load");
    }

    /// Two values that would be carried at once keep the second's byte; a callee-saved
    /// register keeps its byte.
    #[test]
    fn x_carries_one_value_at_a_time_and_no_callee_saved_register() {
        let code =
            vec![vec![lda(1), sta(R24), lda(2), sta(R25)], vec![lda_zp(R25), sta(R26)], vec![lda_zp(R24), sta(R26)]];
        let out = run_on(code, &[1 << 24 | 1 << 25, 1 << 24 | 1 << 26, 1 << 26]);
        assert_eq!(out[0], vec![lda(1), tax(), lda(2), sta(R25)]);
        assert_eq!(out[2][0], txa());
        let r16 = REGS + 16;
        let code = vec![vec![lda(1), sta(r16)], vec![lda(2), sta(R25)], vec![lda_zp(r16), adc(R25), sta(R25)]];
        assert_eq!(run_on(code, &[1 << 16, 1 << 16 | 1 << 25, 1 << 25])[0], vec![lda(1), sta(r16)]);
    }
}
