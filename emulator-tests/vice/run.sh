#!/usr/bin/env bash
# The real-VICE check: bash emulator-tests/vice/run.sh (from anywhere; see README.md).
# Installs what it needs (Debian's chromium, the pinned npm packages), builds the test
# programs (hello, platform) and their disks and the game's disk, takes `bac run`'s
# screenshots, then runs check.mjs, which boots the disks in VICE 3.9's x128 (WebAssembly)
# in headless Chromium, plays the game, and compares. VICE_ONLY=NAME,NAME: only those
# VICE steps.
# Exits non-zero naming the step that failed. Output goes to target/vice/ (or $VICE_OUT).
# VICE_BAC=PATH: the `bac` executable to use (cargo xtask ci passes the one its tests
# built); without it, `cargo build --release -p bac` builds one. The `bac run` screenshots
# are taken VICE_PREP_JOBS at a time (default 2).
set -Eeuo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
ROOT="$(cd "$HERE/../.." && pwd)"
OUT="${VICE_OUT:-$ROOT/target/vice}"
# The test program and the exit code it ends with (it writes $D7FF, then returns to BASIC).
PROGRAM="$ROOT/emulator-tests/programs/hello/Cargo.toml"
PROGRAM_EXIT=42
# The platform test program (every c128-rt driver; our character set on both screens) and
# the keys typed into it once its screens are drawn: the same script in bac run and, key
# by key, in VICE (check.mjs). {WAIT 200}: bac run types them after the program's
# DRAWN (within 150 frames); check.mjs waits for the drawn screen instead.
PLATFORM="$ROOT/emulator-tests/programs/platform/Cargo.toml"
PLATFORM_KEYS='A1{RETURN}{F1}{DOWN}{HOME}{DEL}Z!'

# The game scenarios (every rule set; their keys, seeds and states) are in scenarios.json,
# read through keys.mjs by this script (bac run's screenshots) and by game.mjs (VICE).
KEYS="$HERE/keys.mjs"

STEP="start"
trap 'echo "vice check FAILED at step: $STEP" >&2' ERR
step() {
    STEP="$1"
    echo "== vice: $1 ($(date -u +%H:%M:%S))"
}
as_root() {
    if [ "$(id -u)" = 0 ]; then "$@"; else sudo -n "$@"; fi
}

step "install chromium and node (Debian packages)"
missing=()
command -v chromium >/dev/null 2>&1 || missing+=(chromium)
command -v node >/dev/null 2>&1 || missing+=(nodejs)
command -v npm >/dev/null 2>&1 || missing+=(npm)
if [ "${#missing[@]}" -gt 0 ]; then
    as_root timeout 300 apt-get -o DPkg::Lock::Timeout=240 update -qq
    as_root env DEBIAN_FRONTEND=noninteractive timeout 600 apt-get -o DPkg::Lock::Timeout=240 install -y -qq --no-install-recommends "${missing[@]}"
fi
node_major="$(node -p 'process.versions.node.split(".")[0]')"
if [ "$node_major" -lt 20 ]; then
    echo "node $(node --version) is too old: playwright-core 1.65 needs node 20 or newer" >&2
    false
fi
CHROMIUM="$(command -v chromium)"
timeout 60 "$CHROMIUM" --headless=new --no-sandbox --version

step "npm ci (playwright-core, @emulatorjs/emulatorjs and core-vice_x128 4.2.3, as locked)"
# --omit=optional leaves out @emulatorjs/cores (every other system's core, ~250 MB);
# --ignore-scripts: nothing is downloaded at install time, least of all a browser.
stamp="$HERE/node_modules/.bac128-lock"
if ! cmp -s "$HERE/package-lock.json" "$stamp" 2>/dev/null; then
    (cd "$HERE" && PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 timeout 300 npm ci --omit=optional --ignore-scripts --no-audit --no-fund --loglevel=error)
    cp "$HERE/package-lock.json" "$stamp"
fi

mkdir -p "$OUT"
cd "$ROOT"
# One `bac` for every command below, run directly: a `cargo run` each time cost a
# fingerprint check of the workspace, about 60 times.
if [ -n "${VICE_BAC:-}" ]; then
    step "bac: $VICE_BAC (VICE_BAC)"
    BAC_EXE="$VICE_BAC"
