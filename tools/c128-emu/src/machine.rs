//! The machine: the 8502 on the C128 bus, the emulated KERNAL, loading and `RUN`, and the
//! run loop that ends with an exit code or a typed error.

use mos6502::cpu::CPU;
use mos6502::instruction::Nmos6502;
use mos6502::registers::{StackPointer, Status};

use crate::bus::C128Bus;
use crate::chips::vic::VideoStandard;
use crate::editor::{COLOR, MODE};
use crate::error::{CpuState, LoadError, RunError, Where};
use crate::kernal::{self, Cpu, Kernal, Outcome, RETURN_TRAP, Trap};
use crate::mmu::{Page, Rom};
use crate::prg;
use c128_map::kernal::EDITOR_IRQ;
use c128_map::zp::VM1;

/// How the machine is built and how long it may run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Config {
    /// The cycle budget of a run; reaching it is [`RunError::CycleBudget`].
    pub max_cycles: u64,
    /// PAL (50 Hz, the default) or NTSC.
    pub standard: VideoStandard,
    /// Whether the 40/80 key is down, so the machine starts on the 80-column screen.
    pub eighty_columns: bool,
    /// VDC RAM: 16 or 64 KB.
    pub vdc_ram_kb: usize,
    /// Run undocumented NMOS opcodes instead of stopping with [`RunError::Undocumented`].
    pub allow_undocumented: bool,
    /// How many times a jump to itself may run before the run stops as stuck.
    pub stuck_limit: u32,
    /// Where the program's code is (for translated programs, from the translator's map).
    /// When not empty, executing RAM outside these ranges stops the run with
    /// [`RunError::OutsideProgram`]; KERNAL traps are always allowed. Empty by default
    /// (a booting disk runs code at $0B00 first).
    pub code_ranges: Vec<std::ops::Range<u16>>,
    /// Where the CIAs' time-of-day clocks start, in tenths of a second after midnight.
    /// 0 by default so that runs repeat; an interactive front end may pass the wall clock
    /// so that programs seeding a PRNG from the TOD clock deal differently each time.
    pub tod_start_tenths: u64,
    /// End the run cleanly ([`ExitKind::KeysDone`]) this many frames after the key script
    /// has been typed out, for interactive programs that never exit (`bac run --keys ...
    /// --screenshot`). `None` (the default) runs to the program's own end.
    pub stop_frames_after_keys: Option<u32>,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            max_cycles: 200_000_000,
            standard: VideoStandard::Pal,
            eighty_columns: false,
            vdc_ram_kb: 16,
            allow_undocumented: false,
            stuck_limit: 100_000,
            code_ranges: Vec::new(),
            tod_start_tenths: 0,
            stop_frames_after_keys: None,
        }
    }
}

/// How a program ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ExitKind {
    /// It wrote its exit code to $D7FF (VICE's debug cartridge).
    DebugCartridge,
    /// It returned from its `SYS` to BASIC without writing $D7FF (exit code 0).
    ReturnedToBasic,
    /// It was still running when the key script had been typed and
    /// [`Config::stop_frames_after_keys`] frames had passed (exit code 0).
    KeysDone,
}

/// A clean end of a run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Exit {
    /// The exit code.
    pub code: u8,
    /// How the program ended.
    pub kind: ExitKind,
    /// 8502 cycles executed (in FAST mode each is half as long).
    pub cycles: u64,
}

/// Describes an address of the running program (for translated code, the AVR instruction
/// it came from), for error messages.
pub type SourceMap = Box<dyn Fn(u16) -> Option<String> + Send>;

