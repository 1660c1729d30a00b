//! Sizes of a crate's program translated and with functions interpreted
//! (`cargo run --release --example interp_size -- CRATE/Cargo.toml 'bac_game::' '*'`):
//! one line per setting (comma-separated prefixes; no setting: translated only).

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let Some(manifest) = args.get(1) else {
        eprintln!("usage: interp_size CRATE/Cargo.toml [PREFIX,PREFIX...]...");
        std::process::exit(2);
    };
    let opts = avr2mos::pipeline::BuildOptions { manifest_path: manifest.into(), quiet: true, ..Default::default() };
    let elf = match avr2mos::pipeline::build_elf(&opts) {
        Ok(elf) => elf,
        Err(e) => {
            eprintln!("{e}");
            std::process::exit(1);
        }
    };
    let prog =
        avr2mos::AvrProgram::from_elf(&std::fs::read(&elf).expect("read the ELF file")).expect("an AVR ELF file");
    println!("{} bytes of AVR code, {} of data, {} of .bss", prog.text.len(), prog.data.len(), prog.bss_len);
    // AVR bytes by crate (the first path component of the demangled name or self type).
    let mut by_crate = std::collections::BTreeMap::<String, usize>::new();
    for (k, f) in prog.functions.iter().enumerate() {
        let end = prog.functions.get(k + 1).map_or(prog.text.len() as u32, |n| n.addr);
        let name = avr2mos::runtime::interp::demangle(&f.name);
        let krate = name.trim_start_matches('<').split("::").next().unwrap_or("").to_string();
        *by_crate.entry(krate).or_default() += (end - f.addr) as usize;
    }
    let mut crates: Vec<_> = by_crate.into_iter().collect();
    crates.sort_by_key(|c| std::cmp::Reverse(c.1));
    let top: Vec<String> = crates.iter().take(8).map(|(c, n)| format!("{c} {n}")).collect();
    println!("AVR bytes by crate: {}", top.join(", "));
    let mut settings = vec![String::new()];
    settings.extend(args[2..].iter().cloned());
    for setting in settings {
        let interpret: Vec<String> = setting.split(',').filter(|p| !p.is_empty()).map(str::to_string).collect();
        let memory = avr2mos::pipeline::memory_mode(manifest.as_ref()).expect("the manifest's memory setting");
        let options = avr2mos::Options { interpret, memory, ..Default::default() };
        match avr2mos::pipeline::translate_elf_with(&elf, &options) {
            Ok(t) => println!("interpret = [{setting}]: {} bytes of .prg; {}", t.prg.len(), t.stats),
            Err(e) => println!(
                "interpret = [{setting}]: {e}: {}",
                std::error::Error::source(&e).map(|s| s.to_string()).unwrap_or_default()
            ),
        }
    }
}
