//! Compiling calls: Func and image reads, intrinsics, and calls into the runtime.

use loopir::{CallType, Expr, ExprKind, Intrinsic, IntrinsicKind, Name};

use super::{Compiler, NONE};
use crate::code::{Arg, Instr, Reg};
use crate::elem::Elem;
use crate::error::InterpError;
use crate::exec::struct_layout;
use crate::runtime::{BufferFn, DeviceFn, RtFn};

impl Compiler<'_> {
    pub(super) fn call(&mut self, e: &Expr) -> Result<Reg, InterpError> {
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
            .map(|a| Ok(Arg { reg: self.expr(a)?, elem: self.elem(a.ty())?, lanes: a.ty().lanes() }))
            .collect()
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
    ) -> Result<Reg, InterpError> {
        let ty = e.ty();
        let elem = self.elem(ty)?;
        if ty.lanes() != 1 {
            return Err(self.bad(format!("a vector call of Func {name}")));
        }
        let (storage, vi, types) = self.func_target(name, value_index);
        if let Some(types) = types {
            match types.get(vi as usize) {
                Some(t) if Elem::of(*t).ok() != Some(elem) => {
                    return Err(self.bad(format!(
                        "{name} holds {t} values but is read as {ty} (the text does not say the type of every call; give the Func types in the environment)"
                    )));
                }
                None if !types.is_empty() => {
                    return Err(self.bad(format!("{name} has {} values; value {vi} is read", types.len())));
                }
                _ => {}
            }
        } else {
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
        Ok(dst)
    }

    /// A coordinate of a Func access: a scalar integer.
    pub(super) fn index_arg(&mut self, a: &Expr) -> Result<Reg, InterpError> {
        let t = a.ty();
        if !t.is_scalar() || !(t.is_int() || t.is_uint()) {
            return Err(self.bad(format!("a Func coordinate of type {t}")));
        }
        self.expr(a)
    }

    fn extern_call(
        &mut self,
        e: &Expr,
        name: &Name,
        args: &[Expr],
        value_index: u32,
    ) -> Result<Reg, InterpError> {
        let ty = e.ty();
        let lanes = ty.lanes();
        let ret = self.elem(ty)?;
        let site = self.site_expr(e);
        let f = match RtFn::lookup(name) {
            Ok(Some(f)) => f,
            Err(reason) => {
                self.unsupported(site, reason);
                return Ok(self.alloc(lanes));
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
                return Ok(self.alloc(lanes));
            }
        };
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
            RtFn::Buffer(BufferFn::SetHostDirty) => {
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
            RtFn::Math(m, _) if args.len() != m.arity() => {
                return Err(self.bad(format!("{name} takes {} arguments, not {}", m.arity(), args.len())));
            }
            _ => {}
        }
        let a = self.args(args)?;
        if !f.is_lane_wise() && lanes != 1 {
            return Err(self.bad(format!("a vector call of {name}")));
        }
        let dst = self.alloc(lanes);
        self.emit(Instr::Call { func: f, dst, ret, lanes, args: a.into(), site });
        Ok(dst)
    }

    fn intrinsic(&mut self, e: &Expr, i: Intrinsic, args: &[Expr]) -> Result<Reg, InterpError> {
        let ty = e.ty();
        let lanes = ty.lanes();
        if !i.arity().accepts(args.len()) {
            return Err(self.bad(format!("{} takes {}, not {}", i.name(), i.arity(), args.len())));
        }
        let site = self.site_expr(e);
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
                Ok(dst)
            }
            I::Alloca => {
                let size = self.expr(&args[0])?;
                let slot = self.stack_slot();
                let dst = self.alloc(1);
                self.emit(Instr::Alloca { dst, size, slot, site });
                Ok(dst)
            }
            I::SizeOfHalideBufferT => self.constant(crate::buffer::layout::SIZE as u64),
            I::GetUserContext => self.constant(crate::heap::NULL),
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
                        self.unsupported(
                            site,
                            format!(
                                "registers `{fname}` as a destructor, which the runtime does not provide"
                            ),
                        );
                        return Ok(self.alloc(1));
                    }
                    Err(reason) => {
                        self.unsupported(site, reason);
                        return Ok(self.alloc(1));
                    }
                };
                let k = self.destructors.len() as u32;
                self.destructors.push(df);
                let a = self.args(args)?;
                let dst = self.alloc(1);
                self.emit(Instr::Call {
                    func: RtFn::RegisterDestructor(k),
                    dst,
                    ret: Elem::Handle,
                    lanes: 1,
                    args: a.into(),
                    site,
                });
                Ok(dst)
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
                Ok(dst)
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
                self.emit(Instr::Call {
                    func: RtFn::LoadStructMember { offset: offset as u32 },
                    dst,
                    ret,
                    lanes: 1,
                    args: a.into(),
                    site,
                });
                Ok(dst)
            }
            I::GpuThreadBarrier => {
                self.emit(Instr::Barrier);
                self.constant(0)
            }
            I::Require => {
                // require(condition, value, error): the error if the condition fails.
                let c = self.expr(&args[0])?;
                let jump = self.emit(Instr::JumpIfTrue { cond: c, to: 0 });
                let m = self.expr(&args[2])?;
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
                self.constant(0)
            }
            I::SignedIntegerOverflow => {
                let a = self.args(args)?;
                let out = self.elem(ty)?;
                let dst = self.alloc(lanes);
                self.emit(Instr::Math { op: i, out, dst, lanes, args: a.into(), site });
                Ok(dst)
            }
            I::Undef => {
                self.unsupported(site, "evaluates undef() outside the value of a Provide");
                Ok(self.alloc(lanes))
            }
            I::Unreachable => {
                self.unsupported(site, "reaches unreachable()");
                Ok(self.alloc(lanes))
            }
            I::Prefetch | I::HvxScatterRelease => self.constant(0),
            _ => match i.kind() {
                IntrinsicKind::Math
                    if !i.has_side_effects() && !matches!(i, I::DynamicShuffle | I::ExtractMaskElement) =>
                {
                    let a = self.args(args)?;
                    if a.iter().any(|x| x.lanes != 1 && x.lanes != lanes) {
                        return Err(self.bad(format!(
                            "{} of arguments with other lane counts than its result",
                            i.name()
                        )));
                    }
                    let out = self.elem(ty)?;
                    let dst = self.alloc(lanes);
                    self.emit(Instr::Math { op: i, out, dst, lanes, args: a.into(), site });
                    Ok(dst)
                }
                IntrinsicKind::Marker | IntrinsicKind::Hint => self.constant(0),
                _ => {
                    self.unsupported(site, format!("the intrinsic {} has no meaning on the host", i.name()));
                    Ok(self.alloc(lanes))
                }
            },
        }
    }

    fn constant(&mut self, value: u64) -> Result<Reg, InterpError> {
        let dst = self.alloc(1);
        self.emit(Instr::Const { dst, value });
        Ok(dst)
    }

    /// `if_then_else(c, t[, f])`: only the chosen side is evaluated (it may hold loads
    /// that are valid only under the condition). A vector condition evaluates both and
    /// selects lane by lane, as the reference's code generator does.
    fn if_then_else(&mut self, e: &Expr, args: &[Expr]) -> Result<Reg, InterpError> {
        let ty = e.ty();
        let lanes = ty.lanes();
        let c = &args[0];
        if c.ty().lanes() != 1 {
            let rc = self.expr(c)?;
            let rt = self.expr(&args[1])?;
            let rf = match args.get(2) {
                Some(f) => self.expr(f)?,
                None => self.alloc(lanes),
            };
            let dst = self.alloc(lanes);
            self.emit(Instr::Select { dst, cond: rc, t: rt, f: rf, lanes, cond_lanes: c.ty().lanes() });
            return Ok(dst);
        }
        let dst = self.alloc(lanes);
        let rc = self.expr(c)?;
        let jump = self.emit(Instr::JumpIfFalse { cond: rc, to: 0 });
        self.expr_into(&args[1], dst)?;
        let skip = self.emit(Instr::Jump { to: 0 });
        let else_pc = self.here();
        self.patch(jump, else_pc);
        if let Some(f) = args.get(2) {
            self.expr_into(f, dst)?;
        } else {
            for k in 0..lanes as Reg {
                self.emit(Instr::Const { dst: dst + k, value: 0 });
            }
        }
        let end = self.here();
        self.patch(skip, end);
        let _ = NONE;
        Ok(dst)
    }
}