/// Opcodes of the documented NMOS 6502 instruction set.
const DOCUMENTED: [u8; 151] = [
    0x00, 0x01, 0x05, 0x06, 0x08, 0x09, 0x0A, 0x0D, 0x0E, 0x10, 0x11, 0x15, 0x16, 0x18, 0x19, 0x1D, 0x1E, 0x20, 0x21,
    0x24, 0x25, 0x26, 0x28, 0x29, 0x2A, 0x2C, 0x2D, 0x2E, 0x30, 0x31, 0x35, 0x36, 0x38, 0x39, 0x3D, 0x3E, 0x40, 0x41,
    0x45, 0x46, 0x48, 0x49, 0x4A, 0x4C, 0x4D, 0x4E, 0x50, 0x51, 0x55, 0x56, 0x58, 0x59, 0x5D, 0x5E, 0x60, 0x61, 0x65,
    0x66, 0x68, 0x69, 0x6A, 0x6C, 0x6D, 0x6E, 0x70, 0x71, 0x75, 0x76, 0x78, 0x79, 0x7D, 0x7E, 0x81, 0x84, 0x85, 0x86,
    0x88, 0x8A, 0x8C, 0x8D, 0x8E, 0x90, 0x91, 0x94, 0x95, 0x96, 0x98, 0x99, 0x9A, 0x9D, 0xA0, 0xA1, 0xA2, 0xA4, 0xA5,
    0xA6, 0xA8, 0xA9, 0xAA, 0xAC, 0xAD, 0xAE, 0xB0, 0xB1, 0xB4, 0xB5, 0xB6, 0xB8, 0xB9, 0xBA, 0xBC, 0xBD, 0xBE, 0xC0,
    0xC1, 0xC4, 0xC5, 0xC6, 0xC8, 0xC9, 0xCA, 0xCC, 0xCD, 0xCE, 0xD0, 0xD1, 0xD5, 0xD6, 0xD8, 0xD9, 0xDD, 0xDE, 0xE0,
    0xE1, 0xE4, 0xE5, 0xE6, 0xE8, 0xE9, 0xEA, 0xEC, 0xED, 0xEE, 0xF0, 0xF1, 0xF5, 0xF6, 0xF8, 0xF9, 0xFD, 0xFE,
];

/// Per opcode: 0 = documented, 1 = BRK, 2 = jams the CPU, 3 = undocumented.
const fn opcode_classes() -> [u8; 256] {
    let mut t = [3u8; 256];
    let mut i = 0;
    while i < DOCUMENTED.len() {
        t[DOCUMENTED[i] as usize] = 0;
        i += 1;
    }
    t[0x00] = 1;
    let jams = [0x02, 0x12, 0x22, 0x32, 0x42, 0x52, 0x62, 0x72, 0x92, 0xB2, 0xD2, 0xF2];
    let mut j = 0;
    while j < jams.len() {
        t[jams[j]] = 2;
        j += 1;
    }
    t
}

static OPCODE_CLASS: [u8; 256] = opcode_classes();

/// What the run loop does after looking at a PC outside plain RAM.
enum Flow {
    Execute,
    Continue,
    Exit(Exit),
}

/// A C128 with a program in it.
pub struct Machine {
    /// The 8502 and, as its `memory`, the rest of the machine.
    pub cpu: Cpu,
    /// The emulated KERNAL (screen editor, output log, files, drive).
    pub kernal: Kernal,
    /// The configuration it was built with.
    pub config: Config,
    source_map: Option<SourceMap>,
    same_pc: u32,
    /// The PCs of the last [`TRAIL`] instructions, a ring indexed by `steps`.
    trail: [u16; TRAIL],
    steps: usize,
    /// Where [`Machine::run_to`] stops.
    break_at: Vec<u16>,
    /// The NMI line at the last instruction's end, for its edge ([`Machine::step_instruction`]).
    nmi_line: bool,
}

/// How many recent PCs an error report lists.
const TRAIL: usize = 8;

impl std::fmt::Debug for Machine {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Machine")
            .field("registers", &self.cpu.registers)
            .field("cycles", &self.cpu.cycles)
            .field("kernal", &self.kernal)
            .finish_non_exhaustive()
    }
}

