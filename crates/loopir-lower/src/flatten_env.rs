//! What storage flattening knows beyond the IR: [`FlattenEnv`].
//!
//! The reference reads it from its `Function` objects and target; loopir takes it from a
//! bounds env ([`FlattenEnv::from_bounds_env`]) or builds it by hand. The bounds env does
//! not carry everything the pass can use; what it lacks gets the reference's default
//! schedule (see the fields) and is listed in `docs/lower.md`.

use std::collections::{BTreeMap, BTreeSet};

use loopir::dag::{self, Node};
use loopir::{Expr, ExprKind, Intrinsic, Stmt, Type};
use loopir_bounds::env::BoundsEnv;
use rustc_hash::FxHashSet;

use crate::error::LowerError;

/// The env of storage flattening.
#[derive(Clone, Debug, Default)]
pub struct FlattenEnv {
    /// Every Func of the pipeline by name (not its tuple components: `f`, not `f.0`).
    pub funcs: BTreeMap<String, FlattenFunc>,
    /// The Funcs that are pipeline outputs. A Provide to one that is not realized stores
    /// through its output buffer's `.min.N`/`.stride.N` symbols.
    pub outputs: BTreeSet<String>,
    /// The names loaded as images (input buffer parameters and embedded buffers). A call
    /// to one is an image load whatever its call type (text read without knowing the
    /// images types such calls as extern calls).
    pub images: BTreeSet<String>,
    /// Images and output buffers (output Func names, or their tuple components `f.0`)
    /// whose memory type is GPU texture: inside GPU loops they are read with `image_load`
    /// and written with `image_store`.
    pub textures: BTreeSet<String>,
    /// The target's `large_buffers` feature: indices are computed in 64 bits.
    pub large_buffers: bool,
}

/// What the pass knows about one Func.
#[derive(Clone, Debug, Default)]
pub struct FlattenFunc {
    /// Pure argument names, in definition order: dimension `i` of a realization is
    /// argument `i`.
    pub args: Vec<String>,
    /// Value types, one per tuple element.
    pub types: Vec<Type>,
    /// Storage dimensions, innermost first: a permutation of `args`, each with its
    /// optional alignment and storage bound. Empty means the default: `args` in order,
    /// unaligned and unbounded.
    pub storage: Vec<StorageDim>,
    /// Whether the Func is ring-buffered: its realizations have one more dimension, the
    /// outermost in storage.
    pub ring_buffer: bool,
}

/// One storage dimension of a Func (Halide's `StorageDim`).
#[derive(Clone, Debug)]
pub struct StorageDim {
    /// The pure argument stored in this dimension.
    pub var: String,
    /// Extents are rounded up to a multiple of this (`align_storage`).
    pub alignment: Option<Expr>,
    /// The extent is exactly this, checked at run time (`bound_storage`).
    pub bound: Option<Expr>,
}

impl StorageDim {
    /// A dimension with neither alignment nor bound.
    pub fn plain(var: &str) -> StorageDim {
        StorageDim { var: var.to_owned(), alignment: None, bound: None }
    }
}

impl FlattenFunc {
    /// The storage dimensions, the default order when none are given.
    pub fn storage_dims(&self) -> Vec<StorageDim> {
        if self.storage.is_empty() {
            self.args.iter().map(|a| StorageDim::plain(a)).collect()
        } else {
            self.storage.clone()
        }
    }

    /// For each storage dimension, innermost first, the index of its argument.
    pub(crate) fn storage_permutation(&self) -> Vec<usize> {
        self.storage_dims().iter().filter_map(|d| self.args.iter().position(|a| *a == d.var)).collect()
    }
}

impl FlattenEnv {
    /// The env a bounds env (`bounds.env.json`) gives: every Func with its pure
    /// arguments and value types, in the default storage order, unaligned, unbounded,
    /// not ring-buffered; the outputs. A bounds env lists no images, textures or target
    /// features: fill [`FlattenEnv::images`] (e.g. with [`infer_images`]) before running
    /// the pass on IR whose image loads are not typed as such.
    pub fn from_bounds_env(env: &BoundsEnv) -> Result<FlattenEnv, LowerError> {
        let mut funcs = BTreeMap::new();
        for (name, f) in &env.funcs {
            let mut types = Vec::with_capacity(f.types.len());
            for (k, t) in f.types.iter().enumerate() {
                let ty = if t == "bool" { Some(Type::BOOL) } else { Type::parse(t) };
                let ty = ty.ok_or_else(|| {
                    LowerError::env(format!("funcs.{name}.types[{k}]"), format!("`{t}` is not a type"))
                })?;
                types.push(ty);
            }
            funcs.insert(
                name.clone(),
                FlattenFunc { args: f.args.clone(), types, storage: Vec::new(), ring_buffer: false },
            );
        }
        let outputs = env.outputs.iter().map(|o| o.func.clone()).collect();
        let env = FlattenEnv { funcs, outputs, ..FlattenEnv::default() };
        env.validate()?;
        Ok(env)
    }

