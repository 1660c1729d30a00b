//! A reference interpreter of the avr5 instructions the translator supports, written
//! straight from the AVR instruction set manual's operation and flag formulas.
//!
//! It is the other half of the differential tests: the same AVR code runs here and,
//! translated, on a 6502, and the results must agree. Its data space is the C128's (one to
//! one), so it can run the relocated code of a [`crate::Translation`]. The native
//! routines ([`crate::runtime::NATIVE`]: the multiplies, divisions, `mem*` functions and
//! the KERNAL gateway) are implemented here in Rust with their documented conventions.

use crate::input::decode::{self, Insn, Mode, Op};
use crate::runtime::{NATIVE, Routine};

/// Why the interpreter stopped.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Stop {
    /// The program exited with this code (`__c128_exit`, or `ret` from the entry).
    Exit(u8),
    /// An instruction the interpreter cannot execute, at this address.
    Fault(u32, String),
}

/// The machine state.
#[derive(Debug, Clone)]
pub struct Avr {
    /// r0..r31.
    pub r: [u8; 32],
    /// SREG bits: C, Z, N, V, S, H, T, I (bit 0..7).
    pub sreg: u8,
    /// Stack pointer.
    pub sp: u16,
    /// Program counter (byte address).
    pub pc: u32,
    /// The 64 KiB data space.
    pub mem: Vec<u8>,
    /// The code.
    pub text: Vec<u8>,
    /// Bytes written through CHROUT.
    pub output: Vec<u8>,
    /// Maps a code pointer (the value in Z for `icall`/`ijmp`) to a byte address.
    pub code_ptr: fn(&Avr, u16) -> Option<u32>,
    /// Maps a code pointer of a translated program to its AVR address, when set.
    pub ptr_table: Vec<(u16, u32)>,
    /// Stack pointer at start: `ret` with this SP ends the run.
    pub sp0: u16,
}

/// SREG bit numbers.
const C: u8 = 0;
const Z: u8 = 1;
const N: u8 = 2;
const V: u8 = 3;
const S: u8 = 4;
const T: u8 = 6;

impl Avr {
    /// A machine with `text` as code, an empty data space, SP at `sp`, PC at `entry`.
    pub fn new(text: Vec<u8>, entry: u32, sp: u16) -> Self {
        Avr {
            r: [0; 32],
            sreg: 0,
            sp,
            pc: entry,
            mem: vec![0; 0x1_0000],
            text,
            output: Vec::new(),
            code_ptr: |_, z| Some(u32::from(z) * 2),
            ptr_table: Vec::new(),
            sp0: sp,
        }
    }

    /// Reads SREG bit `b`.
    pub fn flag(&self, b: u8) -> bool {
        self.sreg & (1 << b) != 0
    }

    fn set(&mut self, b: u8, v: bool) {
        if v {
            self.sreg |= 1 << b;
        } else {
            self.sreg &= !(1 << b);
        }
    }

    fn nzs(&mut self, r: u8, v: bool) {
        self.set(N, r & 0x80 != 0);
        self.set(Z, r == 0);
        self.set(V, v);
        self.set(S, (r & 0x80 != 0) ^ v);
    }

    fn w(&self, n: u8) -> u16 {
        u16::from_le_bytes([self.r[usize::from(n)], self.r[usize::from(n) + 1]])
    }

    fn set_w(&mut self, n: u8, v: u16) {
        let [lo, hi] = v.to_le_bytes();
        self.r[usize::from(n)] = lo;
        self.r[usize::from(n) + 1] = hi;
    }

    fn dw(&self, n: u8) -> u32 {
        let n = usize::from(n);
        u32::from_le_bytes([self.r[n], self.r[n + 1], self.r[n + 2], self.r[n + 3]])
    }

    fn set_dw(&mut self, n: u8, v: u32) {
        let n = usize::from(n);
        self.r[n..n + 4].copy_from_slice(&v.to_le_bytes());
    }

