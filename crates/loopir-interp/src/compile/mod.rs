//! Compiling a statement into a [`Program`]: every name resolved to a register, every
//! statement to jumps.
//!
//! Names are resolved by scope, as the reference's code generator resolves them: a
//! `let`, a loop, an `allocate` or a `realize` binds its name for its body. A name that
//! nothing binds is free, and is read from outside by the reference's conventions (see
//! [`BufferSymbol::split`]): `b.buffer`, `b.min.0`, ... are symbols of buffer argument
//! `b`, a free handle `b` is its host pointer, a call `b(x, y)` of a Func nothing
//! realizes reads it (before storage flattening), and any other free name is a scalar
//! parameter.

mod call;
mod expr;
mod group;
mod stmt;

use loopir::{Expr, ExprKind, Name, Stmt, StmtKind, Type, Visitor};
use rustc_hash::{FxHashMap, FxHashSet};

use crate::code::{Instr, NO_REG, Pc, Reg, Site};
use crate::elem::Elem;
use crate::error::{ErrorKind, InterpError};
use crate::program::{BufferParam, BufferSymbol, Global, GlobalKind, Interface, Program, ScalarParam};
use crate::runtime::{HostRuntime, RtFn, Runtime};

/// Registers of globals are numbered with this bit set until the end of compilation,
/// when the globals are placed before the locals.
const GLOBAL_BIT: Reg = 1 << 31;

/// Registers of constants are numbered with this bit set until the end of compilation,
/// when the constants are placed after the globals. A constant's register is filled
/// once, when a run starts, so using a constant costs no instruction.
const CONST_BIT: Reg = 1 << 30;

/// Compiles `stmt` for the interpreter, with the runtime functions of [`HostRuntime`].
pub fn compile(stmt: &Stmt) -> Result<Program, InterpError> {
    compile_with(stmt, &HostRuntime::new())
}

/// Compiles `stmt`, resolving the extern functions `runtime` says it implements.
pub fn compile_with(stmt: &Stmt, runtime: &dyn Runtime) -> Result<Program, InterpError> {
    let mut c = Compiler::new(runtime);
    c.prepare(stmt);
    c.stmt(stmt)?;
    c.emit(Instr::Halt);
    Ok(c.finish())
}

#[derive(Clone, Debug)]
struct ValueBinding {
    reg: Reg,
    ty: Type,
    /// Whether the type is only the parser's guess (see [`expr::Val`]).
    soft: bool,
}

#[derive(Clone, Debug)]
struct FuncBinding {
    storage: Reg,
    types: Vec<Type>,
    growable: bool,
}

/// Which bound of an open realization a name stands for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum BoundKind {
    /// `f.x.min_realized`.
    Min,
    /// `f.x.extent_realized`.
    Extent,
    /// `f.x.max_realized`.
    Max,
}

#[derive(Clone, Debug)]
struct AllocBinding {
    /// The memory, or the token of a custom allocation.
    owner: Reg,
    /// The pointer a custom free function receives.
    custom: Reg,
    free_fn: Option<RtFn>,
}

