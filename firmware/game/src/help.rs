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
/// A line's end in the help file, as the C128 writes it.
pub const RETURN: u8 = 13;
/// A line's end in the help file, as other machines write it.
pub const LINE_FEED: u8 = 10;

/// PETSCII from the disk to ASCII for [`draw::screen_code`]: the text file stores lower
/// case as $41-$5A and capitals as $C1-$DA; both show as capitals.
pub fn ascii(c: u8) -> u8 {
    match c {
        0xC1..=0xDA => c & 0x7F,
        _ => c,
    }
}

/// Rows an 80-column line may take on a narrower screen: its words wrapped at 40
/// columns under its indent, or going on after the line before it.
const MOST_ROWS_A_LINE: u8 = 3;
/// A line at least this long filled its row in the file: prose, which the next line of the
/// same indent goes on from when the screen is narrower than the file.
const FILLED: usize = 60;
/// Indents of prose; deeper ones are tables, whose rows stay rows.
const PROSE_INDENT: usize = 2;

/// Where a line's wrapped rows start: under its indent, or in a table row (indented deeper
/// than prose) under its second column, which follows the first gap of two spaces.
fn hanging(line: &[u8], indent: usize) -> usize {
    if indent <= PROSE_INDENT {
        return indent;
    }
    let gap = line[indent..].windows(2).position(|w| w == b"  ");
    match gap {
        Some(at) => {
            let after = indent + at;
            after + line[after..].iter().take_while(|&&c| c == b' ').count()
        }
        None => indent,
    }
}

/// Reads and shows one page; returns how many bytes it used, and whether the text ended.
///
/// On a screen as wide as the file a line is a row. On a narrower one the prose is
/// reflowed: a line goes on from the end of the one before it when that one filled its
/// row in the file and both have the same indent of at most [`PROSE_INDENT`], and a line
/// wraps at spaces with its rows under its indent (a table's under its second column, at
/// most half a row in), so a paragraph reads as one column
/// instead of long and short rows in turn. A page ends when fewer than
/// [`MOST_ROWS_A_LINE`] rows would be left after its next line's first, so no line is cut
/// at its foot.
fn page(p: &mut impl Platform) -> (u16, bool) {
    let cols = usize::from(p.columns());
    let narrow = cols < 80;
    let most_rows = if narrow { MOST_ROWS_A_LINE } else { 1 };
    let mut used = 0u16;
    let mut row = 0u8;
    let mut line = [0u8; 80];
    // Where the last line ended (its row is `row - 1`), whether the next may go on there,
    // and its indent.
    let (mut end, mut goes_on, mut last_indent) = (0usize, false, 0usize);
    loop {
        let (n, line_bytes, more) = p.help_line(&mut line);
        let len = usize::from(n);
        let indent = line[..len].iter().take_while(|&&c| c == b' ').count();
        let under = if narrow { hanging(&line[..len], indent).min(cols / 2) } else { 0 };
        let (mut at, mut start) = (0usize, 0usize);
        if goes_on && indent == last_indent && len > indent && end + 2 < cols {
            row -= 1;
            (at, start) = (end + 1, indent);
        }
        goes_on = narrow && len >= FILLED && indent <= PROSE_INDENT;
        last_indent = indent;
        // Word-wrap the line into rows of `cols`, each row after the first under its indent.
        loop {
            let rest = &line[start..len];
            let room = cols - at;
            let take = if rest.len() <= room {
                rest.len()
            } else {
                match rest[..=room].iter().rposition(|&c| c == b' ') {
                    Some(space) => space,
                    // A word longer than a row is cut; one that does not fit after what
                    // is on the row goes to the next.
                    None if at <= under => room,
                    None => 0,
                }
            };
            draw::text(p, at as u8, row, &rest[..take], INK);
            end = at + take;
            start += take;
            while start < len && line[start] == b' ' {
                start += 1;
            }
            row += 1;
            at = under;
            if start >= len || row == PAGE_ROWS {
                break;
            }
        }
        used += line_bytes;
        if !more {
            return (used, true);
        }
        if row + most_rows >= PAGE_ROWS {
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
                    // Pages start at a line, so whole lines lead up to it.
                    let (mut skipped, mut line) = (0u16, [0u8; 80]);
                    while skipped < starts[n] {
                        let (_, bytes, more) = p.help_line(&mut line);
                        skipped += bytes;
                        if !more {
                            break;
                        }
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
