// Whether VICE's own screenshots can be read: every non-blank character cell's ink against
// its paper, as WCAG 2 measures contrast (the relative luminance of sRGB colours, the ratio
// (L1 + 0.05) / (L2 + 0.05)), must reach 4.5:1, the usual floor for text. The harness test
// `contrast::` holds our golden screens to the same floor with VICE's palette values; this
// measures the colours VICE really put on its frames, so a palette we misread cannot hide.
//
// Assumes each cell's paper is its own commonest colour, as cells.mjs reads it: the screen's
// background for text on the cloth, white under a card's face (a sprite behind the text in
// 40 columns, reversed white cells in 80), the ink of reversed text. A cell of one colour
// only (a reversed space, a face's empty cell, the cursor) has nothing to read and is not
// measured.
import { readGrid } from "./cells.mjs";

/** The floor for text (WCAG 2, level AA). */
export const FLOOR = 4.5;

/** WCAG 2's relative luminance of an sRGB colour given as 0xRRGGBB. */
export function luminance(rgb) {
  const linear = (byte) => {
    const c = byte / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * linear((rgb >> 16) & 0xff) + 0.7152 * linear((rgb >> 8) & 0xff) + 0.0722 * linear(rgb & 0xff);
}

/** WCAG 2's contrast ratio of two colours, from 1 (the same) to 21 (black on white). */
export function contrast(a, b) {
  const [la, lb] = [luminance(a), luminance(b)];
  return (Math.max(la, lb) + 0.05) / (Math.min(la, lb) + 0.05);
}

const hex = (rgb) => `#${rgb.toString(16).padStart(6, "0").toUpperCase()}`;

/**
 * Measures every non-blank cell of a frame: returns { lowest, at, bad }, where `lowest` is
 * the lowest ratio found (null on a screen with no measured cell), `at` names that cell,
 * and `bad` names every cell below FLOOR: its row and column, its text read with `glyphs`
 * (a map from cell key to character; "?" where it has none) and both colours.
 */
export function measureContrast(img, layout, glyphs = new Map()) {
  const grid = readGrid(img, layout);
  let lowest = null;
  let at = null;
  const bad = [];
  for (let row = 0; row < layout.rows; row++) {
    for (let col = 0; col < layout.cols; col++) {
      const key = grid.cells[row * layout.cols + col];
      if (key === "" || !key.includes("0")) continue;
      const paper = grid.papers[row * layout.cols + col];
      const inks = new Set();
      for (let y = 0; y < 8; y++) {
        for (let x = 0; x < 8; x++) {
          const o = ((layout.y + row * 8 + y) * img.width + layout.x + col * 8 + x) * 4;
          const c = (img.data[o] << 16) | (img.data[o + 1] << 8) | img.data[o + 2];
          if (c !== paper) inks.add(c);
        }
      }
      const text = glyphs.get(key) ?? "?";
      for (const ink of inks) {
        const ratio = contrast(ink, paper);
        const name = `row ${row} column ${col} "${text}": ink ${hex(ink)} on paper ${hex(paper)} is ${ratio.toFixed(2)}:1`;
        if (lowest === null || ratio < lowest) [lowest, at] = [ratio, name];
        if (ratio < FLOOR) bad.push(name);
      }
    }
  }
  return { lowest, at, bad };
}
