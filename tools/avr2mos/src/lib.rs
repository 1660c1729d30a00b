//! Translates AVR (avr5, `atmega328p`) machine code, as linked by `rust-lld` from stock
//! `rustc` output, into a Commodore 128 program.
//!
//! The pipeline: [`program::AvrProgram::from_elf`] reads the linked `elf32-avr` file with
//! its relocations; [`decode`] decodes every instruction through one flat table;
//! [`flags`] finds which AVR flags are ever read; [`lower`] turns each instruction into
//! 6502 code; [`runtime`] adds the native routines; [`link`] lays everything out and
//! [`translate::translate`] produces the `.prg`, the symbol map and the listing.
//! [`pipeline::build_prg`] runs cargo first, so any `no_std` crate becomes a `.prg`.
//!
//! The memory map of a translated program is in [`mmap`].

pub mod asm;
pub mod avrsim;
pub mod decode;
pub mod error;
pub mod flags;
pub mod link;
pub mod lower;
pub mod mmap;
pub mod pipeline;
pub mod program;
pub mod runtime;
pub mod translate;

pub use error::{Location, PipelineError, TranslateError};
pub use program::AvrProgram;
pub use translate::{Options, Stats, Translation, translate, translate_with};
