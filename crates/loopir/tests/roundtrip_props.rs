//! Property tests of the text round trip over random well-typed IR.
//!
//! The generator is driven by a proptest-generated list of choices (`Vec<u32>`): every
//! decision takes the next choice modulo the number of options, and choice 0 is always the
//! simplest option, so shrinking the list shrinks the IR. Past the end of the list every
//! choice is 0. The generator tracks the printer's known-name scope so that what it builds
//! is well typed and names mean what they say.
//!
//! Properties:
//! - `print ∘ parse ∘ print == print`, in Halide mode and in lossless mode;
//! - lossless mode: `parse(print(ir)) == ir` structurally;
//! - Halide mode: `parse(print(ir)) == ir` when no call reads a tuple element k > 0 (the
//!   one thing Halide's text drops that the generated IR holds: such a call reads back as
//!   element 0, with element 0's type).
//!
//! Restrictions of the generator (what the text cannot carry, or cannot carry unambiguously):
//! - Names come from disjoint families that are never keywords, type spellings, `xN`
//!   broadcasts or built-in call names: free variables such as `v0`, `v.1`, `v$2`, `::v3`,
//!   `_v4`, `v.extent.0`, lets `t<n>`, loops `f.s0.i<n>`, buffers `buf<n>`/`in0`..`in2`/`out0`..`out1`, realized Funcs `f<n>`, other
//!   provides `p<n>`, externs `ext0`..`ext2`, prefetches `g<n>`. Binder names are fresh, so
//!   nothing is shadowed and no binder's value mentions its own name (the printer puts a
//!   name in scope before printing its binder's value).
//! - Call types are what the text implies (spec E15): intrinsic names get
//!   (Pure)Intrinsic, calls to a realized Func Halide, everything else Extern.
//! - A realized Func's first Provide comes first in its Realize (as a producer precedes its
//!   consumers): a bare call's type is not in the text, and the parser takes it from that
//!   Provide; a Realize's `types` are those of that Provide. The Provide's own values do
//!   not call the Func.
//! - Float immediates are drawn from values their six-digit text represents exactly; there
//!   are no bfloat16 immediates (they print like float16 ones and are retyped only next
//!   to a bfloat16 operand).
//! - Allocate padding only with two or more extents: `allocate b[int32 * (x + 1)]` is
//!   both "extent x + 1" and "extent x, padding 1"; the parser reads the former.
//! - No handle vectors (`(void *)x4v` reads as a scalar variable `x4v`, spec E3), no
//!   DeviceApi::Host (prints like None), loop partition policy Auto, Prefetch types empty
//!   and offset 0, alignment only where printed (vector accesses, modulus > 1).
//! - Shuffle inputs are never bare int32 literals (they would read as lane indices, E10).
//! - Statement sequences are canonical: a LetStmt/Allocate/Prefetch is only ever the last
//!   statement of a Block (its body is "the rest of the block", spec S1).
//! - Constant-true predicates and conditions are the canonical ones (scalar `true`, or a
//!   Broadcast of scalar `true`), which is what the parser rebuilds for omitted ones.

use loopir::{
    BinOp, CType, CallType, DeviceApi, Expr, ExprKind, ForType, Intrinsic, MemoryType, MinExtent,
    ModulusRemainder, Mutator, Name, PrefetchDirective, PrintOptions, Stmt, StmtKind, Type, VectorReduceOp,
    parse_stmt, stmt_to_string_with,
};
use loopir_testkit::dump::dump_stmt;
use proptest::prelude::*;

struct Gen {
    choices: Vec<u32>,
    pos: usize,
    fresh: usize,
    lets: Vec<(Name, Type)>,
    loops: Vec<Name>,
    buffers: Vec<(Name, Type)>,
    funcs: Vec<(Name, Vec<Type>)>,
}

fn nm(s: &str) -> Name {
    Name::from(s)
}

impl Gen {
    fn new(choices: Vec<u32>) -> Gen {
        Gen { choices, pos: 0, fresh: 0, lets: vec![], loops: vec![], buffers: vec![], funcs: vec![] }
    }

    fn pick(&mut self, n: usize) -> usize {
        let c = self.choices.get(self.pos).copied().unwrap_or(0);
        self.pos += 1;
        c as usize % n.max(1)
    }

    fn chance(&mut self, one_in: usize) -> bool {
        self.pick(one_in) == one_in - 1
    }

    fn fresh(&mut self, prefix: &str) -> Name {
        self.fresh += 1;
        nm(&format!("{prefix}{}", self.fresh))
    }

    // ---- types ----

