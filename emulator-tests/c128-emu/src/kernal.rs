//! The KERNAL, emulated: a JSR into the jump table while the KERNAL ROM is mapped runs a Rust
//! handler, then returns as RTS would. The interrupt entry and exit ($FF17, $FA65, $FF33) are
//! trapped too, so that a program's IRQ handler at $0314 chains to the screen editor's work
//! (copying the shadow registers into the VIC, the jiffy clock, the keyboard scan) as on the
//! real machine. Cycle costs of handlers are approximations of the real routines.

use std::collections::VecDeque;

use mos6502::cpu::CPU;
use mos6502::instruction::Nmos6502;
use mos6502::memory::Bus as _;
use mos6502::registers::Status;

use crate::bus::C128Bus;
use crate::disk::{DosStatus, Drive, FileType};
use crate::editor::Editor;
use c128_map::kernal::{self as k, EDITOR_IRQ, EDITOR_NMI, IRQ_ENTRY, IRQ_EXIT, NMI_ENTRY};
use c128_map::zp::{GRAPHM, KEYD, NDX, STATUS, TIME, VM1, VM2};
use d81::command::{Mode, OpenRequest, parse_open};

/// The CPU as the machine uses it.
pub type Cpu = CPU<C128Bus, Nmos6502>;

/// Where `RUN`'s JSR returns to: reaching it ends the run as "returned to BASIC". It lies in
/// the KERNAL's page where no entry point is, and is recognised in every configuration.
pub const RETURN_TRAP: u16 = 0xFFF6;
/// Where a routine called through JSRFAR returns to: the registers are stored for the
/// caller and its configuration restored. Recognised in every configuration.
pub const FAR_RETURN: u16 = 0xFFF7;
/// The MMU configuration of each KERNAL bank number (what GETCFG returns).
pub const BANK_CONFIGS: [u8; 16] =
    [0x3F, 0x7F, 0xBF, 0xFF, 0x16, 0x56, 0x96, 0xD6, 0x2A, 0x6A, 0xAA, 0xEA, 0x06, 0x0A, 0x01, 0x00];
/// Size of the keyboard buffer (XMAX).
const XMAX: u8 = 10;

/// What a trap did with the PC.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Outcome {
    /// Return to the caller as RTS would.
    Return,
    /// The handler set PC itself.
    Jumped,
    /// The routine is waiting (CHRIN for a line): run the trap again after time passes.
    Retry,
}

/// What became of a trapped call.
pub(crate) enum Trap {
    /// Handled: how to continue and how many cycles it took.
    Done(Outcome, u32),
    /// A known KERNAL entry that is not emulated.
    Unsupported(&'static str),
    /// Not a trapped address.
    NotAnEntry,
}

/// What an open logical file is connected to.
#[derive(Debug)]
enum Channel {
    /// Device 0, the keyboard.
    Keyboard,
    /// Device 3, the screen.
    Screen,
    /// A disk file being read, or the command channel's status text.
    Read { data: Vec<u8>, pos: usize },
    /// A disk file being written (or appended to); written out on CLOSE.
    Write { name: Vec<u8>, file_type: FileType, replace: bool, append: bool, data: Vec<u8> },
    /// A disk file the drive refused to open (its error is on the command channel): as on
    /// the serial bus, bytes sent to it are lost and reading it gives end of file.
    Refused,
    /// The command channel (secondary address 15): commands written, status read.
    Command { command: Vec<u8>, status: Option<Vec<u8>> },
}

#[derive(Debug)]
struct OpenFile {
    lfn: u8,
    device: u8,
    channel: Channel,
}

/// The KERNAL's state: the screen editor, the output log, the file table and the drive.
pub struct Kernal {
    /// The screen editor.
    pub editor: Editor,
    /// Everything printed to the screen through CHROUT, as PETSCII.
    pub output: Vec<u8>,
    /// Device 8, if a disk is attached.
    pub drive: Option<Box<dyn Drive>>,
    /// The drive's last status (what the command channel reads).
    pub dos_status: DosStatus,
    files: Vec<OpenFile>,
    name: Vec<u8>,
    lfn: u8,
    device: u8,
    sa: u8,
    data_bank: u8,
    name_bank: u8,
    input: Option<u8>,
    output_lfn: Option<u8>,
    line: VecDeque<u8>,
    typed: Vec<u8>,
    /// MMU configurations to restore when JSRFAR calls return, innermost last.
    far_calls: Vec<u8>,
    /// The inactive screen's cursor row, column and colour, which SWAPPER exchanges with
    /// the active one's (each screen keeps its own, as the editor does).
    pub inactive_screen: [u8; 3],
}

impl std::fmt::Debug for Kernal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Kernal")
            .field("output_len", &self.output.len())
            .field("drive", &self.drive.is_some())
            .field("dos_status", &self.dos_status)
            .field("files", &self.files)
            .finish_non_exhaustive()
    }
}

