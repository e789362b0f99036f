//! Rewrite rules written as the math they encode, in the reference's notation:
//!
//! ```text
//! select(x, y + z, y)  ->  y + select(x, z, 0)
//! select(x, y*c0, c1)  ->  select(x, y, fold(c1/c0))*c0   if c1 % c0 == 0
//! ```
//!
//! `x y z w u v` match any expression (a name used twice must match structurally equal
//! expressions), `c0 … c3` match scalar constants, integer literals match a constant of
//! that value, `true` / `false` the boolean constants. On the right-hand side the same
//! names stand for what they matched, literals take the type their context gives them,
//! and `fold(e)` is `e` computed on constants. The result is rebuilt through the
//! simplifier's constructors, so it comes back simplified, as when the reference
//! re-simplifies a rewritten node.
//!
//! Rules are tried in order and the first that matches (and whose condition holds)
//! wins, as in the reference's rule lists.

use loopir::{BinOp, Expr, ExprKind, Type};

use super::Simplifier;
use crate::ir;

/// A pattern (left-hand side) or template (right-hand side).
#[derive(Debug)]
pub(super) enum Pat {
    Wild(usize),
    Const(usize),
    Lit(i64),
    Bool(bool),
    Bin(BinOp, Box<Pat>, Box<Pat>),
    Not(Box<Pat>),
    Select(Box<Pat>, Box<Pat>, Box<Pat>),
    Fold(Box<Pat>),
}

/// What the names of a rule matched.
#[derive(Default)]
pub(super) struct Bindings {
    wild: [Option<Expr>; 6],
    constant: [Option<Expr>; 4],
}

impl Bindings {
    /// The integer value of constant `ci` (0 if unbound or not an integer).
    pub fn c(&self, i: usize) -> i128 {
        self.constant.get(i).and_then(Option::as_ref).and_then(ir::as_const_i128).unwrap_or(0)
    }

    /// What wildcard `i` (`x` = 0, `y` = 1, ...) matched.
    pub fn wild(&self, i: usize) -> Option<&Expr> {
        self.wild.get(i).and_then(Option::as_ref)
    }
}

/// A condition on the bindings.
pub(super) type Guard = fn(&Bindings) -> bool;

/// One rule: pattern, template, optional condition.
pub(super) struct Rule {
    lhs: Pat,
    rhs: Pat,
    guard: Option<Guard>,
}

impl Rule {
    /// Parses `lhs` and `rhs`; `None` (and a debug assertion) for a malformed rule text,
    /// which only a programming error can produce.
    pub fn new(lhs: &str, rhs: &str, guard: Option<Guard>) -> Option<Rule> {
        let parsed = parse(lhs).zip(parse(rhs)).map(|(lhs, rhs)| Rule { lhs, rhs, guard });
        debug_assert!(parsed.is_some(), "malformed rule {lhs} -> {rhs}");
        parsed
    }
}

/// The first rule of `rules` that rewrites `e`, applied.
pub(super) fn apply(s: &mut Simplifier<'_, '_, '_>, rules: &[Rule], e: &Expr) -> Option<Expr> {
    for rule in rules {
        let mut b = Bindings::default();
        if matches(&rule.lhs, e, &mut b) && rule.guard.is_none_or(|g| g(&b)) {
            return Some(build(s, &rule.rhs, &b, e.ty()));
        }
    }
    None
}

fn matches(p: &Pat, e: &Expr, b: &mut Bindings) -> bool {
    match p {
        Pat::Wild(i) => match &b.wild[*i] {
            Some(bound) => ir::equal(bound, e),
            None => {
                b.wild[*i] = Some(e.clone());
                true
            }
        },
        Pat::Const(i) => {
            if !e.ty().is_scalar() || !ir::is_const(e) {
                return false;
            }
            match &b.constant[*i] {
                Some(bound) => ir::equal(bound, e),
                None => {
                    b.constant[*i] = Some(e.clone());
                    true
                }
            }
        }
        Pat::Lit(v) => match ir::const_value(e) {
            Some(ir::Const::Int(x)) => i128::from(x) == i128::from(*v),
            Some(ir::Const::UInt(x)) => i128::from(x) == i128::from(*v),
            Some(ir::Const::Float(x)) => x == *v as f64,
            None => false,
        },
        Pat::Bool(v) => e.ty().is_bool() && if *v { ir::is_const_true(e) } else { ir::is_const_false(e) },
        Pat::Bin(op, pa, pb) => match e.kind() {
            ExprKind::Binary(o, a, c) if o == op => matches(pa, a, b) && matches(pb, c, b),
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
        Pat::Fold(_) => false,
    }
}

/// The type a template produces, when a name in it fixes one.
fn type_of(p: &Pat, b: &Bindings) -> Option<Type> {
    match p {
        Pat::Wild(i) => b.wild[*i].as_ref().map(Expr::ty),
        Pat::Const(i) => b.constant[*i].as_ref().map(Expr::ty),
        Pat::Lit(_) => None,
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

fn build(s: &mut Simplifier<'_, '_, '_>, p: &Pat, b: &Bindings, want: Type) -> Expr {
    match p {
        Pat::Wild(i) => b.wild[*i].clone().unwrap_or_else(|| ir::zero(want)),
        Pat::Const(i) => b.constant[*i].clone().unwrap_or_else(|| ir::zero(want)),
        Pat::Lit(v) => ir::make_const(want, i128::from(*v)),
        Pat::Bool(v) => ir::make_bool(*v, want.lanes()),
        Pat::Fold(x) => build(s, x, b, want),
        Pat::Not(x) => {
            let a = build(s, x, b, want);
            s.not(a)
        }
        Pat::Select(c, t, f) => {
            let cond_ty = type_of(c, b).unwrap_or(Type::BOOL.with_lanes(want.lanes()));
            let c = build(s, c, b, cond_ty);
            let value_ty = type_of(t, b).or_else(|| type_of(f, b)).unwrap_or(want);
            let (t, f) = (build(s, t, b, value_ty), build(s, f, b, value_ty));
            s.select(c, t, f)
        }
        Pat::Bin(op, x, y) => {
            let operand_ty = if is_comparison(*op) || matches!(op, BinOp::And | BinOp::Or) {
                type_of(x, b).or_else(|| type_of(y, b)).unwrap_or(want)
            } else {
                type_of(x, b).or_else(|| type_of(y, b)).unwrap_or(want)
            };
            let (a, c) = (build(s, x, b, operand_ty), build(s, y, b, operand_ty));
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
        if self.eat("-")
            && let Some(Tok::Num(n)) = self.tokens.get(self.pos).cloned()
        {
            self.pos += 1;
            return Some(Pat::Lit(-n));
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
                    name.strip_prefix('c').and_then(|d| d.parse::<usize>().ok()).filter(|i| *i < 4)
                {
                    return Some(Pat::Const(i));
                }
                match name.as_str() {
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
                    _ => None,
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
}
