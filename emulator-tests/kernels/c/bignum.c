/* Bignum arithmetic: n! in base-256 limbs and its decimal digits (../rust/src/bignum.rs). */
#include <stdint.h>

#include "kernel.h"

#define LIMBS 50

/* An unsigned number of up to LIMBS bytes, least significant first. */
struct biguint {
    uint8_t limbs[LIMBS];
    uint8_t len;
};

static struct biguint f;

static void big_mul_small(struct biguint *x, uint8_t m)
{
    uint16_t carry = 0;
    uint16_t p;
    uint8_t i;

    for (i = 0; i < x->len; ++i) {
        p = (uint16_t)x->limbs[i] * m + carry;
        x->limbs[i] = (uint8_t)p;
        carry = p >> 8;
    }
    if (carry != 0) {
        x->limbs[x->len++] = (uint8_t)carry;
    }
}

/* Divides x by d and returns the remainder. */
static uint8_t big_div_small(struct biguint *x, uint8_t d)
{
    uint16_t rem = 0;
    uint16_t cur;
    uint8_t i = x->len;

    while (i > 0) {
        --i;
        cur = (rem << 8) | x->limbs[i];
        x->limbs[i] = cur / d;
        rem = cur % d;
    }
    while (x->len > 0 && x->limbs[x->len - 1] == 0) {
        --x->len;
    }
    return (uint8_t)rem;
}

uint32_t kernel(uint16_t seed)
{
    uint8_t n = 60 + seed % 8;
    uint8_t k;
    uint32_t digits = 0;
    uint32_t digit_sum = 0;

    f.limbs[0] = 1;
    f.len = 1;
    for (k = 2; k <= n; ++k) {
        big_mul_small(&f, k);
    }
    while (f.len != 0) {
        digit_sum += big_div_small(&f, 10);
        ++digits;
    }
    return (digits << 16) | digit_sum;
}
