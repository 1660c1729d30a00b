//! The help texts' files on the disk: their names by language, how a line ends and how
//! their letters are stored. A leaf module, shared by the pager ([`crate::help`]) and the
//! platforms that read the files ([`crate::platform::Storage`]).

use crate::text::Lang;

/// The help file's name on the disk in `lang`.
pub fn file_name(lang: Lang) -> &'static [u8] {
    match lang {
        Lang::English => b"BAC HELP",
        Lang::French => b"BAC AIDE",
    }
}

/// A line's end in the help file, as the C128 writes it.
pub const RETURN: u8 = 13;
/// A line's end in the help file, as other machines write it.
pub const LINE_FEED: u8 = 10;

/// PETSCII from the disk to ASCII for [`crate::glyph::screen_code`]: the text file stores lower
/// case as $41-$5A and capitals as $C1-$DA; both show as capitals.
pub fn ascii(c: u8) -> u8 {
    match c {
        0xC1..=0xDA => c & 0x7F,
        _ => c,
    }
}
