//! The `likely` hints loop partitioning reads, and removing them for analyses that do not.

use loopir::address_map::AddressMap;
use loopir::stack::with_stack;
use loopir::{Expr, ExprNode, Intrinsic};

/// `e` without its `likely` and `likely_if_innermost` hints.
pub fn remove_likelies(e: &Expr) -> Expr {
    fn go(e: &Expr, memo: &mut AddressMap<*const ExprNode, Expr>) -> Expr {
        if let Some(r) = memo.get(&e.as_ptr()) {
            return r.clone();
        }
        let r = with_stack(|| match e.as_intrinsic() {
            Some((Intrinsic::Likely | Intrinsic::LikelyIfInnermost, [x])) => go(x, memo),
            _ => e.map_children(|c| go(c, memo)),
        });
        memo.insert(e.as_ptr(), r.clone());
        r
    }
    go(e, &mut AddressMap::default())
}
