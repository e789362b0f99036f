//! The stage list read from the text (`docs/reference/bounds.md` §2.3.3, §2.3.4) and the consumer analysis
//! (`docs/reference/bounds.md` §2.1.3).

use loopir::address_map::AddressMap;
use loopir::constant;
use loopir::equality;
use loopir::hash::HashCache;
use loopir::make;
use loopir::stack::with_stack;
use loopir::substitute;
use std::rc::Rc;

use loopir::{CallType, Expr, ExprKind, ExprNode, Intrinsic, Name, Stmt, StmtKind};
use rustc_hash::{FxHashMap, FxHashSet};

use crate::bounds_of_expr::FuncValueBounds;
use crate::boxes::{Region, merge_boxes};
use crate::boxes_touched::boxes_required;
use crate::env::{BoundsEnv, ExplicitBound, ParsedBound, RVar, parse_env_expr};
use crate::error::BoundsError;
use loopir_simplify::ctx::Ctx;
use loopir_simplify::interval::Interval;
use loopir_simplify::scope::Scope;

use super::extern_stage::{ExternArg, ExternDef, buffer_get};
use super::unsupported;

/// One stage (`f.s<k>`) of a Func that is computed (has a produce block).
pub(super) struct Stage {
    /// The Func.
    pub func: Name,
    /// The stage number (0: pure definition).
    pub stage: u32,
    /// The number of update stages of the Func.
    pub last: u32,
    /// Pure argument names, in dimension order.
    pub args: Vec<String>,
    /// Reduction variables of an update stage, in name order.
    pub rvars: Vec<RVar>,
    /// The stage's (condition, expression) pairs whose call sites must be covered (`docs/reference/bounds.md` §2.1.2).
    pub exprs: Vec<(Expr, Expr)>,
    /// Per dimension: the argument is the pure variable in every update (`docs/reference/bounds.md` §2.1.5 step 2).
    pub always_pure: Vec<bool>,
    /// Boxes required of this stage, keyed by (consumer Func, consumer stage). A
    /// consumer's box is shared by all the stages of the producing Func (an update stage
    /// consumes every earlier stage of its Func, so there are O(U²) entries: they must be
    /// cheap, no string or region copies). Sorted by key, one entry per key; built by
    /// appending and sorted once at the end of the consumer analysis, where the entries
    /// of one producer arrive mostly in key order already (a map's insertion was the
    /// larger part of B13's time).
    pub table: Vec<((Name, u32), Rc<Region>)>,
    /// Indices of consumer stages.
    pub consumers: Vec<usize>,
    /// Explicit bounds of the Func's schedule, in schedule order.
    pub explicit: Vec<ParsedBound>,
    /// The loop enclosing the Func's production (None: computed at the root).
    pub compute_level: Option<Name>,
    /// The loop enclosing the Func's storage (None: stored at the root).
    pub store_level: Option<Name>,
    /// The extern definition of an extern stage.
    pub extern_def: Option<ExternDef>,
}

impl Stage {
    /// `f.s<k>`.
    pub fn prefix(&self) -> String {
        format!("{}.s{}", self.func, self.stage)
    }
}

/// A Provide found in the text.
struct ProvideFact {
    /// The stage, from the innermost enclosing loop of the Func (None: loop-less).
    stage: Option<u32>,
    /// Which `produce` block holds it (a Func computed at several places has several).
    block: u32,
    args: Vec<Expr>,
    /// Per argument: the value of the enclosing let it names, if any.
    resolved: Vec<Option<Expr>>,
    values: Vec<Expr>,
    /// Enclosing else-less ifs inside the produce block whose condition is not `likely`,
    /// outermost first (RDom predicates, `docs/reference/bounds.md` §2.3.3).
    conds: Vec<Expr>,
    /// Enclosing if/else branches inside the produce block, outermost first
    /// (specializations, `docs/reference/bounds.md` §2.3.3).
    spec: Vec<(Expr, bool)>,
}

/// A persistent list of conditions (shared tails keep the walk linear).
struct CondList {
    cond: Expr,
    parent: Option<Rc<CondList>>,
}

fn cond_vec(list: &Option<Rc<CondList>>) -> Vec<Expr> {
    let mut out = Vec::new();
    let mut cur = list.clone();
    while let Some(node) = cur {
        out.push(node.cond.clone());
        cur = node.parent.clone();
    }
    out.reverse();
    out
}

/// What the text says about the Funcs (`docs/reference/bounds.md` §2.3.3).
#[derive(Default)]
pub(super) struct Facts {
    pub produced: FxHashSet<String>,
    provides: FxHashMap<String, Vec<ProvideFact>>,
    pub args: FxHashMap<String, Vec<String>>,
    /// The largest stage number seen in names inside `produce f`.
    max_stage: FxHashMap<String, u32>,
    pub fused: bool,
    /// Innermost loop enclosing `produce f` (None: the root).
    pub compute_level: FxHashMap<String, Option<Name>>,
    /// Innermost loop enclosing `hoisted_storage (f)`, else `realize f` (None: the root).
    pub store_level: FxHashMap<String, Option<Name>>,
}

