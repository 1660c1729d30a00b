//! The symbolic listing: every translated function, each AVR instruction followed by the
//! 6502 code it became, with operands named (`r24`, `rt_push`, `avr_0012`, `data+$4`)
//! rather than placed. It is what the precise-output tests (`tests/filetests`) compare,
//! so it must not move when an unrelated part of the layout does: no 6502 addresses, only
//! each instruction's bytes and base cycles, which do not depend on where it lands.
//!
//! Assumes: chunks are in program order, each runtime chunk opens with its routine's
//! label. Guarantees: the same chunks give the same text.

use std::collections::HashMap;
use std::fmt::Write as _;

use crate::input::decode::Insn;
use crate::input::program::AvrProgram;
use crate::mmap::{FLAGS, REGS, SPH, SPL, TEMP, TFLAG};
use mos_asm::asm::{Arg, Item, Label, Mode, Part, Sym, mnemonic};
use mos_asm::link::{Chunk, Owner};

/// What the renderer needs besides the chunks.
pub struct Source<'a> {
    /// The program (function names and starts).
    pub prog: &'a AvrProgram,
    /// Byte address of each AVR instruction.
    pub addrs: &'a [u32],
    /// The decoded instructions.
    pub insns: &'a [Insn],
    /// Placed size and base cycles of each chunk: `(start, bytes, cycles)`.
    pub spans: &'a [(u16, u16, u32)],
    /// What the whole-program passes did with a function or why they left it alone, by
    /// function index ([`crate::analysis::callgraph`], [`crate::frames::static_frames`]).
    pub notes: &'a HashMap<usize, String>,
}

impl Source<'_> {
    /// Instruction `i` as the listing shows it ([`shown`]).
    fn shown(&self, i: usize) -> String {
        shown(self.prog, self.addrs[i], &self.insns[i])
    }
}

/// How a listing shows the instruction at `addr`, `now` as the passes left it: as the
/// program has it, and how [`crate::avr_rewrites::held_loads`] changed it, if it did.
pub fn shown(prog: &AvrProgram, addr: u32, now: &Insn) -> String {
    let written = crate::input::decode::decode(&prog.text, addr as usize, 0).unwrap_or(*now);
    crate::avr_rewrites::held_loads::shown(&written, now)
}

/// Renders the translated (not interpreted) functions of `chunks`.
pub fn render(chunks: &[Chunk], src: &Source) -> String {
    let names: HashMap<Label, String> = chunks
        .iter()
        .filter_map(|c| match (&c.owner, c.items.first()) {
            (Owner::Runtime(n), Some(Item::Label(l))) => Some((*l, n.clone())),
            _ => None,
        })
        .chain(crate::runtime::Routine::INNER.map(|r| (r.label(), r.name())))
        .collect();
    let label = |l: Label| match names.get(&l) {
        Some(n) => n.clone(),
        None if (l.0 as usize) < src.addrs.len() => format!("avr_{:04x}", src.addrs[l.0 as usize]),
        None => format!("L{:x}", l.0),
    };
    let starts: HashMap<u32, usize> = src.prog.functions.iter().enumerate().map(|(i, f)| (f.addr, i)).collect();
    let mut out = String::new();
    for (ci, c) in chunks.iter().enumerate() {
        let Owner::Insn(i) = c.owner else { continue };
        let a = src.addrs[i];
        if let Some(&f) = starts.get(&a) {
            let _ = writeln!(out, "\n{}:", src.prog.functions[f].name);
            if let Some(why) = src.notes.get(&f) {
                let _ = writeln!(out, "  ; {why}");
            }
        }
        let (_, len, cycles) = src.spans[ci];
        let _ = writeln!(out, "  {a:04x}  {:<28} ; {len} bytes, {cycles} cycles", src.shown(i));
        for it in &c.items {
            match it {
                Item::Label(l) if l.0 as usize == i => {}
                Item::Label(l) => {
                    let _ = writeln!(out, "      {}:", label(*l));
                }
                Item::Ins(o, arg) => {
                    let _ = writeln!(out, "        {}", instruction(*o, arg, &label));
                }
                Item::Branch(o, l) => {
                    let m = mnemonic(*o).map_or("???", |(m, _)| m);
                    let _ = writeln!(out, "        {m} {}", label(*l));
                }
                Item::Bytes(b) => {
                    let hex: Vec<String> = b.iter().map(|x| format!("${x:02x}")).collect();
                    let _ = writeln!(out, "        .byte {}", hex.join(","));
                }
            }
        }
    }
    // The subroutines outlined from the functions' code ([`crate::mos_rewrites::outline`]).
    for (ci, c) in chunks.iter().enumerate().filter(|(_, c)| crate::mos_rewrites::outline::is_outlined(&c.owner)) {
        let Owner::Runtime(name) = &c.owner else { continue };
        let (_, len, cycles) = src.spans[ci];
        let _ = writeln!(out, "\n{name}:  ; {len} bytes, {cycles} cycles");
        for it in c.items.iter().skip(1) {
            if let Item::Ins(o, arg) = it {
                let _ = writeln!(out, "        {}", instruction(*o, arg, &label));
            }
        }
    }
    out
}

