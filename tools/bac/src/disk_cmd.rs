//! `bac disk`: build the game's disk from `disk/bac.toml`, and list, extract, add and
//! scratch files on `.d81` images. The work is done by the `d81` library; this module turns
//! arguments into calls and messages, and writes every output through a temporary file that
//! is renamed into place.

use anyhow::{Context, Result, bail};
use clap::{Args, Subcommand, ValueEnum};
use d81::geometry::DIR_TRACK;
use d81::{Disk, FileType, Manifest, Placement, blocks_beside_directory, petscii};
use std::path::{Path, PathBuf};

/// Arguments of `bac disk`.
#[derive(Args, Debug)]
pub struct DiskArgs {
    /// What to do.
    #[command(subcommand)]
    pub command: DiskCommand,
}

/// The `bac disk` subcommands.
#[derive(Subcommand, Debug)]
pub enum DiskCommand {
    /// Build the game (firmware/game-prg, as `bac prg` does) and its disk (bac.d81) from the
    /// disk's manifest.
    Build {
        /// Where to write the image [default: the manifest's `output`].
        #[arg(short, long)]
        output: Option<PathBuf>,
        /// The disk manifest.
        #[arg(long, default_value = "disk/bac.toml")]
        manifest: PathBuf,
        /// Put this .prg on the disk as the game (and its `-bank1.prg` beside it) instead of
        /// building firmware/game-prg.
        #[arg(long)]
        game: Option<PathBuf>,
    },
    /// List an image's directory, as the C128 shows it.
    Ls {
        /// The .d81 image.
        image: PathBuf,
    },
    /// Copy a file out of an image (wildcards * and ? allowed).
    Get {
        /// The .d81 image.
        image: PathBuf,
        /// The file's name on the disk, typed as on a C128 ({$hh} for other bytes).
        name: String,
        /// Where to write it [default: the name and type, e.g. `BAC.prg`].
        #[arg(short, long)]
        output: Option<PathBuf>,
    },
    /// Add a file to an image.
    Put {
        /// The .d81 image.
        image: PathBuf,
        /// The file to add.
        file: PathBuf,
        /// Its name on the disk [default: FILE's name without its extension].
        #[arg(long)]
        name: Option<String>,
        /// Its type [default: from FILE's extension .seq or .usr, else prg].
        #[arg(long = "type", value_enum)]
        file_type: Option<TypeArg>,
        /// Replace a file of the same name (the @0: save).
        #[arg(long)]
        replace: bool,
    },
    /// Scratch files from an image (wildcards * and ? allowed).
    Rm {
        /// The .d81 image.
        image: PathBuf,
        /// The name or pattern.
        name: String,
    },
}

/// File types `bac disk put` can write.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum TypeArg {
    /// Program.
    Prg,
    /// Sequential.
    Seq,
    /// User.
    Usr,
}

impl From<TypeArg> for FileType {
    fn from(t: TypeArg) -> FileType {
        match t {
            TypeArg::Prg => FileType::Prg,
            TypeArg::Seq => FileType::Seq,
            TypeArg::Usr => FileType::Usr,
        }
    }
}

/// Runs `bac disk`.
pub fn run(args: DiskArgs) -> Result<()> {
    match args.command {
        DiskCommand::Build { output, manifest, game } => build(&manifest, output, game.as_deref()),
        DiskCommand::Ls { image } => {
            print!("{}", listing(&load(&image)?));
            Ok(())
        }
        DiskCommand::Get { image, name, output } => get(&image, &name, output),
        DiskCommand::Put { image, file, name, file_type, replace } => {
            put(&image, &file, name.as_deref(), file_type, replace)
        }
        DiskCommand::Rm { image, name } => rm(&image, &name),
    }
}

fn build(manifest: &Path, output: Option<PathBuf>, game: Option<&Path>) -> Result<()> {
    let m = Manifest::load(manifest)?;
    let built;
    let game = match game {
        Some(path) => Some(path),
        None => {
            built = crate::firmware::build_game()?;
            Some(built.as_path())
        }
    };
    let out = output
        .or_else(|| m.output.clone())
        .with_context(|| format!("{} names no output: pass -o PATH", manifest.display()))?;
    let disk = m.build(game)?;
    if let Some(dir) = out.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    }
    disk.save(&out).with_context(|| format!("writing {}", out.display()))?;
    println!("wrote {}: {} files, {} blocks free", out.display(), disk.entries().len(), disk.blocks_free());
    report_beside_directory(&m, &disk);
    Ok(())
}

