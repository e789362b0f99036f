//! Rewrite rules written as the math they encode, in the reference's notation:
//!
//! ```text
//! select(x, y + z, y)  ->  y + select(x, z, 0)
//! select(x, y*c0, c1)  ->  select(x, y, fold(c1/c0))*c0   if c1 % c0 == 0
//! ```
//!
//! `x y z w u v` match any expression (a name used twice must match structurally equal
//! expressions), `c0 … c4` match scalar constants, integer literals match a constant of
//! that value, `true` / `false` the boolean constants. On the right-hand side the same
//! names stand for what they matched, literals take the type their context gives them,
//! `fold(e)` is `e` computed on constants, and `a` / `b` are the rewritten node's own
//! first and second operands (for rules that keep one side). The result is rebuilt through the
//! simplifier's constructors, so it comes back simplified, as when the reference
//! re-simplifies a rewritten node.
//!
//! Rules are tried in order and the first that matches (and whose condition holds)
//! wins, as in the reference's rule lists.

use crate::overflow;
use loopir::constant;
use loopir::equality;
use std::sync::OnceLock;

use loopir::stack::with_stack;
use loopir::{BinOp, Expr, ExprKind, Type};

use super::Simplifier;

/// A pattern (left-hand side) or template (right-hand side).
#[derive(Debug)]
pub(super) enum Pat {
    Wild(usize),
    Const(usize),
    Operand(usize),
    Lit(i64),
    Bool(bool),
    Bin(BinOp, Box<Pat>, Box<Pat>),
    Not(Box<Pat>),
    Select(Box<Pat>, Box<Pat>, Box<Pat>),
    Fold(Box<Pat>),
    /// `neg(x)`: the simplified negation of what name `x` already matched (`x < y`
    /// against `y <= x`, `x == y` against `x != y` either way round, `!x` against `x`, and
    /// anything else against `!x`), as the reference's `neg` matcher.
    Neg(usize),
}

/// What the names of a rule matched: parts of the expression being rewritten, borrowed
/// (most candidate rules fail, and a handle per name would cost a reference-count
/// increment and decrement each).
#[derive(Default)]
pub(super) struct Bindings<'e> {
    wild: [Option<&'e Expr>; 6],
    constant: [Option<&'e Expr>; 5],
}

impl<'e> Bindings<'e> {
    /// The integer value of constant `ci` (0 if unbound or not an integer).
    pub fn c(&self, i: usize) -> i128 {
        self.constant.get(i).copied().flatten().and_then(constant::as_const_i128).unwrap_or(0)
    }

    /// Whether constant `ci` is negative with a negation that is positive (of any
    /// numeric type; for integers the reference's `c < 0 && -c > 0`, computed in 64 bits).
    pub fn is_negative(&self, i: usize) -> bool {
        match self.constant.get(i).copied().flatten().and_then(constant::const_value) {
            Some(constant::Const::Int(v)) => v < 0 && v.checked_neg().is_some_and(|n| n > 0),
            Some(constant::Const::Float(f)) => f < 0.0,
            _ => false,
        }
    }

    /// Whether constant `ci` is the smallest value of its type.
    pub fn is_type_min(&self, i: usize) -> bool {
        let c = self.constant.get(i).copied().flatten();
        c.is_some_and(|c| constant::type_min(c.ty()).is_some_and(|m| equality::equal(&m, c)))
    }

    /// Whether constant `ci` is the largest value of its type.
    pub fn is_type_max(&self, i: usize) -> bool {
        let c = self.constant.get(i).copied().flatten();
        c.is_some_and(|c| constant::type_max(c.ty()).is_some_and(|m| equality::equal(&m, c)))
    }

    /// Whether a constant a rule computes from the bound ones (`None`: beyond 128 bits)
    /// folds without overflowing in their type, as the reference's `!overflows(...)`
    /// conditions ask: its folder flags overflow only for signed integers of 32 bits or
    /// more (in their own width, not in 64 bits), and lets narrower signed integers and
    /// unsigned ones wrap.
    pub fn fits(&self, v: Option<i128>) -> bool {
        let ty = self.constant.iter().flatten().next().map(|c| c.ty());
        match (ty, v) {
            (_, None) => false,
            (Some(t), Some(v)) if t.is_int() && t.bits() >= 32 => {
                if t.bits() <= 32 {
                    i32::try_from(v).is_ok()
                } else {
                    i64::try_from(v).is_ok()
                }
            }
            (Some(_), Some(_)) => true,
            (None, Some(v)) => i64::try_from(v).is_ok(),
        }
    }

    /// Whether `ci*cj` folds without overflowing (see [`Bindings::fits`]).
    pub fn product_fits(&self, i: usize, j: usize) -> bool {
        self.fits(self.c(i).checked_mul(self.c(j)))
    }

    /// What wildcard `i` (`x` = 0, `y` = 1, ...) matched.
    pub fn wild(&self, i: usize) -> Option<&'e Expr> {
        self.wild.get(i).copied().flatten()
    }
}

