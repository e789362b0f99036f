//! Device allocations, copies and dirty bits around buffers used on a GPU (the
//! reference's `inject_host_dev_buffer_copies`, run just after `select_gpu_api`).
//!
//! A buffer lives on the host and, once a device loop touches it, on a device too; the
//! runtime keeps a host-dirty and a device-dirty bit in its `halide_buffer_t`. This pass
//! makes those transitions explicit:
//!
//! * Each **internal allocation** a device loop touches gets a device allocation: a
//!   combined host-and-device allocation (`halide_device_and_host_malloc`, the host
//!   pointer taken from the `.buffer`) when it is used on the host and on one device; a
//!   device allocation beside the host one otherwise, with the host allocation dropped
//!   (`if false`) when only a device uses it. Either way a destructor is registered and
//!   the memory freed after the buffer's last use.
//! * Then, for that buffer and for every **input and output** (at the innermost statement
//!   holding every produce and consume), the code is read as a sequence of leaves at the
//!   buffer's loop level: a loop touching the buffer on both the host and a device is
//!   entered, anything else is a leaf. Before a leaf go the copies it needs
//!   (`halide_copy_to_host` before a host use of device-dirty data,
//!   `halide_copy_to_device` before a device use of host-dirty data,
//!   `halide_device_malloc` before the first device use of fresh memory); after it, the
//!   dirty bits its writes set. What is known of the bits is tracked from leaf to leaf and
//!   forgotten where control flow makes it uncertain (loops, the join of an `if`).
//!
//! Each call to the runtime is checked: `let halide_copy_to_device_result = ...` then
//! `assert(halide_copy_to_device_result == 0, ...)`, the result's name drawn from the
//! run's [`NameGen`] (the reference's `unique_name`).
//!
//! What is used where is summarised once per statement node and buffer (a bit set of
//! device APIs), so the pass is linear in the IR for each buffer it manages, where the
//! reference re-reads the subtree at every loop level.

use std::collections::BTreeSet;

use loopir::dag::{self, Node};
use loopir::mutate::{Mutator, TryMutator};
use loopir::pipeline::NameGen;
use loopir::stack::with_stack;
use loopir::{
    CType, CallType, DeviceApi, Expr, ExprKind, Intrinsic, MemoryType, Name, Stmt, StmtKind, Type, make,
};
use rustc_hash::{FxHashMap, FxHashSet};

use crate::error::LowerError;
use crate::select_gpu_api::device_interface_call;
use crate::storage_flattening::null_handle;

/// `stmt` (storage-flattened, its GPU API selected) with the device allocations, copies,
/// dirty bits and frees of its buffers made explicit; the names of the runtime calls'
/// results are drawn from `names`.
///
/// An error if a `Default_GPU` loop is left (run [`select_gpu_api`](fn@crate::select_gpu_api)
/// first), if one leaf touches a buffer on two devices, or if an internal allocation used
/// on the host and on a device has no `.buffer` to hold its host pointer.
///
/// ```
/// use loopir::pipeline::NameGen;
/// use loopir_lower::inject_host_dev_buffer_copies;
/// let s = loopir::parse_stmt(
///     "produce out {\n gpu_block<CUDA> (b, 0, 3) {\n  out[b] = 0\n }\n}\n",
/// )
/// .unwrap();
/// let out = inject_host_dev_buffer_copies(&s, &mut NameGen::new()).unwrap().to_string();
/// // `out` is an output, in a state nothing tells: it is copied to the device before the
/// // kernel and marked device-dirty after it.
/// assert_eq!(
///     out,
///     "produce out {\n \
///      let halide_copy_to_device_result = halide_copy_to_device((struct halide_buffer_t *)out.buffer, \
///      (struct halide_device_interface_t const *)halide_cuda_device_interface())\n \
///      assert(halide_copy_to_device_result == 0, halide_copy_to_device_result)\n \
///      gpu_block<CUDA> (b, 0, 3) {\n  out[b] = 0\n }\n \
///      _halide_buffer_set_device_dirty((struct halide_buffer_t *)out.buffer, true)\n}\n"
/// );
/// ```
pub fn inject_host_dev_buffer_copies(stmt: &Stmt, names: &mut NameGen) -> Result<Stmt, LowerError> {
    let internal = Internal { names }.try_mutate_stmt(stmt)?;
    let names = &mut *names;
    let Some(site) = outermost_produce(&internal) else {
        // Nothing produced (the pipeline simplified away): no inputs or outputs to manage.
        return Ok(internal);
    };
    let externals = external_buffers(&internal);
    AtSite { site, externals, names }.try_mutate_stmt(&internal)
}

// ----- What a statement does with one buffer -----

/// A set of device APIs, one bit per [`DeviceApi`] in declaration order (the reference's
/// order). The bit of [`DeviceApi::None`] stands for "the device of the enclosing loop":
/// a summary is made without knowing where its statement runs, and resolved by the loop
/// that sets a device, or by the host at the leaf level.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Devices(u16);

const ENCLOSING: Devices = Devices(1 << DeviceApi::None as u16);

