//! Whole SEQ files on the drive the program came from, through the KERNAL (SETBNK, SETLFS,
//! SETNAM, OPEN, CHKIN/CHKOUT, CHRIN/CHROUT, READST, CLRCHN, CLOSE), with the drive's own
//! verdict read from its command channel after each step.
//!
//! The drive reports most failures only on channel 15 ("62,FILE NOT FOUND,00,00"), not
//! through the KERNAL, so every operation opens the command channel first, reads the
//! status after opening the file and again after closing it (a write can fail at the
//! close, when the drive allocates its last blocks), and closes every channel it opened on
//! every path. Names are PETSCII: ASCII capitals, digits and most punctuation are the
//! same bytes.

use crate::hw::Reg8;
use crate::kernal;

/// Why a disk operation failed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DiskError {
    /// 62 FILE NOT FOUND (or a scratch that matched no file).
    NotFound,
    /// 26 WRITE PROTECT ON.
    WriteProtected,
    /// 72 DISK FULL.
    DiskFull,
    /// No drive answers at [`device`].
    NoDevice,
    /// The file does not fit the buffer, or a name is longer than the 16 characters the
    /// DOS allows.
    TooLong,
    /// Any other DOS error (63 FILE EXISTS for [`write`] to an existing name, 30-34 for a
    /// bad name, ...).
    Dos(u8),
}

/// FA: the device of the last I/O, which is the drive the program was loaded from.
const FA: Reg8 = Reg8::at(c128_map::zp::FA);
/// Logical file and secondary address of the data channel.
const DATA: u8 = 2;
/// Logical file and secondary address of the command channel.
const COMMAND: u8 = 15;
/// The longest file name the DOS takes.
const NAME_MAX: usize = 16;
/// READST bits: end of file, device not present.
const ST_EOF: u8 = 0x40;
const ST_NO_DEVICE: u8 = 0x80;
/// ST, the KERNAL's I/O status byte (what READST returns). Its bits only accumulate, so it
/// is cleared before each read loop: an end of file left from the last read would
/// otherwise end the next one after a byte.
const ST: Reg8 = Reg8::at(c128_map::zp::STATUS);
/// The KERNAL's "device not present" error from OPEN, CHKIN or CHKOUT.
const KERNAL_NO_DEVICE: u8 = 5;

/// The drive the program was loaded from (FA at $BA), or 8 if that is not a disk drive.
pub fn device() -> u8 {
    match FA.read() {
        d @ 8..=30 => d,
        _ => 8,
    }
}

/// A DOS status line's error and track numbers ("NN,TEXT,TT,SS").
#[derive(Clone, Copy)]
struct Status {
    code: u8,
    track: u8,
}

/// Opens logical file `file` on the drive with `name`.
fn open(file: u8, name: &[u8]) -> Result<(), DiskError> {
    kernal::setbnk(0, 0);
    kernal::setlfs(file, device(), file);
    kernal::setnam(name);
    kernal::open().map_err(|e| if e == KERNAL_NO_DEVICE { DiskError::NoDevice } else { DiskError::Dos(e) })
}

/// Reads the drive's status from the (open) command channel.
fn status() -> Result<Status, DiskError> {
    if kernal::chkin(COMMAND).is_err() {
        kernal::clrchn();
        return Err(DiskError::NoDevice);
    }
    ST.write(0);
    let mut fields = [0u8; 4];
    let mut field = 0;
    // The line is about 30 bytes; the bound only guards against a drive that never ends it.
    for _ in 0..64 {
        let c = kernal::chrin();
        let st = kernal::readst();
        if st & ST_NO_DEVICE != 0 {
            kernal::clrchn();
            return Err(DiskError::NoDevice);
        }
        match c {
            b'0'..=b'9' if field != 1 => fields[field] = fields[field].wrapping_mul(10).wrapping_add(c - b'0'),
            b',' if field < 3 => field += 1,
            13 => break,
            _ => {}
        }
        if st & ST_EOF != 0 {
            break;
        }
    }
    kernal::clrchn();
    Ok(Status { code: fields[0], track: fields[2] })
}

/// The error a status code means (`None` for OK, "files scratched" and the power-on
/// message).
fn check(s: Status) -> Result<(), DiskError> {
    match s.code {
        0..=19 | 73 => Ok(()),
        26 => Err(DiskError::WriteProtected),
        62 => Err(DiskError::NotFound),
        72 => Err(DiskError::DiskFull),
        c => Err(DiskError::Dos(c)),
    }
}

