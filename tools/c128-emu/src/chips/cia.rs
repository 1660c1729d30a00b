//! CIA 6526 (CIA 1 at $DC00, CIA 2 at $DD00): ports, timers A and B, the time-of-day clock
//! and the interrupt control register. The keyboard and joysticks are wired in by the bus,
//! which knows the matrix; this module only sees port values.
//!
//! Timers count 1 MHz cycles in one-shot or continuous mode; timer B can also count timer A
//! underflows. The serial port and the TOD alarm are not modelled.

/// One CIA.
#[derive(Debug, Clone)]
pub struct Cia {
    /// Port A and B output latches.
    pub pra: u8,
    /// Port B output latch.
    pub prb: u8,
    /// Data direction registers (1 = output).
    pub ddra: u8,
    /// Port B data direction.
    pub ddrb: u8,
    timer: [Timer; 2],
    /// Interrupt mask (ICR as written with bit 7 set).
    pub mask: u8,
    /// Interrupt flags not yet read.
    pub flags: u8,
    /// TOD: the clock in tenths of a second at `tod_base_cycle`.
    tod_base_tenths: u64,
    tod_base_cycle: u64,
    tod_halted: Option<u64>,
    tod_latch: Option<u64>,
    /// Cycles per tenth of a second of the TOD clock (from the mains frequency).
    tod_cycles_per_tenth: u64,
}

#[derive(Debug, Clone, Copy, Default)]
struct Timer {
    latch: u16,
    counter: u16,
    control: u8,
}

impl Timer {
    fn running(&self) -> bool {
        self.control & 1 != 0
    }
}

impl Cia {
    /// A CIA whose TOD clock starts at `tod_start_tenths` and ticks every
    /// `tod_cycles_per_tenth` cycles.
    pub fn new(tod_start_tenths: u64, tod_cycles_per_tenth: u64) -> Self {
        Cia {
            pra: 0xFF,
            prb: 0xFF,
            ddra: 0,
            ddrb: 0,
            timer: [Timer { latch: 0xFFFF, counter: 0xFFFF, control: 0 }; 2],
            mask: 0,
            flags: 0,
            tod_base_tenths: tod_start_tenths,
            tod_base_cycle: 0,
            tod_halted: None,
            tod_latch: None,
            tod_cycles_per_tenth: tod_cycles_per_tenth.max(1),
        }
    }

    /// Whether any timer is counting (the bus only ticks CIAs that need it).
    pub fn busy(&self) -> bool {
        self.timer[0].running() || self.timer[1].running()
    }

    /// Whether the CIA pulls its interrupt line.
    pub fn irq(&self) -> bool {
        self.flags & self.mask & 0x1F != 0
    }

    /// Advances the timers by `cycles` 1 MHz cycles.
    pub fn tick(&mut self, cycles: u64) {
        let mut a_underflows = 0u64;
        if self.timer[0].running() && self.timer[0].control & 0x20 == 0 {
            a_underflows = self.count(0, cycles);
        }
        if self.timer[1].running() {
            let b_input = match (self.timer[1].control >> 5) & 3 {
                0 => cycles,
                2 => a_underflows,
                _ => 0,
            };
            if b_input > 0 {
                self.count(1, b_input);
            }
        }
    }

    /// Counts timer `t` down by `n`; returns the number of underflows.
    fn count(&mut self, t: usize, n: u64) -> u64 {
        let timer = &mut self.timer[t];
        let counter = u64::from(timer.counter);
        if n <= counter {
            timer.counter = (counter - n) as u16;
            return 0;
        }
        // The counter reaches 0, reloads from the latch, and keeps counting when continuous.
        let period = u64::from(timer.latch) + 1;
        let after_first = n - counter - 1;
        let one_shot = timer.control & 0x08 != 0;
        let underflows;
        if one_shot {
            timer.counter = timer.latch;
            timer.control &= !1;
            underflows = 1;
        } else {
            underflows = 1 + after_first / period;
            timer.counter = (u64::from(timer.latch) - after_first % period) as u16;
        }
        self.flags |= 1 << t;
        underflows
    }

    fn tod_now(&self, now: u64) -> u64 {
        if let Some(h) = self.tod_halted {
            return h;
        }
        self.tod_base_tenths + (now - self.tod_base_cycle.min(now)) / self.tod_cycles_per_tenth
    }

    fn tod_fields(tenths: u64) -> [u8; 4] {
        let t = tenths % (24 * 36_000);
        let bcd = |v: u64| -> u8 { (((v / 10) << 4) | (v % 10)) as u8 };
        let hours = t / 36_000;
        let pm = if hours >= 12 { 0x80 } else { 0 };
        let h12 = match hours % 12 {
            0 => 12,
            h => h,
        };
        [(t % 10) as u8, bcd((t / 10) % 60), bcd((t / 600) % 60), bcd(h12) | pm]
    }

    /// Reads register `reg` (0..=15). `port_a_in` and `port_b_in` are what the outside
    /// world drives onto the port pins (active low, ANDed with the outputs).
    pub fn read(&mut self, reg: u8, now: u64, port_a_in: u8, port_b_in: u8) -> u8 {
        match reg & 0x0F {
            0 => (self.pra | !self.ddra) & port_a_in,
            1 => (self.prb | !self.ddrb) & port_b_in,
            2 => self.ddra,
            3 => self.ddrb,
            4 => self.timer[0].counter as u8,
            5 => (self.timer[0].counter >> 8) as u8,
            6 => self.timer[1].counter as u8,
            7 => (self.timer[1].counter >> 8) as u8,
            r @ 8..=11 => {
                // Reading hours latches the clock until tenths are read.
                let tenths = match self.tod_latch {
                    Some(l) => l,
                    None => self.tod_now(now),
                };
                if r == 11 {
                    self.tod_latch = Some(tenths);
                }
                if r == 8 {
                    self.tod_latch = None;
                }
                Self::tod_fields(tenths)[usize::from(r - 8)]
            }
            12 => 0,
            13 => {
                let v = self.flags | if self.irq() { 0x80 } else { 0 };
                self.flags = 0;
                v
            }
            14 => self.timer[0].control & !0x10,
            _ => self.timer[1].control & !0x10,
        }
    }

