//! `Scope<T>`: a map from names to stacks of values, with shadowing and an optional
//! read-only parent.
//!
//! Every operation is O(1) expected: lookups hash the name once, pushes and pops touch one
//! stack, and nothing ever copies or walks the whole scope (a parent is consulted by
//! reference). Each binding carries a process-unique *binding id*, which analyses use to
//! key memo tables: a cached result for a node stays valid exactly as long as the binding
//! ids of the node's free variables are unchanged.

use std::cell::Cell;
use std::sync::atomic::{AtomicU64, Ordering};

use loopir::Name;
use rustc_hash::FxHashMap;

static NEXT_BINDING: AtomicU64 = AtomicU64::new(1);

fn fresh_binding_id() -> u64 {
    NEXT_BINDING.fetch_add(1, Ordering::Relaxed)
}

/// Proof of a push, to be handed back to [`Scope::pop_token`].
#[derive(Debug)]
#[must_use = "a pushed binding should be popped"]
pub struct Token {
    name: Name,
    id: u64,
}

impl Token {
    /// The name that was bound.
    pub fn name(&self) -> &Name {
        &self.name
    }
}

/// Names bound to stacks of values (see the module docs).
pub struct Scope<'p, T> {
    table: FxHashMap<Name, Vec<(u64, T)>>,
    /// Ids of the active local bindings, in push order.
    active: Vec<u64>,
    parent: Option<&'p Scope<'p, T>>,
    iterations: Cell<u64>,
}

impl<T> Default for Scope<'_, T> {
    fn default() -> Self {
        Scope { table: FxHashMap::default(), active: Vec::new(), parent: None, iterations: Cell::new(0) }
    }
}

impl<T: std::fmt::Debug> std::fmt::Debug for Scope<'_, T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_map().entries(self.table.iter().filter_map(|(k, v)| v.last().map(|(_, t)| (k, t)))).finish()
    }
}

impl<'p, T> Scope<'p, T> {
    /// An empty scope with no parent.
    pub fn new() -> Self {
        Self::default()
    }

    /// An empty scope that consults `parent` for names it does not bind itself.
    pub fn with_parent(parent: &'p Scope<'p, T>) -> Self {
        Scope {
            table: FxHashMap::default(),
            active: Vec::new(),
            parent: Some(parent),
            iterations: Cell::new(0),
        }
    }

    /// Binds `name` to `value`, shadowing any existing binding.
    pub fn push(&mut self, name: impl Into<Name>, value: T) -> Token {
        let name = name.into();
        let id = fresh_binding_id();
        self.table.entry(name.clone()).or_default().push((id, value));
        self.active.push(id);
        Token { name, id }
    }

    /// Removes the binding made by the push that returned `token` (and, if later pushes of
    /// the same name were not popped, those too).
    pub fn pop_token(&mut self, token: Token) {
        if let Some(stack) = self.table.get_mut(&token.name) {
            if let Some(pos) = stack.iter().rposition(|(id, _)| *id == token.id) {
                for (id, _) in stack.drain(pos..) {
                    if let Some(p) = self.active.iter().rposition(|a| *a == id) {
                        self.active.remove(p);
                    }
                }
            }
            if stack.is_empty() {
                self.table.remove(&token.name);
            }
        }
    }

    /// Removes the innermost local binding of `name`, returning its value.
    pub fn pop(&mut self, name: &str) -> Option<T> {
        let stack = self.table.get_mut(name)?;
        let popped = stack.pop();
        if let Some((id, _)) = &popped
            && let Some(p) = self.active.iter().rposition(|a| a == id)
        {
            self.active.remove(p);
        }
        let value = popped.map(|(_, v)| v);
        if stack.is_empty() {
            self.table.remove(name);
        }
        value
    }

    /// The innermost value of `name`, here or in the parent chain.
    pub fn find(&self, name: &str) -> Option<&T> {
        match self.table.get(name).and_then(|s| s.last()) {
            Some((_, v)) => Some(v),
            None => self.parent.and_then(|p| p.find(name)),
        }
    }

