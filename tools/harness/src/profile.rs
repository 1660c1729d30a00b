//! Where a C128 program built by `bac prg` spends its cycles, by function, whether the
//! function runs translated or through the AVR interpreter: for `bac profile` and the share
//! of AVR instructions that `bac bench` reports.
//!
//! Assumes the symbol map (`.map`) and listing (`.lst`) the translator writes beside the
//! program: the map gives each translated function's and each interpreted stub's 6502
//! address and the runtime's routines (`rt_interp` and `rt_interp_next` the interpreter);
//! the listing gives each interpreted function's copy in bank 1 and the 6502 address at
//! which each translated AVR instruction starts.
//!
//! Guarantees, per 6502 instruction executed while a [`Profiler`] watches:
//! - its cycles go to the function whose code it is; inside the interpreter, to the
//!   interpreted function whose AVR code the interpreter's PC ([`avr2mos::runtime::interp::IPC`])
//!   points into when it last fetched an instruction (at `rt_interp_next`);
//! - a function's calls are the times the PC reaches its first byte (a translated
//!   function's entry or an interpreted function's stub, which every call and tail call
//!   reaches);
//! - an AVR instruction counts as run translated when the PC reaches the 6502 code it
//!   starts (instructions folded into the next one's code count with it), interpreted
//!   when the interpreter fetches it;
//! - a call of `wait` (the game's `Platform::frame`: waiting for the raster, then one
//!   tick of the sound) is one item, "(frame waits)", and its AVR instructions are not
//!   counted: a loop polling the raster would swamp the count of work done.

use std::collections::HashMap;

use c128_emu::Machine;

/// The name under which calls of the wait routine are counted.
pub const WAITING: &str = "(frame waits)";

/// What a profiler needs to know of a program's layout.
#[derive(Clone, Debug)]
pub struct CodeMap {
    /// Bank-0 symbols, sorted by address: functions, stubs, runtime routines.
    symbols: Vec<(u16, String)>,
    /// Which of `symbols` are interpreted functions' stubs.
    interpreted: Vec<bool>,
    /// The interpreter's code: from `rt_interp` to the symbol after `rt_interp_next`.
    interpreter: std::ops::Range<u16>,
    /// `rt_interp_next`, where the interpreter fetches each AVR instruction.
    next: u16,
    /// Interpreted functions' copies in bank 1, sorted: (start, index into `symbols`).
    copies: Vec<(u16, usize)>,
    /// 6502 addresses at which translated AVR instructions start, and how many start there.
    starts: HashMap<u16, u32>,
}

/// What a [`CodeMap`] could not read.
#[derive(Debug)]
pub struct MapError(pub String);

impl std::fmt::Display for MapError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for MapError {}

fn hex(s: &str) -> Option<u16> {
    u16::from_str_radix(s.strip_prefix('$').unwrap_or(s), 16).ok()
}

/// The code symbols of a symbol map (`ADDR NAME` lines; not the comments, nor the areas
/// whose description has spaces), sorted by address.
pub fn map_symbols(map: &str) -> Vec<(u16, String)> {
    let mut symbols: Vec<(u16, String)> = map
        .lines()
        .filter(|l| !l.starts_with('#'))
        .filter_map(|l| {
            let (addr, name) = l.split_once(' ')?;
            (addr.len() == 4 && !name.contains(' ')).then_some((hex(addr)?, name.to_string()))
        })
        .collect();
    symbols.sort();
    symbols
}