impl Devices {
    fn has(self, api: DeviceApi) -> bool {
        self.0 & (1 << api as u16) != 0
    }
    fn len(self) -> u32 {
        self.0.count_ones()
    }
    /// The enclosing device replaced by `api` (when `api` sets one).
    fn resolve(self, api: DeviceApi) -> Devices {
        if api == DeviceApi::None || !self.has(DeviceApi::None) {
            return self;
        }
        Devices((self.0 & !ENCLOSING.0) | (1 << api as u16))
    }
    fn iter(self) -> impl Iterator<Item = DeviceApi> {
        DeviceApi::ALL.into_iter().filter(move |a| self.has(*a))
    }
}

/// Where a statement or expression touches and writes the buffer, and whether it holds a
/// loop.
#[derive(Clone, Copy, Debug, Default)]
struct Usage {
    touched: Devices,
    writing: Devices,
    has_loop: bool,
}

impl Usage {
    fn union(self, other: Usage) -> Usage {
        Usage {
            touched: Devices(self.touched.0 | other.touched.0),
            writing: Devices(self.writing.0 | other.writing.0),
            has_loop: self.has_loop || other.has_loop,
        }
    }
    fn resolve(self, api: DeviceApi) -> Usage {
        Usage {
            touched: self.touched.resolve(api),
            writing: self.writing.resolve(api),
            has_loop: self.has_loop,
        }
    }
    fn touches(self) -> bool {
        self.touched.0 != 0
    }
}

/// The usage of one buffer, memoised per node (the nodes are kept alive with their
/// summaries, so an address is never reused while the cache lives).
struct UsageOf {
    buffer: Name,
    buffer_var: String,
    stmts: FxHashMap<*const StmtKind, (Stmt, Usage)>,
    exprs: FxHashMap<*const loopir::ExprNode, (Expr, Usage)>,
}

impl UsageOf {
    fn new(buffer: &Name) -> UsageOf {
        UsageOf {
            buffer: buffer.clone(),
            buffer_var: format!("{buffer}.buffer"),
            stmts: FxHashMap::default(),
            exprs: FxHashMap::default(),
        }
    }

    fn is_buffer_var(&self, e: &Expr) -> bool {
        matches!(e.kind(), ExprKind::Variable(n) if n.as_ref() == self.buffer_var)
    }

    fn expr(&mut self, e: &Expr) -> Usage {
        if e.is_leaf() {
            return Usage::default();
        }
        if let Some((_, u)) = self.exprs.get(&e.as_ptr()) {
            return *u;
        }
        let u = with_stack(|| self.expr_uncached(e));
        self.exprs.insert(e.as_ptr(), (e.clone(), u));
        u
    }

    fn expr_uncached(&mut self, e: &Expr) -> Usage {
        let mut u = Usage::default();
        // Image loads and stores name their buffer by its `.buffer` in argument 1, which is
        // not a use in itself; `debug_to_file` writes the buffer it is given.
        if let Some((
            intrinsic @ (Intrinsic::ImageLoad | Intrinsic::ImageStore | Intrinsic::DebugToFile),
            args,
        )) = e.as_intrinsic()
        {
            if args.get(1).is_some_and(|a| self.is_buffer_var(a)) {
                u.touched = ENCLOSING;
                if intrinsic != Intrinsic::ImageLoad {
                    u.writing = ENCLOSING;
                }
            }
            if intrinsic == Intrinsic::DebugToFile {
                return u;
            }
            for (i, a) in args.iter().enumerate() {
                if i != 1 {
                    u = u.union(self.expr(a));
                }
            }
            return u;
        }
        for c in e.children() {
            u = u.union(self.expr(c));
        }
        if let ExprKind::Load { name, .. } = e.kind()
            && *name == self.buffer
        {
            u.touched = ENCLOSING;
        }
        u
    }

