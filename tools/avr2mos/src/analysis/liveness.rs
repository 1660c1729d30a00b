//! AVR register liveness over the whole program: which registers a later instruction may
//! read, for each instruction, before anything writes them again.
//!
//! A backward data-flow over every instruction, iterated to a fixed point, as [`crate::analysis::flags`]
//! does for flags. It runs twice. The first run finds each function's arguments: the
//! registers its body reads before writing them (its prologue's pushes do not count: they
//! read a register only to give it back), with nothing live at a return but r1 and the
//! call-used registers of [`Input::exits`]. A return register left as it came in is an
//! argument only where a caller reads it after the call: one that passes a 64-bit value
//! through on some path needs its caller's bytes, but a function that never touches r20
//! must not make every caller's `ldi r20, 0` live just because r20 could carry a result.
//! The second run uses those arguments at every call and each function's own set of
//! registers live at its returns.
//!
//! Assumes: the program is all the code there is (as [`crate::analysis::callgraph`] does); every
//! function follows the AVR calling convention (r1 is zero at calls and returns; a callee
//! may leave the call-used registers changed, so a caller reads none of them after a call
//! unless the callee wrote it); native routines read only their documented operands
//! ([`native_args`]) and keep every register they do not return in; a call that is a
//! function's last instruction does not return (code never runs on into the next
//! function: LLVM ends a function with a `ret` or a jump, or with a call of a function
//! that never returns, such as `exit` before `abort`), so nothing after it is live, as
//! [`crate::frames::saves`] counts no fall-through after such a call either.
//!
//! Guarantees: a register not in `live_in[i]` is never read, on any path from instruction
//! `i`, before it is written (so its value there does not matter), with these
//! conservative choices: a direct call reads the callee's arguments and r1, and kills only
//! the call-used registers the callee writes (a callee-saved register flows through it);
//! a native call reads its operands and kills nothing; an indirect call (`icall`) reads
//! r8-r25, Z and r1 and kills nothing; an indirect jump (`ijmp`) and a call or jump to an
//! address that is no function read every register.

use std::collections::HashMap;

use crate::analysis::callgraph::{CALL_USED, RegSet};
use crate::input::decode::{Insn, Mode, Op};

/// r1, which LLVM keeps zero between instructions: live at every call and return.
pub const ZERO_REG: RegSet = 1 << 1;
/// The registers that carry arguments (r8-r25).
pub const ARGS: RegSet = 0x03FF_FF00;
/// The registers that carry return values (r18-r25).
pub const RETURNS: RegSet = 0x03FC_0000;
/// The registers a function must give back as it found them (r2-r17, r28, r29).
pub const CALLEE_SAVED: RegSet = 0x3003_FFFC;
/// Every register.
pub const ALL: RegSet = !0;

/// A pair of registers, rn and rn+1.
fn pair(n: u8) -> RegSet {
    0b11 << n
}

/// The registers a native routine reads (its operands), by its symbol name; r8-r25 for a
/// routine not listed.
pub fn native_args(name: &str) -> RegSet {
    let regs = |lo: u8, hi: u8| (lo..=hi).fold(0, |acc, r| acc | 1 << r);
    match name {
        "__mulsi3" | "__divmodsi4" | "__udivmodsi4" => regs(18, 25),
        "__divmodhi4" | "__udivmodhi4" => regs(22, 25),
        "__divmodqi4" | "__udivmodqi4" => 1 << 22 | 1 << 24,
        "memcpy" | "memmove" | "memset" | "memcmp" | "bcmp" => regs(20, 25),
        "__c128_exit" => 1 << 24,
        _ => ARGS,
    }
}

/// The registers a native routine may leave changed, by its symbol name: its results, as
/// the runtime documents them ([`crate::runtime`]: the routines use only their scratch
/// bytes besides); the call-used registers for a routine not listed.
pub fn native_writes(name: &str) -> RegSet {
    let regs = |lo: u8, hi: u8| (lo..=hi).fold(0, |acc, r| acc | 1 << r);
    match name {
        "__mulsi3" | "__divmodhi4" | "__udivmodhi4" => regs(22, 25),
        "__divmodsi4" | "__udivmodsi4" => regs(18, 25),
        "__divmodqi4" | "__udivmodqi4" | "memcmp" | "bcmp" => regs(24, 25),
        // The destination comes back in r25:r24 unchanged.
        "memcpy" | "memmove" | "memset" => 0,
        _ => CALL_USED,
    }
}