/// Says where each `beside_directory` file went: its first sectors on track 40, or not (its
/// blocks over whole track sides did not fit in the room left there, so loading it reads one
/// track side more; the files' sizes change with every build, hence the line).
fn report_beside_directory(m: &Manifest, disk: &Disk) {
    let entries = disk.entries();
    for spec in m.files.iter().filter(|f| f.placement == Placement::BesideDirectory) {
        let Some(entry) = entries.iter().find(|e| e.name == spec.name) else { continue };
        let over = blocks_beside_directory(usize::from(entry.blocks));
        let name = entry.quoted_name();
        if entry.first.track == DIR_TRACK {
            println!("  {name}: {over} of {} blocks beside the directory, from {}", entry.blocks, entry.first);
        } else if over > 0 {
            println!("  {name}: its {over} blocks over whole track sides found no room beside the directory");
        }
    }
}

/// The name of the game's save file, carried from an old image into a rebuilt one.
const SAVE_NAME: &[u8] = b"BAC SAVE";

/// Builds the game and the repository's game disk for `bac play`: `target/bac.d81` (the
/// manifest's output). A save the game wrote on the previous image is copied onto the new
/// one, so rebuilding never loses the bankrolls. Returns the image's path.
pub fn build_game_disk() -> Result<PathBuf> {
    let manifest_path = crate::firmware::repo_root().join("disk/bac.toml");
    let m = Manifest::load(&manifest_path)?;
    let out = m.output.clone().with_context(|| format!("{} names no output", manifest_path.display()))?;
    let game = crate::firmware::build_game()?;
    let mut disk = m.build(Some(&game))?;
    if let Ok(old) = std::fs::read(&out).map_err(anyhow::Error::from).and_then(|b| Ok(Disk::from_bytes(&b)?))
        && let Ok(save) = old.read_as(SAVE_NAME, FileType::Seq)
    {
        disk.write_file(SAVE_NAME, FileType::Seq, &save.data)
            .with_context(|| format!("copying the save from {} to the new image", out.display()))?;
    }
    if let Some(dir) = out.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    }
    disk.save(&out).with_context(|| format!("writing {}", out.display()))?;
    Ok(out)
}

fn load(image: &Path) -> Result<Disk> {
    let bytes = std::fs::read(image).with_context(|| format!("reading {}", image.display()))?;
    Disk::from_bytes(&bytes).with_context(|| format!("{} is not a usable .d81 image", image.display()))
}

fn pet(name: &str) -> Result<Vec<u8>> {
    petscii::from_ascii(name).with_context(|| format!("file name {name:?}"))
}

/// The directory as a C128 prints it, with the boot sector's title if there is one.
fn listing(disk: &Disk) -> String {
    let dos_type = disk.sector(d81::geometry::HEADER).map_or(&[][..], |h| &h[0x19..0x1b]);
    let mut out = format!(
        "0 \"{:<16}\" {} {}\n",
        petscii::to_ascii(&disk.name()),
        petscii::to_ascii(&disk.id()),
        petscii::to_ascii(dos_type)
    );
    for e in disk.entries() {
        let name = format!("\"{}\"", petscii::to_ascii(&e.name));
        out.push_str(&format!("{:<5}{:<19}{}\n", e.blocks, name, e.type_column()));
    }
    out.push_str(&format!("{} BLOCKS FREE.\n", disk.blocks_free()));
    if let Some(boot) = disk.boot_info() {
        out.push_str(&format!("boot sector: BOOTING {}...\n", petscii::to_ascii(&boot.title)));
    }
    out
}

