/* Sorting and searching: Shell sort of 300 numbers, binary search for 100 (../rust/src/sort.rs). */
#include <stdint.h>

#include "kernel.h"

#define N 300

static uint16_t rng_state;

static uint16_t rng_next(void)
{
    rng_state ^= rng_state << 7;
    rng_state ^= rng_state >> 9;
    rng_state ^= rng_state << 8;
    return rng_state;
}

static uint16_t a[N];

/* Shell's method with Knuth's gaps 1, 4, 13, 40, 121... */
static void shell_sort(uint16_t *a, uint16_t n)
{
    uint16_t gap = 1;
    uint16_t i, j, v;

    while (gap < n / 3) {
        gap = 3 * gap + 1;
    }
    while (gap > 0) {
        for (i = gap; i < n; ++i) {
            v = a[i];
            j = i;
            while (j >= gap && a[j - gap] > v) {
                a[j] = a[j - gap];
                j -= gap;
            }
            a[j] = v;
        }
        gap /= 3;
    }
}

/* 1 if key is in the sorted a[0..n). */
static uint8_t binary_search(const uint16_t *a, uint16_t n, uint16_t key)
{
    uint16_t lo = 0;
    uint16_t hi = n;
    uint16_t mid;

    while (lo < hi) {
        mid = lo + (hi - lo) / 2;
        if (a[mid] == key) {
            return 1;
        }
        if (a[mid] < key) {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    return 0;
}

uint32_t kernel(uint16_t seed)
{
    uint16_t i;
    uint32_t found = 0;
    uint16_t weighted = 0;

    rng_state = seed ? seed : 1;
    for (i = 0; i < N; ++i) {
        a[i] = rng_next() % 1024;
    }
    shell_sort(a, N);
    for (i = 0; i < 100; ++i) {
        found += binary_search(a, N, rng_next() % 1024);
    }
    for (i = 0; i < N; ++i) {
        weighted += a[i] * i;
    }
    return (found << 16) | weighted;
}
