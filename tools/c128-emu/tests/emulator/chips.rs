//! The chips and the screen editor seen from 6502 programs: both screens, screenshots, the
//! keyboard (buffer and matrix), the shadow registers, the SID log, CIA timers and TOD, the
//! 40/80 key and FAST mode.

use crate::asm::Asm;
use c128_emu::screenshot::{BORDER, RGBI_PALETTE, VIC_PALETTE};
use c128_emu::{Config, RunOptions, Screen, run_until_exit};

fn run_with(asm: &Asm, options: RunOptions) -> c128_emu::RunReport {
    run_until_exit(&asm.prg(), options).unwrap_or_else(|e| panic!("{e}"))
}

fn run(asm: &Asm) -> c128_emu::RunReport {
    run_with(asm, RunOptions::default())
}

fn eighty() -> RunOptions {
    RunOptions { config: Config { eighty_columns: true, ..Config::default() }, ..RunOptions::default() }
}

/// `LDA $A2 / l: CMP $A2 / BEQ l`: waits for the jiffy clock (the frame interrupt) to tick.
fn wait_frame(a: &mut Asm) {
    a.op(&[0xA5, 0xA2, 0xC5, 0xA2, 0xF0, 0xFC]);
}

fn rgba(rgb: [u8; 3]) -> image::Rgba<u8> {
    image::Rgba([rgb[0], rgb[1], rgb[2], 255])
}

#[test]
fn chrout_draws_on_the_40_column_screen() {
    let mut a = Asm::new();
    a.print(&[0x93]).print(b"HI\r").print(&[0x1C, 0x12]).print(b"A").exit(0);
    let r = run(&a);
    let b = r.machine.bus();
    assert_eq!([b.ram_peek(0, 0x0400), b.ram_peek(0, 0x0401), b.ram_peek(0, 0x0402)], [8, 9, 32]);
    assert_eq!(b.ram_peek(0, 0x0428), 0x81, "reverse A on the second line");
    assert_eq!(b.colour(0), 13);
    assert_eq!(b.colour(40), 2, "red after CHR$(28)");
}

/// The C128's colour RAM has two banks: the processor port's bit 0 chooses the one the CPU
/// sees at $D800, bit 1 the one the VIC-IIe shows.
#[test]
fn the_processor_port_chooses_the_colour_ram_banks_of_the_cpu_and_the_vic() {
    let mut a = Asm::new();
    // Bank 0 for both: red in cell 0; bank 1 for the CPU: cyan in cell 0, read back into
    // cell 1 of the screen; then the VIC on bank 1.
    a.op(&[0xA5, 0x01, 0x29, 0xFC, 0x85, 0x01]) // LDA $01; AND #$FC; STA $01
        .op(&[0xA9, 0x02, 0x8D, 0x00, 0xD8]) // LDA #2; STA $D800
        .op(&[0xA5, 0x01, 0x09, 0x01, 0x85, 0x01]) // LDA $01; ORA #1; STA $01
        .op(&[0xA9, 0x03, 0x8D, 0x00, 0xD8]) // LDA #3; STA $D800
        .op(&[0xAD, 0x00, 0xD8, 0x29, 0x0F, 0x8D, 0x01, 0x04]) // LDA $D800; AND #$0F; STA $0401
        .op(&[0xA5, 0x01, 0x29, 0xFE, 0x85, 0x01]) // LDA $01; AND #$FE; STA $01: the CPU on bank 0
        .op(&[0xAD, 0x00, 0xD8, 0x29, 0x0F, 0x8D, 0x02, 0x04]) // LDA $D800; AND #$0F; STA $0402
        .op(&[0xA5, 0x01, 0x09, 0x02, 0x85, 0x01]) // LDA $01; ORA #2; STA $01: the VIC on bank 1
        .exit(0);
    let r = run(&a);
    let b = r.machine.bus();
    assert_eq!([b.ram_peek(0, 0x0401), b.ram_peek(0, 0x0402)], [3, 2], "the CPU reads the bank it chose");
    assert_eq!(b.colour(0), 3, "the VIC shows bank 1");
}

