//! Shared test support: a flat 64 KiB RAM bus for the `mos6502` CPU with the few KERNAL
//! entry points the tests use trapped, and one `run` loop for every test.

#![allow(dead_code)] // Each test binary uses a different part of this module.

use mos6502::cpu::CPU;
use mos6502::instruction::Nmos6502;
use mos6502::memory::Bus;
use mos6502::registers::StackPointer;

/// Cargo's target directory for a test program: the one every C128 build of the
/// repository shares for its panic strategy (`target/c128-avr/`, as
/// `bac_harness::build::shared_target` gives it), so that a run builds `core` for
/// `avr-none` once per strategy.
pub fn shared_target(manifest: &std::path::Path) -> std::path::PathBuf {
    let base = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../target/c128-avr");
    avr2mos::pipeline::shared_target_dir(&base, manifest).unwrap_or_else(|e| panic!("{}: {e}", manifest.display()))
}

/// Where the emulated `SYS` returns to; reaching it ends the run.
pub const RETURN_TRAP: u16 = 0xFFF8;

/// Flat RAM with the debug-cartridge exit port at $D7FF.
pub struct FlatBus {
    /// The memory.
    pub mem: Vec<u8>,
    /// The exit code written to $D7FF, if any.
    pub exit: Option<u8>,
    /// Zero page at the moment of the exit write (the program restores BASIC's after).
    pub zp_at_exit: Vec<u8>,
}

impl Bus for FlatBus {
    fn get_byte(&mut self, address: u16) -> u8 {
        self.mem[usize::from(address)]
    }
    fn set_byte(&mut self, address: u16, value: u8) {
        if address == 0xD7FF && self.exit.is_none() {
            self.exit = Some(value);
            self.zp_at_exit = self.mem[..256].to_vec();
        }
        self.mem[usize::from(address)] = value;
    }
}

/// The outcome of a run.
pub struct Run {
    /// Exit code written to $D7FF.
    pub exit: Option<u8>,
    /// Bytes written through CHROUT.
    pub output: Vec<u8>,
    /// Zero page at exit.
    pub zp: Vec<u8>,
    /// Memory after the run.
    pub mem: Vec<u8>,
    /// Cycles used.
    pub cycles: u64,
    /// Whether the program returned to the `SYS` caller.
    pub returned: bool,
}

/// A loaded program on the CPU, with the KERNAL traps.
pub struct Machine {
    /// The CPU and its bus.
    pub cpu: CPU<FlatBus, Nmos6502>,
    /// Bytes written through CHROUT.
    pub output: Vec<u8>,
    /// Whether the program returned to the `SYS` caller.
    pub returned: bool,
    basic_zp: Vec<u8>,
}

impl Machine {
    /// Loads a `.prg` and prepares `SYS 7181`.
    pub fn new(prg: &[u8]) -> Self {
        let mut mem = vec![0u8; 0x10000];
        let load = usize::from(u16::from_le_bytes([prg[0], prg[1]]));
        mem[load..load + prg.len() - 2].copy_from_slice(&prg[2..]);
        // BASIC's zero page holds something; the program must give it back unchanged.
        for (i, b) in mem[0x02..0x90].iter_mut().enumerate() {
            *b = (i as u8).wrapping_mul(37) ^ 0x5A;
        }
        let basic_zp = mem[..0x90].to_vec();
        let mut cpu = CPU::new(FlatBus { mem, exit: None, zp_at_exit: vec![] }, Nmos6502);
        let ret = RETURN_TRAP - 1;
        cpu.memory.mem[0x1FF] = (ret >> 8) as u8;
        cpu.memory.mem[0x1FE] = ret as u8;
        cpu.registers.stack_pointer = StackPointer(0xFD);
        cpu.registers.program_counter = 0x1C0D;
        Machine { cpu, output: Vec::new(), returned: false, basic_zp }
    }