impl Default for Kernal {
    fn default() -> Self {
        Kernal {
            editor: Editor::default(),
            output: Vec::new(),
            drive: None,
            dos_status: DosStatus::POWER_ON,
            files: Vec::new(),
            name: Vec::new(),
            lfn: 0,
            device: 0,
            sa: 0,
            data_bank: 0,
            name_bank: 0,
            input: None,
            output_lfn: None,
            line: VecDeque::new(),
            typed: Vec::new(),
            inactive_screen: [0, 0, 3],
            far_calls: Vec::new(),
        }
    }
}

fn push(cpu: &mut Cpu, v: u8) {
    let sp = cpu.registers.stack_pointer.to_u16();
    cpu.memory.set_byte(sp, v);
    cpu.registers.stack_pointer.decrement();
}

fn pull(cpu: &mut Cpu) -> u8 {
    cpu.registers.stack_pointer.increment();
    let sp = cpu.registers.stack_pointer.to_u16();
    cpu.memory.get_byte(sp)
}

/// Pushes a return address as JSR does (the address of the last byte of the JSR).
pub(crate) fn push_return(cpu: &mut Cpu, return_to: u16) {
    let r = return_to.wrapping_sub(1);
    push(cpu, (r >> 8) as u8);
    push(cpu, r as u8);
}

/// Returns from a trapped JSR as RTS would.
pub(crate) fn rts(cpu: &mut Cpu) {
    let lo = pull(cpu);
    let hi = pull(cpu);
    cpu.registers.program_counter = u16::from_le_bytes([lo, hi]).wrapping_add(1);
}

fn set_flag(cpu: &mut Cpu, flag: Status, on: bool) {
    cpu.registers.status.set(flag, on);
}

fn set_nz(cpu: &mut Cpu, v: u8) {
    set_flag(cpu, Status::PS_ZERO, v == 0);
    set_flag(cpu, Status::PS_NEGATIVE, v & 0x80 != 0);
}

/// Returns with carry set and A = KERNAL error number.
fn fail(cpu: &mut Cpu, error: u8) {
    cpu.registers.accumulator = error;
    set_flag(cpu, Status::PS_CARRY, true);
}

fn ok(cpu: &mut Cpu) {
    set_flag(cpu, Status::PS_CARRY, false);
}

fn or_status(cpu: &mut Cpu, bits: u8) {
    let st = cpu.memory.ram_peek(0, STATUS);
    cpu.memory.ram_poke(0, STATUS, st | bits);
}

/// An OPEN's (or LOAD's, SAVE's) name as the 1581 parses it ([`parse_open`]); a name it
/// refuses is the DOS status it reports.
fn open_request(raw: &[u8], sa: u8) -> Result<OpenRequest, DosStatus> {
    parse_open(raw, sa).map_err(|e| DosStatus::from(&e))
}

/// Reads what a request names for reading: a file, or the directory listing.
fn read_request(request: &OpenRequest, drive: &mut dyn Drive) -> Result<(FileType, Vec<u8>), DosStatus> {
    match request {
        OpenRequest::Directory { pattern } => {
            drive.directory(pattern.as_deref()).map(|d| (FileType::Prg, d)).ok_or(DosStatus::NOT_FOUND)
        }
        OpenRequest::File { name, .. } => drive.read(name),
        OpenRequest::Buffer => Err(DosStatus::INVALID_COMMAND),
    }
}

impl Kernal {
    fn file(&mut self, lfn: u8) -> Option<&mut OpenFile> {
        self.files.iter_mut().find(|f| f.lfn == lfn)
    }

    /// Moves keys the keyboard has produced into the KERNAL's buffer, as the scan does.
    pub fn scan_keyboard(bus: &mut C128Bus) {
        while bus.ram_peek(0, NDX) < XMAX {
            let Some(c) = bus.keyboard.kernal_queue.pop_front() else { break };
            let n = bus.ram_peek(0, NDX);
            bus.ram_poke(0, KEYD + u16::from(n), c);
            bus.ram_poke(0, NDX, n + 1);
        }
    }