    /// Checks the env in itself: each Func's storage dimensions are a permutation of its
    /// arguments.
    pub fn validate(&self) -> Result<(), LowerError> {
        for (name, f) in &self.funcs {
            if f.storage.is_empty() {
                continue;
            }
            let field = || format!("funcs.{name}.storage");
            let mut seen = BTreeSet::new();
            for d in &f.storage {
                if !f.args.contains(&d.var) {
                    return Err(LowerError::env(
                        field(),
                        format!("`{}` is not a pure argument of {name} ({})", d.var, f.args.join(", ")),
                    ));
                }
                if !seen.insert(d.var.as_str()) {
                    return Err(LowerError::env(field(), format!("`{}` is stored twice", d.var)));
                }
            }
            if seen.len() != f.args.len() {
                let missing: Vec<&str> =
                    f.args.iter().map(String::as_str).filter(|a| !seen.contains(a)).collect();
                return Err(LowerError::env(
                    field(),
                    format!("no storage dimension for {}", missing.join(", ")),
                ));
            }
        }
        Ok(())
    }

    /// The Func and tuple element a buffer name stands for: `f` for a Func with one
    /// value, `f.0`, `f.1`, ... for the elements of a tuple-valued one.
    pub fn buffer_func(&self, buffer: &str) -> Option<(&str, &FlattenFunc, usize)> {
        if let Some((name, f)) = self.funcs.get_key_value(buffer)
            && f.types.len() <= 1
        {
            return Some((name, f, 0));
        }
        let (func, index) = buffer.rsplit_once('.')?;
        let index: usize = index.parse().ok()?;
        let (name, f) = self.funcs.get_key_value(func)?;
        (f.types.len() > 1 && index < f.types.len()).then_some((name.as_str(), f, index))
    }

    /// The parse env that types calls to every Func and tuple element with its value type.
    pub fn parse_env(&self) -> loopir::ParseEnv {
        let mut env = loopir::ParseEnv::new();
        for (name, f) in &self.funcs {
            env = env.with_func(name, f.types.clone());
            if f.types.len() > 1 {
                for (k, t) in f.types.iter().enumerate() {
                    env = env.with_func(&format!("{name}.{k}"), vec![*t]);
                }
            }
        }
        env
    }
}

/// The images of a statement that the IR does not mark as such: the callees that are not
/// Funcs of `env`, Func tuple elements or intrinsics, and whose buffer symbol
/// `<callee>.buffer` the statement refers to. At the stage storage flattening runs, the
/// reference has checked every input buffer through that symbol, so each image has it,
/// and an extern function never does.
pub fn infer_images(stmt: &Stmt, env: &FlattenEnv) -> BTreeSet<String> {
    let mut callees = BTreeSet::new();
    let mut variables = FxHashSet::default();
    dag::for_each_node(stmt, |node| match node {
        Node::Expr(e) => match e.kind() {
            ExprKind::Variable(n) => {
                variables.insert(n.to_string());
            }
            ExprKind::Call {
                name,
                call_type: loopir::CallType::Image | loopir::CallType::Extern | loopir::CallType::PureExtern,
                ..
            } => {
                callees.insert(name.to_string());
            }
            _ => {}
        },
        Node::Stmt(_) => {}
    });
    callees
        .into_iter()
        .filter(|c| {
            env.buffer_func(c).is_none()
                && Intrinsic::from_name(c).is_none()
                && variables.contains(&format!("{c}.buffer"))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn func(args: &[&str], storage: &[&str]) -> FlattenFunc {
        FlattenFunc {
            args: args.iter().map(|a| a.to_string()).collect(),
            types: vec![Type::INT32],
            storage: storage.iter().map(|v| StorageDim::plain(v)).collect(),
            ring_buffer: false,
        }
    }

    #[test]
    fn a_storage_order_must_permute_the_arguments() {
        let mut env = FlattenEnv::default();
        env.funcs.insert("f".into(), func(&["x", "y"], &["y", "x"]));
        assert_eq!(env.validate(), Ok(()));
        env.funcs.insert("f".into(), func(&["x", "y"], &["y", "z"]));
        let e = env.validate().err().map(|e| e.to_string()).unwrap_or_default();
        assert_eq!(e, "env: funcs.f.storage: `z` is not a pure argument of f (x, y)");
        env.funcs.insert("f".into(), func(&["x", "y"], &["y"]));
        let e = env.validate().err().map(|e| e.to_string()).unwrap_or_default();
        assert_eq!(e, "env: funcs.f.storage: no storage dimension for x");
        env.funcs.insert("f".into(), func(&["x", "y"], &["y", "y"]));
        let e = env.validate().err().map(|e| e.to_string()).unwrap_or_default();
        assert_eq!(e, "env: funcs.f.storage: `y` is stored twice");
    }

    #[test]
    fn tuple_elements_name_their_func() {
        let mut env = FlattenEnv::default();
        env.funcs.insert("f".into(), FlattenFunc { types: vec![Type::INT32; 2], ..func(&["x"], &[]) });
        env.funcs.insert("g".into(), func(&["x"], &[]));
        assert_eq!(env.buffer_func("f.1").map(|(n, _, k)| (n, k)), Some(("f", 1)));
        assert!(env.buffer_func("f").is_none());
        assert!(env.buffer_func("f.2").is_none());
        assert_eq!(env.buffer_func("g").map(|(n, _, k)| (n, k)), Some(("g", 0)));
        assert!(env.buffer_func("g.0").is_none());
    }

    #[test]
    fn images_are_the_callees_with_a_buffer_symbol() {
        let mut env = FlattenEnv::default();
        env.funcs.insert("f".into(), func(&["x"], &[]));
        let s = loopir::parse_stmt(
            "assert(input.buffer != 0, 0)\nf(0) = ((input(0) + sqrt_f32(1)) + f(0)) + f.buffer\n",
        )
        .expect("parses");
        let images: Vec<String> = infer_images(&s, &env).into_iter().collect();
        assert_eq!(images, ["input"]);
    }
}
