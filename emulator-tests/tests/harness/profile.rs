//! The profiler of `bac profile` on the real game: what it counts must add up to what the
//! game did.

use bac_harness::profile::Profiler;

use crate::built_game::{boot, built};

/// Watching a settle one instruction at a time: every cycle is some function's (the total
/// is the settle's own time, as `Game::time_from_last` measures it), all of it runs
/// translated (the last card's showing, the character drawing, the screen's flip back),
/// and the runtime's register saves are put down to their callers.
#[test]
fn a_profiled_settle_accounts_for_every_cycle() {
    let b = built();
    let mut g = boot(&b.image, false);
    g.fix_seed(b.ticks_routine, 0x0012_3456);
    g.keys("{RETURN}{RIGHT}{RIGHT}{RETURN}BEN{RETURN}1P");
    let card = b.code_map.symbol(|n| n.contains("8bac_game4face4card")).expect("face::card in the map");
    g.watch(Profiler::new(b.code_map.clone(), Some(b.frame_routine)), &[card]);
    let settle = g.time_from_last("{RETURN}", &[card]).expect("a coup was dealt");
    let p = g.profiler.take().expect("the profiler is kept").finish();
    assert_eq!(p.cycles, settle, "the profile's cycles are the settle's");
    let item = |name: &str| {
        p.items.iter().find(|i| i.name.ends_with(name)).unwrap_or_else(|| panic!("{name} in {:#?}", p.items))
    };
    // The last card is shown by `card_shown`, outlined from the coup's flow
    // (`deal_and_settle`, interpreted) and translated: it was entered before the card, and
    // nothing of the flow runs after it.
    let shown = item("App>::card_shown");
    assert!(!shown.interpreted && shown.cycles > 0, "{shown:?}");
    assert_eq!(shown.calls, 0, "entered before the last card");
    assert!(p.items.iter().all(|i| !i.name.ends_with("App>::deal_and_settle")), "{:#?}", p.items);
    // Text is drawn a row at a time, translated: after the last card only its total (the
    // settled screen was drawn in the card's pause, behind the held screen).
    let text = item("<C128 as Screen>::put_text");
    assert!(!text.interpreted && text.calls >= 1, "{text:?}");
    let show = item("<C128 as Screen>::show");
    assert_eq!(show.calls, 1, "the settled screen shown with the last card: {show:?}");
    assert!(!show.interpreted, "{show:?}");
    let saves = item("rt_pushrun");
    assert!(!saves.callers.is_empty(), "{saves:?}");
    assert_eq!(saves.callers.iter().map(|c| c.2).sum::<u64>(), saves.calls, "every call has its caller");
    // All of it translated since `translate-more`: no interpreted function and no AVR
    // instruction run by the interpreter from the last card to the settled screen.
    assert!(p.items.iter().all(|i| !i.interpreted), "{:#?}", p.items);
    assert!(p.translated > 0 && p.interpreted == 0, "{} and {}", p.translated, p.interpreted);
}

/// Watching a whole coup, from its dealing key to its settled screen: the coup's flow
/// (`deal_and_settle`) still runs interpreted from bank 1, so the profile puts its cycles
/// and its instructions on the interpreter's side, and the two sides add up to the AVR
/// instructions the coup ran.
#[test]
fn a_profiled_coup_counts_its_interpreted_flow() {
    let b = built();
    let mut g = boot(&b.image, false);
    g.fix_seed(b.ticks_routine, 0x0012_3456);
    g.keys("{RETURN}{RIGHT}{RIGHT}{RETURN}BEN{RETURN}1");
    g.keys("P");
    g.watch(Profiler::new(b.code_map.clone(), Some(b.frame_routine)), &[]);
    g.keys("{RETURN}");
    let p = g.profiler.take().expect("the profiler is kept").finish();
    let flow = p
        .items
        .iter()
        .find(|i| i.name.ends_with("App>::deal_and_settle"))
        .unwrap_or_else(|| panic!("deal_and_settle in {:#?}", p.items));
    assert!(flow.interpreted && flow.cycles > 0, "{flow:?}");
    assert!(p.interpreted > 0 && p.translated > 0, "{} and {}", p.translated, p.interpreted);
    assert!(
        p.hot_interpreted.iter().any(|(f, _, cycles)| f.ends_with("App>::deal_and_settle") && *cycles > 0),
        "{:#?}",
        p.hot_interpreted
    );
    assert_eq!(p.items.iter().map(|i| i.cycles).sum::<u64>(), p.cycles, "every cycle is some function's");
}
