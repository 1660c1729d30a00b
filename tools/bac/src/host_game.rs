//! `bac play` without a file: the game itself (`bac-game`, the code the C128 program runs)
//! on a [`Platform`](bac_game::Platform) made of the terminal, the wall clock and a save directory.
//!
//! Screen codes become the same Unicode stand-ins the emulator's text view uses, colours
//! the VIC-II's palette. Keys: Esc is RUN/STOP, F1-F8 the function keys, Backspace DEL;
//! Ctrl+Q or F12 asks the game to quit (it saves), pressed twice it leaves at once.

use std::collections::VecDeque;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};
use bac_game::platform::colour::{MARK, ON_PAPER, WHITE};
use bac_game::platform::{self, DiskError, Sound, key};
use bac_game::text::Lang;
use c128_emu::screenshot::VIC_PALETTE;
use c128_emu::text::Cell;
use crossterm::event::{self, Event, KeyCode, KeyEventKind, KeyModifiers};

use crate::terminal::{TerminalGuard, draw, is_quit};

/// The help texts the disk carries, for the help pages: English, French.
const HELP: [&[u8]; 2] = [include_bytes!("../../../disk/help.txt"), include_bytes!("../../../disk/help.fr.txt")];
/// A PAL frame.
const FRAME: Duration = Duration::from_millis(20);

/// Where keys come from.
enum Keys {
    /// A person at the terminal.
    Terminal { quit_asked: bool },
    /// A script (`bac play --keys`), then the way out ([`way_out`]) until the game ends.
    Script(VecDeque<u8>, usize),
}

/// Keys typed after a script before `bac play --keys` gives up on the game ending.
const WAY_OUT_KEYS: usize = 2_000;

/// The `n`th key (from 0) of the way out after a script: rounds of RUN/STOP typed once,
/// twice, three times..., each followed by Y (quit, confirmed), D (a question about a
/// third card) and RETURN (a name, a message). A fixed cycle can lock in step with the
/// screens (STOP leaves the options for the title, where the next key must be STOP again
/// and then Y): it did, and `--keys {RETURN}` never ended. With one more STOP each round,
/// some round types STOP as often as the screen in front of it needs, then Y.
fn way_out(n: usize) -> u8 {
    let mut start = 0;
    let mut stops = 1;
    loop {
        let round = stops + 3;
        if n < start + round {
            return match n - start {
                i if i < stops => key::STOP,
                i if i == stops => b'Y',
                i if i == stops + 1 => b'D',
                _ => key::RETURN,
            };
        }
        start += round;
        stops += 1;
    }
}

/// Why a script's game was stopped: it had not ended [`WAY_OUT_KEYS`] keys after the script.
struct GaveUp;

/// The terminal (or a script) as the machine under the game.
pub struct Host {
    cols: u8,
    cells: [[(u8, u8); 80]; 25],
    background: u8,
    dirty: bool,
    keys: Keys,
    queue: VecDeque<u8>,
    frames: u32,
    next_frame: Instant,
    save_dir: PathBuf,
    /// The help text being read: its language and the next byte.
    help: Option<(usize, usize)>,
    settles: Vec<(u32, u32)>,
    /// The screen when a script's keys ran out, before the way out.
    after_script: Option<String>,
}

impl Host {
    fn new(cols: u8, keys: Keys, save_dir: PathBuf) -> Host {
        Host {
            cols,
            cells: [[(0x20, 1); 80]; 25],
            background: 5,
            dirty: true,
            keys,
            queue: VecDeque::new(),
            frames: 0,
            next_frame: Instant::now(),
            save_dir,
            help: None,
            settles: Vec::new(),
            after_script: None,
        }
    }

    fn path(&self, name: &[u8]) -> Result<PathBuf, DiskError> {
        let name = std::str::from_utf8(name).map_err(|_| DiskError::Dos(33))?;
        if name.is_empty() || name.contains(['/', '\\', ':', '*', '?']) || name.starts_with('.') {
            return Err(DiskError::Dos(33));
        }
        Ok(self.save_dir.join(name))
    }