#[test]
fn chrout_draws_on_the_80_column_screen_when_it_is_active() {
    let mut a = Asm::new();
    a.print(b"OK").exit(0);
    let r = run_with(&a, eighty());
    let vdc = &r.machine.bus().vdc;
    assert_eq!([vdc.peek(0), vdc.peek(1)], [15, 11]);
    assert_eq!(vdc.peek(0x0800), 7, "cyan as RGBI");
    assert_eq!(r.machine.bus().ram_peek(0, 0x0400), 32, "the 40-column screen is untouched");
}

#[test]
fn plot_moves_the_cursor_and_reads_it_back() {
    let mut a = Asm::new();
    a.op(&[0x18, 0xA2, 0x05, 0xA0, 0x0A, 0x20, 0xF0, 0xFF]) // CLC / LDX #5 / LDY #10 / PLOT
        .print(b"Z")
        .op(&[0x38, 0x20, 0xF0, 0xFF]) // SEC / PLOT
        .op(&[0x98, 0x8D, 0xFF, 0xD7, 0x60]); // TYA: exit with the column
    let r = run(&a);
    assert_eq!(r.exit.code, 11);
    assert_eq!(r.machine.bus().ram_peek(0, 0x0400 + 5 * 40 + 10), 26);
}

#[test]
fn screenshot_40_draws_border_background_and_glyphs() {
    let mut a = Asm::new();
    a.op(&[0xA9, 0x02, 0x8D, 0x20, 0xD0]) // border red
        .print(&[0x93])
        .print(b"A")
        .exit(0);
    let r = run(&a);
    let img = r.machine.screenshot(Screen::Forty);
    assert_eq!(img.dimensions(), (320 + 2 * BORDER, 200 + 2 * BORDER));
    assert_eq!(*img.get_pixel(0, 0), rgba(VIC_PALETTE[2]));
    // The built-in 'A' has its top row in columns 2-4 of the cell.
    assert_eq!(*img.get_pixel(BORDER + 2, BORDER), rgba(VIC_PALETTE[13]));
    assert_eq!(*img.get_pixel(BORDER, BORDER), rgba(VIC_PALETTE[11]));
    assert_eq!(*img.get_pixel(BORDER + 10, BORDER), rgba(VIC_PALETTE[11]));
}

#[test]
fn screenshot_40_draws_a_hires_bitmap() {
    // Bitmap at $2000, colours from the screen at $0400: cell 0's first line is $F0
    // (left half white on black).
    let mut a = Asm::new();
    a.op(&[0xA9, 0x01, 0x85, 0xD8]) // GRAPHM: the editor keeps its hands off $D011/$D018
        .op(&[0xA9, 0x3B, 0x8D, 0x11, 0xD0, 0xA9, 0x18, 0x8D, 0x18, 0xD0])
        .op(&[0xA9, 0xF0, 0x8D, 0x00, 0x20, 0xA9, 0x10, 0x8D, 0x00, 0x04])
        .exit(0);
    let img = run(&a).machine.screenshot(Screen::Forty);
    assert_eq!(*img.get_pixel(BORDER, BORDER), rgba(VIC_PALETTE[1]));
    assert_eq!(*img.get_pixel(BORDER + 3, BORDER), rgba(VIC_PALETTE[1]));
    assert_eq!(*img.get_pixel(BORDER + 4, BORDER), rgba(VIC_PALETTE[0]));
}

#[test]
fn screenshot_40_draws_sprites_over_the_text() {
    // Sprite 0: block 13 ($0340), first row solid, X-expanded, at the text area's corner.
    let mut a = Asm::new();
    a.op(&[0xA9, 0xFF, 0x8D, 0x40, 0x03, 0x8D, 0x41, 0x03, 0x8D, 0x42, 0x03])
        .op(&[0xA9, 13, 0x8D, 0xF8, 0x07]) // pointer
        .op(&[0xA9, 24, 0x8D, 0x00, 0xD0, 0xA9, 50, 0x8D, 0x01, 0xD0]) // X, Y
        .op(&[0xA9, 0x07, 0x8D, 0x27, 0xD0]) // yellow
        .op(&[0xA9, 0x01, 0x8D, 0x1D, 0xD0, 0x8D, 0x15, 0xD0]) // expand X, enable
        .exit(0);
    let img = run(&a).machine.screenshot(Screen::Forty);
    assert_eq!(*img.get_pixel(BORDER, BORDER), rgba(VIC_PALETTE[7]));
    assert_eq!(*img.get_pixel(BORDER + 47, BORDER), rgba(VIC_PALETTE[7]));
    assert_eq!(*img.get_pixel(BORDER + 48, BORDER), rgba(VIC_PALETTE[11]));
    assert_eq!(*img.get_pixel(BORDER, BORDER + 1), rgba(VIC_PALETTE[11]));
}

