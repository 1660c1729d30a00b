//! Baccarat for the Commodore 128: the screens, menus and table flow of the game, on the
//! rules of `bac-rules`.
//!
//! Everything here is `no_std` and written against [`platform::Platform`], so the same code
//! runs on the C128 (`firmware/game-prg` supplies the VIC/VDC, key matrix, SID and disk)
//! and on the host, where tests drive it with scripted keys. No floats, no `core::fmt`
//! (numbers are formatted by [`num`]), and no panics on any key sequence.
#![cfg_attr(not(test), no_std)]

pub mod app;
pub mod compact;
pub mod digits;
pub mod draw;
pub mod face;
pub mod glyph;
pub mod help;
pub mod help_file;
pub mod help_reader;
pub mod num;
pub mod panel;
pub mod platform;
pub mod play;
pub mod roads;
pub mod save;
pub mod scoreboard;
pub mod settings;
pub mod text;

pub use app::App;
pub use platform::{Colour, DiskError, Platform, Sound};