    fn scalar_type(&mut self) -> Type {
        const T: &[Type] = &[
            Type::INT32,
            Type::float(32, 1),
            Type::BOOL,
            Type::uint(8, 1),
            Type::int(16, 1),
            Type::int(64, 1),
            Type::uint(16, 1),
            Type::uint(32, 1),
            Type::uint(64, 1),
            Type::int(8, 1),
            Type::float(64, 1),
            Type::float(16, 1),
            Type::bfloat(16, 1),
        ];
        T[self.pick(T.len())]
    }

    fn lanes(&mut self) -> u16 {
        [1, 1, 4, 2, 8][self.pick(5)]
    }

    fn value_type(&mut self) -> Type {
        if self.chance(8) {
            return self.handle_type();
        }
        let s = self.scalar_type();
        s.with_lanes(self.lanes())
    }

    /// A Func value type: scalar, no bfloat16 (its literals could be read as float16).
    fn func_value_type(&mut self) -> Type {
        let t = self.scalar_type();
        if t.code() == loopir::TypeCode::BFloat { Type::INT32 } else { t }
    }

    fn handle_type(&mut self) -> Type {
        match self.pick(3) {
            0 => Type::void_ptr(),
            1 => Type::buffer_ptr(),
            _ => Type::handle(CType::new("int32_t *"), 1),
        }
    }

    // ---- expressions ----

    fn imm(&mut self, t: Type) -> Expr {
        debug_assert!(t.is_scalar());
        match t.code() {
            loopir::TypeCode::Int => {
                let v: i64 = match self.pick(6) {
                    0 => 0,
                    1 => 1,
                    2 => -3,
                    3 => 42,
                    4 => t.int_min().map_or(0, |m| m as i64),
                    _ => t.int_max().map_or(0, |m| m as i64),
                };
                Expr::int_imm(t, v).expect("in range")
            }
            loopir::TypeCode::UInt if t.bits() == 1 => Expr::bool(self.pick(2) == 1),
            loopir::TypeCode::UInt => {
                let v: u64 = match self.pick(4) {
                    0 => 0,
                    1 => 7,
                    2 => 255.min(t.int_max().unwrap_or(0) as u64),
                    _ => t.int_max().map_or(0, |m| m as u64),
                };
                Expr::uint_imm(t, v).expect("in range")
            }
            _ => {
                // Values whose six-digit text is exact at every width used.
                let common =
                    [0.0, 0.5, -2.25, 1.0, -0.0, f64::INFINITY, f64::NEG_INFINITY, f64::NAN, 0.015625];
                let v = match t.bits() {
                    16 if self.chance(3) => [0.0999755859375, 65504.0, 2f64.powi(-24)][self.pick(3)],
                    32 if self.chance(3) => [1e10, 2f64.powi(-30), 3.4028234663852886e38][self.pick(3)],
                    64 if self.chance(3) => [1e-300f64.max(0.000001), 123456789.125, 1e22][self.pick(3)],
                    _ => common[self.pick(common.len())],
                };
                Expr::float_imm(t, v).expect("a float type")
            }
        }
    }

    fn true_of(lanes: u16) -> Expr {
        if lanes == 1 {
            Expr::const_true()
        } else {
            Expr::broadcast(Expr::const_true(), lanes).expect("lanes ≥ 2")
        }
    }

    /// A predicate or condition: usually the canonical all-true, else a random boolean
    /// (replaced by the canonical form if it happens to be constant true).
    fn predicate(&mut self, lanes: u16, depth: usize) -> Expr {
        if self.pick(3) != 2 {
            return Gen::true_of(lanes);
        }
        let p = self.expr(Type::bool(lanes), depth);
        if p.is_const_true() { Gen::true_of(lanes) } else { p }
    }

    fn int_index(&mut self, lanes: u16, depth: usize) -> Expr {
        self.expr(Type::int(32, lanes), depth)
    }

    fn free_var(&mut self, t: Type) -> Expr {
        const NAMES: &[&str] = &["v0", "v.1", "v$2", "::v3", "_v4", "v.extent.0", "v.s0.x$1"];
        let n = nm(NAMES[self.pick(NAMES.len())]);
        Expr::var(t, n)
    }

