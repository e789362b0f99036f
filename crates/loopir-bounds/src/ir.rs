//! Infallible builders and cheap queries over loopir expressions.
//!
//! The analyses build many small expressions out of operands whose types they already know
//! to agree (two ends of one interval, an end and a constant made in its type). The
//! builders here take the result type from the operands and never fail; type checking of
//! the *input* happens where the input is read.
//!
//! Things here that the IR crate could own instead are listed in the crate docs.

use loopir::address_map::{AddressMap, AddressSet};
use std::cell::RefCell;
use std::rc::Rc;

use loopir::equality::with_stack;
use loopir::{BinOp, CallType, Expr, ExprKind, ExprNode, Name, Type, TypeCode};
use rustc_hash::{FxHashMap, FxHashSet};

/// A scalar constant value of one of the three numeric kinds.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Const {
    /// A signed integer.
    Int(i64),
    /// An unsigned integer (also booleans).
    UInt(u64),
    /// A float.
    Float(f64),
}

/// The constant value of an immediate, or of a broadcast of one.
pub fn const_value(e: &Expr) -> Option<Const> {
    match e.kind() {
        ExprKind::IntImm(v) => Some(Const::Int(*v)),
        ExprKind::UIntImm(v) => Some(Const::UInt(*v)),
        ExprKind::FloatImm(v) => Some(Const::Float(*v)),
        ExprKind::Broadcast { value, .. } => const_value(value),
        _ => None,
    }
}

/// Whether `e` is a numeric constant (or a broadcast of one).
pub fn is_const(e: &Expr) -> bool {
    const_value(e).is_some()
}

/// The value of a signed integer immediate.
pub fn as_const_int(e: &Expr) -> Option<i64> {
    match e.kind() {
        ExprKind::IntImm(v) => Some(*v),
        _ => None,
    }
}

/// The value of an unsigned integer immediate.
pub fn as_const_uint(e: &Expr) -> Option<u64> {
    match e.kind() {
        ExprKind::UIntImm(v) => Some(*v),
        _ => None,
    }
}

/// The value of an integer constant (signed or unsigned, possibly broadcast) as an i128.
pub fn as_const_i128(e: &Expr) -> Option<i128> {
    match const_value(e)? {
        Const::Int(v) => Some(v as i128),
        Const::UInt(v) => Some(v as i128),
        Const::Float(_) => None,
    }
}

/// Whether `e` is the constant zero of any numeric type.
pub fn is_const_zero(e: &Expr) -> bool {
    match const_value(e) {
        Some(Const::Int(v)) => v == 0,
        Some(Const::UInt(v)) => v == 0,
        Some(Const::Float(v)) => v == 0.0,
        None => false,
    }
}

/// Whether `e` is the constant one of any numeric type (true for booleans).
pub fn is_const_one(e: &Expr) -> bool {
    match const_value(e) {
        Some(Const::Int(v)) => v == 1,
        Some(Const::UInt(v)) => v == 1,
        Some(Const::Float(v)) => v == 1.0,
        None => false,
    }
}

/// Whether `e` is a strictly positive constant.
pub fn is_positive_const(e: &Expr) -> bool {
    match const_value(e) {
        Some(Const::Int(v)) => v > 0,
        Some(Const::UInt(v)) => v > 0,
        Some(Const::Float(v)) => v > 0.0,
        None => false,
    }
}

/// Whether `e` is a strictly negative constant.
pub fn is_negative_const(e: &Expr) -> bool {
    match const_value(e) {
        Some(Const::Int(v)) => v < 0,
        Some(Const::Float(v)) => v < 0.0,
        _ => false,
    }
}

/// Whether `e` is the boolean constant true (scalar or broadcast).
pub fn is_const_true(e: &Expr) -> bool {
    e.ty().is_bool() && matches!(const_value(e), Some(Const::UInt(1)))
}

/// Whether `e` is the boolean constant false (scalar or broadcast).
pub fn is_const_false(e: &Expr) -> bool {
    e.ty().is_bool() && matches!(const_value(e), Some(Const::UInt(0)))
}

/// Wraps `v` into the range of an integer type of `bits` bits, sign-extending for signed
/// types.
pub fn wrap_int(v: i128, signed: bool, bits: u8) -> i128 {
    if bits >= 128 {
        return v;
    }
    let mask: i128 = (1i128 << bits) - 1;
    let low = v & mask;
    if signed && bits > 0 && (low >> (bits - 1)) & 1 == 1 { low - (1i128 << bits) } else { low }
}

