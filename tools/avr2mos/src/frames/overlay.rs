//! Overlaid static frames: two functions that are never active at the same time may keep
//! their static frames ([`crate::frames::static_frames`]) in the same bytes, as their frames on a stack
//! would have been. Each frame goes just past the highest frame of the functions that can
//! be below it on the call stack, so a chain of calls stacks its frames and unrelated
//! functions share. The entry's frame and those of the functions only the entry calls go
//! instead at the top of the AVR stack, where they would have been on the stack, and the
//! stack starts below them ([`at_stack_top`]).
//!
//! Assumes: the call graph of [`crate::analysis::callgraph`] names every direct call and tail call,
//! and a function with a static frame reaches no call through a pointer (what
//! [`crate::frames::static_frames`] requires), so every function that can be active below it got there
//! through direct calls and is an ancestor in that graph; no translated function runs
//! from an interrupt; a frame's bytes are undefined when its function is entered (as on a
//! stack), so another function may have left anything there.
//!
//! Guarantees: the frames of two functions of which one can call the other, directly or
//! through any chain, do not overlap; the others may. The total is the largest end of
//! any frame. Frames at the top of the stack overlap neither the stack below them nor
//! the other frames, and take no more of the stack than they took as stack frames.

use crate::analysis::callgraph::{Reason, Summary};
use crate::frames::static_frames::Frame;

/// Gives every frame its offset from the start of the static frames, overlaid along the
/// call graph. Returns the bytes the frames take overlaid, and how many they took one
/// after another.
pub fn overlay(frames: &mut [Option<Frame>], sums: &[Summary]) -> (u32, u32) {
    let n = sums.len();
    let framed: Vec<usize> = (0..n).filter(|&f| frames[f].is_some()).collect();
    // The framed functions each framed function can be called from, directly or not.
    let mut below: Vec<Vec<usize>> = vec![Vec::new(); n];
    for &f in &framed {
        let mut seen = vec![false; n];
        let mut stack = sums[f].callees.clone();
        while let Some(g) = stack.pop() {
            if !std::mem::replace(&mut seen[g], true) {
                if frames[g].is_some() && g != f {
                    below[g].push(f);
                }
                stack.extend(&sums[g].callees);
            }
        }
    }
    // An ancestor has fewer framed ancestors than its descendants (a framed function is
    // on no cycle), so this order places every function after all its ancestors.
    let mut order = framed.clone();
    order.sort_by_key(|&f| (below[f].len(), f));
    let mut end = vec![0u32; n];
    let mut total = 0;
    for &f in &order {
        let start = below[f].iter().map(|&g| end[g]).max().unwrap_or(0);
        let fr = frames[f].as_mut().expect("a framed function");
        fr.offset = start;
        end[f] = start + fr.size;
        total = total.max(end[f]);
    }
    let unshared = framed.iter().map(|&f| frames[f].as_ref().map_or(0, |fr| fr.size)).sum();
    (total, unshared)
}

/// Takes out of `frames` the frames that go at the top of the AVR stack, where they would
/// have been on the stack: the entry's (it runs once, below everything), then, below it,
/// those of the functions only the entry calls (known callers, none but the entry; they
/// run one after another, so they share). Each comes back with how far below the stack's
/// top its frame begins (the frame is the `size` bytes from `top + 1 - depth`); the stack
/// starts below the deepest. Nothing is taken if those frames would need more than
/// `limit` bytes. Only frames whose slots are fixed addresses ([`Frame::folded`]) go.
pub fn at_stack_top(
    frames: &mut [Option<Frame>],
    sums: &[Summary],
    entry: usize,
    limit: u32,
) -> Vec<(usize, u32, Frame)> {
    let folded = |f: usize, frames: &[Option<Frame>]| frames[f].as_ref().is_some_and(|fr| fr.folded);
    let base = if folded(entry, frames) { frames[entry].as_ref().map_or(0, |fr| fr.size) } else { 0 };
    let only_from_entry = |g: usize| {
        g != entry
            && !sums[g].reasons.contains(&Reason::AddressTaken)
            && (0..sums.len()).all(|f| f == entry || !sums[f].callees.contains(&g))
    };
    let children: Vec<usize> =
        sums[entry].callees.iter().copied().filter(|&g| only_from_entry(g) && folded(g, frames)).collect();
    let deepest = children.iter().map(|&g| frames[g].as_ref().map_or(0, |fr| fr.size)).max().unwrap_or(0);
    if base + deepest > limit {
        return Vec::new();
    }
    let mut out = Vec::new();
    if base > 0 {
        out.push((entry, base, frames[entry].take().expect("a folded frame")));
    }
    for g in children {
        let fr = frames[g].take().expect("a folded frame");
        out.push((g, base + fr.size, fr));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn frame(size: u32) -> Option<Frame> {
        Some(Frame { offset: 0, size, subtract: 0..0, folded: true })
    }

    #[test]
    fn the_entry_and_what_only_it_calls_go_to_the_top_of_the_stack() {
        // 0 (the entry) calls 1, 2 and 3; 4 calls 3 too; 2's slots are reached through Y.
        let callees = [vec![1, 2, 3], vec![], vec![], vec![], vec![3]];
        let sums: Vec<Summary> = callees.iter().map(|c| Summary { callees: c.clone(), ..Default::default() }).collect();
        let mut frames = vec![frame(10), frame(20), frame(30), frame(5), None];
        frames[2].as_mut().unwrap().folded = false;
        let top = at_stack_top(&mut frames, &sums, 0, 100);
        let depths: Vec<(usize, u32)> = top.iter().map(|&(f, d, _)| (f, d)).collect();
        assert_eq!(depths, [(0, 10), (1, 30)]);
        assert!(frames[0].is_none() && frames[1].is_none() && frames[2].is_some() && frames[3].is_some());
        let mut frames = vec![frame(10), frame(20), frame(30), frame(5), None];
        assert!(at_stack_top(&mut frames, &sums, 0, 29).is_empty(), "more than the limit: nothing moves");
        assert!(frames.iter().take(4).all(Option::is_some));
    }

    #[test]
    fn callers_stack_and_strangers_share() {
        // 0 calls 1 and 2; 1 calls 3 through 4 (which has no static frame); 2 calls nothing.
        let callees = [vec![1, 2], vec![4], vec![], vec![], vec![3]];
        let sums: Vec<Summary> = callees.iter().map(|c| Summary { callees: c.clone(), ..Default::default() }).collect();
        let mut frames = vec![frame(10), frame(20), frame(30), frame(5), None];
        let (total, unshared) = overlay(&mut frames, &sums);
        let at: Vec<Option<u32>> = frames.iter().map(|f| f.as_ref().map(|f| f.offset)).collect();
        assert_eq!(at, [Some(0), Some(10), Some(10), Some(30), None]);
        assert_eq!((total, unshared), (40, 65));
    }
}
