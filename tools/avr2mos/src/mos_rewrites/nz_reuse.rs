//! Loads whose flags are already there: a `LDA zp` (or `LDA #k`) of what A already holds
//! goes when N and Z already describe A, because the instruction that last set them
//! computed A's value (a load, an operation into A, a transfer) and nothing since changed
//! them. The case it is for is a load into a register and a test of it in the next AVR
//! instruction: `ldd r24, Y+13; cpi r24, 0; brne` was `LDA slot; STA r24; LDA r24; BNE`
//! and is `LDA slot; STA r24; BNE`. It also drops such a load whose N and Z nothing reads
//! when the only branches before the next flag-setting instruction test C or V and go to
//! an AVR instruction's code (where N and Z are never read, see below), the case of a
//! compare fused across moves (`CMP; LDA #0; STA r20; STA r30; LDA r20; STA r31; BCC`).
//!
//! Assumes: the chunks are as [`crate::lower::codegen`] makes them (one per AVR instruction, or a
//! runtime routine), after [`crate::mos_rewrites::peephole`]; N and Z are never read at the start of an
//! AVR instruction's code (flags that outlive an instruction go to the flags byte); what
//! A holds comes from [`crate::mos_rewrites::values`]. Runs before [`crate::mos_rewrites::outline`], whose `JSR`s and
//! `RTS`s keep the flags.
//! Guarantees: a load goes only when A holds its value on every path to it and N and Z
//! either equal what it would set or are set again before anything could read them. The
//! state passes from one chunk to the next only when the next cannot be reached other
//! than by falling in; a chunk with a branch of fixed offset (a skip or a loop inside one
//! instruction's code, where paths join) learns nothing, and runtime routines are left
//! alone.

use crate::mos_rewrites::values::AValue;
use mos_asm::asm::{Arg, Item, Label, op::*};
use mos_asm::link::{Chunk, Owner};

/// What an instruction does to N and Z.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Nz {
    /// Sets them from the value it leaves in A (and reads neither).
    FromA,
    /// Leaves them, and A, as they were.
    Keeps,
    /// Sets them from something else, without reading them.
    Other,
    /// May read them, or anything else.
    Unknown,
}

fn nz(opcode: u8) -> Nz {
    match opcode {
        LDA_IMM | LDA_ZP | LDA_ABS | LDA_IZY | LDA_ZPX | LDA_ABX | LDA_ABY | ADC_IMM | ADC_ZP | SBC_IMM | SBC_ZP
        | SBC_ZPX | SBC_IZY | AND_IMM | AND_ZP | ORA_IMM | ORA_ZP | EOR_IMM | EOR_ZP | ASL_A | LSR_A | ROL_A
        | ROR_A | TXA | TYA | PLA | TAX | TAY => Nz::FromA,
        STA_ZP | STA_ABS | STA_IZY | STA_ZPX | STA_ABX | STA_ABY | STX_ZP | STX_ABS | STY_ZP | STY_ABS | CLC | SEC
        | CLV => Nz::Keeps,
        LDX_IMM | LDX_ZP | LDX_ABS | LDY_IMM | LDY_ABS | LDY_ZP | INX | INY | DEX | DEY | CMP_IMM | CMP_ZP
        | CMP_ABS | CMP_ABX | CMP_IZY | CPX_IMM | CPY_IMM | CPY_ZP | BIT_ZP | INC_ZP | INC_ABS | DEC_ZP | ASL_ZP
        | LSR_ZP | ROL_ZP | ROR_ZP => Nz::Other,
        _ => Nz::Unknown,
    }
}

fn is_branch(opcode: u8) -> bool {
    matches!(opcode, BPL | BMI | BVC | BVS | BCC | BCS | BNE | BEQ)
}

/// The labels of AVR instructions (local labels of runtime code are numbered from here).
const LOCAL_LABELS: u32 = 0x4000_0000;

/// Whether the N and Z at the start of `rest` (the rest of a chunk) are never read: an
/// instruction sets them again, or the chunk ends, first; stores and carry and overflow
/// branches to AVR instructions' code may come before.
fn nz_dead(rest: &[Item]) -> bool {
    for it in rest {
        match it {
            Item::Ins(o, _) => match nz(*o) {
                Nz::FromA | Nz::Other => return true,
                Nz::Keeps => {}
                Nz::Unknown => return false,
            },
            Item::Branch(BCC | BCS | BVC | BVS, Label(l)) if *l < LOCAL_LABELS => {}
            _ => return false,
        }
    }
    true
}

