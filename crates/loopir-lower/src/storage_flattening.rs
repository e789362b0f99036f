//! Storage flattening: from multi-dimensional Funcs to flat buffers (the reference's
//! `StorageFlattening.cpp`).
//!
//! Before it, a Func is stored by `realize f([min, extent], ...)`, written by
//! `f(x, y) = v` and read by calls `f(x, y)`; images are read by calls too. After it,
//! every realization is an `allocate` of the product of its extents, every write a
//! `Store` and every read a `Load` at a one-dimensional index. The pass runs in four
//! steps, as the reference's does:
//!
//! 1. GPU loops are rebased to start at zero ([`crate::zero_gpu_loop_mins`]).
//! 2. Dimensions are flattened. A realization of `f` becomes
//!    ```text
//!    let f.extent.i = <extent i>     let f.min.i = <min i>     (each dimension)
//!    let f.stride.<innermost> = 1    let f.stride.j = f.stride.<previous>*<extent of previous>
//!    allocate f[type * extents in argument order] in <memory type> if <condition>
//!    let f.buffer = <a halide_buffer_t describing it, its shape in a fresh `t<N>`>
//!    ```
//!    in the Func's storage order, extents rounded up to their alignment and replaced by
//!    their storage bound (checked by an assert) where the schedule gives them. An
//!    access to a buffer realized around it is at `(x - f.min.0)*f.stride.0 + ...`; an
//!    access to anything else (an output, an image) at `x*f.stride.0 + ... - (f.min.0*
//!    f.stride.0 + ...)`, through the symbols of its `halide_buffer_t`. Constant offsets
//!    of the coordinates are peeled off into a last term, so that stencil taps share
//!    their base. Inside GPU loops, texture buffers are read and written with
//!    `image_load`/`image_store` instead. A prefetch of a region becomes a `prefetch` call
//!    at the region's flattened base address.
//! 3. Hoisted storage: an allocation inside `hoisted_storage (f)` moves to the marker,
//!    its extents bounded over the loops between them (the largest over all allocations
//!    of `f` there).
//! 4. Buffers of types narrower than a byte (booleans) are stored in whole bytes.
//!
//! The names of the shapes (`t<N>`) are drawn from the context's fresh-name counter,
//! innermost realization first, one per realization.

use loopir::dag::{self, Node};
use loopir::mutate::{ExprMemo, Mutator, TryMutator};
use loopir::stack::with_stack;
use loopir::{
    Binder, CType, CallType, Expr, ExprKind, Intrinsic, MemoryType, MinExtent, ModulusRemainder, Name, Stmt,
    StmtKind, Type, TypeCode, make,
};
use loopir_bounds::{FuncValueBounds, bounds_of_expr_in_scope};
use loopir_simplify::cse::cse;
use loopir_simplify::{Bound, Ctx, Interval, Scope, can_prove, simplify_expr};
use rustc_hash::FxHashMap;

use crate::error::LowerError;
use crate::flatten_env::FlattenEnv;
use crate::zero_gpu_loop_mins::zero_gpu_loop_mins;

/// Flattens the storage of `stmt` (see the module docs). Fresh names (`t<N>`) come from
/// `ctx`'s counter; seed it (`Ctx::seed_t`) with the reference's counter at this pass to
/// reproduce its names.
///
/// ```
/// use loopir_lower::{FlattenEnv, FlattenFunc, storage_flattening};
/// let mut env = FlattenEnv::default();
/// let f = FlattenFunc { args: vec!["x".into()], types: vec![loopir::Type::INT32], ..Default::default() };
/// env.funcs.insert("f".into(), f);
/// let s = loopir::parse_stmt("realize f([0, 10]) {\n  for (x, 0, 9) {\n   f(x) = x\n  }\n}\n").unwrap();
/// let flat = storage_flattening(&loopir_simplify::Ctx::new(), &s, &env).unwrap();
/// let text = flat.to_string();
/// assert!(text.starts_with("let f.extent.0 = 10\nlet f.min.0 = 0\nlet f.stride.0 = 1\nallocate f[int32 * 10]\n"));
/// assert!(text.contains(" f[0 + ((x - f.min.0)*f.stride.0)] = x\n"));
/// ```
pub fn storage_flattening(ctx: &Ctx, stmt: &Stmt, env: &FlattenEnv) -> Result<Stmt, LowerError> {
    env.validate()?;
    let stmt = zero_gpu_loop_mins(ctx, stmt);
    let stmt = FlattenDimensions::new(ctx, env, &stmt).try_mutate_stmt(&stmt)?;
    let stmt = HoistStorage::new(ctx).try_mutate_stmt(&stmt)?;
    Ok(PromoteToMemoryType::default().mutate_stmt(&stmt))
}

// ---------------------------------------------------------------------------------------
// Step 2: flattening dimensions.

