//! The help pages: the SEQ file `BAC HELP` (or `BAC AIDE` in French, as the original's
//! dialogue was English and French) from the disk, 80 columns wide like the original's,
//! word-wrapped on the 40-column screen, read page by page as it is shown.

use crate::draw::{self, BACKGROUND, INK};
use crate::help_reader::{Line, Reader};
use crate::platform::{self, Platform, colour, key};
use crate::text::{Lang, Msg};

/// The help file's format, which the platforms' readers share with the pager.
pub use crate::help_file::{LINE_FEED, RETURN, ascii, file_name};

/// Text rows per page; the last screen row holds the keys.
const PAGE_ROWS: u8 = 23;
/// Pages whose start is remembered for paging back.
const MAX_PAGES: usize = 48;
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

/// Where on the page the last line ended, and so where the next may go on.
#[derive(Clone, Copy)]
struct Flow {
    /// The next free row.
    row: u8,
    /// The column after the last line's last character (on `row - 1`).
    end: usize,
    /// Whether the next line may go on after it, and its indent.
    goes_on: bool,
    indent: usize,
}

/// Lays `line` out from `flow` on the page, drawing it if `draw` (only the rows on the
/// page); returns the flow after it. The same layout measures a line and draws it, so a
/// page knows before it draws whether the line fits.
///
/// On a screen as wide as the file a line is a row. On a narrower one the prose is
/// reflowed: a line goes on from the end of the one before it when that one filled its
/// row in the file and both have the same indent of at most [`PROSE_INDENT`], and a line
/// wraps at spaces with its rows under its indent (a table's under its second column, at
/// most half a row in), so a paragraph reads as one column instead of long and short rows
/// in turn.
fn lay_out(p: &mut impl Platform, line: &[u8], mut flow: Flow, draw: bool) -> Flow {
    let cols = usize::from(p.columns());
    let narrow = cols < 80;
    let len = line.len();
    let indent = line.iter().take_while(|&&c| c == b' ').count();
    let under = if narrow { hanging(line, indent).min(cols / 2) } else { 0 };
    let (mut at, mut start) = (0usize, 0usize);
    if flow.goes_on && indent == flow.indent && len > indent && flow.end + 2 < cols {
        flow.row -= 1;
        (at, start) = (flow.end + 1, indent);
    }
    flow.goes_on = narrow && len >= FILLED && indent <= PROSE_INDENT;
    flow.indent = indent;
    // Word-wrap the line into rows of `cols`, each row after the first under its indent.
    loop {
        let rest = &line[start..len];
        let room = cols - at;
        let take = if rest.len() <= room {
            rest.len()
        } else {
            match rest[..=room].iter().rposition(|&c| c == b' ') {
                Some(space) => space,
                // A word longer than a row is cut; one that does not fit after what is on
                // the row goes to the next.
                None if at <= under => room,
                None => 0,
            }
        };
        if draw && flow.row < PAGE_ROWS {
            draw::text(p, at as u8, flow.row, &rest[..take], INK);
        }
        flow.end = at + take;
        start += take;
        while start < len && line[start] == b' ' {
            start += 1;
        }
        flow.row = flow.row.saturating_add(1);
        at = under;
        if start >= len {
            return flow;
        }
    }
}

/// Lines read and not yet shown, in order: the page before had no room for them. A page
/// that has no room for a line ends before it, and the next page starts with it.
type Carried = [Option<Line>; 2];