/// A condition on the bindings.
pub(super) type Guard = fn(&Bindings) -> bool;

/// The remainder of `a / b` truncated toward zero, as the reference's rule conditions
/// compute it on 64-bit constants; a value no condition compares equal to when `b` is 0.
pub(super) fn rem(a: i128, b: i128) -> i128 {
    a.checked_rem(b).unwrap_or(i128::MIN)
}

/// The types (and facts) a group of rules is limited to; a rule applies when all of its
/// flags hold.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) struct When(u16);

impl When {
    pub const ALWAYS: When = When(0);
    /// Integer arithmetic that cannot overflow (signed of at least 32 bits), or floats.
    pub const NO_OVERFLOW: When = When(1);
    /// Signed integers of at least 32 bits.
    pub const NO_OVERFLOW_INT: When = When(2);
    /// As [`When::NO_OVERFLOW_INT`], scalars only.
    pub const NO_OVERFLOW_SCALAR_INT: When = When(4);
    pub const INT: When = When(8);
    pub const FLOAT: When = When(16);
    pub const NOT_FLOAT: When = When(32);
    /// The denominator of a division is known not to be zero.
    pub const DENOMINATOR_NON_ZERO: When = When(128);
    /// Not an unsigned integer.
    pub const NOT_UINT: When = When(256);
}

impl std::ops::BitOr for When {
    type Output = When;
    fn bitor(self, other: When) -> When {
        When(self.0 | other.0)
    }
}

/// What the flags of [`When`] are checked against.
pub(super) struct Context {
    /// The type the rules' conditions talk about (the operands' type).
    pub ty: Type,
    /// Whether a division's denominator is known not to be zero.
    pub denominator_non_zero: bool,
}

impl Context {
    /// The flags of [`When`] that hold here, as one mask (computed once per rule list).
    fn mask(&self) -> u16 {
        (0..16).map(|bit| When(1 << bit)).filter(|flag| self.allows(*flag)).fold(0, |m, f| m | f.0)
    }

    fn allows(&self, when: When) -> bool {
        let ty = self.ty;
        let checks = [
            (When::NO_OVERFLOW, overflow::no_overflow(ty)),
            (When::NO_OVERFLOW_INT, overflow::no_overflow_int(ty)),
            (When::NO_OVERFLOW_SCALAR_INT, overflow::no_overflow_int(ty) && ty.is_scalar()),
            (When::INT, ty.is_int()),
            (When::FLOAT, ty.is_float()),
            (When::NOT_FLOAT, !ty.is_float()),
            (When::DENOMINATOR_NON_ZERO, self.denominator_non_zero),
            (When::NOT_UINT, !ty.is_uint()),
        ];
        checks.iter().all(|(flag, holds)| when.0 & flag.0 == 0 || *holds)
    }
}

/// One rule: pattern, template, optional condition, and the types it applies to.
pub(super) struct Rule {
    /// Where the rule comes from: the line of the reference's source it was taken from.
    name: &'static str,
    lhs: Pat,
    rhs: Pat,
    guard: Option<Guard>,
    /// A condition the reference checks with `can_prove`: built from the bindings through
    /// the simplifier, the rule applies when it comes back as `true`.
    proved: Option<Pat>,
    when: When,
    /// The node kinds the pattern accepts at its top (see [`Shape`]), kept beside the rule
    /// so that most rules are turned down without walking their pattern tree.
    shape: Shape,
}

/// One bit per kind of node a pattern position can meet: a constant, a binary node of
/// each operator, a `!`, a select, anything else, and no node at all (an operand the
/// expression does not have).
const CONST_BIT: u32 = 1;
const NOT_BIT: u32 = 1 << 16;
const SELECT_BIT: u32 = 1 << 17;
const OTHER_BIT: u32 = 1 << 18;
const NONE_BIT: u32 = 1 << 19;
const ANY_BITS: u32 = u32::MAX;
/// How many kinds there are (the bits above).
const KINDS: usize = 20;

fn bin_bit(op: BinOp) -> u32 {
    1 << (1 + op as u32)
}