#[test]
fn a_sprite_behind_the_text_shows_under_its_background_pixels_whatever_the_ink() {
    // Black ink on a black screen over a white sprite behind the text (a card's face): the
    // glyph's set pixels are foreground and hide the sprite although they are black.
    let mut a = Asm::new();
    a.print(&[0x93]).print(b"A");
    a.op(&[0xA2, 23, 0xA9, 0xFF])
        .label("fill")
        .op(&[0x9D, 0x40, 0x03, 0xCA])
        .branch(0x10, "fill") // sprite 0: lines 0-7 solid
        .op(&[0xA9, 13, 0x8D, 0xF8, 0x07]) // pointer
        .op(&[0xA9, 24, 0x8D, 0x00, 0xD0, 0xA9, 50, 0x8D, 0x01, 0xD0]) // X, Y
        .op(&[0xA9, 0x01, 0x8D, 0x27, 0xD0]) // white
        .op(&[0x8D, 0x1B, 0xD0, 0x8D, 0x15, 0xD0]) // behind the text, enabled
        .op(&[0xA9, 0x00, 0x8D, 0x21, 0xD0, 0x8D, 0x00, 0xD8]) // black screen, black ink
        .exit(0);
    let r = run(&a);
    let img = r.machine.screenshot(Screen::Forty);
    // The built-in 'A' has its top row in columns 2-4 of the cell.
    assert_eq!(*img.get_pixel(BORDER + 2, BORDER), rgba(VIC_PALETTE[0]));
    assert_eq!(*img.get_pixel(BORDER, BORDER), rgba(VIC_PALETTE[1]));
    assert_eq!(*img.get_pixel(BORDER + 7, BORDER + 7), rgba(VIC_PALETTE[1]));
    // Read as text, the cell is black ink on the sprite's white; the fourth, past the
    // sprite's 24 pixels, is on the screen's black.
    let cells = c128_emu::text::cells(r.machine.bus(), Screen::Forty);
    assert_eq!((cells[0][0].ch, cells[0][0].fg, cells[0][0].bg), ('A', VIC_PALETTE[0], VIC_PALETTE[1]));
    assert_eq!(cells[0][3].bg, VIC_PALETTE[0]);
}

#[test]
fn the_editor_interrupt_restores_d018_from_its_shadow() {
    let mut a = Asm::new();
    a.op(&[0xA9, 0x18, 0x8D, 0x18, 0xD0]); // $D018 = $18 behind the editor's back
    wait_frame(&mut a);
    a.op(&[0xAD, 0x18, 0xD0, 0x8D, 0xFF, 0xD7, 0x60]);
    assert_eq!(run(&a).exit.code, 0x15, "$14 back, bit 0 reads 1");
    let mut a = Asm::new();
    a.op(&[0xA9, 0x18, 0x8D, 0x2C, 0x0A]); // through the shadow: it sticks
    wait_frame(&mut a);
    a.op(&[0xAD, 0x18, 0xD0, 0x8D, 0xFF, 0xD7, 0x60]);
    assert_eq!(run(&a).exit.code, 0x19);
}

#[test]
fn screenshot_uses_the_character_set_the_program_installed() {
    let mut a = Asm::new();
    // Glyph 1 of a RAM character set at $2000 is solid; select it through the shadow.
    a.op(&[0xA2, 0x07, 0xA9, 0xFF])
        .label("fill")
        .op(&[0x9D, 0x08, 0x20, 0xCA])
        .branch(0x10, "fill")
        .op(&[0xA9, 0x18, 0x8D, 0x2C, 0x0A]);
    wait_frame(&mut a);
    a.print(&[0x93]).print(b"A").exit(0);
    let r = run(&a);
    let img = r.machine.screenshot(Screen::Forty);
    for x in 0..8 {
        assert_eq!(*img.get_pixel(BORDER + x, BORDER + 7), rgba(VIC_PALETTE[13]));
    }
}

