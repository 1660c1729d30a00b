//! `bac bench`: the speed figures `docs/speed.md` reports, measured here and now.
//!
//! Figures, not pass/fail: timings depend on the machine and its load. Each figure is the
//! median of several runs.

use anyhow::{Context, Result};
use bac_harness::cc65::harness::{self, phase};
use bac_harness::cc65::trace::Params;
use bac_odds::exact::odds;
use bac_odds::play::Play;
use bac_odds::sim::{SimConfig, simulate};
use bac_odds::solve::solve;
use bac_rules::{Builtin, DrawRules, Preset, RuleSet};
use clap::Args;
use serde_json::{Value, json};
use std::sync::atomic::AtomicU64;
use std::time::Instant;

/// `bac bench` options.
#[derive(Args, Debug)]
#[command(after_help = "\
Sections: host (exact odds with and without the side bets, the solver, the simulator); emulator (emulated cycles per
second); rust and cc65 (the same Punto Banco benchmark on the C128: the rules crate
translated by `bac prg` from firmware/bench-prg, and the C port in emulator-tests/cc65
built by cl65 -t c128 -Oirs; cycles per coup from first card to settlement over 1,000
coups, cycles of one 8-deck shuffle, and program bytes without load address and BASIC
stub); kernels (the benchmark suite of emulator-tests/kernels: each kernel's cycles and
bytes in Rust and in C on both compilers, checked against the host, and the geometric
means of the ratios; see its README); the game. --host-only skips the C128 figures (which
build the programs); --translator-only gives only rust, cc65 and kernels, the figures the
translator changes. The kernels' table has a column of the Rust translated with
--opt-level 0 and flags a kernel where the optimised translation is slower.")]
pub struct BenchArgs {
    /// Print one JSON object instead of a table.
    #[arg(long)]
    json: bool,
    /// Coups per simulator run.
    #[arg(long, default_value_t = 20_000_000, value_parser = clap::value_parser!(u64).range(1..))]
    hands: u64,
    /// Only the host figures.
    #[arg(long)]
    host_only: bool,
    /// Only the translator's figures: the rules benchmark on both compilers and the kernel
    /// suite (no host figures, no game).
    #[arg(long, conflicts_with = "host_only")]
    translator_only: bool,
}

fn median_ms(runs: usize, mut f: impl FnMut()) -> f64 {
    let mut times: Vec<f64> = (0..runs)
        .map(|_| {
            let start = Instant::now();
            f();
            start.elapsed().as_secs_f64() * 1e3
        })
        .collect();
    times.sort_by(f64::total_cmp);
    times[times.len() / 2]
}

fn sim_rate(hands: u64, threads: usize) -> Result<f64> {
    let config = SimConfig::new(RuleSet::preset(Preset::PuntoBanco), hands, 1, threads, Builtin::Casino);
    let start = Instant::now();
    simulate(&config, &AtomicU64::new(0))?;
    Ok(hands as f64 / start.elapsed().as_secs_f64())
}

/// The host figures.
fn host(hands: u64) -> Result<Value> {
    let casino = Play::of(Builtin::Casino);
    let analyze_8 = median_ms(21, || {
        std::hint::black_box(odds(DrawRules::PuntoBanco, 8, &casino));
    });
    let full = bac_odds::composition::Composition::full(8);
    let analyze_side_8 = median_ms(21, || {
        std::hint::black_box(bac_odds::analysis::analyze_shoe(DrawRules::PuntoBanco, &full, &casino));
    });
    let solve_8 = median_ms(11, || {
        std::hint::black_box(solve(DrawRules::ChemDeFer, 8));
    });
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    Ok(json!({
        "analyze_8_decks_ms": analyze_8,
        "analyze_side_bets_8_decks_ms": analyze_side_8,
        "solve_chemin_de_fer_8_decks_ms": solve_8,
        "sim_hands_per_second_1_thread": sim_rate(hands, 1)?,
        "sim_hands_per_second_all_cores": sim_rate(hands, cores)?,
        "cores": cores,
    }))
}

/// Coups the C128 benchmark averages over (as in the cc65 harness's own figures).
const BENCH_COUPS: u16 = 1000;

fn c128_figures(cycles_per_coup: f64, shuffle_cycles: u64, code_bytes: usize) -> Value {
    json!({ "cycles_per_coup": cycles_per_coup, "shuffle_cycles": shuffle_cycles, "code_bytes": code_bytes })
}

