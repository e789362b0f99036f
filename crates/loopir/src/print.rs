//! The `.stmt` printer: text byte-identical to Halide's (non-ANSI) `IRPrinter`.
//!
//! Two pieces of state shape the text beyond the tree itself:
//! - the *paren mode* of the expression being printed: infix operators, let expressions and
//!   predicated loads wrap themselves in parentheses unless their parent asked for the
//!   "implicit" mode (statement-level expressions and call-like argument lists);
//! - the *known-name scope*: binders (let, loops, allocations, realizations) make their names
//!   known, and a variable, call or load whose name is known prints without a type prefix.
//!
//! Long `Block` and `LetStmt`/`Allocate` chains are printed in loops; deeper nesting moves to
//! heap-allocated stack segments, so no input depth overflows the thread's stack.

use std::fmt::Write as _;

use rustc_hash::FxHashMap;

use crate::dialect::{self, Dialect, TRACE_HELPER, TRACE_HELPER_ARGS, TRACE_THREAD_ID_ARG};
use crate::expr::{BinOp, CallType, Expr, ExprKind, Name};
use crate::intrinsic::Intrinsic;
use crate::stack::with_stack;
use crate::stmt::{MinExtent, Stmt, StmtKind};
use crate::types::{Type, TypeCode};

/// Options of the printer.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PrintOptions {
    /// Also print what Halide's text drops: the tuple element index of a call to a
    /// tuple-valued Func, as `f(x, y)[1]` (only for index 1 and above).
    pub lossless: bool,
    /// The dialect to write (see [`crate::dialect`]). In Halide 21.0.0's, a loop prints its
    /// extent ([`crate::dialect::loop_extent_from_max`]) and a trace call whose thread id
    /// is the constant 0 prints without it; a trace call with another thread id has no
    /// Halide 21 form and keeps it ([`crate::dialect::check_writable`] finds those).
    pub dialect: Dialect,
}

impl PrintOptions {
    /// The options that print in `dialect`, lossy.
    pub fn dialect(dialect: Dialect) -> PrintOptions {
        PrintOptions { lossless: false, dialect }
    }
}

/// Prints a statement as Halide does.
pub fn stmt_to_string(s: &Stmt) -> String {
    stmt_to_string_with(s, PrintOptions::default())
}

/// Prints a statement with options.
pub fn stmt_to_string_with(s: &Stmt, options: PrintOptions) -> String {
    let mut p = Printer::new(options);
    p.stmt(s);
    p.out
}

/// Prints an expression on its own (in the "wanted" paren mode, like Halide's stream operator).
pub fn expr_to_string(e: &Expr) -> String {
    expr_to_string_with(e, PrintOptions::default())
}

/// Prints an expression as it reads at statement level (the value of a `let`, the
/// condition of an `if`): Halide's text without the parentheses its stream operator puts
/// around an infix operation, a `let` or a predicated load.
///
/// ```
/// let e = loopir::parse_expr("(x + 1)*y").unwrap();
/// assert_eq!(loopir::print::expr_to_string_implicit(&e), "(x + 1)*y");
/// assert_eq!(e.to_string(), "((x + 1)*y)");
/// ```
pub fn expr_to_string_implicit(e: &Expr) -> String {
    let mut p = Printer::new(PrintOptions::default());
    p.expr(e, true);
    p.out
}

/// Prints an expression with options.
pub fn expr_to_string_with(e: &Expr, options: PrintOptions) -> String {
    let mut p = Printer::new(options);
    p.expr(e, false);
    p.out
}

/// Formats a float immediate's number as Halide does (without the width suffix).
pub fn format_float(v: f64) -> String {
    if v.is_nan() {
        return if v.is_sign_negative() { "-nan".into() } else { "nan".into() };
    }
    if v.is_infinite() {
        return if v < 0.0 { "-inf".into() } else { "inf".into() };
    }
    if v != 0.0 && v.abs().log10() < -6.0 {
        // Rust writes `1.000000e-7`; C writes `1.000000e-07`.
        let s = format!("{v:.6e}");
        match s.split_once('e') {
            Some((mantissa, exp)) => {
                let (sign, digits) = match exp.strip_prefix('-') {
                    Some(d) => ('-', d),
                    None => ('+', exp),
                };
                format!("{mantissa}e{sign}{digits:0>2}")
            }
            None => s,
        }
    } else {
        format!("{v:.6}")
    }
}

