//! Whole-program analysis: the call graph and a summary of every function, the facts an
//! optimisation across functions must rest on, and the reasons a function must keep the
//! plain lowering.
//!
//! Assumes: the program is all the code there is (rustc's LTO output linked whole), and
//! code pointers appear only through relocations, so a function whose address is never
//! relocated is called only by the `call`/`rcall`/`jmp`/`rjmp` instructions that name it.
//! Native routines ([`crate::runtime::NATIVE`]) follow the AVR calling convention: they
//! may write the call-used registers (r0, r1, r18-r27, r30, r31) and keep the others.
//!
//! Guarantees: `writes` over-approximates the registers a call to the function may leave
//! changed when it returns, not counting its own saves and restores (what a caller sees is
//! `writes` minus what the function pushes and pops); a function marked `safe` is called
//! only directly, does not call through a pointer, takes no part in recursion and does not
//! observe the stack pointer, so its code may be changed in ways its callers can see only
//! through registers.

use std::collections::HashMap;

use crate::input::decode::{Insn, Mode, Op};
use crate::input::program::{AvrProgram, RelocKind, Target};

/// A set of AVR registers, bit n for rn.
pub type RegSet = u32;

/// The registers a native routine may change (the AVR calling convention's call-used
/// registers, and r1, which it must leave 0 but may use meanwhile).
pub const CALL_USED: RegSet = 0b1100_1111_1111_1100_0000_0000_0000_0011;

/// Why a function cannot take part in optimisations across functions.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Reason {
    /// It reads SP (`in r, 0x3d/0x3e`): a frame or stack arguments, which see every byte
    /// its callers and it keep on the stack.
    ReadsSp,
    /// Its address is taken (a vtable, a function pointer): callers unknown.
    AddressTaken,
    /// It calls or jumps through a pointer (`icall`, `ijmp`): callees unknown.
    IndirectCall,
    /// It is part of a cycle of calls (recursion).
    Recursive,
    /// It is interpreted, not translated.
    Interpreted,
    /// The program's entry (called by the start-up code).
    Entry,
}

impl Reason {
    /// The reason in the listing's words.
    pub fn describe(self) -> &'static str {
        match self {
            Reason::ReadsSp => "reads SP (frame or stack arguments)",
            Reason::AddressTaken => "address taken (called through a pointer)",
            Reason::IndirectCall => "calls through a pointer",
            Reason::Recursive => "recursive",
            Reason::Interpreted => "interpreted",
            Reason::Entry => "program entry",
        }
    }
}

/// What the analysis knows about one function.
#[derive(Debug, Clone, Default)]
pub struct Summary {
    /// Functions it calls or tail-calls directly, by index.
    pub callees: Vec<usize>,
    /// Registers it or anything it calls may write (over-approximated, saves included).
    pub writes: RegSet,
    /// Registers its prologue pushes (`push` before any other instruction).
    pub saves: RegSet,
    /// Why it cannot be changed across functions; empty when it can.
    pub reasons: Vec<Reason>,
    /// It, or a function it calls directly or through others, calls through a pointer.
    pub reaches_pointer_call: bool,
}

impl Summary {
    /// Whether optimisations across functions may change it.
    pub fn safe(&self) -> bool {
        self.reasons.is_empty()
    }

    /// The reasons as one phrase, for the listing.
    pub fn why(&self) -> String {
        self.reasons.iter().map(|r| r.describe()).collect::<Vec<_>>().join(", ")
    }
}

/// Registers instruction `insn` may write, without calls (over-approximated: word
/// operations count both halves, the multiplies r1:r0).
pub fn writes_of(insn: &Insn) -> RegSet {
    let pair = |d: u8| (1u32 << d) | (1u32 << (d + 1).min(31));
    let ptr = |p: crate::input::decode::Ptr, m: Mode| if m == Mode::Disp { 0 } else { pair(p.reg()) };
    match insn.op {
        Op::Nop
        | Op::Cp
        | Op::Cpc
        | Op::Cpi
        | Op::Cpse
        | Op::Sts
        | Op::Push
        | Op::Out
        | Op::Bset
        | Op::Bclr
        | Op::Ret
        | Op::Reti
        | Op::Sleep
        | Op::Break
        | Op::Wdr
        | Op::Ijmp
        | Op::Eijmp
        | Op::Jmp
        | Op::Rjmp
        | Op::Brbs
        | Op::Brbc
        | Op::Bst
        | Op::Sbrc
        | Op::Sbrs
        | Op::Sbic
        | Op::Sbis
        | Op::Cbi
        | Op::Sbi
        | Op::Call
        | Op::Rcall
        | Op::Icall
        | Op::Eicall => 0,
        Op::St(p, m) => ptr(p, m),
        Op::Ld(p, m) => ptr(p, m) | (1 << insn.d),
        Op::Mul | Op::Muls | Op::Mulsu | Op::Fmul | Op::Fmuls | Op::Fmulsu => 0b11,
        Op::Lpm | Op::Elpm | Op::Spm => !0,
        Op::Movw | Op::Adiw | Op::Sbiw => pair(insn.d),
        _ => 1 << insn.d,
    }
}