    /// The screen as cells, for drawing and for `--keys` output.
    pub fn grid(&self) -> Vec<Vec<Cell>> {
        let rgb = |c: u8| VIC_PALETTE[usize::from(c & 0x0F)];
        self.cells
            .iter()
            .map(|row| {
                row[..usize::from(self.cols)]
                    .iter()
                    .map(|&(code, colour)| {
                        // A card's face is white, whatever the cloth.
                        let paper = if colour & ON_PAPER != 0 { WHITE } else { self.background };
                        let (fg, bg) = (rgb(colour), rgb(paper));
                        let (fg, bg) = if code & 0x80 != 0 { (bg, fg) } else { (fg, bg) };
                        let ch = if colour & MARK != 0 { mark(code) } else { glyph(code) };
                        Cell { ch, fg, bg }
                    })
                    .collect()
            })
            .collect()
    }

    /// The screen as plain text.
    pub fn text(&self) -> String {
        self.grid().iter().map(|row| row.iter().map(|c| c.ch).collect::<String>() + "\n").collect()
    }

    fn poll_terminal(&mut self) {
        let Keys::Terminal { quit_asked } = &mut self.keys else { return };
        while event::poll(Duration::ZERO).unwrap_or(false) {
            let Ok(Event::Key(k)) = event::read() else { continue };
            if k.kind == KeyEventKind::Release {
                continue;
            }
            if is_quit(k) {
                if *quit_asked {
                    // Asked twice: leave now. The guard in `play` restores the terminal.
                    self.queue.clear();
                    self.queue.extend([key::STOP, b'Y', key::STOP, b'Y']);
                    continue;
                }
                *quit_asked = true;
                self.queue.extend([key::STOP, b'Y']);
                continue;
            }
            let code = match k.code {
                KeyCode::Enter => key::RETURN,
                KeyCode::Esc => key::STOP,
                KeyCode::Backspace | KeyCode::Delete => key::DEL,
                KeyCode::Up => key::UP,
                KeyCode::Down => key::DOWN,
                KeyCode::Left => key::LEFT,
                KeyCode::Right => key::RIGHT,
                KeyCode::Home => key::HOME,
                KeyCode::Tab => key::TAB,
                KeyCode::F(n @ 1..=8) => [key::F1, 137, key::F3, 138, key::F5, 139, key::F7, 140][usize::from(n - 1)],
                KeyCode::Char('c') if k.modifiers.contains(KeyModifiers::CONTROL) => key::STOP,
                KeyCode::Char(c) if c.is_ascii() => (c as u8).to_ascii_uppercase(),
                _ => continue,
            };
            self.queue.push_back(code);
        }
    }
}

/// The character a screen code of the game's set shows: the C128's upper-case set, read
/// as the emulator's text view reads it.
fn glyph(code: u8) -> char {
    c128_emu::text::glyph_char(code, false)
}

/// A derived road's mark (`bac_glyphs::MARKS`, by the game's code) as a character: the
/// road's shape; a cell of two stacked marks shows as one, a terminal having no glyph for it.
fn mark(code: u8) -> char {
    match code / 3 {
        0 => 'o',
        1 => '•',
        _ => '/',
    }
}

fn io_error(e: std::io::Error) -> DiskError {
    match e.kind() {
        std::io::ErrorKind::NotFound => DiskError::NotFound,
        std::io::ErrorKind::PermissionDenied | std::io::ErrorKind::ReadOnlyFilesystem => DiskError::WriteProtected,
        std::io::ErrorKind::StorageFull => DiskError::DiskFull,
        std::io::ErrorKind::AlreadyExists => DiskError::Dos(63),
        _ => DiskError::Dos(0),
    }
}

impl platform::Screen for Host {
    fn columns(&self) -> u8 {
        self.cols
    }

    fn set_columns(&mut self, columns: u8, background: u8) {
        self.cols = if columns == 80 { 80 } else { 40 };
        self.background = background;
        self.cells = [[(0x20, 1); 80]; 25];
        self.dirty = true;
    }

    fn put(&mut self, x: u8, y: u8, code: u8, colour: u8) {
        if x < self.cols && y < 25 {
            self.cells[usize::from(y)][usize::from(x)] = (code, colour);
            self.dirty = true;
        }
    }

    fn fill(&mut self, x: u8, y: u8, w: u8, h: u8, code: u8, colour: u8) {
        for yy in y..y.saturating_add(h).min(25) {
            for xx in x..x.saturating_add(w).min(self.cols) {
                self.put(xx, yy, code, colour);
            }
        }
    }
}