/// `<f>.s<k>.…` → k.
pub(crate) fn stage_of(name: &str, func: &str) -> Option<u32> {
    let rest = name.strip_prefix(func)?.strip_prefix(".s")?;
    let (digits, _) = rest.split_once('.')?;
    digits.parse().ok()
}

struct Item {
    s: Stmt,
    /// The enclosing `produce` block's number.
    block: u32,
    produce: Option<Name>,
    /// Innermost loop since the enclosing produce block.
    innermost_loop: Option<Name>,
    /// Innermost enclosing loop of any Func.
    enclosing: Option<Name>,
    conds: Option<Rc<CondList>>,
    /// Lets enclosing the node inside the current produce block, innermost first.
    lets: Option<Rc<LetList>>,
    /// If/else branches enclosing the node inside the current produce block.
    spec: Option<Rc<SpecList>>,
}

/// A persistent list of if/else decisions: (condition, in the then branch).
struct SpecList {
    cond: Expr,
    then: bool,
    parent: Option<Rc<SpecList>>,
}

fn spec_vec(list: &Option<Rc<SpecList>>) -> Vec<(Expr, bool)> {
    let mut out = Vec::new();
    let mut cur = list.clone();
    while let Some(node) = cur {
        out.push((node.cond.clone(), node.then));
        cur = node.parent.clone();
    }
    out.reverse();
    out
}

/// A persistent list of let bindings, one node per run of directly nested LetStmts.
struct LetList {
    /// The outermost LetStmt of the run: holding the nodes (already at hand) rather than
    /// clones of their names and values keeps long let chains from touching every value's
    /// count, and one list node per run keeps them from allocating per let.
    first: Stmt,
    /// How many LetStmts the run holds, from `first` down through the bodies.
    len: usize,
    parent: Option<Rc<LetList>>,
}

fn let_value(list: &Option<Rc<LetList>>, name: &str) -> Option<Expr> {
    let mut cur = list.as_ref();
    while let Some(node) = cur {
        // The innermost binding of `name` in the run is the last one met going down.
        let mut found = None;
        let mut s = &node.first;
        for _ in 0..node.len {
            let StmtKind::LetStmt { name: n, value, body } = s.kind() else { break };
            if n.as_ref() == name {
                found = Some(value);
            }
            s = body;
        }
        if let Some(v) = found {
            return Some(v.clone());
        }
        cur = node.parent.as_ref();
    }
    None
}

impl Facts {
    /// Records that a name inside `produce func` mentions stage `k`.
    fn note_stage(&mut self, func: &str, k: u32) {
        let m = self.max_stage.entry(func.to_string()).or_default();
        *m = (*m).max(k);
    }

