// The real-VICE check: boots disks in VICE 3.9's x128 (WebAssembly, in headless Chromium)
// in 40 and 80 columns and by autostart, and compares what it shows, cell by cell, with
// `bac run`'s screenshots of the same disks. run.sh builds everything and calls:
//
//   node check.mjs --out DIR --disk D81 --bac40 PNG --bac80 PNG --noboot D81 --bacnoboot40 PNG
//                  --stdout TXT --font GLYPHS_RS
//                  --platform D81 --p40 PNG --p80 PNG --p80keys PNG
//                  --pstdout80 TXT --pstdout80keys TXT --platform-keys KEYS
//                  --game-dir DIR --game-shots DIR
//                  [--chromium PATH] [--only NAME,NAME]
//
// --disk is the test program hello's disk with the boot sector (bac disk build), --noboot
// the same first file without one (for autostart); each --bac* is `bac run`'s screenshot of
// that disk; --stdout is what `bac run` printed (the program's output, which its screen
// must show from row 0); --font is bac-glyphs' source (firmware/glyphs/src/lib.rs), whose
// letters, digits and punctuation read our screenshots.
//
// --platform is the platform test program's disk (boot sector); --p40 and --p80 are
// `bac run`'s screenshots of its drawn screens, --p80keys after the keys --platform-keys
// (a `bac run --keys` script), and --pstdout80* what it printed in those two runs.
//
// --game-dir holds the game's disks: game.d81 (bac disk build of disk/bac.toml) and
// game-NAME.d81 for each seeded scenario (scenarios.json); --game-shots the directory of
// `bac run`'s screenshots of their states (game.mjs: NAME-STATE.png, and for an unseeded
// scenario's dealt states its samples NAME-STATE-K.png).
//
// Exits 0 when every step passes, 1 with "vice check FAILED at step ..." otherwise.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { decodePng } from "./png.mjs";
import { startServer, launchBrowser } from "./vice.mjs";
import { frameShot, finalLook, keepLook, notBlankLook, typeKeys, contrastLook, frameNum, setWarp, atRealSpeed, LOWEST_CONTRAST } from "./page.mjs";
import { gameScreens, coupAddsUp, runGame } from "./game.mjs";
import { runLoad } from "./load.mjs";
import { SCENARIOS, keyFor, scriptKeys } from "./keys.mjs";
import { LAYOUTS, BANNER, notBlank, readGrid, readText, ourGlyphs, learnGlyphs, alignBlock, glyphTable, screenRows, matchScreen } from "./cells.mjs";

const args = {};
for (let i = 2; i < process.argv.length; i += 2) args[process.argv[i].replace(/^--/, "")] = process.argv[i + 1];
const NEEDED = ["out", "disk", "stdout", "bac40", "bac80", "noboot", "bacnoboot40", "font", "platform", "p40", "p80", "p80keys", "pstdout80", "pstdout80keys", "platform-keys", "game-dir", "game-shots"];
for (const need of NEEDED) {
  if (!args[need]) {
    console.error(`usage: node check.mjs ${NEEDED.map((n) => `--${n} ...`).join(" ")} [--chromium PATH] [--only NAME]`);
    process.exit(2);
  }
}
const chromiumPath = args.chromium || "/usr/bin/chromium";

// Budgets, in milliseconds of real time. VICE runs in warp (page.mjs's setWarp) but for
// the keys and the canvas, a few hundred frames a second on an idle 2-core machine, as
// few as 25 at real speed on a busy one; the budgets are the real-speed ones.
const TOTAL_BUDGET = 1_620_000;
const START_TIMEOUT = 40_000; // page load to the core running
const SCREEN_TIMEOUT = 45_000; // core running to the expected screen
const POLL = 250;
const PLATFORM_TIMEOUT = 60_000; // core running to the platform program's screens
const KEYS_TIMEOUT = 20_000; // the last key typed to its code on the screen
const KEY_TRIES = 3; // a BASIC line typed at READY. that does not come back as typed is typed again

