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
    /// Where the binding sits in the scope's entries.
    index: usize,
}

impl Token {
    /// The name that was bound.
    pub fn name(&self) -> &Name {
        &self.name
    }
}

/// One binding. The bindings of a scope live in one vector in push order, and each points
/// at the binding of the same name it shadows: pushes and pops (which are almost always in
/// reverse order) touch the end of that vector, and a lookup is one hash probe, with no
/// allocation per name.
struct Entry<T> {
    id: u64,
    /// `None` once popped (a binding popped out of order stays in place, empty, until
    /// everything pushed after it is popped).
    value: Option<T>,
    /// The binding of the same name this one shadows.
    below: Option<usize>,
}

/// Names bound to stacks of values (see the module docs).
pub struct Scope<'p, T> {
    /// Per name: its innermost local binding. Keyed with [`loopir::name_map`]: a chain
    /// binds `t1`, `t2`, ... in order, and so touches the table in order.
    top: loopir::name_map::NameMap<Name, usize>,
    /// Every local binding still in place, in push order; the last one is live.
    entries: Vec<Entry<T>>,
    parent: Option<&'p Scope<'p, T>>,
    iterations: Cell<u64>,
}

impl<T> Default for Scope<'_, T> {
    fn default() -> Self {
        Scope { top: Default::default(), entries: Vec::new(), parent: None, iterations: Cell::new(0) }
    }
}

impl<T: std::fmt::Debug> std::fmt::Debug for Scope<'_, T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_map().entries(self.local()).finish()
    }
}

impl<'p, T> Scope<'p, T> {
    /// An empty scope with no parent.
    pub fn new() -> Self {
        Self::default()
    }

    /// An empty scope that consults `parent` for names it does not bind itself.
    pub fn with_parent(parent: &'p Scope<'p, T>) -> Self {
        Scope { parent: Some(parent), ..Scope::default() }
    }

    /// Binds `name` to `value`, shadowing any existing binding.
    pub fn push(&mut self, name: impl Into<Name>, value: T) -> Token {
        let name = name.into();
        let id = fresh_binding_id();
        let index = self.entries.len();
        let below = self.top.insert(name.clone(), index);
        self.entries.push(Entry { id, value: Some(value), below });
        Token { name, id, index }
    }

    /// The innermost local binding of `name`.
    fn innermost(&self, name: &str) -> Option<&Entry<T>> {
        self.top.get(name).and_then(|&i| self.entries.get(i))
    }

    /// Unlinks the bindings of `name` from the innermost down to the one at `index`
    /// (inclusive), returning the value of the last one unlinked.
    fn unlink(&mut self, name: &Name, index: usize) -> Option<T> {
        let mut at = *self.top.get(name)?;
        let value = loop {
            let entry = self.entries.get_mut(at)?;
            let value = entry.value.take();
            let below = entry.below;
            if at == index {
                match below {
                    Some(b) => self.top.insert(name.clone(), b),
                    None => self.top.remove(name),
                };
                break value;
            }
            at = below?;
        };
        // Popped entries at the end go; the last one left is live.
        while self.entries.last().is_some_and(|e| e.value.is_none()) {
            self.entries.pop();
        }
        value
    }

    /// Removes the binding made by the push that returned `token` (and, if later pushes of
    /// the same name were not popped, those too).
    pub fn pop_token(&mut self, token: Token) {
        let live = self.entries.get(token.index).is_some_and(|e| e.id == token.id && e.value.is_some());
        if live {
            self.unlink(&token.name, token.index);
        }
    }

    /// Removes the innermost local binding of `name`, returning its value.
    pub fn pop(&mut self, name: &str) -> Option<T> {
        let (key, &index) = self.top.get_key_value(name)?;
        let key = key.clone();
        self.unlink(&key, index)
    }

    /// The innermost value of `name`, here or in the parent chain.
    pub fn find(&self, name: &str) -> Option<&T> {
        match self.innermost(name).and_then(|e| e.value.as_ref()) {
            Some(v) => Some(v),
            None => self.parent.and_then(|p| p.find(name)),
        }
    }

    /// The innermost value of `name` with its binding id, here or in the parent chain.
    pub fn find_with_id(&self, name: &str) -> Option<(u64, &T)> {
        match self.innermost(name).and_then(|e| Some((e.id, e.value.as_ref()?))) {
            Some(found) => Some(found),
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
        match self.entries.last() {
            Some(e) => e.id,
            None => self.parent.map_or(0, Scope::top_binding_id),
        }
    }

    /// The innermost value of `name` in this scope only (not the parents), mutably.
    pub fn find_local_mut(&mut self, name: &str) -> Option<&mut T> {
        let &i = self.top.get(name)?;
        self.entries.get_mut(i).and_then(|e| e.value.as_mut())
    }

    /// Whether `name` is bound here or in a parent.
    pub fn contains(&self, name: &str) -> bool {
        self.top.contains_key(name) || self.parent.is_some_and(|p| p.contains(name))
    }

    /// The number of local bindings of `name`.
    pub fn depth(&self, name: &str) -> usize {
        let mut at = self.top.get(name).copied();
        let mut n = 0;
        while let Some(i) = at {
            n += 1;
            at = self.entries.get(i).and_then(|e| e.below);
        }
        n
    }

    /// Whether nothing is bound locally.
    pub fn is_empty(&self) -> bool {
        self.top.is_empty()
    }

    fn local(&self) -> impl Iterator<Item = (&Name, &T)> {
        self.top.iter().filter_map(|(k, &i)| Some((k, self.entries.get(i)?.value.as_ref()?)))
    }

    /// Local names with their innermost values (in no particular order).
    pub fn iter(&self) -> impl Iterator<Item = (&Name, &T)> {
        self.iterations.set(self.iterations.get() + 1);
        self.local()
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
    fn pops_out_of_order() {
        let mut s: Scope<i32> = Scope::new();
        let a = s.push("a", 1);
        let x1 = s.push("x", 2);
        let b = s.push("b", 3);
        let x2 = s.push("x", 4);
        let top = s.top_binding_id();
        // Popping the outer `x` takes the inner one with it; `b` stays.
        s.pop_token(x1);
        assert_eq!((s.find("x"), s.find("b"), s.depth("x")), (None, Some(&3), 0));
        assert_ne!(s.top_binding_id(), top);
        s.pop_token(x2);
        assert_eq!(s.find("b"), Some(&3));
        // A token of a binding pushed later in the same place is not confused with it.
        s.pop_token(b);
        let c = s.push("c", 5);
        assert_eq!(s.find("c"), Some(&5));
        assert_eq!(s.pop("a"), Some(1));
        assert_eq!(s.find("c"), Some(&5));
        s.pop_token(a);
        assert_eq!(s.find("c"), Some(&5));
        s.pop_token(c);
        assert!(s.is_empty());
        assert_eq!(s.top_binding_id(), 0);
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
