//! # loopir-interp
//!
//! An interpreter for Halide's lowered loop IR: it runs any stage of a lowering, from
//! computation bounds inference (Realize, Provide and Func calls) to the end of host
//! lowering (Allocate, Store, Load and runtime calls), with the reference's semantics.
//!
//! A statement is compiled once into a register machine ([`compile()`]), with every name
//! resolved to a register, and then run ([`Machine`]) against buffers and parameters.
//! The memory model catches out-of-bounds accesses, uses after free, double frees and
//! leaks; errors name the IR node and the cause, and nothing makes the interpreter
//! panic.
//!
//! ```
//! use loopir_interp::{Buffer, Elem, HostRuntime, Limits, Machine, compile};
//!
//! let text = "for (x, out.min.0, (out.min.0 + out.extent.0) - 1) {\n out(x) = x*x\n}\n";
//! let program = compile(&loopir::parse_stmt(text)?)?;
//! let mut runtime = HostRuntime::new();
//! let mut machine = Machine::new(&program, &mut runtime, Limits::default())?;
//! machine.bind_buffer("out", &Buffer::new(Elem::I32, &[0], &[4]))?;
//! machine.run()?;
//! assert_eq!(machine.read_buffer("out")?.values, vec![0, 1, 4, 9]);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! | module | what |
//! |---|---|
//! | [`elem`] | element types, lane representation, casts, float16/bfloat16 |
//! | [`arith`] | binary operators and math intrinsics on one lane |
//! | [`heap`] | memory objects, handles, checked accesses, frees and leaks |
//! | [`buffer`] | `halide_buffer_t` layout and [`Buffer`] |
//! | `code` | the instruction set (internal) |
//! | [`compile`](mod@compile) | IR to instructions, name resolution |
//! | [`program`] | a compiled program and its interface (buffers, parameters) |
//! | [`exec`] | the machine: tasks, realizations, the instruction loop |
//! | [`runtime`] | runtime functions and the [`Runtime`] trait for profiler, tracer, externs |
//! | [`profiler`] | the profiler's statistics and report (`halide_profiler_*`) |
//! | [`tracer`] | the trace log and its parent checks (`halide_trace_helper`) |
//! | [`pipeline`] | running a whole pipeline: shapes, inputs from a seed, outputs |
//! | [`error`] | errors naming the node and the cause |
//! | [`eval`] | evaluating one expression at given values of its variables |

pub mod arith;
pub mod buffer;
mod calls;
mod code;
pub mod compile;
mod device;
pub mod elem;
pub mod error;
pub mod eval;
pub mod exec;
pub mod heap;
pub mod pipeline;
pub mod profiler;
pub mod program;
mod recording;
pub mod runtime;
pub mod tracer;

pub use buffer::{Buffer, Dim};
pub use compile::{compile, compile_with};
pub use elem::Elem;
pub use error::{ErrorKind, InterpError};
pub use exec::{Limits, Machine, RunStats};
pub use pipeline::{PipelineRun, RunConfig, ShapeSource, run_pipeline};
pub use profiler::{ProfileClock, Profiler};
pub use program::{BufferParam, BufferSymbol, Interface, Program, ScalarParam};
pub use recording::RecordingRuntime;
pub use runtime::{ExternArg, HostRuntime, ProfilerCall, Runtime, RuntimeCx, TraceEvent};