    fn leaf(&mut self, t: Type) -> Expr {
        let lets: Vec<Name> = self.lets.iter().filter(|(_, ty)| *ty == t).map(|(n, _)| n.clone()).collect();
        let bufs: Vec<Name> =
            self.buffers.iter().filter(|(_, ty)| *ty == t.element_of()).map(|(n, _)| n.clone()).collect();
        match self.pick(8) {
            0 if t.is_scalar() && !t.is_handle() && t.code() != loopir::TypeCode::BFloat => self.imm(t),
            1 if !lets.is_empty() => {
                let k = self.pick(lets.len());
                Expr::var(t, lets[k].clone())
            }
            2 if t.is_int32() && !self.loops.is_empty() => {
                let k = self.pick(self.loops.len());
                Expr::var_i32(self.loops[k].clone())
            }
            3 if t == Type::void_ptr() && !self.buffers.is_empty() => {
                let k = self.pick(self.buffers.len());
                Expr::var(t, self.buffers[k].0.clone())
            }
            4 if !bufs.is_empty() => {
                let k = self.pick(bufs.len());
                let index = self.int_index(t.lanes(), 0);
                let align = self.alignment(t.lanes());
                Expr::load(t, bufs[k].clone(), index, Gen::true_of(t.lanes()), align).expect("well typed")
            }
            5 if t == Type::c_string() => {
                let len = self.pick(5);
                let bytes: Vec<u8> = (0..len).map(|_| self.pick(256) as u8).collect();
                Expr::string(bytes)
            }
            6 if self.funcs.iter().any(|(_, ts)| ts.contains(&t)) => {
                let fs: Vec<(Name, u32)> = self
                    .funcs
                    .iter()
                    .flat_map(|(f, ts)| {
                        ts.iter().enumerate().filter(|(_, x)| **x == t).map(|(i, _)| (f.clone(), i as u32))
                    })
                    .collect();
                let (f, vi) = fs[self.pick(fs.len())].clone();
                let nargs = self.pick(3);
                let args = (0..nargs).map(|_| self.expr(Type::INT32, 0)).collect();
                Expr::call_func(t, f, args, vi)
            }
            7 if t.is_scalar() && !t.is_handle() && t.code() != loopir::TypeCode::BFloat => self.imm(t),
            _ => self.free_var(t),
        }
    }

    fn alignment(&mut self, lanes: u16) -> ModulusRemainder {
        if lanes > 1 && self.chance(2) {
            let m = [2, 4, 8, 16][self.pick(4)];
            ModulusRemainder { modulus: m, remainder: self.pick(m as usize) as i64 }
        } else {
            ModulusRemainder::UNKNOWN
        }
    }

    fn numeric(t: Type) -> bool {
        !t.is_handle() && !t.is_bool()
    }

