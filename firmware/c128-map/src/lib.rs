//! The Commodore 128's addresses, named once for every part of bac128 that touches the
//! machine: the runtime the programs link (`c128-rt`), the translator's native routines
//! (`avr2mos`), the emulator that runs them (`c128-emu`) and the harness that reads the
//! programs' results. When two of them must agree on an address (the KERNAL entry the
//! runtime calls and the one the emulator traps, the mailbox a program writes and the
//! harness reads), they agree because they read it here.
//!
//! Addresses of the machine come from the C128 Programmer's Reference Guide and the
//! KERNAL's jump table; the two ports of our own ([`test::EXIT_PORT`], [`test::MAILBOX`])
//! say where they come from.

#![no_std]

/// The KERNAL's jump table at $FF47-$FFF3: a program calls these with the KERNAL ROM
/// mapped (bank 15), arguments in A, X, Y and the carry.
pub mod kernal {
    /// Sets up the fast serial port for input or output.
    pub const SPIN_SPOUT: u16 = 0xFF47;
    /// Closes every file of a device.
    pub const CLOSE_ALL: u16 = 0xFF4A;
    /// Switches to C64 mode.
    pub const C64MODE: u16 = 0xFF4D;
    /// Sends a command to a RAM expansion's DMA controller.
    pub const DMA_CALL: u16 = 0xFF50;
    /// Boots a disk (what happens at power-on).
    pub const BOOT_CALL: u16 = 0xFF53;
    /// Starts cartridges, then boots a disk.
    pub const PHOENIX: u16 = 0xFF56;
    /// Looks up a logical file number.
    pub const LKUPLA: u16 = 0xFF59;
    /// Looks up a secondary address.
    pub const LKUPSA: u16 = 0xFF5C;
    /// Swaps the 40- and 80-column screens' editor state (the ESC X of BASIC).
    pub const SWAPPER: u16 = 0xFF5F;
    /// Copies the character ROM into the VDC's RAM.
    pub const DLCHR: u16 = 0xFF62;
    /// Programs a function key.
    pub const PFKEY: u16 = 0xFF65;
    /// Sets the banks of LOAD/SAVE's data (A) and of the file name (X).
    pub const SETBNK: u16 = 0xFF68;
    /// The MMU configuration of a bank number (X) in A.
    pub const GETCFG: u16 = 0xFF6B;
    /// Calls a routine in another bank (arguments in $02-$08).
    pub const JSRFAR: u16 = 0xFF6E;
    /// Jumps to a routine in another bank (arguments in $02-$08).
    pub const JMPFAR: u16 = 0xFF71;
    /// Reads a byte from another bank.
    pub const INDFET: u16 = 0xFF74;
    /// Writes a byte to another bank.
    pub const INDSTA: u16 = 0xFF77;
    /// Compares A with a byte in another bank.
    pub const INDCMP: u16 = 0xFF7A;
    /// Prints the zero-terminated text that follows the JSR.
    pub const PRIMM: u16 = 0xFF7D;
    /// Initialises the screen editor.
    pub const CINT: u16 = 0xFF81;
    /// Initialises the I/O chips.
    pub const IOINIT: u16 = 0xFF84;
    /// Clears the system RAM and finds its size.
    pub const RAMTAS: u16 = 0xFF87;
    /// Restores the default RAM vectors.
    pub const RESTOR: u16 = 0xFF8A;
    /// Reads or writes the RAM vectors.
    pub const VECTOR: u16 = 0xFF8D;
    /// Sets which KERNAL messages are printed.
    pub const SETMSG: u16 = 0xFF90;
    /// Sends a secondary address after LISTEN.
    pub const SECOND: u16 = 0xFF93;
    /// Sends a secondary address after TALK.
    pub const TKSA: u16 = 0xFF96;
    /// Reads or sets the top of memory.
    pub const MEMTOP: u16 = 0xFF99;
    /// Reads or sets the bottom of memory.
    pub const MEMBOT: u16 = 0xFF9C;
    /// Scans the keyboard matrix into the keyboard buffer.
    pub const SCNKEY: u16 = 0xFF9F;
    /// Sets the IEEE time-out flag.
    pub const SETTMO: u16 = 0xFFA2;
    /// Reads a byte from the serial bus.
    pub const ACPTR: u16 = 0xFFA5;
    /// Writes a byte to the serial bus.
    pub const CIOUT: u16 = 0xFFA8;
    /// Sends UNTALK on the serial bus.
    pub const UNTLK: u16 = 0xFFAB;
    /// Sends UNLISTEN on the serial bus.
    pub const UNLSN: u16 = 0xFFAE;
    /// Sends LISTEN on the serial bus.
    pub const LISTN: u16 = 0xFFB1;
    /// Sends TALK on the serial bus.
    pub const TALK: u16 = 0xFFB4;
    /// Reads the I/O status byte ST into A.
    pub const READST: u16 = 0xFFB7;
    /// Sets the logical file (A), device (X) and secondary address (Y).
    pub const SETLFS: u16 = 0xFFBA;
    /// Sets the file name: length in A, address in X (low) and Y (high).
    pub const SETNAM: u16 = 0xFFBD;
    /// Opens the file SETLFS and SETNAM describe.
    pub const OPEN: u16 = 0xFFC0;
    /// Closes logical file A.
    pub const CLOSE: u16 = 0xFFC3;
    /// Makes logical file X the input channel.
    pub const CHKIN: u16 = 0xFFC6;
    /// Makes logical file X the output channel.
    pub const CKOUT: u16 = 0xFFC9;
    /// Restores the keyboard and screen as the channels.
    pub const CLRCH: u16 = 0xFFCC;
    /// Reads a byte from the input channel into A.
    pub const CHRIN: u16 = 0xFFCF;
    /// Writes A to the output channel.
    pub const CHROUT: u16 = 0xFFD2;
    /// Loads (A = 0) or verifies a file: SETLFS and SETNAM first, X/Y the address.
    pub const LOAD: u16 = 0xFFD5;
    /// Saves memory from the pointer at zero page A up to X/Y.
    pub const SAVE: u16 = 0xFFD8;
    /// Sets the jiffy clock.
    pub const SETTIM: u16 = 0xFFDB;
    /// Reads the jiffy clock.
    pub const RDTIM: u16 = 0xFFDE;
    /// Tests the RUN/STOP key.
    pub const STOP: u16 = 0xFFE1;
    /// Reads a key from the keyboard buffer (0 when empty), or a byte from the input file.
    pub const GETIN: u16 = 0xFFE4;
    /// Closes every file.
    pub const CLALL: u16 = 0xFFE7;
    /// Advances the jiffy clock.
    pub const UDTIM: u16 = 0xFFEA;
    /// The active screen's size: columns - 1 in X, rows - 1 in Y.
    pub const SCRORG: u16 = 0xFFED;
    /// Reads (carry set) or sets the cursor: row X, column Y.
    pub const PLOT: u16 = 0xFFF0;
    /// The address of the I/O chips in X/Y.
    pub const IOBASE: u16 = 0xFFF3;

