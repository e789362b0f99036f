//! Proofs: `can_prove` and equality of integer expressions by equality saturation.
//!
//! `can_prove` first strips `likely` tags and simplifies (which decides most comparisons
//! from variable ranges). What the rewrite-based simplifier cannot see — that two
//! differently associated or distributed sums are equal, or differ by a constant — is
//! settled with [`egg`]: both sides go into an e-graph over the ring operations plus
//! min/max, a small set of algebraic laws is saturated under fixed node and iteration
//! limits, and a constant-folding analysis reads off the value of `a - b` if the laws
//! make it constant. The result is sound (every law holds for Int(32)/Int(64) under the
//! no-overflow assumption) and never claims more than it derived.

use crate::likely;
use crate::overflow;
use loopir::address_map::AddressMap;
use loopir::constant;
use loopir::equality;
use loopir::stack::with_stack;
use std::sync::OnceLock;

use egg::{Analysis, DidMerge, EGraph, Id, RecExpr, Rewrite, Runner, Symbol, define_language, rewrite as rw};
use loopir::{BinOp, Expr, ExprKind, ExprNode};

use super::Simplifier;
use crate::ctx::Ctx;
use crate::interval::Interval;
use crate::scope::Scope;

define_language! {
    /// Integer ring terms with min and max; everything else is an opaque symbol.
    enum Arith {
        Num(i64),
        "+" = Add([Id; 2]),
        "*" = Mul([Id; 2]),
        "min" = Min([Id; 2]),
        "max" = Max([Id; 2]),
        Symbol(Symbol),
    }
}

/// Constant folding: the data of an e-class is its value, when known.
#[derive(Default)]
struct ConstFold;

impl Analysis<Arith> for ConstFold {
    type Data = Option<i64>;

    fn make(egraph: &mut EGraph<Arith, Self>, enode: &Arith) -> Self::Data {
        let v = |i: &Id| egraph[*i].data;
        match enode {
            Arith::Num(n) => Some(*n),
            Arith::Add([a, b]) => v(a)?.checked_add(v(b)?),
            Arith::Mul([a, b]) => v(a)?.checked_mul(v(b)?),
            Arith::Min([a, b]) => Some(v(a)?.min(v(b)?)),
            Arith::Max([a, b]) => Some(v(a)?.max(v(b)?)),
            Arith::Symbol(_) => None,
        }
    }

    fn merge(&mut self, to: &mut Self::Data, from: Self::Data) -> DidMerge {
        egg::merge_option(to, from, |_, _| DidMerge(false, false))
    }

    fn modify(egraph: &mut EGraph<Arith, Self>, id: Id) {
        if let Some(c) = egraph[id].data {
            let n = egraph.add(Arith::Num(c));
            egraph.union(id, n);
        }
    }
}

fn laws() -> &'static [Rewrite<Arith, ConstFold>] {
    static LAWS: OnceLock<Vec<Rewrite<Arith, ConstFold>>> = OnceLock::new();
    super::tables::build_once(&LAWS, || {
        vec![
            rw!("add-comm"; "(+ ?a ?b)" => "(+ ?b ?a)"),
            rw!("mul-comm"; "(* ?a ?b)" => "(* ?b ?a)"),
            rw!("add-assoc"; "(+ (+ ?a ?b) ?c)" => "(+ ?a (+ ?b ?c))"),
            rw!("add-assoc-rev"; "(+ ?a (+ ?b ?c))" => "(+ (+ ?a ?b) ?c)"),
            rw!("mul-assoc"; "(* (* ?a ?b) ?c)" => "(* ?a (* ?b ?c))"),
            rw!("distribute"; "(* ?a (+ ?b ?c))" => "(+ (* ?a ?b) (* ?a ?c))"),
            rw!("factor"; "(+ (* ?a ?b) (* ?a ?c))" => "(* ?a (+ ?b ?c))"),
            rw!("factor-one"; "(+ (* ?a ?b) ?a)" => "(* ?a (+ ?b 1))"),
            rw!("double"; "(+ ?a ?a)" => "(* ?a 2)"),
            rw!("cancel"; "(+ ?a (* -1 ?a))" => "0"),
            rw!("add-0"; "(+ ?a 0)" => "?a"),
            rw!("mul-1"; "(* ?a 1)" => "?a"),
            rw!("mul-0"; "(* ?a 0)" => "0"),
            rw!("min-comm"; "(min ?a ?b)" => "(min ?b ?a)"),
            rw!("max-comm"; "(max ?a ?b)" => "(max ?b ?a)"),
            rw!("min-idem"; "(min ?a ?a)" => "?a"),
            rw!("max-idem"; "(max ?a ?a)" => "?a"),
            rw!("add-min"; "(+ (min ?a ?b) ?c)" => "(min (+ ?a ?c) (+ ?b ?c))"),
            rw!("add-max"; "(+ (max ?a ?b) ?c)" => "(max (+ ?a ?c) (+ ?b ?c))"),
            rw!("min-add"; "(min (+ ?a ?c) (+ ?b ?c))" => "(+ (min ?a ?b) ?c)"),
            rw!("max-add"; "(max (+ ?a ?c) (+ ?b ?c))" => "(+ (max ?a ?b) ?c)"),
            rw!("neg-min"; "(* -1 (min ?a ?b))" => "(max (* -1 ?a) (* -1 ?b))"),
            rw!("neg-max"; "(* -1 (max ?a ?b))" => "(min (* -1 ?a) (* -1 ?b))"),
        ]
    })
    .as_slice()
}