    fn expr(&mut self, t: Type, depth: usize) -> Expr {
        if depth == 0 || self.pick(3) == 0 {
            return self.leaf(t);
        }
        let d = depth - 1;
        let lanes = t.lanes();
        if t.is_handle() {
            return match self.pick(5) {
                0 => self.free_var(t),
                1 => {
                    let a = self.expr(Type::uint(64, 1), d);
                    Expr::reinterpret(t, a).expect("64 bits")
                }
                2 => {
                    let a = self.expr(Type::INT32, d);
                    Expr::cast(t, a).expect("scalar")
                }
                3 => self.call(t, d),
                _ => {
                    let index = self.int_index(1, d);
                    let name = nm(&format!("in{}", self.pick(3)));
                    Expr::load(t, name, index, Gen::true_of(1), ModulusRemainder::UNKNOWN)
                        .expect("well typed")
                }
            };
        }
        match self.pick(16) {
            0 if Gen::numeric(t) => {
                let ops =
                    [BinOp::Add, BinOp::Sub, BinOp::Mul, BinOp::Div, BinOp::Mod, BinOp::Min, BinOp::Max];
                let op = ops[self.pick(ops.len())];
                let (a, b) = (self.expr(t, d), self.expr(t, d));
                Expr::binary(op, a, b).expect("well typed")
            }
            1 if t.is_bool() => {
                let ops = [BinOp::Lt, BinOp::Eq, BinOp::Ne, BinOp::Le, BinOp::Gt, BinOp::Ge];
                let op = ops[self.pick(ops.len())];
                let mut ot = self.scalar_type().with_lanes(lanes);
                if ot.is_bool() && !matches!(op, BinOp::Eq | BinOp::Ne) {
                    ot = Type::int(32, lanes);
                }
                let (a, b) = (self.expr(ot, d), self.expr(ot, d));
                Expr::binary(op, a, b).expect("well typed")
            }
            2 if t.is_bool() => {
                let op = if self.pick(2) == 0 { BinOp::And } else { BinOp::Or };
                let (a, b) = (self.expr(t, d), self.expr(t, d));
                Expr::binary(op, a, b).expect("well typed")
            }
            3 if t.is_bool() => Expr::not(self.expr(t, d)).expect("boolean"),
            4 => {
                let cl = if self.pick(2) == 0 { 1 } else { lanes };
                let c = self.expr(Type::bool(cl), d);
                let (a, b) = (self.expr(t, d), self.expr(t, d));
                Expr::select(c, a, b).expect("well typed")
            }
            5 => {
                let from = self.scalar_type().with_lanes(lanes);
                Expr::cast(t, self.expr(from, d)).expect("same lanes")
            }
            6 if t.bits() >= 8 => {
                let codes = [loopir::TypeCode::Int, loopir::TypeCode::UInt, loopir::TypeCode::Float];
                let code = codes[self.pick(3)];
                let from = Type::try_new(code, t.bits(), lanes)
                    .ok()
                    .filter(|f| f.code() != loopir::TypeCode::Float || matches!(f.bits(), 16 | 32 | 64))
                    .unwrap_or(t);
                Expr::reinterpret(t, self.expr(from, d)).expect("same size")
            }
            7 if lanes > 1 => {
                let f = if lanes.is_multiple_of(2) && self.pick(2) == 0 { 2 } else { lanes };
                let v = self.expr(t.with_lanes(lanes / f), d);
                Expr::broadcast(v, f).expect("lanes ≥ 2")
            }
            8 if lanes > 1 && Gen::numeric(t) => {
                let f = if lanes.is_multiple_of(2) && self.pick(2) == 0 { 2 } else { lanes };
                let (b, s) = (self.expr(t.with_lanes(lanes / f), d), self.expr(t.with_lanes(lanes / f), d));
                Expr::ramp(b, s, f).expect("well typed")
            }
            9 => {
                let name = self.fresh("t");
                let vt = self.value_type();
                let value = self.expr(vt, d);
                self.lets.push((name.clone(), vt));
                let body = self.expr(t, d);
                self.lets.pop();
                Expr::let_in(name, value, body)
            }
            10 => self.shuffle(t, d),
            11 => {
                let f = [2u16, 4][self.pick(2)];
                let Some(total) = lanes.checked_mul(f).filter(|&l| l <= 16) else { return self.leaf(t) };
                let op = if t.is_bool() {
                    [VectorReduceOp::And, VectorReduceOp::Or][self.pick(2)]
                } else {
                    let ops = [
                        VectorReduceOp::Add,
                        VectorReduceOp::SaturatingAdd,
                        VectorReduceOp::Mul,
                        VectorReduceOp::Min,
                        VectorReduceOp::Max,
                    ];
                    ops[self.pick(ops.len())]
                };
                let v = self.expr(t.with_lanes(total), d);
                Expr::vector_reduce(op, v, lanes).expect("divides")
            }
            12 => self.call(t, d),
            13 if matches!(t.code(), loopir::TypeCode::Int | loopir::TypeCode::UInt) && !t.is_bool() => {
                let (name, n) =
                    [("bitwise_and", 2), ("bitwise_or", 2), ("bitwise_xor", 2), ("bitwise_not", 1)]
                        [self.pick(4)];
                let args = (0..n).map(|_| self.expr(t, d)).collect();
                Expr::call(t, name, args, CallType::PureIntrinsic)
            }
            14 => {
                let name = nm(&format!("in{}", self.pick(3)));
                let index = self.int_index(lanes, d);
                let pred = self.predicate(lanes, d);
                let align = self.alignment(lanes);
                Expr::load(t, name, index, pred, align).expect("well typed")
            }
            _ => self.leaf(t),
        }
    }

    fn call(&mut self, t: Type, d: usize) -> Expr {
        let names = ["ext0", "ext1", "likely", "make_struct", "abs", "shift_left", "ext2"];
        let name = names[self.pick(names.len())];
        let call_type = Intrinsic::from_name(name).map_or(CallType::Extern, Intrinsic::call_type);
        let nargs = self.pick(4);
        let args = (0..nargs)
            .map(|_| {
                let at = if self.chance(6) { Type::c_string() } else { self.value_type() };
                self.expr(at, d)
            })
            .collect();
        Expr::call(t, name, args, call_type)
    }

    fn shuffle(&mut self, t: Type, d: usize) -> Expr {
        let elem = t.element_of();
        let nvec = 1 + self.pick(2);
        let vectors: Vec<Expr> = (0..nvec)
            .map(|_| {
                let l = [1u16, 2, 4][self.pick(3)];
                let vt = elem.with_lanes(l);
                // Never a bare literal (it would read as a lane index).
                if self.pick(2) == 0 || d == 0 { self.free_var(vt) } else { self.expr_non_literal(vt, d) }
            })
            .collect();
        let total: i32 = vectors.iter().map(|v| v.ty().lanes() as i32).sum();
        let n = t.lanes() as usize;
        let indices: Vec<i32> = match self.pick(4) {
            0 if n as i32 <= total => {
                let start = self.pick((total - n as i32 + 1) as usize) as i32;
                (0..n as i32).map(|i| start + i).collect()
            }
            1 => {
                let stride = 1 + self.pick(2) as i32;
                let begin = self.pick(total as usize) as i32;
                let idx: Vec<i32> = (0..n as i32).map(|i| begin + i * stride).collect();
                if idx.iter().all(|&i| i < total) {
                    idx
                } else {
                    (0..n).map(|_| self.pick(total as usize) as i32).collect()
                }
            }
            _ => (0..n).map(|_| self.pick(total as usize) as i32).collect(),
        };
        Expr::shuffle(vectors, indices).expect("well typed")
    }

