// What the check does on the EmulatorJS page: takes the core's own frame, the canvas at
// the same moment, and types keys into the canvas.
import fs from "node:fs";
import { decodePng } from "./png.mjs";
import { LAYOUTS, readGrid, canvasCells, compareCanvas, notBlank } from "./cells.mjs";
import { FLOOR, measureContrast } from "./contrast.mjs";

/** The emulated frame number. */
export async function frameNum(page) {
  return page.evaluate(() => window.EJS_emulator.gameManager.getFrameNum());
}

/**
 * Runs the core unthrottled (`on`) or at real speed. Every wait of the check is counted in
 * emulated frames, so warp changes how long a step takes, not what it sees; what needs
 * the pace of a real machine (keys held for some frames, the canvas and the frame taken
 * at one moment) runs at real speed through `atRealSpeed`.
 */
export async function setWarp(page, on) {
  await page.evaluate((warp) => window.VICE_CHECK.setWarp(warp), on);
}

/** Runs `body` with the core at real speed, and back in warp after if it was. */
export async function atRealSpeed(page, body) {
  const warp = await page.evaluate(() => window.VICE_CHECK.warp);
  if (warp) {
    await setWarp(page, false);
    // A frame at real speed first: frames the host had queued in warp are run by then.
    await waitFrames(page, 1);
  }
  try {
    return await body();
  } finally {
    if (warp) await setWarp(page, true);
  }
}

/**
 * Waits until VICE has run `frames` more frames. Counted in emulated frames, not
 * milliseconds: VICE runs at 15-50 frames a second here, with the host's load, and the
 * C128 only sees a key in the frames it is down. Gives up after 10 s of wall clock
 * (a core that stopped running is a failure of its own, not a reason to hang).
 */
export async function waitFrames(page, frames) {
  const start = await frameNum(page);
  const deadline = Date.now() + 10_000;
  while ((await frameNum(page)) - start < frames) {
    if (Date.now() > deadline) throw new Error(`VICE ran fewer than ${frames} frames in 10 s`);
    await page.waitForTimeout(15);
  }
}

/**
 * Types keys (playwright specs, "Shift+Quote"), each held down for `holdFrames` emulated
 * frames and then up for two: the KERNAL and the game's key interrupt scan the matrix
 * once a frame, and a program that reads its key ring only between its drawing still
 * finds the key there. Fewer frames than the KERNAL's repeat delay (16), so a key typed at
 * READY. comes once. Typed at real speed (in warp a key's milliseconds would be many frames).
 */
export async function typeKeys(page, specs, holdFrames = 4) {
  await atRealSpeed(page, () => typeKeysAnySpeed(page, specs, holdFrames));
}

/**
 * Types keys as [`typeKeys`] does, at whatever speed the core runs (in warp too): for a
 * program that reads the key matrix itself and never repeats a key (the game), a key held
 * a few frames longer than `holdFrames` (the frames counted in the page can run past the
 * count in warp) is the same single press, and the switches to real speed and back were
 * most of the time a key took.
 */
export async function typeKeysAnySpeed(page, specs, holdFrames) {
  // The emulation is paused whenever a key goes down or up, and runs its frames in the
  // page (runFrames): a key is held exactly holdFrames frames whatever the round trip to
  // the browser costs (on a loaded machine it lasted many frames, and the KERNAL repeated
  // the key: PRIIINT).
  await page.evaluate(() => window.EJS_emulator.gameManager.toggleMainLoop(0));
  try {
    for (const spec of specs) {
      const keys = spec.split("+");
      for (const [i, k] of keys.entries()) {
        if (i > 0) await runFrames(page, 1);
        await page.keyboard.down(k);
      }
      await runFrames(page, holdFrames);
      for (const k of keys.reverse()) await page.keyboard.up(k);
      await runFrames(page, 2);
    }
  } finally {
    await page.evaluate(() => window.EJS_emulator.gameManager.toggleMainLoop(1));
  }
}