/// A scalar immediate of the element type of `ty`, broadcast when `ty` is a vector.
/// Integers wrap into the type's range; floats are converted.
pub fn make_const(ty: Type, v: i128) -> Expr {
    let elem = ty.element_of();
    let scalar = match elem.code() {
        TypeCode::Int => {
            Expr::from_node_unchecked(elem, ExprKind::IntImm(wrap_int(v, true, elem.bits()) as i64))
        }
        TypeCode::UInt => {
            Expr::from_node_unchecked(elem, ExprKind::UIntImm(wrap_int(v, false, elem.bits()) as u64))
        }
        TypeCode::Float | TypeCode::BFloat => Expr::from_node_unchecked(elem, ExprKind::FloatImm(v as f64)),
        TypeCode::Handle => Expr::from_node_unchecked(Type::INT32, ExprKind::IntImm(v as i64)),
    };
    broadcast_to(ty, scalar)
}

/// A float immediate of the element type of `ty`, broadcast when `ty` is a vector.
pub fn make_float(ty: Type, v: f64) -> Expr {
    let elem = ty.element_of();
    let v = if elem.bits() == 32 { v as f32 as f64 } else { v };
    broadcast_to(ty, Expr::from_node_unchecked(elem, ExprKind::FloatImm(v)))
}

/// Makes an immediate of type `ty` from a constant of any kind (converting numerically).
pub fn make_const_value(ty: Type, c: Const) -> Expr {
    match (ty.element_of().code(), c) {
        (TypeCode::Float | TypeCode::BFloat, Const::Float(f)) => make_float(ty, f),
        (TypeCode::Float | TypeCode::BFloat, Const::Int(i)) => make_float(ty, i as f64),
        (TypeCode::Float | TypeCode::BFloat, Const::UInt(u)) => make_float(ty, u as f64),
        (_, Const::Int(i)) => make_const(ty, i as i128),
        (_, Const::UInt(u)) => make_const(ty, u as i128),
        (_, Const::Float(f)) => make_const(ty, f as i128),
    }
}

fn broadcast_to(ty: Type, scalar: Expr) -> Expr {
    if ty.is_vector() {
        Expr::from_node_unchecked(ty, ExprKind::Broadcast { value: scalar, lanes: ty.lanes() })
    } else {
        scalar
    }
}

/// The zero of `ty`.
pub fn zero(ty: Type) -> Expr {
    make_const(ty, 0)
}

/// The one of `ty`.
pub fn one(ty: Type) -> Expr {
    make_const(ty, 1)
}

/// The boolean constant `v` with `lanes` lanes.
pub fn make_bool(v: bool, lanes: u16) -> Expr {
    make_const(Type::bool(lanes), v as i128)
}

/// The smallest value of an integer type as an immediate (None for other types).
pub fn type_min(ty: Type) -> Option<Expr> {
    ty.int_min().map(|v| make_const(ty, v))
}

/// The largest value of an integer type as an immediate (None for other types).
pub fn type_max(ty: Type) -> Option<Expr> {
    ty.int_max().map(|v| make_const(ty, v))
}

/// A binary node; the result type follows the operands (boolean for comparisons).
pub fn binary(op: BinOp, a: Expr, b: Expr) -> Expr {
    let ty = if op.is_comparison() { Type::bool(a.ty().lanes()) } else { a.ty() };
    Expr::from_node_unchecked(ty, ExprKind::Binary(op, a, b))
}

macro_rules! builders {
    ($($fname:ident => $op:ident),* $(,)?) => {
        $(
            #[doc = concat!("The `", stringify!($op), "` node of two operands of one type (not simplified).")]
            pub fn $fname(a: Expr, b: Expr) -> Expr {
                binary(BinOp::$op, a, b)
            }
        )*
    };
}
builders!(add => Add, sub => Sub, mul => Mul, div => Div, modulo => Mod, min => Min, max => Max,
    eq => Eq, ne => Ne, lt => Lt, le => Le, gt => Gt, ge => Ge, and => And, or => Or);

/// `!a`.
pub fn not(a: Expr) -> Expr {
    Expr::from_node_unchecked(a.ty(), ExprKind::Not(a))
}

/// `select(c, t, f)`.
pub fn select(c: Expr, t: Expr, f: Expr) -> Expr {
    Expr::from_node_unchecked(t.ty(), ExprKind::Select(c, t, f))
}

/// `ty(a)`: a cast, or `a` itself when it already has type `ty`.
pub fn cast(ty: Type, a: Expr) -> Expr {
    if a.ty() == ty { a } else { Expr::from_node_unchecked(ty, ExprKind::Cast(a)) }
}

/// `let name = value in body`.
pub fn let_in(name: Name, value: Expr, body: Expr) -> Expr {
    Expr::let_in(name, value, body)
}