    fn expr_non_literal(&mut self, t: Type, d: usize) -> Expr {
        let e = self.expr(t, d);
        if matches!(e.kind(), ExprKind::IntImm(_)) && e.ty().is_int32() { self.free_var(t) } else { e }
    }

    // ---- statements ----

    /// A statement; binders only when `binder_ok` (the last statement of a sequence).
    fn stmt(&mut self, depth: usize, binder_ok: bool) -> Stmt {
        let d = depth.saturating_sub(1);
        let ed = 2;
        let options = if depth == 0 { 4 } else { 20 };
        match self.pick(options) {
            0 => {
                let t = self.value_type();
                Stmt::evaluate(self.expr(t, ed))
            }
            1 => {
                let c = self.expr(Type::BOOL, ed);
                let msg = if self.pick(2) == 0 {
                    let s = self.leaf(Type::c_string());
                    Expr::call(Type::INT32, "halide_error_x", vec![s], CallType::Extern)
                } else {
                    self.expr(Type::INT32, ed)
                };
                Stmt::assert_stmt(c, msg).expect("well typed")
            }
            2 => self.store(ed),
            3 => {
                let name = self.fresh("p");
                let n = 1 + self.pick(3);
                let types = (0..n).map(|_| self.value_type()).collect();
                self.provide(name, types, ed)
            }
            4 if binder_ok => {
                let name = self.fresh("t");
                let t = self.value_type();
                let value = self.expr(t, ed);
                self.lets.push((name.clone(), t));
                let body = self.seq(d);
                self.lets.pop();
                Stmt::let_stmt(name, value, body)
            }
            5 => {
                let name = nm(&format!("q{}", self.pick(3)));
                let body = self.seq(d);
                if self.pick(2) == 0 { Stmt::produce(name, body) } else { Stmt::consume(name, body) }
            }
            6 => {
                let name = self.fresh("f.s0.i");
                let (min, max) = (self.expr(Type::INT32, 1), self.expr(Type::INT32, 1));
                let kinds = [
                    ForType::Serial,
                    ForType::Parallel,
                    ForType::Vectorized,
                    ForType::Unrolled,
                    ForType::Extern,
                    ForType::GpuBlock,
                    ForType::GpuThread,
                    ForType::GpuLane,
                ];
                // Host prints no suffix, so it reads back as None.
                let apis: Vec<DeviceApi> =
                    DeviceApi::ALL.into_iter().filter(|&api| api != DeviceApi::Host).collect();
                let ft = kinds[self.pick(kinds.len())];
                let api = if self.pick(2) == 0 { DeviceApi::None } else { apis[self.pick(apis.len())] };
                self.loops.push(name.clone());
                let body = self.seq(d);
                self.loops.pop();
                Stmt::for_loop(name, loopir::MinMax { min, max }, ft, api, body).expect("int32 bounds")
            }
            7 if binder_ok => self.allocate(d, ed),
            8 => Stmt::free(if !self.buffers.is_empty() && self.pick(2) == 0 {
                let k = self.pick(self.buffers.len());
                self.buffers[k].0.clone()
            } else {
                nm("buf0")
            }),
            9 => self.realize(d, ed),
            10 if binder_ok => {
                let name = self.fresh("g");
                let at = if self.loops.is_empty() {
                    nm("y")
                } else {
                    let k = self.pick(self.loops.len());
                    self.loops[k].clone()
                };
                let from = if self.pick(2) == 0 { at.clone() } else { nm("y.outer") };
                let bounds = self.bounds(ed);
                let condition = self.predicate(1, ed);
                let body = self.seq(d);
                Stmt::from_kind_unchecked(StmtKind::Prefetch {
                    name: name.clone(),
                    types: vec![],
                    bounds,
                    prefetch: PrefetchDirective { name, at, from, offset: Expr::i32(0) },
                    condition,
                    body,
                })
            }
            11 => self.seq_ending(depth, binder_ok),
            12 => {
                let first = self.seq(d);
                let rest = self.seq(d);
                Stmt::fork(first, rest)
            }
            13 => {
                let sem = Expr::var(Type::handle(CType::new("struct halide_semaphore_t *"), 1), "sema");
                let count = self.expr(Type::INT32, 1);
                Stmt::acquire(sem, count, self.seq(d))
            }
            14 | 15 => {
                let c = self.expr(Type::BOOL, ed);
                let then_case = self.seq(d);
                let else_case = match self.pick(3) {
                    0 => None,
                    1 => Some(self.seq(d)),
                    _ => Some(self.stmt(d, true)),
                };
                Stmt::if_then_else(c, then_case, else_case).expect("boolean condition")
            }
            16 => {
                let mutex = if self.pick(2) == 0 { None } else { Some(nm("f.mutex")) };
                Stmt::atomic(nm("f"), mutex, self.seq(d))
            }
            17 => {
                let name = if self.pick(2) == 0 { None } else { Some(nm("h")) };
                Stmt::hoisted_storage(name, self.seq(d))
            }
            _ => {
                let t = self.value_type();
                Stmt::evaluate(self.expr(t, ed))
            }
        }
    }