/// Appends a string immediate, quoted and escaped byte by byte.
pub fn write_escaped_string(out: &mut String, bytes: &[u8]) {
    out.push('"');
    for &b in bytes {
        match b {
            b'"' => out.push_str("\\\""),
            b'\\' => out.push_str("\\\\"),
            b'\t' => out.push_str("\\t"),
            b'\r' => out.push_str("\\r"),
            b'\n' => out.push_str("\\n"),
            0x20..=0x7e => out.push(b as char),
            _ => {
                let _ = write!(out, "\\x{b:02X}");
            }
        }
    }
    out.push('"');
}

/// The printed name of one of the four infix-like bitwise intrinsics, if `kind` is one.
fn bitwise_infix(name: &str, call_type: CallType, nargs: usize) -> Option<&'static str> {
    if !matches!(call_type, CallType::Intrinsic | CallType::PureIntrinsic) || nargs != 2 {
        return None;
    }
    match Intrinsic::from_name(name)? {
        Intrinsic::BitwiseOr => Some(" | "),
        Intrinsic::BitwiseAnd => Some(" & "),
        Intrinsic::BitwiseXor => Some(" ^ "),
        _ => None,
    }
}

/// Whether `name(args)` is a reference trace call whose thread id is the constant 0 (the
/// thread id Halide 21.0.0's calls, which lack the argument, stand for).
pub(crate) fn is_trace_call_with_thread_id_0(name: &str, args: &[Expr]) -> bool {
    name == TRACE_HELPER && args.len() == TRACE_HELPER_ARGS && args[TRACE_THREAD_ID_ARG].as_int() == Some(0)
}

/// How a shuffle is spelled.
pub(crate) enum ShuffleForm {
    Concat,
    Interleave,
    ExtractElement(i32),
    Slice { begin: i32, stride: i32, count: usize },
    Transpose(i32),
    General,
}

/// Classifies a shuffle the way the printer names it (first matching test wins).
pub(crate) fn classify_shuffle(vectors: &[Expr], indices: &[i32]) -> ShuffleForm {
    let total: usize = vectors.iter().map(|v| v.ty().lanes() as usize).sum();
    let consecutive = indices.windows(2).all(|w| w[1] == w[0].wrapping_add(1));
    if indices.len() == total && consecutive {
        return ShuffleForm::Concat;
    }
    if let Some(first) = vectors.first() {
        let lanes = first.ty().lanes() as usize;
        let n = vectors.len();
        if lanes > 1
            && vectors.iter().all(|v| v.ty().lanes() as usize == lanes)
            && indices.len() == lanes * n
            && (0..n).all(|i| (0..lanes).all(|j| indices[j * n + i] as i64 == (i * lanes + j) as i64))
        {
            return ShuffleForm::Interleave;
        }
    }
    if indices.len() == 1 {
        return ShuffleForm::ExtractElement(indices[0]);
    }
    if indices.len() < total && !indices.is_empty() {
        let stride = if indices.len() >= 2 { indices[1].wrapping_sub(indices[0]) } else { 1 };
        if indices.windows(2).all(|w| w[1].wrapping_sub(w[0]) == stride) {
            return ShuffleForm::Slice { begin: indices[0], stride, count: indices.len() };
        }
    }
    if vectors.len() == 1 {
        let lanes = indices.len();
        if lanes == vectors[0].ty().lanes() as usize && lanes >= 2 && indices[0] == 0 && indices[1] > 0 {
            let c = indices[1] as usize;
            if lanes.is_multiple_of(c) {
                let rows = lanes / c;
                if (0..c).all(|col| (0..rows).all(|row| indices[col * rows + row] as usize == row * c + col))
                {
                    return ShuffleForm::Transpose(indices[1]);
                }
            }
        }
    }
    ShuffleForm::General
}

struct Printer {
    out: String,
    indent: usize,
    /// Names whose types the reader can deduce from earlier text, with their binding depth.
    known: FxHashMap<Name, u32>,
    options: PrintOptions,
}

