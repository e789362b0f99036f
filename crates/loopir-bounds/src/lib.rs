//! # loopir-bounds
//!
//! Bounds inference over loopir IR, after Halide's `Bounds`, `BoundsInference` and
//! `AllocationBoundsInference` at the reference commit: the interval of every value of an
//! expression, the regions of Funcs and buffers a statement touches, and the two lowering
//! passes that define a pipeline's loop bounds and its allocations' sizes. The interval
//! arithmetic, scopes and the simplifier it rests on are [`loopir_simplify`]'s.
//!
//! | module | what |
//! |---|---|
//! | [`bounds_of_expr`] | [`bounds_of_expr_in_scope`]: the interval of every value of an expression |
//! | [`boxes`] | [`Region`] (Halide's `Box`) algebra: merge, intersection, overlap, containment |
//! | [`boxes_touched`](mod@boxes_touched) | [`boxes_required`], [`boxes_provided`], [`boxes_touched`](fn@boxes_touched) and the single-Func `box_*` queries |
//! | [`compute_bounds`] | computation bounds inference: updates with RVars, specializations, explicit bounds, output constraints, extern stages, fused loops |
//! | [`allocation_bounds`] | allocation bounds inference |
//! | [`func_value_bounds`] | value ranges of Funcs, read from the text, for data-dependent indices |
//! | [`env`](mod@env) | the bounds env (JSON side table) |
//! | [`passes`] | [`ComputationBounds`] and [`AllocationBounds`], the passes of a [`loopir::pipeline::Pipeline`] |
//!
//! Every API takes a [`loopir_simplify::Ctx`], which owns the fresh-name counters (so
//! outputs are deterministic per context), the per-node caches (free variables,
//! structural hashes), the soundness/compatibility options and work counters.
//!
//! ```
//! use loopir::{make, Expr};
//! use loopir_bounds::{FuncValueBounds, bounds_of_expr_simplified};
//! use loopir_simplify::{Ctx, Interval, Scope};
//!
//! let x = Expr::var_i32("x");
//! let mut scope = Scope::new();
//! let _ = scope.push("x", Interval::new(Expr::i32(-3), Expr::i32(3)));
//! // Euclidean division: the region of `f(x / 2)` is continuous across zero.
//! let i = bounds_of_expr_simplified(&Ctx::new(), &make::div(x, Expr::i32(2)), &scope, &FuncValueBounds::default());
//! assert_eq!(i.pretty(), "[-2, 1]");
//! ```

mod align;
pub mod allocation_bounds;
pub mod bounds_of_expr;
pub mod boxes;
pub mod boxes_touched;
pub mod compute_bounds;
pub mod env;
pub mod error;
pub mod func_value_bounds;
pub mod passes;
mod relevance;
/// The scaling workloads of the bounds specification, shared by the complexity tests, the
/// benchmarks and the scaling example: not part of the crate's API.
#[doc(hidden)]
pub mod workloads;

pub use bounds_of_expr::{
    FuncValueBounds, and_condition_over_domain, bounds_of_expr_in_scope, bounds_of_expr_simplified,
    find_constant_bounds, or_condition_over_domain, type_bounds,
};
pub use boxes::{Region, box_contains, box_intersection, boxes_overlap, merge_boxes};
pub use boxes_touched::{
    BoxMap, Node, box_provided, box_required, box_touched, boxes_provided, boxes_required, boxes_touched,
};
pub use error::BoundsError;
pub use passes::{AllocationBounds, ComputationBounds};

/// The guide `docs/bounds.md`: compiled here so that its examples run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../../../docs/bounds.md")]
pub struct BoundsGuide;
