//! The packer against its decoder: every kind of input comes back as it went in, packed
//! program files unpack over themselves, and broken streams and files are refused with
//! what is wrong and where.

use bac_pack::format::{FAR_MAX, MAX_LITERALS, NEAR_MAX, Token};
use bac_pack::{Format, InPlaceError, UnpackError, pack, pack_prg, unpack, unpack_prg};
use rand::{RngExt, SeedableRng, rngs::StdRng};

fn noise(seed: u64, n: usize) -> Vec<u8> {
    let mut rng = StdRng::seed_from_u64(seed);
    (0..n).map(|_| rng.random()).collect()
}

/// Bytes shaped like translated code: a few hundred short sequences, repeated with
/// variations, and addresses that count up.
fn code_like(seed: u64, n: usize) -> Vec<u8> {
    let mut rng = StdRng::seed_from_u64(seed);
    let pieces: Vec<Vec<u8>> = (0..300).map(|_| (0..rng.random_range(2..12)).map(|_| rng.random()).collect()).collect();
    let mut out = Vec::new();
    let mut address = 0x1C0Du16;
    while out.len() < n {
        out.extend(&pieces[rng.random_range(0..pieces.len())]);
        if rng.random_range(0..4) == 0 {
            out.push(0x20);
            out.extend(address.to_le_bytes());
            address = address.wrapping_add(rng.random_range(1..40));
        }
    }
    out.truncate(n);
    out
}

fn inputs() -> Vec<(&'static str, Vec<u8>)> {
    let text = include_str!("../src/parse.rs").as_bytes().to_vec();
    let mut long_run = vec![0u8; 10_000];
    long_run.extend(vec![0xEA; 300]);
    vec![
        ("empty", Vec::new()),
        ("one byte", vec![42]),
        ("two bytes", vec![1, 1]),
        ("runs", long_run),
        ("noise", noise(1, 5_000)),
        ("text", text),
        ("code", code_like(2, 40_000)),
        ("far repeat", [noise(3, 70_000), noise(3, 300)].concat()),
        ("every byte", (0..=255).collect()),
    ]
}

#[test]
fn every_input_comes_back_as_it_went_in() {
    for (what, data) in inputs() {
        let packed = pack(&data);
        assert_eq!(unpack(&packed, data.len()).as_deref(), Ok(&data[..]), "{what}");
        let dense = bac_pack::dense_parse::pack(&data);
        assert_eq!(bac_pack::dense::unpack(&dense, data.len()).map(|d| d.out), Ok(data), "{what}, dense");
    }
}

#[test]
fn repetition_packs_and_noise_barely_grows() {
    let runs = inputs().into_iter().find(|(w, _)| *w == "runs").unwrap().1;
    assert!(pack(&runs).len() < runs.len() / 30, "{} bytes of runs packed to {}", runs.len(), pack(&runs).len());
    let code = code_like(2, 40_000);
    assert!(pack(&code).len() < code.len() * 3 / 4, "code-like bytes packed to {}", pack(&code).len());
    // Noise costs one token byte in MAX_LITERALS and no more.
    let n = noise(4, 12_800);
    assert!(pack(&n).len() <= n.len() + n.len() / MAX_LITERALS, "{}", pack(&n).len());
}

#[test]
fn the_parse_uses_the_longest_tokens_the_format_has() {
    // A long run is one literal and copies of the longest length.
    let data = vec![7u8; 1 + NEAR_MAX * 3];
    let tokens = bac_pack::parse::tokens(&data);
    assert_eq!(tokens[0], Token::Literals { len: 1 });
    assert!(tokens[1..].iter().all(|t| matches!(t, Token::Copy { distance: 1, .. })), "{tokens:?}");
    assert_eq!(tokens.len(), 4, "{tokens:?}");
    // A far repeat of FAR_MAX bytes is one far copy.
    let head = noise(5, 1_000);
    let data = [head.clone(), head[..FAR_MAX].to_vec()].concat();
    let tokens = bac_pack::parse::tokens(&data);
    assert_eq!(tokens.last(), Some(&Token::Copy { len: FAR_MAX, distance: 1_000 }));
}

