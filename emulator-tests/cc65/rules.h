/*
 * bac128's rules core in C for cc65: the benchmark peer of the Rust build (issue 3,
 * section 5). This header and rules.c mirror, function for function:
 *
 *   firmware/rules/src/rng.rs      xorshift32 (13, 17, 5), below(n), happens (in chance.c)
 *   firmware/rules/src/card.rs     card index = suit * 13 + rank - 1, rank and points tables
 *   firmware/rules/src/shoe.rs     Shoe::new, shuffle, begin_coup, deal, replenish
 *   firmware/rules/src/hand.rs     Hand::push, total, is_natural
 *   firmware/rules/src/tableau.rs  DrawRules::PuntoBanco (player rule, PUNTO_BANCO table)
 *   firmware/rules/src/coup.rs     the coup: P, B, P, B, naturals, player, banker, winner
 *   firmware/rules/src/payout.rs   PayTable::commission(8).settle, Money::ratio in cents
 *
 * The same seed must give the same cards as the Rust crate: emulator-tests/tests/cc65.rs
 * checks it coup by coup. The Rust crate is the source of truth; change it first.
 *
 * C89 as cc65 compiles it best: one shoe, one generator and one coup as file-scope
 * statics (cc65 reaches a static with absolute addressing, a pointer argument through
 * its software stack), 8- and 16-bit types wherever the values fit, no division on the
 * hot paths.
 */
#ifndef BAC_RULES_H
#define BAC_RULES_H

#include <stdint.h>

/* rng.rs */
void rng_seed(uint32_t seed);
uint32_t rng_next(void);
uint16_t rng_below(uint16_t n);
/* Chance::ALWAYS is 65536: it needs more than 16 bits. */
uint8_t rng_happens(uint32_t draw_in_65536);

/* card.rs: tables by card index 0..51. */
#define CARDS_PER_DECK 52
extern const uint8_t card_ranks[CARDS_PER_DECK];
extern const uint8_t card_points[CARDS_PER_DECK];
uint8_t card_burn_count(uint8_t card);

/* shoe.rs */
#define MAX_DECKS 8
#define MAX_CARDS (MAX_DECKS * CARDS_PER_DECK)
#define MAX_CARDS_PER_COUP 6

/* EndOfShoe */
#define END_RESHUFFLE_AT 0
#define END_CUT_CARD 1

/* Burn */
#define BURN_NONE 0
#define BURN_BY_FIRST_CARD 1

/* ShoeError, as shoe_init's result. */
#define SHOE_OK 0
#define SHOE_ERROR_DECKS 1
#define SHOE_ERROR_POLICY 2

/* ShoeNews, as bits that shoe_begin_coup and shoe_deal set in shoe_news. */
#define NEWS_SHUFFLED 1
#define NEWS_BURNED 2
#define NEWS_CUT_CARD_OUT 4
#define NEWS_REPLENISHED 8

extern uint8_t shoe_news;
uint8_t shoe_init(uint8_t decks, uint8_t policy, uint16_t threshold, uint8_t burn);
void shoe_shuffle(void);
void shoe_begin_coup(void);
uint8_t shoe_deal(void);
uint16_t shoe_remaining(void);
/* The card `i` places after the next one to deal (Shoe::undealt()[i]). */
uint8_t shoe_undealt(uint16_t i);

/* hand.rs */
typedef struct {
    uint8_t cards[3];
    uint8_t len;
    uint8_t total;
} hand_t;

/* coup.rs: Winner */
#define WINNER_PLAYER 0
#define WINNER_BANKER 1
#define WINNER_TIE 2

/* The hands and the winner of the last coup_play (Outcome). */
extern hand_t coup_player;
extern hand_t coup_banker;
extern uint8_t coup_winner;
void coup_play(void);

/* payout.rs: Spot, with SPOT_NONE for no bet. */
#define SPOT_PLAYER 0
#define SPOT_BANKER 1
#define SPOT_TIE 2
#define SPOT_NONE 3

/* BetResult (WonAndStays is Sahara's; the commission table never returns it). */
#define BET_LOST 0
#define BET_WON 1
#define BET_PUSH 2

/* The winnings of the last payout_settle that returned BET_WON, in cents. */
extern uint32_t payout_winnings;
uint8_t payout_settle(uint8_t spot, uint32_t stake_cents);

#endif
