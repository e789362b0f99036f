//! Compiling expressions: each node becomes an instruction writing a fresh register.

use loopir::equality::with_stack;
use loopir::{Expr, ExprKind, Type};

use super::{Compiler, NONE};
use crate::code::{Instr, Reg};
use crate::elem::Elem;
use crate::error::{InterpError, node_line};

impl Compiler<'_> {
    /// Compiles `e`; returns the register holding its value.
    pub(super) fn expr(&mut self, e: &Expr) -> Result<Reg, InterpError> {
        with_stack(|| self.expr_node(e)).map_err(|err| err.at(|| node_line(&e.to_string())))
    }

    /// Compiles `e` so that its value ends up in `dst`.
    pub(super) fn expr_into(&mut self, e: &Expr, dst: Reg) -> Result<(), InterpError> {
        let r = self.expr(e)?;
        if r != dst {
            self.emit(Instr::Copy { dst, src: r, lanes: e.ty().lanes() });
        }
        Ok(())
    }

    /// The operands of a binary node must agree in type.
    fn same_type(&self, a: &Expr, b: &Expr) -> Result<(), InterpError> {
        let (ta, tb) = (a.ty(), b.ty());
        if ta.lanes() != tb.lanes() || Elem::of(ta) != Elem::of(tb) {
            return Err(self.bad(format!("operands of different types: {ta} and {tb}")));
        }
        Ok(())
    }

    fn expr_node(&mut self, e: &Expr) -> Result<Reg, InterpError> {
        let ty = e.ty();
        let lanes = ty.lanes();
        match e.kind() {
            ExprKind::IntImm(v) => {
                let elem = self.elem(ty)?;
                let dst = self.alloc(1);
                self.emit(Instr::Const { dst, value: elem.wrap(*v as u64) });
                Ok(dst)
            }
            ExprKind::UIntImm(v) => {
                let elem = self.elem(ty)?;
                let dst = self.alloc(1);
                self.emit(Instr::Const { dst, value: elem.wrap(*v) });
                Ok(dst)
            }
            ExprKind::FloatImm(v) => {
                let elem = self.elem(ty)?;
                if !elem.is_float() {
                    return Err(self.bad(format!("a float constant of type {ty}")));
                }
                let dst = self.alloc(1);
                self.emit(Instr::Const { dst, value: elem.from_f64(*v) });
                Ok(dst)
            }
            ExprKind::StringImm(bytes) => {
                let value = self.string(bytes);
                let dst = self.alloc(1);
                self.emit(Instr::Const { dst, value });
                Ok(dst)
            }
            ExprKind::Cast(v) => {
                let (from, to) = (self.elem(v.ty())?, self.elem(ty)?);
                if v.ty().lanes() != lanes {
                    return Err(self.bad(format!("a cast from {} to {ty} changes the lane count", v.ty())));
                }
                if (from == Elem::Handle) != (to == Elem::Handle) {
                    return Err(
                        self.bad(format!("a cast between {} and {ty} (only reinterpret can)", v.ty()))
                    );
                }
                let src = self.expr(v)?;
                if from == to {
                    return Ok(src);
                }
                let dst = self.alloc(lanes);
                self.emit(Instr::Cast { dst, src, from, to, lanes });
                Ok(dst)
            }
            ExprKind::Reinterpret(v) => {
                let (from, to) = (self.elem(v.ty())?, self.elem(ty)?);
                let bits = |t: Type, e: Elem| t.lanes() as u32 * e.bits();
                if bits(v.ty(), from) != bits(ty, to) {
                    return Err(self.bad(format!("reinterpret of {} as {ty}: the sizes differ", v.ty())));
                }
                let src = self.expr(v)?;
                let dst = self.alloc(lanes);
                self.emit(Instr::Reinterpret {
                    dst,
                    src,
                    from,
                    to,
                    from_lanes: v.ty().lanes(),
                    to_lanes: lanes,
                });
                Ok(dst)
            }
            ExprKind::Variable(name) => self.variable(name, ty),
            ExprKind::Binary(op, a, b) => {
                self.same_type(a, b)?;
                let elem = self.elem(a.ty())?;
                if elem == Elem::Handle && !op.is_comparison() {
                    return Err(self.bad("arithmetic on handles"));
                }
                if op.is_logical() && elem != Elem::BOOL {
                    return Err(self.bad(format!("a logical operator on {}", a.ty())));
                }
                let ra = self.expr(a)?;
                let rb = self.expr(b)?;
                let dst = self.alloc(lanes);
                self.emit(Instr::Binary { op: *op, elem, dst, a: ra, b: rb, lanes });
                Ok(dst)
            }
            ExprKind::Not(a) => {
                if self.elem(a.ty())? != Elem::BOOL {
                    return Err(self.bad(format!("`!` of {}", a.ty())));
                }
                let ra = self.expr(a)?;
                let dst = self.alloc(lanes);
                self.emit(Instr::Not { dst, a: ra, lanes });
                Ok(dst)
            }
            ExprKind::Select(c, t, f) => {
                self.same_type(t, f)?;
                let cl = c.ty().lanes();
                if self.elem(c.ty())? != Elem::BOOL || (cl != 1 && cl != t.ty().lanes()) {
                    return Err(self.bad(format!("a select condition of type {}", c.ty())));
                }
                let rc = self.expr(c)?;
                let rt = self.expr(t)?;
                let rf = self.expr(f)?;
                let dst = self.alloc(lanes);
                self.emit(Instr::Select { dst, cond: rc, t: rt, f: rf, lanes, cond_lanes: cl });
                Ok(dst)
            }
            ExprKind::Load { name, index, predicate, .. } => {
                let elem = self.elem(ty)?;
                if index.ty() != Type::int(32, lanes) {
                    return Err(self.bad(format!("a load index of type {} for {ty}", index.ty())));
                }
                let ptr = self.variable(name, Type::void_ptr())?;
                self.note_buffer_use(name, elem, false);
                let ri = self.expr(index)?;
                let pred = if predicate.is_const_true() { NONE } else { self.expr(predicate)? };
                let site = self.site_expr(e);
                let dst = self.alloc(lanes);
                self.emit(Instr::Load { dst, ptr, index: ri, pred, elem, lanes, site });
                Ok(dst)
            }
            ExprKind::Ramp { base, stride, lanes: count } => {
                self.same_type(base, stride)?;
                let elem = self.elem(base.ty())?;
                let rb = self.expr(base)?;
                let rs = self.expr(stride)?;
                let dst = self.alloc(lanes);
                self.emit(Instr::Ramp {
                    dst,
                    base: rb,
                    stride: rs,
                    elem,
                    base_lanes: base.ty().lanes(),
                    count: *count,
                });
                Ok(dst)
            }
            ExprKind::Broadcast { value, lanes: count } => {
                let src = self.expr(value)?;
                let dst = self.alloc(lanes);
                self.emit(Instr::Broadcast { dst, src, src_lanes: value.ty().lanes(), count: *count });
                Ok(dst)
            }
            ExprKind::Call { .. } => self.call(e),
            ExprKind::Let { .. } => {
                let mut cur = e.clone();
                let mut names = Vec::new();
                while let ExprKind::Let { name, value, body } = cur.kind() {
                    let r = self.alloc(value.ty().lanes());
                    self.expr_into(value, r)?;
                    self.bind_value(name, r, value.ty());
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
                let total: u32 = vectors.iter().map(|v| v.ty().lanes() as u32).sum();
                let first = vectors.first().ok_or_else(|| self.bad("a shuffle of no vectors"))?;
                let elem = self.elem(first.ty())?;
                if vectors.iter().any(|v| Elem::of(v.ty()).ok() != Some(elem)) {
                    return Err(self.bad("a shuffle of vectors of different types"));
                }
                if indices.iter().any(|&i| i < 0 || i as u32 >= total) || total > u16::MAX as u32 {
                    return Err(self.bad("a shuffle index outside its vectors"));
                }
                let src = if vectors.len() == 1 {
                    self.expr(first)?
                } else {
                    let regs: Vec<(Reg, u16)> = vectors
                        .iter()
                        .map(|v| Ok((self.expr(v)?, v.ty().lanes())))
                        .collect::<Result<_, InterpError>>()?;
                    let base = self.alloc(total as u16);
                    let mut at = base;
                    for (r, n) in regs {
                        self.emit(Instr::Copy { dst: at, src: r, lanes: n });
                        at += n as Reg;
                    }
                    base
                };
                let dst = self.alloc(lanes);
                self.emit(Instr::Shuffle { dst, src, indices: indices.iter().map(|&i| i as u16).collect() });
                Ok(dst)
            }
            ExprKind::VectorReduce { op, value } => {
                let elem = self.elem(value.ty())?;
                if value.ty().lanes() % lanes != 0 {
                    return Err(
                        self.bad("a vector reduction to a lane count that does not divide its input's")
                    );
                }
                let src = self.expr(value)?;
                let dst = self.alloc(lanes);
                self.emit(Instr::Reduce {
                    op: *op,
                    elem,
                    dst,
                    src,
                    in_lanes: value.ty().lanes(),
                    out_lanes: lanes,
                });
                Ok(dst)
            }
        }
    }
}
