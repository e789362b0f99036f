//! The visitor and the mutator walk children in one order, the one `loopir::visit`
//! documents (the reference's `IRMutator`'s), and bracket every binder's body with
//! `enter_scope`/`leave_scope` at the same places.

use loopir::mutate::{Mutator, TryMutator};
use loopir::visit::Visitor;
use loopir::{Binder, Expr, ExprKind, Stmt, parse_stmt};

/// Every variable and scope event, in the order a walk met them.
#[derive(Default)]
struct Log(Vec<String>);

impl Log {
    fn expr(&mut self, e: &Expr) {
        if let ExprKind::Variable(n) = e.kind() {
            self.0.push(n.to_string());
        }
    }
    fn scope(&mut self, what: &str, b: &Binder<'_>) {
        self.0.push(format!("{what} {}", b.name()));
    }
}

impl Visitor for Log {
    fn visit_expr(&mut self, e: &Expr) {
        self.expr(e);
        self.super_expr(e)
    }
    fn enter_scope(&mut self, b: &Binder<'_>) {
        self.scope("enter", b);
    }
    fn leave_scope(&mut self, b: &Binder<'_>) {
        self.scope("leave", b);
    }
}

struct MutLog(Log);

impl Mutator for MutLog {
    fn mutate_expr(&mut self, e: &Expr) -> Expr {
        self.0.expr(e);
        self.super_expr(e)
    }
    fn enter_scope(&mut self, b: &Binder<'_>) {
        self.0.scope("enter", b);
    }
    fn leave_scope(&mut self, b: &Binder<'_>) {
        self.0.scope("leave", b);
    }
}

fn walks(text: &str) -> Vec<String> {
    let s: Stmt = parse_stmt(text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    let mut v = Log::default();
    v.visit_stmt(&s);
    let mut m = MutLog(Log::default());
    let same = m.mutate_stmt(&s);
    assert!(same.same_as(&s), "an identity mutator returns the same node");
    assert_eq!(v.0, m.0.0, "visitor and mutator walk in one order");
    v.0
}

#[test]
fn allocate_walks_extents_then_body_then_condition() {
    let order = walks("allocate buf[int32 * e0 * e1] if c\nbuf[i] = v\n");
    assert_eq!(order, ["e0", "e1", "enter buf", "v", "i", "leave buf", "c"]);
}

#[test]
fn realize_walks_bounds_then_body_then_condition() {
    let order = walks("realize f([m0, e0], [m1, e1]) if c {\n  f(x) = v\n}\n");
    assert_eq!(order, ["m0", "e0", "m1", "e1", "enter f", "x", "v", "leave f", "c"]);
}

#[test]
fn provide_walks_args_then_values() {
    assert_eq!(walks("f(x, y) = a + b\n"), ["x", "y", "a", "b"]);
}

#[test]
fn store_walks_value_then_index() {
    assert_eq!(walks("buf[i] = v\n"), ["v", "i"]);
}

#[test]
fn loops_and_lets_bracket_their_bodies() {
    let text = "let a = p\nlet b = q\nfor (x, lo, hi) {\n g(x) = (let t = (x + r) in (t + a))\n}\n";
    assert_eq!(
        walks(text),
        [
            "p", "enter a", "q", "enter b", "lo", "hi", "enter x", "x", "x", "r", "enter t", "t", "a",
            "leave t", "leave x", "leave b", "leave a"
        ]
    );
}

#[test]
fn an_if_walks_condition_then_cases() {
    assert_eq!(walks("if (c) {\n f(0) = t\n} else {\n f(0) = e\n}\n"), ["c", "t", "e"]);
}

/// A failing body still leaves every scope it entered, innermost first.
#[test]
fn a_failure_leaves_every_scope_entered() {
    struct FailAt(Vec<String>);
    impl TryMutator for FailAt {
        type Error = String;
        fn try_mutate_expr(&mut self, e: &Expr) -> Result<Expr, String> {
            match e.kind() {
                ExprKind::Variable(n) if n.as_ref() == "boom" => Err("boom".into()),
                _ => self.try_super_expr(e),
            }
        }
        fn try_enter_scope(&mut self, b: &Binder<'_>) -> Result<(), String> {
            self.0.push(format!("enter {}", b.name()));
            Ok(())
        }
        fn try_leave_scope(&mut self, b: &Binder<'_>) {
            self.0.push(format!("leave {}", b.name()));
        }
    }
    let s =
        parse_stmt("let a = 1\nfor (x, 0, 9) {\n allocate buf[int32 * 4]\n buf[x] = boom\n free buf\n}\n")
            .unwrap_or_else(|e| panic!("{e}"));
    let mut m = FailAt(Vec::new());
    assert_eq!(m.try_mutate_stmt(&s).err().as_deref(), Some("boom"));
    assert_eq!(m.0, ["enter a", "enter x", "enter buf", "leave buf", "leave x", "leave a"]);
}