impl Printer {
    fn new(options: PrintOptions) -> Printer {
        Printer { out: String::new(), indent: 0, known: FxHashMap::default(), options }
    }

    fn push_known(&mut self, name: &Name) {
        *self.known.entry(name.clone()).or_insert(0) += 1;
    }

    fn pop_known(&mut self, name: &Name) {
        if let Some(count) = self.known.get_mut(name) {
            *count -= 1;
            if *count == 0 {
                self.known.remove(name);
            }
        }
    }

    fn is_known(&self, name: &str) -> bool {
        self.known.contains_key(name)
    }

    fn ws(&mut self, n: usize) {
        self.out.extend(std::iter::repeat_n(' ', n));
    }

    fn ty(&mut self, t: Type) {
        let _ = write!(self.out, "{t}");
    }

    /// The `(type)` prefix of variables and calls: none for known names and int32.
    fn typed_name_prefix(&mut self, name: &str, t: Type) {
        if self.is_known(name) || t.is_int32() {
            return;
        }
        if t.code() == TypeCode::Handle {
            self.ty(t);
        } else {
            self.out.push('(');
            self.ty(t);
            self.out.push(')');
        }
    }

    fn args(&mut self, args: &[Expr]) {
        for (i, a) in args.iter().enumerate() {
            if i > 0 {
                self.out.push_str(", ");
            }
            self.expr(a, true);
        }
    }

    /// Prints an expression; `implicit` is the paren mode its parent chose.
    fn expr(&mut self, e: &Expr, implicit: bool) {
        with_stack(|| self.expr_inner(e, implicit))
    }

    fn open(&mut self, implicit: bool) {
        if !implicit {
            self.out.push('(');
        }
    }

    fn close(&mut self, implicit: bool) {
        if !implicit {
            self.out.push(')');
        }
    }

    fn is_reference(&self) -> bool {
        self.options.dialect == Dialect::Reference
    }

