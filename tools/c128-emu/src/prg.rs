//! `.prg` files: a two-byte load address followed by the bytes to load, and the BASIC 7.0
//! stub (`10 SYS 7181`) that `RUN` executes.

use crate::error::LoadError;

/// Where BASIC 7.0 keeps program text on the C128.
pub const BASIC_START: u16 = 0x1C01;
/// The first address a loaded program may not reach. BASIC's program area ends at $FEFF in
/// bank 0, but a bac128 program ends below the I/O block's addresses: below $C000 in the
/// translator's default mode, below $D000 in its all-RAM mode, so LOAD never writes
/// where the program will see I/O.
pub const LOAD_LIMIT: u16 = 0xD000;

/// The BASIC token for `SYS`.
const TOKEN_SYS: u8 = 0x9E;

/// A parsed `.prg`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Prg<'a> {
    /// Load address.
    pub load: u16,
    /// The bytes to put there.
    pub body: &'a [u8],
}

/// Splits a `.prg` into load address and body, checking that it is a C128 BASIC program
/// that fits below [`LOAD_LIMIT`].
pub fn parse(bytes: &[u8]) -> Result<Prg<'_>, LoadError> {
    if bytes.len() < 3 {
        return Err(LoadError::Truncated { len: bytes.len() });
    }
    let load = u16::from_le_bytes([bytes[0], bytes[1]]);
    if load != BASIC_START {
        return Err(LoadError::WrongLoadAddress { found: load, expected: BASIC_START });
    }
    let body = &bytes[2..];
    let end = u32::from(load) + body.len() as u32;
    if end > u32::from(LOAD_LIMIT) {
        return Err(LoadError::TooLong { load, len: body.len(), end, limit: LOAD_LIMIT });
    }
    Ok(Prg { load, body })
}

/// Finds the address of the first line's `SYS`, reading BASIC text through `peek`.
pub fn sys_address(peek: impl Fn(u16) -> u8) -> Result<u16, LoadError> {
    let line = BASIC_START;
    let bad = |reason| LoadError::NoSys { line, reason };
    let link = u16::from_le_bytes([peek(line), peek(line + 1)]);
    if link == 0 {
        return Err(bad("the program is empty"));
    }
    let mut a = line + 4;
    while peek(a) == b' ' {
        a += 1;
    }
    if peek(a) != TOKEN_SYS {
        return Err(bad("the first statement is not SYS"));
    }
    a += 1;
    while peek(a) == b' ' {
        a += 1;
    }
    let mut value: u32 = 0;
    let mut digits = 0;
    while peek(a).is_ascii_digit() && a < link {
        value = value * 10 + u32::from(peek(a) - b'0');
        if value > 0xFFFF {
            return Err(bad("the SYS address is above 65535"));
        }
        digits += 1;
        a += 1;
    }
    if digits == 0 {
        return Err(bad("SYS has no number"));
    }
    Ok(value as u16)
}

/// Builds a `.prg` with a one-line BASIC stub `10 SYS <entry>` followed by `code`, which
/// starts right after the stub; returns the file and the entry address. Used by tests and
/// by anything that wants a runnable program from raw 6502 code.
pub fn with_basic_stub(code: &[u8]) -> (Vec<u8>, u16) {
    // Stub: link(2) line(2) SYS digits(4 or 5) 0, then end link 0 0.
    let digits_for = |entry: u16| entry.to_string().into_bytes();
    let mut entry = BASIC_START + 2 + 2 + 1 + 4 + 1 + 2;
    if digits_for(entry).len() != 4 {
        entry += 1;
    }
    let digits = digits_for(entry);
    let next_line = BASIC_START + 2 + 2 + 1 + digits.len() as u16 + 1;
    let mut prg = Vec::with_capacity(code.len() + 16);
    prg.extend_from_slice(&BASIC_START.to_le_bytes());
    prg.extend_from_slice(&next_line.to_le_bytes());
    prg.extend_from_slice(&10u16.to_le_bytes());
    prg.push(TOKEN_SYS);
    prg.extend_from_slice(&digits);
    prg.push(0);
    prg.extend_from_slice(&[0, 0]);
    debug_assert_eq!(BASIC_START as usize + prg.len() - 2, entry as usize);
    prg.extend_from_slice(code);
    (prg, entry)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stub_runs_at_7181() {
        let (prg, entry) = with_basic_stub(&[0x60]);
        assert_eq!(entry, 7181);
        let p = parse(&prg).unwrap();
        let peek = |a: u16| p.body.get(usize::from(a - p.load)).copied().unwrap_or(0);
        assert_eq!(sys_address(peek), Ok(7181));
    }

    #[test]
    fn bad_files_are_rejected_with_reasons() {
        assert_eq!(parse(&[0x01]), Err(LoadError::Truncated { len: 1 }));
        assert_eq!(parse(&[0x01, 0x08, 0x60]), Err(LoadError::WrongLoadAddress { found: 0x0801, expected: 0x1C01 }));
        let big = vec![0u8; 2 + 0xD000 - 0x1C01 + 1];
        let mut big = big;
        big[0] = 0x01;
        big[1] = 0x1C;
        assert!(matches!(parse(&big), Err(LoadError::TooLong { end: 0xD001, .. })));
    }

    #[test]
    fn a_line_without_sys_cannot_run() {
        // 10 PRINT
        let text = [0x07, 0x1C, 0x0A, 0x00, 0x99, 0x00, 0x00, 0x00];
        let peek = |a: u16| text.get(usize::from(a - BASIC_START)).copied().unwrap_or(0);
        assert!(matches!(sys_address(peek), Err(LoadError::NoSys { .. })));
    }
}
