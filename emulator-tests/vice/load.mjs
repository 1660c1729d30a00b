// The loading steps of the VICE check: the shipped game disk (game.d81, bac disk build of
// disk/bac.toml) booted at power-on, as a player boots it, and the time to its title
// screen measured in emulated time: the core's frame counter (one retro_run a PAL frame,
// 50.125 a second on the C128), never the wall clock, which depends on how busy the
// machine is. VICE's 1581 runs with true drive emulation (the core's default,
// vice_drive_true_emulation), so the two loads take the drive's real time.
//
// The screen is looked at every STEP frames with the emulation paused for each look
// (pausedShot), the frames between looks run in warp; the title's frame is bracketed by
// the last look without it and the first with it. The figure is reported,
// never asserted (speed is a benchmark's business); the step fails only if the title does
// not come, or comes different from ours.
import path from "node:path";
import { decodePng } from "./png.mjs";
import { LAYOUTS, BANNER, readGrid, learnGlyphs, matchScreen } from "./cells.mjs";
import { finalLook, keepLook, notBlankLook, contrastLook, pausedShot, runFrames, setWarp } from "./page.mjs";

/** PAL C128 frames a second (985,248 Hz / (312 lines x 63 cycles)). */
export const PAL_FPS = 985_248 / (312 * 63);
// Real-time budget from the core's start to the title.
const LOAD_TIMEOUT = 120_000;
// Emulated frames between two looks.
const STEP = 8;

/**
 * One loading step: boots `c.disk` in `c.video`, finds the frame of the KERNAL's power-on
 * banner (BASIC's start-up screen) and of the title, which must be ours cell for cell
 * (`ours`, bac run's title of the same disk), and logs both times.
 */
export async function runLoad(context, origin, c, ours, glyphs, out, setStep, log) {
  const page = await context.newPage();
  const layout = LAYOUTS[`vice${c.mode}`];
  const base = path.join(out, `vice-${c.name}`);
  try {
    setStep(`${c.name}: load the page`);
    await page.goto(`${origin}/?disk=/disk/${c.disk}&video=${c.video}&autostart=0`, { timeout: 40_000 });
    setStep(`${c.name}: start the x128 core`);
    await page.waitForFunction(() => window.VICE_CHECK.started, null, { timeout: 40_000, polling: 100 });
    const options = await page.evaluate(() => window.EJS_emulator.gameManager.getCoreOptions());
    const tde = options.match(/^vice_drive_true_emulation\|([a-z]+);/m);
    if (!tde || tde[1] !== "enabled") throw new Error(`VICE's true drive emulation is ${tde ? tde[1] : "not an option"}: the load would not take the 1581's time`);
    setStep(`${c.name}: wait for the title`);
    const judge = (frame) => matchScreen(readGrid(frame, layout), ours);
    // Looks with the emulation paused (pausedShot), STEP frames apart run in warp: each
    // look's frame is known within a frame or two, so the figure's resolution is STEP and
    // a few frames whatever the machine's load (looks in a running core spanned 5 frames
    // on an idle machine, 100 on a loaded one).
    await setWarp(page, true);
    const deadline = Date.now() + LOAD_TIMEOUT;
    let banner = null;
    let before = 0;
    let title = null;
    let verdict, frameBytes;
    // The time line: every look whose border colour or screen differs from the last one's,
    // with the frames that bracket the change (what the load spends its time on).
    const timeline = [];
    let lastLook = "";
    while (Date.now() < deadline) {
      const shot = await pausedShot(page);
      const from = shot.before;
      const to = shot.at;
      frameBytes = shot.bytes;
      const frame = decodePng(frameBytes);
      const look = describeLook(frame, layout);
      if (look !== lastLook) {
        timeline.push(`${before}-${to} ${look}`);
        lastLook = look;
      }
      if (!banner) {
        try {
          learnGlyphs(readGrid(frame, layout), BANNER);
          banner = { after: before, by: to };
        } catch {}
      }
      verdict = judge(frame);
      if (verdict.ok) {
        title = { after: before, by: to };
        break;
      }
      before = from;
      await runFrames(page, STEP);
    }
    await page.evaluate(() => window.EJS_emulator.gameManager.toggleMainLoop(1));
    await setWarp(page, false);
    // The time line first: when the title does not come, it shows where the load stopped.
    log.push(`${c.name}: time line (frames, border colour, background, non-blank cells): ${timeline.join("; ")}`);
    const last = await finalLook(page, page.locator("canvas.ejs_canvas"), c.mode, verdict, frameBytes, judge);
    keepLook(base, last);
    setStep(`${c.name}: check the title's pictures are not blank`);
    notBlankLook(base, last);
    setStep(`${c.name}: compare the title with bac run's`);
    if (!title) throw new Error(`no title within ${LOAD_TIMEOUT / 1000} s: ${verdict ? verdict.why : "no frame"} (${base}-frame.png)`);
    if (!banner) throw new Error("the KERNAL's power-on banner was never seen before the title");
    setStep(`${c.name}: contrast of the title`);
    contrastLook(base, last.frameBytes, c.mode, glyphs);
    const secs = (frames) => (frames / PAL_FPS).toFixed(1);
    const mid = (t) => (t.after + t.by) / 2;
    log.push(
      `${c.name}: title at frame ${title.after}-${title.by} (${secs(mid(title))} s of emulated time from power-on), ` +
        `start-up screen at frame ${banner.after}-${banner.by}: ${secs(mid(title) - mid(banner))} s from the start-up screen to the title`,
    );
    console.log(`ok ${c.name}: ${c.disk} boots to the title, cell for cell as bac run's, ${secs(mid(title) - mid(banner))} s after BASIC's start-up screen (emulated, 1581 with true drive emulation)`);
  } finally {
    await page.close().catch(() => {});
  }
}

/**
 * A short description of a look for the time line: the border's colour (the VIC-IIe's
 * $D020; a blanked 40-column screen is all border), the text area's background and how
 * many of its cells are not blank.
 */
function describeLook(frame, layout) {
  const px = (x, y) => {
    const o = (y * frame.width + x) * 4;
    return ((frame.data[o] << 16) | (frame.data[o + 1] << 8) | frame.data[o + 2]).toString(16).padStart(6, "0");
  };
  const grid = readGrid(frame, layout);
  const used = grid.cells.filter((k) => k !== "").length;
  return `border #${px(2, 2)} paper #${grid.background.toString(16).padStart(6, "0")} cells ${used}`;
}
