//! Canonical names for GPU loop variables (the reference's `canonicalize_gpu_vars`, which
//! it runs just before storage flattening when the target has a GPU feature).
//!
//! A frontend names a GPU loop after the variable it iterates (`out.s0.y.yo`); the GPU
//! code generators want to know which hardware index each loop is. The pass appends it
//! to the loop's name and renames every use:
//!
//! - a `gpu_block` loop gets `.block_id_x` if no GPU block loop is nested inside it,
//!   `.block_id_y` if at most one level is, `.block_id_z` if two are: the innermost block
//!   loop is x;
//! - a `gpu_thread` loop likewise gets `.thread_id_x`, `.thread_id_y` or `.thread_id_z`,
//!   counting the thread and lane loops nested inside it;
//! - a `gpu_lane` loop always gets `.thread_id_x`.
//!
//! Before renaming, the schedule is checked as the reference checks it: at most three
//! nested block loops and three nested thread (or lane) loops, no block loop inside a
//! thread loop, thread loops inside some block loop and outside every lane loop, no lane
//! loop inside another, and nothing between two nested block loops (no other loop, no
//! realization, no producer, no hoisted storage). A schedule that breaks one is refused
//! with the loop nest down to the offending loop.

use loopir::mutate::TryMutator;
use loopir::substitute::{substitute_in_stmt, substitute_one};
use loopir::visit::Visitor;
use loopir::{Expr, ForType, Name, Stmt, StmtKind};

use crate::error::LowerError;

/// The suffixes of GPU block loops, by how many levels of block loops they contain.
const BLOCK_IDS: [&str; 3] = ["block_id_x", "block_id_y", "block_id_z"];
/// The suffixes of GPU thread loops, by how many levels of thread and lane loops they
/// contain.
const THREAD_IDS: [&str; 3] = ["thread_id_x", "thread_id_y", "thread_id_z"];

/// `stmt` with its GPU loops renamed to say which block or thread index they are (see
/// the module docs); an error if the GPU schedule is not one the reference accepts.
///
/// ```
/// use loopir_lower::canonicalize_gpu_vars;
/// let s = loopir::parse_stmt(
///     "gpu_block<Default_GPU> (f.s0.y.yo, 0, 3) {\n gpu_block<Default_GPU> (f.s0.x.xo, 0, 3) {\n  \
///      gpu_thread<Default_GPU> (f.s0.x.xi, 0, 15) {\n   f(f.s0.x.xo, f.s0.y.yo) = f.s0.x.xi\n  }\n }\n}\n",
/// ).unwrap();
/// let c = canonicalize_gpu_vars(&s).unwrap();
/// assert_eq!(c.to_string(), "\
/// gpu_block<Default_GPU> (f.s0.y.yo.block_id_y, 0, 3) {
///  gpu_block<Default_GPU> (f.s0.x.xo.block_id_x, 0, 3) {
///   gpu_thread<Default_GPU> (f.s0.x.xi.thread_id_x, 0, 15) {
///    f(f.s0.x.xo.block_id_x, f.s0.y.yo.block_id_y) = f.s0.x.xi.thread_id_x
///   }
///  }
/// }
/// ");
///
/// // A thread loop outside every block loop has no block to run in.
/// let bad = loopir::parse_stmt("gpu_thread<CUDA> (t, 0, 15) {\n f(t) = 0\n}\n").unwrap();
/// let err = canonicalize_gpu_vars(&bad).unwrap_err().to_string();
/// assert!(err.contains("must be inside a GPU block loop"), "{err}");
/// ```
pub fn canonicalize_gpu_vars(stmt: &Stmt) -> Result<Stmt, LowerError> {
    let mut check = ValidateGpuSchedule::default();
    check.visit_stmt(stmt);
    if let Some(error) = check.error {
        return Err(error);
    }
    Canonicalize::default().try_mutate_stmt(stmt)
}

// ---------------------------------------------------------------------------------------
// The schedule check.

