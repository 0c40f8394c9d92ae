// SPDX-License-Identifier: GPL-2.0-or-later
// rust_alloc: a Rust program whose #[global_allocator] is its own (the
// bump arena of rust_bump.rs), built in release mode.  The allocator's
// count is written when the process exits, after everything the program
// and its runtime allocate and free.
use std::collections::HashMap;

#[global_allocator]
static ALLOCATOR: rust_bump::Bump = rust_bump::Bump::new();

extern "C" {
    fn atexit(callback: extern "C" fn()) -> i32;
}

extern "C" fn report() {
    ALLOCATOR.report();
}

#[inline(never)]
fn build(n: usize) -> Vec<String> {
    let mut words = Vec::new();
    for i in 0..n {
        words.push(format!("word{}", i * 7919 % 1009));
    }
    words
}

fn main() {
    unsafe { atexit(report) };
    let words = build(200);
    let mut counts: HashMap<&str, usize> = HashMap::new();
    for w in &words {
        *counts.entry(w.as_str()).or_insert(0) += 1;
    }
    let joined: String = words.iter().filter(|w| w.ends_with('7')).cloned().collect();
    let boxed = Box::new([1u64; 64]);
    drop(counts);
    drop(words);
    std::process::exit(if joined.len() + boxed.len() > 0 { 0 } else { 1 });
}