// The steps: which disk, which screen, how the disk is started, and `bac run`'s
// screenshot of the same disk. Booting: VICE's autostart is off, the disk is in drive 8 at
// power-on and the C128's KERNAL finds the boot sector, as on a real machine.
// Autostart: the disk without a boot sector, and VICE types LOAD"*",8,1 and RUN.
const CASES = [
  { name: "boot-40", disk: "bac.d81", video: "VICII", autostart: false, mode: "40", ours: "bac40" },
  { name: "boot-80", disk: "bac.d81", video: "VDC", autostart: false, mode: "80", ours: "bac80" },
  {
    name: "autostart-40", disk: "noboot.d81", video: "VICII", autostart: true, mode: "40", ours: "bacnoboot40",
    // Then, at READY., keys typed into the canvas (what the game steps will need): a
    // quoted string (Shift+2) and a product; VICE only, as our runner has stopped by then.
    keys: { type: 'print "bac",6*7\n', echo: 'PRINT "BAC",6*7', answer: /^BAC +42$/ },
  },
];

// The platform steps: the platform test program booted from its disk (boot sector, as
// above), its 40- and 80-column screens with our character set compared glyph for glyph
// with bac run's, and in 80 columns (where its key echo shows) keys typed into the canvas.
const PLATFORM_CASES = [
  { name: "platform-40", platform: true, disk: "platform.d81", video: "VICII", mode: "40", ours: "p40" },
  { name: "platform-80", platform: true, disk: "platform.d81", video: "VDC", mode: "80", ours: "p80", keys: "p80keys" },
];

// The game steps (game.mjs): one per scenario of scenarios.json, every rule set in one of
// the widths. The game's disk, bac.d81 from disk/bac.toml (game.d81), or for a seeded
// scenario that disk with BAC SEED (game-NAME.d81, so the deal is the same as ours).
const GAME_CASES = SCENARIOS.map((s) => ({
  name: s.name, game: true, scenario: s, mode: s.mode, video: s.mode === "80" ? "VDC" : "VICII",
  disk: s.seed === undefined ? "game.d81" : `game-${s.name}.d81`,
}));

// The loading steps (load.mjs): the game's disk booted at power-on in each width, timed to
// its title in emulated frames, the title compared with bac run's (game-40's, game-80's).
const LOAD_CASES = [
  { name: "load-40", load: true, disk: "game.d81", video: "VICII", mode: "40", title: "game-40" },
  { name: "load-80", load: true, disk: "game.d81", video: "VDC", mode: "80", title: "game-80" },
];

/** How many steps run side by side (VICE_JOBS; two by default, one per core here). */
const JOBS = Number(process.env.VICE_JOBS || Math.min(2, os.availableParallelism()));

/** A step's rough length, to start the longest first: the game's by its states. */
function weight(c) {
  if (c.game) return 10 * c.scenario.steps.length + (c.scenario.samples ? 5 : 0);
  return c.load ? 40 : 20;
}

let step = "setup";
const fail = (message) => {
  console.error(`vice check FAILED at step ${step}: ${message}`);
  process.exit(1);
};
const watchdog = setTimeout(() => fail(`the whole check took over ${TOTAL_BUDGET / 1000} s`), TOTAL_BUDGET);
watchdog.unref();

/** Reads `bac run`'s screenshot and checks it shows the program's output from row 0. */
function ourScreen(which, mode, glyphs, expected) {
  const file = args[which];
  const img = decodePng(fs.readFileSync(file));
  notBlank(img, file);
  const grid = readGrid(img, LAYOUTS[`bac${mode}`]);
  const text = readText(grid, glyphs);
  const shown = text.slice(0, expected.length);
  const rest = text.slice(expected.length).filter((l) => l !== "");
  if (shown.join("\n") !== expected.join("\n") || rest.length) {
    throw new Error(`${file} reads\n${text.filter((l) => l).join("\n")}\nnot the program's output\n${expected.join("\n")}`);
  }
  return { grid, text };
}