/// The kinds of node a pattern accepts at its root, as [`shape_matches`] reads it.
fn pat_bits(p: &Pat) -> u32 {
    match p {
        Pat::Wild(_) | Pat::Bool(_) | Pat::Neg(_) => ANY_BITS,
        Pat::Const(_) | Pat::Lit(_) => CONST_BIT,
        Pat::Bin(op, ..) => bin_bit(*op),
        Pat::Not(_) => NOT_BIT,
        Pat::Select(..) => SELECT_BIT,
        Pat::Fold(_) | Pat::Operand(_) => 0,
    }
}

/// The kind of `e`, as a bit of [`pat_bits`].
fn expr_bit(e: &Expr) -> u32 {
    if constant::is_const(e) {
        return CONST_BIT;
    }
    match e.kind() {
        ExprKind::Binary(op, ..) => bin_bit(*op),
        ExprKind::Not(_) => NOT_BIT,
        ExprKind::Select(..) => SELECT_BIT,
        _ => OTHER_BIT,
    }
}

/// Kinds at the root, at its first two operands, and at their first two operands each
/// (a necessary condition for [`shape_matches`]: a rule whose bits miss the expression's
/// cannot match it). A select's operands here are its condition and true value.
#[derive(Clone, Copy)]
struct Shape([u32; 7]);

/// The first two operands of a pattern node, where it has them.
fn pat_operands(p: &Pat) -> [Option<&Pat>; 2] {
    match p {
        Pat::Bin(_, a, b) => [Some(a), Some(b)],
        Pat::Not(a) => [Some(a), None],
        Pat::Select(c, t, _) => [Some(c), Some(t)],
        _ => [None, None],
    }
}

/// The first two operands of an expression node, for the kinds [`Shape`] compares.
fn expr_operands(e: &Expr) -> [Option<&Expr>; 2] {
    match e.kind() {
        ExprKind::Binary(_, a, b) => [Some(a), Some(b)],
        ExprKind::Not(a) => [Some(a), None],
        ExprKind::Select(c, t, _) => [Some(c), Some(t)],
        _ => [None, None],
    }
}

impl Shape {
    /// The kinds at the seven positions of a tree, given how to read a node's kind and
    /// its first two operands, and the bits of a position the tree does not have.
    fn of<'a, T>(
        root: &'a T,
        kind: impl Fn(&'a T) -> u32,
        operands: impl Fn(&'a T) -> [Option<&'a T>; 2],
        absent: u32,
    ) -> Shape {
        let bits = |x: Option<&'a T>| x.map_or(absent, &kind);
        let [a, b] = operands(root);
        let [aa, ab] = a.map_or([None, None], &operands);
        let [ba, bb] = b.map_or([None, None], &operands);
        Shape([kind(root), bits(a), bits(b), bits(aa), bits(ab), bits(ba), bits(bb)])
    }

    /// A pattern's shape: a position it does not constrain accepts anything.
    fn of_pat(p: &Pat) -> Shape {
        Shape::of(p, pat_bits, pat_operands, ANY_BITS)
    }

    /// An expression's shape: one bit per position, `NONE_BIT` where it has no node.
    fn of_expr(e: &Expr) -> Shape {
        Shape::of(e, expr_bit, expr_operands, NONE_BIT)
    }

    fn admits(&self, e: &Shape) -> bool {
        self.0.iter().zip(&e.0).all(|(r, x)| r & x != 0)
    }

    /// Where an expression's shape (one bit per position) is filed in a [`RuleTable`].
    fn slot(&self) -> usize {
        self.0[1].trailing_zeros() as usize * KINDS + self.0[2].trailing_zeros() as usize
    }
}

/// A list of rules in the reference's order, with, per kind of the first two operands
/// of an expression, the rules that can match it (worked out on first use): a rewrite
/// looks at a handful of rules instead of scanning the list.
pub(super) struct RuleTable {
    rules: Vec<Rule>,
    by_operands: Box<[OnceLock<Box<[u32]>>]>,
    /// The names of the rules whose text did not parse (a test requires none).
    malformed: Vec<&'static str>,
}