#[test]
fn packed_programs_unpack_over_themselves_in_either_format() {
    for format in [Format::Bytes, Format::Dense] {
        for (what, data) in inputs() {
            if data.len() > 0x8000 {
                continue;
            }
            let p = pack_prg(&data, 0x4000, 0xD000, format).unwrap_or_else(|e| panic!("{what} {format:?}: {e}"));
            assert!(p.load >= 0x4000 && usize::from(p.load) + p.file.len() - 2 <= 0xD000, "{what}: ${:04X}", p.load);
            assert_eq!(usize::from(p.end - p.start), data.len(), "{what}");
            assert_eq!(unpack_prg(&p.file, format), Ok((0x4000, data)), "{what} {format:?}");
        }
    }
}

#[test]
fn the_dense_format_is_smaller_on_code_and_text() {
    for (what, data) in inputs().into_iter().filter(|(what, _)| ["runs", "text", "code"].contains(what)) {
        let (bytes, dense) = (pack(&data).len(), bac_pack::dense_parse::pack(&data).len());
        assert!(dense < bytes, "{what}: dense {dense} bytes, byte-aligned {bytes}");
    }
}

#[test]
fn a_file_that_would_not_fit_is_refused() {
    let data = noise(6, 0x3000);
    match pack_prg(&data, 0x4000, 0x6000, Format::Bytes) {
        Err(e @ InPlaceError::TooHigh { .. }) => assert!(e.to_string().contains("past $6000"), "{e}"),
        other => panic!("{other:?}"),
    }
}

#[test]
fn a_load_address_too_low_is_caught_writing_over_the_stream() {
    // A run, then noise: the run's copies write far ahead of the stream, which the noise
    // then catches up with at a byte a token. Moved down by 8 bytes the stream still ends
    // past the output (the trailer is consistent), but the run's writes land on bytes of
    // the noise not yet read.
    let data = [vec![0u8; 4_000], noise(7, 4_000)].concat();
    // The dense stream catches up with its output more slowly (noise costs it a few bits
    // a kilobyte), so its end leaves less room: one byte lower already writes over it.
    for (format, by) in [(Format::Bytes, 8), (Format::Dense, 1)] {
        let p = pack_prg(&data, 0x4000, 0xD000, format).unwrap();
        let mut file = p.file.clone();
        let lower = p.load - by;
        file[..2].copy_from_slice(&lower.to_le_bytes());
        let t = file.len() - 2;
        file[t..].copy_from_slice(&lower.to_le_bytes());
        let r = unpack_prg(&file, format);
        assert!(matches!(r, Err(InPlaceError::Overlap { .. })), "{format:?}: {r:?}");
    }
}

#[test]
fn broken_streams_say_what_and_where() {
    let data = code_like(8, 2_000);
    let packed = pack(&data);
    // Cut short: truncated, with how much output was missing.
    let cut = &packed[..packed.len() / 2];
    assert!(matches!(unpack(cut, data.len()), Err(UnpackError::Truncated { .. })));
    // A copy before the start.
    let e = unpack(&[0x80, 0x00], 2).unwrap_err();
    assert_eq!(e, UnpackError::BeforeStart { at: 0, distance: 1, written: 0 });
    assert!(e.to_string().contains("stream byte 0"), "{e}");
    // Writes past the length.
    assert_eq!(unpack(&[0x02, 1, 2, 3], 2), Err(UnpackError::Overrun { at: 0, len: 3, written: 0, out_len: 2 }));
    // Bytes after the end.
    assert_eq!(unpack(&[0x00, 1, 0x00, 2], 1), Err(UnpackError::Trailing(2)));
    // A token's own bytes cut off.
    assert!(matches!(unpack(&[0x00, 1, 0xC0, 0x00], 10), Err(UnpackError::Truncated { .. })));
}

#[test]
fn broken_files_say_what_is_wrong() {
    assert_eq!(unpack_prg(&[0x00, 0x40, 1], Format::Bytes), Err(InPlaceError::Short(3)));
    let p = pack_prg(&code_like(9, 1_000), 0x4000, 0xD000, Format::Bytes).unwrap();
    let mut file = p.file.clone();
    let n = file.len();
    file[n - 2] ^= 0x01; // the stream's address no longer the load address
    assert!(matches!(unpack_prg(&file, Format::Bytes), Err(InPlaceError::Trailer(_))));
    let mut file = p.file.clone();
    file[n - 3] = 0xFF; // the output's end past the stream's end
    assert!(matches!(unpack_prg(&file, Format::Bytes), Err(InPlaceError::Trailer(ref m)) if m.contains("output")));
    let mut file = p.file;
    file[2] = 0xC5; // a far copy before the start
    assert!(matches!(unpack_prg(&file, Format::Bytes), Err(InPlaceError::Stream(_))));
}