    /// Every entry with its name, in address order, for messages that name a call.
    pub const ENTRIES: &[(u16, &str)] = &[
        (SPIN_SPOUT, "SPIN_SPOUT"),
        (CLOSE_ALL, "CLOSE_ALL"),
        (C64MODE, "C64MODE"),
        (DMA_CALL, "DMA_CALL"),
        (BOOT_CALL, "BOOT_CALL"),
        (PHOENIX, "PHOENIX"),
        (LKUPLA, "LKUPLA"),
        (LKUPSA, "LKUPSA"),
        (SWAPPER, "SWAPPER"),
        (DLCHR, "DLCHR"),
        (PFKEY, "PFKEY"),
        (SETBNK, "SETBNK"),
        (GETCFG, "GETCFG"),
        (JSRFAR, "JSRFAR"),
        (JMPFAR, "JMPFAR"),
        (INDFET, "INDFET"),
        (INDSTA, "INDSTA"),
        (INDCMP, "INDCMP"),
        (PRIMM, "PRIMM"),
        (CINT, "CINT"),
        (IOINIT, "IOINIT"),
        (RAMTAS, "RAMTAS"),
        (RESTOR, "RESTOR"),
        (VECTOR, "VECTOR"),
        (SETMSG, "SETMSG"),
        (SECOND, "SECOND"),
        (TKSA, "TKSA"),
        (MEMTOP, "MEMTOP"),
        (MEMBOT, "MEMBOT"),
        (SCNKEY, "SCNKEY"),
        (SETTMO, "SETTMO"),
        (ACPTR, "ACPTR"),
        (CIOUT, "CIOUT"),
        (UNTLK, "UNTLK"),
        (UNLSN, "UNLSN"),
        (LISTN, "LISTN"),
        (TALK, "TALK"),
        (READST, "READST"),
        (SETLFS, "SETLFS"),
        (SETNAM, "SETNAM"),
        (OPEN, "OPEN"),
        (CLOSE, "CLOSE"),
        (CHKIN, "CHKIN"),
        (CKOUT, "CKOUT"),
        (CLRCH, "CLRCH"),
        (CHRIN, "CHRIN"),
        (CHROUT, "CHROUT"),
        (LOAD, "LOAD"),
        (SAVE, "SAVE"),
        (SETTIM, "SETTIM"),
        (RDTIM, "RDTIM"),
        (STOP, "STOP"),
        (GETIN, "GETIN"),
        (CLALL, "CLALL"),
        (UDTIM, "UDTIM"),
        (SCRORG, "SCRORG"),
        (PLOT, "PLOT"),
        (IOBASE, "IOBASE"),
    ];

