//! Fusion: lowering an instruction together with the ones after it, when the 6502 does in
//! one sequence what the AVR does in several. A compare chain and its branch become the
//! 6502's own multi-byte compare; an instruction's flags are tested by the branch after it
//! (across moves that keep the flags it reads), without the flags byte; a pointer copy
//! and its constant step become one 16-bit addition.
//!
//! Assumes: the flags liveness of [`crate::analysis::flags`] (`live_out`), and that nothing jumps
//! or is inserted into the middle of a fused run: every function here fuses only where
//! [`crate::analysis::fusion`] allows it, which no jump target and no moved save is.
//! Guarantees: a fused run leaves the registers, the memory and the flags that are read
//! afterwards as the AVR instructions one by one would; it is refused (and each
//! instruction lowered alone) otherwise.

use super::*;

impl Ctx<'_> {
    /// Whether instruction `m` only moves a byte, as loads and stores (`LDA`/`STA`), which
    /// keep C and V: `ldi`, `mov`, `movw`, and at the full level a load or store of a
    /// static frame's slot ([`crate::frames::frame_slots`]), which is an absolute `LDA`/`STA`.
    pub(super) fn is_move(&self, m: usize) -> bool {
        let n = self.insns[m];
        match n.op {
            Op::Ldi | Op::Mov | Op::Movw => true,
            Op::Ld(..) | Op::St(..) => {
                self.optimise
                    && self.static_frame(m).is_some()
                    && matches!(self.frames.slots[m], crate::frames::frame_slots::Action::Slot(_))
            }
            _ => false,
        }
    }

    /// Lowers instruction `m`, folded into the code of an instruction before it, onto the
    /// end of `a`: its code without its label (a folded instruction is no jump target, and
    /// its label would name the middle of the group).
    pub(super) fn lower_folded(&self, m: usize, a: &mut Asm) -> Result<(), TranslateError> {
        let l = self.lower(m, false)?;
        a.items.extend(l.asm.items.into_iter().filter(|it| !matches!(it, Item::Label(_))));
        Ok(())
    }

    /// The registers move `m` writes (none for a store).
    pub(super) fn move_writes(&self, m: usize) -> std::ops::Range<u8> {
        let n = self.insns[m];
        match n.op {
            Op::Movw => n.d..n.d + 2,
            Op::St(..) => n.d..n.d,
            _ => n.d..n.d + 1,
        }
    }

    /// A carry chain across moves: when the only flag live after `i` is C, the next one
    /// to four instructions are moves ([`Ctx::is_move`], which keep C) and the one after
    /// them reads the carry with the polarity `inv` that `i` leaves it in (`lsr r25; mov
    /// r18, r24; ror r24`), the moves' code, folded into `i`'s, goes between, and the
    /// carry stays in the 6502 carry: no `PHP`/`PLA` capture after `i` and no reload from
    /// the flags byte before the reader (about 15 cycles and 7 bytes). Returns the moves'
    /// code and how many were folded; `None` where the chain does not hold, a move may
    /// not join the code before it ([`crate::analysis::fusion`]: a jump target), or a
    /// move's code is not plain loads and stores (then `i` captures its flags as before).
    pub(super) fn carry_over_moves(&self, i: usize, inv: bool) -> Result<Option<(Asm, usize)>, TranslateError> {
        if !self.optimise {
            return Ok(None);
        }
        let mut j = i + 1;
        while j < self.insns.len() && j - i <= 4 && self.is_move(j) && self.fusion.joins(j) {
            j += 1;
        }
        let Some(reader) = self.insns.get(j) else { return Ok(None) };
        if j == i + 1 || self.flow.is_target[j] || consumes_carry(reader) != Some(inv) {
            return Ok(None);
        }
        let mut moves = Asm::default();
        for m in i + 1..j {
            let l = self.lower(m, false)?;
            if l.consumed != 0 || l.carry_out || !l.asm.items.iter().all(keeps_carry) {
                return Ok(None);
            }
            moves.items.extend(l.asm.items.into_iter().filter(|it| !matches!(it, Item::Label(_))));
        }
        Ok(Some((moves, j - i - 1)))
    }

    /// The branch after instruction `i` if it can test the flags `i` leaves in `P`: not a
    /// jump target, and no flag live after it. A branch on C or V may come after up to
    /// four moves ([`Ctx::is_move`]: loads and stores, which keep C and V), none of them a
    /// jump target.
    pub(super) fn fusable_branch(&self, i: usize) -> Option<usize> {
        let mut j = i + 1;
        while j < self.insns.len() && self.is_move(j) && self.fusion.joins(j) && j - i <= 4 && self.optimise {
            j += 1;
        }
        let b = self.insns.get(j)?;
        let reads_kept_flag = j == i + 1 || matches!(b.r, 0 | 3);
        (matches!(b.op, Op::Brbs | Op::Brbc)
            && reads_kept_flag
            && self.fusion.joins(j)
            && self.flags.live_out[j] & CZNV == 0)
            .then_some(j)
    }

    /// A branch on Z, N or S after one to four moves that follow instruction `i`, whose
    /// code `a` leaves its flags (of `kind`) in `P`: the moves' `LDA`s would change N and
    /// Z, so they go through X and Y ([`Ctx::moves_through_xy`]), loaded ahead of `i`'s
    /// code and stored after it, and the branch tests `P` (`subi r24, 1; mov r18, r22;
    /// brne`), without a flags capture; a `mov` of the register `i`'s code stores last is
    /// a `STA` from A. Only where `i`'s code is plain operations on A and memory (no X,
    /// Y, call or branch of its own), and no other move reads a register `i` may write.
    /// Returns how many instructions it folded into `i`, its code then complete in `a`.
    pub(super) fn branch_after_moves(
        &self,
        i: usize,
        kind: Kind,
        a: &mut Asm,
    ) -> Result<Option<usize>, TranslateError> {
        if !self.optimise {
            return Ok(None);
        }
        let mut j = i + 1;
        while j < self.insns.len() && j - i <= 4 && self.is_move(j) && self.fusion.joins(j) {
            j += 1;
        }
        let Some(&b) = self.insns.get(j) else { return Ok(None) };
        if j == i + 1
            || !matches!(b.op, Op::Brbs | Op::Brbc)
            || !matches!(b.r, 1 | 2 | 4)
            || !self.fusion.joins(j)
            || self.flags.live_out[j] & CZNV != 0
            || !a.items.iter().all(keeps_xy)
        {
            return Ok(None);
        }
        // The register `i`'s code stores last is still in A: a `mov` from it is a `STA`.
        let a_holds = match a.items.last() {
            Some(&Item::Ins(STA_ZP, Arg::Byte(z))) => (0..32).find(|&n| r(n) == z),
            _ => None,
        };
        let written = crate::analysis::callgraph::writes_of(&self.insns[i]);
        let read = (i + 1..j).fold(0, |acc, m| {
            let n = self.insns[m];
            if n.op == Op::Mov && Some(n.r) == a_holds { acc } else { acc | crate::analysis::liveness::reads_of(&n) }
        });
        if written & read != 0 {
            return Ok(None);
        }
        let Some((loads, stores)) = self.moves_through_xy(i + 1..j, a_holds)? else { return Ok(None) };
        let mut br = Asm::default();
        if !self.branch_from_p(&mut br, kind, b.r, b.op == Op::Brbs, j)? {
            return Ok(None);
        }
        let code = std::mem::take(&mut a.items);
        a.items.extend(loads.items);
        a.items.extend(code);
        a.items.extend(stores.items);
        a.items.extend(br.items);
        Ok(Some(j - i))
    }

    /// Emits branch `j` on SREG bit `s` testing the 6502 flags left by an instruction of
    /// `kind`; `false` (and nothing emitted) if `P` does not hold that flag.
    pub(super) fn branch_from_p(
        &self,
        a: &mut Asm,
        kind: Kind,
        s: u8,
        set: bool,
        j: usize,
    ) -> Result<bool, TranslateError> {
        let arith = matches!(kind, Kind::Arith { .. });
        let plain = matches!(
            kind,
            Kind::Arith { chain: false, .. } | Kind::Logic | Kind::Com | Kind::Shift | Kind::IncDec { .. }
        );
        let (if_set, if_clear) = match s {
            0 => match carry_polarity(kind) {
                Some(true) => (BCC, BCS),
                Some(false) => (BCS, BCC),
                None => return Ok(false),
            },
            1 if plain => (BEQ, BNE),
            2 if plain || matches!(kind, Kind::Wide { .. }) => (BMI, BPL),
            3 if arith => (BVS, BVC),
            4 if arith => {
                a.b(BVC, 2).b(EOR_IMM, 0x80);
                (BMI, BPL)
            }
            4 if kind == Kind::Logic => (BMI, BPL),
            _ => return Ok(false),
        };
        let target = self.branch_target(j, self.insns[j].k)?;
        a.br(if set { if_set } else { if_clear }, target);
        Ok(true)
    }

    /// The register compare `m` tests against zero, for equality: `cpi rd, 0`, and at the
    /// full level `cp`/`cpc` of a register with r1 where r1 is known zero
    /// ([`crate::analysis::zero_reg`]) or with a register just set to zero by an `ldi`
    /// ([`Ctx::constant_at`]), either way round.
    fn zero_compare(&self, m: usize) -> Option<u8> {
        let c = self.insns[m];
        let r1_zero = self.optimise && self.r1_zero[m];
        let zero = |reg: u8| {
            (r1_zero && reg == 1)
                || self
                    .constant_at(m, reg)
                    .is_some_and(|l| self.insns[l].k == 0 && !self.prog.text_relocs.contains_key(&self.flow.addrs[l]))
        };
        match c.op {
            Op::Cpi if c.k == 0 => Some(c.d),
            Op::Cp | Op::Cpc if zero(c.r) => Some(c.d),
            Op::Cp | Op::Cpc if zero(c.d) => Some(c.r),
            _ => None,
        }
    }

    /// The `ldi` that gives register `reg` the value instruction `m` reads, at the full
    /// level: the last instruction before `m` that writes `reg`, when it is an `ldi`
    /// lowered as usual and everything from it to `m` is a register move or a compare
    /// (which write nothing else unseen), with nothing jumping in between and no moved
    /// save or restore there. Its immediate (or relocation, through [`Ctx::imm`]) then
    /// stands for the register: `cpi r24, lo; ldi r18, hi; cpc r25, r18` compares with
    /// `SBC #hi`, and the `ldi`'s store is left to [`crate::mos_rewrites::dead_stores`].
    pub(super) fn constant_at(&self, m: usize, reg: u8) -> Option<usize> {
        use crate::avr_rewrites::ptr_copies::Copy;
        use crate::frames::frame_slots::Action;
        if !self.optimise {
            return None;
        }
        let mut k = m;
        while k > 0 && !self.flow.is_target[k] && self.saves.sunk[k].is_empty() && m - k < 8 {
            k -= 1;
            let n = self.insns[k];
            let writes = |width: u8| (n.d..n.d + width).contains(&reg);
            match n.op {
                Op::Ldi if n.d == reg => {
                    let plain = self.frames.slots[k] == Action::Keep
                        && self.copies[k] == Copy::Keep
                        && !self.frames.set_up[k]
                        && self.saves.sunk[k].is_empty();
                    return plain.then_some(k);
                }
                Op::Cp | Op::Cpi | Op::Cpc => {}
                Op::Ldi | Op::Mov if !writes(1) => {}
                Op::Movw if !writes(2) => {}
                _ => return None,
            }
        }
        None
    }

    /// Emits `LDA` of compare `m`'s first operand (`rd`), and `op_zp` or `op_imm` (`CMP`,
    /// `SBC`, `EOR`) with its second: the immediate of a `cpi`, or of the `ldi` that set
    /// either register ([`Ctx::constant_at`]), zero for r1 where it is known zero
    /// ([`crate::analysis::zero_reg`]), the register's byte otherwise.
    pub(super) fn compare_operands(&self, m: usize, a: &mut Asm, op_zp: u8, op_imm: u8) -> Result<(), TranslateError> {
        let n = self.insns[m];
        match self.constant_at(m, n.d) {
            Some(l) if n.op != Op::Cpi && n.d != n.r => self.imm(l, a, LDA_IMM)?,
            _ => {
                a.b(LDA_ZP, r(n.d));
            }
        }
        if n.op == Op::Cpi {
            a.b(op_imm, n.k as u8);
            return Ok(());
        }
        match self.constant_at(m, n.r) {
            Some(l) => self.imm(l, a, op_imm)?,
            None if self.optimise && self.r1_zero[m] && n.r == 1 => {
                a.b(op_imm, 0);
            }
            None => {
                a.b(op_zp, r(n.r));
            }
        }
        Ok(())
    }

    /// A compare chain (`cp`/`cpi`, then `cpc`s, with moves between: [`Ctx::is_move`]) ending in
    /// a branch that only reads the chain's flags: lowered to the 6502's own multi-byte
    /// compare. Returns the number of instructions folded into `i`.
    pub(super) fn compare_chain(&self, i: usize, a: &mut Asm) -> Result<Option<usize>, TranslateError> {
        if !matches!(self.insns[i].op, Op::Cp | Op::Cpi) {
            return Ok(None);
        }
        let mut j = i + 1;
        let mut last_cmp = i;
        while let Some(n) = self.insns.get(j) {
            if !self.fusion.joins(j) {
                return Ok(None);
            }
            match n.op {
                Op::Cpc => last_cmp = j,
                _ if self.optimise && self.is_move(j) => {}
                Op::Brbs | Op::Brbc => break,
                _ => return Ok(None),
            }
            j += 1;
        }
        let Some(br) = self.insns.get(j) else { return Ok(None) };
        // Moves after the last compare keep C and V (loads and stores only), and the
        // equality form does its moves first: only N and S need the compare last, or the
        // moves through X and Y around it.
        let through_xy = match br.r {
            2 | 4 if last_cmp + 1 < j => self.moves_through_xy(last_cmp + 1..j, None)?,
            _ => None,
        };
        let trailing_ok = last_cmp == j - 1 || matches!(br.r, 0 | 1 | 3) || through_xy.is_some();
        if !trailing_ok || self.flags.live_out[j] & CZNV != 0 || !matches!(br.r, 0..=4) {
            return Ok(None);
        }
        let target = self.branch_target(j, br.k)?;
        let set = br.op == Op::Brbs;
        let cmp = |a: &mut Asm, m: usize, first: bool, sbc: bool| {
            if first && sbc {
                a.i(SEC);
            }
            if first && !sbc {
                self.compare_operands(m, a, CMP_ZP, CMP_IMM)
            } else {
                self.compare_operands(m, a, SBC_ZP, SBC_IMM)
            }
        };
        if br.r == 1 {
            // Equality: compare byte by byte and leave at the first difference. Moves
            // between compares are done first (they must not feed an earlier compare).
            let cmps: Vec<usize> = (i..j).filter(|&m| matches!(self.insns[m].op, Op::Cp | Op::Cpi | Op::Cpc)).collect();
            let clash = (i..j).filter(|&m| self.is_move(m)).any(|m| {
                cmps.iter().filter(|&&c| c < m).any(|&c| {
                    let cn = self.insns[c];
                    self.move_writes(m).any(|w| w == cn.d || (cn.op != Op::Cpi && w == cn.r))
                })
            });
            if clash {
                self.equality_in_order(i, j, target, set, a)?;
                return Ok(Some(j - i));
            }
            for m in i..j {
                if self.is_move(m) {
                    self.lower_folded(m, a)?;
                }
            }
            let after = insn_label(j + 1);
            if j + 1 >= self.insns.len() {
                return Ok(None);
            }
            // Bytes compared with zero one after another are or-ed together: the load
            // and the `ORA`s set Z for the whole run.
            let mut n = 0;
            while n < cmps.len() {
                if let Some(z) = self.zero_compare(cmps[n]) {
                    a.b(LDA_ZP, r(z));
                    while let Some(z) = cmps.get(n + 1).and_then(|&m| self.zero_compare(m)) {
                        a.b(ORA_ZP, r(z));
                        n += 1;
                    }
                } else {
                    cmp(a, cmps[n], true, false)?;
                }
                if n + 1 < cmps.len() {
                    a.br(BNE, if set { after } else { target });
                } else {
                    a.br(if set { BEQ } else { BNE }, target);
                }
                n += 1;
            }
            return Ok(Some(j - i));
        }
        // Ordered: one multi-byte subtraction, then the 6502 flags of the last byte.
        let sbc = matches!(br.r, 3 | 4);
        for m in i..j {
            if let Some((loads, _)) = &through_xy {
                if m > last_cmp {
                    continue;
                }
                if m == last_cmp {
                    a.items.extend(loads.items.iter().cloned());
                }
            }
            match self.insns[m].op {
                Op::Cp | Op::Cpi => cmp(a, m, true, sbc)?,
                Op::Cpc => cmp(a, m, false, true)?,
                _ => {
                    self.lower_folded(m, a)?;
                }
            }
        }
        if let Some((_, stores)) = through_xy {
            a.items.extend(stores.items);
        }
        let (if_set, if_clear) = match br.r {
            0 => (BCC, BCS),
            2 => (BMI, BPL),
            3 => (BVS, BVC),
            _ => {
                a.b(BVC, 2).b(EOR_IMM, 0x80);
                (BMI, BPL)
            }
        };
        a.br(if set { if_set } else { if_clear }, target);
        Ok(Some(j - i))
    }

    /// The moves `run` between the last compare of a chain and a branch on N or S, which
    /// their `LDA`s would change (`cp r24, r22; mov r18, r24; brlt`): each byte moved is
    /// loaded into X or Y ahead of the last compare and stored after it, as `STX` and
    /// `STY` change no flag; the compares read nothing the moves write, as they come
    /// first. At most two bytes, each move a `mov`, `movw` or `ldi` lowered as usual
    /// whose sources no move before it in the run writes (the loads all go first). A
    /// `mov` from register `a_holds`, which A holds at the stores, is a `STA` instead.
    /// Returns the loads and the stores; `None` where that does not hold.
    fn moves_through_xy(
        &self,
        run: std::ops::Range<usize>,
        a_holds: Option<u8>,
    ) -> Result<Option<(Asm, Asm)>, TranslateError> {
        use crate::avr_rewrites::ptr_copies::Copy;
        use crate::frames::frame_slots::Action;
        let (mut loads, mut stores) = (Asm::default(), Asm::default());
        let mut written: Vec<u8> = Vec::new();
        let mut xy = [(LDX_ZP, LDX_IMM, STX_ZP), (LDY_ZP, LDY_IMM, STY_ZP)].into_iter();
        for m in run {
            let n = self.insns[m];
            let plain = self.frames.slots[m] == Action::Keep
                && self.copies[m] == Copy::Keep
                && !self.frames.set_up[m]
                && !self.saves.dropped[m]
                && self.saves.slot_of[m].is_none()
                && !self.flow.is_target[m];
            // Each byte: where it goes, and the register it comes from (none for `ldi`).
            let bytes: &[(u8, Option<u8>)] = match n.op {
                Op::Ldi => &[(n.d, None)],
                Op::Mov => &[(n.d, Some(n.r))],
                Op::Movw => &[(n.d, Some(n.r)), (n.d + 1, Some(n.r + 1))],
                _ => return Ok(None),
            };
            if !plain || bytes.iter().any(|&(_, s)| s.is_some_and(|s| written.contains(&s))) {
                return Ok(None);
            }
            for &(d, s) in bytes {
                if n.op == Op::Mov && s.is_some() && s == a_holds {
                    stores.b(STA_ZP, r(d));
                    written.push(d);
                    continue;
                }
                let Some((ld, ld_imm, st)) = xy.next() else { return Ok(None) };
                match s {
                    Some(s) => {
                        loads.b(ld, r(s));
                    }
                    None => self.imm(m, &mut loads, ld_imm)?,
                }
                stores.b(st, r(d));
                written.push(d);
            }
        }
        Ok(Some((loads, stores)))
    }

    /// The equality form of a compare chain whose moves cannot all go first (one writes a
    /// register an earlier compare reads, as LLVM does when it loads a constant for the
    /// next compare into a register it has just compared: `cpi r22, lo; cpc r23, r17; ldi
    /// r22, 0; cpc r30, r22`). Everything runs in order and nothing leaves early, so every
    /// move runs on both paths: each byte's difference (`EOR`) is or-ed into a scratch
    /// byte, whose Z at the end is the chain's (the whole subtraction is zero exactly when
    /// every byte is equal), loaded again if moves came after the last compare. Without
    /// this, each compare captured the flags with `PHP`/`PLA` (about 10 bytes a byte
    /// compared).
    fn equality_in_order(
        &self,
        i: usize,
        j: usize,
        target: Label,
        set: bool,
        a: &mut Asm,
    ) -> Result<(), TranslateError> {
        let diff = temp(2);
        let last_cmp = (i..j).rev().find(|&m| !self.is_move(m)).unwrap_or(i);
        let mut first = true;
        for m in i..j {
            if self.is_move(m) {
                self.lower_folded(m, a)?;
                continue;
            }
            match self.zero_compare(m) {
                Some(z) => {
                    a.b(LDA_ZP, r(z));
                }
                None => self.compare_operands(m, a, EOR_ZP, EOR_IMM)?,
            }
            if !first {
                a.b(ORA_ZP, diff);
            }
            first = false;
            if m != last_cmp || last_cmp != j - 1 {
                a.b(STA_ZP, diff);
            }
        }
        if last_cmp != j - 1 {
            a.b(LDA_ZP, diff);
        }
        a.br(if set { BEQ } else { BNE }, target);
        Ok(())
    }

    /// A pointer copy and a constant step of the copy (`movw r30, r24` then `subi r30, lo;
    /// sbci r31, hi`, or `adiw`/`sbiw r30, k`), or an add of another pair to the copy
    /// (`add r30, r22; adc r31, r23`), with no flag of the step read after it and nothing
    /// jumping between: one 16-bit addition or subtraction from the source into the copy,
    /// without first storing the copy. Returns the number of instructions folded into `i`.
    pub(super) fn copy_plus_constant(&self, i: usize, a: &mut Asm) -> Result<Option<usize>, TranslateError> {
        use crate::frames::frame_slots::Action;
        let mv = self.insns[i];
        let plain = |m: usize| {
            m < self.insns.len()
                && self.fusion.joins(m)
                && self.frames.slots[m] == Action::Keep
                && self.copies[m] == crate::avr_rewrites::ptr_copies::Copy::Keep
                && !self.frames.set_up[m]
        };
        if !self.optimise || !plain(i + 1) {
            return Ok(None);
        }
        let (rd, rs) = (r(mv.d), r(mv.r));
        let step = self.insns[i + 1];
        if let Some(add) = crate::analysis::fusion::copy_sum(self.insns, i)
            && plain(i + 2)
            && self.flags.live_out[i + 2] & CZNV == 0
        {
            // d = s + r: the sum straight into d, with no copy to load again.
            let ra = r(add);
            a.i(CLC).b(LDA_ZP, rs).b(ADC_ZP, ra).b(STA_ZP, rd);
            a.b(LDA_ZP, rs + 1).b(ADC_ZP, ra + 1).b(STA_ZP, rd + 1);
            return Ok(Some(2));
        }
        match step.op {
            Op::Subi
                if step.d == mv.d
                    && plain(i + 2)
                    && self.insns[i + 2].op == Op::Sbci
                    && self.insns[i + 2].d == mv.d + 1
                    && self.flags.live_out[i + 2] & CZNV == 0 =>
            {
                a.i(SEC).b(LDA_ZP, rs);
                self.imm(i + 1, a, SBC_IMM)?;
                a.b(STA_ZP, rd).b(LDA_ZP, rs + 1);
                self.imm(i + 2, a, SBC_IMM)?;
                a.b(STA_ZP, rd + 1);
                Ok(Some(2))
            }
            Op::Adiw | Op::Sbiw if step.d == mv.d && self.flags.live_out[i + 1] & CZNV == 0 => {
                let (carry, o) = if step.op == Op::Adiw { (CLC, ADC_IMM) } else { (SEC, SBC_IMM) };
                a.i(carry).b(LDA_ZP, rs).b(o, step.k as u8).b(STA_ZP, rd);
                a.b(LDA_ZP, rs + 1).b(o, 0).b(STA_ZP, rd + 1);
                Ok(Some(1))
            }
            _ => Ok(None),
        }
    }

    /// An increment by one written as a subtraction of -1 (`subi rd, 0xff; sbci re, 0xff;
    /// ...`, rustc's `x + 1` on 16 and 32 bits, each byte in a register of its own), with no flag of the last step read after it
    /// and nothing jumping between: `INC` of each byte while the one below it wrapped to
    /// zero, as `adiw rd, 1` is lowered. 2 bytes a byte of the number against 6 or 7, and
    /// fewer cycles. Returns the number of instructions folded into `i`.
    pub(super) fn plus_one(&self, i: usize, a: &mut Asm) -> Option<usize> {
        use crate::frames::frame_slots::Action;
        let lo = self.insns[i];
        let minus_one =
            |m: usize| self.insns[m].k as u8 == 0xFF && !self.prog.text_relocs.contains_key(&self.flow.addrs[m]);
        if !self.optimise || lo.op != Op::Subi || !minus_one(i) {
            return None;
        }
        let steps = (1..4)
            .take_while(|&n| {
                let m = i + n;
                m < self.insns.len()
                    && self.fusion.joins(m)
                    && self.frames.slots[m] == Action::Keep
                    && self.copies[m] == crate::avr_rewrites::ptr_copies::Copy::Keep
                    && !self.frames.set_up[m]
                    && self.insns[m].op == Op::Sbci
                    && !self.insns[i..m].iter().any(|b| b.d == self.insns[m].d)
                    && minus_one(m)
            })
            .count();
        // One byte alone stays a subtraction: its value may pass on in A, where `INC` would
        // store and load it again.
        if steps == 0 || self.live_after(i + steps) & CZNV != 0 {
            return None;
        }
        // Each `BNE` skips the rest: 4 bytes (its own `INC` and the next `BNE`) a byte above.
        for n in 0..=steps {
            a.b(INC_ZP, r(self.insns[i + n].d));
            if n < steps {
                a.b(BNE, (4 * (steps - n) - 2) as u8);
            }
        }
        Some(steps)
    }
}

