//! The C128 game (`firmware/game-prg`) built once per test binary, on its real disk
//! (`disk/bac.toml`), for the game tests; [`bac_harness::game`] plays it.

use std::sync::OnceLock;

pub use bac_harness::game::Game;
use bac_harness::profile::CodeMap;

use crate::build;

/// The built game: its disk image and the address of its key routine.
pub struct Built {
    /// `bac.d81` as `bac disk build` makes it.
    pub image: Vec<u8>,
    /// The 6502 address of `<C128 as Keys>::key`.
    pub key_routine: u16,
    /// The 6502 address of `<C128 as Clock>::ticks`, the shuffle's seed.
    pub ticks_routine: u16,
    /// The 6502 address of `<C128 as Clock>::frame`, the wait for the next frame.
    pub frame_routine: u16,
    /// The program's layout, for a profiler.
    pub code_map: CodeMap,
}

/// Builds the game and its disk once for the whole test binary.
pub fn built() -> &'static Built {
    static BUILT: OnceLock<Built> = OnceLock::new();
    BUILT.get_or_init(|| {
        let report = build::program("firmware/game-prg", "bac");
        assert!(report.bank1.is_some(), "the game keeps its interpreted code in bank 1");
        let disk = bac_harness::build::game_disk(&report.prg).unwrap_or_else(|e| panic!("building the disk: {e}"));
        let map = std::fs::read_to_string(&report.map).unwrap();
        let key_routine = bac_harness::game::key_routine(&map).expect("the key routine in the symbol map");
        let ticks_routine = bac_harness::game::ticks_routine(&map).expect("the ticks routine in the symbol map");
        let frame_routine = bac_harness::game::frame_routine(&map).expect("the frame routine in the symbol map");
        let listing = std::fs::read_to_string(&report.listing).unwrap();
        let code_map = CodeMap::parse(&map, &listing).unwrap_or_else(|e| panic!("the game's map and listing: {e}"));
        Built { image: disk.as_bytes().to_vec(), key_routine, ticks_routine, frame_routine, code_map }
    })
}

/// Boots the built game's disk, or another image, to its title screen.
pub fn boot(image: &[u8], eighty: bool) -> Game {
    Game::boot(image, eighty, built().key_routine)
}