    fn take_key(bus: &mut C128Bus) -> u8 {
        Self::scan_keyboard(bus);
        let n = bus.ram_peek(0, NDX);
        if n == 0 {
            return 0;
        }
        let c = bus.ram_peek(0, KEYD);
        for i in 1..n {
            let v = bus.ram_peek(0, KEYD + u16::from(i));
            bus.ram_poke(0, KEYD + u16::from(i) - 1, v);
        }
        bus.ram_poke(0, NDX, n - 1);
        c
    }

    /// Prints to the screen and the output log.
    pub fn print(&mut self, bus: &mut C128Bus, c: u8) {
        self.output.push(c);
        self.editor.print(bus, c);
    }

    /// Runs the trap at `addr` (PC is `addr`, ROM is mapped there).
    pub(crate) fn dispatch(&mut self, cpu: &mut Cpu, addr: u16) -> Trap {
        use Outcome::{Jumped, Retry, Return};
        let r = &mut cpu.registers;
        let (a, x, y) = (r.accumulator, r.index_x, r.index_y);
        let done = |o, c| Trap::Done(o, c);
        match addr {
            IRQ_ENTRY => {
                let sp = cpu.registers.stack_pointer.0;
                let stacked_p = cpu.memory.get_byte(0x0100 + u16::from(sp.wrapping_add(1)));
                let vector = if stacked_p & 0x10 != 0 { 0x0316 } else { 0x0314 };
                self.enter_interrupt(cpu, vector);
                done(Jumped, 29)
            }
            EDITOR_IRQ => {
                let bus = &mut cpu.memory;
                if bus.vic.irq_flags & 0x01 != 0 {
                    bus.vic.write(0x19, 0x01);
                    // The editor puts the VIC in the mode GRAPHM asks for, from the shadows:
                    // text from VM1, a bitmap (GRAPHM bit 5) from VM2, multicolour (bit 7).
                    let graphm = bus.ram_peek(0, GRAPHM);
                    let d011 = bus.vic.regs[0x11];
                    if graphm & 0x20 == 0 {
                        let vm1 = bus.ram_peek(0, VM1);
                        bus.vic.write(0x18, vm1);
                        bus.vic.write(0x11, d011 & !0x20);
                    } else {
                        let vm2 = bus.ram_peek(0, VM2);
                        bus.vic.write(0x18, vm2);
                        bus.vic.write(0x11, d011 | 0x20);
                        let d016 = bus.vic.regs[0x16] & !0x10;
                        bus.vic.write(0x16, d016 | if graphm & 0x80 != 0 { 0x10 } else { 0 });
                    }
                    let t = u32::from_be_bytes([
                        0,
                        bus.ram_peek(0, TIME),
                        bus.ram_peek(0, TIME + 1),
                        bus.ram_peek(0, TIME + 2),
                    ]);
                    let t = (t + 1) % 5_184_000;
                    let b = t.to_be_bytes();
                    for i in 0..3 {
                        bus.ram_poke(0, TIME + i, b[usize::from(i) + 1]);
                    }
                    Self::scan_keyboard(bus);
                }
                let now = bus.now();
                bus.cia1.read(13, now, 0xFF, 0xFF);
                cpu.registers.program_counter = IRQ_EXIT;
                done(Jumped, 900)
            }
            IRQ_EXIT => {
                let cr = pull(cpu);
                cpu.memory.mmu.write_ff(0, cr);
                cpu.registers.index_y = pull(cpu);
                cpu.registers.index_x = pull(cpu);
                cpu.registers.accumulator = pull(cpu);
                let p = pull(cpu);
                cpu.registers.status = Status::from_bits_truncate(p & !0x10) | Status::PS_UNUSED;
                let lo = pull(cpu);
                let hi = pull(cpu);
                cpu.registers.program_counter = u16::from_le_bytes([lo, hi]);
                done(Jumped, 26)
            }
            NMI_ENTRY => {
                // As the IRQ entry, through the NMI vector at $0318.
                self.enter_interrupt(cpu, 0x0318);
                done(Jumped, 29)
            }
            EDITOR_NMI => {
                let now = cpu.memory.now();
                cpu.memory.cia2.read(13, now, 0xFF, 0xFF);
                cpu.registers.program_counter = IRQ_EXIT;
                done(Jumped, 60)
            }
            k::CHROUT => {
                self.chrout(cpu, a);
                done(Return, 120)
            }
            k::GETIN => {
                let c = match self.input {
                    None => Self::take_key(&mut cpu.memory),
                    Some(lfn) => self.read_file(cpu, lfn),
                };
                cpu.registers.accumulator = c;
                set_nz(cpu, c);
                ok(cpu);
                done(Return, 60)
            }
            k::CHRIN => match self.input {
                Some(lfn) => {
                    let c = self.read_file(cpu, lfn);
                    cpu.registers.accumulator = c;
                    set_nz(cpu, c);
                    ok(cpu);
                    done(Return, 80)
                }
                None => match self.chrin_keyboard(cpu) {
                    Some(c) => {
                        cpu.registers.accumulator = c;
                        set_nz(cpu, c);
                        ok(cpu);
                        done(Return, 80)
                    }
                    None => done(Retry, 200),
                },
            },
            k::PLOT => {
                if cpu.registers.status.contains(Status::PS_CARRY) {
                    let (row, col) = Editor::cursor(&cpu.memory);
                    cpu.registers.index_x = row;
                    cpu.registers.index_y = col;
                } else {
                    Editor::set_cursor(&mut cpu.memory, x, y);
                    ok(cpu);
                }
                done(Return, 40)
            }
            k::SETBNK => {
                self.data_bank = a;
                self.name_bank = x;
                done(Return, 12)
            }
            k::SETLFS => {
                self.lfn = a;
                self.device = x;
                self.sa = y;
                done(Return, 12)
            }
            k::SETNAM => {
                let start = u16::from_le_bytes([x, y]);
                let bank = self.name_bank;
                self.name =
                    (0..u16::from(a)).map(|i| cpu.memory.ram_peek(bank_of(bank), start.wrapping_add(i))).collect();
                done(Return, 12)
            }
            k::OPEN => {
                self.open(cpu);
                done(Return, 400)
            }
            k::CLOSE => {
                self.close(a);
                ok(cpu);
                done(Return, 300)
            }
            k::CHKIN | k::CKOUT => {
                let input = addr == k::CHKIN;
                // Which directions the file allows: (can read, can write).
                let dirs = self.file(x).map(|f| match f.channel {
                    Channel::Write { .. } | Channel::Screen => (false, true),
                    Channel::Read { .. } | Channel::Keyboard => (true, false),
                    Channel::Command { .. } | Channel::Refused => (true, true),
                });
                match dirs {
                    None => fail(cpu, 3),
                    Some((false, _)) if input => fail(cpu, 6),
                    Some((_, false)) if !input => fail(cpu, 7),
                    Some(_) => {
                        if input {
                            self.input = Some(x);
                        } else {
                            self.output_lfn = Some(x);
                        }
                        ok(cpu);
                    }
                }
                done(Return, 60)
            }
            k::CLRCH => {
                self.input = None;
                self.output_lfn = None;
                done(Return, 30)
            }
            k::READST => {
                let st = cpu.memory.ram_peek(0, STATUS);
                cpu.registers.accumulator = st;
                set_nz(cpu, st);
                done(Return, 12)
            }
            k::SCNKEY => {
                Self::scan_keyboard(&mut cpu.memory);
                done(Return, 300)
            }
            k::STOP => {
                // With RUN/STOP down: Z set, the channels reset and the key buffer emptied.
                let down = cpu.memory.keyboard.main[7] & 0x80 != 0;
                set_flag(cpu, Status::PS_ZERO, down);
                if down {
                    self.input = None;
                    self.output_lfn = None;
                    cpu.memory.ram_poke(0, NDX, 0);
                }
                done(Return, 30)
            }
            k::PRIMM => {
                let lo = pull(cpu);
                let hi = pull(cpu);
                let mut p = u16::from_le_bytes([lo, hi]).wrapping_add(1);
                let mut n = 0;
                loop {
                    let c = cpu.memory.get_byte(p);
                    if c == 0 || n > 0xFFFF {
                        break;
                    }
                    self.print(&mut cpu.memory, c);
                    p = p.wrapping_add(1);
                    n += 1;
                }
                cpu.registers.program_counter = p.wrapping_add(1);
                done(Jumped, 100 + 120 * n)
            }
            k::CLALL => {
                self.clall();
                done(Return, 60)
            }
            k::CLOSE_ALL => {
                let device = a;
                let lfns: Vec<u8> = self.files.iter().filter(|f| f.device == device).map(|f| f.lfn).collect();
                for l in lfns {
                    self.close(l);
                }
                done(Return, 100)
            }
            k::SETMSG => done(Return, 10),
            k::RDTIM => {
                let b = &cpu.memory;
                let (h, m, l) = (b.ram_peek(0, TIME), b.ram_peek(0, TIME + 1), b.ram_peek(0, TIME + 2));
                (cpu.registers.accumulator, cpu.registers.index_x, cpu.registers.index_y) = (l, m, h);
                done(Return, 20)
            }
            k::SETTIM => {
                cpu.memory.ram_poke(0, TIME, y);
                cpu.memory.ram_poke(0, TIME + 1, x);
                cpu.memory.ram_poke(0, TIME + 2, a);
                done(Return, 20)
            }
            k::UDTIM => done(Return, 30),
            k::SCRORG => {
                let w = Editor::width(&cpu.memory);
                cpu.registers.index_x = w - 1;
                cpu.registers.index_y = 24;
                cpu.registers.accumulator = w - 1;
                done(Return, 20)
            }
            k::IOBASE => {
                cpu.registers.index_x = 0x00;
                cpu.registers.index_y = 0xDC;
                done(Return, 10)
            }
            k::SWAPPER => {
                use crate::editor::{COLOR, MODE, PNTR, TBLX};
                let m = cpu.memory.ram_peek(0, MODE);
                cpu.memory.ram_poke(0, MODE, m ^ 0x80);
                for (i, at) in [TBLX, PNTR, COLOR].into_iter().enumerate() {
                    let active = cpu.memory.ram_peek(0, at);
                    cpu.memory.ram_poke(0, at, self.inactive_screen[i]);
                    self.inactive_screen[i] = active;
                }
                done(Return, 200)
            }
            k::DLCHR => {
                // DLCHR: the character ROM (both sets and their reverse images) into VDC
                // RAM at $2000, 16 bytes a glyph, as at power-on. About 8 KB through the
                // VDC's data register.
                crate::bus::load_vdc_charset(&mut cpu.memory);
                done(Return, 160_000)
            }
            k::GETCFG => {
                let cfg = BANK_CONFIGS[usize::from(x & 0x0F)];
                cpu.registers.accumulator = cfg;
                done(Return, 20)
            }
            k::JSRFAR | k::JMPFAR => {
                // JSRFAR/JMPFAR: bank, PC high, PC low, status, A, X, Y in $02-$08.
                let z = |cpu: &Cpu, at: u16| cpu.memory.ram_peek(0, at);
                let bank = z(cpu, 2);
                let target = u16::from_be_bytes([z(cpu, 3), z(cpu, 4)]);
                let (p, a, x, y) = (z(cpu, 5), z(cpu, 6), z(cpu, 7), z(cpu, 8));
                if addr == k::JSRFAR {
                    self.far_calls.push(cpu.memory.mmu.cr);
                    push_return(cpu, FAR_RETURN);
                }
                cpu.memory.mmu.write_ff(0, BANK_CONFIGS[usize::from(bank & 0x0F)]);
                let r = &mut cpu.registers;
                (r.accumulator, r.index_x, r.index_y) = (a, x, y);
                r.status = Status::from_bits_truncate(p & !0x10) | Status::PS_UNUSED;
                r.program_counter = target;
                done(Jumped, 60)
            }
            k::INDFET => {
                let ptr = u16::from(a);
                let base = u16::from_le_bytes([cpu.memory.ram_peek(0, ptr), cpu.memory.ram_peek(0, (ptr + 1) & 0xFF)]);
                let v = cpu.memory.ram_peek(bank_of(x), base.wrapping_add(u16::from(y)));
                cpu.registers.accumulator = v;
                set_nz(cpu, v);
                done(Return, 40)
            }
            k::INDSTA | k::INDCMP => {
                let vec_at = if addr == k::INDSTA { 0x02B9 } else { 0x02C8 };
                let ptr = u16::from(cpu.memory.ram_peek(0, vec_at));
                let base = u16::from_le_bytes([cpu.memory.ram_peek(0, ptr), cpu.memory.ram_peek(0, (ptr + 1) & 0xFF)]);
                let target = base.wrapping_add(u16::from(y));
                if addr == k::INDSTA {
                    cpu.memory.ram_poke(bank_of(x), target, a);
                } else {
                    let m = cpu.memory.ram_peek(bank_of(x), target);
                    let d = a.wrapping_sub(m);
                    set_nz(cpu, d);
                    set_flag(cpu, Status::PS_CARRY, a >= m);
                }
                done(Return, 40)
            }
            k::LOAD => {
                self.load(cpu);
                done(Return, 2000)
            }
            k::SAVE => {
                self.save(cpu);
                done(Return, 2000)
            }
            _ => match k::name(addr) {
                Some(name) => Trap::Unsupported(name),
                None => Trap::NotAnEntry,
            },
        }
    }

