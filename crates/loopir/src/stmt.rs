//! Statements: immutable, shared trees of [`StmtKind`] nodes.
//!
//! Like [`Expr`], a [`Stmt`] is a cheap-to-clone shared handle with pointer identity. A
//! sequence is one [`StmtKind::Block`] holding its statements in a vector (never a Block
//! inside a Block), so long sequences are walked with a loop rather than recursion.

use std::fmt;
use std::mem::ManuallyDrop;
use std::sync::Arc;

use crate::error::IrError;
use crate::expr::{Expr, ModulusRemainder, Name};
use crate::types::Type;

/// A handle to an immutable, shared statement node.
#[derive(Clone)]
pub struct Stmt(ManuallyDrop<Arc<StmtKind>>);

/// How a loop's iterations are executed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ForType {
    /// One after another (`for`).
    Serial,
    /// On a thread pool (`parallel`).
    Parallel,
    /// As vector lanes (`vectorized`).
    Vectorized,
    /// Fully unrolled (`unrolled`).
    Unrolled,
    /// By an extern stage (`extern`).
    Extern,
    /// GPU blocks (`gpu_block`).
    GpuBlock,
    /// GPU threads (`gpu_thread`).
    GpuThread,
    /// GPU lanes (`gpu_lane`).
    GpuLane,
}

impl ForType {
    /// The keyword that starts the loop's line.
    pub fn keyword(self) -> &'static str {
        match self {
            ForType::Serial => "for",
            ForType::Parallel => "parallel",
            ForType::Vectorized => "vectorized",
            ForType::Unrolled => "unrolled",
            ForType::Extern => "extern",
            ForType::GpuBlock => "gpu_block",
            ForType::GpuThread => "gpu_thread",
            ForType::GpuLane => "gpu_lane",
        }
    }
    /// Parses a loop keyword.
    pub fn from_keyword(s: &str) -> Option<ForType> {
        Some(match s {
            "for" => ForType::Serial,
            "parallel" => ForType::Parallel,
            "vectorized" => ForType::Vectorized,
            "unrolled" => ForType::Unrolled,
            "extern" => ForType::Extern,
            "gpu_block" => ForType::GpuBlock,
            "gpu_thread" => ForType::GpuThread,
            "gpu_lane" => ForType::GpuLane,
            _ => return None,
        })
    }
    /// Whether the loop runs on a GPU (blocks, threads or lanes).
    pub fn is_gpu(self) -> bool {
        matches!(self, ForType::GpuBlock | ForType::GpuThread | ForType::GpuLane)
    }
}

/// Where a loop's body runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DeviceApi {
    /// Not specified.
    None,
    /// The host CPU.
    Host,
    /// The target's default GPU API.
    DefaultGpu,
    /// CUDA.
    Cuda,
    /// OpenCL.
    OpenCl,
    /// Metal.
    Metal,
    /// Hexagon.
    Hexagon,
    /// Hexagon DMA.
    HexagonDma,
    /// Direct3D 12 compute.
    D3D12Compute,
    /// Vulkan.
    Vulkan,
    /// WebGPU.
    WebGpu,
}

