//! Shrinking a failing program: items dropped one at a time, branches, loops and pushes
//! replaced by their bodies, loops cut to one turn, functions dropped from the end, for as
//! long as the program stays valid ([`crate::program::check`]) and still fails.

use crate::program::{self, Item, LoopKind, Program};

/// The most candidate runs one shrink makes (each is a translation and two runs).
const MAX_TRIES: usize = 4000;

/// An edit at one position of a body.
#[derive(Clone, Copy)]
enum Edit {
    /// Drop the item.
    Remove,
    /// Put the item's first body (then, loop or push body) in its place.
    First,
    /// Put an if's else part in its place.
    Second,
    /// A loop of one turn.
    OneTurn,
}

/// A smaller program for which `fails` still holds, or `p` itself.
pub fn shrink(p: &Program, fails: impl Fn(&Program) -> bool) -> Program {
    let mut best = p.clone();
    let mut tries = 0;
    'outer: loop {
        let mut cands: Vec<Program> = Vec::new();
        if best.funcs.len() > 1 {
            let mut c = best.clone();
            c.funcs.pop();
            cands.push(c);
        }
        for f in 0..best.funcs.len() {
            for edit in [Edit::Remove, Edit::First, Edit::Second, Edit::OneTurn] {
                let mut n = 0;
                loop {
                    let mut c = best.clone();
                    let mut target = n;
                    match apply(&mut c.funcs[f].items, &mut target, edit) {
                        None => break,
                        Some(true) => cands.push(c),
                        Some(false) => {}
                    }
                    n += 1;
                }
            }
        }
        for c in cands {
            if program::check(&c).is_err() {
                continue;
            }
            tries += 1;
            if tries > MAX_TRIES {
                break 'outer;
            }
            if fails(&c) {
                best = c;
                continue 'outer;
            }
        }
        break;
    }
    best
}

/// Applies `edit` at the `target`-th item in preorder: `None` when there are fewer
/// items, `Some(changed)` otherwise.
fn apply(items: &mut Vec<Item>, target: &mut usize, edit: Edit) -> Option<bool> {
    let mut k = 0;
    while k < items.len() {
        if *target == 0 {
            let it = items[k].clone();
            let replace = |body: &Vec<Item>, items: &mut Vec<Item>| {
                items.splice(k..=k, body.iter().cloned());
            };
            return Some(match (edit, &it) {
                (Edit::Remove, _) => {
                    items.remove(k);
                    true
                }
                (Edit::First, Item::If { then: b, .. } | Item::Loop(_, b) | Item::Push(_, b, _)) => {
                    replace(b, items);
                    true
                }
                (Edit::Second, Item::If { els, .. }) => {
                    replace(els, items);
                    true
                }
                (Edit::OneTurn, Item::Loop(LoopKind::Down(c, n), b)) if *n > 1 => {
                    items[k] = Item::Loop(LoopKind::Down(*c, 1), b.clone());
                    true
                }
                (Edit::OneTurn, Item::Loop(LoopKind::Up(c, n), b)) if *n > 1 => {
                    items[k] = Item::Loop(LoopKind::Up(*c, 1), b.clone());
                    true
                }
                (Edit::OneTurn, Item::Loop(LoopKind::Word(n), b)) if *n > 1 => {
                    items[k] = Item::Loop(LoopKind::Word(1), b.clone());
                    true
                }
                _ => false,
            });
        }
        *target -= 1;
        let found = match &mut items[k] {
            Item::If { then, els, .. } => match apply(then, target, edit) {
                None => apply(els, target, edit),
                some => some,
            },
            Item::Loop(_, b) | Item::Push(_, b, _) => apply(b, target, edit),
            _ => None,
        };
        if found.is_some() {
            return found;
        }
        k += 1;
    }
    None
}
