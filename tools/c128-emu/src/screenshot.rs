//! Screenshots: the 40-column VIC text screen (with its border) or the 80-column VDC screen,
//! drawn from the character set the program installed or, when it uses the standard one,
//! from the built-in font; written as PNG through the `image` crate.

use std::path::Path;

use image::{Rgba, RgbaImage};
use thiserror::Error;

use crate::bus::C128Bus;

/// Which screen to draw.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Screen {
    /// The VIC-IIe's 40 x 25 text screen.
    Forty,
    /// The VDC's 80 x 25 text screen.
    Eighty,
}

/// Border width around the 40-column picture, in pixels.
pub const BORDER: u32 = 32;

/// The VIC's 16 colours (approximate RGB values of a real VIC-II).
pub const VIC_PALETTE: [[u8; 3]; 16] = [
    [0x00, 0x00, 0x00],
    [0xFF, 0xFF, 0xFF],
    [0x88, 0x39, 0x32],
    [0x67, 0xB6, 0xBD],
    [0x8B, 0x3F, 0x96],
    [0x55, 0xA0, 0x49],
    [0x40, 0x31, 0x8D],
    [0xBF, 0xCE, 0x72],
    [0x8B, 0x54, 0x29],
    [0x57, 0x42, 0x00],
    [0xB8, 0x69, 0x62],
    [0x50, 0x50, 0x50],
    [0x78, 0x78, 0x78],
    [0x94, 0xE0, 0x89],
    [0x78, 0x69, 0xC4],
    [0x9F, 0x9F, 0x9F],
];

/// The VDC's 16 RGBI colours, indexed by the RGBI nibble (R = 8, G = 4, B = 2, I = 1).
pub const RGBI_PALETTE: [[u8; 3]; 16] = [
    [0x00, 0x00, 0x00],
    [0x55, 0x55, 0x55],
    [0x00, 0x00, 0xAA],
    [0x55, 0x55, 0xFF],
    [0x00, 0xAA, 0x00],
    [0x55, 0xFF, 0x55],
    [0x00, 0xAA, 0xAA],
    [0x55, 0xFF, 0xFF],
    [0xAA, 0x00, 0x00],
    [0xFF, 0x55, 0x55],
    [0xAA, 0x00, 0xAA],
    [0xFF, 0x55, 0xFF],
    [0xAA, 0x55, 0x00],
    [0xFF, 0xFF, 0x55],
    [0xAA, 0xAA, 0xAA],
    [0xFF, 0xFF, 0xFF],
];

fn px(rgb: [u8; 3]) -> Rgba<u8> {
    Rgba([rgb[0], rgb[1], rgb[2], 0xFF])
}

/// Draws the 40-column screen: 320 x 200 plus a [`BORDER`]-pixel border, in the mode the
/// VIC is in: standard, multicolour or extended-colour text, hires or multicolour bitmap,
/// with sprites on top (or behind foreground pixels, per $D01B). Collisions are not
/// modelled.
pub fn render_40(bus: &C128Bus) -> RgbaImage {
    let regs = &bus.vic.regs;
    let colour = |c: u8| px(VIC_PALETTE[usize::from(c & 0x0F)]);
    let mut img = RgbaImage::from_pixel(320 + 2 * BORDER, 200 + 2 * BORDER, colour(regs[0x20]));
    if regs[0x11] & 0x10 == 0 {
        // Display blanked ($D011 bit 4): only the border colour shows.
        return img;
    }
    let bitmap = regs[0x11] & 0x20 != 0;
    let extended = regs[0x11] & 0x40 != 0;
    let multi = regs[0x16] & 0x10 != 0;
    let screen = bus.vic.screen_base();
    let chars = bus.vic.charset_base();
    let bitmap_base = u16::from(regs[0x18] & 0x08) * 0x400;
    // Foreground pixels, for sprites drawn behind the picture.
    let mut foreground = vec![false; 320 * 200];
    for row in 0..25u16 {
        for col in 0..40u16 {
            let cell = row * 40 + col;
            let code = bus.vic_fetch(screen + cell);
            let cram = bus.colour(cell) & 0x0F;
            for line in 0..8u16 {
                // Each pixel pair or pixel resolves to a colour number.
                let mut pixels = [0u8; 8];
                // Whether each pixel is foreground, which hides a sprite behind the
                // picture: by its bits (set, or the pairs 10 and 11 in multicolour), not
                // by its colour, so black ink on a black screen still covers the sprite.
                let mut front = [false; 8];
                if bitmap {
                    let bits = bus.vic_fetch(bitmap_base + cell * 8 + line);
                    for (x, p) in pixels.iter_mut().enumerate() {
                        front[x] = if multi { (bits >> (6 - (x & !1))) & 2 != 0 } else { bits & (0x80 >> x) != 0 };
                        *p = if multi {
                            match (bits >> (6 - (x & !1))) & 3 {
                                0 => regs[0x21],
                                1 => code >> 4,
                                2 => code,
                                _ => cram,
                            }
                        } else if bits & (0x80 >> x) != 0 {
                            code >> 4
                        } else {
                            code
                        };
                    }
                } else {
                    let glyph = if extended { code & 0x3F } else { code };
                    let bits = bus.vic_fetch(chars + u16::from(glyph) * 8 + line);
                    let background = if extended { regs[0x21 + usize::from(code >> 6)] } else { regs[0x21] };
                    for (x, p) in pixels.iter_mut().enumerate() {
                        front[x] = if multi && !extended && cram & 0x08 != 0 {
                            (bits >> (6 - (x & !1))) & 2 != 0
                        } else {
                            bits & (0x80 >> x) != 0
                        };
                        *p = if multi && !extended && cram & 0x08 != 0 {
                            match (bits >> (6 - (x & !1))) & 3 {
                                0 => regs[0x21],
                                1 => regs[0x22],
                                2 => regs[0x23],
                                _ => cram & 0x07,
                            }
                        } else if bits & (0x80 >> x) != 0 {
                            cram
                        } else {
                            background
                        };
                    }
                }
                for (x, &c) in pixels.iter().enumerate() {
                    let (px_x, px_y) = (usize::from(col * 8) + x, usize::from(row * 8 + line));
                    foreground[px_y * 320 + px_x] = front[x];
                    img.put_pixel(BORDER + px_x as u32, BORDER + px_y as u32, colour(c));
                }
            }
        }
    }
    draw_sprites(bus, &mut img, &foreground);
    img
}