impl DeviceApi {
    /// The suffix printed after a loop keyword (`<CUDA>`); empty for None and Host.
    pub fn suffix(self) -> &'static str {
        match self {
            DeviceApi::None | DeviceApi::Host => "",
            DeviceApi::DefaultGpu => "<Default_GPU>",
            DeviceApi::Cuda => "<CUDA>",
            DeviceApi::OpenCl => "<OpenCL>",
            DeviceApi::Metal => "<Metal>",
            DeviceApi::Hexagon => "<Hexagon>",
            DeviceApi::HexagonDma => "<HexagonDma>",
            DeviceApi::D3D12Compute => "<D3D12Compute>",
            DeviceApi::Vulkan => "<Vulkan>",
            DeviceApi::WebGpu => "<WebGPU>",
        }
    }
    /// Parses the name between the angle brackets of a loop suffix.
    pub fn from_name(s: &str) -> Option<DeviceApi> {
        Some(match s {
            "Default_GPU" => DeviceApi::DefaultGpu,
            "CUDA" => DeviceApi::Cuda,
            "OpenCL" => DeviceApi::OpenCl,
            "Metal" => DeviceApi::Metal,
            "Hexagon" => DeviceApi::Hexagon,
            "HexagonDma" => DeviceApi::HexagonDma,
            "D3D12Compute" => DeviceApi::D3D12Compute,
            "Vulkan" => DeviceApi::Vulkan,
            "WebGPU" => DeviceApi::WebGpu,
            _ => return None,
        })
    }
    /// Every API, in declaration order: `DeviceApi::ALL[k] as usize == k`, so a set of
    /// APIs kept as one bit per discriminant lists its members in this order.
    ///
    /// ```
    /// use loopir::DeviceApi;
    /// assert!(DeviceApi::ALL.iter().enumerate().all(|(k, &api)| api as usize == k));
    /// assert_eq!(DeviceApi::ALL.len(), DeviceApi::WebGpu as usize + 1);
    /// ```
    pub const ALL: [DeviceApi; 11] = [
        DeviceApi::None,
        DeviceApi::Host,
        DeviceApi::DefaultGpu,
        DeviceApi::Cuda,
        DeviceApi::OpenCl,
        DeviceApi::Metal,
        DeviceApi::Hexagon,
        DeviceApi::HexagonDma,
        DeviceApi::D3D12Compute,
        DeviceApi::Vulkan,
        DeviceApi::WebGpu,
    ];
    /// The APIs a target can run its `Default_GPU` loops on: one per device feature, in
    /// the order of precedence of the reference's `get_default_device_api_for_target`
    /// (a target with both Metal and CUDA uses Metal).
    pub const TARGET_DEFAULTS: [DeviceApi; 8] = [
        DeviceApi::Metal,
        DeviceApi::OpenCl,
        DeviceApi::Cuda,
        DeviceApi::Hexagon,
        DeviceApi::HexagonDma,
        DeviceApi::D3D12Compute,
        DeviceApi::Vulkan,
        DeviceApi::WebGpu,
    ];
    /// The name printed between a loop's angle brackets (`CUDA`, `Default_GPU`), which
    /// [`DeviceApi::from_name`] reads back; `None` and `Host`, which print no brackets,
    /// are named so.
    ///
    /// ```
    /// use loopir::DeviceApi;
    /// assert_eq!(DeviceApi::Cuda.name(), "CUDA");
    /// assert_eq!(DeviceApi::from_name(DeviceApi::WebGpu.name()), Some(DeviceApi::WebGpu));
    /// ```
    pub fn name(self) -> &'static str {
        match self {
            DeviceApi::None => "None",
            DeviceApi::Host => "Host",
            _ => {
                let suffix = self.suffix();
                &suffix[1..suffix.len() - 1]
            }
        }
    }
    /// Whether the API is a GPU API.
    pub fn is_gpu(self) -> bool {
        !matches!(self, DeviceApi::None | DeviceApi::Host | DeviceApi::Hexagon | DeviceApi::HexagonDma)
    }
}

/// Where an allocation lives.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MemoryType {
    /// Chosen by the compiler (not printed).
    Auto,
    /// The heap.
    Heap,
    /// The stack.
    Stack,
    /// Registers.
    Register,
    /// GPU shared memory.
    GpuShared,
    /// GPU texture memory.
    GpuTexture,
    /// A locked cache.
    LockedCache,
    /// Hexagon VTCM.
    Vtcm,
    /// AMX tiles.
    AmxTile,
}

impl MemoryType {
    /// The printed spelling.
    pub fn as_str(self) -> &'static str {
        match self {
            MemoryType::Auto => "Auto",
            MemoryType::Heap => "Heap",
            MemoryType::Stack => "Stack",
            MemoryType::Register => "Register",
            MemoryType::GpuShared => "GPUShared",
            MemoryType::GpuTexture => "GPUTexture",
            MemoryType::LockedCache => "LockedCache",
            MemoryType::Vtcm => "VTCM",
            MemoryType::AmxTile => "AMXTile",
        }
    }
    /// Parses a printed spelling.
    pub fn from_name(s: &str) -> Option<MemoryType> {
        Some(match s {
            "Auto" => MemoryType::Auto,
            "Heap" => MemoryType::Heap,
            "Stack" => MemoryType::Stack,
            "Register" => MemoryType::Register,
            "GPUShared" => MemoryType::GpuShared,
            "GPUTexture" => MemoryType::GpuTexture,
            "LockedCache" => MemoryType::LockedCache,
            "VTCM" => MemoryType::Vtcm,
            "AMXTile" => MemoryType::AmxTile,
            _ => return None,
        })
    }
}