/**
 * Runs the paused emulation for `frames` frames and pauses it again, counting them in
 * the page (a check every millisecond or so, a frame being 20 ms at real speed), within
 * 10 s of wall clock.
 */
export async function runFrames(page, frames) {
  await page.evaluate(async (n) => {
    const gm = window.EJS_emulator.gameManager;
    const start = gm.getFrameNum();
    const deadline = Date.now() + 10_000;
    gm.toggleMainLoop(1);
    try {
      while (gm.getFrameNum() - start < n) {
        if (Date.now() > deadline) throw new Error(`VICE ran fewer than ${n} frames in 10 s`);
        await new Promise((ok) => setTimeout(ok, 1));
      }
    } finally {
      gm.toggleMainLoop(0);
    }
  }, frames);
}

/**
 * The core's own frame taken with the emulation paused around it: paused, the screenshot
 * asked for, the core run until the file is there (watched in the page: a frame or two)
 * and paused again. Returns the PNG bytes and the frame numbers before and after, which
 * bracket the frame taken however long the round trips to the browser take; the
 * emulation stays paused (runFrames goes on).
 */
export async function pausedShot(page) {
  const shot = await page.evaluate(async () => {
    const gm = window.EJS_emulator.gameManager;
    gm.toggleMainLoop(0);
    const before = gm.getFrameNum();
    try {
      gm.FS.unlink("screenshot.png");
    } catch {}
    gm.functions.screenshot();
    gm.toggleMainLoop(1);
    const deadline = Date.now() + 10_000;
    try {
      for (;;) {
        try {
          gm.FS.stat("/screenshot.png");
          break;
        } catch {}
        if (Date.now() > deadline) throw new Error("the core's screenshot took over 10 s");
        await new Promise((ok) => setTimeout(ok, 0));
      }
    } finally {
      gm.toggleMainLoop(0);
    }
    const at = gm.getFrameNum();
    const bytes = gm.FS.readFile("/screenshot.png");
    let text = "";
    for (let i = 0; i < bytes.length; i += 0x8000) text += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
    return { before, at, base64: btoa(text) };
  });
  return { bytes: Buffer.from(shot.base64, "base64"), before: shot.before, at: shot.at };
}

/** The core's own frame (the libretro screenshot) as PNG bytes, within 10 s. */
export async function frameShot(page) {
  const base64 = await page.evaluate(async () => {
    const timeout = new Promise((_, no) => setTimeout(() => no(new Error("the core's screenshot took over 10 s")), 10_000));
    const bytes = await Promise.race([window.EJS_emulator.gameManager.screenshot(), timeout]);
    let text = "";
    for (let i = 0; i < bytes.length; i += 0x8000) text += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
    return btoa(text);
  });
  return Buffer.from(base64, "base64");
}

/**
 * The canvas and the core's frame at one moment: the emulation is paused just after the
 * frame is taken, the canvas screenshotted, and the cells compared for blankness; tried up
 * to five times while they differ (the cursor blinks) or `judgeFrame` rejects the frame.
 * At real speed: in warp the cursor would blink between the two.
 */
export async function canvasAndFrame(page, canvas, mode, judgeFrame) {
  return atRealSpeed(page, () => withFullCanvas(page, () => canvasAndFrameNow(page, canvas, mode, judgeFrame)));
}

/**
 * Runs `body` with the canvas drawn at its full size (page.html draws it small otherwise:
 * in software, its drawing cost more than the emulation): the size set, then awaited until
 * the drawing buffer has it (within 10 s) and two more frames have been drawn at it.
 */
export async function withFullCanvas(page, body) {
  await page.evaluate(() => window.VICE_CHECK.setCanvasFull(true));
  try {
    const deadline = Date.now() + 10_000;
    while (!(await page.evaluate(() => window.VICE_CHECK.canvasFull()))) {
      if (Date.now() > deadline) throw new Error("the canvas did not take its full size within 10 s");
      await page.waitForTimeout(15);
    }
    // Two frames drawn at the full size; a core that does not run them is reported by
    // what `body` sees (a canvas that differs from the frame), not here.
    await waitFrames(page, 2).catch(() => {});
    return await body();
  } finally {
    await page.evaluate(() => window.VICE_CHECK.setCanvasFull(false)).catch(() => {});
  }
}

