/* 32-bit arithmetic: Euclid's greatest common divisor of 40 pairs (../rust/src/gcd.rs). */
#include <stdint.h>

#include "kernel.h"

static uint16_t rng_state;

static uint16_t rng_next(void)
{
    rng_state ^= rng_state << 7;
    rng_state ^= rng_state >> 9;
    rng_state ^= rng_state << 8;
    return rng_state;
}

static uint32_t gcd(uint32_t a, uint32_t b)
{
    uint32_t r;

    while (b != 0) {
        r = a % b;
        a = b;
        b = r;
    }
    return a;
}

/* A 32-bit number from two of the generator's. */
static uint32_t rng_long(void)
{
    uint16_t high = rng_next();
    uint16_t low = rng_next();

    return ((uint32_t)high << 16) | low;
}

uint32_t kernel(uint16_t seed)
{
    uint32_t total = 0;
    uint32_t coprime = 0;
    uint32_t a, b, d;
    uint8_t i;

    rng_state = seed ? seed : 1;
    for (i = 0; i < 40; ++i) {
        a = rng_long();
        b = rng_long();
        b >>= rng_next() % 16;
        d = gcd(a, b);
        total += d;
        if (d == 1) {
            ++coprime;
        }
    }
    return total ^ (coprime << 24);
}