/// Shows one page, starting with `carried` if the page before had no room for it; returns
/// how many bytes of the file its lines took, whether the text ended, and the line it had
/// no room for. A page ends at the first line whose rows would not all fit, so no line is
/// cut at its foot and none leaves rows empty that it could have filled.
///
/// A heading (a line that starts in the file's first column) goes on the page only with the
/// line after it: one at the foot of a page went to the next page with its text (issue 31
/// saw headings orphaned there). So up to two lines are carried.
fn page(p: &mut impl Platform, reader: &mut Reader, mut carried: Carried) -> (u16, bool, Carried) {
    let mut used = 0u16;
    let mut flow = Flow { row: 0, end: 0, goes_on: false, indent: 0 };
    loop {
        let line = match carried[0].take() {
            Some(line) => {
                carried[0] = carried[1].take();
                line
            }
            None => reader.line(p),
        };
        let text = line.text();
        let after = lay_out(p, text, flow, false);
        // The first line of a page is drawn whatever its length: no page could hold it.
        if after.row > PAGE_ROWS && flow.row > 0 {
            return (used, false, [Some(line), carried[0].take()]);
        }
        let heading = line.len > 0 && line.text[0] != b' ' && line.more;
        if heading && flow.row > 0 {
            let next = match carried[0].take() {
                Some(next) => next,
                None => reader.line(p),
            };
            let with_next = lay_out(p, next.text(), after, false);
            carried[0] = Some(next);
            if with_next.row > PAGE_ROWS {
                return (used, false, [Some(line), carried[0].take()]);
            }
        }
        flow = lay_out(p, text, flow, true);
        used += line.bytes;
        if !line.more {
            return (used, true, [None, None]);
        }
    }
}

/// Pages through the help text until STOP, ESC or HELP, its messages in `lang`. The caller
/// redraws its screen.
pub fn show(p: &mut impl Platform, lang: Lang) {
    // Each page's start: its first line's place in the file, and its record's in the ring
    // of lines kept (`help_reader`).
    let mut starts = [0u16; MAX_PAGES];
    let mut kept = [0u16; MAX_PAGES];
    let mut n = 0usize;
    if p.open_help(lang).is_err() {
        draw::clear_rows(p, 9, 2);
        let msg = Msg::HelpMissing.text(lang);
        draw::centred(p, 9, msg, colour::LIGHT_RED);
        platform::wait_key(p);
        return;
    }
    let mut reader = Reader::new(p);
    let mut position = 0u16;
    let mut carried: Carried = [None, None];
    loop {
        let cols = p.columns();
        p.set_columns(cols, BACKGROUND);
        let (used, ended, rest) = page(p, &mut reader, core::mem::take(&mut carried));
        position += used;
        // The last page offers no next one.
        let keys = if ended { Msg::HelpKeysLast } else { Msg::HelpKeys }.text(lang);
        draw::centred(p, 24, keys, colour::LIGHT_GREY);
        loop {
            match platform::wait_key(p) {
                key::SPACE | key::RETURN | key::DOWN | key::F1 if !ended && n + 1 < MAX_PAGES => {
                    n += 1;
                    starts[n] = position;
                    kept[n] = rest[0].as_ref().map_or(reader.next_at(), |line| line.kept_at);
                    carried = rest;
                    break;
                }
                key::UP | key::F3 if n > 0 => {
                    n -= 1;
                    if !reader.back_to(kept[n]) && !read_again(p, lang, &mut reader, &starts[..=n], &mut kept) {
                        return;
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

/// Opens the help file again and reads it up to the last of `starts`, a page the ring no
/// longer holds, keeping each page's record as it goes by; false if the file is gone.
///
/// It takes seconds on a 1581 (the drive sends the file a byte at a time): the key line
/// says so meanwhile.
fn read_again(p: &mut impl Platform, lang: Lang, reader: &mut Reader, starts: &[u16], kept: &mut [u16]) -> bool {
    draw::clear_rows(p, 24, 1);
    draw::centred(p, 24, Msg::HelpReadingBack.text(lang), colour::YELLOW);
    p.close_help();
    if p.open_help(lang).is_err() {
        return false;
    }
    reader.restart();
    // Pages start at a line, so whole lines lead up to each.
    let mut skipped = 0u16;
    for (&start, kept) in starts.iter().zip(kept.iter_mut()) {
        while skipped < start {
            let line = reader.line(p);
            skipped += line.bytes;
            if !line.more {
                break;
            }
        }
        *kept = reader.next_at();
    }
    true
}
