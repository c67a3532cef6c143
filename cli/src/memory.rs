//! How the process takes memory: mimalloc, keeping what it frees, in
//! ordinary 4 KiB pages until a large function comes.
//!
//! Most runs touch a few MB scattered over many 2 MB regions, where a
//! transparent huge page costs the kernel 2 MB to clear for a few KB used
//! (all real-code files, AArch64: 0.42 s in small pages, 0.56 s in huge
//! ones). One large function touches tens of MB densely, where small pages
//! cost a fault per 4 KiB (a fifth of the run at 20k operations). So huge
//! pages are off from the start and turned on, for the rest of the run,
//! by the first function of [`HUGE_PAGES_FROM`] bytes or more.

use std::sync::atomic::{AtomicBool, Ordering};

/// mimalloc: the legalizer allocates and frees many small vectors per
/// instruction, which the system allocator serves more slowly.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// mimalloc's `mi_option_purge_delay` (the same in its v2 and v3 headers).
const MI_OPTION_PURGE_DELAY: libmimalloc_sys::mi_option_t = 15;

/// The size of a function's text (its YAML document) from which huge
/// pages are used. A function takes 20 to 60 bytes of memory per byte of
/// text, as it needs more or less legalizing, so below this the gain is
/// uneven: 16 % less time on a generated function of 10k operations
/// (555 KB) but 3 % more on Lua's `luaV_execute` for AArch64 (734 KB).
pub const HUGE_PAGES_FROM: usize = 1 << 20;

/// Whether huge pages have been turned on.
static HUGE_PAGES: AtomicBool = AtomicBool::new(false);

/// Sets the process up, first thing in `main`: freed memory is kept in
/// the process instead of handed back to the system (a run is short and
/// its peak is bounded by its largest function, while purging, at exit
/// above all, cost ~6 % of a real-code run in `madvise` calls and page
/// faults).
#[allow(unsafe_code)]
pub fn set_up() {
    // SAFETY: called first in `main`, before any other thread exists;
    // mimalloc reads the option each time it would purge.
    unsafe { libmimalloc_sys::mi_option_set(MI_OPTION_PURGE_DELAY, -1) }
}

/// Turns huge pages off before the Rust runtime first allocates (it
/// does before `main`): a constructor, run after mimalloc's own (which
/// has a priority) and before any allocation.
#[cfg(any(target_os = "linux", target_os = "android"))]
#[allow(unsafe_code)]
#[used]
#[unsafe(link_section = ".init_array")]
static SMALL_PAGES_FIRST: extern "C" fn() = {
    extern "C" fn small_pages_first() {
        set_huge_pages(false);
    }
    small_pages_first
};

/// Turns huge pages on for the rest of the run if `function_bytes`, the
/// size of the function about to be read, is [`HUGE_PAGES_FROM`] or more.
pub fn prepare_for(function_bytes: usize) {
    if function_bytes >= HUGE_PAGES_FROM && !HUGE_PAGES.swap(true, Ordering::Relaxed) {
        set_huge_pages(true);
    }
}

/// Allows or forbids transparent huge pages for the memory the process
/// touches from now on (mimalloc asks for them on all it maps). Where the
/// system says no, the run goes on in small pages.
#[cfg(any(target_os = "linux", target_os = "android"))]
#[allow(unsafe_code)]
fn set_huge_pages(allowed: bool) {
    let disable = libc::c_ulong::from(!allowed);
    // SAFETY: PR_SET_THP_DISABLE takes an integer flag and three zeros,
    // and changes only whether later page faults may map huge pages.
    unsafe { libc::prctl(libc::PR_SET_THP_DISABLE, disable, 0, 0, 0) };
}

#[cfg(not(any(target_os = "linux", target_os = "android")))]
fn set_huge_pages(_allowed: bool) {}
