// A manual look at any disk in VICE's x128 (not part of run.sh): autostarts DISK, saves the
// core's frame every 5 s for SECONDS (OUT-5.png, OUT-10.png, ...), then optionally types
// KEYS (playwright key names separated by spaces, e.g. "KeyA Shift+Digit1 F1 Enter"), waits
// WAIT seconds, saves OUT-keys.png, presses X and saves OUT-closed.png 8 s later.
//
//   node peek.mjs DISK.d81 VICII|VDC SECONDS OUT.png ["KEYS"] [WAIT]
//
// How the platform drivers were checked on the real ROMs: the platform test program's
// screens, keys, disk answers and close() look as in our emulator (see README.md).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { startServer, launchBrowser } from "./vice.mjs";
const [disk, video, secs, out] = process.argv.slice(2);
const server = await startServer(new Map([["x.d81", path.resolve(disk)]]));
const { context } = await launchBrowser("/usr/bin/chromium", fs.mkdtempSync(path.join(os.tmpdir(), `peek-profile-${video}-`)));
const page = await context.newPage();
await page.goto(`${server.origin}/?disk=/disk/x.d81&video=${video}&autostart=1`, { timeout: 40000 });
await page.waitForFunction(() => window.VICE_CHECK.started, null, { timeout: 40000, polling: 250 });
for (let i = 0; i < Number(secs); i += 5) {
  await page.waitForTimeout(5000);
  const b64 = await page.evaluate(async () => {
    const bytes = await window.EJS_emulator.gameManager.screenshot();
    let t = "";
    for (let i = 0; i < bytes.length; i += 0x8000) t += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
    return btoa(t);
  });
  fs.writeFileSync(out.replace(".png", `-${i + 5}.png`), Buffer.from(b64, "base64"));
  console.log("shot", i + 5, await page.evaluate(() => window.EJS_emulator.gameManager.getFrameNum()));
}
async function shot(name) {
  const b64 = await page.evaluate(async () => {
    const bytes = await window.EJS_emulator.gameManager.screenshot();
    let t = "";
    for (let i = 0; i < bytes.length; i += 0x8000) t += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
    return btoa(t);
  });
  fs.writeFileSync(out.replace(".png", `-${name}.png`), Buffer.from(b64, "base64"));
}
async function key(k) {
  const keys = k.split("+");
  for (const x of keys) { await page.keyboard.down(x); await page.waitForTimeout(30); }
  await page.waitForTimeout(120);
  for (const x of keys.reverse()) await page.keyboard.up(x);
  await page.waitForTimeout(150);
}
if (process.argv[6]) {
  await page.locator("canvas.ejs_canvas").click({ timeout: 10000 });
  await page.waitForTimeout(2000);
  for (const k of process.argv[6].split(" ")) await key(k);
  await page.waitForTimeout(Number(process.argv[7] || 20) * 1000);
  await shot("keys");
  await key("KeyX");
  await page.waitForTimeout(8000);
  await shot("closed");
}
await context.close();
await server.close();
process.exit(0);