    /// Writes register `reg` (0..=15).
    pub fn write(&mut self, reg: u8, value: u8, now: u64) {
        match reg & 0x0F {
            0 => self.pra = value,
            1 => self.prb = value,
            2 => self.ddra = value,
            3 => self.ddrb = value,
            r @ 4..=7 => {
                let t = usize::from((r - 4) / 2);
                let timer = &mut self.timer[t];
                if r % 2 == 0 {
                    timer.latch = (timer.latch & 0xFF00) | u16::from(value);
                } else {
                    timer.latch = (timer.latch & 0x00FF) | (u16::from(value) << 8);
                    // Writing the high byte of a stopped timer loads the counter.
                    if !timer.running() {
                        timer.counter = timer.latch;
                    }
                }
            }
            r @ 8..=11 => {
                let mut fields = Self::tod_fields(self.tod_now(now));
                fields[usize::from(r - 8)] = value;
                let from_bcd = |v: u8| u64::from(v >> 4) * 10 + u64::from(v & 0x0F);
                let mut hours = from_bcd(fields[3] & 0x1F) % 12;
                if fields[3] & 0x80 != 0 {
                    hours += 12;
                }
                let tenths = u64::from(fields[0] & 0x0F)
                    + from_bcd(fields[1] & 0x7F) * 10
                    + from_bcd(fields[2] & 0x7F) * 600
                    + hours * 36_000;
                if r == 11 {
                    self.tod_halted = Some(tenths);
                } else if r == 8 {
                    self.tod_halted = None;
                    self.tod_base_tenths = tenths;
                    self.tod_base_cycle = now;
                } else if let Some(h) = self.tod_halted.as_mut() {
                    *h = tenths;
                } else {
                    self.tod_base_tenths = tenths;
                    self.tod_base_cycle = now;
                }
            }
            13 => {
                if value & 0x80 != 0 {
                    self.mask |= value & 0x1F;
                } else {
                    self.mask &= !value;
                }
            }
            r @ 14..=15 => {
                let timer = &mut self.timer[usize::from(r - 14)];
                if value & 0x10 != 0 {
                    timer.counter = timer.latch;
                }
                timer.control = value & !0x10;
            }
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn continuous_timer_underflows_and_reloads() {
        let mut cia = Cia::new(0, 98_525);
        cia.write(4, 99, 0);
        cia.write(5, 0, 0);
        cia.write(13, 0x81, 0);
        cia.write(14, 0x11, 0);
        cia.tick(50);
        assert_eq!(cia.read(4, 0, 0xFF, 0xFF), 49);
        assert!(!cia.irq());
        cia.tick(50);
        assert!(cia.irq());
        assert_eq!(cia.read(4, 0, 0xFF, 0xFF), 99);
        assert_eq!(cia.read(13, 0, 0xFF, 0xFF), 0x81);
        assert!(!cia.irq());
    }

    #[test]
    fn timer_b_counts_timer_a_underflows() {
        let mut cia = Cia::new(0, 98_525);
        cia.write(4, 9, 0);
        cia.write(5, 0, 0);
        cia.write(6, 2, 0);
        cia.write(7, 0, 0);
        cia.write(15, 0x51, 0); // start B, load, count A underflows
        cia.write(14, 0x11, 0);
        cia.tick(25);
        assert_eq!(cia.read(6, 0, 0xFF, 0xFF), 0, "two underflows of A");
        assert_eq!(cia.read(13, 0, 0xFF, 0xFF) & 0x03, 0x01);
        cia.tick(10);
        assert_eq!(cia.read(13, 0, 0xFF, 0xFF) & 0x02, 0x02, "B underflowed on the third");
    }

    #[test]
    fn one_shot_stops_after_underflow() {
        let mut cia = Cia::new(0, 98_525);
        cia.write(4, 10, 0);
        cia.write(5, 0, 0);
        cia.write(14, 0x19, 0);
        cia.tick(500);
        assert!(!cia.busy());
        assert_eq!(cia.read(13, 0, 0xFF, 0xFF) & 1, 1);
    }

    #[test]
    fn tod_counts_in_bcd_and_latches_on_hours() {
        let per_tenth = 98_525;
        let mut cia = Cia::new(0, per_tenth);
        let t = per_tenth * (10 * 75 + 3);
        assert_eq!(cia.read(11, t, 0xFF, 0xFF), 0x12);
        assert_eq!(cia.read(10, t + per_tenth * 600, 0xFF, 0xFF), 0x01);
        assert_eq!(cia.read(9, t, 0xFF, 0xFF), 0x15);
        assert_eq!(cia.read(8, t, 0xFF, 0xFF), 3);
    }

    #[test]
    fn port_reads_combine_outputs_and_inputs() {
        let mut cia = Cia::new(0, 1);
        cia.write(2, 0xFF, 0);
        cia.write(0, 0xFE, 0);
        assert_eq!(cia.read(0, 0, 0xFF, 0xFF), 0xFE);
        assert_eq!(cia.read(1, 0, 0xFF, 0xF7), 0xF7);
    }
}
