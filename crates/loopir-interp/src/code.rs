//! The compiled form of a program: a flat list of register-machine instructions.
//!
//! Every variable of the IR is resolved to a register (a `u64` slot per lane) when the
//! program is compiled, so running it never looks a name up. Statements become jumps, so
//! a task can stop at any instruction (to wait on a semaphore or a barrier) and resume
//! later, and running deep IR uses no stack.

use loopir::{BinOp, Expr, Intrinsic, Stmt, VectorReduceOp};

use crate::elem::Elem;
use crate::error::node_line;
use crate::runtime::RtFn;

/// A register: the index of the first of its lanes in a task's register file.
pub type Reg = u32;

/// "No register" where one is optional (an absent predicate).
pub const NO_REG: Reg = u32::MAX;

/// An index into the code.
pub type Pc = u32;

/// An argument of a call: where it is, its element type and lane count.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Arg {
    /// Its register.
    pub reg: Reg,
    /// Its element type.
    pub elem: Elem,
    /// Its lanes (1 for a scalar, which is broadcast over the call's lanes).
    pub lanes: u16,
}

/// One instruction. `lanes` is the lane count of the result; `site` indexes
/// [`Program::sites`], the node an error is reported at.
#[derive(Clone, Debug)]
pub enum Instr {
    /// `dst = value` (one lane).
    Const { dst: Reg, value: u64 },
    /// `dst[0..lanes] = src[0..lanes]`.
    Copy { dst: Reg, src: Reg, lanes: u16 },
    /// `dst = a op b`, lane by lane.
    Binary { op: BinOp, elem: Elem, dst: Reg, a: Reg, b: Reg, lanes: u16 },
    /// `dst = a op b` on scalar `int32` (the commonest instructions, so they have their
    /// own: index arithmetic is most of what lowered code executes).
    BinaryI32 { op: BinOp, dst: Reg, a: Reg, b: Reg },
    /// `dst = a + b` on scalar `int32`.
    AddI32 { dst: Reg, a: Reg, b: Reg },
    /// `dst = a*b + c` on scalar `int32` (two operations).
    MulAddI32 { dst: Reg, a: Reg, b: Reg, c: Reg },
    /// `dst = a - b` on scalar `int32`.
    SubI32 { dst: Reg, a: Reg, b: Reg },
    /// `dst = a*b` on scalar `int32`.
    MulI32 { dst: Reg, a: Reg, b: Reg },
    /// `dst = min(a, b)` on scalar `int32`.
    MinI32 { dst: Reg, a: Reg, b: Reg },
    /// `dst = max(a, b)` on scalar `int32`.
    MaxI32 { dst: Reg, a: Reg, b: Reg },
    /// `dst = a op b` on scalar `float32`.
    BinaryF32 { op: BinOp, dst: Reg, a: Reg, b: Reg },
    /// `dst = ptr[index]` for one lane, all loaded.
    LoadScalar { dst: Reg, ptr: Reg, index: Reg, elem: Elem, site: u32 },
    /// `ptr[index] = value` for one lane, always stored.
    StoreScalar { ptr: Reg, index: Reg, value: Reg, elem: Elem, site: u32 },
    /// `dst = !a`.
    Not { dst: Reg, a: Reg, lanes: u16 },
    /// `dst = cond ? t : f` (a one-lane condition picks whole vectors).
    Select { dst: Reg, cond: Reg, t: Reg, f: Reg, lanes: u16, cond_lanes: u16 },
    /// `dst = to(src)`.
    Cast { dst: Reg, src: Reg, from: Elem, to: Elem, lanes: u16 },
    /// `dst = reinterpret<to>(src)`.
    Reinterpret { dst: Reg, src: Reg, from: Elem, to: Elem, from_lanes: u16, to_lanes: u16 },
    /// `dst = ramp(base, stride, count)` for a base of `base_lanes` lanes.
    Ramp { dst: Reg, base: Reg, stride: Reg, elem: Elem, base_lanes: u16, count: u16 },
    /// `dst = x<count>(src)` for a value of `src_lanes` lanes.
    Broadcast { dst: Reg, src: Reg, src_lanes: u16, count: u16 },
    /// `dst[i] = src[indices[i]]` (the inputs already concatenated at `src`).
    Shuffle { dst: Reg, src: Reg, indices: Box<[u16]> },
    /// Reduces groups of `in_lanes / out_lanes` adjacent lanes.
    Reduce { op: VectorReduceOp, elem: Elem, dst: Reg, src: Reg, in_lanes: u16, out_lanes: u16 },
    /// A lane-wise math intrinsic.
    Math { op: Intrinsic, out: Elem, dst: Reg, lanes: u16, args: Box<[Arg]>, site: u32 },
    /// `dst = ptr[index]` (lanes where `pred` is false, if given, are zero).
    Load { dst: Reg, ptr: Reg, index: Reg, pred: Reg, elem: Elem, lanes: u16, site: u32 },
    /// `ptr[index] = value` (only lanes where `pred`, if given, is true).
    Store { ptr: Reg, index: Reg, value: Reg, pred: Reg, elem: Elem, lanes: u16, site: u32 },
    /// `dst = f(args)[value_index]` for the storage whose number is in `storage`.
    FuncLoad { dst: Reg, storage: Reg, value_index: u32, args: Box<[Reg]>, elem: Elem, site: u32 },
    /// `f(args)[value_index] = value` if `pred` (if given).
    FuncStore {
        storage: Reg,
        value_index: u32,
        value: Reg,
        args: Box<[Reg]>,
        pred: Reg,
        elem: Elem,
        site: u32,
    },
    /// A call into the runtime (or an extern function).
    Call { func: RtFn, dst: Reg, ret: Elem, lanes: u16, args: Box<[Arg]>, site: u32 },
    /// `dst = make_struct(fields)`: the struct of site `slot`, refilled.
    MakeStruct { dst: Reg, fields: Box<[Arg]>, slot: u32, site: u32 },
    /// `dst = alloca(size)`: the stack memory of site `slot`.
    Alloca { dst: Reg, size: Reg, slot: u32, site: u32 },
    /// Continue at `to`.
    Jump { to: Pc },
    /// Continue at `to` when `cond` is false (zero).
    JumpIfFalse { cond: Reg, to: Pc },
    /// Continue at `to` when `cond` is true.
    JumpIfTrue { cond: Reg, to: Pc },
    /// `var = min`; continue at `end` if `min > max`.
    LoopStart { var: Reg, min: Reg, max: Reg, end: Pc },
    /// If `var < max`: `var += 1` and continue at `body`.
    LoopNext { var: Reg, max: Reg, body: Pc },
    /// An assertion failed: stop with the error code in `code`.
    Fail { code: Reg, site: u32 },
    /// `dst = ` new memory for an `Allocate` (`extents` multiplied; none if `cond` is
    /// false).
    Allocate { dst: Reg, elem: Elem, extents: Box<[Reg]>, cond: Reg, padding: u32, site: u32 },
    /// `dst = ` a token standing for the lifetime of an `Allocate` whose memory comes
    /// from a custom expression.
    AllocateToken { dst: Reg, site: u32 },
    /// Frees an allocation (`Free`, or the end of the `Allocate`'s scope when
    /// `scope_end`): the memory or token in `ptr`, then `free_fn(custom)` if given.
    Free { ptr: Reg, custom: Reg, free_fn: Option<RtFn>, scope_end: bool, site: u32 },
    /// Grows a growable realization to cover the box `lo[d] ..= hi[d]` (the
    /// `declare_box_touched` of an extern stage before allocation bounds inference).
    GrowRealization { storage: Reg, lo: Box<[Reg]>, hi: Box<[Reg]>, site: u32 },
    /// Starts a realization: its storage number goes to `dst`.
    RealizeStart {
        dst: Reg,
        bounds: Box<[(Reg, Reg)]>,
        types: Box<[Elem]>,
        cond: Reg,
        growable: bool,
        site: u32,
    },
    /// `dst = ` a bound of dimension `dim` of an open realization as it is now.
    RealizationBound { dst: Reg, storage: Reg, dim: u32, kind: crate::compile::BoundKind },
    /// Ends the realization whose storage number is in `storage`.
    RealizeEnd { storage: Reg },
    /// `dst = ` the `halide_buffer_t` of value `value_index` of a realization.
    RealizationBuffer { dst: Reg, storage: Reg, value_index: u32, site: u32 },
    /// Starts a task at `pc + 1` and another at `rest`; this task continues at `resume`
    /// once both have ended.
    Fork { rest: Pc, resume: Pc },
    /// Ends a task started by `Fork` or `SpawnThreads`.
    TaskEnd,
    /// Waits until the semaphore at `sem` holds `count`, and takes it.
    Acquire { sem: Reg, count: Reg, site: u32 },
    /// Starts a task per value of `var` in `min ..= max`, running `pc + 1` up to its
    /// `TaskEnd`; this task continues at `end` once all have ended.
    SpawnThreads { var: Reg, min: Reg, max: Reg, end: Pc },
    /// Waits until every thread of the block reaches a barrier.
    Barrier,
    /// Lets the other lanes of a warp catch up: the task goes behind every runnable one.
    Yield,
    /// `dst = ` the memory a device kernel sees for the buffer whose descriptor is in
    /// `buffer` and host pointer in `host`.
    DeviceView { dst: Reg, buffer: Reg, host: Reg, site: u32 },
    /// Stops with an error: the program needs something the interpreter cannot do.
    Unsupported { site: u32, reason: Box<str> },
    /// The end of the program.
    Halt,
}

