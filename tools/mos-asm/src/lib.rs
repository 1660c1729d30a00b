//! mos-asm: the small 6502 assembler and linker that the translator and the C128 loader
//! share. [`asm`] holds the items code is emitted as (instructions, labels, relaxable
//! branches, symbolic operands) and the opcode table with sizes and cycles; [`link`] places
//! chunks of them, shortens branches and resolves symbols into bytes.
//!
//! It knows nothing of AVR code or of the C128 beyond the 6502 itself: the symbols a
//! translated program needs ([`asm::Sym::Data`], [`asm::Sym::Bss`]) stay symbolic here and
//! are resolved through the [`link::DataPlacement`] its caller passes.

pub mod asm;
pub mod link;

/// Why code could not be placed or encoded.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum LinkError {
    /// The code runs past the end of the address space (an implementation limit of the
    /// program's size, not a bug).
    #[error("{what} does not fit: it ends at {end:#06x}, past {limit:#06x}")]
    TooLarge {
        /// Which part overflowed.
        what: String,
        /// Where it ends.
        end: u32,
        /// The highest address allowed.
        limit: u32,
    },
    /// A branch or jump names a label no chunk defines (a bug in the emitter).
    #[error("label {0:?} is never placed")]
    UnplacedLabel(asm::Label),
    /// An operand's symbol has no value (a bug in the emitter or the caller's placement).
    #[error("unresolved {0:?}")]
    Unresolved(asm::Sym),
}
