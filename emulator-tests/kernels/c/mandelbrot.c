/* Fixed-point math: the Mandelbrot set in 4.12 fixed point (../rust/src/mandelbrot.rs). */
#include <stdint.h>

#include "kernel.h"

#define ONE 4096
#define MAX_ITER 16

static uint8_t escape(int16_t cr, int16_t ci)
{
    int16_t zr = 0;
    int16_t zi = 0;
    int32_t zr2, zi2, zri;
    uint8_t n;

    for (n = 0; n < MAX_ITER; ++n) {
        zr2 = ((int32_t)zr * zr) >> 12;
        zi2 = ((int32_t)zi * zi) >> 12;
        if (zr2 + zi2 > 4L * ONE) {
            return n;
        }
        zri = (2L * zr * zi) >> 12;
        zr = (int16_t)(zr2 - zi2 + cr);
        zi = (int16_t)(zri + ci);
    }
    return MAX_ITER;
}

uint32_t kernel(uint16_t seed)
{
    int16_t x0 = -2 * ONE + (int16_t)(seed % 64);
    int16_t y0 = -ONE;
    int16_t x, y, ci, cr;
    uint16_t total = 0;
    uint16_t weighted = 0;
    uint16_t n;

    for (y = 0; y < 8; ++y) {
        ci = y0 + y * (ONE / 4);
        for (x = 0; x < 16; ++x) {
            cr = x0 + x * (ONE * 5 / 32);
            n = escape(cr, ci);
            total += n;
            weighted += n * (y + 1);
        }
    }
    return ((uint32_t)weighted << 16) | total;
}