async function canvasAndFrameNow(page, canvas, mode, judgeFrame) {
  let look, frameBytes, canvasBytes;
  let canvasDiff = ["not compared"];
  for (let attempt = 0; attempt < 5 && canvasDiff.length; attempt++) {
    frameBytes = await frameShot(page);
    await page.evaluate(() => window.EJS_emulator.gameManager.toggleMainLoop(0));
    await page.waitForTimeout(100);
    canvasBytes = await canvas.screenshot({ timeout: 10_000 });
    const aspect = await page.evaluate(() => window.EJS_emulator.gameManager.getVideoDimensions("aspect"));
    await page.evaluate(() => window.EJS_emulator.gameManager.toggleMainLoop(1));
    const frame = decodePng(frameBytes);
    look = judgeFrame(frame);
    const layout = LAYOUTS[`vice${mode}`];
    canvasDiff = compareCanvas(readGrid(frame, layout), canvasCells(decodePng(canvasBytes), frame, layout, aspect));
    if (!look.ok) canvasDiff = ["not compared"];
  }
  return { look, frameBytes, canvasBytes, canvasDiff };
}

/**
 * The pictures of a state once the waiting is over: when `look` passed, the canvas and a
 * new frame taken together (canvasAndFrame); else the last frame and the canvas as it is,
 * for the failure's evidence.
 */
export async function finalLook(page, canvas, mode, look, frameBytes, judgeFrame) {
  if (look?.ok) return canvasAndFrame(page, canvas, mode, judgeFrame);
  const canvasBytes = await withFullCanvas(page, () => canvas.screenshot({ timeout: 10_000 }));
  return { look, frameBytes, canvasBytes, canvasDiff: ["not compared"] };
}

/** Writes BASE-frame.png, BASE-canvas.png and BASE.txt (VICE's screen as read). */
export function keepLook(base, { look, frameBytes, canvasBytes }) {
  fs.writeFileSync(`${base}-frame.png`, frameBytes ?? Buffer.alloc(0));
  fs.writeFileSync(`${base}-canvas.png`, canvasBytes);
  fs.writeFileSync(`${base}.txt`, (look?.text ?? []).join("\n") + "\n");
}

/** Fails if the canvas or the frame shows one colour only, or only black. */
export function notBlankLook(base, { frameBytes, canvasBytes }) {
  notBlank(decodePng(canvasBytes), `${base}-canvas.png`);
  if (frameBytes?.length) notBlank(decodePng(frameBytes), `${base}-frame.png`);
}

/** The lowest contrast met so far in each width, with the step and cell, for the log. */
export const LOWEST_CONTRAST = { 40: null, 80: null };

/**
 * Holds a saved frame (BASE-frame.png's bytes) to the contrast floor (contrast.mjs): fails
 * naming every cell below it, its text read with `glyphs`, and both colours; keeps the
 * lowest ratio of the width in LOWEST_CONTRAST. With `hold` false it only measures and
 * returns the measure (the platform program's test screens, not the game's colours).
 */
export function contrastLook(base, frameBytes, mode, glyphs, hold = true) {
  const m = measureContrast(decodePng(frameBytes), LAYOUTS[`vice${mode}`], glyphs);
  if (!hold) return m;
  const lowest = LOWEST_CONTRAST[mode];
  if (m.lowest !== null && (lowest === null || m.lowest < lowest.ratio)) {
    LOWEST_CONTRAST[mode] = { ratio: m.lowest, where: `${base.split("/").pop()}: ${m.at}` };
  }
  if (m.bad.length) {
    throw new Error(`${m.bad.length} cell(s) below ${FLOOR}:1 (${base}-frame.png): ${m.bad.slice(0, 8).join("; ")}${m.bad.length > 8 ? "; ..." : ""}`);
  }
}