struct FlattenDimensions<'a> {
    ctx: &'a Ctx,
    env: &'a FlattenEnv,
    /// The statement being flattened, for the element types of prefetched images.
    root: &'a Stmt,
    /// Element types of the images, read from their loads when first needed.
    image_types: Option<FxHashMap<Name, Type>>,
    /// The buffers realized around the current node, with their nesting counts.
    realizations: FxHashMap<Name, usize>,
    /// Buffers in GPU texture memory met so far.
    textures: rustc_hash::FxHashSet<Name>,
    /// Whether the current node runs inside a GPU loop.
    in_gpu: bool,
    /// Rewrites of shared expressions. How a call flattens depends on what is realized
    /// around it and on being inside a GPU loop, so each realization and GPU loop body
    /// gets a table of its own.
    memos: Vec<ExprMemo>,
}

/// The variable `<buffer>.<field>.<dim>`.
fn shape_var(buffer: &str, field: &str, dim: usize) -> Expr {
    Expr::var_i32(format!("{buffer}.{field}.{dim}"))
}

/// Halide's code of a type's kind in a `halide_buffer_t`.
fn type_code(ty: Type) -> i32 {
    match ty.code() {
        TypeCode::Int => 0,
        TypeCode::UInt => 1,
        TypeCode::Float => 2,
        TypeCode::Handle => 3,
        TypeCode::BFloat => 4,
    }
}

fn u64_zero() -> Expr {
    Expr::from_node_unchecked(Type::uint(64, 1), ExprKind::UIntImm(0))
}

/// The null pointer of handle type `ty`, spelled as the reference spells it
/// (`reinterpret<ty>(0_u64)`).
pub(crate) fn null_handle(ty: Type) -> Expr {
    Expr::from_node_unchecked(ty, ExprKind::Reinterpret(u64_zero()))
}

fn handle(spelling: &str) -> Type {
    Type::handle(CType::new(spelling), 1)
}

impl<'a> FlattenDimensions<'a> {
    fn new(ctx: &'a Ctx, env: &'a FlattenEnv, root: &'a Stmt) -> Self {
        FlattenDimensions {
            ctx,
            env,
            root,
            image_types: None,
            realizations: FxHashMap::default(),
            textures: Default::default(),
            in_gpu: false,
            memos: vec![ExprMemo::default()],
        }
    }

    fn is_realized(&self, name: &str) -> bool {
        self.realizations.get(name).is_some_and(|&n| n > 0)
    }

    /// Whether `name` is a pipeline output (or a tuple element of one).
    fn is_output(&self, name: &str) -> bool {
        self.env.buffer_func(name).is_some_and(|(f, _, _)| self.env.outputs.contains(f))
    }

    /// Whether a call reads a Func or an image (and so becomes a load).
    fn reads_buffer(&self, name: &str, call_type: CallType) -> bool {
        match call_type {
            CallType::Halide | CallType::Image => true,
            // Text read without the env types these calls as extern calls: a name of an
            // image or a Func of the env is read all the same.
            CallType::Extern | CallType::PureExtern | CallType::ExternCPlusPlus => {
                self.env.images.contains(name) || self.env.buffer_func(name).is_some()
            }
            CallType::Intrinsic | CallType::PureIntrinsic => false,
        }
    }

    /// A widened index term: 64-bit with large buffers (constants folded, as the
    /// reference's implicit conversions do).
    fn index_term(&self, e: Expr) -> Expr {
        if !self.env.large_buffers || e.ty() == Type::int(64, e.ty().lanes()) {
            return e;
        }
        match e.kind() {
            ExprKind::IntImm(v) if e.ty().is_scalar() => {
                Expr::from_node_unchecked(Type::int(64, 1), ExprKind::IntImm(*v))
            }
            _ => make::cast(Type::int(64, e.ty().lanes()), e),
        }
    }

    fn index_zero(&self) -> Expr {
        if self.env.large_buffers {
            Expr::from_node_unchecked(Type::int(64, 1), ExprKind::IntImm(0))
        } else {
            Expr::i32(0)
        }
    }

