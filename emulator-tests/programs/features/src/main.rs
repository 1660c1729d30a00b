//! Exercises what real programs use: `dyn` traits (vtables of code pointers, `icall`),
//! recursion, a large stack frame, slices, iterators, sorting, `core::fmt` with padding,
//! and a panic. Prints one line per check; the host test knows the expected text.
#![no_std]
#![no_main]

use core::fmt::Write;
use core::hint::black_box;

use c128_rt::Console;

trait Shape {
    fn area(&self) -> u32;
    fn name(&self) -> &'static str;
}

struct Rect(u16, u16);
struct Square(u16);

impl Shape for Rect {
    fn area(&self) -> u32 {
        u32::from(self.0) * u32::from(self.1)
    }
    fn name(&self) -> &'static str {
        "rect"
    }
}

impl Shape for Square {
    fn area(&self) -> u32 {
        u32::from(self.0) * u32::from(self.0)
    }
    fn name(&self) -> &'static str {
        "square"
    }
}

/// Recursion deep enough to use a real stack.
#[inline(never)]
fn fib(n: u32) -> u32 {
    if n < 2 { n } else { fib(n - 1) + fib(n - 2) }
}

/// Ackermann-style recursion with many live values per frame.
#[inline(never)]
fn sum_to(n: u16, acc: u32) -> u32 {
    if n == 0 { acc } else { sum_to(black_box(n - 1), acc + u32::from(n)) }
}

/// A 200-byte local array: the frame is reached beyond Y+63.
#[inline(never)]
fn big_frame(seed: u8) -> u32 {
    let mut buf = [0u8; 200];
    for (i, b) in buf.iter_mut().enumerate() {
        *b = (i as u8).wrapping_mul(seed).wrapping_add(7);
    }
    black_box(&mut buf);
    buf.iter().map(|&b| u32::from(b)).sum::<u32>() + u32::from(buf[199]) * 1000
}

/// Many arguments: some are passed on the stack.
#[inline(never)]
fn many(a: u32, b: u32, c: u32, d: u32, e: u32, f: u32, g: u16) -> u32 {
    a.wrapping_mul(3) ^ b.wrapping_add(c) ^ d.rotate_left(5) ^ e.wrapping_sub(f) ^ u32::from(g)
}

#[unsafe(no_mangle)]
pub extern "C" fn main() -> u8 {
    let shapes: [&dyn Shape; 3] = [&Rect(3, 4), &Square(5), &Rect(black_box(100), 250)];
    for s in shapes {
        let _ = writeln!(Console, "{} {}", s.name(), s.area());
    }
    let _ = writeln!(Console, "fib {}", fib(black_box(15)));
    let _ = writeln!(Console, "sum {}", sum_to(black_box(120), 0));
    let _ = writeln!(Console, "frame {}", big_frame(black_box(13)));
    let _ = writeln!(Console, "many {}", many(1, 2, 3, 4, 5, 6, black_box(7)));
    let mut v = [9u16, 3, 7, 1, 8, 2, 6, 5, 4, 0];
    black_box(&mut v).sort_unstable();
    let evens: u16 = v.iter().filter(|&&x| x % 2 == 0).map(|x| x * 10).sum();
    let _ = writeln!(Console, "sorted {:?} evens {}", &v[..4], evens);
    let _ = writeln!(Console, "[{:>6}] [{:<4}] [{:^7}] {:#x}", 42, "ab", "mid", 255);
    let idx = black_box(10usize);
    // Out of bounds: panics, prints the message and exits with code 101.
    let _ = writeln!(Console, "oob {}", v[idx]);
    0
}