    fn exprs<'a>(&mut self, es: impl IntoIterator<Item = &'a Expr>) -> Usage {
        es.into_iter().fold(Usage::default(), |u, e| u.union(self.expr(e)))
    }

    fn stmt(&mut self, s: &Stmt) -> Result<Usage, LowerError> {
        if let Some((_, u)) = self.stmts.get(&s.as_ptr()) {
            return Ok(*u);
        }
        let u = with_stack(|| self.stmt_uncached(s))?;
        self.stmts.insert(s.as_ptr(), (s.clone(), u));
        Ok(u)
    }

    fn stmt_uncached(&mut self, s: &Stmt) -> Result<Usage, LowerError> {
        let own = match s.kind() {
            StmtKind::For { name, min, max, device_api, body, .. } => {
                if *device_api == DeviceApi::DefaultGpu {
                    return Err(LowerError::ir(
                        format!("for {name}"),
                        "a Default_GPU loop is left: select the GPU API first",
                    ));
                }
                let inner = self.exprs([min, max]).union(self.stmt(body)?);
                return Ok(Usage { has_loop: true, ..inner.resolve(*device_api) });
            }
            StmtKind::Store { name, value, index, predicate, .. } => {
                let mut u = self.exprs([value, index, predicate]);
                if *name == self.buffer {
                    u.touched = Devices(u.touched.0 | ENCLOSING.0);
                    u.writing = Devices(u.writing.0 | ENCLOSING.0);
                }
                u
            }
            StmtKind::LetStmt { value, .. } => self.expr(value),
            StmtKind::AssertStmt { condition, message } => self.exprs([condition, message]),
            StmtKind::ProducerConsumer { .. }
            | StmtKind::Free { .. }
            | StmtKind::Block(_)
            | StmtKind::Fork { .. }
            | StmtKind::Atomic { .. }
            | StmtKind::HoistedStorage { .. } => Usage::default(),
            StmtKind::Provide { values, args, predicate, .. } => {
                self.exprs(values.iter().chain(args).chain([predicate]))
            }
            StmtKind::Allocate { extents, condition, new_expr, .. } => {
                self.exprs(extents.iter().chain([condition]).chain(new_expr))
            }
            StmtKind::Realize { bounds, condition, .. } | StmtKind::Prefetch { bounds, condition, .. } => {
                self.exprs(bounds.iter().flat_map(|b| [&b.min, &b.extent]).chain([condition]))
            }
            StmtKind::Acquire { semaphore, count, .. } => self.exprs([semaphore, count]),
            StmtKind::IfThenElse { condition, .. } => self.expr(condition),
            StmtKind::Evaluate(e) => self.expr(e),
        };
        let mut u = own;
        for c in s.children() {
            u = u.union(self.stmt(c)?);
        }
        Ok(u)
    }
}

// ----- The copies for one buffer -----

/// What is known of a flag of the buffer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Known {
    Unknown,
    No,
    Yes,
}

/// What is known of the buffer at a point of the walk.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct BufferState {
    device_dirty: Known,
    host_dirty: Known,
    device_allocated: Known,
    /// The device its device allocation is on, if known ([`DeviceApi::None`] if not).
    device: DeviceApi,
}

impl BufferState {
    const UNKNOWN: BufferState = BufferState {
        device_dirty: Known::Unknown,
        host_dirty: Known::Unknown,
        device_allocated: Known::Unknown,
        device: DeviceApi::None,
    };
    const FRESH: BufferState = BufferState {
        device_dirty: Known::No,
        host_dirty: Known::No,
        device_allocated: Known::No,
        device: DeviceApi::None,
    };

    /// What is known after either of two paths.
    fn join(self, other: BufferState) -> BufferState {
        let pick = |a: Known, b: Known| if a == b { a } else { Known::Unknown };
        let same_allocation = self.device_allocated == other.device_allocated && self.device == other.device;
        BufferState {
            device_dirty: pick(self.device_dirty, other.device_dirty),
            host_dirty: pick(self.host_dirty, other.host_dirty),
            device_allocated: if same_allocation { self.device_allocated } else { Known::Unknown },
            device: if same_allocation { self.device } else { DeviceApi::None },
        }
    }
}

/// `let <callee>_result = <callee>(args)` then the assertion that it is 0.
fn checked_runtime_call(names: &mut NameGen, callee: &str, args: Vec<Expr>) -> Stmt {
    let result = names.unique(&format!("{callee}_result"));
    let call = Expr::call(Type::INT32, callee, args, CallType::Extern);
    let var = Expr::var(Type::INT32, result.clone());
    // Both sides are int32: the comparison and the assertion are well typed.
    let is_zero = make::eq(var.clone(), Expr::i32(0));
    let check = Stmt::from_kind_unchecked(StmtKind::AssertStmt { condition: is_zero, message: var });
    Stmt::let_stmt(result, call, check)
}

/// The runtime's interface of `api` for memory of type `memory_type`.
fn device_interface(api: DeviceApi, memory_type: MemoryType, buffer: &str) -> Result<Expr, LowerError> {
    let ty = Type::handle(CType::new("struct halide_device_interface_t const *"), 1);
    let texture = memory_type == MemoryType::GpuTexture;
    match api {
        DeviceApi::Host => Ok(null_handle(ty)),
        DeviceApi::OpenCl if texture => {
            Ok(Expr::call(ty, "halide_opencl_image_device_interface", vec![], CallType::Extern))
        }
        DeviceApi::D3D12Compute if texture => {
            Ok(Expr::call(ty, "halide_d3d12compute_image_device_interface", vec![], CallType::Extern))
        }
        _ => device_interface_call(api).ok_or_else(|| {
            LowerError::ir(format!("buffer {buffer}"), format!("`{}` is not a device API", api.name()))
        }),
    }
}

/// Injects the copies, mallocs and dirty bits of one buffer, walking its uses as a
/// sequence of leaves (see the module docs).
struct BufferCopies<'n> {
    buffer: Name,
    /// An input or output: nothing is known of it, and it never moves between devices
    /// here (its owner decides).
    is_external: bool,
    memory_type: MemoryType,
    state: BufferState,
    /// The last leaf (or loop, or `if`) that uses the buffer: the device memory is freed
    /// after it.
    last_use: Option<Stmt>,
    usage: UsageOf,
    names: &'n mut NameGen,
}

