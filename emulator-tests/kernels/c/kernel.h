/*
 * The one function every kernel of the suite defines (see ../README.md): it makes its
 * input from `seed` and returns a checksum of what it computed, the same number as
 * `run(seed)` of the Rust module of the same name in ../rust/src.
 */
#ifndef KERNEL_H
#define KERNEL_H

#include <stdint.h>

uint32_t kernel(uint16_t seed);

#endif
