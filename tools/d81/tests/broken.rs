//! Damaged images: every kind of damage gets its own error naming the place, and random
//! corruption never makes the reader (or the file API on what it accepts) panic or hang.

use d81::{BootSector, Disk, FileType, ImageError, Ts};
use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};

/// A disk with a boot sector and three files: "BAC" (3 blocks at 39/0-39/2), "BAC HELP"
/// (2 blocks at 39/3-39/4) and "SAVE" (1 block at 39/5).
fn sample() -> Vec<u8> {
    let mut d = Disk::new(b"BAC128", *b"B1").unwrap();
    d.install_boot_sector(&BootSector::new(b"BAC128", b"BAC").unwrap()).unwrap();
    d.write_file(b"BAC", FileType::Prg, &[0xea; 600]).unwrap();
    d.write_file(b"BAC HELP", FileType::Seq, &[0x41; 300]).unwrap();
    d.write_file(b"SAVE", FileType::Usr, b"100000").unwrap();
    d.as_bytes().to_vec()
}

fn at(ts: Ts, byte: usize) -> usize {
    ts.offset().unwrap() + byte
}

/// Offset of a track's BAM entry (count byte, then 5 bitmap bytes).
fn bam_entry(track: u8) -> usize {
    if track <= 40 {
        at(Ts::new(40, 1), 0x10 + (usize::from(track) - 1) * 6)
    } else {
        at(Ts::new(40, 2), 0x10 + (usize::from(track) - 41) * 6)
    }
}

fn error_of(bytes: &[u8]) -> ImageError {
    Disk::from_bytes(bytes).expect_err("the damage must be found")
}

#[test]
fn the_sample_is_valid() {
    let d = Disk::from_bytes(&sample()).unwrap();
    assert_eq!(d.entries().len(), 3);
    assert_eq!(d.entries()[1].first, Ts::new(39, 3));
}

#[test]
fn wrong_sizes_are_refused() {
    let s = sample();
    assert_eq!(error_of(&s[..819_199]), ImageError::WrongSize { len: 819_199 });
    assert_eq!(error_of(&[]), ImageError::WrongSize { len: 0 });
    let mut with_errors = s.clone();
    with_errors.extend_from_slice(&[1; 3200]);
    assert!(Disk::from_bytes(&with_errors).is_ok(), "an error table is accepted");
    assert_eq!(
        error_of(&[s.as_slice(), &[0; 100]].concat()).to_string(),
        "a .d81 image is 819200 bytes (822400 with error bytes), this one is 819300"
    );
}

#[test]
fn a_directory_loop_is_named() {
    let mut s = sample();
    s[at(Ts::new(40, 3), 0)] = 40;
    s[at(Ts::new(40, 3), 1)] = 3;
    let err = error_of(&s);
    assert_eq!(err.to_string(), "directory chain loops at track 40 sector 3");
}

#[test]
fn a_directory_link_off_the_disk_is_named() {
    let mut s = sample();
    s[at(Ts::new(40, 3), 0)] = 81;
    assert_eq!(
        error_of(&s).to_string(),
        "directory sector track 40 sector 3 links to track 81 sector 255, off the disk"
    );
}

#[test]
fn a_file_chain_loop_is_named() {
    let mut s = sample();
    // BAC's last sector (39/2) links back to its first.
    s[at(Ts::new(39, 2), 0)] = 39;
    s[at(Ts::new(39, 2), 1)] = 0;
    assert_eq!(error_of(&s).to_string(), "file \"BAC\": sector chain loops at track 39 sector 0");
}

#[test]
fn a_link_off_the_disk_is_named() {
    let mut s = sample();
    s[at(Ts::new(39, 0), 1)] = 40;
    assert_eq!(
        error_of(&s),
        ImageError::LinkOffDisk { file: "\"BAC\"".into(), from: Ts::new(39, 0), track: 39, sector: 40 }
    );
}

#[test]
fn a_truncated_file_is_named() {
    let mut s = sample();
    s[at(Ts::new(39, 3), 0)] = 0;
    s[at(Ts::new(39, 3), 1)] = 255;
    assert_eq!(
        error_of(&s).to_string(),
        "file \"BAC HELP\" is truncated: the directory says 2 blocks, the chain has 1"
    );
}

#[test]
fn entries_without_data_are_accepted_but_cannot_be_read() {
    let mut s = sample();
    // "SAVE" becomes a directory-art line: no first sector, a made-up size of 5 blocks.
    s[at(Ts::new(40, 3), 0x40 + 3)] = 0;
    s[at(Ts::new(40, 3), 0x40 + 0x1e)] = 5;
    // Its old sector is still allocated; that is only unused space.
    let d = Disk::from_bytes(&s).unwrap();
    assert_eq!(d.entries()[2].blocks, 5);
    let err = d.read(b"SAVE").unwrap_err();
    assert_eq!(err.status().code, 66);
    assert!(err.to_string().contains("\"SAVE\" is truncated"), "{err}");
}

