//! A 6502 interpreter of AVR code, and the interpreted copies of the functions it runs.
//!
//! Translated code is about 2.4 bytes of 6502 per byte of AVR code; the AVR bytes
//! themselves are much denser. Functions chosen by the crate's placement file
//! ([`crate::pipeline::Placement`], [`selected`]) are therefore not lowered: their AVR bytes are copied into the image
//! (with every relocation rewritten, see [`copy_function`]) behind a 3-byte stub,
//! `JSR interp_enter`, which stands at the function's label. Anything calls the function
//! with a plain `JSR` to that label, exactly as a translated function: native code,
//! interpreted code, `icall` through relocated code pointers, vtables.
//!
//! # Machine state
//! The interpreter uses the state translated code uses ([`crate::mmap`]): the zero-page
//! registers, SP and the software stack, the flags byte and the T byte. It computes every
//! flag an instruction defines (C, Z, N, V; S is N xor V as everywhere), so wherever a
//! later instruction reads a flag it finds what the translation would have left. Its own
//! state is the interpreted PC (IPC, the 6502 address of the next AVR word) and a few
//! scratch bytes, all in the runtime scratch bytes T0 and T4..T11: runtime routines the
//! interpreter calls internally use T0..T3 only, and across any call out of the
//! interpreter the IPC is kept in its return stack ([`SHADOW`]).
//!
//! # Calls and re-entrancy
//! `interp_enter` takes the copy's address from its return address (the copy follows the
//! stub) and moves SP down by 2: every interpreted function keeps the AVR's 2-byte
//! return-address footprint on the AVR stack, as translated functions that read SP do
//! (a function that does not read SP cannot tell). `ret` moves SP back up and returns
//! with `RTS` to whoever called the stub. A call from interpreted code keeps the IPC in
//! the return stack ([`SHADOW`], indexed by the 6502 stack pointer) and `JSR`s the
//! callee's 6502 label (a translated function, a native
//! routine, or another stub), so the interpreter is re-entrant; a tail call (`jmp`,
//! `rjmp` or a branch to a function's first instruction) moves SP up and `JMP`s there.
//!
//! # How the copy differs from the AVR bytes
//! Only operands change, never sizes: data addresses and code pointers in `ldi`/`subi`/
//! `sbci`/`cpi`/`ori`/`andi` and `lds`/`sts` become their C128 values as in lowered code;
//! `call` holds the callee's 6502 address in its second word; `jmp` inside the function
//! holds the 6502 address of its target in the copy, and a tail-call `jmp` is marked by
//! bit 0 of its first word (bit 16 of the AVR target, always 0 in a 128 KB program) and
//! holds the callee's 6502 address. Relative calls, tail jumps and branches to another
//! function reach a 4-byte trampoline (a marked `jmp`) appended to the copy; `rcall`
//! reads the callee's address from the trampoline and calls it.

use std::collections::BTreeMap;

use crate::error::TranslateError;
use crate::input::decode::Op;
use crate::lower::Ctx;
use crate::mmap::temp;
use crate::runtime::Routine;
use mos_asm::asm::{Label, Part, Sym};

mod emit;
pub use emit::emit;

/// The interpreter's entry: the stub of every interpreted function `JSR`s here.
pub const ENTER: Label = Label(0xC000_0000);
/// The interpreter's fetch-and-dispatch loop (named in the symbol map, for profiling).
pub const NEXT: Label = Label(0xC000_0001);

/// The label of the interpreted copy of function `f` (right after its stub).
pub fn copy_label(f: usize) -> Label {
    Label(0xD000_0000 + f as u32)
}

/// The interpreter's return stack: a call out of interpreted code keeps the IPC at
/// `SHADOW + S + 1` (low) and `SHADOW + S` (high), where S is the 6502 stack pointer at the
/// call. Nested interpreted calls are at least one `JSR` (2 bytes of 6502 stack) apart,
/// so their slots never overlap, no counter has to be kept, and an interpreted call costs
/// the 6502 stack what a translated one does (2 bytes). These 256 bytes are the bottom of
/// the AVR stack's area ([`crate::mmap::STACK_LIMIT`]): in a program with interpreted
/// functions the AVR stack has 2,048 bytes.
pub const SHADOW: u16 = crate::mmap::STACK_LIMIT;

/// Interpreted PC (2 bytes): the 6502 address of the next AVR instruction word (public for
/// profilers, which read it to tell which interpreted function runs).
pub const IPC: u8 = temp(10);

