//! The help pages: the SEQ file `BAC HELP` (or `BAC AIDE` in French, as the original's
//! dialogue was English and French) from the disk, 80 columns wide like the original's,
//! word-wrapped on the 40-column screen, read page by page as it is shown.

use crate::draw::{self, BACKGROUND, INK};
use crate::platform::{self, Platform, colour, key};
use crate::text::{Lang, Msg};

/// The help file's name on the disk in `lang`.
pub fn file_name(lang: Lang) -> &'static [u8] {
    match lang {
        Lang::English => b"BAC HELP",
        Lang::French => b"BAC AIDE",
    }
}

/// Text rows per page; the last screen row holds the keys.
const PAGE_ROWS: u8 = 23;
/// Pages whose start is remembered for paging back.
const MAX_PAGES: usize = 48;
const RETURN: u8 = 13;
const LINE_FEED: u8 = 10;

/// PETSCII from the disk to ASCII for [`draw::screen_code`]: the text file stores lower
/// case as $41-$5A and capitals as $C1-$DA; both show as capitals.
fn ascii(c: u8) -> u8 {
    match c {
        0xC1..=0xDA => c & 0x7F,
        _ => c,
    }
}

/// Reads and shows one page; returns how many bytes it used, and whether the text ended.
fn page(p: &mut impl Platform) -> (u16, bool) {
    let cols = p.columns();
    let mut used = 0u16;
    let mut row = 0u8;
    let mut line = [0u8; 80];
    let mut len = 0usize;
    let mut line_bytes = 0u16;
    loop {
        let byte = p.help_byte();
        let end_of_line = matches!(byte, None | Some(RETURN) | Some(LINE_FEED));
        if let Some(c) = byte {
            line_bytes += 1;
            if !end_of_line && len < line.len() {
                line[len] = ascii(c);
                len += 1;
            }
        }
        if !end_of_line {
            continue;
        }
        // Word-wrap the line into rows of `cols`.
        let mut start = 0usize;
        loop {
            let rest = &line[start..len];
            let take = if rest.len() <= usize::from(cols) {
                rest.len()
            } else {
                rest[..usize::from(cols)].iter().rposition(|&c| c == b' ').map_or(usize::from(cols), |i| i + 1)
            };
            draw::text(p, 0, row, &rest[..take], INK);
            row += 1;
            start += take;
            if start >= len || row == PAGE_ROWS {
                break;
            }
        }
        used += line_bytes;
        line_bytes = 0;
        len = 0;
        if byte.is_none() {
            return (used, true);
        }
        if row >= PAGE_ROWS - 1 {
            return (used, false);
        }
    }
}

/// Pages through the help text until STOP, ESC or HELP, its messages in `lang`. The caller
/// redraws its screen.
pub fn show(p: &mut impl Platform, lang: Lang) {
    let mut starts = [0u16; MAX_PAGES];
    let mut n = 0usize;
    if p.open_help(lang).is_err() {
        draw::clear_rows(p, 9, 2);
        let msg = Msg::HelpMissing.text(lang);
        draw::centred(p, 9, msg, colour::LIGHT_RED);
        platform::wait_key(p);
        return;
    }
    let mut position = 0u16;
    loop {
        let cols = p.columns();
        p.set_columns(cols, BACKGROUND);
        let (used, ended) = page(p);
        position += used;
        let keys = Msg::HelpKeys.text(lang);
        draw::centred(p, 24, keys, colour::LIGHT_GREY);
        loop {
            match platform::wait_key(p) {
                key::SPACE | key::RETURN | key::DOWN | key::F1 if !ended && n + 1 < MAX_PAGES => {
                    n += 1;
                    starts[n] = position;
                    break;
                }
                key::UP | key::F3 if n > 0 => {
                    n -= 1;
                    // Back: read the file again from its start up to that page.
                    p.close_help();
                    if p.open_help(lang).is_err() {
                        return;
                    }
                    for _ in 0..starts[n] {
                        p.help_byte();
                    }
                    position = starts[n];
                    break;
                }
                key::STOP | key::ESC | key::HELP | key::F5 => {
                    p.close_help();
                    return;
                }
                _ => {}
            }
        }
    }
}