    pub fn collect(s: &Stmt) -> Facts {
        let mut f = Facts::default();
        let mut blocks = 0u32;
        let mut stack = vec![Item {
            s: s.clone(),
            block: 0,
            produce: None,
            innermost_loop: None,
            enclosing: None,
            conds: None,
            lets: None,
            spec: None,
        }];
        while let Some(Item { s: st, block, produce, innermost_loop, enclosing, conds, lets, spec }) =
            stack.pop()
        {
            // A run of LetStmts is taken in one step (an inlined chain nests 10^5 of them):
            // nothing but the stage numbers in the names and the bindings themselves
            // matter, and those go into one list node.
            if let StmtKind::LetStmt { .. } = st.kind() {
                let mut len = 0;
                let mut cur = &st;
                while let StmtKind::LetStmt { name, body, .. } = cur.kind() {
                    if let Some(p) = &produce
                        && let Some(k) = stage_of(name, p)
                    {
                        f.note_stage(p, k);
                    }
                    len += 1;
                    cur = body;
                }
                let lets = match produce {
                    Some(_) => Some(Rc::new(LetList { first: st.clone(), len, parent: lets })),
                    None => lets,
                };
                stack.push(Item {
                    s: cur.clone(),
                    block,
                    produce,
                    innermost_loop,
                    enclosing,
                    conds,
                    lets,
                    spec,
                });
                continue;
            }
            let spec_then = |then: bool| match (st.kind(), &produce) {
                (StmtKind::IfThenElse { condition, else_case: Some(_), .. }, Some(_)) => {
                    Some(Rc::new(SpecList { cond: condition.clone(), then, parent: spec.clone() }))
                }
                (StmtKind::ProducerConsumer { is_producer: true, .. }, _) => None,
                _ => spec.clone(),
            };
            let (spec_a, spec_b) = (spec_then(true), spec_then(false));
            let mut else_branch: Option<Stmt> = None;
            if let StmtKind::IfThenElse { else_case: Some(e), .. } = st.kind() {
                else_branch = Some(e.clone());
            }
            let mut enclosing_for_children = enclosing.clone();
            if let StmtKind::For { name, .. } = st.kind() {
                enclosing_for_children = Some(name.clone());
            }
            let lets_for_children = match st.kind() {
                StmtKind::ProducerConsumer { is_producer: true, .. } => None,
                _ => lets.clone(),
            };
            let child_block = match st.kind() {
                StmtKind::ProducerConsumer { is_producer: true, .. } => {
                    blocks += 1;
                    blocks
                }
                _ => block,
            };
            let mut push =
                |s: &Stmt, produce: &Option<Name>, lp: &Option<Name>, conds: &Option<Rc<CondList>>| {
                    stack.push(Item {
                        s: s.clone(),
                        block: child_block,
                        produce: produce.clone(),
                        innermost_loop: lp.clone(),
                        enclosing: enclosing_for_children.clone(),
                        conds: conds.clone(),
                        lets: lets_for_children.clone(),
                        spec: if else_branch.as_ref().is_some_and(|e| e.same_as(s)) {
                            spec_b.clone()
                        } else {
                            spec_a.clone()
                        },
                    })
                };
            if let Some(p) = &produce {
                let named = match st.kind() {
                    StmtKind::For { name, .. } => stage_of(name, p),
                    _ => None,
                };
                if let Some(k) = named {
                    f.note_stage(p, k);
                }
            }
            match st.kind() {
                StmtKind::ProducerConsumer { name, is_producer: true, body } => {
                    f.produced.insert(name.to_string());
                    f.compute_level.entry(name.to_string()).or_insert_with(|| enclosing.clone());
                    // Outputs: pure arguments from the leading `.loop_max` lets, reversed.
                    let mut names = Vec::new();
                    let mut cur = body.clone();
                    let prefix = format!("{name}.s0.");
                    while let StmtKind::LetStmt { name: ln, body: b, .. } = cur.kind() {
                        if let Some(d) =
                            ln.strip_prefix(prefix.as_str()).and_then(|r| r.strip_suffix(".loop_max"))
                            && !d.contains('.')
                        {
                            names.push(d.to_owned());
                        }
                        let next = b.clone();
                        cur = next;
                    }
                    names.reverse();
                    f.args.entry(name.to_string()).or_insert(names);
                    push(body, &Some(name.clone()), &None, &None);
                }
                StmtKind::Realize { name, bounds, body, .. } => {
                    let dims = bounds
                        .iter()
                        .enumerate()
                        .map(|(i, r)| {
                            r.min
                                .as_variable()
                                .and_then(|v| v.strip_prefix(name.as_ref()))
                                .and_then(|v| v.strip_prefix('.'))
                                .and_then(|v| v.strip_suffix(".min_realized"))
                                .map_or_else(|| format!("_{i}"), str::to_owned)
                        })
                        .collect();
                    f.args.insert(name.to_string(), dims);
                    f.store_level.entry(name.to_string()).or_insert_with(|| enclosing.clone());
                    push(body, &produce, &innermost_loop, &conds);
                }
                StmtKind::For { name, body, .. } => {
                    if name.contains(".fused.") {
                        f.fused = true;
                    }
                    push(body, &produce, &Some(name.clone()), &conds);
                }
                StmtKind::IfThenElse { condition, then_case, else_case } => {
                    let is_likely = condition.is_intrinsic(Intrinsic::Likely);
                    // A memoized Func is computed under `if (<f>.cache_miss)`, which the
                    // memoization pass adds around the whole production: not part of the
                    // Func's definition, which is what the reference infers bounds from.
                    let is_cache_miss =
                        produce.as_ref().zip(condition.as_variable()).is_some_and(|(p, v)| {
                            v.strip_prefix(p.as_ref()).is_some_and(|rest| rest == ".cache_miss")
                        });
                    match else_case {
                        None if produce.is_some() && !is_likely && !is_cache_miss => {
                            let c =
                                Some(Rc::new(CondList { cond: condition.clone(), parent: conds.clone() }));
                            push(then_case, &produce, &innermost_loop, &c);
                        }
                        _ => {
                            push(then_case, &produce, &innermost_loop, &conds);
                            if let Some(e) = else_case {
                                push(e, &produce, &innermost_loop, &conds);
                            }
                        }
                    }
                }
                StmtKind::HoistedStorage { name: Some(name), body } => {
                    // Hoisted storage takes precedence over the realize node inside it.
                    f.store_level.insert(name.to_string(), enclosing.clone());
                    push(body, &produce, &innermost_loop, &conds);
                }
                StmtKind::Provide { name, values, args, .. } => {
                    let stage = innermost_loop.as_deref().and_then(|l| stage_of(l, name));
                    // A left-hand side that is a let-bound name (CSE of a fused or split
                    // expression) stands for the let's value.
                    let resolved = args
                        .iter()
                        .map(|a| {
                            // Only CSE names (never the stage's own variables) are looked up.
                            a.as_variable()
                                .filter(|v| !v.starts_with(&format!("{name}.")))
                                .and_then(|v| let_value(&lets, v))
                        })
                        .collect();
                    f.provides.entry(name.to_string()).or_default().push(ProvideFact {
                        stage,
                        block,
                        resolved,
                        args: args.clone(),
                        values: values.clone(),
                        conds: cond_vec(&conds),
                        spec: spec_vec(&spec),
                    });
                }
                _ => {
                    // Reverse so that the stack pops children in program order.
                    for c in st.children().into_iter().rev() {
                        push(c, &produce, &innermost_loop, &conds);
                    }
                }
            }
        }
        f
    }
}

