//! The KERNAL, emulated: a JSR into the jump table while the KERNAL ROM is mapped runs a Rust
//! handler, then returns as RTS would. The interrupt entry and exit ($FF17, $FA65, $FF33) are
//! trapped too, so that a program's IRQ handler at $0314 chains to the screen editor's work
//! (copying the shadow registers into the VIC, the jiffy clock, the keyboard scan) as on the
//! real machine. Cycle costs of handlers are approximations of the real routines.
//!
//! This module is the jump table's dispatch, by entry name (`c128_map::kernal`), and the
//! small entries (the keyboard buffer, the clock, the screen's size and cursor); the
//! interrupt path is in `interrupts`, calls across banks in `banks`, and logical files,
//! channels, LOAD and SAVE in `files`.

mod banks;
mod files;
mod interrupts;

pub use banks::{BANK_CONFIGS, FAR_RETURN};

use std::collections::VecDeque;

use mos6502::cpu::CPU;
use mos6502::instruction::Nmos6502;
use mos6502::memory::Bus as _;
use mos6502::registers::Status;

use crate::bus::C128Bus;
use crate::disk::{DosStatus, Drive};
use crate::editor::Editor;
use banks::bank_of;
use c128_map::kernal::{self as k, EDITOR_IRQ, EDITOR_NMI, IRQ_ENTRY, IRQ_EXIT, NMI_ENTRY};
use c128_map::zp::{KEYD, KEYIDX, KYNDX, LSTX, NDX, PKYBUF, PKYDEF, STATUS, TIME};
use files::OpenFile;

/// The CPU as the machine uses it.
pub type Cpu = CPU<C128Bus, Nmos6502>;

/// Where `RUN`'s JSR returns to: reaching it ends the run as "returned to BASIC". It lies in
/// the KERNAL's page where no entry point is, and is recognised in every configuration.
pub const RETURN_TRAP: u16 = 0xFFF6;
/// Size of the keyboard buffer (XMAX).
const XMAX: u8 = 10;
/// LSTX when the scan found no key.
const NO_KEY: u8 = 88;
/// The codes of the keys with a text in PKYBUF, in its order: F1-F8, SHIFT RUN/STOP, HELP.
const FUNCTION_KEYS: [u8; 10] = [0x85, 0x89, 0x86, 0x8A, 0x87, 0x8B, 0x88, 0x8C, 0x83, 0x84];
/// The texts the C128 gives its function keys at power-on, in [`FUNCTION_KEYS`]' order:
/// what BASIC's `KEY` lists.
pub const FUNCTION_KEY_TEXTS: [&[u8]; 10] = [
    b"GRAPHIC",
    b"DLOAD\"",
    b"DIRECTORY\r",
    b"SCNCLR\r",
    b"DSAVE\"",
    b"RUN\r",
    b"LIST\r",
    b"MONITOR\r",
    b"DLOAD\"*\rRUN\r",
    b"HELP\r",
];

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

impl Kernal {
    /// The keyboard's state after power-on: the buffer empty, no function key's text
    /// pending, no key down at the last scan, and the function keys' texts in PKYBUF and
    /// PKYDEF (bank 0).
    pub fn power_on_keyboard(bus: &mut C128Bus) {
        for (at, value) in [(NDX, 0), (KYNDX, 0), (KEYIDX, 0), (LSTX, NO_KEY)] {
            bus.ram_poke(0, at, value);
        }
        let mut at = PKYDEF;
        for (i, text) in FUNCTION_KEY_TEXTS.iter().enumerate() {
            bus.ram_poke(0, PKYBUF + i as u16, text.len() as u8);
            for &c in *text {
                bus.ram_poke(0, at, c);
                at += 1;
            }
        }
    }

    /// The keyboard scan (the editor's interrupt work and SCNKEY): a key held by hand that
    /// was not down at the last scan (LSTX), and the codes of the keys the script typed,
    /// go into the KERNAL's buffer, a function key as its text (see [`Kernal::put_key`]).
    /// Keys do not repeat.
    pub fn scan_keyboard(bus: &mut C128Bus) {
        match bus.keyboard.scanned_key() {
            None => bus.ram_poke(0, LSTX, NO_KEY),
            Some((index, code)) if index != bus.ram_peek(0, LSTX) => {
                bus.ram_poke(0, LSTX, index);
                if let Some(c) = code {
                    Self::put_key(bus, c);
                }
            }
            Some(_) => {}
        }
        // The script's codes wait in their queue while there is no room for them.
        while let Some(&c) = bus.keyboard.kernal_queue.front() {
            if !Self::put_key(bus, c) {
                break;
            }
            bus.keyboard.kernal_queue.pop_front();
        }
    }

    /// Takes a key as the scan does: a function key with a text starts that text (KYNDX
    /// its length, KEYIDX where it starts in PKYDEF) if none is pending, any other key goes
    /// into the buffer if it has room. Returns whether the key was taken.
    fn put_key(bus: &mut C128Bus, c: u8) -> bool {
        if let Some(key) = FUNCTION_KEYS.iter().position(|&f| f == c) {
            let len = bus.ram_peek(0, PKYBUF + key as u16);
            if len > 0 {
                if bus.ram_peek(0, KYNDX) != 0 {
                    return false;
                }
                let start = (0..key as u16).map(|k| bus.ram_peek(0, PKYBUF + k)).fold(0u8, u8::wrapping_add);
                bus.ram_poke(0, KEYIDX, start);
                bus.ram_poke(0, KYNDX, len);
                return true;
            }
        }
        let n = bus.ram_peek(0, NDX);
        if n >= XMAX {
            return false;
        }
        bus.ram_poke(0, KEYD + u16::from(n), c);
        bus.ram_poke(0, NDX, n + 1);
        true
    }

    /// The next key for GETIN and CHRIN: a pending function key's text first, then the
    /// buffer's; 0 if there is none.
    fn take_key(bus: &mut C128Bus) -> u8 {
        Self::scan_keyboard(bus);
        let pending = bus.ram_peek(0, KYNDX);
        if pending > 0 {
            let at = bus.ram_peek(0, KEYIDX);
            bus.ram_poke(0, KEYIDX, at.wrapping_add(1));
            bus.ram_poke(0, KYNDX, pending - 1);
            return bus.ram_peek(0, PKYDEF + u16::from(at));
        }
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
            IRQ_ENTRY => self.irq_entry(cpu),
            EDITOR_IRQ => Self::editor_irq(cpu),
            IRQ_EXIT => Self::irq_exit(cpu),
            NMI_ENTRY => self.nmi_entry(cpu),
            EDITOR_NMI => Self::editor_nmi(cpu),
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
            k::CHKIN | k::CKOUT => self.set_channel(cpu, addr == k::CHKIN),
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
            k::CLOSE_ALL => self.close_device(cpu.registers.accumulator),
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
            k::GETCFG => Self::getcfg(cpu),
            k::JSRFAR | k::JMPFAR => self.far_jump(cpu, addr == k::JSRFAR),
            k::INDFET => Self::indfet(cpu),
            k::INDSTA | k::INDCMP => Self::indirect_store_or_compare(cpu, addr == k::INDSTA),
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
}
