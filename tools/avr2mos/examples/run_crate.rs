//! Builds a crate through the pipeline and runs it on a flat-RAM 6502, printing its
//! CHROUT output: a debugging aid (`cargo run --example run_crate -- CRATE/Cargo.toml`).

#[path = "../tests/common/mod.rs"]
mod common;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let Some(manifest) = args.get(1) else {
        eprintln!("usage: run_crate CRATE/Cargo.toml [BIN]");
        std::process::exit(2);
    };
    let opts = avr2mos::pipeline::BuildOptions {
        manifest_path: manifest.into(),
        bin: args.get(2).cloned(),
        ..Default::default()
    };
    match avr2mos::pipeline::build_prg(&opts) {
        Ok(report) => {
            let prg = std::fs::read(&report.prg).expect("read prg");
            if std::env::var_os("LOCKSTEP").is_some() {
                let elf = std::fs::read(&report.elf).expect("read elf");
                match common::lockstep(&elf, 2_000_000_000) {
                    Ok((out, divs)) => {
                        let mut seen = std::collections::BTreeMap::new();
                        for d in &divs {
                            *seen.entry(d.clone()).or_insert(0) += 1;
                        }
                        for (d, n) in seen.iter().take(20) {
                            println!("{n}x {d}");
                        }
                        println!(
                            "lockstep done, {} divergences; output {:?}",
                            divs.len(),
                            String::from_utf8_lossy(&out)
                        );
                    }
                    Err(e) => println!("lockstep: {e}"),
                }
                return;
            }
            match common::run(&prg, 2_000_000_000) {
                Ok(r) => {
                    print!("{}", String::from_utf8_lossy(&r.output));
                    eprintln!("exit {:?} after {} cycles", r.exit, r.cycles);
                }
                Err(e) => eprintln!("run failed: {e}"),
            }
        }
        Err(e) => eprintln!("{e}"),
    }
}
