//! What A holds between 6502 instructions of straight-line translated code: a known
//! constant, and the zero-page bytes (AVR registers) known to hold the same value, so that
//! a second `LDA #k` (consecutive `ldi`s of one value, a zero stored to both bytes of a
//! word) or a `LDA zp` of a register A already holds (a move, then an operation on its
//! source or target) is dropped, and so is a `STA` of a byte that already holds A.
//!
//! Beside A, the constants stored in zero-page bytes are kept while A changes: after
//! `ldi r20, 0; ldi r21, 0; ldi r24, 14; ldi r25, 0`, a `movw r19:r18, r21:r20` finds A
//! holding 0 and both its sources holding 0, so it is two stores. They are forgotten
//! where A's equalities are, and also at a call or any instruction that may write memory.
//!
//! Assumes: the pass sees a chunk's items in order, is told at each chunk whether it can
//! be entered other than from the chunk before ([`AValue::enter_chunk`]), and removes an
//! item only when the N and Z flags that item would set are dead (the caller's check; a
//! `LDA #` changes no other flag). Runtime routines are never tracked (they may be
//! entered anywhere by their own loops).
//! Guarantees: [`AValue::redundant`] is true only when A holds that constant on every path
//! reaching the item, and [`AValue::immediate_for`] gives only the constant the operand's
//! byte holds on every such path: after a forward fixed-offset branch (`BEQ +2` over a
//! fix-up) A is not known, nor any byte the skipped code writes, a chunk with a backward
//! fixed-offset branch (a loop inside one instruction's code) is not tracked at all, local
//! labels forget everything, and any instruction not known to keep A forgets it; a
//! zero-page byte is forgotten when anything but `STA` writes it, and all of them when a
//! store may reach zero page through an index or a pointer, or is an absolute store to a
//! literal address below $100 or to a symbol that is no data symbol (a static frame's slot,
//! a save slot and `.data`/`.bss` are data symbols, placed above zero page).

use mos_asm::asm::{Arg, Item, info, mnemonic, op::*};

/// The state of A: a known constant, and how many bytes of code a forward branch skips
/// (until they are passed, the code may run or not, so nothing is learnt).
#[derive(Debug, Default, Clone, Copy)]
pub struct AValue {
    value: Option<u8>,
    /// Zero-page bytes equal to A, one bit each.
    zp: [u64; 4],
    /// Zero-page bytes that hold a known constant, one bit each, and the constants.
    known: [u64; 4],
    consts: Consts,
    blind: u16,
    off: bool,
}

/// The constant of each zero-page byte (meaningful where [`AValue`]'s `known` bit is set).
#[derive(Debug, Clone, Copy)]
struct Consts([u8; 256]);

impl Default for Consts {
    fn default() -> Self {
        Consts([0; 256])
    }
}

fn bit(z: u8) -> (usize, u64) {
    (usize::from(z >> 6), 1u64 << (z & 63))
}

