//! The streaming load of a packed file (the bank-1 file; the program itself, from the first
//! stage [`crate::first_stage`]): the drive's own burst FASTLOAD (the one the C128
//! KERNAL's LOAD uses with a 1571 or 1581), received by a loop of ours that unpacks each
//! byte as it comes ([`crate::pull_unpack`]), so the file never lies packed in memory and
//! the unpacking is done while the drive fetches and shifts the next byte.
//!
//! Why: the KERNAL's LOAD puts the packed file in bank 1 and only then can it be unpacked
//! (0.6 s for `BAC CODE` at 2 MHz); the burst protocol is clocked by the computer (the
//! drive sends the next byte only when the computer changes its CLK line), so a receive
//! loop that asks for the next byte as soon as it holds one lets the decoder run during
//! the drive's share of each byte. It needs no drive code of ours: a real 1571 or 1581 is
//! driven exactly as by the KERNAL, at the drive ROM's own rates. Measured in VICE (true
//! drive emulation of the 1581): `BAC CODE`'s 28,580 bytes in 4.0 s, 139 µs a byte against
//! the KERNAL's 160, its unpacking hidden; the title no sooner
//! (docs/disk-and-loading.md#where-the-15-seconds-go), since the drive's read of its directory (`I0`) used to overlap that
//! unpacking and now overlaps nothing.
//!
//! The protocol, as the 1571 and 1581 manuals give it: the command channel gets `U0`, a
//! command byte $1F (fastload, program files) and the file's name; the drive finds the
//! file and sends, for each sector, a status byte and then the sector's data, one byte per
//! change of the computer's CLK line, through the fast serial port (CIA 1's shift register
//! $DC0C, its flag bit 3 of $DC0D). Status 0 or 1: 254 bytes follow; $1F (end of file):
//! a count follows, then that many bytes; 2 (file not found) and 3-15 (read errors) end
//! the transfer. The first sector's data starts with the load address; when the first
//! sector is also the last, its count leaves those two bytes out.
//!
//! Assumes: called with JSR from code below $4000 that the output does not cover (the
//! bottom 16 KB are made common while it runs, so bank 1 can be written), with the KERNAL
//! mapped; at 2 MHz the VIC-IIe's screen blanked; no logical file 15 open; the file's
//! stream starts [`Output::skip`] bytes after its load address and unpacks to
//! [`Output::start`] up to [`Output::end`] (the stream need not know where the packed file
//! would have loaded). Uses T0-T10, and T11-T15 with the dense format (`zp_used`; saved
//! on the stack and put back), A, X and Y.
//!
//! Guarantees: carry clear when the whole file has come and the output is unpacked where
//! [`Output::map`] shows it, byte for byte as bac-pack unpacks it; carry set when not,
//! and then the caller loads it the KERNAL's way (the output may be partly written
//! meanwhile). The drive is taken for a fast one only when the KERNAL's fast serial flag
//! (bit 6 of [`SERIAL`], cleared first) is set after the command went out: any other
//! drive, and our emulator, whose KERNAL has no fast serial bus, get the KERNAL's LOAD. Every wait has a
//! time-out (about 3.7 s for each byte); a bad status or a stream that runs past the
//! file's end also fails. Either way the command channel is closed, SETBNK is 0, 0, and
//! $FF00, $D506 and the interrupt flag are as they were, with CIA 1's serial port left
//! shifting in and the CLK line released, as the KERNAL leaves them.

use crate::LoaderError;
use crate::mmap::temp as t;
use crate::mmap::{
    BANK1_START, CODE_START, FA, MMU_CONFIG, MMU_CONFIG_ALL_RAM, MMU_CONFIG_BANK1, MMU_CR, MMU_RCR, RCR_COMMON_16K,
};
use crate::selfextract::PackedProgram;
use c128_map::io::{CIA1_CRA, CIA1_ICR, CIA1_SDR, CIA2_PORT_A, MMU_MODE};
use c128_map::kernal::{CLOSE, OPEN, SETBNK, SETLFS, SETNAM};
use c128_map::zp::SERIAL;
use mos_asm::asm::Locals;
use mos_asm::asm::{Asm, Label, Sym, op::*};

