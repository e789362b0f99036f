//! `inject_profiling`: instrument a lowered statement for Halide's sampling profiler.
//!
//! # Input shape
//!
//! The pass runs late in lowering and assumes what the reference compiler's pipeline has
//! produced by then: storage is flattened (`allocate` / `free` / loads and stores by buffer
//! name, every `free` inside its `allocate`), `produce f` / `consume f` nodes are still
//! present and named by Func, GPU and Hexagon loops are still ordinary loops carrying a
//! device API, host↔device copies appear as `let r = halide_copy_to_host(f.buffer)`
//! followed by `assert(r == 0, r)`, and bounds inference left one
//! `profiling_enable_instance_marker()` where statistics collection should start.
//! Inputs that break the assumptions the reference would crash on are refused with a
//! [`ProfilingError`] naming the node.
//!
//! # What it guarantees
//!
//! The returned statement is node-for-node what the reference (Halide 10162e89df) emits
//! for the same input and environment, including its documented quirks (orphan rows for
//! non-profiled producers, rows for tuple components, elision rules that are not
//! loop-carried sound). The returned [`EntryTable`] holds exactly the rows the emitted
//! tables describe, in id order. The pass is pure: no global state, and every name it
//! introduces is fresh with respect to the input.
//!
//! # Levels and feature bits
//!
//! [`ProfileOptions`] selects the parts of the instrumentation as seven independent
//! [`Feature`] bits; levels 0 (off) to 3 (everything, the default) are presets. Lower
//! settings emit a subset of the runtime calls and stay well-formed (allocations freed,
//! sampling tokens and thread counts balanced). Each row carries a stable [`EntryKey`].
//! `docs/profiling.md` describes both.

mod alloc_size;
mod entry_table;
mod env;
mod error;
mod inject;
mod names;
mod options;
mod scan;
mod uniquify;

use loopir::{CallType, Expr, ExprKind, Intrinsic, MemoryType, ModulusRemainder, Stmt, StmtKind, Type};

pub use entry_table::{Entry, EntryKey, EntryKind, EntryTable};
pub use env::{FuncEnv, FuncInfo};
pub use error::{EnvError, ProfilingError};
pub use options::{Feature, ProfileOptions, UnknownFeature};

use inject::Injector;
use names::{FreshNames, ProfilerNames};

/// Size in bytes of the runtime's `halide_profiler_instance_state` on a 64-bit host.
const INSTANCE_STATE_BYTES: usize = 112;
/// Size in bytes of one `halide_profiler_func_stats` row on a 64-bit host.
const FUNC_STATS_BYTES: usize = 88;

/// The result of [`inject_profiling`].
#[derive(Clone, Debug)]
pub struct Profiled {
    /// The instrumented statement.
    pub stmt: Stmt,
    /// The rows the runtime will report, in id order.
    pub entries: EntryTable,
}

/// Instruments `stmt` for the sampling profiler of pipeline `pipeline_name`.
///
/// `env` says which names are Funcs, which opted out of profiling and which have report
/// display names (see [`FuncEnv::infer_from_stmt`] when nothing is known). `options`
/// selects the parts of the instrumentation; [`ProfileOptions::default`] (level 3)
/// reproduces the reference exactly, and the empty set (level 0) returns `stmt` itself
/// (the same node) with an empty entry table.
///
/// First of all, at every level, `env` is checked against `stmt`
/// ([`FuncEnv::check_against`]).
///
/// Every row of the returned table carries a stable [`EntryKey`].
pub fn inject_profiling(
    stmt: &Stmt,
    pipeline_name: &str,
    env: &FuncEnv,
    options: &ProfileOptions,
) -> Result<Profiled, ProfilingError> {
    let mut names = loopir::pipeline::NameGen::new();
    inject_profiling_in(stmt, pipeline_name, env, options, &mut names)
}