    /// The flat index of `name(args)`: relative to the mins for a buffer realized here,
    /// through the buffer's symbols otherwise; constant offsets peeled into a last term.
    fn flat_index(&self, name: &str, args: &[Expr]) -> Expr {
        let strides: Vec<Expr> =
            (0..args.len()).map(|i| self.index_term(shape_var(name, "stride", i))).collect();
        let mins: Vec<Expr> = (0..args.len()).map(|i| shape_var(name, "min", i)).collect();
        let mut constant_term = self.index_zero();
        let mut peeled = Vec::with_capacity(args.len());
        for (arg, stride) in args.iter().zip(&strides) {
            match arg.kind() {
                ExprKind::Binary(loopir::BinOp::Add, a, b) if b.is_constant() => {
                    constant_term =
                        make::add(constant_term, make::mul(stride.clone(), self.index_term(b.clone())));
                    peeled.push(a.clone());
                }
                _ => peeled.push(arg.clone()),
            }
        }
        let mut idx = self.index_zero();
        if self.is_realized(name) {
            // Internal allocations: x - xmin is likely to simplify with the loop bounds.
            for ((arg, min), stride) in peeled.into_iter().zip(mins).zip(&strides) {
                idx = make::add(idx, make::mul(self.index_term(make::sub(arg, min)), stride.clone()));
            }
        } else {
            // External buffers: the base term is loop-invariant and hoists out.
            let mut base = self.index_zero();
            for ((arg, min), stride) in peeled.into_iter().zip(mins).zip(&strides) {
                idx = make::add(idx, make::mul(self.index_term(arg), stride.clone()));
                base = make::add(base, make::mul(self.index_term(min), stride.clone()));
            }
            idx = make::sub(idx, base);
        }
        let zero_term = matches!(constant_term.kind(), ExprKind::IntImm(0));
        if !zero_term {
            idx = make::add(idx, constant_term);
        }
        idx
    }

    fn mutate_all(&mut self, es: &[Expr]) -> Result<Vec<Expr>, LowerError> {
        es.iter().map(|e| self.try_mutate_expr(e)).collect()
    }

    fn flatten_call(
        &mut self,
        e: &Expr,
        name: &Name,
        args: &[Expr],
        call_type: CallType,
        value_index: u32,
    ) -> Result<Expr, LowerError> {
        let node = || format!("call {name}(...)");
        if value_index != 0 {
            return Err(LowerError::ir(
                node(),
                format!(
                    "reads element {value_index} of a tuple: tuple-valued realizations must be split \
                     into `{name}.0`, `{name}.1`, ... before storage flattening"
                ),
            ));
        }
        let is_image = call_type == CallType::Image || self.env.images.contains(name.as_ref());
        if !(self.is_realized(name) || is_image || self.is_output(name)) {
            return Err(LowerError::ir(
                node(),
                "reads a Func that is neither realized around the call nor a pipeline output, and is \
                 not an image of the env",
            ));
        }
        if is_image && self.env.textures.contains(name.as_ref()) {
            self.textures.insert(name.clone());
        }
        let args = self.mutate_all(args)?;
        if self.in_gpu && self.textures.contains(name) {
            let mut call_args =
                vec![Expr::string(name.as_bytes()), Expr::var(Type::buffer_ptr(), format!("{name}.buffer"))];
            for (i, arg) in args.into_iter().enumerate() {
                call_args.push(make::sub(arg, shape_var(name, "min", i)));
                call_args.push(shape_var(name, "extent", i));
            }
            return Ok(Expr::call(e.ty(), Intrinsic::ImageLoad.name(), call_args, CallType::PureIntrinsic));
        }
        let index = self.flat_index(name, &args);
        let predicate = if e.ty().is_scalar() {
            Expr::const_true()
        } else {
            Expr::from_node_unchecked(
                Type::bool(e.ty().lanes()),
                ExprKind::Broadcast { value: Expr::const_true(), lanes: e.ty().lanes() },
            )
        };
        Ok(Expr::from_node_unchecked(
            e.ty(),
            ExprKind::Load { name: name.clone(), index, predicate, alignment: ModulusRemainder::UNKNOWN },
        ))
    }

    fn flatten_provide(
        &mut self,
        name: &Name,
        values: &[Expr],
        args: &[Expr],
        predicate: &Expr,
    ) -> Result<Stmt, LowerError> {
        let node = || format!("{name}(...) = ...");
        if values.len() != 1 {
            return Err(LowerError::ir(
                node(),
                format!(
                    "provides a tuple of {} values: tuple-valued realizations must be split into \
                     `{name}.0`, `{name}.1`, ... before storage flattening",
                    values.len()
                ),
            ));
        }
        let output = self.is_output(name);
        if !(self.is_realized(name) || output) {
            return Err(LowerError::ir(
                node(),
                "stores to a Func that is neither realized around it nor a pipeline output",
            ));
        }
        if output && self.env.textures.contains(name.as_ref()) {
            self.textures.insert(name.clone());
        }
        let value = self.try_mutate_expr(&values[0])?;
        let predicate = self.try_mutate_expr(predicate)?;
        if self.in_gpu && self.textures.contains(name) {
            // The coordinates are used as given, as the reference does.
            let mut call_args =
                vec![Expr::string(name.as_bytes()), Expr::var(Type::buffer_ptr(), format!("{name}.buffer"))];
            for (i, arg) in args.iter().enumerate() {
                call_args.push(make::sub(arg.clone(), shape_var(name, "min", i)));
            }
            call_args.push(value.clone());
            let store = Stmt::evaluate(Expr::call(
                value.ty(),
                Intrinsic::ImageStore.name(),
                call_args,
                CallType::Intrinsic,
            ));
            if predicate.is_const_true() || predicate.as_int() == Some(1) {
                return Ok(store);
            }
            return Ok(Stmt::from_kind_unchecked(StmtKind::IfThenElse {
                condition: predicate,
                then_case: store,
                else_case: None,
            }));
        }
        let args = self.mutate_all(args)?;
        let index = self.flat_index(name, &args);
        Ok(Stmt::from_kind_unchecked(StmtKind::Store {
            name: name.clone(),
            value,
            index,
            predicate,
            alignment: ModulusRemainder::UNKNOWN,
        }))
    }

