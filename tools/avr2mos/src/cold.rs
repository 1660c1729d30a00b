//! Which instructions run a bounded number of times per run of the program, whatever its
//! input: the static cost model of [`crate::outline`], which may make such code slower
//! and smaller.
//!
//! Why a static model and not a profile: a profile is of one input and one build, and the
//! translator would have to be handed it and keep it in step with the code; loop nesting
//! is in the code itself. The price is that code on a rare path inside a loop (an error, a
//! shoe's refill) counts as hot.
//!
//! Assumes the decoded program and its control flow ([`Flow`]): `succs` inside each
//! function, calls returning to the next instruction. Guarantees: an instruction is cold
//! only if it is in no cycle of its function's flow graph and its function is entered a
//! bounded number of times: it is the program's entry, or every one of its callers is a
//! direct call or jump from a cold instruction and its address is never taken (no
//! relocation but a call's or jump's operand names it), so neither a loop, recursion nor a call through a pointer
//! reaches it.

use crate::decode::Op;
use crate::flow::Flow;
use crate::program::{AvrProgram, RelocKind, Target};

/// Whether each instruction of `flow` is cold (see the module doc).
pub fn cold(prog: &AvrProgram, flow: &Flow) -> Vec<bool> {
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
    (0..flow.insns.len()).map(|i| !in_loop[i] && flow.func_of[i].is_some_and(|f| entered_once[f])).collect()
}

/// Whether each instruction lies on a cycle of its function's flow graph (Tarjan's
/// strongly connected components, iteratively: a component of more than one instruction,
/// or one that is its own successor).
fn in_cycles(flow: &Flow) -> Vec<bool> {
    let n = flow.insns.len();
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
            if let Some(&w) = flow.succs[v].get(*k) {
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
                let cycle = members.len() > 1 || flow.succs[v].contains(&v);
                for w in members {
                    out[w] = cycle;
                }
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::program::{Function, Reloc};

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
    fn a_function_whose_address_is_taken_is_not_cold() {
        let mut prog = program();
        prog.data = vec![0, 0];
        prog.data_relocs.push(Reloc { offset: 0, kind: RelocKind::R16Pm, target: Target::Code(10) });
        let flow = Flow::new(&prog).unwrap();
        assert_eq!(cold(&prog, &flow), [true, false, false, false, false]);
    }
}