fn get(image: &Path, name: &str, output: Option<PathBuf>) -> Result<()> {
    let disk = load(image)?;
    let file = disk.read(&pet(name)?).with_context(|| format!("reading {name:?} from {}", image.display()))?;
    // The default name must stay in the current folder: a '/' in a PETSCII name becomes '_'.
    let out = output.unwrap_or_else(|| {
        PathBuf::from(format!(
            "{}.{}",
            petscii::to_ascii(&file.entry.name).replace('/', "_"),
            file.entry.file_type.as_str().to_lowercase()
        ))
    });
    write_atomically(&out, &file.data)?;
    println!("{} -> {} ({} bytes)", file.entry.quoted_name(), out.display(), file.data.len());
    Ok(())
}

fn put(image: &Path, file: &Path, name: Option<&str>, file_type: Option<TypeArg>, replace: bool) -> Result<()> {
    let mut disk = load(image)?;
    let data = std::fs::read(file).with_context(|| format!("reading {}", file.display()))?;
    let name = match name {
        Some(n) => n.to_string(),
        None => file
            .file_stem()
            .and_then(|s| s.to_str())
            .with_context(|| format!("{} has no usable name: pass --name", file.display()))?
            .to_string(),
    };
    let file_type: FileType = match file_type {
        Some(t) => t.into(),
        None => match file.extension().and_then(|e| e.to_str()).map(str::to_lowercase) {
            Some(e) if e == "seq" => FileType::Seq,
            Some(e) if e == "usr" => FileType::Usr,
            _ => FileType::Prg,
        },
    };
    let pet_name = pet(&name)?;
    let entry = if replace {
        disk.replace_file(&pet_name, file_type, &data)
    } else {
        disk.write_file(&pet_name, file_type, &data)
    }
    .with_context(|| format!("adding {} to {} as {name:?}", file.display(), image.display()))?;
    disk.save(image).with_context(|| format!("writing {}", image.display()))?;
    println!("{} {} {} blocks, {} blocks free", entry.quoted_name(), entry.file_type, entry.blocks, disk.blocks_free());
    Ok(())
}

fn rm(image: &Path, name: &str) -> Result<()> {
    let mut disk = load(image)?;
    let count = disk.scratch(&pet(name)?).with_context(|| format!("scratching {name:?} on {}", image.display()))?;
    if count == 0 {
        bail!("no unlocked file on {} matches {name:?}", image.display());
    }
    disk.save(image).with_context(|| format!("writing {}", image.display()))?;
    println!("{}", d81::DosStatus::files_scratched(count));
    Ok(())
}

