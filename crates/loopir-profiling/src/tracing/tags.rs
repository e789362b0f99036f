//! Bookkeeping for tag events: which user tags to emit, which Funcs and images were
//! touched with which element types, and the `func_type_and_dim` tag text (`docs/reference/tracing.md` §8.3–8.4).

use std::collections::{BTreeMap, HashSet};

use loopir::{Expr, Intrinsic, Type};

use super::boxes::TouchedBox;
use super::error::TracingError;
use super::event::type_triple;

/// User tags in the order their owners were first registered.
#[derive(Default)]
pub(crate) struct TagRegistry {
    entries: Vec<(String, Vec<String>)>,
    seen: HashSet<String>,
}

impl TagRegistry {
    /// Registers `name`'s tags the first time it is met with a non-empty list.
    pub(crate) fn register(&mut self, name: &str, tags: &[String]) {
        if tags.is_empty() || self.seen.contains(name) {
            return;
        }
        self.seen.insert(name.to_owned());
        self.entries.push((name.to_owned(), tags.to_vec()));
    }
    /// Entries in registration order.
    pub(crate) fn entries(&self) -> &[(String, Vec<String>)] {
        &self.entries
    }
}

/// Element types touched per name, indexed by value index; `None` is a hole (an element
/// never touched, Halide's default type).
#[derive(Default)]
pub(crate) struct TouchTable {
    types: BTreeMap<String, Vec<Option<Type>>>,
}

impl TouchTable {
    /// Records that element `value_index` of `name` was touched with type `ty`. A later
    /// touch of a recorded slot must agree with it; a hole never agrees with a real type
    /// (Halide's internal assertion). `node` names the access for the error.
    pub(crate) fn touch(
        &mut self,
        name: &str,
        value_index: u32,
        ty: Type,
        node: impl FnOnce() -> String,
    ) -> Result<(), TracingError> {
        let i = value_index as usize;
        let slots = self.types.entry(name.to_owned()).or_default();
        if slots.len() <= i {
            slots.resize(i + 1, None);
            slots[i] = Some(ty);
            return Ok(());
        }
        if slots[i] == Some(ty) {
            return Ok(());
        }
        Err(TracingError::TypeConflict {
            name: name.to_owned(),
            value_index,
            recorded: slots[i].map_or_else(|| "handle0 (not yet known)".to_owned(), |t| t.to_string()),
            found: ty.to_string(),
            node: node(),
        })
    }
    pub(crate) fn get(&self, name: &str) -> Option<&[Option<Type>]> {
        self.types.get(name).map(Vec::as_slice)
    }
    pub(crate) fn is_empty(&self) -> bool {
        self.types.is_empty()
    }
    /// Entries in ascending name order.
    pub(crate) fn iter(&self) -> impl Iterator<Item = (&String, &Vec<Option<Type>>)> {
        self.types.iter()
    }
}

/// The `stringify(...)` tag text of a `func_type_and_dim` tag: the element count and
/// types, then the box's dimension count and `min extent` per dimension (`0 0` for an
/// unbounded one).
pub(crate) fn func_type_and_dim(
    name: &str,
    types: &[Option<Type>],
    b: &TouchedBox,
) -> Result<Expr, TracingError> {
    let space = || Expr::string(b" ");
    let count = |n: usize| Expr::i32(i32::try_from(n).unwrap_or(i32::MAX));
    let mut parts = vec![Expr::string(b"func_type_and_dim:"), space(), count(types.len())];
    for ty in types {
        for v in type_triple(*ty) {
            parts.push(space());
            parts.push(Expr::i32(v));
        }
    }
    parts.push(space());
    parts.push(count(b.dims.len()));
    for (d, interval) in b.dims.iter().enumerate() {
        match (&interval.min, &interval.max) {
            (Some(min), Some(max)) => {
                let ir_err = |source| TracingError::Ir {
                    what: format!("the extent of dimension {d} of the touched box of `{name}`"),
                    source,
                };
                let one = Expr::int_imm(max.ty(), 1).map_err(ir_err)?;
                let extent = Expr::sub(max.clone(), min.clone()).and_then(|diff| Expr::add(diff, one));
                let extent = extent.map_err(ir_err)?;
                parts.extend([space(), min.clone(), space(), extent]);
            }
            _ => parts.extend([space(), Expr::i32(0), space(), Expr::i32(0)]),
        }
    }
    Ok(Intrinsic::Stringify.call(Type::c_string(), parts))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tracing::boxes::TouchedInterval;

    #[test]
    fn holes_conflict_with_real_types() {
        let mut t = TouchTable::default();
        t.touch("g", 1, Type::float(32, 1), String::new).expect("first touch");
        assert_eq!(t.get("g"), Some(&[None, Some(Type::float(32, 1))][..]));
        let err = t.touch("g", 0, Type::float(32, 1), || "g(x)".into()).expect_err("hole");
        assert!(err.to_string().contains("value 0 of `g`"), "{err}");
        t.touch("g", 1, Type::float(32, 1), String::new).expect("same type again");
    }

    #[test]
    fn tag_text_prints_like_halide() {
        let b = TouchedBox {
            dims: vec![
                TouchedInterval::bounded(Expr::var_i32("f.s0.x.min"), Expr::var_i32("f.s0.x.max")),
                TouchedInterval::everything(),
            ],
        };
        let e = func_type_and_dim("f", &[None, Some(Type::int(32, 1))], &b).expect("builds");
        assert_eq!(
            e.to_string(),
            "(char const *)stringify(\"func_type_and_dim:\", \" \", 2, \" \", 3, \" \", 0, \" \", 0, \" \", 0, \
             \" \", 32, \" \", 1, \" \", 2, \" \", f.s0.x.min, \" \", (f.s0.x.max - f.s0.x.min) + 1, \" \", 0, \" \", 0)"
        );
    }
}