impl Machine {
    /// A machine in the state the KERNAL leaves it after power-on, at the READY prompt with
    /// cleared screens (the 80-column one active when `config.eighty_columns`).
    pub fn new(config: Config) -> Self {
        let bus = C128Bus::new(config.standard, config.vdc_ram_kb, config.eighty_columns, config.tod_start_tenths);
        let mut cpu = CPU::new(bus, Nmos6502);
        cpu.registers.stack_pointer = StackPointer(0xFA);
        cpu.registers.status = Status::PS_UNUSED;
        let mut kernal = Kernal::default();
        let b = &mut cpu.memory;
        b.stop_after_keys = config.stop_frames_after_keys;
        let words: [(u16, u16); 3] = [(0x0314, EDITOR_IRQ), (0x0316, 0xB003), (0x0318, 0xFA40)];
        for (at, v) in words {
            b.ram_poke(0, at, v as u8);
            b.ram_poke(0, at + 1, (v >> 8) as u8);
        }
        Kernal::power_on_keyboard(b);
        b.ram_poke(0, VM1, 0x14);
        b.ram_poke(0, 0x0A2D, 0x78);
        b.ram_poke(0, COLOR, 3);
        b.ram_poke(0, MODE, 0x80);
        kernal.editor.clear(b);
        b.ram_poke(0, COLOR, 13);
        b.ram_poke(0, MODE, 0x00);
        kernal.editor.clear(b);
        if config.eighty_columns {
            b.ram_poke(0, COLOR, 3);
            b.ram_poke(0, MODE, 0x80);
            kernal.inactive_screen = [0, 0, 13];
        }
        Machine {
            cpu,
            kernal,
            config,
            source_map: None,
            same_pc: 0,
            trail: [0; TRAIL],
            steps: 0,
            break_at: Vec::new(),
            nmi_line: false,
        }
    }

    /// Installs the function that describes program addresses in error messages.
    pub fn set_source_map(&mut self, map: SourceMap) {
        self.source_map = Some(map);
    }

    /// The bus (memory, chips, keyboard).
    pub fn bus(&self) -> &C128Bus {
        &self.cpu.memory
    }

    /// The bus, mutably.
    pub fn bus_mut(&mut self) -> &mut C128Bus {
        &mut self.cpu.memory
    }

    /// Loads a `.prg` into RAM bank 0 as `LOAD"…",8` would; returns the end address.
    pub fn load_prg(&mut self, bytes: &[u8]) -> Result<u16, LoadError> {
        let p = prg::parse(bytes)?;
        for (i, &b) in p.body.iter().enumerate() {
            self.cpu.memory.ram_poke(0, p.load + i as u16, b);
        }
        let end = p.load + p.body.len() as u16;
        // BASIC's end-of-program pointer, so that a program that looks at it finds its end.
        self.cpu.memory.ram_poke(0, 0x1210, end as u8);
        self.cpu.memory.ram_poke(0, 0x1211, (end >> 8) as u8);
        Ok(end)
    }

    /// The address the loaded program's first line `SYS`es to.
    pub fn sys_address(&self) -> Result<u16, LoadError> {
        prg::sys_address(|a| self.cpu.memory.ram_peek(0, a))
    }

    /// `RUN`: calls the loaded program's `SYS` address and runs it to its end.
    pub fn run_basic(&mut self) -> Result<Exit, crate::Error> {
        let entry = self.sys_address()?;
        self.call(entry).map_err(|error| crate::Error::Run { error, output: self.output_text() })
    }

    /// `SYS addr` from BASIC in bank 15: a JSR to `addr` whose return ends the run, with
    /// interrupts enabled. Runs to the end.
    pub fn call(&mut self, addr: u16) -> Result<Exit, RunError> {
        self.start(addr);
        self.run()
    }

    /// Sets up `SYS addr` without running it (for front ends that run frame by frame).
    pub fn start(&mut self, addr: u16) {
        self.cpu.memory.mmu.write_ff(0, 0x00);
        kernal::push_return(&mut self.cpu, RETURN_TRAP);
        let r = &mut self.cpu.registers;
        r.program_counter = addr;
        r.accumulator = 0;
        r.index_x = 0;
        r.index_y = 0;
        r.status = Status::PS_UNUSED;
    }

