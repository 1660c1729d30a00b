//! The game's manifest in `disk/` builds the disk issue 5 asks for, and bad manifests get
//! errors that name the field or file.

use d81::manifest::{Manifest, ManifestError};
use d81::{Disk, FileType, Ts};
use std::path::{Path, PathBuf};

fn game_manifest() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../disk/bac.toml")
}

fn fake_game(dir: &Path) -> PathBuf {
    let path = dir.join("bac.prg");
    let mut prg = vec![0x01, 0x1c];
    prg.extend((0..5000).map(|i| i as u8));
    std::fs::write(&path, prg).unwrap();
    // The bank-1 file and the boot stage the same build writes beside it.
    std::fs::write(dir.join("bac-bank1.prg"), [0x00, 0x40, 0x60]).unwrap();
    let mut stage = vec![0x00, 0x13];
    stage.extend((0..300).map(|i| (i % 7) as u8 + 1));
    std::fs::write(dir.join("bac-boot.prg"), stage).unwrap();
    path
}

#[test]
fn the_game_disk_builds_as_issue_5_asks() {
    let dir = tempfile::tempdir().unwrap();
    let manifest = Manifest::load(&game_manifest()).unwrap();
    let disk = manifest.build(Some(&fake_game(dir.path()))).unwrap();
    let out = dir.path().join("bac.d81");
    disk.save(&out).unwrap();
    let disk = Disk::from_bytes(&std::fs::read(&out).unwrap()).unwrap();
    assert_eq!(disk.name(), b"BAC128");
    let entries = disk.entries();
    assert_eq!(entries.len(), 4);
    assert_eq!((entries[0].name.as_slice(), entries[0].file_type), (&b"BAC"[..], FileType::Prg));
    assert_eq!((entries[1].name.as_slice(), entries[1].file_type), (&b"BAC CODE"[..], FileType::Prg));
    assert_eq!(
        disk.read(b"BAC CODE").unwrap().data,
        [0x00, 0x40, 0x60],
        "the game's bank-1 file, from beside the game"
    );
    assert_eq!((entries[2].name.as_slice(), entries[2].file_type), (&b"BAC HELP"[..], FileType::Seq));
    assert_eq!((entries[3].name.as_slice(), entries[3].file_type), (&b"BAC AIDE"[..], FileType::Seq));
    assert_eq!(disk.read(b"*").unwrap().data[..2], [0x01, 0x1c], "LOAD\"*\" gets the game");
    let boot = disk.boot_info().unwrap();
    assert_eq!(boot.title, b"BAC128");
    assert_eq!((boot.extra_address, boot.extra_bank, boot.extra_blocks), (0x1300, 0, 2), "the game's boot stage");
    assert_eq!(disk.sector(Ts::new(1, 1)).unwrap()[..3], [1, 2, 3], "its first block where the KERNAL reads it");
    assert_eq!(disk.sector(Ts::new(1, 2)).unwrap()[43], 1 + ((256 + 43) % 7) as u8);
    for sector in 0..3 {
        assert!(!disk.is_free(Ts::new(1, sector)), "1/{sector} allocated");
    }
    // The help text is PETSCII with RETURNs, at most 80 columns a line.
    // Both languages' help texts are PETSCII with RETURNs, at most 80 columns a line.
    let baccarat = [0xc2, 0xc1, 0xc3, 0xc3, 0xc1, 0xd2, 0xc1];
    for (name, title) in
        [(&b"BAC HELP"[..], &baccarat[..]), (b"BAC AIDE", &[&[0xcc, 0xc5, 0x20][..], &baccarat[..6]].concat())]
    {
        let help = disk.read_as(name, FileType::Seq).unwrap().data;
        assert!(help.starts_with(title), "BACCARAT in English, LE BACCARA in French");
        assert!(!help.contains(&b'\n'));
        for line in help.split(|&b| b == 0x0d) {
            assert!(line.len() <= 80, "a help line of {} columns", line.len());
        }
    }
    assert_eq!(manifest.output.as_deref().map(|p| p.ends_with("target/bac.d81")), Some(true));
}

#[test]
fn the_game_s_files_start_beside_the_directory_and_fill_whole_sides_after() {
    let dir = tempfile::tempdir().unwrap();
    let game = fake_game(dir.path());
    // 102 and 113 blocks, as the game's files are now: 2 and 13 sectors over whole sides.
    let bytes = |blocks: usize, seed: u8| -> Vec<u8> {
        let len = (blocks - 1) * 254 + 100;
        [&[0x01, 0x1c][..], &(2..len).map(|i| (i as u8).wrapping_mul(seed)).collect::<Vec<u8>>()].concat()
    };
    let (program, bank1) = (bytes(102, 3), bytes(113, 5));
    std::fs::write(&game, &program).unwrap();
    std::fs::write(dir.path().join("bac-bank1.prg"), &bank1).unwrap();
    let disk = Manifest::load(&game_manifest()).unwrap().build(Some(&game)).unwrap();
    let out = dir.path().join("bac.d81");
    disk.save(&out).unwrap();
    // Read back through the image's own checks (every chain against the BAM).
    let disk = Disk::from_bytes(&std::fs::read(&out).unwrap()).unwrap();
    let entries = disk.entries();
    assert_eq!((entries[0].first, entries[0].blocks), (Ts::new(40, 4), 102));
    assert_eq!((entries[1].first, entries[1].blocks), (Ts::new(40, 6), 113));
    assert_eq!(disk.sector(Ts::new(40, 5)).unwrap()[..2], [39, 0], "BAC goes on from 39/0");
    assert_eq!(disk.sector(Ts::new(40, 18)).unwrap()[..2], [41, 0], "BAC CODE goes on from 41/0");
    assert_eq!(disk.read(b"BAC").unwrap().data, program);
    assert_eq!(disk.read(b"BAC CODE").unwrap().data, bank1);
    // The help texts, with no such setting, are placed as the DOS would.
    assert_ne!(entries[2].first.track, 40);
    assert!(disk.is_free(Ts::new(40, 19)), "room left on track 40 for the directory to grow");
}