struct Compiler<'r> {
    runtime: &'r dyn Runtime,
    code: Vec<Instr>,
    sites: Vec<Site>,
    top: Reg,
    max_regs: Reg,
    values: FxHashMap<Name, Vec<ValueBinding>>,
    funcs: FxHashMap<Name, Vec<FuncBinding>>,
    allocs: FxHashMap<Name, Vec<AllocBinding>>,
    globals: Vec<Global>,
    global_regs: FxHashMap<Name, (Reg, Type)>,
    global_lanes: u32,
    interface: Interface,
    strings: Vec<Vec<u8>>,
    string_index: FxHashMap<Vec<u8>, usize>,
    stack_slots: u32,
    destructors: Vec<RtFn>,
    externs: Vec<Name>,
    /// Funcs provided with more than one value (their buffers are `f.0`, `f.1`, ...).
    tuple_funcs: FxHashMap<Name, usize>,
    device_aware: bool,
    in_device: bool,
    /// Element types of buffers, as the program's own checks state them (`b.type ==
    /// 73730`, `_halide_buffer_init(..., b, ..., 2, 32, ...)`): the type of a load the
    /// text prints without one.
    buffer_types: FxHashMap<Name, Elem>,
    /// Lets bound to the host pointer of a buffer argument (`let b =
    /// _halide_buffer_get_host(b.buffer)`): loads and stores through them tell the
    /// argument's type.
    host_aliases: FxHashMap<Name, Name>,
    /// The bounds of open realizations in scope (`f.x.min_realized` ...): the storage,
    /// dimension and bound each name reads.
    open_bounds: FxHashMap<Name, Vec<(Reg, u32, BoundKind)>>,
    /// The constant pool: values, and the register of each.
    constants: Vec<u64>,
    constant_regs: FxHashMap<u64, Reg>,
    /// The types of loads from GPU allocation groups.
    groups: group::Groups,
    /// Inside the body of a GPU lane loop: the allocations made in it, which each lane
    /// has to itself.
    lane_private: Option<Vec<Name>>,
    /// The allocations in registers around the node (each thread's own).
    registers: Vec<Name>,
    /// Register allocations made inside a GPU lane loop whose scope has ended. Halide's
    /// warp shuffle pass moves such an allocation into the lane loop but leaves its
    /// `free` after the loop (conv_layer.cuda from stage 46 on); the reference's code
    /// generator never frees register memory, so that `free` does nothing.
    lane_registers_ended: Vec<Name>,
    /// How many `atomic` nodes enclose the node.
    atomic_depth: u32,
    /// Lets of a GPU block that read thread ids the thread loops inside them bind, and
    /// whether each is bound now (see `Compiler::thread_body`).
    thread_lets: Vec<(Name, Expr, bool)>,
}

