/* Number formatting: decimal with thousands commas (../rust/src/format.rs). */
#include <stdint.h>

#include "kernel.h"

#define WIDTH 14

static uint16_t rng_state;

static uint16_t rng_next(void)
{
    rng_state ^= rng_state << 7;
    rng_state ^= rng_state >> 9;
    rng_state ^= rng_state << 8;
    return rng_state;
}

static uint16_t sum_low, sum_high;

static void sum_bytes(const char *p, uint8_t len)
{
    while (len--) {
        sum_low += (uint8_t)*p++;
        sum_high += sum_low;
    }
}

/* Writes n with its commas at the end of buf[WIDTH], a '-' before it if negative, and
   returns where the text starts. */
static char *thousands(uint32_t n, uint8_t negative, char *buf)
{
    char *p = buf + WIDTH;
    uint8_t digits = 0;

    do {
        if (digits == 3) {
            *--p = ',';
            digits = 0;
        }
        *--p = '0' + n % 10;
        n /= 10;
        ++digits;
    } while (n != 0);
    if (negative) {
        *--p = '-';
    }
    return p;
}

static char *format_signed(int16_t n, char *buf)
{
    return n < 0 ? thousands((uint16_t)-n, 1, buf) : thousands(n, 0, buf);
}

uint32_t kernel(uint16_t seed)
{
    char buf[WIDTH];
    char *text;
    uint16_t length = 0;
    uint16_t high, low;
    uint8_t shift, i, len;
    uint32_t n;

    rng_state = seed ? seed : 1;
    sum_low = 0;
    sum_high = 0;
    for (i = 0; i < 48; ++i) {
        high = rng_next();
        low = rng_next();
        shift = rng_next() % 32;
        n = (((uint32_t)high << 16) | low) >> shift;
        text = thousands(n, 0, buf);
        len = buf + WIDTH - text;
        length += len;
        sum_bytes(text, len);
        text = format_signed((int16_t)rng_next(), buf);
        len = buf + WIDTH - text;
        length += len;
        sum_bytes(text, len);
    }
    return (((uint32_t)sum_high << 16) | sum_low) ^ length;
}
