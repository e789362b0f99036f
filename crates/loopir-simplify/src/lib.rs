//! # loopir-simplify
//!
//! Halide's expression simplifier over loopir IR, with what it is built from and what is
//! built on it: intervals, scopes, proving, solving and common-subexpression elimination.
//! The passes need it (bounds inference simplifies every box it computes), and so does any
//! pass a frontend adds; it depends on the IR crate only.
//!
//! | module | what |
//! |---|---|
//! | [`simplify`](mod@simplify) | the simplifier: bottom-up rewriting into Halide's canonical forms, memoised over the DAG; one rule table per operator ([`simplify::rules`]) |
//! | [`prove`] | [`can_prove`] and [`prove_equal`]: the simplifier, then equality saturation with `egg` |
//! | [`solve`] | solving for a variable, and the innermost-loop solver |
//! | [`cse`] | let-introducing common-subexpression elimination |
//! | [`interval`] | [`Interval`] / [`Bound`]: symbolic intervals with infinite ends |
//! | [`constant_interval`] | [`ConstantInterval`]: numeric intervals over i64 with Euclidean `/` and `%` |
//! | [`scope`] | [`Scope`]: names bound to stacks of values |
//! | [`overflow`] | signed-integer-overflow markers, `no_overflow` types |
//! | [`likely`] | removing `likely` hints |
//! | [`pure_math`] | Halide's pure math functions (`floor_f32`, ...) seen as pure |
//! | [`ctx`] | [`Ctx`]: fresh names, overflow tags, per-node caches, work counters |
//!
//! ```
//! use loopir::make;
//! use loopir_simplify::{Ctx, simplify_expr};
//!
//! let x = loopir::Expr::var_i32("x");
//! let e = make::sub(make::add(x.clone(), loopir::Expr::i32(3)), x);
//! assert_eq!(simplify_expr(&Ctx::new(), &e).to_string(), "3");
//! ```

pub mod constant_interval;
pub mod cse;
pub mod ctx;
pub mod interval;
pub mod likely;
pub mod overflow;
pub mod pure_math;
pub mod scope;
pub mod simplify;
pub mod solve;

pub use constant_interval::ConstantInterval;
pub use ctx::{Ctx, Options, Stats};
pub use interval::{Bound, Interval, make_max, make_min, span_of_bounds};
pub use scope::{Scope, ScopedBinding, Token};
pub use simplify::prove;
pub use simplify::{can_prove, prove_equal, simplify, simplify_expr, simplify_interval};

/// The guide `docs/simplify.md`: compiled here so that its examples run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../../../docs/simplify.md")]
pub struct SimplifyGuide;
