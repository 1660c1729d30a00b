// VICE x128 (EmulatorJS 4.2.3, WebAssembly) in headless Chromium: the local server and the
// browser session the check drives. Nothing here reaches beyond 127.0.0.1.
import http from "node:http";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";

const HERE = path.dirname(fileURLToPath(import.meta.url));
const FRONT_END = path.join(HERE, "node_modules/@emulatorjs/emulatorjs/data");
const CORE = path.join(HERE, "node_modules/@emulatorjs/core-vice_x128");

const TYPES = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".json": "application/json",
  ".png": "image/png",
};

/** Resolves a request path to a file: the page, the front end, the core, or a disk. */
function resolve(urlPath, disks) {
  if (urlPath === "/" || urlPath === "/index.html") return path.join(HERE, "page.html");
  // The loader asks for <pathtodata>/cores/<core>[-thread][-legacy]-wasm.data and
  // cores/reports/<core>.json; they are served from the core's package, so no copy of
  // the .data files is made.
  let m = urlPath.match(/^\/data\/cores\/(vice_x128(?:-thread)?(?:-legacy)?-wasm\.data)$/);
  if (m) return path.join(CORE, m[1]);
  if (urlPath === "/data/cores/reports/vice_x128.json") return path.join(CORE, "reports/vice_x128.json");
  m = urlPath.match(/^\/data\/(.+)$/);
  if (m) {
    const file = path.normalize(path.join(FRONT_END, m[1]));
    return file.startsWith(FRONT_END + path.sep) ? file : null;
  }
  m = urlPath.match(/^\/disk\/([A-Za-z0-9_.-]+)$/);
  if (m && disks.has(m[1])) return disks.get(m[1]);
  return null;
}

/**
 * Starts the server on 127.0.0.1 (a free port). `disks` maps a name to a file path,
 * served as /disk/NAME. COOP/COEP headers make the page cross-origin isolated, which the
 * threaded cores would need.
 */
export async function startServer(disks) {
  const log = [];
  const server = http.createServer((req, res) => {
    const urlPath = decodeURIComponent(new URL(req.url, "http://127.0.0.1").pathname);
    const file = resolve(urlPath, disks);
    const headers = {
      "Cross-Origin-Opener-Policy": "same-origin",
      "Cross-Origin-Embedder-Policy": "require-corp",
      "Cross-Origin-Resource-Policy": "same-origin",
      "Cache-Control": "no-store",
    };
    if (!file || !fs.existsSync(file) || !fs.statSync(file).isFile()) {
      log.push(`404 ${req.method} ${urlPath}`);
      res.writeHead(404, headers);
      res.end("not found");
      return;
    }
    log.push(`200 ${req.method} ${urlPath}`);
    const body = fs.readFileSync(file);
    headers["Content-Type"] = TYPES[path.extname(file)] || "application/octet-stream";
    headers["Content-Length"] = body.length;
    res.writeHead(200, headers);
    res.end(req.method === "HEAD" ? undefined : body);
  });
  await new Promise((ok, fail) => {
    server.once("error", fail);
    server.listen(0, "127.0.0.1", ok);
  });
  const { port } = server.address();
  return { server, log, origin: `http://127.0.0.1:${port}`, close: () => new Promise((ok) => server.close(ok)) };
}

/** Chromium flags for a headless, software-rendered, offline run (see issue 6). */
export const CHROMIUM_ARGS = [
  "--headless=new",
  "--no-sandbox",
  "--enable-unsafe-swiftshader",
  "--use-angle=swiftshader",
  "--disable-background-networking",
  "--disable-component-update",
  "--no-first-run",
  "--disable-sync",
  "--disable-quic",
  "--autoplay-policy=no-user-gesture-required",
];

/**
 * Launches Debian's Chromium through playwright-core (never a browser playwright would
 * download) with a fresh profile. Every request that is not to 127.0.0.1 or localhost is
 * aborted and recorded in `blocked`.
 */
export async function launchBrowser(executablePath, profileDir) {
  fs.rmSync(profileDir, { recursive: true, force: true });
  fs.mkdirSync(profileDir, { recursive: true });
  const context = await chromium.launchPersistentContext(profileDir, {
    executablePath,
    headless: true,
    args: CHROMIUM_ARGS,
    viewport: { width: 1280, height: 800 },
    timeout: 30_000,
  });
  const blocked = [];
  await context.route("**/*", (route) => {
    const url = new URL(route.request().url());
    const local = ["127.0.0.1", "localhost", "[::1]"].includes(url.hostname);
    if (local || url.protocol === "blob:" || url.protocol === "data:") return route.continue();
    blocked.push(url.href);
    return route.abort("blockedbyclient");
  });
  return { context, blocked };
}