/// Whether loop partitioning may split a loop (never printed).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum PartitionPolicy {
    /// The compiler decides.
    #[default]
    Auto,
    /// Never partition.
    Never,
    /// Always partition.
    Always,
}

/// One dimension of a region as its first point and its number of points: how Realize
/// and Prefetch give their bounds (Halide's `Range`). The other convention, a first and a
/// last value, is [`MinMax`].
#[derive(Clone, Debug, PartialEq)]
pub struct MinExtent {
    /// First point.
    pub min: Expr,
    /// Number of points.
    pub extent: Expr,
}

impl MinExtent {
    /// The first point and the number of points.
    pub fn new(min: Expr, extent: Expr) -> MinExtent {
        MinExtent { min, extent }
    }
}

/// A loop's iterations as its first and its last value, both included: how a
/// [`StmtKind::For`] gives its bounds (the reference's `For` since Halide commit
/// f25bfc328d; Halide 21.0.0 and earlier give a [`MinExtent`]).
#[derive(Clone, Debug, PartialEq)]
pub struct MinMax {
    /// First value.
    pub min: Expr,
    /// Last value (included).
    pub max: Expr,
}

impl MinMax {
    /// The first and last value.
    pub fn new(min: Expr, max: Expr) -> MinMax {
        MinMax { min, max }
    }
}

/// What a Prefetch fetches and where (only the loop names are printed).
#[derive(Clone, Debug, PartialEq)]
pub struct PrefetchDirective {
    /// The prefetched Func or buffer.
    pub name: Name,
    /// The loop at which the prefetch is placed.
    pub at: Name,
    /// The loop from which prefetching starts.
    pub from: Name,
    /// How many iterations ahead (not printed).
    pub offset: Expr,
}

