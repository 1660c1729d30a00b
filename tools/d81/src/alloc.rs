//! Where new sectors go: the CBM DOS strategy with the 1581's interleave of 1.
//!
//! This follows the DOS as Peter Schepers' DISK.TXT describes it: a file's first sector is on
//! the track nearest the directory track that has room (39, 41, 38, 42, …), at its lowest
//! free sector; each further sector is the next free one on the same track (interleave 1,
//! because a 1581 buffers whole tracks), then on the next track away from track 40, and when
//! that half of the disk is used up the search jumps to the other half, then makes a last
//! pass over the first half. The DOS never uses track 40 for file data. On a fresh disk a file
//! therefore starts at 39/0 and runs 39/0-39/39, 38/0, …, down to track 1, then 41 upward.
//!
//! One placement is ours, not the DOS's ([`plan_beside_directory`]): a file's first few
//! sectors on the directory's side of track 40, for files that are loaded right after the
//! drive has read that side.

use crate::geometry::{DIR_TRACK, SECTORS_PER_SIDE, SECTORS_PER_TRACK, TRACKS, Ts};

/// The blocks of a file of `blocks` that `Placement::BesideDirectory` puts on the
/// directory's side of track 40, room permitting: those its whole track sides leave over.
pub fn blocks_beside_directory(blocks: usize) -> usize {
    blocks % usize::from(SECTORS_PER_SIDE)
}

/// Plans `count` sectors for a new file on a free map (see [`crate::bam::free_map`]),
/// marking them used in the map. `None` if the disk has fewer free sectors (the map is then
/// left partly used; callers plan on a copy).
pub(crate) fn plan_file(free: &mut [bool], count: usize) -> Option<Vec<Ts>> {
    plan_after(free, None, count)
}

/// Plans `count` sectors for a new file whose first `count % 20` sectors (the part of its
/// last track side that the rest leaves over) go on the directory track's first side, the one
/// that holds the header, the BAM and the first directory sector, when they all fit there
/// free; the rest as [`plan_file`] places it (never on track 40). Without room there, or with
/// a whole number of sides, it is [`plan_file`]'s plan. `None` as [`plan_file`].
///
/// Why: a 1581 reads a track side into its track cache at once, and looking a file up reads
/// the directory's side, so those first sectors come without a read of their own, and the
/// rest fills whole sides (from 39/0 or 41/0 on a fresh disk): one side read fewer per file,
/// 0.26-0.34 s in VICE. At power-on the directory's side is in the cache before the first
/// file is even asked for: the C128's boot ends by sending the drive `UI`, and the 1581's
/// reset looks up its autoloader's file. The DOS itself never puts file data on track 40, but
/// it follows any chain, and the directory still grows into the sectors left free there.
pub(crate) fn plan_beside_directory(free: &mut [bool], count: usize) -> Option<Vec<Ts>> {
    let lead = blocks_beside_directory(count);
    let room: Vec<Ts> = (0..SECTORS_PER_SIDE)
        .map(|s| Ts::new(DIR_TRACK, s))
        .filter(|ts| ts.index().is_some_and(|i| free[i]))
        .take(lead)
        .collect();
    if lead == 0 || room.len() < lead {
        return plan_file(free, count);
    }
    for ts in &room {
        free[ts.index()?] = false;
    }
    let rest = plan_file(free, count - lead)?;
    Some([room, rest].concat())
}

/// Plans `count` more sectors for a chain whose last sector is `last` (a new file when
/// `None`), as [`plan_file`] does.
pub(crate) fn plan_after(free: &mut [bool], last: Option<Ts>, count: usize) -> Option<Vec<Ts>> {
    let mut out: Vec<Ts> = Vec::with_capacity(count);
    for _ in 0..count {
        let next = match out.last().copied().or(last) {
            None => first_block(free)?,
            Some(prev) => next_block(free, prev)?,
        };
        free[next.index()?] = false;
        out.push(next);
    }
    Some(out)
}

/// Plans a new directory sector on track 40, the next free one after `prev`.
pub(crate) fn plan_directory(free: &mut [bool], prev: Ts) -> Option<Ts> {
    let ts = free_on_track(free, DIR_TRACK, prev.sector.wrapping_add(1) % SECTORS_PER_TRACK)?;
    free[ts.index()?] = false;
    Some(ts)
}

fn track_has_room(free: &[bool], track: u8) -> bool {
    (0..SECTORS_PER_TRACK).any(|s| Ts::new(track, s).index().is_some_and(|i| free[i]))
}

/// The first free sector of `track` at or after `start`, wrapping around the track.
fn free_on_track(free: &[bool], track: u8, start: u8) -> Option<Ts> {
    (0..SECTORS_PER_TRACK)
        .map(|k| Ts::new(track, (start + k) % SECTORS_PER_TRACK))
        .find(|ts| ts.index().is_some_and(|i| free[i]))
}

fn first_block(free: &[bool]) -> Option<Ts> {
    for distance in 1..=(TRACKS - DIR_TRACK) {
        for track in [DIR_TRACK - distance.min(DIR_TRACK), DIR_TRACK + distance] {
            if (1..=TRACKS).contains(&track) && track_has_room(free, track) {
                return free_on_track(free, track, 0);
            }
        }
    }
    None
}

