//! Compiling expressions: each node becomes an instruction writing a fresh register.
//!
//! Types flow up from the leaves: the type of a compiled value is computed from its
//! operands' compiled types, as the reference's node constructors compute it, rather
//! than read from the node. The text leaves some types out (a load from a buffer the
//! printer considers known prints none), and the parser has to guess them; a guessed
//! type is *soft* ([`Val::soft`]). Where a soft value meets a value of another type of
//! the same width (an `int32` guess against a `float32` constant, a `uint16` allocation
//! read as `int16`), its bits are read as the other type, which is what the memory
//! held. Two known types that disagree are an error.

use loopir::stack::with_stack;
use loopir::{BinOp, Expr, ExprKind, Type};

use super::{Compiler, NONE};
use crate::code::{Instr, Reg};
use crate::elem::Elem;
use crate::error::{InterpError, node_line};

/// A compiled value: its register, its type, and whether the type is a guess.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Val {
    pub(crate) reg: Reg,
    pub(crate) ty: Type,
    pub(crate) soft: bool,
}

impl Val {
    fn hard(reg: Reg, ty: Type) -> Val {
        Val { reg, ty, soft: false }
    }
}

/// Whether `e` is a scalar `int32` product.
fn is_mul_i32(e: &Expr) -> bool {
    matches!(e.kind(), ExprKind::Binary(BinOp::Mul, a, b) if e.ty() == Type::INT32 && a.ty() == Type::INT32 && b.ty() == Type::INT32)
}

/// Whether two types are the same for the interpreter (handles of any C type agree).
pub(super) fn same_type(a: Type, b: Type) -> bool {
    a.lanes() == b.lanes() && (a == b || Elem::of(a).ok() == Elem::of(b).ok())
}