impl CodeMap {
    /// Reads a program's symbol map and listing.
    pub fn parse(map: &str, lst: &str) -> Result<CodeMap, MapError> {
        let symbols = map_symbols(map);
        let find = |n: &str| symbols.iter().position(|s| s.1 == n);
        let missing = |n: &str| MapError(format!("the symbol map has no {n}"));
        let interp = find("rt_interp").ok_or_else(|| missing("rt_interp"))?;
        let next_i = find("rt_interp_next").ok_or_else(|| missing("rt_interp_next"))?;
        let end = symbols.get(next_i + 1).map_or(u16::MAX, |s| s.0);
        let by_name: HashMap<&str, usize> = symbols.iter().enumerate().map(|(i, s)| (s.1.as_str(), i)).collect();
        let mut interpreted = vec![false; symbols.len()];
        let mut copies = Vec::new();
        let mut starts: HashMap<u16, u32> = HashMap::new();
        let mut function: Option<&str> = None;
        for (n, line) in lst.lines().enumerate() {
            if let Some(name) = line.strip_suffix(':').filter(|l| !l.starts_with(' ') && !l.contains(' ')) {
                function = Some(name);
            } else if let Some(rest) = line.trim_start().strip_prefix("interpreted: stub ") {
                let bad = || MapError(format!("listing line {}: {line:?}", n + 1));
                let name = function.ok_or_else(bad)?;
                let &i = by_name.get(name).ok_or_else(|| MapError(format!("{name} is in the listing, not the map")))?;
                interpreted[i] = true;
                if let Some((_, far)) = rest.split_once("bank 1 ") {
                    copies.push((hex(far.trim()).ok_or_else(bad)?, i));
                }
            } else if line.starts_with("  +") {
                // "  +off  avr  bytes  mnemonic operands  $6502  Nc  6502 bytes"
                let words: Vec<&str> = line.split_whitespace().collect();
                let at = words.windows(2).find_map(|w| {
                    let cycles = w[1].strip_suffix('c')?;
                    (w[0].len() == 5 && cycles.bytes().all(|b| b.is_ascii_digit())).then(|| hex(w[0]))?
                });
                if let Some(at) = at {
                    *starts.entry(at).or_default() += 1;
                }
            }
        }
        copies.sort();
        if starts.is_empty() {
            return Err(MapError("the listing has no translated AVR instruction".into()));
        }
        Ok(CodeMap {
            interpreter: symbols[interp].0..end,
            next: symbols[next_i].0,
            symbols,
            interpreted,
            copies,
            starts,
        })
    }

    /// The 6502 address of the first symbol whose name passes `wanted`.
    pub fn symbol(&self, wanted: impl Fn(&str) -> bool) -> Option<u16> {
        self.symbols.iter().find(|s| wanted(&s.1)).map(|s| s.0)
    }

    fn containing(&self, pc: u16) -> Option<usize> {
        self.symbols.partition_point(|s| s.0 <= pc).checked_sub(1)
    }

    fn copy_containing(&self, ipc: u16) -> Option<usize> {
        let i = self.copies.partition_point(|c| c.0 <= ipc).checked_sub(1)?;
        Some(self.copies[i].1)
    }
}

/// One function's share of a profile.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Item {
    /// The function's name, demangled, without its crate hashes.
    pub name: String,
    /// Whether it runs through the interpreter.
    pub interpreted: bool,
    /// Cycles spent in its own code (its callees' not included).
    pub cycles: u64,
    /// Times it was entered.
    pub calls: u64,
    /// For the runtime's routines (`rt_…`): who called them, most cycles first: the caller's
    /// name, and the cycles and calls it accounts for.
    pub callers: Vec<(String, u64, u64)>,
}

/// A profile: cycles by function and AVR instructions run each way.
#[derive(Clone, Debug, Default)]
pub struct Profile {
    /// Every function that ran, most cycles first (see [`Profiler::finish`]).
    pub items: Vec<Item>,
    /// All cycles watched.
    pub cycles: u64,
    /// AVR instructions run translated.
    pub translated: u64,
    /// AVR instructions run by the interpreter.
    pub interpreted: u64,
    /// The interpreted instructions that took the most cycles, most first: the function,
    /// the instruction's byte offset in it, and the cycles (with those of the interpreter's
    /// calls out of it, up to the callee's first instruction).
    pub hot_interpreted: Vec<(String, u16, u64)>,
}

impl Profile {
    /// The share of AVR instructions run translated, 0 to 1.
    pub fn translated_share(&self) -> f64 {
        self.translated as f64 / (self.translated + self.interpreted).max(1) as f64
    }
}

/// Watches a machine one instruction at a time (see the module doc).
#[derive(Clone, Debug)]
pub struct Profiler {
    map: CodeMap,
    /// The routine whose calls are waits, not work.
    wait: Option<u16>,
    /// While in a wait: the 6502 stack pointer at its entry.
    waiting: Option<u8>,
    /// The interpreted function being run (index into the map's symbols).
    current: Option<usize>,
    /// The interpreted PC of the instruction being run.
    ipc: u16,
    /// Cycles by interpreted instruction (its IPC).
    by_ipc: HashMap<u16, u64>,
    /// The runtime routine being run and the function that called it.
    routine: Option<(usize, usize)>,
    /// Cycles and calls by runtime routine and caller.
    by_caller: HashMap<(usize, usize), (u64, u64)>,
    cycles: Vec<u64>,
    calls: Vec<u64>,
    wait_cycles: u64,
    wait_calls: u64,
    unknown: u64,
    translated: u64,
    interpreted: u64,
}