    fn push(&mut self, v: u8) {
        self.mem[usize::from(self.sp)] = v;
        self.sp = self.sp.wrapping_sub(1);
    }

    fn pop(&mut self) -> u8 {
        self.sp = self.sp.wrapping_add(1);
        self.mem[usize::from(self.sp)]
    }

    fn add(&mut self, a: u8, b: u8, c: bool) -> u8 {
        let r = a.wrapping_add(b).wrapping_add(u8::from(c));
        let (a7, b7, r7) = (a & 0x80 != 0, b & 0x80 != 0, r & 0x80 != 0);
        self.set(C, (a7 && b7) || (b7 && !r7) || (!r7 && a7));
        self.nzs(r, (a7 && b7 && !r7) || (!a7 && !b7 && r7));
        r
    }

    fn sub(&mut self, a: u8, b: u8, c: bool, chain: bool) -> u8 {
        let r = a.wrapping_sub(b).wrapping_sub(u8::from(c));
        let (a7, b7, r7) = (a & 0x80 != 0, b & 0x80 != 0, r & 0x80 != 0);
        let z = self.flag(Z);
        self.set(C, (!a7 && b7) || (b7 && r7) || (r7 && !a7));
        self.nzs(r, (a7 && !b7 && !r7) || (!a7 && b7 && r7));
        if chain {
            self.set(Z, r == 0 && z);
        }
        r
    }

    fn shift_flags(&mut self, r: u8, c: bool) {
        self.set(C, c);
        let n = r & 0x80 != 0;
        self.nzs(r, n ^ c);
    }