/** Lines VICE shows besides the program's (our runner starts on an empty screen). */
const VICE_ONLY = {
  // RUN"BAC",U8 is not echoed: the boot sector's loader puts it in the keyboard buffer
  // and the screen shows only its message.
  boot: { above: ["BOOTING BAC128..."], below: ["READY."] },
  // What VICE types and the KERNAL answers.
  autostart: { above: ['LOAD"*",8,1', "SEARCHING FOR *", "LOADING", "RUN"], below: ["READY."] },
};

/**
 * One look at VICE's screen: the glyphs are learnt from the KERNAL banner and the lines
 * only VICE shows, the program's block is found cell by cell, and the VICE-only lines must
 * be above it (the boot message, or the autostart's LOAD ... RUN) and READY. below it (the
 * program returned to BASIC).
 */
function judge(frame, mode, ours, autostart) {
  const grid = readGrid(frame, LAYOUTS[`vice${mode}`]);
  const only = VICE_ONLY[autostart ? "autostart" : "boot"];
  let glyphs;
  try {
    glyphs = learnGlyphs(grid, BANNER);
  } catch (e) {
    return { ok: false, why: `power-on banner not read (${e.message})`, text: [] };
  }
  try {
    glyphs = learnGlyphs(grid, [...BANNER, ...only.above, ...only.below]);
  } catch (e) {
    return { ok: false, why: e.message, text: readText(grid, glyphs) };
  }
  const fits = alignBlock(grid, glyphs, ours.grid, ours.text);
  if (fits.length === 0) return { ok: false, why: "the program's output is not on the screen", text: readText(grid, glyphs) };
  const fit = fits[fits.length - 1];
  const text = readText(grid, fit.glyphs);
  const before = text.slice(0, fit.offset);
  const after = text.slice(fit.offset + fit.rows);
  let at = 0;
  for (const line of only.above) {
    const i = before.indexOf(line, at);
    if (i < 0) return { ok: false, why: `no "${line}" above the output, in this order: ${only.above.join(" / ")}`, text, fit };
    at = i + 1;
  }
  for (const line of only.below) {
    if (!after.includes(line)) return { ok: false, why: `no "${line}" below the output (has the program returned to BASIC?)`, text, fit };
  }
  return { ok: true, text, fit };
}

