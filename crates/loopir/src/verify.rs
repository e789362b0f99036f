//! The IR verifier: checks the invariants every pass may assume and every pass must keep,
//! like Cranelift's verifier. [`verify`] returns every violation it finds, each located
//! by the enclosing statements and the node, or `Ok(())`.
//!
//! What it checks:
//!
//! * **types agree across nodes**: the operands of an arithmetic or comparison operator
//!   have one type, and a comparison is boolean with their lanes; `&&`, `||` and `!` take
//!   booleans; a `select`'s values have its type and its condition is boolean, scalar or
//!   of their lanes; a `Store`'s and a `Load`'s element type is the element type of the
//!   allocation of that name around it, and their index (and predicate) has the lanes of
//!   the value (the reference's GPU allocation groups, `allocgroup__…`, hold values of
//!   several types and are exempt); predicates, `if` and `assert` conditions are boolean.
//!   `.stmt` text does not print every type, so only types the IR determines are
//!   compared (see `Verifier::uncertain`);
//! * **Funcs**: a `Provide` stores one value per type of the realization around it, of
//!   those types; every realization, store and call of a Func has the same number of
//!   dimensions (and, with an environment, as many as its `args`);
//! * **scopes**: a `free` lies inside the `allocate` of its buffer (or follows a
//!   `Register` allocation of it: the reference's warp-shuffle pass moves those into the
//!   lane loop and leaves the `free` where it was); no `produce f` or
//!   `consume f` lies inside another `produce f` or `consume f`; a `consume f` directly
//!   in a block follows a `produce f` of that block or lies inside the realization or
//!   allocation of `f`;
//! * **loops**: a loop's bounds are `int32` scalars;
//! * **variables**, with an environment that lists the scalar parameters
//!   ([`PipelineEnv::params`](crate::pipeline::PipelineEnv::params)): every variable is
//!   bound by an enclosing let, loop, allocation or realization, or is a parameter, or a
//!   symbol of a Func, image or output buffer (`<name>`, `<name>.<anything>`), or a
//!   runtime name (starting with `__`).
//!
//! The stage a pass requires is checked by [`crate::pipeline::check_stage`]; the
//! verifier accepts both stages, and IR that mixes them (the reference's storage
//! flattening leaves GPU-side realizations in some files).
//!
//! The walk visits a shared expression node once, so it is linear in the IR's DAG.

use rustc_hash::FxHashMap;

use crate::address_map::AddressSet;
use crate::binder::Binder;
use crate::expr::{CallType, Expr, ExprKind, ExprNode, Name};
use crate::pipeline::PipelineEnv;
use crate::stmt::{Stmt, StmtKind};
use crate::types::Type;
use crate::visit::Visitor;

/// One violation: where it is and what is wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VerifyError {
    /// The enclosing statements, outermost first (`produce f`, `for f.s0.y`).
    pub context: Vec<String>,
    /// The offending node, as its first line of text.
    pub node: String,
    /// What is wrong.
    pub message: String,
}

impl std::fmt::Display for VerifyError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if !self.context.is_empty() {
            write!(f, "in {}: ", self.context.join(" > "))?;
        }
        write!(f, "`{}`: {}", self.node, self.message)
    }
}

/// Every violation [`verify`] found, in walk order (at most [`MAX_REPORTED`]).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct VerifyErrors(pub Vec<VerifyError>);

/// How many violations [`verify`] reports at most; the rest are counted.
pub const MAX_REPORTED: usize = 100;

impl std::fmt::Display for VerifyErrors {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        for (i, e) in self.0.iter().enumerate() {
            if i > 0 {
                writeln!(f)?;
            }
            write!(f, "{e}")?;
        }
        Ok(())
    }
}

impl std::error::Error for VerifyErrors {}

/// Verifies `stmt` (see the module docs); with `env`, Func dimensions are checked
/// against its `args` and variables against its declared names.
///
/// ```
/// use loopir::verify::verify;
///
/// let ok = loopir::parse_stmt("allocate f[int32 * 4]\nf[0] = 1\nfree f\n").unwrap();
/// assert!(verify(&ok, None).is_ok());
/// let bad = loopir::parse_stmt("free f\n").unwrap();
/// let errors = verify(&bad, None).unwrap_err();
/// assert!(errors.to_string().contains("`free f`: not inside an allocation of `f`"), "{errors}");
/// ```
pub fn verify(stmt: &Stmt, env: Option<&PipelineEnv>) -> Result<(), VerifyErrors> {
    let mut v = Verifier::new(env);
    v.visit_stmt(stmt);
    if v.errors.is_empty() { Ok(()) } else { Err(VerifyErrors(v.errors)) }
}