    /// Whether a JSRFAR call is waiting for its routine to return.
    pub(crate) fn in_far_call(&self) -> bool {
        !self.far_calls.is_empty()
    }

    /// The return from a JSRFAR routine: stores the registers in $05-$08, restores the
    /// caller's configuration and returns to the caller.
    pub(crate) fn far_return(&mut self, cpu: &mut Cpu) {
        let r = cpu.registers;
        let values = [r.status.bits(), r.accumulator, r.index_x, r.index_y];
        for (i, v) in values.into_iter().enumerate() {
            cpu.memory.ram_poke(0, 5 + i as u16, v);
        }
        if let Some(cr) = self.far_calls.pop() {
            cpu.memory.mmu.write_ff(0, cr);
        }
        rts(cpu);
    }

    /// The KERNAL's interrupt entry: saves A, X, Y and the MMU configuration on the stack,
    /// switches to bank 15 and jumps through `vector`.
    fn enter_interrupt(&mut self, cpu: &mut Cpu, vector: u16) {
        let (a, x, y) = (cpu.registers.accumulator, cpu.registers.index_x, cpu.registers.index_y);
        push(cpu, a);
        push(cpu, x);
        push(cpu, y);
        let cr = cpu.memory.mmu.cr;
        push(cpu, cr);
        cpu.memory.mmu.write_ff(0, 0x00);
        let lo = cpu.memory.get_byte(vector);
        let hi = cpu.memory.get_byte(vector + 1);
        cpu.registers.program_counter = u16::from_le_bytes([lo, hi]);
    }

