//! A tree dump of parsed IR: one node per line, children indented by two spaces, every
//! expression with its kind, names, constants and type, every call with its call type and
//! value index. The printed `.stmt` text hides some of these (call types, value indices,
//! types of variables); snapshots of the dump pin what the parser recovered.

use std::fmt::Write as _;

use loopir::{Expr, ExprKind, Stmt, StmtKind};

/// A tree dump of a statement.
pub fn dump_stmt(s: &Stmt) -> String {
    let mut d = Dumper { out: String::new() };
    d.stmt(s, 0, "");
    d.out
}

/// A tree dump of an expression (see [`dump_stmt`]).
pub fn dump_expr(e: &Expr) -> String {
    let mut d = Dumper { out: String::new() };
    d.expr(e, 0, "");
    d.out
}
struct Dumper {
    out: String,
}

fn float_text(v: f64) -> String {
    if v.is_nan() {
        if v.is_sign_negative() { "-NaN".into() } else { "NaN".into() }
    } else {
        format!("{v:?}")
    }
}

impl Dumper {
    fn line(&mut self, depth: usize, label: &str, text: &str) {
        self.out.extend(std::iter::repeat_n(' ', depth * 2));
        self.out.push_str(label);
        self.out.push_str(text);
        self.out.push('\n');
    }

    fn expr(&mut self, e: &Expr, depth: usize, label: &str) {
        let t = e.ty();
        let (head, children): (String, Vec<(&str, &Expr)>) = match e.kind() {
            ExprKind::IntImm(v) => (format!("IntImm {v}"), vec![]),
            ExprKind::UIntImm(v) => (format!("UIntImm {v}"), vec![]),
            ExprKind::FloatImm(v) => (format!("FloatImm {}", float_text(*v)), vec![]),
            ExprKind::StringImm(b) => (format!("StringImm b\"{}\"", b.escape_ascii()), vec![]),
            ExprKind::Cast(a) => ("Cast".into(), vec![("", a)]),
            ExprKind::Reinterpret(a) => ("Reinterpret".into(), vec![("", a)]),
            ExprKind::Variable(n) => (format!("Variable {n}"), vec![]),
            ExprKind::Binary(op, a, b) => (format!("{op:?}"), vec![("", a), ("", b)]),
            ExprKind::Not(a) => ("Not".into(), vec![("", a)]),
            ExprKind::Select(c, a, b) => {
                ("Select".into(), vec![("cond: ", c), ("true: ", a), ("false: ", b)])
            }
            ExprKind::Load { name, index, predicate, alignment } => {
                let mut h = format!("Load {name}");
                if *alignment != loopir::ModulusRemainder::UNKNOWN {
                    let _ = write!(h, " aligned({}, {})", alignment.modulus, alignment.remainder);
                }
                (h, vec![("index: ", index), ("predicate: ", predicate)])
            }
            ExprKind::Ramp { base, stride, lanes } => {
                (format!("Ramp lanes={lanes}"), vec![("base: ", base), ("stride: ", stride)])
            }
            ExprKind::Broadcast { value, lanes } => (format!("Broadcast lanes={lanes}"), vec![("", value)]),
            ExprKind::Call { name, args, call_type, value_index } => (
                format!("Call {name} {call_type:?} value_index={value_index}"),
                args.iter().map(|a| ("", a)).collect(),
            ),
            ExprKind::Let { name, value, body } => {
                (format!("Let {name}"), vec![("value: ", value), ("body: ", body)])
            }
            ExprKind::Shuffle { vectors, indices } => {
                (format!("Shuffle indices={indices:?}"), vectors.iter().map(|v| ("", v)).collect())
            }
            ExprKind::VectorReduce { op, value } => (format!("VectorReduce {op:?}"), vec![("", value)]),
        };
        self.line(depth, label, &format!("{head} : {t}"));
        for (l, c) in children {
            self.expr(c, depth + 1, l);
        }
    }

    fn exprs(&mut self, es: &[Expr], depth: usize, what: &str) {
        for (i, e) in es.iter().enumerate() {
            self.expr(e, depth, &format!("{what}[{i}]: "));
        }
    }

    fn ranges(&mut self, rs: &[loopir::MinExtent], depth: usize) {
        for (i, r) in rs.iter().enumerate() {
            self.expr(&r.min, depth, &format!("bound[{i}].min: "));
            self.expr(&r.extent, depth, &format!("bound[{i}].extent: "));
        }
    }