    /// `(struct halide_buffer_t *)_halide_buffer_init(...)` describing the allocation
    /// `name` of `dims` dimensions through its `.min.i`/`.extent.i`/`.stride.i` symbols.
    fn buffer_description(&self, name: &Name, ty: Type, dims: usize) -> Expr {
        let dimension_ptr = handle("struct halide_dimension_t *");
        // The reference draws the shape's name even when there is no shape.
        let shape_name = self.ctx.fresh_t();
        let mut shape = Vec::with_capacity(4 * dims);
        for i in 0..dims {
            shape.extend([
                shape_var(name, "min", i),
                shape_var(name, "extent", i),
                shape_var(name, "stride", i),
                Expr::i32(0),
            ]);
        }
        let shape_ref =
            if dims == 0 { null_handle(dimension_ptr) } else { Expr::var(dimension_ptr, shape_name.clone()) };
        let size =
            Expr::call(Type::INT32, Intrinsic::SizeOfHalideBufferT.name(), vec![], CallType::Intrinsic);
        let memory =
            Expr::call(Type::buffer_ptr(), Intrinsic::Alloca.name(), vec![size], CallType::Intrinsic);
        let dims_i32 = i32::try_from(dims).unwrap_or(i32::MAX);
        let args = vec![
            memory,
            shape_ref.clone(),
            Expr::var(Type::void_ptr(), name.clone()),
            u64_zero(),
            null_handle(handle("struct halide_device_interface_t *")),
            Expr::i32(type_code(ty)),
            Expr::i32(i32::from(ty.bits())),
            Expr::i32(dims_i32),
            shape_ref,
            u64_zero(),
        ];
        let init = Expr::call(Type::buffer_ptr(), "_halide_buffer_init", args, CallType::Extern);
        if dims == 0 {
            init
        } else {
            let make_struct =
                Expr::call(dimension_ptr, Intrinsic::MakeStruct.name(), shape, CallType::Intrinsic);
            Expr::let_in(shape_name, make_struct, init)
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn flatten_realize(
        &mut self,
        name: &Name,
        types: &[Type],
        memory_type: MemoryType,
        bounds: &[MinExtent],
        condition: &Expr,
        body: &Stmt,
    ) -> Result<Stmt, LowerError> {
        let node = || format!("realize {name}");
        let env = self.env;
        let Some((func_name, func, index)) = env.buffer_func(name) else {
            return Err(LowerError::ir(
                node(),
                "no Func of the env is stored in this buffer (the elements of a tuple-valued Func \
                 are realized as `f.0`, `f.1`, ...)",
            ));
        };
        if types.len() > 1 {
            return Err(LowerError::ir(
                node(),
                format!(
                    "realizes a tuple of {} values: tuple-valued realizations must be split before \
                     storage flattening",
                    types.len()
                ),
            ));
        }
        let ty = match (func.types.get(index), types.first()) {
            (Some(env_ty), Some(ir_ty)) if env_ty != ir_ty => {
                return Err(LowerError::ir(
                    node(),
                    format!("stores {ir_ty} values, but the env gives Func {func_name} the type {env_ty}"),
                ));
            }
            (Some(t), _) | (None, Some(t)) => *t,
            (None, None) => {
                return Err(LowerError::ir(
                    node(),
                    format!("the env gives no value type for Func {func_name}"),
                ));
            }
        };
        let permutation = func.storage_permutation();
        let expected_dims = permutation.len() + usize::from(func.ring_buffer);
        if bounds.len() != expected_dims {
            return Err(LowerError::ir(
                node(),
                format!(
                    "has {} dimensions, but Func {func_name} has {} pure arguments ({}){}",
                    bounds.len(),
                    func.args.len(),
                    func.args.join(", "),
                    if func.ring_buffer { " and a ring buffer" } else { "" }
                ),
            ));
        }

        *self.realizations.entry(name.clone()).or_default() += 1;
        if memory_type == MemoryType::GpuTexture {
            self.textures.insert(name.clone());
        }
        self.memos.push(ExprMemo::default());
        let inner = (|| {
            let body = with_stack(|| self.try_mutate_stmt(body))?;
            let extents =
                bounds.iter().map(|b| self.try_mutate_expr(&b.extent)).collect::<Result<Vec<_>, _>>()?;
            let condition = self.try_mutate_expr(condition)?;
            Ok::<_, LowerError>((body, extents, condition))
        })();
        self.memos.pop();
        if let Some(n) = self.realizations.get_mut(name) {
            *n -= 1;
        }
        let (body, mut extents, condition) = inner?;

        // The extents of the allocation, in argument order, after the schedule's storage
        // bounds and alignments.
        let mut allocation_extents = extents.clone();
        let mut storage_order = Vec::with_capacity(bounds.len());
        let mut bound_asserts = Vec::new();
        for (dim, &j) in func.storage_dims().iter().zip(&permutation) {
            storage_order.push(j);
            if let Some(bound) = &dim.bound {
                let too_small = make::gt(extents[j].clone(), bound.clone());
                if can_prove(self.ctx, &too_small, &Scope::new()) {
                    return Err(LowerError::ir(
                        node(),
                        format!(
                            "the explicit storage bound ({bound}) for variable {} of function {func_name} is \
                             smaller than required ({})",
                            dim.var, extents[j]
                        ),
                    ));
                }
                let message = Expr::call(
                    Type::INT32,
                    "halide_error_storage_bound_too_small",
                    vec![
                        Expr::string(name.as_bytes()),
                        Expr::string(dim.var.as_bytes()),
                        bound.clone(),
                        extents[j].clone(),
                    ],
                    CallType::Extern,
                );
                bound_asserts.push(Stmt::from_kind_unchecked(StmtKind::AssertStmt {
                    condition: make::le(extents[j].clone(), bound.clone()),
                    message,
                }));
                extents[j] = bound.clone();
            }
            allocation_extents[j] = match &dim.alignment {
                Some(a) => {
                    let one = Expr::from_node_unchecked(a.ty(), ExprKind::IntImm(1));
                    let rounded =
                        make::div(make::sub(make::add(extents[j].clone(), a.clone()), one), a.clone());
                    make::mul(rounded, a.clone())
                }
                None => extents[j].clone(),
            };
        }
        if func.ring_buffer {
            // The ring buffer's dimension is the outermost in storage.
            storage_order.push(permutation.len());
        }

        let dims = bounds.len();
        let buffer = self.buffer_description(name, ty, dims);
        let mut stmt = Stmt::let_stmt(format!("{name}.buffer"), buffer, body);
        stmt = Stmt::from_kind_unchecked(StmtKind::Allocate {
            name: name.clone(),
            ty,
            memory_type,
            extents: allocation_extents.clone(),
            condition,
            new_expr: None,
            free_function: None,
            padding: 0,
            body: stmt,
        });
        if !bound_asserts.is_empty() {
            stmt = Stmt::block(vec![Stmt::block(bound_asserts), stmt]);
        }
        for pair in storage_order.windows(2).rev() {
            let (inner, outer) = (pair[0], pair[1]);
            let stride = make::mul(shape_var(name, "stride", inner), allocation_extents[inner].clone());
            stmt = Stmt::let_stmt(format!("{name}.stride.{outer}"), stride, stmt);
        }
        if let Some(&innermost) = storage_order.first() {
            stmt = Stmt::let_stmt(format!("{name}.stride.{innermost}"), Expr::i32(1), stmt);
        }
        // The mins as the realization gives them; the extents as rewritten above.
        for (i, b) in bounds.iter().enumerate().rev() {
            stmt = Stmt::let_stmt(format!("{name}.min.{i}"), b.min.clone(), stmt);
            stmt = Stmt::let_stmt(format!("{name}.extent.{i}"), extents[i].clone(), stmt);
        }
        Ok(stmt)
    }

    /// The element type of the prefetched buffer `name`.
    fn prefetch_type(&mut self, name: &Name, types: &[Type]) -> Result<Type, LowerError> {
        if let Some(t) = types.first() {
            return Ok(*t);
        }
        if let Some((_, f, k)) = self.env.buffer_func(name)
            && let Some(t) = f.types.get(k)
        {
            return Ok(*t);
        }
        let root = self.root;
        let image_types = self.image_types.get_or_insert_with(|| call_types(root));
        image_types.get(name).copied().ok_or_else(|| {
            LowerError::ir(
                format!("prefetch {name}"),
                "the element type of the prefetched buffer is unknown: it is not a Func of the env and \
                 is never loaded",
            )
        })
    }

    fn flatten_prefetch(
        &mut self,
        name: &Name,
        types: &[Type],
        bounds: &[MinExtent],
        condition: &Expr,
        body: &Stmt,
    ) -> Result<Stmt, LowerError> {
        let ty = self.prefetch_type(name, types)?;
        let condition = self.try_mutate_expr(condition)?;
        let mut mins = Vec::with_capacity(bounds.len());
        let mut extents = Vec::with_capacity(bounds.len());
        for b in bounds {
            mins.push(self.try_mutate_expr(&b.min)?);
            extents.push(self.try_mutate_expr(&b.extent)?);
        }
        let base_offset = self.flat_index(name, &mins);
        let base_offset = self.try_mutate_expr(&base_offset)?;
        let mut args = vec![Expr::var(Type::void_ptr(), name.clone()), base_offset];
        // Innermost storage dimension first.
        let order: Vec<usize> = match self.env.buffer_func(name) {
            Some((func_name, f, _)) => {
                let order = f.storage_permutation();
                if order.len() != bounds.len() {
                    return Err(LowerError::ir(
                        format!("prefetch {name}"),
                        format!("has {} dimensions, but Func {func_name} has {}", bounds.len(), order.len()),
                    ));
                }
                order
            }
            None => (0..bounds.len()).collect(),
        };
        for i in order {
            args.push(extents[i].clone());
            args.push(shape_var(name, "stride", i));
        }
        let call = Stmt::evaluate(Expr::call(ty, Intrinsic::Prefetch.name(), args, CallType::Intrinsic));
        let prefetch = if condition.as_int() == Some(1) {
            call
        } else {
            Stmt::from_kind_unchecked(StmtKind::IfThenElse { condition, then_case: call, else_case: None })
        };
        let body = with_stack(|| self.try_mutate_stmt(body))?;
        Ok(Stmt::block(vec![prefetch, body]))
    }
}

/// The type of the first call to each callee of `stmt`.
fn call_types(stmt: &Stmt) -> FxHashMap<Name, Type> {
    let mut types = FxHashMap::default();
    dag::for_each_node(stmt, |node| {
        if let Node::Expr(e) = node
            && let ExprKind::Call { name, .. } = e.kind()
        {
            types.entry(name.clone()).or_insert(e.ty());
        }
    });
    types
}

impl TryMutator for FlattenDimensions<'_> {
    type Error = LowerError;

    fn try_mutate_expr(&mut self, e: &Expr) -> Result<Expr, LowerError> {
        if let Some(r) = self.memos.last().and_then(|m| m.lookup(e)) {
            return Ok(r);
        }
        let r = match e.kind() {
            ExprKind::Call { name, args, call_type, value_index } if self.reads_buffer(name, *call_type) => {
                self.flatten_call(e, name, args, *call_type, *value_index)?
            }
            _ => self.try_super_expr(e)?,
        };
        if let Some(m) = self.memos.last_mut() {
            m.record(e, &r);
        }
        Ok(r)
    }

    fn try_mutate_stmt(&mut self, s: &Stmt) -> Result<Stmt, LowerError> {
        match s.kind() {
            StmtKind::Realize { name, types, memory_type, bounds, condition, body } => {
                self.flatten_realize(name, types, *memory_type, bounds, condition, body)
            }
            StmtKind::Provide { name, values, args, predicate } => {
                self.flatten_provide(name, values, args, predicate)
            }
            StmtKind::Prefetch { name, types, bounds, condition, body, .. } => {
                self.flatten_prefetch(name, types, bounds, condition, body)
            }
            StmtKind::For { for_type, .. } if for_type.is_gpu() && !self.in_gpu => {
                self.in_gpu = true;
                self.memos.push(ExprMemo::default());
                let r = self.try_super_stmt(s);
                self.memos.pop();
                self.in_gpu = false;
                r
            }
            _ => self.try_super_stmt(s),
        }
    }
}

// ---------------------------------------------------------------------------------------
// Step 3: hoisted storage.

/// One allocation of a hoisted buffer, its extents and condition bounded over the loops
/// between it and the marker.
struct HoistedAllocation {
    ty: Type,
    memory_type: MemoryType,
    extents: Vec<Expr>,
    condition: Expr,
}

/// What is known inside one `hoisted_storage` marker.
struct HoistedStorageData {
    allocations: Vec<HoistedAllocation>,
    /// Loops between the marker and the current node, outermost first, with their bounds
    /// in terms of what is defined outside the marker.
    loop_vars: Vec<(Name, Interval)>,
    /// Lets between the marker and the current node: name, value, value with the lets
    /// before it substituted (computed when first needed).
    lets: Vec<(Name, Expr, Option<Expr>)>,
    /// Positions in `lets` of each name's bindings.
    let_index: FxHashMap<Name, Vec<usize>>,
}

struct HoistStorage<'c> {
    ctx: &'c Ctx,
    storages: Vec<HoistedStorageData>,
    /// Position in `storages` of each hoisted buffer's marker.
    storage_of: FxHashMap<Name, usize>,
}