impl RuleTable {
    /// A table of named rules, in order. A rule whose text does not parse is left out of
    /// the table and its name kept in [`RuleTable::malformed`], which a test requires to be
    /// empty: a typo in a rule fails the test suite rather than vanish from the simplifier.
    pub fn named(rules: impl IntoIterator<Item = (&'static str, Option<Rule>)>) -> RuleTable {
        let mut table = RuleTable {
            rules: Vec::new(),
            by_operands: (0..KINDS * KINDS).map(|_| OnceLock::new()).collect(),
            malformed: Vec::new(),
        };
        for (name, rule) in rules {
            match rule {
                Some(rule) => table.rules.push(Rule { name, ..rule }),
                None => table.malformed.push(name),
            }
        }
        table
    }

    /// The rules, in order.
    #[cfg(test)]
    pub fn rules(&self) -> &[Rule] {
        &self.rules
    }

    /// The names of the rules whose text did not parse.
    #[cfg(test)]
    pub fn malformed(&self) -> &[&'static str] {
        &self.malformed
    }

    /// The rules whose operand kinds admit `shape`'s, in order.
    fn candidates(&self, shape: &Shape) -> impl Iterator<Item = &Rule> {
        let slot = shape.slot();
        let indices = match self.by_operands.get(slot) {
            Some(cell) => &cell.get_or_init(|| {
                let mut operands = Shape([ANY_BITS; 7]);
                operands.0[1] = shape.0[1];
                operands.0[2] = shape.0[2];
                (0..self.rules.len())
                    .filter(|&i| self.rules[i].shape.admits(&operands))
                    .filter_map(|i| u32::try_from(i).ok())
                    .collect()
            })[..],
            None => &[][..],
        };
        indices.iter().filter_map(|&i| self.rules.get(i as usize))
    }
}

impl Rule {
    /// Parses `lhs` and `rhs`; `None` for a malformed rule text (see [`RuleTable::named`]).
    pub fn new(lhs: &str, rhs: &str, guard: Option<Guard>) -> Option<Rule> {
        Rule::when(lhs, rhs, guard, When::ALWAYS)
    }

    /// As [`Rule::new`], for the types (and facts) `when` allows.
    pub fn when(lhs: &str, rhs: &str, guard: Option<Guard>, when: When) -> Option<Rule> {
        parse(lhs).zip(parse(rhs)).map(|(lhs, rhs)| Rule {
            name: "",
            shape: Shape::of_pat(&lhs),
            lhs,
            rhs,
            guard,
            proved: None,
            when,
        })
    }