    fn expr_inner(&mut self, e: &Expr, implicit: bool) {
        let t = e.ty();
        match e.kind() {
            ExprKind::IntImm(v) => {
                if t.is_int32() {
                    let _ = write!(self.out, "{v}");
                } else if self.is_reference() {
                    let _ = write!(self.out, "{v}_i{}", t.bits());
                } else {
                    let _ = write!(self.out, "({t}){v}");
                }
            }
            ExprKind::UIntImm(v) => {
                if !self.is_reference() {
                    let _ = write!(self.out, "({t}){v}");
                } else if t.bits() == 1 {
                    self.out.push_str(if *v != 0 { "true" } else { "false" });
                } else {
                    let _ = write!(self.out, "{v}_u{}", t.bits());
                }
            }
            ExprKind::FloatImm(v) => {
                self.out.push_str(&format_float(*v));
                match t.bits() {
                    64 => {}
                    32 => self.out.push('f'),
                    _ => self.out.push('h'),
                }
            }
            ExprKind::StringImm(bytes) => write_escaped_string(&mut self.out, bytes),
            ExprKind::Cast(a) => {
                self.ty(t);
                self.out.push('(');
                self.expr(a, true);
                self.out.push(')');
            }
            ExprKind::Reinterpret(a) => {
                self.out.push_str("reinterpret<");
                self.ty(t);
                self.out.push_str(">(");
                self.expr(a, true);
                self.out.push(')');
            }
            ExprKind::Variable(name) => {
                self.typed_name_prefix(name, t);
                self.out.push_str(name);
            }
            ExprKind::Binary(op, a, b) => match op.infix() {
                Some(sym) => {
                    self.open(implicit);
                    self.expr(a, false);
                    self.out.push_str(sym);
                    self.expr(b, false);
                    self.close(implicit);
                }
                None => {
                    self.out.push_str(if *op == BinOp::Min { "min(" } else { "max(" });
                    self.expr(a, true);
                    self.out.push_str(", ");
                    self.expr(b, true);
                    self.out.push(')');
                }
            },
            ExprKind::Not(a) => {
                self.out.push('!');
                self.expr(a, false);
            }
            ExprKind::Select(c, a, b) => {
                self.out.push_str("select(");
                self.args(&[c.clone(), a.clone(), b.clone()]);
                self.out.push(')');
            }
            ExprKind::Load { name, index, predicate, alignment } => {
                let predicated = !predicate.is_const_true();
                if predicated {
                    self.open(implicit);
                }
                if !self.is_known(name) {
                    self.out.push('(');
                    self.ty(t);
                    self.out.push(')');
                }
                self.out.push_str(name);
                self.out.push('[');
                self.expr(index, true);
                if t.is_vector() && alignment.modulus > 1 {
                    let _ = write!(self.out, " aligned({}, {})", alignment.modulus, alignment.remainder);
                }
                self.out.push(']');
                if predicated {
                    self.out.push_str(" if ");
                    self.expr(predicate, false);
                    self.close(implicit);
                }
            }
            ExprKind::Ramp { base, stride, lanes } => {
                self.out.push_str("ramp(");
                self.expr(base, true);
                self.out.push_str(", ");
                self.expr(stride, true);
                let _ = write!(self.out, ", {lanes})");
            }
            ExprKind::Broadcast { value, lanes } => {
                let _ = write!(self.out, "x{lanes}(");
                self.expr(value, true);
                self.out.push(')');
            }
            ExprKind::Call { name, args, call_type, value_index } => {
                let reference = self.is_reference();
                if let Some(sym) = bitwise_infix(name, *call_type, args.len()).filter(|_| reference) {
                    self.open(implicit);
                    self.expr(&args[0], false);
                    self.out.push_str(sym);
                    self.expr(&args[1], false);
                    self.close(implicit);
                } else if reference && args.len() == 1 && e.is_intrinsic(Intrinsic::BitwiseNot) {
                    self.out.push_str("~(");
                    self.expr(&args[0], true);
                    self.out.push(')');
                } else {
                    self.typed_name_prefix(name, t);
                    self.out.push_str(name);
                    self.out.push('(');
                    if !reference && is_trace_call_with_thread_id_0(name, args) {
                        // Halide 21.0.0's trace calls have no thread id.
                        let mut without = args.to_vec();
                        without.remove(TRACE_THREAD_ID_ARG);
                        self.args(&without);
                    } else {
                        self.args(args);
                    }
                    self.out.push(')');
                    if self.options.lossless && *value_index > 0 {
                        let _ = write!(self.out, "[{value_index}]");
                    }
                }
            }
            ExprKind::Let { .. } => {
                // A chain of lets nests in its bodies; print it in a loop.
                self.open(implicit);
                let mut cur = e.clone();
                let mut bound: Vec<Name> = Vec::new();
                let mut closers = 0;
                loop {
                    let ExprKind::Let { name, value, body } = cur.kind() else {
                        self.expr(&cur, false);
                        break;
                    };
                    self.out.push_str("let ");
                    self.out.push_str(name);
                    self.out.push_str(" = ");
                    self.push_known(name);
                    bound.push(name.clone());
                    self.expr(value, false);
                    self.out.push_str(" in ");
                    let next = body.clone();
                    if matches!(next.kind(), ExprKind::Let { .. }) {
                        // The body is printed in wanted mode: it opens its own parenthesis.
                        self.out.push('(');
                        closers += 1;
                    }
                    cur = next;
                }
                for _ in 0..closers {
                    self.out.push(')');
                }
                for n in bound.iter().rev() {
                    self.pop_known(n);
                }
                self.close(implicit);
            }
            ExprKind::Shuffle { vectors, indices } => self.shuffle(vectors, indices),
            ExprKind::VectorReduce { op, value } => {
                self.out.push('(');
                self.ty(t);
                self.out.push_str(")vector_reduce_");
                self.out.push_str(op.as_str());
                self.out.push('(');
                self.expr(value, true);
                self.out.push(')');
            }
        }
    }

