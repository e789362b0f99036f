//! Compiling calls: Func and image reads, intrinsics, and calls into the runtime.

use loopir::{CallType, Expr, ExprKind, Intrinsic, IntrinsicKind, Name, Type};

use super::Compiler;
use super::expr::Val;
use crate::code::{Arg, Instr, Reg};
use crate::elem::Elem;
use crate::error::InterpError;
use crate::exec::struct_layout;
use crate::runtime::{BufferFn, DeviceFn, RtFn};

impl Compiler<'_> {
    pub(super) fn call(&mut self, e: &Expr) -> Result<Val, InterpError> {
        let ExprKind::Call { name, args, call_type, value_index } = e.kind() else {
            return Err(self.bad("not a call"));
        };
        match call_type {
            CallType::Halide | CallType::Image => self.func_load(e, name, args, *value_index),
            CallType::Intrinsic | CallType::PureIntrinsic => match Intrinsic::from_name(name) {
                Some(i) => self.intrinsic(e, i, args),
                None => self.extern_call(e, name, args, *value_index),
            },
            CallType::Extern | CallType::ExternCPlusPlus | CallType::PureExtern => {
                self.extern_call(e, name, args, *value_index)
            }
        }
    }

    /// The arguments of a call, compiled.
    fn args(&mut self, args: &[Expr]) -> Result<Vec<Arg>, InterpError> {
        args.iter()
            .map(|a| {
                let v = self.expr(a)?;
                Ok(Arg { reg: v.reg, elem: self.elem(v.ty)?, lanes: v.ty.lanes() })
            })
            .collect()
    }

    /// The arguments of a math intrinsic; the first two are brought to one type where
    /// the intrinsic's definition wants them alike.
    fn math_args(&mut self, i: Intrinsic, args: &[Expr]) -> Result<Vec<Arg>, InterpError> {
        use Intrinsic as I;
        let alike = matches!(
            i,
            I::Absd
                | I::BitwiseAnd
                | I::BitwiseOr
                | I::BitwiseXor
                | I::HalvingAdd
                | I::HalvingSub
                | I::RoundingHalvingAdd
                | I::SortedAvg
                | I::SaturatingAdd
                | I::SaturatingSub
                | I::StrictAdd
                | I::StrictSub
                | I::StrictMul
                | I::StrictDiv
                | I::StrictMin
                | I::StrictMax
                | I::StrictEq
                | I::StrictLt
                | I::StrictLe
                | I::WideningAdd
                | I::WideningSub
                | I::MulShiftRight
                | I::RoundingMulShiftRight
                | I::Lerp
        );
        let mut vals: Vec<Val> = args.iter().map(|a| self.expr(a)).collect::<Result<_, _>>()?;
        if alike && vals.len() >= 2 && vals[0].ty.lanes() == vals[1].ty.lanes() {
            let (r0, r1, t) = self.unify(vals[0], vals[1], &args[0], &args[1])?;
            vals[0] = Val { reg: r0, ty: t, soft: false };
            vals[1] = Val { reg: r1, ty: t, soft: false };
        }
        vals.iter().map(|v| Ok(Arg { reg: v.reg, elem: self.elem(v.ty)?, lanes: v.ty.lanes() })).collect()
    }

    /// The storage register and value index of Func (or buffer argument) `name`.
    fn func_target(&mut self, name: &Name, value_index: u32) -> (Reg, u32, Option<Vec<loopir::Type>>) {
        if let Some(f) = self.func(name) {
            return (f.storage, value_index, Some(f.types.clone()));
        }
        // A buffer argument; a tuple-valued one is a buffer per value.
        let buffer = if self.tuple_funcs.contains_key(name) {
            format!("{name}.{value_index}")
        } else {
            name.to_string()
        };
        (self.buffer_storage(&buffer), 0, None)
    }

    fn func_load(
        &mut self,
        e: &Expr,
        name: &Name,
        args: &[Expr],
        value_index: u32,
    ) -> Result<Val, InterpError> {
        let mut ty = e.ty();
        let mut soft = false;
        if ty.lanes() != 1 {
            return Err(self.bad(format!("a vector call of Func {name}")));
        }
        let (storage, vi, types) = self.func_target(name, value_index);
        let tuple = types.as_ref().is_some_and(|t| t.len() > 1) || self.tuple_funcs.contains_key(name);
        if tuple && !self.interface.tuple_reads.contains(name) {
            self.interface.tuple_reads.push(name.clone());
        }
        if let Some(types) = types {
            match types.get(vi as usize) {
                // The realization's type is the one the values were stored with.
                Some(t) => ty = *t,
                None if !types.is_empty() => {
                    return Err(self.bad(format!("{name} has {} values; value {vi} is read", types.len())));
                }
                None => soft = true,
            }
        }
        let elem = self.elem(ty)?;
        if !self.funcs.contains_key(name) {
            let buffer = if self.tuple_funcs.contains_key(name) {
                format!("{name}.{value_index}")
            } else {
                name.to_string()
            };
            self.note_buffer_use(&buffer, elem, false);
            if let Some(k) = self.interface.buffers.iter().position(|b| *b.name == buffer) {
                self.note_dimensions(k, args.len());
            }
        }
        let regs: Vec<Reg> = args.iter().map(|a| self.index_arg(a)).collect::<Result<_, _>>()?;
        let site = self.site_expr(e);
        let dst = self.alloc(1);
        self.emit(Instr::FuncLoad { dst, storage, value_index: vi, args: regs.into(), elem, site });
        Ok(Val { reg: dst, ty, soft })
    }

    /// A coordinate of a Func access: a scalar integer.
    pub(super) fn index_arg(&mut self, a: &Expr) -> Result<Reg, InterpError> {
        let v = self.expr(a)?;
        let t = v.ty;
        if !t.is_scalar() || !(t.is_int() || t.is_uint()) {
            if v.soft && t.is_scalar() && self.elem(t)?.bits() == 32 {
                return self.coerce(v, Type::INT32);
            }
            return Err(self.bad(format!("a Func coordinate of type {t}")));
        }
        Ok(v.reg)
    }

    fn extern_call(
        &mut self,
        e: &Expr,
        name: &Name,
        args: &[Expr],
        value_index: u32,
    ) -> Result<Val, InterpError> {
        let ty = e.ty();
        let lanes = ty.lanes();
        let ret = self.elem(ty)?;
        let site = self.site_expr(e);
        let f = match RtFn::lookup(name) {
            Ok(Some(f)) => f,
            Err(reason) => {
                self.unsupported(site, reason);
                return Ok(Val { reg: self.alloc(lanes), ty, soft: false });
            }
            Ok(None) if self.runtime.knows_extern(name) => {
                let k = match self.externs.iter().position(|n| n == name) {
                    Some(k) => k,
                    None => {
                        self.externs.push(name.clone());
                        self.externs.len() - 1
                    }
                };
                RtFn::User(k as u32)
            }
            Ok(None) => {
                // A call of something nothing defines, with coordinates for arguments: a
                // read of a buffer argument (an image whose call type the text omits).
                let coords = args.iter().all(|a| a.ty().is_scalar() && (a.ty().is_int() || a.ty().is_uint()));
                if coords && !ty.is_handle() && lanes == 1 && self.value(name).is_none() {
                    return self.func_load(e, name, args, value_index);
                }
                self.unsupported(
                    site,
                    format!("calls `{name}`, a function whose body is not in the file and that the runtime does not provide"),
                );
                return Ok(Val { reg: self.alloc(lanes), ty, soft: false });
            }
        };
        if let Some(counts) = f.arities()
            && !counts.contains(&args.len())
        {
            let counts: Vec<String> = counts.iter().map(|n| n.to_string()).collect();
            return Err(self.bad(format!(
                "{name} takes {} arguments, not {}",
                counts.join(" or "),
                args.len()
            )));
        }
        let a = self.args(args)?;
        match f {
            RtFn::Buffer(BufferFn::IsBoundsQuery) => self.interface.answers_bounds_queries = true,
            RtFn::Buffer(BufferFn::GetMin | BufferFn::GetMax | BufferFn::GetExtent | BufferFn::GetStride) => {
                // `_halide_buffer_get_min(b.buffer, k)` says buffer b has k+1 dimensions.
                if let (Some(ExprKind::Variable(v)), Some(k)) =
                    (args.first().map(|a| a.kind()), args.get(1).and_then(|a| a.as_int()))
                    && let Some(b) = v.strip_suffix(".buffer")
                    && self.value(v).is_none()
                    && let Some(p) = self.interface.buffers.iter().position(|x| &*x.name == b)
                {
                    self.note_dimensions(p, k as usize + 1);
                }
            }
            RtFn::Buffer(BufferFn::SetHostDirty | BufferFn::SetDeviceDirty) => {
                if let Some(ExprKind::Variable(v)) = args.first().map(|a| a.kind())
                    && let Some(b) = v.strip_suffix(".buffer")
                    && self.value(v).is_none()
                {
                    let b = b.to_owned();
                    if let Some(p) = self.interface.buffers.iter().position(|x| *x.name == b) {
                        self.interface.buffers[p].is_output = true;
                    }
                }
            }
            RtFn::Device(d) if !matches!(d, DeviceFn::Interface(_)) => self.device_aware = true,
            // The text gives a call's type as a prefix (`(float32)floor_f32(x)`); without
            // it the call reads as int32, and its float result converted to an integer
            // would be a silently different program.
            RtFn::Math(m, bits) if !(m.is_predicate() || ty.is_float() && ty.bits() == bits) => {
                return Err(self.bad(format!(
                    "{name} returns float{bits}, but the call has type {ty} (write the type before the call: `(float{bits}){name}(...)`)"
                )));
            }
            _ => {}
        }
        if !f.is_lane_wise() && lanes != 1 {
            return Err(self.bad(format!("a vector call of {name}")));
        }
        let dst = self.alloc(lanes);
        self.emit(Instr::Call { func: f, dst, ret, lanes, args: a.into(), site });
        Ok(Val { reg: dst, ty, soft: false })
    }

    fn intrinsic(&mut self, e: &Expr, i: Intrinsic, args: &[Expr]) -> Result<Val, InterpError> {
        let ty = e.ty();
        let lanes = ty.lanes();
        if !i.arity().accepts(args.len()) {
            return Err(self.bad(format!("{} takes {}, not {}", i.name(), i.arity(), args.len())));
        }
        let site = self.site_expr(e);
        let hard = |reg: Reg| Val { reg, ty, soft: false };
        use Intrinsic as I;
        match i {
            // Hints stand for their first argument.
            I::Likely
            | I::LikelyIfInnermost
            | I::PromiseClamped
            | I::UnsafePromiseClamped
            | I::MemoizeExpr => self.expr(&args[0]),
            I::ReturnSecond => {
                self.expr(&args[0])?;
                self.expr(&args[1])
            }
            I::IfThenElse => self.if_then_else(e, args),
            I::MakeStruct => {
                let fields = self.args(args)?;
                let slot = self.stack_slot();
                let dst = self.alloc(1);
                self.emit(Instr::MakeStruct { dst, fields: fields.into(), slot, site });
                Ok(hard(dst))
            }
            I::Alloca => {
                let size = self.expr(&args[0])?.reg;
                let slot = self.stack_slot();
                let dst = self.alloc(1);
                self.emit(Instr::Alloca { dst, size, slot, site });
                Ok(hard(dst))
            }
            I::SizeOfHalideBufferT => Ok(self.constant(crate::buffer::layout::SIZE as u64, ty)),
            I::GetUserContext => Ok(self.constant(crate::heap::NULL, ty)),
            I::RegisterDestructor => {
                let Some(ExprKind::StringImm(fname)) = args.first().map(|a| a.kind()) else {
                    return Err(self.bad("register_destructor of a function that is not named by a string"));
                };
                let fname = String::from_utf8_lossy(fname).into_owned();
                let df = match RtFn::lookup(&fname) {
                    Ok(Some(f)) => f,
                    Ok(None) if self.runtime.knows_extern(&fname) => {
                        self.externs.push(Name::from(fname.as_str()));
                        RtFn::User((self.externs.len() - 1) as u32)
                    }
                    Ok(None) => {
                        let why = format!(
                            "registers `{fname}` as a destructor, which the runtime does not provide"
                        );
                        self.unsupported(site, why);
                        return Ok(hard(self.alloc(1)));
                    }
                    Err(reason) => {
                        self.unsupported(site, reason);
                        return Ok(hard(self.alloc(1)));
                    }
                };
                let k = self.destructors.len() as u32;
                self.destructors.push(df);
                let a = self.args(args)?;
                let dst = self.alloc(1);
                let func = RtFn::RegisterDestructor(k);
                self.emit(Instr::Call { func, dst, ret: Elem::Handle, lanes: 1, args: a.into(), site });
                Ok(hard(dst))
            }
            I::Stringify => {
                let a = self.args(args)?;
                let dst = self.alloc(1);
                self.emit(Instr::Call {
                    func: RtFn::Stringify,
                    dst,
                    ret: Elem::Handle,
                    lanes: 1,
                    args: a.into(),
                    site,
                });
                Ok(hard(dst))
            }
            I::LoadTypedStructMember => {
                // (pointer, a make_struct of the struct's field types, field index)
                let fields: Vec<(Elem, u16)> = match args[1].kind() {
                    ExprKind::Call { args: proto, .. } => proto
                        .iter()
                        .map(|p| Ok((self.elem(p.ty())?, p.ty().lanes())))
                        .collect::<Result<_, InterpError>>()?,
                    _ => return Err(self.bad("load_typed_struct_member without a struct prototype")),
                };
                let k = args[2]
                    .as_int()
                    .ok_or_else(|| self.bad("load_typed_struct_member of a variable field"))?;
                let (offsets, _) = struct_layout(fields.into_iter());
                let offset = *offsets
                    .get(k as usize)
                    .ok_or_else(|| self.bad("load_typed_struct_member past the struct"))?;
                let a = self.args(&args[..1])?;
                let dst = self.alloc(1);
                let ret = self.elem(ty)?;
                let func = RtFn::LoadStructMember { offset: offset as u32 };
                self.emit(Instr::Call { func, dst, ret, lanes: 1, args: a.into(), site });
                Ok(hard(dst))
            }
            I::GpuThreadBarrier => {
                self.emit(Instr::Barrier);
                Ok(self.constant(0, ty))
            }
            I::Require => {
                // require(condition, value, error): the error if the condition fails.
                let c = self.expr_as(&args[0], Type::BOOL)?;
                let jump = self.emit(Instr::JumpIfTrue { cond: c, to: 0 });
                let m = self.expr(&args[2])?.reg;
                self.emit(Instr::Fail { code: m, site });
                let ok = self.here();
                self.patch(jump, ok);
                self.expr(&args[1])
            }
            I::DeclareBoxTouched => {
                // (func, min0, max0, min1, max1, ...): grow a realization still open.
                if let Some(ExprKind::Variable(f)) = args.first().map(|a| a.kind())
                    && let Some(b) = self.func(f)
                    && b.growable
                {
                    let storage = b.storage;
                    let mut lo = Vec::new();
                    let mut hi = Vec::new();
                    for pair in args[1..].chunks(2) {
                        lo.push(self.index_arg(&pair[0])?);
                        hi.push(self.index_arg(pair.get(1).unwrap_or(&pair[0]))?);
                    }
                    self.emit(Instr::GrowRealization { storage, lo: lo.into(), hi: hi.into(), site });
                }
                Ok(self.constant(0, ty))
            }
            I::SignedIntegerOverflow => {
                let a = self.args(args)?;
                let out = self.elem(ty)?;
                let dst = self.alloc(lanes);
                self.emit(Instr::Math { op: i, out, dst, lanes, args: a.into(), site });
                Ok(hard(dst))
            }
            I::Undef => {
                self.unsupported(site, "evaluates undef() outside the value of a Provide");
                Ok(hard(self.alloc(lanes)))
            }
            I::Unreachable => {
                self.unsupported(site, "reaches unreachable()");
                Ok(hard(self.alloc(lanes)))
            }
            I::Prefetch | I::HvxScatterRelease => Ok(self.constant(0, ty)),
            I::BitwiseAnd | I::BitwiseOr | I::BitwiseXor | I::BitwiseNot => {
                // Printed infix, with no type: the result has the operands' type.
                let a = self.math_args(i, args)?;
                let (out, n) = (a[0].elem, a[0].lanes);
                let dst = self.alloc(n);
                self.emit(Instr::Math { op: i, out, dst, lanes: n, args: a.into(), site });
                Ok(Val { reg: dst, ty: out.ty().with_lanes(n), soft: false })
            }
            _ => match i.kind() {
                IntrinsicKind::Math
                    if !i.has_side_effects() && !matches!(i, I::DynamicShuffle | I::ExtractMaskElement) =>
                {
                    let a = self.math_args(i, args)?;
                    if a.iter().any(|x| x.lanes != 1 && x.lanes != lanes) {
                        let what =
                            format!("{} of arguments with other lane counts than its result", i.name());
                        return Err(self.bad(what));
                    }
                    let out = self.elem(ty)?;
                    let dst = self.alloc(lanes);
                    self.emit(Instr::Math { op: i, out, dst, lanes, args: a.into(), site });
                    Ok(hard(dst))
                }
                IntrinsicKind::Marker | IntrinsicKind::Hint => Ok(self.constant(0, ty)),
                _ => {
                    self.unsupported(site, format!("the intrinsic {} has no meaning on the host", i.name()));
                    Ok(hard(self.alloc(lanes)))
                }
            },
        }
    }

    fn constant(&mut self, value: u64, ty: Type) -> Val {
        Val { reg: self.constant_reg(value), ty, soft: false }
    }

    /// `if_then_else(c, t[, f])`: only the chosen side is evaluated (it may hold loads
    /// that are valid only under the condition). A vector condition evaluates both and
    /// selects lane by lane, as the reference's code generator does.
    fn if_then_else(&mut self, e: &Expr, args: &[Expr]) -> Result<Val, InterpError> {
        let ty = e.ty();
        let lanes = ty.lanes();
        let c = &args[0];
        if c.ty().lanes() != 1 {
            let rc = self.expr_as(c, c.ty())?;
            let vt = self.expr(&args[1])?;
            let (rt, rf, t) = match args.get(2) {
                Some(f) => {
                    let vf = self.expr(f)?;
                    self.unify(vt, vf, &args[1], f)?
                }
                None => (vt.reg, self.alloc(lanes), vt.ty),
            };
            let dst = self.alloc(t.lanes());
            self.emit(Instr::Select {
                dst,
                cond: rc,
                t: rt,
                f: rf,
                lanes: t.lanes(),
                cond_lanes: c.ty().lanes(),
            });
            return Ok(Val { reg: dst, ty: t, soft: false });
        }
        let dst = self.alloc(lanes);
        let rc = self.expr_as(c, Type::BOOL)?;
        let jump = self.emit(Instr::JumpIfFalse { cond: rc, to: 0 });
        let rt = self.expr_as(&args[1], ty)?;
        if rt != dst {
            self.emit(Instr::Copy { dst, src: rt, lanes });
        }
        let skip = self.emit(Instr::Jump { to: 0 });
        let else_pc = self.here();
        self.patch(jump, else_pc);
        if let Some(f) = args.get(2) {
            let rf = self.expr_as(f, ty)?;
            if rf != dst {
                self.emit(Instr::Copy { dst, src: rf, lanes });
            }
        } else {
            for k in 0..lanes as Reg {
                self.emit(Instr::Const { dst: dst + k, value: 0 });
            }
        }
        let end = self.here();
        self.patch(skip, end);
        Ok(Val { reg: dst, ty, soft: false })
    }
}