/// A byte or word of the image written after layout: table entries of the interpreter
/// and relocated operands of the interpreted copies.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Patch {
    /// The label the offset counts from.
    pub base: Label,
    /// Byte offset from `base`.
    pub at: usize,
    /// The value.
    pub sym: Sym,
    /// Which part of it (a word is written little-endian).
    pub part: Part,
    /// Added to the value before taking the part.
    pub off: i32,
    /// The byte goes into the immediate field of an AVR instruction word (`ldi`, `subi`,
    /// ...: bits 11..8 and 3..0) rather than into a whole byte.
    pub avr_imm: bool,
}

impl Patch {
    /// Writes `value` (the resolved symbol) into `code` at `at`.
    pub fn write(&self, code: &mut [u8], at: usize, value: u16) {
        if self.part == Part::Word {
            code[at..at + 2].copy_from_slice(&value.to_le_bytes());
        } else if self.avr_imm {
            let w = u16::from_le_bytes([code[at], code[at + 1]]);
            let w = (w & 0xF0F0) | ((value & 0xF0) << 4) | (value & 0x0F);
            code[at..at + 2].copy_from_slice(&w.to_le_bytes());
        } else {
            code[at] = value as u8;
        }
    }
}

/// Whether the function called `name` (mangled) is interpreted under the `interpret`
/// setting: `"*"` selects every function, any other entry is a prefix of the demangled
/// name (`"bac_game::"`, `"<bac_game::menu::Menu>::draw"`) or of a method's self type's
/// path without the `<` (`"bac_game::menu::Menu>::"`); an entry starting with `!` is a prefix that stays translated
/// although another entry selects it (`"!bac_game::draw::"`: the hot drawing code of an
/// otherwise interpreted crate); an entry ending in `$` is the whole name, not a prefix.
pub fn selected(interpret: &[String], name: &str) -> bool {
    if interpret.is_empty() {
        return false;
    }
    let plain = demangle(name);
    let (excluded, included): (Vec<&String>, Vec<&String>) = interpret.iter().partition(|p| p.starts_with('!'));
    included.iter().any(|p| matches(p, name, &plain)) && !excluded.iter().any(|p| matches(&p[1..], name, &plain))
}

/// The entries of the `interpret` setting that place nothing in a program whose functions
/// are called `names` (mangled), in the setting's order: an entry that matches no
/// function, or a `!` entry that matches none of the functions the other entries select.
/// Such an entry is stale (its function was renamed, inlined or removed), and the
/// translator refuses it ([`crate::TranslateError::StalePlacement`]): a rename would
/// otherwise move code between translated and interpreted without a word.
pub fn unmatched(interpret: &[String], names: &[&str]) -> Vec<String> {
    let paths: Vec<String> = names.iter().map(|n| demangle(n)).collect();
    let included: Vec<&String> = interpret.iter().filter(|p| !p.starts_with('!')).collect();
    let chosen: Vec<bool> =
        names.iter().zip(&paths).map(|(n, path)| included.iter().any(|p| matches(p, n, path))).collect();
    let hits = |p: &str, among: &dyn Fn(usize) -> bool| {
        names.iter().zip(&paths).enumerate().any(|(k, (n, path))| among(k) && matches(p, n, path))
    };
    interpret
        .iter()
        .filter(|p| match p.strip_prefix('!') {
            Some(kept) => !hits(kept, &|k| chosen[k]),
            None => !hits(p, &|_| true),
        })
        .cloned()
        .collect()
}

/// Whether entry `p` (without its `!`) matches the function called `name`, demangled
/// `plain`. Methods demangle as `<bac_game::menu::Menu>::draw` or `<bac_game::menu::Menu
/// as core::fmt::Display>::fmt`, and the self type's path (`plain` without the `<`) counts
/// as the function's. An entry ending in `$` names one function whole (`…::App<…>>::t$` is
/// not `::title`).
fn matches(p: &str, name: &str, plain: &str) -> bool {
    let path = plain.strip_prefix('<').unwrap_or(plain);
    match p.strip_suffix('$') {
        Some(whole) => path == whole || plain == whole || name == whole,
        None => p == "*" || path.starts_with(p) || plain.starts_with(p) || name.starts_with(p),
    }
}

/// The demangled path of a Rust symbol without its hash (`_RNvNtCs…_4core3fmt5write` →
/// `core::fmt::write`); other names unchanged.
pub fn demangle(name: &str) -> String {
    format!("{:#}", rustc_demangle::demangle(name))
}