async function runCase(context, origin, c, ours, log, setStep) {
  setStep(`${c.name}: load the page`);
  const page = await context.newPage();
  const consoleLines = [];
  page.on("console", (m) => consoleLines.push(`${m.type()}: ${m.text()}`));
  page.on("pageerror", (e) => consoleLines.push(`pageerror: ${e.message}`));
  try {
    const t0 = Date.now();
    await page.goto(`${origin}/?disk=/disk/${c.disk}&video=${c.video}&autostart=${c.autostart ? 1 : 0}`, { timeout: START_TIMEOUT });
    setStep(`${c.name}: start the x128 core`);
    await page.waitForFunction(() => window.VICE_CHECK.started, null, { timeout: START_TIMEOUT, polling: 250 });
    await setWarp(page, true);
    const started = Date.now() - t0;
    setStep(`${c.name}: wait for the program's output`);
    const canvas = page.locator("canvas.ejs_canvas");
    const deadline = Date.now() + SCREEN_TIMEOUT;
    let look;
    let frameBytes;
    let shots = 0;
    while (Date.now() < deadline) {
      await page.waitForTimeout(POLL);
      // The core's own frame (libretro screenshot): exact pixels, 8 x 8 cells.
      frameBytes = await frameShot(page);
      shots++;
      look = judge(decodePng(frameBytes), c.mode, ours, c.autostart);
      if (look.ok) break;
    }
    // The canvas: taken with the emulation paused right after a frame, so that both show
    // the same moment (the cursor blinks); read per cell and compared with the frame.
    setStep(`${c.name}: compare the canvas with the core's frame`);
    const base = path.join(args.out, `vice-${c.name}`);
    const last = await finalLook(page, canvas, c.mode, look, frameBytes, (f) => judge(f, c.mode, ours, c.autostart));
    ({ look } = last);
    const canvasDiff = last.canvasDiff;
    keepLook(base, last);
    fs.writeFileSync(`${base}-console.log`, consoleLines.join("\n") + "\n");
    const frames = await frameNum(page);
    const secs = ((Date.now() - t0) / 1000).toFixed(1);
    log.push(`${c.name}: core running after ${(started / 1000).toFixed(1)} s, ${frames} frames, ${shots} looks, ${secs} s`);
    setStep(`${c.name}: check the pictures are not blank`);
    notBlankLook(base, last);
    setStep(`${c.name}: compare with bac run`);
    if (!look || !look.ok) {
      throw new Error(`${look ? look.why : "no frame"} after ${SCREEN_TIMEOUT / 1000} s; VICE's screen reads\n${(look?.text ?? []).filter((l) => l).join("\n")}\n(${base}-frame.png, ${base}-canvas.png, ${args[c.ours]})`);
    }
    setStep(`${c.name}: compare the canvas with the core's frame`);
    if (canvasDiff.length) {
      throw new Error(`the canvas and the frame differ in blankness at ${canvasDiff.slice(0, 10).join(", ")}${canvasDiff.length > 10 ? ", ..." : ""} (${base}-canvas.png, ${base}-frame.png)`);
    }
    setStep(`${c.name}: contrast`);
    contrastLook(base, last.frameBytes, c.mode, look.fit.glyphs);
    if (c.keys) {
      setStep(`${c.name}: type ${JSON.stringify(c.keys.type)} into the canvas`);
      await atRealSpeed(page, () => canvas.click({ timeout: 10_000 }));
      // A browser starved of CPU can deliver a key's release late enough for the KERNAL's
      // key repeat (seen: PRIIINT on a loaded machine), so a line that does not come back
      // as typed is typed again, on a fresh line, at most KEY_TRIES times; only the last
      // echo counts, and it must be answered.
      let typed;
      let tries = 0;
      while (!typed && tries < KEY_TRIES) {
        tries += 1;
        if (tries > 1) await typeKeys(page, ["Enter"]);
        await typeKeys(page, [...c.keys.type].map(keyFor));
        const until = Date.now() + 15_000;
        while (Date.now() < until) {
          const grid = readGrid(decodePng(await frameShot(page)), LAYOUTS[`vice${c.mode}`]);
          typed = readText(grid, look.fit.glyphs);
          const i = typed.lastIndexOf(c.keys.echo);
          if (i >= 0 && c.keys.answer.test(typed[i + 1] ?? "")) break;
          typed = null;
          await page.waitForTimeout(POLL);
        }
      }
      const keysFrame = await frameShot(page);
      fs.writeFileSync(`${base}-keys-frame.png`, keysFrame);
      if (!typed) {
        throw new Error(`no "${c.keys.echo}" followed by ${c.keys.answer} within 15 s, typed ${tries} times (${base}-keys-frame.png)`);
      }
      setStep(`${c.name}: contrast after the keys`);
      contrastLook(`${base}-keys`, keysFrame, c.mode, look.fit.glyphs);
      log.push(`${c.name}: typed ${JSON.stringify(c.keys.type)}${tries > 1 ? ` (${tries} times)` : ""}, read "${c.keys.echo}" and its answer`);
    }
    console.log(`ok ${c.name}: the program's ${look.fit.rows} line(s) match bac run's cell by cell at row ${look.fit.offset} of VICE's screen; the canvas shows the same cells${c.keys ? "; typed keys answered" : ""} (${secs} s)`);
  } finally {
    await page.close().catch(() => {});
  }
}

