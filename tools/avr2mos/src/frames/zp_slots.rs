//! Zero-page homes for the most used static slots: a frame slot ([`crate::frames::frame_slots`]) or
//! a save slot ([`crate::frames::saves`]) that the code reads and writes often moves from its
//! absolute address to a byte of [`ZP_HOMES`], so that each access is `LDA zp`/`STA zp` (2
//! bytes, 3 cycles) instead of `LDA abs`/`STA abs` (3 bytes, 4 cycles).
//!
//! Assumes the plan's static frames and save slots ([`crate::frames::frame_plan`]): a folded frame's
//! slots are reached only by the instructions whose action is [`Action::Slot`], and through
//! the pointers into the frame the function makes (copies of Y, [`Action::Pointer`]); as
//! the code does not say how far the object such a pointer points to extends, only the
//! slots below the lowest byte the pointers can reach ([`crate::frames::frame_reach`]) are the
//! function's own. A save slot is reached only by its function's
//! pushes and pops and the copies [`crate::frames::sink_saves`] moved (never through a pointer).
//! The bytes of [`ZP_HOMES`] are used by nothing else while the program runs: BASIC's zero
//! page, saved at start-up and put back on exit ([`crate::runtime::startup`] saves up to
//! the last home given), which the KERNAL, the runtime's interrupt handlers, the
//! interpreter, the unpacker and the fast loader never touch.
//!
//! Guarantees: only frame slots no pointer reaches, and save slots, get a home;
//! each home is its own byte (no two slots share one, so functions active together never
//! meet there); the slots with the most accesses get homes first, and a slot with fewer
//! than [`MIN_USES`] accesses gets none (the start-up's save area may have to grow by its
//! byte). The choice depends only on the code, so a build is deterministic.

use std::collections::BTreeMap;
use std::ops::Range;

use crate::frames::frame_slots::Action;

/// The zero-page bytes a slot may have as its home: after the wide multiply's scratch
/// ($40-$59), up to the KERNAL's own zero page at $90 (BASIC's, like the registers'
/// bytes).
pub const ZP_HOMES: Range<u8> = 0x5A..0x90;

/// The fewest accesses that earn a slot a home: one byte saved by each, less the byte the
/// save area may gain.
pub const MIN_USES: usize = 2;

/// A static slot that may get a home.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Slot {
    /// A byte of a function's static frame.
    Frame {
        /// The function.
        func: usize,
        /// The byte's offset from the frame's first.
        offset: u16,
    },
    /// The save slot at this data address ([`crate::frames::frame_plan::Saves::slot_of`]).
    Save(u32),
}

/// One slot given a home.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Home {
    /// The slot.
    pub slot: Slot,
    /// The function whose code reaches it.
    pub func: usize,
    /// Its zero-page byte.
    pub zp: u8,
    /// How many instructions read or write it.
    pub uses: usize,
}

/// The homes of a program's slots.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Homes {
    /// Every home, most used first.
    pub homes: Vec<Home>,
    by_slot: BTreeMap<Slot, u8>,
}

impl Homes {
    /// The zero-page home of `slot`, if it has one.
    pub fn of(&self, slot: Slot) -> Option<u8> {
        self.by_slot.get(&slot).copied()
    }

    /// The first zero-page byte after the last home ([`ZP_HOMES`]'s start if none).
    pub fn end(&self) -> u8 {
        self.homes.iter().map(|h| h.zp + 1).max().unwrap_or(ZP_HOMES.start)
    }
}

/// What [`plan`] reads of the frame plan, per instruction and per function.
pub struct Uses<'a> {
    /// Each function's instructions.
    pub ranges: &'a [Range<usize>],
    /// Whether each function's frame is static and folded (its slots are fixed addresses).
    pub folded: &'a [bool],
    /// How low the pointers into each function's frame reach ([`crate::frames::frame_reach`]):
    /// `None` if one may escape.
    pub floors: &'a [Option<u16>],
    /// What became of each instruction of a folded frame's function.
    pub slots: &'a [Action],
    /// The save slot of each push or pop that uses one.
    pub save_slots: &'a [Option<u32>],
    /// The pushes and pops of saves that went ([`crate::frames::saves`]), which reach no slot.
    pub dropped: &'a [bool],
    /// The save slots of the copies moved to each instruction ([`crate::frames::sink_saves`]).
    pub sunk: &'a [Vec<u32>],
}

/// Counts the accesses of every slot that may have a home: the slots of folded frames
/// below where any pointer into the frame reaches, and the save slots. Each comes with the
/// function it is in.
pub fn candidates(u: &Uses) -> BTreeMap<Slot, (usize, usize)> {
    let mut count: BTreeMap<Slot, (usize, usize)> = BTreeMap::new();
    for (func, range) in u.ranges.iter().enumerate() {
        for i in range.clone() {
            if let Action::Slot(offset) = u.slots[i]
                && u.folded[func]
                && u.floors[func].is_some_and(|floor| offset < floor)
            {
                count.entry(Slot::Frame { func, offset }).or_insert((func, 0)).1 += 1;
            }
            // A push or pop the frame's folding or the saves' plan left out reaches nothing.
            let lowered = u.slots[i] == Action::Keep && !u.dropped[i];
            let saves = u.save_slots[i].iter().filter(|_| lowered).chain(&u.sunk[i]);
            for &addr in saves {
                count.entry(Slot::Save(addr)).or_insert((func, 0)).1 += 1;
            }
        }
    }
    count
}

