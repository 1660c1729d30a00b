//! Interoperability with an independent implementation, Debian's `cc1541`: it lists and
//! maps the images we write (and adds files to them), and we read the images it writes.
//! CI installs it; without it these tests fail with the command to install it.

use d81::{BootSector, Disk, FileType, Ts, petscii};
use std::path::Path;
use std::process::Command;

/// Runs cc1541 and returns what it printed, without its ANSI colour codes.
fn cc1541(args: &[&str], dir: &Path) -> String {
    let out = match Command::new("cc1541").args(args).current_dir(dir).output() {
        Ok(out) => out,
        Err(e) => panic!("cannot run cc1541 ({e}): install it with `apt-get install cc1541`"),
    };
    let text = String::from_utf8_lossy(&out.stdout).to_string();
    assert!(out.status.success(), "cc1541 {args:?} failed: {text}{}", String::from_utf8_lossy(&out.stderr));
    strip_ansi(&text)
}

fn strip_ansi(text: &str) -> String {
    let mut out = String::new();
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        if c == '\u{1b}' {
            for c in chars.by_ref() {
                if c.is_ascii_alphabetic() {
                    break;
                }
            }
        } else {
            out.push(c);
        }
    }
    out
}

/// The directory lines cc1541 prints: (blocks, name, type), and the blocks free.
fn listing(text: &str) -> (Vec<(u16, String, String)>, u16) {
    let mut files = Vec::new();
    let mut free = None;
    for line in text.lines() {
        if let Some(n) = line.strip_suffix(" blocks free.") {
            free = Some(n.trim().parse().unwrap());
            continue;
        }
        let Some((blocks, rest)) = line.split_once(char::is_whitespace) else {
            continue;
        };
        let (Ok(blocks), Some(rest)) = (blocks.parse::<u16>(), rest.trim().strip_prefix('"')) else {
            continue;
        };
        let (name, rest) = rest.split_once('"').unwrap();
        let ty = rest.split_whitespace().next().unwrap_or("").to_string();
        files.push((blocks, name.to_string(), ty));
    }
    assert!(!files.is_empty(), "no header line in {text}");
    // The first quoted line is the header (disk name and ID), not a file.
    files.remove(0);
    (files, free.expect("a blocks free line"))
}

/// cc1541's block map line for a track (`-v`): one character per sector.
fn block_map(text: &str, track: u8) -> String {
    let prefix = format!("{track:>4}: ");
    let line = text
        .lines()
        .find(|l| l.starts_with(&prefix))
        .unwrap_or_else(|| panic!("no block map for track {track} in {text}"));
    line[prefix.len()..prefix.len() + 40].to_string()
}

fn data(len: usize, seed: u8) -> Vec<u8> {
    (0..len).map(|i| ((i * 7) as u8) ^ seed.wrapping_mul(13)).collect()
}

fn our_sample() -> Disk {
    let mut d = Disk::new(b"BAC128", *b"B1").unwrap();
    d.install_boot_sector(&BootSector::new(b"BAC128", b"BAC").unwrap()).unwrap();
    d.write_file(b"BAC", FileType::Prg, &data(3000, 1)).unwrap();
    d.write_file(b"BAC HELP", FileType::Seq, &data(300, 2)).unwrap();
    d.write_file(b"SAVE", FileType::Usr, &data(10, 3)).unwrap();
    for i in 0..10 {
        d.write_file(format!("FILE {i}").as_bytes(), FileType::Seq, &data(i * 100, i as u8)).unwrap();
    }
    d
}

