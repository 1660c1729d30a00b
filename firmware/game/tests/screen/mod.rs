//! A screen for the tests that draw: it remembers each cell's code and colour, and the
//! card faces laid, and does nothing else.

use bac_game::platform::{self, Colour, DiskError, Sound};
use bac_game::text::Lang;

/// A screen that remembers each cell's code and colour, and the faces laid.
pub struct Screen {
    cols: u8,
    cells: Vec<Vec<Option<(u8, Colour)>>>,
    pub faces: Vec<(u8, Option<(u8, u8)>)>,
}

impl Screen {
    pub fn new(cols: u8) -> Screen {
        Screen { cols, cells: vec![vec![None; usize::from(cols)]; 25], faces: Vec::new() }
    }

    pub fn at(&self, x: u8, y: u8) -> Option<(u8, Colour)> {
        self.cells[usize::from(y)][usize::from(x)]
    }
}

impl platform::Screen for Screen {
    fn columns(&self) -> u8 {
        self.cols
    }

    fn set_columns(&mut self, columns: u8, _background: Colour) {
        *self = Screen::new(columns);
    }

    fn put(&mut self, x: u8, y: u8, code: u8, colour: Colour) {
        if x < self.cols && y < 25 {
            self.cells[usize::from(y)][usize::from(x)] = Some((code, colour));
        }
    }

    fn fill(&mut self, x: u8, y: u8, w: u8, h: u8, code: u8, colour: Colour) {
        for yy in y..y + h {
            for xx in x..x + w {
                self.put(xx, yy, code, colour);
            }
        }
    }

    fn card_paper(&mut self, slot: u8, at: Option<(u8, u8)>) {
        self.faces.push((slot, at));
    }
}

impl platform::Keys for Screen {
    fn key(&mut self) -> Option<u8> {
        None
    }

    fn hurry(&mut self) -> bool {
        false
    }
}

impl platform::Clock for Screen {
    fn frame(&mut self) {}

    fn clock(&self) -> u8 {
        0
    }

    fn ticks(&self) -> u32 {
        0
    }
}

impl platform::Speaker for Screen {
    fn sound(&mut self, _sound: Sound) {}
}

impl platform::Storage for Screen {
    fn read(&mut self, _name: &[u8], _buf: &mut [u8]) -> Result<usize, DiskError> {
        Err(DiskError::NotFound)
    }

    fn write(&mut self, _name: &[u8], _data: &[u8]) -> Result<(), DiskError> {
        Err(DiskError::NoDevice)
    }

    fn scratch(&mut self, _name: &[u8]) -> Result<(), DiskError> {
        Err(DiskError::NoDevice)
    }

    fn rename(&mut self, _from: &[u8], _to: &[u8]) -> Result<(), DiskError> {
        Err(DiskError::NoDevice)
    }

    fn open_help(&mut self, _lang: Lang) -> Result<(), DiskError> {
        Err(DiskError::NotFound)
    }

    fn help_byte(&mut self) -> Option<u8> {
        None
    }

    fn close_help(&mut self) {}
}

impl platform::Witness for Screen {
    fn settled(&mut self, _coups: u16, _before: u32, _after: u32) {}
}
