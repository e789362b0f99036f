//! Errors of the tracing pass.

use loopir::mutate::Mutator;
use loopir::{Expr, IrError, Stmt, StmtKind};

/// Why [`inject_tracing`](super::inject_tracing) could not instrument a statement, or why a
/// [`TraceEnv`](super::TraceEnv) could not be read.
///
/// Every variant that stems from the statement names the offending node (its printed text,
/// shortened when long) or the Func / image it concerns.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum TracingError {
    /// The environment's JSON text could not be read: not JSON, a field of the wrong type,
    /// an unknown field (the message names it and its line and column), or another
    /// environment's file altogether (the message says which).
    #[error("invalid trace environment JSON: {0}")]
    EnvJson(String),
    /// The environment contradicts itself (a name listed twice, an output that is not a
    /// Func, a counter out of range, ...).
    #[error("invalid trace environment: `{field}`: {problem}")]
    InvalidEnv {
        /// The offending field, as a path into the JSON form (`outputs[0].dimensions`).
        field: String,
        /// What is wrong with it.
        problem: String,
    },
    /// The environment contradicts the statement it is used with (a Func of the IR it does
    /// not describe, a dimension or value count that differs from the IR's, a switch for a
    /// Func the IR never mentions, ...).
    #[error("the trace environment does not fit the statement: `{field}`: {problem}{}", at_node(node))]
    EnvMismatch {
        /// The offending field, as a path into the JSON form (`funcs[1].args`).
        field: String,
        /// What is wrong with it.
        problem: String,
        /// The IR node it disagrees with, as printed (shortened), if there is one.
        node: Option<String>,
    },
    /// A call of kind Halide names a Func that the environment does not describe.
    #[error("the call `{call}` reads Func `{name}`, which is not a Func of the trace environment")]
    UnknownFunc {
        /// The Func name.
        name: String,
        /// The call, as printed.
        call: String,
    },
    /// A call of kind Image names an image that the environment does not describe.
    #[error("the image load `{call}` reads `{name}`, which is not an image of the trace environment")]
    UnknownImage {
        /// The image name.
        name: String,
        /// The call, as printed.
        call: String,
    },
    /// Two accesses to one Func or image disagree on the type of a tuple element. This
    /// includes Halide's internal error for a traced load of element `i > 0` met before any
    /// access of a lower element that later turns out to have a real type (`docs/reference/tracing.md` §13 edge 3).
    #[error("value {value_index} of `{name}` was recorded as {recorded} but `{node}` accesses it as {found}")]
    TypeConflict {
        /// The Func or image.
        name: String,
        /// The tuple element.
        value_index: u32,
        /// The recorded type (`handle0` for an element never accessed yet).
        recorded: String,
        /// The type of the new access.
        found: String,
        /// The access, as printed.
        node: String,
    },
    /// A user trace tag contains a NUL character, which the runtime cannot carry.
    #[error("trace tag {tag:?} of `{name}` contains a NUL character")]
    NulInTag {
        /// The Func or image the tag belongs to.
        name: String,
        /// The tag text.
        tag: String,
    },
    /// The boxes-touched analysis failed.
    #[error("boxes-touched analysis failed: {0}")]
    BoxAnalysis(String),
    /// A traced Func or image has no entry in the boxes-touched result.
    #[error("`{name}` has tracing events but the boxes-touched analysis reports no box for it")]
    MissingBox {
        /// The Func or image.
        name: String,
    },
    /// A fresh-name counter reached the largest `u64` (the first number, taken from the
    /// input's names or the caller, was too close to it).
    #[error("no fresh `{family}` name is left: the counter reached the largest number")]
    NamesExhausted {
        /// The name family, e.g. `t<N>`.
        family: &'static str,
    },
    /// The statement is not at the stage the pass expects (the schedule stage).
    #[error("{0}")]
    WrongStage(loopir::pipeline::WrongStage),
    /// An IR node could not be built (operand types did not fit).
    #[error("could not build {what}: {source}")]
    Ir {
        /// What was being built, naming the node it instruments.
        what: String,
        /// The constructor's complaint.
        source: IrError,
    },
}

impl TracingError {
    /// Whether the error is about the environment (reading it, or it not fitting the
    /// statement) rather than about the statement alone: a caller that read the
    /// environment from a file should name that file.
    pub fn is_env_error(&self) -> bool {
        matches!(
            self,
            TracingError::EnvJson(_)
                | TracingError::InvalidEnv { .. }
                | TracingError::EnvMismatch { .. }
                | TracingError::UnknownFunc { .. }
                | TracingError::UnknownImage { .. }
        )
    }
}

fn at_node(node: &Option<String>) -> String {
    node.as_ref().map(|n| format!(", at `{n}`")).unwrap_or_default()
}

/// Text of a node for an error message: the printed form, cut after a few hundred
/// characters so that messages stay readable.
pub(crate) fn shorten(text: String) -> String {
    const LIMIT: usize = 240;
    if text.len() <= LIMIT {
        return text;
    }
    let mut cut = LIMIT;
    while !text.is_char_boundary(cut) {
        cut -= 1;
    }
    format!("{} …", &text[..cut])
}

