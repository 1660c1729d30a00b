//! Rewrites at the AVR level, before lowering: copies propagated, constant multiplies (8
//! and 32 bits), branches over jumps, conditions made a byte and tested, SREG saves that
//! change nothing, small memsets inlined, runtime calls specialised.

pub mod bool_branch;
pub mod branch_over;
pub mod const_mul;
pub mod const_mul32;
pub mod data_copies;
pub mod held_loads;
pub mod inline_mem;
pub mod ptr_copies;
pub mod specialise;
pub mod sreg_saves;
