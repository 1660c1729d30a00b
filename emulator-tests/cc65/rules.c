/*
 * bac128's rules core in C for cc65: a port of firmware/rules/src/{rng, card, shoe, hand,
 * tableau, coup, payout}.rs (Punto Banco only). See rules.h for which function mirrors
 * which; the Rust crate is the source of truth and emulator-tests/tests/cc65.rs holds the
 * two to the same cards.
 */
#include "rules.h"

/* ---- rng.rs ------------------------------------------------------------------------ */

static uint32_t rng_state;

void rng_seed(uint32_t seed)
{
    /* Zero is xorshift's fixed point: Xorshift32::ZERO_SEED_STATE replaces it. */
    rng_state = seed != 0 ? seed : 0x2545F491UL;
}

uint32_t rng_next(void)
{
    /* On the static itself: cc65 keeps a local long on its software stack. */
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 17;
    rng_state ^= rng_state << 5;
    return rng_state;
}

uint16_t rng_below(uint16_t n)
{
    static uint16_t m;
    static uint8_t shift;
    static uint32_t top;
    static uint16_t candidate;

    if (n <= 1) {
        return 0;
    }
    /* bits = 16 - leading_zeros(n - 1); the candidate is the top `bits` bits of the word,
       taken as the top 16 bits shifted right by 16 - bits, so that cc65 shifts 16 bits
       rather than 32. */
    shift = 16;
    for (m = n - 1; m != 0; m >>= 1) {
        --shift;
    }
    for (;;) {
        /* Two statements on purpose: cc65 2.19 with -O compiles the one-liner
           (uint16_t)(rng_next() >> 16) >> shift into a shift of zero (its optimizer reads
           the high word after the code that clears it), which the differential test
           caught. */
        top = rng_next() >> 16;
        candidate = (uint16_t)top >> shift;
        if (candidate < n) {
            return candidate;
        }
    }
}

/* ---- card.rs ----------------------------------------------------------------------- */

/* Tables because the 6502 has no divider: index % 13 would be a software division. */
const uint8_t card_ranks[CARDS_PER_DECK] = {
    1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13,
    1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13,
    1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13,
    1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13
};

const uint8_t card_points[CARDS_PER_DECK] = {
    1, 2, 3, 4, 5, 6, 7, 8, 9, 0, 0, 0, 0,
    1, 2, 3, 4, 5, 6, 7, 8, 9, 0, 0, 0, 0,
    1, 2, 3, 4, 5, 6, 7, 8, 9, 0, 0, 0, 0,
    1, 2, 3, 4, 5, 6, 7, 8, 9, 0, 0, 0, 0
};

uint8_t card_burn_count(uint8_t card)
{
    uint8_t rank = card < CARDS_PER_DECK ? card_ranks[card] : 0;
    return rank >= 10 ? 10 : rank;
}

/* ---- shoe.rs ----------------------------------------------------------------------- */

/* CutState */
#define CUT_IN_SHOE 0
#define CUT_OUT_THIS_COUP 1
#define CUT_LAST_COUP 2

/* cards[0..next] are dealt or burned, cards[next..len] wait. */
static uint8_t shoe_cards[MAX_CARDS];
static uint16_t shoe_len;
static uint16_t shoe_next;
static uint16_t shoe_coup_start;
static uint8_t shoe_policy;
static uint16_t shoe_threshold;
static uint8_t shoe_burn;
static uint8_t shoe_cut;
static uint8_t shoe_fresh;
uint8_t shoe_news;

uint8_t shoe_init(uint8_t decks, uint8_t policy, uint16_t threshold, uint8_t burn)
{
    uint16_t i;
    uint8_t card;

    if (decks < 1 || decks > MAX_DECKS) {
        return SHOE_ERROR_DECKS;
    }
    shoe_len = (uint16_t)decks * CARDS_PER_DECK;
    /* A threshold at least a coup's worth below the full shoe leaves room to deal. */
    if (policy > END_CUT_CARD || threshold > shoe_len - MAX_CARDS_PER_COUP) {
        return SHOE_ERROR_POLICY;
    }
    /* Fresh decks end to end: Card::in_fresh_decks(i), counted instead of i % 52. */
    card = 0;
    for (i = 0; i < shoe_len; ++i) {
        shoe_cards[i] = card;
        if (++card == CARDS_PER_DECK) {
            card = 0;
        }
    }
    shoe_next = shoe_len;
    shoe_coup_start = shoe_len;
    shoe_policy = policy;
    shoe_threshold = threshold;
    shoe_burn = burn;
    shoe_cut = CUT_IN_SHOE;
    shoe_fresh = 1;
    return SHOE_OK;
}