impl Instr {
    /// Calls `f` on every register operand (to renumber them).
    pub(crate) fn for_each_reg(&mut self, mut f: impl FnMut(&mut Reg)) {
        let opt = |r: &mut Reg, f: &mut dyn FnMut(&mut Reg)| {
            if *r != NO_REG {
                f(r)
            }
        };
        match self {
            Instr::Const { dst, .. } => f(dst),
            Instr::Copy { dst, src, .. }
            | Instr::Cast { dst, src, .. }
            | Instr::Reinterpret { dst, src, .. }
            | Instr::Broadcast { dst, src, .. }
            | Instr::Shuffle { dst, src, .. }
            | Instr::Reduce { dst, src, .. } => {
                f(dst);
                f(src);
            }
            Instr::Binary { dst, a, b, .. }
            | Instr::BinaryI32 { dst, a, b, .. }
            | Instr::AddI32 { dst, a, b }
            | Instr::SubI32 { dst, a, b }
            | Instr::MulI32 { dst, a, b }
            | Instr::MinI32 { dst, a, b }
            | Instr::MaxI32 { dst, a, b }
            | Instr::BinaryF32 { dst, a, b, .. } => {
                f(dst);
                f(a);
                f(b);
            }
            Instr::Not { dst, a, .. } => {
                f(dst);
                f(a);
            }
            Instr::Select { dst, cond, t, f: fr, .. } => {
                f(dst);
                f(cond);
                f(t);
                f(fr);
            }
            Instr::MulAddI32 { dst, a, b, c } => {
                f(dst);
                f(a);
                f(b);
                f(c);
            }
            Instr::Ramp { dst, base, stride, .. } => {
                f(dst);
                f(base);
                f(stride);
            }
            Instr::Math { dst, args, .. }
            | Instr::Call { dst, args, .. }
            | Instr::MakeStruct { dst, fields: args, .. } => {
                f(dst);
                args.iter_mut().for_each(|a| f(&mut a.reg));
            }
            Instr::LoadScalar { dst, ptr, index, .. } => {
                f(dst);
                f(ptr);
                f(index);
            }
            Instr::StoreScalar { ptr, index, value, .. } => {
                f(ptr);
                f(index);
                f(value);
            }
            Instr::Load { dst, ptr, index, pred, .. } => {
                f(dst);
                f(ptr);
                f(index);
                opt(pred, &mut f);
            }
            Instr::Store { ptr, index, value, pred, .. } => {
                f(ptr);
                f(index);
                f(value);
                opt(pred, &mut f);
            }
            Instr::FuncLoad { dst, storage, args, .. } => {
                f(dst);
                f(storage);
                args.iter_mut().for_each(&mut f);
            }
            Instr::FuncStore { storage, value, args, pred, .. } => {
                f(storage);
                f(value);
                args.iter_mut().for_each(&mut f);
                opt(pred, &mut f);
            }
            Instr::Alloca { dst, size, .. } => {
                f(dst);
                f(size);
            }
            Instr::JumpIfFalse { cond, .. } | Instr::JumpIfTrue { cond, .. } => f(cond),
            Instr::LoopStart { var, min, max, .. } => {
                f(var);
                f(min);
                f(max);
            }
            Instr::LoopNext { var, max, .. } => {
                f(var);
                f(max);
            }
            Instr::SpawnThreads { var, min, max, .. } => {
                f(var);
                f(min);
                f(max);
            }
            Instr::Fail { code, .. } => f(code),
            Instr::Allocate { dst, extents, cond, .. } => {
                f(dst);
                extents.iter_mut().for_each(&mut f);
                f(cond);
            }
            Instr::AllocateToken { dst, .. } => f(dst),
            Instr::Free { ptr, custom, .. } => {
                f(ptr);
                opt(custom, &mut f);
            }
            Instr::RealizeStart { dst, bounds, cond, .. } => {
                f(dst);
                for (a, b) in bounds.iter_mut() {
                    opt(a, &mut f);
                    opt(b, &mut f);
                }
                f(cond);
            }
            Instr::RealizeEnd { storage } => f(storage),
            Instr::GrowRealization { storage, lo, hi, .. } => {
                f(storage);
                lo.iter_mut().for_each(&mut f);
                hi.iter_mut().for_each(&mut f);
            }
            Instr::RealizationBuffer { dst, storage, .. } | Instr::RealizationBound { dst, storage, .. } => {
                f(dst);
                f(storage);
            }
            Instr::Acquire { sem, count, .. } => {
                f(sem);
                f(count);
            }
            Instr::DeviceView { dst, buffer, host, .. } => {
                f(dst);
                f(buffer);
                f(host);
            }
            Instr::Jump { .. }
            | Instr::Fork { .. }
            | Instr::TaskEnd
            | Instr::Barrier
            | Instr::Yield
            | Instr::Unsupported { .. }
            | Instr::Halt => {}
        }
    }
}