/// Writes `bytes` to a temporary file next to `path`, then renames it into place.
fn write_atomically(path: &Path, bytes: &[u8]) -> Result<()> {
    avr2mos::pipeline::write_atomic(path, bytes).with_context(|| format!("writing {}", path.display()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    /// `bac disk` on its own, as the `bac` binary nests it.
    #[derive(Parser, Debug)]
    struct Cli {
        #[command(flatten)]
        disk: DiskArgs,
    }

    fn parse(args: &[&str]) -> std::result::Result<DiskArgs, clap::Error> {
        Cli::try_parse_from(std::iter::once("disk").chain(args.iter().copied())).map(|c| c.disk)
    }

    /// A fresh scratch folder under the system's temporary folder.
    fn scratch_dir(tag: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("bac-disk-{tag}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    #[test]
    fn the_command_line_is_consistent() {
        use clap::CommandFactory;
        Cli::command().debug_assert();
    }

    #[test]
    fn argument_errors_are_reported() {
        use clap::error::ErrorKind;
        assert_eq!(parse(&[]).unwrap_err().kind(), ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand);
        assert_eq!(parse(&["ls"]).unwrap_err().kind(), ErrorKind::MissingRequiredArgument);
        assert_eq!(parse(&["get", "x.d81"]).unwrap_err().kind(), ErrorKind::MissingRequiredArgument);
        assert_eq!(parse(&["put", "x.d81", "f", "--type", "rel"]).unwrap_err().kind(), ErrorKind::InvalidValue);
        assert_eq!(parse(&["format", "x.d81"]).unwrap_err().kind(), ErrorKind::InvalidSubcommand);
        assert!(matches!(
            parse(&["put", "x.d81", "f.seq", "--name", "HELP", "--type", "seq"]).unwrap().command,
            DiskCommand::Put { file_type: Some(TypeArg::Seq), .. }
        ));
    }

    #[test]
    fn bad_inputs_fail_with_a_message() {
        let dir = scratch_dir("bad");
        let image = dir.join("short.d81");
        std::fs::write(&image, [0u8; 1000]).unwrap();
        let err = run(parse(&["ls", image.to_str().unwrap()]).unwrap()).unwrap_err();
        let text = format!("{err:#}");
        assert!(text.contains("not a usable .d81 image") && text.contains("819200"), "{text}");
        let missing = dir.join("missing.d81");
        let err = run(parse(&["ls", missing.to_str().unwrap()]).unwrap()).unwrap_err();
        assert!(format!("{err:#}").contains("reading"), "{err:#}");
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn put_ls_get_rm_round_trip() {
        let dir = scratch_dir("round");
        let image = dir.join("t.d81");
        Disk::new(b"T", *b"00").unwrap().save(&image).unwrap();
        let img = image.to_str().unwrap();
        let src = dir.join("help.seq");
        std::fs::write(&src, b"HELLO\r").unwrap();
        run(parse(&["put", img, src.to_str().unwrap()]).unwrap()).unwrap();
        let disk = load(&image).unwrap();
        assert_eq!(disk.read_as(b"HELP", FileType::Seq).unwrap().data, b"HELLO\r");
        assert!(listing(&disk).contains("1    \"HELP\"             SEQ\n"), "{}", listing(&disk));
        let err = run(parse(&["put", img, src.to_str().unwrap()]).unwrap()).unwrap_err();
        assert!(format!("{err:#}").contains("63,FILE EXISTS"), "{err:#}");
        std::fs::write(&src, b"NEW").unwrap();
        run(parse(&["put", img, src.to_str().unwrap(), "--replace"]).unwrap()).unwrap();
        let out = dir.join("out.bin");
        run(parse(&["get", img, "h*", "-o", out.to_str().unwrap()]).unwrap()).unwrap();
        assert_eq!(std::fs::read(&out).unwrap(), b"NEW");
        let err = run(parse(&["get", img, "NOPE"]).unwrap()).unwrap_err();
        assert!(format!("{err:#}").contains("62,FILE NOT FOUND"), "{err:#}");
        run(parse(&["rm", img, "help"]).unwrap()).unwrap();
        assert!(load(&image).unwrap().entries().is_empty());
        assert!(run(parse(&["rm", img, "help"]).unwrap()).is_err());
        let leftovers: Vec<_> = std::fs::read_dir(&dir)
            .unwrap()
            .filter_map(|e| e.ok())
            .filter(|e| e.file_name().to_string_lossy().starts_with('.'))
            .collect();
        assert!(leftovers.is_empty(), "temporary files left: {leftovers:?}");
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn build_writes_the_game_disk() {
        let dir = scratch_dir("build");
        let game = dir.join("bac.prg");
        std::fs::write(&game, [0x01, 0x1c, 0x60]).unwrap();
        std::fs::write(dir.join("bac-bank1.prg"), [0x00, 0x40, 0xEA]).unwrap();
        let manifest = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../disk/bac.toml");
        let out = dir.join("bac.d81");
        run(parse(&[
            "build",
            "--manifest",
            manifest.to_str().unwrap(),
            "--game",
            game.to_str().unwrap(),
            "-o",
            out.to_str().unwrap(),
        ])
        .unwrap())
        .unwrap();
        let disk = load(&out).unwrap();
        assert_eq!(disk.read(b"BAC").unwrap().data, [0x01, 0x1c, 0x60]);
        assert_eq!(disk.read(b"BAC CODE").unwrap().data, [0x00, 0x40, 0xEA], "the game's bank-1 file comes along");
        let err = run(parse(&[
            "build",
            "--manifest",
            manifest.to_str().unwrap(),
            "--game",
            dir.join("none.prg").to_str().unwrap(),
            "-o",
            out.to_str().unwrap(),
        ])
        .unwrap())
        .unwrap_err();
        assert!(format!("{err:#}").contains("bac prg"), "{err:#}");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