uint16_t shoe_remaining(void)
{
    return shoe_len - shoe_next;
}

uint8_t shoe_undealt(uint16_t i)
{
    return shoe_cards[shoe_next + i];
}

/* Fisher-Yates over cards[from..shoe_len], from the last position down to the second,
   each partner drawn by rng_below(i + 1): the loop of Shoe::shuffle and Shoe::replenish. */
static void shuffle_from(uint16_t from)
{
    static uint16_t i;
    static uint8_t *cards;
    static uint8_t *other;
    static uint8_t swap;

    if (from >= shoe_len) {
        return;
    }
    cards = shoe_cards + from;
    for (i = (uint16_t)(shoe_len - from - 1); i != 0; --i) {
        other = cards + rng_below(i + 1);
        swap = cards[i];
        cards[i] = *other;
        *other = swap;
    }
}

void shoe_shuffle(void)
{
    shuffle_from(0);
    shoe_next = 0;
    shoe_coup_start = 0;
    shoe_cut = CUT_IN_SHOE;
    shoe_fresh = 0;
}

static uint8_t take(void)
{
    return shoe_cards[shoe_next++];
}

void shoe_begin_coup(void)
{
    uint8_t due;
    uint8_t shown;

    if (shoe_fresh) {
        due = 1;
    } else if (shoe_policy == END_RESHUFFLE_AT) {
        due = shoe_len - shoe_next <= shoe_threshold;
    } else {
        due = shoe_cut == CUT_LAST_COUP;
    }
    if (due) {
        shoe_shuffle();
        shoe_news |= NEWS_SHUFFLED;
        if (shoe_burn == BURN_BY_FIRST_CARD) {
            shown = take();
            shoe_next += card_burn_count(shown);
            shoe_news |= NEWS_BURNED;
        }
    } else if (shoe_cut == CUT_OUT_THIS_COUP) {
        shoe_cut = CUT_LAST_COUP;
    }
    shoe_coup_start = shoe_next;
}

/* Reverses cards[from..to]: three of these make slice::rotate_left. */
static void reverse(uint16_t from, uint16_t to)
{
    uint8_t swap;

    while (from + 1 < to) {
        --to;
        swap = shoe_cards[from];
        shoe_cards[from] = shoe_cards[to];
        shoe_cards[to] = swap;
        ++from;
    }
}

/* Moves the cards of the coup in progress to the front and reshuffles the rest. */
static void replenish(void)
{
    uint16_t on_table = shoe_next - shoe_coup_start;

    /* all.rotate_left(coup_start) */
    reverse(0, shoe_coup_start);
    reverse(shoe_coup_start, shoe_len);
    reverse(0, shoe_len);
    shuffle_from(on_table);
    shoe_coup_start = 0;
    shoe_next = on_table;
    /* The marker went out long ago; the replenished cards finish this coup only. */
    shoe_cut = CUT_LAST_COUP;
}

uint8_t shoe_deal(void)
{
    if (shoe_next == shoe_len) {
        replenish();
        shoe_news |= NEWS_REPLENISHED;
    }
    if (shoe_policy == END_CUT_CARD && shoe_cut == CUT_IN_SHOE && shoe_len - shoe_next <= shoe_threshold) {
        shoe_cut = CUT_OUT_THIS_COUP;
        shoe_news |= NEWS_CUT_CARD_OUT;
    }
    return take();
}

/* ---- hand.rs ----------------------------------------------------------------------- */

static void hand_clear(hand_t *hand)
{
    hand->len = 0;
    hand->total = 0;
}

/* Hand::push. The total stays below 10 and a card adds at most 9, so one subtraction is
   the modulo. The coup never deals a fourth card; like the Rust, refuse one anyway. */