    fn shuffle(&mut self, vectors: &[Expr], indices: &[i32]) {
        let tail: Vec<i64> = match classify_shuffle(vectors, indices) {
            ShuffleForm::Concat => {
                self.out.push_str("concat_vectors(");
                vec![]
            }
            ShuffleForm::Interleave => {
                self.out.push_str("interleave_vectors(");
                vec![]
            }
            ShuffleForm::ExtractElement(i) => {
                self.out.push_str("extract_element(");
                vec![i as i64]
            }
            ShuffleForm::Slice { begin, stride, count } => {
                self.out.push_str("slice_vectors(");
                vec![begin as i64, stride as i64, count as i64]
            }
            // Halide 21.0.0 prints a transpose as the general form.
            ShuffleForm::Transpose(c) if self.is_reference() => {
                self.out.push_str("transpose_vector(");
                vec![c as i64]
            }
            ShuffleForm::Transpose(_) => {
                self.out.push_str("shuffle(");
                indices.iter().map(|&i| i as i64).collect()
            }
            ShuffleForm::General => {
                self.out.push_str("shuffle(");
                indices.iter().map(|&i| i as i64).collect()
            }
        };
        self.args(vectors);
        for i in tail {
            let _ = write!(self.out, ", {i}");
        }
        self.out.push(')');
    }

    fn bounds(&mut self, bounds: &[MinExtent]) {
        for (i, r) in bounds.iter().enumerate() {
            if i > 0 {
                self.out.push_str(", ");
            }
            self.out.push('[');
            self.expr(&r.min, true);
            self.out.push_str(", ");
            self.expr(&r.extent, true);
            self.out.push(']');
        }
    }

    /// Prints a statement at the current indentation.
    fn stmt(&mut self, s: &Stmt) {
        with_stack(|| self.stmt_chain(s))
    }

    /// Prints `s`, following binders whose body is printed at the same level (LetStmt,
    /// Allocate, Prefetch) in a loop rather than by recursion.
    fn stmt_chain(&mut self, s: &Stmt) {
        let mut cur = s.clone();
        let mut bound: Vec<Name> = Vec::new();
        loop {
            let n = self.indent;
            let next = match cur.kind() {
                StmtKind::LetStmt { name, value, body } => {
                    self.ws(n);
                    self.out.push_str("let ");
                    self.out.push_str(name);
                    self.out.push_str(" = ");
                    self.push_known(name);
                    bound.push(name.clone());
                    self.expr(value, true);
                    self.out.push('\n');
                    body.clone()
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
                    self.ws(n);
                    self.out.push_str("allocate ");
                    self.out.push_str(name);
                    self.out.push('[');
                    self.ty(*ty);
                    self.push_known(name);
                    bound.push(name.clone());
                    for (i, extent) in extents.iter().enumerate() {
                        self.out.push_str(" * ");
                        if i == 0 && *padding != 0 {
                            self.out.push('(');
                        }
                        self.expr(extent, false);
                    }
                    if *padding != 0 {
                        let _ = write!(self.out, " + {padding})");
                    }
                    self.out.push(']');
                    if *memory_type != crate::MemoryType::Auto {
                        self.out.push_str(" in ");
                        self.out.push_str(memory_type.as_str());
                    }
                    if !condition.is_const_true() {
                        self.out.push_str(" if ");
                        self.expr(condition, false);
                    }
                    if let Some(e) = new_expr {
                        self.out.push('\n');
                        self.ws(n);
                        self.out.push_str(" custom_new { ");
                        self.expr(e, true);
                        self.out.push_str(" }");
                    }
                    if let Some(f) = free_function {
                        self.out.push('\n');
                        self.ws(n);
                        let _ = write!(self.out, " custom_delete {{ {f}({name}); }}");
                    }
                    self.out.push('\n');
                    body.clone()
                }
                StmtKind::Prefetch { name, bounds, prefetch, condition, body, .. } => {
                    let conditional = !condition.is_const_true();
                    let mut line_indent = n;
                    if conditional {
                        self.ws(n);
                        self.out.push_str("if (");
                        self.expr(condition, true);
                        self.out.push_str(") {\n");
                        line_indent = n + 1;
                    }
                    self.ws(line_indent);
                    let _ = write!(self.out, "prefetch {name}, {}, {}, (", prefetch.at, prefetch.from);
                    self.bounds(bounds);
                    self.out.push_str(")\n");
                    if conditional {
                        self.ws(n);
                        self.out.push_str("}\n");
                    }
                    body.clone()
                }
                StmtKind::Block(stmts) => {
                    for st in stmts {
                        self.stmt(st);
                    }
                    break;
                }
                _ => {
                    self.single(&cur);
                    break;
                }
            };
            cur = next;
        }
        for name in bound.iter().rev() {
            self.pop_known(name);
        }
    }