/// Where a streamed file's output goes.
#[derive(Debug, Clone, Copy)]
pub struct Output {
    /// The output's first byte.
    pub start: u16,
    /// The address after its last byte (known when the program is built).
    pub end: Sym,
    /// The MMU configuration ($FF00) that shows the output's memory, RAM under any ROM.
    pub map: u8,
    /// File bytes after the load address that come before the stream (at most 253).
    pub skip: u8,
    /// The stream's format.
    pub format: bac_pack::Format,
}

impl Output {
    /// The bank-1 file: bac-pack's stream right after the load address, unpacked to
    /// [`BANK1_START`] in RAM 1.
    pub fn bank1(format: bac_pack::Format) -> Output {
        Output { start: BANK1_START, end: Sym::Bank1End, map: MMU_CONFIG_BANK1, skip: 0, format }
    }

    /// A packed program ([`crate::selfextract`]'s file) streamed by a loader: unpacked from
    /// [`CODE_START`] in RAM 0, up to the address the caller gives the label `end` (the
    /// program's [`PackedProgram::end`]). Refused, naming the `setting` that asked for the
    /// loader, when the stream starts too far into the file to skip.
    pub fn program(main: &PackedProgram, end: Label, setting: &str) -> Result<Output, LoaderError> {
        let skip = main.stream_at - 2;
        let skip = u8::try_from(skip).ok().filter(|&s| s <= 253).ok_or_else(|| {
            LoaderError::Settings(format!(
                "{setting}: the packed program's stream starts {skip} bytes in (at most 253)"
            ))
        })?;
        Ok(Output { start: CODE_START, end: Sym::Code(end), map: MMU_CONFIG_ALL_RAM, skip, format: main.format })
    }
}

/// The logical file and secondary address of the command channel.
const COMMAND: u8 = 15;
/// The burst command's prefix: `U0` and the fastload command byte (program files only).
const FASTLOAD: [u8; 3] = [b'U', b'0', 0x1F];
/// The status byte of the file's last sector; a count of its bytes follows.
const END_OF_FILE: u8 = 0x1F;
/// Status bytes from this one up (in the low four bits) are errors.
const FIRST_ERROR: u8 = 2;
/// Data bytes in a sector that is not the last.
const SECTOR_DATA: u8 = 254;
/// The time-out's high count: about 0.46 s at 2 MHz each (65,536 turns of 14 cycles).
const TIMEOUT: u8 = 8;

/// Zero-page bytes used (from T0, $34): the decoder's output (T0/T1) and copy source
/// (T2/T3); the sector's bytes not yet taken (T4); non-zero once the last sector began
/// (T5); the time-out's count (T6-T8); the byte in hand (T9); the stack pointer a failure
/// returns to (T10); with the dense format, its decoder's own five (T11-T15).
const fn zp_used(format: bac_pack::Format) -> u8 {
    match format {
        bac_pack::Format::Bytes => 11,
        bac_pack::Format::Dense => 16,
    }
}

/// The command's bytes for the file `name`.
pub fn command(name: &[u8]) -> Vec<u8> {
    [&FASTLOAD[..], name].concat()
}

