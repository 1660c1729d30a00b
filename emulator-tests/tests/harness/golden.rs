//! The golden pictures: `tests/golden/NAME` for every screen the tests hold still, compared
//! pixel for pixel. `BLESS=1` rewrites them; a missing or different one fails and leaves the
//! actual picture and a difference under the tests' target directory (`golden/`).

use std::path::{Path, PathBuf};

/// Where the golden pictures live (`docs/game.md` shows them, the README two of them).
pub fn path(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden").join(name)
}

/// Fails the test unless `img` is the golden picture `name`.
pub fn check(img: &image::RgbaImage, name: &str) {
    let diffs = Path::new(env!("CARGO_TARGET_TMPDIR")).join("golden");
    c128_emu::screenshot::compare_golden(img, &path(name), &diffs).unwrap_or_else(|e| panic!("{name}: {e}"));
}