/// Whether a 6502 item leaves X and Y alone and stays in line: an operation on A or
/// memory, not indexed, or a flag setting (no transfer, call, jump or branch).
fn keeps_xy(item: &Item) -> bool {
    use mos_asm::asm::Mode;
    let Item::Ins(o, _) = item else { return false };
    mos_asm::asm::mnemonic(*o).is_some_and(|(m, mode)| {
        matches!(
            m,
            "LDA"
                | "STA"
                | "ADC"
                | "SBC"
                | "CMP"
                | "AND"
                | "ORA"
                | "EOR"
                | "ASL"
                | "LSR"
                | "ROL"
                | "ROR"
                | "INC"
                | "DEC"
                | "BIT"
                | "CLC"
                | "SEC"
                | "CLV"
        ) && matches!(mode, Mode::Implied | Mode::Acc | Mode::Imm | Mode::Zp | Mode::Abs)
    })
}

/// Whether a 6502 item leaves the carry as it found it: labels, and the loads, stores,
/// transfers, increments and logic operations that moves are lowered to.
fn keeps_carry(item: &Item) -> bool {
    let Item::Ins(o, _) = item else { return matches!(item, Item::Label(_)) };
    mos_asm::asm::mnemonic(*o).is_some_and(|(m, _)| {
        matches!(
            m,
            "LDA"
                | "LDX"
                | "LDY"
                | "STA"
                | "STX"
                | "STY"
                | "TAX"
                | "TXA"
                | "TAY"
                | "TYA"
                | "INX"
                | "INY"
                | "DEX"
                | "DEY"
                | "INC"
                | "DEC"
                | "AND"
                | "ORA"
                | "EOR"
                | "NOP"
        )
    })
}