    fn clall(&mut self) {
        let lfns: Vec<u8> = self.files.iter().map(|f| f.lfn).collect();
        for l in lfns {
            self.close(l);
        }
        self.input = None;
        self.output_lfn = None;
    }

    fn chrout(&mut self, cpu: &mut Cpu, c: u8) {
        ok(cpu);
        let Some(lfn) = self.output_lfn else {
            self.print(&mut cpu.memory, c);
            return;
        };
        match self.file(lfn).map(|f| &mut f.channel) {
            Some(Channel::Screen) | None => self.print(&mut cpu.memory, c),
            Some(Channel::Refused) => or_status(cpu, 0x80),
            Some(Channel::Write { data, .. }) => data.push(c),
            Some(Channel::Command { command, .. }) => {
                if c == 0x0D {
                    let cmd = std::mem::take(command);
                    self.command(&cmd);
                } else {
                    command.push(c);
                }
            }
            Some(_) => or_status(cpu, 0x01),
        }
    }

    /// CHRIN from the keyboard: the screen editor collects a line (echoing it) and hands it
    /// out a character at a time, ending with RETURN. `None` while the line is incomplete.
    fn chrin_keyboard(&mut self, cpu: &mut Cpu) -> Option<u8> {
        if let Some(c) = self.line.pop_front() {
            return Some(c);
        }
        loop {
            let c = Self::take_key(&mut cpu.memory);
            match c {
                0 => return None,
                0x0D => {
                    self.print(&mut cpu.memory, 0x0D);
                    self.line.extend(std::mem::take(&mut self.typed));
                    self.line.push_back(0x0D);
                    return self.line.pop_front();
                }
                0x14 => {
                    if self.typed.pop().is_some() {
                        self.editor.print(&mut cpu.memory, 0x14);
                    }
                }
                _ if crate::petscii::to_screen_code(c).is_some() => {
                    self.typed.push(c);
                    self.editor.print(&mut cpu.memory, c);
                }
                _ => {}
            }
        }
    }