else
    step "cargo build --release -p bac"
    timeout 1200 cargo build --release -q -p bac
    BAC_EXE="$ROOT/target/release/bac"
fi
[ -x "$BAC_EXE" ] || { echo "no bac executable at $BAC_EXE" >&2; false; }

# Up to PREP_JOBS commands in the background at once (`later CMD ...`), and `settle`
# waits for them all, failing if one did: the screenshots of our emulator are independent
# runs, a few seconds each, and a core was idle while they ran one after another.
PREP_JOBS="${VICE_PREP_JOBS:-2}"
PENDING=()
later() {
    while [ "$(jobs -rp | wc -l)" -ge "$PREP_JOBS" ]; do wait -n || true; done
    "$@" &
    PENDING+=("$!:$STEP")
}
settle() {
    local failed=0 job
    for job in "${PENDING[@]}"; do
        wait "${job%%:*}" || { echo "vice check FAILED at step: ${job#*:}" >&2; failed=1; }
    done
    PENDING=()
    [ "$failed" = 0 ]
}

step "bac prg: build the test program"
timeout 1200 "$BAC_EXE" prg --manifest-path "$PROGRAM" -o "$OUT/hello.prg"

step "bac disk build: the disk with the boot sector, the program as BAC"
timeout 600 "$BAC_EXE" disk build --manifest "$HERE/hello.toml" --game "$OUT/hello.prg" -o "$OUT/bac.d81"

step "bac disk build: the same without a boot sector (for autostart)"
timeout 600 "$BAC_EXE" disk build --manifest "$HERE/noboot.toml" --game "$OUT/hello.prg" -o "$OUT/noboot.d81"

bac_run() { # DISK SCREEN PNG: bac run's screenshot; the program must end with its exit code
    local code=0
    timeout 120 "$BAC_EXE" run "$1" "--$2" --screenshot "$3" > "$OUT/bac-run-stdout.txt" || code=$?
    if [ "$code" != "$PROGRAM_EXIT" ]; then
        echo "bac run $1 exited with $code, not the program's $PROGRAM_EXIT" >&2
        false
    fi
}
step "bac run: the disk in our emulator, 40 columns"
bac_run "$OUT/bac.d81" 40 "$OUT/bac-boot-40.png"
step "bac run: the disk in our emulator, 80 columns"
bac_run "$OUT/bac.d81" 80 "$OUT/bac-boot-80.png"
step "bac run: the disk without boot sector, 40 columns"
bac_run "$OUT/noboot.d81" 40 "$OUT/bac-autostart-40.png"

step "bac prg: build the platform test program"
timeout 1200 "$BAC_EXE" prg --manifest-path "$PLATFORM" -o "$OUT/platform.prg"

step "bac disk build: the platform program's disk, with the boot sector"
timeout 600 "$BAC_EXE" disk build --manifest "$HERE/hello.toml" --game "$OUT/platform.prg" -o "$OUT/platform.d81"

# The program never ends by itself: with --keys, bac run stops it 50 frames after the last
# key (exit code 0) and takes the screenshot then.
platform_run() { # SCREEN PNG STDOUT KEYS
    timeout 120 "$BAC_EXE" run "$OUT/platform.d81" "--$1" --keys "$4" --screenshot "$2" > "$3"
    grep -qx DRAWN "$3" || { echo "bac run: the platform program did not draw its screens ($3)" >&2; false; }
}
step "bac run: the platform program's screens, 40 columns"
platform_run 40 "$OUT/bac-platform-40.png" "$OUT/bac-platform-40-stdout.txt" "{WAIT 200}"
step "bac run: the platform program's screens, 80 columns"
platform_run 80 "$OUT/bac-platform-80.png" "$OUT/bac-platform-80-stdout.txt" "{WAIT 200}"
step "bac run: the platform program after the keys $PLATFORM_KEYS, 80 columns"
platform_run 80 "$OUT/bac-platform-80-keys.png" "$OUT/bac-platform-80-keys-stdout.txt" "{WAIT 200}$PLATFORM_KEYS"

