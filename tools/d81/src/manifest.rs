//! Disk manifests: a small TOML file that says what goes on a disk, read by `bac disk build`.
//!
//! ```toml
//! output = "../target/bac.d81"   # where the image goes unless -o says otherwise
//!
//! [disk]
//! name = "BAC128"                # typed as on a C128 (see the petscii module)
//! id = "B1"
//!
//! [boot]                         # optional: a C128 boot sector that RUNs the first file
//! title = "BAC128"
//! fast = true                    # optional: FAST:RUN, the load at 2 MHz (see boot.rs)
//! stage_suffix = "-boot"         # optional: a loader of the game's build that the boot
//!                                # sector calls first (boot.rs), named after the game's
//!                                # file: bac.prg gives bac-boot.prg (with --game, left
//!                                # out if absent)
//!
//! [[file]]                       # files in directory order
//! name = "BAC"
//! type = "prg"                   # prg, seq or usr
//! path = "../target/bac.prg"     # relative to the manifest
//! game = true                    # made by a build step; `--game PATH` replaces the path
//!                                # or game_suffix = "-bank1": another file of that build,
//!                                # `--game bac.prg` gives bac-bank1.prg (left out if absent)
//! beside_directory = true        # optional: its first sectors on the directory's side of
//!                                # track 40, read with the directory (Placement)
//!
//! [[file]]
//! name = "BAC HELP"
//! type = "seq"
//! path = "help.txt"
//! text = true                    # ASCII text, stored as a PETSCII text file
//! ```

use crate::boot::{BootSector, BootStage};
use crate::dir::FileType;
use crate::disk::Disk;
use crate::files::Placement;
use crate::petscii::{self, PetsciiError};
use crate::status::DosError;
use serde::Deserialize;
use std::path::{Path, PathBuf};
use thiserror::Error;

