//! Saves in static slots moved off the paths that never write the register: a function's
//! hot path often leaves most of its callee-saved registers alone, and only a cold path
//! writes them (in the benchmark `Coup::give` saves ten registers, and the common card
//! writes two). Such a register's save goes from the prologue to the top of the straight
//! run of code before its first write, and its restore from the epilogue to the last edge
//! where the written value is still on its own, before it joins a path that never wrote
//! it. The push and, on the paths that never wrote it, the pop go.
//!
//! Assumes the function is vouched for by [`crate::frames::saves`] (nothing enters it but at its
//! start), its save of r is a static slot (a plain `LDA`/`STA`, so a save may run more
//! than once and a restore reads what the last save wrote), the register liveness of
//! [`crate::analysis::liveness`] with the function's returns reading no callee-saved register, and
//! that native routines keep the callee-saved registers (the AVR calling convention the
//! compiled code relies on too). A call of a function writes what the call graph says it
//! or its callees may write ([`crate::analysis::callgraph::Summary::writes`]); a call through a
//! pointer or anything unknown leaves the function as it is.
//!
//! Guarantees, for each register it sinks: every write of r and every restore runs only
//! after a save on every path to it; every save runs where r still holds the caller's value
//! on every path; on every path a restore runs before the function returns if and only if r
//! was written, and r is neither read nor written between that restore and the return; and
//! the inserted `LDA`/`STA` pairs sit only where no AVR flag is live (they change N and Z),
//! never right after a skip, and never inside a sequence the lowering may fuse
//! ([`crate::analysis::fusion`]).

use crate::analysis::callgraph::{RegSet, Summary, writes_of};
use crate::analysis::liveness::{Callee, reads_of};
use crate::input::decode::{Insn, Op};

/// X and Z: r26, r27, r30 and r31.
const POINTERS: RegSet = 0xCC00_0000;

/// Where one inserted copy goes relative to its instruction.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Place {
    /// Before the instruction's own code (after its label: every way into it runs it).
    Before,
    /// After the instruction's code, on its fall-through to the next.
    After,
}

/// One inserted copy between a register and its static slot.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct Copy {
    /// Before or after the instruction.
    pub place: Place,
    /// The register.
    pub reg: u8,
    /// Its static slot.
    pub slot: u32,
    /// Save (register to slot) or restore (slot to register).
    pub save: bool,
}

/// What the pass needs to know about one function.
#[derive(Debug)]
pub struct Function<'a> {
    /// The program's instructions.
    pub insns: &'a [Insn],
    /// The function's instructions.
    pub range: std::ops::Range<usize>,
    /// The first instruction after its prologue's pushes.
    pub body: usize,
    /// Each instruction's successors inside its function.
    pub succs: &'a [Vec<usize>],
    /// What each instruction calls.
    pub callees: &'a [Callee],
    /// The call graph's summaries.
    pub sums: &'a [Summary],
    /// The registers each function reads before writing them ([`crate::analysis::liveness`]).
    pub args: &'a [RegSet],
    /// Registers live after each instruction.
    pub live_regs: &'a [RegSet],
    /// Flags live after each instruction.
    pub live_flags: &'a [crate::analysis::flags::FlagSet],
    /// The static slot of each save's push or pop.
    pub slot_of: &'a [Option<u32>],
    /// Where the lowering may fuse instructions: no copy goes inside such a sequence.
    pub fusion: &'a crate::analysis::fusion::Fusion,
}

/// The outcome for one register that sinks: the pushes and pops that go and the copies
/// that come, by instruction.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Sunk {
    /// Instructions (the push, the pops on paths that never wrote) whose code goes.
    pub dropped: Vec<usize>,
    /// The copies inserted, by instruction.
    pub copies: Vec<(usize, Copy)>,
}

/// A three-valued fact per instruction: may and must (a forward data-flow).
struct Facts {
    may: Vec<bool>,
    must: Vec<bool>,
}

