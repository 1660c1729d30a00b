//! Rewrites of the emitted 6502 code: local clean-ups, dead stores and loads, flags already
//! set, what A holds, shared long branches, calls before a return as jumps, outlining of
//! code that is not hot.

pub mod branch_chain;
pub mod dead_loads;
pub mod dead_stores;
pub mod joins;
pub mod nz_reuse;
pub mod outline;
pub mod peephole;
pub mod tail_calls;
pub mod values;

/// Test support: the chunk of AVR instruction `i` as [`crate::lower::codegen`] makes it,
/// its label first, then `code`.
#[cfg(test)]
pub(crate) fn insn_chunk(i: u32, code: Vec<mos_asm::asm::Item>) -> mos_asm::link::Chunk {
    let mut items = vec![mos_asm::asm::Item::Label(mos_asm::asm::Label(i))];
    items.extend(code);
    mos_asm::link::Chunk { owner: mos_asm::link::Owner::Insn(i as usize), items }
}
