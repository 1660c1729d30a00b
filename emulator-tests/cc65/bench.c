/*
 * The cc65 benchmark and check program: plays Punto Banco with the rules core of rules.c
 * (the C port of firmware/rules) and leaves what happened in memory for the emulator test
 * (emulator-tests/tests/cc65.rs) to compare with the Rust crate run on the host.
 *
 * Mailbox at $0B00 (the cassette buffer, which neither cc65's runtime nor our runs use);
 * all numbers little-endian:
 *
 *   $0B00  phase, written by the program: 0 idle, 1 one shuffle, 2 a coup from its first
 *          card to its settlement. The harness adds the cycles spent in each phase.
 *   $0B04  seed (u32)               } written by the harness
 *   $0B08  coups to play (u16)      } before it starts the
 *   $0B0A  decks, 1-8 (u8)          } program; all zero
 *   $0B0B  end of shoe (u8): 0 reshuffle at, 1 cut card
 *   $0B0C  its threshold (u16)      } means seed 0, no coups
 *   $0B0E  burn (u8): 0 none, 1 by the first card
 *   $0B10  final bankroll in cents (u32)
 *   $0B14  address of the trace (u16)
 *   $0B16  coups in the trace (u16): the first TRACE_MAX are recorded
 *   $0B18  the generator's next word after the last coup (u32)
 *   $0B1C  cards left in the shoe after the last coup (u16)
 *   $0B20  the first 32 cards after the first shuffle (32 x u8)
 *
 * A trace record is 8 bytes per coup: the player's three cards, the banker's three
 * (255 = not drawn), the totals (player << 4 | banker), and winner | bet result << 2 |
 * shoe news << 4 (the NEWS_ bits of rules.h).
 *
 * The program starts with one shuffle (Shoe::shuffle, timed), then plays the coups: each
 * bets `stake` on `spot` before Shoe::begin_coup, the spot cycling player, banker, tie and
 * the stake 1, 2, ..., 7 units (never more than the bankroll), from 100,000 units. It
 * ends with a write of its exit code to $D7FF: 0, or the SHOE_ERROR_ of bad parameters.
 */
#include <stdint.h>

#include "rules.h"

#define TRACE_MAX 1000
#define FIRST_CARDS 32
#define START_BANKROLL 10000000UL
#define UNIT 100

#define PHASE_IDLE 0
#define PHASE_SHUFFLE 1
#define PHASE_COUP 2

#define NO_CARD 255

struct mailbox {
    uint8_t phase;
    uint8_t unused1[3];
    uint32_t seed;
    uint16_t coups;
    uint8_t decks;
    uint8_t policy;
    uint16_t threshold;
    uint8_t burn;
    uint8_t unused2;
    uint32_t bankroll;
    uint16_t trace;
    uint16_t recorded;
    uint32_t next_word;
    uint16_t remaining;
    uint8_t unused3[2];
    uint8_t first_cards[FIRST_CARDS];
};

#define MAILBOX ((volatile struct mailbox *)0x0B00)
#define DEBUG_CARTRIDGE (*(volatile uint8_t *)0xD7FF)

static uint8_t trace[TRACE_MAX * 8];

static void finish(uint8_t code)
{
    DEBUG_CARTRIDGE = code;
    for (;;) {
    }
}

static void record(uint8_t *out, uint8_t bet)
{
    uint8_t i;

    for (i = 0; i < 3; ++i) {
        out[i] = i < coup_player.len ? coup_player.cards[i] : NO_CARD;
        out[3 + i] = i < coup_banker.len ? coup_banker.cards[i] : NO_CARD;
    }
    out[6] = (uint8_t)(coup_player.total << 4) | coup_banker.total;
    out[7] = coup_winner | (uint8_t)(bet << 2) | (uint8_t)(shoe_news << 4);
}

int main(void)
{
    static uint16_t coup;
    static uint16_t coups;
    static uint32_t bankroll;
    static uint32_t stake;
    static uint8_t turn;
    static uint8_t spot;
    static uint8_t bet;
    static uint8_t error;
    static uint8_t *out;
    uint8_t i;

    rng_seed(MAILBOX->seed);
    error = shoe_init(MAILBOX->decks, MAILBOX->policy, MAILBOX->threshold, MAILBOX->burn);
    if (error != SHOE_OK) {
        finish(error);
    }

    MAILBOX->phase = PHASE_SHUFFLE;
    shoe_shuffle();
    MAILBOX->phase = PHASE_IDLE;
    for (i = 0; i < FIRST_CARDS; ++i) {
        MAILBOX->first_cards[i] = shoe_undealt(i);
    }

    bankroll = START_BANKROLL;
    stake = 0;
    turn = SPOT_TIE;
    coups = MAILBOX->coups;
    out = trace;
    for (coup = 0; coup < coups; ++coup) {
        /* The fixed bet pattern, counted rather than computed with % (a division). */
        turn = turn == SPOT_TIE ? SPOT_PLAYER : turn + 1;
        stake = stake == 7 * UNIT ? UNIT : stake + UNIT;
        if (stake <= bankroll) {
            bankroll -= stake;
            spot = turn;
        } else {
            spot = SPOT_NONE;
        }

        shoe_news = 0;
        shoe_begin_coup();
        MAILBOX->phase = PHASE_COUP;
        coup_play();
        if (spot == SPOT_NONE) {
            bet = BET_PUSH + 1;
        } else {
            bet = payout_settle(spot, stake);
            if (bet == BET_WON) {
                bankroll += stake + payout_winnings;
            } else if (bet == BET_PUSH) {
                bankroll += stake;
            }
        }
        MAILBOX->phase = PHASE_IDLE;

        if (coup < TRACE_MAX) {
            record(out, bet);
            out += 8;
        }
    }

    MAILBOX->bankroll = bankroll;
    MAILBOX->trace = (uint16_t)trace;
    MAILBOX->recorded = coups < TRACE_MAX ? coups : TRACE_MAX;
    MAILBOX->next_word = rng_next();
    MAILBOX->remaining = shoe_remaining();
    finish(0);
    return 0;
}
