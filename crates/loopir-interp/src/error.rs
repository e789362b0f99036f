//! Errors of compiling and running a program. Every error names the IR node where it
//! happened (its first line of text) and says why; nothing the IR or the inputs contain
//! makes the interpreter panic.

use std::fmt;

/// What went wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ErrorKind {
    /// The IR cannot be run as written: a type the interpreter cannot hold, operands of
    /// different types, a name that nothing defines.
    BadProgram,
    /// The program calls something the interpreter cannot execute (a function whose body
    /// is not in the file, a device kernel, an intrinsic with no meaning on the host).
    Unsupported,
    /// A parameter or buffer the program needs was not given, or was given wrongly.
    BadArgument,
    /// An `assert` failed (or a `halide_error_*` call reported an error): the pipeline
    /// returned `code`, as the compiled pipeline would.
    AssertionFailed {
        /// The error code the pipeline returns (a `halide_error_code_t`).
        code: i32,
    },
    /// A load or store outside its buffer, a use after free, a null pointer.
    MemoryAccess,
    /// A Func is read or written outside its realization.
    OutsideRealization,
    /// A second free of one allocation.
    DoubleFree,
    /// Memory from the runtime left allocated at the end.
    Leak,
    /// A value the reference leaves undefined (a shift by the type's width or more,
    /// `signed_integer_overflow`, `div_round_to_zero` by zero).
    Undefined,
    /// Every task waits on a semaphore or a barrier that nothing can release.
    Deadlock,
    /// A limit of the interpreter (memory, operations) was reached.
    Limit,
}

/// An error of compiling or running a program.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InterpError {
    /// What went wrong.
    pub kind: ErrorKind,
    /// The node, as the first line of its `.stmt` text (shortened), if one is known.
    pub node: Option<String>,
    /// The cause.
    pub message: String,
}

impl InterpError {
    /// An error without a node.
    pub fn new(kind: ErrorKind, message: impl Into<String>) -> InterpError {
        InterpError { kind, node: None, message: message.into() }
    }

    /// This error, attributed to `node` (unless it already names one).
    pub fn at(mut self, node: impl FnOnce() -> String) -> InterpError {
        if self.node.is_none() {
            self.node = Some(node());
        }
        self
    }

    /// Whether the error is an assertion of the program itself (the pipeline's own
    /// checks failed), as opposed to a fault the interpreter caught.
    pub fn is_assertion(&self) -> bool {
        matches!(self.kind, ErrorKind::AssertionFailed { .. })
    }
}

impl fmt::Display for InterpError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let what = match &self.kind {
            ErrorKind::BadProgram => "cannot run this IR".to_owned(),
            ErrorKind::Unsupported => "unsupported".to_owned(),
            ErrorKind::BadArgument => "bad argument".to_owned(),
            ErrorKind::AssertionFailed { code } => format!("the pipeline failed with error code {code}"),
            ErrorKind::MemoryAccess => "invalid memory access".to_owned(),
            ErrorKind::OutsideRealization => "access outside a realization".to_owned(),
            ErrorKind::DoubleFree => "double free".to_owned(),
            ErrorKind::Leak => "memory leak".to_owned(),
            ErrorKind::Undefined => "undefined value".to_owned(),
            ErrorKind::Deadlock => "deadlock".to_owned(),
            ErrorKind::Limit => "interpreter limit".to_owned(),
        };
        write!(f, "{what}: {}", self.message)?;
        if let Some(node) = &self.node {
            write!(f, "\n  at: {node}")?;
        }
        Ok(())
    }
}

impl std::error::Error for InterpError {}

/// The first line of a node's text, cut to a readable length.
pub fn node_line(text: &str) -> String {
    let line = text.trim_start().lines().next().unwrap_or("").trim_end();
    let line = line.strip_suffix(" {").unwrap_or(line);
    const MAX: usize = 240;
    if line.chars().count() > MAX {
        let cut: String = line.chars().take(MAX).collect();
        format!("{cut}…")
    } else {
        line.to_owned()
    }
}