impl<'n> BufferCopies<'n> {
    fn new(
        buffer: &Name,
        is_external: bool,
        memory_type: MemoryType,
        names: &'n mut NameGen,
    ) -> BufferCopies<'n> {
        BufferCopies {
            buffer: buffer.clone(),
            is_external,
            memory_type,
            state: if is_external { BufferState::UNKNOWN } else { BufferState::FRESH },
            last_use: None,
            usage: UsageOf::new(buffer),
            names,
        }
    }

    fn buffer_var(&self) -> Expr {
        Expr::var(Type::buffer_ptr(), format!("{}.buffer", self.buffer))
    }

    fn set_dirty(&self, which: &str) -> Stmt {
        let call = Expr::call(
            Type::INT32,
            format!("_halide_buffer_set_{which}_dirty"),
            vec![self.buffer_var(), Expr::bool(true)],
            CallType::Extern,
        );
        Stmt::evaluate(call)
    }

    fn runtime(&mut self, callee: &str, device: Option<DeviceApi>) -> Result<Stmt, LowerError> {
        let mut args = vec![self.buffer_var()];
        if let Some(api) = device {
            args.push(device_interface(api, self.memory_type, &self.buffer)?);
        }
        Ok(checked_runtime_call(self.names, callee, args))
    }

    fn mutate(&mut self, s: &Stmt) -> Result<Stmt, LowerError> {
        with_stack(|| self.mutate_uncached(s))
    }

    fn mutate_uncached(&mut self, s: &Stmt) -> Result<Stmt, LowerError> {
        match s.kind() {
            StmtKind::For { body, .. } => {
                let usage = self.usage.stmt(s)?.resolve(DeviceApi::Host);
                if usage.touched.len() <= 1 {
                    return self.leaf(s, usage);
                }
                // Used on the host and a device inside: the state on entry is the join of
                // the state before the loop and after an iteration, and on exit may be
                // either (the loop may run no iteration). Forget everything on both sides.
                let outer_last_use = self.last_use.take();
                self.state = BufferState::UNKNOWN;
                let new_body = self.mutate(body)?;
                let out = s.with_body(new_body).unwrap_or_else(|| s.clone());
                self.last_use = if self.last_use.is_some() { Some(out.clone()) } else { outer_last_use };
                self.state = BufferState::UNKNOWN;
                Ok(out)
            }
            StmtKind::Fork { .. }
            | StmtKind::Evaluate(_)
            | StmtKind::AssertStmt { .. }
            | StmtKind::Store { .. } => {
                let usage = self.usage.stmt(s)?.resolve(DeviceApi::Host);
                self.leaf(s, usage)
            }
            StmtKind::LetStmt { value, body, .. } => {
                if self.usage.expr(value).touches() {
                    let usage = self.usage.stmt(s)?.resolve(DeviceApi::Host);
                    return self.leaf(s, usage);
                }
                let new_body = self.mutate(body)?;
                Ok(s.with_body(new_body).unwrap_or_else(|| s.clone()))
            }
            StmtKind::Block(stmts) => self.block(s, stmts),
            StmtKind::IfThenElse { condition, then_case, else_case } => {
                let outer_last_use = self.last_use.take();
                let before = self.state;
                let then_out = self.mutate(then_case)?;
                let then_touches = self.last_use.take().is_some();
                let after_then = self.state;
                self.state = before;
                let else_out = else_case.as_ref().map(|e| self.mutate(e)).transpose()?;
                let else_touches = self.last_use.take().is_some();
                self.state = self.state.join(after_then);
                let out = Stmt::from_kind_unchecked(StmtKind::IfThenElse {
                    condition: condition.clone(),
                    then_case: then_out,
                    else_case: else_out,
                });
                self.last_use = if then_touches || else_touches { Some(out.clone()) } else { outer_last_use };
                Ok(out)
            }
            StmtKind::ProducerConsumer { body, .. }
            | StmtKind::Allocate { body, .. }
            | StmtKind::Realize { body, .. }
            | StmtKind::Prefetch { body, .. }
            | StmtKind::Acquire { body, .. }
            | StmtKind::Atomic { body, .. }
            | StmtKind::HoistedStorage { body, .. } => {
                let new_body = self.mutate(body)?;
                Ok(s.with_body(new_body).unwrap_or_else(|| s.clone()))
            }
            StmtKind::Provide { .. } | StmtKind::Free { .. } => Ok(s.clone()),
        }
    }

    /// A block: its statements one by one until the rest holds no loop, which is one leaf
    /// (so that no dirty bit lands between stores that could be interleaved).
    fn block(&mut self, whole: &Stmt, stmts: &[Stmt]) -> Result<Stmt, LowerError> {
        // usage_from[i]: the usage of stmts[i..].
        let mut usage_from = vec![Usage::default(); stmts.len() + 1];
        for (i, st) in stmts.iter().enumerate().rev() {
            usage_from[i] = usage_from[i + 1].union(self.usage.stmt(st)?);
        }
        let mut out: Vec<Stmt> = Vec::with_capacity(stmts.len());
        for (i, st) in stmts.iter().enumerate() {
            if i + 1 == stmts.len() {
                out.push(self.mutate(st)?);
                break;
            }
            if !usage_from[i].has_loop {
                let rest = if i == 0 { whole.clone() } else { Stmt::block(stmts[i..].to_vec()) };
                let done = self.leaf(&rest, usage_from[i].resolve(DeviceApi::Host))?;
                if done.same_as(&rest) {
                    out.extend(stmts[i..].iter().cloned());
                } else {
                    out.push(done);
                }
                break;
            }
            out.push(self.mutate(st)?);
        }
        if out.len() == stmts.len() && out.iter().zip(stmts).all(|(a, b)| a.same_as(b)) {
            return Ok(whole.clone());
        }
        Ok(Stmt::block(out))
    }

    /// The copies before one leaf and the dirty bits after it; the state updated.
    fn leaf(&mut self, s: &Stmt, usage: Usage) -> Result<Stmt, LowerError> {
        if usage.touches() {
            // The free goes after the leaf's last statement (a block's statements are
            // spliced into the block around them).
            let mut last = s.clone();
            while let StmtKind::Block(v) = last.kind() {
                let Some(l) = v.last() else { break };
                let l = l.clone();
                last = l;
            }
            self.last_use = Some(last);
        }
        let touched = usage.touched;
        let on_host = touched.has(DeviceApi::Host);
        let host_count = u32::from(on_host);
        let on_device = touched.len() > host_count;
        let written_on_host = usage.writing.has(DeviceApi::Host);
        // As the reference counts it: the writing devices against whether the host
        // *touched* the buffer.
        let written_on_device = usage.writing.len() > host_count;
        let mut devices = touched.iter().filter(|d| *d != DeviceApi::Host);
        let device = devices.next().unwrap_or(DeviceApi::None);
        if let Some(other) = devices.next() {
            return Err(LowerError::ir(
                format!("buffer {}", self.buffer),
                format!(
                    "used on two devices ({} and {}) within one statement; split it with a loop",
                    device.name(),
                    other.name()
                ),
            ));
        }

        let st = self.state;
        let flip = st.device_allocated != Known::No
            && st.device != device
            && st.device != DeviceApi::None
            && device != DeviceApi::None
            && !self.is_external;
        let copy_to_device = on_device && (st.host_dirty != Known::No || flip);
        // A copy to the device allocates if needed.
        let malloc = on_device && st.device_allocated != Known::Yes && !copy_to_device;
        // A move between devices goes through the host.
        let copy_to_host = (on_host || flip) && st.device_dirty != Known::No;
        let mark_host_dirty = written_on_host && st.host_dirty != Known::Yes;
        let mark_device_dirty = written_on_device && st.device_dirty != Known::Yes;

        let mut seq = Vec::new();
        if copy_to_host {
            seq.push(self.runtime("halide_copy_to_host", None)?);
            self.state.device_dirty = Known::No;
        }
        if flip {
            // The old device's memory is freed before the new device's is allocated.
            seq.push(self.set_dirty("host"));
            seq.push(self.runtime("halide_device_free", None)?);
            self.state.device_allocated = Known::No;
            self.state.device_dirty = Known::No;
        }
        if copy_to_device {
            seq.push(self.runtime("halide_copy_to_device", Some(device))?);
            self.state.host_dirty = Known::No;
            self.state.device_allocated = Known::Yes;
            self.state.device = device;
        }
        if malloc {
            seq.push(self.runtime("halide_device_malloc", Some(device))?);
            self.state.device_allocated = Known::Yes;
            self.state.device = device;
        }
        if seq.is_empty() && !mark_host_dirty && !mark_device_dirty {
            return Ok(s.clone());
        }
        seq.push(s.clone());
        if mark_host_dirty {
            seq.push(self.set_dirty("host"));
            self.state.host_dirty = Known::Yes;
        }
        if mark_device_dirty {
            seq.push(self.set_dirty("device"));
            self.state.device_dirty = Known::Yes;
        }
        Ok(Stmt::block(seq))
    }
}