/// Draws the enabled sprites, sprite 0 on top.
fn draw_sprites(bus: &C128Bus, img: &mut RgbaImage, foreground: &[bool]) {
    let regs = &bus.vic.regs;
    let colour = |c: u8| px(VIC_PALETTE[usize::from(c & 0x0F)]);
    for n in (0..8usize).rev() {
        let bit = 1u8 << n;
        if regs[0x15] & bit == 0 {
            continue;
        }
        let x0 = i32::from(regs[n * 2]) + if regs[0x10] & bit != 0 { 256 } else { 0 };
        let y0 = i32::from(regs[n * 2 + 1]);
        let pointer = bus.vic_fetch(bus.vic.screen_base() + 0x3F8 + n as u16);
        let data = u16::from(pointer) * 64;
        let multi = regs[0x1C] & bit != 0;
        let wide = if regs[0x1D] & bit != 0 { 2 } else { 1 };
        let tall = if regs[0x17] & bit != 0 { 2 } else { 1 };
        let behind = regs[0x1B] & bit != 0;
        for line in 0..21i32 {
            let row = [0u16, 1, 2].map(|b| bus.vic_fetch(data + line as u16 * 3 + b));
            let bits = (u32::from(row[0]) << 16) | (u32::from(row[1]) << 8) | u32::from(row[2]);
            for x in 0..24i32 {
                let c = if multi {
                    match (bits >> (22 - (x & !1))) & 3 {
                        0 => continue,
                        1 => regs[0x25],
                        2 => regs[0x27 + n],
                        _ => regs[0x26],
                    }
                } else if bits & (1 << (23 - x)) != 0 {
                    regs[0x27 + n]
                } else {
                    continue;
                };
                for dy in 0..tall {
                    for dx in 0..wide {
                        // Sprite X 24 and Y 50 are the top left of the text area.
                        let sx = x0 - 24 + x * wide + dx;
                        let sy = y0 - 50 + line * tall + dy;
                        let (ix, iy) = (sx + BORDER as i32, sy + BORDER as i32);
                        if ix < 0 || iy < 0 || ix >= img.width() as i32 || iy >= img.height() as i32 {
                            continue;
                        }
                        let in_text = (0..320).contains(&sx) && (0..200).contains(&sy);
                        if behind && in_text && foreground[sy as usize * 320 + sx as usize] {
                            continue;
                        }
                        img.put_pixel(ix as u32, iy as u32, colour(c));
                    }
                }
            }
        }
    }
}