impl platform::Keys for Host {
    fn key(&mut self) -> Option<u8> {
        match &mut self.keys {
            Keys::Terminal { .. } => {
                self.poll_terminal();
                self.queue.pop_front()
            }
            Keys::Script(script, typed) => {
                if let Some(key) = script.pop_front() {
                    return Some(key);
                }
                if *typed == WAY_OUT_KEYS {
                    // The game has no way to be stopped from outside: unwinding out of it,
                    // without the panic hook's message, is caught in `play_script`.
                    std::panic::resume_unwind(Box::new(GaveUp));
                }
                *typed += 1;
                let key = way_out(*typed - 1);
                if *typed == 1 {
                    self.after_script = Some(self.text());
                }
                Some(key)
            }
        }
    }

    fn hurry(&mut self) -> bool {
        // A terminal reports key presses, not keys held: a SPACE typed during the deal is
        // taken from the queue, every other key stays. A script's keys are all for screens.
        if !matches!(self.keys, Keys::Terminal { .. }) {
            return false;
        }
        self.poll_terminal();
        let before = self.queue.len();
        self.queue.retain(|&k| k != key::SPACE);
        self.queue.len() != before
    }
}

impl platform::Clock for Host {
    fn frame(&mut self) {
        self.frames = self.frames.wrapping_add(1);
        if let Keys::Terminal { .. } = self.keys {
            if self.dirty {
                let mut out = std::io::stdout();
                let _ = draw(&mut out, &self.grid(), "Esc: RUN/STOP   Ctrl+Q: quit");
                self.dirty = false;
            }
            self.next_frame += FRAME;
            let now = Instant::now();
            if self.next_frame > now {
                std::thread::sleep(self.next_frame - now);
            } else {
                self.next_frame = now;
            }
            self.poll_terminal();
        }
    }

    /// The frames waited: the host's work between frames is too quick to count.
    fn clock(&self) -> u8 {
        self.frames as u8
    }

    fn ticks(&self) -> u32 {
        match self.keys {
            Keys::Terminal { .. } => {
                let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap_or_default();
                now.subsec_nanos() ^ self.frames
            }
            Keys::Script(..) => self.frames,
        }
    }
}

impl platform::Speaker for Host {
    fn sound(&mut self, _sound: Sound) {}
}

impl platform::Storage for Host {
    fn read(&mut self, name: &[u8], buf: &mut [u8]) -> Result<usize, DiskError> {
        let data = std::fs::read(self.path(name)?).map_err(io_error)?;
        let into = buf.get_mut(..data.len()).ok_or(DiskError::TooLong)?;
        into.copy_from_slice(&data);
        Ok(data.len())
    }

    fn write(&mut self, name: &[u8], data: &[u8]) -> Result<(), DiskError> {
        let path = self.path(name)?;
        if path.exists() {
            return Err(DiskError::Dos(63));
        }
        std::fs::create_dir_all(&self.save_dir).map_err(io_error)?;
        // Written whole to a temporary name first: a file under the real name is complete.
        let mut tmp = tempfile::NamedTempFile::new_in(&self.save_dir).map_err(io_error)?;
        std::io::Write::write_all(&mut tmp, data).map_err(io_error)?;
        tmp.persist(&path).map(drop).map_err(|e| io_error(e.error))
    }

    fn scratch(&mut self, name: &[u8]) -> Result<(), DiskError> {
        std::fs::remove_file(self.path(name)?).map_err(io_error)
    }

    fn rename(&mut self, from: &[u8], to: &[u8]) -> Result<(), DiskError> {
        let (from, to) = (self.path(from)?, self.path(to)?);
        if to.exists() {
            return Err(DiskError::Dos(63));
        }
        std::fs::rename(from, to).map_err(io_error)
    }

    fn open_help(&mut self, lang: Lang) -> Result<(), DiskError> {
        self.help = Some((lang as usize, 0));
        Ok(())
    }

    fn help_byte(&mut self) -> Option<u8> {
        let (lang, at) = self.help.as_mut()?;
        let byte = HELP[*lang].get(*at).copied();
        *at += 1;
        byte
    }

    fn close_help(&mut self) {
        self.help = None;
    }
}

impl platform::Witness for Host {
    fn settled(&mut self, _coups: u16, before: u32, after: u32) {
        self.settles.push((before, after));
    }
}

/// Where saved games go unless `--save-dir` says otherwise.
pub fn default_save_dir() -> PathBuf {
    let data = std::env::var_os("XDG_DATA_HOME")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".local/share")))
        .unwrap_or_else(|| PathBuf::from("."));
    data.join("bac128")
}