/**
 * A platform step: the platform test program (emulator-tests/programs/platform) booted
 * from its disk. It installs our character set on both screens and draws them; the 80-column
 * screen also gets what it prints through CHROUT (`DRAWN`, then `K<code> ` for each key its
 * key-matrix scanner reports), since VICE's x128 shows the VDC with the 40/80 key down.
 * VICE's screen must match `bac run`'s glyph for glyph (matchScreen); then the keys of
 * the step are typed and the screen must match `bac run`'s after the same keys.
 */
async function runPlatform(context, origin, c, plat, log, setStep) {
  setStep(`${c.name}: load the page`);
  const page = await context.newPage();
  const consoleLines = [];
  page.on("console", (m) => consoleLines.push(`${m.type()}: ${m.text()}`));
  page.on("pageerror", (e) => consoleLines.push(`pageerror: ${e.message}`));
  const base = path.join(args.out, `vice-${c.name}`);
  const layout = LAYOUTS[`vice${c.mode}`];
  try {
    const t0 = Date.now();
    await page.goto(`${origin}/?disk=/disk/${c.disk}&video=${c.video}&autostart=0`, { timeout: START_TIMEOUT });
    setStep(`${c.name}: start the x128 core`);
    await page.waitForFunction(() => window.VICE_CHECK.started, null, { timeout: START_TIMEOUT, polling: 250 });
    await setWarp(page, true);
    const started = Date.now() - t0;
    const states = [{ name: "drawn", ours: plat[c.ours] }];
    if (c.keys) states.push({ name: "keys", ours: plat[c.keys] });
    const canvas = page.locator("canvas.ejs_canvas");
    let shots = 0;
    for (const state of states) {
      const ours = state.ours;
      const suffix = state.name === "drawn" ? "" : `-${state.name}`;
      const judgeFrame = (frame) => {
        const grid = readGrid(frame, layout);
        const look = matchScreen(grid, ours.grid, ours.printed, ours.row, plat.glyphs);
        return { ...look, text: readText(grid, plat.glyphs) };
      };
      if (state.name === "keys") {
        setStep(`${c.name}: type ${plat.keys} into the canvas`);
        await atRealSpeed(page, () => canvas.click({ timeout: 10_000 }));
        await typeKeys(page, scriptKeys(plat.keys));
      }
      setStep(`${c.name}: wait for ${state.name === "drawn" ? "the program's screen" : "the keys' codes"}`);
      const deadline = Date.now() + (state.name === "drawn" ? PLATFORM_TIMEOUT : KEYS_TIMEOUT);
      let look, frameBytes;
      while (Date.now() < deadline) {
        await page.waitForTimeout(POLL);
        frameBytes = await frameShot(page);
        shots++;
        look = judgeFrame(decodePng(frameBytes));
        if (look.ok) break;
      }
      setStep(`${c.name}: compare the canvas with the core's frame${suffix}`);
      const last = await finalLook(page, canvas, c.mode, look, frameBytes, judgeFrame);
      ({ look } = last);
      const canvasDiff = last.canvasDiff;
      keepLook(`${base}${suffix}`, last);
      setStep(`${c.name}: check the pictures are not blank${suffix}`);
      notBlankLook(`${base}${suffix}`, last);
      setStep(`${c.name}: compare with bac run${suffix}`);
      if (!look?.ok) {
        const wait = (state.name === "drawn" ? PLATFORM_TIMEOUT : KEYS_TIMEOUT) / 1000;
        throw new Error(`${look ? look.why : "no frame"} after ${wait} s (${base}${suffix}-frame.png, ${ours.file})`);
      }
      setStep(`${c.name}: compare the canvas with the core's frame${suffix}`);
      if (canvasDiff.length) {
        throw new Error(`the canvas and the frame differ in blankness at ${canvasDiff.slice(0, 10).join(", ")}${canvasDiff.length > 10 ? ", ..." : ""} (${base}${suffix}-canvas.png)`);
      }
      // The platform program draws its driver tests in the old table's colours (yellow on
      // green among them): measured for the log, not held to the floor, which is the game's.
      const measured = contrastLook(`${base}${suffix}`, last.frameBytes, c.mode, plat.glyphs, false);
      if (measured.lowest !== null) log.push(`${c.name}${suffix}: lowest contrast ${measured.lowest.toFixed(2)}:1, not held (a test screen): ${measured.at}`);
      state.row = look.row;
    }
    const frames = await frameNum(page);
    const secs = ((Date.now() - t0) / 1000).toFixed(1);
    log.push(`${c.name}: core running after ${(started / 1000).toFixed(1)} s, ${frames} frames, ${shots} looks, ${secs} s`);
    const printed = states.at(-1).ours.printed;
    const where = printed.length ? `; printed at row ${states.at(-1).row} (ours: ${states.at(-1).ours.row}): ${printed.map((l) => JSON.stringify(l.trimEnd())).join(", ")}` : "";
    console.log(`ok ${c.name}: every cell of VICE's screen shows bac run's glyph${c.keys ? `, before and after typing ${plat.keys}` : ""}${where}; the canvas shows the same cells (${secs} s)`);
  } finally {
    fs.writeFileSync(`${base}-console.log`, consoleLines.join("\n") + "\n");
    await page.close().catch(() => {});
  }
}