/// Analyses the whole program. `func_of` gives each instruction's function, `interp`
/// which functions are interpreted.
pub fn analyse(
    prog: &AvrProgram,
    insns: &[Insn],
    func_of: &[Option<usize>],
    interp: &[bool],
    adjusts: &[bool],
) -> Vec<Summary> {
    let n = prog.functions.len();
    let starts: HashMap<u32, usize> = prog.functions.iter().enumerate().map(|(i, f)| (f.addr, i)).collect();
    let mut sums = vec![Summary::default(); n];
    let mut native_calls = vec![false; n];
    let mut opening = vec![true; n];
    for (i, insn) in insns.iter().enumerate() {
        let Some(f) = func_of[i] else { continue };
        let s = &mut sums[f];
        s.writes |= writes_of(insn);
        if opening[f] && insn.op == Op::Push {
            s.saves |= 1 << insn.d;
        } else {
            opening[f] = false;
        }
        match insn.op {
            Op::Call | Op::Rcall | Op::Jmp | Op::Rjmp => {
                if let Some(&g) = starts.get(&insn.k) {
                    if !s.callees.contains(&g) {
                        s.callees.push(g);
                    }
                } else if prog.native_at(insn.k).is_some() {
                    native_calls[f] = true;
                }
            }
            Op::Icall | Op::Eicall | Op::Ijmp | Op::Eijmp => s.reasons.push(Reason::IndirectCall),
            Op::In if insn.k == 0x3D || insn.k == 0x3E => s.reasons.push(Reason::ReadsSp),
            _ => {}
        }
    }
    for (f, s) in sums.iter_mut().enumerate() {
        if native_calls[f] {
            s.writes |= CALL_USED;
        }
        if s.reasons.contains(&Reason::IndirectCall) {
            // Anything may run: assume every register changes.
            s.writes = !0;
        }
        if interp[f] {
            s.reasons.push(Reason::Interpreted);
        }
        if adjusts[f] && !s.reasons.contains(&Reason::ReadsSp) {
            // Kept the AVR stack footprint for another reason (the lockstep setting).
            s.reasons.push(Reason::ReadsSp);
        }
        if prog.functions[f].addr == prog.entry {
            s.reasons.push(Reason::Entry);
        }
    }
    // A call or branch names its target; any other relocation to code (a pointer in data,
    // an `ldi` of a function's address) lets the function be called through a pointer.
    let relocs = prog.text_relocs.values().chain(&prog.data_relocs);
    for rel in relocs.filter(|r| !matches!(r.kind, RelocKind::Call | RelocKind::Pcrel7 | RelocKind::Pcrel13)) {
        if let Target::Code(a) = rel.target
            && let Some(&f) = starts.get(&a)
        {
            sums[f].reasons.push(Reason::AddressTaken);
        }
    }
    // Writes through callees, to a fixed point (the sets only grow, 32 bits each).
    loop {
        let mut changed = false;
        for f in 0..n {
            let extra = sums[f].callees.iter().fold(0, |acc, &g| acc | sums[g].writes);
            if extra & !sums[f].writes != 0 {
                sums[f].writes |= extra;
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
    for f in 0..n {
        sums[f].reaches_pointer_call = reaches(&sums, f, |s| s.reasons.contains(&Reason::IndirectCall));
    }
    for f in on_cycles(&sums) {
        sums[f].reasons.push(Reason::Recursive);
    }
    for s in &mut sums {
        s.reasons.sort();
        s.reasons.dedup();
    }
    sums
}

/// Whether `f` or a function it reaches through direct calls satisfies `what`.
fn reaches(sums: &[Summary], f: usize, what: impl Fn(&Summary) -> bool) -> bool {
    let mut seen = vec![false; sums.len()];
    let mut stack = vec![f];
    while let Some(g) = stack.pop() {
        if what(&sums[g]) {
            return true;
        }
        if !std::mem::replace(&mut seen[g], true) {
            stack.extend(&sums[g].callees);
        }
    }
    false
}

/// Functions that can reach themselves through direct calls.
fn on_cycles(sums: &[Summary]) -> Vec<usize> {
    let n = sums.len();
    (0..n)
        .filter(|&f| {
            let mut seen = vec![false; n];
            let mut stack: Vec<usize> = sums[f].callees.clone();
            while let Some(g) = stack.pop() {
                if g == f {
                    return true;
                }
                if !std::mem::replace(&mut seen[g], true) {
                    stack.extend(&sums[g].callees);
                }
            }
            false
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::input::decode::decode;
    use crate::input::program::{Function, Reloc};

    /// main: call leaf; call rec; ret / leaf: push r16; mov r16, r24; pop r16; ret /
    /// rec: in r28, 0x3d; rcall rec; icall; ret
    fn program() -> (AvrProgram, Vec<Insn>, Vec<Option<usize>>) {
        let words: [u16; 13] =
            [0x940E, 0x0005, 0x940E, 0x0009, 0x9508, 0x930F, 0x2F08, 0x910F, 0x9508, 0xB7CD, 0xDFFE, 0x9509, 0x9508];
        let text: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
        let prog = AvrProgram {
            text,
            functions: vec![
                Function { name: "main".into(), addr: 0 },
                Function { name: "leaf".into(), addr: 10 },
                Function { name: "rec".into(), addr: 18 },
            ],
            ..Default::default()
        };
        let mut insns = Vec::new();
        let mut func_of = Vec::new();
        let mut at = 0;
        while at < prog.text.len() {
            let i = decode(&prog.text, at, 0).unwrap();
            func_of.push(Some(prog.functions.partition_point(|f| f.addr as usize <= at) - 1));
            at += usize::from(i.len);
            insns.push(i);
        }
        (prog, insns, func_of)
    }

    #[test]
    fn summaries_follow_calls_and_name_what_blocks_optimisation() {
        let (prog, insns, func_of) = program();
        let s = analyse(&prog, &insns, &func_of, &[false; 3], &[false; 3]);
        assert_eq!(s[0].callees, vec![1, 2]);
        assert_eq!(s[1].saves, 1 << 16, "leaf saves r16");
        assert_eq!(s[1].writes, 1 << 16, "leaf writes only r16");
        assert!(s[1].safe(), "{:?}", s[1].reasons);
        assert_eq!(s[2].reasons, vec![Reason::ReadsSp, Reason::IndirectCall, Reason::Recursive]);
        assert_eq!(s[2].writes, !0, "an indirect call may write anything");
        assert_eq!(s[0].writes, !0, "main calls it");
        assert_eq!(s[0].reasons, vec![Reason::Entry]);
        assert!(s[0].reaches_pointer_call && s[2].reaches_pointer_call && !s[1].reaches_pointer_call);
    }

    #[test]
    fn a_relocated_address_makes_a_function_address_taken() {
        let (mut prog, insns, func_of) = program();
        prog.data_relocs.push(Reloc { offset: 0, kind: RelocKind::R16Pm, target: Target::Code(10) });
        prog.text_relocs.insert(6, Reloc { offset: 6, kind: RelocKind::Call, target: Target::Code(18) });
        let s = analyse(&prog, &insns, &func_of, &[false, true, false], &[false; 3]);
        assert_eq!(s[1].reasons, vec![Reason::AddressTaken, Reason::Interpreted]);
        assert!(!s[2].reasons.contains(&Reason::AddressTaken), "a call's relocation takes no address");
        assert_eq!(s[1].why(), "address taken (called through a pointer), interpreted");
    }

    #[test]
    fn word_operations_write_both_halves_and_plain_stores_nothing() {
        let movw = decode(&0x0111u16.to_le_bytes(), 0, 0).unwrap();
        assert_eq!(writes_of(&movw), 0b1100);
        let std = decode(&0x8389u16.to_le_bytes(), 0, 0).unwrap();
        assert_eq!(writes_of(&std), 0);
        let st_x_inc = decode(&0x938Du16.to_le_bytes(), 0, 0).unwrap();
        assert_eq!(writes_of(&st_x_inc), 0b11 << 26);
    }
}