    /// As [`Rule::when`], for a rule the reference guards with `can_prove(cond)`.
    pub fn proved(lhs: &str, rhs: &str, cond: &str, when: When) -> Option<Rule> {
        parse(lhs).zip(parse(rhs)).zip(parse(cond)).map(|((lhs, rhs), cond)| Rule {
            name: "",
            shape: Shape::of_pat(&lhs),
            lhs,
            rhs,
            guard: None,
            proved: Some(cond),
            when,
        })
    }
}

/// The first rule of `rules` that rewrites `e`, applied.
pub(super) fn apply(s: &mut Simplifier<'_, '_, '_>, rules: &RuleTable, e: &Expr) -> Option<Expr> {
    let context = Context { ty: e.ty(), denominator_non_zero: false };
    apply_in(s, rules, e, &context)
}

/// As [`apply`], with the rules' type flags checked against `context`.
pub(super) fn apply_in(
    s: &mut Simplifier<'_, '_, '_>,
    rules: &RuleTable,
    e: &Expr,
    context: &Context,
) -> Option<Expr> {
    let allowed = context.mask();
    let shape = Shape::of_expr(e);
    for rule in rules.candidates(&shape) {
        // Most rules fail on the shape of `e` alone: checking it first spares building
        // and dropping bindings for them, and checking the top of it first (bits kept in
        // the rule) spares walking the pattern.
        if rule.when.0 & !allowed != 0 || !rule.shape.admits(&shape) || !shape_matches(&rule.lhs, e) {
            continue;
        }
        let mut b = Bindings::default();
        if matches(&rule.lhs, e, &mut b)
            && rule.guard.is_none_or(|g| g(&b))
            && rule.proved.as_ref().is_none_or(|c| {
                let cond = build(s, c, &b, e, Type::BOOL.with_lanes(e.ty().lanes()));
                constant::is_const_true(&cond)
            })
        {
            s.ctx.note_rule(rule.name);
            return Some(build(s, &rule.rhs, &b, e, e.ty()));
        }
    }
    None
}

/// Whether `e` has the node kinds, operators and literals of `p` (names match anything,
/// constant names any constant): a necessary condition for [`matches`].
fn shape_matches(p: &Pat, e: &Expr) -> bool {
    match p {
        Pat::Wild(_) | Pat::Bool(_) => true,
        Pat::Const(_) | Pat::Lit(_) => constant::is_const(e),
        Pat::Bin(op, pa, pb) => match e.kind() {
            ExprKind::Binary(o, a, c) if o == op => shape_matches(pa, a) && shape_matches(pb, c),
            _ => false,
        },
        Pat::Not(pa) => match e.kind() {
            ExprKind::Not(a) => shape_matches(pa, a),
            _ => false,
        },
        Pat::Select(pc, pt, pf) => match e.kind() {
            ExprKind::Select(c, t, f) => shape_matches(pc, c) && shape_matches(pt, t) && shape_matches(pf, f),
            _ => false,
        },
        Pat::Neg(_) => true,
        Pat::Fold(_) | Pat::Operand(_) => false,
    }
}

/// Whether `e` is the simplified negation of `bound` (see [`Pat::Neg`]).
fn is_negation(e: &Expr, bound: &Expr) -> bool {
    let flipped = |op: BinOp| match (bound.kind(), e.kind()) {
        (ExprKind::Binary(_, p, q), ExprKind::Binary(o, r, t)) if *o == op => Some((p, q, r, t)),
        _ => None,
    };
    match bound.kind() {
        ExprKind::Binary(BinOp::Eq, ..) => flipped(BinOp::Ne).is_some_and(|(p, q, r, t)| {
            (equality::equal(p, r) && equality::equal(q, t))
                || (equality::equal(p, t) && equality::equal(q, r))
        }),
        ExprKind::Binary(BinOp::Ne, ..) => flipped(BinOp::Eq).is_some_and(|(p, q, r, t)| {
            (equality::equal(p, r) && equality::equal(q, t))
                || (equality::equal(p, t) && equality::equal(q, r))
        }),
        ExprKind::Binary(BinOp::Lt, ..) => {
            flipped(BinOp::Le).is_some_and(|(p, q, r, t)| equality::equal(r, q) && equality::equal(t, p))
        }
        ExprKind::Binary(BinOp::Le, ..) => {
            flipped(BinOp::Lt).is_some_and(|(p, q, r, t)| equality::equal(r, q) && equality::equal(t, p))
        }
        ExprKind::Not(x) => equality::equal(e, x),
        _ => matches!(e.kind(), ExprKind::Not(x) if equality::equal(x, bound)),
    }
}

fn matches<'e>(p: &Pat, e: &'e Expr, b: &mut Bindings<'e>) -> bool {
    match p {
        Pat::Wild(i) => match b.wild[*i] {
            Some(bound) => equality::equal(bound, e),
            None => {
                b.wild[*i] = Some(e);
                true
            }
        },
        Pat::Const(i) => {
            if !e.ty().is_scalar() || !constant::is_const(e) {
                return false;
            }
            match b.constant[*i] {
                Some(bound) => equality::equal(bound, e),
                None => {
                    b.constant[*i] = Some(e);
                    true
                }
            }
        }
        Pat::Lit(v) => match constant::const_value(e) {
            Some(constant::Const::Int(x)) => i128::from(x) == i128::from(*v),
            Some(constant::Const::UInt(x)) => i128::from(x) == i128::from(*v),
            Some(constant::Const::Float(x)) => x == *v as f64,
            None => false,
        },
        Pat::Bool(v) => {
            e.ty().is_bool() && if *v { constant::is_const_true(e) } else { constant::is_const_false(e) }
        }
        // A node whose operands differ in kind is opaque to the rules, as it is to
        // `Simplifier::binary`: looking inside, rules that move a constant across `==`
        // rebuilt it on the other side as another such node, and two of them undid each
        // other forever.
        Pat::Bin(op, pa, pb) => match e.kind() {
            ExprKind::Binary(o, a, c) if o == op && !crate::simplify::operands_differ_in_kind(a, c) => {
                matches(pa, a, b) && matches(pb, c, b)
            }
            _ => false,
        },
        Pat::Not(pa) => match e.kind() {
            ExprKind::Not(a) => matches(pa, a, b),
            _ => false,
        },
        Pat::Select(pc, pt, pf) => match e.kind() {
            ExprKind::Select(c, t, f) => matches(pc, c, b) && matches(pt, t, b) && matches(pf, f, b),
            _ => false,
        },
        // The reference requires the name to be bound already (it comes first).
        Pat::Neg(i) => b.wild[*i].is_some_and(|bound| is_negation(e, bound)),
        Pat::Fold(_) | Pat::Operand(_) => false,
    }
}

