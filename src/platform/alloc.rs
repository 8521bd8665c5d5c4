//! The global allocator: talc, over wasm memory grown by an eighth of its size at a time.
//!
//! Each `memory.grow` costs the JS engine a fixed ~0.5 ms once the memory is past ~64 MiB (V8
//! detaches the old buffer and re-accounts the heap; measured in Node 20: 7 983 one-page grows to
//! 500 MiB take 4.4 s, 499 sixteen-page grows 0.14 s), so growing by what each request needs makes
//! a run that stores a thousand events spend more time growing memory than running.

use std::alloc::Layout;
use std::arch::wasm32;
use std::ptr::NonNull;

use talc::base::Talc;
use talc::cell::TalcSyncCell;
use talc::source::Source;
use talc::wasm::WasmBinning;

const PAGE: usize = 64 * 1024;
/// The most memory grown ahead of need at once.
const MAX_STEP: usize = 16 * 1024 * 1024;

/// Wasm pages for talc, at least an eighth of the current memory at a time, extending one heap.
#[derive(Debug)]
struct Pages {
    end: Option<NonNull<u8>>,
}

// SAFETY: `acquire` hands talc only pages `memory.grow` has just added, and allocates nothing.
unsafe impl Source for Pages {
    fn acquire<B: talc::base::binning::Binning>(talc: &mut Talc<Self, B>, layout: Layout) -> Result<(), ()> {
        // The request, with a page to spare for talc's headers when it starts a new heap.
        let needed = layout.size() + layout.align() + PAGE;
        let step = (wasm32::memory_size(0) * PAGE / 8).clamp(PAGE, MAX_STEP);
        // Near the 4 GiB ceiling only the exact request may still fit.
        for bytes in [needed.max(step), needed] {
            let pages = bytes.div_ceil(PAGE);
            let first = wasm32::memory_grow(0, pages);
            if first == usize::MAX {
                continue;
            }
            let base = (first * PAGE) as *mut u8;
            let end = base.wrapping_add(pages * PAGE);
            // SAFETY: [base, end) was just added to memory and nothing else uses it; when it follows
            // the heap's end directly the heap is extended over it, otherwise claimed as a new one.
            talc.source.end = match talc.source.end.take() {
                Some(old) if old.as_ptr() == base => Some(unsafe { talc.extend(old, end) }),
                _ => unsafe { talc.claim(base, pages * PAGE) },
            };
            return Ok(());
        }
        Err(())
    }
}

#[global_allocator]
static HEAP: TalcSyncCell<Pages, WasmBinning> = TalcSyncCell::new_wasm(Pages { end: None });