    /// Runs until the program ends, fails, or the cycle budget is spent.
    pub fn run(&mut self) -> Result<Exit, RunError> {
        let limit = self.config.max_cycles;
        match self.run_until(limit)? {
            Some(exit) => Ok(exit),
            None => Err(RunError::CycleBudget { limit, at: self.location() }),
        }
    }

    /// Runs until the program is about to execute one of `pcs` (after at least one
    /// instruction), returning `Ok(None)` there or when the cycle counter reaches `limit`;
    /// tests and benchmarks use it to act when a program reaches a routine (the game's
    /// keyboard read, say).
    pub fn run_to(&mut self, pcs: &[u16], limit: u64) -> Result<Option<Exit>, RunError> {
        self.break_at = pcs.to_vec();
        let result = self.run_until(limit);
        self.break_at.clear();
        result
    }

    /// Runs until the cycle counter reaches `limit` (`Ok(None)`), the program ends, or it
    /// fails. Front ends call this once a frame.
    pub fn run_until(&mut self, limit: u64) -> Result<Option<Exit>, RunError> {
        let first = self.steps;
        // Whether either per-instruction check of an address list applies to this run:
        // decided once, so that a run with neither tests one flag an instruction.
        let listed = !self.break_at.is_empty() || !self.config.code_ranges.is_empty();
        while self.cpu.cycles < limit {
            let pc = self.cpu.registers.program_counter;
            if listed && !self.break_at.is_empty() && self.steps != first && self.break_at.contains(&pc) {
                return Ok(None);
            }
            if self.cpu.memory.slow_page(pc) {
                match self.outside_ram(pc)? {
                    Flow::Execute => {}
                    Flow::Continue => continue,
                    Flow::Exit(e) => return Ok(Some(e)),
                }
            }
            if listed && !self.config.code_ranges.is_empty() && !self.config.code_ranges.iter().any(|r| r.contains(&pc))
            {
                let region = format!(
                    "RAM outside the program's code {}",
                    self.config
                        .code_ranges
                        .iter()
                        .map(|r| format!("${:04X}-${:04X}", r.start, r.end.wrapping_sub(1)))
                        .collect::<Vec<_>>()
                        .join(", ")
                );
                return Err(RunError::OutsideProgram { region, at: self.location() });
            }
            let op = self.cpu.memory.peek(pc);
            match OPCODE_CLASS[usize::from(op)] {
                0 => {}
                1 => return Err(RunError::Brk(self.location())),
                2 => return Err(RunError::Jam(self.location())),
                _ if self.config.allow_undocumented => {}
                _ => return Err(RunError::Undocumented(self.location())),
            }
            let before = self.cpu.cycles;
            self.trail[self.steps % TRAIL] = pc;
            self.steps = self.steps.wrapping_add(1);
            self.step_instruction();
            let spent = self.cpu.cycles - before;
            self.cpu.memory.advance(spent);
            if self.cpu.memory.stop_requested || self.cpu.memory.exit_code.is_some() {
                let cycles = self.cpu.cycles;
                if let Some(code) = self.cpu.memory.exit_code {
                    return Ok(Some(Exit { code, kind: ExitKind::DebugCartridge, cycles }));
                }
                return Ok(Some(Exit { code: 0, kind: ExitKind::KeysDone, cycles }));
            }
            if self.cpu.registers.program_counter == pc {
                self.same_pc += 1;
                if self.same_pc > self.config.stuck_limit {
                    let count = self.same_pc;
                    return Err(RunError::Stuck { count, at: self.location() });
                }
            } else {
                self.same_pc = 0;
            }
        }
        Ok(None)
    }