impl<'c> HoistStorage<'c> {
    fn new(ctx: &'c Ctx) -> Self {
        HoistStorage { ctx, storages: Vec::new(), storage_of: FxHashMap::default() }
    }

    /// `e` with the lets of storage `k` substituted, recursively.
    fn expand(&mut self, e: &Expr, k: usize) -> Expr {
        let mut memo: FxHashMap<*const loopir::ExprNode, Expr> = FxHashMap::default();
        self.expand_memo(e, k, &mut memo)
    }

    fn expand_memo(
        &mut self,
        e: &Expr,
        k: usize,
        memo: &mut FxHashMap<*const loopir::ExprNode, Expr>,
    ) -> Expr {
        if let Some(r) = memo.get(&e.as_ptr()) {
            return r.clone();
        }
        let r = with_stack(|| match e.kind() {
            ExprKind::Variable(n) => {
                let Some(&pos) = self.storages[k].let_index.get(n).and_then(|v| v.last()) else {
                    return e.clone();
                };
                if let Some(done) = &self.storages[k].lets[pos].2 {
                    return done.clone();
                }
                let value = self.storages[k].lets[pos].1.clone();
                let expanded = self.expand_memo(&value, k, &mut FxHashMap::default());
                self.storages[k].lets[pos].2 = Some(expanded.clone());
                expanded
            }
            _ => e.map_children(|c| self.expand_memo(c, k, memo)),
        });
        if e.is_shared() {
            memo.insert(e.as_ptr(), r.clone());
        }
        r
    }