// ----- Internal allocations -----

/// Gives every internal allocation a device touches its device memory and copies. Device
/// loops are not entered (their allocations are the kernel's own).
struct Internal<'n> {
    names: &'n mut NameGen,
}

impl TryMutator for Internal<'_> {
    type Error = LowerError;

    fn try_mutate_stmt(&mut self, s: &Stmt) -> Result<Stmt, LowerError> {
        match s.kind() {
            StmtKind::For { device_api, .. } if !matches!(device_api, DeviceApi::Host | DeviceApi::None) => {
                Ok(s.clone())
            }
            StmtKind::Allocate { .. } => self.allocation(s),
            _ => self.try_super_stmt(s),
        }
    }
}

impl Internal<'_> {
    fn allocation(&mut self, s: &Stmt) -> Result<Stmt, LowerError> {
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
            return self.try_super_stmt(s);
        };
        let usage = UsageOf::new(name).stmt(body)?.resolve(DeviceApi::Host);
        let on_host = usage.touched.has(DeviceApi::Host);
        let on_device = usage.touched.len() > u32::from(on_host);
        if !on_device {
            return self.try_super_stmt(s);
        }
        let inner = self.try_mutate_stmt(body)?;
        let mut copies = BufferCopies::new(name, false, *memory_type, self.names);
        let mut new_body = copies.mutate(&inner)?;
        let last_use = copies.last_use.take();
        let buffer_name = format!("{name}.buffer");
        let buffer = Expr::var(Type::void_ptr(), buffer_name.clone());

        if on_host && usage.touched.len() == 2 {
            // The host and one device: one combined allocation, its host pointer the
            // `.buffer`'s.
            let device = usage.touched.iter().find(|d| *d != DeviceApi::Host).unwrap_or(DeviceApi::None);
            if let Some(last) = last_use {
                let free =
                    checked_runtime_call(self.names, "halide_device_and_host_free", vec![buffer.clone()]);
                new_body = free_after(&new_body, &last, free, name)?;
            }
            let interface = device_interface(device, *memory_type, name)?;
            let mut combined = Combined {
                buffer: name.clone(),
                buffer_name,
                allocation: s,
                interface,
                names: self.names,
                found: false,
            };
            let out = combined.mutate_stmt(&new_body);
            if !combined.found {
                return Err(LowerError::ir(
                    format!("allocate {name}"),
                    format!(
                        "used on the host and a device, but no `let {name}.buffer` holds its host pointer"
                    ),
                ));
            }
            return Ok(out);
        }

        // Only on devices (one or several): a device allocation beside the host one.
        if let Some(last) = last_use {
            let free = checked_runtime_call(self.names, "halide_device_free", vec![buffer.clone()]);
            new_body = free_after(&new_body, &last, free, name)?;
        }
        new_body = DeviceDestructor { buffer_name }.mutate_stmt(&new_body);
        let mut condition = condition.clone();
        if !on_host && usage.touched.len() == 1 {
            // No host memory at all: references to it (the `.buffer`'s) become null.
            condition = Expr::bool(false);
            new_body =
                loopir::substitute::substitute_in_stmt(name, &null_handle(Type::void_ptr()), &new_body);
        }
        Ok(Stmt::from_kind_unchecked(StmtKind::Allocate {
            name: name.clone(),
            ty: *ty,
            memory_type: *memory_type,
            extents: extents.clone(),
            condition,
            new_expr: new_expr.clone(),
            free_function: free_function.clone(),
            padding: *padding,
            body: new_body,
        }))
    }
}