/// The routine (module docs): `command` is the label of [`command`]'s bytes, `len` of
/// them; `output` where the file unpacks.
pub fn routine(loc: &mut Locals, command: Label, len: usize, output: Output) -> Asm {
    let mut f = || loc.fresh();
    let (save, drive, fast, closed, header, last, get, have, recv, back, wait, poll, got, fail) =
        (f(), f(), f(), f(), f(), f(), f(), f(), f(), f(), f(), f(), f(), f());
    let (skip_bytes, drain, more, drained, finish, restore, decode) = (f(), f(), f(), f(), f(), f(), f());
    let (out, from, left, eoi, count, byte, unwind) = (t(0), t(2), t(4), t(5), t(6), t(9), t(10));
    let mut a = Asm::default();
    let zp_used = zp_used(output.format);
    a.b(LDX_IMM, zp_used - 1).label(save).b(LDA_ZPX, t(0)).i(PHA).i(DEX).br(BPL, save);

    // OPEN 15,drive,15,"U0"+CHR$(31)+name: the drive looks for the file and waits for the
    // first request. The KERNAL sets the fast flag if the drive answered its handshake.
    a.b(LDA_IMM, 0).b(LDX_IMM, 0).w(JSR, SETBNK);
    a.w(LDA_ABS, SERIAL).b(AND_IMM, 0xBF).w(STA_ABS, SERIAL);
    a.b(LDA_IMM, COMMAND).b(LDX_ZP, FA).b(CPX_IMM, 8).br(BCS, drive).b(LDX_IMM, 8);
    a.label(drive).b(LDY_IMM, COMMAND).w(JSR, SETLFS);
    a.b(LDA_IMM, len as u8).s(LDX_IMM, Sym::Code(command), mos_asm::asm::Part::Lo);
    a.s(LDY_IMM, Sym::Code(command), mos_asm::asm::Part::Hi).w(JSR, SETNAM).w(JSR, OPEN);
    a.b(LDY_IMM, 1).br(BCS, closed).w(BIT_ABS, SERIAL).br(BVS, fast).to(JMP, closed);

    // Receive with interrupts off (the KERNAL's interrupt would read $DC0D and lose the
    // shift register's flag): the bottom 16 KB common, so that this code, the stack and
    // the zero page stay in view while $FF00 shows bank 1; CIA 1's serial port and the
    // bus's fast driver inward. A failure anywhere below returns to `unwind`'s stack.
    a.label(fast).i(PHP).i(SEI).w(LDA_ABS, MMU_CR).i(PHA).w(LDA_ABS, MMU_RCR).i(PHA);
    a.b(LDA_IMM, MMU_CONFIG).w(STA_ABS, MMU_CR).b(LDA_IMM, RCR_COMMON_16K).w(STA_ABS, MMU_RCR);
    a.w(LDA_ABS, CIA1_CRA).b(AND_IMM, 0x80).b(ORA_IMM, 0x08).w(STA_ABS, CIA1_CRA);
    a.w(LDA_ABS, MMU_MODE).b(AND_IMM, 0xF7).w(STA_ABS, MMU_MODE).w(LDA_ABS, CIA1_ICR);
    a.i(TSX).b(STX_ZP, unwind).b(LDA_IMM, 0).b(STA_ZP, eoi).b(STA_ZP, left);
    // The first request (the CLK line released first, so that it pulls it, as the
    // KERNAL's burst load does), the first sector's status, then its load address (not
    // needed: the output's place is known) and what comes before the stream.
    a.w(LDA_ABS, CIA2_PORT_A).b(AND_IMM, 0xEF).w(STA_ABS, CIA2_PORT_A);
    a.b(EOR_IMM, 0x10).w(STA_ABS, CIA2_PORT_A).to(JSR, header);
    let skip = loc.fresh();
    a.b(LDA_ZP, eoi).br(BEQ, skip).b(INC_ZP, left).b(INC_ZP, left);
    a.label(skip).b(LDX_IMM, output.skip + 2).label(skip_bytes).to(JSR, get).i(DEX).br(BNE, skip_bytes);
    let [start_lo, start_hi] = output.start.to_le_bytes();
    a.b(LDA_IMM, start_lo).b(STA_ZP, out).b(LDA_IMM, start_hi).b(STA_ZP, out + 1).to(JSR, decode);
    // What follows the stream (the packed file's trailer), so the drive ends its transfer.
    a.label(drain).b(LDA_ZP, left).br(BNE, more).b(LDA_ZP, eoi).br(BNE, drained);
    a.label(more).to(JSR, get).to(JMP, drain);
    a.label(drained).i(CLC);
    // The result in Y; I/O in view again (the output's map hides it: a store to $D506 or
    // $DD00 there would land in the output's RAM); the CLK line released, as the KERNAL
    // leaves the idle bus; $D506, $FF00 and the interrupt flag back.
    a.label(finish).b(LDA_IMM, 0).i(ROL_A).i(TAY).b(LDA_IMM, MMU_CONFIG).w(STA_ABS, MMU_CR);
    a.w(LDA_ABS, CIA2_PORT_A).b(AND_IMM, 0xEF).w(STA_ABS, CIA2_PORT_A);
    a.i(PLA).w(STA_ABS, MMU_RCR).i(PLA).w(STA_ABS, MMU_CR).i(PLP);
    // The zero page back, the channel closed, the result from Y to the carry.
    a.label(closed).b(LDX_IMM, 0).label(restore).i(PLA).b(STA_ZPX, t(0)).i(INX).b(CPX_IMM, zp_used).br(BNE, restore);
    // No pause before the next command: one of 50 ms was needed while a bug, since fixed,
    // left the CLK line pulled (in VICE the 1581 then missed the next command's fast
    // handshake and every later transfer went at the slow bus's rate); with CLK released,
    // VICE's later loads run fast without it (`load-40`, `load-80`, and `loadstar-80`'s
    // save and BOOT after quitting).
    a.i(TYA).i(PHA).b(LDA_IMM, COMMAND).w(JSR, CLOSE);
    a.i(PLA).i(LSR_A).i(RTS);

    // A sector's header: its status, and for the last sector its count.
    a.label(header).to(JSR, recv).b(CMP_IMM, END_OF_FILE).br(BEQ, last);
    a.b(AND_IMM, 0x0F).b(CMP_IMM, FIRST_ERROR).br(BCS, fail);
    a.b(LDA_IMM, SECTOR_DATA).b(STA_ZP, left).i(RTS);
    a.label(last).b(INC_ZP, eoi).to(JSR, recv).br(BEQ, fail).b(STA_ZP, left).i(RTS);

    // get: the next byte of the file in A, X and Y kept (the decoder's interface); a new
    // sector's header when this one is used up. The next byte is asked for as soon as one
    // is in hand, after the file's last byte too, as the KERNAL's burst load does.
    a.label(get).b(LDA_ZP, left).br(BNE, have).b(LDA_ZP, eoi).br(BNE, fail).to(JSR, header);
    a.label(have).b(DEC_ZP, left);
    a.label(recv).to(JSR, wait).b(STA_ZP, byte);
    a.w(LDA_ABS, CIA2_PORT_A).b(EOR_IMM, 0x10).w(STA_ABS, CIA2_PORT_A);
    a.label(back).b(LDA_IMM, output.map).w(STA_ABS, MMU_CR).b(LDA_ZP, byte).i(RTS);
    // One byte from the shift register, I/O mapped; the count (T6-T8) runs out after
    // 7-8 x 65,536 turns of 14 cycles.
    a.label(wait).b(LDA_IMM, MMU_CONFIG).w(STA_ABS, MMU_CR).b(LDA_IMM, TIMEOUT).b(STA_ZP, count + 2);
    a.b(LDA_IMM, 0x08);
    a.label(poll).w(BIT_ABS, CIA1_ICR).br(BNE, got);
    a.b(INC_ZP, count).br(BNE, poll).b(INC_ZP, count + 1).br(BNE, poll).b(DEC_ZP, count + 2).br(BNE, poll);
    a.label(fail).b(LDX_ZP, unwind).i(TXS).i(SEC).to(JMP, finish);
    a.label(got).w(LDA_ABS, CIA1_SDR).i(RTS);

    a.label(decode);
    let decoder = match output.format {
        bac_pack::Format::Bytes => crate::pull_unpack::emit(loc, get, out, from, output.end),
        bac_pack::Format::Dense => {
            let zp = crate::unpack_dense::Zp { out, from, scratch: t(11) };
            crate::unpack_dense::emit(loc, get, zp, crate::unpack_dense::End::Sym(output.end))
        }
    };
    a.items.extend(decoder.items);
    a
}