impl<'r> Compiler<'r> {
    fn new(runtime: &'r dyn Runtime) -> Compiler<'r> {
        Compiler {
            runtime,
            code: Vec::new(),
            sites: Vec::new(),
            top: 0,
            max_regs: 0,
            values: FxHashMap::default(),
            funcs: FxHashMap::default(),
            allocs: FxHashMap::default(),
            globals: Vec::new(),
            global_regs: FxHashMap::default(),
            global_lanes: 0,
            interface: Interface::default(),
            strings: Vec::new(),
            string_index: FxHashMap::default(),
            stack_slots: 0,
            destructors: Vec::new(),
            externs: Vec::new(),
            tuple_funcs: FxHashMap::default(),
            device_aware: false,
            in_device: false,
            host_aliases: FxHashMap::default(),
            buffer_types: FxHashMap::default(),
            open_bounds: FxHashMap::default(),
            constants: Vec::new(),
            constant_regs: FxHashMap::default(),
            groups: group::Groups::default(),
            lane_private: None,
            registers: Vec::new(),
            lane_registers_ended: Vec::new(),
            atomic_depth: 0,
            thread_lets: Vec::new(),
        }
    }

    /// Looks over the whole statement once for what name resolution needs to know in
    /// advance: which Funcs are provided with several values.
    fn prepare(&mut self, stmt: &Stmt) {
        struct Provides<'a>(&'a mut FxHashMap<Name, usize>);
        impl Visitor for Provides<'_> {
            fn visit_stmt(&mut self, s: &Stmt) {
                if let StmtKind::Provide { name, values, .. } = s.kind()
                    && values.len() > 1
                {
                    self.0.insert(name.clone(), values.len());
                }
                self.super_stmt(s);
            }
            fn visit_expr(&mut self, _: &Expr) {}
        }
        Provides(&mut self.tuple_funcs).visit_stmt(stmt);
        self.buffer_types = stated_buffer_types(stmt);
    }

    fn finish(mut self) -> Program {
        let g = self.global_lanes;
        let c = self.constants.len() as Reg;
        for ins in &mut self.code {
            ins.for_each_reg(|r| {
                *r = if *r & GLOBAL_BIT != 0 {
                    *r & !GLOBAL_BIT
                } else if *r & CONST_BIT != 0 {
                    g + (*r & !CONST_BIT)
                } else {
                    *r + g + c
                };
            });
        }
        Program {
            code: self.code,
            sites: self.sites,
            registers: (g + c + self.max_regs) as usize,
            constants: self.constants,
            strings: self.strings,
            stack_slots: self.stack_slots,
            destructors: self.destructors,
            externs: self.externs,
            globals: self.globals,
            device_aware: self.device_aware,
            interface: self.interface,
        }
    }

    // ---- code and registers ----

    fn emit(&mut self, ins: Instr) -> Pc {
        self.code.push(ins);
        (self.code.len() - 1) as Pc
    }

    fn here(&self) -> Pc {
        self.code.len() as Pc
    }

    /// Sets the jump target of the instruction at `at`.
    fn patch(&mut self, at: Pc, target: Pc) {
        match &mut self.code[at as usize] {
            Instr::Jump { to } | Instr::JumpIfFalse { to, .. } | Instr::JumpIfTrue { to, .. } => *to = target,
            Instr::LoopStart { end, .. } | Instr::SpawnThreads { end, .. } => *end = target,
            Instr::Fork { resume, .. } => *resume = target,
            _ => {}
        }
    }

    fn site_expr(&mut self, e: &Expr) -> u32 {
        self.sites.push(Site::Expr(e.clone()));
        (self.sites.len() - 1) as u32
    }

    fn site_stmt(&mut self, s: &Stmt) -> u32 {
        self.sites.push(Site::Stmt(s.clone()));
        (self.sites.len() - 1) as u32
    }

    /// A fresh register of `lanes` lanes.
    fn alloc(&mut self, lanes: u16) -> Reg {
        let r = self.top;
        self.top += lanes.max(1) as Reg;
        self.max_regs = self.max_regs.max(self.top);
        r
    }

    fn bad(&self, msg: impl Into<String>) -> InterpError {
        InterpError::new(ErrorKind::BadProgram, msg)
    }

    fn elem(&self, ty: Type) -> Result<Elem, InterpError> {
        Elem::of(ty).map_err(|e| self.bad(e))
    }

    // ---- scopes ----

    fn bind_value(&mut self, name: &Name, reg: Reg, ty: Type) {
        self.values.entry(name.clone()).or_default().push(ValueBinding { reg, ty, soft: false });
        self.host_aliases.remove(name);
    }

    /// Binds `name` to a compiled value, remembering it if it is a buffer argument's
    /// host pointer.
    fn bind_let(&mut self, name: &Name, val: expr::Val, value: &Expr) {
        self.values.entry(name.clone()).or_default().push(ValueBinding {
            reg: val.reg,
            ty: val.ty,
            soft: val.soft,
        });
        self.host_aliases.remove(name);
        let mut v = value;
        while let ExprKind::Cast(inner) = v.kind() {
            v = inner;
        }
        if let ExprKind::Call { name: f, args, .. } = v.kind()
            && &**f == "_halide_buffer_get_host"
            && let Some(ExprKind::Variable(b)) = args.first().map(|a| a.kind())
            && let Some(buffer) = b.strip_suffix(".buffer")
            && self.value(b).is_none()
        {
            self.host_aliases.insert(name.clone(), Name::from(buffer));
        }
    }

    fn unbind_value(&mut self, name: &Name) {
        self.host_aliases.remove(name);
        if let Some(v) = self.values.get_mut(name) {
            v.pop();
            if v.is_empty() {
                self.values.remove(name);
            }
        }
    }

    fn value(&self, name: &str) -> Option<&ValueBinding> {
        self.values.get(name).and_then(|v| v.last())
    }

    fn func(&self, name: &str) -> Option<&FuncBinding> {
        self.funcs.get(name).and_then(|v| v.last())
    }

    /// The value of variable `name`, which the text says is of type `ty`.
    fn variable(&mut self, name: &Name, ty: Type) -> Result<expr::Val, InterpError> {
        if let Some(b) = self.value(name) {
            return Ok(expr::Val { reg: b.reg, ty: b.ty, soft: b.soft });
        }
        if let Some(&(storage, dim, kind)) = self.open_bounds.get(name).and_then(|v| v.last()) {
            let dst = self.alloc(1);
            self.emit(Instr::RealizationBound { dst, storage, dim, kind });
            return Ok(expr::Val { reg: dst, ty: Type::INT32, soft: false });
        }
        // `f.buffer` / `f.k.buffer` of a realized Func (an extern stage's argument).
        if let Some(prefix) = name.strip_suffix(".buffer") {
            let (func, index) = match prefix.rsplit_once('.') {
                Some((f, k))
                    if !k.is_empty() && k.bytes().all(|c| c.is_ascii_digit()) && self.func(f).is_some() =>
                {
                    (f, k.parse().unwrap_or(0))
                }
                _ => (prefix, 0u32),
            };
            if let Some(f) = self.func(func) {
                let storage = f.storage;
                let dst = self.alloc(1);
                let site = self.sites.len() as u32;
                self.sites.push(Site::Expr(Expr::var(ty, name.clone())));
                self.emit(Instr::RealizationBuffer { dst, storage, value_index: index, site });
                return Ok(expr::Val { reg: dst, ty: Type::buffer_ptr(), soft: false });
            }
        }
        let reg = self.global(name, ty)?;
        let gty = self.global_regs.get(name).map(|g| g.1).unwrap_or(ty);
        Ok(expr::Val { reg, ty: gty, soft: false })
    }

    /// The register of a free name, made on first use.
    fn global(&mut self, name: &Name, ty: Type) -> Result<Reg, InterpError> {
        if let Some(&(reg, gty)) = self.global_regs.get(name) {
            if gty.lanes() != ty.lanes() {
                return Err(self.bad(format!("the free name `{name}` is used with {gty} and {ty}")));
            }
            return Ok(reg);
        }
        let what = match BufferSymbol::split(name) {
            Some((buffer, sym)) => {
                let k = self.buffer_param(buffer);
                if let BufferSymbol::Min(n) | BufferSymbol::Extent(n) | BufferSymbol::Stride(n) = sym {
                    self.note_dimensions(k, n as usize + 1);
                }
                GlobalKind::Buffer(k, sym)
            }
            None if ty.is_handle() => GlobalKind::Buffer(self.buffer_param(name), BufferSymbol::Host),
            None => {
                let k = self.interface.scalars.len();
                self.interface.scalars.push(ScalarParam { name: name.clone(), ty });
                GlobalKind::Scalar(k)
            }
        };
        Ok(self.new_global(name.clone(), ty, what))
    }

    fn new_global(&mut self, name: Name, ty: Type, what: GlobalKind) -> Reg {
        let reg = GLOBAL_BIT | self.global_lanes;
        self.global_lanes += ty.lanes() as u32;
        self.globals.push(Global { name: name.clone(), lanes: ty.lanes(), what });
        self.global_regs.insert(name, (reg, ty));
        reg
    }

    /// The register holding the storage number of buffer argument `name` read as a Func.
    fn buffer_storage(&mut self, name: &str) -> Reg {
        let key = Name::from(format!("{name}\u{0}storage"));
        if let Some(&(reg, _)) = self.global_regs.get(&key) {
            return reg;
        }
        let k = self.buffer_param(name);
        self.interface.buffers[k].read_as_func = true;
        self.new_global(key, Type::INT32, GlobalKind::Buffer(k, BufferSymbol::Storage))
    }

    /// The index of buffer argument `name` in the interface (added on first use).
    fn buffer_param(&mut self, name: &str) -> usize {
        if let Some(k) = self.interface.buffers.iter().position(|b| &*b.name == name) {
            return k;
        }
        self.interface.buffers.push(BufferParam {
            name: Name::from(name),
            elem: None,
            dimensions: None,
            is_output: false,
            read_as_func: false,
        });
        self.interface.buffers.len() - 1
    }

    fn note_dimensions(&mut self, k: usize, dims: usize) {
        let d = &mut self.interface.buffers[k].dimensions;
        *d = Some(d.unwrap_or(0).max(dims));
    }

    /// Notes the element type of the buffer argument a free pointer or Func name refers
    /// to, and whether it is written.
    fn note_buffer_use(&mut self, name: &str, elem: Elem, write: bool) {
        let name = match self.host_aliases.get(name) {
            Some(b) => b.to_string(),
            None if self.value(name).is_some() || self.func(name).is_some() => return,
            None => name.to_owned(),
        };
        let name = name.as_str();
        let Some(k) = self.interface.buffers.iter().position(|b| &*b.name == name) else { return };
        let b = &mut self.interface.buffers[k];
        if b.elem.is_none() {
            b.elem = Some(elem);
        }
        b.is_output |= write;
    }

    /// Whether `e` reads a realization bound that nothing defines yet: before
    /// allocation bounds inference, a `realize` names its bounds `f.x.min_realized`,
    /// `f.x.extent_realized`, which that pass defines later. Such a realization gets
    /// storage that grows to fit what is stored.
    fn leaves_bounds_open(&self, e: &Expr) -> bool {
        struct Open<'a, 'r> {
            c: &'a Compiler<'r>,
            bound: Vec<Name>,
            found: bool,
        }
        impl Visitor for Open<'_, '_> {
            fn visit_expr(&mut self, e: &Expr) {
                match e.kind() {
                    ExprKind::Variable(n) => {
                        if n.ends_with("_realized") && !self.bound.contains(n) && self.c.value(n).is_none() {
                            self.found = true;
                        }
                    }
                    ExprKind::Let { name, value, body } => {
                        self.visit_expr(value);
                        self.bound.push(name.clone());
                        self.visit_expr(body);
                        self.bound.pop();
                    }
                    _ => self.super_expr(e),
                }
            }
        }
        let mut v = Open { c: self, bound: Vec::new(), found: false };
        v.visit_expr(e);
        v.found
    }

    fn string(&mut self, bytes: &[u8]) -> u64 {
        let mut s = bytes.to_vec();
        s.push(0);
        let k = match self.string_index.get(&s) {
            Some(&k) => k,
            None => {
                self.strings.push(s.clone());
                self.string_index.insert(s, self.strings.len() - 1);
                self.strings.len() - 1
            }
        };
        crate::heap::handle(k, 0)
    }

    fn stack_slot(&mut self) -> u32 {
        self.stack_slots += 1;
        self.stack_slots - 1
    }

    fn unsupported(&mut self, site: u32, reason: impl Into<String>) {
        self.emit(Instr::Unsupported { site, reason: reason.into().into_boxed_str() });
    }
}