    /// The name of the entry at `addr`, if it is one.
    pub fn name(addr: u16) -> Option<&'static str> {
        ENTRIES.iter().find(|(a, _)| *a == addr).map(|(_, n)| *n)
    }

    /// The KERNAL's interrupt entry: the 6502's IRQ vector points here, and it jumps
    /// through the RAM vector at $0314 (or $0316 for BRK).
    pub const IRQ_ENTRY: u16 = 0xFF17;
    /// The end of the KERNAL's interrupt path: restores the MMU, Y, X and A, then RTI.
    pub const IRQ_EXIT: u16 = 0xFF33;
    /// The KERNAL's NMI entry, through the RAM vector at $0318.
    pub const NMI_ENTRY: u16 = 0xFF05;
    /// The reset entry.
    pub const RESET_ENTRY: u16 = 0xFF3D;
    /// The screen editor's interrupt routine, the default target of $0314.
    pub const EDITOR_IRQ: u16 = 0xFA65;
    /// The default NMI handler, the target of $0318.
    pub const EDITOR_NMI: u16 = 0xFA40;
    /// BASIC 7.0's "execute the line at (Y:X)+1", where a boot sector's loader jumps.
    pub const BASIC_EXECUTE_LINE: u16 = 0xAFA5;
}

/// Zero page and the system RAM the KERNAL and screen editor keep their state in.
pub mod zp {
    /// ST, the I/O status byte READST returns.
    pub const STATUS: u16 = 0x0090;
    /// The jiffy clock, three bytes, high byte first.
    pub const TIME: u16 = 0x00A0;
    /// FA, the device of the last I/O: where a boot loader finds its drive.
    pub const FA: u16 = 0x00BA;
    /// NDX, the number of keys in the keyboard buffer.
    pub const NDX: u16 = 0x00D0;
    /// KYNDX, how many characters of a function key's text are still to come: the
    /// keyboard scan sets it when a function key (F1-F8, HELP, SHIFT RUN/STOP) goes down,
    /// and GETIN hands those characters out before the keyboard buffer's.
    pub const KYNDX: u16 = 0x00D1;
    /// KEYIDX, where in [`PKYDEF`] the next of those characters is.
    pub const KEYIDX: u16 = 0x00D2;
    /// LSTX, the scan's index of the key down at its last look (88 for none): a key is new
    /// when its index differs.
    pub const LSTX: u16 = 0x00D5;
    /// GRAPHM: non-zero while a bitmap mode is shown.
    pub const GRAPHM: u16 = 0x00D8;
    /// KEYD, the keyboard buffer (ten keys).
    pub const KEYD: u16 = 0x034A;
    /// SERIAL, the fast serial flags: bit 6 set when the device last talked to answered
    /// the C128's fast (burst) handshake, as a 1571 or 1581 does.
    pub const SERIAL: u16 = 0x0A1C;
    /// The shadow of the VIC's $D018 for the text screen (VM1).
    pub const VM1: u16 = 0x0A2C;
    /// The shadow of the VIC's $D018 for the bitmap screen (VM2).
    pub const VM2: u16 = 0x0A2D;
    /// Where the KERNAL puts the boot sector it read, and runs its code.
    pub const BOOT_SECTOR: u16 = 0x0B00;
    /// PKYBUF, the lengths of the ten function keys' texts (F1-F8, SHIFT RUN/STOP, HELP).
    pub const PKYBUF: u16 = 0x1000;
    /// PKYDEF, the ten texts one after the other.
    pub const PKYDEF: u16 = 0x100A;
}

