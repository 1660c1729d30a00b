//! Translates AVR (avr5, `atmega328p`) machine code, as linked by `rust-lld` from stock
//! `rustc` output, into a Commodore 128 program.
//!
//! # The pipeline, stage by stage
//! [`translate::translate_with`] runs it in this order; each stage is a folder.
//!
//! | stage | folder | what it does |
//! | --- | --- | --- |
//! | input | [`input`] | [`input::program::AvrProgram::from_elf`] reads the linked `elf32-avr` file with its relocations; [`input::flow`] decodes every instruction once through one flat table ([`input::decode`]) and finds where control goes |
//! | analyses | [`analysis`] | the call graph and each function's summary ([`analysis::callgraph`]), how often each instruction runs ([`analysis::cold`]), the flags a later instruction reads ([`analysis::flags`]), live registers ([`analysis::liveness`]), where r1 is zero ([`analysis::zero_reg`]) |
//! | frames and saves | [`frames`] | static frames for functions never active twice ([`frames::static_frames`]), overlaid when never active together ([`frames::overlay`]), slots at fixed addresses ([`frames::frame_slots`]) and in zero page ([`frames::zp_slots`]), only the saves callers need ([`frames::saves`]), all planned in [`frames::frame_plan`] |
//! | AVR-level rewrites | [`avr_rewrites`] | copies propagated ([`avr_rewrites::ptr_copies`], [`avr_rewrites::data_copies`]), constant multiplies, branches over jumps, SREG saves that change nothing, small memsets inlined, runtime calls specialised |
//! | lowering | [`lower`] | [`lower::codegen`] turns each AVR instruction into 6502 code beside the native routines ([`runtime`], with the interpreter of AVR code in [`runtime::interp`]) |
//! | 6502-level rewrites | [`mos_rewrites`] | local clean-ups ([`mos_rewrites::peephole`]), dead stores and loads, flags already set, what A holds, shared long branches, outlining |
//! | emission | [`emit`] | [`emit::image`] lays everything out ([`mos_asm::link`]) and builds the `.prg`; [`emit::report`] writes the symbol map and the listing; [`emit::symbolic`] the precise-output listing of `tests/filetests` |
//!
//! [`pipeline::build_prg`] runs cargo first, so any `no_std` crate becomes a `.prg`. The
//! memory map of a translated program is in [`mmap`] (the loader's crate, c128-loader).
//! [`OptLevel::Plain`] (`--opt-level 0`) lowers each instruction on its own, for hunting a
//! miscompile; the default also fuses flags across moves, specialises runtime calls, tracks
//! values in A, makes frames static and saves only what callers need.
//!
//! # Translation model
//! - AVR registers are zero-page bytes; A, X and Y are scratch between instructions, so
//!   every AVR instruction's code stands alone (the listing shows it).
//! - Flags are computed only where a later instruction reads them ([`analysis::flags`]). A compare
//!   chain (`cp`, `cpc`...) followed by a branch becomes the 6502's own multi-byte compare;
//!   any other flag-setting instruction followed by a branch is tested through the 6502
//!   flags directly; carry chains (`add`/`adc`, `sub`/`sbc`, `lsr`/`ror`) keep the carry
//!   in the 6502 carry. Elsewhere the flags go to a zero-page byte.
//! - Calls are `JSR`/`RTS` on the 6502 stack (so call depth is limited to about 100);
//!   functions that read SP keep the AVR's 2-byte return-address footprint on the AVR
//!   stack so that stack arguments are where the code expects them.
//! - Code pointers (vtables, function pointers) are rewritten through their relocations
//!   to 6502 addresses; `icall`/`ijmp` jump through them. Data is placed after the code
//!   and every data address is rewritten through its relocation; other constant addresses
//!   (`sts 0xd020`) are the C128's own.
//! - `__mulsi3`, `__divmodhi4`, `__divmodqi4`, `__udivmodhi4`, `__udivmodqi4`,
//!   `__divmodsi4`, `__udivmodsi4`, `__mulosi4`, `__mulodi4`, `memcpy`, `memmove`,
//!   `memset`, `memcmp`, `bcmp` and the KERNAL gateway are native routines ([`runtime`]).
//!
//! # Interpreted functions
//! Functions named by the crate's placement file (`[package.metadata.c128] placement`:
//! demangled-name prefixes, or `"*"`) are not lowered: [`runtime::interp`] copies their AVR bytes, relocated, behind a 3-byte
//! stub that enters a 6502 interpreter of AVR code (about 1.7 KB, in the runtime). The
//! AVR bytes are 2.4 times denser than their translation and about 10 times slower;
//! everything else about such a function (how it is called, its stack footprint, the
//! registers and flags it leaves) is as if it were translated.
//!
//! # Checking it
//! [`avrsim`] is an independent interpreter of the same instructions. The tests run
//! every instruction with random operands both ways (translated, and interpreted) and
//! compare registers and flags, and run whole programs in lockstep (registers compared at
//! every instruction).
//!
//! # Limits
//! `lpm`/`elpm` (program-memory data), AVR I/O ports other than SP and SREG, `sbi`/`cbi`,
//! `sleep`, `reti` and branches on H or I are rejected with an error naming the function,
//! offset and instruction. A write to SREG stores S as N xor V.

// The passes' modules are the crate's own (`pub(crate)`): no other crate calls them. The
// public items' docs still link into them, as the map of the pipeline, and `cargo xtask
// doc` documents private items, where those links resolve.
#![allow(rustdoc::private_intra_doc_links)]

pub mod analysis;
pub(crate) mod avr_rewrites;
pub mod avrsim;
pub mod emit;
pub mod error;
pub(crate) mod frames;
pub mod input;
pub(crate) mod lower;
pub(crate) mod mos_rewrites;
pub use c128_loader::mmap;
pub mod pipeline;
pub mod runtime;
#[cfg(test)]
mod snippet;
pub mod translate;

pub use error::{Location, PipelineError, TranslateError};
pub use input::program::AvrProgram;
pub use translate::{OptLevel, Options, Stats, Translation, translate, translate_with};