    /// One instruction and the interrupt check after it: what `mos6502`'s `single_step`
    /// does for a running NMOS CPU, with its interrupt check inlined here. The crate's check
    /// is a call per instruction that asks the bus for both lines (7% of the emulator's time
    /// by `perf`); here the lines are read inline and an interrupt is taken as the crate
    /// takes it: the I flag sampled before the instruction (so CLI, SEI and PLP act one
    /// instruction late), NMI on the line's rising edge and before IRQ, PC and status
    /// (B clear, bit 5 set) pushed, I set, PC from the vector.
    #[inline]
    fn step_instruction(&mut self) {
        use mos6502::memory::Bus as _;
        let irq_enabled = !self.cpu.registers.status.contains(Status::PS_DISABLE_INTERRUPTS);
        match self.cpu.fetch_next_and_decode() {
            Some(decoded) => self.cpu.execute_instruction(decoded),
            // Not an instruction of the variant: the crate's single_step spends a cycle.
            None => self.cpu.cycles = self.cpu.cycles.wrapping_add(1),
        }
        let nmi = self.cpu.memory.nmi_pending();
        let nmi_edge = nmi && !self.nmi_line;
        self.nmi_line = nmi;
        if nmi_edge {
            self.service_interrupt(mos6502::memory::NMI_INTERRUPT_VECTOR_LO);
        } else if irq_enabled && self.cpu.memory.irq_pending() {
            let vector = self.cpu.memory.irq_vector();
            self.service_interrupt(vector);
            // The bus marks an IRQ taken (`irq_vector`), and its seven cycles are charged
            // here, as they were after the crate's single_step; an NMI never was.
            if std::mem::take(&mut self.cpu.memory.interrupt_taken) {
                self.cpu.cycles += 7;
            }
        }
    }

    /// Takes an interrupt through `vector` as the 6502 does: PC and the status (B clear,
    /// bit 5 set) pushed, I set, PC read from the vector.
    #[cold]
    fn service_interrupt(&mut self, vector: u16) {
        use mos6502::memory::Bus as _;
        let pc = self.cpu.registers.program_counter;
        let p = (self.cpu.registers.status.bits() | 0x20) & !0x10;
        for v in [(pc >> 8) as u8, pc as u8, p] {
            let sp = self.cpu.registers.stack_pointer.to_u16();
            self.cpu.memory.set_byte(sp, v);
            self.cpu.registers.stack_pointer.decrement();
        }
        self.cpu.registers.status.insert(Status::PS_DISABLE_INTERRUPTS);
        let lo = self.cpu.memory.get_byte(vector);
        let hi = self.cpu.memory.get_byte(vector.wrapping_add(1));
        self.cpu.registers.program_counter = u16::from_le_bytes([lo, hi]);
    }

    /// Handles a PC in a page the fast path does not serve: the return trap, KERNAL traps,
    /// RAM under the MMU page, or an address with no code.
    fn outside_ram(&mut self, pc: u16) -> Result<Flow, RunError> {
        if pc == RETURN_TRAP {
            let cycles = self.cpu.cycles;
            return Ok(Flow::Exit(Exit { code: 0, kind: ExitKind::ReturnedToBasic, cycles }));
        }
        if pc == kernal::FAR_RETURN && self.kernal.in_far_call() {
            self.kernal.far_return(&mut self.cpu);
            self.cpu.cycles += 40;
            self.cpu.memory.advance(40);
            return Ok(Flow::Continue);
        }
        let region = match self.cpu.memory.page(pc) {
            Page::Ram(_) if !(0xFF00..=0xFF04).contains(&pc) => return Ok(Flow::Execute),
            Page::Ram(_) => "the MMU registers at $FF00-$FF04".to_string(),
            Page::Io => "the I/O block".to_string(),
            Page::Rom(Rom::Kernal, _) => match self.kernal.dispatch(&mut self.cpu, pc) {
                Trap::Done(outcome, cost) => {
                    let mut cost = u64::from(cost);
                    if outcome == Outcome::Return {
                        kernal::rts(&mut self.cpu);
                        cost += 6;
                    }
                    self.cpu.cycles += cost;
                    self.cpu.memory.advance(cost);
                    if outcome == Outcome::Retry {
                        self.interrupt_waiting_routine();
                    }
                    return Ok(Flow::Continue);
                }
                Trap::Unsupported(name) => {
                    return Err(RunError::UnsupportedKernal { name, addr: pc, at: self.location() });
                }
                Trap::NotAnEntry => "KERNAL ROM away from its trapped entry points (there is no ROM image)".to_string(),
            },
            Page::Rom(Rom::BasicHigh, _) if pc == d81::boot::BASIC_EXECUTE_LINE => {
                self.basic_execute_line()?;
                return Ok(Flow::Continue);
            }
            Page::Rom(rom, _) => format!("{rom:?} ROM (there is no ROM image)"),
        };
        Err(RunError::OutsideProgram { region, at: self.location() })
    }