/// A variable.
pub fn var(ty: Type, name: Name) -> Expr {
    Expr::var(ty, name)
}

/// A call to a pure intrinsic.
pub fn intrinsic(ty: Type, name: &str, args: Vec<Expr>) -> Expr {
    Expr::call(ty, name, args, CallType::PureIntrinsic)
}

/// The intrinsic name of a call of an intrinsic kind, if `e` is one.
pub fn intrinsic_name(e: &Expr) -> Option<(&str, &[Expr])> {
    match e.kind() {
        ExprKind::Call { name, args, call_type: CallType::Intrinsic | CallType::PureIntrinsic, .. } => {
            Some((name.as_ref(), args.as_slice()))
        }
        _ => None,
    }
}

/// Whether `e` is a call to the intrinsic `name`.
pub fn is_intrinsic(e: &Expr, name: &str) -> bool {
    intrinsic_name(e).is_some_and(|(n, _)| n == name)
}

/// The marker Halide's constant folder produces for an Int(32)/Int(64) overflow.
pub fn overflow_marker(ty: Type, tag: i64) -> Expr {
    intrinsic(ty, "signed_integer_overflow", vec![Expr::i32(tag as i32)])
}

/// Whether a binary node with operands `a` and `b` pairs a float with a non-float: text
/// the reference never prints (its IR is typed), which the parser keeps as written. The
/// simplifier leaves such a node as it is, and its rules do not look inside one.
pub fn operands_differ_in_kind(a: &Expr, b: &Expr) -> bool {
    a.ty().is_float() != b.ty().is_float()
}

/// Whether `e` is an overflow marker (see [`overflow_marker`]).
pub fn is_overflow_marker(e: &Expr) -> bool {
    is_intrinsic(e, "signed_integer_overflow")
}

/// Whether `e` mentions a `signed_integer_overflow` marker anywhere.
pub fn contains_overflow_marker(e: &Expr) -> bool {
    any_node(e, is_overflow_marker)
}

/// Whether some node of `e` satisfies `found`. Small expressions (the common case: one
/// bound end, one let value) are walked as trees without allocating; larger ones as DAGs,
/// each node once.
pub(crate) fn any_node(e: &Expr, found: impl Fn(&Expr) -> bool) -> bool {
    /// `None` if the tree has more than `budget` nodes.
    fn small(e: &Expr, found: &impl Fn(&Expr) -> bool, budget: &mut usize) -> Option<bool> {
        *budget = budget.checked_sub(1)?;
        if found(e) {
            return Some(true);
        }
        for c in e.children() {
            if small(c, found, budget)? {
                return Some(true);
            }
        }
        Some(false)
    }
    if let Some(r) = small(e, &found, &mut 64) {
        return r;
    }
    let mut seen = AddressSet::default();
    let mut stack = vec![e.clone()];
    while let Some(n) = stack.pop() {
        if !seen.insert(n.as_ptr()) {
            continue;
        }
        if found(&n) {
            return true;
        }
        stack.extend(n.children().into_iter().cloned());
    }
    false
}

/// Per-node structural hashes, owned by a [`crate::Ctx`] and installed for the duration
/// of an analysis (see [`HashScope`]): with them, structurally different expressions are
/// told apart in O(1) amortised instead of by walking them. Each entry pins its node's
/// address ([`loopir::ExprAddress`]) without counting as a handle.
pub(crate) type HashCache = AddressMap<*const ExprNode, (loopir::ExprAddress, u64)>;

thread_local! {
    static HASHES: RefCell<Option<Rc<RefCell<HashCache>>>> = const { RefCell::new(None) };
}

/// Installs a hash cache for [`equal`] on this thread until dropped (restoring the
/// previous one).
pub(crate) struct HashScope {
    previous: Option<Rc<RefCell<HashCache>>>,
}

impl HashScope {
    pub(crate) fn install(cache: &Rc<RefCell<HashCache>>) -> HashScope {
        let previous = HASHES.with(|h| h.borrow_mut().replace(cache.clone()));
        HashScope { previous }
    }
}

impl Drop for HashScope {
    fn drop(&mut self) {
        let previous = self.previous.take();
        HASHES.with(|h| *h.borrow_mut() = previous);
    }
}