/// An interpreted function's copy: its bytes (relocated operands left as they are),
/// the patches that relocate them, and the 6502 labels it calls.
#[derive(Debug, Clone)]
pub struct Copy {
    /// The AVR bytes and the trampolines.
    pub bytes: Vec<u8>,
    /// Operands to rewrite after layout, counted from [`copy_label`].
    pub patches: Vec<Patch>,
    /// Labels the copy calls or jumps to (they must be kept in the image).
    pub uses: Vec<Label>,
}

fn word_at(b: &[u8], at: usize) -> u16 {
    u16::from_le_bytes([b[at], b[at + 1]])
}

fn set_word(b: &mut [u8], at: usize, w: u16) {
    b[at..at + 2].copy_from_slice(&w.to_le_bytes());
}

/// Builds the interpreted copy of function `f`, instructions `first..end`. Every
/// instruction is lowered too (and the code dropped) so that the interpreter accepts
/// exactly what the translator accepts.
pub fn copy_function(ctx: &Ctx, f: usize, first: usize, end: usize) -> Result<Copy, TranslateError> {
    let start = ctx.flow.addrs[first];
    let stop = ctx.flow.addrs.get(end).copied().unwrap_or(ctx.prog.text.len() as u32);
    let mut bytes = ctx.prog.text[start as usize..stop as usize].to_vec();
    let base = copy_label(f);
    let mut patches = Vec::new();
    let mut uses = Vec::new();
    let mut tramps: BTreeMap<u32, usize> = BTreeMap::new();
    let mut tail = Vec::new();
    let body_len = bytes.len();
    let patch = |at: usize, sym: Sym, part: Part, off: i32| Patch { base, at, sym, part, off, avr_imm: false };
    for i in first..end {
        ctx.lower(i, false)?;
        let insn = ctx.insns[i];
        let a = ctx.flow.addrs[i];
        let o = (a - start) as usize;
        let k = insn.k;
        let is_entry = ctx.flow.func_starts.contains_key(&k)
            || ctx.prog.native_at(k).is_some_and(|name| Routine::for_symbol(name).is_some());
        let local = |ctx: &Ctx| {
            if (start..stop).contains(&k) {
                Ok(())
            } else {
                Err(ctx.err(i, "interpreted code cannot jump into another function's middle"))
            }
        };
        match insn.op {
            Op::Ldi | Op::Subi | Op::Sbci | Op::Cpi | Op::Ori | Op::Andi => {
                if let Some((sym, part)) = ctx.reloc_sym(i, a)? {
                    patches.push(Patch { avr_imm: true, ..patch(o, sym, part, 0) });
                }
            }
            Op::Lds | Op::Sts => match ctx.reloc_sym(i, a + 2)? {
                Some((sym, Part::Word)) => patches.push(patch(o + 2, sym, Part::Word, 0)),
                Some(_) => return Err(ctx.err(i, "byte relocation on a 16-bit address")),
                None => {}
            },
            Op::Call => {
                let l = ctx.callee(i, k)?;
                set_word(&mut bytes, o, 0x940E);
                patches.push(patch(o + 2, Sym::Code(l), Part::Word, 0));
                uses.push(l);
            }
            Op::Jmp if is_entry => {
                let l = ctx.callee(i, k)?;
                set_word(&mut bytes, o, 0x940D);
                patches.push(patch(o + 2, Sym::Code(l), Part::Word, 0));
                uses.push(l);
            }
            Op::Jmp => {
                local(ctx)?;
                set_word(&mut bytes, o, 0x940C);
                patches.push(patch(o + 2, Sym::Code(base), Part::Word, (k - start) as i32));
            }
            Op::Rcall if k == a + 2 => {}
            Op::Rcall if !is_entry => {
                return Err(ctx.err(i, "interpreted code can only call the start of a function"));
            }
            // A branch back to the function's own start is its loop, not a tail call: it
            // stays in the copy, whatever the distance to the trampolines.
            Op::Rjmp | Op::Brbs | Op::Brbc if !is_entry || k == start => local(ctx)?,
            Op::Rjmp | Op::Rcall | Op::Brbs | Op::Brbc => {
                let l = ctx.callee(i, k)?;
                let t = *tramps.entry(k).or_insert_with(|| {
                    let t = body_len + tail.len();
                    tail.extend_from_slice(&[0x0D, 0x94, 0, 0]);
                    patches.push(patch(t + 2, Sym::Code(l), Part::Word, 0));
                    uses.push(l);
                    t
                });
                let rel = (t as i64 - (o as i64 + 2)) / 2;
                let w = word_at(&bytes, o);
                let w = if matches!(insn.op, Op::Brbs | Op::Brbc) {
                    if !(-64..=63).contains(&rel) {
                        return Err(ctx.err(i, "conditional tail call too far from the interpreter's trampolines"));
                    }
                    (w & 0xFC07) | (((rel as u16) & 0x7F) << 3)
                } else {
                    if !(-2048..=2047).contains(&rel) {
                        return Err(ctx.err(i, "relative call too far from the interpreter's trampolines"));
                    }
                    (w & 0xF000) | ((rel as u16) & 0x0FFF)
                };
                set_word(&mut bytes, o, w);
            }
            _ => {}
        }
    }
    bytes.extend(tail);
    Ok(Copy { bytes, patches, uses })
}

