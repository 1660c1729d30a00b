/* A small interpreter: a 16-bit stack machine (../rust/src/vm.rs). */
#include <stdint.h>

#include "kernel.h"

enum { HALT, PUSH, LOAD, STORE, ADD, SUB, MUL, XOR, DUP, JNZ, JMP };

/* What execute returns besides OK. */
enum { OK, BAD_OPCODE, OUT_OF_CODE, BAD_VARIABLE, OVERFLOW, UNDERFLOW };

#define STACK 16

static const uint8_t program[] = {
    LOAD, 1, LOAD, 2, ADD, STORE, 3,        /* t = a + b */
    LOAD, 2, STORE, 1,                      /* a = b */
    LOAD, 3, LOAD, 0, XOR, STORE, 2,        /* b = t ^ n */
    LOAD, 0, PUSH, 1, 0, SUB, DUP, STORE, 0, /* n -= 1 */
    JNZ, 0, 0,                              /* while n != 0 */
    LOAD, 1, LOAD, 2, MUL, HALT,
};

static uint16_t result;
static uint16_t steps;

/* Runs code[0..len) on vars[8]; OK with the top of the stack at HALT in result and the
   instructions run in steps, or why it stopped. */
static uint8_t execute(const uint8_t *code, uint16_t len, uint16_t *vars)
{
    uint16_t stack[STACK];
    uint8_t sp = 0;
    uint16_t pc = 0;
    uint16_t a, b;
    uint8_t op, v;

    steps = 0;
    for (;;) {
        if (pc >= len) {
            return OUT_OF_CODE;
        }
        op = code[pc++];
        ++steps;
        switch (op) {
        case HALT:
            if (sp == 0) {
                return UNDERFLOW;
            }
            result = stack[--sp];
            return OK;
        case PUSH:
            if (pc + 2 > len) {
                return OUT_OF_CODE;
            }
            if (sp == STACK) {
                return OVERFLOW;
            }
            stack[sp++] = code[pc] | (code[pc + 1] << 8);
            pc += 2;
            break;
        case LOAD:
        case STORE:
            if (pc >= len) {
                return OUT_OF_CODE;
            }
            v = code[pc++];
            if (v >= 8) {
                return BAD_VARIABLE;
            }
            if (op == LOAD) {
                if (sp == STACK) {
                    return OVERFLOW;
                }
                stack[sp++] = vars[v];
            } else {
                if (sp == 0) {
                    return UNDERFLOW;
                }
                vars[v] = stack[--sp];
            }
            break;
        case ADD:
        case SUB:
        case MUL:
        case XOR:
            if (sp < 2) {
                return UNDERFLOW;
            }
            b = stack[--sp];
            a = stack[--sp];
            switch (op) {
            case ADD:
                a += b;
                break;
            case SUB:
                a -= b;
                break;
            case MUL:
                a *= b;
                break;
            default:
                a ^= b;
                break;
            }
            stack[sp++] = a;
            break;
        case DUP:
            if (sp == 0) {
                return UNDERFLOW;
            }
            if (sp == STACK) {
                return OVERFLOW;
            }
            stack[sp] = stack[sp - 1];
            ++sp;
            break;
        case JNZ:
        case JMP:
            if (pc + 2 > len) {
                return OUT_OF_CODE;
            }
            a = code[pc] | (code[pc + 1] << 8);
            if (op == JMP) {
                pc = a;
                break;
            }
            if (sp == 0) {
                return UNDERFLOW;
            }
            pc = stack[--sp] != 0 ? a : pc + 2;
            break;
        default:
            return BAD_OPCODE;
        }
    }
}

uint32_t kernel(uint16_t seed)
{
    uint16_t vars[8] = { 250, 0, 1, 0, 0, 0, 0, 0 };

    vars[1] = seed;
    if (execute(program, sizeof program, vars) != OK) {
        return 0xFFFFFFFFUL;
    }
    return ((uint32_t)steps << 16) | result;
}