/// The translated rules crate on the benchmark.
fn rust_on_c128() -> Result<Value> {
    let prg = crate::firmware::build("bench-prg", "bench")?;
    let run = harness::run(&prg, &Params::punto_banco(1, BENCH_COUPS)).context("running the Rust benchmark")?;
    // Load address (2) and the BASIC stub `10 SYS 7181` (12) are not program.
    let code_bytes = prg.len().saturating_sub(14);
    Ok(c128_figures(
        run.phase_cycles[phase::COUP] as f64 / f64::from(BENCH_COUPS),
        run.phase_cycles[phase::SHUFFLE],
        code_bytes,
    ))
}

/// The C port built by cc65 on the same benchmark.
fn cc65_on_c128() -> Result<Value> {
    let dir = std::env::temp_dir().join(format!("bac-bench-cc65-{}", std::process::id()));
    let measured = harness::measure(&dir, 1, BENCH_COUPS);
    let _ = std::fs::remove_dir_all(&dir);
    let (figures, _) = measured.context("building and running the cc65 benchmark")?;
    Ok(c128_figures(figures.cycles_per_coup, figures.shuffle_cycles, figures.sizes.program))
}

/// The benchmark suite (`emulator-tests/kernels`): every kernel built on both sides, run
/// on the suite's seed and checked against the host, with the geometric means of the
/// ratios.
fn kernels_on_c128() -> Result<Value> {
    use bac_harness::kernels;
    let target = crate::firmware::repo_root().join("target/c128/kernels");
    let scratch = std::env::temp_dir().join(format!("bac-bench-kernels-{}", std::process::id()));
    let measured = kernels::measure(&scratch, &target, kernels::SEED);
    let _ = std::fs::remove_dir_all(&scratch);
    let suite = measured.context("building and running the benchmark suite")?;
    let each: Vec<Value> = suite
        .kernels
        .iter()
        .map(|k| {
            json!({
                "name": k.name,
                "rust_cycles": k.rust_cycles,
                "cc65_cycles": k.cc65_cycles,
                "rust_o0_cycles": k.rust_o0_cycles,
                "slower_than_o0": k.slower_than_o0(),
                "cycles_ratio": k.cycles_ratio(),
                "rust_bytes": k.rust_bytes,
                "cc65_bytes": k.cc65_bytes,
                "bytes_ratio": k.bytes_ratio(),
            })
        })
        .collect();
    Ok(json!({
        "seed": suite.seed,
        "kernels": each,
        "geomean_cycles_ratio": suite.cycles_ratio(),
        "geomean_bytes_ratio": suite.bytes_ratio(),
        "slower_than_o0": suite.kernels.iter().filter(|k| k.slower_than_o0()).map(|k| k.name).collect::<Vec<_>>(),
        "rust_empty_program_bytes": suite.rust_empty_bytes,
        "cc65_empty_program_bytes": suite.cc65_empty_bytes,
    }))
}

