/*
 * Checks rng_happens (chance.c) against Xorshift32::happens: draws CHANCE_DRAWS times from
 * the seed at $0B04, cycling through the chances below, and leaves the answers (one byte
 * each, 0 or 1) for emulator-tests/tests/cc65.rs. Same mailbox as bench.c: $0B14 the
 * address of the answers, $0B16 their count, $0B18 the generator's next word.
 */
#include <stdint.h>

#include "rules.h"

#define CHANCE_DRAWS 512

struct mailbox {
    uint8_t phase;
    uint8_t unused1[3];
    uint32_t seed;
    uint8_t unused2[12];
    uint16_t answers;
    uint16_t count;
    uint32_t next_word;
};

#define MAILBOX ((volatile struct mailbox *)0x0B00)
#define DEBUG_CARTRIDGE (*(volatile uint8_t *)0xD7FF)

/* Chance::NEVER, the smallest, a half, the largest below ALWAYS, ALWAYS, and two odd ones;
   the same list is in tests/cc65.rs. */
static const uint32_t chances[8] = { 0, 1, 32768UL, 65535UL, 65536UL, 12345, 50000UL, 40000UL };

static uint8_t answers[CHANCE_DRAWS];

int main(void)
{
    uint16_t i;

    rng_seed(MAILBOX->seed);
    for (i = 0; i < CHANCE_DRAWS; ++i) {
        answers[i] = rng_happens(chances[i & 7]);
    }
    MAILBOX->answers = (uint16_t)answers;
    MAILBOX->count = CHANCE_DRAWS;
    MAILBOX->next_word = rng_next();
    DEBUG_CARTRIDGE = 0;
    for (;;) {
    }
    return 0;
}
