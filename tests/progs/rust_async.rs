// SPDX-License-Identifier: GPL-2.0-or-later
// rust_async.rs: a release-mode request server in miniature, async code run
// by an executor of its own (std only): CONNS connections of REQUESTS
// requests each; every request allocates a PAYLOAD-byte buffer in
// build_payload (vec![0u8; n], standard-library code inlined into it) and
// parses its line with collect(), to_string() and format!, whose
// allocations happen inside standard-library functions that are not
// inlined. Built with `--cfg doubled`, the payload is twice as large: the
// change a CI gate must catch, named at build_payload's line.
use std::collections::HashMap;
use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll, RawWaker, RawWakerVTable, Waker};

pub const CONNS: usize = 15;
pub const REQUESTS: usize = 20;
#[cfg(not(doubled))]
pub const PAYLOAD: usize = 4096;
#[cfg(doubled)]
pub const PAYLOAD: usize = 8192;

fn noop_waker() -> RawWaker {
    fn clone(_: *const ()) -> RawWaker {
        noop_waker()
    }
    fn noop(_: *const ()) {}
    static VTABLE: RawWakerVTable = RawWakerVTable::new(clone, noop, noop, noop);
    RawWaker::new(std::ptr::null(), &VTABLE)
}

// Polls `f` until it is ready: every future here is woken by polling again.
fn block_on<F: Future>(f: F) -> F::Output {
    let waker = unsafe { Waker::from_raw(noop_waker()) };
    let mut cx = Context::from_waker(&waker);
    let mut f = f;
    // Pinned on the stack, as std::pin::pin! does (which Rust 1.63 lacks):
    // f is not moved again while it is polled.
    let mut f = unsafe { Pin::new_unchecked(&mut f) };
    loop {
        if let Poll::Ready(v) = f.as_mut().poll(&mut cx) {
            return v;
        }
    }
}

// Pending once, as a read from a socket would be.
struct YieldOnce(bool);
impl Future for YieldOnce {
    type Output = ();
    fn poll(mut self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<()> {
        if self.0 {
            Poll::Ready(())
        } else {
            self.0 = true;
            Poll::Pending
        }
    }
}

fn build_payload(n: usize) -> Vec<u8> {
    vec![0u8; n]
}

async fn parse_request(line: &str) -> Vec<String> {
    YieldOnce(false).await;
    line.split(' ').map(|s| s.to_string()).collect()
}

async fn handle_request(id: usize, line: &str, stats: &mut HashMap<String, usize>) -> usize {
    let words = parse_request(line).await;
    let key = format!("req-{}-{}", id % 7, words.len());
    *stats.entry(key).or_insert(0) += 1;
    let payload = build_payload(PAYLOAD);
    YieldOnce(false).await;
    payload.len() + words.iter().map(|w| w.len()).sum::<usize>()
}

async fn serve_conn(conn: usize, stats: &mut HashMap<String, usize>) -> usize {
    let mut total = 0;
    for r in 0..REQUESTS {
        let line = format!("GET /item/{} HTTP/1.1 conn {}", r, conn);
        total += handle_request(r, &line, stats).await;
    }
    total
}

fn main() {
    let mut stats = HashMap::new();
    let total = block_on(async {
        let mut t = 0;
        for c in 0..CONNS {
            t += serve_conn(c, &mut stats).await;
        }
        t
    });
    println!("{} {}", total, stats.len());
}