/// `select(c, t, f)` with a pure condition becomes `if_then_else(c, t, f)`, so that the
/// untaken side need not be covered (`docs/reference/bounds.md` §2.1.2). Each node of the
/// DAG is rewritten once, and its purity decided once.
fn selects_to_if_then_else(e: &Expr) -> Expr {
    #[derive(Default)]
    struct Rewrite {
        rewritten: AddressMap<*const ExprNode, Expr>,
        pure: AddressMap<*const ExprNode, bool>,
    }
    fn go(w: &mut Rewrite, e: &Expr) -> Expr {
        if e.is_leaf() {
            return e.clone();
        }
        if let Some(r) = w.rewritten.get(&e.as_ptr()) {
            return r.clone();
        }
        let inner = with_stack(|| e.map_children(|c| go(w, c)));
        let r = match inner.kind() {
            ExprKind::Select(c, t, f) if t.ty().is_scalar() && is_pure(c, &mut w.pure) => {
                Intrinsic::IfThenElse.call(t.ty(), vec![c.clone(), t.clone(), f.clone()])
            }
            _ => inner,
        };
        w.rewritten.insert(e.as_ptr(), r.clone());
        r
    }
    go(&mut Rewrite::default(), e)
}

/// Whether `e` calls nothing with side effects (memoised per node in `memo`).
fn is_pure(e: &Expr, memo: &mut AddressMap<*const ExprNode, bool>) -> bool {
    if let Some(&r) = memo.get(&e.as_ptr()) {
        return r;
    }
    let own = match e.kind() {
        ExprKind::Call { name, call_type, value_index, .. } => !matches!(
            loopir_simplify::pure_math::effective_call_type(name, *call_type, *value_index),
            CallType::Extern | CallType::ExternCPlusPlus | CallType::Intrinsic
        ),
        _ => true,
    };
    let r = own && with_stack(|| e.children().iter().all(|c| is_pure(c, memo)));
    if !e.is_leaf() {
        memo.insert(e.as_ptr(), r);
    }
    r
}

/// Replaces every sub-expression structurally equal to a pattern by its replacement.
/// Each node of the DAG is compared with the patterns once.
fn replace_exprs(e: &Expr, replacements: &[(Expr, Expr)]) -> Expr {
    fn go(e: &Expr, replacements: &[(Expr, Expr)], memo: &mut AddressMap<*const ExprNode, Expr>) -> Expr {
        if let Some(r) = memo.get(&e.as_ptr()) {
            return r.clone();
        }
        let r = match replacements.iter().find(|(pat, _)| equality::equal(pat, e)) {
            Some((_, r)) => r.clone(),
            None => with_stack(|| e.map_children(|c| go(c, replacements, memo))),
        };
        memo.insert(e.as_ptr(), r.clone());
        r
    }
    if replacements.is_empty() {
        return e.clone();
    }
    go(e, replacements, &mut AddressMap::default())
}

/// The left-hand-side expressions (updates only) and the values of one definition, with
/// its RDom predicates wrapped around each (first predicate innermost, `docs/reference/bounds.md` §2.3.4).
fn definition_exprs(
    f: &str,
    k: usize,
    args: &[String],
    p: &ProvideFact,
    predicates: &[Expr],
) -> [Vec<Expr>; 2] {
    // The pure definition's left-hand side is its pure variables; where the text's Provide
    // has a fused or split expression in their place, that expression stands for the
    // variable in the values too.
    let mut replacements = Vec::new();
    if k == 0 {
        for (d, a) in p.args.iter().enumerate() {
            let pure = format!("{f}.s0.{}", args.get(d).map_or("", String::as_str));
            if a.as_variable().is_none_or(|v| v.as_ref() != pure) && !constant::is_const(a) {
                replacements.push((a.clone(), Expr::var_i32(pure.as_str())));
                if let Some(Some(value)) = p.resolved.get(d) {
                    replacements.push((value.clone(), Expr::var_i32(pure.as_str())));
                }
            }
        }
    }
    let wrap = |e: Expr| {
        predicates.iter().fold(e, |acc, pred| {
            let likely = Intrinsic::Likely.call(pred.ty(), vec![pred.clone()]);
            Intrinsic::IfThenElse.call(acc.ty(), vec![likely, acc])
        })
    };
    let lhs = if k > 0 { p.args.iter().cloned().map(wrap).collect() } else { Vec::new() };
    // The loop-nest builder inlined every let before substituting the split and then
    // CSE'd the result into `t<N>` lets; inlined again, the substituted expression shows.
    let unshare = |v: &Expr| {
        if replacements.is_empty() { v.clone() } else { substitute::inline_lets(v, is_loop_nest_temp) }
    };
    let values = p.values.iter().map(|v| wrap(replace_exprs(&unshare(v), &replacements))).collect();
    [lhs, values]
}