/// The type a template produces, when a name in it fixes one.
fn type_of(p: &Pat, b: &Bindings) -> Option<Type> {
    match p {
        Pat::Wild(i) => b.wild[*i].map(Expr::ty),
        Pat::Const(i) => b.constant[*i].map(Expr::ty),
        Pat::Lit(_) | Pat::Operand(_) => None,
        Pat::Neg(_) => Some(Type::BOOL),
        Pat::Bool(_) | Pat::Not(_) => Some(Type::BOOL),
        Pat::Bin(op, x, y) => {
            if is_comparison(*op) || matches!(op, BinOp::And | BinOp::Or) {
                Some(Type::BOOL)
            } else {
                type_of(x, b).or_else(|| type_of(y, b))
            }
        }
        Pat::Select(_, t, f) => type_of(t, b).or_else(|| type_of(f, b)),
        Pat::Fold(x) => type_of(x, b),
    }
}

fn is_comparison(op: BinOp) -> bool {
    matches!(op, BinOp::Eq | BinOp::Ne | BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge)
}

fn build(s: &mut Simplifier<'_, '_, '_>, p: &Pat, b: &Bindings, root: &Expr, want: Type) -> Expr {
    // Rebuilding re-enters the simplifier, which may rewrite again: deep inputs make deep
    // chains of rewrites, so the stack grows on demand.
    with_stack(|| build_node(s, p, b, root, want))
}

fn build_node(s: &mut Simplifier<'_, '_, '_>, p: &Pat, b: &Bindings, root: &Expr, want: Type) -> Expr {
    let go = |s: &mut Simplifier<'_, '_, '_>, p: &Pat, want: Type| build(s, p, b, root, want);
    match p {
        Pat::Operand(i) => root.children().get(*i).map_or_else(|| root.clone(), |c| (*c).clone()),
        Pat::Wild(i) => b.wild[*i].cloned().unwrap_or_else(|| constant::make_zero(want)),
        Pat::Const(i) => b.constant[*i].cloned().unwrap_or_else(|| constant::make_zero(want)),
        Pat::Lit(v) => constant::make_const(want, i128::from(*v)),
        Pat::Bool(v) => constant::make_bool(*v, want.lanes()),
        Pat::Fold(x) => go(s, x, want),
        Pat::Neg(i) => {
            let x = b.wild[*i].cloned().unwrap_or_else(|| constant::make_bool(true, want.lanes()));
            s.not(x)
        }
        Pat::Not(x) => {
            let a = go(s, x, want);
            s.not(a)
        }
        Pat::Select(c, t, f) => {
            let cond_ty = type_of(c, b).unwrap_or(Type::BOOL.with_lanes(want.lanes()));
            let c = go(s, c, cond_ty);
            let value_ty = type_of(t, b).or_else(|| type_of(f, b)).unwrap_or(want);
            let (t, f) = (go(s, t, value_ty), go(s, f, value_ty));
            s.select(c, t, f)
        }
        Pat::Bin(op, x, y) => {
            // Operands take the type a name in either fixes (a comparison's result type
            // says nothing about them); literals alone take the wanted type.
            let operand_ty = type_of(x, b).or_else(|| type_of(y, b)).unwrap_or(want);
            let (a, c) = (go(s, x, operand_ty), go(s, y, operand_ty));
            s.binary(*op, a, c)
        }
    }
}

/// Parses a rule side; `None` on a malformed text.
fn parse(text: &str) -> Option<Pat> {
    let tokens = tokenize(text)?;
    let mut p = Parser { tokens, pos: 0 };
    let pat = p.or()?;
    (p.pos == p.tokens.len()).then_some(pat)
}

#[derive(Debug, Clone, PartialEq)]
enum Tok {
    Ident(String),
    Num(i64),
    Sym(&'static str),
}

fn tokenize(text: &str) -> Option<Vec<Tok>> {
    const SYMBOLS: [&str; 17] =
        ["<=", ">=", "==", "!=", "&&", "||", "+", "-", "*", "/", "%", "<", ">", "!", "(", ")", ","];
    let mut out = Vec::new();
    let mut rest = text.trim_start();
    while !rest.is_empty() {
        if let Some(sym) = SYMBOLS.iter().find(|s| rest.starts_with(**s)) {
            out.push(Tok::Sym(sym));
            rest = &rest[sym.len()..];
        } else if rest.starts_with(|c: char| c.is_ascii_digit()) {
            let end = rest.find(|c: char| !c.is_ascii_digit()).unwrap_or(rest.len());
            out.push(Tok::Num(rest[..end].parse().ok()?));
            rest = &rest[end..];
        } else if rest.starts_with(|c: char| c.is_ascii_alphabetic()) {
            let end = rest.find(|c: char| !c.is_ascii_alphanumeric() && c != '_').unwrap_or(rest.len());
            out.push(Tok::Ident(rest[..end].to_owned()));
            rest = &rest[end..];
        } else {
            return None;
        }
        rest = rest.trim_start();
    }
    Some(out)
}

struct Parser {
    tokens: Vec<Tok>,
    pos: usize,
}

impl Parser {
    fn peek_sym(&self, s: &str) -> bool {
        matches!(self.tokens.get(self.pos), Some(Tok::Sym(t)) if *t == s)
    }