/// The colour of the top-most sprite pixel at (`x`, `y`) of the 320 x 200 text area, if
/// any sprite shows there (as [`render_40`] draws them, priority aside).
pub fn sprite_at(bus: &C128Bus, x: i32, y: i32) -> Option<u8> {
    let regs = &bus.vic.regs;
    (0..8usize).find_map(|n| {
        let bit = 1u8 << n;
        if regs[0x15] & bit == 0 {
            return None;
        }
        let x0 = i32::from(regs[n * 2]) + if regs[0x10] & bit != 0 { 256 } else { 0 } - 24;
        let y0 = i32::from(regs[n * 2 + 1]) - 50;
        let wide = if regs[0x1D] & bit != 0 { 2 } else { 1 };
        let tall = if regs[0x17] & bit != 0 { 2 } else { 1 };
        let (px, line) = ((x - x0).div_euclid(wide), (y - y0).div_euclid(tall));
        if !(0..24).contains(&px) || !(0..21).contains(&line) {
            return None;
        }
        let pointer = bus.vic_fetch(bus.vic.screen_base() + 0x3F8 + n as u16);
        let byte = bus.vic_fetch(u16::from(pointer) * 64 + line as u16 * 3 + (px / 8) as u16);
        if regs[0x1C] & bit != 0 {
            match (byte >> (6 - (px & 6))) & 3 {
                0 => None,
                1 => Some(regs[0x25]),
                2 => Some(regs[0x27 + n]),
                _ => Some(regs[0x26]),
            }
        } else if byte & (0x80 >> (px & 7)) != 0 {
            Some(regs[0x27 + n])
        } else {
            None
        }
    })
}

/// Draws the 80-column screen: 640 x 200 from VDC RAM (display, attributes, character set).
pub fn render_80(bus: &C128Bus) -> RgbaImage {
    let vdc = &bus.vdc;
    let (cols, rows) = vdc.size();
    let (cols, rows) = (cols.clamp(1, 80), rows.clamp(1, 25));
    let (fg_default, bg) = vdc.colours();
    let background = px(RGBI_PALETTE[usize::from(bg)]);
    let mut img = RgbaImage::from_pixel(u32::from(cols) * 8, u32::from(rows) * 8, background);
    let stride = vdc.char_stride();
    for row in 0..rows {
        for col in 0..cols {
            let cell = row * cols + col;
            let code = vdc.peek(vdc.display_start().wrapping_add(cell));
            let attr =
                if vdc.attributes_enabled() { vdc.peek(vdc.attribute_start().wrapping_add(cell)) } else { fg_default };
            let colour = px(RGBI_PALETTE[usize::from(attr & 0x0F)]);
            let base = vdc
                .charset_start()
                .wrapping_add(if attr & 0x80 != 0 { 256 * stride } else { 0 })
                .wrapping_add(u16::from(code) * stride);
            for line in 0..8u16 {
                let mut bits = vdc.peek(base.wrapping_add(line));
                if attr & 0x20 != 0 && line == 7 {
                    bits = 0xFF;
                }
                if attr & 0x40 != 0 {
                    bits = !bits;
                }
                for x in 0..8u16 {
                    if bits & (0x80 >> x) != 0 {
                        img.put_pixel(u32::from(col * 8 + x), u32::from(row * 8 + line), colour);
                    }
                }
            }
        }
    }
    img
}

/// Draws one screen.
pub fn render(bus: &C128Bus, screen: Screen) -> RgbaImage {
    match screen {
        Screen::Forty => render_40(bus),
        Screen::Eighty => render_80(bus),
    }
}

/// A screenshot that could not be written.
#[derive(Debug, Error)]
pub enum ScreenshotError {
    /// Encoding or writing the PNG failed.
    #[error("cannot write screenshot {path}: {source}")]
    Write {
        /// The destination.
        path: String,
        /// What failed.
        source: image::ImageError,
    },
    /// Moving the finished file into place failed.
    #[error("cannot move screenshot into place at {path}: {source}")]
    Rename {
        /// The destination.
        path: String,
        /// What failed.
        source: std::io::Error,
    },
}

/// Writes `img` as a PNG at `path`, through a temporary file renamed into place.
pub fn save_png(img: &RgbaImage, path: &Path) -> Result<(), ScreenshotError> {
    let shown = path.display().to_string();
    let dir = path.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
    let rename = |source| ScreenshotError::Rename { path: shown.clone(), source };
    let mut tmp = tempfile::NamedTempFile::new_in(dir).map_err(rename)?;
    img.write_to(&mut std::io::BufWriter::new(tmp.as_file_mut()), image::ImageFormat::Png)
        .map_err(|source| ScreenshotError::Write { path: shown.clone(), source })?;
    tmp.persist(path).map(drop).map_err(|e| rename(e.error))
}

