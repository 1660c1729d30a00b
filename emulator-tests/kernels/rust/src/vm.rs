//! A small interpreter: a stack machine with 16-bit words, eight variables and a byte code
//! of eleven instructions, running a loop of 250 rounds.

/// Stops; the result is the top of the stack.
pub const HALT: u8 = 0;
/// Pushes the next two bytes (low first).
pub const PUSH: u8 = 1;
/// Pushes the variable the next byte names.
pub const LOAD: u8 = 2;
/// Pops into the variable the next byte names.
pub const STORE: u8 = 3;
/// Pops two and pushes their sum (wrapping, as are the next two).
pub const ADD: u8 = 4;
/// Pops b, then a, and pushes a - b.
pub const SUB: u8 = 5;
/// Pops two and pushes their product.
pub const MUL: u8 = 6;
/// Pops two and pushes their exclusive or.
pub const XOR: u8 = 7;
/// Pushes the top again.
pub const DUP: u8 = 8;
/// Pops, and jumps to the address in the next two bytes unless it was 0.
pub const JNZ: u8 = 9;
/// Jumps to the address in the next two bytes.
pub const JMP: u8 = 10;

/// The program: a Fibonacci-like walk with the counter mixed in, then a * b.
pub const PROGRAM: [u8; 36] = [
    LOAD, 1, LOAD, 2, ADD, STORE, 3, // t = a + b
    LOAD, 2, STORE, 1, // a = b
    LOAD, 3, LOAD, 0, XOR, STORE, 2, // b = t ^ n
    LOAD, 0, PUSH, 1, 0, SUB, DUP, STORE, 0, // n -= 1
    JNZ, 0, 0, // while n != 0
    LOAD, 1, LOAD, 2, MUL, HALT,
];

/// Why a program stopped before its `HALT`.
#[derive(Debug, PartialEq, Eq)]
pub enum Fault {
    /// An instruction the machine does not know.
    BadOpcode(u8),
    /// The program counter or an operand ran past the code.
    OutOfCode,
    /// A variable number above 7.
    BadVariable(u8),
    /// A push onto a full stack.
    Overflow,
    /// A pop from an empty stack.
    Underflow,
}

/// The machine's stack.
struct Stack {
    items: [u16; 16],
    len: usize,
}

impl Stack {
    fn push(&mut self, value: u16) -> Result<(), Fault> {
        let slot = self.items.get_mut(self.len).ok_or(Fault::Overflow)?;
        *slot = value;
        self.len += 1;
        Ok(())
    }

    fn pop(&mut self) -> Result<u16, Fault> {
        self.len = self.len.checked_sub(1).ok_or(Fault::Underflow)?;
        Ok(self.items[self.len])
    }
}

/// Runs `code` on `vars`: the top of the stack at `HALT` and the instructions run.
pub fn execute(code: &[u8], vars: &mut [u16; 8]) -> Result<(u16, u16), Fault> {
    let mut stack = Stack { items: [0; 16], len: 0 };
    let mut pc = 0;
    let mut steps = 0u16;
    let byte = |at: usize| code.get(at).copied().ok_or(Fault::OutOfCode);
    let word = |at: usize| Ok(u16::from_le_bytes([byte(at)?, byte(at + 1)?]));
    let var = |n: u8| if n < 8 { Ok(usize::from(n)) } else { Err(Fault::BadVariable(n)) };
    loop {
        let op = byte(pc)?;
        pc += 1;
        steps = steps.wrapping_add(1);
        match op {
            HALT => return Ok((stack.pop()?, steps)),
            PUSH => {
                stack.push(word(pc)?)?;
                pc += 2;
            }
            LOAD => {
                stack.push(vars[var(byte(pc)?)?])?;
                pc += 1;
            }
            STORE => {
                vars[var(byte(pc)?)?] = stack.pop()?;
                pc += 1;
            }
            ADD | SUB | MUL | XOR => {
                let b = stack.pop()?;
                let a = stack.pop()?;
                stack.push(match op {
                    ADD => a.wrapping_add(b),
                    SUB => a.wrapping_sub(b),
                    MUL => a.wrapping_mul(b),
                    _ => a ^ b,
                })?;
            }
            DUP => {
                let a = stack.pop()?;
                stack.push(a)?;
                stack.push(a)?;
            }
            JNZ => {
                let target = word(pc)?;
                pc = if stack.pop()? != 0 { usize::from(target) } else { pc + 2 };
            }
            JMP => pc = usize::from(word(pc)?),
            _ => return Err(Fault::BadOpcode(op)),
        }
    }
}

/// The kernel: `PROGRAM` from n = 250, a = `seed`, b = 1; the instructions run in the
/// high half, the result in the low (a fault gives its own pattern).
pub fn run(seed: u16) -> u32 {
    let mut vars = [250, seed, 1, 0, 0, 0, 0, 0];
    match execute(&PROGRAM, &mut vars) {
        Ok((result, steps)) => (u32::from(steps) << 16) | u32::from(result),
        Err(_) => 0xFFFF_FFFF,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn it_counts_and_faults() {
        let mut vars = [0; 8];
        assert_eq!(execute(&[PUSH, 7, 0, DUP, ADD, HALT], &mut vars), Ok((14, 4)));
        assert_eq!(execute(&[ADD], &mut vars), Err(Fault::Underflow));
        assert_eq!(execute(&[LOAD, 9], &mut vars), Err(Fault::BadVariable(9)));
        assert_eq!(execute(&[PUSH, 1], &mut vars), Err(Fault::OutOfCode));
        assert_eq!(execute(&[200], &mut vars), Err(Fault::BadOpcode(200)));
        assert_eq!(super::run(1) >> 16, 250 * 16 + 4);
    }
}
