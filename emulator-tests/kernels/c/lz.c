/* Decompression: an LZ77 stream of literal runs and back references (../rust/src/lz.rs). */
#include <stdint.h>
#include <string.h>

#include "kernel.h"

static uint16_t rng_state;

static uint16_t rng_next(void)
{
    rng_state ^= rng_state << 7;
    rng_state ^= rng_state >> 9;
    rng_state ^= rng_state << 8;
    return rng_state;
}

static uint8_t stream[512];
static uint8_t out[1024];

/* Decodes in[0..len) into out[0..size); the bytes written, or -1 for a stream that ends
   inside a token, reaches back before the start or does not fit. */
static int16_t decompress(const uint8_t *in, uint16_t len, uint8_t *out, uint16_t size)
{
    uint16_t i = 0;
    uint16_t o = 0;
    uint16_t n, offset, k;
    uint8_t token;

    while (i < len) {
        token = in[i++];
        if (token < 0x80) {
            n = token + 1;
            if (i + n > len || o + n > size) {
                return -1;
            }
            memcpy(out + o, in + i, n);
            i += n;
            o += n;
        } else {
            n = (token & 0x7F) + 3;
            if (i >= len) {
                return -1;
            }
            offset = in[i++] + 1;
            if (offset > o || o + n > size) {
                return -1;
            }
            for (k = o; k < o + n; ++k) {
                out[k] = out[k - offset];
            }
            o += n;
        }
    }
    return o;
}

/* A stream from seed that decodes to 900 to 933 bytes; its length. */
static uint16_t make_stream(uint16_t seed)
{
    uint16_t n = 0;
    uint16_t produced = 0;
    uint16_t r, len, offset;
    uint8_t k;

    rng_state = seed ? seed : 1;
    while (produced < 900 && n < 500) {
        r = rng_next();
        if (produced == 0 || (r & 3) == 0) {
            len = 1 + (r >> 8) % 8;
            stream[n++] = len - 1;
            for (k = 0; k < len; ++k) {
                stream[n++] = (uint8_t)rng_next();
            }
            produced += len;
        } else {
            len = 3 + (r >> 8) % 32;
            offset = 1 + rng_next() % (produced < 256 ? produced : 256);
            stream[n] = 0x80 | (len - 3);
            stream[n + 1] = offset - 1;
            n += 2;
            produced += len;
        }
    }
    return n;
}

uint32_t kernel(uint16_t seed)
{
    uint16_t len = make_stream(seed);
    int16_t n = decompress(stream, len, out, sizeof out);
    uint16_t low = 0;
    uint16_t high = 0;
    int16_t i;

    if (n < 0) {
        return 0xFFFFFFFFUL;
    }
    for (i = 0; i < n; ++i) {
        low += out[i];
        high += low;
    }
    return (((uint32_t)high << 16) | low) ^ (uint16_t)n;
}
