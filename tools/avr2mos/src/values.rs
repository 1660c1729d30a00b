//! What A holds between 6502 instructions of straight-line translated code: a known
//! constant, so that a second `LDA #k` (consecutive `ldi`s of one value, a zero stored to
//! both bytes of a word) is dropped.
//!
//! Assumes: the pass sees a chunk's items in order, is told at each chunk whether it can
//! be entered other than from the chunk before ([`AConst::enter_chunk`]), and removes an
//! item only when the N and Z flags that item would set are dead (the caller's check; a
//! `LDA #` changes no other flag). Runtime routines are never tracked (they may be
//! entered anywhere by their own loops).
//! Guarantees: [`AConst::redundant`] is true only when A holds that constant on every
//! path reaching the item: forward fixed-offset branches (`BEQ +2` over a fix-up) join
//! with nothing known, a chunk with a backward fixed-offset branch (a loop inside one
//! instruction's code) is not tracked at all, local labels forget everything, and any
//! instruction not known to keep A forgets it.

use crate::asm::{Arg, Item, info, op::*};

/// The state of A: a known constant, and how many bytes of code a forward branch skips
/// (until they are passed, the code may run or not, so nothing is learnt).
#[derive(Debug, Default, Clone, Copy)]
pub struct AConst {
    value: Option<u8>,
    blind: u16,
    off: bool,
}

fn is_branch(opcode: u8) -> bool {
    matches!(opcode, BPL | BMI | BVC | BVS | BCC | BCS | BNE | BEQ)
}

/// Whether the instruction leaves A as it was (memory and index registers may change).
fn keeps_a(opcode: u8) -> bool {
    matches!(
        opcode,
        STA_ZP
            | STA_ABS
            | STA_IZY
            | STA_ZPX
            | STA_ABX
            | STA_ABY
            | STX_ZP
            | STX_ABS
            | STY_ZP
            | STY_ABS
            | LDX_IMM
            | LDX_ZP
            | LDX_ABS
            | LDY_IMM
            | LDY_ZP
            | LDY_ABS
            | INX
            | INY
            | DEX
            | DEY
            | CLC
            | SEC
            | CLV
            | CMP_IMM
            | CMP_ZP
            | CMP_ABS
            | CMP_ABX
            | CMP_IZY
            | CPX_IMM
            | CPY_IMM
            | CPY_ZP
            | BIT_ZP
            | INC_ZP
            | DEC_ZP
            | ASL_ZP
            | LSR_ZP
            | ROL_ZP
            | ROR_ZP
            | TAX
            | TAY
    )
}

impl AConst {
    /// Starts a chunk: `entry` if it can be reached other than by falling in from the
    /// chunk before; `runtime` for runtime code, which is not tracked.
    pub fn enter_chunk(&mut self, items: &[Item], entry: bool, runtime: bool) {
        if entry {
            *self = AConst::default();
        }
        // A loop inside the chunk joins earlier code with a later state: do not track.
        self.off =
            runtime || items.iter().any(|it| matches!(it, Item::Ins(o, Arg::Byte(b)) if is_branch(*o) && *b >= 0x80));
        if self.off {
            self.value = None;
        }
    }

    /// Whether `item` is a `LDA #k` with A already holding k.
    pub fn redundant(&self, item: &Item) -> bool {
        matches!(item, Item::Ins(LDA_IMM, Arg::Byte(k)) if !self.off && self.blind == 0 && self.value == Some(*k))
    }

    /// Updates the state past `item`.
    pub fn step(&mut self, item: &Item) {
        match item {
            Item::Ins(o, arg) => {
                let skipped = self.blind > 0;
                match (*o, arg) {
                    (LDA_IMM, Arg::Byte(k)) => self.value = Some(*k),
                    (o, Arg::Byte(b)) if is_branch(o) => {
                        // A forward skip: the bytes it jumps over may or may not run.
                        self.value = None;
                        self.blind = self.blind.max(u16::from(*b));
                        return;
                    }
                    (o, _) if keeps_a(o) => {}
                    _ => self.value = None,
                }
                if skipped {
                    let size = info(*o).map_or(3, |(s, _)| u16::from(s));
                    self.blind = self.blind.saturating_sub(size);
                    self.value = None;
                }
                if self.off {
                    self.value = None;
                }
            }
            // A branch to a label: the fall-through keeps A.
            Item::Branch(..) => {}
            Item::Label(l) if l.0 >= 0x4000_0000 => {
                self.value = None;
                self.blind = 0;
            }
            Item::Label(_) => {}
            Item::Bytes(_) => {
                self.value = None;
                self.blind = 0;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lda(k: u8) -> Item {
        Item::Ins(LDA_IMM, Arg::Byte(k))
    }

    /// Which items of `items` the state calls redundant, fed as one chunk.
    fn redundant(items: &[Item]) -> Vec<usize> {
        let mut s = AConst::default();
        s.enter_chunk(items, true, false);
        let mut out = vec![];
        for (k, it) in items.iter().enumerate() {
            if s.redundant(it) {
                out.push(k);
            }
            s.step(it);
        }
        out
    }

    #[test]
    fn a_second_load_of_the_same_constant_is_redundant() {
        let st = |z| Item::Ins(STA_ZP, Arg::Byte(z));
        assert_eq!(redundant(&[lda(0), st(0x28), lda(0), st(0x29)]), vec![2]);
        assert_eq!(redundant(&[lda(0), st(0x28), lda(1), st(0x29)]), Vec::<usize>::new());
        // Anything that changes A forgets the constant.
        let adc = Item::Ins(ADC_ZP, Arg::Byte(0x20));
        assert_eq!(redundant(&[lda(0), adc, lda(0)]), Vec::<usize>::new());
        let jsr = Item::Ins(JSR, Arg::Word(0x1234));
        assert_eq!(redundant(&[lda(0), jsr, lda(0)]), Vec::<usize>::new());
    }

    #[test]
    fn skipped_code_and_loops_are_not_trusted() {
        // BEQ +2 over LDA #5: after the join A may be the old value or 5.
        let beq = Item::Ins(BEQ, Arg::Byte(2));
        assert_eq!(redundant(&[lda(3), beq.clone(), lda(5), lda(5)]), Vec::<usize>::new());
        // Not even the constant from before the skip (the skipped code may change it).
        let st = Item::Ins(STA_ZP, Arg::Byte(0x30));
        assert_eq!(redundant(&[lda(3), beq, lda(5), st, lda(3)]), Vec::<usize>::new());
        // A backward branch in the chunk: nothing tracked.
        let bne = Item::Ins(BNE, Arg::Byte(0xFB));
        assert_eq!(redundant(&[lda(0), lda(0), bne]), Vec::<usize>::new());
        // A local label is a join.
        let l = Item::Label(crate::asm::Label(0x4000_0001));
        assert_eq!(redundant(&[lda(0), l, lda(0)]), Vec::<usize>::new());
    }
}
