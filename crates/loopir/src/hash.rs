//! Structural hashes of expressions, cached per node.
//!
//! Equal expressions hash equally, so two expressions whose hashes differ are different,
//! told in O(1) once both hashes are known. An analysis that compares many large
//! expressions (the simplifier's memo tables, bounds inference's box merges) owns a
//! [`HashCache`] and installs it on the thread for the duration of its work
//! ([`HashScope`]); [`crate::equality::equal`] then rejects differing expressions by their
//! cached hashes instead of walking them, and memo tables keyed by structure use
//! [`installed_hash`]. Each entry pins its node's address ([`crate::ExprAddress`]) without
//! counting as a handle, so the cache neither keeps nodes alive nor makes them look shared.
//!
//! ```
//! use loopir::hash::{HashCache, HashScope, installed_hash};
//! use std::{cell::RefCell, rc::Rc};
//!
//! let a = loopir::parse_expr("min(x + 1, y)").unwrap();
//! let b = loopir::parse_expr("min(x + 1, y)").unwrap();
//! assert_eq!(installed_hash(&a), None); // no cache installed
//! let cache = Rc::new(RefCell::new(HashCache::default()));
//! let _scope = HashScope::install(&cache);
//! assert_eq!(installed_hash(&a), installed_hash(&b));
//! ```

use std::cell::RefCell;
use std::hash::{Hash, Hasher};
use std::rc::Rc;

use crate::address_map::AddressMap;
use crate::expr::{Expr, ExprAddress, ExprKind, ExprNode};
use crate::stack::with_stack;

/// Structural hashes by node (interior nodes only: a leaf hashes as fast as it is looked
/// up).
#[derive(Default)]
pub struct HashCache {
    hashes: AddressMap<*const ExprNode, (ExprAddress, u64)>,
}

impl HashCache {
    /// The hash recorded for `e`, if any (nothing is computed).
    pub fn recorded(&self, e: &Expr) -> Option<u64> {
        self.hashes.get(&e.as_ptr()).map(|(_, h)| *h)
    }

    /// The structural hash of `e`, computing and recording what is missing.
    pub fn hash(&mut self, e: &Expr) -> u64 {
        if let Some((_, h)) = self.hashes.get(&e.as_ptr()) {
            return *h;
        }
        let mut hasher = rustc_hash::FxHasher::default();
        hash_node(e, &mut hasher);
        for c in e.children() {
            with_stack(|| self.hash(c)).hash(&mut hasher);
        }
        let h = hasher.finish();
        if !e.is_leaf() {
            self.hashes.insert(e.as_ptr(), (e.address(), h));
        }
        h
    }
}

thread_local! {
    static INSTALLED: RefCell<Option<Rc<RefCell<HashCache>>>> = const { RefCell::new(None) };
}

/// Installs a hash cache on this thread until dropped (restoring the one it replaced).
pub struct HashScope {
    previous: Option<Rc<RefCell<HashCache>>>,
}

impl HashScope {
    /// Makes `cache` the thread's installed cache.
    pub fn install(cache: &Rc<RefCell<HashCache>>) -> HashScope {
        let previous = INSTALLED.with(|h| h.borrow_mut().replace(cache.clone()));
        HashScope { previous }
    }
}

impl Drop for HashScope {
    fn drop(&mut self) {
        let previous = self.previous.take();
        INSTALLED.with(|h| *h.borrow_mut() = previous);
    }
}

/// Hashes what makes `e` itself, its children aside: its type, its kind and the kind's
/// own data (what [`crate::equality::shallow_eq`] compares).
pub fn hash_node<H: Hasher>(e: &Expr, hasher: &mut H) {
    e.ty().hash(hasher);
    std::mem::discriminant(e.kind()).hash(hasher);
    match e.kind() {
        ExprKind::IntImm(v) => v.hash(hasher),
        ExprKind::UIntImm(v) => v.hash(hasher),
        ExprKind::FloatImm(v) => v.to_bits().hash(hasher),
        ExprKind::StringImm(v) => v.hash(hasher),
        ExprKind::Variable(n) => n.hash(hasher),
        ExprKind::Binary(op, _, _) => op.hash(hasher),
        ExprKind::Load { name, index: _, predicate: _, alignment } => {
            name.hash(hasher);
            alignment.hash(hasher);
        }
        ExprKind::Ramp { base: _, stride: _, lanes } | ExprKind::Broadcast { value: _, lanes } => {
            lanes.hash(hasher)
        }
        ExprKind::Call { name, args: _, call_type, value_index } => {
            name.hash(hasher);
            call_type.hash(hasher);
            value_index.hash(hasher);
        }
        ExprKind::Let { name, value: _, body: _ } => name.hash(hasher),
        ExprKind::Shuffle { vectors: _, indices } => indices.hash(hasher),
        ExprKind::VectorReduce { op, value: _ } => op.hash(hasher),
        ExprKind::Cast(_) | ExprKind::Reinterpret(_) | ExprKind::Not(_) | ExprKind::Select(_, _, _) => {}
    }
}

/// The structural hash of `e` through the installed cache (`None` without one, or while
/// the cache is in use further up the stack).
pub fn installed_hash(e: &Expr) -> Option<u64> {
    INSTALLED.with(|h| {
        let installed = h.borrow();
        let mut cache = installed.as_ref()?.try_borrow_mut().ok()?;
        Some(cache.hash(e))
    })
}

/// The hashes the installed cache has recorded for `a` and `b` (nothing is computed).
pub(crate) fn recorded_hashes(a: &Expr, b: &Expr) -> (Option<u64>, Option<u64>) {
    INSTALLED.with(|h| {
        let installed = h.borrow();
        let Some(cache) = installed.as_ref() else { return (None, None) };
        let Ok(cache) = cache.try_borrow() else { return (None, None) };
        (cache.recorded(a), cache.recorded(b))
    })
}

/// Whether the installed cache (if any) shows `a` and `b` to differ, hashing them if they
/// are not recorded yet.
pub(crate) fn hashes_differ(a: &Expr, b: &Expr) -> bool {
    INSTALLED.with(|h| {
        let installed = h.borrow();
        let Some(cache) = installed.as_ref() else { return false };
        let Ok(mut cache) = cache.try_borrow_mut() else { return false };
        cache.hash(a) != cache.hash(b)
    })
}
