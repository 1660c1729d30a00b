// Reading a C128 text screen from a picture, cell by cell, in a way that works across fonts:
// VICE draws the Commodore character ROM, `bac run` its own font (tools/c128-emu/src/font.rs).
// Each side is read with its own glyphs; the texts are then compared per cell.
import fs from "node:fs";

/** Where the 8 x 8 cells are in each picture (x, y of cell 0,0; columns; rows). */
export const LAYOUTS = {
  // VICE's core frame (the libretro screenshot, not the stretched canvas): 384 x 272 with
  // the VIC-IIe's 320 x 200 text area at (32, 35).
  vice40: { width: 384, height: 272, x: 32, y: 35, cols: 40, rows: 25 },
  // 856 x 288 with the VDC's 640 x 200 text area at (112, 39).
  vice80: { width: 856, height: 288, x: 112, y: 39, cols: 80, rows: 25 },
  // `bac run --screenshot --40`: 320 x 200 with a 32-pixel border.
  bac40: { width: 384, height: 264, x: 32, y: 32, cols: 40, rows: 25 },
  // `bac run --screenshot --80`: the 640 x 200 VDC screen, no border.
  bac80: { width: 640, height: 200, x: 0, y: 0, cols: 80, rows: 25 },
};

/** The KERNAL's power-on banner: fixed text, used to learn VICE's glyphs. */
export const BANNER = [
  "COMMODORE BASIC V7.0 122365 BYTES FREE",
  "(C)1986 COMMODORE ELECTRONICS, LTD.",
  "(C)1977 MICROSOFT CORP.",
  "ALL RIGHTS RESERVED",
];

const rgb = (img, x, y) => {
  const o = (y * img.width + x) * 4;
  return (img.data[o] << 16) | (img.data[o + 1] << 8) | img.data[o + 2];
};

/** Fails unless the picture shows more than one colour and is not all black. */
export function notBlank(img, what) {
  const colours = new Set();
  let lit = 0;
  for (let y = 0; y < img.height; y += 1) {
    for (let x = 0; x < img.width; x += 1) {
      const c = rgb(img, x, y);
      colours.add(c);
      if (c !== 0) lit += 1;
    }
  }
  if (colours.size < 2 || lit === 0) {
    throw new Error(`${what} is blank (${colours.size} colour(s), ${lit} non-black pixels)`);
  }
}

/**
 * Cuts the picture into cells. The background is the commonest colour of the text area.
 * A cell's paper is its own commonest colour: the screen's background for text on the
 * cloth; white for ink on a card's face (a sprite behind the text in 40 columns, reversed
 * cells in 80), as for reversed text. A cell's key is its 64 pixels as 0 (paper) or 1
 * (anything else), after an "r" when the paper is not the background (so reversed text
 * differs from plain, whatever its colours); a cell on the background with no other pixel
 * is blank, "" (whatever the font). The keys depend on the pixels' pattern, not on their
 * colours, so a glyph reads the same on the cloth and on a face.
 */
export function readGrid(img, layout) {
  if (img.width !== layout.width || img.height !== layout.height) {
    throw new Error(`picture is ${img.width} x ${img.height}, expected ${layout.width} x ${layout.height}`);
  }
  const counts = new Map();
  for (let y = layout.y; y < layout.y + layout.rows * 8; y++) {
    for (let x = layout.x; x < layout.x + layout.cols * 8; x++) {
      const c = rgb(img, x, y);
      counts.set(c, (counts.get(c) || 0) + 1);
    }
  }
  const background = [...counts].sort((a, b) => b[1] - a[1])[0][0];
  const cells = [];
  const papers = [];
  for (let row = 0; row < layout.rows; row++) {
    for (let col = 0; col < layout.cols; col++) {
      const x0 = layout.x + col * 8;
      const y0 = layout.y + row * 8;
      const here = new Map();
      for (let y = 0; y < 8; y++) {
        for (let x = 0; x < 8; x++) {
          const c = rgb(img, x0 + x, y0 + y);
          here.set(c, (here.get(c) || 0) + 1);
        }
      }
      const most = Math.max(...here.values());
      const tied = [...here].filter(([, n]) => n === most).map(([c]) => c);
      // A tie (a glyph of 32 pixels, such as the diamond) takes the background if it is
      // one of the two, else the top left pixel's colour (a glyph's paper), and is not
      // marked: so the diamond on a card's face has the key of the diamond on the cloth.
      const paper = tied.length === 1 ? tied[0] : tied.includes(background) ? background : rgb(img, x0, y0);
      const marked = tied.length === 1 && paper !== background;
      let key = "";
      let any = false;
      for (let y = 0; y < 8; y++) {
        for (let x = 0; x < 8; x++) {
          const on = rgb(img, x0 + x, y0 + y) !== paper;
          key += on ? "1" : "0";
          any ||= on;
        }
      }
      cells.push(marked ? `r${key}` : any ? key : "");
      papers.push(paper);
    }
  }
  return { cols: layout.cols, rows: layout.rows, cells, background, papers };
}