struct Verifier<'e> {
    env: Option<&'e PipelineEnv>,
    errors: Vec<VerifyError>,
    context: Vec<String>,
    /// Allocations around the current node, innermost last.
    allocations: Vec<(Name, Type)>,
    /// Realizations around the current node, innermost last.
    realizations: Vec<(Name, Vec<Type>)>,
    /// Produce and consume nodes around the current node.
    pipeline_nodes: Vec<Name>,
    /// Names bound around the current node, with multiplicity.
    bound: FxHashMap<Name, usize>,
    /// The number of dimensions each Func was first accessed with, and where.
    arity: FxHashMap<Name, (usize, String)>,
    /// Names declared by the environment (parameters, Funcs, images, outputs' buffers),
    /// when it lists the parameters.
    declared: Option<rustc_hash::FxHashSet<String>>,
    seen: AddressSet<*const ExprNode>,
    /// Whether each non-leaf expression's type rests on a guess (see
    /// [`Verifier::uncertain`]).
    uncertain: crate::address_map::AddressMap<*const ExprNode, bool>,
    /// Let-bound names whose value's type rests on a guess, with multiplicity.
    uncertain_lets: FxHashMap<Name, Vec<bool>>,
    /// Names of the `Register` allocations met so far (see the free rule).
    register_allocations: rustc_hash::FxHashSet<Name>,
}

/// The first line of a statement's text, without printing its body (a body can be
/// large, and its text exponential in a DAG's size).
pub(crate) fn stmt_head(s: &Stmt) -> String {
    let shallow = match s.kind() {
        StmtKind::Block(_) | StmtKind::Fork { .. } => return "block".to_owned(),
        StmtKind::IfThenElse { condition, .. } => return format!("if ({})", expr_text(condition)),
        _ => s.with_body(Stmt::evaluate(Expr::i32(0))).unwrap_or_else(|| s.clone()),
    };
    let text = crate::stmt_to_string(&shallow);
    let line = text.lines().next().unwrap_or_default().trim().trim_end_matches('{').trim_end();
    if line.len() > 200 { format!("{}…", &line[..line.floor_char_boundary(200)]) } else { line.to_owned() }
}

fn head(s: &Stmt) -> String {
    stmt_head(s)
}

fn expr_text(e: &Expr) -> String {
    let t = crate::expr_to_string(e);
    if t.len() > 200 { format!("{}…", &t[..t.floor_char_boundary(200)]) } else { t }
}

