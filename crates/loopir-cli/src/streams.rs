//! Standard output and standard error, written so that every failure is seen.
//!
//! Two things in the standard library hide failures from a command-line tool:
//!
//! * Before `main`, the Rust runtime reopens a closed standard stream on `/dev/null` (so
//!   that a file opened later cannot take its descriptor). `loopir fmt FILE >&-` would
//!   write its output into `/dev/null` and exit 0. [`was_closed_at_start`] tells: the
//!   descriptors are looked at from an ELF initialiser, which runs before the runtime's.
//! * `print!` panics when the write fails (a closed pipe, a full disk).
//!
//! So every command writes its output with [`print`] and its requested diagnostics
//! (`--timings`) with [`eprint`]; both return the failure as a [`CliError`]. The rule for
//! a closed pipe (`loopir fmt FILE | head -1`): exit code 2 like any failed write, with no
//! message, because the reader stopped reading on purpose; `set -o pipefail` still sees
//! that the output is incomplete. Error messages themselves go through [`report`], which
//! cannot fail: a message that cannot be shown leaves only the exit code.

use std::io::{ErrorKind, Write};

use crate::error::CliError;

/// A standard stream, by descriptor.
#[derive(Clone, Copy)]
pub enum Stream {
    /// Descriptor 0.
    Stdin = 0,
    /// Descriptor 1.
    Stdout = 1,
    /// Descriptor 2.
    Stderr = 2,
}

impl Stream {
    fn name(self) -> &'static str {
        match self {
            Stream::Stdin => "standard input",
            Stream::Stdout => "standard output",
            Stream::Stderr => "standard error",
        }
    }

    fn verb(self) -> &'static str {
        match self {
            Stream::Stdin => "read",
            Stream::Stdout | Stream::Stderr => "write",
        }
    }
}

/// Whether `stream` was closed when the program started (and is now `/dev/null`).
///
/// Known on Linux; elsewhere this answers `false` and a closed stream reads as empty and
/// swallows writes, as the standard library arranges.
pub fn was_closed_at_start(stream: Stream) -> bool {
    start_state::closed(stream as usize)
}

#[cfg(target_os = "linux")]
mod start_state {
    use std::sync::atomic::{AtomicBool, Ordering};

    static CLOSED: [AtomicBool; 3] = [AtomicBool::new(false), AtomicBool::new(false), AtomicBool::new(false)];

    pub fn closed(fd: usize) -> bool {
        CLOSED.get(fd).is_some_and(|c| c.load(Ordering::Relaxed))
    }

    // `fcntl` is the C library's, which the standard library links on Linux.
    unsafe extern "C" {
        fn fcntl(fd: i32, cmd: i32, ...) -> i32;
    }
    const F_GETFD: i32 = 1;

    extern "C" fn record() {
        for (fd, closed) in (0..).zip(&CLOSED) {
            // SAFETY: with F_GETFD, `fcntl` takes no third argument, reads no memory and
            // only answers whether the descriptor is open (-1 if not).
            let flags = unsafe { fcntl(fd, F_GETFD) };
            closed.store(flags == -1, Ordering::Relaxed);
        }
    }

    // The C library calls the functions of `.init_array` before `main`, so before the
    // Rust runtime reopens closed standard streams (which it does first thing in `main`).
    // SAFETY: the section holds pointers to functions the C library calls with no
    // guarantee beyond an initialised process; `record` needs no more (no allocation, no
    // standard-library state, only atomics and a system call).
    #[used]
    #[unsafe(link_section = ".init_array")]
    static RECORD: extern "C" fn() = record;
}

#[cfg(not(target_os = "linux"))]
mod start_state {
    pub fn closed(_fd: usize) -> bool {
        false
    }
}

/// The error of a failed write to `stream`.
fn write_error(stream: Stream, e: &std::io::Error) -> CliError {
    if e.kind() == ErrorKind::BrokenPipe {
        CliError::ClosedPipe
    } else {
        CliError::Io(format!("cannot write {}: {e}", stream.name()))
    }
}

/// An error unless `stream` was open when the program started.
pub fn check_open(stream: Stream) -> Result<(), CliError> {
    if was_closed_at_start(stream) {
        return Err(CliError::Io(format!("cannot {} {}: it is closed", stream.verb(), stream.name())));
    }
    Ok(())
}

/// Writes `bytes` to standard output and flushes it.
pub fn print(bytes: &[u8]) -> Result<(), CliError> {
    check_open(Stream::Stdout)?;
    let mut out = std::io::stdout().lock();
    out.write_all(bytes).and_then(|()| out.flush()).map_err(|e| write_error(Stream::Stdout, &e))
}

/// Writes `text` to standard error: output the user asked for there (`--timings`), whose
/// loss is an I/O error.
pub fn eprint(text: &str) -> Result<(), CliError> {
    check_open(Stream::Stderr)?;
    let mut err = std::io::stderr().lock();
    err.write_all(text.as_bytes()).and_then(|()| err.flush()).map_err(|e| write_error(Stream::Stderr, &e))
}

/// Writes a message to standard error if it can; it cannot fail (a message that cannot be
/// shown leaves the exit code to tell).
pub fn report(text: &str) {
    let mut err = std::io::stderr().lock();
    let _ = err.write_all(text.as_bytes()).and_then(|()| err.flush());
}

/// Runs `write` (clap's printing of help or version text) on standard output, with the
/// failures of [`print`].
pub fn print_with(write: impl FnOnce() -> std::io::Result<()>) -> Result<(), CliError> {
    check_open(Stream::Stdout)?;
    write().and_then(|()| std::io::stdout().lock().flush()).map_err(|e| write_error(Stream::Stdout, &e))
}