/**
 * Our font's glyphs for letters, digits and punctuation (screen codes 0-63), from the
 * `TEXT` table of `firmware/glyphs/src/lib.rs` (bac-glyphs, which our emulator draws
 * with): lines `"ART", // 0xNN C`, 5 x 7 pixels drawn in columns 1-5, rows 0-6 of the
 * cell. A map from cell key to character.
 */
export function ourGlyphs(glyphsRs) {
  const source = fs.readFileSync(glyphsRs, "utf8");
  const text = source.slice(source.indexOf("const TEXT"), source.indexOf("];", source.indexOf("const TEXT")));
  const table = new Map();
  for (const m of text.matchAll(/"([#./]+)", \/\/ 0x[0-9a-f]{2} (\S)/g)) {
    const rows = m[1].split("/");
    let key = "";
    for (let y = 0; y < 8; y++) {
      for (let x = 0; x < 8; x++) key += rows[y] && rows[y][x - 1] === "#" ? "1" : "0";
    }
    table.set(key, m[2]);
  }
  if (table.size < 60) throw new Error(`read only ${table.size} glyphs from ${glyphsRs}`);
  return table;
}

/**
 * Reads a grid with a glyph table: one string per row; blank cells are spaces, unknown
 * glyphs "?"; a glyph on a paper of its own (a card's face, reversed text) reads as itself,
 * and that paper alone as a space.
 */
export function readText(grid, glyphs) {
  const lines = [];
  for (let row = 0; row < grid.rows; row++) {
    let line = "";
    for (let col = 0; col < grid.cols; col++) {
      const key = grid.cells[row * grid.cols + col];
      const bits = key.startsWith("r") ? key.slice(1) : key;
      line += !bits.includes("1") ? " " : glyphs.get(key) ?? glyphs.get(bits) ?? "?";
    }
    lines.push(line.replace(/ +$/, ""));
  }
  return lines;
}

/**
 * Learns VICE's glyphs from lines of known text: each line is looked for in every row at
 * every column where the row's non-blank cells are exactly the line's non-space characters.
 * Returns the map from cell key to character; throws if a glyph would mean two characters
 * or a character would have two glyphs, or a line is not found.
 */
export function learnGlyphs(grid, knownLines) {
  const glyphs = new Map();
  const byChar = new Map();
  for (const text of knownLines) {
    let found = false;
    for (let row = 0; row < grid.rows && !found; row++) {
      for (let col = 0; col + text.length <= grid.cols && !found; col++) {
        let fits = true;
        for (let c = 0; c < grid.cols && fits; c++) {
          const ch = c >= col && c < col + text.length ? text[c - col] : " ";
          fits = (grid.cells[row * grid.cols + c] === "") === (ch === " ");
        }
        if (!fits) continue;
        found = true;
        for (let i = 0; i < text.length; i++) {
          if (text[i] === " ") continue;
          const key = grid.cells[row * grid.cols + col + i];
          if (glyphs.has(key) && glyphs.get(key) !== text[i]) {
            throw new Error(`VICE glyph at row ${row} column ${col + i} reads as both "${glyphs.get(key)}" and "${text[i]}"`);
          }
          if (byChar.has(text[i]) && byChar.get(text[i]) !== key) {
            throw new Error(`"${text[i]}" has two different glyphs on VICE's screen`);
          }
          glyphs.set(key, text[i]);
          byChar.set(text[i], key);
        }
      }
    }
    if (!found) throw new Error(`the line "${text}" is not on VICE's screen`);
  }
  return glyphs;
}

