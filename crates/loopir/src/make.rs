//! Node constructors for analyses: no checks, no conversions.
//!
//! An analysis builds many small expressions from operands whose types it knows to agree
//! (the two ends of one interval, an end and a constant made in its type). These
//! constructors take the result type from the operands and never fail, as Halide's
//! `Add::make` and friends do once their assertions are compiled out. The input's types
//! are checked where the input is read; a frontend building IR from its own program uses
//! [`crate::build`], whose operators convert operands as Halide's front end does, and
//! untrusted operands go through the checked constructors on [`Expr`].
//!
//! ```
//! use loopir::{make, Expr};
//! let x = Expr::var_i32("x");
//! let e = make::min(make::add(x.clone(), Expr::i32(1)), x);
//! assert_eq!(e.to_string(), "min(x + 1, x)");
//! ```

use crate::expr::{BinOp, Expr, ExprKind, Name};
use crate::intrinsic::Intrinsic;
use crate::types::Type;

/// A binary node; the result type is the operands' (boolean for comparisons).
pub fn binary(op: BinOp, a: Expr, b: Expr) -> Expr {
    let ty = if op.is_comparison() { Type::bool(a.ty().lanes()) } else { a.ty() };
    Expr::from_node_unchecked(ty, ExprKind::Binary(op, a, b))
}

macro_rules! binary_constructors {
    ($($fname:ident => $op:ident),* $(,)?) => {
        $(
            #[doc = concat!("The `", stringify!($op), "` node of two operands of one type.")]
            pub fn $fname(a: Expr, b: Expr) -> Expr {
                binary(BinOp::$op, a, b)
            }
        )*
    };
}
binary_constructors!(add => Add, sub => Sub, mul => Mul, div => Div, modulo => Mod, min => Min, max => Max,
    eq => Eq, ne => Ne, lt => Lt, le => Le, gt => Gt, ge => Ge, and => And, or => Or);

/// `!a`.
pub fn not(a: Expr) -> Expr {
    Expr::from_node_unchecked(a.ty(), ExprKind::Not(a))
}

/// `select(condition, t, f)`, of the type of `t`.
pub fn select(condition: Expr, t: Expr, f: Expr) -> Expr {
    Expr::from_node_unchecked(t.ty(), ExprKind::Select(condition, t, f))
}

/// `a` converted to `ty`: a cast, or `a` itself when it has that type already.
pub fn cast(ty: Type, a: Expr) -> Expr {
    if a.ty() == ty { a } else { Expr::from_node_unchecked(ty, ExprKind::Cast(a)) }
}

/// `let name = value in body`.
pub fn let_in(name: Name, value: Expr, body: Expr) -> Expr {
    Expr::let_in(name, value, body)
}

/// A call to `intrinsic` returning `ty`.
pub fn intrinsic(intrinsic: Intrinsic, ty: Type, args: Vec<Expr>) -> Expr {
    intrinsic.call(ty, args)
}
