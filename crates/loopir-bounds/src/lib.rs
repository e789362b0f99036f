//! # loopir-bounds
//!
//! Interval arithmetic, regions and bounds queries over loopir IR, after Halide's
//! `Interval`, `Bounds`, `Simplify` and `AllocationBoundsInference` at the reference commit
//! (see `spec/bounds.md`).
//!
//! | module | what |
//! |---|---|
//! | [`interval`] | [`Interval`] / [`Bound`]: symbolic intervals with infinite ends, the eager [`make_min`] / [`make_max`] peepholes |
//! | [`constant_interval`] | [`ConstantInterval`]: numeric intervals over i64 with Euclidean `/` and `%` |
//! | [`scope`] | [`Scope`]: names bound to stacks of values, with binding identities for memo keys |
//! | [`simplify`](mod@simplify) | a memoised simplifier in Halide's canonical forms, and [`can_prove`] (rewrites plus equality saturation with `egg`) |
//! | [`bounds_of_expr`] | [`bounds_of_expr_in_scope`]: the interval of every value of an expression |
//! | [`boxes`] | [`Region`] (Halide's `Box`) algebra: merge, intersection, overlap, containment |
//! | [`boxes_touched`](mod@boxes_touched) | [`boxes_required`], [`boxes_provided`], [`boxes_touched`](fn@boxes_touched) and the single-Func `box_*` queries |
//! | [`compute_bounds`] | computation bounds inference from text (spec §2.1/§2.3): updates with RVars, specializations, explicit bounds, output constraints, extern stages, fused loops |
//! | [`allocation_bounds`] | allocation bounds inference from text (spec §2.2/§2.4) |
//! | [`func_value_bounds`] | value ranges of Funcs, read from the text, for data-dependent indices |
//! | [`env`](mod@env) | the bounds env (JSON side table) |
//! | [`cse`] | let-introducing CSE, for printing results whose trees are large |
//! | [`ir`] | infallible builders and cheap queries over expressions |
//! | [`workloads`] | the scaling workloads of spec §3.5 (shared by tests and benches) |
//!
//! Every API takes a [`Ctx`], which owns the fresh-name counters (so outputs are
//! deterministic per context), the per-node caches (free variables, structural hashes),
//! the soundness/compatibility [`Options`] and work counters ([`Stats`]).
//!
//! ```
//! use loopir::Expr;
//! use loopir_bounds::{Ctx, FuncValueBounds, Interval, Scope, bounds_of_expr_simplified, ir};
//!
//! let x = Expr::var_i32("x");
//! let mut scope = Scope::new();
//! let _ = scope.push("x", Interval::new(Expr::i32(-3), Expr::i32(3)));
//! // Euclidean division: the region of `f(x / 2)` is continuous across zero.
//! let i = bounds_of_expr_simplified(&Ctx::new(), &ir::div(x, Expr::i32(2)), &scope, &FuncValueBounds::default());
//! assert_eq!(i.pretty(), "[-2, 1]");
//! ```

mod align;
pub mod allocation_bounds;
pub mod bounds_of_expr;
pub mod boxes;
pub mod boxes_touched;
pub mod compute_bounds;
pub mod constant_interval;
pub mod cse;
pub mod ctx;
pub mod env;
pub mod error;
pub mod func_value_bounds;
pub mod interval;
pub mod ir;
pub mod pure_math;
mod relevance;
pub mod scope;
pub mod simplify;
pub mod solve;
pub mod workloads;

pub use bounds_of_expr::{
    FuncValueBounds, and_condition_over_domain, bounds_of_expr_in_scope, bounds_of_expr_simplified,
    find_constant_bounds, or_condition_over_domain, type_bounds,
};
pub use boxes::{Region, box_contains, box_intersection, boxes_overlap, merge_boxes};
pub use boxes_touched::{
    BoxMap, Node, box_provided, box_required, box_touched, boxes_provided, boxes_required, boxes_touched,
};
pub use constant_interval::ConstantInterval;
pub use ctx::{Ctx, Options, Stats};
pub use error::BoundsError;
pub use interval::{Bound, Interval, make_max, make_min, span_of_bounds};
pub use scope::{Scope, ScopedBinding, Token};
pub use simplify::{can_prove, prove_equal, simplify, simplify_expr};
