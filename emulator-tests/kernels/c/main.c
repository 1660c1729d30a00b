/*
 * The program around one kernel: reads the seed from the mailbox, runs the kernel in the
 * timed phase and leaves its result in the mailbox, as ../prg/src/lib.rs does for Rust.
 *
 * Mailbox at $0B00 (emulator-tests/cc65/bench.c's, read by tools/harness/src/kernels.rs):
 *   $0B00  phase, written by the program: 1 while the kernel runs, 0 otherwise
 *   $0B04  seed (u16), written by the harness
 *   $0B10  the kernel's result (u32), written by the program
 * The program ends with a write of 0 to $D7FF, the debug cartridge's exit port.
 */
#include <stdint.h>

#include "kernel.h"

#define PHASE (*(volatile uint8_t *)0x0B00)
#define SEED (*(volatile uint16_t *)0x0B04)
#define RESULT (*(volatile uint32_t *)0x0B10)
#define DEBUG_CARTRIDGE (*(volatile uint8_t *)0xD7FF)

int main(void)
{
    uint16_t seed = SEED;
    uint32_t result;

    PHASE = 1;
    result = kernel(seed);
    PHASE = 0;
    RESULT = result;
    DEBUG_CARTRIDGE = 0;
    for (;;) {
    }
    return 0;
}
