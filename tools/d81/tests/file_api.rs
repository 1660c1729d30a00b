//! The file API as the emulator uses it: save, load, replace, scratch, rename, and the DOS
//! status of every failure, checked on images that are written out and read back.

use d81::{Disk, DosError, DosStatus, FileType, Ts};

fn disk() -> Disk {
    Disk::new(b"TEST DISK", *b"T1").unwrap()
}

/// Writes the image out and reads it back, so every check also covers the on-disk form.
fn reread(disk: &Disk) -> Disk {
    let mut bytes = Vec::new();
    disk.write_to(&mut bytes).unwrap();
    assert_eq!(bytes.len(), 819_200);
    Disk::from_bytes(&bytes).unwrap()
}

fn pattern_bytes(len: usize, seed: u8) -> Vec<u8> {
    (0..len).map(|i| (i as u8).wrapping_mul(31).wrapping_add(seed)).collect()
}

#[test]
fn a_new_disk_is_empty_and_named() {
    let d = reread(&disk());
    assert_eq!(d.name(), b"TEST DISK");
    assert_eq!(&d.id(), b"T1");
    assert!(d.entries().is_empty());
    assert_eq!(d.blocks_free(), 3160);
    assert!(Disk::new(&[b'X'; 17], *b"00").is_err());
}

#[test]
fn files_round_trip_with_their_types_and_sizes() {
    let mut d = disk();
    let sizes = [0usize, 1, 253, 254, 255, 508, 509, 10_000];
    for (i, &len) in sizes.iter().enumerate() {
        let ty = [FileType::Prg, FileType::Seq, FileType::Usr][i % 3];
        let name = format!("FILE{i}");
        let entry = d.write_file(name.as_bytes(), ty, &pattern_bytes(len, i as u8)).unwrap();
        assert_eq!(usize::from(entry.blocks), d81::blocks_for(len));
    }
    let d = reread(&d);
    let used: usize = sizes.iter().map(|&l| d81::blocks_for(l)).sum();
    assert_eq!(usize::from(d.blocks_free()), 3160 - used);
    assert_eq!(d.entries().len(), sizes.len());
    for (i, &len) in sizes.iter().enumerate() {
        let file = d.read(format!("FILE{i}").as_bytes()).unwrap();
        assert_eq!(file.data, pattern_bytes(len, i as u8), "file {i}");
        assert_eq!(file.entry.file_type, [FileType::Prg, FileType::Seq, FileType::Usr][i % 3]);
    }
}

#[test]
fn the_first_file_starts_at_track_39_and_its_last_sector_counts_bytes() {
    let mut d = disk();
    let e = d.write_file(b"BAC", FileType::Prg, &[7u8; 300]).unwrap();
    assert_eq!(e.first, Ts::new(39, 0));
    let first = d.sector(Ts::new(39, 0)).unwrap();
    assert_eq!(&first[..2], &[39, 1]);
    let last = d.sector(Ts::new(39, 1)).unwrap();
    // 300 - 254 = 46 bytes in the last sector: bytes 2..=47, so the index is 47.
    assert_eq!(&last[..2], &[0, 47]);
    assert!(!d.is_free(Ts::new(39, 0)) && !d.is_free(Ts::new(39, 1)) && d.is_free(Ts::new(39, 2)));
}

#[test]
fn wildcards_find_the_first_match_in_directory_order() {
    let mut d = disk();
    d.write_file(b"BAC", FileType::Prg, b"one").unwrap();
    d.write_file(b"BAC HELP", FileType::Seq, b"two").unwrap();
    assert_eq!(d.read(b"BAC*").unwrap().data, b"one");
    assert_eq!(d.read(b"BAC ?ELP").unwrap().data, b"two");
    assert_eq!(d.read(b"*").unwrap().data, b"one");
    let err = d.read(b"BA").unwrap_err();
    assert_eq!(err.status().code, 62);
    assert_eq!(d.read(b"").unwrap_err(), DosError::NoName);
}

#[test]
fn typed_reads_report_a_mismatch() {
    let mut d = disk();
    d.write_file(b"HELP", FileType::Seq, b"x").unwrap();
    assert!(d.read_as(b"HELP", FileType::Seq).is_ok());
    assert_eq!(d.read_as(b"HELP", FileType::Prg).unwrap_err().status().code, 64);
}