/// What a loop is, in words.
fn loop_kind(for_type: ForType) -> &'static str {
    match for_type {
        ForType::Serial => "serial",
        ForType::Parallel => "parallel",
        ForType::Vectorized => "vectorized",
        ForType::Unrolled => "unrolled",
        ForType::Extern => "extern",
        ForType::GpuBlock => "GPU block",
        ForType::GpuThread => "GPU thread",
        ForType::GpuLane => "GPU lane",
    }
}

/// Walks the statement as the reference's `ValidateGPUSchedule` does, stopping at the
/// first violation.
#[derive(Default)]
struct ValidateGpuSchedule {
    /// How many block, thread and lane loops enclose the current node.
    in_blocks: usize,
    in_threads: usize,
    in_lanes: usize,
    /// The innermost enclosing block loop, and thread or lane loop.
    innermost_blocks: Option<Name>,
    innermost_threads: Option<Name>,
    /// The first thing inside the innermost block loop that another block loop must not
    /// be nested in (`serial loop over `y``), if any.
    between_blocks: Option<String>,
    /// The enclosing loops, realizations, producers and hoisted storage, outermost first.
    nest: Vec<String>,
    error: Option<LowerError>,
}

impl ValidateGpuSchedule {
    /// Refuses loop `name`: `detail`, with the loop nest down to it.
    fn refuse(&mut self, name: &Name, for_type: ForType, detail: String) {
        let mut nest = self.nest.clone();
        nest.push(format!("{} {name}", loop_kind(for_type)));
        self.error = Some(LowerError::ir(
            format!("{} loop `{name}`", loop_kind(for_type)),
            format!("{detail} (the loop nest, outermost first: {})", nest.join(" > ")),
        ));
    }

    /// The first violation at a GPU loop, if any.
    fn violation(&self, for_type: ForType) -> Option<String> {
        let inner_threads = self.innermost_threads.as_deref().unwrap_or("?");
        match for_type {
            ForType::GpuBlock => {
                if let Some(between) = &self.between_blocks {
                    let outer = self.innermost_blocks.as_deref().unwrap_or("?");
                    Some(format!(
                        "the {between} is inside GPU block loop `{outer}` but outside this one: \
                         nothing may be scheduled between GPU block loops"
                    ))
                } else if self.in_blocks >= 3 {
                    Some("it is inside three other GPU block loops; at most three may nest".into())
                } else if self.in_threads > 0 {
                    Some(format!("it is inside GPU thread loop `{inner_threads}`"))
                } else {
                    None
                }
            }
            ForType::GpuThread => {
                if self.in_lanes > 0 {
                    Some(format!(
                        "it is inside GPU lane loop `{inner_threads}`; thread loops must be outside every lane loop"
                    ))
                } else if self.in_threads >= 3 {
                    Some("it is inside three other GPU thread loops; at most three may nest".into())
                } else if self.in_blocks == 0 {
                    Some("a GPU thread loop must be inside a GPU block loop".into())
                } else {
                    None
                }
            }
            ForType::GpuLane => {
                if self.in_threads >= 3 {
                    Some("it is inside three other GPU thread or lane loops; at most three may nest".into())
                } else if self.in_lanes > 0 {
                    Some(format!("it is inside GPU lane loop `{inner_threads}`; lane loops may not nest"))
                } else {
                    None
                }
            }
            _ => None,
        }
    }

    /// Visits the body of a realization, producer or hoisted storage named `what`: inside
    /// a block loop, nothing may be nested between it and another block loop.
    fn visit_placement(&mut self, s: &Stmt, what: String) {
        let marks = self.in_blocks > 0 && self.between_blocks.is_none();
        if marks {
            self.between_blocks = Some(what.clone());
        }
        self.nest.push(what);
        self.super_stmt(s);
        self.nest.pop();
        if marks {
            self.between_blocks = None;
        }
    }
}

impl Visitor for ValidateGpuSchedule {
    // Only statements matter.
    fn visit_expr(&mut self, _: &Expr) {}

