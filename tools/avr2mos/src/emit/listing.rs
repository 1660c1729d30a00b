//! Reading a listing back: which AVR instruction a 6502 address came from. The runner
//! uses it to name the AVR instruction in its error reports (it has the `.lst` file beside
//! the `.prg`, written by [`crate::pipeline`]).

/// Where a 6502 address is in a translated program.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Origin {
    /// In the translation of this AVR instruction.
    Avr {
        /// Function (ELF symbol) name.
        function: String,
        /// Byte offset in the function.
        offset: u32,
        /// The instruction, disassembled.
        insn: String,
    },
    /// In a runtime routine of the translator.
    Runtime(String),
}

impl std::fmt::Display for Origin {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Origin::Avr { function, offset, insn } => write!(f, "{function}+{offset:#x}: {insn}"),
            Origin::Runtime(name) => write!(f, "runtime routine {name}"),
        }
    }
}

/// Finds the AVR instruction (or runtime routine) whose code contains `pc`, in the text of
/// a listing written by [`crate::translate()`]. `None` if `pc` is before the code or the
/// listing is not one of ours.
pub fn origin_of(listing: &str, pc: u16) -> Option<Origin> {
    let mut function = String::new();
    let mut best: Option<(u16, Origin)> = None;
    for line in listing.lines() {
        if let Some(name) = line.strip_suffix(':').filter(|l| !l.starts_with(' ') && !l.is_empty()) {
            function = name.to_string();
            continue;
        }
        // Runtime lines: "rt_name:  $addr  N bytes".
        if let Some((name, rest)) = line.split_once(":  $") {
            if let Some(addr) = rest.get(..4).and_then(|h| u16::from_str_radix(h, 16).ok())
                && addr <= pc
                && best.as_ref().is_none_or(|(a, _)| *a <= addr)
            {
                best = Some((addr, Origin::Runtime(name.to_string())));
            }
            continue;
        }
        // Instruction lines: "  +off  avraddr  bytes  insn  $addr  cycles  bytes".
        let Some(rest) = line.trim_start().strip_prefix('+') else { continue };
        let Some(dollar) = rest.find('$') else { continue };
        let Some(addr) = rest.get(dollar + 1..dollar + 5).and_then(|h| u16::from_str_radix(h, 16).ok()) else {
            continue;
        };
        let mut fields = rest[..dollar].split_whitespace();
        let offset = fields.next().and_then(|o| u32::from_str_radix(o, 16).ok())?;
        let _avr_addr = fields.next();
        // The instruction bytes are 2-digit hex fields; the rest is the disassembly.
        let words: Vec<&str> = fields.collect();
        let n_bytes = words.iter().take_while(|w| w.len() == 2 && u8::from_str_radix(w, 16).is_ok()).count().min(4);
        let insn = words[n_bytes..].join(" ");
        if addr <= pc && best.as_ref().is_none_or(|(a, _)| *a <= addr) {
            best = Some((addr, Origin::Avr { function: function.clone(), offset, insn }));
        }
    }
    best.map(|(_, o)| o)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::input::program::{AvrProgram, Function};

    #[test]
    fn finds_the_instruction_of_every_address() {
        // main: ldi r24, 42; inc r24; ret
        let words: [u16; 3] = [0xE28A, 0x9583, 0x9508];
        let prog = AvrProgram {
            text: words.iter().flat_map(|w| w.to_le_bytes()).collect(),
            data_base: 0x200,
            functions: vec![Function { name: "main".into(), addr: 0 }],
            entry: 0,
            ..Default::default()
        };
        let t = crate::translate(&prog).unwrap();
        let main = t.symbol("main").unwrap();
        let at = |pc| origin_of(&t.listing, pc).unwrap().to_string();
        assert_eq!(at(main), "main+0x0: ldi r24, 0x2a");
        assert_eq!(at(main + 2), "main+0x0: ldi r24, 0x2a", "inside the LDA/STA pair");
        assert_eq!(at(main + 4), "main+0x2: inc r24");
        assert_eq!(at(t.symbol("rt_start").unwrap() + 3), "runtime routine rt_start");
        assert_eq!(origin_of(&t.listing, 0x1000), None);
    }
}