/// `body` with `free` placed just after the statement `last` (by identity).
fn free_after(body: &Stmt, last: &Stmt, free: Stmt, buffer: &str) -> Result<Stmt, LowerError> {
    struct FreeAfter<'a> {
        last: &'a Stmt,
        free: Option<Stmt>,
    }
    impl Mutator for FreeAfter<'_> {
        fn mutate_stmt(&mut self, s: &Stmt) -> Stmt {
            if s.same_as(self.last)
                && let Some(free) = self.free.take()
            {
                return Stmt::seq(s.clone(), free);
            }
            self.super_stmt(s)
        }
    }
    let mut m = FreeAfter { last, free: Some(free) };
    let out = m.mutate_stmt(body);
    if m.free.is_some() {
        return Err(LowerError::ir(
            format!("allocate {buffer}"),
            "its last use was lost while injecting copies",
        ));
    }
    Ok(out)
}

/// Registers the device memory's destructor at the top of the `.buffer`'s let.
struct DeviceDestructor {
    buffer_name: String,
}

impl Mutator for DeviceDestructor {
    fn mutate_stmt(&mut self, s: &Stmt) -> Stmt {
        match s.kind() {
            StmtKind::LetStmt { name, value, body } if name.as_ref() == self.buffer_name => {
                let destructor = register_destructor("halide_device_free_as_destructor", &self.buffer_name);
                Stmt::let_stmt(name.clone(), value.clone(), Stmt::seq(destructor, body.clone()))
            }
            _ => self.super_stmt(s),
        }
    }
}

fn register_destructor(function: &str, buffer_name: &str) -> Stmt {
    Stmt::evaluate(
        Intrinsic::RegisterDestructor
            .call(Type::void_ptr(), vec![Expr::string(function), Expr::var(Type::buffer_ptr(), buffer_name)]),
    )
}

/// Moves an allocation used on the host and one device inside its `.buffer`'s let, as a
/// combined host-and-device allocation whose host memory the runtime provides.
struct Combined<'a, 'n> {
    buffer: Name,
    buffer_name: String,
    /// The original `Allocate`.
    allocation: &'a Stmt,
    interface: Expr,
    names: &'n mut NameGen,
    found: bool,
}