    fn stmt(&mut self, s: &Stmt, depth: usize, label: &str) {
        let d = depth + 1;
        match s.kind() {
            StmtKind::LetStmt { name, value, body } => {
                self.line(depth, label, &format!("LetStmt {name}"));
                self.expr(value, d, "value: ");
                self.stmt(body, d, "body: ");
            }
            StmtKind::AssertStmt { condition, message } => {
                self.line(depth, label, "AssertStmt");
                self.expr(condition, d, "condition: ");
                self.expr(message, d, "message: ");
            }
            StmtKind::ProducerConsumer { name, is_producer, body } => {
                let kw = if *is_producer { "Produce" } else { "Consume" };
                self.line(depth, label, &format!("{kw} {name}"));
                self.stmt(body, d, "body: ");
            }
            StmtKind::For { name, min, max, for_type, device_api, partition_policy, body } => {
                self.line(
                    depth,
                    label,
                    &format!("For {name} {for_type:?} device={device_api:?} partition={partition_policy:?}"),
                );
                self.expr(min, d, "min: ");
                self.expr(max, d, "max: ");
                self.stmt(body, d, "body: ");
            }
            StmtKind::Store { name, value, index, predicate, alignment } => {
                let mut h = format!("Store {name}");
                if *alignment != loopir::ModulusRemainder::UNKNOWN {
                    let _ = write!(h, " aligned({}, {})", alignment.modulus, alignment.remainder);
                }
                self.line(depth, label, &h);
                self.expr(predicate, d, "predicate: ");
                self.expr(index, d, "index: ");
                self.expr(value, d, "value: ");
            }
            StmtKind::Provide { name, values, args, predicate } => {
                self.line(depth, label, &format!("Provide {name}"));
                self.expr(predicate, d, "predicate: ");
                self.exprs(args, d, "arg");
                self.exprs(values, d, "value");
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
            } => {
                let mut h = format!("Allocate {name} {ty} memory={memory_type:?} padding={padding}");
                if let Some(f) = free_function {
                    let _ = write!(h, " free_function={f}");
                }
                self.line(depth, label, &h);
                self.exprs(extents, d, "extent");
                self.expr(condition, d, "condition: ");
                if let Some(e) = new_expr {
                    self.expr(e, d, "new_expr: ");
                }
                self.stmt(body, d, "body: ");
            }
            StmtKind::Free { name } => self.line(depth, label, &format!("Free {name}")),
            StmtKind::Realize { name, types, memory_type, bounds, condition, body } => {
                self.line(depth, label, &format!("Realize {name} types={types:?} memory={memory_type:?}"));
                self.ranges(bounds, d);
                self.expr(condition, d, "condition: ");
                self.stmt(body, d, "body: ");
            }
            StmtKind::Prefetch { name, types, bounds, prefetch, condition, body } => {
                self.line(
                    depth,
                    label,
                    &format!(
                        "Prefetch {name} types={types:?} directive(name={}, at={}, from={})",
                        prefetch.name, prefetch.at, prefetch.from
                    ),
                );
                self.ranges(bounds, d);
                self.expr(&prefetch.offset, d, "offset: ");
                self.expr(condition, d, "condition: ");
                self.stmt(body, d, "body: ");
            }
            StmtKind::Block(stmts) => {
                self.line(depth, label, &format!("Block ({} statements)", stmts.len()));
                for st in stmts {
                    self.stmt(st, d, "");
                }
            }
            StmtKind::Fork { first, rest } => {
                self.line(depth, label, "Fork");
                self.stmt(first, d, "first: ");
                self.stmt(rest, d, "rest: ");
            }
            StmtKind::Acquire { semaphore, count, body } => {
                self.line(depth, label, "Acquire");
                self.expr(semaphore, d, "semaphore: ");
                self.expr(count, d, "count: ");
                self.stmt(body, d, "body: ");
            }
            StmtKind::IfThenElse { condition, then_case, else_case } => {
                self.line(depth, label, "IfThenElse");
                self.expr(condition, d, "condition: ");
                self.stmt(then_case, d, "then: ");
                if let Some(e) = else_case {
                    self.stmt(e, d, "else: ");
                }
            }
            StmtKind::Evaluate(e) => {
                self.line(depth, label, "Evaluate");
                self.expr(e, d, "");
            }
            StmtKind::Atomic { producer_name, mutex_name, body } => {
                let m = mutex_name.as_deref().map(|m| format!(" mutex={m}")).unwrap_or_default();
                self.line(depth, label, &format!("Atomic {producer_name}{m}"));
                self.stmt(body, d, "body: ");
            }
            StmtKind::HoistedStorage { name, body } => {
                let n = name.as_deref().map(|n| format!(" {n}")).unwrap_or_default();
                self.line(depth, label, &format!("HoistedStorage{n}"));
                self.stmt(body, d, "body: ");
            }
        }
    }
}
