//! Commodore 1581 disk images (`.d81`): read and check them, change their files the way the
//! drive does, and write them whole.
//!
//! The [`Disk`] holds an 819,200-byte image. It is made by [`Disk::new`] (a formatted
//! disk) or [`Disk::from_bytes`] (which refuses damaged images with an [`ImageError`]
//! naming the place), and written with [`Disk::write_to`].
//!
//! # The file API (for the emulator's KERNAL file calls)
//! Names and patterns are PETSCII bytes, as the C128 sends them (see [`petscii`] to convert
//! typed text). Failures are [`DosError`]s; [`DosError::status`] gives the drive's status line.
//!
//! | what the program does | call | status on success |
//! | --- | --- | --- |
//! | `LOAD"NAME",8` or `OPEN` for reading | [`Disk::read`], [`Disk::read_as`] (with `,S`/`,P`/`,U`) | 00, OK |
//! | `SAVE"NAME",8`, `OPEN` for writing then `CLOSE` | [`Disk::write_file`] | 00, OK |
//! | `SAVE"@0:NAME",8` | [`Disk::replace_file`] | 00, OK |
//! | `SCRATCH` / `S0:PATTERN` | [`Disk::scratch`] | [`DosStatus::files_scratched`] |
//! | `R0:NEW=OLD` | [`Disk::rename`] | 00, OK |
//! | `OPEN` with `,A` | [`Disk::append_file`] | 00, OK |
//! | `LOAD"$",8` | [`Disk::directory_listing`] | 00, OK |
//! | `PRINT#15,"S0:…"` and other commands | [`Disk::command`] | what the command reports |
//! | directory | [`Disk::entries`], [`Disk::blocks_free`] | |
//!
//! [`command::parse_open`] splits an `OPEN` name (`@0:NAME,S,W`) into name, replace flag,
//! type and mode, with the defaults of each secondary address.
//!
//! Patterns take `?` (any one character) and `*` (the rest of the name). Failures:
//! 62 FILE NOT FOUND, 63 FILE EXISTS, 72 DISK FULL (blocks or directory), 26 WRITE PROTECT
//! ON ([`Disk::set_write_protected`]), 33/34 SYNTAX ERROR (bad or missing name), 60 WRITE
//! FILE OPEN (an unclosed file), 64 FILE TYPE MISMATCH. A failed operation changes nothing.
//!
//! New files are placed as a 1581 places them (see the `alloc` module): each file starts on
//! the track nearest track 40 that has room (39, 41, 38, 42, …) and grows away from it with
//! an interleave of 1; track 40 holds only the header, the BAM and the directory.

mod alloc;
mod bam;
pub mod boot;
mod chain;
pub mod command;
pub mod dir;
mod disk;
mod error;
mod files;
pub mod geometry;
mod listing;
pub mod manifest;
pub mod petscii;
mod status;
mod validate;

pub use alloc::blocks_beside_directory;
pub use boot::{BootError, BootInfo, BootSector, BootStage};
pub use dir::{DirEntry, FileType, Slot};
pub use disk::{Disk, File};
pub use error::ImageError;
pub use files::{Placement, blocks_for, check_name};
pub use geometry::Ts;
pub use listing::LISTING_LOAD_ADDRESS;
pub use manifest::{Manifest, ManifestError};
pub use status::{DosError, DosStatus};