/// Where the interpreted copies are, for [`emit()`](emit::emit).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CopyPlace {
    /// Right after each stub, in the image (bank 0).
    Inline,
    /// In RAM bank 1 ([`crate::mmap`], "Interpreted functions in RAM bank 1"); the stub's
    /// `JSR` is followed by the copy's bank-1 address. `home` is the MMU configuration the
    /// program runs in, put back after each read of AVR bytes.
    Bank1 {
        /// $FF00 while the program's own code runs.
        home: u8,
    },
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn demangles_legacy_paths_without_the_hash() {
        assert_eq!(demangle("_ZN8bac_game4menu4draw17h0123456789abcdefE"), "bac_game::menu::draw");
        assert_eq!(demangle("main"), "main");
        assert!(selected(&["bac_game::".into()], "_ZN8bac_game4menu4draw17h0123456789abcdefE"));
        assert!(!selected(&["bac_game::".into()], "_ZN4core3fmt5write17h0123456789abcdefE"));
        assert!(selected(&["*".into()], "memcpy_helper"));
        let method = "_RNvXs_NtCs1_8bac_game4menuNtB4_4MenuNtNtCs2_4core3fmt7Display3fmt";
        assert_eq!(demangle(method), "<bac_game::menu::Menu as core::fmt::Display>::fmt");
        assert!(selected(&["bac_game::".into()], method));
        // As `demangle` writes it, with the `<`, too.
        assert!(selected(&["<bac_game::menu::Menu as core::fmt::Display>::fmt$".into()], method));
        assert!(selected(&["<bac_game::menu::Menu as".into()], method));
        assert!(!selected(&["<bac_game::menu::Menu>".into()], method));
        assert!(!selected(&[], "main"));
        let but_draw = ["bac_game::".to_string(), "!bac_game::draw::".to_string()];
        assert!(selected(&but_draw, "_ZN8bac_game4menu4draw17h0123456789abcdefE"));
        assert!(!selected(&but_draw, "_ZN8bac_game4draw4text17h0123456789abcdefE"));
        let but_t = ["bac_game::".to_string(), "!bac_game::menu::t$".to_string()];
        assert!(!selected(&but_t, "_ZN8bac_game4menu1t17h0123456789abcdefE"));
        assert!(selected(&but_t, "_ZN8bac_game4menu5title17h0123456789abcdefE"));
        assert!(!selected(&["!bac_game::draw::".to_string()], "_ZN8bac_game4menu4draw17h0123456789abcdefE"));
    }

    #[test]
    fn an_entry_that_places_nothing_is_stale() {
        let names =
            ["_ZN8bac_game4menu4draw17h0123456789abcdefE", "_ZN8bac_game4draw4text17h0123456789abcdefE", "main"];
        let setting = |entries: &[&str]| entries.iter().map(|e| e.to_string()).collect::<Vec<_>>();
        // Every entry places something.
        assert!(unmatched(&setting(&["bac_game::", "!bac_game::draw::", "main$"]), &names).is_empty());
        assert!(unmatched(&setting(&["*"]), &names).is_empty());
        assert!(unmatched(&[], &names).is_empty());
        // A renamed function, a whole name that is only a prefix, and an exception under
        // nothing interpreted (it matches `bac_game::draw::text`, which stays translated
        // anyway), in the setting's order.
        let stale =
            setting(&["bac_game::menu::redraw", "bac_game::", "bac_game::menu::dr$", "!main", "!bac_game::x::"]);
        assert_eq!(
            unmatched(&stale, &names),
            ["bac_game::menu::redraw", "bac_game::menu::dr$", "!main", "!bac_game::x::"]
        );
    }
}