    fn eat(&mut self, s: &str) -> bool {
        let hit = self.peek_sym(s);
        if hit {
            self.pos += 1;
        }
        hit
    }

    fn binary_level(
        &mut self,
        ops: &[(&'static str, BinOp)],
        next: fn(&mut Parser) -> Option<Pat>,
    ) -> Option<Pat> {
        let mut lhs = next(self)?;
        'outer: loop {
            for (sym, op) in ops {
                if self.eat(sym) {
                    let rhs = next(self)?;
                    lhs = Pat::Bin(*op, Box::new(lhs), Box::new(rhs));
                    continue 'outer;
                }
            }
            return Some(lhs);
        }
    }

    fn or(&mut self) -> Option<Pat> {
        self.binary_level(&[("||", BinOp::Or)], Parser::and)
    }

    fn and(&mut self) -> Option<Pat> {
        self.binary_level(&[("&&", BinOp::And)], Parser::comparison)
    }

    fn comparison(&mut self) -> Option<Pat> {
        self.binary_level(
            &[
                ("<=", BinOp::Le),
                (">=", BinOp::Ge),
                ("==", BinOp::Eq),
                ("!=", BinOp::Ne),
                ("<", BinOp::Lt),
                (">", BinOp::Gt),
            ],
            Parser::sum,
        )
    }

    fn sum(&mut self) -> Option<Pat> {
        self.binary_level(&[("+", BinOp::Add), ("-", BinOp::Sub)], Parser::product)
    }

    fn product(&mut self) -> Option<Pat> {
        self.binary_level(&[("*", BinOp::Mul), ("/", BinOp::Div), ("%", BinOp::Mod)], Parser::unary)
    }

    fn unary(&mut self) -> Option<Pat> {
        if self.eat("!") {
            return Some(Pat::Not(Box::new(self.unary()?)));
        }
        if self.eat("-") {
            if let Some(Tok::Num(n)) = self.tokens.get(self.pos).cloned() {
                self.pos += 1;
                return Some(Pat::Lit(-n));
            }
            // `-e` is `0 - e`.
            return Some(Pat::Bin(BinOp::Sub, Box::new(Pat::Lit(0)), Box::new(self.unary()?)));
        }
        self.atom()
    }

    fn args(&mut self, n: usize) -> Option<Vec<Pat>> {
        if !self.eat("(") {
            return None;
        }
        let mut out = Vec::with_capacity(n);
        for i in 0..n {
            if i > 0 && !self.eat(",") {
                return None;
            }
            out.push(self.or()?);
        }
        self.eat(")").then_some(out)
    }

    fn atom(&mut self) -> Option<Pat> {
        let tok = self.tokens.get(self.pos).cloned()?;
        self.pos += 1;
        match tok {
            Tok::Num(n) => Some(Pat::Lit(n)),
            Tok::Sym("(") => {
                let inner = self.or()?;
                self.eat(")").then_some(inner)
            }
            Tok::Sym(_) => None,
            Tok::Ident(name) => {
                const WILDS: [&str; 6] = ["x", "y", "z", "w", "u", "v"];
                if let Some(i) = WILDS.iter().position(|w| *w == name) {
                    return Some(Pat::Wild(i));
                }
                if let Some(i) =
                    name.strip_prefix('c').and_then(|d| d.parse::<usize>().ok()).filter(|i| *i < 5)
                {
                    return Some(Pat::Const(i));
                }
                match name.as_str() {
                    "a" => Some(Pat::Operand(0)),
                    "b" => Some(Pat::Operand(1)),
                    "true" => Some(Pat::Bool(true)),
                    "false" => Some(Pat::Bool(false)),
                    "min" | "max" => {
                        let op = if name == "min" { BinOp::Min } else { BinOp::Max };
                        let mut a = self.args(2)?.into_iter();
                        Some(Pat::Bin(op, Box::new(a.next()?), Box::new(a.next()?)))
                    }
                    "select" => {
                        let mut a = self.args(3)?.into_iter();
                        Some(Pat::Select(Box::new(a.next()?), Box::new(a.next()?), Box::new(a.next()?)))
                    }
                    "fold" => {
                        let mut a = self.args(1)?.into_iter();
                        Some(Pat::Fold(Box::new(a.next()?)))
                    }
                    "neg" => match self.args(1)?.as_slice() {
                        [Pat::Wild(i)] => Some(Pat::Neg(*i)),
                        _ => None,
                    },
                    _ => None,
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every rule of every table parses and has a name of its own: a rule whose text has
    /// a typo would otherwise be left out of the simplifier silently.
    #[test]
    fn every_rule_parses_and_is_named_once() {
        let mut names = std::collections::HashSet::new();
        let mut count = 0;
        for table in super::super::tables::all() {
            assert!(table.malformed().is_empty(), "rules that do not parse: {:?}", table.malformed());
            for rule in table.rules() {
                assert!(rule.name.starts_with("Simplify_") && rule.name.contains(".cpp:"), "{}", rule.name);
                assert!(names.insert(rule.name), "two rules named {}", rule.name);
                count += 1;
            }
        }
        assert_eq!(count, 1735 + 158);
    }

    /// A malformed rule is kept out of the table and reported by name.
    #[test]
    fn a_malformed_rule_is_reported_by_name() {
        let table = RuleTable::named([
            ("good", Rule::new("x + 0", "a", None)),
            ("bad", Rule::new("x + ", "a", None)),
        ]);
        assert_eq!(table.rules().len(), 1);
        assert_eq!(table.malformed(), ["bad"]);
    }

    #[test]
    fn rules_parse_with_the_usual_precedence() {
        let p = parse("select(x, (y + z) + u, y) ").map(|p| format!("{p:?}"));
        assert!(
            p.is_some_and(|s| s.starts_with("Select(Wild(0), Bin(Add, Bin(Add, Wild(1), Wild(2)), Wild(4))"))
        );
        let p = parse("x*c0 + -1 < y && !z").map(|p| format!("{p:?}"));
        assert_eq!(
            p.as_deref(),
            Some("Bin(And, Bin(Lt, Bin(Add, Bin(Mul, Wild(0), Const(0)), Lit(-1)), Wild(1)), Not(Wild(2)))")
        );
        assert!(parse("select(x, y)").is_none());
        assert!(parse("x + ").is_none());
        assert!(parse("q").is_none());
    }

    /// The bits kept in a rule, and the candidates a table files by them, only ever turn
    /// down expressions the rule's pattern could not match: every rule of every table,
    /// against expressions with every kind of node at the root and the first two operands.
    #[test]
    fn rule_shapes_never_turn_down_a_shape_match() {
        let leaves = ["x", "3", "!b", "select(b, x, y)", "f(x)", "(int64)x", "x8(3)"];
        let ops = ["+", "-", "*", "/", "%", "<", "<=", "==", "!=", "&&", "||"];
        let mut operands: Vec<String> = leaves.iter().map(|l| l.to_string()).collect();
        for op in ops {
            operands.push(format!("(x {op} 3)"));
            operands.push(format!("(3 {op} y)"));
        }
        for f in ["min", "max"] {
            operands.push(format!("{f}(x, 3)"));
            operands.push(format!("{f}(y, x + 1)"));
        }
        let mut exprs = Vec::new();
        for a in &operands {
            for b in &operands {
                for op in ops {
                    exprs.push(format!("{a} {op} {b}"));
                }
                exprs.push(format!("min({a}, {b})"));
                exprs.push(format!("max({a}, {b})"));
                exprs.push(format!("select(b, {a}, {b})"));
            }
            exprs.push(format!("!{a}"));
        }
        let tables = super::super::tables::all();
        let (mut parsed, mut matched) = (0, 0);
        for text in &exprs {
            // Operands of mismatched types do not parse; they are not needed here.
            let Ok(e) = loopir::parse_expr(text) else { continue };
            parsed += 1;
            let shape = Shape::of_expr(&e);
            for table in tables {
                // A table's candidates for `e` are every rule whose pattern can match it,
                // in the table's order.
                let candidates: Vec<*const Rule> =
                    table.candidates(&shape).map(|r| r as *const Rule).collect();
                let mut at = 0;
                for rule in table.rules() {
                    let listed = candidates.get(at) == Some(&(rule as *const Rule));
                    if listed {
                        at += 1;
                    }
                    if shape_matches(&rule.lhs, &e) {
                        matched += 1;
                        assert!(rule.shape.admits(&shape), "{text} against {:?}", rule.lhs);
                        assert!(listed, "{text}: {:?} is not a candidate", rule.lhs);
                    }
                }
                assert_eq!(at, candidates.len(), "{text}: candidates out of order");
            }
        }
        assert!(parsed > 5000 && matched > 20_000, "{parsed} expressions, {matched} shape matches");
    }
}