/**
 * Finds our screen's text block (rows 0..n-1, n = our last non-blank row + 1) on VICE's
 * screen at some row offset d, cell by cell: the same cells are blank; a VICE glyph learnt
 * from known text reads as our character; every other VICE glyph stands for exactly one of
 * our characters and no character has two VICE glyphs (so "4" may be a glyph the banner
 * never showed, but must be the same glyph at every "4" and differ from every other
 * character's). Returns every offset that fits, with the glyphs it taught.
 */
export function alignBlock(vice, viceGlyphs, ours, ourText) {
  if (vice.cols !== ours.cols) throw new Error(`VICE has ${vice.cols} columns, ours ${ours.cols}`);
  let n = 0;
  for (let row = 0; row < ours.rows; row++) if (ourText[row] !== "") n = row + 1;
  if (n === 0) throw new Error("our runner's screen is empty");
  const fits = [];
  for (let d = 0; d + n <= vice.rows; d++) {
    const learnt = new Map(viceGlyphs);
    const byChar = new Map([...viceGlyphs].map(([k, c]) => [c, k]));
    let ok = true;
    for (let row = 0; row < n && ok; row++) {
      for (let col = 0; col < ours.cols && ok; col++) {
        const ch = (ourText[row][col] ?? " ");
        const key = vice.cells[(d + row) * vice.cols + col];
        if ((key === "") !== (ch === " ")) ok = false;
        else if (key !== "") {
          if (learnt.has(key)) ok = learnt.get(key) === ch;
          else if (byChar.has(ch)) ok = false;
          else {
            learnt.set(key, ch);
            byChar.set(ch, key);
          }
        }
      }
    }
    if (ok) fits.push({ offset: d, rows: n, glyphs: learnt });
  }
  return fits;
}

/**
 * Reads which cells are non-blank on the canvas screenshot. The canvas shows the core's
 * frame stretched to the aspect ratio the core reports (`aspect`, width over height), as
 * large as fits and centred, by factors that are not whole numbers (the 40-column 384 x 272
 * frame fills 1280 x 460 of the 1280 x 800 canvas, the 80-column 856 x 288 one 1096 x 800),
 * so its pixels cannot be read back one for one, and the scaling smears ink into the
 * neighbouring canvas pixels. Each cell of the frame's layout is mapped onto the canvas
 * and is non-blank if any canvas pixel inside it, one frame pixel in from each edge, is not
 * the cell's paper on the frame (see readGrid).
 */
export function canvasCells(canvas, frame, layout, aspect) {
  const { papers } = readGrid(frame, layout);
  let w = canvas.width, h = canvas.height;
  if (w / h > aspect) w = Math.round(h * aspect);
  else h = Math.round(w / aspect);
  const sx = w / frame.width, sy = h / frame.height;
  const ox = (canvas.width - w) / 2, oy = (canvas.height - h) / 2;
  const cells = [];
  for (let row = 0; row < layout.rows; row++) {
    for (let col = 0; col < layout.cols; col++) {
      const fx = layout.x + col * 8, fy = layout.y + row * 8;
      const x0 = Math.ceil(ox + (fx + 1) * sx), x1 = Math.floor(ox + (fx + 7) * sx) - 1;
      const y0 = Math.ceil(oy + (fy + 1) * sy), y1 = Math.floor(oy + (fy + 7) * sy) - 1;
      let ink = false;
      for (let y = Math.max(0, y0); y <= Math.min(canvas.height - 1, y1) && !ink; y++) {
        for (let x = Math.max(0, x0); x <= Math.min(canvas.width - 1, x1) && !ink; x++) {
          ink = rgb(canvas, x, y) !== papers[row * layout.cols + col];
        }
      }
      cells.push(ink);
    }
  }
  return { cols: layout.cols, rows: layout.rows, cells, scale: { sx, sy, ox, oy } };
}

/** How many frame pixels in from each edge of a cell its core starts (see compareCanvas). */
const CORE = 2;

/**
 * The cells whose blankness differs between the frame's grid and the canvas's, as
 * "row R column C": a blank frame cell must be blank on the canvas, a cell with ink in its
 * core (the cell without its two outermost pixels on each side) must not be; a cell with
 * ink only near its edges (lines at a cell's side, in the graphics characters) is not
 * compared, as the scaling may or may not smear it inside the part canvasCells reads.
 */
