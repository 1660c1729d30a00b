// The game's steps of the VICE check: one per scenario of scenarios.json (every rule set),
// the game's disk booted in VICE's x128 and played through the keyboard, one state after
// another, each compared with `bac run`'s screenshot of the same state (run.sh takes them
// with the same keys, from the same file).
//
// Both sides draw with the game's own character set, so cells are compared by their 8 x 8
// pattern. A seeded scenario's disk carries BAC SEED, so the shuffle is the same in VICE
// and ours and every state is compared cell by cell. Without one (the Punto Banco
// scenarios, the shipped disk's random path) the shuffle is seeded from the frame counter
// and the raster, so VICE deals other cards than our runner: for the states after the deal,
// run.sh takes several samples with different key timings, the rows that differ between
// them are the deal's rows, and only those rows are left out of the cell comparison. There
// VICE's cells must still be glyphs of the game's set, and the coup must add up: the
// cards' values give the totals shown, the totals the result, the result the bankroll.
import fs from "node:fs";
import path from "node:path";
import { decodePng } from "./png.mjs";
import { LAYOUTS, BANNER, notBlank, readGrid, readText, learnGlyphs, matchScreen } from "./cells.mjs";
import { frameShot, finalLook, keepLook, notBlankLook, typeKeys, typeKeysAnySpeed, contrastLook, frameNum, setWarp, atRealSpeed, pausedShot, runFrames, waitFrames } from "./page.mjs";
import { scriptKeys } from "./keys.mjs";

/**
 * A scenario's steps (scenarios.json, the keys run.sh's `bac run` scripts type too) with
 * their keys as Playwright keys (symbolic keymap; Escape is the C128's RUN/STOP).
 */
export function gameSteps(scenario) {
  return scenario.steps.map((step) => ({ ...step, keys: scriptKeys(step.keys) }));
}

/** The bet of the `bet` step (chip 5, on PLAYER) and the bankroll a new seat starts with. */
const STAKE = 500;
const START_BANKROLL = 1000;

// Real-time budgets, for VICE at real speed or below (15-50 frames a second here); from the
// KERNAL's banner on it runs in warp, but for the keys and the canvas (page.mjs).
const BOOT_TIMEOUT = 90_000; // core running to the title (boot, two files from the 1581)
const STATE_TIMEOUT = 45_000; // the last key of a step to its state on the screen
// Milliseconds between two looks while a key's change is awaited (in warp a few frames).
const POLL = 50;
// Emulated frames between two looks while a state is awaited (bac run's scripts wait 80 to
// 600 frames for a state; a banner shows for about 150): LOOK_FRAMES at first, twice as
// many after each look that did not find it, up to MAX_LOOK_FRAMES. Every state a step
// awaits is one where the game waits for a key, so it stays once drawn; each look is a
// screenshot through the browser, and the boot's were most of a step's time.
const LOOK_FRAMES = 20;
const MAX_LOOK_FRAMES = 160;
// Emulated frames: a key that changed nothing in this many is typed again. The game's
// frame interrupt takes keys into a ring, so a key is missed only while a disk call has
// interrupts off; a key typed again that was not missed lands on the next screen (CI saw
// a second RETURN at the bets and a second F5 close the help while the 1581 opened its
// file), so the wait is long: ten seconds of the C128's time, a few in warp.
const RETYPE_FRAMES = 500;
const RETYPES = 3;
// Frames run at real speed before a look that decides to type a key again: in warp the
// core's screenshot can lag the emulation (RetroArch's fast forward may skip the frames it
// presents), so a screen that did change can still look unchanged; at real speed every
// frame is drawn.
const FRESH_FRAMES = 3;
// Emulated frames the screen must stay the same before the next key of a step.
const SETTLE_FRAMES = 25;
// Emulated frames a key is held down (see typeKeys).
const HOLD_FRAMES = 6;

/** Reads a screenshot of ours as a grid. */
function ourGrid(file, mode) {
  const img = decodePng(fs.readFileSync(file));
  notBlank(img, file);
  return readGrid(img, LAYOUTS[`bac${mode}`]);
}

/**
 * The rows of the 80-column scoreboard panel's bead plate (3-8) and big road (10-15),
 * under their titles on rows 2 and 9 (`firmware/game/src/panel.rs`).
 */
const PANEL_ROAD_ROWS_80 = [3, 4, 5, 6, 7, 8, 10, 11, 12, 13, 14, 15];