/// Whether a native routine may write memory, by its symbol name: the multiply, the
/// divisions and the compares write only registers; the memory routines, the KERNAL
/// gateway, the far copy and a routine not listed may.
pub fn native_writes_memory(name: &str) -> bool {
    !matches!(
        name,
        "__mulsi3"
            | "__divmodhi4"
            | "__udivmodhi4"
            | "__divmodsi4"
            | "__udivmodsi4"
            | "__divmodqi4"
            | "__udivmodqi4"
            | "memcmp"
            | "bcmp"
    )
}

/// What an instruction transfers control to besides the next instruction.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Callee {
    /// Nothing (an ordinary instruction, a branch inside the function, a return).
    None,
    /// A direct call of a function.
    Function {
        /// The function's index.
        f: usize,
        /// A jump to its start (a tail call): it returns to this function's caller.
        tail: bool,
    },
    /// A call of a native routine.
    Native {
        /// The registers it reads ([`native_args`]).
        reads: RegSet,
        /// The registers it may leave changed ([`native_writes`]).
        writes: RegSet,
    },
    /// A call through Z (`icall`).
    Indirect,
    /// Anything else that leaves the function's code: `ijmp`, or a call or jump to an
    /// address that starts no function.
    Unknown,
}

/// The program as the analysis sees it.
#[derive(Debug)]
pub struct Input<'a> {
    /// The instructions.
    pub insns: &'a [Insn],
    /// Each instruction's successors inside its function (a call's is the next
    /// instruction; a return and a tail call have none).
    pub succs: &'a [Vec<usize>],
    /// What each instruction calls.
    pub callees: &'a [Callee],
    /// Each instruction's function.
    pub func_of: &'a [Option<usize>],
    /// Each function's body: the index of its first instruction after the prologue's
    /// pushes.
    pub bodies: &'a [usize],
    /// The call-used registers each function (or what it calls) may write: what a call of
    /// it kills.
    pub kills: &'a [RegSet],
    /// Registers live at each function's returns (what its callers may read after it).
    pub exits: &'a [RegSet],
}

/// The result: registers live before and after each instruction, and each function's
/// arguments.
#[derive(Debug, Clone)]
pub struct Liveness {
    /// Registers live before each instruction.
    pub live_in: Vec<RegSet>,
    /// Registers live after each instruction (before its successors).
    pub live_out: Vec<RegSet>,
    /// The registers each function reads before writing them, its saves not counted.
    pub args: Vec<RegSet>,
}

/// Registers the instruction reads (calls and returns excepted, see [`analyse`]).
pub fn reads_of(i: &Insn) -> RegSet {
    let (d, r) = (1u32 << i.d, 1u32 << (i.r & 31));
    let ptr = |p: crate::input::decode::Ptr| pair(p.reg());
    match i.op {
        // `eor r, r` and `sub r, r` give 0 whatever r holds (`clr`).
        Op::Eor | Op::Sub if i.d == i.r => 0,
        Op::Add
        | Op::Adc
        | Op::Sub
        | Op::Sbc
        | Op::And
        | Op::Or
        | Op::Eor
        | Op::Cp
        | Op::Cpc
        | Op::Cpse
        | Op::Mul
        | Op::Muls
        | Op::Mulsu
        | Op::Fmul
        | Op::Fmuls
        | Op::Fmulsu => d | r,
        Op::Mov => r,
        Op::Movw => pair(i.r),
        Op::Subi
        | Op::Sbci
        | Op::Andi
        | Op::Ori
        | Op::Cpi
        | Op::Com
        | Op::Neg
        | Op::Swap
        | Op::Inc
        | Op::Dec
        | Op::Asr
        | Op::Lsr
        | Op::Ror
        | Op::Bld
        | Op::Bst
        | Op::Sbrc
        | Op::Sbrs
        | Op::Push
        | Op::Out
        | Op::Sts => d,
        Op::Adiw | Op::Sbiw => pair(i.d),
        Op::Ld(p, _) => ptr(p),
        Op::St(p, _) => ptr(p) | d,
        Op::Lpm | Op::Elpm | Op::Spm => ALL,
        _ => 0,
    }
}