/// Drops the loads of what A holds whose N and Z are already there or never read.
pub fn run(chunks: &mut [Chunk], is_target: &[bool]) {
    let mut a = AValue::default();
    // N and Z describe A's value.
    let mut nz_a = false;
    for c in chunks.iter_mut() {
        let (entry, runtime) = match c.owner {
            Owner::Insn(i) => (is_target[i], false),
            Owner::Runtime(_) => (true, true),
        };
        let skips = c.items.iter().any(|it| matches!(it, Item::Ins(o, Arg::Byte(_)) if is_branch(*o)));
        a.enter_chunk(&c.items, entry, runtime || skips);
        if entry || runtime || skips {
            nz_a = false;
        }
        let mut k = 0;
        while k < c.items.len() {
            let item = &c.items[k];
            let load = matches!(item, Item::Ins(LDA_IMM | LDA_ZP, Arg::Byte(_)));
            if !runtime && !skips && load && a.redundant(item) && (nz_a || nz_dead(&c.items[k + 1..])) {
                c.items.remove(k);
                continue;
            }
            a.step(item);
            nz_a = match item {
                Item::Ins(o, _) => match nz(*o) {
                    Nz::FromA => true,
                    Nz::Keeps => nz_a,
                    Nz::Other | Nz::Unknown => false,
                },
                // A branch's fall-through, and the label of an AVR instruction's own
                // code (other ways in are handled at the chunk's entry).
                Item::Branch(..) => nz_a,
                Item::Label(Label(l)) if *l < LOCAL_LABELS => nz_a,
                _ => false,
            } && !runtime
                && !skips;
            k += 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use mos_asm::asm::{Part, Sym};

    fn ins(o: u8, b: u8) -> Item {
        Item::Ins(o, Arg::Byte(b))
    }

    fn slot() -> Item {
        Item::Ins(LDA_ABS, Arg::Sym(Sym::Bss(0x300), Part::Word, 0))
    }

    fn chunk(i: usize, items: Vec<Item>) -> Chunk {
        Chunk { owner: Owner::Insn(i), items }
    }

    fn branch(o: u8, to: u32) -> Item {
        Item::Branch(o, Label(to))
    }

    #[test]
    fn a_test_of_the_byte_just_loaded_reads_the_loads_flags() {
        // ldd r24, slot / cpi r24, 0; brne
        let mut chunks = vec![
            chunk(0, vec![Item::Label(Label(0)), slot(), ins(STA_ZP, 0x28)]),
            chunk(1, vec![Item::Label(Label(1)), ins(LDA_ZP, 0x28), branch(BNE, 5)]),
        ];
        run(&mut chunks, &[false; 2]);
        assert_eq!(chunks[1].items, [Item::Label(Label(1)), branch(BNE, 5)]);
    }

    #[test]
    fn flags_set_by_something_else_or_another_path_keep_the_load() {
        let first = || chunk(0, vec![slot(), ins(STA_ZP, 0x28), ins(CPX_IMM, 3)]);
        let second = || chunk(1, vec![ins(LDA_ZP, 0x28), branch(BNE, 5)]);
        // CPX set N and Z last.
        let mut chunks = vec![first(), second()];
        run(&mut chunks, &[false; 2]);
        assert_eq!(chunks[1].items.len(), 2, "{:?}", chunks[1].items);
        // The second instruction is a jump target: another path reaches it.
        let mut chunks = vec![chunk(0, vec![slot(), ins(STA_ZP, 0x28)]), second()];
        run(&mut chunks, &[false, true]);
        assert_eq!(chunks[1].items.len(), 2);
        // A skip inside the first chunk: the flags after it come from either path.
        let mut chunks = vec![chunk(0, vec![slot(), ins(STA_ZP, 0x28), ins(BCC, 2), ins(INC_ZP, 0x11)]), second()];
        run(&mut chunks, &[false; 2]);
        assert_eq!(chunks[1].items.len(), 2);
    }

    #[test]
    fn a_load_whose_flags_only_a_carry_branch_follows_goes() {
        // cpi r16, 5; ldi r20, 0; movw r30, r20; brcs: CMP, then A = 0 in r20, r30, r31.
        let mut chunks = vec![chunk(
            0,
            vec![
                ins(CMP_IMM, 5),
                ins(LDA_IMM, 0),
                ins(STA_ZP, 0x24),
                ins(STA_ZP, 0x2E),
                ins(LDA_ZP, 0x24),
                ins(STA_ZP, 0x2F),
                branch(BCC, 7),
            ],
        )];
        run(&mut chunks, &[false]);
        assert!(!chunks[0].items.contains(&ins(LDA_ZP, 0x24)), "{:?}", chunks[0].items);
        // Before a branch on Z the load's flags are read, and the compare's are there:
        // it stays.
        let mut chunks = vec![chunk(0, vec![ins(CMP_IMM, 5), ins(STA_ZP, 0x24), ins(LDA_ZP, 0x24), branch(BEQ, 7)])];
        run(&mut chunks, &[false]);
        assert!(chunks[0].items.contains(&ins(LDA_ZP, 0x24)));
    }
}