    /// An allocation's extent or condition in terms of what is defined outside the marker
    /// of storage `target`, at its largest over the loops in between; `None` if unbounded.
    fn expand_and_bound(&mut self, e: &Expr, target: usize) -> Option<Expr> {
        let mut e = e.clone();
        for k in (target..self.storages.len()).rev() {
            e = self.expand(&e, k);
        }
        let mut e = simplify_expr(self.ctx, &cse(self.ctx, &e));
        let loop_vars = self.storages[target].loop_vars.clone();
        for (var, interval) in loop_vars.iter().rev() {
            let mut scope = Scope::new();
            let _ = scope.push(var.clone(), interval.clone());
            let bounds = bounds_of_expr_in_scope(self.ctx, &e, &scope, &FuncValueBounds::default(), false);
            match bounds.max {
                Bound::Finite(max) => e = max,
                _ => return None,
            }
        }
        Some(e)
    }

    fn hoist_allocation(&mut self, s: &Stmt, target: usize) -> Result<Stmt, LowerError> {
        let StmtKind::Allocate { name, ty, memory_type, extents, condition, body, .. } = s.kind() else {
            return self.try_super_stmt(s);
        };
        let mut bounded = Vec::with_capacity(extents.len());
        for e in extents {
            let b = self.expand_and_bound(e, target).ok_or_else(|| {
                LowerError::ir(
                    format!("allocate {name}"),
                    format!(
                        "couldn't infer the upper bound for the storage size of {name}, consider using \
                         bound_storage"
                    ),
                )
            })?;
            bounded.push(b);
        }
        let condition = self.expand_and_bound(condition, target).unwrap_or_else(Expr::const_true);
        self.storages[target].allocations.push(HoistedAllocation {
            ty: *ty,
            memory_type: *memory_type,
            extents: bounded,
            condition,
        });
        with_stack(|| self.try_mutate_stmt(body))
    }

