//! The game's coups as `bac bench` and `bac profile` play them in the built-in C128: boot
//! the disk, open a Punto Banco table, bet a unit on the Player and deal; time (and, asked,
//! profile) the first coup's settle, profile the whole of the second coup, deal to the
//! shoe's 30th and time its settle.
//!
//! The shoe's seed is fixed ([`SEED`]), so that every build deals the same cards: the game
//! seeds its shuffle from the frame count and raster line, which move with the code's
//! layout, and another coup would be another workload.
//!
//! The settle is timed from the last call of `bac_game::face::card` (the last card drawn)
//! to the settled screen's key request. Profiling does not change what the machine does:
//! the cycle counts are the same with it or without.

use anyhow::{Context, Result};
use bac_harness::game::Game;
use bac_harness::profile::{CodeMap, Profile, Profiler};
use std::path::Path;

/// What the game's `Platform::ticks` returns when the first deal shuffles.
pub const SEED: u32 = 0x0012_3456;

/// A built game, read for its runs.
pub struct Built {
    /// The `.d81` image.
    pub image: Vec<u8>,
    /// The program's layout, for the profiler.
    pub map: CodeMap,
    /// `Platform::key`, where the game waits for a key.
    key: u16,
    /// `bac_game::face::card`, where each card is drawn.
    card: u16,
    /// `Platform::frame`, the wait for the next frame.
    frame: u16,
    /// `Platform::ticks`, the shuffle's seed.
    ticks: u16,
    /// Bytes free in bank 0 between the program's end and the AVR stack's lowest address.
    pub bank0_free: u16,
}

impl Built {
    /// Reads the game built at `prg` (its `.map`, `.lst` and bank-1 file beside it).
    pub fn read(prg: &Path) -> Result<Built> {
        let read = |p: &Path| std::fs::read_to_string(p).with_context(|| format!("reading {}", p.display()));
        let map_text = read(&prg.with_extension("map"))?;
        let map = CodeMap::parse(&map_text, &read(&prg.with_extension("lst"))?)
            .with_context(|| format!("reading the layout of {}", prg.display()))?;
        let key = bac_harness::game::key_routine(&map_text).context("the key routine in the map")?;
        let frame = bac_harness::game::frame_routine(&map_text).context("the frame routine in the map")?;
        let ticks = bac_harness::game::ticks_routine(&map_text).context("the ticks routine in the map")?;
        let card = map.symbol(|n| n.contains("8bac_game4face4card")).context("face::card in the map")?;
        let end = bac_harness::game::symbol(&map_text, |n| n == "end").context("the map's end")?;
        let stack_bottom = map_text
            .lines()
            .find_map(|l| {
                l.split_once("grows down to ").and_then(|(_, a)| u16::from_str_radix(a.trim_end_matches(')'), 16).ok())
            })
            .context("the map's stack line")?;
        let image = bac_harness::build::game_disk(prg)?.as_bytes().to_vec();
        Ok(Built { image, map, key, card, frame, ticks, bank0_free: stack_bottom.saturating_sub(end) })
    }

    fn profiler(&self) -> Profiler {
        Profiler::new(self.map.clone(), Some(self.frame))
    }
}

/// What one width's run measured.
pub struct Run {
    /// Cycles from RUN (the boot) to the title screen's first key request.
    pub run_to_title: u64,
    /// Last card to the settled screen, first coup of the shoe.
    pub settle: u64,
    /// The same at the shoe's 30th coup.
    pub settle_30: u64,
    /// The second coup, from its dealing key to its settled screen.
    pub coup: Profile,
    /// With `profile_settles`: the first and the 30th coup's settles.
    pub settles: Option<(Profile, Profile)>,
}

/// Plays the coups (see the module doc) in 40 columns or 80.
pub fn play(built: &Built, eighty: bool, profile_settles: bool) -> Result<Run> {
    let mut g = Game::boot(&built.image, eighty, built.key);
    g.fix_seed(built.ticks, SEED);
    let run_to_title = g.m.cpu.cycles;
    g.keys("{RETURN}{RIGHT}{RIGHT}{RETURN}BEN{RETURN}1P");
    let settle = |g: &mut Game, what: &str| -> Result<(u64, Option<Profile>)> {
        if profile_settles {
            g.watch(built.profiler(), &[built.card]);
        }
        let cycles = g.time_from_last("{RETURN}", &[built.card]).with_context(|| format!("{what} was dealt"))?;
        Ok((cycles, g.profiler.take().map(|p| p.finish())))
    };
    let (first, first_profile) = settle(&mut g, "a coup")?;
    g.keys("{RETURN}1P");
    g.watch(built.profiler(), &[]);
    g.keys("{RETURN}");
    let coup = g.profiler.take().map(|p| p.finish()).context("the second coup's profile")?;
    // The 30th coup of the shoe: the scoreboard (at 80 columns the derived roads too)
    // has thirty results to lay out.
    for _ in 0..27 {
        g.keys("{RETURN}1P{RETURN}");
    }
    g.keys("{RETURN}1P");
    let (settle_30, last_profile) = settle(&mut g, "a 30th coup")?;
    Ok(Run { run_to_title, settle: first, settle_30, coup, settles: first_profile.zip(last_profile) })
}