    fn body(&mut self, s: &Stmt, extra: usize) {
        self.indent += extra;
        self.stmt(s);
        self.indent -= extra;
    }

    /// Prints a statement that is not a same-level binder or a block.
    fn single(&mut self, s: &Stmt) {
        let n = self.indent;
        match s.kind() {
            StmtKind::LetStmt { .. }
            | StmtKind::Allocate { .. }
            | StmtKind::Prefetch { .. }
            | StmtKind::Block(_) => self.stmt_chain(s),
            StmtKind::AssertStmt { condition, message } => {
                self.ws(n);
                self.out.push_str("assert(");
                self.expr(condition, true);
                self.out.push_str(", ");
                self.expr(message, true);
                self.out.push_str(")\n");
            }
            StmtKind::ProducerConsumer { name, is_producer, body } => {
                self.ws(n);
                self.out.push_str(if *is_producer { "produce " } else { "consume " });
                self.out.push_str(name);
                self.out.push_str(" {\n");
                self.body(body, 1);
                self.ws(n);
                self.out.push_str("}\n");
            }
            StmtKind::For { name, min, max, for_type, device_api, body, .. } => {
                self.ws(n);
                self.out.push_str(for_type.keyword());
                self.out.push_str(device_api.suffix());
                self.out.push_str(" (");
                self.out.push_str(name);
                self.out.push_str(", ");
                self.push_known(name);
                self.expr(min, true);
                self.out.push_str(", ");
                if self.is_reference() {
                    self.expr(max, true);
                } else {
                    self.expr(&dialect::loop_extent_from_max(min, max), true);
                }
                self.out.push_str(") {\n");
                self.body(body, 1);
                self.ws(n);
                self.out.push_str("}\n");
                self.pop_known(name);
            }
            StmtKind::Acquire { semaphore, count, body } => {
                self.ws(n);
                self.out.push_str("acquire (");
                self.expr(semaphore, true);
                self.out.push_str(", ");
                self.expr(count, true);
                self.out.push_str(") {\n");
                self.body(body, 1);
                self.ws(n);
                self.out.push_str("}\n");
            }
            StmtKind::Store { name, value, index, predicate, alignment } => {
                self.ws(n);
                let mut line = n;
                if !predicate.is_const_true() {
                    self.out.push_str("predicate (");
                    self.expr(predicate, true);
                    self.out.push_str(")\n");
                    line = n + 1;
                    self.ws(line);
                }
                self.out.push_str(name);
                self.out.push('[');
                self.expr(index, true);
                if value.ty().is_vector() && alignment.modulus > 1 {
                    let _ = write!(self.out, " aligned({}, {})", alignment.modulus, alignment.remainder);
                }
                self.out.push_str("] = ");
                if matches!(value.kind(), ExprKind::Let { .. }) {
                    self.out.push('\n');
                    self.store_let_chain(value, line + 2);
                } else {
                    self.expr(value, true);
                }
                self.out.push('\n');
            }
            StmtKind::Provide { name, values, args, predicate } => {
                self.ws(n);
                if !predicate.is_const_true() {
                    self.out.push_str("predicate (");
                    self.expr(predicate, true);
                    self.out.push_str(")\n");
                    self.ws(n + 1);
                }
                self.out.push_str(name);
                self.out.push('(');
                self.args(args);
                self.out.push_str(") = ");
                if values.len() == 1 {
                    self.expr(&values[0], true);
                } else {
                    self.out.push('{');
                    self.args(values);
                    self.out.push('}');
                }
                self.out.push('\n');
            }
            StmtKind::Free { name } => {
                self.ws(n);
                self.out.push_str("free ");
                self.out.push_str(name);
                self.out.push('\n');
            }
            StmtKind::Realize { name, memory_type, bounds, condition, body, .. } => {
                self.ws(n);
                self.out.push_str("realize ");
                self.out.push_str(name);
                self.out.push('(');
                self.push_known(name);
                self.bounds(bounds);
                self.out.push(')');
                if *memory_type != crate::MemoryType::Auto {
                    self.out.push_str(" in ");
                    self.out.push_str(memory_type.as_str());
                }
                if !condition.is_const_true() {
                    self.out.push_str(" if ");
                    self.expr(condition, false);
                }
                self.out.push_str(" {\n");
                self.body(body, 2);
                self.ws(n);
                self.out.push_str("}\n");
                self.pop_known(name);
            }
            StmtKind::Fork { .. } => {
                self.ws(n);
                self.out.push_str("fork ");
                let mut cur = s.clone();
                loop {
                    let (task, rest) = match cur.kind() {
                        StmtKind::Fork { first, rest } => (first.clone(), Some(rest.clone())),
                        _ => (cur.clone(), None),
                    };
                    self.out.push_str("{\n");
                    self.body(&task, 1);
                    self.ws(n);
                    self.out.push_str("} ");
                    match rest {
                        Some(r) => cur = r,
                        None => break,
                    }
                }
                self.out.push('\n');
            }
            StmtKind::IfThenElse { condition, then_case, else_case } => {
                self.ws(n);
                self.out.push_str("if (");
                self.expr(condition, true);
                self.out.push_str(") {\n");
                self.body(then_case, 1);
                let mut rest = else_case.clone();
                while let Some(e) = rest {
                    if let StmtKind::IfThenElse { condition, then_case, else_case } = e.kind() {
                        self.ws(n);
                        self.out.push_str("} else if (");
                        self.expr(condition, true);
                        self.out.push_str(") {\n");
                        self.body(then_case, 1);
                        rest = else_case.clone();
                    } else {
                        self.ws(n);
                        self.out.push_str("} else {\n");
                        self.body(&e, 1);
                        rest = None;
                    }
                }
                self.ws(n);
                self.out.push_str("}\n");
            }
            StmtKind::Evaluate(e) => {
                self.ws(n);
                self.expr(e, true);
                self.out.push('\n');
            }
            StmtKind::Atomic { producer_name, mutex_name, body } => {
                self.ws(n);
                self.out.push_str("atomic (");
                self.out.push_str(producer_name);
                if let Some(m) = mutex_name {
                    self.out.push_str(", ");
                    self.out.push_str(m);
                }
                self.out.push_str(") {\n");
                self.body(body, 2);
                self.ws(n);
                self.out.push_str("}\n");
            }
            StmtKind::HoistedStorage { name, body } => {
                self.ws(n);
                match name {
                    Some(name) => {
                        self.out.push_str("hoisted_storage (");
                        self.out.push_str(name);
                        self.out.push_str(") {\n");
                    }
                    None => self.out.push_str("hoisted_storage {\n"),
                }
                self.body(body, 2);
                self.ws(n);
                self.out.push_str("}\n");
            }
        }
    }