    fn native(&mut self, rt: Routine) -> Option<Stop> {
        match rt {
            Routine::Mulsi3 => {
                let a = u32::from_le_bytes([self.r[22], self.r[23], self.r[24], self.r[25]]);
                let b = u32::from_le_bytes([self.r[18], self.r[19], self.r[20], self.r[21]]);
                self.r[22..26].copy_from_slice(&a.wrapping_mul(b).to_le_bytes());
            }
            Routine::Divmodqi4 => {
                let (a, b) = (self.r[24] as i8, self.r[22] as i8);
                if b != 0 {
                    self.r[24] = a.wrapping_div(b) as u8;
                    self.r[25] = a.wrapping_rem(b) as u8;
                }
            }
            Routine::Udivmodqi4 => {
                let (a, b) = (self.r[24], self.r[22]);
                if let (Some(q), Some(m)) = (a.checked_div(b), a.checked_rem(b)) {
                    self.r[24] = q;
                    self.r[25] = m;
                }
            }
            Routine::Udivmodhi4 => {
                let (a, b) = (self.w(24), self.w(22));
                // libgcc's answer to a zero divisor, as for 32 bits.
                let (q, m) = a.checked_div(b).zip(a.checked_rem(b)).unwrap_or((u16::MAX, a));
                self.set_w(22, q);
                self.set_w(24, m);
            }
            Routine::Divmodhi4 => {
                let (a, b) = (self.w(24) as i16, self.w(22) as i16);
                let (q, m) =
                    if b == 0 { (if a < 0 { 1 } else { -1 }, a) } else { (a.wrapping_div(b), a.wrapping_rem(b)) };
                self.set_w(22, q as u16);
                self.set_w(24, m as u16);
            }
            Routine::Udivmodsi4 => {
                let (a, b) = (self.dw(22), self.dw(18));
                // libgcc's answer to a zero divisor: all ones, remainder the dividend.
                let (q, m) = a.checked_div(b).zip(a.checked_rem(b)).unwrap_or((u32::MAX, a));
                self.set_dw(18, q);
                self.set_dw(22, m);
            }
            Routine::Divmodsi4 => {
                let (a, b) = (self.dw(22) as i32, self.dw(18) as i32);
                let (q, m) =
                    if b == 0 { (if a < 0 { 1 } else { -1 }, a) } else { (a.wrapping_div(b), a.wrapping_rem(b)) };
                self.set_dw(18, q as u32);
                self.set_dw(22, m as u32);
            }
            Routine::Memcpy | Routine::Memmove => {
                let (dst, src, n) = (usize::from(self.w(24)), usize::from(self.w(22)), usize::from(self.w(20)));
                let bytes: Vec<u8> = (0..n).map(|i| self.mem[(src + i) & 0xFFFF]).collect();
                for (i, b) in bytes.into_iter().enumerate() {
                    self.mem[(dst + i) & 0xFFFF] = b;
                }
            }
            Routine::Memset => {
                let (dst, n) = (usize::from(self.w(24)), usize::from(self.w(20)));
                for i in 0..n {
                    self.mem[(dst + i) & 0xFFFF] = self.r[22];
                }
            }
            Routine::Memcmp => {
                let (x, y, n) = (usize::from(self.w(24)), usize::from(self.w(22)), usize::from(self.w(20)));
                let d = (0..n)
                    .map(|i| i16::from(self.mem[(x + i) & 0xFFFF]) - i16::from(self.mem[(y + i) & 0xFFFF]))
                    .find(|&d| d != 0)
                    .unwrap_or(0);
                self.set_w(24, d as u16);
            }
            Routine::Kernal => {
                if self.w(24) == 0xFFD2 {
                    self.output.push(self.r[22]);
                }
                // The traps of the tests return A, X, Y and the carry unchanged.
                self.r[24] = self.r[18];
                self.r[23] = self.r[20];
                self.r[25] = self.r[16] & 1;
            }
            Routine::Exit => return Some(Stop::Exit(self.r[24])),
            Routine::Mulosi4 => {
                let a = i32::from_le_bytes([self.r[22], self.r[23], self.r[24], self.r[25]]);
                let b = i32::from_le_bytes([self.r[18], self.r[19], self.r[20], self.r[21]]);
                let (p, o) = a.overflowing_mul(b);
                self.r[22..26].copy_from_slice(&p.to_le_bytes());
                let ptr = usize::from(self.w(16));
                self.mem[ptr] = u8::from(o);
                self.mem[(ptr + 1) & 0xFFFF] = 0;
            }
            Routine::Mulodi4 => {
                let mut ab = [0u8; 8];
                ab.copy_from_slice(&self.r[18..26]);
                let a = i64::from_le_bytes(ab);
                ab.copy_from_slice(&self.r[10..18]);
                let b = i64::from_le_bytes(ab);
                let (p, o) = a.overflowing_mul(b);
                self.r[18..26].copy_from_slice(&p.to_le_bytes());
                let ptr = usize::from(self.w(8));
                self.mem[ptr] = u8::from(o);
                self.mem[(ptr + 1) & 0xFFFF] = 0;
            }
            _ => return Some(Stop::Fault(self.pc, format!("{rt:?} is not callable"))),
        }
        None
    }

    fn skip_len(&self, at: u32) -> u32 {
        let w = u16::from_le_bytes([self.text[at as usize], self.text[at as usize + 1]]);
        if decode::is_two_word(w) { 4 } else { 2 }
    }