/// The game on the C128: its size against the room in bank 0, and, booted from its disk
/// in the emulator, the cycles from RUN to the title screen and from the last card of a
/// coup to the settled screen (in 40 columns at 1 MHz and in 80 at 2 MHz; the coups of
/// `game_run`, with the shoe's seed fixed), and the AVR instructions a whole coup runs
/// translated and interpreted. A build that does not fit is a figure too (where the
/// translator says the image ends).
fn game_on_c128() -> Result<Value> {
    use avr2mos::{PipelineError, TranslateError};
    let game = match crate::firmware::build_game() {
        Ok(path) => path,
        Err(e) => {
            return match e.downcast_ref::<PipelineError>() {
                Some(PipelineError::Translate { source: TranslateError::TooLarge { end, limit, .. }, .. }) => {
                    Ok(json!({ "fits": false, "ends_at": end, "limit": limit }))
                }
                _ => Err(e),
            };
        }
    };
    let read = |p: &std::path::Path| std::fs::read(p).with_context(|| format!("reading {}", p.display()));
    let prg = read(&game)?;
    let bank1 = read(&avr2mos::pipeline::bank1_path(&game))?;
    let packer = avr2mos::pipeline::packer_setting(&crate::firmware::game_manifest())?;
    let (_, bank1_code) = bac_pack::unpack_prg(&bank1, packer).context("unpacking the bank-1 file")?;
    let map = String::from_utf8_lossy(&read(&game.with_extension("map"))?).into_owned();
    let field = |suffix: &str| bac_harness::game::symbol(&map, |n| n.starts_with(suffix));
    let end = field("end").context("the map's end")?;
    let stack_bottom = map
        .lines()
        .find_map(|l| {
            l.split_once("grows down to ").and_then(|(_, a)| u16::from_str_radix(a.trim_end_matches(')'), 16).ok())
        })
        .context("the map's stack line")?;
    let built = crate::game_run::Built::read(&game)?;
    let mut timing = json!({});
    for (columns, eighty) in [("40", false), ("80", true)] {
        let run = crate::game_run::play(&built, eighty, false)?;
        timing[columns] = json!({
            "run_to_title_cycles": run.run_to_title,
            "last_card_to_settled_cycles": run.settle,
            "last_card_to_settled_30th_cycles": run.settle_30,
            "coup_avr_instructions_translated": run.coup.translated,
            "coup_avr_instructions_interpreted": run.coup.interpreted,
        });
    }
    Ok(json!({
        "fits": true,
        "program_bytes": u64::from(end).saturating_sub(u64::from(avr2mos::mmap::LOAD_ADDR)),
        "program_file_bytes": prg.len(),
        "bank1_file_bytes": bank1.len(),
        "bank0_end": end,
        "bank0_free_bytes": stack_bottom.saturating_sub(end),
        "stack_bytes": 0xD000 - u32::from(stack_bottom),
        "bank1_bytes": bank1_code.len(),
        "timing": timing,
    }))
}

/// Runs `bac bench`.
pub fn run(args: BenchArgs) -> Result<()> {
    let mut figures = json!({});
    if !args.translator_only {
        figures["host"] = host(args.hands)?;
    }
    if !args.host_only {
        let emulator = c128_emu::bench::measure(200_000_000).context("measuring the emulator")?;
        figures["emulator"] = json!({
            "cycles_per_second": emulator.cycles_per_second,
            "times_a_1_mhz_c128": emulator.speedup,
        });
        figures["rust"] = rust_on_c128()?;
        figures["cc65"] = cc65_on_c128()?;
        figures["kernels"] = kernels_on_c128()?;
        if !args.translator_only {
            figures["game"] = game_on_c128()?;
        }
    }
    if args.json {
        println!("{figures}");
        return Ok(());
    }
    let f = |v: &Value| v.as_f64().unwrap_or(f64::NAN);
    if !args.translator_only {
        let h = &figures["host"];
        println!("exact odds, Punto Banco, 8 decks     {:8.2} ms (median of 21)", f(&h["analyze_8_decks_ms"]));
        println!(
            "  with all 17 side bets              {:8.2} ms (median of 21)",
            f(&h["analyze_side_bets_8_decks_ms"])
        );
        println!(
            "equilibrium, Chemin de fer, 8 decks  {:8.2} ms (median of 11)",
            f(&h["solve_chemin_de_fer_8_decks_ms"])
        );
        println!(
            "simulator, 1 thread                  {:8.1} million coups/s",
            f(&h["sim_hands_per_second_1_thread"]) / 1e6
        );
        println!(
            "simulator, {} threads                  {:8.1} million coups/s",
            h["cores"],
            f(&h["sim_hands_per_second_all_cores"]) / 1e6
        );
    }
    if !args.host_only {
        let e = &figures["emulator"];
        println!(
            "emulator                             {:8.1} million cycles/s ({:.0} x a 1 MHz C128)",
            f(&e["cycles_per_second"]) / 1e6,
            f(&e["times_a_1_mhz_c128"])
        );
        println!();
        println!("on the C128 (1,000 Punto Banco coups)      rust        cc65");
        for (label, key) in [
            ("cycles per coup", "cycles_per_coup"),
            ("cycles per 8-deck shuffle", "shuffle_cycles"),
            ("program bytes", "code_bytes"),
        ] {
            println!("  {label:<38} {:>10.0} {:>10.0}", f(&figures["rust"][key]), f(&figures["cc65"][key]));
        }
        print_kernels(&figures["kernels"]);
        if args.translator_only {
            return Ok(());
        }
        let g = &figures["game"];
        println!();
        if g["fits"].as_bool() == Some(true) {
            println!(
                "the game (firmware/game-prg)         {:8.0} bytes in bank 0 (ends at ${:04X}, {:.0} bytes free \
                 above it, then {:.0} of stack), {:.0} bytes of AVR code in bank 1; on the disk, packed: \
                 BAC {:.0} bytes, BAC CODE {:.0}",
                f(&g["program_bytes"]),
                g["bank0_end"].as_u64().unwrap_or(0),
                f(&g["bank0_free_bytes"]),
                f(&g["stack_bytes"]),
                f(&g["bank1_bytes"]),
                f(&g["program_file_bytes"]),
                f(&g["bank1_file_bytes"])
            );
            for (columns, clock, per_frame) in [("40", "1 MHz", 19_656.0), ("80", "2 MHz", 2.0 * 19_656.0)] {
                let t = &g["timing"][columns];
                println!(
                    "  {columns} columns ({clock}): RUN to title {:>9.0} cycles ({:.2} s); last card to settled {:>8.0} cycles ({:.1} frames), at the 30th coup {:>8.0} ({:.1} frames)",
                    f(&t["run_to_title_cycles"]),
                    f(&t["run_to_title_cycles"]) / per_frame / 50.0,
                    f(&t["last_card_to_settled_cycles"]),
                    f(&t["last_card_to_settled_cycles"]) / per_frame,
                    f(&t["last_card_to_settled_30th_cycles"]),
                    f(&t["last_card_to_settled_30th_cycles"]) / per_frame
                );
                let (translated, interpreted) =
                    (f(&t["coup_avr_instructions_translated"]), f(&t["coup_avr_instructions_interpreted"]));
                println!(
                    "    a whole coup (the second) runs {translated:.0} AVR instructions translated and {interpreted:.0} \
                     interpreted: {:.1}% translated (waits for the frame left out)",
                    100.0 * translated / (translated + interpreted).max(1.0)
                );
            }
        } else {
            println!(
                "the game (firmware/game-prg)         does not fit: the image ends at ${:04X}, the limit is ${:04X}",
                g["ends_at"].as_u64().unwrap_or(0),
                g["limit"].as_u64().unwrap_or(0)
            );
        }
    }
    Ok(())
}

