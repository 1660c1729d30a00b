/* Checksums: CRC-32 through a table built at start, over 512 bytes (../rust/src/crc32.rs). */
#include <stdint.h>

#include "kernel.h"

#define POLY 0xEDB88320UL

static uint16_t rng_state;

static uint16_t rng_next(void)
{
    rng_state ^= rng_state << 7;
    rng_state ^= rng_state >> 9;
    rng_state ^= rng_state << 8;
    return rng_state;
}

static uint32_t table[256];
static uint8_t data[512];

static void make_table(void)
{
    uint16_t i;
    uint8_t k;
    uint32_t c;

    for (i = 0; i < 256; ++i) {
        c = i;
        for (k = 0; k < 8; ++k) {
            c = (c & 1) ? POLY ^ (c >> 1) : c >> 1;
        }
        table[i] = c;
    }
}

static uint32_t crc32(const uint8_t *p, uint16_t len)
{
    uint32_t crc = 0xFFFFFFFFUL;

    while (len--) {
        crc = table[(uint8_t)crc ^ *p++] ^ (crc >> 8);
    }
    return ~crc;
}

uint32_t kernel(uint16_t seed)
{
    uint16_t i;

    make_table();
    rng_state = seed ? seed : 1;
    for (i = 0; i < sizeof data; ++i) {
        data[i] = (uint8_t)rng_next();
    }
    return crc32(data, sizeof data);
}
