//! The global allocator: dlmalloc, as the standard library uses on wasm32, over memory grown by an
//! eighth of its size at a time instead of by what each request needs.
//!
//! Each `memory.grow` costs the JS engine a fixed ~0.5 ms once the memory is past ~64 MiB (V8
//! detaches the old buffer and re-accounts the heap; measured in Node 20: 7 983 one-page grows to
//! 500 MiB take 4.4 s, 499 sixteen-page grows 0.14 s). With dlmalloc's page-at-a-time growth a run
//! that stores a thousand events spent more time growing memory than running.

use std::alloc::{GlobalAlloc, Layout};
use std::arch::wasm32;
use std::cell::UnsafeCell;
use std::ptr;

use dlmalloc::{Allocator, Dlmalloc};

const PAGE: usize = 64 * 1024;
/// The most memory grown ahead of need at once.
const MAX_STEP: usize = 16 * 1024 * 1024;

/// Wasm pages for dlmalloc, at least an eighth of the current memory at a time. (The few KiB the
/// linker leaves between the data and the first page boundary go unused.)
struct Pages;

// SAFETY: `alloc` hands out only pages `memory.grow` has just added, never returned or moved.
unsafe impl Allocator for Pages {
    fn alloc(&self, size: usize) -> (*mut u8, usize, u32) {
        let step = (wasm32::memory_size(0) * PAGE / 8).clamp(PAGE, MAX_STEP);
        // Near the 4 GiB ceiling only the exact request may still fit.
        for bytes in [size.max(step), size] {
            let pages = bytes.div_ceil(PAGE);
            let first = wasm32::memory_grow(0, pages);
            if first != usize::MAX {
                let (base, len) = (first * PAGE, pages * PAGE);
                // A region ending at the very top of the address space would wrap to 0.
                let len = if base.wrapping_add(len) == 0 { len - 16 } else { len };
                return (base as *mut u8, len, 0);
            }
        }
        (ptr::null_mut(), 0, 0)
    }

    fn remap(&self, _ptr: *mut u8, _old: usize, _new: usize, _can_move: bool) -> *mut u8 {
        ptr::null_mut()
    }

    fn free_part(&self, _ptr: *mut u8, _old: usize, _new: usize) -> bool {
        false
    }

    fn free(&self, _ptr: *mut u8, _size: usize) -> bool {
        false
    }

    fn can_release_part(&self, _flags: u32) -> bool {
        false
    }

    fn allocates_zeros(&self) -> bool {
        true
    }

    fn page_size(&self) -> usize {
        PAGE
    }
}

struct Heap(UnsafeCell<Dlmalloc<Pages>>);

// SAFETY: the module is built without threads (no `atomics` target feature), so one thread only
// ever reaches the heap, and no allocator call re-enters another.
unsafe impl Sync for Heap {}

#[global_allocator]
static HEAP: Heap = Heap(UnsafeCell::new(Dlmalloc::new_with_allocator(Pages)));

// SAFETY: each method forwards to dlmalloc with the layout's size and alignment, as std's own
// wasm32 allocator does; the exclusive borrow is sound because nothing else holds the heap.
unsafe impl GlobalAlloc for Heap {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        (*self.0.get()).malloc(layout.size(), layout.align())
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        (*self.0.get()).calloc(layout.size(), layout.align())
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        (*self.0.get()).free(ptr, layout.size(), layout.align())
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        (*self.0.get()).realloc(ptr, layout.size(), layout.align(), new_size)
    }
}