impl Mutator for Combined<'_, '_> {
    fn mutate_stmt(&mut self, s: &Stmt) -> Stmt {
        let StmtKind::LetStmt { name, value, body } = s.kind() else { return self.super_stmt(s) };
        if name.as_ref() != self.buffer_name {
            return self.super_stmt(s);
        }
        let StmtKind::Allocate { ty, extents, condition, .. } = self.allocation.kind() else {
            return self.super_stmt(s);
        };
        self.found = true;
        let buffer = Expr::var(Type::buffer_ptr(), self.buffer_name.clone());
        let host =
            Expr::call(Type::void_ptr(), "_halide_buffer_get_host", vec![buffer.clone()], CallType::Extern);
        let allocation = Stmt::from_kind_unchecked(StmtKind::Allocate {
            name: self.buffer.clone(),
            ty: *ty,
            memory_type: MemoryType::Heap,
            extents: extents.clone(),
            condition: condition.clone(),
            new_expr: Some(host),
            free_function: Some(loopir::name("halide_device_host_nop_free")),
            // The runtime allocates the host memory: no padding is asked of it.
            padding: 0,
            body: body.clone(),
        });
        let destructor = register_destructor("halide_device_and_host_free_as_destructor", &self.buffer_name);
        let mut malloc = checked_runtime_call(
            self.names,
            "halide_device_and_host_malloc",
            vec![buffer, self.interface.clone()],
        );
        if !condition.is_const_true() {
            // An allocation's condition is a scalar boolean.
            malloc = Stmt::from_kind_unchecked(StmtKind::IfThenElse {
                condition: condition.clone(),
                then_case: malloc,
                else_case: None,
            });
        }
        // The host pointer starts null: the malloc fills it in.
        let value = loopir::substitute::substitute_one(&self.buffer, &null_handle(Type::void_ptr()), value);
        Stmt::let_stmt(name.clone(), value, Stmt::block(vec![malloc, destructor, allocation]))
    }
}

// ----- Inputs and outputs -----

/// Where the copies of inputs and outputs go: the innermost statement holding every
/// produce and consume. A block is a list here, where the reference's is a chain of
/// pairs; the reference's answer may then be the tail of a block from `from` on.
struct Site {
    node: Stmt,
    from: usize,
}

/// The reference's search: the first produce or consume found, widened to each enclosing
/// block (or block tail) whose first statement holds it.
fn outermost_produce(s: &Stmt) -> Option<Site> {
    fn visit(s: &Stmt, found: &mut Option<Site>) {
        with_stack(|| match s.kind() {
            StmtKind::ProducerConsumer { .. } => *found = Some(Site { node: s.clone(), from: 0 }),
            StmtKind::Block(stmts) => {
                let Some((last, init)) = stmts.split_last() else { return };
                for (i, st) in init.iter().enumerate() {
                    visit(st, found);
                    if found.is_some() {
                        *found = Some(Site { node: s.clone(), from: i });
                        return;
                    }
                }
                visit(last, found);
            }
            _ => {
                for c in s.children() {
                    visit(c, found);
                }
            }
        })
    }
    let mut found = None;
    visit(s, &mut found);
    found
}

/// The buffers loaded or stored, or named by a `.buffer` variable, that no allocation of
/// the statement makes: the pipeline's inputs and outputs, in name order.
fn external_buffers(s: &Stmt) -> BTreeSet<String> {
    let mut used = BTreeSet::new();
    let mut allocated = FxHashSet::default();
    dag::for_each_node(s, |node| match node {
        Node::Stmt(s) => match s.kind() {
            StmtKind::Store { name, .. } => {
                used.insert(name.to_string());
            }
            StmtKind::Allocate { name, .. } => {
                allocated.insert(name.clone());
            }
            _ => {}
        },
        Node::Expr(e) => match e.kind() {
            ExprKind::Load { name, .. } => {
                used.insert(name.to_string());
            }
            ExprKind::Variable(n) if e.ty() == Type::buffer_ptr() => {
                if let Some(b) = n.strip_suffix(".buffer") {
                    used.insert(b.to_owned());
                }
            }
            _ => {}
        },
    });
    used.retain(|n| !allocated.contains(n.as_str()));
    used
}

/// Injects the copies of every input and output at the site.
struct AtSite<'n> {
    site: Site,
    externals: BTreeSet<String>,
    names: &'n mut NameGen,
}

impl AtSite<'_> {
    fn inject(&mut self, s: &Stmt) -> Result<Stmt, LowerError> {
        let mut out = s.clone();
        for buffer in &self.externals {
            out =
                BufferCopies::new(&loopir::name(buffer), true, MemoryType::Auto, self.names).mutate(&out)?;
        }
        Ok(out)
    }
}