    /// The multi-line form of a Store whose value is a Let chain.
    fn store_let_chain(&mut self, value: &Expr, k: usize) {
        let mut cur = value.clone();
        let mut bound = Vec::new();
        while let ExprKind::Let { name, value, body } = cur.kind() {
            self.ws(k);
            self.out.push_str("let ");
            self.out.push_str(name);
            self.out.push_str(" = ");
            self.push_known(name);
            bound.push(name.clone());
            self.expr(value, true);
            self.out.push_str(" in\n");
            let next = body.clone();
            cur = next;
        }
        self.ws(k);
        self.expr(&cur, true);
        self.out.push('\n');
        for name in bound.iter().rev() {
            self.pop_known(name);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn float_text_matches_c() {
        assert_eq!(format_float(0.0078125), "0.007812");
        assert_eq!(format_float(1e-6), "0.000001");
        assert_eq!(format_float((1e-6f32) as f64), "1.000000e-06");
        assert_eq!(format_float(1e-300), "1.000000e-300");
        assert_eq!(format_float(-1e-7), "-1.000000e-07");
        assert_eq!(format_float(-0.0), "-0.000000");
        assert_eq!(format_float(f64::INFINITY), "inf");
        assert_eq!(format_float(3.4028235e38f32 as f64), "340282346638528859811704183484516925440.000000");
    }

    #[test]
    fn strings_escape_bytes() {
        let mut s = String::new();
        write_escaped_string(&mut s, b"a\"b\\c\td\re\nf\x01g\x7F\xFF ~");
        assert_eq!(s, r#""a\"b\\c\td\re\nf\x01g\x7F\xFF ~""#);
    }
}