/// Hashes what makes `e` itself, its children aside: its type, its kind and the
/// kind's own data (what [`shallow_eq`] compares).
pub(crate) fn hash_node<H: std::hash::Hasher>(e: &Expr, hasher: &mut H) {
    use std::hash::Hash;
    e.ty().hash(hasher);
    std::mem::discriminant(e.kind()).hash(hasher);
    match e.kind() {
        ExprKind::IntImm(v) => v.hash(hasher),
        ExprKind::UIntImm(v) => v.hash(hasher),
        ExprKind::FloatImm(v) => v.to_bits().hash(hasher),
        ExprKind::StringImm(v) => v.hash(hasher),
        ExprKind::Variable(n) => n.hash(hasher),
        ExprKind::Binary(op, ..) => op.hash(hasher),
        ExprKind::Load { name, alignment, .. } => {
            name.hash(hasher);
            alignment.hash(hasher);
        }
        ExprKind::Ramp { lanes, .. } | ExprKind::Broadcast { lanes, .. } => lanes.hash(hasher),
        ExprKind::Call { name, call_type, value_index, .. } => {
            name.hash(hasher);
            call_type.hash(hasher);
            value_index.hash(hasher);
        }
        ExprKind::Let { name, .. } => name.hash(hasher),
        ExprKind::Shuffle { indices, .. } => indices.hash(hasher),
        ExprKind::VectorReduce { op, .. } => op.hash(hasher),
        ExprKind::Cast(_) | ExprKind::Reinterpret(_) | ExprKind::Not(_) | ExprKind::Select(..) => {}
    }
}

/// A structural hash of `e` (equal expressions hash equally), memoised in `cache`.
fn structural_hash(e: &Expr, cache: &mut HashCache) -> u64 {
    use std::hash::{Hash, Hasher};
    if let Some((_, h)) = cache.get(&e.as_ptr()) {
        return *h;
    }
    let mut hasher = rustc_hash::FxHasher::default();
    hash_node(e, &mut hasher);
    for c in e.children() {
        with_stack(|| structural_hash(c, cache)).hash(&mut hasher);
    }
    let h = hasher.finish();
    // A leaf is hashed as fast as it is looked up.
    if !e.is_leaf() {
        cache.insert(e.as_ptr(), (e.address(), h));
    }
    h
}

/// The structural hash of `e` through the installed hash cache (`None` without one).
pub(crate) fn installed_hash(e: &Expr) -> Option<u64> {
    HASHES.with(|h| {
        let installed = h.borrow();
        let mut cache = installed.as_ref()?.try_borrow_mut().ok()?;
        Some(structural_hash(e, &mut cache))
    })
}

/// The hashes already recorded for `a` and `b` (nothing is computed).
fn recorded_hashes(a: &Expr, b: &Expr) -> (Option<u64>, Option<u64>) {
    HASHES.with(|h| {
        let installed = h.borrow();
        let Some(cache) = installed.as_ref() else { return (None, None) };
        let Ok(cache) = cache.try_borrow() else { return (None, None) };
        (cache.get(&a.as_ptr()).map(|(_, h)| *h), cache.get(&b.as_ptr()).map(|(_, h)| *h))
    })
}

/// Whether the installed hash cache (if any) shows `a` and `b` to differ (hashing them
/// if they are not recorded yet).
fn hashes_differ(a: &Expr, b: &Expr) -> bool {
    HASHES.with(|h| {
        let installed = h.borrow();
        let Some(cache) = installed.as_ref() else { return false };
        let Ok(mut cache) = cache.try_borrow_mut() else { return false };
        structural_hash(a, &mut cache) != structural_hash(b, &mut cache)
    })
}

/// Structural equality that memoises the pairs already compared, so that comparing two
/// DAGs costs O(|a| + |b|) pairs instead of their tree sizes. Inside an analysis (a
/// [`crate::Ctx`] installed its hash cache), differing expressions are rejected by their
/// cached structural hashes in O(1) amortised.
pub fn equal(a: &Expr, b: &Expr) -> bool {
    if a.same_as(b) {
        return true;
    }
    // Most comparisons are settled at the root (different kinds, operators, names or
    // values; or two equal leaves), before any table is consulted.
    if a.ty() != b.ty() || !shallow_eq(a.kind(), b.kind()) {
        return false;
    }
    if a.is_leaf() {
        return true;
    }
    // A recorded hash marks a tree that was too large to compare directly (or a part of
    // one): with either side recorded, compare hashes (recording the other), which tells
    // large different trees apart at once.
    match recorded_hashes(a, b) {
        (Some(ha), Some(hb)) if ha != hb => return false,
        (Some(_), None) | (None, Some(_)) if hashes_differ(a, b) => return false,
        (None, None) => {
            // Most comparisons are of a few nodes, or differ near the root: compare those
            // as trees directly (hashing them would walk and record every node of both).
            if let Some(r) = small_eq(a, b, &mut 4) {
                return r;
            }
            if hashes_differ(a, b) {
                return false;
            }
        }
        _ => {}
    }
    let mut done = AddressSet::default();
    eq_rec(a, b, &mut done)
}