/// A screenshot that differs from its golden image.
#[derive(Debug, Error)]
pub enum GoldenError {
    /// The pictures differ; the actual image and a difference image were written to the
    /// caller's directory for differences.
    #[error(
        "screenshot differs from {golden} in {pixels} pixels; see {actual} and {diff} \
         (set BLESS=1 to accept it)"
    )]
    Mismatch {
        /// The golden file.
        golden: String,
        /// How many pixels differ (all of them when the sizes differ).
        pixels: usize,
        /// Where the actual image was written.
        actual: String,
        /// Where the difference (changed pixels in magenta) was written.
        diff: String,
    },
    /// There is no golden file: a new picture is accepted only on purpose.
    #[error("no golden image {golden}; the actual picture is {actual} (set BLESS=1 to accept it)")]
    Missing {
        /// The golden file looked for.
        golden: String,
        /// Where the actual image was written.
        actual: String,
    },
    /// The folder for the actual and difference pictures cannot be made.
    #[error("cannot create {path} for the failed comparison's pictures: {source}")]
    Folder {
        /// The folder.
        path: String,
        /// What failed.
        source: std::io::Error,
    },
    /// The golden file exists but cannot be read as an image.
    #[error("cannot read golden image {path}: {source}")]
    Read {
        /// The golden file.
        path: String,
        /// What failed.
        source: image::ImageError,
    },
    /// Writing an image failed.
    #[error(transparent)]
    Write(#[from] ScreenshotError),
}

fn make_folder(dir: &Path) -> Result<(), GoldenError> {
    std::fs::create_dir_all(dir).map_err(|source| GoldenError::Folder { path: dir.display().to_string(), source })
}

/// Compares `img` with the golden PNG at `golden`. With `BLESS` set in the environment `img`
/// becomes the golden image. A missing golden image fails like a different one (a picture
/// nobody looked at is not a golden one), and what a failure leaves, the actual picture and
/// a difference image, goes to `diffs` (under the build's target directory, never beside
/// the golden files).
pub fn compare_golden(img: &RgbaImage, golden: &Path, diffs: &Path) -> Result<(), GoldenError> {
    if std::env::var_os("BLESS").is_some() {
        return Ok(save_png(img, golden)?);
    }
    let shown = golden.display().to_string();
    let stem = golden.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_else(|| "screen".into());
    let actual = diffs.join(format!("{stem}.actual.png"));
    if !golden.exists() {
        make_folder(diffs)?;
        save_png(img, &actual)?;
        return Err(GoldenError::Missing { golden: shown, actual: actual.display().to_string() });
    }
    let want = image::open(golden).map_err(|source| GoldenError::Read { path: shown.clone(), source })?.to_rgba8();
    let pixels = if want.dimensions() == img.dimensions() {
        want.pixels().zip(img.pixels()).filter(|(a, b)| a != b).count()
    } else {
        (img.width() * img.height()) as usize
    };
    if pixels == 0 {
        return Ok(());
    }
    let diff_path = diffs.join(format!("{stem}.diff.png"));
    make_folder(diffs)?;
    save_png(img, &actual)?;
    let diff = RgbaImage::from_fn(img.width(), img.height(), |x, y| {
        let a = img.get_pixel(x, y);
        let same = x < want.width() && y < want.height() && want.get_pixel(x, y) == a;
        if same { Rgba([a[0] / 3, a[1] / 3, a[2] / 3, 255]) } else { Rgba([255, 0, 255, 255]) }
    });
    save_png(&diff, &diff_path)?;
    Err(GoldenError::Mismatch {
        golden: shown,
        pixels,
        actual: actual.display().to_string(),
        diff: diff_path.display().to_string(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chips::vic::VideoStandard;

    fn rgba(rgb: [u8; 3]) -> Rgba<u8> {
        px(rgb)
    }

    #[test]
    fn vdc_attributes_reverse_underline_and_alternate_set() {
        let mut bus = C128Bus::new(VideoStandard::Pal, 16, true, 0);
        // Cell 0: 'A' reversed in light red; cell 1: 'A' underlined in white; cell 2: 'A'
        // from the alternate (lower-case) set, which is 'a'.
        for (i, attr) in [(0u16, 0x40 | 0x09), (1, 0x20 | 0x0F), (2, 0x80 | 0x0F)] {
            bus.vdc.poke(i, 1);
            bus.vdc.poke(0x0800 + i, attr);
        }
        let img = render_80(&bus);
        let black = rgba(RGBI_PALETTE[0]);
        assert_eq!(*img.get_pixel(0, 0), rgba(RGBI_PALETTE[9]), "reverse: background lit");
        assert_eq!(*img.get_pixel(2, 0), black, "reverse: glyph dark");
        assert!((8..16).all(|x| *img.get_pixel(x, 7) == rgba(RGBI_PALETTE[15])), "underline");
        // The upper-case 'A' has its top row lit, the lower-case 'a' does not.
        assert_eq!(*img.get_pixel(10, 0), rgba(RGBI_PALETTE[15]));
        assert!((16..24).all(|x| *img.get_pixel(x, 0) == black));
    }
}
