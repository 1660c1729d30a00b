//! Local clean-ups on the emitted 6502 code, straight line by straight line (the
//! optimising level only).
//!
//! Assumes each chunk is one AVR instruction's code or one runtime routine, and that N and
//! Z never pass from one AVR instruction's code to the next (flags that outlive an
//! instruction go to the flags byte; fused branches and compare chains are in their
//! setter's chunk); only the carry passes. Guarantees: nothing is changed across a chunk
//! that can be jumped to, or across a label inside a chunk; a removed instruction's effect
//! is one that no later instruction reads (a load of what A or the zero-page byte already
//! holds, whose N and Z are set again before anything reads them), and a `LDY #q` becomes
//! `INY`/`DEY` only where Y is known to hold q-1 or q+1; a pair copied high byte first
//! stores no byte before it is read (the pairs do not overlap).

use mos_asm::asm::Item;
use mos_asm::link::{Chunk, Owner};

/// Whether the instruction sets N and Z from what it computes, reading neither.
fn sets_nz(it: Option<&Item>) -> bool {
    use mos_asm::asm::op::*;
    match it {
        Some(Item::Ins(o, _)) => matches!(
            *o,
            ADC_IMM
                | ADC_ZP
                | SBC_IMM
                | SBC_ZP
                | AND_IMM
                | AND_ZP
                | ORA_IMM
                | ORA_ZP
                | EOR_IMM
                | EOR_ZP
                | CMP_IMM
                | CMP_ZP
                | ASL_A
                | LSR_A
                | ROL_A
                | ROR_A
        ),
        _ => false,
    }
}

/// Whether the N and Z a removed load would set are never read: later in the chunk an
/// instruction sets them again, or the chunk ends, before anything (a branch, PHP, a call
/// or jump) could read them. Only instructions that neither read N/Z nor change A may come
/// first. (N and Z never pass from one AVR instruction's code to the next: flags that
/// outlive an instruction go to the flags byte, and fused branches and compare chains are
/// in their setter's chunk. Only the carry passes, which LDA keeps.)
pub(crate) fn nz_dead(rest: &[Item]) -> bool {
    use mos_asm::asm::op::*;
    for it in rest {
        if sets_nz(Some(it)) {
            return true;
        }
        match it {
            Item::Ins(LDA_IMM | LDA_ZP | LDX_IMM | LDX_ZP | LDY_IMM | LDY_ZP | INX | INY | DEX | DEY, _) => {
                return true;
            }
            Item::Ins(STA_ZP | STX_ZP | STY_ZP | STA_ABS | CLC | SEC | CLV, _) => {}
            _ => return false,
        }
    }
    true
}