impl Profiler {
    /// A profiler of the program `map` describes; calls of `wait` count as waiting.
    pub fn new(map: CodeMap, wait: Option<u16>) -> Profiler {
        let n = map.symbols.len();
        Profiler {
            map,
            wait,
            waiting: None,
            current: None,
            ipc: 0,
            by_ipc: HashMap::new(),
            routine: None,
            by_caller: HashMap::new(),
            cycles: vec![0; n],
            calls: vec![0; n],
            wait_cycles: 0,
            wait_calls: 0,
            unknown: 0,
            translated: 0,
            interpreted: 0,
        }
    }

    /// Forgets what was counted so far (at a mark, to profile from its last visit).
    pub fn reset(&mut self) {
        *self = Profiler::new(self.map.clone(), self.wait);
    }

    /// Counts the instruction the machine is about to run: at `pc`, taking `spent` cycles
    /// (measured by the caller around the step).
    pub fn count(&mut self, m: &Machine, pc: u16, spent: u64) {
        let sp = m.cpu.registers.stack_pointer.0;
        if let Some(entry) = self.waiting {
            if sp <= entry {
                self.wait_cycles += spent;
                return;
            }
            self.waiting = None;
        }
        if Some(pc) == self.wait {
            self.waiting = Some(sp);
            self.wait_calls += 1;
            self.wait_cycles += spent;
            return;
        }
        if self.map.interpreter.contains(&pc) {
            if pc == self.map.next {
                self.interpreted += 1;
                let ipc = u16::from_le_bytes([
                    m.bus().ram_peek(0, u16::from(avr2mos::runtime::interp::IPC)),
                    m.bus().ram_peek(0, u16::from(avr2mos::runtime::interp::IPC) + 1),
                ]);
                self.current = self.map.copy_containing(ipc);
                self.ipc = ipc;
            }
            *self.by_ipc.entry(self.ipc).or_default() += spent;
            match self.current {
                Some(f) => self.cycles[f] += spent,
                None => self.unknown += spent,
            }
            return;
        }
        if let Some(&n) = self.map.starts.get(&pc) {
            self.translated += u64::from(n);
        }
        match self.map.containing(pc) {
            Some(f) => {
                self.cycles[f] += spent;
                let entered = self.map.symbols[f].0 == pc;
                if entered {
                    self.calls[f] += 1;
                }
                if !self.map.symbols[f].1.starts_with("rt_") {
                    self.routine = None;
                    return;
                }
                if entered && !matches!(self.map.symbols[f].1.as_str(), "rt_irq" | "rt_nmi") {
                    // JSR left the return address less one at SP+1 (low) and SP+2 (high).
                    let byte = |n: u8| m.bus().ram_peek(0, 0x0100 | u16::from(sp.wrapping_add(n)));
                    let back = u16::from_le_bytes([byte(1), byte(2)]);
                    let caller = match self.map.interpreter.contains(&back) {
                        true => self.current,
                        false => self.map.containing(back),
                    };
                    // A routine called by another routine counts for the outer one's caller.
                    self.routine = match (caller, self.routine) {
                        (Some(c), Some((outer, first))) if c == outer => Some((f, first)),
                        (c, _) => c.map(|c| (f, c)),
                    };
                }
                if let Some((r, c)) = self.routine.filter(|&(r, _)| r == f) {
                    let entry = self.by_caller.entry((r, c)).or_default();
                    entry.0 += spent;
                    entry.1 += u64::from(entered);
                }
            }
            None => self.unknown += spent,
        }
    }

    /// The profile so far.
    pub fn finish(&self) -> Profile {
        let mut items: Vec<Item> = (0..self.map.symbols.len())
            .filter(|&f| self.cycles[f] > 0 || self.calls[f] > 0)
            .map(|f| Item {
                name: short_name(&self.map.symbols[f].1),
                interpreted: self.map.interpreted[f],
                cycles: self.cycles[f],
                calls: self.calls[f],
                callers: {
                    let mut by: Vec<(String, u64, u64)> = self
                        .by_caller
                        .iter()
                        .filter(|((r, _), _)| *r == f)
                        .map(|((_, c), &(cycles, calls))| (short_name(&self.map.symbols[*c].1), cycles, calls))
                        .collect();
                    by.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
                    by
                },
            })
            .collect();
        if self.wait_calls > 0 {
            items.push(Item {
                name: WAITING.into(),
                interpreted: false,
                cycles: self.wait_cycles,
                calls: self.wait_calls,
                callers: Vec::new(),
            });
        }
        if self.unknown > 0 {
            items.push(Item {
                name: "(outside any symbol)".into(),
                interpreted: false,
                cycles: self.unknown,
                calls: 0,
                callers: Vec::new(),
            });
        }
        items.sort_by(|a, b| b.cycles.cmp(&a.cycles).then_with(|| a.name.cmp(&b.name)));
        let cycles = items.iter().map(|i| i.cycles).sum();
        let mut hot: Vec<(String, u16, u64)> = self
            .by_ipc
            .iter()
            .filter_map(|(&ipc, &c)| {
                let i = self.map.copies.partition_point(|x| x.0 <= ipc).checked_sub(1)?;
                let (start, f) = self.map.copies[i];
                Some((short_name(&self.map.symbols[f].1), ipc - start, c))
            })
            .collect();
        hot.sort_by(|a, b| b.2.cmp(&a.2).then_with(|| (&a.0, a.1).cmp(&(&b.0, b.1))));
        Profile { items, cycles, translated: self.translated, interpreted: self.interpreted, hot_interpreted: hot }
    }
}