/// [`inject_profiling`] drawing its names from `names`, the run's generator (a pass of a
/// [`loopir::pipeline::Pipeline`]); names the input uses are skipped.
pub fn inject_profiling_in(
    stmt: &Stmt,
    pipeline_name: &str,
    env: &FuncEnv,
    options: &ProfileOptions,
    names: &mut loopir::pipeline::NameGen,
) -> Result<Profiled, ProfilingError> {
    loopir::pipeline::check_stage(stmt, loopir::pipeline::IrStage::Flattened)
        .map_err(ProfilingError::WrongStage)?;
    env.check_against(stmt)?;
    if options.is_empty() {
        return Ok(Profiled { stmt: stmt.clone(), entries: EntryTable::default() });
    }
    let mut table = EntryTable::with_bookkeeping(env);
    let mut facts = scan::scan(stmt, &mut table, env, options)?;
    let mut fresh = FreshNames::with_names(std::mem::take(&mut facts.reserved_in_use), std::mem::take(names));
    let result = instrument(stmt, pipeline_name, env, options, &mut table, &facts, &mut fresh);
    *names = fresh.into_names();
    let stmt = result?;
    Ok(Profiled { stmt, entries: table })
}

/// Whether `stmt` holds the `profiling_enable_instance_marker()` that computation bounds
/// inference leaves when the target has the `profile` feature (where the instance's
/// statistics collection starts). Without it, the pass enables no instance: the
/// [`InjectProfiling`](crate::InjectProfiling) pass refuses such input unless told to
/// accept it.
pub fn has_enable_marker(stmt: &Stmt) -> bool {
    struct Find {
        found: bool,
        seen: loopir::address_map::AddressSet<*const loopir::ExprNode>,
    }
    impl loopir::Visitor for Find {
        fn visit_stmt(&mut self, s: &Stmt) {
            if !self.found {
                self.super_stmt(s)
            }
        }
        fn visit_expr(&mut self, e: &Expr) {
            if self.found || (e.is_shared() && !e.is_leaf() && !self.seen.insert(e.as_ptr())) {
                return;
            }
            if e.as_intrinsic().is_some_and(|(i, _)| i == names::ENABLE_MARKER) {
                self.found = true;
                return;
            }
            self.super_expr(e)
        }
    }
    let mut find = Find { found: false, seen: Default::default() };
    loopir::Visitor::visit_stmt(&mut find, stmt);
    find.found
}

fn instrument(
    stmt: &Stmt,
    pipeline_name: &str,
    env: &FuncEnv,
    options: &ProfileOptions,
    table: &mut EntryTable,
    facts: &scan::ScanFacts,
    fresh: &mut FreshNames,
) -> Result<Stmt, ProfilingError> {
    let names = ProfilerNames::new(fresh);

    let mut injector = Injector::new(table, env, *options, &names, fresh, &facts.marker_stmts);
    let mut body = injector.stmt(stmt)?;
    let has_stack = injector.has_stack;
    let peaks = injector.stack_peaks().to_vec();
    let introduced_shadowing = injector.introduced_shadowing;

    if has_stack {
        let update = Stmt::evaluate(Expr::call(
            Type::INT32,
            "halide_profiler_stack_peak_update",
            vec![handle_var(&names.instance), handle_var(&names.stack_peak_buf)],
            CallType::Extern,
        ));
        body = Stmt::block(vec![update, body]);
    }
    body = injector.activate_pipeline(body);

    for (id, &peak) in peaks.iter().enumerate() {
        if peak != 0 {
            table.set_stack_peak(id, peak);
        }
    }
    table.assign_keys();
    let wrapped = wrap(body, pipeline_name, table, &names, has_stack, options);
    Ok(if facts.input_needs_uniquify || introduced_shadowing {
        uniquify::uniquify_variable_names(&wrapped)
    } else {
        // No binder shadows another or a free name, and the pass's own binders are fresh:
        // the reference's renaming would leave every name as it is.
        wrapped
    })
}

fn handle_var(name: &str) -> Expr {
    Expr::var(Type::void_ptr(), name)
}

fn u64_imm(v: u64) -> Expr {
    Expr::from_node_unchecked(Type::uint(64, 1), ExprKind::UIntImm(v))
}

fn i32_imm(v: i64) -> Expr {
    // Row ids, parents and counts are bounded by the IR's size, far below 2³¹.
    Expr::i32(v as i32)
}

fn make_struct(fields: Vec<Expr>) -> Expr {
    Intrinsic::MakeStruct.call(Type::void_ptr(), fields)
}