/// A model of the computer for the tests of the streaming load and of the loaders built
/// on it (the first stage, the boot stage).
#[cfg(test)]
pub(crate) mod model {
    use super::*;
    use mos6502::cpu::CPU;
    use mos6502::instruction::Nmos6502;
    use mos6502::memory::Bus;
    use mos6502::registers::{StackPointer, Status};

    /// The KERNAL entries the routines call, each an `RTS` in the model; [`call`] does
    /// OPEN's part.
    const KERNAL_ENTRIES: [u16; 7] =
        [SETBNK, SETLFS, SETNAM, OPEN, CLOSE, c128_map::kernal::LOAD, c128_map::kernal::CHROUT];

    /// A translated program of `len` bytes of code: load address, BASIC stub, code.
    pub(crate) fn program(len: usize) -> Vec<u8> {
        let mut prg = crate::mmap::LOAD_ADDR.to_le_bytes().to_vec();
        prg.extend(crate::basic_stub());
        prg.extend((0..len).map(|i| (i % 251) as u8 ^ (i / 97) as u8));
        prg
    }

    /// Runs `m` from a `JSR at` placed at `caller`, with the stack at $F0, one instruction
    /// at a time, until `stop` (given the CPU before each instruction) returns a value;
    /// returns it and the machine. The KERNAL's OPEN sends the command without an error,
    /// and a `fast` drive answers its handshake (bit 6 of SERIAL). Panics after `limit`
    /// instructions.
    pub(crate) fn call<T>(
        mut m: C128,
        caller: u16,
        at: u16,
        fast: bool,
        limit: u32,
        mut stop: impl FnMut(&CPU<C128, Nmos6502>) -> Option<T>,
    ) -> (T, C128) {
        for entry in KERNAL_ENTRIES {
            m.bank0[usize::from(entry)] = 0x60;
        }
        let [lo, hi] = at.to_le_bytes();
        m.bank0[usize::from(caller)..usize::from(caller) + 3].copy_from_slice(&[0x20, lo, hi]);
        let mut cpu = CPU::new(m, Nmos6502);
        cpu.registers.stack_pointer = StackPointer(0xF0);
        cpu.registers.program_counter = caller;
        for _ in 0..limit {
            if let Some(done) = stop(&cpu) {
                return (done, cpu.memory);
            }
            if cpu.registers.program_counter == OPEN {
                if fast {
                    cpu.memory.bank0[usize::from(SERIAL)] |= 0x40;
                }
                cpu.registers.status.remove(Status::PS_CARRY);
            }
            cpu.single_step();
        }
        panic!("the routine called at ${at:04X} did not end")
    }