/// `t<N>`: a let made by the loop-nest builder's CSE (a definition's own lets carry the
/// stage prefix).
fn is_loop_nest_temp(name: &str) -> bool {
    name.strip_prefix('t').is_some_and(|d| !d.is_empty() && d.bytes().all(|b| b.is_ascii_digit()))
}

/// One (condition, expression) pair of a stage's list.
type CondValue = (Expr, Expr);

/// One definition of a specialization tree: its if/else path (condition, then-branch)
/// and its left-hand-side and value expressions.
type Piece<'a> = (&'a [(Expr, bool)], [Vec<Expr>; 2]);

/// Combines the definitions of one stage's specialization tree (`docs/reference/bounds.md` §2.1.2): `pieces` are the
/// definitions with their if/else paths; `if (c) A else B` is specialization `c` with
/// definition `A`, `B` holding the later specializations and the default. The default's
/// pairs come first, then the specializations' from the last to the first; conditions are
/// simplified; a list whose values are all equal collapses to one pair with condition true.
fn specialized(ctx: &Ctx, stage: &str, pieces: &[Piece<'_>]) -> Result<[Vec<CondValue>; 2], BoundsError> {
    let t = || constant::make_bool(true, 1);
    let mut result: [Vec<CondValue>; 2] = [Vec::new(), Vec::new()];
    match pieces {
        [] => return Err(unsupported(format!("a specialization of {stage} that defines nothing"))),
        [([], exprs)] => {
            for i in 0..2 {
                result[i] = exprs[i].iter().map(|e| (t(), e.clone())).collect();
            }
            return Ok(result);
        }
        _ => {}
    }
    let Some(Some((c, _))) = pieces.first().map(|(path, _)| path.first()) else {
        return Err(unsupported(format!(
            "specializations of {stage} (a definition outside the if/else tree)"
        )));
    };
    if pieces.iter().any(|(path, _)| path.first().is_none_or(|(d, _)| !equality::equal(c, d))) {
        return Err(unsupported(format!("specializations of {stage} (branches under different conditions)")));
    }
    let split = |then: bool| -> Vec<Piece<'_>> {
        pieces
            .iter()
            .filter(|(path, _)| path.first().is_some_and(|(_, th)| *th == then))
            .map(|(path, exprs)| (&path[1..], exprs.clone()))
            .collect()
    };
    let (then_pieces, else_pieces) = (split(true), split(false));
    let empty = Scope::new();
    let simplify = |e: Expr| loopir_simplify::simplify::simplify(ctx, &e, &empty);
    let mut rest = match (else_pieces.is_empty(), then_pieces.first()) {
        // An else branch that defines nothing is `specialize_fail`'s assertion: the last
        // specialization (condition true) and, under it, the default definition
        // (condition false). Neither prints its values, but a specialization only
        // reschedules its definition, so they are those of the branch beside it.
        (true, Some((_, exprs))) => {
            let f = || constant::make_bool(false, 1);
            exprs.clone().map(|es| {
                es.iter().map(|e| (f(), e.clone())).chain(es.iter().map(|e| (t(), e.clone()))).collect()
            })
        }
        _ => with_stack(|| specialized(ctx, stage, &else_pieces))?,
    };
    let mut own = with_stack(|| specialized(ctx, stage, &then_pieces))?;
    for i in 0..2 {
        for (cond, _) in rest[i].iter_mut() {
            *cond = simplify(make::and(make::not(c.clone()), cond.clone()));
        }
        for (cond, _) in own[i].iter_mut() {
            *cond = simplify(make::and(c.clone(), cond.clone()));
        }
        result[i] = std::mem::take(&mut rest[i]);
        result[i].append(&mut own[i]);
        if result[i].len() > 1 && result[i].iter().all(|(_, e)| equality::equal(e, &result[i][0].1)) {
            let e = result[i][0].1.clone();
            result[i] = vec![(t(), e)];
        }
    }
    Ok(result)
}

/// The stage of each of `f`'s Provides (in text order). A Provide inside a loop of the
/// Func has its loop's stage. One outside every loop (a zero-dimensional Func, or an
/// update that names no variable) is placed by text order, which is stage order within
/// each `produce` block: a run of such Provides between two known stages fills the
/// stages missing there, one each, or all the one missing stage (its specializations).
fn provide_stages(f: &str, provides: &[ProvideFact], stage_count: usize) -> Result<Vec<usize>, BoundsError> {
    let mut out: Vec<usize> = Vec::with_capacity(provides.len());
    let mut i = 0;
    while i < provides.len() {
        if let Some(k) = provides[i].stage {
            out.push(k as usize);
            i += 1;
            continue;
        }
        let block = provides[i].block;
        let run_end = (i..provides.len())
            .find(|&j| provides[j].stage.is_some() || provides[j].block != block)
            .unwrap_or(provides.len());
        let before = (0..i).rev().take_while(|&j| provides[j].block == block).find_map(|j| provides[j].stage);
        let after = provides[run_end..].iter().take_while(|p| p.block == block).find_map(|p| p.stage);
        let lo = before.map_or(0, |k| k as usize + 1);
        let hi = after.map_or(stage_count, |k| k as usize);
        let run = run_end - i;
        if hi == lo + 1 {
            out.extend(std::iter::repeat_n(lo, run));
        } else if hi > lo && hi - lo == run {
            out.extend(lo..hi);
        } else {
            return Err(unsupported(format!(
                "loop-less stages of {f}: {run} Provides outside loops for stages {lo} to {}",
                hi.saturating_sub(1)
            )));
        }
        i = run_end;
    }
    Ok(out)
}