impl<'e> Verifier<'e> {
    fn new(env: Option<&'e PipelineEnv>) -> Verifier<'e> {
        let declared = env.and_then(|env| {
            let params = env.params.as_ref()?;
            let mut names: rustc_hash::FxHashSet<String> = params.iter().map(|p| p.name.clone()).collect();
            names.extend(env.funcs.iter().map(|f| f.name.clone()));
            names.extend(env.images.iter().map(|i| i.name.clone()));
            names.extend(env.outputs.iter().map(|o| o.buffer_name().to_owned()));
            Some(names)
        });
        Verifier {
            env,
            errors: Vec::new(),
            context: Vec::new(),
            allocations: Vec::new(),
            realizations: Vec::new(),
            pipeline_nodes: Vec::new(),
            bound: FxHashMap::default(),
            arity: FxHashMap::default(),
            declared,
            seen: AddressSet::default(),
            uncertain: Default::default(),
            uncertain_lets: FxHashMap::default(),
            register_allocations: rustc_hash::FxHashSet::default(),
        }
    }

    /// Whether the type of `e` rests on a guess rather than on the IR: `.stmt` text does
    /// not print the types of free variables, of loads from buffers allocated elsewhere
    /// (inputs) or of calls, so a parser types them by default, and an operator over such
    /// a value may disagree with its other operand through no fault of the IR. Type
    /// agreement is checked only between values whose types are known: variables bound in
    /// scope or declared with a type by the environment, loads from an allocation in
    /// scope, immediates, casts, and what is built from them.
    fn uncertain(&mut self, e: &Expr) -> bool {
        match e.kind() {
            ExprKind::Variable(name) => {
                if self.bound.contains_key(name) {
                    return self.uncertain_lets.get(name).and_then(|v| v.last()).copied().unwrap_or(false);
                }
                let declared = self
                    .env
                    .and_then(|env| env.params.as_ref())
                    .is_some_and(|ps| ps.iter().any(|p| p.name == name.as_ref() && p.ty == e.ty()));
                !declared
            }
            ExprKind::IntImm(_) | ExprKind::UIntImm(_) | ExprKind::FloatImm(_) | ExprKind::StringImm(_) => {
                false
            }
            ExprKind::Cast(_) | ExprKind::Reinterpret(_) => false,
            ExprKind::Load { name, .. } => {
                self.allocation(name).is_none() || name.starts_with("allocgroup__")
            }
            ExprKind::Call { call_type: CallType::Intrinsic, args, .. } => {
                let args: Vec<Expr> = args.clone();
                self.any_uncertain(e, &args)
            }
            ExprKind::Call { .. } => true,
            _ => {
                let children: Vec<Expr> = e.children().into_iter().cloned().collect();
                self.any_uncertain(e, &children)
            }
        }
    }

    fn any_uncertain(&mut self, e: &Expr, children: &[Expr]) -> bool {
        if let Some(&u) = self.uncertain.get(&e.as_ptr()) {
            return u;
        }
        let u = crate::stack::with_stack(|| children.iter().any(|c| self.uncertain(c)));
        self.uncertain.insert(e.as_ptr(), u);
        u
    }

    fn report(&mut self, node: impl FnOnce() -> String, message: String) {
        if self.errors.len() < MAX_REPORTED {
            self.errors.push(VerifyError { context: self.context.clone(), node: node(), message });
        }
    }

    fn allocation(&self, name: &str) -> Option<Type> {
        self.allocations.iter().rev().find(|(n, _)| n.as_ref() == name).map(|(_, t)| *t)
    }

    fn check_bool(&mut self, what: &str, e: &Expr, lanes: Option<u16>, node: impl FnOnce() -> String) {
        let t = e.ty();
        if !t.is_bool() {
            self.report(node, format!("{what} `{}` is {t}, not boolean", expr_text(e)));
        } else if let Some(l) = lanes
            && t.lanes() != l
            && t.lanes() != 1
        {
            self.report(node, format!("{what} `{}` has {} lanes, the value {l}", expr_text(e), t.lanes()));
        }
    }

    fn check_arity(&mut self, name: &Name, dims: usize, first: &str, node: impl Fn() -> String) {
        if let Some(env) = self.env
            && let Some((_, f)) = env.func(name)
            && let Some(args) = &f.args
            && args.len() != dims
        {
            self.report(
                &node,
                format!("`{name}` is accessed with {dims} dimension(s), but the environment gives it {} ({args:?})", args.len()),
            );
        }
        match self.arity.get(name) {
            Some((d, first)) if *d != dims => {
                let message =
                    format!("`{name}` is accessed with {dims} dimension(s) here but {d} at `{first}`");
                self.report(node, message);
            }
            Some(_) => {}
            None => {
                // Kind and name only: this is the path of valid IR, and printing a node
                // can take time exponential in a DAG's size.
                self.arity.insert(name.clone(), (dims, first.to_owned()));
            }
        }
    }

    fn is_declared(&self, var: &str) -> bool {
        let Some(declared) = &self.declared else { return true };
        if var.starts_with("__") || declared.contains(var) {
            return true;
        }
        // `<name>.<anything>`: a symbol of a Func or buffer, for every dotted prefix.
        var.match_indices('.')
            .any(|(i, _)| declared.contains(&var[..i]) || self.bound.contains_key(&var[..i]))
    }
}

impl Visitor for Verifier<'_> {
    fn visit_stmt(&mut self, s: &Stmt) {
        let mut pushed_context = false;
        let mut pushed_pipeline = false;
        match s.kind() {
            StmtKind::For { name, min, max, .. } => {
                for (what, e) in [("min", min), ("max", max)] {
                    if e.ty() != Type::INT32 {
                        self.report(
                            || head(s),
                            format!("the loop's {what} `{}` is {}, not int32", expr_text(e), e.ty()),
                        );
                    }
                }
                self.context.push(format!("for {name}"));
                pushed_context = true;
            }
            StmtKind::ProducerConsumer { name, is_producer, .. } => {
                let keyword = if *is_producer { "produce" } else { "consume" };
                if self.pipeline_nodes.iter().any(|n| n == name) {
                    self.report(
                        || head(s),
                        format!("`{keyword} {name}` lies inside another produce or consume node of `{name}`"),
                    );
                }
                self.context.push(format!("{keyword} {name}"));
                self.pipeline_nodes.push(name.clone());
                pushed_context = true;
                pushed_pipeline = true;
            }
            StmtKind::Realize { name, bounds, .. } => {
                self.check_arity(name, bounds.len(), &format!("realize {name}"), || head(s));
                self.context.push(format!("realize {name}"));
                pushed_context = true;
            }
            StmtKind::Allocate { name, memory_type, .. } => {
                if *memory_type == crate::stmt::MemoryType::Register {
                    self.register_allocations.insert(name.clone());
                }
                self.context.push(format!("allocate {name}"));
                pushed_context = true;
            }
            StmtKind::Free { name }
                if self.allocation(name).is_none() && !self.register_allocations.contains(name) =>
            {
                self.report(|| head(s), format!("not inside an allocation of `{name}`"));
            }
            StmtKind::Store { name, value, index, predicate, .. } => {
                let lanes = value.ty().lanes();
                if index.ty().lanes() != lanes {
                    self.report(
                        || head(s),
                        format!("the index has {} lanes, the value {lanes}", index.ty().lanes()),
                    );
                }
                if !index.ty().is_int() && !index.ty().is_uint() {
                    self.report(|| head(s), format!("the index is {}, not an integer", index.ty()));
                }
                self.check_bool("the predicate", predicate, Some(lanes), || head(s));
                if let Some(t) = self.allocation(name)
                    && t.element_of() != value.ty().element_of()
                    && !name.starts_with("allocgroup__")
                    && !self.uncertain(value)
                {
                    self.report(|| head(s), format!("stores {} to `{name}`, allocated as {t}", value.ty()));
                }
            }
            StmtKind::Provide { name, values, args, predicate } => {
                self.check_arity(name, args.len(), &format!("{name}(…) = …"), || head(s));
                self.check_bool("the predicate", predicate, None, || head(s));
                let realized =
                    self.realizations.iter().rev().find(|(n, _)| n == name).map(|(_, t)| t.clone());
                if let Some(types) = realized
                    && !types.is_empty()
                {
                    let got: Vec<Type> = values.iter().map(Expr::ty).collect();
                    let mismatch = got.len() != types.len()
                        || got.iter().zip(&types).any(|(g, t)| g.element_of() != t.element_of());
                    if mismatch && !values.iter().any(|v| self.uncertain(v)) {
                        let want: Vec<String> = types.iter().map(Type::to_string).collect();
                        let got: Vec<String> = got.iter().map(Type::to_string).collect();
                        self.report(
                            || head(s),
                            format!(
                                "stores [{}] to `{name}`, realized as [{}]",
                                got.join(", "),
                                want.join(", ")
                            ),
                        );
                    }
                }
            }
            StmtKind::IfThenElse { condition, .. } => {
                self.check_bool("the condition", condition, Some(1), || head(s))
            }
            StmtKind::AssertStmt { condition, .. } => {
                self.check_bool("the condition", condition, Some(1), || head(s))
            }
            StmtKind::Block(stmts) => {
                // A consume node directly in a block follows its produce node there, or
                // its Func is realized (or is an output, at the pipeline's top level).
                for (k, st) in stmts.iter().enumerate() {
                    if let StmtKind::ProducerConsumer { name, is_producer: false, .. } = st.kind() {
                        let produced_before = stmts[..k].iter().any(|p| {
                            matches!(p.kind(), StmtKind::ProducerConsumer { name: n, is_producer: true, .. } if n == name)
                        });
                        // A tuple's elements are realized or allocated as `f.0`, `f.1`,
                        // ..., a Func's buffer may be `f.buffer`, and the reference's GPU
                        // allocation groups hold the storage of several Funcs.
                        let holds = |n: &Name| {
                            n == name || n.strip_prefix(name.as_ref()).is_some_and(|r| r.starts_with('.'))
                        };
                        let realized = self.realizations.iter().any(|(n, _)| holds(n))
                            || self
                                .allocations
                                .iter()
                                .any(|(n, _)| holds(n) || n.starts_with("allocgroup__"));
                        if !produced_before && !realized {
                            self.report(
                                || head(st),
                                format!("`consume {name}` does not follow a `produce {name}`"),
                            );
                        }
                    }
                }
            }
            _ => {}
        }
        self.super_stmt(s);
        if pushed_context {
            self.context.pop();
        }
        if pushed_pipeline {
            self.pipeline_nodes.pop();
        }
    }