    /// A canonical sequence: binders only last.
    fn seq(&mut self, depth: usize) -> Stmt {
        self.seq_ending(depth, true)
    }

    /// A sequence that ends in a binder only if `binder_ok` (a nested sequence is flattened
    /// into its parent, so its last statement is last only if it is last in the parent).
    fn seq_ending(&mut self, depth: usize, binder_ok: bool) -> Stmt {
        let n = 1 + self.pick(3);
        let stmts: Vec<Stmt> = (0..n).map(|i| self.stmt(depth, binder_ok && i + 1 == n)).collect();
        Stmt::block(stmts)
    }

    fn bounds(&mut self, ed: usize) -> Vec<MinExtent> {
        (0..self.pick(3))
            .map(|_| MinExtent { min: self.expr(Type::INT32, ed), extent: self.expr(Type::INT32, ed) })
            .collect()
    }

    fn store(&mut self, ed: usize) -> Stmt {
        let (name, t) = if !self.buffers.is_empty() && self.pick(2) == 0 {
            let k = self.pick(self.buffers.len());
            let (n, elem) = self.buffers[k].clone();
            let l = self.lanes();
            (n, elem.with_lanes(if elem.is_handle() { 1 } else { l }))
        } else {
            (nm(&format!("out{}", self.pick(2))), self.value_type())
        };
        let lanes = t.lanes();
        let value = if self.pick(4) == 0 {
            // A let chain: the multi-line form.
            let mut names = Vec::new();
            let mut values = Vec::new();
            for _ in 0..1 + self.pick(3) {
                let n = self.fresh("t");
                let vt = self.value_type();
                values.push(self.expr(vt, ed));
                self.lets.push((n.clone(), vt));
                names.push(n);
            }
            let mut e = self.expr(t, ed);
            for _ in &names {
                self.lets.pop();
            }
            while let (Some(n), Some(v)) = (names.pop(), values.pop()) {
                e = Expr::let_in(n, v, e);
            }
            e
        } else {
            self.expr(t, ed)
        };
        let index = self.int_index(lanes, ed);
        let pred = self.predicate(lanes, ed);
        let align = self.alignment(lanes);
        Stmt::store(name, value, index, pred, align).expect("well typed")
    }

    fn provide(&mut self, name: Name, types: Vec<Type>, ed: usize) -> Stmt {
        let values: Vec<Expr> = types.into_iter().map(|t| self.expr(t, ed)).collect();
        let args = (0..self.pick(3)).map(|_| self.expr(Type::INT32, ed)).collect();
        let pred = self.predicate(1, ed);
        Stmt::provide(name, values, args, pred).expect("well typed")
    }

    fn allocate(&mut self, d: usize, ed: usize) -> Stmt {
        let name = self.fresh("buf");
        let ty = if self.chance(6) { Type::void_ptr() } else { self.scalar_type() };
        let extents: Vec<Expr> = (0..self.pick(3)).map(|_| self.expr(Type::INT32, ed)).collect();
        let mems = [
            MemoryType::Auto,
            MemoryType::Heap,
            MemoryType::Stack,
            MemoryType::Register,
            MemoryType::GpuShared,
            MemoryType::GpuTexture,
            MemoryType::LockedCache,
            MemoryType::Vtcm,
            MemoryType::AmxTile,
        ];
        let mem = if self.pick(2) == 0 { MemoryType::Auto } else { mems[self.pick(mems.len())] };
        let condition = self.predicate(1, ed);
        let new_expr = self.chance(3).then(|| {
            let a = self.expr(Type::INT32, 1);
            Expr::call(Type::void_ptr(), "my_alloc", vec![a], CallType::Extern)
        });
        let free_function = self.chance(3).then(|| nm("my_free"));
        // With one extent, `[T * (e + p)]` is also the unpadded extent `e + p` (the parser
        // reads that, as real allocations print); padding round-trips from two extents on.
        let padding = if extents.len() >= 2 && self.chance(3) { 1 + self.pick(8) as i32 } else { 0 };
        self.buffers.push((name.clone(), ty));
        let body = self.seq(d);
        self.buffers.pop();
        Stmt::from_kind_unchecked(StmtKind::Allocate {
            name,
            ty,
            memory_type: mem,
            extents,
            condition,
            new_expr,
            free_function,
            padding,
            body,
        })
    }