/**
 * The 40-column table's rows below the result (`firmware/game/src/play/mod.rs`): the seats'
 * head and the seats (from ROW_SEATS_HEAD, 11, which the layout moves down), then the
 * board of bead plate and roads (ROW_BOARD, 18, up to the keys' row, 24). The deal decides
 * the seat's bankroll, the bead plate's P or B and the roads' marks there; `coupAddsUp`
 * checks the bankroll, and every cell must still be a glyph of the game's set.
 */
const TABLE_ROWS_40 = [11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23];

/** The 80-column table's seat row, under its head (16) and the head's rule (17). */
const SEAT_ROWS_80 = [18];

/**
 * `bac run`'s screenshots of a scenario's states (`NAME-STATE.png`; for the dealt states of
 * an unseeded scenario `NAME-STATE-K.png`, K < its samples), and for the dealt states the
 * rows that differ between the samples.
 */
export function gameScreens(dir, scenario) {
  const { name, mode, samples } = scenario;
  const ours = {};
  for (const { state, dealt, basic } of scenario.steps) {
    if (basic) continue;
    if (!dealt) {
      ours[state] = { grid: ourGrid(path.join(dir, `${name}-${state}.png`), mode) };
      continue;
    }
    const grids = [];
    for (let k = 0; k < samples; k++) grids.push(ourGrid(path.join(dir, `${name}-${state}-${k}.png`), mode));
    const varying = new Set();
    const { cols, rows } = grids[0];
    for (let row = 0; row < rows; row++) {
      for (let col = 0; col < cols && !varying.has(row); col++) {
        const i = row * cols + col;
        if (grids.some((g) => g.cells[i] !== grids[0].cells[i])) varying.add(row);
      }
    }
    if (varying.size === 0) throw new Error(`bac run's ${samples} ${state} screens (${mode} columns) are all the same: the samples did not deal differently`);
    // The samples may all have dealt the same result: a tie changes the roads' first
    // marks (a slashed ring, a T), and a tie is 9.5% of coups (six samples without one,
    // 55%); a player's win changes the bankroll and the bead plate, and six samples of
    // banker wins (five in six were, in one build) leave those rows unvaried. So the
    // rows the result decides are deal rows whatever the samples dealt.
    for (const row of mode === "80" ? [...PANEL_ROAD_ROWS_80, ...SEAT_ROWS_80] : TABLE_ROWS_40) varying.add(row);
    ours[state] = { grid: grids[0], samples: grids, varying };
  }
  return ours;
}

/** A card's value in baccarat: ace 1, two to nine as marked, ten and faces 0. */
function cardValue(rank) {
  if (rank === "A") return 1;
  if (/^[2-9]$/.test(rank)) return Number(rank);
  return 0;
}

/**
 * Whether a dealt coup's screen (read with our font: letters, digits and punctuation;
 * anything else "?") adds up: two or three cards a side whose values give the totals by
 * `PLAYER n` and `BANKER n`, the result line naming the higher total (or a tie) with both,
 * and the seat's bankroll after the `STAKE` on PLAYER: won 1:1, lost, or left on the table
 * at a tie (seed 000's Punto Banco). Returns { ok, why, coup }.
 */