/// [`eq_rec`] on trees of at most `budget` node pairs; `None` if they are larger.
fn small_eq(a: &Expr, b: &Expr, budget: &mut usize) -> Option<bool> {
    if a.same_as(b) {
        return Some(true);
    }
    *budget = budget.checked_sub(1)?;
    if a.ty() != b.ty() || !shallow_eq(a.kind(), b.kind()) {
        return Some(false);
    }
    let (ca, cb) = (a.children(), b.children());
    if ca.len() != cb.len() {
        return Some(false);
    }
    for (x, y) in ca.iter().zip(cb.iter()) {
        if !small_eq(x, y, budget)? {
            return Some(false);
        }
    }
    Some(true)
}

fn eq_rec(a: &Expr, b: &Expr, done: &mut AddressSet<(*const ExprNode, *const ExprNode)>) -> bool {
    if a.same_as(b) || done.contains(&(a.as_ptr(), b.as_ptr())) {
        return true;
    }
    if a.ty() != b.ty() {
        return false;
    }
    if !shallow_eq(a.kind(), b.kind()) {
        return false;
    }
    let (ca, cb) = (a.children(), b.children());
    let same =
        ca.len() == cb.len() && with_stack(|| ca.iter().zip(cb.iter()).all(|(x, y)| eq_rec(x, y, done)));
    if same {
        done.insert((a.as_ptr(), b.as_ptr()));
    }
    same
}

/// Whether two nodes agree on everything but their children.
pub(crate) fn shallow_eq(a: &ExprKind, b: &ExprKind) -> bool {
    use ExprKind as K;
    match (a, b) {
        (K::IntImm(x), K::IntImm(y)) => x == y,
        (K::UIntImm(x), K::UIntImm(y)) => x == y,
        (K::FloatImm(x), K::FloatImm(y)) => x.to_bits() == y.to_bits(),
        (K::StringImm(x), K::StringImm(y)) => x == y,
        (K::Variable(x), K::Variable(y)) => x == y,
        (K::Cast(_), K::Cast(_)) | (K::Reinterpret(_), K::Reinterpret(_)) | (K::Not(_), K::Not(_)) => true,
        (K::Select(..), K::Select(..)) => true,
        (K::Binary(o1, ..), K::Binary(o2, ..)) => o1 == o2,
        (K::Load { name: n1, alignment: a1, .. }, K::Load { name: n2, alignment: a2, .. }) => {
            n1 == n2 && a1 == a2
        }
        (K::Ramp { lanes: l1, .. }, K::Ramp { lanes: l2, .. }) => l1 == l2,
        (K::Broadcast { lanes: l1, .. }, K::Broadcast { lanes: l2, .. }) => l1 == l2,
        (
            K::Call { name: n1, call_type: c1, value_index: v1, args: a1 },
            K::Call { name: n2, call_type: c2, value_index: v2, args: a2 },
        ) => n1 == n2 && c1 == c2 && v1 == v2 && a1.len() == a2.len(),
        (K::Let { name: n1, .. }, K::Let { name: n2, .. }) => n1 == n2,
        (K::Shuffle { indices: i1, vectors: v1 }, K::Shuffle { indices: i2, vectors: v2 }) => {
            i1 == i2 && v1.len() == v2.len()
        }
        (K::VectorReduce { op: o1, .. }, K::VectorReduce { op: o2, .. }) => o1 == o2,
        _ => false,
    }
}

/// Number of distinct nodes (by identity) of an expression: its DAG size.
pub fn dag_size(e: &Expr) -> usize {
    dag_size_of([e])
}

/// Number of distinct nodes (by identity) reachable from any of `roots`: the DAG size of
/// several expressions together, a node they share counted once.
pub fn dag_size_of<'e>(roots: impl IntoIterator<Item = &'e Expr>) -> usize {
    let mut seen = FxHashSet::default();
    let mut stack: Vec<Expr> = roots.into_iter().cloned().collect();
    while let Some(n) = stack.pop() {
        if seen.insert(n.as_ptr()) {
            stack.extend(n.children().into_iter().cloned());
        }
    }
    seen.len()
}

/// Number of nodes when every shared subtree is counted at every use, saturating at
/// `u64::MAX`.
pub fn tree_size(e: &Expr) -> u64 {
    fn go(e: &Expr, memo: &mut AddressMap<*const ExprNode, u64>) -> u64 {
        if let Some(&n) = memo.get(&e.as_ptr()) {
            return n;
        }
        let n = with_stack(|| e.children().iter().fold(1u64, |acc, c| acc.saturating_add(go(c, memo))));
        memo.insert(e.as_ptr(), n);
        n
    }
    go(e, &mut AddressMap::default())
}

