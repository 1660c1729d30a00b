//! How often each instruction runs, whatever the input ([`Heat`]): the static cost model of
//! [`crate::mos_rewrites::outline`], which may make code that is not hot slower and smaller. Cold code
//! runs a bounded number of times per run of the program; warm code is in a loop of a
//! function entered a bounded number of times, but in no loop nested inside another (a
//! benchmark's or a game's round: once per coup, not once per card); the rest is hot.
//!
//! Why a static model and not a profile: a profile is of one input and one build, and the
//! translator would have to be handed it and keep it in step with the code; loop nesting
//! is in the code itself. The price is that code on a rare path inside a loop (an error, a
//! shoe's refill) counts as warm or hot, and a flat loop of many rounds as warm.
//!
//! Assumes the decoded program and its control flow ([`Flow`]): `succs` inside each
//! function, calls returning to the next instruction. Guarantees: an instruction is cold
//! only if it is in no cycle of its function's flow graph and its function is entered a
//! bounded number of times: it is the program's entry, or every one of its callers is a
//! direct call or jump from a cold instruction and its address is never taken (no
//! relocation but a call's or jump's operand names it), so neither a loop, recursion nor a
//! call through a pointer reaches it. An instruction is warm only if its function is
//! entered a bounded number of times and it lies on no cycle that remains once each loop's
//! entries (the instructions reached from outside the loop's strongly connected component)
//! lose the edges into them from inside it: an inner loop keeps its cycle, so it is hot.

use crate::input::decode::Op;
use crate::input::flow::Flow;
use crate::input::program::{AvrProgram, RelocKind, Target};

/// How often an instruction runs, in the static model of this module.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Heat {
    /// A bounded number of times per run of the program.
    Cold,
    /// In a loop of a function entered a bounded number of times, but in no loop nested
    /// inside another.
    Warm,
    /// Anything else: in an inner loop, or in a function entered from a loop.
    Hot,
}

/// How often each instruction of `flow` runs (see the module doc).
pub fn heat(prog: &AvrProgram, flow: &Flow) -> Vec<Heat> {
    let (once, in_loop) = entered_once(prog, flow);
    let inner = in_inner_cycles(flow);
    (0..flow.insns.len())
        .map(|i| match flow.func_of[i].is_some_and(|f| once[f]) {
            true if !in_loop[i] => Heat::Cold,
            true if !inner[i] => Heat::Warm,
            _ => Heat::Hot,
        })
        .collect()
}

/// Whether each instruction of `flow` is cold (see the module doc).
pub fn cold(prog: &AvrProgram, flow: &Flow) -> Vec<bool> {
    let (entered_once, in_loop) = entered_once(prog, flow);
    (0..flow.insns.len()).map(|i| !in_loop[i] && flow.func_of[i].is_some_and(|f| entered_once[f])).collect()
}

/// Whether each function's calls can afford a few more cycles for fewer bytes: it is
/// entered a bounded number of times, or it has a loop of its own, so that each call runs
/// some of its code many times (a function of straight code that saves many registers
/// costs little more per call than its saves do).
pub fn amortised(prog: &AvrProgram, flow: &Flow) -> Vec<bool> {
    let (mut out, in_loop) = entered_once(prog, flow);
    for (i, &looped) in in_loop.iter().enumerate() {
        if let Some(f) = flow.func_of[i].filter(|_| looped) {
            out[f] = true;
        }
    }
    out
}

