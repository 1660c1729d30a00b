/* A cell grid: Conway's Game of Life on a 32 x 20 torus (../rust/src/life.rs). */
#include <stdint.h>

#include "kernel.h"

#define W 32
#define H 20

static uint16_t rng_state;

static uint16_t rng_next(void)
{
    rng_state ^= rng_state << 7;
    rng_state ^= rng_state >> 9;
    rng_state ^= rng_state << 8;
    return rng_state;
}

static uint8_t a[H][W];
static uint8_t b[H][W];

/* Writes the generation after from into to; the edges wrap round. */
static void step(uint8_t from[H][W], uint8_t to[H][W])
{
    uint8_t x, y, up, down, left, right, n;

    for (y = 0; y < H; ++y) {
        up = (y + H - 1) % H;
        down = (y + 1) % H;
        for (x = 0; x < W; ++x) {
            left = (x + W - 1) % W;
            right = (x + 1) % W;
            n = from[up][left] + from[up][x] + from[up][right] + from[y][left] + from[y][right]
                + from[down][left] + from[down][x] + from[down][right];
            to[y][x] = n == 3 || (n == 2 && from[y][x] == 1);
        }
    }
}

uint32_t kernel(uint16_t seed)
{
    uint8_t x, y, i;
    uint16_t low = 0;
    uint16_t high = 0;
    uint32_t population = 0;

    rng_state = seed ? seed : 1;
    for (y = 0; y < H; ++y) {
        for (x = 0; x < W; ++x) {
            a[y][x] = (rng_next() & 3) == 0;
        }
    }
    for (i = 0; i < 2; ++i) {
        step(a, b);
        step(b, a);
    }
    for (y = 0; y < H; ++y) {
        for (x = 0; x < W; ++x) {
            low += a[y][x];
            high += low;
            population += a[y][x];
        }
    }
    return (((uint32_t)high << 16) | low) ^ population;
}