impl Function<'_> {
    fn local(&self, i: usize) -> usize {
        i - self.range.start
    }

    /// Whether instruction `i` may write `r` (its own push and pops excepted).
    fn writes(&self, i: usize, r: u8) -> Option<bool> {
        let bit = 1u32 << r;
        let insn = &self.insns[i];
        if matches!(insn.op, Op::Push | Op::Pop) && self.slot_of[i].is_some() && insn.d == r {
            return Some(false);
        }
        Some(match self.callees[i] {
            Callee::Function { tail: true, .. } | Callee::Indirect | Callee::Unknown => return None,
            Callee::Function { f, tail: false } => self.sums[f].writes & bit != 0 || writes_of(insn) & bit != 0,
            Callee::Native { .. } | Callee::None => writes_of(insn) & bit != 0,
        })
    }

    /// The predecessors of each instruction of the function (local indices).
    fn preds(&self) -> Vec<Vec<usize>> {
        let mut preds = vec![Vec::new(); self.range.len()];
        for i in self.range.clone() {
            for &s in &self.succs[i] {
                if self.range.contains(&s) {
                    preds[self.local(s)].push(i);
                }
            }
        }
        preds
    }

    /// A forward data-flow from the body's start, where the fact is false: `gen` sets it
    /// after an instruction, `kill` clears it after one.
    fn forward(&self, preds: &[Vec<usize>], gen_: impl Fn(usize) -> bool, kill: impl Fn(usize) -> bool) -> Facts {
        let n = self.range.len();
        let mut may = vec![false; n];
        let mut must = vec![true; n];
        let out = |i: usize, v: bool| (v || gen_(i)) && !kill(i);
        loop {
            let mut changed = false;
            for i in self.range.clone() {
                let l = self.local(i);
                // The body's start is entered from the prologue too, where the fact is false.
                let m = preds[l].iter().any(|&p| out(p, may[self.local(p)]));
                let u = i != self.body && !preds[l].is_empty() && preds[l].iter().all(|&p| out(p, must[self.local(p)]));
                if (m, u) != (may[l], must[l]) {
                    may[l] = m;
                    must[l] = u;
                    changed = true;
                }
            }
            if !changed {
                return Facts { may, must };
            }
        }
    }

    /// Whether `r` may be read after each instruction (local indices) before it is
    /// written. A call reads it only as an argument: the registers below r8 are never
    /// arguments in the AVR calling convention, so a callee that reads one only keeps it
    /// for its own caller (its panic path, which reads every register, too).
    fn read_after(&self, preds: &[Vec<usize>], r: u8, writes: &[bool]) -> Vec<bool> {
        let bit = 1u32 << r;
        let reads = |i: usize| match self.callees[i] {
            Callee::Function { f, .. } => bit & crate::analysis::liveness::ARGS & self.args[f] != 0,
            Callee::Native { reads, .. } => reads & bit != 0,
            Callee::Indirect | Callee::Unknown => true,
            Callee::None => !matches!(self.insns[i].op, Op::Ret | Op::Reti) && reads_of(&self.insns[i]) & bit != 0,
        };
        let mut after = vec![false; self.range.len()];
        let mut work: Vec<usize> = self.range.clone().filter(|&i| reads(i)).collect();
        // before[i] = reads(i) || (after[i] && !writes(i)); after[p] |= before[s].
        let mut before = vec![false; self.range.len()];
        while let Some(i) = work.pop() {
            if std::mem::replace(&mut before[self.local(i)], true) {
                continue;
            }
            for &p in &preds[self.local(i)] {
                let l = self.local(p);
                after[l] = true;
                if !writes[l] && !before[l] {
                    work.push(p);
                }
            }
        }
        after
    }

    /// Each instruction's immediate dominator (local indices; `None` where the body's
    /// start does not reach it), by the iteration of Cooper, Harvey and Kennedy over a
    /// reverse postorder.
    fn dominators(&self, preds: &[Vec<usize>]) -> Vec<Option<usize>> {
        let n = self.range.len();
        let mut order = Vec::with_capacity(n);
        let mut seen = vec![false; n];
        let mut stack = vec![(self.body, 0usize)];
        seen[self.local(self.body)] = true;
        while let Some(&mut (i, ref mut k)) = stack.last_mut() {
            let next = self.succs[i].get(*k).copied();
            *k += 1;
            match next {
                Some(s) if self.range.contains(&s) && !seen[self.local(s)] => {
                    seen[self.local(s)] = true;
                    stack.push((s, 0));
                }
                Some(_) => {}
                None => {
                    order.push(i);
                    stack.pop();
                }
            }
        }
        order.reverse();
        let mut rank = vec![usize::MAX; n];
        for (k, &i) in order.iter().enumerate() {
            rank[self.local(i)] = k;
        }
        let mut idom: Vec<Option<usize>> = vec![None; n];
        idom[self.local(self.body)] = Some(self.body);
        let meet = |idom: &[Option<usize>], mut a: usize, mut b: usize| {
            while a != b {
                while rank[self.local(a)] > rank[self.local(b)] {
                    a = idom[self.local(a)].unwrap_or(self.body);
                }
                while rank[self.local(b)] > rank[self.local(a)] {
                    b = idom[self.local(b)].unwrap_or(self.body);
                }
            }
            a
        };
        loop {
            let mut changed = false;
            for &i in order.iter().skip(1) {
                let mut new: Option<usize> = None;
                for &p in &preds[self.local(i)] {
                    if idom[self.local(p)].is_some() {
                        new = Some(new.map_or(p, |q| meet(&idom, p, q)));
                    }
                }
                if new.is_some() && new != idom[self.local(i)] {
                    idom[self.local(i)] = new;
                    changed = true;
                }
            }
            if !changed {
                return idom;
            }
        }
    }

    /// The nearest instruction that dominates both `a` and `b`.
    fn common(&self, idom: &[Option<usize>], a: usize, b: usize) -> usize {
        let chain = |mut x: usize| {
            let mut v = vec![x];
            while let Some(d) = idom[self.local(x)]
                && d != x
            {
                v.push(d);
                x = d;
            }
            v
        };
        let up = chain(a);
        chain(b).into_iter().find(|x| up.contains(x)).unwrap_or(self.body)
    }

    /// Whether each instruction of the function (local indices) may reach a return.
    fn returns(&self, preds: &[Vec<usize>]) -> Vec<bool> {
        let mut reach = vec![false; self.range.len()];
        let mut work: Vec<usize> =
            self.range.clone().filter(|&i| matches!(self.insns[i].op, Op::Ret | Op::Reti)).collect();
        while let Some(i) = work.pop() {
            if !std::mem::replace(&mut reach[self.local(i)], true) {
                work.extend(preds[self.local(i)].iter().copied());
            }
        }
        reach
    }

    /// Whether no flag is live where code is inserted at `place` of `i`.
    fn flags_free(&self, i: usize, place: Place, preds: &[Vec<usize>]) -> bool {
        match place {
            Place::After => self.live_flags[i] == 0,
            Place::Before => {
                let p = &preds[self.local(i)];
                !p.is_empty()
                    && p.iter().all(|&q| self.live_flags[q] == 0)
                    && !matches!(self.insns[i - 1].op, Op::Cpse | Op::Sbrc | Op::Sbrs | Op::Sbic | Op::Sbis)
            }
        }
    }

    /// Plans the sinking of `r`'s save, or `None` when it must stay where it is.
    pub fn sink(&self, r: u8) -> Option<Sunk> {
        if r >= 28 {
            // Y: the frame's pointer, which the frame passes treat on their own.
            return None;
        }
        let push = (self.range.start..self.body)
            .find(|&i| self.insns[i].op == Op::Push && self.insns[i].d == r && self.slot_of[i].is_some())?;
        let slot = self.slot_of[push]?;
        let pops: Vec<usize> = self
            .range
            .clone()
            .filter(|&i| self.insns[i].op == Op::Pop && self.insns[i].d == r && self.slot_of[i].is_some())
            .collect();
        let mut writes = vec![false; self.range.len()];
        for i in self.body..self.range.end {
            writes[self.local(i)] = self.writes(i, r)?;
        }
        let w = |i: usize| writes[self.local(i)];
        let preds = self.preds();
        // Paths that never return (to a panic) need nothing restored.
        let returns = self.returns(&preds);
        let live_end = |i: usize| returns[self.local(i)];
        let read = self.read_after(&preds, r, &writes);
        // One save where every write is dominated, moved up its straight run (not past a
        // branch, which would put it on the other way too).
        let idom = self.dominators(&preds);
        let mut at: Option<usize> = None;
        for i in (self.body..self.range.end).filter(|&i| w(i) && live_end(i)) {
            idom[self.local(i)]?;
            at = Some(match at {
                None => i,
                Some(a) => self.common(&idom, a, i),
            });
        }
        let mut at = at?;
        while let [p] = preds[self.local(at)][..]
            && p > self.body
            && self.succs[p].len() == 1
        {
            at = p;
        }
        if at == self.body {
            return None;
        }
        let save = at;
        // Restores: on each edge from where r is saved on every path into where it may
        // not be, until none is left; r must not be read after them. A restore where r
        // was saved and not written changes nothing.
        let mut restores: Vec<(usize, Place)> = Vec::new();
        let saved = loop {
            let restored = |i: usize| restores.iter().any(|&(j, _)| j == i);
            let saved = self.forward(&preds, |i| i == save, restored);
            let out_may = |i: usize| (saved.may[self.local(i)] || i == save) && !restored(i);
            let out_must = |i: usize| (saved.must[self.local(i)] || i == save) && !restored(i);
            let mixed = |s: usize| {
                self.range.contains(&s) && live_end(s) && saved.may[self.local(s)] && !saved.must[self.local(s)]
            };
            let Some(j) = (self.body..self.range.end).find(|&j| out_may(j) && self.succs[j].iter().any(|&s| mixed(s)))
            else {
                break saved;
            };
            // A pointer copy's uses may read its source pair later than the AVR does
            // ([`crate::avr_rewrites::ptr_copies`]): no restore while X or Z is live.
            if !out_must(j) || read[self.local(j)] || self.live_regs[j] & POINTERS != 0 {
                return None;
            }
            let place = match self.insns[j].op {
                Op::Rjmp | Op::Jmp if self.succs[j].len() == 1 && !w(j) => Place::Before,
                _ if self.succs[j].len() == 1 && self.succs[j][0] == j + 1 && !self.insns[j].op.jumps() => Place::After,
                _ => return None,
            };
            restores.push((j, place));
        };
        let saved_at = |i: usize| saved.must[self.local(i)] || i == save;
        let unsaved = |i: usize| !saved.may[self.local(i)] && i != save;
        // Every write after the save on every path; every pop either after it on every
        // path (it restores) or on none (it goes).
        if !(self.body..self.range.end).filter(|&i| w(i) && live_end(i)).all(saved_at)
            || !pops.iter().all(|&p| saved.must[self.local(p)] || !saved.may[self.local(p)])
        {
            return None;
        }
        // Worth it only when some way back to the caller now runs neither, and no larger:
        // the save's copy replaces the push's, each restore one pop's.
        let gone = pops.iter().filter(|&&p| unsaved(p)).count();
        if gone == 0 || restores.len() > gone {
            return None;
        }
        // The save where r still holds the caller's value on every path.
        let dirty = self.forward(&preds, w, |i| restores.iter().any(|&(j, _)| j == i));
        if dirty.may[self.local(save)] {
            return None;
        }
        let mut copies: Vec<(usize, Copy)> = Vec::new();
        copies.push((save, Copy { place: Place::Before, reg: r, slot, save: true }));
        for &(j, place) in &restores {
            copies.push((j, Copy { place, reg: r, slot, save: false }));
        }
        let fits =
            |i: usize, c: Copy| self.flags_free(i, c.place, &preds) && !self.fusion.splits(i, c.place == Place::After);
        if !copies.iter().all(|&(i, c)| fits(i, c)) {
            return None;
        }
        let mut dropped = vec![push];
        dropped.extend(pops.iter().copied().filter(|&p| unsaved(p)));
        copies.sort();
        Some(Sunk { dropped, copies })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::input::decode::decode_words;

    /// The pass's view of `words` as one function whose `push r4` and `pop r4` use slot 0,
    /// with Z live after the instruction at `z_live` (a compare before its branch).
    fn sink_r4(words: &[u16], succs: &[Vec<usize>], z_live: usize) -> Option<Sunk> {
        sink_r4_fused(words, succs, z_live, &crate::analysis::fusion::Fusion::default())
    }

    /// [`sink_r4`] where the lowering may fuse as `fusion` says.
    fn sink_r4_fused(
        words: &[u16],
        succs: &[Vec<usize>],
        z_live: usize,
        fusion: &crate::analysis::fusion::Fusion,
    ) -> Option<Sunk> {
        let insns = decode_words(words);
        let n = insns.len();
        let slot_of: Vec<Option<u32>> =
            insns.iter().map(|i| (matches!(i.op, Op::Push | Op::Pop) && i.d == 4).then_some(0)).collect();
        let mut live_flags = vec![0; n];
        live_flags[z_live] = crate::analysis::flags::Z;
        let f = Function {
            insns: &insns,
            range: 0..n,
            body: 1,
            succs,
            callees: &vec![Callee::None; n],
            sums: &[],
            args: &[],
            live_regs: &vec![0; n],
            live_flags: &live_flags,
            slot_of: &slot_of,
            fusion,
        };
        f.sink(4)
    }

    #[test]
    fn a_save_only_one_path_needs_moves_onto_it() {
        // push r4; cpi r24, 0; breq join; mov r4, r24; inc r4; sts 0x200, r4;
        // join: pop r4; ret
        let words = [0x924F, 0x3080, 0xF021, 0x2E48, 0x9443, 0x9240, 0x0200, 0x904F, 0x9508];
        let succs = vec![vec![1], vec![2], vec![3, 6], vec![4], vec![5], vec![6], vec![7], vec![]];
        let sunk = sink_r4(&words, &succs, 1).expect("r4 sinks");
        assert_eq!(sunk.dropped, vec![0, 6], "the push, and the pop the path that wrote r4 no longer reaches");
        let save = Copy { place: Place::Before, reg: 4, slot: 0, save: true };
        let restore = Copy { place: Place::After, reg: 4, slot: 0, save: false };
        assert_eq!(sunk.copies, vec![(3, save), (5, restore)]);
    }

    #[test]
    fn no_save_or_restore_goes_inside_a_sequence_the_lowering_may_fuse() {
        let words = [0x924F, 0x3080, 0xF021, 0x2E48, 0x9443, 0x9240, 0x0200, 0x904F, 0x9508];
        let succs = vec![vec![1], vec![2], vec![3, 6], vec![4], vec![5], vec![6], vec![7], vec![]];
        // The save's place (3) inside a sequence from 2, then the restore's (after 5)
        // inside one from 5.
        for joined in [3, 6] {
            let mut joins = vec![false; words.len()];
            joins[joined] = true;
            let fusion = crate::analysis::fusion::Fusion::from_joins(joins);
            assert_eq!(sink_r4_fused(&words, &succs, 1, &fusion), None, "joined at {joined}");
        }
    }

    #[test]
    fn a_save_every_path_needs_stays() {
        // push r4; mov r4, r24; cpi r24, 0; breq join; inc r4; join: pop r4; ret
        let words = [0x924F, 0x2E48, 0x3080, 0xF009, 0x9443, 0x904F, 0x9508];
        let succs = vec![vec![1], vec![2], vec![3], vec![4, 5], vec![5], vec![6], vec![]];
        assert_eq!(sink_r4(&words, &succs, 2), None);
    }

    #[test]
    fn no_restore_where_the_written_value_is_read_after_the_join() {
        // push r4; cpi r24, 0; breq join; mov r4, r24; join: sts 0x200, r4; pop r4; ret
        let words = [0x924F, 0x3080, 0xF009, 0x2E48, 0x9240, 0x0200, 0x904F, 0x9508];
        let succs = vec![vec![1], vec![2], vec![3, 4], vec![4], vec![5], vec![6], vec![]];
        assert_eq!(sink_r4(&words, &succs, 1), None);
    }
}
