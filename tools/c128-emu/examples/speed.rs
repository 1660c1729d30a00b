//! The emulator's speed alone, as `bac bench` measures it (`c128_emu::bench::measure`), for
//! profiling the run loop without building the rest of `bac bench`'s programs:
//! `cargo run --release -p c128-emu --example speed [-- CYCLES]`.

fn main() {
    let cycles = std::env::args().nth(1).and_then(|a| a.parse().ok()).unwrap_or(200_000_000);
    match c128_emu::bench::measure(cycles) {
        Ok(b) => println!(
            "{:.0} million cycles a second, {:.1} times a 1 MHz C128 ({} cycles in {:.3} s)",
            b.cycles_per_second / 1e6,
            b.speedup,
            b.cycles,
            b.seconds
        ),
        Err(e) => {
            eprintln!("speed: {e}");
            std::process::exit(1);
        }
    }
}