/// Registers the instruction writes on every path through it (partial writes such as
/// `bld` count: they read the register too).
pub fn defs_of(i: &Insn) -> RegSet {
    match i.op {
        Op::Lpm | Op::Elpm | Op::Spm => 0,
        Op::Ld(_, Mode::Disp) => 1 << i.d,
        _ => crate::analysis::callgraph::writes_of(i),
    }
}

/// Registers live before instruction `i` given those live after it.
fn step(input: &Input, args: &[RegSet], i: usize, out: RegSet) -> RegSet {
    let insn = &input.insns[i];
    let exit = |i: usize| input.func_of[i].map_or(ALL, |f| input.exits[f]);
    match input.callees[i] {
        Callee::Function { f, tail: false } => args[f] | ZERO_REG | (out & !input.kills[f]),
        Callee::Function { f, tail: true } => args[f] | ZERO_REG | (exit(i) & !input.kills[f]),
        Callee::Native { reads, .. } => reads | ZERO_REG | out,
        Callee::Indirect => ARGS | pair(30) | ZERO_REG | out,
        Callee::Unknown => ALL,
        Callee::None if matches!(insn.op, Op::Ret | Op::Reti) => exit(i),
        Callee::None => reads_of(insn) | (out & !defs_of(insn)),
    }
}

/// Whether `s`, a successor of `i`, is only the next function's start after a call that
/// ends `i`'s function: that call never returns (see the module doc).
fn ends_in_call(input: &Input, i: usize, s: usize) -> bool {
    let call = matches!(input.insns[i].op, Op::Call | Op::Rcall | Op::Icall | Op::Eicall);
    call && input.func_of[s] != input.func_of[i]
}

/// One backward data-flow to a fixed point. With `args` the calls read those; without,
/// each callee's arguments are taken from the run itself (its body's live-in).
fn solve(input: &Input, args: Option<&[RegSet]>) -> (Vec<RegSet>, Vec<RegSet>) {
    let n = input.insns.len();
    let mut live_in = vec![0; n];
    let mut live_out = vec![0; n];
    let mut own: Vec<RegSet> = vec![0; input.bodies.len()];
    let mut changed = true;
    while changed {
        changed = false;
        for i in (0..n).rev() {
            let out =
                input.succs[i].iter().filter(|&&s| !ends_in_call(input, i, s)).fold(0, |acc, &s| acc | live_in[s]);
            let li = step(input, args.unwrap_or(&own), i, out);
            if out != live_out[i] || li != live_in[i] {
                live_out[i] = out;
                live_in[i] = li;
                changed = true;
            }
        }
        if args.is_none() {
            for (f, &b) in input.bodies.iter().enumerate() {
                let a = live_in.get(b).copied().unwrap_or(0);
                if a != own[f] {
                    own[f] = a;
                    changed = true;
                }
            }
        }
    }
    (live_in, live_out)
}

/// Analyses the whole program.
pub fn analyse(input: &Input) -> Liveness {
    let minimal: Vec<RegSet> = input.exits.iter().map(|&e| ZERO_REG | (e & CALL_USED)).collect();
    let first = Input { exits: &minimal, ..*input };
    let (live_in, _) = solve(&first, None);
    let args: Vec<RegSet> = input.bodies.iter().map(|&b| live_in.get(b).copied().unwrap_or(0)).collect();
    let (live_in, live_out) = solve(input, Some(&args));
    Liveness { live_in, live_out, args }
}

/// The [`Callee`] of every instruction: `starts` maps function start addresses to their
/// index; `prog` names the native routines ([`crate::AvrProgram::native_at`]).
pub fn callees(
    insns: &[Insn],
    starts: &HashMap<u32, usize>,
    prog: &crate::AvrProgram,
    is_code: impl Fn(u32) -> bool,
) -> Vec<Callee> {
    insns
        .iter()
        .map(|insn| {
            let call = matches!(insn.op, Op::Call | Op::Rcall);
            let jump = matches!(insn.op, Op::Jmp | Op::Rjmp);
            match insn.op {
                _ if call || jump => match (starts.get(&insn.k), prog.native_at(insn.k)) {
                    (Some(&f), _) => Callee::Function { f, tail: jump },
                    (None, Some(name)) if call => {
                        Callee::Native { reads: native_args(name), writes: native_writes(name) }
                    }
                    (None, None) if jump && is_code(insn.k) => Callee::None,
                    _ => Callee::Unknown,
                },
                Op::Icall | Op::Eicall => Callee::Indirect,
                Op::Ijmp | Op::Eijmp => Callee::Unknown,
                _ => Callee::None,
            }
        })
        .collect()
}