/// A zero-page byte by what it holds.
fn zero_page(z: u8) -> String {
    match z {
        _ if (REGS..REGS + 32).contains(&z) => format!("r{}", z - REGS),
        SPL => "spl".into(),
        SPH => "sph".into(),
        FLAGS => "flags".into(),
        TFLAG => "tflag".into(),
        _ if (TEMP..TEMP + 0x20).contains(&z) => format!("tmp{}", z - TEMP),
        _ => format!("${z:02x}"),
    }
}

fn symbol(sym: Sym, part: Part, off: i32, label: &dyn Fn(Label) -> String) -> String {
    let base = match sym {
        Sym::Code(l) => label(l),
        Sym::Data(x) => format!("data+${x:x}"),
        Sym::Bss(x) => format!("bss+${x:x}"),
        Sym::BssStart => "bss_start".into(),
        Sym::BssLen => "bss_len".into(),
        Sym::Bank1End => "bank1_end".into(),
    };
    let base = if off == 0 { base } else { format!("{base}{off:+}") };
    match part {
        Part::Lo => format!("<{base}"),
        Part::Hi => format!(">{base}"),
        Part::NegLo => format!("<-{base}"),
        Part::NegHi => format!(">-{base}"),
        Part::Word => base,
    }
}

fn instruction(o: u8, arg: &Arg, label: &dyn Fn(Label) -> String) -> String {
    let Some((m, mode)) = mnemonic(o) else { return format!(".byte ${o:02x} ; unknown opcode") };
    let operand = match (arg, mode) {
        (Arg::None, Mode::Acc) => "A".into(),
        (Arg::None, _) => String::new(),
        (Arg::Byte(b), Mode::Imm) => format!("#${b:02x}"),
        (Arg::Byte(b), Mode::Rel) => format!("*{:+}", i32::from(*b as i8) + 2),
        (Arg::Byte(b), _) => zero_page(*b),
        (Arg::Word(w), _) => format!("${w:04x}"),
        (Arg::Sym(s, p, off), Mode::Imm) => format!("#{}", symbol(*s, *p, *off, label)),
        (Arg::Sym(s, p, off), _) => symbol(*s, *p, *off, label),
    };
    let operand = match mode {
        Mode::Zpx | Mode::Abx => format!("{operand},X"),
        Mode::Aby => format!("{operand},Y"),
        Mode::Izy => format!("({operand}),Y"),
        Mode::Ind => format!("({operand})"),
        _ => operand,
    };
    if operand.is_empty() { m.to_string() } else { format!("{m} {operand}") }
}

#[cfg(test)]
mod tests {
    use super::*;
    use mos_asm::asm::op;

    #[test]
    fn operands_are_named_by_what_they_hold() {
        let none = |_: Label| String::from("x");
        assert_eq!(instruction(op::LDA_ZP, &Arg::Byte(REGS + 24), &none), "LDA r24");
        assert_eq!(instruction(op::STA_IZY, &Arg::Byte(REGS + 30), &none), "STA (r30),Y");
        assert_eq!(instruction(op::LDA_IMM, &Arg::Sym(Sym::Data(4), Part::Hi, 0), &none), "LDA #>data+$4");
        assert_eq!(instruction(op::ASL_A, &Arg::None, &none), "ASL A");
        assert_eq!(instruction(op::BVC, &Arg::Byte(2), &none), "BVC *+4");
        assert_eq!(instruction(op::STA_ABX, &Arg::Word(0xd020), &none), "STA $d020,X");
        assert_eq!(instruction(op::JSR, &Arg::Sym(Sym::Code(Label(7)), Part::Word, 0), &none), "JSR x");
        assert_eq!(zero_page(FLAGS), "flags");
    }
}