impl TryMutator for AtSite<'_> {
    type Error = LowerError;

    fn try_mutate_stmt(&mut self, s: &Stmt) -> Result<Stmt, LowerError> {
        if !s.same_as(&self.site.node) {
            return self.try_super_stmt(s);
        }
        let from = self.site.from;
        match s.kind() {
            StmtKind::Block(stmts) if from > 0 => {
                let tail = Stmt::block(stmts[from..].to_vec());
                let done = self.inject(&tail)?;
                if done.same_as(&tail) {
                    return Ok(s.clone());
                }
                let mut all = stmts[..from].to_vec();
                all.push(done);
                Ok(Stmt::block(all))
            }
            _ => self.inject(s),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(text: &str) -> Result<String, LowerError> {
        let s = loopir::parse_stmt(text).expect("the statement parses");
        inject_host_dev_buffer_copies(&s, &mut NameGen::new()).map(|o| o.to_string())
    }

    #[test]
    fn an_allocation_only_a_device_uses_has_no_host_memory() {
        let out = run("allocate f[int32 * 8]\n\
             let f.buffer = make_buffer((void *)f)\n\
             produce out {\n gpu_block<CUDA> (b, 0, 7) {\n  f[b] = b\n }\n gpu_block<CUDA> (c, 0, 7) {\n  out[c] = f[c]\n }\n}\n")
        .expect("the copies");
        let expected = "allocate f[int32 * 8] if false\n\
             let f.buffer = make_buffer(reinterpret<(void *)>(0_u64))\n\
             (void *)register_destructor(\"halide_device_free_as_destructor\", f.buffer)\n\
             produce out {\n\
             \x20let halide_device_malloc_result = halide_device_malloc(f.buffer, (struct halide_device_interface_t const *)halide_cuda_device_interface())\n\
             \x20assert(halide_device_malloc_result == 0, halide_device_malloc_result)\n\
             \x20gpu_block<CUDA> (b, 0, 7) {\n  f[b] = b\n }\n\
             \x20_halide_buffer_set_device_dirty(f.buffer, true)\n\
             \x20let halide_copy_to_device_result = halide_copy_to_device((struct halide_buffer_t *)out.buffer, (struct halide_device_interface_t const *)halide_cuda_device_interface())\n\
             \x20assert(halide_copy_to_device_result == 0, halide_copy_to_device_result)\n\
             \x20gpu_block<CUDA> (c, 0, 7) {\n  out[c] = f[c]\n }\n\
             \x20_halide_buffer_set_device_dirty((struct halide_buffer_t *)out.buffer, true)\n\
             \x20let halide_device_free_result = halide_device_free(f.buffer)\n\
             \x20assert(halide_device_free_result == 0, halide_device_free_result)\n\
             }\n";
        assert_eq!(out, expected);
    }

    #[test]
    fn a_kernel_under_an_if_is_copied_back_after_the_if() {
        // Inside the then-case `out` is copied to the device once, before the kernel;
        // after the `if` it may be device-dirty, so the host read copies it back. `x`, an
        // output too, is in an unknown state: copied to the host before it is written.
        let out = run("produce out {\n if (p) {\n  gpu_block<CUDA> (b, 0, 7) {\n   out[b] = b\n  }\n }\n x[0] = out[0]\n}\n")
            .expect("the copies");
        let expected = "produce out {\n if (p) {\n\
            \x20 let halide_copy_to_device_result = halide_copy_to_device((struct halide_buffer_t *)out.buffer, (struct halide_device_interface_t const *)halide_cuda_device_interface())\n\
            \x20 assert(halide_copy_to_device_result == 0, halide_copy_to_device_result)\n\
            \x20 gpu_block<CUDA> (b, 0, 7) {\n   out[b] = b\n  }\n\
            \x20 _halide_buffer_set_device_dirty((struct halide_buffer_t *)out.buffer, true)\n }\n\
            \x20let halide_copy_to_host_result$1 = halide_copy_to_host((struct halide_buffer_t *)x.buffer)\n\
            \x20assert(halide_copy_to_host_result$1 == 0, halide_copy_to_host_result$1)\n\
            \x20let halide_copy_to_host_result = halide_copy_to_host((struct halide_buffer_t *)out.buffer)\n\
            \x20assert(halide_copy_to_host_result == 0, halide_copy_to_host_result)\n\
            \x20x[0] = (int32)out[0]\n\
            \x20_halide_buffer_set_host_dirty((struct halide_buffer_t *)x.buffer, true)\n}\n";
        assert_eq!(out, expected);
    }

    #[test]
    fn a_default_gpu_loop_or_two_devices_in_one_leaf_is_refused() {
        let e = run("produce out {\n gpu_block<Default_GPU> (b, 0, 7) {\n  out[b] = b\n }\n}\n")
            .expect_err("refused");
        assert_eq!(e.to_string(), "for b: a Default_GPU loop is left: select the GPU API first");
        let e = run("produce out {\n fork {\n  gpu_block<CUDA> (b, 0, 7) {\n   out[b] = b\n  }\n } {\n  gpu_block<OpenCL> (c, 0, 7) {\n   out[c] = c\n  }\n }\n}\n")
            .expect_err("refused");
        assert_eq!(
            e.to_string(),
            "buffer out: used on two devices (CUDA and OpenCL) within one statement; split it with a loop"
        );
    }

    #[test]
    fn a_statement_without_device_loops_or_produce_is_returned_unchanged() {
        // No device touches `f`; with no produce there is no site for inputs and outputs.
        let s = loopir::parse_stmt("allocate f[int32 * 8]\nf[0] = 1\nout[0] = f[0]\n").expect("parses");
        let out = inject_host_dev_buffer_copies(&s, &mut NameGen::new()).expect("runs");
        assert!(out.same_as(&s), "{out}");
    }
}