    /// Takes a pending IRQ while a KERNAL routine waits (CHRIN for a line), as the real
    /// routine's loop would with interrupts enabled; its RTI comes back to the routine.
    fn interrupt_waiting_routine(&mut self) {
        use mos6502::memory::Bus as _;
        let masked = self.cpu.registers.status.contains(Status::PS_DISABLE_INTERRUPTS);
        if masked || !self.cpu.memory.irq_pending() {
            return;
        }
        self.service_interrupt(0xFFFE);
        self.cpu.cycles += 7;
        self.cpu.memory.advance(7);
    }

    /// The CPU state and source description for an error report.
    pub fn location(&self) -> Box<Where> {
        let r = &self.cpu.registers;
        let cpu = CpuState {
            pc: r.program_counter,
            opcode: self.cpu.memory.peek(r.program_counter),
            a: r.accumulator,
            x: r.index_x,
            y: r.index_y,
            sp: r.stack_pointer.0,
            p: r.status.bits(),
            mmu: self.cpu.memory.mmu.cr,
            cycles: self.cpu.cycles,
        };
        let source = self.source_map.as_ref().and_then(|m| m(r.program_counter));
        let n = self.steps.min(TRAIL);
        let trail = (0..n).map(|i| self.trail[(self.steps - n + i) % TRAIL]).collect();
        Box::new(Where { cpu, source, trail })
    }

    /// Everything printed to the screen through CHROUT, as PETSCII.
    pub fn output_petscii(&self) -> &[u8] {
        &self.kernal.output
    }

    /// Everything printed through CHROUT, as UTF-8 text.
    pub fn output_text(&self) -> String {
        crate::petscii::to_utf8(&self.kernal.output)
    }

    /// Queues a key script (see [`crate::keys::parse_keys`]).
    pub fn type_keys(&mut self, script: &str) -> Result<(), crate::keys::KeysError> {
        let events = crate::keys::parse_keys(script)?;
        self.cpu.memory.keyboard.type_events(events);
        Ok(())
    }

    /// Runs for one video frame of time (at the current clock speed), or until the program
    /// ends or fails. The cycle budget does not apply: interactive front ends call this 50
    /// or 60 times a second for as long as the user plays.
    pub fn run_frame(&mut self) -> Result<Option<Exit>, RunError> {
        let frame = self.config.standard.cycles_per_frame();
        let cpu_cycles = if self.cpu.memory.vic.fast() { frame * 2 } else { frame };
        self.run_until(self.cpu.cycles + cpu_cycles)
    }

    /// Whether the 80-column screen is the active one (MODE bit 7).
    pub fn eighty_active(&self) -> bool {
        self.cpu.memory.ram_peek(0, MODE) & 0x80 != 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn opcode_table_has_the_documented_set() {
        assert_eq!(OPCODE_CLASS.iter().filter(|&&c| c == 0).count(), 150);
        assert_eq!(OPCODE_CLASS[0xEA], 0);
        assert_eq!(OPCODE_CLASS[0x00], 1);
        assert_eq!(OPCODE_CLASS[0x02], 2);
        assert_eq!(OPCODE_CLASS[0xA7], 3);
        let mut sorted = DOCUMENTED;
        sorted.sort_unstable();
        assert!(sorted.windows(2).all(|w| w[0] < w[1]));
    }
}
