//! Sorting and searching: Shell sort (Knuth's gaps) of 300 numbers, then a binary search
//! for 100 keys.

use crate::rng::Rng;

/// Numbers to sort.
const N: usize = 300;

/// Sorts `a` in place by Shell's method with the gaps 1, 4, 13, 40, 121...
pub fn shell_sort(a: &mut [u16]) {
    let mut gap = 1;
    while gap < a.len() / 3 {
        gap = 3 * gap + 1;
    }
    while gap > 0 {
        for i in gap..a.len() {
            let v = a[i];
            let mut j = i;
            while j >= gap && a[j - gap] > v {
                a[j] = a[j - gap];
                j -= gap;
            }
            a[j] = v;
        }
        gap /= 3;
    }
}

/// The kernel: sorts 300 numbers below 1,024 from `seed`, then looks up 100 more; the keys
/// found in the high half, a weighted sum of the sorted numbers in the low.
pub fn run(seed: u16) -> u32 {
    let mut rng = Rng::new(seed);
    let mut a = [0u16; N];
    for v in a.iter_mut() {
        *v = rng.next_u16() % 1024;
    }
    shell_sort(&mut a);
    let mut found = 0u32;
    for _ in 0..100 {
        let key = rng.next_u16() % 1024;
        if a.binary_search(&key).is_ok() {
            found += 1;
        }
    }
    let mut weighted = 0u16;
    for (i, &v) in a.iter().enumerate() {
        weighted = weighted.wrapping_add(v.wrapping_mul(i as u16));
    }
    (found << 16) | u32::from(weighted)
}

#[cfg(test)]
mod tests {
    #[test]
    fn it_sorts() {
        let mut a = [5, 3, 9, 1, 1, 0, 65535, 7, 2, 8, 4, 6, 3];
        super::shell_sort(&mut a);
        assert!(a.is_sorted());
    }
}
