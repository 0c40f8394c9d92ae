// SPDX-License-Identifier: GPL-2.0-or-later
// rust_inline.rs: a release-mode program whose allocations are all made
// by standard-library code the compiler inlines into its callers
// (Vec::with_capacity, collect, format!, HashMap::insert), so that an
// allocation stack names the program's own lines only through inlined
// frames; and a generic function and a closure, whose names the profile
// must show demangled. The table's hasher has fixed keys, so that every
// run reads and writes the same.
use std::collections::hash_map::DefaultHasher;
use std::collections::HashMap;
use std::hash::BuildHasherDefault;

type Table = HashMap<u64, Vec<u64>, BuildHasherDefault<DefaultHasher>>;

#[inline(never)]
fn checksum<T: Copy + Into<u64>>(data: &[T]) -> u64 {
    data.iter().fold(0u64, |h, &x| h.rotate_left(5) ^ x.into().wrapping_mul(0x9e37_79b9_7f4a_7c15))
}

fn build_table(n: u64) -> Table {
    let mut m = Table::default();
    for i in 0..n {
        let v: Vec<u64> = (0..(i % 16)).map(|k| k * i).collect();
        m.insert(i, v);
    }
    m
}

fn names(n: usize) -> Vec<String> {
    let mut out = Vec::with_capacity(n);
    for i in 0..n {
        out.push(format!("item {}", i));
    }
    out
}

fn main() {
    let table = build_table(400);
    let mut total = 0u64;
    for k in 0..400u64 {
        total = total.wrapping_add(checksum(&table[&k]));
    }
    let small: Vec<u32> = (0..100).collect();
    let kept = Box::leak(Box::new(names(50)));
    println!("{} {} {}", total, checksum(&small), kept.len());
}
