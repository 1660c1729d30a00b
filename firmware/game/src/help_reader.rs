//! Where the help pages' lines come from: the disk, and a ring of the lines already read,
//! kept in the platform's spare memory ([`Storage::spare_len`]) so that paging back takes
//! them from there. A 1581 sends a file a byte at a time; going back read the file again
//! from its start, for 8 to 20 seconds in VICE (issue 31).
//!
//! The ring holds the most recent lines read, as records of a 3-byte head and the text:
//! the text's length (bit 7 set on the file's last line) and the bytes the line took from
//! the file. A record is found by its stream offset, the bytes written to the ring before
//! it since the file was opened; its place in the ring is that offset modulo the ring's
//! size. Records are never read out of order: from a page's first record on, to the last
//! one written, and then from the disk again, which is still where the last line left it.

use crate::platform::Storage;

/// A record's head: the text's length (with [`LAST`]) and the file bytes, little-endian.
const HEAD: usize = 3;
/// A line's longest text: the file's width.
pub const WIDTH: usize = 80;
/// Set in a record's length byte on the file's last line.
const LAST: u8 = 0x80;

/// A line of the file.
pub struct Line {
    /// Its characters, as [`crate::help_file::ascii`] gives them, in the first `len`.
    pub text: [u8; WIDTH],
    /// How many characters it has (the first [`WIDTH`] of a longer line).
    pub len: u8,
    /// The bytes it took from the file (its RETURN or line feed included).
    pub bytes: u16,
    /// Whether the text goes on after it.
    pub more: bool,
    /// Its record's stream offset in the ring.
    pub kept_at: u16,
}

impl Line {
    /// Its characters.
    pub fn text(&self) -> &[u8] {
        &self.text[..usize::from(self.len)]
    }
}

/// The lines of the open help file, from the disk or the ring.
pub struct Reader {
    /// The platform's spare memory, or 0 when a record would not fit.
    spare: u16,
    /// The ring's size: `spare`, or 0 once the stream offsets would pass 16 bits (a help
    /// file of over 60 KB; ours are 7), which would move the records' places.
    room: u16,
    /// Bytes written to the ring since the file was opened.
    written: u16,
    /// The stream offset of the next line's record; the disk's next line when it is
    /// [`Reader::written`].
    at: u16,
}

impl Reader {
    /// A reader for a file just opened, with the platform's spare memory as its ring.
    pub fn new(p: &mut impl Storage) -> Reader {
        let spare = p.spare_len();
        let spare = if usize::from(spare) >= HEAD + WIDTH { spare } else { 0 };
        Reader { spare, room: spare, written: 0, at: 0 }
    }

    /// Starts the ring again, for the file opened anew.
    pub fn restart(&mut self) {
        (self.room, self.written, self.at) = (self.spare, 0, 0);
    }

    /// The next line: from the ring while records are left after the last one read, then
    /// from the disk, each line kept in the ring as it comes.
    pub fn line(&mut self, p: &mut impl Storage) -> Line {
        let mut line = Line { text: [0; WIDTH], len: 0, bytes: 0, more: false, kept_at: self.at };
        if self.at != self.written {
            let mut head = [0u8; HEAD];
            self.load(p, self.at, &mut head);
            // Only this reader writes the ring, so a length is never over WIDTH; the
            // bound keeps a slice in range all the same.
            line.len = (head[0] & !LAST).min(WIDTH as u8);
            line.more = head[0] & LAST == 0;
            line.bytes = u16::from_le_bytes([head[1], head[2]]);
            let len = usize::from(line.len);
            self.load(p, self.at + HEAD as u16, &mut line.text[..len]);
            self.at += (HEAD + len) as u16;
            return line;
        }
        (line.len, line.bytes, line.more) = p.help_line(&mut line.text);
        let after = self.written.checked_add((HEAD + usize::from(line.len)) as u16);
        match after {
            Some(after) if self.room > 0 => {
                let [lo, hi] = line.bytes.to_le_bytes();
                let head = [line.len | if line.more { 0 } else { LAST }, lo, hi];
                self.store(p, self.written, &head);
                self.store(p, self.written + HEAD as u16, line.text());
                (self.written, self.at) = (after, after);
            }
            _ => self.room = 0,
        }
        line
    }

    /// The stream offset of the next line's record.
    pub fn next_at(&self) -> u16 {
        self.at
    }

    /// Goes back to the record at stream offset `kept_at`, if the ring still holds it and
    /// every record after it: then the lines from there come from the ring.
    pub fn back_to(&mut self, kept_at: u16) -> bool {
        let kept = self.room > 0 && kept_at <= self.written && self.written - kept_at <= self.room;
        if kept {
            self.at = kept_at;
        }
        kept
    }

    /// The ring's place of stream offset `at`.
    fn place(&self, at: u16) -> u16 {
        at % self.room
    }

    /// Copies `bytes` into the ring at stream offset `at`, in two parts where they meet the
    /// ring's end.
    fn store(&self, p: &mut impl Storage, at: u16, bytes: &[u8]) {
        let place = self.place(at);
        let first = bytes.len().min(usize::from(self.room - place));
        p.spare_store(place, &bytes[..first]);
        if first < bytes.len() {
            p.spare_store(0, &bytes[first..]);
        }
    }

    /// Copies the ring's bytes at stream offset `at` into `bytes`, as [`Reader::store`]
    /// wrote them.
    fn load(&self, p: &mut impl Storage, at: u16, bytes: &mut [u8]) {
        let place = self.place(at);
        let first = bytes.len().min(usize::from(self.room - place));
        let (a, b) = bytes.split_at_mut(first);
        p.spare_load(place, a);
        if !b.is_empty() {
            p.spare_load(0, b);
        }
    }
}