/// Largest input (distinct nodes of both sides) handed to the e-graph.
const MAX_INPUT_NODES: usize = 256;
/// E-graph size and iteration limits: saturation stops early, never runs away.
const NODE_LIMIT: usize = 10_000;
const ITER_LIMIT: usize = 12;

/// Converts integer expressions into one [`RecExpr`], sharing nodes by identity and
/// naming every node outside the language (or of another type) as an opaque symbol;
/// structurally equal opaque nodes get one symbol.
struct ToArith {
    rec: RecExpr<Arith>,
    memo: AddressMap<*const ExprNode, Id>,
    opaque: Vec<Expr>,
    nodes: usize,
}

impl ToArith {
    fn leaf(&mut self, e: &Expr) -> Id {
        let name = match e.kind() {
            ExprKind::Variable(n) => format!("v:{n}"),
            _ => {
                let k = match self.opaque.iter().position(|o| equality::equal(o, e)) {
                    Some(k) => k,
                    None => {
                        self.opaque.push(e.clone());
                        self.opaque.len() - 1
                    }
                };
                format!("o:{k}")
            }
        };
        self.rec.add(Arith::Symbol(Symbol::from(name)))
    }

    fn convert(&mut self, e: &Expr) -> Option<Id> {
        if let Some(&id) = self.memo.get(&e.as_ptr()) {
            return Some(id);
        }
        self.nodes += 1;
        if self.nodes > MAX_INPUT_NODES {
            return None;
        }
        let id = match e.kind() {
            ExprKind::IntImm(v) => self.rec.add(Arith::Num(*v)),
            ExprKind::Binary(op @ (BinOp::Add | BinOp::Sub | BinOp::Mul | BinOp::Min | BinOp::Max), a, b) => {
                let (x, y) = (self.convert(a)?, self.convert(b)?);
                match op {
                    BinOp::Add => self.rec.add(Arith::Add([x, y])),
                    BinOp::Mul => self.rec.add(Arith::Mul([x, y])),
                    BinOp::Min => self.rec.add(Arith::Min([x, y])),
                    BinOp::Max => self.rec.add(Arith::Max([x, y])),
                    _ => {
                        let m1 = self.rec.add(Arith::Num(-1));
                        let ny = self.rec.add(Arith::Mul([m1, y]));
                        self.rec.add(Arith::Add([x, ny]))
                    }
                }
            }
            _ => self.leaf(e),
        };
        self.memo.insert(e.as_ptr(), id);
        Some(id)
    }
}

/// The constant value of `a - b` if the algebraic laws establish one (Int(32)/Int(64)
/// scalars only).
pub fn constant_difference(a: &Expr, b: &Expr) -> Option<i64> {
    let ty = a.ty();
    if ty != b.ty() || !overflow::no_overflow_int(ty) || !ty.is_scalar() {
        return None;
    }
    let mut conv =
        ToArith { rec: RecExpr::default(), memo: AddressMap::default(), opaque: Vec::new(), nodes: 0 };
    let x = conv.convert(a)?;
    let y = conv.convert(b)?;
    let m1 = conv.rec.add(Arith::Num(-1));
    let ny = conv.rec.add(Arith::Mul([m1, y]));
    conv.rec.add(Arith::Add([x, ny]));
    let runner = Runner::<Arith, ConstFold, ()>::default()
        .with_node_limit(NODE_LIMIT)
        .with_iter_limit(ITER_LIMIT)
        .with_expr(&conv.rec)
        .run(laws());
    let root = runner.roots.first()?;
    runner.egraph[*root].data
}

/// Whether `a` and `b` are equal for every valuation, as far as equality saturation over
/// the ring and min/max laws can show (structural equality is checked first).
pub fn prove_equal(a: &Expr, b: &Expr) -> bool {
    equality::equal(a, b) || constant_difference(a, b) == Some(0)
}

/// Sound: true only if `cond` holds for every valuation consistent with `bounds` (whose
/// constant ends are used as facts). "False" means "not proved".
pub fn can_prove(ctx: &Ctx, cond: &Expr, bounds: &Scope<'_, Interval>) -> bool {
    let mut s = Simplifier::new(ctx, bounds);
    let c = s.simplify(&likely::remove_likelies(cond));
    prove_simplified(&c)
}

fn prove_simplified(c: &Expr) -> bool {
    if constant::is_const_true(c) {
        return true;
    }
    match c.kind() {
        ExprKind::Binary(BinOp::And, p, q) => with_stack(|| prove_simplified(p) && prove_simplified(q)),
        ExprKind::Binary(BinOp::Or, p, q) => with_stack(|| prove_simplified(p) || prove_simplified(q)),
        ExprKind::Binary(op @ (BinOp::Eq | BinOp::Lt | BinOp::Le), a, b) => match constant_difference(a, b) {
            Some(d) => match op {
                BinOp::Eq => d == 0,
                BinOp::Lt => d < 0,
                _ => d <= 0,
            },
            None => false,
        },
        _ => false,
    }
}