    /// The computer as the routine sees it: RAM banks 0 and 1 chosen by $FF00 (bank 1 at
    /// $4000-$FEFF under [`MMU_CONFIG_BANK1`]), and a drive on the fast serial bus that
    /// shifts its next byte into CIA 1 each time the CLK line (bit 4 of $DD00) changes.
    pub(crate) struct C128 {
        pub(crate) bank0: Vec<u8>,
        pub(crate) bank1: Vec<u8>,
        pub(crate) mmu: u8,
        pub(crate) clk: u8,
        pub(crate) flag: bool,
        pub(crate) sdr: u8,
        /// What the drive sends, in order, and how many it has sent.
        pub(crate) bytes: Vec<u8>,
        pub(crate) sent: usize,
        /// Requests after the drive had nothing more to send.
        pub(crate) extra: usize,
        /// The other I/O registers' last writes ($D000-$DFFF with I/O in view).
        pub(crate) io: Vec<u8>,
    }

    impl C128 {
        /// A machine with zeroed RAM 0, RAM 1 full of $EE, and a drive that will send `bytes`.
        pub(crate) fn new(bytes: Vec<u8>) -> C128 {
            C128 {
                bank0: vec![0; 0x10000],
                bank1: vec![0xEE; 0x10000],
                mmu: 0x00,
                clk: 0,
                flag: false,
                sdr: 0,
                bytes,
                sent: 0,
                extra: 0,
                io: vec![0; 0x1000],
            }
        }
    }

