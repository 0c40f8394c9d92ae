// SPDX-License-Identifier: GPL-2.0-or-later
// rust_bump: a global allocator for Rust programs, in a crate of its own as
// allocators are: a bump arena that never calls the C library's malloc, so
// DHAT sees none of its blocks.  Its GlobalAlloc methods are not inlined
// into their callers (small ones would be, across crates too, and an
// inlined call cannot be watched).  It counts what it is asked for as DHAT
// counts (a realloc is one more block of the new size) and report()
// writes the count: bytes and blocks in all, the most live at once (with
// the blocks live then), and what is live.
use std::alloc::{GlobalAlloc, Layout};
use std::cell::UnsafeCell;
use std::io::Write;
use std::os::unix::io::FromRawFd;

const ARENA: usize = 1 << 22;

struct Counts {
    used: usize,
    total: [u64; 2],
    live: [u64; 2],
    peak: [u64; 2],
}

#[repr(align(4096))]
struct Arena(#[allow(dead_code)] [u8; ARENA]);

pub struct Bump {
    arena: UnsafeCell<Arena>,
    counts: UnsafeCell<Counts>,
}

// Its programs have one thread.
unsafe impl Sync for Bump {}

impl Bump {
    pub const fn new() -> Bump {
        Bump {
            arena: UnsafeCell::new(Arena([0; ARENA])),
            counts: UnsafeCell::new(Counts { used: 0, total: [0; 2], live: [0; 2], peak: [0; 2] }),
        }
    }

    unsafe fn counted(&self, size: usize, old: usize, replaces: bool) {
        let c = &mut *self.counts.get();
        c.total[0] += size as u64;
        c.total[1] += 1;
        c.live[0] = c.live[0] + size as u64 - old as u64;
        if !replaces {
            c.live[1] += 1;
        }
        if c.live[0] >= c.peak[0] {
            c.peak = c.live;
        }
    }

    unsafe fn carve(&self, size: usize, align: usize) -> *mut u8 {
        let c = &mut *self.counts.get();
        let start = (c.used + align - 1) & !(align - 1);
        if start + size > ARENA {
            return std::ptr::null_mut();
        }
        c.used = start + size;
        (self.arena.get() as *mut u8).add(start)
    }

    // The count as one line on standard output, written from a buffer on
    // the stack: it allocates nothing.
    pub fn report(&self) {
        let c = unsafe { &*self.counts.get() };
        let mut line = [0u8; 200];
        let mut cursor = &mut line[..];
        let _ = write!(cursor,
                       "{} bytes in {} blocks; peak {} bytes in {} blocks; end {} bytes in {} blocks\n",
                       c.total[0], c.total[1], c.peak[0], c.peak[1], c.live[0], c.live[1]);
        let len = 200 - cursor.len();
        let mut out = unsafe { std::fs::File::from_raw_fd(1) };
        let _ = out.write_all(&line[..len]);
        std::mem::forget(out);
    }
}

unsafe impl GlobalAlloc for Bump {
    #[inline(never)]
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let p = self.carve(layout.size(), layout.align());
        if !p.is_null() {
            self.counted(layout.size(), 0, false);
        }
        p
    }

    #[inline(never)]
    unsafe fn dealloc(&self, _p: *mut u8, layout: Layout) {
        let c = &mut *self.counts.get();
        c.live[0] -= layout.size() as u64;
        c.live[1] -= 1;
    }

    #[inline(never)]
    unsafe fn realloc(&self, p: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let q = self.carve(new_size, layout.align());
        if !q.is_null() {
            std::ptr::copy_nonoverlapping(p, q, layout.size().min(new_size));
            self.counted(new_size, layout.size(), true);
        }
        q
    }
}