/// Values of the MMU's configuration register ([`io::MMU_CR`]) that the translated
/// programs run with.
pub mod mmu {
    /// A program in the default mode, and the all-RAM mode's KERNAL calls: RAM 0 to
    /// $BFFF, the KERNAL and I/O.
    pub const KERNAL: u8 = 0x0E;
    /// The all-RAM mode: RAM 0 everywhere, I/O at $D000.
    pub const ALL_RAM: u8 = 0x3E;
    /// Bank 1's RAM everywhere, with no I/O: the interpreter's reads of AVR bytes from a
    /// bank-1 file.
    pub const BANK1: u8 = 0x7F;
    /// The bank-1 file's end is below this: the MMU's registers, in every configuration.
    pub const BANK1_TOP: u16 = 0xFF00;
}

/// The I/O chips, at $D000-$DFFF while I/O is mapped, and the MMU's registers.
pub mod io {
    /// The VIC-IIe's first register.
    pub const VIC: u16 = 0xD000;
    /// VIC control register 1 (bit 7 is raster line bit 8).
    pub const VIC_CONTROL: u16 = 0xD011;
    /// VIC control register 2 (multicolour, 38/40 columns, fine scroll).
    pub const VIC_CONTROL2: u16 = 0xD016;
    /// VIC memory pointers: where the screen and the character set are in the VIC's bank.
    pub const VIC_MEMORY: u16 = 0xD018;
    /// VIC raster line (low 8 bits) and raster interrupt compare.
    pub const VIC_RASTER: u16 = 0xD012;
    /// VIC interrupt flags (write 1s to acknowledge).
    pub const VIC_IRQ_FLAGS: u16 = 0xD019;
    /// VIC interrupt enable mask.
    pub const VIC_IRQ_MASK: u16 = 0xD01A;
    /// VIC border colour.
    pub const VIC_BORDER: u16 = 0xD020;
    /// VIC background colour.
    pub const VIC_BACKGROUND: u16 = 0xD021;
    /// The VIC-IIe's clock register: bit 0 selects 2 MHz (FAST).
    pub const VIC_CLOCK: u16 = 0xD030;
    /// The VIC-IIe's extra keyboard lines (the C128's keypad and top-row keys).
    pub const KEY_EXTRA_LINES: u16 = 0xD02F;
    /// The SID's first register.
    pub const SID: u16 = 0xD400;
    /// The SID's mode and volume register.
    pub const SID_VOLUME: u16 = 0xD418;
    /// The MMU's configuration register in the I/O page.
    pub const MMU_CR_IO: u16 = 0xD500;
    /// The MMU's mode register (bit 7 reads the 40/80 key; bit 3 the fast serial bus's
    /// direction, 0: in).
    pub const MMU_MODE: u16 = 0xD505;
    /// The MMU's RAM configuration register (common RAM, VIC bank).
    pub const MMU_RCR: u16 = 0xD506;
    /// The VDC's address register.
    pub const VDC_ADDRESS: u16 = 0xD600;
    /// The VDC's data register.
    pub const VDC_DATA: u16 = 0xD601;
    /// The VIC's colour RAM.
    pub const COLOUR_RAM: u16 = 0xD800;
    /// CIA 1 port A: the keyboard matrix's column select.
    pub const CIA1_PORT_A: u16 = 0xDC00;
    /// CIA 1 port B: the keyboard matrix's rows.
    pub const CIA1_PORT_B: u16 = 0xDC01;
    /// CIA 1 data direction of port A.
    pub const CIA1_DDR_A: u16 = 0xDC02;
    /// CIA 1 data direction of port B.
    pub const CIA1_DDR_B: u16 = 0xDC03;
    /// CIA 1 serial data: the fast serial bus's byte (the C128 wires the bus's SRQ and
    /// DATA lines to CIA 1's CNT and SP pins).
    pub const CIA1_SDR: u16 = 0xDC0C;
    /// CIA 1 interrupt control (reading it clears its pending interrupts; bit 3: a byte
    /// has shifted through the serial data register).
    pub const CIA1_ICR: u16 = 0xDC0D;
    /// CIA 1 control A (bit 6: the serial port shifts out, 0: in).
    pub const CIA1_CRA: u16 = 0xDC0E;
    /// CIA 2 port A: its low two bits select the VIC's 16 KB bank (inverted); bit 4
    /// pulls the serial bus's CLK line low.
    pub const CIA2_PORT_A: u16 = 0xDD00;
    /// CIA 2 data direction of port A.
    pub const CIA2_DDR_A: u16 = 0xDD02;
    /// The MMU's configuration register, visible in every configuration.
    pub const MMU_CR: u16 = 0xFF00;
}

