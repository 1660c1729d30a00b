/* Hashing: FNV-1a words into an open-addressing hash set (../rust/src/fnv.rs). */
#include <stdint.h>

#include "ascii.h"
#include "kernel.h"

#define WORDS 100
#define SLOTS 256

static uint16_t rng_state;

static uint16_t rng_next(void)
{
    rng_state ^= rng_state << 7;
    rng_state ^= rng_state >> 9;
    rng_state ^= rng_state << 8;
    return rng_state;
}

static uint32_t slots[SLOTS];

static uint32_t fnv1a(const uint8_t *p, uint8_t len)
{
    uint32_t hash = 0x811C9DC5UL;

    while (len--) {
        hash ^= *p++;
        hash *= 0x01000193UL;
    }
    return hash;
}

/* Adds hash to the set; 1 if it was not there. 0 marks an empty slot. */
static uint8_t insert(uint32_t hash)
{
    uint16_t i;

    if (hash == 0) {
        hash = 1;
    }
    i = hash % SLOTS;
    for (;;) {
        if (slots[i] == hash) {
            return 0;
        }
        if (slots[i] == 0) {
            slots[i] = hash;
            return 1;
        }
        i = (i + 1) % SLOTS;
    }
}

uint32_t kernel(uint16_t seed)
{
    uint8_t word[5];
    uint8_t len, k, n;
    uint32_t distinct = 0;
    uint32_t mix = 0;
    uint32_t hash;
    uint16_t i;

    rng_state = seed ? seed : 1;
    for (i = 0; i < SLOTS; ++i) {
        slots[i] = 0;
    }
    for (n = 0; n < WORDS; ++n) {
        len = 2 + (uint8_t)rng_next() % 4;
        for (k = 0; k < len; ++k) {
            word[k] = 'a' + (uint8_t)rng_next() % 4;
        }
        hash = fnv1a(word, len);
        mix ^= hash;
        distinct += insert(hash);
    }
    return (distinct << 24) | (mix & 0x00FFFFFFUL);
}