/// A symbol's name as a person reads it: demangled, hashes dropped, and the game's long
/// platform type shortened (`App<bac::c128::C128>` reads `App`, and
/// `<bac::c128::C128 as bac_game::platform::keys::Keys>` reads `<C128 as Keys>`). Any
/// trait of the game's `platform` module is shortened by the rule, so a new one needs no
/// entry here.
pub fn short_name(symbol: &str) -> String {
    const TRAIT: &str = "<bac::c128::C128 as bac_game::platform::";
    let mut name = avr2mos::runtime::interp::demangle(symbol).replace("<bac::c128::C128>", "");
    let mut from = 0;
    while let Some(at) = name[from..].find(TRAIT).map(|i| from + i) {
        // `<module>::<Trait>>`: keep the trait, drop the module's path.
        let path = at + TRAIT.len();
        let Some(end) = name[path..].find('>').map(|i| path + i) else { break };
        let part = name[path..end].rsplit("::").next().unwrap_or("").to_string();
        name.replace_range(at..end, &format!("<C128 as {part}"));
        from = at + 1;
    }
    name
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every trait of the game's platform reads by its own name, one added later too, and
    /// the game's `App` drops its platform type.
    #[test]
    fn platform_traits_and_the_app_read_short() {
        assert_eq!(short_name("<bac::c128::C128 as bac_game::platform::keys::Keys>::key"), "<C128 as Keys>::key");
        assert_eq!(
            short_name(
                "<bac::c128::C128 as bac_game::platform::dice::Dice>::roll<bac::c128::C128 as bac_game::platform::screen::Screen>"
            ),
            "<C128 as Dice>::roll<C128 as Screen>"
        );
        assert_eq!(short_name("bac_game::app::App<bac::c128::C128>::draw_seats"), "bac_game::app::App::draw_seats");
    }

    const MAP: &str = "# avr2mos symbol map (6502 addresses)
1c01 basic_stub
235c rt_interp
2370 rt_interp_next
2a2c _start
2ca0 f_interp
2ca5 g_translated
196a static frames (288 bytes)
";
    const LST: &str = "_start:
  +0     00000  0e 94 00 00  call 0x0                 $2a2c    6c  20 a5 2c

f_interp:
  interpreted: stub $2ca0, AVR code and trampolines at bank 1 $4000

g_translated:
  +0     00010  8f 93        push r24                   $2ca5    0c
  +2     00012  08 95        ret                        $2ca5    6c  60
";

    #[test]
    fn reads_symbols_copies_and_instruction_starts() {
        let map = CodeMap::parse(MAP, LST).expect("parses");
        assert_eq!(map.interpreter, 0x235c..0x2a2c);
        assert_eq!(map.next, 0x2370);
        assert_eq!(
            map.symbols.iter().map(|s| s.0).collect::<Vec<_>>(),
            [0x1c01, 0x235c, 0x2370, 0x2a2c, 0x2ca0, 0x2ca5]
        );
        let f = map.symbols.iter().position(|s| s.1 == "f_interp").unwrap();
        assert!(map.interpreted[f]);
        assert_eq!(map.copy_containing(0x4010), Some(f));
        assert_eq!(map.copy_containing(0x3fff), None);
        assert_eq!(map.starts.get(&0x2a2c), Some(&1));
        // The push folded into the ret's code counts with it.
        assert_eq!(map.starts.get(&0x2ca5), Some(&2), "{:?}", map.starts);
    }

    #[test]
    fn a_map_without_the_interpreter_is_an_error() {
        let err = CodeMap::parse("2a2c _start\n", LST).unwrap_err();
        assert!(err.0.contains("rt_interp"), "{err}");
    }
}
