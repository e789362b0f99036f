//! Compiling statements into straight-line code with jumps.

use loopir::stack::with_stack;
use loopir::{DeviceApi, Expr, ExprKind, ForType, Intrinsic, Name, Stmt, StmtKind, Type};

use super::{AllocBinding, BoundKind, Compiler, FuncBinding, NONE, has_barrier, kernel_buffers};
use crate::code::{Instr, Reg};
use crate::elem::Elem;
use crate::error::{InterpError, node_line};
use crate::runtime::RtFn;

impl Compiler<'_> {
    /// Compiles a statement. Temporaries of its expressions are released at its end.
    pub(super) fn stmt(&mut self, s: &Stmt) -> Result<(), InterpError> {
        with_stack(|| self.stmt_node(s))
    }

    fn stmt_node(&mut self, s: &Stmt) -> Result<(), InterpError> {
        let mark = self.top;
        let r = self.stmt_kind(s);
        self.top = mark;
        r
    }

    /// Attributes an error to `s` (its first line).
    fn at(s: &Stmt, e: InterpError) -> InterpError {
        e.at(|| node_line(&crate::code::Site::Stmt(s.clone()).describe()))
    }

    fn stmt_kind(&mut self, s: &Stmt) -> Result<(), InterpError> {
        match s.kind() {
            StmtKind::LetStmt { .. } => {
                // A chain of lets is compiled in a loop: chains can be very long.
                let mut cur = s.clone();
                let mut names = Vec::new();
                let deferred = self.thread_lets.len();
                while let StmtKind::LetStmt { name, value, body } = cur.kind() {
                    if self.in_device && self.reads_unbound_thread_id(value) {
                        // Every thread of a block runs the block's code, so a let there
                        // may read the thread ids: each thread evaluates it inside the
                        // thread loops.
                        self.thread_lets.push((name.clone(), value.clone(), false));
                    } else {
                        let v = self.expr(value).map_err(|e| Self::at(&cur, e))?;
                        self.bind_let(name, v, value);
                        names.push(name.clone());
                    }
                    let next = body.clone();
                    cur = next;
                }
                let r = self.stmt(&cur);
                for n in names.iter().rev() {
                    self.unbind_value(n);
                }
                self.thread_lets.truncate(deferred);
                r
            }
            StmtKind::Block(stmts) => {
                for st in stmts {
                    self.stmt(st)?;
                }
                Ok(())
            }
            StmtKind::AssertStmt { condition, message } => {
                let site = self.site_stmt(s);
                let c = self.expr_as(condition, Type::BOOL).map_err(|e| Self::at(s, e))?;
                let jump = self.emit(Instr::JumpIfTrue { cond: c, to: 0 });
                let code = if message.ty().is_int() || message.ty().is_uint() {
                    self.expr(message).map_err(|e| Self::at(s, e))?.reg
                } else {
                    // A message that is not an error code: evaluate it, fail with -1.
                    self.expr(message).map_err(|e| Self::at(s, e))?;
                    let r = self.alloc(1);
                    self.emit(Instr::Const { dst: r, value: -1i64 as u64 });
                    r
                };
                self.emit(Instr::Fail { code, site });
                let ok = self.here();
                self.patch(jump, ok);
                Ok(())
            }
            StmtKind::ProducerConsumer { name, is_producer, body } => {
                self.groups.enter(name, *is_producer);
                let r = self.stmt(body);
                self.groups.leave();
                r
            }
            StmtKind::Atomic { body, .. } => {
                self.atomic_depth += 1;
                let r = self.stmt(body);
                self.atomic_depth -= 1;
                r
            }
            StmtKind::HoistedStorage { body, .. } | StmtKind::Prefetch { body, .. } => self.stmt(body),
            StmtKind::For { name, min, max, for_type, device_api, body, .. } => {
                self.for_loop(s, name, min, max, *for_type, *device_api, body)
            }
            StmtKind::Store { name, value, index, predicate, .. } => {
                let site = self.site_stmt(s);
                let ty = value.ty();
                let elem = self.elem(ty).map_err(|e| Self::at(s, e))?;
                if index.ty() != Type::int(32, ty.lanes()) {
                    return Err(Self::at(
                        s,
                        self.bad(format!("a store index of type {} for {ty}", index.ty())),
                    ));
                }
                let ptr = self.variable(name, Type::void_ptr()).map_err(|e| Self::at(s, e))?.reg;
                let v = self.expr(value).map_err(|e| Self::at(s, e))?;
                // A value whose type is a guess is stored as the buffer's stated type.
                let (rv, elem) = match self.buffer_types.get(name) {
                    Some(&b) if v.soft && b.bits() == elem.bits() => {
                        (self.coerce(v, b.ty().with_lanes(ty.lanes())).map_err(|e| Self::at(s, e))?, b)
                    }
                    _ => (v.reg, self.elem(v.ty).map_err(|e| Self::at(s, e))?),
                };
                self.note_buffer_use(name, elem, true);
                self.groups.stored(name, elem);
                let ri = self.expr_as(index, Type::int(32, ty.lanes())).map_err(|e| Self::at(s, e))?;
                let pred = if predicate.is_const_true() {
                    NONE
                } else {
                    self.expr_as(predicate, Type::bool(ty.lanes())).map_err(|e| Self::at(s, e))?
                };
                // The lanes of a warp run in lockstep: every lane computes what it stores
                // (reading memory another lane is about to overwrite) before any lane
                // stores, and every lane stores before any lane reads on. A lane yields on
                // both sides of a store to memory it does not have to itself, except
                // inside an atomic node, whose read-modify-write no other lane may split.
                let shared_store = self.lane_private.as_ref().is_some_and(|p| !p.contains(name))
                    && !self.registers.contains(name);
                if shared_store && self.atomic_depth == 0 {
                    self.emit(Instr::Yield);
                }
                if ty.lanes() == 1 && pred == NONE {
                    self.emit(Instr::StoreScalar { ptr, index: ri, value: rv, elem, site });
                } else {
                    self.emit(Instr::Store {
                        ptr,
                        index: ri,
                        value: rv,
                        pred,
                        elem,
                        lanes: ty.lanes(),
                        site,
                    });
                }
                if shared_store {
                    self.emit(Instr::Yield);
                }
                Ok(())
            }
            StmtKind::Provide { name, values, args, predicate } => {
                self.provide(s, name, values, args, predicate)
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
                ..
            } => {
                let site = self.site_stmt(s);
                let elem = self.elem(*ty).map_err(|e| Self::at(s, e))?;
                let mut ext = Vec::new();
                for e in extents {
                    if !e.ty().is_scalar() || !(e.ty().is_int() || e.ty().is_uint()) {
                        return Err(Self::at(
                            s,
                            self.bad(format!("an allocation extent of type {}", e.ty())),
                        ));
                    }
                    ext.push(self.expr(e).map_err(|er| Self::at(s, er))?.reg);
                }
                let cond = self.expr_as(condition, Type::BOOL).map_err(|e| Self::at(s, e))?;
                let (owner, custom) = match new_expr {
                    Some(ne) => {
                        let p = self.alloc(1);
                        self.expr_into(ne, p).map_err(|e| Self::at(s, e))?;
                        let token = self.alloc(1);
                        self.emit(Instr::AllocateToken { dst: token, site });
                        (token, p)
                    }
                    None => {
                        let p = self.alloc(1);
                        self.emit(Instr::Allocate {
                            dst: p,
                            elem,
                            extents: ext.into(),
                            cond,
                            padding: (*padding).max(0) as u32,
                            site,
                        });
                        (p, p)
                    }
                };
                let free_fn = match free_function {
                    None => None,
                    Some(f) => match RtFn::lookup(f) {
                        Ok(Some(rf)) => Some(rf),
                        _ if self.runtime.knows_extern(f) => {
                            self.externs.push(f.clone());
                            Some(RtFn::User((self.externs.len() - 1) as u32))
                        }
                        _ => {
                            return Err(Self::at(
                                s,
                                InterpError::new(
                                    crate::error::ErrorKind::Unsupported,
                                    format!("the free function `{f}` of allocation {name} is not provided"),
                                ),
                            ));
                        }
                    },
                };
                self.groups.allocate(name, elem);
                self.bind_value(name, custom, Type::void_ptr());
                self.allocs.entry(name.clone()).or_default().push(AllocBinding { owner, custom, free_fn });
                if let Some(p) = &mut self.lane_private {
                    p.push(name.clone());
                }
                // Registers are each thread's own, even when the allocation is outside
                // the lane loop (Halide stripes it over the lanes).
                let register = *memory_type == loopir::MemoryType::Register;
                if register {
                    self.registers.push(name.clone());
                }
                let r = self.stmt(body);
                if let Some(p) = &mut self.lane_private {
                    p.retain(|n| n != name);
                }
                if register {
                    self.registers.pop();
                    if self.lane_private.is_some() {
                        self.lane_registers_ended.push(name.clone());
                    }
                }
                self.emit(Instr::Free { ptr: owner, custom, free_fn, scope_end: true, site });
                if let Some(v) = self.allocs.get_mut(name) {
                    v.pop();
                }
                self.unbind_value(name);
                r
            }
            StmtKind::Free { name } => {
                let site = self.site_stmt(s);
                let Some(a) = self.allocs.get(name).and_then(|v| v.last()).cloned() else {
                    if let Some(k) = self.lane_registers_ended.iter().rposition(|n| n == name) {
                        self.lane_registers_ended.remove(k);
                        return Ok(());
                    }
                    return Err(Self::at(
                        s,
                        self.bad(format!("free of {name}, which no enclosing allocate defines")),
                    ));
                };
                self.emit(Instr::Free {
                    ptr: a.owner,
                    custom: a.custom,
                    free_fn: a.free_fn,
                    scope_end: false,
                    site,
                });
                Ok(())
            }
            StmtKind::Realize { name, types, bounds, condition, body, .. } => {
                let site = self.site_stmt(s);
                // A Func nothing in the text provides (an extern stage's) has no types in
                // its Realize unless an env gave them: its reads say them.
                let read_types;
                let types = if types.is_empty() {
                    read_types = types_read(name, body);
                    &read_types
                } else {
                    types
                };
                let elems: Vec<Elem> = types
                    .iter()
                    .map(|t| self.elem(*t))
                    .collect::<Result<_, _>>()
                    .map_err(|e| Self::at(s, e))?;
                let growable = bounds
                    .iter()
                    .any(|b| self.leaves_bounds_open(&b.min) || self.leaves_bounds_open(&b.extent));
                let mut regs = Vec::new();
                for b in bounds {
                    if growable {
                        regs.push((NONE, NONE));
                    } else {
                        let m = self.expr(&b.min).map_err(|e| Self::at(s, e))?.reg;
                        let e = self.expr(&b.extent).map_err(|e| Self::at(s, e))?.reg;
                        regs.push((m, e));
                    }
                }
                let cond = self.expr_as(condition, Type::BOOL).map_err(|e| Self::at(s, e))?;
                let storage = self.alloc(1);
                self.emit(Instr::RealizeStart {
                    dst: storage,
                    bounds: regs.into(),
                    types: elems.into(),
                    cond,
                    growable,
                    site,
                });
                if growable && !self.interface.growable_realizations.contains(name) {
                    self.interface.growable_realizations.push(name.clone());
                }
                self.funcs.entry(name.clone()).or_default().push(FuncBinding {
                    storage,
                    types: types.clone(),
                    growable,
                });
                // The names of an open realization's bounds read its box as it is.
                let mut opened = Vec::new();
                if growable {
                    for (d, b) in bounds.iter().enumerate() {
                        for (e, kind) in [(&b.min, BoundKind::Min), (&b.extent, BoundKind::Extent)] {
                            if let ExprKind::Variable(v) = e.kind() {
                                let mut names = vec![(v.clone(), kind)];
                                if kind == BoundKind::Min
                                    && let Some(stem) = v.strip_suffix(".min_realized")
                                {
                                    names.push((Name::from(format!("{stem}.max_realized")), BoundKind::Max));
                                }
                                for (n, k) in names {
                                    self.open_bounds
                                        .entry(n.clone())
                                        .or_default()
                                        .push((storage, d as u32, k));
                                    opened.push(n);
                                }
                            }
                        }
                    }
                }
                let r = self.stmt(body);
                for n in opened {
                    if let Some(v) = self.open_bounds.get_mut(&n) {
                        v.pop();
                        if v.is_empty() {
                            self.open_bounds.remove(&n);
                        }
                    }
                }
                self.emit(Instr::RealizeEnd { storage });
                if let Some(v) = self.funcs.get_mut(name) {
                    v.pop();
                    if v.is_empty() {
                        self.funcs.remove(name);
                    }
                }
                r
            }
            StmtKind::Fork { first, rest } => {
                let fork = self.emit(Instr::Fork { rest: 0, resume: 0 });
                self.stmt(first)?;
                self.emit(Instr::TaskEnd);
                let rest_pc = self.here();
                if let Instr::Fork { rest: r, .. } = &mut self.code[fork as usize] {
                    *r = rest_pc;
                }
                self.stmt(rest)?;
                self.emit(Instr::TaskEnd);
                let end = self.here();
                self.patch(fork, end);
                Ok(())
            }
            StmtKind::Acquire { semaphore, count, body } => {
                let site = self.site_stmt(s);
                let sem = self.expr(semaphore).map_err(|e| Self::at(s, e))?.reg;
                let n = self.expr(count).map_err(|e| Self::at(s, e))?.reg;
                self.emit(Instr::Acquire { sem, count: n, site });
                self.stmt(body)
            }
            StmtKind::IfThenElse { condition, then_case, else_case } => {
                if condition.ty().lanes() != 1 {
                    return Err(Self::at(s, self.bad("an if with a vector condition")));
                }
                let c = self.expr_as(condition, Type::BOOL).map_err(|e| Self::at(s, e))?;
                let jump = self.emit(Instr::JumpIfFalse { cond: c, to: 0 });
                self.stmt(then_case)?;
                match else_case {
                    Some(e) => {
                        let skip = self.emit(Instr::Jump { to: 0 });
                        let else_pc = self.here();
                        self.patch(jump, else_pc);
                        self.stmt(e)?;
                        let end = self.here();
                        self.patch(skip, end);
                    }
                    None => {
                        let end = self.here();
                        self.patch(jump, end);
                    }
                }
                Ok(())
            }
            StmtKind::Evaluate(e) => {
                self.expr(e).map_err(|er| Self::at(s, er))?;
                Ok(())
            }
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn for_loop(
        &mut self,
        s: &Stmt,
        name: &Name,
        min: &Expr,
        max: &Expr,
        for_type: ForType,
        device_api: DeviceApi,
        body: &Stmt,
    ) -> Result<(), InterpError> {
        if !min.ty().is_int32() || !max.ty().is_int32() {
            return Err(Self::at(s, self.bad("loop bounds that are not int32")));
        }
        let rmin = self.expr_as(min, Type::INT32).map_err(|e| Self::at(s, e))?;
        let rmax = self.expr_as(max, Type::INT32).map_err(|e| Self::at(s, e))?;
        let var = self.alloc(1);
        // Entering device code: buffers are read through their device copies.
        let enters_device = !self.in_device && (device_api.is_gpu() || for_type.is_gpu());
        let mut views = Vec::new();
        if enters_device {
            self.in_device = true;
            let (accessed, inner) = kernel_buffers(body);
            for b in accessed {
                let host = match self.value(&b) {
                    Some(v) => v.reg,
                    // The kernel's own memory has no host side.
                    None if inner.contains(&b) => continue,
                    // A buffer argument the program first names inside the kernel: its
                    // host pointer, so that the kernel still goes through the device copy.
                    None => self.variable(&b, Type::void_ptr()).map_err(|e| Self::at(s, e))?.reg,
                };
                let descriptor_name = Name::from(format!("{b}.buffer"));
                let descriptor = match self.value(&descriptor_name) {
                    Some(v) => v.reg,
                    None if self.allocs.contains_key(&b) => continue,
                    None => self.global(&descriptor_name, Type::buffer_ptr())?,
                };
                let site = self.site_stmt(s);
                let dst = self.alloc(1);
                self.emit(Instr::DeviceView { dst, buffer: descriptor, host, site });
                let argument = self
                    .host_aliases
                    .get(&b)
                    .cloned()
                    .or_else(|| self.global_regs.contains_key(&descriptor_name).then(|| b.clone()));
                self.bind_value(&b, dst, Type::void_ptr());
                if let Some(a) = argument {
                    self.host_aliases.insert(b.clone(), a);
                }
                views.push(b);
            }
        }
        self.bind_value(name, var, Type::INT32);
        let r = self.loop_body(var, rmin, rmax, for_type, body);
        self.unbind_value(name);
        for b in views.iter().rev() {
            self.unbind_value(b);
        }
        if enters_device {
            self.in_device = false;
            // A register's stray `free` belongs to the kernel it was allocated in.
            self.lane_registers_ended.clear();
        }
        r
    }

    fn loop_body(
        &mut self,
        var: Reg,
        min: Reg,
        max: Reg,
        for_type: ForType,
        body: &Stmt,
    ) -> Result<(), InterpError> {
        match for_type {
            // An extern stage's loop stands for one call over the whole region.
            ForType::Extern => {
                self.emit(Instr::Copy { dst: var, src: min, lanes: 1 });
                self.stmt(body)
            }
            // The lanes of a warp run in lockstep: a lane reads what the other lanes
            // stored before (thread loop fusion puts no barrier between a warp's
            // stages). Each lane is a task that lets the others catch up after each
            // store to memory it does not have to itself.
            ForType::GpuLane => {
                let spawn = self.emit(Instr::SpawnThreads { var, min, max, end: 0 });
                let outer = self.lane_private.replace(Vec::new());
                let r = self.thread_body(body);
                self.lane_private = outer;
                r?;
                self.emit(Instr::TaskEnd);
                let end = self.here();
                self.patch(spawn, end);
                Ok(())
            }
            ForType::GpuThread if has_barrier(body) => {
                let spawn = self.emit(Instr::SpawnThreads { var, min, max, end: 0 });
                self.thread_body(body)?;
                self.emit(Instr::TaskEnd);
                let end = self.here();
                self.patch(spawn, end);
                Ok(())
            }
            _ => {
                let start = self.emit(Instr::LoopStart { var, min, max, end: 0 });
                let body_pc = self.here();
                if for_type == ForType::GpuThread {
                    self.thread_body(body)?;
                } else {
                    self.stmt(body)?;
                }
                self.emit(Instr::LoopNext { var, max, body: body_pc });
                let end = self.here();
                self.patch(start, end);
                Ok(())
            }
        }
    }

    /// Whether `e` reads a GPU thread id (`.thread_id_x`, as Halide names the variables
    /// of fused thread loops) that no enclosing thread loop binds yet.
    fn reads_unbound_thread_id(&self, e: &Expr) -> bool {
        loopir::dag::any_node(
            e,
            |n| matches!(n.kind(), ExprKind::Variable(v) if v.starts_with(".thread_id_") && self.value(v).is_none()),
        )
    }

    /// The body of a GPU thread or lane loop, after the block's lets that read thread
    /// ids which are all bound now.
    fn thread_body(&mut self, body: &Stmt) -> Result<(), InterpError> {
        let mut bound = Vec::new();
        for k in 0..self.thread_lets.len() {
            let (name, value, done) = self.thread_lets[k].clone();
            if done || self.reads_unbound_thread_id(&value) {
                continue;
            }
            let v = self.expr(&value)?;
            self.bind_let(&name, v, &value);
            self.thread_lets[k].2 = true;
            bound.push(k);
        }
        let r = self.stmt(body);
        for &k in bound.iter().rev() {
            let name = self.thread_lets[k].0.clone();
            self.unbind_value(&name);
            self.thread_lets[k].2 = false;
        }
        r
    }

    fn provide(
        &mut self,
        s: &Stmt,
        name: &Name,
        values: &[Expr],
        args: &[Expr],
        predicate: &Expr,
    ) -> Result<(), InterpError> {
        let site = self.site_stmt(s);
        let is_undef = |e: &Expr| {
            let mut e = e;
            while let ExprKind::Cast(v) = e.kind() {
                e = v;
            }
            e.is_intrinsic(Intrinsic::Undef)
        };
        let coords: Vec<Reg> =
            args.iter().map(|a| self.index_arg(a)).collect::<Result<_, _>>().map_err(|e| Self::at(s, e))?;
        let realized = self.func(name).map(|f| (f.storage, f.types.clone()));
        let mut stores = Vec::new();
        for (k, v) in values.iter().enumerate() {
            if is_undef(v) {
                continue;
            }
            if v.ty().lanes() != 1 {
                return Err(Self::at(s, self.bad("a vector value provided to a Func")));
            }
            let val = self.expr(v).map_err(|e| Self::at(s, e))?;
            // A realized Func stores its declared type; a guessed value yields to it.
            let (r, ty) = match realized.as_ref().and_then(|(_, types)| types.get(k)) {
                Some(&t) => (self.coerce(val, t).map_err(|e| Self::at(s, e))?, t),
                None => (val.reg, val.ty),
            };
            let elem = self.elem(ty).map_err(|e| Self::at(s, e))?;
            stores.push((k as u32, r, elem));
        }
        let pred = if predicate.is_const_true() {
            NONE
        } else {
            self.expr_as(predicate, Type::BOOL).map_err(|e| Self::at(s, e))?
        };
        for (k, value, elem) in stores {
            let (storage, value_index) = match &realized {
                Some((storage, _)) => (*storage, k),
                None => {
                    let buffer = if values.len() > 1 { format!("{name}.{k}") } else { name.to_string() };
                    let storage = self.buffer_storage(&buffer);
                    self.note_buffer_use(&buffer, elem, true);
                    if let Some(p) = self.interface.buffers.iter().position(|b| *b.name == buffer) {
                        self.note_dimensions(p, args.len());
                    }
                    (storage, 0)
                }
            };
            self.emit(Instr::FuncStore {
                storage,
                value_index,
                value,
                args: coords.clone().into(),
                pred,
                elem,
                site,
            });
        }
        Ok(())
    }
}

/// The value types of Func `name` as the calls in `body` read them (value index k gives
/// entry k), up to the highest index read; empty when a value below it is never read.
fn types_read(name: &Name, body: &Stmt) -> Vec<Type> {
    let mut found: Vec<Option<Type>> = Vec::new();
    loopir::dag::for_each_node(body, |node| {
        if let loopir::dag::Node::Expr(e) = node
            && let ExprKind::Call { name: called, call_type: loopir::CallType::Halide, value_index, .. } =
                e.kind()
            && called == name
        {
            let k = *value_index as usize;
            if found.len() <= k {
                found.resize(k + 1, None);
            }
            found[k].get_or_insert(e.ty());
        }
    });
    found.into_iter().collect::<Option<Vec<Type>>>().unwrap_or_default()
}
