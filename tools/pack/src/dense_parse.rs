//! The packer of the dense format: the fewest bits for a block of bytes, nearly.
//!
//! Who uses it: `bac prg`'s `packer = "dense"` setting, for a program that would rather
//! load a fifth fewer bytes than decode fast. The game does not: its files are in the
//! byte-aligned format, since the dense decoder's work between the burst load's bytes held
//! the drive up (docs/disk-and-loading.md#tried-and-left-out). The tests keep it working
//! (`tools/pack/tests`, the loader's stage tests, the harness's `packed::`).
//!
//! A dynamic program runs forward over the positions with two states at each, "the last
//! token was literals" and "the last token was a copy or repeat", since the format's flag
//! bits and its repeat token depend on that. Each state keeps its cheapest way in and the
//! distance that way leaves for a repeat. From every position it tries literal runs of 1
//! to [`MAX_RUN`] bytes, a copy of every length from the nearest earlier place that gives
//! it (a farther one never costs fewer bits), found through a hash chain of two-byte
//! prefixes ([`CHAIN_LIMIT`] places at most), and a repeat of every length the state's
//! distance gives; a run of literals also grows by a byte from the cheapest run into a
//! position. Only one distance and one run are kept per state, so a repeat or a run the
//! cheapest way in does not set up is not seen: that is the "nearly".
//!
//! Guarantees: [`crate::dense::unpack`] of the result gives the input back (the tests
//! check it on code, text, noise and runs).

use crate::bits::gamma_bits;
use crate::dense::{MAX_DISTANCE, MAX_LEN, Token, copy_bits, write};

/// Longest literal run tried from a copy's end; longer runs grow a byte at a time from
/// the cheapest shorter one.
pub const MAX_RUN: usize = 32;
/// Earlier places with the same two bytes tried for a copy, nearest first.
pub const CHAIN_LIMIT: usize = 512;
/// Copies longer than this are tried at their full length only, so a long run of one
/// byte does not make the parse quadratic.
const SHORT_LEN: usize = 256;

const NONE: u32 = u32::MAX;

/// How a state was reached: from which position and state, by which token.
#[derive(Clone, Copy)]
struct Way {
    cost: u32,
    from: u32,
    from_literals: bool,
    token: Token,
    /// The distance a repeat after this state takes.
    distance: u32,
}

const UNREACHED: Way =
    Way { cost: NONE, from: 0, from_literals: false, token: Token::Literals { len: 1 }, distance: 1 };

fn common(data: &[u8], a: usize, b: usize) -> usize {
    let max = MAX_LEN.min(data.len() - a);
    data[a..a + max].iter().zip(&data[b..]).take_while(|(x, y)| x == y).count()
}

fn relax(slot: &mut Way, way: Way) {
    if way.cost < slot.cost {
        *slot = way;
    }
}