/**
 * Reads `bac run`'s pictures of the platform program and what it printed. The editor's
 * cursor starts at the top of our runner's screen, so the text from `DRAWN` on is at the
 * row of `DRAWN` among the printed lines.
 */
function platformScreens() {
  const plat = { keys: args["platform-keys"] };
  const read = (png, mode, stdout) => {
    const img = decodePng(fs.readFileSync(args[png]));
    notBlank(img, args[png]);
    const grid = readGrid(img, LAYOUTS[`bac${mode}`]);
    if (!stdout) return { file: args[png], grid, printed: [], row: 0 };
    const text = fs.readFileSync(args[stdout], "latin1");
    const lines = text.split("\n");
    if (text.endsWith("\n")) lines.pop();
    const row = lines.indexOf("DRAWN");
    if (row < 0) throw new Error(`${args[stdout]} has no DRAWN line: the program did not draw its screens`);
    return { file: args[png], grid, printed: screenRows(lines.slice(row), 80), row, text };
  };
  plat.p40 = read("p40", "40");
  plat.p80 = read("p80", "80", "pstdout80");
  plat.p80keys = read("p80keys", "80", "pstdout80keys");
  // Our character set's glyphs for screen codes 0-63, from our own 40-column picture.
  plat.glyphs = glyphTable(plat.p40.grid);
  const echoed = plat.p80keys.printed.slice(1).join("").trim();
  const want = plat.keys.replace(/\{WAIT \d+\}/g, "").match(/\{[^}]*\}|./g).length;
  if (echoed.split(/ +/).length !== want) throw new Error(`bac run echoed "${echoed}" for the ${want} keys of ${plat.keys}`);
  return plat;
}