step "bac disk build: the game's disk (disk/bac.toml)"
timeout 1200 "$BAC_EXE" disk build -o "$OUT/game.d81"

# One disk per seeded scenario: the game's disk with BAC SEED (the shuffle's seed, 4 bytes
# little-endian), so VICE and bac run deal the same cards; a scenario that restarts after
# quitting also gets that disk with the save its steps up to there write (made by the host
# build of the same game code, which writes its saves to a directory).
seed_file() { # SEED FILE
    node -e 'const b = Buffer.alloc(4); b.writeUInt32LE(Number(process.argv[1])); require("fs").writeFileSync(process.argv[2], b)' "$1" "$2"
}
mkdir -p "$OUT/game"
while read -r name mode seed samples; do
    [ "$seed" = - ] && continue
    step "bac disk put: $name's disk with BAC SEED $seed"
    seed_file "$seed" "$OUT/game/$name.seed"
    cp "$OUT/game.d81" "$OUT/game-$name.d81"
    timeout 120 "$BAC_EXE" disk put "$OUT/game-$name.d81" "$OUT/game/$name.seed" --name "BAC SEED" --type seq < /dev/null
    if node "$KEYS" states "$name" | grep -q restart; then
        step "bac play --host: the save $name's steps write, onto game-$name-saved.d81"
        rm -rf "$OUT/game/$name-saves"
        mkdir -p "$OUT/game/$name-saves"
        cp "$OUT/game/$name.seed" "$OUT/game/$name-saves/BAC SEED"
        timeout 300 "$BAC_EXE" play --host "--$mode" --keys "$(node "$KEYS" host "$name")" \
            --save-dir "$OUT/game/$name-saves" > "$OUT/game/$name-host.txt" < /dev/null
        cp "$OUT/game-$name.d81" "$OUT/game-$name-saved.d81"
        timeout 120 "$BAC_EXE" disk put "$OUT/game-$name-saved.d81" "$OUT/game/$name-saves/BAC SAVE" \
            --name "BAC SAVE" --type seq < /dev/null
    fi
done < <(node "$KEYS" scenarios)

game_run() { # NAME MODE DISK STATE K PNG
    timeout 120 "$BAC_EXE" run "$3" "--$2" --keys "$(node "$KEYS" script "$1" "$4" "$5")" \
        --screenshot "$6" > /dev/null < /dev/null
}
while read -r name mode seed samples; do
    step "bac run: $name's screens, $mode columns"
    disk="$OUT/game.d81"
    [ "$seed" = - ] || disk="$OUT/game-$name.d81"
    while read -r state flag; do
        [ "$flag" = restart ] && disk="$OUT/game-$name-saved.d81"
        if [ "$flag" = dealt ]; then
            for k in $(seq 0 $((samples - 1))); do
                later game_run "$name" "$mode" "$disk" "$state" "$k" "$OUT/game/$name-$state-$k.png"
            done
        else
            later game_run "$name" "$mode" "$disk" "$state" 0 "$OUT/game/$name-$state.png"
        fi
    done < <(node "$KEYS" states "$name")
done < <(node "$KEYS" scenarios)
settle

step "VICE x128 in Chromium (check.mjs)"
timeout 1800 node "$HERE/check.mjs" --out "$OUT" --chromium "$CHROMIUM" \
    --disk "$OUT/bac.d81" --bac40 "$OUT/bac-boot-40.png" --bac80 "$OUT/bac-boot-80.png" \
    --noboot "$OUT/noboot.d81" --bacnoboot40 "$OUT/bac-autostart-40.png" \
    --stdout "$OUT/bac-run-stdout.txt" --font "$ROOT/firmware/glyphs/src/lib.rs" \
    --platform "$OUT/platform.d81" --p40 "$OUT/bac-platform-40.png" --p80 "$OUT/bac-platform-80.png" \
    --p80keys "$OUT/bac-platform-80-keys.png" --pstdout80 "$OUT/bac-platform-80-stdout.txt" \
    --pstdout80keys "$OUT/bac-platform-80-keys-stdout.txt" --platform-keys "$PLATFORM_KEYS" \
    --game-dir "$OUT" --game-shots "$OUT/game" ${VICE_ONLY:+--only "$VICE_ONLY"}