fn next_block(free: &[bool], prev: Ts) -> Option<Ts> {
    let mut track = prev.track;
    let mut reset = false;
    let mut passes = 3;
    while !track_has_room(free, track) {
        if track < DIR_TRACK {
            track -= 1;
            if track == 0 {
                track = DIR_TRACK + 1;
                passes -= 1;
                reset = true;
            }
        } else {
            track += 1;
            if track > TRACKS {
                track = DIR_TRACK - 1;
                passes -= 1;
                reset = true;
            }
        }
        if passes == 0 {
            return None;
        }
    }
    let start = if reset { 0 } else { (prev.sector + 1) % SECTORS_PER_TRACK };
    free_on_track(free, track, start)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::TOTAL_SECTORS;

    fn fresh() -> Vec<bool> {
        let mut free = vec![true; TOTAL_SECTORS];
        for s in 0..4 {
            free[Ts::new(40, s).index().unwrap()] = false;
        }
        free
    }

    #[test]
    fn files_grow_from_track_39_downward() {
        let mut free = fresh();
        let plan = plan_file(&mut free, 41).unwrap();
        assert_eq!(plan[0], Ts::new(39, 0));
        assert_eq!(plan[39], Ts::new(39, 39));
        assert_eq!(plan[40], Ts::new(38, 0));
        // A new file starts on the nearest track with room, trying 39 then 41: 41 wins.
        assert_eq!(plan_file(&mut free, 1).unwrap(), vec![Ts::new(41, 0)]);
        // Track 41 still has room, so it stays the nearest.
        assert_eq!(plan_file(&mut free, 1).unwrap(), vec![Ts::new(41, 1)]);
    }

    #[test]
    fn a_full_half_sends_the_chain_to_the_other_half() {
        let mut free = vec![false; TOTAL_SECTORS];
        free[Ts::new(30, 39).index().unwrap()] = true;
        free[Ts::new(75, 0).index().unwrap()] = true;
        free[Ts::new(75, 1).index().unwrap()] = true;
        let plan = plan_file(&mut free, 3).unwrap();
        assert_eq!(plan, vec![Ts::new(30, 39), Ts::new(75, 0), Ts::new(75, 1)]);
    }

    #[test]
    fn every_data_sector_can_be_allocated_and_no_more() {
        let mut free = fresh();
        let plan = plan_file(&mut free, 3160).unwrap();
        let mut seen: Vec<usize> = plan.iter().map(|ts| ts.index().unwrap()).collect();
        seen.sort_unstable();
        seen.dedup();
        assert_eq!(seen.len(), 3160);
        assert!(plan.iter().all(|ts| ts.track != DIR_TRACK));
        assert_eq!(plan_file(&mut free, 1), None);
    }

    #[test]
    fn beside_the_directory_the_last_side_s_share_goes_first_on_track_40_s_first_side() {
        let mut free = fresh();
        // 102 sectors: 2 beside the directory, then 100 in five whole sides from 39/0.
        let plan = plan_beside_directory(&mut free, 102).unwrap();
        assert_eq!(plan[..3], [Ts::new(40, 4), Ts::new(40, 5), Ts::new(39, 0)]);
        assert_eq!(plan[101], Ts::new(37, 19));
        // The next file takes the next free sectors there, and its rest starts on 41.
        let plan = plan_beside_directory(&mut free, 113).unwrap();
        assert_eq!(plan[0], Ts::new(40, 6));
        assert_eq!(plan[12], Ts::new(40, 18));
        assert_eq!(plan[13], Ts::new(41, 0));
        assert_eq!(plan[112], Ts::new(43, 19));
        for ts in [Ts::new(40, 4), Ts::new(40, 18), Ts::new(37, 19), Ts::new(43, 19)] {
            assert!(!free[ts.index().unwrap()], "{ts} marked used");
        }
        // The directory grows into what is left on track 40.
        assert_eq!(plan_directory(&mut free, Ts::new(40, 3)), Some(Ts::new(40, 19)));
    }

    #[test]
    fn beside_the_directory_without_room_or_need_is_the_dos_s_plan() {
        // Whole sides: nothing to put beside the directory.
        let mut free = fresh();
        assert_eq!(plan_beside_directory(&mut free, 40).unwrap()[0], Ts::new(39, 0));
        // 19 sectors over a side, but only 16 free there: all of it as the DOS places it.
        let mut free = fresh();
        let plan = plan_beside_directory(&mut free, 39).unwrap();
        assert_eq!(plan, plan_file(&mut fresh(), 39).unwrap());
        // One sector free beside the directory and one elsewhere: a file of two does not fit
        // (the DOS's plan never uses track 40), a file of 21 would need 20 more elsewhere.
        let nearly_full = || {
            let mut free = vec![false; TOTAL_SECTORS];
            free[Ts::new(40, 5).index().unwrap()] = true;
            free[Ts::new(10, 0).index().unwrap()] = true;
            free
        };
        assert_eq!(plan_beside_directory(&mut nearly_full(), 2), None);
        assert_eq!(plan_beside_directory(&mut nearly_full(), 21), None);
        // A file of one: its only sector is the lead.
        assert_eq!(plan_beside_directory(&mut nearly_full(), 1), Some(vec![Ts::new(40, 5)]));
    }

    #[test]
    fn directory_sectors_follow_on_track_40() {
        let mut free = fresh();
        assert_eq!(plan_directory(&mut free, Ts::new(40, 3)), Some(Ts::new(40, 4)));
        for s in 5..40 {
            free[Ts::new(40, s).index().unwrap()] = false;
        }
        assert_eq!(plan_directory(&mut free, Ts::new(40, 4)), None);
    }
}
