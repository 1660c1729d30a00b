//! What a program sends the drive, parsed: the name given to `OPEN` (with its `@`, drive,
//! type and mode) and DOS commands on channel 15 (`S0:NAME`, `R0:NEW=OLD`, …), as the
//! emulator's KERNAL receives them.
//!
//! The drive looks only at the first letter of a command (`S`, `SCRATCH` and `SCR` are the
//! same), an optional drive number 0 and a colon, then the arguments; a trailing RETURN
//! (what `PRINT#15` sends) is ignored.

use crate::dir::FileType;
use crate::disk::Disk;
use crate::petscii;
use crate::status::{DosError, DosStatus};

/// What a file is opened for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// `,R` (the default; `LOAD` reads).
    Read,
    /// `,W` (`SAVE` writes).
    Write,
    /// `,A`: add to the end of an existing file.
    Append,
    /// `,M`: read a file that was never closed.
    Modify,
}

/// A parsed `OPEN` name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OpenRequest {
    /// `$` (and `$:PATTERN`): the directory, as a BASIC program (see
    /// [`Disk::directory_listing`]).
    Directory {
        /// The pattern after the colon, if any.
        pattern: Option<Vec<u8>>,
    },
    /// `#`: a direct-access buffer (not a file; this library does not emulate buffers).
    Buffer,
    /// A file.
    File {
        /// The name or pattern (without `@`, drive, type or mode).
        name: Vec<u8>,
        /// `@` given: save with replace.
        replace: bool,
        /// The type asked for (`,S` `,P` `,U` `,L`); `None` reads any type.
        file_type: Option<FileType>,
        /// Read, write, append or modify.
        mode: Mode,
    },
}

/// Parses the name given to `OPEN` (or `LOAD`/`SAVE`) with the secondary address used:
/// 0 is `LOAD` (read, any type), 1 is `SAVE` (write, PRG), 2-14 default to reading, and a
/// file written without a type is SEQ.
pub fn parse_open(name: &[u8], secondary: u8) -> Result<OpenRequest, DosError> {
    let name = strip_return(name);
    if name.first() == Some(&b'$') {
        let pattern = split_drive(&name[1..]).filter(|p| !p.is_empty()).map(<[u8]>::to_vec);
        return Ok(OpenRequest::Directory { pattern });
    }
    if name.first() == Some(&b'#') {
        return Ok(OpenRequest::Buffer);
    }
    let (replace, rest) = match name.strip_prefix(b"@") {
        Some(rest) => (true, rest),
        None => (false, name),
    };
    let rest = split_drive(rest).unwrap_or(rest);
    let mut fields = rest.split(|&b| b == b',');
    let file_name = fields.next().unwrap_or(&[]).to_vec();
    if file_name.is_empty() {
        return Err(DosError::NoName);
    }
    let mut file_type = None;
    let mut mode = None;
    for field in fields {
        match field.first() {
            Some(b'S') => file_type = Some(FileType::Seq),
            Some(b'P') => file_type = Some(FileType::Prg),
            Some(b'U') => file_type = Some(FileType::Usr),
            Some(b'L') => file_type = Some(FileType::Rel),
            Some(b'R') => mode = Some(Mode::Read),
            Some(b'W') => mode = Some(Mode::Write),
            Some(b'A') => mode = Some(Mode::Append),
            Some(b'M') => mode = Some(Mode::Modify),
            _ => {
                return Err(DosError::InvalidCommand { command: petscii::to_ascii(name) });
            }
        }
    }
    let mode = match secondary {
        0 => Mode::Read,
        1 => Mode::Write,
        _ => mode.unwrap_or(Mode::Read),
    };
    let file_type = match (secondary, mode, file_type) {
        (1, _, None) => Some(FileType::Prg),
        (_, Mode::Write, None) => Some(FileType::Seq),
        (_, _, t) => t,
    };
    Ok(OpenRequest::File { name: file_name, replace, file_type, mode })
}

/// The part after `[drive]:`, if the text has a colon (`0:NAME`, `:NAME`).
fn split_drive(text: &[u8]) -> Option<&[u8]> {
    let colon = text.iter().position(|&b| b == b':')?;
    Some(&text[colon + 1..])
}

fn strip_return(text: &[u8]) -> &[u8] {
    text.strip_suffix(b"\r").unwrap_or(text)
}