/// Free-variable sets larger than this are not tracked (they are reported as "many", and
/// queries fall back to a walk); this keeps the per-node cost bounded.
pub const MAX_TRACKED_FREE_VARS: usize = 32;

/// The free variables of a node: a sorted list, or `None` when there are more than
/// [`MAX_TRACKED_FREE_VARS`].
pub type FreeVars = Option<Rc<[Name]>>;

/// Cache of free-variable sets: per interior node (whose address the entry pins without
/// counting as a handle, so that the node still looks unshared to the memo tables that
/// skip unshared nodes), and per variable name rather than per variable node (names are
/// interned by the parser, so a name read a thousand times has one entry; constants need
/// none).
#[derive(Default)]
pub(crate) struct FreeVarCache {
    nodes: AddressMap<*const ExprNode, (loopir::ExprAddress, FreeVars)>,
    /// Keyed by the name's text address; the entry's set holds the name, keeping it alive.
    names: AddressMap<*const u8, Rc<[Name]>>,
}

fn merge_sorted(a: &[Name], b: &[Name]) -> Vec<Name> {
    let mut out = Vec::with_capacity(a.len() + b.len());
    let (mut i, mut j) = (0, 0);
    while i < a.len() && j < b.len() {
        match a[i].cmp(&b[j]) {
            std::cmp::Ordering::Less => {
                out.push(a[i].clone());
                i += 1;
            }
            std::cmp::Ordering::Greater => {
                out.push(b[j].clone());
                j += 1;
            }
            std::cmp::Ordering::Equal => {
                out.push(a[i].clone());
                i += 1;
                j += 1;
            }
        }
    }
    out.extend(a[i..].iter().cloned());
    out.extend(b[j..].iter().cloned());
    out
}

fn union_fv(a: FreeVars, b: FreeVars) -> FreeVars {
    let (a, b) = (a?, b?);
    if a.is_empty() || Rc::ptr_eq(&a, &b) {
        return Some(b);
    }
    if b.is_empty() {
        return Some(a);
    }
    let merged = merge_sorted(&a, &b);
    if merged.len() > MAX_TRACKED_FREE_VARS {
        return None;
    }
    if merged.len() == a.len() {
        return Some(a);
    }
    if merged.len() == b.len() {
        return Some(b);
    }
    Some(Rc::from(merged))
}

thread_local! {
    static EMPTY_FREE_VARS: Rc<[Name]> = Rc::from(Vec::new());
}

pub(crate) fn free_vars_cached(e: &Expr, cache: &RefCell<FreeVarCache>) -> FreeVars {
    match e.kind() {
        ExprKind::Variable(n) => {
            let key = n.as_ptr();
            if let Some(fv) = cache.borrow().names.get(&key) {
                return Some(fv.clone());
            }
            let fv: Rc<[Name]> = Rc::from(vec![n.clone()]);
            cache.borrow_mut().names.insert(key, fv.clone());
            return Some(fv);
        }
        _ if e.is_leaf() => return Some(EMPTY_FREE_VARS.with(Rc::clone)),
        _ => {}
    }
    if let Some((_, fv)) = cache.borrow().nodes.get(&e.as_ptr()) {
        return fv.clone();
    }
    let result: FreeVars = with_stack(|| match e.kind() {
        ExprKind::Let { name, value, body } => {
            let vv = free_vars_cached(value, cache);
            // A body with untracked free variables stays untracked (conservative).
            let vb = free_vars_cached(body, cache)?;
            let body_minus: Vec<Name> = vb.iter().filter(|n| *n != name).cloned().collect();
            let body_minus: Rc<[Name]> = if body_minus.len() == vb.len() { vb } else { Rc::from(body_minus) };
            union_fv(vv, Some(body_minus))
        }
        _ => {
            // One shared empty set: a fresh allocation per node was a measurable part of
            // walking large DAGs.
            let mut acc: FreeVars = Some(EMPTY_FREE_VARS.with(Rc::clone));
            for c in e.children() {
                acc = union_fv(acc, free_vars_cached(c, cache));
                if acc.is_none() {
                    break;
                }
            }
            acc
        }
    });
    cache.borrow_mut().nodes.insert(e.as_ptr(), (e.address(), result.clone()));
    result
}

/// Whether a variable named `name` occurs anywhere in `e` (a conservative stand-in for
/// "occurs free" when the free-variable set is not tracked).
pub fn mentions_var(e: &Expr, name: &str) -> bool {
    any_node(e, |n| n.as_variable().is_some_and(|v| v.as_ref() == name))
}