export function coupAddsUp(lines) {
  const fail = (why) => ({ ok: false, why: `the coup does not add up: ${why}` });
  const head = lines.findIndex((l) => /PLAYER +\d\b/.test(l) && /BANKER +\d\b/.test(l));
  if (head < 0) return fail("no row shows PLAYER n and BANKER n");
  const p = Number(lines[head].match(/PLAYER +(\d)\b/)[1]);
  const b = Number(lines[head].match(/BANKER +(\d)\b/)[1]);
  const bankerCol = lines[head].indexOf("BANKER");
  // A card's top row: the rank in its top left corner (two cells for 10), alone between
  // blanks (the face's white reads blank: a cell is read against its own paper).
  const cardFace = /(?<=^| )(10|[A2-9JQK])(?= |$)/g;
  const faceRow = lines.findIndex((l, i) => i > head && l.match(cardFace));
  if (faceRow < 0) return fail("no cards below the totals");
  const hands = { PLAYER: [], BANKER: [] };
  for (const m of lines[faceRow].matchAll(cardFace)) hands[m.index >= bankerCol - 1 ? "BANKER" : "PLAYER"].push(m[1]);
  for (const [side, total] of [["PLAYER", p], ["BANKER", b]]) {
    const cards = hands[side];
    if (cards.length < 2 || cards.length > 3) return fail(`${side} has ${cards.length} card(s): ${cards.join(" ")}`);
    const sum = cards.reduce((s, r) => s + cardValue(r), 0) % 10;
    if (sum !== total) return fail(`${side}'s cards ${cards.join(" ")} make ${sum}, the screen says ${total}`);
  }
  const winner = p > b ? "PLAYER WINS" : p < b ? "BANKER WINS" : "TIE";
  const result = lines.find((l) => /(PLAYER WINS|BANKER WINS|TIE) +\d-\d/.test(l));
  if (!result) return fail("no result line (PLAYER WINS, BANKER WINS or TIE with the totals)");
  const shown = result.match(/(PLAYER WINS|BANKER WINS|TIE) +(\d)-(\d)/);
  if (shown[1] !== winner || Number(shown[2]) !== p || Number(shown[3]) !== b) {
    return fail(`the result reads "${shown[0]}" for PLAYER ${p} against BANKER ${b}`);
  }
  const seat = lines.find((l) => /\bADA +[\d,]+/.test(l));
  if (!seat) return fail("no bankroll beside the seat ADA");
  const bankroll = Number(seat.match(/\bADA +([\d,]+)/)[1].replace(/,/g, ""));
  const want = START_BANKROLL + (winner === "PLAYER WINS" ? STAKE : winner === "TIE" ? 0 : -STAKE);
  if (bankroll !== want) return fail(`ADA's bankroll is ${bankroll} after ${shown[0]} with ${STAKE} on PLAYER, not ${want}`);
  return { ok: true, coup: `PLAYER ${hands.PLAYER.join(" ")} = ${p}, BANKER ${hands.BANKER.join(" ")} = ${b}, ${shown[0]}, bankroll ${bankroll}` };
}

/**
 * A dealt state: the rows that did not vary between our samples must be the same glyphs as
 * ours; in the others every cell must be blank or a glyph of the game's set (`glyphSet`).
 */
function matchDealt(vice, ours, glyphSet) {
  const wrong = [];
  for (let row = 0; row < vice.rows; row++) {
    for (let col = 0; col < vice.cols; col++) {
      const i = row * vice.cols + col;
      const key = vice.cells[i];
      if (ours.varying.has(row)) {
        if (key !== "" && !glyphSet.has(key)) wrong.push(`row ${row} column ${col} (a deal row) shows no glyph of the game's set`);
      } else if (key !== ours.grid.cells[i]) {
        wrong.push(`row ${row} column ${col} ${key === "" ? "is blank" : ours.grid.cells[i] === "" ? "is not blank" : "has another glyph"}`);
      }
    }
  }
  if (wrong.length) return { ok: false, why: `${wrong.length} cell(s) differ from bac run's: ${wrong.slice(0, 8).join("; ")}${wrong.length > 8 ? "; ..." : ""}` };
  return { ok: true };
}

/** The judge of one state: { ok, why, note } for a frame. */
function judgeFor(step, ours, mode, glyphs, sampled) {
  const layout = LAYOUTS[`vice${mode}`];
  return (frame) => {
    const grid = readGrid(frame, layout);
    const text = readText(grid, glyphs.text);
    if (step.basic) {
      // READY. and below it only the cursor (a reversed space, which reads as "?", or
      // nothing while it blinks).
      const read = readText(grid, glyphs.rom);
      const lines = read.filter((l) => l.trim() !== "");
      const ready = lines.findIndex((l) => l.trim() === "READY.");
      const ok = ready >= 0 && lines.slice(ready + 1).every((l) => l.trim() === "?");
      return { ok, why: "not READY. as the last line (read with the KERNAL's glyphs from the power-on banner)", text: read };
    }
    const o = ours[step.state];
    const look = step.dealt ? matchDealt(grid, o, glyphs.set) : matchScreen(grid, o.grid);
    if (!look.ok || step.state !== "coup") return { ...look, text };
    if (!sampled) {
      // Seeded: the same cards as ours, cell by cell; the log names the result.
      const result = text.find((l) => /(PLAYER WINS|BANKER WINS|TIE) +\d-\d/.test(l));
      return { ...look, text, note: result ? result.trim().replace(/ +/g, " ") : undefined };
    }
    const sense = coupAddsUp(text);
    return { ...sense, text, note: sense.coup };
  };
}

