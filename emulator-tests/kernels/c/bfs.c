/* Path finding: breadth-first search over a 24 x 16 tile map (../rust/src/bfs.rs). */
#include <stdint.h>
#include <string.h>

#include "kernel.h"

#define W 24
#define H 16
#define UNREACHED 255

static uint16_t rng_state;

static uint16_t rng_next(void)
{
    rng_state ^= rng_state << 7;
    rng_state ^= rng_state >> 9;
    rng_state ^= rng_state << 8;
    return rng_state;
}

static uint8_t walls[W * H];
static uint8_t dist[W * H];
static uint16_t queue[W * H];
static uint16_t head, tail;

static void visit(uint16_t next, uint8_t d)
{
    if (!walls[next] && dist[next] == UNREACHED) {
        dist[next] = d;
        queue[tail++] = next;
    }
}

/* The distances from start over walls, UNREACHED for walls and tiles cut off. */
static void distances(uint16_t start)
{
    uint16_t at;
    uint8_t x, y, d;

    memset(dist, UNREACHED, sizeof dist);
    head = 0;
    tail = 0;
    dist[start] = 0;
    queue[tail++] = start;
    while (head < tail) {
        at = queue[head++];
        x = at % W;
        y = at / W;
        d = dist[at] + 1;
        if (x > 0) {
            visit(at - 1, d);
        }
        if (x + 1 < W) {
            visit(at + 1, d);
        }
        if (y > 0) {
            visit(at - W, d);
        }
        if (y + 1 < H) {
            visit(at + W, d);
        }
    }
}

uint32_t kernel(uint16_t seed)
{
    static const uint16_t starts[4] = { 0, W - 1, W * (H - 1), W * H - 1 };
    uint16_t reached = 0;
    uint16_t total = 0;
    uint16_t i;
    uint8_t s;

    rng_state = seed ? seed : 1;
    for (i = 0; i < W * H; ++i) {
        walls[i] = rng_next() % 3 == 0;
    }
    for (s = 0; s < 4; ++s) {
        walls[starts[s]] = 0;
        distances(starts[s]);
        for (i = 0; i < W * H; ++i) {
            if (dist[i] != UNREACHED) {
                ++reached;
                total += dist[i];
            }
        }
    }
    return ((uint32_t)reached << 16) | total;
}