    fn visit_stmt(&mut self, s: &Stmt) {
        if self.error.is_some() {
            return;
        }
        match s.kind() {
            StmtKind::For { name, for_type, .. } => {
                let for_type = *for_type;
                let marks =
                    self.in_blocks > 0 && for_type != ForType::GpuBlock && self.between_blocks.is_none();
                if marks {
                    self.between_blocks = Some(format!("{} loop `{name}`", loop_kind(for_type)));
                }
                if let Some(detail) = self.violation(for_type) {
                    self.refuse(name, for_type, detail);
                    return;
                }
                let saved = (self.innermost_blocks.clone(), self.innermost_threads.clone());
                match for_type {
                    ForType::GpuBlock => {
                        self.in_blocks += 1;
                        self.innermost_blocks = Some(name.clone());
                    }
                    ForType::GpuThread => {
                        self.in_threads += 1;
                        self.innermost_threads = Some(name.clone());
                    }
                    ForType::GpuLane => {
                        self.in_lanes += 1;
                        self.innermost_threads = Some(name.clone());
                    }
                    _ => {}
                }
                self.nest.push(format!("{} {name}", loop_kind(for_type)));
                self.super_stmt(s);
                self.nest.pop();
                match for_type {
                    ForType::GpuBlock => self.in_blocks -= 1,
                    ForType::GpuThread => self.in_threads -= 1,
                    ForType::GpuLane => self.in_lanes -= 1,
                    _ => {}
                }
                (self.innermost_blocks, self.innermost_threads) = saved;
                if marks {
                    self.between_blocks = None;
                }
            }
            StmtKind::Realize { name, .. } => self.visit_placement(s, format!("storage of `{name}`")),
            StmtKind::ProducerConsumer { name, is_producer: true, .. } => {
                self.visit_placement(s, format!("computation of `{name}`"))
            }
            StmtKind::HoistedStorage { name, .. } => {
                let what = match name {
                    Some(n) => format!("hoisted storage of `{n}`"),
                    None => "hoisted storage".to_owned(),
                };
                self.visit_placement(s, what)
            }
            _ => self.super_stmt(s),
        }
    }
}

// ---------------------------------------------------------------------------------------
// The renaming.

/// Renames GPU loops bottom-up. The counters hold, for the subtree just rewritten, the
/// deepest nesting of block loops and of thread-or-lane loops in it, so that each loop's
/// suffix is known once its body is done, without a count of its own. Renaming the uses
/// walks each GPU loop's body once more, as the reference's substitution does; the
/// schedule check has bounded GPU nests to six loops, so no statement is walked more
/// than seven times.
#[derive(Default)]
struct Canonicalize {
    blocks_below: usize,
    threads_below: usize,
}

impl TryMutator for Canonicalize {
    type Error = LowerError;

    // Expressions change only by the renaming of an enclosing loop's variable.
    fn try_mutate_expr(&mut self, e: &Expr) -> Result<Expr, LowerError> {
        Ok(e.clone())
    }