export function compareCanvas(grid, canvasGrid) {
  const differ = [];
  for (let i = 0; i < grid.cells.length; i++) {
    const key = grid.cells[i];
    const bits = key.startsWith("r") ? key.slice(1) : key;
    let core = false;
    for (let y = CORE; y < 8 - CORE && key; y++) for (let x = CORE; x < 8 - CORE; x++) core ||= bits[y * 8 + x] === "1";
    if (key !== "" && !core) continue;
    if (core !== canvasGrid.cells[i]) differ.push(`row ${Math.floor(i / grid.cols)} column ${i % grid.cols}`);
  }
  return differ;
}

/**
 * What screen codes 0-63 show, in order: the first two rows of the platform program's
 * glyph table (`emulator-tests/programs/platform`), which shows every code, 32 to a row,
 * from row 10. Code 32 is the space.
 */
export const GLYPH_TABLE_TEXT = "@ABCDEFGHIJKLMNOPQRSTUVWXYZ[£]↑← !\"#$%&'()*+,-./0123456789:;<=>?";
export const GLYPH_TABLE_ROW = 10;

/**
 * A glyph table (cell key to character) read from the platform program's screen: the
 * cells of screen codes 0-63 at rows 10-11, drawn with our own character set.
 */
export function glyphTable(grid) {
  const glyphs = new Map();
  for (let i = 0; i < GLYPH_TABLE_TEXT.length; i++) {
    const ch = GLYPH_TABLE_TEXT[i];
    const key = grid.cells[(GLYPH_TABLE_ROW + Math.floor(i / 32)) * grid.cols + (i % 32)];
    if (ch === " ") continue;
    if (key === "") throw new Error(`screen code ${i} ("${ch}") is blank at row ${GLYPH_TABLE_ROW + Math.floor(i / 32)}`);
    if (glyphs.has(key)) throw new Error(`screen codes for "${glyphs.get(key)}" and "${ch}" have the same glyph`);
    glyphs.set(key, ch);
  }
  return glyphs;
}

/** The rows text takes on a screen `cols` wide from column 0 (the editor wraps long lines). */
export function screenRows(lines, cols) {
  const rows = [];
  for (const line of lines) {
    if (line === "") rows.push("");
    for (let i = 0; i < line.length; i += cols) rows.push(line.slice(i, i + cols));
  }
  return rows;
}

/**
 * Compares VICE's grid with ours, glyph by glyph, where both show the same character set.
 * `printed` is the text the program printed through CHROUT (rows from column 0), which
 * the screen editor put at row `oursRow` of our screen and at some row of VICE's (the
 * cursor starts below the KERNAL's banner there, at the top on our runner): every cell
 * neither screen printed on must be the same glyph on both; VICE's printed cells must read
 * `printed` with `glyphs`; our printed cells hide what the program drew there, so they are
 * not compared. Returns { ok, row } (VICE's row of the printed text) or { ok: false, why }
 * for the row that came closest.
 */
export function matchScreen(vice, ours, printed = [], oursRow = 0, glyphs = new Map()) {
  if (vice.cols !== ours.cols || vice.rows !== ours.rows) throw new Error(`VICE's grid is ${vice.cols} x ${vice.rows}, ours ${ours.cols} x ${ours.rows}`);
  const at = (row, col, base) => row >= base && row < base + printed.length && col < printed[row - base].length;
  let best = null;
  const last = printed.length ? vice.rows - printed.length : 0;
  for (let d = 0; d <= last; d++) {
    const wrong = [];
    for (let row = 0; row < vice.rows; row++) {
      for (let col = 0; col < vice.cols; col++) {
        const i = row * vice.cols + col;
        if (at(row, col, d)) {
          const ch = printed[row - d][col];
          const key = vice.cells[i];
          const read = key === "" ? " " : glyphs.get(key) ?? "?";
          if (read !== ch) wrong.push(`row ${row} column ${col} reads "${read}", printed "${ch}"`);
        } else if (!at(row, col, oursRow) && vice.cells[i] !== ours.cells[i]) {
          wrong.push(`row ${row} column ${col} ${vice.cells[i] === "" ? "is blank" : ours.cells[i] === "" ? "is not blank" : "has another glyph"}`);
        }
      }
    }
    if (wrong.length === 0) return { ok: true, row: d };
    if (!best || wrong.length < best.wrong.length) best = { d, wrong };
  }
  const where = printed.length ? ` (printed text placed at row ${best.d})` : "";
  return { ok: false, why: `${best.wrong.length} cell(s) differ from bac run's${where}: ${best.wrong.slice(0, 8).join("; ")}${best.wrong.length > 8 ? "; ..." : ""}` };
}
