//! `inject_tracing`: instrument a pipeline with calls to Halide's tracing runtime, exactly
//! as Halide's lowering pass of the same name does at commit 10162e89df (issue #6; the
//! behaviour is specified in `shared/spec/tracing.md`).
//!
//! # Assumed input
//!
//! The statement as schedule construction leaves it, before bounds inference and storage
//! flattening: `realize` nodes for every non-output Func that is not inlined (typed with
//! the Func's value types), `produce f` / `consume f` nodes, loops (serial, `parallel`,
//! ...), `Provide` stores `f(args) = values` and calls of kind Halide (to Funcs) and Image
//! (to input or embedded buffers) whose value index says which tuple element they read.
//! Every Func and image of the statement must be described by the [`TraceEnv`], which must
//! fit it (see [`TraceEnv::check_against`], which the pass runs first); parse `.stmt` text
//! with [`TraceEnv::parse_env`] so that calls get those kinds, and in lossless mode
//! (`f(x)[1]`) where tuple elements above 0 are read. Bounds variables such as
//! `f.s0.x.min` may be free: the pass refers to them and bounds inference defines them.
//!
//! # Guarantees
//!
//! * The output is byte-for-byte what the reference produces for the same input and
//!   environment (numbering temporaries from the environment's `fresh_names.t` or after
//!   the highest `t<N>` of the input, whichever is higher, unless
//!   [`TraceOptions::first_temp`] says otherwise), provided the [`BoxAnalysis`] matches
//!   Halide's boxes-touched analysis.
//! * The time taken is linear in the input's DAG (a node reached through several parents
//!   is rewritten once per trace scope), and so is the output's node count, although its
//!   printed text can double per nested traced load as the reference's does.
//! * Every event's parent is the innermost enclosing realization, produce, consume,
//!   parallel-task or pipeline event (or a scope whose id is bound to 0 because only the
//!   Func's loads or stores are traced); [`check_trace_hierarchy`] verifies this on any
//!   statement.
//! * When nothing is traced and no pipeline flag is set, the input handle itself is
//!   returned.
//! * The pass never panics on input; every failure is a [`TracingError`] naming the
//!   offending node, Func or image, or the environment's field.
//!
//! # Output layout
//!
//! ```text
//! let pipeline.trace_id = <begin_pipeline>
//! <func_type_and_dim tags of images, reverse name order>
//! <func_type_and_dim tags of Funcs, realization order>
//! <user tags, owners in reverse registration order>
//! <the rewritten body; outputs' realization events at top level>
//! <end_pipeline>
//! ```

mod boxes;
mod env;
mod env_check;
mod error;
mod event;
mod hierarchy;
mod inject;
mod names;
mod tags;

pub use boxes::{BoundsCrateBoxes, BoxAnalysis, RecordedBoxes, TouchedBox, TouchedInterval};
pub use env::{FreshNames, FuncTracing, ImageTracing, OutputTracing, TargetTracing, TraceEnv};
pub use error::TracingError;
pub use event::{
    CURRENT_THREAD_ID, DecodedEvent, TRACE_HELPER, TraceEventCode, decode_event, is_trace_call,
    trace_id_var_name,
};
pub use hierarchy::{HierarchyViolation, ViolationKind, check_trace_hierarchy};

use std::collections::HashSet;

use loopir::mutate::Mutator;
use loopir::pipeline::first_unused_temp;
use loopir::{Expr, MemoryType, MinExtent, Stmt, StmtKind};

use env::EnvIndex;
use event::{PIPELINE_SCOPE, TraceEvent, trace_id_var};
use inject::Injector;
use names::NameGen;

/// Knobs of [`inject_tracing_with`].
#[derive(Clone, Copy)]
pub struct TraceOptions<'a> {
    /// Number of the first `t<N>` temporary. By default the environment's `fresh_names.t`
    /// or one past the highest `t<N>` in the input, whichever is higher (Halide's counter
    /// is process-wide, so earlier passes may have advanced it).
    pub first_temp: Option<u64>,
    /// Number of the first parallel-task name (0 gives `parallel_task`, 1 gives
    /// `parallel_task$1`, ...).
    pub first_task: u64,
    /// The boxes-touched analysis behind the `func_type_and_dim` tags.
    pub boxes: &'a dyn BoxAnalysis,
}

impl Default for TraceOptions<'static> {
    fn default() -> Self {
        TraceOptions { first_temp: None, first_task: 0, boxes: &BoundsCrateBoxes }
    }
}

impl std::fmt::Debug for TraceOptions<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TraceOptions")
            .field("first_temp", &self.first_temp)
            .field("first_task", &self.first_task)
            .finish_non_exhaustive()
    }
}

/// Instruments `stmt` with tracing events as described by `env`, using the boxes-touched
/// analysis of `loopir-bounds` (see [`BoundsCrateBoxes`]).
pub fn inject_tracing(stmt: &Stmt, env: &TraceEnv) -> Result<Stmt, TracingError> {
    inject_tracing_with(stmt, env, &TraceOptions::default())
}

/// [`inject_tracing`] with explicit options.
pub fn inject_tracing_with(
    stmt: &Stmt,
    env: &TraceEnv,
    options: &TraceOptions<'_>,
) -> Result<Stmt, TracingError> {
    // The environment's own mistakes (a counter out of range among them) first.
    EnvIndex::new(env)?;
    let first_temp =
        options.first_temp.unwrap_or_else(|| first_unused_temp(stmt).max(env.fresh_names.t.unwrap_or(0)));
    let names = NameGen::new(first_temp, options.first_task)?;
    inject(stmt, env, options, names).map(|(s, _)| s)
}

