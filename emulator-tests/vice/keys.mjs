// The game scenarios (scenarios.json) and their keys, for both sides of the check: run.sh
// asks this file for the `bac run --keys` script that leads to each state, and game.mjs
// turns the same scripts into the keys it types into VICE. So a scenario's keys are
// written once.
//
//   node keys.mjs scenarios              one line per scenario: NAME MODE SEED|- SAMPLES|-
//   node keys.mjs states NAME            the states bac run takes a screenshot of, with
//                                        "dealt" after the states sampled K times
//   node keys.mjs script NAME STATE [K]  the bac run script from power-on (or from the
//                                        restart) to STATE, sample K
//   node keys.mjs host NAME              the keys up to the restart, for the host build
//                                        that writes the save the restart continues
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const HERE = path.dirname(fileURLToPath(import.meta.url));

/** Every scenario, a `same_as` one with the steps of the one it names. */
export const SCENARIOS = (() => {
  const { scenarios } = JSON.parse(fs.readFileSync(path.join(HERE, "scenarios.json"), "utf8"));
  const byName = new Map(scenarios.map((s) => [s.name, s]));
  return scenarios.map((s) => (s.same_as ? { ...s, steps: byName.get(s.same_as).steps } : s));
})();

export function scenario(name) {
  const s = SCENARIOS.find((x) => x.name === name);
  if (!s) throw new Error(`no scenario ${name} in scenarios.json`);
  return s;
}

/** Keys for page.keyboard: the C128 key each character is typed with (symbolic keymap). */
const KEY_CODES = { " ": "Space", ",": "Comma", ".": "Period", "\n": "Enter", '"': "Shift+Quote", "*": "Shift+Digit8", "=": "Equal", "+": "Shift+Equal", "!": "Shift+Digit1" };
export function keyFor(ch) {
  if (/[a-z]/.test(ch)) return `Key${ch.toUpperCase()}`;
  if (/[0-9]/.test(ch)) return `Digit${ch}`;
  if (KEY_CODES[ch]) return KEY_CODES[ch];
  throw new Error(`no key for ${JSON.stringify(ch)}`);
}

/**
 * The keys of a `bac run --keys` script (characters, and {NAME} for named keys) as
 * playwright key specs for the symbolic keymap; {WAIT n} (and JITTER) are left out: VICE
 * waits for the screen instead. Escape is the C128's RUN/STOP in VICE's keymap.
 */
const NAMED_KEYS = { RETURN: "Enter", F1: "F1", F3: "F3", F5: "F5", F7: "F7", DOWN: "ArrowDown", UP: "ArrowUp", LEFT: "ArrowLeft", RIGHT: "ArrowRight", HOME: "Home", DEL: "Backspace", "RUN/STOP": "Escape", ESC: "Escape" };
export function scriptKeys(script) {
  const keys = [];
  for (const m of script.matchAll(/\{([^}]*)\}|([^{])/g)) {
    if (m[2] !== undefined) keys.push(keyFor(m[2].toLowerCase()));
    else if (/^WAIT (\d+|JITTER)$/.test(m[1])) continue;
    else if (NAMED_KEYS[m[1]]) keys.push(NAMED_KEYS[m[1]]);
    else throw new Error(`no key for {${m[1]}}`);
  }
  return keys;
}

/** The bac run script from power-on, or from the restart, to `state`, sample `k`. */
export function scriptTo(s, state, k = 0) {
  let script = "";
  for (const step of s.steps) {
    if (step.restart) script = "";
    script += (step.restart ? step.ours : step.keys).replace(/JITTER/g, String(40 + k));
    if (step.state === state) return script;
  }
  throw new Error(`no state ${state} in scenario ${s.name}`);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const [cmd, name, state, k] = process.argv.slice(2);
  if (cmd === "scenarios") {
    for (const s of SCENARIOS) console.log(`${s.name} ${s.mode} ${s.seed ?? "-"} ${s.samples ?? "-"}`);
  } else if (cmd === "states") {
    for (const step of scenario(name).steps) if (!step.basic) console.log(`${step.state}${step.dealt ? " dealt" : ""}${step.restart ? " restart" : ""}`);
  } else if (cmd === "script") {
    process.stdout.write(scriptTo(scenario(name), state, Number(k || 0)));
  } else if (cmd === "host") {
    const s = scenario(name);
    const cut = s.steps.findIndex((st) => st.restart);
    process.stdout.write(s.steps.slice(0, cut < 0 ? s.steps.length : cut).map((st) => st.keys).join(""));
  } else {
    console.error("usage: node keys.mjs scenarios | states NAME | script NAME STATE [K] | host NAME");
    process.exit(2);
  }
}