/// Each of `n` functions' body: the first instruction after the pushes of callee-saved
/// registers that open it (`insns.len()` for a function without instructions). A push of
/// a call-used register is no save but a read of its value, which the body may pop back
/// (`push r18; pop r18` passes r18 on: the fuzzer's seed 0xf42ef), and so is a second push
/// of a register the run has pushed already (`push r17; push r17; pop r17` passes r17 on:
/// seed 0x68417).
pub fn bodies(insns: &[Insn], func_of: &[Option<usize>], n: usize) -> Vec<usize> {
    let mut bodies = vec![insns.len(); n];
    let mut i = 0;
    while i < insns.len() {
        let Some(f) = func_of[i] else {
            i += 1;
            continue;
        };
        let mut j = i;
        let mut pushed: RegSet = 0;
        while j < insns.len()
            && func_of[j] == Some(f)
            && insns[j].op == Op::Push
            && CALLEE_SAVED & (1 << insns[j].d) != 0
            && pushed & (1 << insns[j].d) == 0
        {
            pushed |= 1 << insns[j].d;
            j += 1;
        }
        bodies[f] = bodies[f].min(j);
        while i < insns.len() && func_of[i] == Some(f) {
            i += 1;
        }
    }
    bodies
}

/// The call-used registers each function may write (what a call of it kills), from the
/// call graph's summaries.
pub fn kills(sums: &[crate::analysis::callgraph::Summary]) -> Vec<RegSet> {
    sums.iter().map(|s| s.writes & CALL_USED).collect()
}

/// What each instruction of the whole program, at byte addresses `addrs`, calls
/// ([`callees`], with the program's functions and code addresses).
pub fn program_callees(prog: &crate::AvrProgram, addrs: &[u32], insns: &[Insn]) -> Vec<Callee> {
    let starts: HashMap<u32, usize> = prog.functions.iter().enumerate().map(|(i, f)| (f.addr, i)).collect();
    let mut code: Vec<u32> = addrs.to_vec();
    code.sort_unstable();
    callees(insns, &starts, prog, |a| code.binary_search(&a).is_ok())
}