#[test]
fn a_last_sector_without_data_index_is_named() {
    let mut s = sample();
    s[at(Ts::new(39, 5), 1)] = 0;
    assert!(matches!(error_of(&s), ImageError::BadLastByte { at, .. } if at == Ts::new(39, 5)));
}

#[test]
fn a_bam_that_frees_a_used_sector_is_named() {
    let mut s = sample();
    // Mark 39/1 free and keep the count consistent, so only the disagreement remains.
    s[bam_entry(39) + 1] |= 0b10;
    s[bam_entry(39)] += 1;
    assert_eq!(error_of(&s).to_string(), "the BAM marks track 39 sector 1 free, but file \"BAC\" uses it");
    let mut s = sample();
    s[bam_entry(1) + 1] |= 1;
    s[bam_entry(1)] += 1;
    assert!(Disk::from_bytes(&s).is_ok(), "a free boot sector is only unused, not damaged");
}

#[test]
fn a_bam_count_that_disagrees_with_its_bitmap_is_named() {
    let mut s = sample();
    s[bam_entry(55)] = 39;
    assert_eq!(error_of(&s), ImageError::BamCountMismatch { track: 55, count: 39, bitmap: 40 });
}

#[test]
fn bad_bam_headers_are_named() {
    let mut s = sample();
    s[at(Ts::new(40, 2), 3)] = 0;
    assert_eq!(error_of(&s).to_string(), "BAM sector 2 at track 40 sector 2 byte $03 is $00, expected $BB");
}

#[test]
fn bad_entries_are_named() {
    let mut s = sample();
    s[at(Ts::new(40, 3), 0x20 + 2)] = 0x87;
    assert_eq!(
        error_of(&s).to_string(),
        "directory entry 1 at track 40 sector 3 (\"BAC HELP\"): type byte $87 is not a file type"
    );
    let mut s = sample();
    s[at(Ts::new(40, 3), 0x40 + 3)] = 90;
    assert!(matches!(error_of(&s), ImageError::BadEntry { slot: 2, .. }));
}

#[test]
fn cross_linked_files_are_named() {
    let mut s = sample();
    // "SAVE" now starts inside "BAC HELP".
    s[at(Ts::new(40, 3), 0x40 + 4)] = 4;
    assert_eq!(error_of(&s).to_string(), "track 39 sector 4 is used by both file \"BAC HELP\" and file \"SAVE\"");
}

/// Random damage, from single bytes in the directory track to whole random sectors: the
/// reader answers every time, and whatever it accepts the file API can use and write back.
#[test]
fn random_corruption_never_panics() {
    let clean = sample();
    let mut rng = StdRng::seed_from_u64(0x1581);
    let hot: Vec<usize> = [(40, 0), (40, 1), (40, 2), (40, 3), (40, 4), (39, 0), (39, 2), (39, 3), (39, 5), (1, 0)]
        .iter()
        .map(|&(t, s)| at(Ts::new(t, s), 0))
        .collect();
    let (mut accepted, mut refused) = (0, 0);
    for round in 0..1500 {
        let mut s = clean.clone();
        for _ in 0..rng.random_range(1..6) {
            let base = hot[rng.random_range(0..hot.len())];
            let offset = if rng.random_bool(0.6) { rng.random_range(0..8) } else { rng.random_range(0..256) };
            let value = match rng.random_range(0..4) {
                0 => rng.random_range(0..=81),
                1 => rng.random_range(0..=40),
                _ => rng.random(),
            };
            s[base + offset] = value;
        }
        if round % 10 == 0 {
            let sector = rng.random_range(0..3200) * 256;
            rng.fill(&mut s[sector..sector + 256]);
        }
        match Disk::from_bytes(&s) {
            Err(e) => {
                assert!(!e.to_string().is_empty());
                refused += 1;
            }
            Ok(mut d) => {
                accepted += 1;
                for e in d.entries() {
                    let _ = d.read(&e.name);
                }
                let _ = d.write_file(b"NEW", FileType::Seq, &[9; 700]);
                let _ = d.replace_file(b"SAVE", FileType::Seq, b"x");
                let _ = d.scratch(b"BAC*");
                let _ = d.append_file(b"BAC HELP", &[3; 300]);
                let _ = d.command(b"R0:RENAMED=SAVE");
                let _ = d.directory_listing(None);
                let mut out = Vec::new();
                d.write_to(&mut out).unwrap();
                if let Err(e) = Disk::from_bytes(&out) {
                    panic!("round {round}: an accepted image became invalid: {e}");
                }
            }
        }
    }
    assert!(accepted > 50 && refused > 50, "accepted {accepted}, refused {refused}");
}