    fn visit_expr(&mut self, e: &Expr) {
        if e.is_shared() && !e.is_leaf() && !self.seen.insert(e.as_ptr()) {
            return;
        }
        let node = || expr_text(e);
        match e.kind() {
            ExprKind::Binary(_, a, b) if self.uncertain(a) || self.uncertain(b) => {}
            ExprKind::Binary(op, a, b) => {
                if a.ty() != b.ty() {
                    self.report(node, format!("the operands are {} and {}", a.ty(), b.ty()));
                } else if op.is_logical() && !a.ty().is_bool() {
                    self.report(node, format!("the operands are {}, not boolean", a.ty()));
                } else {
                    let want = if op.is_comparison() { Type::bool(a.ty().lanes()) } else { a.ty() };
                    if e.ty() != want {
                        self.report(node, format!("the node is {}, its operands make it {want}", e.ty()));
                    }
                }
            }
            ExprKind::Not(a) => self.check_bool("the operand", a, None, node),
            ExprKind::Select(c, t, f) => {
                if (t.ty() != f.ty() || t.ty() != e.ty()) && !self.uncertain(t) && !self.uncertain(f) {
                    self.report(node, format!("the values are {} and {}", t.ty(), f.ty()));
                }
                self.check_bool("the condition", c, Some(t.ty().lanes()), node);
            }
            ExprKind::Load { name, index, predicate, .. } => {
                let lanes = e.ty().lanes();
                if index.ty().lanes() != lanes {
                    self.report(
                        node,
                        format!("the index has {} lanes, the value {lanes}", index.ty().lanes()),
                    );
                }
                self.check_bool("the predicate", predicate, Some(lanes), node);
                if let Some(t) = self.allocation(name)
                    && t.element_of() != e.ty().element_of()
                    && !name.starts_with("allocgroup__")
                {
                    self.report(node, format!("loads {} from `{name}`, allocated as {t}", e.ty()));
                }
            }
            ExprKind::Call { name, args, call_type: CallType::Halide, .. } => {
                self.check_arity(name, args.len(), &format!("{name}(…)"), node);
            }
            ExprKind::Variable(name) if !self.bound.contains_key(name) && !self.is_declared(name) => {
                self.report(node, format!("`{name}` is neither bound here nor declared by the environment"));
            }
            _ => {}
        }
        self.super_expr(e)
    }