#[test]
fn saving_over_an_existing_name_needs_replace() {
    let mut d = disk();
    d.write_file(b"SAVE", FileType::Seq, &pattern_bytes(1000, 1)).unwrap();
    d.write_file(b"OTHER", FileType::Seq, b"other").unwrap();
    let err = d.write_file(b"SAVE", FileType::Seq, b"new").unwrap_err();
    assert_eq!(err.status().code, 63);
    let before = d.entries()[0].slot;
    let free_before = d.blocks_free();
    d.replace_file(b"SAVE", FileType::Seq, b"new").unwrap();
    let d = reread(&d);
    assert_eq!(d.read(b"SAVE").unwrap().data, b"new");
    assert_eq!(d.entries()[0].slot, before, "the entry keeps its place");
    assert_eq!(d.entries().len(), 2);
    assert_eq!(d.blocks_free(), free_before + 4 - 1);
    // Replace also creates a missing file.
    let mut d = d;
    d.replace_file(b"FRESH", FileType::Usr, b"f").unwrap();
    assert_eq!(d.read_as(b"FRESH", FileType::Usr).unwrap().data, b"f");
}

#[test]
fn scratch_frees_blocks_and_counts_files() {
    let mut d = disk();
    for i in 0..5 {
        d.write_file(format!("TMP{i}").as_bytes(), FileType::Seq, &[i; 600]).unwrap();
    }
    d.write_file(b"KEEP", FileType::Prg, b"k").unwrap();
    assert_eq!(d.scratch(b"TMP*").unwrap(), 5);
    assert_eq!(DosStatus::files_scratched(5).to_string(), "01, FILES SCRATCHED,05,00");
    assert_eq!(d.scratch(b"NOTHING").unwrap(), 0);
    let d = reread(&d);
    assert_eq!(d.blocks_free(), 3159);
    assert_eq!(d.entries().len(), 1);
    // The freed slot and blocks are reused by the next save.
    let mut d = d;
    let e = d.write_file(b"AGAIN", FileType::Seq, b"a").unwrap();
    assert_eq!(e.slot.index, 0);
    assert_eq!(e.first, Ts::new(39, 0));
}

#[test]
fn rename_checks_both_names() {
    let mut d = disk();
    d.write_file(b"OLD", FileType::Seq, b"o").unwrap();
    d.write_file(b"TAKEN", FileType::Seq, b"t").unwrap();
    assert_eq!(d.rename(b"OLD", b"TAKEN").unwrap_err().status().code, 63);
    assert_eq!(d.rename(b"GONE", b"NEW").unwrap_err().status().code, 62);
    d.rename(b"OLD", b"NEW").unwrap();
    assert_eq!(reread(&d).read(b"NEW").unwrap().data, b"o");
}

#[test]
fn bad_names_are_syntax_errors() {
    let mut d = disk();
    for name in [&b"A*"[..], b"A?", b"A,B", b"A:B", b"A=B", b"A\"", &[b'N'; 17], b"A\xa0"] {
        let err = d.write_file(name, FileType::Seq, b"").unwrap_err();
        assert_eq!(err.status().code, 33, "{name:?}");
    }
    assert_eq!(d.write_file(b"", FileType::Seq, b"").unwrap_err().status().code, 34);
    assert!(d.entries().is_empty());
}

#[test]
fn write_protection_refuses_every_change() {
    let mut d = disk();
    d.write_file(b"F", FileType::Seq, b"f").unwrap();
    d.set_write_protected(true);
    let before = d.clone();
    assert_eq!(d.write_file(b"G", FileType::Seq, b"g"), Err(DosError::WriteProtect));
    assert_eq!(d.replace_file(b"F", FileType::Seq, b"g"), Err(DosError::WriteProtect));
    assert_eq!(d.scratch(b"F"), Err(DosError::WriteProtect));
    assert_eq!(d.rename(b"F", b"H"), Err(DosError::WriteProtect));
    assert_eq!(d, before);
    assert_eq!(d.read(b"F").unwrap().data, b"f", "reading still works");
    d.set_write_protected(false);
    assert!(d.scratch(b"F").is_ok());
}

