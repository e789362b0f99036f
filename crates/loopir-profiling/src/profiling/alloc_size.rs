//! The byte size the profiler bills for an allocation, and whether it counts as stack.
//!
//! The reference builds `select(condition, (uint64(e0) * e1 * …) * bytes, 0)` and runs its
//! general simplifier over it. Allocation extents reach this pass already simplified by
//! earlier lowering, so the simplifier's visible work is confined to a small algebra: the
//! uint64 widening of each extent, constant folding, the canonical placement of constant
//! factors on the right of a product, and the canonical forms of comparisons in the
//! condition. This module implements exactly that algebra; extents are otherwise treated
//! as opaque, already-canonical terms.

use loopir::{BinOp, Expr, ExprKind, Type};

use super::error::ProfilingError;

/// Allocations of at most this many bytes with a constant size are on the stack.
pub(crate) const MAX_STACK_BYTES: u64 = 16384;

/// What the pass records about one allocation.
pub(crate) struct AllocSize {
    /// The billed size, a uint64 expression.
    pub size: Expr,
    /// The size when it is a constant.
    pub constant: Option<u64>,
    /// Whether a constant size small enough for the stack was found (before the custom
    /// constructor rule is applied).
    pub fits_on_stack: bool,
}

impl AllocSize {
    /// Whether the billed size is the constant zero (the allocation never happens, or is
    /// empty): such allocations are not accounted at all.
    pub fn is_zero(&self) -> bool {
        self.constant == Some(0)
    }
}

fn u64_imm(v: u64) -> Expr {
    Expr::from_node_unchecked(Type::uint(64, 1), ExprKind::UIntImm(v))
}

/// Computes the billed size of `allocate name[ty * extents] if condition`.
pub(crate) fn allocation_size(
    name: &str,
    ty: Type,
    extents: &[Expr],
    condition: &Expr,
) -> Result<AllocSize, ProfilingError> {
    let condition = simplify_condition(condition);
    if is_const_false(&condition) {
        return Ok(AllocSize { size: u64_imm(0), constant: Some(0), fits_on_stack: true });
    }

    // Bytes per element ignore vector lanes, as in the reference.
    let elem_bytes = (ty.bits() as u64).div_ceil(8);

    let count = constant_element_count(name, extents)?;
    if count > 0 {
        let bytes = count * elem_bytes;
        if bytes <= MAX_STACK_BYTES {
            return Ok(AllocSize { size: u64_imm(bytes), constant: Some(bytes), fits_on_stack: true });
        }
    }

    let mut product: Option<Expr> = None;
    for e in extents {
        let factor = widen_to_u64(e);
        product = Some(match product {
            None => factor,
            Some(acc) => multiply(acc, factor),
        });
    }
    let product = match product {
        Some(p) => multiply(p, u64_imm(elem_bytes)),
        None => u64_imm(elem_bytes),
    };
    let size = if is_const_true(&condition) {
        product
    } else {
        Expr::from_node_unchecked(Type::uint(64, 1), ExprKind::Select(condition, product, u64_imm(0)))
    };
    let constant = match size.kind() {
        ExprKind::UIntImm(v) => Some(*v),
        _ => None,
    };
    Ok(AllocSize { size, constant, fits_on_stack: false })
}

/// The product of the extents when every one is a signed integer immediate (1 for no
/// extents), or 0 when any is not. A product beyond 2³¹ − 1 is refused, as the reference
/// refuses it.
fn constant_element_count(name: &str, extents: &[Expr]) -> Result<u64, ProfilingError> {
    const LIMIT: i64 = (1 << 31) - 1;
    let mut product: i64 = 1;
    for e in extents {
        let ExprKind::IntImm(v) = e.kind() else {
            return Ok(0);
        };
        product = product
            .checked_mul(*v)
            .filter(|p| *p <= LIMIT)
            .ok_or_else(|| ProfilingError::ConstantAllocationTooLarge { name: name.to_owned() })?;
    }
    Ok(if product > 0 { product as u64 } else { 0 })
}

/// `uint64(e)`, folded when `e` is a constant.
fn widen_to_u64(e: &Expr) -> Expr {
    let t = e.ty();
    if t == Type::uint(64, 1) {
        return e.clone();
    }
    match e.kind() {
        // Signed constants convert with two's-complement wrap-around, as a C++ cast does.
        ExprKind::IntImm(v) => u64_imm(*v as u64),
        ExprKind::UIntImm(v) => u64_imm(*v),
        _ => Expr::from_node_unchecked(Type::uint(64, 1), ExprKind::Cast(e.clone())),
    }
}