    fn enter_scope(&mut self, binder: &Binder<'_>) {
        let name = match binder {
            Binder::LetStmt { name, value } | Binder::Let { name, value } => {
                let u = self.uncertain(value);
                self.uncertain_lets.entry((*name).clone()).or_default().push(u);
                *name
            }
            Binder::For { name, .. } => *name,
            Binder::Allocate { name, ty, .. } => {
                self.allocations.push(((*name).clone(), *ty));
                *name
            }
            Binder::Realize { name, types, .. } => {
                self.realizations.push(((*name).clone(), types.to_vec()));
                *name
            }
        };
        *self.bound.entry(name.clone()).or_insert(0) += 1;
    }

    fn leave_scope(&mut self, binder: &Binder<'_>) {
        let name = match binder {
            Binder::LetStmt { name, .. } | Binder::Let { name, .. } => {
                if let Some(v) = self.uncertain_lets.get_mut(*name) {
                    v.pop();
                }
                *name
            }
            Binder::For { name, .. } => *name,
            Binder::Allocate { name, .. } => {
                self.allocations.pop();
                *name
            }
            Binder::Realize { name, .. } => {
                self.realizations.pop();
                *name
            }
        };
        if let Some(n) = self.bound.get_mut(name) {
            *n -= 1;
            if *n == 0 {
                self.bound.remove(name);
            }
        }
    }
}