/// Whether two Provides are the same definition: the same left-hand side, values,
/// predicates and specialization path.
fn same_definition(a: &ProvideFact, b: &ProvideFact) -> bool {
    let same =
        |x: &[Expr], y: &[Expr]| x.len() == y.len() && x.iter().zip(y).all(|(x, y)| equality::equal(x, y));
    let same_path = |x: &[(Expr, bool)], y: &[(Expr, bool)]| {
        x.len() == y.len() && x.iter().zip(y).all(|((x, s), (y, t))| s == t && equality::equal(x, y))
    };
    same(&a.args, &b.args)
        && same(&a.values, &b.values)
        && same(&a.conds, &b.conds)
        && same_path(&a.spec, &b.spec)
}

/// A structural hash of what [`same_definition`] compares: the same definition always
/// has the same fingerprint.
fn fingerprint(hashes: &mut HashCache, p: &ProvideFact) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut h = rustc_hash::FxHasher::default();
    for list in [&p.args, &p.values, &p.conds] {
        list.len().hash(&mut h);
        for e in list {
            hashes.hash(e).hash(&mut h);
        }
    }
    p.spec.len().hash(&mut h);
    for (c, then) in &p.spec {
        hashes.hash(c).hash(&mut h);
        then.hash(&mut h);
    }
    h.finish()
}

