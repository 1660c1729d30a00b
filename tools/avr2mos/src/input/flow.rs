//! Decoding and control flow: every instruction of `.text` decoded once, and the facts
//! about where control goes that every later pass reads.
//!
//! Assumes the program's functions are sorted by address (as [`AvrProgram::from_elf`]
//! gives them). Guarantees: `.text` decodes completely or the error names the function,
//! offset and bytes of the first instruction that does not; a jump to a function's start
//! is a tail call and has no successor inside the function; every instruction reached
//! other than by falling through (a function's start, the entry, a branch or skip target,
//! a relocated code address) is marked as a target, so no pass folds code across it.

use std::collections::HashMap;
use std::ops::Range;

use crate::error::TranslateError;
use crate::input::decode::{self, DecodeError, Insn, Op};
use crate::input::program::{AvrProgram, RelocKind, Target};

/// The decoded program and its control flow.
#[derive(Debug)]
pub struct Flow {
    /// Byte address of each instruction.
    pub addrs: Vec<u32>,
    /// The decoded instructions.
    pub insns: Vec<Insn>,
    /// Instruction index by address.
    pub index: HashMap<u32, usize>,
    /// Function index by start address.
    pub func_starts: HashMap<u32, usize>,
    /// Index of the function containing each instruction (`None` before the first).
    pub func_of: Vec<Option<usize>>,
    /// Each function's instructions, by index.
    pub ranges: Vec<Range<usize>>,
    /// The instructions control can reach next from each one, inside its function.
    pub succs: Vec<Vec<usize>>,
    /// Whether each instruction can be reached other than from the one before it.
    pub is_target: Vec<bool>,
    /// Whether each instruction is reached from outside its function's flow (`succs`): a
    /// function's start, the entry, a call target, a relocated code address.
    pub entries: Vec<bool>,
    /// Whether each function reads SP (`in` from $3D or $3E).
    pub reads_sp: Vec<bool>,
}

impl Flow {
    /// Decodes `prog`'s code and works out its control flow.
    pub fn new(prog: &AvrProgram) -> Result<Flow, TranslateError> {
        let (addrs, insns) = decode_all(prog)?;
        let index: HashMap<u32, usize> = addrs.iter().enumerate().map(|(i, &a)| (a, i)).collect();
        let func_starts: HashMap<u32, usize> = prog.functions.iter().enumerate().map(|(i, f)| (f.addr, i)).collect();
        let func_of: Vec<Option<usize>> =
            addrs.iter().map(|&a| prog.functions.partition_point(|f| f.addr <= a).checked_sub(1)).collect();
        let mut reads_sp = vec![false; prog.functions.len()];
        for (i, insn) in insns.iter().enumerate() {
            if insn.op == Op::In
                && (insn.k == 0x3D || insn.k == 0x3E)
                && let Some(f) = func_of[i]
            {
                reads_sp[f] = true;
            }
        }
        let ranges = (0..prog.functions.len())
            .map(|f| {
                let start = func_of.partition_point(|g| g.is_none_or(|g| g < f));
                start..func_of.partition_point(|g| g.is_none_or(|g| g <= f))
            })
            .collect();
        let succs = successors(&insns, &index, &func_starts);
        let (is_target, entries) = targets(prog, &addrs, &insns, &index);
        Ok(Flow { addrs, insns, index, func_starts, func_of, ranges, succs, is_target, entries, reads_sp })
    }
}

fn decode_all(prog: &AvrProgram) -> Result<(Vec<u32>, Vec<Insn>), TranslateError> {
    let mut addrs = Vec::new();
    let mut insns = Vec::new();
    let mut at = 0usize;
    while at + 1 < prog.text.len() {
        match decode::decode(&prog.text, at, 0) {
            Ok(i) => {
                addrs.push(at as u32);
                at += usize::from(i.len);
                insns.push(i);
            }
            Err(e) => {
                let n = if e == DecodeError::Truncated { prog.text.len() - at } else { 2 };
                let bytes = prog.text[at..at + n].iter().map(|b| format!("{b:02x}")).collect::<Vec<_>>().join(" ");
                return Err(TranslateError::UnknownInstruction { at: prog.locate(at as u32), bytes });
            }
        }
    }
    Ok((addrs, insns))
}

/// Where control goes after each instruction, inside its function: nowhere after a return
/// or an indirect or tail jump; calls return to the next instruction.
fn successors(insns: &[Insn], index: &HashMap<u32, usize>, func_starts: &HashMap<u32, usize>) -> Vec<Vec<usize>> {
    insns
        .iter()
        .enumerate()
        .map(|(i, insn)| {
            let next = (i + 1 < insns.len()).then_some(i + 1);
            let at = |a: u32| index.get(&a).copied();
            let v: Vec<Option<usize>> = match insn.op {
                Op::Ret | Op::Reti | Op::Ijmp | Op::Eijmp => vec![],
                Op::Rjmp | Op::Jmp if func_starts.contains_key(&insn.k) => vec![],
                Op::Rjmp | Op::Jmp => vec![at(insn.k)],
                Op::Brbs | Op::Brbc => vec![next, at(insn.k)],
                Op::Cpse | Op::Sbrc | Op::Sbrs | Op::Sbic | Op::Sbis => {
                    vec![next, (i + 2 < insns.len()).then_some(i + 2)]
                }
                _ => vec![next],
            };
            v.into_iter().flatten().collect()
        })
        .collect()
}

/// Instructions reachable other than by falling through: they start new blocks, and
/// nothing may be folded across them; and those of them reached from outside their
/// function's flow.
fn targets(prog: &AvrProgram, addrs: &[u32], insns: &[Insn], index: &HashMap<u32, usize>) -> (Vec<bool>, Vec<bool>) {
    let mut is_target = vec![false; insns.len()];
    let mut entries = vec![false; insns.len()];
    let mut mark = |a: u32, entry: bool| {
        if let Some(&t) = index.get(&a) {
            is_target[t] = true;
            entries[t] |= entry;
        }
    };
    for f in &prog.functions {
        mark(f.addr, true);
    }
    mark(prog.entry, true);
    for (i, insn) in insns.iter().enumerate() {
        match insn.op {
            Op::Brbs | Op::Brbc | Op::Rjmp | Op::Jmp => mark(insn.k, false),
            Op::Call | Op::Rcall => mark(insn.k, true),
            Op::Cpse | Op::Sbrc | Op::Sbrs | Op::Sbic | Op::Sbis => {
                if let Some(&a) = addrs.get(i + 2) {
                    mark(a, false);
                }
            }
            _ => {}
        }
    }
    // A jump's or a call's own relocation is the edge above; any other code address
    // (a function pointer, a jump table) may be entered from anywhere.
    for rel in prog.text_relocs.values().chain(&prog.data_relocs) {
        if let Target::Code(a) = rel.target {
            mark(a, !matches!(rel.kind, RelocKind::Call | RelocKind::Pcrel7 | RelocKind::Pcrel13));
        }
    }
    (is_target, entries)
}