#[test]
fn a_full_disk_reports_72_and_keeps_its_files() {
    let mut d = disk();
    let big = pattern_bytes(3000 * 254, 3);
    d.write_file(b"BIG", FileType::Prg, &big).unwrap();
    assert_eq!(d.blocks_free(), 160);
    let before = d.clone();
    let err = d.write_file(b"TOO BIG", FileType::Seq, &[0; 161 * 254]).unwrap_err();
    assert_eq!(err, DosError::DiskFull { needed: 161, free: 160 });
    assert_eq!(err.status().to_string(), "72,DISK FULL,00,00");
    assert_eq!(d, before, "a failed save changes nothing");
    d.write_file(b"FITS", FileType::Seq, &[1; 160 * 254]).unwrap();
    assert_eq!(d.blocks_free(), 0);
    assert_eq!(d.write_file(b"ZERO", FileType::Seq, b"").unwrap_err().status().code, 72);
    let d = reread(&d);
    assert_eq!(d.read(b"BIG").unwrap().data, big);
    // Replacing needs room for both copies, as on the drive.
    let mut d = d;
    assert_eq!(d.replace_file(b"FITS", FileType::Seq, b"x").unwrap_err().status().code, 72);
}

#[test]
fn the_directory_grows_to_296_entries_then_is_full() {
    let mut d = disk();
    for i in 0..296 {
        d.write_file(format!("F{i}").as_bytes(), FileType::Seq, b"").unwrap();
    }
    let err = d.write_file(b"ONE MORE", FileType::Seq, b"").unwrap_err();
    assert_eq!(err, DosError::DirectoryFull);
    assert_eq!(err.status().code, 72);
    let d = reread(&d);
    assert_eq!(d.entries().len(), 296);
    assert_eq!(d.entries()[8].slot.sector, Ts::new(40, 4));
    assert_eq!(d.read(b"F295").unwrap().data, b"");
    assert_eq!(d.blocks_free(), 3160 - 296);
}

#[test]
fn soft_write_protection_follows_the_header_version_byte() {
    let mut bytes = disk().as_bytes().to_vec();
    bytes[Ts::new(40, 0).offset().unwrap() + 2] = b'E';
    let mut d = Disk::from_bytes(&bytes).unwrap();
    assert!(d.is_write_protected());
    assert_eq!(d.write_file(b"X", FileType::Seq, b""), Err(DosError::WriteProtect));
}

#[test]
fn append_extends_the_chain_in_place() {
    for (first, more) in [(0usize, 10usize), (10, 244), (10, 245), (254, 1), (300, 1000), (5, 0)] {
        let mut d = disk();
        d.write_file(b"LOG", FileType::Seq, &pattern_bytes(first, 1)).unwrap();
        d.write_file(b"OTHER", FileType::Seq, b"o").unwrap();
        let e = d.append_file(b"LOG", &pattern_bytes(more, 2)).unwrap();
        let mut expected = pattern_bytes(first, 1);
        expected.extend(pattern_bytes(more, 2));
        assert_eq!(usize::from(e.blocks), d81::blocks_for(expected.len()), "{first}+{more}");
        let d = reread(&d);
        assert_eq!(d.read(b"LOG").unwrap().data, expected, "{first}+{more}");
        assert_eq!(d.read(b"OTHER").unwrap().data, b"o");
        assert_eq!(usize::from(d.blocks_free()), 3160 - 1 - d81::blocks_for(expected.len()));
    }
}

#[test]
fn append_reports_missing_files_and_full_disks() {
    let mut d = disk();
    assert_eq!(d.append_file(b"NONE", b"x").unwrap_err().status().code, 62);
    d.write_file(b"LOG", FileType::Seq, b"start").unwrap();
    d.write_file(b"FILL", FileType::Seq, &vec![0; 3159 * 254]).unwrap();
    let before = d.clone();
    // 249 bytes still fit in LOG's only sector; one more needs a block.
    let err = d.append_file(b"LOG", &[1; 250]).unwrap_err();
    assert_eq!(err.status().code, 72);
    assert_eq!(d, before);
    d.append_file(b"LOG", &[1; 249]).unwrap();
    assert_eq!(reread(&d).read(b"LOG").unwrap().data.len(), 254);
}
