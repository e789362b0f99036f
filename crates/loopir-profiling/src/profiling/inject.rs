//! Sub-pass 2: the rewriting walk that inserts the runtime calls (`docs/reference/profiling.md` §8).
//!
//! The walk keeps the reference's state exactly — the stack of profiled producers, the
//! "most recently set" row used to elide redundant updates, leaf-task and Hexagon flags,
//! the live allocations and the static stack accounting — because the emitted text depends
//! on every one of those rules, including the ones that are not loop-carried sound.

use loopir::address_map::AddressSet;
use loopir::mutate::ExprMemo;
use loopir::{
    CallType, DeviceApi, Expr, ExprKind, ForType, Intrinsic, Mutator, Name, Stmt, StmtKind, Type,
    stack::with_stack,
};
use rustc_hash::FxHashMap;

use super::alloc_size::allocation_size;
use super::entry_table::{EntryKind, EntryTable, FREE_ID, MALLOC_ID, OVERHEAD_ID, THREAD_IDLE_ID};
use super::env::FuncEnv;
use super::error::ProfilingError;
use super::names::{DEVICE_SYNC_RESULT, ENABLE_MARKER, FreshNames, ProfilerNames};
use super::options::{Feature, ProfileOptions};
use super::scan::copy_row_name;

/// How the environment sees a produce/consume or allocation name.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
#[allow(clippy::enum_variant_names)] // the names mirror the reference's classification
enum Class {
    ProfiledFunc,
    NonProfiledFunc,
    NotAFunc,
}

/// The Func a name belongs to: the text before its first `.`.
fn prefix<'n>(name: &'n str, node: &str) -> Result<&'n str, ProfilingError> {
    match name.find('.') {
        Some(0) => {
            Err(ProfilingError::NameStartsWithDot { node: format!("{node} {name}"), name: name.to_owned() })
        }
        Some(i) => Ok(&name[..i]),
        None => Ok(name),
    }
}

fn classify(env: &FuncEnv, name: &str, node: &str) -> Result<Class, ProfilingError> {
    let info = match env.get(name) {
        Some(f) => Some(f),
        None => env.get(prefix(name, node)?),
    };
    Ok(match info {
        Some(f) if f.profile => Class::ProfiledFunc,
        Some(_) => Class::NonProfiledFunc,
        None => Class::NotAFunc,
    })
}

/// What the pass remembers about a live allocation until its Free.
struct LiveAlloc {
    on_stack: bool,
    size: Expr,
    constant: Option<u64>,
    id: usize,
}

pub(crate) struct Injector<'e> {
    table: &'e mut EntryTable,
    env: &'e FuncEnv,
    options: ProfileOptions,
    names: &'e ProfilerNames,
    fresh: &'e mut FreshNames,
    marker_stmts: &'e AddressSet<*const StmtKind>,
    instance: Expr,
    local_token: Expr,
    shared_token: Expr,
    /// Rows of the enclosing profiled producers; the bottom is the overhead row.
    stack: Vec<usize>,
    /// The row last made current by an elidable update, if known.
    mrsf: Option<usize>,
    in_leaf_task: bool,
    /// False inside Hexagon loops, where the remote side cannot bill heap memory.
    profiling_memory: bool,
    hexagon_depth: u32,
    live: FxHashMap<Name, Vec<LiveAlloc>>,
    stack_current: Vec<u64>,
    stack_peak: Vec<u64>,
    /// Whether any stack allocation was accounted.
    pub has_stack: bool,
    /// Whether the pass itself introduced shadowing (a Hexagon loop inside another).
    pub introduced_shadowing: bool,
}

fn handle_var(name: &str) -> Expr {
    Expr::var(Type::void_ptr(), name)
}

fn call_i32(callee: &str, args: Vec<Expr>) -> Expr {
    Expr::call(Type::INT32, callee, args, CallType::Extern)
}

fn eval_call(callee: &str, args: Vec<Expr>) -> Stmt {
    Stmt::evaluate(call_i32(callee, args))
}