/// Most nodes of an expression or statement printed in a message; the rest is elided.
/// Printing a node whole can take time exponential in its size, since the pass's output
/// shares each traced load's arguments between the load and its event; and a message only
/// shows the first [`shorten`] characters anyway.
const PRINTED_NODES: usize = 256;

/// Text of an expression for a message: its first nodes printed, then shortened.
pub(crate) fn expr_text(e: &Expr) -> String {
    shorten(Abbreviate::new().mutate_expr(e).to_string())
}

/// Text of a statement without child statements (a store, an evaluate) for a message.
pub(crate) fn stmt_text(s: &Stmt) -> String {
    shorten(Abbreviate::new().mutate_stmt(s).to_string().trim_end().to_owned())
}

/// The first line of a statement as printed (the header of a loop, let, realization, ...),
/// without printing what it contains.
pub(crate) fn stmt_head(s: &Stmt) -> String {
    let mut cur = s;
    loop {
        match cur.kind() {
            StmtKind::Block(stmts) if !stmts.is_empty() => cur = &stmts[0],
            StmtKind::Fork { first, .. } => cur = first,
            _ => break,
        }
    }
    let elided = Stmt::evaluate(Expr::i32(0));
    let shallow = match cur.kind() {
        StmtKind::IfThenElse { condition, .. } => Stmt::from_kind_unchecked(StmtKind::IfThenElse {
            condition: condition.clone(),
            then_case: elided,
            else_case: None,
        }),
        _ => cur.with_body(elided).unwrap_or_else(|| cur.clone()),
    };
    let text = Abbreviate::new().mutate_stmt(&shallow).to_string();
    shorten(text.lines().next().unwrap_or_default().trim().to_owned())
}

/// Keeps the first [`PRINTED_NODES`] nodes (in pre-order) of each expression of a
/// statement and of its statements, replacing the rest by `…`.
struct Abbreviate {
    /// Nodes left for the expression being abbreviated.
    expr_budget: usize,
    /// How deep in an expression the walk is (0 between expressions).
    depth: usize,
    /// Statements left.
    stmt_budget: usize,
}

impl Abbreviate {
    fn new() -> Abbreviate {
        Abbreviate { expr_budget: PRINTED_NODES, depth: 0, stmt_budget: PRINTED_NODES }
    }
}

impl Mutator for Abbreviate {
    fn mutate_expr(&mut self, e: &Expr) -> Expr {
        if self.depth == 0 {
            // Each expression of a statement starts afresh, so that a long value does not
            // elide the store coordinates printed before it.
            self.expr_budget = PRINTED_NODES;
        }
        if self.expr_budget == 0 {
            return Expr::var(e.ty(), "…");
        }
        self.expr_budget -= 1;
        self.depth += 1;
        let r = self.super_expr(e);
        self.depth -= 1;
        r
    }
    fn mutate_stmt(&mut self, s: &Stmt) -> Stmt {
        if self.stmt_budget == 0 {
            return Stmt::evaluate(Expr::var_i32("…"));
        }
        self.stmt_budget -= 1;
        self.super_stmt(s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use loopir::Type;

    /// `e_{k+1} = e_k + e_k`: 2^k leaves as printed, k + 1 nodes.
    fn doubling(levels: usize) -> Expr {
        let mut e = Expr::var_i32("x");
        for _ in 0..levels {
            e = Expr::add(e.clone(), e).expect("int32 add");
        }
        e
    }

    #[test]
    fn small_nodes_print_whole() {
        let e = doubling(3);
        assert_eq!(expr_text(&e), e.to_string());
        let s = Stmt::provide("f", vec![e.clone()], vec![Expr::var_i32("x")], Expr::const_true())
            .expect("provide");
        assert_eq!(stmt_text(&s), s.to_string().trim_end());
    }

    #[test]
    fn huge_dags_print_their_beginning() {
        // Printed whole, this would be 2^200 leaves long.
        let text = expr_text(&doubling(200));
        assert!(text.starts_with("((((((((") && text.contains("((x + x) + (x + x))"), "{text}");
        assert!(text.ends_with(" …"), "{text}");
        let call = Expr::call_func(Type::INT32, "g", vec![doubling(200)], 0);
        let s =
            Stmt::provide("f", vec![call], vec![Expr::var_i32("x")], Expr::const_true()).expect("provide");
        let looped = Stmt::for_loop(
            "x",
            loopir::MinMax { min: doubling(200), max: Expr::i32(9) },
            loopir::ForType::Serial,
            loopir::DeviceApi::None,
            s.clone(),
        )
        .expect("loop");
        assert!(stmt_text(&s).starts_with("f(x) = g(((((("), "{}", stmt_text(&s));
        let head = stmt_head(&Stmt::block(vec![looped, s]));
        assert!(head.starts_with("for (x, ((((("), "{head}");
        assert!(!head.contains('\n') && head.len() < 300, "{head}");
    }
}