/// The suite's table: each kernel's cycles and bytes on both sides and their ratios, then
/// the geometric means.
fn print_kernels(k: &Value) {
    let f = |v: &Value| v.as_f64().unwrap_or(f64::NAN);
    println!();
    println!(
        "the benchmark suite (emulator-tests/kernels, seed {}): Rust against cc65",
        k["seed"].as_u64().unwrap_or(0)
    );
    println!(
        "  {:<12} {:>10} {:>10} {:>10} {:>6}   {:>6} {:>6} {:>6}",
        "kernel", "rust cyc", "-O0 cyc", "cc65 cyc", "ratio", "rust B", "cc65 B", "ratio"
    );
    for kernel in k["kernels"].as_array().into_iter().flatten() {
        println!(
            "  {:<12} {:>10.0} {:>10.0} {:>10.0} {:>6.2}   {:>6.0} {:>6.0} {:>6.2}{}",
            kernel["name"].as_str().unwrap_or("?"),
            f(&kernel["rust_cycles"]),
            f(&kernel["rust_o0_cycles"]),
            f(&kernel["cc65_cycles"]),
            f(&kernel["cycles_ratio"]),
            f(&kernel["rust_bytes"]),
            f(&kernel["cc65_bytes"]),
            f(&kernel["bytes_ratio"]),
            if kernel["slower_than_o0"].as_bool() == Some(true) { "  SLOWER than --opt-level 0" } else { "" }
        );
    }
    println!(
        "  {:<12} {:>10} {:>10} {:>10} {:>6.2}   {:>6} {:>6} {:>6.2}",
        "geomean",
        "",
        "",
        "",
        f(&k["geomean_cycles_ratio"]),
        "",
        "",
        f(&k["geomean_bytes_ratio"])
    );
    println!(
        "  (bytes: each program's less the program without a kernel, {:.0} bytes in Rust, {:.0} in C)",
        f(&k["rust_empty_program_bytes"]),
        f(&k["cc65_empty_program_bytes"])
    );
    println!("  (-O0: the Rust translated with --opt-level 0; the optimised translation should never be slower)");
}