#[test]
fn vdc_registers_programmed_by_the_cpu_show_in_the_80_column_screenshot() {
    let mut a = Asm::new();
    // Select register, wait for ready, write: update address $0000, then 'X' (24) and a
    // light red attribute at $0800.
    let write = |a: &mut Asm, reg: u8, v: u8| {
        a.op(&[0xA2, reg, 0x8E, 0x00, 0xD6])
            .op(&[0x2C, 0x00, 0xD6, 0x10, 0xFB]) // BIT $D600 / BPL (wait for ready)
            .op(&[0xA9, v, 0x8D, 0x01, 0xD6]);
    };
    write(&mut a, 18, 0x00);
    write(&mut a, 19, 0x00);
    write(&mut a, 31, 24);
    write(&mut a, 18, 0x08);
    write(&mut a, 19, 0x00);
    write(&mut a, 31, 0x09);
    a.exit(0);
    let r = run(&a);
    let img = r.machine.screenshot(Screen::Eighty);
    assert_eq!(img.dimensions(), (640, 200));
    // 'X' has its top row at columns 1 and 5.
    assert_eq!(*img.get_pixel(1, 0), rgba(RGBI_PALETTE[9]));
    assert_eq!(*img.get_pixel(2, 0), rgba(RGBI_PALETTE[0]));
}