/// The tokens of a short stream for `data` (empty for empty data).
pub fn tokens(data: &[u8]) -> Vec<Token> {
    let n = data.len();
    if n == 0 {
        return Vec::new();
    }
    // lit[i]: the cheapest way to have written data[..i] ending with literals; cop[i] the
    // same ending with a copy or repeat. cop[0] is the start: literals follow it, no flag.
    let mut lit = vec![UNREACHED; n + 1];
    let mut cop = vec![UNREACHED; n + 1];
    cop[0] = Way { cost: 0, ..UNREACHED };
    let mut head = vec![NONE; 1 << 16];
    let mut prev = vec![NONE; n];
    for i in 0..n {
        let key = |j: usize| usize::from(data[j]) << 8 | usize::from(data[j + 1]);
        // Literal runs start from a copy (or the start).
        let c = cop[i];
        if c.cost != NONE {
            let flag = u32::from(i > 0);
            for len in 1..=MAX_RUN.min(n - i) {
                let bits = (gamma_bits(len) + 8 * len) as u32;
                let way = Way {
                    cost: c.cost + flag + bits,
                    from: i as u32,
                    from_literals: false,
                    token: Token::Literals { len },
                    distance: c.distance,
                };
                relax(&mut lit[i + len], way);
            }
        }
        // A run that reached here goes on by a byte: its count's code grows only at
        // powers of two, so this finds long runs (noise, tables) that no copy breaks,
        // which the runs tried from each copy above do not reach.
        let l = lit[i];
        if let (true, Token::Literals { len }) = (l.cost != NONE, l.token)
            && len < MAX_LEN
        {
            let grow = (8 + gamma_bits(len + 1) - gamma_bits(len)) as u32;
            relax(&mut lit[i + 1], Way { cost: l.cost + grow, token: Token::Literals { len: len + 1 }, ..l });
        }
        // A repeat follows literals only.
        let l = lit[i];
        if l.cost != NONE && (l.distance as usize) <= i {
            let longest = common(data, i, i - l.distance as usize);
            for len in repeat_lengths(longest) {
                let way = Way {
                    cost: l.cost + 1 + gamma_bits(len) as u32,
                    from: i as u32,
                    from_literals: true,
                    token: Token::Repeat { len },
                    distance: l.distance,
                };
                relax(&mut cop[i + len], way);
            }
        }
        // Copies, from either state: the nearest place for every length.
        if i + 2 <= n {
            let (mut best_len, mut j) = (1usize, head[key(i)]);
            let mut tried = 0;
            while j != NONE && i - (j as usize) <= MAX_DISTANCE && tried < CHAIN_LIMIT {
                let distance = i - j as usize;
                let len = common(data, i, j as usize);
                if len > best_len {
                    for l in copy_lengths(best_len + 1, len) {
                        for (from, from_literals) in [(lit[i], true), (cop[i], false)] {
                            if from.cost == NONE || (i == 0) {
                                continue;
                            }
                            let way = Way {
                                cost: from.cost + 1 + copy_bits(l, distance) as u32,
                                from: i as u32,
                                from_literals,
                                token: Token::Copy { len: l, distance },
                                distance: distance as u32,
                            };
                            relax(&mut cop[i + l], way);
                        }
                    }
                    best_len = len;
                    // A farther place costs more bits, and past SHORT_LEN only the
                    // longest length is tried: once that long, the nearest place wins.
                    if i + len == n || len > SHORT_LEN {
                        break;
                    }
                }
                j = prev[j as usize];
                tried += 1;
            }
            prev[i] = head[key(i)];
            head[key(i)] = i as u32;
        }
    }
    // Back from the cheaper end.
    let mut at_literals = lit[n].cost <= cop[n].cost;
    let mut i = n;
    let mut out = Vec::new();
    while i > 0 {
        let way = if at_literals { lit[i] } else { cop[i] };
        out.push(way.token);
        i = way.from as usize;
        at_literals = way.from_literals;
    }
    out.reverse();
    out
}

/// The lengths worth trying for a repeat that could run `longest` bytes.
fn repeat_lengths(longest: usize) -> impl Iterator<Item = usize> {
    let short = longest.min(SHORT_LEN);
    (1..=short).chain((longest > SHORT_LEN).then_some(longest))
}

/// The lengths worth trying for a copy from `from` to `to` bytes (2 at least).
fn copy_lengths(from: usize, to: usize) -> impl Iterator<Item = usize> {
    let from = from.max(2);
    let short = to.min(SHORT_LEN);
    (from..=short).chain((to > SHORT_LEN && to >= from).then_some(to))
}

/// Packs `data` into a dense stream.
pub fn pack(data: &[u8]) -> Vec<u8> {
    write(data, &tokens(data))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dense::unpack;

    fn round_trip(data: &[u8]) -> usize {
        let stream = pack(data);
        assert_eq!(unpack(&stream, data.len()).unwrap().out, data);
        stream.len()
    }

    #[test]
    fn runs_text_and_noise_come_back() {
        assert_eq!(round_trip(&[]), 0);
        round_trip(b"a");
        assert!(round_trip(&[0u8; 5000]) < 16);
        let text = b"THE BANKER DRAWS ON 3 AGAINST 0. THE BANKER STANDS ON 7. ".repeat(20);
        assert!(round_trip(&text) < text.len() / 8);
        let mut x = 0x1234_5678u32;
        let noise: Vec<u8> = (0..3000)
            .map(|_| {
                x ^= x << 13;
                x ^= x >> 17;
                x ^= x << 5;
                x as u8
            })
            .collect();
        assert!(round_trip(&noise) <= noise.len() + noise.len() / 64 + 4);
    }

    #[test]
    fn a_repeat_is_used_where_it_saves_bits() {
        // Two-byte records that differ in one byte: after each literal, the same distance.
        let data: Vec<u8> = (0..200u8).flat_map(|k| [0x91, k, 0x0E, 0x94]).collect();
        let tokens = tokens(&data);
        assert!(tokens.iter().any(|t| matches!(t, Token::Repeat { .. })), "{tokens:?}");
        round_trip(&data);
    }
}
