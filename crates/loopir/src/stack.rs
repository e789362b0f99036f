//! Stack growth for recursive walks.
//!
//! IR nests as deep as its producer likes: a million-term sum, a hundred thousand nested
//! loops. Every recursive walk in loopir (printing, parsing, equality, hashing, visitors,
//! mutators and the analyses built on them) wraps its recursive step in [`with_stack`],
//! which moves the walk to a fresh heap-allocated stack segment when the current one runs
//! low, as rustc does with the same crate. Writing each walk with an explicit stack
//! instead would make every one of them much harder to read.
//!
//! A segment is mapped for the walk that needs it and unmapped on its way back, so each
//! walk of very deep IR touches fresh pages, which the kernel faults in and zeroes: about
//! half the time of a pass over a 1,000,000-deep expression on an 8 MiB stack. A program
//! that runs passes over such IR can run them on a thread with a large stack (the `loopir`
//! command uses 1 GiB of address space), where the walks reuse the same pages.

/// Stack headroom (bytes) below which a walk moves to a fresh segment.
pub const RED_ZONE: usize = 64 * 1024;

/// Size of each extra stack segment.
pub const STACK_SEGMENT: usize = 2 * 1024 * 1024;

/// Runs `f` with at least [`RED_ZONE`] bytes of stack, growing the stack on the heap if
/// needed. Call it around the recursive step of any walk whose depth the input decides.
///
/// ```
/// use loopir::stack::with_stack;
///
/// fn depth(n: u64) -> u64 {
///     if n == 0 { 0 } else { with_stack(|| 1 + depth(n - 1)) }
/// }
/// // Far deeper than an 8 MiB thread stack allows without growth.
/// assert_eq!(depth(1_000_000), 1_000_000);
/// ```
pub fn with_stack<R>(f: impl FnOnce() -> R) -> R {
    stacker::maybe_grow(RED_ZONE, STACK_SEGMENT, f)
}

/// Runs `f` with at least `bytes` of stack, growing the stack on the heap (by a segment of
/// `bytes` or [`STACK_SEGMENT`], whichever is larger) if needed. For a step that is not
/// recursive but needs a large frame, such as building a big array on the stack, and may
/// run deep in a walk or on a thread with a small stack; a recursive walk uses
/// [`with_stack`].
///
/// ```
/// use loopir::stack::with_stack_of;
/// let sum = with_stack_of(1 << 20, || [1u8; 512 * 1024].iter().map(|&b| u64::from(b)).sum::<u64>());
/// assert_eq!(sum, 512 * 1024);
/// ```
pub fn with_stack_of<R>(bytes: usize, f: impl FnOnce() -> R) -> R {
    stacker::maybe_grow(bytes, bytes.max(STACK_SEGMENT), f)
}