fn no_op() -> Stmt {
    Stmt::evaluate(Expr::i32(0))
}

fn id_imm(id: usize) -> Expr {
    // Row counts are bounded by the number of IR nodes, far below 2³¹.
    Expr::i32(id as i32)
}

/// `reinterpret<(void *)>(0_u64)`: the token of updates made outside leaf tasks.
fn null_token() -> Expr {
    let zero = Expr::from_node_unchecked(Type::uint(64, 1), ExprKind::UIntImm(0));
    Expr::from_node_unchecked(Type::void_ptr(), ExprKind::Reinterpret(zero))
}

/// The device-interface expression for a GPU-like device API.
fn device_interface(api: DeviceApi) -> Expr {
    let callee = match api {
        DeviceApi::Cuda => "halide_cuda_device_interface",
        DeviceApi::OpenCl => "halide_opencl_device_interface",
        DeviceApi::Metal => "halide_metal_device_interface",
        DeviceApi::HexagonDma => "halide_hexagon_dma_device_interface",
        DeviceApi::D3D12Compute => "halide_d3d12compute_device_interface",
        DeviceApi::Vulkan => "halide_vulkan_device_interface",
        DeviceApi::WebGpu => "halide_webgpu_device_interface",
        // Only loops off the host reach here; the remaining APIs use the default GPU.
        DeviceApi::DefaultGpu | DeviceApi::None | DeviceApi::Host | DeviceApi::Hexagon => {
            "halide_default_device_interface"
        }
    };
    let ty = Type::handle(loopir::CType::new("struct halide_device_interface_t const *"), 1);
    Expr::call(ty, callee, vec![], CallType::Extern)
}

/// Replaces the enable marker in the expressions of one statement, leaving its child
/// statements alone.
struct MarkerReplacer {
    instance: Expr,
    memo: ExprMemo,
}

impl Mutator for MarkerReplacer {
    fn mutate_expr(&mut self, e: &Expr) -> Expr {
        if let Some(r) = self.memo.lookup(e) {
            return r;
        }
        let r = match e.kind() {
            ExprKind::Call { .. } if e.is_intrinsic(ENABLE_MARKER) => {
                call_i32("halide_profiler_enable_instance", vec![self.instance.clone()])
            }
            _ => self.super_expr(e),
        };
        self.memo.record(e, &r);
        r
    }
    fn mutate_stmt(&mut self, s: &Stmt) -> Stmt {
        s.clone()
    }
}

/// Renames every variable `from` to the handle variable `to` (the Hexagon-side instance).
struct InstanceRenamer<'n> {
    from: &'n str,
    to: Expr,
    /// Shared subexpressions are renamed once (a walk of a DAG without it is exponential).
    memo: ExprMemo,
}

impl Mutator for InstanceRenamer<'_> {
    fn mutate_expr(&mut self, e: &Expr) -> Expr {
        if let Some(r) = self.memo.lookup(e) {
            return r;
        }
        let r = match e.kind() {
            ExprKind::Variable(n) if n.as_ref() == self.from => self.to.clone(),
            _ => self.super_expr(e),
        };
        self.memo.record(e, &r);
        r
    }
}

/// Whether `s` holds, at any depth, a parallel or GPU loop, a loop with any device API
/// (the host included), a Fork or an Acquire — anything that makes a task not a leaf.
fn contains_parallel_or_blocking(s: &Stmt) -> bool {
    let mut work = vec![s];
    while let Some(s) = work.pop() {
        match s.kind() {
            StmtKind::For { for_type, device_api, body, .. } => {
                if matches!(for_type, ForType::Parallel | ForType::GpuBlock | ForType::GpuThread)
                    || *device_api != DeviceApi::None
                {
                    return true;
                }
                work.push(body);
            }
            StmtKind::Fork { .. } | StmtKind::Acquire { .. } => return true,
            _ => work.extend(s.children()),
        }
    }
    false
}

