//! The C128's I/O chips, each a plain state machine the bus forwards register accesses to.
//!
//! Time reaches them as a count of 1 MHz cycles (`now`), because the VIC, the CIAs and the
//! SID keep that clock even while the 8502 runs in FAST mode.

pub mod cia;
pub mod sid;
pub mod vdc;
pub mod vic;