    /// Executes one instruction or KERNAL trap. `Ok(false)` once the program has
    /// returned to BASIC.
    pub fn step(&mut self) -> Result<bool, String> {
        let cpu = &mut self.cpu;
        let pc = cpu.registers.program_counter;
        match pc {
            RETURN_TRAP => {
                self.returned = true;
                if cpu.memory.mem[..0x90] != self.basic_zp[..] {
                    return Err("BASIC zero page not restored".into());
                }
                return Ok(false);
            }
            0xFFD2 | 0xFFE4 => {
                if pc == 0xFFD2 {
                    self.output.push(cpu.registers.accumulator);
                } else {
                    cpu.registers.accumulator = 0;
                }
                let sp = cpu.registers.stack_pointer.0;
                let lo = cpu.memory.mem[0x100 + usize::from(sp.wrapping_add(1))];
                let hi = cpu.memory.mem[0x100 + usize::from(sp.wrapping_add(2))];
                cpu.registers.stack_pointer = StackPointer(sp.wrapping_add(2));
                cpu.registers.program_counter = u16::from_le_bytes([lo, hi]).wrapping_add(1);
                cpu.cycles += 6;
                return Ok(true);
            }
            _ => {}
        }
        let op = cpu.memory.mem[usize::from(pc)];
        if op == 0x00 {
            return Err(format!("BRK at {pc:04x}, output so far {:?}", String::from_utf8_lossy(&self.output)));
        }
        if !cpu.single_step() {
            return Err(format!("CPU stopped at {pc:04x} (opcode {op:02x})"));
        }
        Ok(true)
    }
}

/// Loads a `.prg` and runs it as `RUN` would (`SYS 7181`), up to `max_cycles`.
pub fn run(prg: &[u8], max_cycles: u64) -> Result<Run, String> {
    let mut m = Machine::new(prg);
    while m.cpu.cycles < max_cycles && m.step()? {}
    Ok(Run {
        exit: m.cpu.memory.exit,
        output: m.output,
        zp: m.cpu.memory.zp_at_exit.clone(),
        mem: m.cpu.memory.mem.clone(),
        cycles: m.cpu.cycles,
        returned: m.returned,
    })
}

/// Runs an AVR ELF file translated (with every function keeping the AVR stack footprint)
/// and on the reference interpreter side by side, comparing the live registers
/// ([`avr2mos::Translation::live_at`]) whenever the 6502 reaches the start of a
/// translated instruction. Returns the output and every register
/// divergence (with the instructions that ran since the last agreement; the interpreter
/// then takes the 6502's registers and goes on, because a divergence can be harmless: a
/// rotate through a carry left undefined by a call, whose bit is overwritten next).
pub fn lockstep(elf: &[u8], max_cycles: u64) -> Result<(Vec<u8>, Vec<String>), String> {
    lockstep_at(elf, max_cycles, avr2mos::OptLevel::Full)
}

/// [`lockstep`] with the translation at `level`.
pub fn lockstep_at(elf: &[u8], max_cycles: u64, level: avr2mos::OptLevel) -> Result<(Vec<u8>, Vec<String>), String> {
    let prog = avr2mos::AvrProgram::from_elf(elf).map_err(|e| e.to_string())?;
    lockstep_program(&prog, max_cycles, level)
}

/// [`lockstep_at`] on a program already read (or written by hand).
pub fn lockstep_program(
    prog: &avr2mos::AvrProgram,
    max_cycles: u64,
    level: avr2mos::OptLevel,
) -> Result<(Vec<u8>, Vec<String>), String> {
    use avr2mos::avrsim::{Avr, Stop};
    use std::collections::HashMap;
    let opts = avr2mos::Options { adjust_all: true, opt_level: level, ..Default::default() };
    let t = avr2mos::translate_with(prog, &opts).map_err(|e| e.to_string())?;
    let mut m = Machine::new(&t.prg);
    let mut avr = Avr::new(t.relocated_text.clone(), prog.entry, avr2mos::mmap::STACK_TOP - 2);
    avr.mem.copy_from_slice(&m.cpu.memory.mem);
    avr.ptr_table = prog.functions.iter().filter_map(|f| Some((t.symbol(&f.name)?, f.addr))).collect();
    avr.code_ptr = |a, z| a.ptr_table.iter().find(|(p, _)| *p == z).map(|&(_, x)| x);
    let mut groups: HashMap<u16, Vec<u32>> = HashMap::new();
    for &(pc, a) in &t.pc_map {
        groups.entry(pc).or_default().push(a);
    }
    let mut last = prog.entry;
    let mut trace: Vec<u32> = Vec::new();
    let mut first = true;
    let mut divergences = Vec::new();
    while m.cpu.cycles < max_cycles {
        if !m.step()? {
            return Ok((m.output, divergences));
        }
        let pc = m.cpu.registers.program_counter;
        let Some(group) = groups.get(&pc) else { continue };
        trace.clear();
        let mut steps = 0;
        while !group.contains(&avr.pc) {
            trace.push(avr.pc);
            if let Some(stop) = avr.step() {
                let ran: Vec<String> = trace.iter().map(|&a| prog.locate(a).to_string()).collect();
                return Err(format!(
                    "AVR stopped with {stop:?} while the 6502 is at {pc:04x}, after {}",
                    ran.join(" ; ")
                ));
            }
            steps += 1;
            if steps > 100_000 {
                return Err(format!(
                    "control flow diverged after {} (6502 at {pc:04x}, AVR wants {:?})",
                    prog.locate(last),
                    group
                ));
            }
        }
        let zp = &m.cpu.memory.mem[0x10..0x30];
        // An inert SREG save leaves r0 (LLVM's scratch register) unwritten on the 6502.
        let saved_sreg = trace.iter().any(|&a| {
            avr2mos::input::decode::decode(&prog.text, a as usize, 0)
                .is_ok_and(|i| i.op == avr2mos::input::decode::Op::In && i.k == 0x3F && i.d == 0)
        });
        if saved_sreg {
            avr.r[0] = zp[0];
        }
        if first {
            // Registers are undefined at the entry: start from the same values.
            avr.r.copy_from_slice(zp);
            first = false;
        }
        // Only the live registers must agree: a dead one may hold anything (a save left
        // out leaves the callee's value). A dead register keeps the simulator's value, so
        // a liveness that missed a read shows up where the read's result is compared.
        let live = t.live_at(avr.pc);
        let differs: Vec<usize> = (0..32).filter(|&i| live & (1 << i) != 0 && zp[i] != avr.r[i]).collect();
        if !differs.is_empty() {
            let diffs: Vec<String> =
                differs.iter().map(|&i| format!("r{i}: 6502 {:02x} avr {:02x}", zp[i], avr.r[i])).collect();
            let ran: Vec<String> = trace.iter().map(|&a| prog.locate(a).to_string()).collect();
            divergences.push(format!(
                "registers differ before {}: {}\nafter running {}",
                prog.locate(avr.pc),
                diffs.join(", "),
                ran.join(" ; ")
            ));
            for i in differs {
                avr.r[i] = zp[i];
            }
        }
        last = avr.pc;
        let _ = Stop::Exit(0);
    }
    Err("cycle budget exhausted".into())
}