impl Disk {
    /// Runs a DOS command sent on channel 15 and returns the status it leaves:
    /// `S0:PATTERN[,PATTERN…]` scratch, `R0:NEW=OLD` rename, `C0:NEW=OLD[,OLD…]` copy (and
    /// join), `N0:NAME,ID` format, `I0` initialize and `V0` validate (nothing to do: a
    /// `Disk` is always consistent), `UJ`/`UI` reset (73). Anything else is 31 SYNTAX ERROR;
    /// an empty command just reads the status (00, OK).
    pub fn command(&mut self, command: &[u8]) -> Result<DosStatus, DosError> {
        let command = strip_return(command);
        let invalid = || DosError::InvalidCommand { command: petscii::to_ascii(command) };
        let Some(&verb) = command.first() else {
            return Ok(DosStatus::OK);
        };
        let args = split_drive(command);
        match verb {
            b'S' => {
                let args = args.ok_or_else(invalid)?;
                self.check_writable()?;
                if args.split(|&b| b == b',').any(<[u8]>::is_empty) {
                    return Err(DosError::NoName);
                }
                let mut total = 0u8;
                for pattern in args.split(|&b| b == b',') {
                    total = total.saturating_add(self.scratch(pattern)?);
                }
                Ok(DosStatus::files_scratched(total))
            }
            b'R' => {
                let (new, old) = split_equals(args.ok_or_else(invalid)?).ok_or_else(invalid)?;
                self.rename(split_drive(old).unwrap_or(old), new)?;
                Ok(DosStatus::OK)
            }
            b'C' => {
                let (new, sources) = split_equals(args.ok_or_else(invalid)?).ok_or_else(invalid)?;
                let mut data = Vec::new();
                let mut file_type = None;
                for source in sources.split(|&b| b == b',') {
                    let file = self.read(split_drive(source).unwrap_or(source))?;
                    file_type.get_or_insert(file.entry.file_type);
                    data.extend_from_slice(&file.data);
                }
                self.write_file(new, file_type.unwrap_or(FileType::Seq), &data)?;
                Ok(DosStatus::OK)
            }
            b'N' => {
                let args = args.ok_or_else(invalid)?;
                self.check_writable()?;
                let mut parts = args.splitn(2, |&b| b == b',');
                let name = parts.next().unwrap_or(&[]);
                let id = match parts.next() {
                    Some(&[a, b, ..]) => [a, b],
                    // Without an ID the 1581 only clears the directory and keeps the ID.
                    _ => self.id(),
                };
                let protect = self.is_write_protected();
                *self = Disk::new(name, id)?;
                self.set_write_protected(protect);
                Ok(DosStatus::OK)
            }
            b'I' | b'V' => Ok(DosStatus::OK),
            b'U' if matches!(command.get(1), Some(b'J' | b'I' | b':' | b';')) => Ok(DosStatus::POWER_ON),
            _ => Err(invalid()),
        }
    }
}

/// `NEW=OLD` split at the `=`.
fn split_equals(args: &[u8]) -> Option<(&[u8], &[u8])> {
    let at = args.iter().position(|&b| b == b'=')?;
    Some((&args[..at], &args[at + 1..]))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn file(name: &[u8], replace: bool, t: Option<FileType>, mode: Mode) -> OpenRequest {
        OpenRequest::File { name: name.to_vec(), replace, file_type: t, mode }
    }

    #[test]
    fn open_names_parse_like_the_drive() {
        assert_eq!(parse_open(b"BAC", 0), Ok(file(b"BAC", false, None, Mode::Read)));
        assert_eq!(parse_open(b"0:BAC", 1), Ok(file(b"BAC", false, Some(FileType::Prg), Mode::Write)));
        assert_eq!(parse_open(b"@0:BANK,S,W", 2), Ok(file(b"BANK", true, Some(FileType::Seq), Mode::Write)));
        assert_eq!(parse_open(b"BANK,W", 3), Ok(file(b"BANK", false, Some(FileType::Seq), Mode::Write)));
        assert_eq!(parse_open(b"BAC HELP,SEQ,READ", 2), Ok(file(b"BAC HELP", false, Some(FileType::Seq), Mode::Read)));
        assert_eq!(parse_open(b"LOG,S,A", 2), Ok(file(b"LOG", false, Some(FileType::Seq), Mode::Append)));
        assert_eq!(parse_open(b"$", 0), Ok(OpenRequest::Directory { pattern: None }));
        assert_eq!(parse_open(b"$0:B*", 0), Ok(OpenRequest::Directory { pattern: Some(b"B*".to_vec()) }));
        assert_eq!(parse_open(b"#", 2), Ok(OpenRequest::Buffer));
        assert_eq!(parse_open(b"0:", 2), Err(DosError::NoName));
        assert_eq!(parse_open(b"X,Q", 2).unwrap_err().status().code, 31);
    }

    #[test]
    fn commands_change_the_disk_and_report_status() {
        let mut d = Disk::new(b"CMD", *b"C1").unwrap();
        d.write_file(b"A", FileType::Seq, b"aa").unwrap();
        d.write_file(b"B", FileType::Seq, b"bb").unwrap();
        assert_eq!(d.command(b"C0:AB=A,B\r"), Ok(DosStatus::OK));
        assert_eq!(d.read(b"AB").unwrap().data, b"aabb");
        assert_eq!(d.command(b"R0:Z=AB"), Ok(DosStatus::OK));
        assert_eq!(d.command(b"SCRATCH0:A,B"), Ok(DosStatus::files_scratched(2)));
        assert_eq!(d.command(b"S:NONE"), Ok(DosStatus::files_scratched(0)));
        assert_eq!(d.command(b"S0:Z,"), Err(DosError::NoName));
        assert!(d.find(b"Z").is_some(), "nothing is scratched when a pattern is missing");
        assert_eq!(d.entries().len(), 1);
        assert_eq!(d.command(b"I0"), Ok(DosStatus::OK));
        assert_eq!(d.command(b""), Ok(DosStatus::OK));
        assert_eq!(d.command(b"UJ"), Ok(DosStatus::POWER_ON));
        assert_eq!(d.command(b"X").unwrap_err().status().code, 31);
        assert_eq!(d.command(b"R0:NOEQUALS").unwrap_err().status().code, 31);
        assert_eq!(d.command(b"R0:Q=MISSING").unwrap_err().status().code, 62);
        assert_eq!(d.command(b"N0:FRESH,F2"), Ok(DosStatus::OK));
        assert!(d.entries().is_empty());
        assert_eq!((d.name(), d.id()), (b"FRESH".to_vec(), *b"F2"));
        d.set_write_protected(true);
        assert_eq!(d.command(b"S0:*"), Err(DosError::WriteProtect));
        assert_eq!(d.command(b"N0:X,YY"), Err(DosError::WriteProtect));
    }
}