/// [`inject_tracing_with`] drawing names from `names`, the run's generator (a pass of a
/// [`loopir::pipeline::Pipeline`]); its `t` family is first raised past the highest
/// `t<N>` of the input, so that no temporary captures an input variable. `options`'s
/// counters are not used.
pub fn inject_tracing_in(
    stmt: &Stmt,
    env: &TraceEnv,
    options: &TraceOptions<'_>,
    names: &mut loopir::pipeline::NameGen,
) -> Result<Stmt, TracingError> {
    let mut run = std::mem::take(names);
    if run.raise_char('t', first_unused_temp(stmt)).is_err() {
        *names = run;
        return Err(TracingError::NamesExhausted { family: "t<N>" });
    }
    match inject(stmt, env, options, NameGen::from_run(run.clone())) {
        Ok((s, used)) => {
            *names = used.into_run();
            Ok(s)
        }
        Err(e) => {
            *names = run;
            Err(e)
        }
    }
}

fn inject(
    stmt: &Stmt,
    env: &TraceEnv,
    options: &TraceOptions<'_>,
    names: NameGen,
) -> Result<(Stmt, NameGen), TracingError> {
    loopir::pipeline::check_stage(stmt, loopir::pipeline::IrStage::Schedule)
        .map_err(TracingError::WrongStage)?;
    let index = EnvIndex::new(env)?;
    env_check::check_ir(&index, stmt)?;

    // Outputs have no realize node; wrap the statement in a dummy one per output (the last
    // output outermost) so that their realization events and scopes exist.
    let mut wrapped = stmt.clone();
    for o in &env.outputs {
        let bounds = (0..o.dimensions)
            .map(|d| MinExtent {
                min: Expr::var_i32(format!("{}.min.{d}", o.buffer)),
                extent: Expr::var_i32(format!("{}.extent.{d}", o.buffer)),
            })
            .collect();
        wrapped = Stmt::realize(
            o.name.as_str(),
            o.types.clone(),
            MemoryType::Auto,
            bounds,
            Expr::const_true(),
            wrapped,
        )
        .map_err(|source| TracingError::Ir {
            what: format!("the dummy realization of output `{}`", o.name),
            source,
        })?;
    }

    let mut injector = Injector::new(&index, names);
    let rewritten = injector.run(&wrapped)?;
    let outputs: HashSet<&str> = env.outputs.iter().map(|o| o.name.as_str()).collect();
    let mut s = StripRealizations { names: &outputs }.mutate_stmt(&rewritten);

    if s.same_as(stmt) && !env.trace_pipeline && !env.target.trace_pipeline {
        return Ok((stmt.clone(), injector.into_names()));
    }

    let pipeline_parent = || trace_id_var(PIPELINE_SCOPE);
    let end = TraceEvent::new(&env.pipeline, TraceEventCode::EndPipeline, pipeline_parent());
    s = Stmt::block(vec![s, Stmt::evaluate(end.build()?)]);

    for (owner, texts) in injector.tags.entries() {
        for text in texts.iter().rev() {
            if text.contains('\0') {
                return Err(TracingError::NulInTag { name: owner.clone(), tag: text.clone() });
            }
            let mut tag = TraceEvent::new(owner, TraceEventCode::Tag, pipeline_parent());
            tag.tag = Some(Expr::string(text.as_bytes()));
            s = Stmt::block(vec![Stmt::evaluate(tag.build()?), s]);
        }
    }

    if !(injector.funcs_touched.is_empty() && injector.images_touched.is_empty()) {
        // The analysis draws from the pass's generator, after its temporaries, as the
        // reference's draws from its process-wide counters.
        let boxes = options
            .boxes
            .boxes_touched(&s, injector.names_mut().run_mut())
            .map_err(TracingError::BoxAnalysis)?;
        let type_and_dim =
            |s: Stmt, owner: &str, types: &[Option<loopir::Type>]| -> Result<Stmt, TracingError> {
                let b =
                    boxes.get(owner).ok_or_else(|| TracingError::MissingBox { name: owner.to_owned() })?;
                let mut tag = TraceEvent::new(owner, TraceEventCode::Tag, pipeline_parent());
                tag.tag = Some(tags::func_type_and_dim(owner, types, b)?);
                Ok(Stmt::block(vec![Stmt::evaluate(tag.build()?), s]))
            };
        for func in env.order.iter().rev() {
            if let Some(types) = injector.funcs_touched.get(func) {
                s = type_and_dim(s, func, types)?;
            }
        }
        for (image, types) in injector.images_touched.iter() {
            s = type_and_dim(s, image, types)?;
        }
    }

    let begin = TraceEvent::new(&env.pipeline, TraceEventCode::BeginPipeline, Expr::i32(0));
    Ok((Stmt::let_stmt(trace_id_var_name(PIPELINE_SCOPE), begin.build()?, s), injector.into_names()))
}

/// Replaces every realize of the named Funcs by its body.
struct StripRealizations<'a> {
    names: &'a HashSet<&'a str>,
}

impl Mutator for StripRealizations<'_> {
    fn mutate_stmt(&mut self, s: &Stmt) -> Stmt {
        match s.kind() {
            StmtKind::Realize { name, body, .. } if self.names.contains(name.as_ref()) => {
                self.mutate_stmt(body)
            }
            _ => self.super_stmt(s),
        }
    }
    fn mutate_expr(&mut self, e: &Expr) -> Expr {
        e.clone()
    }
}