/// The IR node an instruction came from.
#[derive(Clone, Debug)]
pub enum Site {
    /// An expression.
    Expr(Expr),
    /// A statement.
    Stmt(Stmt),
}

impl Site {
    /// The node's first line of text.
    pub fn describe(&self) -> String {
        match self {
            Site::Expr(e) => node_line(&e.to_string()),
            Site::Stmt(s) => node_line(&statement_header(s).to_string()),
        }
    }
}

/// A statement without its child statements (a loop with an empty body, the first
/// statement of a block), so that describing it prints one line, not the whole subtree.
fn statement_header(s: &Stmt) -> Stmt {
    let empty = || Stmt::evaluate(Expr::i32(0));
    if s.body().is_some() {
        return s.with_body(empty()).unwrap_or_else(|| s.clone());
    }
    match s.kind() {
        loopir::StmtKind::Block(v) => v.first().map(statement_header).unwrap_or_else(empty),
        loopir::StmtKind::IfThenElse { condition, .. } => {
            Stmt::from_kind_unchecked(loopir::StmtKind::IfThenElse {
                condition: condition.clone(),
                then_case: empty(),
                else_case: None,
            })
        }
        loopir::StmtKind::Fork { .. } => {
            Stmt::from_kind_unchecked(loopir::StmtKind::Fork { first: empty(), rest: empty() })
        }
        _ => s.clone(),
    }
}