/// The kinds of statement node and their fields.
#[derive(Clone, Debug)]
pub enum StmtKind {
    /// `let name = value` for the statements of `body`.
    LetStmt {
        /// Bound name.
        name: Name,
        /// Bound value.
        value: Expr,
        /// Scope of the binding.
        body: Stmt,
    },
    /// `assert(condition, message)`.
    AssertStmt {
        /// Must hold.
        condition: Expr,
        /// Evaluated when it does not (usually an error call).
        message: Expr,
    },
    /// `produce name { body }` or `consume name { body }`.
    ProducerConsumer {
        /// The Func produced or consumed.
        name: Name,
        /// Produce (true) or consume (false).
        is_producer: bool,
        /// The statements.
        body: Stmt,
    },
    /// A loop over `min ..= max`.
    For {
        /// Loop variable.
        name: Name,
        /// First value.
        min: Expr,
        /// Last value (inclusive).
        max: Expr,
        /// Execution kind.
        for_type: ForType,
        /// Device the body runs on.
        device_api: DeviceApi,
        /// Loop-partitioning policy (not printed).
        partition_policy: PartitionPolicy,
        /// Loop body.
        body: Stmt,
    },
    /// `name[index] = value`.
    Store {
        /// Buffer name.
        name: Name,
        /// Stored value.
        value: Expr,
        /// Element index.
        index: Expr,
        /// Lanes that are stored (constant true for all).
        predicate: Expr,
        /// Known alignment of the index.
        alignment: ModulusRemainder,
    },
    /// `name(args) = values` (a multi-dimensional, possibly tuple-valued store).
    Provide {
        /// Func name.
        name: Name,
        /// One value per tuple element.
        values: Vec<Expr>,
        /// Coordinates.
        args: Vec<Expr>,
        /// Whether the store happens (constant true for always).
        predicate: Expr,
    },
    /// `allocate name[type * extents...]` for the statements of `body`.
    Allocate {
        /// Buffer name.
        name: Name,
        /// Element type.
        ty: Type,
        /// Where it lives.
        memory_type: MemoryType,
        /// Extents, multiplied together.
        extents: Vec<Expr>,
        /// Whether the allocation happens.
        condition: Expr,
        /// Custom allocation expression.
        new_expr: Option<Expr>,
        /// Custom free function name.
        free_function: Option<Name>,
        /// Extra elements added to the size.
        padding: i32,
        /// Scope of the buffer.
        body: Stmt,
    },
    /// `free name`.
    Free {
        /// Buffer name.
        name: Name,
    },
    /// `realize name(bounds) { body }`: storage for a Func over a region.
    Realize {
        /// Func name.
        name: Name,
        /// Value types of the Func (not printed).
        types: Vec<Type>,
        /// Where the storage lives.
        memory_type: MemoryType,
        /// Region, one `[min, extent]` per dimension.
        bounds: Vec<MinExtent>,
        /// Whether the realization happens.
        condition: Expr,
        /// Scope of the storage.
        body: Stmt,
    },
    /// A prefetch of a region, then `body`.
    Prefetch {
        /// Func or buffer name.
        name: Name,
        /// Value types (not printed).
        types: Vec<Type>,
        /// Region, one `[min, extent]` per dimension.
        bounds: Vec<MinExtent>,
        /// Where and how to prefetch.
        prefetch: PrefetchDirective,
        /// Whether to prefetch.
        condition: Expr,
        /// The statements that follow.
        body: Stmt,
    },
    /// A sequence of two or more statements, none itself a Block.
    Block(Vec<Stmt>),
    /// `fork { first } { rest }`: run both concurrently.
    Fork {
        /// First task (never itself a Fork).
        first: Stmt,
        /// Second task (a Fork for three or more).
        rest: Stmt,
    },
    /// `acquire (semaphore, count) { body }`.
    Acquire {
        /// Semaphore expression.
        semaphore: Expr,
        /// How much to acquire.
        count: Expr,
        /// Runs once acquired.
        body: Stmt,
    },
    /// `if (condition) { then_case } else { else_case }`.
    IfThenElse {
        /// The condition.
        condition: Expr,
        /// Runs when it holds.
        then_case: Stmt,
        /// Runs otherwise.
        else_case: Option<Stmt>,
    },
    /// An expression evaluated for its effects.
    Evaluate(Expr),
    /// `atomic (producer[, mutex]) { body }`.
    Atomic {
        /// The Func updated atomically.
        producer_name: Name,
        /// The mutex, if one is used.
        mutex_name: Option<Name>,
        /// The atomic statements.
        body: Stmt,
    },
    /// `hoisted_storage [(name)] { body }`: a marker for hoisted storage.
    HoistedStorage {
        /// The Func whose storage is hoisted, if named.
        name: Option<Name>,
        /// The statements.
        body: Stmt,
    },
}

fn bad(node: &str, detail: impl Into<String>) -> IrError {
    IrError::Type { node: node.to_owned(), detail: detail.into() }
}

fn expect_int32_scalar(node: &str, what: &str, e: &Expr) -> Result<(), IrError> {
    if e.ty().is_int32() { Ok(()) } else { Err(bad(node, format!("{what} must be int32, not {}", e.ty()))) }
}

fn expect_bool(node: &str, what: &str, e: &Expr) -> Result<(), IrError> {
    if e.ty().is_bool() { Ok(()) } else { Err(bad(node, format!("{what} must be boolean, not {}", e.ty()))) }
}