    /// The innermost value of `name` with its binding id, here or in the parent chain.
    pub fn find_with_id(&self, name: &str) -> Option<(u64, &T)> {
        match self.table.get(name).and_then(|s| s.last()) {
            Some((id, v)) => Some((*id, v)),
            None => self.parent.and_then(|p| p.find_with_id(name)),
        }
    }

    /// The binding id of the innermost binding of `name` (0 when unbound).
    pub fn binding_id(&self, name: &str) -> u64 {
        self.find_with_id(name).map_or(0, |(id, _)| id)
    }

    /// The id of the most recent binding still active here or in a parent (0 if none).
    /// Because bindings are pushed and popped in nested (LIFO) order and ids are never
    /// reused, this id identifies the whole current state of the scope.
    pub fn top_binding_id(&self) -> u64 {
        match self.active.last() {
            Some(id) => *id,
            None => self.parent.map_or(0, Scope::top_binding_id),
        }
    }

    /// The innermost value of `name` in this scope only (not the parents), mutably.
    pub fn find_local_mut(&mut self, name: &str) -> Option<&mut T> {
        self.table.get_mut(name).and_then(|s| s.last_mut()).map(|(_, v)| v)
    }

    /// Whether `name` is bound here or in a parent.
    pub fn contains(&self, name: &str) -> bool {
        self.table.contains_key(name) || self.parent.is_some_and(|p| p.contains(name))
    }

    /// The number of local bindings of `name`.
    pub fn depth(&self, name: &str) -> usize {
        self.table.get(name).map_or(0, Vec::len)
    }

    /// Whether nothing is bound locally.
    pub fn is_empty(&self) -> bool {
        self.table.is_empty()
    }

    /// Local names with their innermost values (in no particular order).
    pub fn iter(&self) -> impl Iterator<Item = (&Name, &T)> {
        self.iterations.set(self.iterations.get() + 1);
        self.table.iter().filter_map(|(k, v)| v.last().map(|(_, t)| (k, t)))
    }

    /// How many times [`Scope::iter`] was called on this scope (an instrumentation counter
    /// for complexity tests: queries must never iterate the scope).
    pub fn iterations(&self) -> u64 {
        self.iterations.get()
    }

    /// Binds `name` for as long as the returned guard lives.
    pub fn bind(&mut self, name: impl Into<Name>, value: T) -> ScopedBinding<'_, 'p, T> {
        let token = Some(self.push(name, value));
        ScopedBinding { scope: self, token }
    }
}

/// A binding that is popped when the guard is dropped.
pub struct ScopedBinding<'s, 'p, T> {
    scope: &'s mut Scope<'p, T>,
    token: Option<Token>,
}

impl<'p, T> ScopedBinding<'_, 'p, T> {
    /// The scope with the binding in place.
    pub fn scope(&mut self) -> &mut Scope<'p, T> {
        self.scope
    }
}

impl<T> Drop for ScopedBinding<'_, '_, T> {
    fn drop(&mut self) {
        if let Some(t) = self.token.take() {
            self.scope.pop_token(t);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shadowing_and_parents() {
        let mut outer: Scope<i32> = Scope::new();
        let _t = outer.push("x", 1);
        let mut inner = Scope::with_parent(&outer);
        assert_eq!(inner.find("x"), Some(&1));
        let t = inner.push("x", 2);
        let t2 = inner.push("x", 3);
        assert_eq!(inner.find("x"), Some(&3));
        assert_eq!(inner.depth("x"), 2);
        inner.pop_token(t2);
        assert_eq!(inner.find("x"), Some(&2));
        inner.pop_token(t);
        assert_eq!(inner.find("x"), Some(&1));
        assert!(inner.contains("x"));
        assert!(inner.find_local_mut("x").is_none());
        assert_eq!(inner.iterations(), 0);
    }

    #[test]
    fn guards_pop_and_ids_are_unique() {
        let mut s: Scope<()> = Scope::new();
        let a = s.push("y", ());
        let id_a = s.binding_id("y");
        {
            let mut g = s.bind("y", ());
            assert_ne!(g.scope().binding_id("y"), id_a);
        }
        assert_eq!(s.binding_id("y"), id_a);
        s.pop_token(a);
        assert_eq!(s.binding_id("y"), 0);
        assert!(s.is_empty());
        assert_eq!(s.pop("y"), None);
    }
}