/// A manifest that cannot be read or built.
#[derive(Debug, Error)]
pub enum ManifestError {
    /// A file could not be read.
    #[error("cannot read {path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// The manifest is not valid TOML of the expected shape.
    #[error("{path}: {source}")]
    Syntax {
        /// The manifest.
        path: PathBuf,
        /// The parser's message (with line and column).
        source: Box<toml::de::Error>,
    },
    /// A field's value is wrong.
    #[error("{path}: {what}: {reason}")]
    Field {
        /// The manifest.
        path: PathBuf,
        /// Which field (`disk.id`, `file[2].type`).
        what: String,
        /// What is wrong.
        reason: String,
    },
    /// Text that has no PETSCII form.
    #[error("{path}: {what}: {source}")]
    Petscii {
        /// The manifest or text file.
        path: PathBuf,
        /// Which field or file.
        what: String,
        /// The conversion error.
        source: PetsciiError,
    },
    /// The game's PRG is missing: it is made by a build step.
    #[error("the game program {path} does not exist: build it with `bac prg` or pass --game PATH")]
    GameMissing {
        /// Where it was looked for.
        path: PathBuf,
    },
    /// The disk refused a file (full, bad name, a second file of the same name).
    #[error("{path}: file[{index}] {name:?}: {source}")]
    Dos {
        /// The manifest.
        path: PathBuf,
        /// The file's index in the manifest.
        index: usize,
        /// The file's name.
        name: String,
        /// The DOS error.
        source: DosError,
    },
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Raw {
    output: Option<PathBuf>,
    disk: RawDisk,
    boot: Option<RawBoot>,
    #[serde(default, rename = "file")]
    files: Vec<RawFile>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawDisk {
    name: String,
    id: String,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawBoot {
    title: String,
    #[serde(default)]
    fast: bool,
    #[serde(default)]
    stage_suffix: Option<String>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawFile {
    name: String,
    #[serde(rename = "type")]
    file_type: String,
    path: PathBuf,
    #[serde(default)]
    game: bool,
    #[serde(default)]
    game_suffix: Option<String>,
    #[serde(default)]
    text: bool,
    #[serde(default)]
    beside_directory: bool,
}

/// One file of a manifest.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FileSpec {
    /// PETSCII name.
    pub name: Vec<u8>,
    /// Type.
    pub file_type: FileType,
    /// Where its contents come from (resolved against the manifest's folder).
    pub path: PathBuf,
    /// Made by the game build; `--game` replaces `path`.
    pub game: bool,
    /// Another file of the game build, named after the game's file with this suffix:
    /// with `--game bac.prg` and `-bank1` it is `bac-bank1.prg` beside it.
    pub game_suffix: Option<String>,
    /// An ASCII text to convert to a PETSCII text file.
    pub text: bool,
    /// Where its sectors go ([`Placement::BesideDirectory`] with `beside_directory = true`).
    pub placement: Placement,
}

/// A parsed manifest.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Manifest {
    /// The manifest file (for messages).
    pub origin: PathBuf,
    /// Default output path (resolved).
    pub output: Option<PathBuf>,
    /// PETSCII disk name.
    pub disk_name: Vec<u8>,
    /// Disk ID.
    pub disk_id: [u8; 2],
    /// Boot sector title, if the disk boots.
    pub boot_title: Option<Vec<u8>>,
    /// Whether the boot sector runs the program with `FAST:RUN` ([`BootSector::fast`]).
    pub boot_fast: bool,
    /// The suffix that names the boot stage after the game's file ([`BootSector::stage`]).
    pub boot_stage_suffix: Option<String>,
    /// Files in directory order.
    pub files: Vec<FileSpec>,
}

impl Manifest {
    /// Reads and checks a manifest file.
    pub fn load(path: &Path) -> Result<Manifest, ManifestError> {
        let text =
            std::fs::read_to_string(path).map_err(|source| ManifestError::Io { path: path.to_path_buf(), source })?;
        Manifest::parse(&text, path)
    }

    /// Parses manifest text; relative paths are taken from `origin`'s folder.
    pub fn parse(text: &str, origin: &Path) -> Result<Manifest, ManifestError> {
        let raw: Raw = toml::from_str(text)
            .map_err(|source| ManifestError::Syntax { path: origin.to_path_buf(), source: Box::new(source) })?;
        let base = origin.parent().unwrap_or(Path::new(""));
        let field = |what: String, reason: String| ManifestError::Field { path: origin.to_path_buf(), what, reason };
        let pet = |what: &str, value: &str| {
            petscii::from_ascii(value).map_err(|source| ManifestError::Petscii {
                path: origin.to_path_buf(),
                what: what.to_string(),
                source,
            })
        };
        let disk_name = pet("disk.name", &raw.disk.name)?;
        if disk_name.len() > crate::dir::NAME_LEN {
            return Err(field("disk.name".into(), "at most 16 characters".into()));
        }
        let id: [u8; 2] = pet("disk.id", &raw.disk.id)?
            .try_into()
            .map_err(|_| field("disk.id".into(), "exactly 2 characters".into()))?;
        let mut files = Vec::new();
        for (i, f) in raw.files.iter().enumerate() {
            let file_type: FileType = f
                .file_type
                .parse()
                .map_err(|e: crate::dir::UnknownFileType| field(format!("file[{i}].type"), e.to_string()))?;
            if !matches!(file_type, FileType::Prg | FileType::Seq | FileType::Usr) {
                return Err(field(format!("file[{i}].type"), "only prg, seq and usr can be written".into()));
            }
            let name = pet(&format!("file[{i}].name"), &f.name)?;
            crate::files::check_name(&name).map_err(|e| field(format!("file[{i}].name"), e.to_string()))?;
            files.push(FileSpec {
                name,
                file_type,
                path: base.join(&f.path),
                game: f.game,
                game_suffix: f.game_suffix.clone(),
                text: f.text,
                placement: if f.beside_directory { Placement::BesideDirectory } else { Placement::Dos },
            });
        }
        if files.is_empty() {
            return Err(field("file".into(), "a disk needs at least one [[file]]".into()));
        }
        let boot_title = match &raw.boot {
            Some(b) => {
                if files[0].file_type != FileType::Prg {
                    return Err(field("boot".into(), "the first file must be a prg to boot".into()));
                }
                Some(pet("boot.title", &b.title)?)
            }
            None => None,
        };
        Ok(Manifest {
            origin: origin.to_path_buf(),
            output: raw.output.map(|p| base.join(p)),
            disk_name,
            disk_id: id,
            boot_title,
            boot_fast: raw.boot.as_ref().is_some_and(|b| b.fast),
            boot_stage_suffix: raw.boot.as_ref().and_then(|b| b.stage_suffix.clone()),
            files,
        })
    }

    /// Builds the disk: format, boot sector, then the files in order. `game` replaces the
    /// path of the file marked `game = true`.
    pub fn build(&self, game: Option<&Path>) -> Result<Disk, ManifestError> {
        let origin = || self.origin.clone();
        let mut disk = Disk::new(&self.disk_name, self.disk_id).map_err(|source| ManifestError::Dos {
            path: origin(),
            index: 0,
            name: petscii::to_ascii(&self.disk_name),
            source,
        })?;
        if let Some(title) = &self.boot_title {
            let boot_field = |e: crate::BootError| ManifestError::Field {
                path: origin(),
                what: "boot".into(),
                reason: e.to_string(),
            };
            let mut boot = BootSector::new(title, &self.files[0].name)
                .and_then(|b| b.with_fast(self.boot_fast))
                .map_err(boot_field)?;
            if let Some(stage) = self.boot_stage(game)? {
                boot = boot.with_stage(stage).map_err(boot_field)?;
            }
            disk.install_boot_sector(&boot).map_err(|source| ManifestError::Dos {
                path: origin(),
                index: 0,
                name: petscii::to_ascii(&self.files[0].name),
                source,
            })?;
        }
        for (index, spec) in self.files.iter().enumerate() {
            let path = match (spec.game, &spec.game_suffix, game) {
                (true, _, Some(p)) => p.to_path_buf(),
                (false, Some(suffix), Some(p)) => with_suffix(p, suffix),
                _ => spec.path.clone(),
            };
            // A program given with --game that has no such companion (a test program
            // without interpreted code) simply goes on the disk alone.
            if spec.game_suffix.is_some() && game.is_some() && !path.exists() {
                continue;
            }
            if (spec.game || spec.game_suffix.is_some()) && !path.exists() {
                return Err(ManifestError::GameMissing { path });
            }
            let bytes = std::fs::read(&path).map_err(|source| ManifestError::Io { path: path.clone(), source })?;
            let data = if spec.text {
                let text = String::from_utf8(bytes).map_err(|e| ManifestError::Field {
                    path: path.clone(),
                    what: "text".into(),
                    reason: format!("not UTF-8 text: {e}"),
                })?;
                petscii::text_from_ascii(&text).map_err(|source| ManifestError::Petscii {
                    path: path.clone(),
                    what: "text".into(),
                    source,
                })?
            } else {
                bytes
            };
            if spec.file_type == FileType::Prg && data.len() < 2 {
                return Err(ManifestError::Field {
                    path,
                    what: format!("file[{index}]"),
                    reason: format!("{} bytes: a PRG starts with its 2-byte load address", data.len()),
                });
            }
            disk.write_file_placed(&spec.name, spec.file_type, &data, spec.placement).map_err(|source| {
                ManifestError::Dos { path: origin(), index, name: petscii::to_ascii(&spec.name), source }
            })?;
        }
        Ok(disk)
    }

    /// The boot stage, read from beside the game's file (`game`, or the file marked
    /// `game = true`): none without `stage_suffix`, nor with `--game` when that build made
    /// none (a test program).
    fn boot_stage(&self, game: Option<&Path>) -> Result<Option<BootStage>, ManifestError> {
        let Some(suffix) = &self.boot_stage_suffix else { return Ok(None) };
        let Some(program) =
            game.map(Path::to_path_buf).or_else(|| self.files.iter().find(|f| f.game).map(|f| f.path.clone()))
        else {
            return Err(ManifestError::Field {
                path: self.origin.clone(),
                what: "boot.stage_suffix".into(),
                reason: "names the stage after the game's file, and no file has game = true".into(),
            });
        };
        let path = with_suffix(&program, suffix);
        if !path.exists() {
            return match game {
                Some(_) => Ok(None),
                None => Err(ManifestError::GameMissing { path }),
            };
        }
        let bytes = std::fs::read(&path).map_err(|source| ManifestError::Io { path: path.clone(), source })?;
        BootStage::from_prg(&bytes).map(Some).map_err(|e| ManifestError::Field {
            path,
            what: "boot stage".into(),
            reason: e.to_string(),
        })
    }
}

/// Another file of the build that made `program`: `bac.prg` with `-bank1` is
/// `bac-bank1.prg` beside it.
fn with_suffix(program: &Path, suffix: &str) -> PathBuf {
    let stem = program.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
    let ext = program.extension().map(|e| format!(".{}", e.to_string_lossy())).unwrap_or_default();
    program.with_file_name(format!("{stem}{suffix}{ext}"))
}
