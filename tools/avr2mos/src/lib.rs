//! Translates AVR (avr5, `atmega328p`) machine code, as linked by `rust-lld` from stock
//! `rustc` output, into a Commodore 128 program.
//!
//! The pipeline, in the order [`translate::translate_with`] runs it:
//! [`program::AvrProgram::from_elf`] reads the linked `elf32-avr` file with its
//! relocations; [`flow`] decodes every instruction through one flat table ([`decode`]) and
//! finds where control goes; [`flags`] finds which AVR flags are ever read; [`frame_plan`]
//! plans frames and saves; [`codegen`] turns each instruction into 6502 code ([`lower`])
//! beside the native routines ([`runtime`]) and cleans it up ([`peephole`]); [`image`] lays
//! everything out ([`mos_asm::link`]) and builds the `.prg`; [`report`] writes the symbol map and
//! the listing.
//! [`pipeline::build_prg`] runs cargo first, so any `no_std` crate becomes a `.prg`.
//!
//! The memory map of a translated program is in [`mmap`].
//!
//! [`callgraph`] analyses the whole program (the call graph, each function's summary, and
//! why a function must stay out of optimisations across functions; the listing says so
//! under its name); [`liveness`] finds which registers are live after each instruction;
//! [`frames`] gives functions that cannot be active twice a static frame instead of one on
//! the AVR stack, [`frame_slots`] follows Y through such a function so that its slots are
//! absolute addresses, and [`overlay`] lets the frames of functions never active together
//! share bytes; [`saves`] leaves out the prologue saves no caller needs and moves those
//! that stay to static slots where the function can never be active twice, and
//! [`zp_slots`] gives the most used of those slots, and of the frame slots below where
//! the pointers into their frame reach ([`frame_reach`]), a home in zero page. [`zero_reg`]
//! finds where r1, the zero register, is known zero, so compares with it drop their `CMP`.
//! [`dead_stores`] drops the stores of registers nothing reads again (the value reaches
//! its reads in A), and [`dead_loads`] the loads of A left with no reader.
//! [`OptLevel::Plain`] (`--opt-level 0`) lowers each instruction on its own, for hunting a
//! miscompile; the default also fuses flags across moves, specialises runtime calls, tracks
//! values in A, makes frames static and saves only what callers need.
//! [`symbolic`] renders the translation with named operands for the precise-output tests
//! (`tests/filetests`).
//!
//! # Translation model
//! - AVR registers are zero-page bytes; A, X and Y are scratch between instructions, so
//!   every AVR instruction's code stands alone (the listing shows it).
//! - Flags are computed only where a later instruction reads them ([`flags`]). A compare
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
//! demangled-name prefixes, or `"*"`) are not lowered: [`interp`] copies their AVR bytes, relocated, behind a 3-byte
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

pub mod avrsim;
pub mod branch_chain;
pub mod branch_over;
pub mod callgraph;
pub mod codegen;
pub mod cold;
pub mod const_mul;
pub mod data_copies;
pub mod dead_loads;
pub mod dead_stores;
pub mod decode;
pub mod error;
pub mod flags;
pub mod flow;
pub mod frame_plan;
pub mod frame_reach;
pub mod frame_slots;
pub mod frame_steps;
pub mod frames;
pub mod image;
pub mod inline_mem;
pub mod interp;
pub mod listing;
pub mod liveness;
pub mod lower;
pub use c128_loader::mmap;
pub mod nz_reuse;
pub mod outline;
pub mod overlay;
pub mod peephole;
pub mod pipeline;
pub mod program;
pub mod ptr_copies;
pub mod report;
pub mod runtime;
pub mod saves;
pub mod sink_saves;
#[cfg(test)]
mod snippet;
pub mod specialise;
pub mod sreg_saves;
pub mod symbolic;
pub mod translate;
pub mod values;
pub mod zero_reg;
pub mod zp_slots;

pub use error::{Location, PipelineError, TranslateError};
pub use program::AvrProgram;
pub use translate::{OptLevel, Options, Stats, Translation, translate, translate_with};