/// The program and the description of one precise-output input file (`tests/filetests`,
/// its format described there).
pub fn parse_avr(path: &std::path::Path, text: &str) -> Result<(avr2mos::AvrProgram, String), String> {
    use std::fmt::Write as _;
    let mut words: Vec<u16> = Vec::new();
    let mut functions = Vec::new();
    let mut about = String::new();
    let mut relocs = std::collections::BTreeMap::new();
    for (n, line) in text.lines().enumerate() {
        let (code, comment) = line.split_once(';').unwrap_or((line, ""));
        if code.trim().is_empty() {
            if functions.is_empty() && !comment.is_empty() {
                let _ = writeln!(about, ";{comment}");
            }
            continue;
        }
        if let Some(name) = code.trim().strip_prefix("fn ") {
            functions.push(avr2mos::input::program::Function {
                name: name.trim().to_string(),
                addr: 2 * words.len() as u32,
            });
            continue;
        }
        if functions.is_empty() {
            return Err(format!("{}:{}: code before the first `fn`", path.display(), n + 1));
        }
        for w in code.split_whitespace() {
            // `5024@-lo:0260`: the word's immediate is lo8(-(data address 0x260)), relocated.
            let (w, reloc) = w.split_once('@').map_or((w, None), |(w, r)| (w, Some(r)));
            if let Some(r) = reloc {
                let bad = || format!("{}:{}: {r:?} is not -lo:ADDR or -hi:ADDR", path.display(), n + 1);
                let (kind, at) = r.split_once(':').ok_or_else(bad)?;
                let kind = match kind {
                    "-lo" => avr2mos::input::program::RelocKind::Lo8LdiNeg,
                    "-hi" => avr2mos::input::program::RelocKind::Hi8LdiNeg,
                    _ => return Err(bad()),
                };
                let at = u32::from_str_radix(at, 16).map_err(|_| bad())?;
                let offset = 2 * words.len() as u32;
                let target = avr2mos::input::program::Target::Data(at);
                relocs.insert(offset, avr2mos::input::program::Reloc { offset, kind, target });
            }
            let v = u16::from_str_radix(w, 16)
                .map_err(|e| format!("{}:{}: {w:?} is not a hex word: {e}", path.display(), n + 1))?;
            words.push(v);
        }
    }
    let prog = avr2mos::AvrProgram {
        text: words.iter().flat_map(|w| w.to_le_bytes()).collect(),
        data_base: 0x200,
        functions,
        entry: 0,
        absolute: avr2mos::runtime::NATIVE.iter().map(|&(n, a, _)| (a, n.to_string())).collect(),
        // Room for the tables relocations name.
        data: if relocs.is_empty() { Vec::new() } else { vec![0; 0x100] },
        text_relocs: relocs,
        ..Default::default()
    };
    Ok((prog, about))
}