/** The screen's cells now, and the emulated frame number. */
async function look(page, layout) {
  const grid = readGrid(decodePng(await frameShot(page)), layout);
  const frame = await frameNum(page);
  return { cells: grid.cells.join("|"), frame };
}

/**
 * Types one key and waits for the screen to change, and with `settle` then to stay the
 * same for SETTLE_FRAMES (so that the next key does not come while the game draws); a key
 * that changed nothing within RETYPE_FRAMES is typed again, at most RETYPES times.
 * Returns how many times it was typed.
 */
async function typeUntilChanged(page, key, layout, deadline, settle, once) {
  for (let typed = 1; typed <= (once ? 1 : RETYPES); typed++) {
    const before = await look(page, layout);
    await typeKeysAnySpeed(page, [key], HOLD_FRAMES);
    let last = before;
    let changed = false;
    // The look at real speed taken when the key seemed to change nothing (below), judged
    // as any other look.
    let fresh = null;
    while (Date.now() < deadline) {
      let now = fresh;
      if (!now) {
        await page.waitForTimeout(POLL);
        now = await look(page, layout);
      }
      if (now.cells !== before.cells) {
        if (!settle) return typed;
        changed = true;
      }
      if (changed && now.cells === last.cells && now.frame - last.frame >= SETTLE_FRAMES) return typed;
      if (now.cells !== last.cells) last = now;
      if (!changed && !once && now.frame - before.frame >= RETYPE_FRAMES) {
        // The game reads its keys from a ring the frame interrupt fills, so a key is hardly
        // ever missed; a second one that was not needed lands on the next screen (RETURN at
        // the bets: "NO BET"). Typed again only when a look at real speed agrees.
        if (fresh) break;
        fresh = await atRealSpeed(page, async () => {
          await waitFrames(page, FRESH_FRAMES);
          return look(page, layout);
        });
      } else {
        fresh = null;
      }
    }
    if (Date.now() >= deadline) throw new Error(`the screen did not ${changed ? "settle" : "change"} after ${key} in time`);
  }
  throw new Error(`${key} changed nothing on the screen, typed ${RETYPES} times`);
}

/**
 * One game run in VICE: boots the disk in `c.video`, learns the KERNAL's glyphs from the
 * power-on banner (to read READY. at the end), then goes through the scenario's steps, judging each
 * state against ours and saving VICE's frame and canvas for it.
 */