    fn try_mutate_stmt(&mut self, s: &Stmt) -> Result<Stmt, LowerError> {
        if !matches!(s.kind(), StmtKind::For { .. }) {
            return self.try_super_stmt(s);
        }
        let outer = (self.blocks_below, self.threads_below);
        (self.blocks_below, self.threads_below) = (0, 0);
        let stmt = self.try_super_stmt(s)?;
        let (blocks, threads) = (self.blocks_below, self.threads_below);
        let StmtKind::For { name, min, max, for_type, device_api, partition_policy, body } = stmt.kind()
        else {
            return Ok(stmt);
        };
        let (own_blocks, own_threads) = match for_type {
            ForType::GpuBlock => (1, 0),
            ForType::GpuThread | ForType::GpuLane => (0, 1),
            _ => (0, 0),
        };
        self.blocks_below = outer.0.max(blocks + own_blocks);
        self.threads_below = outer.1.max(threads + own_threads);
        let suffix = match for_type {
            ForType::GpuBlock => BLOCK_IDS.get(blocks),
            ForType::GpuThread => THREAD_IDS.get(threads),
            ForType::GpuLane => THREAD_IDS.first(),
            _ => return Ok(stmt),
        };
        // The schedule check bounds the nesting; this is its last line of defence.
        let Some(suffix) = suffix else {
            return Err(LowerError::ir(
                format!("{} loop `{name}`", loop_kind(*for_type)),
                "more than three GPU loops of its kind are nested inside it",
            ));
        };
        let new_name: Name = format!("{name}.{suffix}").into();
        let new_var = Expr::var_i32(new_name.clone());
        Ok(Stmt::from_kind_unchecked(StmtKind::For {
            name: new_name,
            min: substitute_one(name, &new_var, min),
            max: substitute_one(name, &new_var, max),
            for_type: *for_type,
            device_api: *device_api,
            partition_policy: *partition_policy,
            body: substitute_in_stmt(name, &new_var, body),
        }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn canonical(text: &str) -> Result<String, String> {
        let s = loopir::parse_stmt(text).map_err(|e| e.to_string())?;
        canonicalize_gpu_vars(&s).map(|c| c.to_string()).map_err(|e| e.to_string())
    }

    #[test]
    fn a_loop_is_named_after_the_loops_nested_inside_it_not_around_it() {
        // Two block loops, one of them with a third inside; thread loops two deep and
        // one deep side by side; a lane loop.
        let out = canonical(
            "gpu_block<CUDA> (a, 0, 1) {\n gpu_block<CUDA> (b, 0, 1) {\n  gpu_thread<CUDA> (c, 0, 1) {\n   \
             gpu_thread<CUDA> (d, 0, 1) {\n    f(a, b, c, d) = 0\n   }\n  }\n  gpu_thread<CUDA> (e, 0, 1) {\n   \
             gpu_lane<CUDA> (l, 0, 1) {\n    f(e, l) = 0\n   }\n  }\n }\n gpu_block<CUDA> (g, 0, 1) {\n  \
             gpu_thread<CUDA> (h, 0, 1) {\n   f(g, h) = a\n  }\n }\n}\n",
        )
        .expect("ok");
        assert_eq!(
            out,
            "gpu_block<CUDA> (a.block_id_y, 0, 1) {\n gpu_block<CUDA> (b.block_id_x, 0, 1) {\n  \
             gpu_thread<CUDA> (c.thread_id_y, 0, 1) {\n   gpu_thread<CUDA> (d.thread_id_x, 0, 1) {\n    \
             f(a.block_id_y, b.block_id_x, c.thread_id_y, d.thread_id_x) = 0\n   }\n  }\n  \
             gpu_thread<CUDA> (e.thread_id_y, 0, 1) {\n   gpu_lane<CUDA> (l.thread_id_x, 0, 1) {\n    \
             f(e.thread_id_y, l.thread_id_x) = 0\n   }\n  }\n }\n gpu_block<CUDA> (g.block_id_x, 0, 1) {\n  \
             gpu_thread<CUDA> (h.thread_id_x, 0, 1) {\n   f(g.block_id_x, h.thread_id_x) = a.block_id_y\n  }\n }\n}\n"
        );
    }

    #[test]
    fn a_use_under_a_binder_of_the_same_name_is_not_renamed() {
        let out = canonical(
            "gpu_block<CUDA> (b, 0, 1) {\n let c = b\n let b = 7\n gpu_thread<CUDA> (t, 0, 1) {\n  f(b, c, t) = 0\n }\n}\n",
        )
        .expect("ok");
        assert_eq!(
            out,
            "gpu_block<CUDA> (b.block_id_x, 0, 1) {\n let c = b.block_id_x\n let b = 7\n \
             gpu_thread<CUDA> (t.thread_id_x, 0, 1) {\n  f(b, c, t.thread_id_x) = 0\n }\n}\n"
        );
    }

    #[test]
    fn ir_without_gpu_loops_comes_back_unchanged() {
        let s =
            loopir::parse_stmt("parallel (y, 0, 9) {\n for (x, 0, 9) {\n  f(x, y) = 0\n }\n}\n").expect("ok");
        assert!(canonicalize_gpu_vars(&s).expect("ok").same_as(&s));
    }

    #[test]
    fn schedules_the_reference_refuses_are_refused_with_the_loop_nest() {
        let cases = [
            (
                "gpu_block<CUDA> (a, 0, 1) {\n for (s, 0, 1) {\n  gpu_block<CUDA> (b, 0, 1) {\n   f(a, b) = 0\n  }\n }\n}\n",
                "GPU block loop `b`: the serial loop `s` is inside GPU block loop `a` but outside this one: \
                 nothing may be scheduled between GPU block loops (the loop nest, outermost first: \
                 GPU block a > serial s > GPU block b)",
            ),
            (
                "gpu_block<CUDA> (a, 0, 1) {\n realize g([0, 4]) {\n   gpu_block<CUDA> (b, 0, 1) {\n    g(b) = 0\n   }\n }\n}\n",
                "GPU block loop `b`: the storage of `g` is inside GPU block loop `a` but outside this one: \
                 nothing may be scheduled between GPU block loops (the loop nest, outermost first: \
                 GPU block a > storage of `g` > GPU block b)",
            ),
            (
                "gpu_block<CUDA> (a, 0, 1) {\n gpu_thread<CUDA> (t, 0, 1) {\n  gpu_block<CUDA> (b, 0, 1) {\n   f(a) = 0\n  }\n }\n}\n",
                "the GPU thread loop `t` is inside GPU block loop `a` but outside this one",
            ),
            (
                "gpu_thread<CUDA> (t, 0, 1) {\n f(t) = 0\n}\n",
                "GPU thread loop `t`: a GPU thread loop must be inside a GPU block loop",
            ),
            (
                "gpu_block<CUDA> (a, 0, 1) {\n gpu_lane<CUDA> (l, 0, 1) {\n  gpu_thread<CUDA> (t, 0, 1) {\n   f(a) = 0\n  }\n }\n}\n",
                "it is inside GPU lane loop `l`; thread loops must be outside every lane loop",
            ),
            (
                "gpu_block<CUDA> (a, 0, 1) {\n gpu_lane<CUDA> (l, 0, 1) {\n  gpu_lane<CUDA> (m, 0, 1) {\n   f(a) = 0\n  }\n }\n}\n",
                "it is inside GPU lane loop `l`; lane loops may not nest",
            ),
            (
                "gpu_block<CUDA> (a, 0, 1) {\n gpu_block<CUDA> (b, 0, 1) {\n  gpu_block<CUDA> (c, 0, 1) {\n   \
                 gpu_block<CUDA> (d, 0, 1) {\n    f(a) = 0\n   }\n  }\n }\n}\n",
                "GPU block loop `d`: it is inside three other GPU block loops; at most three may nest",
            ),
            (
                "gpu_block<CUDA> (a, 0, 1) {\n gpu_thread<CUDA> (b, 0, 1) {\n  gpu_thread<CUDA> (c, 0, 1) {\n   \
                 gpu_thread<CUDA> (d, 0, 1) {\n    gpu_thread<CUDA> (e, 0, 1) {\n     f(a) = 0\n    }\n   }\n  }\n }\n}\n",
                "GPU thread loop `e`: it is inside three other GPU thread loops; at most three may nest",
            ),
            (
                "gpu_block<CUDA> (a, 0, 1) {\n gpu_thread<CUDA> (b, 0, 1) {\n  gpu_thread<CUDA> (c, 0, 1) {\n   \
                 gpu_thread<CUDA> (d, 0, 1) {\n    gpu_lane<CUDA> (e, 0, 1) {\n     f(a) = 0\n    }\n   }\n  }\n }\n}\n",
                "GPU lane loop `e`: it is inside three other GPU thread or lane loops; at most three may nest",
            ),
        ];
        for (text, message) in cases {
            let err = canonical(text).expect_err(text);
            assert!(err.contains(message), "{text}\ngave: {err}\nexpected: {message}");
        }
    }

    #[test]
    fn a_loop_after_the_placement_between_block_loops_is_not_refused() {
        // The producer of `g` inside block loop `a` ends before block loop `b` starts:
        // `b` is not inside it.
        let text = "gpu_block<CUDA> (a, 0, 1) {\n produce g {\n  g(a) = 0\n }\n gpu_block<CUDA> (b, 0, 1) {\n  f(a, b) = g(a)\n }\n}\n";
        assert!(canonical(text).is_ok());
    }
}