fn as_u64_const(e: &Expr) -> Option<u64> {
    match e.kind() {
        ExprKind::UIntImm(v) => Some(*v),
        _ => None,
    }
}

/// The rank of a node kind in the reference's node-type order, which decides which
/// operand of a commutative operator goes first (lower ranks move right).
fn node_rank(e: &Expr) -> u8 {
    e.node_type_rank()
}

fn should_commute(a: &Expr, b: &Expr) -> bool {
    let (ra, rb) = (node_rank(a), node_rank(b));
    if ra != rb {
        return ra < rb;
    }
    match (a.kind(), b.kind()) {
        (ExprKind::Variable(x), ExprKind::Variable(y)) => x > y,
        _ => false,
    }
}

fn mul_node(a: Expr, b: Expr) -> Expr {
    let ty = a.ty();
    Expr::from_node_unchecked(ty, ExprKind::Binary(BinOp::Mul, a, b))
}

/// The canonical uint64 product of two already-canonical uint64 terms: constants folded
/// and gathered into a single constant factor on the right.
fn multiply(a: Expr, b: Expr) -> Expr {
    let (a, b) = if should_commute(&a, &b) { (b, a) } else { (a, b) };
    match (as_u64_const(&a), as_u64_const(&b)) {
        (Some(x), Some(y)) => return u64_imm(x.wrapping_mul(y)),
        (Some(0), None) => return a,
        (Some(1), None) => return b,
        (_, Some(0)) => return b,
        (_, Some(1)) => return a,
        _ => {}
    }
    if let ExprKind::Binary(BinOp::Mul, x, c0) = a.kind()
        && let Some(c0v) = as_u64_const(c0)
    {
        return match as_u64_const(&b) {
            // (x * c0) * c1 → x * (c0 * c1)
            Some(c1) => multiply(x.clone(), u64_imm(c0v.wrapping_mul(c1))),
            // (x * c0) * y → (x * y) * c0
            None => multiply(multiply(x.clone(), b), c0.clone()),
        };
    }
    if let ExprKind::Binary(BinOp::Mul, y, c0) = b.kind()
        && let Some(c0v) = as_u64_const(c0)
        && as_u64_const(&a).is_none()
    {
        // x * (y * c0) → (x * y) * c0
        return multiply(multiply(a, y.clone()), u64_imm(c0v));
    }
    mul_node(a, b)
}

fn is_const_false(e: &Expr) -> bool {
    matches!(e.kind(), ExprKind::UIntImm(0) | ExprKind::IntImm(0))
}

fn is_const_true(e: &Expr) -> bool {
    match e.kind() {
        ExprKind::UIntImm(v) => *v != 0,
        ExprKind::IntImm(v) => *v != 0,
        _ => false,
    }
}

fn bool_imm(v: bool) -> Expr {
    Expr::bool(v)
}

fn int_const(e: &Expr) -> Option<i128> {
    match e.kind() {
        ExprKind::IntImm(v) => Some(*v as i128),
        ExprKind::UIntImm(v) => Some(*v as i128),
        _ => None,
    }
}

/// Canonicalises an allocation condition the way the reference simplifier does for the
/// forms conditions take: constants fold, `a > b` becomes `b < a`, `a >= b` becomes
/// `b <= a`, negated comparisons flip, and `&&` / `||` with a constant operand reduce.
/// Other terms are kept as written.
pub(crate) fn simplify_condition(e: &Expr) -> Expr {
    loopir::stack::with_stack(|| simplify_condition_inner(e))
}