/// Builds the stage list in realization order (`docs/reference/bounds.md` §2.3.3, §2.3.4).
pub(super) fn build_stages(ctx: &Ctx, facts: &Facts, env: &BoundsEnv) -> Result<Vec<Stage>, BoundsError> {
    let mut stages = Vec::new();
    for f in &env.order {
        if !facts.produced.contains(f.as_str()) {
            continue; // inlined or an input
        }
        // The env's argument names are authoritative; the text's (realize node, leading
        // loop lets of an output) are the fallback.
        let args = match env.funcs.get(f.as_str()).map(|fe| &fe.args) {
            Some(a) if !a.is_empty() => a.clone(),
            _ => facts
                .args
                .get(f.as_str())
                .cloned()
                .ok_or_else(|| unsupported(format!("no pure arguments for {f}")))?,
        };
        let empty = Vec::new();
        let provides = facts.provides.get(f.as_str()).unwrap_or(&empty);
        let func_env = env.funcs.get(f.as_str());
        let last = facts.max_stage.get(f.as_str()).copied().unwrap_or(0);
        let stage_count = (last as usize + 1).max(1 + func_env.map_or(0, |fe| fe.updates.len()));
        let provide_stages = provide_stages(f, provides, stage_count)?;
        // At least 1; a stage number from the text can be u32::MAX, so the count may not
        // fit back in a u32.
        let last = u32::try_from(stage_count - 1).unwrap_or(u32::MAX);
        let extern_def = ExternDef::from_env(env, f)?;
        let proxy = super::extern_stage::proxy_of(env, f, &args)?;
        let is_extern = extern_def.is_some() || proxy.is_some();
        if is_extern {
            // An extern stage: no Provide. With a proxy, the proxy is its one value (the
            // reference reads it instead of querying); without, its consumer boxes come
            // from the query (`docs/reference/bounds.md` §2.1.3).
            if !provides.is_empty() || last > 0 {
                return Err(unsupported(format!("extern Func {f} with Provides or updates")));
            }
            let exprs = proxy
                .iter()
                .map(|value| (constant::make_bool(true, 1), selects_to_if_then_else(value)))
                .collect();
            stages.push(Stage {
                func: loopir::name(f),
                stage: 0,
                last: 0,
                args: args.clone(),
                rvars: Vec::new(),
                exprs,
                always_pure: vec![false; args.len()],
                table: Vec::new(),
                consumers: Vec::new(),
                explicit: Vec::new(),
                compute_level: facts.compute_level.get(f.as_str()).cloned().flatten(),
                store_level: facts.store_level.get(f.as_str()).cloned().flatten(),
                extern_def,
            });
        }
        let explicit = func_env
            .map_or(&[][..], |fe| fe.bounds.as_slice())
            .iter()
            .map(ExplicitBound::parse)
            .collect::<Result<Vec<_>, _>>()?;
        // Every stage of a Func defined in the text needs a Provide. Checked before a slot
        // is made per stage: a stage number from the text can be any size.
        if !is_extern {
            let mut seen: Vec<usize> = provide_stages.clone();
            seen.sort_unstable();
            seen.dedup();
            if seen.len() < stage_count {
                let missing = seen.iter().enumerate().find(|&(i, &k)| i != k).map_or(seen.len(), |(i, _)| i);
                return Err(unsupported(format!("no Provide for stage {f}.s{missing}")));
            }
        }
        let mut per_stage: Vec<Vec<&ProvideFact>> = vec![Vec::new(); stage_count];
        // The same definition produced at several places (a Func with an update scheduled
        // inline is computed within each consumer) is one definition. A Provide is
        // compared only with the kept ones of its fingerprint: a block of thousands of
        // different Provides costs a hash each, not a comparison with every one before.
        let mut kept: Vec<FxHashMap<u64, Vec<usize>>> = vec![FxHashMap::default(); stage_count];
        let mut hashes = HashCache::default();
        for (p, &k) in provides.iter().zip(&provide_stages) {
            let (Some(slot), Some(kept)) = (per_stage.get_mut(k), kept.get_mut(k)) else {
                return Err(unsupported(format!("Provide to {f} outside its stages")));
            };
            let same_fingerprint = kept.entry(fingerprint(&mut hashes, p)).or_default();
            if same_fingerprint.iter().any(|&i| {
                ctx.count(|s| s.definitions_compared += 1);
                slot.get(i).is_some_and(|q| same_definition(q, p))
            }) {
                continue;
            }
            same_fingerprint.push(slot.len());
            slot.push(p);
        }
        // Dimensions that are the pure variable in every update (and specialization).
        let always_pure: Vec<bool> = (0..args.len())
            .map(|d| {
                per_stage.iter().enumerate().skip(1).all(|(k, ps)| {
                    !ps.is_empty()
                        && ps.iter().all(|p| {
                            p.args.get(d).and_then(|a| a.as_variable()).is_some_and(|v| {
                                let pure = format!("{f}.s{k}.{}", args[d]);
                                v.as_ref() == pure || v.strip_suffix(".guarded") == Some(pure.as_str())
                            })
                        })
                })
            })
            .collect();
        let first = stages.len();
        for (k, ps) in per_stage.iter().enumerate().filter(|_| !is_extern) {
            let mut rvars = Vec::new();
            let mut env_predicates = Vec::new();
            if k > 0
                && let Some(u) = func_env.and_then(|fe| fe.updates.get(k - 1))
            {
                rvars = u.rvars.clone();
                rvars.sort_by(|a, b| a.name.cmp(&b.name));
                for text in &u.predicates {
                    env_predicates.push(env.parse_expr(text)?);
                }
            }
            let mut pieces = Vec::with_capacity(ps.len());
            for p in ps {
                let predicates = if k == 0 {
                    if !p.conds.is_empty() {
                        return Err(unsupported(format!("conditional pure definition of {f}")));
                    }
                    Vec::new()
                } else if env_predicates.is_empty() {
                    p.conds.clone()
                } else {
                    env_predicates.clone()
                };
                pieces.push((p.spec.as_slice(), definition_exprs(f, k, &args, p, &predicates)));
            }
            let [lhs, values] = specialized(ctx, &format!("{f}.s{k}"), &pieces)?;
            let exprs =
                lhs.into_iter().chain(values).map(|(c, e)| (c, selects_to_if_then_else(&e))).collect();
            stages.push(Stage {
                func: loopir::name(f),
                stage: k as u32,
                last,
                args: args.clone(),
                rvars,
                exprs,
                always_pure: always_pure.clone(),
                table: Vec::new(),
                consumers: Vec::new(),
                explicit: Vec::new(),
                compute_level: facts.compute_level.get(f.as_str()).cloned().flatten(),
                store_level: facts.store_level.get(f.as_str()).cloned().flatten(),
                extern_def: None,
            });
        }
        for st in &mut stages[first..] {
            st.explicit = explicit.clone();
        }
    }
    Ok(stages)
}