    fn realize(&mut self, d: usize, ed: usize) -> Stmt {
        let name = self.fresh("f");
        let nvalues = 1 + self.pick(3);
        let types: Vec<Type> = (0..nvalues).map(|_| self.func_value_type()).collect();
        let mems = [MemoryType::Auto, MemoryType::Stack, MemoryType::Heap];
        let mem = mems[self.pick(mems.len())];
        let bounds = self.bounds(ed);
        let condition = self.predicate(1, ed);
        let first = self.provide(name.clone(), types.clone(), ed);
        self.funcs.push((name.clone(), types.clone()));
        let rest = self.seq(d);
        self.funcs.pop();
        let body = Stmt::block(vec![first, rest]);
        Stmt::realize(name, types, mem, bounds, condition, body).expect("well typed")
    }
}

/// Notes whether any call reads a tuple element k > 0 (Halide's text does not carry k).
struct DropValueIndex(bool);

impl Mutator for DropValueIndex {
    fn mutate_expr(&mut self, e: &Expr) -> Expr {
        if let ExprKind::Call { value_index, .. } = e.kind() {
            self.0 |= *value_index != 0;
        }
        self.super_expr(e)
    }
}

fn generate(choices: Vec<u32>) -> Stmt {
    let mut g = Gen::new(choices);
    g.seq(3)
}

fn round_trip(ir: &Stmt, lossless: bool) -> Result<(), TestCaseError> {
    let opts = PrintOptions { lossless, ..PrintOptions::default() };
    let text = stmt_to_string_with(ir, opts);
    let parsed = match parse_stmt(&text) {
        Ok(s) => s,
        Err(e) => {
            return Err(TestCaseError::fail(format!(
                "parse error:\n{}\n--- text ---\n{text}",
                e.render("generated")
            )));
        }
    };
    let again = stmt_to_string_with(&parsed, opts);
    prop_assert!(
        again == text,
        "print∘parse∘print is not a fixed point (lossless={lossless}):\n--- first ---\n{text}\n--- second ---\n{again}"
    );
    if !lossless {
        let mut m = DropValueIndex(false);
        let _ = m.mutate_stmt(ir);
        if m.0 {
            // A call to tuple element k > 0 reads back as element 0, whose type may differ
            // (and that difference spreads): only the fixed point is checked here.
            return Ok(());
        }
    }
    let expected = ir.clone();
    if parsed != expected {
        let (a, b) = (dump_stmt(&expected), dump_stmt(&parsed));
        return Err(TestCaseError::fail(format!(
            "parse(print(ir)) != ir (lossless={lossless}): {}\n--- text ---\n{text}",
            loopir_testkit::text::first_difference(&a, &b)
        )));
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig {
        // 256 by default; PROPTEST_CASES raises it for a longer hunt.
        cases: std::env::var("PROPTEST_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(256),
        max_shrink_iters: 4000,
        failure_persistence: None,
        ..ProptestConfig::default()
    })]

    #[test]
    fn lossless_text_round_trips_random_ir_exactly(choices in prop::collection::vec(any::<u32>(), 0..600)) {
        let ir = generate(choices);
        round_trip(&ir, true)?;
    }

    #[test]
    fn halide_text_round_trips_random_ir_except_tuple_indices(choices in prop::collection::vec(any::<u32>(), 0..600)) {
        let ir = generate(choices);
        round_trip(&ir, false)?;
    }

    /// Any float, printed, reads back as a value that prints the same, although the
    /// text has six decimals: near 1e-6, where the form changes, the value nearest to
    /// the text can lie on the other side (`0.000001f` is printed for 1.00003e-6 and is
    /// nearest to a float below 1e-6, printed `1.000000e-06f`).
    #[test]
    fn printed_floats_read_back_as_values_printing_the_same(
        bits32 in any::<u32>(),
        bits64 in any::<u64>(),
        near in -2_000_000i64..2_000_000,
    ) {
        let threshold32 = f32::from_bits((1e-6f32.to_bits() as i64 + near / 100_000) as u32);
        let threshold64 = f64::from_bits((1e-6f64.to_bits() as i64 + near) as u64);
        for e in [
            Expr::f32(f32::from_bits(bits32)),
            Expr::f32(threshold32),
            f64_imm(f64::from_bits(bits64)),
            f64_imm(threshold64),
        ] {
            let text = format!("f({e})\n");
            let again = parse_stmt(&text).map_err(|err| TestCaseError::fail(format!("{text}: {err}")))?;
            prop_assert_eq!(again.to_string(), text);
        }
    }
}