    fn hoist(&mut self, name: &Option<Name>, body: &Stmt) -> Result<Stmt, LowerError> {
        let Some(name) = name else {
            return Err(LowerError::ir("hoisted_storage", "names no Func whose storage it holds"));
        };
        self.storages.push(HoistedStorageData {
            allocations: Vec::new(),
            loop_vars: Vec::new(),
            lets: Vec::new(),
            let_index: FxHashMap::default(),
        });
        let outer = self.storage_of.insert(name.clone(), self.storages.len() - 1);
        let body = with_stack(|| self.try_mutate_stmt(body));
        match outer {
            Some(k) => self.storage_of.insert(name.clone(), k),
            None => self.storage_of.remove(name),
        };
        let data = self.storages.pop();
        let body = body?;
        let node = || format!("hoisted_storage ({name})");
        let Some(data) = data else {
            return Err(LowerError::ir(node(), "lost its storage record"));
        };
        let mut allocations = data.allocations.into_iter();
        let Some(first) = allocations.next() else {
            return Err(LowerError::ir(
                node(),
                format!("couldn't find a matching allocation of {name} inside it"),
            ));
        };
        let HoistedAllocation { ty, memory_type, mut extents, mut condition } = first;
        for other in allocations {
            if other.extents.len() != extents.len() {
                return Err(LowerError::ir(
                    node(),
                    format!(
                        "allocations of {name} inside it differ in dimensions: {} and {}",
                        extents.len(),
                        other.extents.len()
                    ),
                ));
            }
            for (e, o) in extents.iter_mut().zip(other.extents) {
                *e = make::max(e.clone(), o);
            }
            condition = make::or(condition, other.condition);
        }
        Ok(Stmt::from_kind_unchecked(StmtKind::Allocate {
            name: name.clone(),
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
}

impl TryMutator for HoistStorage<'_> {
    type Error = LowerError;

    // Only statements change.
    fn try_mutate_expr(&mut self, e: &Expr) -> Result<Expr, LowerError> {
        Ok(e.clone())
    }

    fn try_mutate_stmt(&mut self, s: &Stmt) -> Result<Stmt, LowerError> {
        match s.kind() {
            StmtKind::HoistedStorage { name, body } => self.hoist(name, body),
            StmtKind::Allocate { name, .. } if self.storage_of.contains_key(name) => {
                let target = self.storage_of[name];
                self.hoist_allocation(s, target)
            }
            _ => self.try_super_stmt(s),
        }
    }

    fn try_enter_scope(&mut self, binder: &Binder<'_>) -> Result<(), LowerError> {
        match binder {
            Binder::LetStmt { name, value } => {
                if let Some(data) = self.storages.last_mut() {
                    data.let_index.entry((*name).clone()).or_default().push(data.lets.len());
                    data.lets.push(((*name).clone(), (*value).clone(), None));
                }
            }
            Binder::For { name, min, max, .. } => {
                let (mut min, mut max) = ((*min).clone(), (*max).clone());
                for k in (0..self.storages.len()).rev() {
                    min = simplify_expr(self.ctx, &self.expand(&min, k));
                    max = self.expand(&max, k);
                    self.storages[k]
                        .loop_vars
                        .push(((*name).clone(), Interval::new(min.clone(), max.clone())));
                }
            }
            _ => {}
        }
        Ok(())
    }

    fn try_leave_scope(&mut self, binder: &Binder<'_>) {
        match binder {
            Binder::LetStmt { name, .. } => {
                if let Some(data) = self.storages.last_mut() {
                    data.lets.pop();
                    if let Some(v) = data.let_index.get_mut(*name) {
                        v.pop();
                    }
                }
            }
            Binder::For { .. } => {
                for data in &mut self.storages {
                    data.loop_vars.pop();
                }
            }
            _ => {}
        }
    }
}

// ---------------------------------------------------------------------------------------
// Step 4: whole bytes.

/// Stores values of types narrower than a byte (booleans) in whole bytes.
#[derive(Default)]
struct PromoteToMemoryType {
    memo: ExprMemo,
}

/// `ty` with its bits rounded up to whole bytes.
fn memory_type_of(ty: Type) -> Type {
    let bits = ty.bits().div_ceil(8).saturating_mul(8);
    Type::try_new(ty.code(), bits, ty.lanes()).unwrap_or(ty)
}

impl Mutator for PromoteToMemoryType {
    fn mutate_expr(&mut self, e: &Expr) -> Expr {
        if let Some(r) = self.memo.lookup(e) {
            return r;
        }
        let r = match e.kind() {
            ExprKind::Load { name, index, predicate, .. } if memory_type_of(e.ty()) != e.ty() => {
                let load = Expr::from_node_unchecked(
                    memory_type_of(e.ty()),
                    ExprKind::Load {
                        name: name.clone(),
                        index: self.mutate_expr(index),
                        predicate: self.mutate_expr(predicate),
                        alignment: ModulusRemainder::UNKNOWN,
                    },
                );
                Expr::from_node_unchecked(e.ty(), ExprKind::Cast(load))
            }
            _ => self.super_expr(e),
        };
        self.memo.record(e, &r);
        r
    }

    fn mutate_stmt(&mut self, s: &Stmt) -> Stmt {
        match s.kind() {
            StmtKind::Store { name, value, index, predicate, .. }
                if memory_type_of(value.ty()) != value.ty() =>
            {
                let value = self.mutate_expr(value);
                let wide = Expr::from_node_unchecked(memory_type_of(value.ty()), ExprKind::Cast(value));
                Stmt::from_kind_unchecked(StmtKind::Store {
                    name: name.clone(),
                    value: wide,
                    index: self.mutate_expr(index),
                    predicate: self.mutate_expr(predicate),
                    alignment: ModulusRemainder::UNKNOWN,
                })
            }
            StmtKind::Allocate {
                name,
                ty,
                memory_type,
                extents,
                condition,
                new_expr,
                free_function,
                padding,
                body,
            } if memory_type_of(*ty) != *ty => Stmt::from_kind_unchecked(StmtKind::Allocate {
                name: name.clone(),
                ty: memory_type_of(*ty),
                memory_type: *memory_type,
                extents: extents.iter().map(|e| self.mutate_expr(e)).collect(),
                condition: self.mutate_expr(condition),
                body: with_stack(|| self.mutate_stmt(body)),
                new_expr: new_expr.as_ref().map(|e| self.mutate_expr(e)),
                free_function: free_function.clone(),
                padding: *padding,
            }),
            _ => self.super_stmt(s),
        }
    }
}