impl Stmt {
    /// Wraps a node without checking its types (see [`Expr::from_node_unchecked`]).
    pub fn from_kind_unchecked(kind: StmtKind) -> Stmt {
        Stmt(ManuallyDrop::new(Arc::new(kind)))
    }
    /// The node.
    pub fn kind(&self) -> &StmtKind {
        &self.0
    }
    /// Pointer identity.
    pub fn same_as(&self, other: &Stmt) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
    }
    /// The address of the node.
    pub fn as_ptr(&self) -> *const StmtKind {
        Arc::as_ptr(&self.0)
    }
    /// The direct child statements, in walk order (a loop's or let's body, a block's
    /// statements, both cases of an `if`, both sides of a fork).
    ///
    /// ```
    /// let s = loopir::parse_stmt("if (1 < 2) {\n f(0) = 1\n} else {\n f(0) = 2\n}\n").unwrap();
    /// let cases: Vec<String> = s.children().iter().map(|c| c.to_string()).collect();
    /// assert_eq!(cases, ["f(0) = 1\n", "f(0) = 2\n"]);
    /// assert!(s.children()[0].children().is_empty());
    /// ```
    pub fn children(&self) -> smallvec::SmallVec<[&Stmt; 2]> {
        use smallvec::smallvec;
        if let Some(body) = self.body() {
            return smallvec![body];
        }
        match self.kind() {
            StmtKind::Block(v) => v.iter().collect(),
            StmtKind::Fork { first, rest } => smallvec![first, rest],
            StmtKind::IfThenElse { then_case, else_case, .. } => {
                std::iter::once(then_case).chain(else_case.iter()).collect()
            }
            // The leaves (a single-body statement was answered above).
            _ => smallvec![],
        }
    }

    /// The one child statement of a statement that has exactly one (a let, a loop, a
    /// produce or consume, an allocation, a realization, ...); `None` for a block, a
    /// fork, an `if` and the leaves.
    pub fn body(&self) -> Option<&Stmt> {
        match self.kind() {
            StmtKind::LetStmt { body, .. }
            | StmtKind::ProducerConsumer { body, .. }
            | StmtKind::For { body, .. }
            | StmtKind::Allocate { body, .. }
            | StmtKind::Realize { body, .. }
            | StmtKind::Prefetch { body, .. }
            | StmtKind::Acquire { body, .. }
            | StmtKind::Atomic { body, .. }
            | StmtKind::HoistedStorage { body, .. } => Some(body),
            _ => None,
        }
    }

    /// This statement with its one child statement replaced by `body`, everything else
    /// shared; the same handle if `body` is that child already. `None` for a statement
    /// without exactly one child statement (a block, a fork, an `if`, a leaf).
    ///
    /// ```
    /// let s = loopir::parse_stmt("for (x, 0, 9) {\n f(x) = 1\n}\n").unwrap();
    /// let body = loopir::parse_stmt("f(x) = 2\n").unwrap();
    /// let t = s.with_body(body).unwrap();
    /// assert_eq!(t.to_string(), "for (x, 0, 9) {\n f(x) = 2\n}\n");
    /// let same = s.with_body(s.children()[0].clone()).unwrap();
    /// assert!(same.same_as(&s));
    /// ```
    pub fn with_body(&self, body: Stmt) -> Option<Stmt> {
        if self.body()?.same_as(&body) {
            return Some(self.clone());
        }
        // Every other field is shared: cloning the node clones handles.
        let mut kind = self.kind().clone();
        match &mut kind {
            StmtKind::LetStmt { body: old, .. }
            | StmtKind::ProducerConsumer { body: old, .. }
            | StmtKind::For { body: old, .. }
            | StmtKind::Allocate { body: old, .. }
            | StmtKind::Realize { body: old, .. }
            | StmtKind::Prefetch { body: old, .. }
            | StmtKind::Acquire { body: old, .. }
            | StmtKind::Atomic { body: old, .. }
            | StmtKind::HoistedStorage { body: old, .. } => *old = body,
            _ => return None,
        }
        Some(Stmt::from_kind_unchecked(kind))
    }

    /// `let name = value` over `body`.
    pub fn let_stmt(name: impl Into<Name>, value: Expr, body: Stmt) -> Stmt {
        Stmt::from_kind_unchecked(StmtKind::LetStmt { name: name.into(), value, body })
    }
    /// `assert(condition, message)`.
    pub fn assert_stmt(condition: Expr, message: Expr) -> Result<Stmt, IrError> {
        expect_bool("AssertStmt", "condition", &condition)?;
        if !condition.ty().is_scalar() {
            return Err(bad("AssertStmt", "condition must be scalar"));
        }
        Ok(Stmt::from_kind_unchecked(StmtKind::AssertStmt { condition, message }))
    }
    /// `produce name { body }`.
    pub fn produce(name: impl Into<Name>, body: Stmt) -> Stmt {
        Stmt::from_kind_unchecked(StmtKind::ProducerConsumer { name: name.into(), is_producer: true, body })
    }
    /// `consume name { body }`.
    pub fn consume(name: impl Into<Name>, body: Stmt) -> Stmt {
        Stmt::from_kind_unchecked(StmtKind::ProducerConsumer { name: name.into(), is_producer: false, body })
    }
    /// A loop over `bounds.min ..= bounds.max`; the bounds are int32.
    pub fn for_loop(
        name: impl Into<Name>,
        bounds: MinMax,
        for_type: ForType,
        device_api: DeviceApi,
        body: Stmt,
    ) -> Result<Stmt, IrError> {
        let MinMax { min, max } = bounds;
        expect_int32_scalar("For", "min", &min)?;
        expect_int32_scalar("For", "max", &max)?;
        Ok(Stmt::from_kind_unchecked(StmtKind::For {
            name: name.into(),
            min,
            max,
            for_type,
            device_api,
            partition_policy: PartitionPolicy::Auto,
            body,
        }))
    }
    /// `name[index] = value` (predicated when `predicate` is not constant true).
    pub fn store(
        name: impl Into<Name>,
        value: Expr,
        index: Expr,
        predicate: Expr,
        alignment: ModulusRemainder,
    ) -> Result<Stmt, IrError> {
        let lanes = value.ty().lanes();
        if index.ty() != Type::int(32, lanes) {
            return Err(bad("Store", format!("index must be int32 with {lanes} lanes, not {}", index.ty())));
        }
        if predicate.ty() != Type::bool(lanes) {
            return Err(bad(
                "Store",
                format!("predicate must be uint1 with {lanes} lanes, not {}", predicate.ty()),
            ));
        }
        Ok(Stmt::from_kind_unchecked(StmtKind::Store {
            name: name.into(),
            value,
            index,
            predicate,
            alignment,
        }))
    }
    /// `name(args) = values`.
    pub fn provide(
        name: impl Into<Name>,
        values: Vec<Expr>,
        args: Vec<Expr>,
        predicate: Expr,
    ) -> Result<Stmt, IrError> {
        if values.is_empty() {
            return Err(bad("Provide", "needs at least one value"));
        }
        expect_bool("Provide", "predicate", &predicate)?;
        Ok(Stmt::from_kind_unchecked(StmtKind::Provide { name: name.into(), values, args, predicate }))
    }
    /// `allocate name[ty * extents]` over `body`.
    pub fn allocate(
        name: impl Into<Name>,
        ty: Type,
        memory_type: MemoryType,
        extents: Vec<Expr>,
        condition: Expr,
        body: Stmt,
    ) -> Result<Stmt, IrError> {
        for e in &extents {
            if !e.ty().is_scalar() || !(e.ty().is_int() || e.ty().is_uint()) {
                return Err(bad("Allocate", format!("extent {e} must be a scalar integer")));
            }
        }
        expect_bool("Allocate", "condition", &condition)?;
        Ok(Stmt::from_kind_unchecked(StmtKind::Allocate {
            name: name.into(),
            ty,
            memory_type,
            extents,
            condition,
            new_expr: None,
            free_function: None,
            padding: 0,
            body,
        }))
    }
    /// `free name`.
    pub fn free(name: impl Into<Name>) -> Stmt {
        Stmt::from_kind_unchecked(StmtKind::Free { name: name.into() })
    }
    /// `realize name(bounds) { body }`.
    pub fn realize(
        name: impl Into<Name>,
        types: Vec<Type>,
        memory_type: MemoryType,
        bounds: Vec<MinExtent>,
        condition: Expr,
        body: Stmt,
    ) -> Result<Stmt, IrError> {
        expect_bool("Realize", "condition", &condition)?;
        Ok(Stmt::from_kind_unchecked(StmtKind::Realize {
            name: name.into(),
            types,
            memory_type,
            bounds,
            condition,
            body,
        }))
    }
    /// A sequence. Nested blocks are flattened; one statement is returned as is; an empty
    /// sequence is the no-op `Evaluate(0)`, as in Halide.
    pub fn block(stmts: Vec<Stmt>) -> Stmt {
        let mut flat = Vec::with_capacity(stmts.len());
        for s in stmts {
            match s.kind() {
                StmtKind::Block(inner) => flat.extend(inner.iter().cloned()),
                _ => flat.push(s),
            }
        }
        match flat.len() {
            0 => Stmt::evaluate(Expr::i32(0)),
            1 => flat.pop().unwrap_or_else(|| Stmt::evaluate(Expr::i32(0))),
            _ => Stmt::from_kind_unchecked(StmtKind::Block(flat)),
        }
    }
    /// `first` then `rest`.
    pub fn seq(first: Stmt, rest: Stmt) -> Stmt {
        Stmt::block(vec![first, rest])
    }
    /// `fork { first } { rest }`. A Fork as `first` is re-associated to the right, as Halide
    /// does, so that printing lists every task as a sibling.
    pub fn fork(first: Stmt, rest: Stmt) -> Stmt {
        if let StmtKind::Fork { first: a, rest: b } = first.kind() {
            let inner = Stmt::fork(b.clone(), rest);
            return Stmt::fork(a.clone(), inner);
        }
        Stmt::from_kind_unchecked(StmtKind::Fork { first, rest })
    }
    /// `acquire (semaphore, count) { body }`.
    pub fn acquire(semaphore: Expr, count: Expr, body: Stmt) -> Stmt {
        Stmt::from_kind_unchecked(StmtKind::Acquire { semaphore, count, body })
    }
    /// `if (condition) { then_case } [else { else_case }]`.
    pub fn if_then_else(condition: Expr, then_case: Stmt, else_case: Option<Stmt>) -> Result<Stmt, IrError> {
        expect_bool("IfThenElse", "condition", &condition)?;
        if !condition.ty().is_scalar() {
            return Err(bad("IfThenElse", "condition must be scalar"));
        }
        Ok(Stmt::from_kind_unchecked(StmtKind::IfThenElse { condition, then_case, else_case }))
    }
    /// Evaluates `value` for its effects.
    pub fn evaluate(value: Expr) -> Stmt {
        Stmt::from_kind_unchecked(StmtKind::Evaluate(value))
    }
    /// `atomic (producer[, mutex]) { body }`.
    pub fn atomic(producer_name: impl Into<Name>, mutex_name: Option<Name>, body: Stmt) -> Stmt {
        Stmt::from_kind_unchecked(StmtKind::Atomic { producer_name: producer_name.into(), mutex_name, body })
    }
    /// `hoisted_storage [(name)] { body }`.
    pub fn hoisted_storage(name: Option<Name>, body: Stmt) -> Stmt {
        Stmt::from_kind_unchecked(StmtKind::HoistedStorage { name, body })
    }

    /// Whether this is `Evaluate` of a constant (Halide's no-op).
    pub fn is_no_op(&self) -> bool {
        matches!(self.kind(), StmtKind::Evaluate(e) if e.as_int().is_some())
    }
}

impl Drop for Stmt {
    fn drop(&mut self) {
        // SAFETY: `self.0` is taken exactly once, here, and never used afterwards.
        let arc = unsafe { ManuallyDrop::take(&mut self.0) };
        crate::teardown::release_stmt(arc);
    }
}

impl Stmt {
    /// Takes the Arc out of a handle without running the handle's own `Drop`.
    pub(crate) fn into_arc(self) -> Arc<StmtKind> {
        let mut me = ManuallyDrop::new(self);
        // SAFETY: `me` is never dropped, so its field is taken exactly once.
        unsafe { ManuallyDrop::take(&mut me.0) }
    }
}

impl PartialEq for Stmt {
    /// Structural equality.
    fn eq(&self, other: &Stmt) -> bool {
        crate::equality::stmt_eq(self, other)
    }
}

impl fmt::Display for Stmt {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&crate::print::stmt_to_string(self))
    }
}

impl fmt::Debug for Stmt {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}
