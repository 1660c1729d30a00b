/*
 * Xorshift32::happens from firmware/rules/src/rng.rs: true with probability
 * draw_in_65536 / 65536 (Chance::ALWAYS is 65536, so the argument needs 32 bits).
 *
 * A file of its own because the benchmark does not link it: Punto Banco never draws a
 * chance, and ld65 links every function of an object file it is given, used or not, so
 * keeping it in rules.c would count bytes the Rust build's linker drops. chance_check.c
 * links it and tests/cc65.rs checks it against the Rust.
 */
#include "rules.h"

uint8_t rng_happens(uint32_t draw_in_65536)
{
    return (rng_next() >> 16) < draw_in_65536;
}