    /// Executes one instruction; `Some` when the run ends.
    pub fn step(&mut self) -> Option<Stop> {
        let pc = self.pc;
        let i: Insn = match decode::decode(&self.text, pc as usize, 0) {
            Ok(i) => i,
            Err(e) => return Some(Stop::Fault(pc, format!("{e:?}"))),
        };
        let (d, rr, k) = (usize::from(i.d), usize::from(i.r), i.k);
        let mut next = pc + u32::from(i.len);
        let (a, b) = (self.r[d], self.r[rr & 31]);
        match i.op {
            Op::Nop => {}
            Op::Add => self.r[d] = self.add(a, b, false),
            Op::Adc => self.r[d] = self.add(a, b, self.flag(C)),
            Op::Sub => self.r[d] = self.sub(a, b, false, false),
            Op::Sbc => self.r[d] = self.sub(a, b, self.flag(C), true),
            Op::Subi => self.r[d] = self.sub(a, k as u8, false, false),
            Op::Sbci => self.r[d] = self.sub(a, k as u8, self.flag(C), true),
            Op::Cp => {
                self.sub(a, b, false, false);
            }
            Op::Cpc => {
                self.sub(a, b, self.flag(C), true);
            }
            Op::Cpi => {
                self.sub(a, k as u8, false, false);
            }
            Op::And | Op::Andi | Op::Or | Op::Ori | Op::Eor => {
                let v = if matches!(i.op, Op::Andi | Op::Ori) { k as u8 } else { b };
                let r = match i.op {
                    Op::And | Op::Andi => a & v,
                    Op::Or | Op::Ori => a | v,
                    _ => a ^ v,
                };
                self.r[d] = r;
                self.nzs(r, false);
            }
            Op::Com => {
                self.r[d] = !a;
                self.set(C, true);
                self.nzs(!a, false);
            }
            Op::Neg => {
                let r = 0u8.wrapping_sub(a);
                self.r[d] = self.sub(0, a, false, false);
                debug_assert_eq!(self.r[d], r);
            }
            Op::Inc => {
                let r = a.wrapping_add(1);
                self.r[d] = r;
                self.nzs(r, r == 0x80);
            }
            Op::Dec => {
                let r = a.wrapping_sub(1);
                self.r[d] = r;
                self.nzs(r, r == 0x7F);
            }
            Op::Lsr => {
                self.r[d] = a >> 1;
                self.shift_flags(a >> 1, a & 1 != 0);
            }
            Op::Asr => {
                let r = ((a as i8) >> 1) as u8;
                self.r[d] = r;
                self.shift_flags(r, a & 1 != 0);
            }
            Op::Ror => {
                let r = (a >> 1) | (u8::from(self.flag(C)) << 7);
                self.r[d] = r;
                self.shift_flags(r, a & 1 != 0);
            }
            Op::Swap => self.r[d] = a.rotate_left(4),
            Op::Adiw | Op::Sbiw => {
                let x = self.w(i.d);
                let r = if i.op == Op::Adiw { x.wrapping_add(k as u16) } else { x.wrapping_sub(k as u16) };
                self.set_w(i.d, r);
                let (x15, r15) = (x & 0x8000 != 0, r & 0x8000 != 0);
                let (c, v) = if i.op == Op::Adiw { (!r15 && x15, !x15 && r15) } else { (r15 && !x15, x15 && !r15) };
                self.set(C, c);
                self.set(V, v);
                self.set(N, r15);
                self.set(Z, r == 0);
                self.set(S, r15 ^ v);
            }
            Op::Mul | Op::Muls | Op::Mulsu | Op::Fmul | Op::Fmuls | Op::Fmulsu => {
                let p: u16 = match i.op {
                    Op::Mul | Op::Fmul => u16::from(a) * u16::from(b),
                    Op::Muls | Op::Fmuls => (i16::from(a as i8) * i16::from(b as i8)) as u16,
                    _ => (i16::from(a as i8) * i16::from(b)) as u16,
                };
                let fm = matches!(i.op, Op::Fmul | Op::Fmuls | Op::Fmulsu);
                let r = if fm { p << 1 } else { p };
                self.set(C, p & 0x8000 != 0);
                self.set(Z, r == 0);
                self.set_w(0, r);
            }
            Op::Mov => self.r[d] = b,
            Op::Movw => {
                let v = self.w(i.r);
                self.set_w(i.d, v);
            }
            Op::Ldi => self.r[d] = k as u8,
            Op::Ld(p, m) | Op::St(p, m) => {
                let mut ptr = self.w(p.reg());
                if m == Mode::PreDec {
                    ptr = ptr.wrapping_sub(1);
                }
                let addr = if m == Mode::Disp { ptr.wrapping_add(k as u16) } else { ptr };
                if matches!(i.op, Op::Ld(..)) {
                    self.r[d] = self.mem[usize::from(addr)];
                } else {
                    self.mem[usize::from(addr)] = self.r[d];
                }
                if m == Mode::PostInc {
                    ptr = ptr.wrapping_add(1);
                }
                if m != Mode::Disp {
                    self.set_w(p.reg(), ptr);
                }
            }
            Op::Lds => self.r[d] = self.mem[k as usize & 0xFFFF],
            Op::Sts => self.mem[k as usize & 0xFFFF] = self.r[d],
            Op::Push => self.push(a),
            Op::Pop => self.r[d] = self.pop(),
            Op::In => {
                self.r[d] = match k {
                    0x3D => self.sp as u8,
                    0x3E => (self.sp >> 8) as u8,
                    0x3F => self.sreg,
                    _ => return Some(Stop::Fault(pc, format!("in {k:#x}"))),
                }
            }
            Op::Out => match k {
                0x3D => self.sp = (self.sp & 0xFF00) | u16::from(a),
                0x3E => self.sp = (self.sp & 0x00FF) | (u16::from(a) << 8),
                // As in the translation: S is always N xor V there.
                0x3F => {
                    self.sreg = a;
                    let s = self.flag(N) ^ self.flag(V);
                    self.set(S, s);
                }
                _ => return Some(Stop::Fault(pc, format!("out {k:#x}"))),
            },
            Op::Bset => self.sreg |= 1 << rr,
            Op::Bclr => self.sreg &= !(1 << rr),
            Op::Bst => self.set(T, a & (1 << rr) != 0),
            Op::Bld => self.r[d] = (a & !(1 << rr)) | (u8::from(self.flag(T)) << rr),
            Op::Cpse | Op::Sbrc | Op::Sbrs => {
                let skip = match i.op {
                    Op::Cpse => a == b,
                    Op::Sbrc => a & (1 << rr) == 0,
                    _ => a & (1 << rr) != 0,
                };
                if skip {
                    next += self.skip_len(next);
                }
            }
            Op::Brbs | Op::Brbc => {
                if self.flag(i.r) == (i.op == Op::Brbs) {
                    next = k;
                }
            }
            Op::Rjmp | Op::Jmp | Op::Rcall | Op::Call | Op::Icall | Op::Ijmp => {
                let target = if matches!(i.op, Op::Icall | Op::Ijmp) {
                    match (self.code_ptr)(self, self.w(30)) {
                        Some(t) => t,
                        None => return Some(Stop::Fault(pc, format!("bad code pointer {:#x}", self.w(30)))),
                    }
                } else {
                    k
                };
                let call = matches!(i.op, Op::Rcall | Op::Call | Op::Icall);
                if let Some(&(_, _, rt)) = NATIVE.iter().find(|(_, a, _)| *a == target) {
                    if let Some(stop) = self.native(rt) {
                        return Some(stop);
                    }
                    if !call {
                        return self.ret();
                    }
                } else if call {
                    let ret = (next / 2) as u16;
                    self.push(ret as u8);
                    self.push((ret >> 8) as u8);
                    next = target;
                } else {
                    next = target;
                }
            }
            Op::Ret => return self.ret(),
            _ => return Some(Stop::Fault(pc, format!("unsupported {i}"))),
        }
        self.pc = next;
        None
    }

    fn ret(&mut self) -> Option<Stop> {
        if self.sp == self.sp0 {
            return Some(Stop::Exit(self.r[24]));
        }
        let hi = self.pop();
        let lo = self.pop();
        self.pc = u32::from(u16::from_le_bytes([lo, hi])) * 2;
        None
    }

    /// Runs until the program stops or `max_steps` instructions have run (then `None`).
    pub fn run(&mut self, max_steps: u64) -> Option<Stop> {
        for _ in 0..max_steps {
            if let Some(s) = self.step() {
                return Some(s);
            }
        }
        None
    }
}