    fn read_file(&mut self, cpu: &mut Cpu, lfn: u8) -> u8 {
        let dos_text = self.dos_status.to_string();
        let Some(f) = self.file(lfn) else {
            or_status(cpu, 0x42);
            return 0x0D;
        };
        let mut status_read = false;
        let (c, st) = match &mut f.channel {
            Channel::Keyboard => (Self::take_key(&mut cpu.memory), 0),
            Channel::Read { data, pos } => match data.get(*pos) {
                Some(&c) => {
                    *pos += 1;
                    (c, if *pos == data.len() { 0x40 } else { 0 })
                }
                None => (0x0D, 0x42),
            },
            Channel::Command { status, .. } => {
                let text = status.get_or_insert_with(|| {
                    let mut t: Vec<u8> = dos_text.into_bytes();
                    t.push(0x0D);
                    t.reverse();
                    t
                });
                let c = text.pop().unwrap_or(0x0D);
                if text.is_empty() {
                    *status = None;
                    status_read = true;
                    (c, 0x40)
                } else {
                    (c, 0)
                }
            }
            Channel::Screen | Channel::Write { .. } | Channel::Refused => (0x0D, 0x42),
        };
        if status_read {
            self.dos_status = DosStatus::OK;
        }
        if st != 0 {
            or_status(cpu, st);
        }
        c
    }