/// Runs `body` with the command channel open, closing it whatever happens.
fn with_command<T>(command: &[u8], body: impl FnOnce() -> Result<T, DiskError>) -> Result<T, DiskError> {
    open(COMMAND, command)?;
    let result = body();
    kernal::close(COMMAND);
    result
}

/// Opens the data channel with `spec` (name and ",S,R" or ",S,W") and checks the drive
/// accepted it; on failure the data channel is closed again.
fn open_data(spec: &[u8]) -> Result<(), DiskError> {
    if let Err(e) = open(DATA, spec).and_then(|()| status()).and_then(check) {
        kernal::close(DATA);
        return Err(e);
    }
    Ok(())
}

/// `name` followed by `suffix`, in `buf`.
fn spec<'a>(buf: &'a mut [u8; 24], name: &[u8], suffix: &[u8]) -> Result<&'a [u8], DiskError> {
    if name.len() > NAME_MAX {
        return Err(DiskError::TooLong);
    }
    let n = name.len() + suffix.len();
    buf[..name.len()].copy_from_slice(name);
    buf[name.len()..n].copy_from_slice(suffix);
    Ok(&buf[..n])
}

/// Reads the whole SEQ file `name` into `buf`; returns its length. [`DiskError::TooLong`]
/// if it does not fit.
pub fn read(name: &[u8], buf: &mut [u8]) -> Result<usize, DiskError> {
    let mut b = [0u8; 24];
    let spec = spec(&mut b, name, b",S,R")?;
    with_command(b"", || {
        open_data(spec)?;
        let result = read_data(buf);
        kernal::clrchn();
        kernal::close(DATA);
        result
    })
}

/// Reads the open data channel to its end into `buf`.
fn read_data(buf: &mut [u8]) -> Result<usize, DiskError> {
    if kernal::chkin(DATA).is_err() {
        return Err(DiskError::NoDevice);
    }
    ST.write(0);
    let mut n = 0;
    loop {
        let c = kernal::chrin();
        let st = kernal::readst();
        if st & ST_NO_DEVICE != 0 {
            return Err(DiskError::NoDevice);
        }
        if n == buf.len() {
            return Err(DiskError::TooLong);
        }
        buf[n] = c;
        n += 1;
        if st & ST_EOF != 0 {
            return Ok(n);
        }
    }
}

/// Writes `data` as the new SEQ file `name`; the name must be free (otherwise
/// `Dos(63)`, FILE EXISTS).
pub fn write(name: &[u8], data: &[u8]) -> Result<(), DiskError> {
    let mut b = [0u8; 24];
    let spec = spec(&mut b, name, b",S,W")?;
    with_command(b"", || {
        open_data(spec)?;
        if kernal::chkout(DATA).is_err() {
            kernal::clrchn();
            kernal::close(DATA);
            return Err(DiskError::NoDevice);
        }
        for &byte in data {
            kernal::chrout(byte);
        }
        kernal::clrchn();
        kernal::close(DATA);
        status().and_then(check)
    })
}

/// Sends a DOS command and checks the answer.
fn command(cmd: &[u8]) -> Result<Status, DiskError> {
    with_command(cmd, || {
        let s = status()?;
        check(s).map(|()| s)
    })
}

/// Deletes the file `name` (a pattern with `*` and `?` may delete several).
/// [`DiskError::NotFound`] if nothing matched.
pub fn scratch(name: &[u8]) -> Result<(), DiskError> {
    let mut b = [0u8; 24];
    if name.len() > NAME_MAX {
        return Err(DiskError::TooLong);
    }
    b[..3].copy_from_slice(b"S0:");
    b[3..3 + name.len()].copy_from_slice(name);
    let s = command(&b[..3 + name.len()])?;
    // "01,FILES SCRATCHED,NN,00": NN files went.
    if s.code == 1 && s.track == 0 { Err(DiskError::NotFound) } else { Ok(()) }
}

/// Renames the file `from` to `to` (`Dos(63)` if `to` exists).
pub fn rename(from: &[u8], to: &[u8]) -> Result<(), DiskError> {
    if from.len() > NAME_MAX || to.len() > NAME_MAX {
        return Err(DiskError::TooLong);
    }
    let mut b = [0u8; 3 + 2 * NAME_MAX + 1];
    b[..3].copy_from_slice(b"R0:");
    let mut n = 3;
    for part in [to, b"=", from] {
        b[n..n + part.len()].copy_from_slice(part);
        n += part.len();
    }
    command(&b[..n]).map(|_| ())
}