fn simplify_condition_inner(e: &Expr) -> Expr {
    let cmp = |op: BinOp, a: Expr, b: Expr| {
        let lanes = a.ty().lanes();
        Expr::from_node_unchecked(Type::bool(lanes), ExprKind::Binary(op, a, b))
    };
    match e.kind() {
        ExprKind::Binary(op, a, b) if op.is_comparison() => {
            let (a, b) = (a.clone(), b.clone());
            if let (Some(x), Some(y)) = (int_const(&a), int_const(&b))
                && a.ty() == b.ty()
            {
                let v = match op {
                    BinOp::Eq => x == y,
                    BinOp::Ne => x != y,
                    BinOp::Lt => x < y,
                    BinOp::Le => x <= y,
                    BinOp::Gt => x > y,
                    _ => x >= y,
                };
                return bool_imm(v);
            }
            match op {
                BinOp::Gt => cmp(BinOp::Lt, b, a),
                BinOp::Ge => cmp(BinOp::Le, b, a),
                _ => e.clone(),
            }
        }
        ExprKind::Not(a) => {
            let a = simplify_condition_inner(a);
            match a.kind() {
                ExprKind::UIntImm(v) if a.ty().is_bool() => bool_imm(*v == 0),
                ExprKind::Binary(BinOp::Lt, x, y) => cmp(BinOp::Le, y.clone(), x.clone()),
                ExprKind::Binary(BinOp::Le, x, y) => cmp(BinOp::Lt, y.clone(), x.clone()),
                ExprKind::Binary(BinOp::Eq, x, y) => cmp(BinOp::Ne, x.clone(), y.clone()),
                ExprKind::Binary(BinOp::Ne, x, y) => cmp(BinOp::Eq, x.clone(), y.clone()),
                ExprKind::Not(x) => x.clone(),
                _ => Expr::from_node_unchecked(a.ty(), ExprKind::Not(a)),
            }
        }
        ExprKind::Binary(op @ (BinOp::And | BinOp::Or), a, b) => {
            let (a, b) = (simplify_condition_inner(a), simplify_condition_inner(b));
            let is_and = *op == BinOp::And;
            for (k, other) in [(&a, &b), (&b, &a)] {
                if is_const_true(k) || is_const_false(k) {
                    let t = is_const_true(k);
                    // true && x → x; false && x → false; true || x → true; false || x → x.
                    return if t == is_and { other.clone() } else { k.clone() };
                }
            }
            Expr::from_node_unchecked(e.ty(), ExprKind::Binary(*op, a, b))
        }
        _ => e.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(n: &str) -> Expr {
        Expr::var_i32(n)
    }

    fn size(extents: Vec<Expr>, ty: Type) -> String {
        allocation_size("f", ty, &extents, &Expr::const_true())
            .map(|s| s.size.to_string())
            .unwrap_or_default()
    }

    #[test]
    fn constants_gather_on_the_right() {
        let f32t = Type::float(32, 1);
        assert_eq!(
            size(vec![Expr::i32(312), v("y"), Expr::i32(1), Expr::i32(7)], f32t),
            "(uint64(y)*8736_u64)"
        );
        assert_eq!(
            size(vec![v("a"), Expr::i32(1), v("b"), Expr::i32(22)], f32t),
            "((uint64(a)*uint64(b))*88_u64)"
        );
        assert_eq!(size(vec![Expr::i32(16), Expr::i32(1), v("s")], f32t), "(uint64(s)*64_u64)");
        assert_eq!(size(vec![Expr::i32(100), Expr::i32(100)], f32t), "40000_u64");
        assert_eq!(
            size(vec![v("a"), v("b"), v("c")], Type::float(32, 1)),
            "(((uint64(a)*uint64(b))*uint64(c))*4_u64)"
        );
    }

    #[test]
    fn small_constant_sizes_fit_on_the_stack() {
        let s = allocation_size("f", Type::float(32, 1), &[Expr::i32(4096)], &Expr::const_true())
            .expect("valid test input");
        assert!(s.fits_on_stack);
        assert_eq!(s.constant, Some(16384));
        let s = allocation_size("f", Type::float(32, 1), &[Expr::i32(4097)], &Expr::const_true())
            .expect("valid test input");
        assert!(!s.fits_on_stack);
        assert_eq!(s.constant, Some(16388));
    }

    #[test]
    fn conditions_are_canonicalised() {
        let c = Expr::gt(v("c"), Expr::i32(0)).expect("valid test input");
        let s = allocation_size("f", Type::float(32, 1), &[v("n"), v("m")], &c).expect("valid test input");
        assert_eq!(s.size.to_string(), "select(0 < c, (uint64(n)*uint64(m))*4_u64, 0_u64)");
        let s = allocation_size("f", Type::float(32, 1), &[v("n")], &Expr::bool(false))
            .expect("valid test input");
        assert!(s.is_zero());
    }

    #[test]
    fn oversized_constant_allocations_are_refused() {
        let r = allocation_size(
            "big",
            Type::uint(8, 1),
            &[Expr::i32(65536), Expr::i32(65536)],
            &Expr::const_true(),
        );
        assert!(matches!(r, Err(ProfilingError::ConstantAllocationTooLarge { .. })));
    }
}
