//! `bac play FILE`: a C128 in the terminal. Each frame runs a 50th (or 60th) of a second of
//! the machine, draws the active screen with its colours, and turns key presses into C128
//! keys. Ctrl+Q or F12 quits; the terminal is restored however the loop ends.

use anyhow::{Context, Result, bail};
use c128_emu::keys::{KeyEvent as C128Key, char_press, parse_keys};
use c128_emu::text::{Cell, cells};
use c128_emu::{Machine, Screen};
use crossterm::event::{self, Event, KeyCode, KeyEvent, KeyEventKind, KeyModifiers};
use crossterm::style::{Color, Print, SetBackgroundColor, SetForegroundColor};
use crossterm::{cursor, execute, queue, terminal};
use std::io::Write;
use std::time::{Duration, Instant};

/// Leaves the alternate screen and raw mode when dropped: on return, on error and on panic.
pub(crate) struct TerminalGuard;

impl TerminalGuard {
    pub(crate) fn enter() -> Result<TerminalGuard> {
        terminal::enable_raw_mode().context("the terminal will not enter raw mode")?;
        let guard = TerminalGuard;
        execute!(std::io::stdout(), terminal::EnterAlternateScreen, cursor::Hide)?;
        Ok(guard)
    }
}

impl Drop for TerminalGuard {
    fn drop(&mut self) {
        let _ = execute!(std::io::stdout(), SetForegroundColor(Color::Reset), SetBackgroundColor(Color::Reset));
        let _ = execute!(std::io::stdout(), cursor::Show, terminal::LeaveAlternateScreen);
        let _ = terminal::disable_raw_mode();
    }
}

/// The C128 key a terminal key stands for, as a `--keys` name or a character.
fn translate(key: KeyEvent) -> Option<String> {
    let named = |name: &str| Some(format!("{{{name}}}"));
    match key.code {
        KeyCode::Enter => named("RETURN"),
        KeyCode::Backspace | KeyCode::Delete => named("DEL"),
        KeyCode::Up => named("UP"),
        KeyCode::Down => named("DOWN"),
        KeyCode::Left => named("LEFT"),
        KeyCode::Right => named("RIGHT"),
        KeyCode::Home => named("HOME"),
        KeyCode::Esc => named("STOP"),
        KeyCode::Tab => named("TAB"),
        KeyCode::F(n @ 1..=8) => named(&format!("F{n}")),
        KeyCode::Char(c) => Some(c.to_string()),
        _ => None,
    }
}

pub(crate) fn is_quit(key: KeyEvent) -> bool {
    key.code == KeyCode::F(12) || (key.modifiers.contains(KeyModifiers::CONTROL) && key.code == KeyCode::Char('q'))
}

fn colour(rgb: [u8; 3]) -> Color {
    Color::Rgb { r: rgb[0], g: rgb[1], b: rgb[2] }
}

pub(crate) fn draw(out: &mut impl Write, grid: &[Vec<Cell>], status: &str) -> Result<()> {
    queue!(out, cursor::MoveTo(0, 0))?;
    let mut last: Option<([u8; 3], [u8; 3])> = None;
    for (row, line) in grid.iter().enumerate() {
        queue!(out, cursor::MoveTo(0, row as u16))?;
        for cell in line {
            if last != Some((cell.fg, cell.bg)) {
                queue!(out, SetForegroundColor(colour(cell.fg)), SetBackgroundColor(colour(cell.bg)))?;
                last = Some((cell.fg, cell.bg));
            }
            queue!(out, Print(cell.ch))?;
        }
        // The rest of the terminal's row: a screen of 40 columns after one of 80 would
        // otherwise leave the old right half standing.
        queue!(out, SetBackgroundColor(Color::Reset), terminal::Clear(terminal::ClearType::UntilNewLine))?;
        last = None;
    }
    let rows = grid.len();
    queue!(
        out,
        SetForegroundColor(Color::Reset),
        SetBackgroundColor(Color::Reset),
        cursor::MoveTo(0, rows as u16),
        Print(status)
    )?;
    out.flush()?;
    Ok(())
}

/// Plays `machine` (already started) until the program ends or the user quits. `screen`
/// forces one screen; otherwise the active one is shown. Returns the machine as it was left
/// (its disk, for the caller to keep what the program wrote).
pub fn play(mut machine: Machine, screen: Option<Screen>) -> Result<Machine> {
    use std::io::IsTerminal;
    if !std::io::stdout().is_terminal() || !std::io::stdin().is_terminal() {
        bail!("bac play needs a terminal; to run a program with scripted keys use `bac run FILE --keys ...`");
    }
    let (width, height) = terminal::size().unwrap_or((80, 26));
    let want = screen.unwrap_or(if machine.eighty_active() { Screen::Eighty } else { Screen::Forty });
    let need = if want == Screen::Eighty { 80 } else { 40 };
    if width < need || height < 26 {
        bail!("the terminal is {width}x{height}; the {need}-column screen needs {need}x26");
    }
    let frame = Duration::from_micros(if machine.config.standard == c128_emu::chips::vic::VideoStandard::Pal {
        20_000
    } else {
        16_667
    });
    let _guard = TerminalGuard::enter()?;
    let mut out = std::io::stdout();
    execute!(out, terminal::Clear(terminal::ClearType::All))?;
    let mut next = Instant::now();
    loop {
        while event::poll(next.saturating_duration_since(Instant::now()))? {
            if let Event::Key(key) = event::read()? {
                if key.kind == KeyEventKind::Release {
                    continue;
                }
                if is_quit(key) {
                    return Ok(machine);
                }
                let Some(text) = translate(key) else { continue };
                let press = if text.len() == 1 {
                    text.chars().next().and_then(char_press)
                } else {
                    parse_keys(&text).ok().and_then(|events| match events.into_iter().next() {
                        Some(C128Key::Press(press)) => Some(press),
                        _ => None,
                    })
                };
                // Appended, not pushed in front: keys typed within one frame keep their order.
                if let Some(press) = press {
                    machine.bus_mut().keyboard.type_events([C128Key::Press(press)]);
                }
            }
        }
        next += frame;
        if let Some(exit) = machine.run_frame().context("the program stopped")? {
            drop(_guard);
            println!("{}", machine.output_text());
            println!("The program ended with exit code {}.", exit.code);
            return Ok(machine);
        }
        let shown = screen.unwrap_or(if machine.eighty_active() { Screen::Eighty } else { Screen::Forty });
        draw(&mut out, &cells(machine.bus(), shown), "Ctrl+Q or F12 quits")?;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Issue 31: after the game went from 80 columns to 40, the terminal kept the old
    /// right half. Every row drawn now ends by clearing the rest of the terminal's line.
    #[test]
    fn a_narrower_screen_clears_what_a_wider_one_left() {
        let cell = Cell { ch: 'A', fg: [255, 255, 255], bg: [0, 0, 0] };
        let wide = vec![vec![cell; 80]; 25];
        let narrow = vec![vec![cell; 40]; 25];
        let mut out = Vec::new();
        draw(&mut out, &wide, "").unwrap();
        draw(&mut out, &narrow, "").unwrap();
        let text = String::from_utf8(out).unwrap();
        let second = &text[text.rfind("\x1b[1;1H").unwrap()..];
        let clears = second.matches("\x1b[K").count();
        assert_eq!(clears, 25, "each of the 25 rows is cleared past its 40 cells");
    }
}
