//! The 80-column panel draws the derived roads as casinos do: each road's own mark (big
//! eye boy a hollow circle, small road a solid dot, cockroach pig a slash), red or blue,
//! two marks of a column to a cell, on the panel's white paper; and the big road, on either
//! screen, posts rings slashed by the ties after them.

use bac_game::panel;
use bac_game::platform::colour::{BLUE, MARK, ON_PAPER, RED};
use bac_game::roads::Roads;
use bac_game::scoreboard::History;
use bac_game::text::Lang;
use bac_glyphs::mark::{BIG_EYE, BOTH, COCKROACH, LOWER, SMALL, UPPER};
use bac_rules::Winner::{self, Banker as B, Player as P, Tie as T};

mod screen;
use screen::Screen;

/// The panel's first column, and the first rows of big eye boy and of the small road and
/// cockroach pig beside it (`panel.rs`).
const LEFT: u8 = 53;
const BIG_EYE_Y: u8 = 17;
const SMALL_Y: u8 = 21;
const COCKROACH_X: u8 = 67;

fn drawn(results: &[Winner]) -> Screen {
    let (mut history, mut roads) = (History::new(), Roads::new());
    for &w in results {
        history.push(w, false);
        roads.push(w);
    }
    let mut s = Screen::new(80);
    panel::roads(&mut s, Lang::English, &history, &roads);
    s
}

#[test]
fn a_known_shoe_draws_each_roads_marks_in_red_and_blue() {
    // The big road: B | P P (a tie between) | B B. Big eye boy: the Player column's second
    // entry breaks the pattern (column 0 held one), blue; the third column's start
    // compares columns 1 and 0 (2 against 1), blue; its second entry repeats column 1's
    // length, red. The small road starts at the third column's second entry: column 0
    // held one, blue. The cockroach pig has not started.
    let s = drawn(&[B, P, T, P, B, B]);
    let red = RED | (ON_PAPER | MARK);
    let blue = BLUE | (ON_PAPER | MARK);
    assert_eq!(s.at(LEFT, BIG_EYE_Y), Some((BIG_EYE + BOTH, blue)), "two blue rings in one cell");
    assert_eq!(s.at(LEFT + 1, BIG_EYE_Y), Some((BIG_EYE + UPPER, red)), "a red ring over nothing");
    assert_eq!(s.at(LEFT, SMALL_Y), Some((SMALL + UPPER, blue)), "a blue dot");
    // Everything else in the roads is the white paper.
    let paper = bac_game::draw::INK | ON_PAPER;
    for (x, y) in [(LEFT + 2, BIG_EYE_Y), (LEFT, BIG_EYE_Y + 1), (LEFT + 1, SMALL_Y), (COCKROACH_X, SMALL_Y)] {
        assert_eq!(s.at(x, y), Some((b' ', paper)), "({x},{y})");
    }
}

#[test]
fn every_road_has_its_own_marks_and_a_lone_lower_mark_shows_low() {
    // B B P P B B P P B B: every column two long, so all three roads repeat: red. Big eye
    // boy gets seven marks down one column and the seventh turns right along the bottom.
    let s = drawn(&[B, B, P, P, B, B, P, P, B, B]);
    let red = RED | (ON_PAPER | MARK);
    assert_eq!(s.at(LEFT, BIG_EYE_Y), Some((BIG_EYE + BOTH, red)));
    assert_eq!(s.at(LEFT, BIG_EYE_Y + 2), Some((BIG_EYE + BOTH, red)), "rows 4 and 5");
    assert_eq!(s.at(LEFT + 1, BIG_EYE_Y + 2), Some((BIG_EYE + LOWER, red)), "the turn, on row 5");
    assert_eq!(s.at(LEFT, SMALL_Y + 1), Some((SMALL + BOTH, red)));
    assert_eq!(s.at(LEFT, SMALL_Y + 2), Some((SMALL + UPPER, red)), "five marks");
    assert_eq!(s.at(COCKROACH_X, SMALL_Y), Some((COCKROACH + BOTH, red)));
    assert_eq!(s.at(COCKROACH_X, SMALL_Y + 1), Some((COCKROACH + UPPER, red)), "three marks");
}

#[test]
fn where_a_cells_two_marks_differ_it_keeps_the_upper_marks_colour() {
    // Big eye boy: seven reds (the last turning right along row 5 into column 1), then
    // five blues down column 1, the fifth on row 4, over the red tail.
    let mut roads = Roads::new();
    for red in [true; 7].into_iter().chain([false; 5]) {
        roads.big_eye.push(red);
    }
    let mut s = Screen::new(80);
    panel::roads(&mut s, Lang::English, &History::new(), &roads);
    let (red, blue) = (RED | (ON_PAPER | MARK), BLUE | (ON_PAPER | MARK));
    assert_eq!(s.at(LEFT, BIG_EYE_Y + 2), Some((BIG_EYE + BOTH, red)));
    assert_eq!(s.at(LEFT + 1, BIG_EYE_Y + 1), Some((BIG_EYE + BOTH, blue)));
    assert_eq!(s.at(LEFT + 1, BIG_EYE_Y + 2), Some((BIG_EYE + BOTH, blue)), "blue over the red tail");
}

#[test]
fn the_big_road_posts_rings_slashed_by_ties_and_a_tie_before_the_first_win() {
    use bac_game::glyph::{RING, SLASH, SLASHED_RING};
    use bac_game::platform::colour::{LIGHT_RED, YELLOW};
    use bac_game::scoreboard::draw_big_road;
    let road = |results: &[Winner]| {
        let mut history = History::new();
        results.iter().for_each(|&w| history.push(w, false));
        let mut s = Screen::new(40);
        draw_big_road(&mut s, 13, 18, 27, &history, 0);
        s
    };
    let s = road(&[T]);
    assert_eq!(s.at(13, 18), Some((SLASH, YELLOW)), "a tie on the first coup shows");
    // B after two ties takes their cell and count; P, a tie; P; B.
    let s = road(&[T, T, B, P, T, P, B]);
    assert_eq!(s.at(13, 18), Some((b'2', YELLOW)), "the first win with the two ties before it");
    assert_eq!(s.at(14, 18), Some((SLASHED_RING, YELLOW)), "Player's first win, a tie after it");
    assert_eq!(s.at(14, 19), Some((RING, bac_game::draw::PLAYER_INK)));
    assert_eq!(s.at(15, 18), Some((RING, LIGHT_RED)));
    assert_eq!(s.at(13, 19), Some((b' ', bac_game::platform::colour::WHITE)), "nothing under a column of one");
}