impl Compiler<'_> {
    /// Compiles `e`.
    pub(super) fn expr(&mut self, e: &Expr) -> Result<Val, InterpError> {
        with_stack(|| self.expr_node(e)).map_err(|err| err.at(|| node_line(&e.to_string())))
    }

    /// Compiles `e` as a value of type `want` (a soft value of the same width is read as
    /// `want`).
    pub(super) fn expr_as(&mut self, e: &Expr, want: Type) -> Result<Reg, InterpError> {
        let v = self.expr(e)?;
        self.coerce(v, want).map_err(|err| err.at(|| node_line(&e.to_string())))
    }

    /// Compiles `e` so that its value ends up in `dst`.
    pub(super) fn expr_into(&mut self, e: &Expr, dst: Reg) -> Result<Val, InterpError> {
        let v = self.expr(e)?;
        if v.reg != dst {
            self.emit(Instr::Copy { dst, src: v.reg, lanes: v.ty.lanes() });
        }
        Ok(Val { reg: dst, ..v })
    }

    /// `v` as a value of type `want`.
    pub(super) fn coerce(&mut self, v: Val, want: Type) -> Result<Reg, InterpError> {
        if same_type(v.ty, want) {
            return Ok(v.reg);
        }
        let (from, to) = (self.elem(v.ty)?, self.elem(want)?);
        if v.soft && v.ty.lanes() == want.lanes() && from.bits() == to.bits() {
            let lanes = want.lanes();
            let dst = self.alloc(lanes);
            self.emit(Instr::Reinterpret { dst, src: v.reg, from, to, from_lanes: lanes, to_lanes: lanes });
            return Ok(dst);
        }
        Err(self.bad(format!("a {} value where {want} is needed", v.ty)))
    }

    /// Brings two operands to one type; returns their registers and the type.
    pub(super) fn unify(
        &mut self,
        a: Val,
        b: Val,
        ea: &Expr,
        eb: &Expr,
    ) -> Result<(Reg, Reg, Type), InterpError> {
        self.unify_vals(a, b).map_err(|_| {
            let side = |v: Val, e: &Expr| {
                let guess = if v.soft { " (a guess)" } else { "" };
                format!("`{}` is {}{guess}", node_line(&e.to_string()), v.ty)
            };
            self.bad(format!("operands of different types: {} and {}", side(a, ea), side(b, eb)))
        })
    }

    fn unify_vals(&mut self, a: Val, b: Val) -> Result<(Reg, Reg, Type), InterpError> {
        if same_type(a.ty, b.ty) {
            return Ok((a.reg, b.reg, a.ty));
        }
        // The known type wins; between two guesses, the one that is not the parser's
        // default (int32) does.
        let a_wins = match (a.soft, b.soft) {
            (false, true) => true,
            (true, false) => false,
            _ => !a.ty.element_of().is_int32() || b.ty.element_of().is_int32(),
        };
        if a_wins {
            Ok((a.reg, self.coerce(b, a.ty)?, a.ty))
        } else {
            Ok((self.coerce(a, b.ty)?, b.reg, b.ty))
        }
    }

    fn expr_node(&mut self, e: &Expr) -> Result<Val, InterpError> {
        let ty = e.ty();
        let lanes = ty.lanes();
        match e.kind() {
            ExprKind::IntImm(v) => {
                let elem = self.elem(ty)?;
                Ok(Val::hard(self.constant_reg(elem.wrap(*v as u64)), ty))
            }
            ExprKind::UIntImm(v) => {
                let elem = self.elem(ty)?;
                Ok(Val::hard(self.constant_reg(elem.wrap(*v)), ty))
            }
            ExprKind::FloatImm(v) => {
                let elem = self.elem(ty)?;
                if !elem.is_float() {
                    return Err(self.bad(format!("a float constant of type {ty}")));
                }
                Ok(Val::hard(self.constant_reg(elem.from_f64(*v)), ty))
            }
            ExprKind::StringImm(bytes) => {
                let value = self.string(bytes);
                Ok(Val::hard(self.constant_reg(value), ty))
            }
            ExprKind::Cast(v) => {
                let src = self.expr(v)?;
                let (from, to) = (self.elem(src.ty)?, self.elem(ty)?);
                if src.ty.lanes() != lanes {
                    return Err(self.bad(format!("a cast from {} to {ty} changes the lane count", src.ty)));
                }
                if (from == Elem::Handle) != (to == Elem::Handle) {
                    return Err(
                        self.bad(format!("a cast between {} and {ty} (only reinterpret can)", src.ty))
                    );
                }
                if from == to {
                    return Ok(Val::hard(src.reg, ty));
                }
                let dst = self.alloc(lanes);
                self.emit(Instr::Cast { dst, src: src.reg, from, to, lanes });
                Ok(Val::hard(dst, ty))
            }
            ExprKind::Reinterpret(v) => {
                let src = self.expr(v)?;
                let (from, to) = (self.elem(src.ty)?, self.elem(ty)?);
                let bits = |t: Type, e: Elem| t.lanes() as u32 * e.bits();
                if bits(src.ty, from) != bits(ty, to) {
                    return Err(self.bad(format!("reinterpret of {} as {ty}: the sizes differ", src.ty)));
                }
                let dst = self.alloc(lanes);
                self.emit(Instr::Reinterpret {
                    dst,
                    src: src.reg,
                    from,
                    to,
                    from_lanes: src.ty.lanes(),
                    to_lanes: lanes,
                });
                Ok(Val::hard(dst, ty))
            }
            ExprKind::Variable(name) => self.variable(name, ty),
            ExprKind::Binary(BinOp::Add, a, b) if ty == Type::INT32 && (is_mul_i32(a) || is_mul_i32(b)) => {
                // `p*q + c`, the shape of most index arithmetic, in one instruction.
                let (m, c) = if is_mul_i32(a) { (a, b) } else { (b, a) };
                let ExprKind::Binary(_, p, q) = m.kind() else { return Err(self.bad("not a product")) };
                let rp = self.expr_as(p, Type::INT32)?;
                let rq = self.expr_as(q, Type::INT32)?;
                let rc = self.expr_as(c, Type::INT32)?;
                let dst = self.alloc(1);
                self.emit(Instr::MulAddI32 { dst, a: rp, b: rq, c: rc });
                Ok(Val::hard(dst, ty))
            }
            ExprKind::Binary(op, a, b) => {
                let va = self.expr(a)?;
                let vb = self.expr(b)?;
                let (ra, rb, t) = self.unify(va, vb, a, b)?;
                let elem = self.elem(t)?;
                if elem == Elem::Handle && !op.is_comparison() {
                    return Err(self.bad("arithmetic on handles"));
                }
                if op.is_logical() && elem != Elem::BOOL {
                    return Err(self.bad(format!("a logical operator on {t}")));
                }
                let n = t.lanes();
                let dst = self.alloc(n);
                if n == 1 && elem == Elem::I32 {
                    let (a, b) = (ra, rb);
                    self.emit(match op {
                        BinOp::Add => Instr::AddI32 { dst, a, b },
                        BinOp::Sub => Instr::SubI32 { dst, a, b },
                        BinOp::Mul => Instr::MulI32 { dst, a, b },
                        BinOp::Min => Instr::MinI32 { dst, a, b },
                        BinOp::Max => Instr::MaxI32 { dst, a, b },
                        _ => Instr::BinaryI32 { op: *op, dst, a, b },
                    });
                } else if n == 1 && elem == Elem::Float(32) {
                    self.emit(Instr::BinaryF32 { op: *op, dst, a: ra, b: rb });
                } else {
                    self.emit(Instr::Binary { op: *op, elem, dst, a: ra, b: rb, lanes: n });
                }
                let rt = if op.is_comparison() { Type::bool(n) } else { t };
                Ok(Val { reg: dst, ty: rt, soft: va.soft && vb.soft && !op.is_comparison() })
            }
            ExprKind::Not(a) => {
                let n = a.ty().lanes();
                let ra = self.expr_as(a, Type::bool(n))?;
                let dst = self.alloc(n);
                self.emit(Instr::Not { dst, a: ra, lanes: n });
                Ok(Val::hard(dst, Type::bool(n)))
            }
            ExprKind::Select(c, t, f) => {
                let vt = self.expr(t)?;
                let vf = self.expr(f)?;
                let (rt, rf, ty) = self.unify(vt, vf, t, f)?;
                let cl = c.ty().lanes();
                if cl != 1 && cl != ty.lanes() {
                    return Err(self.bad(format!("a select condition of type {}", c.ty())));
                }
                let rc = self.expr_as(c, Type::bool(cl))?;
                let dst = self.alloc(ty.lanes());
                self.emit(Instr::Select { dst, cond: rc, t: rt, f: rf, lanes: ty.lanes(), cond_lanes: cl });
                Ok(Val { reg: dst, ty, soft: vt.soft && vf.soft })
            }
            ExprKind::Load { name, index, predicate, .. } => {
                let elem = match self.buffer_types.get(name) {
                    Some(e) => *e,
                    // The text leaves out the type of a load of a GPU allocation group.
                    None => self.groups.load_elem(name, self.elem(ty)?),
                };
                let ptr = self.variable(name, Type::void_ptr())?;
                if !ptr.ty.is_handle() {
                    return Err(
                        self.bad(format!("a load from `{name}`, which is a {}, not a pointer", ptr.ty))
                    );
                }
                self.note_buffer_use(name, elem, false);
                let ri = self.expr_as(index, Type::int(32, lanes))?;
                let pred = if predicate.is_const_true() {
                    NONE
                } else {
                    self.expr_as(predicate, Type::bool(lanes))?
                };
                let site = self.site_expr(e);
                let dst = self.alloc(lanes);
                if lanes == 1 && pred == NONE {
                    self.emit(Instr::LoadScalar { dst, ptr: ptr.reg, index: ri, elem, site });
                } else {
                    self.emit(Instr::Load { dst, ptr: ptr.reg, index: ri, pred, elem, lanes, site });
                }
                Ok(Val { reg: dst, ty: elem.ty().with_lanes(lanes), soft: true })
            }
            ExprKind::Ramp { base, stride, lanes: count } => {
                let vb = self.expr(base)?;
                let vs = self.expr(stride)?;
                let (rb, rs, t) = self.unify(vb, vs, base, stride)?;
                let elem = self.elem(t)?;
                let dst = self.alloc(t.lanes() * count);
                self.emit(Instr::Ramp {
                    dst,
                    base: rb,
                    stride: rs,
                    elem,
                    base_lanes: t.lanes(),
                    count: *count,
                });
                Ok(Val { reg: dst, ty: t.with_lanes(t.lanes() * count), soft: vb.soft && vs.soft })
            }
            ExprKind::Broadcast { value, lanes: count } => {
                let v = self.expr(value)?;
                let n = v.ty.lanes() * count;
                let dst = self.alloc(n);
                self.emit(Instr::Broadcast { dst, src: v.reg, src_lanes: v.ty.lanes(), count: *count });
                Ok(Val { reg: dst, ty: v.ty.with_lanes(n), soft: v.soft })
            }
            ExprKind::Call { .. } => self.call(e),
            ExprKind::Let { .. } => {
                let mut cur = e.clone();
                let mut names = Vec::new();
                while let ExprKind::Let { name, value, body } = cur.kind() {
                    // The value's register is not written again while the name is bound
                    // (registers are reused only after the enclosing statement).
                    let v = self.expr(value)?;
                    self.bind_let(name, v, value);
                    names.push(name.clone());
                    let next = body.clone();
                    cur = next;
                }
                let r = self.expr(&cur);
                for n in names.iter().rev() {
                    self.unbind_value(n);
                }
                r
            }
            ExprKind::Shuffle { vectors, indices } => {
                let first = vectors.first().ok_or_else(|| self.bad("a shuffle of no vectors"))?;
                let v0 = self.expr(first)?;
                let mut parts = vec![(v0.reg, v0.ty.lanes())];
                for v in &vectors[1..] {
                    let vv = self.expr(v)?;
                    let want = v0.ty.with_lanes(vv.ty.lanes());
                    let r = self.coerce(vv, want)?;
                    parts.push((r, vv.ty.lanes()));
                }
                let total: u32 = parts.iter().map(|p| p.1 as u32).sum();
                if indices.iter().any(|&i| i < 0 || i as u32 >= total) || total > u16::MAX as u32 {
                    return Err(self.bad("a shuffle index outside its vectors"));
                }
                let src = if parts.len() == 1 {
                    parts[0].0
                } else {
                    let base = self.alloc(total as u16);
                    let mut at = base;
                    for (r, n) in parts {
                        self.emit(Instr::Copy { dst: at, src: r, lanes: n });
                        at += n as Reg;
                    }
                    base
                };
                let dst = self.alloc(lanes);
                self.emit(Instr::Shuffle { dst, src, indices: indices.iter().map(|&i| i as u16).collect() });
                Ok(Val { reg: dst, ty: v0.ty.with_lanes(indices.len() as u16), soft: v0.soft })
            }
            ExprKind::VectorReduce { op, value } => {
                let v = self.expr(value)?;
                let elem = self.elem(v.ty)?;
                if v.ty.lanes() % lanes != 0 {
                    return Err(
                        self.bad("a vector reduction to a lane count that does not divide its input's")
                    );
                }
                let dst = self.alloc(lanes);
                self.emit(Instr::Reduce {
                    op: *op,
                    elem,
                    dst,
                    src: v.reg,
                    in_lanes: v.ty.lanes(),
                    out_lanes: lanes,
                });
                Ok(Val { reg: dst, ty: v.ty.with_lanes(lanes), soft: v.soft })
            }
        }
    }

    /// A register holding a constant (read only: it is shared by every use).
    pub(super) fn constant_reg(&mut self, value: u64) -> Reg {
        if let Some(&r) = self.constant_regs.get(&value) {
            return r;
        }
        let r = super::CONST_BIT | self.constants.len() as Reg;
        self.constants.push(value);
        self.constant_regs.insert(value, r);
        r
    }
}