/// The element types the program's own checks and descriptors state for its buffers:
/// `b.type == C` (or `_halide_buffer_get_type(b.buffer) == C`) and
/// `_halide_buffer_init(dst, shape, b, device, interface, code, bits, ...)`.
fn stated_buffer_types(s: &Stmt) -> FxHashMap<Name, Elem> {
    struct Types(FxHashMap<Name, Elem>);
    impl Types {
        fn buffer_of(e: &Expr) -> Option<Name> {
            let mut e = e;
            while let ExprKind::Cast(v) | ExprKind::Reinterpret(v) = e.kind() {
                e = v;
            }
            match e.kind() {
                ExprKind::Variable(n) => n.strip_suffix(".type").map(Name::from),
                ExprKind::Call { name, args, .. } if &**name == "_halide_buffer_get_type" => {
                    match args.first()?.kind() {
                        ExprKind::Variable(b) => b.strip_suffix(".buffer").map(Name::from),
                        _ => None,
                    }
                }
                _ => None,
            }
        }
    }
    impl Visitor for Types {
        fn visit_expr(&mut self, e: &Expr) {
            match e.kind() {
                ExprKind::Binary(loopir::BinOp::Eq, a, b) => {
                    for (x, c) in [(a, b), (b, a)] {
                        if let (Some(buf), Some(bits)) = (Types::buffer_of(x), c.as_int())
                            && let Some(elem) = crate::buffer::elem_of_type_bits(bits as u32)
                        {
                            self.0.entry(buf).or_insert(elem);
                        }
                    }
                }
                ExprKind::Call { name, args, .. } if &**name == "_halide_buffer_init" && args.len() >= 7 => {
                    let mut host = &args[2];
                    while let ExprKind::Cast(v) = host.kind() {
                        host = v;
                    }
                    if let (ExprKind::Variable(b), Some(elem)) = (host.kind(), Types::init_type(e)) {
                        self.0.entry(b.clone()).or_insert(elem);
                    }
                }
                _ => {}
            }
            self.super_expr(e);
        }
        fn visit_stmt(&mut self, s: &Stmt) {
            // `let b.buffer = _halide_buffer_init(...)` (or an allocation of `b.buffer`
            // made by one) describes buffer b, whatever its host pointer is.
            let described = match s.kind() {
                StmtKind::LetStmt { name, value, .. } => Some((name, value)),
                StmtKind::Allocate { name, new_expr: Some(value), .. } => Some((name, value)),
                _ => None,
            };
            if let Some((name, value)) = described
                && let Some(b) = name.strip_suffix(".buffer")
                && let Some(elem) = Types::init_type(value)
            {
                self.0.entry(Name::from(b)).or_insert(elem);
            }
            self.super_stmt(s);
        }
    }
    impl Types {
        /// The type a `_halide_buffer_init` call (under lets and casts) gives.
        fn init_type(e: &Expr) -> Option<Elem> {
            let mut e = e;
            loop {
                match e.kind() {
                    ExprKind::Cast(v) => e = v,
                    ExprKind::Let { body, .. } => e = body,
                    _ => break,
                }
            }
            match e.kind() {
                ExprKind::Call { name, args, .. } if &**name == "_halide_buffer_init" && args.len() >= 7 => {
                    let (code, bits) = (args[5].as_int()?, args[6].as_int()?);
                    let packed = (code as u32 & 0xff) | ((bits as u32 & 0xff) << 8) | (1 << 16);
                    crate::buffer::elem_of_type_bits(packed)
                }
                _ => None,
            }
        }
    }
    let mut t = Types(FxHashMap::default());
    t.visit_stmt(s);
    t.0
}