#[test]
fn cc1541_lists_and_maps_our_images() {
    let dir = tempfile::tempdir().unwrap();
    let ours = our_sample();
    ours.write_to(std::fs::File::create(dir.path().join("ours.d81")).unwrap()).unwrap();
    let text = cc1541(&["-v", "ours.d81"], dir.path());
    let (files, free) = listing(&text);
    assert_eq!(free, ours.blocks_free());
    let expected: Vec<(u16, String, String)> = ours
        .entries()
        .iter()
        .map(|e| (e.blocks, petscii::to_ascii(&e.name).to_lowercase(), e.file_type.as_str().to_lowercase()))
        .collect();
    assert_eq!(files, expected);
    // cc1541 follows every chain to draw its map, a letter per file: BAC on 39/0-11, BAC HELP
    // on 39/12-13, SAVE on 39/14, then FILE 0-9; the boot sector and the system sectors
    // (header, two BAM sectors, two directory sectors) are allocated without a file ('#').
    assert_eq!(block_map(&text, 39), "@@@@@@@@@@@@AABCDEFFGGHHIIIJJJKKKKLLLL..");
    assert_eq!(block_map(&text, 1), format!("#{}", ".".repeat(39)));
    assert_eq!(block_map(&text, 40), format!("#####{}", ".".repeat(35)));
}

#[test]
fn we_read_what_cc1541_adds_to_our_images() {
    let dir = tempfile::tempdir().unwrap();
    our_sample().write_to(std::fs::File::create(dir.path().join("ours.d81")).unwrap()).unwrap();
    std::fs::write(dir.path().join("extra.bin"), data(700, 9)).unwrap();
    cc1541(&["-f", "extra", "-T", "USR", "-w", "extra.bin", "ours.d81"], dir.path());
    let d = Disk::from_bytes(&std::fs::read(dir.path().join("ours.d81")).unwrap()).unwrap();
    let extra = d.read_as(b"EXTRA", FileType::Usr).unwrap();
    assert_eq!(extra.data, data(700, 9));
    assert_ne!(extra.entry.first, Ts::new(1, 0), "cc1541 kept off the boot sector");
    assert_eq!(d.read(b"BAC").unwrap().data, data(3000, 1));
    assert_eq!(d.boot_info().unwrap().title, b"BAC128");
}

#[test]
fn we_read_images_cc1541_writes() {
    let dir = tempfile::tempdir().unwrap();
    let sizes = [1usize, 253, 254, 255, 508, 5000, 40_000];
    let mut args: Vec<String> = vec!["-n".into(), "cc disk".into(), "-i".into(), "xy".into()];
    let types = ["PRG", "SEQ", "USR"];
    for (i, len) in sizes.iter().enumerate() {
        std::fs::write(dir.path().join(format!("f{i}.bin")), data(*len, i as u8)).unwrap();
        args.extend([
            "-f".into(),
            format!("file {i}"),
            "-T".into(),
            types[i % 3].into(),
            "-w".into(),
            format!("f{i}.bin"),
        ]);
    }
    args.push("theirs.d81".into());
    let argv: Vec<&str> = args.iter().map(String::as_str).collect();
    let text = cc1541(&argv, dir.path());
    let (_, their_free) = listing(&text);
    let d = Disk::from_bytes(&std::fs::read(dir.path().join("theirs.d81")).unwrap()).unwrap();
    assert_eq!(d.name(), b"CC DISK");
    assert_eq!(&d.id(), b"XY");
    assert_eq!(d.blocks_free(), their_free);
    assert_eq!(d.entries().len(), sizes.len());
    for (i, len) in sizes.iter().enumerate() {
        let f = d.read(format!("FILE {i}").as_bytes()).unwrap();
        assert_eq!(f.data, data(*len, i as u8), "file {i}");
        assert_eq!(f.entry.file_type.as_str(), types[i % 3]);
        assert_eq!(usize::from(f.entry.blocks), d81::blocks_for(*len));
    }
    // Our writes into their image keep it readable by them.
    let mut d = d;
    d.write_file(b"OURS", FileType::Seq, &data(999, 4)).unwrap();
    d.scratch(b"FILE 1").unwrap();
    d.write_to(std::fs::File::create(dir.path().join("theirs.d81")).unwrap()).unwrap();
    let (files, free) = listing(&cc1541(&["theirs.d81"], dir.path()));
    assert_eq!(free, d.blocks_free());
    assert!(files.contains(&(4, "ours".into(), "seq".into())), "{files:?}");
    assert!(!files.iter().any(|f| f.1 == "file 1"));
}