export async function runGame(context, origin, c, ours, glyphs, out, setStep, log) {
  const page = await context.newPage();
  const consoleLines = [];
  page.on("console", (m) => consoleLines.push(`${m.type()}: ${m.text()}`));
  page.on("pageerror", (e) => consoleLines.push(`pageerror: ${e.message}`));
  const layout = LAYOUTS[`vice${c.mode}`];
  const notes = [];
  // Where the step's wall-clock time goes (the log line's "time:"), for whoever makes it
  // faster: the page and the core's start, the clicks at real speed, the keys, the looks
  // awaiting each state, and the canvas taken with its frame.
  const spent = { start: 0, click: 0, keys: 0, looks: 0, canvas: 0 };
  const timed = async (what, body) => {
    const t = Date.now();
    try {
      return await body();
    } finally {
      spent[what] += Date.now() - t;
    }
  };
  try {
    const t0 = Date.now();
    setStep(`${c.name}: load the page`);
    await page.goto(`${origin}/?disk=/disk/${c.disk}&video=${c.video}&autostart=0`, { timeout: 40_000 });
    setStep(`${c.name}: start the x128 core`);
    await page.waitForFunction(() => window.VICE_CHECK.started, null, { timeout: 40_000, polling: 250 });
    spent.start = Date.now() - t0;
    const canvas = page.locator("canvas.ejs_canvas");
    let rom = null;
    const steps = gameSteps(c.scenario);
    for (const [n, step] of steps.entries()) {
      const base = path.join(out, `vice-${c.name}-${step.state}`);
      // The first screen and a reboot (BOOT at READY.) load the game from the 1581.
      const deadline = Date.now() + (n === 0 || step.restart ? BOOT_TIMEOUT : STATE_TIMEOUT);
      // Keys of this step typed more than once, named in the log and in a failure.
      const again = [];
      if (step.keys.length) {
        setStep(`${c.name}: type ${step.keys.join(" ")} for the ${step.state} screen`);
        await timed("click", () => atRealSpeed(page, () => canvas.click({ timeout: 10_000 })));
        const keysStart = Date.now();
        if (step.buffered) {
          // At BASIC's READY. the cursor blinks, so the screen never settles between keys:
          // they are typed in one go (the KERNAL's keyboard buffer keeps ten).
          await typeKeys(page, step.keys, HOLD_FRAMES);
        } else {
          for (const [i, key] of step.keys.entries()) {
            const typed = await typeUntilChanged(page, key, layout, deadline, i < step.keys.length - 1, step.once);
            for (let t = 1; t < typed; t++) again.push(key);
          }
        }
        spent.keys += Date.now() - keysStart;
      }
      setStep(`${c.name}: wait for the ${step.state} screen`);
      const judge = judgeFor(step, ours, c.mode, { ...glyphs, rom }, Boolean(c.scenario.samples));
      let verdict;
      let frameBytes;
      // Looked at every few frames (LOOK_FRAMES, growing) with the emulation paused for
      // each look (pausedShot), so that however slow a look is, the frames between two
      // are counted (in warp, looks taken as the clock ran went past chemin-80's coup on a
      // loaded machine).
      let every = LOOK_FRAMES;
      const looksStart = Date.now();
      // The emulated frames from the step's last key to the look that saw its screen: an
      // upper bound of how long the screen took in VICE, as the looks grow apart.
      const waitFrom = await frameNum(page);
      while (Date.now() < deadline) {
        frameBytes = (await pausedShot(page)).bytes;
        const frame = decodePng(frameBytes);
        if (n === 0 && !rom) {
          // The KERNAL's banner shows for a moment before the game clears the screen.
          try {
            rom = learnGlyphs(readGrid(frame, layout), BANNER);
          } catch {}
          // At real speed until then: in warp the banner could come and go between looks.
          if (rom) await setWarp(page, true);
        }
        verdict = judge(frame);
        if (verdict.ok) break;
        await runFrames(page, every);
        // Not before the banner is learnt: it shows for a moment only.
        if (rom) every = Math.min(every * 2, MAX_LOOK_FRAMES);
      }
      const waited = (await frameNum(page)) - waitFrom;
      await page.evaluate(() => window.EJS_emulator.gameManager.toggleMainLoop(1));
      spent.looks += Date.now() - looksStart;
      if (n === 0 && !rom) throw new Error("the KERNAL's power-on banner was never seen before the title (needed to read READY. later)");
      const last = await timed("canvas", () => finalLook(page, canvas, c.mode, verdict, frameBytes, judge));
      ({ look: verdict } = last);
      keepLook(base, last);
      setStep(`${c.name}: check the ${step.state} pictures are not blank`);
      notBlankLook(base, last);
      setStep(`${c.name}: compare the ${step.state} screen with bac run's`);
      const retypedNote = again.length ? `; typed again: ${again.join(" ")}` : "";
      if (!verdict?.ok) throw new Error(`${verdict ? verdict.why : "no frame"} (${base}-frame.png${retypedNote})`);
      setStep(`${c.name}: compare the canvas with the core's frame (${step.state})`);
      if (last.canvasDiff.length) throw new Error(`the canvas and the frame differ in blankness at ${last.canvasDiff.slice(0, 10).join(", ")} (${base}-canvas.png)`);
      setStep(`${c.name}: contrast of the ${step.state} screen`);
      contrastLook(base, last.frameBytes, c.mode, step.basic ? rom : glyphs.text);
      notes.push(`${step.state} (${waited} frames)${again.length ? ` (typed again: ${again.join(" ")})` : ""}${verdict.note ? `: ${verdict.note}` : ""}`);
    }
    const frames = await frameNum(page);
    const secs = ((Date.now() - t0) / 1000).toFixed(1);
    const time = Object.entries(spent).map(([k, ms]) => `${k} ${(ms / 1000).toFixed(1)}`).join(", ");
    log.push(`${c.name}: ${frames} frames, ${secs} s (time: ${time}); ${notes.join("; ")}`);
    const how = c.scenario.samples
      ? "the deal's rows: glyphs of the game's set, and the coup adds up"
      : c.scenario.seed === undefined
        ? "no deal: every cell"
        : `seed ${c.scenario.seed}: the same deal, every cell`;
    console.log(`ok ${c.name} (${c.scenario.rules}): ${steps.map((s) => s.state).join(", ")}: every screen as bac run's (${how}); the canvas shows the same cells (${secs} s)`);
  } finally {
    fs.writeFileSync(path.join(out, `vice-${c.name}-console.log`), consoleLines.join("\n") + "\n");
    await page.close().catch(() => {});
  }
}