/// Which functions are entered a bounded number of times per run, and which instructions
/// lie on a cycle of their function's flow graph.
fn entered_once(prog: &AvrProgram, flow: &Flow) -> (Vec<bool>, Vec<bool>) {
    let in_loop = in_cycles(flow);
    let n = prog.functions.len();
    let mut address_taken = vec![false; n];
    // A relocated operand of a call or jump names its callee: that is a call site, not
    // an address taken.
    let jump_operand = |k: &RelocKind| matches!(k, RelocKind::Call | RelocKind::Pcrel13);
    for rel in prog.text_relocs.values().filter(|r| !jump_operand(&r.kind)).chain(&prog.data_relocs) {
        if let Target::Code(a) = rel.target
            && let Some(&f) = flow.func_starts.get(&a)
        {
            address_taken[f] = true;
        }
    }
    // Every direct call or jump to a function's start, by callee.
    let mut sites: Vec<Vec<usize>> = vec![Vec::new(); n];
    for (i, insn) in flow.insns.iter().enumerate() {
        if matches!(insn.op, Op::Call | Op::Rcall | Op::Jmp | Op::Rjmp)
            && let Some(&f) = flow.func_starts.get(&insn.k)
        {
            sites[f].push(i);
        }
    }
    let mut entered_once = vec![false; n];
    if let Some(&e) = flow.index.get(&prog.entry).and_then(|&i| flow.func_of[i].as_ref()) {
        entered_once[e] = true;
    }
    // The least fixed point: a function joins once all its callers are cold.
    loop {
        let mut changed = false;
        for f in 0..n {
            if entered_once[f] || address_taken[f] || sites[f].is_empty() {
                continue;
            }
            let all_cold = sites[f].iter().all(|&i| !in_loop[i] && flow.func_of[i].is_some_and(|g| entered_once[g]));
            if all_cold {
                entered_once[f] = true;
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
    (entered_once, in_loop)
}

/// Whether each instruction lies on a cycle of its function's flow graph (Tarjan's
/// strongly connected components, iteratively: a component of more than one instruction,
/// or one that is its own successor).
fn in_cycles(flow: &Flow) -> Vec<bool> {
    sccs(&flow.succs).1
}

/// Tarjan's strongly connected components of the graph `succs`: each node's component
/// (numbered from 0) and whether it lies on a cycle.
fn sccs(succs: &[Vec<usize>]) -> (Vec<usize>, Vec<bool>) {
    let n = succs.len();
    let mut comp = vec![0usize; n];
    let mut comps = 0;
    let mut index = vec![usize::MAX; n];
    let mut low = vec![0usize; n];
    let mut on_stack = vec![false; n];
    let mut stack = Vec::new();
    let mut out = vec![false; n];
    let mut next = 0;
    for root in 0..n {
        if index[root] != usize::MAX {
            continue;
        }
        // (instruction, how many of its successors were visited)
        let mut work = vec![(root, 0usize)];
        index[root] = next;
        low[root] = next;
        next += 1;
        stack.push(root);
        on_stack[root] = true;
        while let Some(&mut (v, ref mut k)) = work.last_mut() {
            if let Some(&w) = succs[v].get(*k) {
                *k += 1;
                if index[w] == usize::MAX {
                    index[w] = next;
                    low[w] = next;
                    next += 1;
                    stack.push(w);
                    on_stack[w] = true;
                    work.push((w, 0));
                } else if on_stack[w] {
                    low[v] = low[v].min(index[w]);
                }
                continue;
            }
            work.pop();
            if let Some(&(u, _)) = work.last() {
                low[u] = low[u].min(low[v]);
            }
            if low[v] == index[v] {
                let mut members = Vec::new();
                while let Some(w) = stack.pop() {
                    on_stack[w] = false;
                    members.push(w);
                    if w == v {
                        break;
                    }
                }
                let cycle = members.len() > 1 || succs[v].contains(&v);
                for w in members {
                    out[w] = cycle;
                    comp[w] = comps;
                }
                comps += 1;
            }
        }
    }
    (comp, out)
}

/// Whether each instruction lies on a cycle nested inside another: the outer loops' entries
/// (members reached from outside their component) lose their incoming edges from inside
/// it, and what still lies on a cycle is in an inner loop.
fn in_inner_cycles(flow: &Flow) -> Vec<bool> {
    let (comp, cyclic) = sccs(&flow.succs);
    let n = flow.insns.len();
    let mut entry = vec![false; n];
    for v in 0..n {
        for &w in &flow.succs[v] {
            if comp[w] != comp[v] {
                entry[w] = true;
            }
        }
    }
    for (v, e) in entry.iter_mut().enumerate() {
        if flow.entries[v] {
            *e = true;
        }
    }
    let inner: Vec<Vec<usize>> = (0..n)
        .map(|v| {
            if !cyclic[v] {
                return Vec::new();
            }
            flow.succs[v].iter().copied().filter(|&w| comp[w] == comp[v] && !entry[w]).collect()
        })
        .collect();
    sccs(&inner).1
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::input::program::{Function, Reloc};

    /// `main: call once; loop: call looped; rjmp loop` and two leaves that return.
    fn program() -> AvrProgram {
        let words: [u16; 7] = [0x940e, 0x0005, 0x940e, 0x0006, 0xcffd, 0x9508, 0x9508];
        AvrProgram {
            text: words.iter().flat_map(|w| w.to_le_bytes()).collect(),
            functions: vec![
                Function { name: "main".into(), addr: 0 },
                Function { name: "once".into(), addr: 10 },
                Function { name: "looped".into(), addr: 12 },
            ],
            entry: 0,
            ..Default::default()
        }
    }

    #[test]
    fn code_outside_loops_of_functions_entered_once_is_cold() {
        let prog = program();
        let flow = Flow::new(&prog).unwrap();
        // main's first call, and once's return; the loop and what it calls are not.
        assert_eq!(cold(&prog, &flow), [true, false, false, true, false]);
    }

    #[test]
    fn an_outer_loop_of_a_function_entered_once_is_warm_and_its_inner_loop_hot() {
        use Heat::{Cold, Hot, Warm};
        // main: nop; outer: nop; inner: nop; brne inner; breq out; rjmp outer; out: ret
        // and a leaf the outer loop calls.
        let words: [u16; 9] = [0x0000, 0x940e, 0x0008, 0x0000, 0xF7F1, 0xF009, 0xCFFA, 0x9508, 0x9508];
        let prog = AvrProgram {
            text: words.iter().flat_map(|w| w.to_le_bytes()).collect(),
            functions: vec![Function { name: "main".into(), addr: 0 }, Function { name: "leaf".into(), addr: 16 }],
            entry: 0,
            ..Default::default()
        };
        let flow = Flow::new(&prog).unwrap();
        assert_eq!(heat(&prog, &flow), [Cold, Warm, Hot, Hot, Warm, Warm, Cold, Hot]);
    }

    #[test]
    fn a_function_whose_address_is_taken_is_not_cold() {
        let mut prog = program();
        prog.data = vec![0, 0];
        prog.data_relocs.push(Reloc { offset: 0, kind: RelocKind::R16Pm, target: Target::Code(10) });
        let flow = Flow::new(&prog).unwrap();
        assert_eq!(cold(&prog, &flow), [true, false, false, false, false]);
    }
}