/// Replaces free occurrences of the variables in `map` (capture-avoiding with respect to
/// lets of the same name; the replacements are assumed not to mention names bound by lets
/// inside `e`). Memoised on node identity; unchanged subtrees stay shared.
pub fn substitute(map: &FxHashMap<Name, Expr>, e: &Expr) -> Expr {
    fn go(
        e: &Expr,
        map: &FxHashMap<Name, Expr>,
        shadowed: &mut Vec<Name>,
        memo: &mut AddressMap<*const ExprNode, Expr>,
    ) -> Expr {
        let memoable = shadowed.is_empty();
        if memoable && let Some(r) = memo.get(&e.as_ptr()) {
            return r.clone();
        }
        let result = with_stack(|| match e.kind() {
            ExprKind::Variable(n) => match map.get(n) {
                Some(r) if !shadowed.contains(n) => r.clone(),
                _ => e.clone(),
            },
            ExprKind::Let { name, value, body } => {
                let nv = go(value, map, shadowed, memo);
                let shadows = map.contains_key(name);
                if shadows {
                    shadowed.push(name.clone());
                }
                let nb = go(body, map, shadowed, memo);
                if shadows {
                    shadowed.pop();
                }
                if nv.same_as(value) && nb.same_as(body) { e.clone() } else { let_in(name.clone(), nv, nb) }
            }
            _ => rebuild_with(e, |c| go(c, map, shadowed, memo)),
        });
        if memoable {
            memo.insert(e.as_ptr(), result.clone());
        }
        result
    }
    if map.is_empty() {
        return e.clone();
    }
    go(e, map, &mut Vec::new(), &mut AddressMap::default())
}

/// `e` with every let whose name satisfies `inline` replaced by its value. Shared nodes
/// stay shared (the result is a DAG of the same size, not the tree). Let names are
/// assumed unique within `e`, as CSE and lowering make them, so one memo over node
/// identity serves the whole walk.
pub fn inline_lets(e: &Expr, inline: impl Fn(&str) -> bool) -> Expr {
    fn go(
        e: &Expr,
        inline: &dyn Fn(&str) -> bool,
        values: &mut FxHashMap<Name, Expr>,
        memo: &mut AddressMap<*const ExprNode, Expr>,
    ) -> Expr {
        if let Some(r) = memo.get(&e.as_ptr()) {
            return r.clone();
        }
        let result = with_stack(|| match e.kind() {
            ExprKind::Variable(n) => values.get(n).cloned().unwrap_or_else(|| e.clone()),
            ExprKind::Let { name, value, body } if inline(name) => {
                let v = go(value, inline, values, memo);
                values.insert(name.clone(), v);
                go(body, inline, values, memo)
            }
            _ => rebuild_with(e, |c| go(c, inline, values, memo)),
        });
        memo.insert(e.as_ptr(), result.clone());
        result
    }
    go(e, &inline, &mut FxHashMap::default(), &mut AddressMap::default())
}

/// Replaces free occurrences of `name` in `e` by `replacement`.
pub fn substitute_one(name: &Name, replacement: &Expr, e: &Expr) -> Expr {
    let mut map = FxHashMap::default();
    map.insert(name.clone(), replacement.clone());
    substitute(&map, e)
}

/// Rebuilds `e` with each direct child replaced by `f(child)`; returns `e` itself when
/// every child comes back identical.
pub fn rebuild_with(e: &Expr, mut f: impl FnMut(&Expr) -> Expr) -> Expr {
    let children = e.children();
    let new: Vec<Expr> = children.iter().map(|c| f(c)).collect();
    if children.iter().zip(&new).all(|(a, b)| a.same_as(b)) {
        return e.clone();
    }
    with_children(e, new)
}