/// Analyses a decoded program, as [`crate::translate()`] has it: `addrs` are the
/// instructions' addresses, `succs` their successors inside their function, `sums` the
/// call graph's summaries, `exits` what each function's callers may read after it returns.
pub fn of_program(
    prog: &crate::AvrProgram,
    addrs: &[u32],
    insns: &[Insn],
    succs: &[Vec<usize>],
    func_of: &[Option<usize>],
    sums: &[crate::analysis::callgraph::Summary],
    exits: &[RegSet],
) -> Liveness {
    let callees = program_callees(prog, addrs, insns);
    let bodies = bodies(insns, func_of, sums.len());
    let kills = kills(sums);
    analyse(&Input { insns, succs, callees: &callees, func_of, bodies: &bodies, kills: &kills, exits })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::input::decode::decode_words as insns;

    fn straight(n: usize) -> Vec<Vec<usize>> {
        (0..n).map(|i| if i + 1 < n { vec![i + 1] } else { vec![] }).collect()
    }

    #[test]
    fn a_body_starts_after_the_pushes_of_callee_saved_registers() {
        // push r16; push r17; push r18; pop r18; ret: r18's push is a read, in the body.
        let code = insns(&[0x930F, 0x931F, 0x932F, 0x912F, 0x9508]);
        assert_eq!(bodies(&code, &[Some(0); 5], 1), [2]);
    }

    #[test]
    fn a_second_push_of_a_register_starts_the_body() {
        // push r17; push r17; pop r17; ret: the second push reads r17 for the pop.
        let code = insns(&[0x931F, 0x931F, 0x911F, 0x9508]);
        assert_eq!(bodies(&code, &[Some(0); 4], 1), [1]);
    }

    #[test]
    fn a_write_ends_liveness_and_a_read_starts_it() {
        // mov r16, r24; ldi r24, 1; add r24, r16; ret
        let code = insns(&[0x2F08, 0xE081, 0x0F80, 0x9508]);
        let succs = straight(4);
        let input = Input {
            insns: &code,
            succs: &succs,
            callees: &[Callee::None; 4],
            func_of: &[Some(0); 4],
            bodies: &[0],
            kills: &[CALL_USED],
            exits: &[ZERO_REG | 1 << 24],
        };
        let l = analyse(&input);
        assert_eq!(l.live_out[0], ZERO_REG | 1 << 16, "r16 is read by the add, r24 rewritten first");
        assert_eq!(l.live_in[0], ZERO_REG | 1 << 24);
        assert_eq!(l.live_out[2], ZERO_REG | 1 << 24);
        assert_eq!(l.args[0], ZERO_REG | 1 << 24, "r24 is read; no caller reads the other return registers");
    }

    #[test]
    fn clr_reads_nothing_and_loops_reach_a_fixed_point() {
        // 0: clr r24; 1: add r24, r22; 2: dec r20; 3: brne -> 1; 4: ret
        let code = insns(&[0x2788, 0x0F86, 0x954A, 0xF7E9, 0x9508]);
        let succs = vec![vec![1], vec![2], vec![3], vec![4, 1], vec![]];
        let input = Input {
            insns: &code,
            succs: &succs,
            callees: &[Callee::None; 5],
            func_of: &[Some(0); 5],
            bodies: &[0],
            kills: &[0],
            exits: &[1 << 24],
        };
        let l = analyse(&input);
        assert_eq!(l.live_in[0], 1 << 22 | 1 << 20, "clr does not read r24");
        assert_eq!(l.live_out[3], 1 << 24 | 1 << 22 | 1 << 20, "the loop keeps its inputs live");
    }

    #[test]
    fn a_call_reads_the_callee_arguments_and_passes_callee_saved_registers_through() {
        // f0: mov r16, r22; call f1; add r24, r16; ret / f1: push r17; inc r24; pop r17; ret
        let code = insns(&[0x2F06, 0x940E, 0x0005, 0x0F80, 0x9508, 0x931F, 0x9583, 0x911F, 0x9508]);
        let succs = vec![vec![1], vec![2], vec![3], vec![], vec![5], vec![6], vec![7], vec![]];
        let callees = [
            Callee::None,
            Callee::Function { f: 1, tail: false },
            Callee::None,
            Callee::None,
            Callee::None,
            Callee::None,
            Callee::None,
            Callee::None,
        ];
        let func_of = [Some(0), Some(0), Some(0), Some(0), Some(1), Some(1), Some(1), Some(1)];
        let exits = [ZERO_REG | 1 << 24, ZERO_REG | 1 << 24 | 1 << 17];
        let l = analyse(&two_functions(&code, &succs, &callees, &func_of, &[CALL_USED, 1 << 24], &exits));
        assert_eq!(l.args[1] & (1 << 17), 0, "f1's push of r17 is a save, not an argument");
        assert_eq!(l.args[1], ZERO_REG | 1 << 24, "f1 reads r24, the only return register its caller reads");
        assert_eq!(l.live_out[1], ZERO_REG | 1 << 24 | 1 << 16, "r16 is live across the call");
        assert_ne!(l.live_in[1] & 1 << 16, 0, "the call passes r16 through");
        assert_eq!(l.live_in[4] & 1 << 17, 1 << 17, "the push itself reads r17");
    }

    /// f0: ldi r20, 7; ldi r22, 9; call f1; mov r16, r20; ret / f1: cpi r24, 0; brne +1;
    /// ldi r20, 0; ret. f1 hands r20 back untouched on one path, so the caller's `ldi r20`
    /// feeds the `mov` after the call; r22, which no caller reads, is no argument of f1.
    fn pass_through(exits_f1: RegSet) -> Liveness {
        let code = insns(&[0xE047, 0xE069, 0x940E, 0x0006, 0x2F04, 0x9508, 0x3080, 0xF409, 0xE040, 0x9508]);
        let succs = vec![vec![1], vec![2], vec![3], vec![4], vec![], vec![6], vec![7, 8], vec![8], vec![]];
        let mut callees = [Callee::None; 9];
        callees[2] = Callee::Function { f: 1, tail: false };
        let func_of = [Some(0), Some(0), Some(0), Some(0), Some(0), Some(1), Some(1), Some(1), Some(1)];
        analyse(&two_functions(
            &code,
            &succs,
            &callees,
            &func_of,
            &[CALL_USED, 1 << 20],
            &[ZERO_REG | 1 << 16, exits_f1],
        ))
    }

    /// The input of a program of two functions, the second's body from instruction 5.
    fn two_functions<'a>(
        insns: &'a [Insn],
        succs: &'a [Vec<usize>],
        callees: &'a [Callee],
        func_of: &'a [Option<usize>],
        kills: &'a [RegSet],
        exits: &'a [RegSet],
    ) -> Input<'a> {
        Input { insns, succs, callees, func_of, bodies: &[0, 5], kills, exits }
    }

    #[test]
    fn a_return_register_passed_through_is_an_argument_only_where_a_caller_reads_it() {
        let read = pass_through(ZERO_REG | 1 << 20);
        assert_eq!(read.args[1], ZERO_REG | 1 << 24 | 1 << 20, "r20 comes back from the caller on one path");
        assert_ne!(read.live_out[0] & 1 << 20, 0, "the caller's ldi r20 reaches the mov through f1");
        assert_eq!(read.live_out[1] & 1 << 22, 0, "nothing reads r22");
        let unread = pass_through(ZERO_REG);
        assert_eq!(unread.args[1], ZERO_REG | 1 << 24, "no caller reads r20 after f1");
    }

    #[test]
    fn a_call_that_ends_a_function_does_not_return_into_the_next() {
        // f0: call f1; call f1 (its last instruction) / f1: push r16; mov r16, r24; pop r16;
        // ret. f1 also follows f0, so the last call's fall-through reaches f1's push.
        let code = insns(&[0x940E, 0x0004, 0x940E, 0x0004, 0x930F, 0x2F08, 0x910F, 0x9508]);
        // Flow gives the call at the end of f0 the next instruction, f2's first.
        let succs = vec![vec![1], vec![2], vec![3], vec![4], vec![5], vec![]];
        let callees = [
            Callee::Function { f: 1, tail: false },
            Callee::Function { f: 1, tail: false },
            Callee::None,
            Callee::None,
            Callee::None,
            Callee::None,
        ];
        let func_of = [Some(0), Some(0), Some(1), Some(1), Some(1), Some(1)];
        let input = Input {
            insns: &code,
            succs: &succs,
            callees: &callees,
            func_of: &func_of,
            bodies: &[0, 3],
            kills: &[CALL_USED, CALL_USED],
            exits: &[ZERO_REG | CALLEE_SAVED, ZERO_REG | 1 << 24],
        };
        let l = analyse(&input);
        assert_eq!(l.live_out[1], 0, "nothing runs after the last call");
        assert_eq!(l.live_out[0] & 1 << 16, 0, "r16 is not live after the first call: f2's push is not reached");
    }

    #[test]
    fn unknown_targets_read_everything_and_natives_their_operands() {
        // ijmp; call __udivmodqi4
        let code = insns(&[0x9409, 0x940E, 0x0000]);
        let succs = vec![vec![], vec![]];
        let input = Input {
            insns: &code,
            succs: &succs,
            callees: &[
                Callee::Unknown,
                Callee::Native { reads: native_args("__udivmodqi4"), writes: native_writes("__udivmodqi4") },
            ],
            func_of: &[Some(0), Some(0)],
            bodies: &[0],
            kills: &[0],
            exits: &[0],
        };
        let l = analyse(&input);
        assert_eq!(l.live_in[0], ALL);
        assert_eq!(l.live_in[1], ZERO_REG | 1 << 22 | 1 << 24);
        assert_eq!(native_args("__c128_kernal"), ARGS, "a routine not listed reads every argument register");
        assert_eq!(native_args("__c128_exit"), 1 << 24, "the exit code, and nothing after it");
    }
}