fn f64_imm(v: f64) -> Expr {
    Expr::float_imm(Type::float(64, 1), v).unwrap_or_else(|e| panic!("{e}"))
}

/// The literal at the threshold the fuzzer found: printed for 1.00003e-6.
#[test]
fn a_float_printed_just_above_one_millionth_reads_back_above_it() {
    for text in
        ["f(0.000001f)\n", "f(-0.000001f)\n", "f(0.000001)\n", "f(1.000000e-06f)\n", "f(1.000000e-06)\n"]
    {
        let s = parse_stmt(text).unwrap_or_else(|e| panic!("{text}: {e}"));
        assert_eq!(s.to_string(), text);
    }
}

#[test]
fn the_generator_covers_every_statement_and_expression_kind() {
    // Guards the generator itself: over a fixed set of seeds it must produce every node kind.
    use std::collections::BTreeSet;
    struct Kinds(BTreeSet<String>);
    impl loopir::Visitor for Kinds {
        fn visit_expr(&mut self, e: &Expr) {
            let name = match e.kind() {
                ExprKind::IntImm(_) => "IntImm",
                ExprKind::UIntImm(_) => "UIntImm",
                ExprKind::FloatImm(_) => "FloatImm",
                ExprKind::StringImm(_) => "StringImm",
                ExprKind::Cast(_) => "Cast",
                ExprKind::Reinterpret(_) => "Reinterpret",
                ExprKind::Variable(_) => "Variable",
                ExprKind::Binary(..) => "Binary",
                ExprKind::Not(_) => "Not",
                ExprKind::Select(..) => "Select",
                ExprKind::Load { .. } => "Load",
                ExprKind::Ramp { .. } => "Ramp",
                ExprKind::Broadcast { .. } => "Broadcast",
                ExprKind::Call { .. } => "Call",
                ExprKind::Let { .. } => "Let",
                ExprKind::Shuffle { .. } => "Shuffle",
                ExprKind::VectorReduce { .. } => "VectorReduce",
            };
            self.0.insert(name.to_owned());
            self.super_expr(e)
        }
        fn visit_stmt(&mut self, s: &Stmt) {
            let name = match s.kind() {
                StmtKind::LetStmt { .. } => "LetStmt",
                StmtKind::AssertStmt { .. } => "AssertStmt",
                StmtKind::ProducerConsumer { .. } => "ProducerConsumer",
                StmtKind::For { .. } => "For",
                StmtKind::Store { .. } => "Store",
                StmtKind::Provide { .. } => "Provide",
                StmtKind::Allocate { .. } => "Allocate",
                StmtKind::Free { .. } => "Free",
                StmtKind::Realize { .. } => "Realize",
                StmtKind::Prefetch { .. } => "Prefetch",
                StmtKind::Block(_) => "Block",
                StmtKind::Fork { .. } => "Fork",
                StmtKind::Acquire { .. } => "Acquire",
                StmtKind::IfThenElse { .. } => "IfThenElse",
                StmtKind::Evaluate(_) => "Evaluate",
                StmtKind::Atomic { .. } => "Atomic",
                StmtKind::HoistedStorage { .. } => "HoistedStorage",
            };
            self.0.insert(name.to_owned());
            self.super_stmt(s)
        }
        fn enter_scope(&mut self, binder: &loopir::Binder<'_>) {
            if let loopir::Binder::LetStmt { .. } = binder {
                self.0.insert("LetStmt".into());
            }
        }
    }
    let mut kinds = Kinds(BTreeSet::new());
    let mut seed = 0x2545_F491_4F6C_DD1Du64;
    for _ in 0..400 {
        let choices: Vec<u32> = (0..600)
            .map(|_| {
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                seed as u32
            })
            .collect();
        let ir = generate(choices);
        loopir::Visitor::visit_stmt(&mut kinds, &ir);
    }
    let expected = [
        "IntImm",
        "UIntImm",
        "FloatImm",
        "StringImm",
        "Cast",
        "Reinterpret",
        "Variable",
        "Binary",
        "Not",
        "Select",
        "Load",
        "Ramp",
        "Broadcast",
        "Call",
        "Let",
        "Shuffle",
        "VectorReduce",
        "LetStmt",
        "AssertStmt",
        "ProducerConsumer",
        "For",
        "Store",
        "Provide",
        "Allocate",
        "Free",
        "Realize",
        "Prefetch",
        "Block",
        "Fork",
        "Acquire",
        "IfThenElse",
        "Evaluate",
        "Atomic",
        "HoistedStorage",
    ];
    let missing: Vec<&str> = expected.iter().copied().filter(|k| !kinds.0.contains(*k)).collect();
    assert!(missing.is_empty(), "the generator never produced {missing:?}");
}
