//! The speed benchmark runs and reports (speed itself is reported, never asserted).

#[test]
fn benchmark_runs_the_requested_cycles_and_reports_speed() {
    let b = c128_emu::bench::measure(2_000_000).unwrap();
    assert!(b.cycles >= 2_000_000 && b.cycles < 2_000_010, "{b:?}");
    assert!(b.cycles_per_second > 0.0 && b.speedup > 0.0);
    println!(
        "emulated {} cycles in {:.3} s: {:.1} M cycles/s, {:.1}x a 1 MHz C128",
        b.cycles,
        b.seconds,
        b.cycles_per_second / 1e6,
        b.speedup
    );
}
