//! The translator's input: the linked ELF read into code, data, functions and relocations,
//! every instruction decoded once, and where control goes.

pub mod decode;
pub mod flow;
pub mod program;