/// Whether `e` is a call to `halide_copy_to_host` (false) or `halide_copy_to_device`
/// (true); `None` for anything else.
fn copy_call_to_device(e: &Expr) -> Option<bool> {
    match e.kind() {
        ExprKind::Call { name, .. } if name.as_ref() == "halide_copy_to_host" => Some(false),
        ExprKind::Call { name, .. } if name.as_ref() == "halide_copy_to_device" => Some(true),
        _ => None,
    }
}

impl<'e> Injector<'e> {
    pub fn new(
        table: &'e mut EntryTable,
        env: &'e FuncEnv,
        options: ProfileOptions,
        names: &'e ProfilerNames,
        fresh: &'e mut FreshNames,
        marker_stmts: &'e AddressSet<*const StmtKind>,
    ) -> Injector<'e> {
        Injector {
            table,
            env,
            options,
            instance: handle_var(&names.instance),
            local_token: handle_var(&names.local_token),
            shared_token: handle_var(&names.shared_token),
            names,
            fresh,
            marker_stmts,
            stack: vec![OVERHEAD_ID],
            mrsf: None,
            in_leaf_task: false,
            profiling_memory: true,
            hexagon_depth: 0,
            live: FxHashMap::default(),
            stack_current: Vec::new(),
            stack_peak: Vec::new(),
            has_stack: false,
            introduced_shadowing: false,
        }
    }

    /// The static stack peak of each row, indexed by id.
    pub fn stack_peaks(&self) -> &[u64] {
        &self.stack_peak
    }

    fn top(&self) -> usize {
        self.stack.last().copied().unwrap_or(OVERHEAD_ID)
    }

    /// `top` as a parent: the overhead row at the bottom means "no parent".
    fn top_parent(&self) -> Option<usize> {
        Some(self.top()).filter(|&t| t != OVERHEAD_ID)
    }

    // ---- emission helpers ----

    fn set_call(&self, id: usize, token: Expr) -> Stmt {
        eval_call("halide_profiler_set_current_func", vec![self.instance.clone(), id_imm(id), token])
    }

    fn has(&self, feature: Feature) -> bool {
        self.options.contains(feature)
    }

    /// An elidable update of the current row (nothing without [`Feature::Timing`]).
    fn set(&mut self, id: usize) -> Option<Stmt> {
        if !self.has(Feature::Timing) {
            return None;
        }
        if self.mrsf == Some(id) {
            return Some(no_op());
        }
        self.mrsf = Some(id);
        let token = if self.in_leaf_task { self.local_token.clone() } else { null_token() };
        Some(self.set_call(id, token))
    }

    /// An unconditional update that does not count for elision (nothing without
    /// [`Feature::Timing`]).
    fn force_set(&self, id: usize) -> Option<Stmt> {
        self.has(Feature::Timing).then(|| self.set_call(id, null_token()))
    }

    fn incr(&self) -> Stmt {
        eval_call("halide_profiler_incr_active_threads", vec![self.instance.clone()])
    }

    fn decr(&self) -> Stmt {
        eval_call("halide_profiler_decr_active_threads", vec![self.instance.clone()])
    }

    /// A task starts running `s` (billed to the current producer) and ends on `final_id`
    /// (nothing without [`Feature::ThreadActivity`]).
    fn activate(&self, s: Stmt, final_id: usize) -> Stmt {
        if !self.has(Feature::ThreadActivity) {
            return s;
        }
        let mut v = vec![self.incr()];
        v.extend(self.force_set(self.top()));
        v.push(s);
        v.push(self.decr());
        v.extend(self.force_set(final_id));
        Stmt::block(v)
    }

    /// The whole pipeline body: the active-thread count ([`Feature::ThreadActivity`]) and
    /// the start and end marks on the overhead row ([`Feature::Timing`]).
    pub fn activate_pipeline(&self, s: Stmt) -> Stmt {
        let threads = self.has(Feature::ThreadActivity);
        let mut v = Vec::with_capacity(5);
        if threads {
            v.push(self.incr());
        }
        v.extend(self.force_set(OVERHEAD_ID));
        v.push(s);
        if threads {
            v.push(self.decr());
            v.extend(self.force_set(OVERHEAD_ID));
        } else if self.mrsf != Some(OVERHEAD_ID) {
            // Without the thread bracket nothing runs between the body's last mark and
            // this one, so a repeat of the overhead row is left out.
            v.extend(self.force_set(OVERHEAD_ID));
        }
        Stmt::block(v)
    }

    /// The current thread waits (idle) while `s` runs elsewhere.
    fn suspend(&self, s: Stmt) -> Stmt {
        if !self.has(Feature::ThreadActivity) {
            return s;
        }
        let mut v = vec![self.decr()];
        v.extend(self.force_set(THREAD_IDLE_ID));
        v.push(s);
        v.push(self.incr());
        v.extend(self.force_set(self.top()));
        Stmt::block(v)
    }

    /// The current thread waits for a GPU launch, which keeps billing the current row.
    fn suspend_keep_row(&self, s: Stmt) -> Stmt {
        if !self.has(Feature::ThreadActivity) {
            return s;
        }
        Stmt::block(vec![self.decr(), s, self.incr()])
    }

    fn claim_token(&self, s: Stmt) -> Stmt {
        let alloca = Intrinsic::Alloca.call(Type::void_ptr(), vec![Expr::i32(4)]);
        let tokens = vec![self.shared_token.clone(), self.local_token.clone()];
        let body = Stmt::block(vec![
            eval_call("halide_profiler_acquire_sampling_token", tokens.clone()),
            s,
            eval_call("halide_profiler_release_sampling_token", tokens),
        ]);
        Stmt::let_stmt(self.names.local_token.as_str(), alloca, body)
    }

    /// `let r = callee(args)` checked by `assert(r == 0, r)`.
    fn call_and_assert(&mut self, callee: &str, args: Vec<Expr>) -> Stmt {
        let result = self.fresh.fresh(DEVICE_SYNC_RESULT);
        let var = Expr::var_i32(result.as_str());
        let cond = Expr::from_node_unchecked(
            Type::BOOL,
            ExprKind::Binary(loopir::BinOp::Eq, var.clone(), Expr::i32(0)),
        );
        let check = Stmt::from_kind_unchecked(StmtKind::AssertStmt { condition: cond, message: var });
        Stmt::let_stmt(result, call_i32(callee, args), check)
    }

    fn is_flagged(&self, s: &Stmt) -> bool {
        !self.marker_stmts.is_empty() && self.marker_stmts.contains(&s.as_ptr())
    }

    fn replace_marker_expr(&self, e: &Expr) -> Expr {
        MarkerReplacer { instance: self.instance.clone(), memo: ExprMemo::default() }.mutate_expr(e)
    }

    /// `s` with the marker replaced in its own expressions, if it holds one.
    fn with_markers_replaced(&self, original: &Stmt, s: Stmt) -> Stmt {
        if self.is_flagged(original) {
            // The replacer leaves child statements alone, so its walk of `s` rewrites only
            // the statement's own expressions.
            MarkerReplacer { instance: self.instance.clone(), memo: ExprMemo::default() }.super_stmt(&s)
        } else {
            s
        }
    }

    /// Whether a let bound to `value` is a copy site this run rewrites: every copy with
    /// [`Feature::CopySites`], copies to the device with [`Feature::DeviceSync`].
    fn rewrites_copy(&self, value: &Expr) -> bool {
        match copy_call_to_device(value) {
            Some(to_device) => self.has(Feature::CopySites) || (to_device && self.has(Feature::DeviceSync)),
            None => false,
        }
    }

    fn func_row(&mut self, name: &str, node: &str) -> Result<usize, ProfilingError> {
        let parent = self.top_parent();
        let func = prefix(name, node)?;
        Ok(self.table.mint_or_get(func, parent, EntryKind::Func, None, self.env))
    }

    // ---- the walk ----

    pub fn stmt(&mut self, s: &Stmt) -> Result<Stmt, ProfilingError> {
        with_stack(|| self.stmt_inner(s))
    }

    fn stmt_inner(&mut self, s: &Stmt) -> Result<Stmt, ProfilingError> {
        match s.kind() {
            StmtKind::Block(stmts) => {
                let mut out: Option<Vec<Stmt>> = None;
                for (i, st) in stmts.iter().enumerate() {
                    let n = self.stmt(st)?;
                    match out.as_mut() {
                        Some(v) => v.push(n),
                        None if !n.same_as(st) => {
                            let mut v = Vec::with_capacity(stmts.len() + 8);
                            v.extend(stmts[..i].iter().cloned());
                            v.push(n);
                            out = Some(v);
                        }
                        None => {}
                    }
                }
                Ok(out.map_or_else(|| s.clone(), Stmt::block))
            }
            StmtKind::LetStmt { .. } => self.let_chain(s),
            StmtKind::ProducerConsumer { name, is_producer, body } => {
                self.producer_consumer(s, name, *is_producer, body)
            }
            StmtKind::For { .. } => self.for_loop(s),
            StmtKind::Allocate { .. } => self.allocate(s),
            StmtKind::Free { name } => self.free(s, name),
            StmtKind::Fork { .. } | StmtKind::Acquire { .. } => {
                let task = self.parallel_task(s)?;
                Ok(self.suspend(task))
            }
            StmtKind::IfThenElse { condition, then_case, else_case } => {
                let old = self.mrsf;
                let condition_new =
                    if self.is_flagged(s) { self.replace_marker_expr(condition) } else { condition.clone() };
                let then_new = self.stmt(then_case)?;
                let then_end = self.mrsf;
                self.mrsf = old;
                let else_new = match else_case {
                    Some(e) => Some(self.stmt(e)?),
                    None => None,
                };
                if self.mrsf != then_end {
                    self.mrsf = None;
                }
                let unchanged = condition_new.same_as(condition)
                    && then_new.same_as(then_case)
                    && match (else_case, &else_new) {
                        (Some(a), Some(b)) => a.same_as(b),
                        _ => true,
                    };
                if unchanged {
                    return Ok(s.clone());
                }
                Ok(Stmt::from_kind_unchecked(StmtKind::IfThenElse {
                    condition: condition_new,
                    then_case: then_new,
                    else_case: else_new,
                }))
            }
            StmtKind::Evaluate(_)
            | StmtKind::AssertStmt { .. }
            | StmtKind::Store { .. }
            | StmtKind::Provide { .. } => Ok(self.with_markers_replaced(s, s.clone())),
            StmtKind::Realize { body, .. }
            | StmtKind::Prefetch { body, .. }
            | StmtKind::Atomic { body, .. }
            | StmtKind::HoistedStorage { body, .. } => {
                let b = self.stmt(body)?;
                let rebuilt = replace_body(s, b);
                Ok(self.with_markers_replaced(s, rebuilt))
            }
        }
    }

    /// A run of nested lets, walked in a loop; a copy let ends the run and is handled on
    /// its own.
    fn let_chain(&mut self, s: &Stmt) -> Result<Stmt, ProfilingError> {
        let mut frames: Vec<&Stmt> = Vec::new();
        let mut cur = s;
        while let StmtKind::LetStmt { value, body, .. } = cur.kind() {
            if self.rewrites_copy(value) {
                break;
            }
            frames.push(cur);
            cur = body;
        }
        let mut result = match cur.kind() {
            // The run stopped at a copy let.
            StmtKind::LetStmt { .. } => self.copy_site(cur)?,
            _ => self.stmt(cur)?,
        };
        for frame in frames.into_iter().rev() {
            let StmtKind::LetStmt { name, value, body } = frame.kind() else { continue };
            let value_new =
                if self.is_flagged(frame) { self.replace_marker_expr(value) } else { value.clone() };
            result = if result.same_as(body) && value_new.same_as(value) {
                frame.clone()
            } else {
                Stmt::let_stmt(name.clone(), value_new, result)
            };
        }
        Ok(result)
    }

    /// `let r = halide_copy_to_host/device(f.buffer, …)` followed by its assert: billed to
    /// a `f (copy to …)` row, with a device sync after copies to the device.
    fn copy_site(&mut self, s: &Stmt) -> Result<Stmt, ProfilingError> {
        let StmtKind::LetStmt { name, value, body } = s.kind() else {
            return self.stmt(s);
        };
        let ExprKind::Call { name: callee, args, .. } = value.kind() else {
            return self.stmt(s);
        };
        let header = || format!("let {name} = {value}");
        let Some(first) = args.first() else {
            return Err(ProfilingError::CopyWithoutArguments { node: header(), callee: callee.to_string() });
        };
        let Some(buffer) = first.as_variable().and_then(|v| v.strip_suffix(".buffer")) else {
            return Err(ProfilingError::CopyBufferNotABufferVariable {
                node: header(),
                callee: callee.to_string(),
                argument: first.to_string(),
            });
        };
        let to_device = callee.as_ref() == "halide_copy_to_device";
        let kind = if to_device { EntryKind::CopyToDevice } else { EntryKind::CopyToHost };
        let cid = if self.has(Feature::CopySites) {
            let row = copy_row_name(buffer, kind);
            let parent = self.top_parent();
            // Normally found from enumeration; a row made here (under a producer
            // enumeration did not see as the parent) gets the default kind, as in the
            // reference.
            Some(self.table.mint_or_get(&row, parent, EntryKind::Func, None, self.env))
        } else {
            None
        };

        let (check, rest) = match body.kind() {
            StmtKind::AssertStmt { .. } => (body.clone(), None),
            StmtKind::Block(v)
                if matches!(v.first().map(|f| f.kind()), Some(StmtKind::AssertStmt { .. })) =>
            {
                (v[0].clone(), Some(Stmt::block(v[1..].to_vec())))
            }
            _ => {
                let found = body.to_string();
                let found = found.lines().next().unwrap_or_default().trim().to_owned();
                return Err(ProfilingError::CopyWithoutAssert {
                    node: header(),
                    name: name.to_string(),
                    found,
                });
            }
        };
        let interface = if to_device && self.has(Feature::DeviceSync) {
            if args.len() < 2 {
                return Err(ProfilingError::CopyToDeviceWithoutInterface { node: header() });
            }
            args.last().cloned()
        } else {
            None
        };

        let start = cid.and_then(|cid| self.set(cid));
        let mut steps = vec![check];
        if let Some(iface) = interface {
            steps.push(self.call_and_assert("halide_device_sync_global", vec![iface]));
        }
        if cid.is_some() {
            let top = self.top();
            steps.extend(self.set(top));
        }
        if let Some(rest) = rest {
            steps.push(self.stmt(&rest)?);
        }
        let value_new = if self.is_flagged(s) { self.replace_marker_expr(value) } else { value.clone() };
        let site = Stmt::let_stmt(name.clone(), value_new, Stmt::block(steps));
        Ok(match start {
            Some(start) => Stmt::block(vec![start, site]),
            None => site,
        })
    }

    fn producer_consumer(
        &mut self,
        s: &Stmt,
        name: &Name,
        is_producer: bool,
        body: &Stmt,
    ) -> Result<Stmt, ProfilingError> {
        let node = if is_producer { "produce" } else { "consume" };
        if classify(self.env, name, node)? != Class::ProfiledFunc {
            let b = self.stmt(body)?;
            return Ok(replace_body(s, b));
        }
        let new_body = if is_producer {
            let id = self.func_row(name, node)?;
            self.stack.push(id);
            let start = self.set(id);
            let b = self.stmt(body);
            self.stack.pop();
            prepend(start, b?)
        } else {
            let top = self.top();
            let start = self.set(top);
            prepend(start, self.stmt(body)?)
        };
        if new_body.same_as(body) {
            return Ok(s.clone());
        }
        Ok(replace_body(s, new_body))
    }

    fn for_loop(&mut self, s: &Stmt) -> Result<Stmt, ProfilingError> {
        let StmtKind::For { for_type, device_api, body, .. } = s.kind() else {
            return Ok(s.clone());
        };
        let unordered = matches!(for_type, ForType::Parallel | ForType::GpuBlock | ForType::GpuThread);
        let bracket = *device_api == DeviceApi::Hexagon || unordered;
        let leaf = bracket && !contains_parallel_or_blocking(body);
        let claims_token = leaf && self.has(Feature::SamplingTokens);
        let on_host = matches!(device_api, DeviceApi::None | DeviceApi::Host);
        let is_hexagon = *device_api == DeviceApi::Hexagon;

        let saved_leaf = self.in_leaf_task;
        self.in_leaf_task |= claims_token;
        let old = self.mrsf;

        let new_body = if on_host || is_hexagon {
            let saved_memory = self.profiling_memory;
            if is_hexagon {
                self.profiling_memory = false;
                if self.hexagon_depth > 0 {
                    self.introduced_shadowing = true;
                }
                self.hexagon_depth += 1;
            }
            let injected = self.stmt(body);
            if is_hexagon {
                self.hexagon_depth -= 1;
            }
            self.profiling_memory = saved_memory;
            let mut b = injected?;
            if bracket {
                if claims_token {
                    b = self.claim_token(b);
                }
                b = self.activate(b, THREAD_IDLE_ID);
            }
            if is_hexagon {
                let mut renamer = InstanceRenamer {
                    from: &self.names.instance,
                    to: handle_var(&self.names.hvx_instance),
                    memo: ExprMemo::default(),
                };
                b = renamer.mutate_stmt(&b);
                let get = Expr::call(
                    Type::void_ptr(),
                    "halide_hexagon_remote_profiler_get_global_instance",
                    vec![],
                    CallType::Extern,
                );
                b = Stmt::let_stmt(self.names.hvx_instance.as_str(), get, b);
            }
            b
        } else {
            // Nothing inside a GPU kernel is instrumented.
            body.clone()
        };
        self.in_leaf_task = saved_leaf;
        if self.mrsf != old {
            self.mrsf = None;
        }

        let mut result = replace_body(s, new_body);
        if !on_host && !is_hexagon && self.has(Feature::DeviceSync) {
            let sync = self.call_and_assert("halide_device_sync_global", vec![device_interface(*device_api)]);
            result = Stmt::block(vec![result, sync]);
        }
        if bracket {
            result = if for_type.is_gpu() { self.suspend_keep_row(result) } else { self.suspend(result) };
        }
        // Loop bounds are not visited, so a marker there stays (as in the reference).
        Ok(result)
    }

    /// A Fork, an Acquire or a task body: each task gets its own activation.
    fn parallel_task(&mut self, s: &Stmt) -> Result<Stmt, ProfilingError> {
        with_stack(|| {
            let old = self.mrsf;
            let result = match s.kind() {
                StmtKind::Fork { first, rest } => {
                    let a = self.parallel_task(first)?;
                    let b = self.parallel_task(rest)?;
                    Stmt::fork(a, b)
                }
                StmtKind::Acquire { semaphore, count, body } => {
                    Stmt::acquire(semaphore.clone(), count.clone(), self.parallel_task(body)?)
                }
                _ => {
                    let b = self.stmt(s)?;
                    self.activate(b, THREAD_IDLE_ID)
                }
            };
            if self.mrsf != old {
                self.mrsf = None;
            }
            Ok(result)
        })
    }

    fn allocate(&mut self, s: &Stmt) -> Result<Stmt, ProfilingError> {
        let StmtKind::Allocate {
            name,
            ty,
            memory_type,
            extents,
            condition,
            new_expr,
            free_function,
            padding,
            body,
        } = s.kind()
        else {
            return Ok(s.clone());
        };
        let flagged = self.is_flagged(s);
        let (extents_new, condition_new) = if flagged {
            (
                extents.iter().map(|e| self.replace_marker_expr(e)).collect(),
                self.replace_marker_expr(condition),
            )
        } else {
            (extents.clone(), condition.clone())
        };
        let size = allocation_size(name, *ty, &extents_new, &condition_new)?;
        let on_stack = size.fits_on_stack && new_expr.is_none();
        let id = match classify(self.env, name, "allocate")? {
            Class::ProfiledFunc => self.func_row(name, "allocate")?,
            Class::NonProfiledFunc => self.top(),
            Class::NotAFunc => {
                let parent = self.top_parent();
                self.table.mint_or_get(name, parent, EntryKind::Allocation, None, self.env)
            }
        };
        let zero = size.is_zero();
        if !zero && on_stack && self.has(Feature::StackPeaks) {
            let bytes = size.constant.unwrap_or(0);
            if self.stack_current.len() <= id {
                self.stack_current.resize(id + 1, 0);
                self.stack_peak.resize(id + 1, 0);
            }
            self.stack_current[id] = self.stack_current[id].wrapping_add(bytes);
            self.stack_peak[id] = self.stack_peak[id].max(self.stack_current[id]);
            self.has_stack = true;
        }
        let mut out = Vec::new();
        if !zero && !on_stack && self.profiling_memory && self.has(Feature::HeapMemory) {
            out.extend(self.set(MALLOC_ID));
            out.push(eval_call(
                "halide_profiler_memory_allocate",
                vec![self.instance.clone(), id_imm(id), size.size.clone()],
            ));
        }
        self.live.entry(name.clone()).or_default().push(LiveAlloc {
            on_stack,
            size: size.size,
            constant: size.constant,
            id,
        });

        let body_new = self.stmt(body)?;
        let new_expr_new = match new_expr {
            Some(e) if flagged => Some(self.replace_marker_expr(e)),
            other => other.clone(),
        };
        let alloc = if !flagged && body_new.same_as(body) {
            s.clone()
        } else {
            Stmt::from_kind_unchecked(StmtKind::Allocate {
                name: name.clone(),
                ty: *ty,
                memory_type: *memory_type,
                extents: extents_new,
                condition: condition_new,
                new_expr: new_expr_new,
                free_function: free_function.clone(),
                padding: *padding,
                body: body_new,
            })
        };
        if out.is_empty() {
            return Ok(alloc);
        }
        out.push(alloc);
        Ok(Stmt::block(out))
    }

    fn free(&mut self, s: &Stmt, name: &Name) -> Result<Stmt, ProfilingError> {
        let Some(rec) = self.live.get_mut(name).and_then(|v| v.pop()) else {
            return Err(ProfilingError::FreeWithoutAllocate { name: name.to_string() });
        };
        if rec.constant == Some(0) {
            return Ok(s.clone());
        }
        if rec.on_stack {
            if self.has(Feature::StackPeaks)
                && let Some(cur) = self.stack_current.get_mut(rec.id)
            {
                *cur = cur.wrapping_sub(rec.constant.unwrap_or(0));
            }
            return Ok(s.clone());
        }
        if !(self.profiling_memory && self.has(Feature::HeapMemory)) {
            return Ok(s.clone());
        }
        let mut out = Vec::with_capacity(4);
        out.extend(self.set(FREE_ID));
        out.push(eval_call(
            "halide_profiler_memory_free",
            vec![self.instance.clone(), id_imm(rec.id), rec.size],
        ));
        out.push(s.clone());
        let top = self.top();
        out.extend(self.set(top));
        Ok(Stmt::block(out))
    }
}

/// `body` preceded by `first`, if there is one.
fn prepend(first: Option<Stmt>, body: Stmt) -> Stmt {
    match first {
        Some(first) => Stmt::block(vec![first, body]),
        None => body,
    }
}

/// `s` (a node with one child statement) with its child replaced; the same handle if
/// the child is unchanged.
fn replace_body(s: &Stmt, body: Stmt) -> Stmt {
    // Only single-body nodes are passed here; anything else would keep the new body alone.
    match s.with_body(body.clone()) {
        Some(rebuilt) => rebuilt,
        None => body,
    }
}