async function main() {
  fs.mkdirSync(args.out, { recursive: true });
  step = "read bac run's screenshots";
  const expected = fs.readFileSync(args.stdout, "latin1").replace(/\r/g, "\n").split("\n").filter((l, i, a) => i < a.length - 1 || l !== "");
  const glyphs = ourGlyphs(args.font);
  const ours = {};
  for (const c of CASES) ours[c.ours] = ourScreen(c.ours, c.mode, glyphs, expected);
  step = "read bac run's screenshots of the platform program";
  const plat = platformScreens();
  step = "read bac run's screenshots of the game";
  const game = {};
  for (const c of GAME_CASES) {
    game[c.name] = gameScreens(args["game-shots"], c.scenario);
    if (!c.scenario.samples) continue;
    for (const [k, grid] of game[c.name].coup.samples.entries()) {
      const sense = coupAddsUp(readText(grid, glyphs));
      if (!sense.ok) throw new Error(`bac run's coup ${k} of ${c.name}: ${sense.why}`);
    }
  }
  // The game's glyphs: every cell of the platform program's screens, which show all 256.
  const gameGlyphs = { text: glyphs, set: new Set([...plat.p40.grid.cells, ...plat.p80.grid.cells].filter((k) => k !== "")) };
  step = "start the local server";
  const disks = [["bac.d81", args.disk], ["noboot.d81", args.noboot], ["platform.d81", args.platform]];
  for (const c of GAME_CASES) if (!disks.some(([name]) => name === c.disk)) disks.push([c.disk, path.join(args["game-dir"], c.disk)]);
  const server = await startServer(new Map(disks.map(([name, file]) => [name, path.resolve(file)])));
  // The steps are independent (each boots its own disk in a new page), so JOBS of them run
  // side by side, each in a Chromium of its own (two renderer processes, not two tabs
  // that may share one), the longest first so that they end together.
  const cases = [...CASES, ...PLATFORM_CASES, ...LOAD_CASES, ...GAME_CASES].filter((c) => !args.only || args.only.split(",").includes(c.name));
  const queue = [...cases].sort((x, y) => weight(y) - weight(x));
  const jobs = Math.max(1, Math.min(JOBS, queue.length));
  step = "launch Chromium";
  const browsers = [];
  for (let j = 0; j < jobs; j++) browsers.push(await launchBrowser(chromiumPath, path.join(args.out, `chromium-profile-${j}`)));
  const logs = new Map(cases.map((c) => [c.name, []]));
  let passed = 0;
  const failures = [];
  const worker = async ({ context }) => {
    for (let c = queue.shift(); c; c = queue.shift()) {
      const at = { step: `${c.name}: start` };
      const setStep = (s) => (at.step = s);
      const log = logs.get(c.name);
      try {
        if (c.load) await runLoad(context, server.origin, c, game[c.title].title.grid, glyphs, args.out, setStep, log);
        else if (c.game) await runGame(context, server.origin, c, game[c.name], gameGlyphs, args.out, setStep, log);
        else if (c.platform) await runPlatform(context, server.origin, c, plat, log, setStep);
        else await runCase(context, server.origin, c, ours[c.ours], log, setStep);
        passed++;
      } catch (e) {
        failures.push(`${at.step}: ${e.message}`);
        console.error(`FAILED ${at.step}: ${e.message}`);
      }
    }
  };
  const t0 = Date.now();
  try {
    await Promise.all(browsers.map(worker));
  } finally {
    for (const { context } of browsers) await context.close().catch(() => {});
    await server.close();
    fs.writeFileSync(path.join(args.out, "server.log"), server.log.join("\n") + "\n");
    fs.writeFileSync(path.join(args.out, "blocked.log"), browsers.flatMap((b) => b.blocked).join("\n") + "\n");
  }
  const blocked = browsers.flatMap((b) => b.blocked);
  const log = cases.flatMap((c) => logs.get(c.name));
  log.push(`${cases.length} steps, ${jobs} at a time: ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  for (const l of log) console.log(`  ${l}`);
  for (const mode of ["40", "80"]) {
    const lowest = LOWEST_CONTRAST[mode];
    if (lowest) console.log(`  lowest contrast, ${mode} columns: ${lowest.ratio.toFixed(2)}:1 (${lowest.where})`);
  }
  console.log(`  requests blocked (not to 127.0.0.1): ${blocked.length ? blocked.join(", ") : "none"}`);
  console.log(`vice: ${passed} passed, ${failures.length} failed`);
  if (failures.length) {
    step = failures.map((f) => f.split(":")[0]).join(", ");
    console.error(`vice check FAILED at step(s): ${step}`);
    process.exit(1);
  }
}

main().then(() => process.exit(0), (e) => fail(e.stack || e.message));