/// Whether `s` contains a `gpu_thread_barrier` (so its GPU threads must run in step).
fn has_barrier(s: &Stmt) -> bool {
    struct Find(bool);
    impl Visitor for Find {
        fn visit_expr(&mut self, e: &Expr) {
            if self.0 {
                return;
            }
            if e.is_intrinsic(loopir::Intrinsic::GpuThreadBarrier) {
                self.0 = true;
                return;
            }
            self.super_expr(e);
        }
        fn visit_stmt(&mut self, s: &Stmt) {
            if !self.0 {
                self.super_stmt(s);
            }
        }
    }
    let mut f = Find(false);
    f.visit_stmt(s);
    f.0
}

/// The buffers a kernel body `s` touches, in order of first appearance: the names it
/// loads from or stores to (for device views), and those it allocates itself (`Allocate`
/// nodes anywhere in it), which have no host side. One walk, each shared expression once.
fn kernel_buffers(s: &Stmt) -> (Vec<Name>, Vec<Name>) {
    #[derive(Default)]
    struct Names {
        accessed: Vec<Name>,
        allocated: Vec<Name>,
        seen: FxHashSet<*const loopir::ExprNode>,
    }
    fn note(names: &mut Vec<Name>, name: &Name) {
        if !names.contains(name) {
            names.push(name.clone());
        }
    }
    impl Visitor for Names {
        fn visit_expr(&mut self, e: &Expr) {
            if e.is_shared() && !e.is_leaf() && !self.seen.insert(e.as_ptr()) {
                return;
            }
            if let ExprKind::Load { name, .. } = e.kind() {
                note(&mut self.accessed, name);
            }
            self.super_expr(e);
        }
        fn visit_stmt(&mut self, s: &Stmt) {
            match s.kind() {
                StmtKind::Store { name, .. } => note(&mut self.accessed, name),
                StmtKind::Allocate { name, .. } => note(&mut self.allocated, name),
                _ => {}
            }
            self.super_stmt(s);
        }
    }
    let mut n = Names::default();
    n.visit_stmt(s);
    (n.accessed, n.allocated)
}

/// No register: used for an absent optional operand.
const NONE: Reg = NO_REG;
