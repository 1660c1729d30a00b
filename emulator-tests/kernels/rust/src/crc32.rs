//! Checksums: CRC-32 (IEEE 802.3, the zip and PNG one) through a 256-entry table built at
//! start, over 512 bytes of input.

use crate::rng::Rng;

/// The reflected polynomial.
const POLY: u32 = 0xEDB8_8320;

/// The table of the CRC of every byte.
pub fn table() -> [u32; 256] {
    let mut table = [0u32; 256];
    for (i, entry) in table.iter_mut().enumerate() {
        let mut c = i as u32;
        for _ in 0..8 {
            c = if c & 1 != 0 { POLY ^ (c >> 1) } else { c >> 1 };
        }
        *entry = c;
    }
    table
}

/// The CRC-32 of `data`.
pub fn crc32(table: &[u32; 256], data: &[u8]) -> u32 {
    let mut crc = !0u32;
    for &b in data {
        crc = table[usize::from(crc as u8 ^ b)] ^ (crc >> 8);
    }
    !crc
}

/// The kernel: the CRC of 512 bytes from `seed`.
pub fn run(seed: u16) -> u32 {
    let table = table();
    let mut rng = Rng::new(seed);
    let mut data = [0u8; 512];
    for b in data.iter_mut() {
        *b = rng.byte();
    }
    crc32(&table, &data)
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_check_value() {
        assert_eq!(super::crc32(&super::table(), b"123456789"), 0xCBF4_3926);
    }
}
