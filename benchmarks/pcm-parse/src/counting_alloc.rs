//! A global allocator that counts live bytes, so that the benchmark can report how much memory a
//! parse needs at its peak and how much the resulting `ModelFile` keeps.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};

pub struct CountingAlloc;

static CURRENT: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

impl CountingAlloc {
    /// Bytes allocated and not yet freed.
    pub fn current() -> usize {
        CURRENT.load(Relaxed)
    }

    /// The highest `current()` since the last `reset_peak`.
    pub fn peak() -> usize {
        PEAK.load(Relaxed)
    }

    pub fn reset_peak() {
        PEAK.store(CURRENT.load(Relaxed), Relaxed);
    }

    fn added(size: usize) {
        let now = CURRENT.fetch_add(size, Relaxed) + size;
        PEAK.fetch_max(now, Relaxed);
    }

    fn removed(size: usize) {
        CURRENT.fetch_sub(size, Relaxed);
    }
}

// SAFETY: every call is forwarded to `System` unchanged; only the counters are extra.
unsafe impl GlobalAlloc for CountingAlloc {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let p = unsafe { System.alloc(layout) };
        if !p.is_null() {
            Self::added(layout.size());
        }
        p
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        let p = unsafe { System.alloc_zeroed(layout) };
        if !p.is_null() {
            Self::added(layout.size());
        }
        p
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) };
        Self::removed(layout.size());
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let p = unsafe { System.realloc(ptr, layout, new_size) };
        if !p.is_null() {
            // Count the growth first so that the peak sees the new block (a moving realloc briefly
            // holds both blocks; the allocator does not tell us, so that overlap is not counted).
            Self::added(new_size);
            Self::removed(layout.size());
        }
        p
    }
}
