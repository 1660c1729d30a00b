//! The host's mathematics of Baccarat, on top of the rules crate: exact odds by enumeration
//! ([`exact`]), the game-theoretic solutions of the games with choices ([`solve`]), house
//! edges ([`edge`]) and a Monte-Carlo simulator of whole shoes ([`sim`]).
//!
//! Every drawing decision comes from `bac_rules::DrawRules`, the code the C128 runs, so the
//! figures here describe the game as shipped, not a second transcription of the tableau.

pub mod analysis;
pub mod composition;
pub mod count;
pub mod edge;
pub mod exact;
pub mod fast_shoe;
pub mod outcomes;
pub mod play;
pub mod side;
pub mod sim;
pub mod solve;
pub mod table_gen;