/// Local clean-ups on straight-line code (nothing crosses a label that can be jumped
/// to): a `LDA zp` that reloads what was just stored there is removed when the next
/// instruction sets N and Z itself; a `LDY #q` becomes `INY`/`DEY` or disappears when Y
/// already holds q-1, q+1 or q (consecutive `ldd`/`std` through one pointer).
pub fn run(chunks: &mut [Chunk], is_target: &[bool]) {
    use mos_asm::asm::{Arg, op::*};
    let mut stored: Option<u8> = None;
    let mut y: Option<u8> = None;
    let mut a_value = crate::mos_rewrites::values::AValue::default();
    // The zero-page byte the last instruction incremented or decremented, on every way
    // here.
    let mut counted: Option<u8> = None;
    for c in chunks.iter_mut() {
        let entry = match c.owner {
            Owner::Insn(i) => is_target[i],
            Owner::Runtime(_) => true,
        };
        if entry {
            stored = None;
            y = None;
            counted = None;
        }
        // The bytes still to come in this chunk that a raw branch before may skip (`INC lo;
        // BNE +2; INC hi`: the `INC hi` does not always run, and the flags are then the
        // `INC lo`'s).
        let mut skippable = 0usize;
        a_value.enter_chunk(&c.items, entry, matches!(c.owner, Owner::Runtime(_)));
        let mut k = 0;
        while k < c.items.len() {
            if a_value.redundant(&c.items[k]) && nz_dead(&c.items[k + 1..]) {
                c.items.remove(k);
                continue;
            }
            if let Some(transfer) = a_value.transfer_for(&c.items[k]) {
                c.items[k] = Item::Ins(transfer, Arg::None);
            }
            // A pair copied while A already holds the source's high byte (after an `adc`,
            // a load): that byte is stored first, and its load goes.
            if let [
                Item::Ins(LDA_ZP, Arg::Byte(s)),
                Item::Ins(STA_ZP, Arg::Byte(d)),
                Item::Ins(LDA_ZP, Arg::Byte(s1)),
                Item::Ins(STA_ZP, Arg::Byte(d1)),
                ..,
            ] = c.items[k..]
                && s1 == s.wrapping_add(1)
                && d1 == d.wrapping_add(1)
                && ![d, d1].contains(&s)
                && ![d, d1].contains(&s1)
                && d > 1
                && a_value.redundant(&c.items[k + 2])
                && nz_dead(&c.items[k + 4..])
            {
                c.items.splice(
                    k..k + 4,
                    [
                        Item::Ins(STA_ZP, Arg::Byte(d1)),
                        Item::Ins(LDA_ZP, Arg::Byte(s)),
                        Item::Ins(STA_ZP, Arg::Byte(d)),
                    ],
                );
                continue;
            }
            // After the pair's copy above, which looks for the loads as they are.
            if let Some(immediate) = a_value.immediate_for(&c.items[k]) {
                c.items[k] = immediate;
            }
            a_value.step(&c.items[k]);
            let prev = counted.take();
            let skipped = skippable > 0;
            skippable = skippable.saturating_sub(usize::from(mos_asm::link::size(&c.items[k], false)));
            match c.items[k] {
                Item::Ins(INC_ZP | DEC_ZP, Arg::Byte(z)) if !skipped => counted = Some(z),
                Item::Ins(BPL | BMI | BVC | BVS | BCC | BCS | BNE | BEQ, Arg::Byte(o)) if o < 0x80 => {
                    skippable = skippable.max(usize::from(o));
                }
                Item::Label(mos_asm::asm::Label(l)) if l < 0x4000_0000 => counted = prev,
                _ => {}
            }
            match c.items[k] {
                Item::Ins(STA_ZP, Arg::Byte(z)) => stored = Some(z),
                Item::Ins(CLC | SEC | CLV, Arg::None) => {}
                Item::Ins(LDA_ZP, Arg::Byte(z)) if stored == Some(z) && nz_dead(&c.items[k + 1..]) => {
                    c.items.remove(k);
                    continue;
                }
                // `dec rX` / `cpi rX, 0` / branch: DEC already set N and Z from rX (A is
                // not used after the branch: every instruction's code loads what it needs).
                Item::Ins(LDA_ZP, Arg::Byte(z))
                    if prev == Some(z)
                        && matches!(c.items.get(k + 1), Some(Item::Branch(BNE | BEQ | BMI | BPL, _)))
                        && !matches!(c.items.get(k + 2), Some(Item::Ins(..) | Item::Branch(..))) =>
                {
                    c.items.remove(k);
                    stored = None;
                    continue;
                }
                Item::Ins(LDY_IMM, Arg::Byte(q)) => {
                    stored = None;
                    let known = y;
                    y = Some(q);
                    if known == Some(q) {
                        c.items.remove(k);
                        continue;
                    } else if known == Some(q.wrapping_sub(1)) {
                        c.items[k] = Item::Ins(INY, Arg::None);
                    } else if known == Some(q.wrapping_add(1)) {
                        c.items[k] = Item::Ins(DEY, Arg::None);
                    }
                }
                Item::Ins(LDA_IZY | STA_IZY | LDA_IMM | LDA_ZP | AND_IMM | ORA_IMM | EOR_IMM, _) => stored = None,
                Item::Ins(STA_ABS | LDA_ABS, _) => stored = None,
                Item::Label(mos_asm::asm::Label(l)) if l >= 0x4000_0000 => {
                    stored = None;
                    y = None;
                }
                Item::Label(_) => {}
                Item::Branch(..) => stored = None,
                _ => {
                    stored = None;
                    y = None;
                }
            }
            k += 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mos_rewrites::insn_chunk as chunk;
    use mos_asm::asm::op::*;
    use mos_asm::asm::{Arg, Label};

    /// A load after an `INC` of the same byte goes before a branch on its flags only when
    /// the `INC` runs on every way there: not the `INC hi` that `INC lo; BNE +2` skips.
    #[test]
    fn a_load_after_a_skippable_increment_stays() {
        let test = |code: Vec<Item>| {
            let mut chunks =
                vec![chunk(0, code), chunk(1, vec![Item::Ins(LDA_ZP, Arg::Byte(0x29)), Item::Branch(BNE, Label(0))])];
            run(&mut chunks, &[false, false]);
            chunks[1].items.len()
        };
        let inc = |z| Item::Ins(INC_ZP, Arg::Byte(z));
        assert_eq!(test(vec![inc(0x28), Item::Ins(BNE, Arg::Byte(2)), inc(0x29)]), 3, "the load stays");
        assert_eq!(test(vec![inc(0x29)]), 2, "the load goes");
    }

    /// `adc r25, r23; movw r17:r16, r25:r24`: A holds r25, so r17 is stored first and the
    /// load of r25 goes; not when A holds something else, nor when a branch may read the
    /// flags of the last load.
    #[test]
    fn a_pair_copied_while_a_holds_its_high_byte_stores_that_first() {
        let ld = |z| Item::Ins(LDA_ZP, Arg::Byte(z));
        let st = |z| Item::Ins(STA_ZP, Arg::Byte(z));
        let movw = || vec![ld(0x28), st(0x20), ld(0x29), st(0x21)];
        let test = |before: Vec<Item>, after: Vec<Item>| {
            let mut chunks = vec![chunk(0, before), chunk(1, movw().into_iter().chain(after).collect())];
            run(&mut chunks, &[false, false]);
            chunks[1].items[1..].to_vec()
        };
        let adc = vec![ld(0x29), Item::Ins(ADC_ZP, Arg::Byte(0x27)), st(0x29)];
        assert_eq!(test(adc.clone(), vec![]), vec![st(0x21), ld(0x28), st(0x20)]);
        assert_eq!(test(vec![ld(0x2a)], vec![]), movw(), "A holds another byte");
        let branch = Item::Ins(BNE, Arg::Byte(2));
        assert_eq!(test(adc, vec![branch.clone()]), [movw(), vec![branch]].concat(), "N and Z read");
    }
}