#[test]
fn a_game_without_a_bank_1_file_goes_on_the_disk_alone() {
    let dir = tempfile::tempdir().unwrap();
    let game = dir.path().join("hello.prg");
    std::fs::write(&game, [0x01, 0x1c, 0x60]).unwrap();
    let manifest = Manifest::load(&game_manifest()).unwrap();
    let disk = manifest.build(Some(&game)).unwrap();
    let names: Vec<Vec<u8>> = disk.entries().into_iter().map(|e| e.name).collect();
    assert_eq!(names, [b"BAC".to_vec(), b"BAC HELP".to_vec(), b"BAC AIDE".to_vec()]);
    assert_eq!(disk.boot_info().unwrap().extra_blocks, 0, "no boot stage beside it: the boot RUNs BAC alone");
}

#[test]
fn a_boot_stage_that_cannot_load_names_its_file() {
    let dir = tempfile::tempdir().unwrap();
    let game = fake_game(dir.path());
    // A stage over the boot sector's own page.
    std::fs::write(dir.path().join("bac-boot.prg"), [0x00, 0x0b, 0x60]).unwrap();
    let err = Manifest::load(&game_manifest()).unwrap().build(Some(&game)).unwrap_err().to_string();
    assert!(err.contains("bac-boot.prg") && err.contains("$0B00-$0BFF"), "{err}");
}

#[test]
fn a_missing_game_says_how_to_build_it() {
    let dir = tempfile::tempdir().unwrap();
    let manifest = Manifest::load(&game_manifest()).unwrap();
    let err = manifest.build(Some(&dir.path().join("nope.prg"))).unwrap_err();
    assert!(matches!(err, ManifestError::GameMissing { .. }));
    assert!(err.to_string().contains("bac prg"), "{err}");
}

fn parse(text: &str) -> Result<Manifest, ManifestError> {
    Manifest::parse(text, Path::new("/m/disk.toml"))
}

const GOOD: &str = r#"
[disk]
name = "T"
id = "00"
[[file]]
name = "A"
type = "prg"
path = "a.prg"
"#;

#[test]
fn bad_manifests_name_the_field() {
    assert!(parse(GOOD).is_ok());
    let cases = [
        (GOOD.replace("id = \"00\"", "id = \"000\""), "disk.id: exactly 2 characters"),
        (GOOD.replace("\"prg\"", "\"exe\""), "file[0].type: unknown file type \"exe\""),
        (GOOD.replace("\"prg\"", "\"rel\""), "file[0].type: only prg, seq and usr"),
        (GOOD.replace("name = \"A\"", "name = \"A*\""), "file[0].name: 33,SYNTAX ERROR"),
        (GOOD.replace("name = \"T\"", "name = \"ÉTÉ\""), "disk.name: character 'É'"),
        (
            GOOD.replace("type = \"prg\"", "type = \"seq\"") + "[boot]\ntitle = \"X\"\n",
            "boot: the first file must be a prg",
        ),
    ];
    for (text, expected) in cases {
        let err = parse(&text).unwrap_err().to_string();
        assert!(err.starts_with("/m/disk.toml: "), "{err}");
        assert!(err.contains(expected), "{err} should contain {expected}");
    }
    let err = parse(&GOOD.replace("path =", "paht =")).unwrap_err();
    assert!(matches!(err, ManifestError::Syntax { .. }));
    assert!(err.to_string().contains("paht"), "{err}");
    let no_files = "[disk]\nname = \"T\"\nid = \"00\"\n";
    assert!(parse(no_files).unwrap_err().to_string().contains("at least one"));
}

#[test]
fn build_errors_name_the_file() {
    let dir = tempfile::tempdir().unwrap();
    let origin = dir.path().join("disk.toml");
    std::fs::write(dir.path().join("a.prg"), [1u8]).unwrap();
    let m = Manifest::parse(GOOD, &origin).unwrap();
    let err = m.build(None).unwrap_err().to_string();
    assert!(err.contains("1 bytes: a PRG starts with its 2-byte load address"), "{err}");
    std::fs::write(dir.path().join("a.prg"), [1u8, 8, 0]).unwrap();
    let twice = format!("{GOOD}[[file]]\nname = \"A\"\ntype = \"prg\"\npath = \"a.prg\"\n");
    let err = Manifest::parse(&twice, &origin).unwrap().build(None).unwrap_err();
    assert!(err.to_string().contains("file[1] \"A\": 63,FILE EXISTS"), "{err}");
    let missing = GOOD.replace("a.prg", "b.prg");
    let err = Manifest::parse(&missing, &origin).unwrap().build(None).unwrap_err();
    assert!(matches!(err, ManifestError::Io { ref path, .. } if path.ends_with("b.prg")));
}
