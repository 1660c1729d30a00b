//! A card as `face::card` lays it out: a white face (every cell `ON_PAPER`, the platform
//! told where the face goes), red hearts and diamonds, black spades and clubs, the rank
//! and suit in the top left and bottom right corners, at both widths.

use bac_game::face;
use bac_game::platform::colour::{BLACK, ON_PAPER, RED};
use bac_rules::{Card, Suit};

mod screen;
use screen::Screen;

fn code(c: u8) -> u8 {
    bac_glyphs::screen_code(c).unwrap()
}

#[test]
fn a_card_is_a_white_face_with_its_rank_and_suit_in_two_corners_at_both_widths() {
    let cases = [
        (Suit::Hearts, RED, bac_glyphs::code::HEART),
        (Suit::Diamonds, RED, bac_glyphs::code::DIAMOND),
        (Suit::Spades, BLACK, bac_glyphs::code::SPADE),
        (Suit::Clubs, BLACK, bac_glyphs::code::CLUB),
    ];
    for (cols, (w, h)) in [(40, (5, 5)), (80, (7, 5))] {
        assert_eq!(face::card_size(cols), (w, h));
        for (suit, ink, pip) in cases {
            let mut s = Screen::new(cols);
            face::card(&mut s, 2, 10, 3, Card::new(12, suit).unwrap());
            assert_eq!(s.faces, [(2, Some((10, 3)))], "{cols} columns");
            let ink = ink | ON_PAPER;
            // Every cell of the face is on the paper, and nothing outside it is drawn.
            for y in 0..25 {
                for x in 0..cols {
                    let inside = (10..10 + w).contains(&x) && (3..3 + h).contains(&y);
                    match s.at(x, y) {
                        Some((_, colour)) => assert!(inside && colour & ON_PAPER != 0, "({x},{y}) {colour:#x}"),
                        None => assert!(!inside, "({x},{y}) left undrawn"),
                    }
                }
            }
            let (right, bottom) = (10 + w - 1, 3 + h - 1);
            assert_eq!(s.at(10, 3), Some((code(b'Q'), ink)), "{suit:?} {cols}");
            assert_eq!(s.at(10, 4), Some((pip, ink)));
            assert_eq!(s.at(right, bottom - 1), Some((pip, ink)));
            assert_eq!(s.at(right, bottom), Some((code(b'Q'), ink)));
        }
    }
    // A ten takes two cells in each corner.
    let mut s = Screen::new(80);
    face::card(&mut s, 0, 0, 1, Card::new(10, Suit::Clubs).unwrap());
    let black = BLACK | ON_PAPER;
    assert_eq!((s.at(0, 1), s.at(1, 1)), (Some((code(b'1'), black)), Some((code(b'0'), black))));
    assert_eq!((s.at(5, 5), s.at(6, 5)), (Some((code(b'1'), black)), Some((code(b'0'), black))));
}

#[test]
fn clearing_the_screen_takes_every_face_away() {
    let mut s = Screen::new(40);
    face::clear_screen(&mut s);
    assert_eq!(s.faces, (0..8).map(|slot| (slot, None)).collect::<Vec<_>>());
}
