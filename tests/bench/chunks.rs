// SPDX-License-Identifier: GPL-2.0-or-later
// chunks: an allocation-heavy pipeline for the benchmark, as a service that
// moves data in buffers does: every message gets a fresh 16 KiB buffer
// (zeroed), a second stage copies it into a buffer of its own size, and a
// third folds it into a checksum and drops both.  Usage: chunks [MESSAGES]
use std::collections::VecDeque;

const CHUNK: usize = 16 * 1024;

fn produce(seed: u64) -> Vec<u8> {
    let mut buf = vec![0u8; CHUNK];
    let mut x = seed;
    for b in buf.iter_mut().step_by(64) {
        x = x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        *b = (x >> 56) as u8;
    }
    buf
}

fn transform(input: &[u8]) -> Vec<u8> {
    let used = 1024 + (input[0] as usize) * 32;
    let mut out = Vec::with_capacity(used);
    out.extend_from_slice(&input[..used]);
    out
}

fn main() {
    let messages: u64 = std::env::args().nth(1).and_then(|a| a.parse().ok()).unwrap_or(20000);
    let mut queue: VecDeque<Vec<u8>> = VecDeque::new();
    let mut sum = 0u64;
    for i in 0..messages {
        queue.push_back(produce(i));
        if queue.len() > 8 {
            let msg = queue.pop_front().unwrap();
            let out = transform(&msg);
            sum = sum.wrapping_add(out.iter().step_by(128).map(|&b| b as u64).sum::<u64>());
        }
    }
    println!("{}", sum);
}