/// The consumer analysis and the output boxes (`docs/reference/bounds.md` §2.1.3).
pub(super) fn consumer_analysis(
    ctx: &Ctx,
    stages: &mut [Stage],
    env: &BoundsEnv,
    func_bounds: &FuncValueBounds,
) -> Result<FxHashSet<Name>, BoundsError> {
    let mut has_extern_consumer = FxHashSet::default();
    // The stages of each Func, in stage order: a consumer's producers are found from the
    // Funcs it calls, not by testing every earlier stage (O(St²) for long chains).
    let mut by_func: FxHashMap<Name, Vec<usize>> = FxHashMap::default();
    for (i, st) in stages.iter().enumerate() {
        by_func.entry(st.func.clone()).or_default().push(i);
    }
    for c in 0..stages.len() {
        let prefix = stages[c].prefix();
        let mut scope: Scope<Interval> = Scope::new();
        let vars = stages[c].args.iter().chain(stages[c].rvars.iter().map(|r| &r.name));
        for d in vars {
            let v = format!("{prefix}.{d}");
            let i = Interval::new(
                Expr::var_i32(format!("{v}.min").as_str()),
                Expr::var_i32(format!("{v}.max").as_str()),
            );
            let _ = scope.push(format!("{v}.guarded").as_str(), i.clone());
            let _ = scope.push(v.as_str(), i);
        }
        let mut boxes: FxHashMap<Name, Region> = FxHashMap::default();
        if let Some(def) = &stages[c].extern_def {
            for a in &def.args {
                if let ExternArg::Func { name, dims, .. } = a {
                    has_extern_consumer.insert(loopir::name(name));
                    let buf = format!("{name}.o0.bounds_query.{}", stages[c].func);
                    let mut bounds = Vec::with_capacity(*dims);
                    for d in 0..*dims {
                        bounds.push(Interval::new(buffer_get("min", &buf, d)?, buffer_get("max", &buf, d)?));
                    }
                    let b = Region::new(bounds);
                    match boxes.get_mut(name.as_str()) {
                        Some(existing) => merge_boxes(ctx, existing, &b)?,
                        None => {
                            boxes.insert(loopir::name(name), b);
                        }
                    }
                }
            }
        }
        for (cond, e) in &stages[c].exprs {
            for (callee, mut b) in boxes_required(ctx, e, &scope, func_bounds)? {
                b.used = Some(cond.clone());
                match boxes.get_mut(&callee) {
                    Some(existing) => merge_boxes(ctx, existing, &b)?,
                    None => {
                        boxes.insert(callee, b);
                    }
                }
            }
        }
        let consumer_func = stages[c].func.clone();
        let consumer_stage = stages[c].stage;
        // Each callee with a box, with the earlier stages that produce it. An update stage
        // consumes every earlier stage of its Func, so the entries below are O(U²) for U
        // updates: the per-callee work (the check, the shared copy) is done once per
        // callee, and each (producer, consumer) pair costs two pushes.
        let mut callees: Vec<(usize, &Region, &[usize])> = boxes
            .iter()
            .filter(|(_, b)| !b.bounds.is_empty())
            .filter_map(|(f, b)| {
                let producers = by_func.get(f)?;
                let earlier = producers.partition_point(|&p| p < c);
                (earlier > 0).then(|| (producers[0], b, &producers[..earlier]))
            })
            .collect();
        // Halide reports the unbounded call of the earliest producing stage first.
        callees.sort_unstable_by_key(|&(first, ..)| first);
        for (_, b, producers) in callees {
            if let Some(k) = b.bounds.iter().position(|i| !i.is_bounded()) {
                let which = if consumer_stage == 0 {
                    // Halide's message, two spaces after "definition" included.
                    "The pure definition ".to_owned()
                } else {
                    format!("Update definition number {}", consumer_stage - 1)
                };
                return Err(BoundsError::UnboundedCall(format!(
                    "{which} of Function {consumer_func} calls function {} in an unbounded way in dimension {k}",
                    stages[producers[0]].func
                )));
            }
            // One shared copy of the callee's box, with the always-true condition dropped.
            let mut shared = b.clone();
            if shared.used.as_ref().is_some_and(constant::is_const_true) {
                shared.used = None;
            }
            let shared = Rc::new(shared);
            for &p in producers {
                let producer = &mut stages[p];
                producer.table.push(((consumer_func.clone(), consumer_stage), Rc::clone(&shared)));
                producer.consumers.push(c);
            }
        }
    }
    // Each stage of an output gets the output buffer's region under its own key.
    for o in &env.outputs {
        let Some(stage) = stages.iter().find(|s| s.func.as_ref() == o.func) else { continue };
        let dims = stage.args.len();
        let mut bounds = Vec::with_capacity(dims);
        for d in 0..dims {
            let constraint = o.constraints.get(d);
            let min = match constraint.and_then(|c| c.min.as_deref()) {
                Some(t) => parse_env_expr(t)?,
                None => Expr::var_i32(format!("{}.min.{d}", o.buffer).as_str()),
            };
            let extent = match constraint.and_then(|c| c.extent.as_deref()) {
                Some(t) => parse_env_expr(t)?,
                None => Expr::var_i32(format!("{}.extent.{d}", o.buffer).as_str()),
            };
            bounds.push(Interval::new(min.clone(), make::sub(make::add(min, extent), Expr::i32(1))));
        }
        for stage in stages.iter_mut().filter(|s| s.func.as_ref() == o.func) {
            stage.table.push(((loopir::name(&o.func), stage.stage), Rc::new(Region::new(bounds.clone()))));
        }
    }
    for stage in stages.iter_mut() {
        // As a map would: ordered by key, a later entry replacing an earlier one with the
        // same key (the stable sort keeps equal keys in insertion order; keep the last).
        stage.table.sort_by(|a, b| a.0.cmp(&b.0));
        let mut deduped: Vec<((Name, u32), Rc<Region>)> = Vec::with_capacity(stage.table.len());
        for entry in stage.table.drain(..) {
            match deduped.last_mut() {
                Some(last) if last.0 == entry.0 => *last = entry,
                _ => deduped.push(entry),
            }
        }
        stage.table = deduped;
    }
    Ok(has_extern_consumer)
}
