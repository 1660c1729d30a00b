/* Text encoding: 190 bytes to Base64 and back (../rust/src/base64.rs). */
#include <stdint.h>
#include <string.h>

#include "ascii.h"
#include "kernel.h"

#define N 190
#define TEXT ((N + 2) / 3 * 4)

static const char alphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

static uint16_t rng_state;

static uint16_t rng_next(void)
{
    rng_state ^= rng_state << 7;
    rng_state ^= rng_state >> 9;
    rng_state ^= rng_state << 8;
    return rng_state;
}

static uint8_t data[N];
static uint8_t text[TEXT];
static uint8_t back[N];

/* Encodes in[0..len) into out; the characters written. */
static uint16_t encode(const uint8_t *in, uint16_t len, uint8_t *out)
{
    uint16_t i;
    uint16_t o = 0;
    uint8_t b0, b1, b2;

    for (i = 0; i < len; i += 3) {
        b0 = in[i];
        b1 = i + 1 < len ? in[i + 1] : 0;
        b2 = i + 2 < len ? in[i + 2] : 0;
        out[o] = alphabet[b0 >> 2];
        out[o + 1] = alphabet[((b0 & 3) << 4) | (b1 >> 4)];
        out[o + 2] = i + 1 < len ? alphabet[((b1 & 15) << 2) | (b2 >> 6)] : '=';
        out[o + 3] = i + 2 < len ? alphabet[b2 & 63] : '=';
        o += 4;
    }
    return o;
}

/* The value of a Base64 digit, or -1. */
static int8_t value(uint8_t c)
{
    if (c >= 'A' && c <= 'Z') {
        return c - 'A';
    }
    if (c >= 'a' && c <= 'z') {
        return c - 'a' + 26;
    }
    if (c >= '0' && c <= '9') {
        return c - '0' + 52;
    }
    if (c == '+') {
        return 62;
    }
    if (c == '/') {
        return 63;
    }
    return -1;
}

/* Decodes text[0..len) into out; the bytes written, or -1 for text that is not Base64. */
static int16_t decode(const uint8_t *text, uint16_t len, uint8_t *out)
{
    uint16_t i;
    uint16_t o = 0;
    int8_t a, b, c, d;

    if (len % 4 != 0) {
        return -1;
    }
    for (i = 0; i < len; i += 4) {
        a = value(text[i]);
        b = value(text[i + 1]);
        if (a < 0 || b < 0) {
            return -1;
        }
        out[o++] = (a << 2) | (b >> 4);
        if (text[i + 2] == '=') {
            break;
        }
        c = value(text[i + 2]);
        if (c < 0) {
            return -1;
        }
        out[o++] = (b << 4) | (c >> 2);
        if (text[i + 3] == '=') {
            break;
        }
        d = value(text[i + 3]);
        if (d < 0) {
            return -1;
        }
        out[o++] = (c << 6) | d;
    }
    return o;
}

uint32_t kernel(uint16_t seed)
{
    uint16_t i, len;
    uint8_t same;
    uint16_t low = 0;
    uint16_t high = 0;

    rng_state = seed ? seed : 1;
    for (i = 0; i < N; ++i) {
        data[i] = (uint8_t)rng_next();
    }
    len = encode(data, N, text);
    same = decode(text, len, back) == N && memcmp(back, data, N) == 0;
    for (i = 0; i < len; ++i) {
        low += text[i];
        high += low;
    }
    return (((uint32_t)high << 16) | low) ^ (same ? 0 : 0x80000000UL);
}