/// Gives homes in `pool` to the most used of `candidates` (slot, its function and its
/// accesses), one byte each; ties go to the slot that sorts first.
pub fn assign(candidates: &BTreeMap<Slot, (usize, usize)>, pool: Range<u8>) -> Homes {
    let mut order: Vec<(Slot, usize, usize)> =
        candidates.iter().filter(|(_, (_, uses))| *uses >= MIN_USES).map(|(&s, &(f, n))| (s, f, n)).collect();
    order.sort_by_key(|&(slot, _, uses)| (std::cmp::Reverse(uses), slot));
    let mut homes = Homes::default();
    for ((slot, func, uses), zp) in order.into_iter().zip(pool) {
        homes.homes.push(Home { slot, func, zp, uses });
        homes.by_slot.insert(slot, zp);
    }
    homes
}

/// The homes of a program's slots ([`candidates`], then [`assign`] in [`ZP_HOMES`]).
pub fn plan(u: &Uses) -> Homes {
    assign(&candidates(u), ZP_HOMES)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Two folded functions of four instructions each.
    fn uses<'a>(slots: &'a [Action], saves: &'a [Option<u32>], sunk: &'a [Vec<u32>]) -> Uses<'a> {
        const RANGES: [Range<usize>; 2] = [0..4, 4..8];
        Uses {
            ranges: &RANGES,
            folded: &[true, true],
            floors: &[Some(u16::MAX), Some(u16::MAX)],
            slots,
            save_slots: saves,
            dropped: &[false; 8],
            sunk,
        }
    }

    #[test]
    fn the_most_used_slots_get_homes_first_and_a_single_use_none() {
        use Action::{Keep, Slot as S};
        let slots = [S(3), Keep, S(3), S(3), S(0), S(0), S(7), Keep];
        let saves = [None, Some(0x400), None, None, None, None, None, Some(0x400)];
        let sunk = vec![vec![], vec![], vec![], vec![], vec![], vec![], vec![], vec![0x400]];
        let homes = plan(&uses(&slots, &saves, &sunk));
        let got: Vec<(Slot, u8, usize)> = homes.homes.iter().map(|h| (h.slot, h.zp, h.uses)).collect();
        assert_eq!(
            got,
            [
                (Slot::Frame { func: 0, offset: 3 }, 0x5A, 3),
                // The push, the pop and a moved copy: three, and a smaller key than
                // function 1's slot 0, so it comes first among equals.
                (Slot::Save(0x400), 0x5B, 3),
                (Slot::Frame { func: 1, offset: 0 }, 0x5C, 2),
            ]
        );
        assert_eq!(homes.of(Slot::Frame { func: 1, offset: 7 }), None, "one access");
        assert_eq!(homes.end(), 0x5D);
        assert_eq!(homes.homes[1].func, 0, "the save slot is function 0's, which pushes it first");
    }

    #[test]
    fn only_slots_below_where_the_pointers_reach_move() {
        use Action::{Keep, Slot as S};
        let slots = [S(3), S(3), S(8), S(8), S(0), S(0), Keep, Keep];
        let sunk = vec![vec![]; 8];
        let u = Uses { floors: &[Some(5), None], ..uses(&slots, &[None; 8], &sunk) };
        let homes = plan(&u);
        assert_eq!(homes.of(Slot::Frame { func: 0, offset: 3 }), Some(0x5A), "below the pointers");
        assert_eq!(homes.of(Slot::Frame { func: 0, offset: 8 }), None, "a pointer may reach it");
        assert_eq!(homes.of(Slot::Frame { func: 1, offset: 0 }), None, "a pointer escapes");
    }

    #[test]
    fn a_push_or_pop_that_was_left_out_is_no_access() {
        use Action::{Drop, Keep};
        // r28's push and pop in a folded frame, and a save's push the plan dropped.
        let slots = [Drop, Keep, Keep, Drop, Keep, Keep, Keep, Keep];
        let saves = [Some(0x400), Some(0x401), Some(0x401), Some(0x400), Some(0x402), None, None, Some(0x402)];
        let dropped = [false, false, false, false, true, false, false, false];
        let sunk = vec![vec![]; 8];
        let u = Uses { dropped: &dropped, ..uses(&slots, &saves, &sunk) };
        let c = candidates(&u);
        assert_eq!(c.get(&Slot::Save(0x400)), None);
        assert_eq!(c.get(&Slot::Save(0x401)), Some(&(0, 2)));
        assert_eq!(c.get(&Slot::Save(0x402)), Some(&(1, 1)), "only the pop");
    }

    #[test]
    fn homes_stop_where_the_pool_ends() {
        let mut candidates = BTreeMap::new();
        for offset in 0..100u16 {
            candidates.insert(Slot::Frame { func: 0, offset }, (0, 2 + usize::from(offset)));
        }
        let homes = assign(&candidates, ZP_HOMES);
        assert_eq!(homes.homes.len(), ZP_HOMES.len());
        assert_eq!(homes.homes[0].slot, Slot::Frame { func: 0, offset: 99 }, "the most used first");
        assert_eq!(homes.end(), ZP_HOMES.end);
        assert_eq!(Homes::default().end(), ZP_HOMES.start);
    }
}