/// A copy of `e` with its direct children replaced, in [`Expr::children`] order.
pub fn with_children(e: &Expr, new: Vec<Expr>) -> Expr {
    let ty = e.ty();
    let mut it = new.into_iter();
    let mut next = |old: &Expr| it.next().unwrap_or_else(|| old.clone());
    let kind = match e.kind() {
        ExprKind::IntImm(_)
        | ExprKind::UIntImm(_)
        | ExprKind::FloatImm(_)
        | ExprKind::StringImm(_)
        | ExprKind::Variable(_) => return e.clone(),
        ExprKind::Cast(a) => ExprKind::Cast(next(a)),
        ExprKind::Reinterpret(a) => ExprKind::Reinterpret(next(a)),
        ExprKind::Not(a) => ExprKind::Not(next(a)),
        ExprKind::Binary(op, a, b) => ExprKind::Binary(*op, next(a), next(b)),
        ExprKind::Select(c, t, f) => ExprKind::Select(next(c), next(t), next(f)),
        ExprKind::Load { name, index, predicate, alignment } => ExprKind::Load {
            name: name.clone(),
            index: next(index),
            predicate: next(predicate),
            alignment: *alignment,
        },
        ExprKind::Ramp { base, stride, lanes } => {
            ExprKind::Ramp { base: next(base), stride: next(stride), lanes: *lanes }
        }
        ExprKind::Broadcast { value, lanes } => ExprKind::Broadcast { value: next(value), lanes: *lanes },
        ExprKind::Call { name, args, call_type, value_index } => ExprKind::Call {
            name: name.clone(),
            args: args.iter().map(&mut next).collect(),
            call_type: *call_type,
            value_index: *value_index,
        },
        ExprKind::Let { name, value, body } => {
            ExprKind::Let { name: name.clone(), value: next(value), body: next(body) }
        }
        ExprKind::Shuffle { vectors, indices } => {
            ExprKind::Shuffle { vectors: vectors.iter().map(&mut next).collect(), indices: indices.clone() }
        }
        ExprKind::VectorReduce { op, value } => ExprKind::VectorReduce { op: *op, value: next(value) },
    };
    Expr::from_node_unchecked(ty, kind)
}

/// Removes `likely` and `likely_if_innermost` wrappers everywhere in `e`.
pub fn remove_likelies(e: &Expr) -> Expr {
    fn go(e: &Expr, memo: &mut AddressMap<*const ExprNode, Expr>) -> Expr {
        if let Some(r) = memo.get(&e.as_ptr()) {
            return r.clone();
        }
        let r = with_stack(|| match intrinsic_name(e) {
            Some(("likely" | "likely_if_innermost", [x])) => go(x, memo),
            _ => rebuild_with(e, |c| go(c, memo)),
        });
        memo.insert(e.as_ptr(), r.clone());
        r
    }
    go(e, &mut AddressMap::default())
}

/// Replaces every `signed_integer_overflow(k)` by zero (Halide's `purify_index_math`).
pub fn purify_index_math(e: &Expr) -> Expr {
    fn go(e: &Expr, memo: &mut AddressMap<*const ExprNode, Expr>) -> Expr {
        if let Some(r) = memo.get(&e.as_ptr()) {
            return r.clone();
        }
        let purified = || if is_overflow_marker(e) { zero(e.ty()) } else { rebuild_with(e, |c| go(c, memo)) };
        let r = with_stack(purified);
        memo.insert(e.as_ptr(), r.clone());
        r
    }
    go(e, &mut AddressMap::default())
}

/// Halide's node-kind order, used to put operands of commutative nodes in canonical order.
pub fn node_rank(e: &Expr) -> u8 {
    e.node_type_rank()
}

/// Halide's `should_commute(a, b)`: whether the operands of a commutative node should be
/// swapped so that the "stronger" node kind comes first and variables sort by name.
pub fn should_commute(a: &Expr, b: &Expr) -> bool {
    let (ra, rb) = (node_rank(a), node_rank(b));
    if ra != rb {
        return ra < rb;
    }
    match (a.kind(), b.kind()) {
        (ExprKind::Variable(x), ExprKind::Variable(y)) => x.as_bytes() > y.as_bytes(),
        _ => false,
    }
}

/// Whether an integer type is "no-overflow" (Int(32) and Int(64)): arithmetic is assumed
/// never to overflow.
pub fn no_overflow_int(ty: Type) -> bool {
    ty.is_int() && ty.bits() >= 32
}

/// Whether arithmetic in `ty` is assumed not to overflow (no-overflow ints and floats).
pub fn no_overflow(ty: Type) -> bool {
    ty.is_float() || no_overflow_int(ty)
}

/// Prints `e` the way it reads as a statement-level expression: Halide's text without the
/// outermost pair of parentheses that its stream operator adds around infix nodes.
pub fn pretty(e: &Expr) -> String {
    strip_outer_parens(e.to_string())
}

fn strip_outer_parens(s: String) -> String {
    let bytes = s.as_bytes();
    if bytes.first() != Some(&b'(') || bytes.last() != Some(&b')') {
        return s;
    }
    let mut depth = 0i32;
    for (i, &b) in bytes.iter().enumerate() {
        match b {
            b'(' => depth += 1,
            b')' => {
                depth -= 1;
                if depth == 0 && i + 1 < bytes.len() {
                    return s;
                }
            }
            _ => {}
        }
    }
    s[1..s.len() - 1].to_owned()
}