static void hand_push(hand_t *hand, uint8_t card)
{
    uint8_t total;

    if (hand->len == 3) {
        return;
    }
    hand->cards[hand->len++] = card;
    total = hand->total + card_points[card];
    if (total >= 10) {
        total -= 10;
    }
    hand->total = total;
}

/* ---- tableau.rs -------------------------------------------------------------------- */

/* DrawRules::banker's column when the player stood. */
#define PLAYER_STOOD 10

/* PUNTO_BANCO[banker total][player's third card's points, or PLAYER_STOOD]: 1 = draw. */
static const uint8_t punto_banco[8][11] = {
    /* third card: 0  1  2  3  4  5  6  7  8  9  stood */
    /* bank 0 */ { 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1 },
    /* bank 1 */ { 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1 },
    /* bank 2 */ { 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1 },
    /* bank 3 */ { 1, 1, 1, 1, 1, 1, 1, 1, 0, 1, 1 },
    /* bank 4 */ { 0, 0, 1, 1, 1, 1, 1, 1, 0, 0, 1 },
    /* bank 5 */ { 0, 0, 0, 0, 1, 1, 1, 1, 0, 0, 1 },
    /* bank 6 */ { 0, 0, 0, 0, 0, 0, 1, 1, 0, 0, 0 },
    /* bank 7 */ { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0 }
};

/* ---- coup.rs ----------------------------------------------------------------------- */

hand_t coup_player;
hand_t coup_banker;
uint8_t coup_winner;

void coup_play(void)
{
    uint8_t column;

    hand_clear(&coup_player);
    hand_clear(&coup_banker);
    /* Seed 000: "one to the 'Player' first, then to the 'Banker'; 'Player' then 'Banker'
       again". */
    hand_push(&coup_player, shoe_deal());
    hand_push(&coup_banker, shoe_deal());
    hand_push(&coup_player, shoe_deal());
    hand_push(&coup_banker, shoe_deal());
    /* A natural (8 or 9 on two cards) on either side ends the coup. */
    if (coup_player.total < 8 && coup_banker.total < 8) {
        /* DrawRules::PuntoBanco.player: draw on 0-5, stand on 6-7. */
        if (coup_player.total <= 5) {
            hand_push(&coup_player, shoe_deal());
            column = card_points[coup_player.cards[2]];
        } else {
            column = PLAYER_STOOD;
        }
        if (punto_banco[coup_banker.total][column]) {
            hand_push(&coup_banker, shoe_deal());
        }
    }
    if (coup_player.total > coup_banker.total) {
        coup_winner = WINNER_PLAYER;
    } else if (coup_player.total < coup_banker.total) {
        coup_winner = WINNER_BANKER;
    } else {
        coup_winner = WINNER_TIE;
    }
}

/* ---- payout.rs, money.rs ----------------------------------------------------------- */

uint32_t payout_winnings;

/* Money::ratio: stake * win / per, exact, or 0 for "no whole number of cents" (overflow
   or a remainder), which settles as a push. */
static uint8_t ratio(uint32_t stake, uint16_t win, uint16_t per)
{
    uint32_t product;
    uint32_t quotient;

    /* Below 2^16 times a 16-bit factor cannot overflow, and skips a 32-bit division. */
    if (win != 0 && stake > 0xFFFFUL && stake > 0xFFFFFFFFUL / win) {
        return 0;
    }
    product = stake * win;
    quotient = product / per;
    if (quotient * per != product) {
        return 0;
    }
    payout_winnings = quotient;
    return 1;
}

/* PayTable::commission(8).settle: player 1:1, banker 19:20, tie 8:1; player and banker
   bets push on a tie. */
uint8_t payout_settle(uint8_t spot, uint32_t stake_cents)
{
    if (coup_winner == WINNER_TIE) {
        if (spot != SPOT_TIE) {
            return BET_PUSH;
        }
        return ratio(stake_cents, 8, 1) ? BET_WON : BET_PUSH;
    }
    if (spot == SPOT_PLAYER && coup_winner == WINNER_PLAYER) {
        return ratio(stake_cents, 1, 1) ? BET_WON : BET_PUSH;
    }
    if (spot == SPOT_BANKER && coup_winner == WINNER_BANKER) {
        return ratio(stake_cents, 19, 20) ? BET_WON : BET_PUSH;
    }
    return BET_LOST;
}