/// Whether the opcode is a conditional branch.
pub(crate) fn is_branch(opcode: u8) -> bool {
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

/// Whether the instruction writes no memory and calls nothing (it may change A, X or the
/// flags): the constants of zero-page bytes outlive it.
fn keeps_memory(opcode: u8) -> bool {
    matches!(mnemonic(opcode), Some((m, _)) if matches!(
        m,
        "ADC" | "SBC" | "AND" | "ORA" | "EOR" | "LDA" | "TXA" | "TYA" | "PLA" | "CMP" | "CPX" | "CPY" | "BIT"
    )) || matches!(opcode, ASL_A | LSR_A | ROL_A | ROR_A | TSX)
}

/// Whether an absolute operand may address zero page: a literal address below $100 may;
/// a symbol is a frame slot, a save slot or program data, all placed above zero page
/// ([`crate::mmap`]).
fn may_reach_zero_page(arg: &Arg) -> bool {
    match arg {
        Arg::Word(w) => *w < 0x100,
        Arg::Sym(mos_asm::asm::Sym::Data(_) | mos_asm::asm::Sym::Bss(_), _, _) => false,
        _ => true,
    }
}

impl AValue {
    /// Starts a chunk: `entry` if it can be reached other than by falling in from the
    /// chunk before; `runtime` for runtime code, which is not tracked.
    pub fn enter_chunk(&mut self, items: &[Item], entry: bool, runtime: bool) {
        if entry {
            *self = AValue::default();
        }
        // A loop inside the chunk joins earlier code with a later state, maybe at its very
        // start: do not track.
        self.off =
            runtime || items.iter().any(|it| matches!(it, Item::Ins(o, Arg::Byte(b)) if is_branch(*o) && *b >= 0x80));
        if self.off {
            self.forget();
        }
    }

    /// What is known on both of two ways into one place: the facts both hold. (What a
    /// forward skip still hides stays hidden on either way.)
    pub fn meet(&self, other: &AValue) -> AValue {
        let mut out = *self;
        if out.value != other.value {
            out.value = None;
        }
        for w in 0..4 {
            out.zp[w] &= other.zp[w];
            let mut known = self.known[w] & other.known[w];
            for b in 0..64 {
                let z = w * 64 + b;
                if known & (1 << b) != 0 && self.consts.0[z] != other.consts.0[z] {
                    known &= !(1 << b);
                }
            }
            out.known[w] = known;
        }
        out.blind = self.blind.max(other.blind);
        out
    }

    /// Whether the two states know the same facts (the constants of bytes not known
    /// aside).
    pub fn same_facts(&self, other: &AValue) -> bool {
        let consts = (0..256).all(|z| {
            let (w, b) = (z / 64, 1u64 << (z % 64));
            self.known[w] & b == 0 || self.consts.0[z] == other.consts.0[z]
        });
        self.value == other.value
            && self.zp == other.zp
            && self.known == other.known
            && self.blind == other.blind
            && consts
    }

    /// The state a branch takes to its target: nothing of the straight line's skips.
    pub fn at_target(&self) -> AValue {
        let mut out = *self;
        out.blind = 0;
        out
    }

    /// Whether `item` is a `LDA #k` with A already holding k, or a `LDA zp` or `STA zp`
    /// with A already equal to that byte.
    pub fn redundant(&self, item: &Item) -> bool {
        if self.off || self.blind > 0 {
            return false;
        }
        match item {
            Item::Ins(LDA_IMM, Arg::Byte(k)) => self.value == Some(*k),
            Item::Ins(LDA_ZP, Arg::Byte(z)) => self.holds(*z),
            // Storing what the byte already holds (a move back to where a value came
            // from). STA sets no flag.
            Item::Ins(STA_ZP, Arg::Byte(z)) => *z > 1 && self.holds(*z),
            _ => false,
        }
    }

    /// The transfer that does what `item` does when it loads X or Y with what A holds
    /// (`LDX zp` or `LDY zp` of a byte equal to A, `LDX #k` with A holding k): `TAX` or
    /// `TAY`, a byte shorter, setting N and Z from the same value.
    pub fn transfer_for(&self, item: &Item) -> Option<u8> {
        if self.off || self.blind > 0 {
            return None;
        }
        match item {
            Item::Ins(LDX_ZP, Arg::Byte(z)) if self.holds(*z) => Some(TAX),
            Item::Ins(LDY_ZP, Arg::Byte(z)) if self.holds(*z) => Some(TAY),
            Item::Ins(LDX_IMM, Arg::Byte(k)) if self.value == Some(*k) => Some(TAX),
            _ => None,
        }
    }

    /// The same operation on the constant a zero-page operand is known to hold (`LDA zp`,
    /// `ADC zp`, `CMP zp`...: `LDA #k`, `ADC #k`, `CMP #k`): a cycle less, the same
    /// result and flags, and the byte's store may then have no reader left (`eor r25,
    /// r25` before an `sbci r25` that reads it). Not for $00 and $01, the processor port.
    pub fn immediate_for(&self, item: &Item) -> Option<Item> {
        if self.off || self.blind > 0 {
            return None;
        }
        let Item::Ins(op, Arg::Byte(z)) = *item else { return None };
        let imm = match op {
            LDA_ZP => LDA_IMM,
            LDX_ZP => LDX_IMM,
            LDY_ZP => LDY_IMM,
            ADC_ZP => ADC_IMM,
            SBC_ZP => SBC_IMM,
            AND_ZP => AND_IMM,
            ORA_ZP => ORA_IMM,
            EOR_ZP => EOR_IMM,
            CMP_ZP => CMP_IMM,
            _ => return None,
        };
        let k = self.constant(z).filter(|_| z > 1)?;
        Some(Item::Ins(imm, Arg::Byte(k)))
    }

    fn holds(&self, z: u8) -> bool {
        let (w, b) = bit(z);
        self.zp[w] & b != 0 || (self.value.is_some() && self.constant(z) == self.value)
    }

    /// The constant zero-page byte `z` holds, if known.
    fn constant(&self, z: u8) -> Option<u8> {
        let (w, b) = bit(z);
        (self.known[w] & b != 0).then(|| self.consts.0[usize::from(z)])
    }

    fn set_zp(&mut self, z: u8, on: bool) {
        let (w, b) = bit(z);
        if on {
            self.zp[w] |= b;
        } else {
            self.zp[w] &= !b;
        }
    }

    /// Byte `z` was written: with A's constant if `stored` and A's is known, else unknown.
    fn set_constant(&mut self, z: u8, stored: bool) {
        let (w, b) = bit(z);
        match self.value.filter(|_| stored) {
            Some(k) => {
                self.known[w] |= b;
                self.consts.0[usize::from(z)] = k;
            }
            None => self.known[w] &= !b,
        }
    }

    /// A changed: what it was equal to is forgotten.
    fn forget_a(&mut self) {
        self.value = None;
        self.zp = [0; 4];
    }

    /// After an item that may not run: the constants known before it and still the same
    /// stay known, the others not.
    fn keep_unchanged(&mut self, (known, consts): ([u64; 4], Consts)) {
        for (w, was) in known.iter().enumerate() {
            self.known[w] &= was;
            for b in 0..64 {
                if self.consts.0[w * 64 + b] != consts.0[w * 64 + b] {
                    self.known[w] &= !(1 << b);
                }
            }
        }
    }

    /// A join, a call or a write anywhere: nothing is known.
    fn forget(&mut self) {
        self.forget_a();
        self.known = [0; 4];
    }

    /// Updates the state past `item`.
    pub fn step(&mut self, item: &Item) {
        match item {
            Item::Ins(o, arg) => {
                let skipped = self.blind > 0;
                let before = skipped.then_some((self.known, self.consts));
                match (*o, arg) {
                    // A load of what A already holds changes nothing (it stays when its
                    // flags are needed).
                    (LDA_IMM, Arg::Byte(k)) if self.value == Some(*k) => {}
                    (LDA_ZP, Arg::Byte(z)) if self.holds(*z) => {}
                    (LDA_IMM, Arg::Byte(k)) => {
                        self.forget_a();
                        self.value = Some(*k);
                    }
                    (LDA_ZP, Arg::Byte(z)) => {
                        self.forget_a();
                        self.value = self.constant(*z);
                        self.set_zp(*z, true);
                    }
                    (o, Arg::Byte(b)) if is_branch(o) => {
                        // A forward skip: the bytes it jumps over may or may not run, so
                        // after them A is not known, nor any byte they write; the
                        // constants of the others hold on both ways.
                        self.forget_a();
                        self.blind = self.blind.max(u16::from(*b));
                        return;
                    }
                    // The processor port at $00/$01 reads back other than what was written.
                    (STA_ZP, Arg::Byte(z)) => {
                        self.set_zp(*z, *z > 1);
                        self.set_constant(*z, *z > 1);
                    }
                    (STX_ZP | STY_ZP | INC_ZP | DEC_ZP | ASL_ZP | LSR_ZP | ROL_ZP | ROR_ZP, Arg::Byte(z)) => {
                        self.set_zp(*z, false);
                        self.set_constant(*z, false);
                    }
                    // An absolute store to a symbol (a static frame's slot, a save slot,
                    // `.data`/`.bss`) or past zero page leaves zero page alone.
                    (STA_ABS | STX_ABS | STY_ABS, arg) if !may_reach_zero_page(arg) => {}
                    // Stores that may reach zero page through an index, a pointer or an
                    // absolute address.
                    (STA_ZPX | STA_IZY | STA_ABS | STA_ABX | STA_ABY | STX_ABS | STY_ABS, _) => {
                        self.zp = [0; 4];
                        self.known = [0; 4];
                    }
                    (o, _) if keeps_a(o) => {}
                    (o, _) if keeps_memory(o) => self.forget_a(),
                    _ => self.forget(),
                }
                if let Some(before) = before {
                    let size = info(*o).map_or(3, |(s, _)| u16::from(s));
                    self.blind = self.blind.saturating_sub(size);
                    self.forget_a();
                    self.keep_unchanged(before);
                }
                if self.off {
                    self.forget();
                }
            }
            // A branch to a label: the fall-through keeps A.
            Item::Branch(..) => {}
            Item::Label(l) if l.0 >= 0x4000_0000 => {
                self.forget();
                self.blind = 0;
            }
            Item::Label(_) => {}
            Item::Bytes(_) => {
                self.forget();
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
        let mut s = AValue::default();
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
    fn a_register_a_already_holds_is_not_loaded_again() {
        let ld = |z| Item::Ins(LDA_ZP, Arg::Byte(z));
        let st = |z| Item::Ins(STA_ZP, Arg::Byte(z));
        // mov r24, r30 then an operation reading r30 or r24.
        assert_eq!(redundant(&[ld(0x2e), st(0x28), ld(0x2e), ld(0x28)]), vec![2, 3]);
        // Written by something else than STA: forgotten.
        let inc = Item::Ins(INC_ZP, Arg::Byte(0x28));
        assert_eq!(redundant(&[ld(0x2e), st(0x28), inc, ld(0x2e), ld(0x28)]), vec![3]);
        // A store through a pointer may have reached it.
        let sty = Item::Ins(STA_IZY, Arg::Byte(0x2e));
        assert_eq!(redundant(&[ld(0x2e), sty, ld(0x2e)]), Vec::<usize>::new());
        // A changed: nothing holds.
        let adc = Item::Ins(ADC_IMM, Arg::Byte(1));
        assert_eq!(redundant(&[ld(0x2e), adc, ld(0x2e)]), Vec::<usize>::new());
        // Storing back what a byte holds.
        assert_eq!(redundant(&[ld(0x2e), st(0x28), st(0x2e), st(0x28)]), vec![2, 3]);
        // The processor port is never trusted.
        assert_eq!(redundant(&[ld(0x2e), st(0x01), ld(0x01)]), Vec::<usize>::new());
    }

    /// What the state makes of each item of `items` as an immediate, fed as one chunk.
    fn immediates(items: &[Item]) -> Vec<(usize, Item)> {
        let mut s = AValue::default();
        s.enter_chunk(items, true, false);
        let mut out = vec![];
        for (k, it) in items.iter().enumerate() {
            if let Some(imm) = s.immediate_for(it) {
                out.push((k, imm));
            }
            s.step(it);
        }
        out
    }

    #[test]
    fn an_operand_known_to_hold_a_constant_is_read_as_an_immediate() {
        let st = |z| Item::Ins(STA_ZP, Arg::Byte(z));
        let adc = || Item::Ins(ADC_ZP, Arg::Byte(0x24));
        // ldi r20, 5; ldi r24, 7; add r24, r20: ADC #5, whatever A holds by then.
        assert_eq!(immediates(&[lda(5), st(0x24), lda(7), adc()]), vec![(3, Item::Ins(ADC_IMM, Arg::Byte(5)))]);
        let ldx = Item::Ins(LDX_ZP, Arg::Byte(0x24));
        assert_eq!(immediates(&[lda(5), st(0x24), lda(7), ldx]), vec![(3, Item::Ins(LDX_IMM, Arg::Byte(5)))]);
        // Not a byte written otherwise, nor the processor port.
        let inc = || Item::Ins(INC_ZP, Arg::Byte(0x24));
        assert_eq!(immediates(&[lda(5), st(0x24), inc(), adc()]), vec![]);
        let port = Item::Ins(LDA_ZP, Arg::Byte(0x01));
        assert_eq!(immediates(&[lda(5), st(0x01), lda(7), port]), vec![]);
        // Not an operation that writes the byte (`INC`, a shift).
        assert_eq!(immediates(&[lda(5), st(0x24), inc()]), vec![]);
    }

    #[test]
    fn a_forward_skip_forgets_only_what_the_skipped_code_writes() {
        let st = |z| Item::Ins(STA_ZP, Arg::Byte(z));
        let ld = |z| Item::Ins(LDA_ZP, Arg::Byte(z));
        let bne = |n| Item::Ins(BNE, Arg::Byte(n));
        let and = Item::Ins(AND_IMM, Arg::Byte(3));
        // ldi r20, 5; ldi r21, 6; a skip over code that writes neither: both still known,
        // A not.
        let over = [lda(5), st(0x24), lda(6), st(0x25), bne(2), and.clone(), ld(0x24), ld(0x25)];
        assert_eq!(
            immediates(&over),
            vec![(6, Item::Ins(LDA_IMM, Arg::Byte(5))), (7, Item::Ins(LDA_IMM, Arg::Byte(6)))]
        );
        assert_eq!(redundant(&[lda(5), st(0x24), bne(2), and, lda(5)]), Vec::<usize>::new());
        // A skipped store makes its byte unknown, whatever it stored.
        let over_store = [lda(5), st(0x24), st(0x25), bne(4), lda(9), st(0x24), ld(0x24), ld(0x25)];
        assert_eq!(immediates(&over_store), vec![(7, Item::Ins(LDA_IMM, Arg::Byte(5)))]);
        // So does a skipped INC of it (x + 1 on a pair: INC lo; BNE +2; INC hi).
        let inc = |z| Item::Ins(INC_ZP, Arg::Byte(z));
        let inc16 = [lda(0), st(0x24), st(0x25), inc(0x24), bne(2), inc(0x25), ld(0x25)];
        assert_eq!(immediates(&inc16), vec![]);
    }

    #[test]
    fn a_constant_stored_in_a_byte_outlives_a_change_of_a() {
        let ld = |z| Item::Ins(LDA_ZP, Arg::Byte(z));
        let st = |z| Item::Ins(STA_ZP, Arg::Byte(z));
        // ldi r20, 0; ldi r21, 0; ldi r24, 14; ldi r25, 0; movw r19:r18, r21:r20.
        let movw = [lda(0), st(0x24), st(0x25), lda(14), st(0x28), lda(0), st(0x29), ld(0x24), st(0x22), ld(0x25)];
        assert_eq!(redundant(&movw), vec![7, 9]);
        // A loaded from a byte of known constant holds that constant.
        assert_eq!(redundant(&[lda(5), st(0x24), lda(1), ld(0x24), lda(5)]), vec![4]);
        // An operation on A keeps the bytes' constants; a call, or a write that may reach
        // zero page, does not; nor does a byte written other than by STA.
        let adc = Item::Ins(ADC_IMM, Arg::Byte(1));
        assert_eq!(redundant(&[lda(0), st(0x24), adc, lda(0), ld(0x24)]), vec![4]);
        let jsr = Item::Ins(JSR, Arg::Word(0x1234));
        assert_eq!(redundant(&[lda(0), st(0x24), jsr, lda(0), ld(0x24)]), Vec::<usize>::new());
        let sty = Item::Ins(STA_IZY, Arg::Byte(0x2e));
        // (A itself is kept by both: its second load of 0 is redundant.)
        assert_eq!(redundant(&[lda(0), st(0x24), sty, lda(0), ld(0x24)]), vec![3]);
        let inc = Item::Ins(INC_ZP, Arg::Byte(0x24));
        assert_eq!(redundant(&[lda(0), st(0x24), inc, lda(0), ld(0x24)]), vec![3]);
        // A join forgets them.
        let l = Item::Label(mos_asm::asm::Label(0x4000_0001));
        assert_eq!(redundant(&[lda(0), st(0x24), l, lda(0), ld(0x24)]), Vec::<usize>::new());
    }

    #[test]
    fn an_absolute_store_above_zero_page_keeps_what_a_holds() {
        let ld = |z| Item::Ins(LDA_ZP, Arg::Byte(z));
        // std Y+1, r24 in a static frame, then r24 read again: no reload.
        let slot = Item::Ins(STA_ABS, Arg::Word(0x1bfe));
        assert_eq!(redundant(&[ld(0x28), slot, ld(0x28)]), vec![2]);
        let bss = Item::Ins(STA_ABS, Arg::Sym(mos_asm::asm::Sym::Bss(0x120), mos_asm::asm::Part::Word, 3));
        assert_eq!(redundant(&[ld(0x28), bss, ld(0x28)]), vec![2]);
        // A literal address in zero page, or a code symbol, may be a register.
        let low = Item::Ins(STA_ABS, Arg::Word(0x0028));
        assert_eq!(redundant(&[ld(0x2e), low, ld(0x2e)]), Vec::<usize>::new());
        let code =
            Item::Ins(STA_ABS, Arg::Sym(mos_asm::asm::Sym::Code(mos_asm::asm::Label(7)), mos_asm::asm::Part::Word, 0));
        assert_eq!(redundant(&[ld(0x2e), code, ld(0x2e)]), Vec::<usize>::new());
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
        let l = Item::Label(mos_asm::asm::Label(0x4000_0001));
        assert_eq!(redundant(&[lda(0), l, lda(0)]), Vec::<usize>::new());
    }
}
