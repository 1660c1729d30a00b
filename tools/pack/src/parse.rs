//! The packer: the shortest token stream for a block of bytes.
//!
//! For every position it finds the longest copy within one byte's distance (every earlier
//! position up to 256 back is tried) and the longest within two bytes' (a hash chain of the
//! positions that start with the same three bytes, at most [`CHAIN_LIMIT`] of them). Any
//! shorter copy from the same place is as good a token, so a dynamic program from the end
//! of the block, over literal runs of 1 to 128 bytes and those copies cut to every length,
//! gives the fewest bytes the format can say the block in, up to the chain limit.
//!
//! Guarantees: [`crate::unpack`] of the result gives the input back (the tests check it on
//! code, text, noise and runs).

use crate::format::{FAR_DISTANCE, FAR_MAX, FAR_MIN, MAX_LITERALS, NEAR_DISTANCE, NEAR_MAX, NEAR_MIN, Token};

/// Earlier positions with the same first three bytes tried for a far copy, nearest first.
pub const CHAIN_LIMIT: usize = 1024;

/// The longest copies at one position: (length, distance), length 0 for none.
#[derive(Clone, Copy, Default)]
struct Best {
    near: (usize, usize),
    far: (usize, usize),
}

fn common(data: &[u8], a: usize, b: usize, max: usize) -> usize {
    data[a..].iter().zip(&data[b..]).take(max).take_while(|(x, y)| x == y).count()
}

fn hash3(data: &[u8], i: usize) -> usize {
    (usize::from(data[i]) << 16 | usize::from(data[i + 1]) << 8 | usize::from(data[i + 2])) % (1 << 20)
}

/// The longest near and far copy at every position.
fn longest_copies(data: &[u8]) -> Vec<Best> {
    let n = data.len();
    let mut best = vec![Best::default(); n];
    let mut head = vec![usize::MAX; 1 << 20];
    let mut prev = vec![usize::MAX; n];
    for i in 0..n {
        let b = &mut best[i];
        for distance in 1..=NEAR_DISTANCE.min(i) {
            let len = common(data, i, i - distance, NEAR_MAX.min(n - i));
            if len >= NEAR_MIN && len > b.near.0 {
                b.near = (len, distance);
            }
        }
        if i + 3 <= n {
            let h = hash3(data, i);
            let mut j = head[h];
            let mut tried = 0;
            while j != usize::MAX && i - j <= FAR_DISTANCE && tried < CHAIN_LIMIT {
                let len = common(data, i, j, FAR_MAX.min(n - i));
                if len >= FAR_MIN && len > b.far.0 {
                    b.far = (len, i - j);
                }
                if b.far.0 == FAR_MAX.min(n - i) {
                    break;
                }
                j = prev[j];
                tried += 1;
            }
            prev[i] = head[h];
            head[h] = i;
        }
    }
    best
}

/// The tokens of the shortest stream for `data`.
pub fn tokens(data: &[u8]) -> Vec<Token> {
    let n = data.len();
    let best = longest_copies(data);
    // cost[i]: fewest stream bytes for data[i..]; choice[i]: the first token of that.
    let mut cost = vec![usize::MAX; n + 1];
    let mut choice = vec![Token::Literals { len: 1 }; n + 1];
    cost[n] = 0;
    for i in (0..n).rev() {
        let mut consider = |token: Token, len: usize| {
            let c = token.size() + cost[i + len];
            if c < cost[i] {
                cost[i] = c;
                choice[i] = token;
            }
        };
        for len in 1..=MAX_LITERALS.min(n - i) {
            consider(Token::Literals { len }, len);
        }
        let (len, distance) = best[i].near;
        for l in NEAR_MIN..=len {
            consider(Token::Copy { len: l, distance }, l);
        }
        let (len, distance) = best[i].far;
        for l in FAR_MIN..=len {
            consider(Token::Copy { len: l, distance }, l);
        }
    }
    let mut out = Vec::new();
    let mut i = 0;
    while i < n {
        let t = choice[i];
        out.push(t);
        i += match t {
            Token::Literals { len } | Token::Copy { len, .. } => len,
        };
    }
    out
}

/// Writes tokens as a stream, taking their literals from `data`.
pub fn write(data: &[u8], tokens: &[Token]) -> Vec<u8> {
    let mut out = Vec::new();
    let mut i = 0;
    for &t in tokens {
        t.encode(&mut out);
        match t {
            Token::Literals { len } => {
                out.extend_from_slice(&data[i..i + len]);
                i += len;
            }
            Token::Copy { len, .. } => i += len,
        }
    }
    out
}

/// Packs `data` into the shortest stream the format allows (up to the chain limit).
pub fn pack(data: &[u8]) -> Vec<u8> {
    write(data, &tokens(data))
}