#[test]
fn screenshots_are_written_as_png() {
    let mut a = Asm::new();
    a.print(b"PNG").exit(0);
    let r = run(&a);
    let dir = std::env::temp_dir().join(format!("bac128-shot-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("forty.png");
    r.machine.save_screenshot(None, &path).unwrap();
    let back = image::open(&path).unwrap().to_rgba8();
    assert_eq!(back, r.machine.screenshot(Screen::Forty));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn getin_reads_the_typed_keys() {
    let mut a = Asm::new();
    a.label("get")
        .op(&[0x20, 0xE4, 0xFF]) // JSR GETIN
        .branch(0xF0, "get")
        .op(&[0x20, 0xD2, 0xFF, 0xC9, 0x0D]) // JSR CHROUT / CMP #13
        .branch(0xD0, "get")
        .exit(0);
    let opts = RunOptions { keys: Some("Ab1{WAIT 5}!{RETURN}".into()), ..RunOptions::default() };
    let r = run_with(&a, opts);
    assert_eq!(r.output(), "AB1!\n");
}

#[test]
fn getin_hands_out_a_function_keys_basic_text_first() {
    // F5's text, DSAVE", comes before the X typed after it; F3's, DIRECTORY and RETURN,
    // waits until F5's is taken.
    let mut a = Asm::new();
    a.label("get")
        .op(&[0x20, 0xE4, 0xFF]) // JSR GETIN
        .branch(0xF0, "get")
        .op(&[0x20, 0xD2, 0xFF, 0xC9, 0x0D]) // JSR CHROUT / CMP #13
        .branch(0xD0, "get")
        .exit(0);
    let opts = RunOptions { keys: Some("{F5}X{F3}".into()), ..RunOptions::default() };
    let r = run_with(&a, opts);
    assert_eq!(r.output(), "DSAVE\"XDIRECTORY\n");
}

#[test]
fn an_endless_program_ends_after_its_key_script() {
    // Echo keys forever; the run ends 10 frames after the last key.
    let mut a = Asm::new();
    a.label("get").op(&[0x20, 0xE4, 0xFF]).branch(0xF0, "get").op(&[0x20, 0xD2, 0xFF]);
    a.abs(0x4C, "get");
    let opts = RunOptions {
        keys: Some("HI".into()),
        config: Config { stop_frames_after_keys: Some(10), ..Config::default() },
        ..RunOptions::default()
    };
    let r = run_with(&a, opts);
    assert_eq!(r.exit.kind, c128_emu::ExitKind::KeysDone);
    assert_eq!(r.output(), "HI");
    let frames = r.machine.bus().frames;
    assert!((15..25).contains(&frames), "{frames}");
}

#[test]
fn chrin_returns_a_typed_line() {
    let mut a = Asm::new();
    a.label("in")
        .op(&[0x20, 0xCF, 0xFF, 0x85, 0xFB, 0xC9, 0x0D]) // CHRIN / STA $FB / CMP #13
        .branch(0xD0, "in")
        .exit(9);
    let opts = RunOptions { keys: Some("DEAL{RETURN}".into()), ..RunOptions::default() };
    let r = run_with(&a, opts);
    assert_eq!(r.exit.code, 9);
    assert_eq!(r.output(), "\n", "the echo goes to the screen, the RETURN to the log");
    assert_eq!(r.machine.bus().ram_peek(0, 0x0400), 4, "D echoed on the screen");
    // The frame interrupt kept running while CHRIN waited: the jiffy clock advanced.
    let jiffies = r.machine.bus().ram_peek(0, 0xA2);
    assert!(jiffies >= 10, "{jiffies}");
}

#[test]
fn the_key_matrix_shows_held_keys() {
    // Wait until 'A' (column 1, row 2) reads as down, then until the C128's HELP key
    // ($D02F line 0, row 0) does.
    let mut a = Asm::new();
    a.label("a")
        .op(&[0xA9, 0xFD, 0x8D, 0x00, 0xDC, 0xAD, 0x01, 0xDC, 0x29, 0x04])
        .branch(0xD0, "a")
        .op(&[0xA9, 0xFF, 0x8D, 0x00, 0xDC, 0xA9, 0xFE, 0x8D, 0x2F, 0xD0])
        .label("help")
        .op(&[0xAD, 0x01, 0xDC, 0x29, 0x01])
        .branch(0xD0, "help")
        .exit(1);
    let opts = RunOptions { keys: Some("A{HELP}".into()), ..RunOptions::default() };
    assert_eq!(run_with(&a, opts).exit.code, 1);
}

#[test]
fn stop_reports_the_run_stop_key() {
    let mut a = Asm::new();
    a.label("w").op(&[0x20, 0xE1, 0xFF]).branch(0xD0, "w").exit(3);
    let opts = RunOptions { keys: Some("{WAIT 3}{RUN/STOP}".into()), ..RunOptions::default() };
    let r = run_with(&a, opts);
    assert_eq!(r.exit.code, 3);
    assert!(r.exit.cycles > 3 * 19_656, "not before the key: {}", r.exit.cycles);
}

#[test]
fn joystick_2_reads_on_port_a() {
    let mut a = Asm::new();
    a.op(&[0xAD, 0x00, 0xDC, 0x8D, 0xFF, 0xD7, 0x60]);
    let mut m = c128_emu::machine_for(RunOptions::default()).unwrap();
    m.bus_mut().keyboard.joystick[1] = c128_emu::keys::joy::FIRE | c128_emu::keys::joy::UP;
    m.load_prg(&a.prg()).unwrap();
    let exit = m.run_basic().unwrap();
    assert_eq!(exit.code & 0x1F, 0x1F & !0x11);
}

#[test]
fn sid_writes_are_logged_with_their_cycle() {
    let mut a = Asm::new();
    a.op(&[0xA9, 0x31, 0x8D, 0x00, 0xD4, 0xA9, 0x1C, 0x8D, 0x01, 0xD4]).op(&[0xA9, 0x21, 0x8D, 0x04, 0xD4]).exit(0);
    let r = run(&a);
    let sid = &r.machine.bus().sid;
    let regs: Vec<(u8, u8)> = sid.log.iter().map(|w| (w.reg, w.value)).collect();
    assert_eq!(regs, [(0x00, 0x31), (0x01, 0x1C), (0x04, 0x21)]);
    assert!(sid.log.windows(2).all(|w| w[0].cycle < w[1].cycle));
    assert_eq!(sid.voice_frequency(0), 0x1C31);
}

#[test]
fn tod_clock_ticks_in_real_time() {
    // Wait until the TOD seconds register reads 1, reading hours first to latch as programs do.
    let mut a = Asm::new();
    a.op(&[0x78]) // no interrupts: count only the loop
        .label("w")
        .op(&[0xAD, 0x0B, 0xDC, 0xAD, 0x09, 0xDC, 0xAE, 0x08, 0xDC, 0xC9, 0x01])
        .branch(0xD0, "w")
        .exit(0);
    let r = run(&a);
    let c = r.exit.cycles as f64;
    assert!((c - 985_248.0).abs() < 1_000.0, "{c}");
}

#[test]
fn cia_timer_interrupts_reach_the_program_handler() {
    let mut a = Asm::new();
    a.op(&[0x78]) // SEI while installing
        .imm_addr(0xA9, "irq", false)
        .op(&[0x8D, 0x14, 0x03])
        .imm_addr(0xA9, "irq", true)
        .op(&[0x8D, 0x15, 0x03])
        .op(&[0xA9, 0x00, 0x8D, 0x1A, 0xD0]) // no raster interrupt
        .op(&[0xA9, 0xE7, 0x8D, 0x04, 0xDC, 0xA9, 0x03, 0x8D, 0x05, 0xDC]) // latch 999
        .op(&[0xA9, 0x81, 0x8D, 0x0D, 0xDC, 0xA9, 0x11, 0x8D, 0x0E, 0xDC]) // IRQ on, start
        .op(&[0x58]) // CLI
        .label("w")
        .op(&[0xA5, 0xFB, 0xC9, 0x0A])
        .branch(0xD0, "w")
        .exit(0)
        .label("irq")
        .op(&[0xAD, 0x0D, 0xDC, 0xE6, 0xFB, 0x4C, 0x33, 0xFF]); // ack, count, KERNAL exit
    let r = run(&a);
    assert!((10_000..11_000).contains(&r.exit.cycles), "{}", r.exit.cycles);
}

#[test]
fn cia2_timer_nmis_reach_the_program_handler() {
    let mut a = Asm::new();
    a.op(&[0x78])
        .imm_addr(0xA9, "nmi", false)
        .op(&[0x8D, 0x18, 0x03])
        .imm_addr(0xA9, "nmi", true)
        .op(&[0x8D, 0x19, 0x03])
        .op(&[0xA9, 0xE7, 0x8D, 0x04, 0xDD, 0xA9, 0x03, 0x8D, 0x05, 0xDD]) // latch 999
        .op(&[0xA9, 0x81, 0x8D, 0x0D, 0xDD, 0xA9, 0x11, 0x8D, 0x0E, 0xDD]) // NMI on, start
        .label("w")
        .op(&[0xA5, 0xFC, 0xC9, 0x05])
        .branch(0xD0, "w")
        .exit(0)
        .label("nmi")
        .op(&[0xAD, 0x0D, 0xDD, 0xE6, 0xFC, 0x4C, 0x33, 0xFF]); // ack, count, KERNAL exit
    let r = run(&a);
    assert!((5_000..5_600).contains(&r.exit.cycles), "{}", r.exit.cycles);
}

#[test]
fn the_editor_interrupt_follows_graphm_into_bitmap_mode() {
    let mut a = Asm::new();
    a.op(&[0xA9, 0x38, 0x8D, 0x2D, 0x0A, 0xA9, 0xA0, 0x85, 0xD8]); // VM2 = $38, GRAPHM = $A0
    wait_frame(&mut a);
    a.op(&[0xAD, 0x11, 0xD0, 0x29, 0x20, 0x85, 0xFB]) // bitmap bit of $D011
        .op(&[0xAD, 0x16, 0xD0, 0x29, 0x10, 0x05, 0xFB]) // | multicolour bit of $D016
        .op(&[0x0D, 0x18, 0xD0, 0x8D, 0xFF, 0xD7, 0x60]); // | $D018
    assert_eq!(run(&a).exit.code, 0x20 | 0x10 | 0x39);
}

#[test]
fn the_40_80_key_reads_in_d505_and_fast_mode_halves_time() {
    let mut a = Asm::new();
    a.op(&[0xAD, 0x05, 0xD5, 0x29, 0x80, 0x8D, 0xFF, 0xD7, 0x60]);
    assert_eq!(run(&a).exit.code, 0x80);
    assert_eq!(run_with(&a, eighty()).exit.code, 0x00);

    let mut a = Asm::new();
    a.op(&[0x78, 0xA9, 0x01, 0x8D, 0x30, 0xD0, 0xA2, 0x00]).label("l").op(&[0xEA, 0xCA]).branch(0xD0, "l").exit(0);
    let r = run(&a);
    let now = r.machine.bus().now() as f64;
    let cycles = r.exit.cycles as f64;
    assert!(now < cycles * 0.52 && now > cycles * 0.45, "{now} vs {cycles}");
}