/// Wraps the instrumented body in the instance allocation, the row tables, the start call
/// and the sampling-token setup (`docs/reference/profiling.md` §9).
fn wrap(
    body: Stmt,
    pipeline_name: &str,
    table: &EntryTable,
    names: &ProfilerNames,
    has_stack: bool,
    options: &ProfileOptions,
) -> Stmt {
    let n = table.len();
    let instance = handle_var(&names.instance);

    let mut s = body;
    if options.contains(Feature::SamplingTokens) {
        let token = handle_var(&names.shared_token);
        let init = Stmt::evaluate(Expr::call(
            Type::INT32,
            "halide_profiler_init_sampling_token",
            vec![token, Expr::i32(0)],
            CallType::Extern,
        ));
        let alloca = Intrinsic::Alloca.call(Type::void_ptr(), vec![Expr::i32(4)]);
        s = Stmt::let_stmt(names.shared_token.as_str(), alloca, Stmt::block(vec![init, s]));
    }

    let code = Expr::var_i32(names.start_error_code.as_str());
    let ok = Expr::from_node_unchecked(
        Type::BOOL,
        ExprKind::Binary(loopir::BinOp::Eq, code.clone(), Expr::i32(0)),
    );
    let check = Stmt::from_kind_unchecked(StmtKind::AssertStmt { condition: ok, message: code });
    let start = Expr::call(
        Type::INT32,
        "halide_profiler_instance_start",
        vec![
            Expr::string(pipeline_name),
            i32_imm(n as i64),
            handle_var(&names.func_names),
            handle_var(&names.func_parents),
            handle_var(&names.func_canonical_ids),
            handle_var(&names.func_kinds),
            handle_var(&names.func_buffer_func_ids),
            instance.clone(),
        ],
        CallType::Extern,
    );
    s = Stmt::let_stmt(names.start_error_code.as_str(), start, Stmt::block(vec![check, s]));

    if has_stack {
        let mut seq: Vec<Stmt> = table
            .iter()
            .map(|e| {
                Stmt::from_kind_unchecked(StmtKind::Store {
                    name: names.stack_peak_buf.as_str().into(),
                    value: u64_imm(e.stack_peak_bytes),
                    index: i32_imm(e.id as i64),
                    predicate: Expr::const_true(),
                    alignment: ModulusRemainder::UNKNOWN,
                })
            })
            .collect();
        seq.push(s);
        seq.push(Stmt::free(names.stack_peak_buf.as_str()));
        s = allocate_u64(&names.stack_peak_buf, i32_imm(n as i64), Stmt::block(seq));
    }

    let column = |f: &dyn Fn(&Entry) -> Expr| make_struct(table.iter().map(f).collect());
    let opt = |v: Option<usize>| i32_imm(v.map_or(-1, |x| x as i64));
    s = Stmt::let_stmt(names.func_names.as_str(), column(&|e| Expr::string(&e.display_name)), s);
    s = Stmt::let_stmt(names.func_parents.as_str(), column(&|e| opt(e.parent)), s);
    s = Stmt::let_stmt(names.func_canonical_ids.as_str(), column(&|e| i32_imm(e.canonical_id as i64)), s);
    s = Stmt::let_stmt(names.func_kinds.as_str(), column(&|e| i32_imm(e.kind.code() as i64)), s);
    s = Stmt::let_stmt(names.func_buffer_func_ids.as_str(), column(&|e| opt(e.buffer_func_id)), s);
    let end = Intrinsic::RegisterDestructor
        .call(Type::void_ptr(), vec![Expr::string("halide_profiler_instance_end"), instance]);
    s = Stmt::block(vec![Stmt::evaluate(end), s]);

    let words = (INSTANCE_STATE_BYTES + FUNC_STATS_BYTES * n).div_ceil(8);
    allocate_u64(&names.instance, i32_imm(words as i64), s)
}

fn allocate_u64(name: &str, extent: Expr, body: Stmt) -> Stmt {
    Stmt::from_kind_unchecked(StmtKind::Allocate {
        name: name.into(),
        ty: Type::uint(64, 1),
        memory_type: MemoryType::Auto,
        extents: vec![extent],
        condition: Expr::const_true(),
        new_expr: None,
        free_function: None,
        padding: 0,
        body,
    })
}
