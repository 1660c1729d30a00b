//! Bad input gives a typed error naming the function, the offset and the instruction;
//! nothing panics and nothing half-written is left behind.

use avr2mos::input::program::{AvrProgram, Function};
use avr2mos::{TranslateError, translate};

fn prog(words: &[u16]) -> AvrProgram {
    AvrProgram {
        text: words.iter().flat_map(|w| w.to_le_bytes()).collect(),
        data_base: 0x200,
        functions: vec![Function { name: "main".into(), addr: 0 }, Function { name: "helper".into(), addr: 4 }],
        entry: 0,
        ..Default::default()
    }
}

#[test]
fn unknown_instruction_names_function_offset_and_bytes() {
    // main: nop; ret; helper: nop; <0xFF0F: no avr5 instruction>
    let err = translate(&prog(&[0x0000, 0x9508, 0x0000, 0xFF0F])).unwrap_err();
    match &err {
        TranslateError::UnknownInstruction { at, bytes } => {
            assert_eq!((at.function.as_str(), at.offset, at.address), ("helper", 2, 6));
            assert_eq!(bytes, "0f ff");
        }
        other => panic!("{other:?}"),
    }
    assert!(err.to_string().contains("helper+0x2"), "{err}");
}

#[test]
fn unsupported_instructions_say_why() {
    // lpm r24, Z (program memory) and out 0x05, r24 (an AVR port) cannot be translated.
    for (word, what) in [(0x9184u16, "lpm r24"), (0xB985, "out 0x05, r24")] {
        let err = translate(&prog(&[0x0000, 0x9508, word, 0x9508])).unwrap_err();
        match &err {
            TranslateError::Unsupported { at, insn, .. } => {
                assert_eq!((at.function.as_str(), at.offset), ("helper", 0));
                assert!(insn.starts_with(what), "{insn}");
            }
            other => panic!("{other:?}"),
        }
    }
}

#[test]
fn branch_into_the_middle_of_an_instruction_is_an_error() {
    // rjmp .+4 lands on the second word of the call at 4.
    let err = translate(&prog(&[0xC002, 0x0000, 0x940E, 0x0000, 0x9508])).unwrap_err();
    assert!(matches!(err, TranslateError::BadTarget { .. }), "{err:?}");
}

#[test]
fn a_program_that_does_not_fit_is_refused() {
    // 20,000 ldi instructions (each of another value than the one before), each stored
    // to memory (`sts 0x0300, r24`), become 100,000 bytes of 6502 code.
    let mut words: Vec<u16> = (0..20_000u16).flat_map(|i| [0xE080 | (i & 1), 0x9380, 0x0300]).collect();
    words.push(0x9508);
    let err = translate(&prog(&words)).unwrap_err();
    assert!(matches!(err, TranslateError::TooLarge { .. }), "{err:?}");
}

#[test]
fn truncated_and_foreign_files_are_errors() {
    assert!(matches!(AvrProgram::from_elf(b"not an elf"), Err(TranslateError::BadElf(_))));
    let empty = prog(&[]);
    assert!(translate(&empty).is_err());
    // Two bytes of a four-byte call at the end.
    let err = translate(&prog(&[0x0000, 0x9508, 0x940E])).unwrap_err();
    assert!(matches!(err, TranslateError::UnknownInstruction { .. }), "{err:?}");
}

#[test]
fn the_all_ram_mode_fits_up_to_d000_and_says_how_many_bytes_over() {
    use avr2mos::mmap::MemoryMode;
    use avr2mos::{Options, translate_with};
    let all_ram = Options { memory: MemoryMode::AllRam, ..Options::default() };
    let mut p = prog(&[0x0000, 0x9508, 0x0000, 0x9508]);
    let end = translate_with(&p, &all_ram).unwrap().stats.end_addr;
    p.bss_len = 0xD000 - end;
    let t = translate_with(&p, &all_ram).unwrap();
    assert_eq!((t.stats.end_addr, t.stats.limit), (0xD000, 0xD000));
    let err = translate(&p).unwrap_err().to_string();
    // (The default mode's runtime is smaller: no trampoline, handlers or vector save.)
    assert!(err.contains("bytes over the limit 0xc000") && err.contains("all-ram"), "{err}");
    p.bss_len += 100;
    let err = translate_with(&p, &all_ram).unwrap_err();
    assert!(matches!(err, TranslateError::TooLarge { end: 0xD064, limit: 0xD000, .. }), "{err:?}");
    assert!(err.to_string().contains("100 bytes over the limit 0xd000"), "{err}");
}

#[test]
fn an_interpret_entry_that_places_nothing_is_named() {
    // main: nop; ret; helper: nop; ret.
    let words = [0x0000, 0x9508, 0x0000, 0x9508];
    let with = |entries: &[&str]| avr2mos::Options {
        interpret: entries.iter().map(|e| e.to_string()).collect(),
        ..Default::default()
    };
    let err = avr2mos::translate_with(&prog(&words), &with(&["helper", "helpr", "!main", "!helper"])).unwrap_err();
    match &err {
        TranslateError::StalePlacement { patterns } => assert_eq!(patterns, &["helpr", "!main"]),
        other => panic!("{other:?}"),
    }
    assert!(err.to_string().contains("\"helpr\", \"!main\""), "{err}");
    assert!(avr2mos::translate_with(&prog(&words), &with(&["*", "!helper"])).is_ok());
}