/// The runtime's key buffer (avr2mos's `key_buffer = true`): a raster interrupt reads the
/// key matrix once a frame into a ring that `c128_rt::keyboard` empties. Its state is in
/// the cassette buffer at $0B80-$0B9B and its ring in the RS-232 input buffer at
/// $0C00-$0CFF: common RAM (the handler may run inside a bank-1 window), untouched by the
/// KERNAL's disk calls.
pub mod key_buffer {
    /// $4B while the runtime keeps the key buffer, anything else when it does not.
    pub const MAGIC: u16 = 0x0B80;
    /// The value of [`MAGIC`] while the buffer is kept.
    pub const MAGIC_ON: u8 = 0x4B;
    /// The offset in [`RING`] of the next reading the handler writes.
    pub const HEAD: u16 = 0x0B81;
    /// The offset in [`RING`] of the next reading the program takes.
    pub const TAIL: u16 = 0x0B82;
    /// The last reading the handler put in the ring: 11 bytes, a set bit per key down, by
    /// line (the 8 columns of CIA 1 port A, then the 3 lines of $D02F).
    pub const LAST: u16 = 0x0B83;
    /// The handler's newest reading, rewritten every frame whether or not the ring had room
    /// for it (11 bytes, as [`LAST`]): the keys down now, so that a key held while the ring
    /// is full is still seen.
    pub const NOW: u16 = 0x0B90;
    /// The ring: a page of 16 slots, [`SLOT`] bytes apart, so that an offset wraps to the
    /// start by itself; it holds 15 readings (one slot stays free to tell full from empty).
    pub const RING: u16 = 0x0C00;
    /// Bytes from one reading in the ring to the next (11 used).
    pub const SLOT: u8 = 16;
    /// Key matrix lines: 8 columns and the C128's 3 extra lines.
    pub const LINES: u8 = 11;
    /// The raster line of the interrupt: far from line 250, where `c128_rt::frame` looks
    /// for the end of a frame.
    pub const IRQ_LINE: u8 = 100;
    /// A frame counter the interrupt adds 1 to, wrapping at 256: time that runs on while
    /// the program computes, which counting its own waits for a frame cannot give.
    pub const FRAMES: u16 = 0x0B9B;
}

/// The two ports our programs and tests talk through.
pub mod test {
    /// A write here ends the program with that exit code: VICE's debug cartridge port
    /// (`-debugcart`), which our emulator also honours.
    pub const EXIT_PORT: u16 = 0xD7FF;
    /// Where a program leaves results for the harness that runs it (the game's settled
    /// coup, the benchmark's phase and trace): the cassette buffer, where the boot sector
    /// was read, free once the program runs.
    pub const MAILBOX: u16 = 0x0B00;
}

#[cfg(test)]
mod tests {
    use super::kernal;

    #[test]
    fn the_jump_table_is_in_address_order_three_bytes_apart() {
        for pair in kernal::ENTRIES.windows(2) {
            let step = pair[1].0 - pair[0].0;
            // PRIMM at $FF7D is followed by CINT at $FF81: the one four-byte step.
            assert!(step == 3 || (pair[0].1 == "PRIMM" && step == 4), "{:?}", pair);
        }
        assert_eq!(kernal::name(kernal::CHROUT), Some("CHROUT"));
        assert_eq!(kernal::name(0xFFD3), None);
    }
}