    fn open(&mut self, cpu: &mut Cpu) {
        let (lfn, device, sa) = (self.lfn, self.device, self.sa);
        cpu.memory.ram_poke(0, STATUS, 0);
        if self.file(lfn).is_some() {
            return fail(cpu, 2);
        }
        if self.files.len() >= 10 {
            return fail(cpu, 1);
        }
        let channel = match device {
            0 => Channel::Keyboard,
            3 => Channel::Screen,
            8 if self.drive.is_some() => {
                if sa == 15 {
                    let name = self.name.clone();
                    if !name.is_empty() {
                        self.command(&name);
                    }
                    Channel::Command { command: Vec::new(), status: None }
                } else {
                    self.open_disk_file(sa)
                }
            }
            _ => {
                or_status(cpu, 0x80);
                return fail(cpu, 5);
            }
        };
        self.files.push(OpenFile { lfn, device, channel });
        ok(cpu);
    }

    fn open_disk_file(&mut self, sa: u8) -> Channel {
        let Some(drive) = self.drive.as_mut() else {
            return Channel::Refused;
        };
        let (channel, status) = match open_request(&self.name, sa) {
            Err(status) => (Channel::Refused, status),
            Ok(OpenRequest::File { name, replace, file_type, mode: Mode::Write }) => {
                let exists = drive.read(&name).is_ok();
                if exists && !replace {
                    (Channel::Refused, DosStatus::EXISTS)
                } else if name.iter().any(|&c| c == b'*' || c == b'?') {
                    (Channel::Refused, DosStatus::INVALID_NAME)
                } else {
                    let file_type = file_type.unwrap_or(FileType::Seq);
                    (Channel::Write { name, file_type, replace, append: false, data: Vec::new() }, DosStatus::OK)
                }
            }
            Ok(OpenRequest::File { name, mode: Mode::Append, .. }) => match drive.read(&name) {
                Ok((file_type, _)) => {
                    (Channel::Write { name, file_type, replace: false, append: true, data: Vec::new() }, DosStatus::OK)
                }
                Err(e) => (Channel::Refused, e),
            },
            Ok(request) => {
                let wanted = match &request {
                    OpenRequest::File { file_type, .. } => *file_type,
                    _ => None,
                };
                match read_request(&request, drive.as_mut()) {
                    Ok((t, data)) if wanted.is_none_or(|want| want == t) => {
                        (Channel::Read { data, pos: 0 }, DosStatus::OK)
                    }
                    Ok(_) => (Channel::Refused, DosStatus::TYPE_MISMATCH),
                    Err(e) => (Channel::Refused, e),
                }
            }
        };
        self.dos_status = status;
        channel
    }

    /// Runs a DOS command sent to the command channel.
    fn command(&mut self, cmd: &[u8]) {
        let Some(drive) = self.drive.as_mut() else { return };
        if let Some(status) = drive.command(cmd) {
            self.dos_status = status;
            return;
        }
        let cmd: Vec<u8> = cmd.iter().copied().filter(|&c| c != 0x0D).collect();
        self.dos_status = match cmd.first() {
            Some(b'S') => {
                let Some(colon) = cmd.iter().position(|&c| c == b':') else {
                    self.dos_status = DosStatus::NO_NAME;
                    return;
                };
                let mut total = 0u8;
                let mut result = Ok(());
                for pattern in cmd[colon + 1..].split(|&c| c == b',') {
                    match drive.scratch(pattern) {
                        Ok(n) => total = total.saturating_add(n),
                        Err(e) => {
                            result = Err(e);
                            break;
                        }
                    }
                }
                match result {
                    Ok(()) => DosStatus { code: 1, track: total, sector: 0 },
                    Err(e) => e,
                }
            }
            Some(b'I') => DosStatus::OK,
            Some(b'U') if matches!(cmd.get(1), Some(b'J' | b'9' | b':')) => DosStatus::POWER_ON,
            Some(_) => DosStatus::INVALID_COMMAND,
            None => DosStatus::OK,
        };
    }