    impl Bus for C128 {
        fn get_byte(&mut self, address: u16) -> u8 {
            let io = self.mmu & 1 == 0;
            match address {
                MMU_CR => self.mmu,
                CIA1_ICR if io => {
                    if std::mem::take(&mut self.flag) {
                        0x08
                    } else {
                        0
                    }
                }
                CIA1_SDR if io => self.sdr,
                CIA2_PORT_A if io => self.clk,
                0x4000..0xFF00 if self.mmu == MMU_CONFIG_BANK1 => self.bank1[usize::from(address)],
                _ => self.bank0[usize::from(address)],
            }
        }
        fn set_byte(&mut self, address: u16, value: u8) {
            let io = self.mmu & 1 == 0;
            match address {
                MMU_CR => self.mmu = value,
                // The MMU's $D5xx registers and the CIAs, in view only with I/O mapped.
                0xD000..0xE000 if io => self.io_write(address, value),
                _ if (0x4000..0xFF00).contains(&address) && self.mmu == MMU_CONFIG_BANK1 => {
                    self.bank1[usize::from(address)] = value
                }
                _ => self.bank0[usize::from(address)] = value,
            }
        }
    }

    impl C128 {
        fn io_write(&mut self, address: u16, value: u8) {
            match address {
                CIA2_PORT_A if (value ^ self.clk) & 0x10 != 0 => {
                    self.clk = value;
                    match self.bytes.get(self.sent) {
                        Some(&b) => {
                            self.sdr = b;
                            self.flag = true;
                            self.sent += 1;
                        }
                        // Releasing the line at the end is no request.
                        None if value & 0x10 != 0 => self.extra += 1,
                        None => {}
                    }
                }
                CIA2_PORT_A => self.clk = value,
                _ => self.io[usize::from(address - 0xD000)] = value,
            }
        }
    }