/// Plays the game at the terminal.
pub fn play(columns: Option<u8>, save_dir: &Path) -> Result<()> {
    use std::io::IsTerminal;
    if !std::io::stdout().is_terminal() || !std::io::stdin().is_terminal() {
        bail!("bac play needs a terminal; `bac play --keys KEYS` plays a script and prints the screen");
    }
    let (width, height) = crossterm::terminal::size().unwrap_or((80, 26));
    let columns = columns.unwrap_or(if width >= 80 { 80 } else { 40 });
    if width < u16::from(columns) || height < 26 {
        bail!("the terminal is {width}x{height}; the {columns}-column screen needs {columns}x26");
    }
    let _guard = TerminalGuard::enter()?;
    crossterm::execute!(std::io::stdout(), crossterm::terminal::Clear(crossterm::terminal::ClearType::All))?;
    let host = Host::new(columns, Keys::Terminal { quit_asked: false }, save_dir.to_path_buf());
    let mut app = bac_game::App::new(host, columns);
    app.run();
    std::io::stdout().flush().context("writing to the terminal")?;
    Ok(())
}

/// Plays a script of keys (as `bac run --keys` spells them) without a terminal and returns
/// the text of the screen the script led to and, after the way out that follows it
/// ([`way_out`]), of the last screen.
pub fn play_script(columns: u8, script: &str, save_dir: &Path) -> Result<String> {
    let mut keys = VecDeque::new();
    for event in c128_emu::keys::parse_keys(script).map_err(|e| anyhow::anyhow!("--keys: {e}"))? {
        if let c128_emu::keys::KeyEvent::Press(press) = event {
            let code = press.petscii.with_context(|| format!("--keys: {:?} types nothing", press.keys))?;
            keys.push_back(code);
        }
    }
    let host = Host::new(columns, Keys::Script(keys, 0), save_dir.to_path_buf());
    let mut app = bac_game::App::new(host, columns);
    let ended = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| app.run()));
    match ended {
        Ok(()) => {}
        Err(payload) if payload.is::<GaveUp>() => {
            bail!(
                "the game did not return to BASIC within {WAY_OUT_KEYS} keys of RUN/STOP, Y, D and RETURN after the script"
            )
        }
        Err(payload) => std::panic::resume_unwind(payload),
    }
    if let Some((before, after)) = app.p.settles.iter().find(|(b, a)| b != a) {
        bail!("money changed in a coup: {before} cents before, {after} after");
    }
    let last = app.p.text();
    Ok(match app.p.after_script.take() {
        Some(screen) => format!("{screen}\n--- then RUN/STOP and Y to BASIC ---\n{last}"),
        None => last,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_way_out_types_stop_one_more_time_each_round() {
        let keys: Vec<u8> = (0..11).map(way_out).collect();
        let s = key::STOP;
        let r = key::RETURN;
        assert_eq!(keys, [s, b'Y', b'D', r, s, s, b'Y', b'D', r, s, s]);
    }

    #[test]
    fn a_script_that_stops_on_any_screen_still_reaches_basic() {
        // Every screen the first few keys lead to: the title, the options, the names, the
        // table; the way out must leave each of them.
        let dir = tempfile::tempdir().unwrap();
        for script in [
            "",
            "{RETURN}",
            "{RETURN}{RETURN}",
            "{RETURN}{RETURN}A",
            "{RETURN}{RETURN}{RETURN}",
            "{RETURN}{RETURN}{RETURN}5P{RETURN}",
        ] {
            for columns in [40, 80] {
                play_script(columns, script, dir.path()).unwrap_or_else(|e| panic!("{script:?}: {e}"));
            }
        }
    }

    #[test]
    fn glyphs_match_the_character_set() {
        assert_eq!(glyph(1), 'A');
        assert_eq!(glyph(0x80 | 26), 'Z');
        assert_eq!(glyph(b'7'), '7');
        assert_eq!(glyph(0x53), '♥');
        assert_eq!(glyph(0x55), '╭');
    }

    #[test]
    fn file_names_stay_in_the_save_directory() {
        let host = Host::new(40, Keys::Script(VecDeque::new(), 0), PathBuf::from("/tmp/x"));
        assert!(host.path(b"BAC SAVE").is_ok());
        for bad in [&b"../etc/passwd"[..], b"", b".hidden", b"A:B", &[0xFF]] {
            assert!(host.path(bad).is_err(), "{bad:?}");
        }
    }
}