    fn close(&mut self, lfn: u8) {
        let Some(i) = self.files.iter().position(|f| f.lfn == lfn) else { return };
        let f = self.files.remove(i);
        if self.input == Some(lfn) {
            self.input = None;
        }
        if self.output_lfn == Some(lfn) {
            self.output_lfn = None;
        }
        match f.channel {
            Channel::Write { name, file_type, replace, append, data } => {
                if let Some(drive) = self.drive.as_mut() {
                    let written =
                        if append { drive.append(&name, &data) } else { drive.write(&name, file_type, &data, replace) };
                    self.dos_status = match written {
                        Ok(()) => DosStatus::OK,
                        Err(e) => e,
                    };
                }
            }
            Channel::Command { command, .. } if !command.is_empty() => self.command(&command),
            _ => {}
        }
    }

    fn load(&mut self, cpu: &mut Cpu) {
        let (a, x, y) = (cpu.registers.accumulator, cpu.registers.index_x, cpu.registers.index_y);
        cpu.memory.ram_poke(0, STATUS, 0);
        if a != 0 {
            return fail(cpu, 9);
        }
        if self.device != 8 || self.drive.is_none() {
            or_status(cpu, 0x80);
            return fail(cpu, 5);
        }
        let Some(drive) = self.drive.as_mut() else { return fail(cpu, 5) };
        match open_request(&self.name, 0).and_then(|request| read_request(&request, drive.as_mut())) {
            Ok((_, data)) if data.len() >= 2 => {
                let start =
                    if self.sa == 0 { u16::from_le_bytes([x, y]) } else { u16::from_le_bytes([data[0], data[1]]) };
                let mut end = start;
                for &b in &data[2..] {
                    cpu.memory.ram_poke(bank_of(self.data_bank), end, b);
                    end = end.wrapping_add(1);
                }
                self.dos_status = DosStatus::OK;
                cpu.registers.index_x = end as u8;
                cpu.registers.index_y = (end >> 8) as u8;
                ok(cpu);
            }
            Ok(_) => {
                self.dos_status = DosStatus::OK;
                or_status(cpu, 0x40);
                fail(cpu, 4)
            }
            Err(e) => {
                self.dos_status = e;
                or_status(cpu, 0x02);
                fail(cpu, 4)
            }
        }
    }

    fn save(&mut self, cpu: &mut Cpu) {
        let (a, x, y) = (cpu.registers.accumulator, cpu.registers.index_x, cpu.registers.index_y);
        cpu.memory.ram_poke(0, STATUS, 0);
        if self.device != 8 || self.drive.is_none() {
            or_status(cpu, 0x80);
            return fail(cpu, 5);
        }
        let zp = u16::from(a);
        let start = u16::from_le_bytes([cpu.memory.ram_peek(0, zp), cpu.memory.ram_peek(0, (zp + 1) & 0xFF)]);
        let end = u16::from_le_bytes([x, y]);
        let mut data = start.to_le_bytes().to_vec();
        let mut p = start;
        while p != end {
            data.push(cpu.memory.ram_peek(bank_of(self.data_bank), p));
            p = p.wrapping_add(1);
        }
        let Some(drive) = self.drive.as_mut() else { return fail(cpu, 5) };
        let written = match open_request(&self.name, 1) {
            Ok(OpenRequest::File { name, replace, .. }) => drive.write(&name, FileType::Prg, &data, replace),
            Ok(_) => Err(DosStatus::INVALID_NAME),
            Err(status) => Err(status),
        };
        match written {
            Ok(()) => {
                self.dos_status = DosStatus::OK;
                ok(cpu)
            }
            Err(e) => {
                self.dos_status = e;
                ok(cpu)
            }
        }
    }
}

/// The RAM bank behind a KERNAL bank number (0-15): odd banks below 4 are RAM 1.
fn bank_of(bank: u8) -> u8 {
    if bank < 4 { bank & 1 } else { 0 }
}
