//! # loopir
//!
//! The lowered loop IR of Halide, in Rust: every expression and statement kind, cheap to
//! clone and shared between versions of a program; visitors and mutators that keep
//! unchanged subtrees shared; a printer whose text is byte-identical to Halide's `.stmt`
//! output; and a parser that reads that text back.
//!
//! ```
//! use loopir::{parse_stmt, Stmt};
//!
//! let text = "for (x, 0, 9) {\n f[x] = (float32)g[x]*2.000000f\n}\n";
//! let stmt: Stmt = parse_stmt(text).expect("valid .stmt text");
//! assert_eq!(stmt.to_string(), text);
//! ```

pub mod address_map;
pub mod binder;
pub mod build;
pub mod constant;
pub mod dag;
pub mod dialect;
pub mod equality;
pub mod error;
pub mod expr;
pub mod free_vars;
pub mod hash;
pub mod intrinsic;
pub mod make;
pub mod module;
pub mod mutate;
pub mod name_map;
pub mod parse;
pub mod pipeline;
pub mod print;
pub mod stack;
pub mod stmt;
pub mod substitute;
pub(crate) mod teardown;
pub mod types;
pub mod verify;
pub mod visit;

pub use binder::Binder;
pub use dialect::Dialect;
pub use error::IrError;
pub use expr::{
    BinOp, CallType, Expr, ExprAddress, ExprKind, ExprNode, ModulusRemainder, Name, VectorReduceOp, name,
};
pub use intrinsic::{Arity, Intrinsic, IntrinsicKind};
pub use module::{Linkage, LoweredFunc, Module, ModuleBuffer, StmtFile};
pub use mutate::{Mutator, TryMutator};
pub use parse::{
    ParseEnv, ParseError, ParseErrorKind, ParseOptions, Parsed, parse_expr, parse_expr_with_env, parse_stmt,
    parse_stmt_bytes, parse_stmt_with_env, parse_stmt_with_options,
};
pub use print::{PrintOptions, expr_to_string, stmt_to_string, stmt_to_string_with};
pub use stmt::{
    DeviceApi, ForType, MemoryType, MinExtent, MinMax, PartitionPolicy, PrefetchDirective, Stmt, StmtKind,
};
pub use types::{CType, Type, TypeCode};
pub use visit::Visitor;

/// The guide `docs/ir.md`: compiled here so that its examples run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../../../docs/ir.md")]
pub struct IrGuide;

#[cfg(test)]
mod tests {
    #[test]
    fn nodes_are_send_and_sync() {
        fn check<T: Send + Sync>() {}
        check::<crate::Expr>();
        check::<crate::Stmt>();
    }
}