    /// The burst stream a 1581 sends for the program file `file`: each sector's status
    /// and data, the last one's status $1F and count.
    pub(crate) fn burst(file: &[u8]) -> Vec<u8> {
        let mut out = Vec::new();
        let sectors: Vec<&[u8]> = file.chunks(usize::from(SECTOR_DATA)).collect();
        for (i, s) in sectors.iter().enumerate() {
            if i + 1 < sectors.len() {
                out.push(0);
            } else {
                let count = if i == 0 { s.len() - 2 } else { s.len() };
                out.extend([END_OF_FILE, count as u8]);
            }
            out.extend_from_slice(s);
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::model::{C128, burst, call};
    use super::*;
    use crate::mmap::BANK1_END;
    use bac_pack::Format;
    use mos_asm::link::{self, Chunk, DataPlacement, Owner};
    use mos6502::registers::Status;

    const ROUTINE: u16 = 0x2000;
    const COMMAND_AT: u16 = 0x1F00;
    const CALLER: u16 = 0x1000;
    /// The zero page either format may use: all of it must come back.
    const ZP_MOST: u8 = zp_used(Format::Dense);

    struct Run {
        carry: bool,
        bank1: Vec<u8>,
        machine: C128,
        zp: Vec<u8>,
    }

    /// Runs the routine against a drive that sends `bytes`, `fast` or not; `end` is the
    /// output's end the program was built with, `format` its packer's.
    fn run(bytes: Vec<u8>, fast: bool, end: u16, format: Format) -> Run {
        let name = b"CODE";
        let mut loc = Locals::default();
        let command_label = loc.fresh();
        let code = routine(&mut loc, command_label, FASTLOAD.len() + name.len(), Output::bank1(format));
        let chunks = [Chunk { owner: Owner::Runtime("rt_stream".into()), items: code.items }];
        let layout = link::layout(&chunks, ROUTINE).unwrap();
        let mut labels = layout.labels;
        labels.insert(command_label, COMMAND_AT);
        let dp = DataPlacement { data_addr: 0, data_base: 0, bss_addr: 0, bss_base: 0, bss_len: 0, bank1_end: end };
        let code = link::encode(&chunks, ROUTINE, labels, &layout.long, &dp).unwrap().code;
        let mut m = C128::new(bytes);
        m.bank0[usize::from(ROUTINE)..usize::from(ROUTINE) + code.len()].copy_from_slice(&code);
        let command = super::command(name);
        m.bank0[usize::from(COMMAND_AT)..usize::from(COMMAND_AT) + command.len()].copy_from_slice(&command);
        let zp: Vec<u8> = (0..ZP_MOST).map(|i| 0xA0 + i).collect();
        m.bank0[usize::from(t(0))..usize::from(t(0) + ZP_MOST)].copy_from_slice(&zp);
        let (carry, machine) = call(m, CALLER, ROUTINE, fast, 100_000_000, |cpu| {
            (cpu.registers.program_counter == CALLER + 3).then(|| {
                assert_eq!(cpu.registers.stack_pointer.0, 0xF0, "the stack is as it was");
                cpu.registers.status.contains(Status::PS_CARRY)
            })
        });
        let zp = machine.bank0[usize::from(t(0))..usize::from(t(0) + ZP_MOST)].to_vec();
        Run { carry, bank1: machine.bank1.clone(), machine, zp }
    }

    fn packed(len: usize, format: Format) -> (Vec<u8>, Vec<u8>, u16) {
        let data: Vec<u8> = (0..len).map(|i| ((i * 7) ^ (i >> 5)) as u8).collect();
        let file = bac_pack::pack_prg(&data, BANK1_START, BANK1_END, format).unwrap().file;
        let end = BANK1_START + len as u16;
        (data, file, end)
    }

    #[test]
    fn a_fast_drive_s_file_is_unpacked_into_bank_1_as_it_comes() {
        // 41,000 bytes reach $E028 in bank 1: over $D506 and $DD00, RAM under the output's
        // map, which the routine must not write when it puts $D506 and CLK back.
        let cases = [3000, 20_000, 100, 41_000].into_iter().flat_map(|n| [(n, Format::Bytes), (n, Format::Dense)]);
        for (len, format) in cases {
            let (data, file, end) = packed(len, format);
            let bytes = burst(&file);
            let total = bytes.len();
            let r = run(bytes, true, end, format);
            assert!(!r.carry, "{len} bytes: the stream is taken ({} of {total} sent)", r.machine.sent);
            let at = usize::from(BANK1_START);
            assert!(r.bank1[at..at + len] == data[..], "{len} bytes: bank 1 holds the file unpacked");
            assert_eq!(r.bank1[at + len], 0xEE, "and nothing after it");
            assert_eq!(r.machine.sent, total, "every byte asked for");
            assert!(r.machine.extra <= 1, "and at most the KERNAL's one request after the last");
            assert_eq!(r.zp, (0..ZP_MOST).map(|i| 0xA0 + i).collect::<Vec<_>>(), "T0-T15 back, used or not");
            assert_eq!((r.machine.mmu, r.machine.clk & 0x10), (0x00, 0), "$FF00 back, CLK released");
        }
    }

    #[test]
    fn a_slow_drive_a_bad_status_or_silence_is_a_failure_not_a_hang() {
        let format = Format::Dense;
        let (_, file, end) = packed(3000, format);
        let r = run(burst(&file), false, end, format);
        assert!(r.carry && r.machine.sent == 0, "no fast drive: not one request");
        let r = run(vec![2], true, end, format);
        assert!(r.carry, "file not found");
        let mut bytes = burst(&file);
        bytes[255] = 0x05;
        let r = run(bytes, true, end, format);
        assert!(r.carry, "a read error in the second sector");
        let bytes = burst(&file)[..1000].to_vec();
        let r = run(bytes, true, end, format);
        assert!(r.carry, "the drive stops sending: the time-out");
        assert_eq!(r.zp, (0..ZP_MOST).map(|i| 0xA0 + i).collect::<Vec<_>>(), "T0-T15 back, used or not");
        assert_eq!(r.machine.mmu, 0x00, "$FF00 back");
    }
}
