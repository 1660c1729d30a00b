// A manual look at a disk's boot (not part of run.sh): boots DISK at power-on in 40
// columns (no autostart, as a player boots it), logs the time line of the border's colour
// and the number of non-blank cells (each change with the frames that bracket it, as
// load.mjs does), and saves the core's frame once FRAMES emulated frames have passed.
//
//   node bootshot.mjs DISK.d81 FRAMES OUT.png
//
// Used with probes/boot.s, which marks its steps with border colours and prints its
// timings, and on the game's disk itself: the last change is the title.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { startServer, launchBrowser } from "./vice.mjs";
import { frameNum, frameShot } from "./page.mjs";
import { decodePng } from "./png.mjs";
import { LAYOUTS, readGrid } from "./cells.mjs";

const [disk, frames, out] = process.argv.slice(2);
if (!disk || !Number(frames) || !out) {
  console.error("usage: node bootshot.mjs DISK.d81 FRAMES OUT.png");
  process.exit(2);
}
const server = await startServer(new Map([["x.d81", path.resolve(disk)]]));
const { context } = await launchBrowser("/usr/bin/chromium", fs.mkdtempSync(path.join(os.tmpdir(), "bootshot-")));
const page = await context.newPage();
await page.goto(`${server.origin}/?disk=/disk/x.d81&video=VICII&autostart=0`, { timeout: 40_000 });
await page.waitForFunction(() => window.VICE_CHECK.started, null, { timeout: 40_000, polling: 250 });
const timeline = [];
let last = "";
let before = 0;
for (;;) {
  const from = await frameNum(page);
  if (from >= Number(frames)) break;
  const frame = decodePng(await frameShot(page));
  const to = await frameNum(page);
  const o = (2 * frame.width + 2) * 4;
  const border = ((frame.data[o] << 16) | (frame.data[o + 1] << 8) | frame.data[o + 2]).toString(16).padStart(6, "0");
  const cells = readGrid(frame, LAYOUTS.vice40).cells.filter((k) => k !== "").length;
  const look = `border #${border} cells ${cells}`;
  if (look !== last) timeline.push(`${before}-${to} ${look}`);
  last = look;
  before = from;
}
console.log(`time line (frames at 50.125 a second): ${timeline.join("; ")}`);
fs.writeFileSync(out, await frameShot(page));
console.log(`frame ${await frameNum(page)}: ${out}`);
process.exit(0);
