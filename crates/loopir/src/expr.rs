//! Expressions: immutable, shared, typed trees of [`ExprKind`] nodes.
//!
//! An [`Expr`] is a reference-counted pointer to an [`ExprNode`]; cloning it is a counter
//! increment, and two handles to one allocation are [`Expr::same_as`] each other. The only
//! way to build a node is a constructor, and constructors check operand types.

use std::fmt;
use std::mem::ManuallyDrop;
use std::sync::{Arc, OnceLock};

use crate::error::IrError;
use crate::types::{Type, TypeCode};

/// A name of a variable, buffer, Func or loop: shared text, cheap to clone.
pub type Name = Arc<str>;

/// Makes a [`Name`] from text.
pub fn name(s: &str) -> Name {
    Arc::from(s)
}

/// A handle to an immutable, shared expression node.
#[derive(Clone)]
pub struct Expr(ManuallyDrop<Arc<ExprNode>>);

/// Keeps a node's address from being reused without keeping the node alive: a memo
/// table keyed by [`Expr::as_ptr`] holds one per entry, so that a key cannot come to
/// name another node, while the nodes it records still count as unshared for
/// [`Expr::is_shared`] (a strong handle in the table would make every node it has seen
/// look shared, and defeat the tables that skip unshared nodes).
///
/// ```
/// use loopir::Expr;
/// let e = Expr::add(Expr::var_i32("x"), Expr::i32(1)).unwrap();
/// let pin = e.address();
/// assert!(!e.is_shared());
/// let key = e.as_ptr();
/// drop(e);
/// // The node is gone, but no new node can be allocated at its address while pinned.
/// let others: Vec<Expr> = (0..64).map(|i| Expr::add(Expr::var_i32("y"), Expr::i32(i)).unwrap()).collect();
/// assert!(others.iter().all(|o| o.as_ptr() != key));
/// drop(pin);
/// ```
#[derive(Clone)]
pub struct ExprAddress(std::sync::Weak<ExprNode>);

impl std::fmt::Debug for ExprAddress {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "ExprAddress({:p})", self.0.as_ptr())
    }
}

/// An expression node: its type and what it is.
#[derive(Debug)]
pub struct ExprNode {
    /// The type of the value the expression computes.
    pub ty: Type,
    /// The node kind and its operands.
    pub kind: ExprKind,
}

/// Binary operators. Arithmetic and min/max produce the operand type; comparisons and the
/// logical operators produce booleans.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BinOp {
    /// `a + b`
    Add,
    /// `a - b`
    Sub,
    /// `a*b`
    Mul,
    /// `a/b` (Euclidean for integers)
    Div,
    /// `a % b` (Euclidean for integers)
    Mod,
    /// `min(a, b)`
    Min,
    /// `max(a, b)`
    Max,
    /// `a == b`
    Eq,
    /// `a != b`
    Ne,
    /// `a < b`
    Lt,
    /// `a <= b`
    Le,
    /// `a > b`
    Gt,
    /// `a >= b`
    Ge,
    /// `a && b`
    And,
    /// `a || b`
    Or,
}

impl BinOp {
    /// Whether the operator yields a boolean.
    pub fn is_comparison(self) -> bool {
        matches!(self, BinOp::Eq | BinOp::Ne | BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge)
    }
    /// Whether the operator is `&&` or `||`.
    pub fn is_logical(self) -> bool {
        matches!(self, BinOp::And | BinOp::Or)
    }
    /// The infix spelling, spaces included (`" + "`, `"*"`); None for min and max.
    pub fn infix(self) -> Option<&'static str> {
        Some(match self {
            BinOp::Add => " + ",
            BinOp::Sub => " - ",
            BinOp::Mul => "*",
            BinOp::Div => "/",
            BinOp::Mod => " % ",
            BinOp::Eq => " == ",
            BinOp::Ne => " != ",
            BinOp::Lt => " < ",
            BinOp::Le => " <= ",
            BinOp::Gt => " > ",
            BinOp::Ge => " >= ",
            BinOp::And => " && ",
            BinOp::Or => " || ",
            BinOp::Min | BinOp::Max => return None,
        })
    }
}

/// How a call is resolved; not printed in `.stmt` text.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum CallType {
    /// A load from an input image or buffer parameter.
    Image,
    /// A call to an external C function.
    Extern,
    /// A call to an external C++ function.
    ExternCPlusPlus,
    /// A side-effect-free external function.
    PureExtern,
    /// A call to another Func in the pipeline.
    Halide,
    /// A compiler intrinsic that may have side effects.
    Intrinsic,
    /// A side-effect-free compiler intrinsic.
    PureIntrinsic,
}

/// Operators of [`ExprKind::VectorReduce`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum VectorReduceOp {
    /// Sum.
    Add,
    /// Saturating sum.
    SaturatingAdd,
    /// Product.
    Mul,
    /// Minimum.
    Min,
    /// Maximum.
    Max,
    /// Logical and.
    And,
    /// Logical or.
    Or,
}

impl VectorReduceOp {
    /// The spelling after `vector_reduce_`.
    pub fn as_str(self) -> &'static str {
        match self {
            VectorReduceOp::Add => "add",
            VectorReduceOp::SaturatingAdd => "saturating_add",
            VectorReduceOp::Mul => "mul",
            VectorReduceOp::Min => "min",
            VectorReduceOp::Max => "max",
            VectorReduceOp::And => "and",
            VectorReduceOp::Or => "or",
        }
    }
    /// Parses the spelling after `vector_reduce_`.
    pub fn from_name(s: &str) -> Option<VectorReduceOp> {
        Some(match s {
            "add" => VectorReduceOp::Add,
            "saturating_add" => VectorReduceOp::SaturatingAdd,
            "mul" => VectorReduceOp::Mul,
            "min" => VectorReduceOp::Min,
            "max" => VectorReduceOp::Max,
            "and" => VectorReduceOp::And,
            "or" => VectorReduceOp::Or,
            _ => return None,
        })
    }
}

/// Known alignment of an index: `index % modulus == remainder`. A modulus of 1 says nothing.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ModulusRemainder {
    /// The modulus (≥ 1 when known).
    pub modulus: i64,
    /// The remainder.
    pub remainder: i64,
}

impl ModulusRemainder {
    /// Nothing known.
    pub const UNKNOWN: ModulusRemainder = ModulusRemainder { modulus: 1, remainder: 0 };
}

impl Default for ModulusRemainder {
    fn default() -> Self {
        ModulusRemainder::UNKNOWN
    }
}

/// The kinds of expression node and their operands.
#[derive(Debug)]
pub enum ExprKind {
    /// A signed integer constant (sign-extended into an i64).
    IntImm(i64),
    /// An unsigned integer constant.
    UIntImm(u64),
    /// A float constant, stored as the exact double value.
    FloatImm(f64),
    /// A string constant; bytes, as Halide strings are not necessarily UTF-8.
    StringImm(Arc<[u8]>),
    /// Numeric conversion to the node's type.
    Cast(Expr),
    /// Bit-level reinterpretation as the node's type.
    Reinterpret(Expr),
    /// A named variable.
    Variable(Name),
    /// A binary operation.
    Binary(BinOp, Expr, Expr),
    /// Logical negation.
    Not(Expr),
    /// `select(condition, true_value, false_value)`.
    Select(Expr, Expr, Expr),
    /// A load from a buffer.
    Load {
        /// Buffer name.
        name: Name,
        /// Element index (int32, one lane per loaded lane).
        index: Expr,
        /// Lanes that are actually loaded (constant true when all are).
        predicate: Expr,
        /// Known alignment of the index.
        alignment: ModulusRemainder,
    },
    /// `base + stride * lane` for each lane.
    Ramp {
        /// Value of lane 0.
        base: Expr,
        /// Step between lanes.
        stride: Expr,
        /// Number of lanes (of the base's lane count each).
        lanes: u16,
    },
    /// The value repeated `lanes` times.
    Broadcast {
        /// The repeated value.
        value: Expr,
        /// Repetition count.
        lanes: u16,
    },
    /// A call to a function, intrinsic, Func or image.
    Call {
        /// Callee name.
        name: Name,
        /// Arguments.
        args: Vec<Expr>,
        /// How the call is resolved.
        call_type: CallType,
        /// Which element of a tuple-valued Func is read.
        value_index: u32,
    },
    /// `let name = value in body`.
    Let {
        /// Bound name.
        name: Name,
        /// Bound value.
        value: Expr,
        /// Body in which `name` is bound.
        body: Expr,
    },
    /// Lanes picked from the concatenation of `vectors`.
    Shuffle {
        /// Input vectors.
        vectors: Vec<Expr>,
        /// Lane indices into their concatenation.
        indices: Vec<i32>,
    },
    /// Reduction of groups of adjacent lanes to the node's lane count.
    VectorReduce {
        /// The reduction.
        op: VectorReduceOp,
        /// The reduced vector.
        value: Expr,
    },
}

fn mismatch(what: &str, detail: String) -> IrError {
    IrError::Type { node: what.to_owned(), detail }
}

impl Expr {
    /// Wraps a node without checking its types. Constructors below check; this exists for
    /// readers of text, which recover types partly by inference and must accept what the
    /// reference compiler printed even where inference falls short.
    pub fn from_node_unchecked(ty: Type, kind: ExprKind) -> Expr {
        Expr(ManuallyDrop::new(Arc::new(ExprNode { ty, kind })))
    }

    /// The node.
    pub fn node(&self) -> &ExprNode {
        &self.0
    }
    /// The node kind.
    pub fn kind(&self) -> &ExprKind {
        &self.0.kind
    }
    /// The value type.
    pub fn ty(&self) -> Type {
        self.0.ty
    }
    /// Pointer identity: both handles refer to one allocation.
    pub fn same_as(&self, other: &Expr) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
    }
    /// The address of the node, a key for memo tables over the IR's DAG.
    pub fn as_ptr(&self) -> *const ExprNode {
        Arc::as_ptr(&self.0)
    }
    /// Whether some other handle to this node exists. A walk can reach a node that is not
    /// shared through one parent only, so memo tables over a DAG need not record it (see
    /// [`crate::mutate::ExprMemo`]); most nodes of a parsed tree are not shared.
    pub fn is_shared(&self) -> bool {
        self.handles() > 1
    }
    /// How many handles to this node exist.
    pub(crate) fn handles(&self) -> usize {
        Arc::strong_count(&self.0)
    }
    /// A pin on this node's address (see [`ExprAddress`]).
    pub fn address(&self) -> ExprAddress {
        ExprAddress(Arc::downgrade(&self.0))
    }

    // ---- immediates ----

    /// An int32 constant.
    pub fn i32(v: i32) -> Expr {
        Expr::from_node_unchecked(Type::INT32, ExprKind::IntImm(v as i64))
    }
    /// A signed integer constant of scalar type `ty`; the value must fit.
    pub fn int_imm(ty: Type, v: i64) -> Result<Expr, IrError> {
        if ty.code() != TypeCode::Int || !ty.is_scalar() {
            return Err(mismatch("IntImm", format!("type {ty} is not a scalar signed integer")));
        }
        let v128 = v as i128;
        if ty.int_min().is_some_and(|m| v128 < m) || ty.int_max().is_some_and(|m| v128 > m) {
            return Err(mismatch("IntImm", format!("{v} does not fit in {ty}")));
        }
        Ok(Expr::from_node_unchecked(ty, ExprKind::IntImm(v)))
    }
    /// An unsigned integer constant of scalar type `ty`; the value must fit.
    pub fn uint_imm(ty: Type, v: u64) -> Result<Expr, IrError> {
        if ty.code() != TypeCode::UInt || !ty.is_scalar() {
            return Err(mismatch("UIntImm", format!("type {ty} is not a scalar unsigned integer")));
        }
        if ty.int_max().is_some_and(|m| (v as i128) > m) {
            return Err(mismatch("UIntImm", format!("{v} does not fit in {ty}")));
        }
        Ok(Expr::from_node_unchecked(ty, ExprKind::UIntImm(v)))
    }
    /// A boolean constant.
    pub fn bool(v: bool) -> Expr {
        Expr::from_node_unchecked(Type::BOOL, ExprKind::UIntImm(v as u64))
    }
    /// The constant `true`, shared.
    pub fn const_true() -> Expr {
        static TRUE: OnceLock<Expr> = OnceLock::new();
        TRUE.get_or_init(|| Expr::bool(true)).clone()
    }
    /// A float constant of scalar type `ty` (the value is rounded to the type's precision
    /// by the caller; it is stored as given).
    pub fn float_imm(ty: Type, v: f64) -> Result<Expr, IrError> {
        if !ty.is_float() || !ty.is_scalar() {
            return Err(mismatch("FloatImm", format!("type {ty} is not a scalar float")));
        }
        Ok(Expr::from_node_unchecked(ty, ExprKind::FloatImm(v)))
    }
    /// A float32 constant.
    pub fn f32(v: f32) -> Expr {
        Expr::from_node_unchecked(Type::float(32, 1), ExprKind::FloatImm(v as f64))
    }
    /// A string constant, of type `(char const *)`.
    pub fn string(bytes: impl AsRef<[u8]>) -> Expr {
        Expr::from_node_unchecked(Type::c_string(), ExprKind::StringImm(Arc::from(bytes.as_ref())))
    }

    // ---- leaves and unary nodes ----

    /// A variable of type `ty`.
    pub fn var(ty: Type, name: impl Into<Name>) -> Expr {
        Expr::from_node_unchecked(ty, ExprKind::Variable(name.into()))
    }
    /// An int32 variable.
    pub fn var_i32(name: impl Into<Name>) -> Expr {
        Expr::var(Type::INT32, name)
    }
    /// Converts `value` to `ty`; lane counts must agree.
    pub fn cast(ty: Type, value: Expr) -> Result<Expr, IrError> {
        if ty.lanes() != value.ty().lanes() {
            return Err(mismatch("Cast", format!("cannot cast {} to {ty}: lane counts differ", value.ty())));
        }
        Ok(Expr::from_node_unchecked(ty, ExprKind::Cast(value)))
    }
    /// Reinterprets the bits of `value` as `ty`; total bit counts must agree.
    pub fn reinterpret(ty: Type, value: Expr) -> Result<Expr, IrError> {
        let from = value.ty();
        let bits = |t: Type| t.bits() as u32 * t.lanes() as u32;
        if bits(ty) != bits(from) {
            return Err(mismatch("Reinterpret", format!("cannot reinterpret {from} as {ty}: sizes differ")));
        }
        Ok(Expr::from_node_unchecked(ty, ExprKind::Reinterpret(value)))
    }
    /// A binary operation; both operands must have one type.
    pub fn binary(op: BinOp, a: Expr, b: Expr) -> Result<Expr, IrError> {
        if a.ty() != b.ty() {
            return Err(mismatch(
                &format!("{op:?}"),
                format!("operands have different types: {} and {}", a.ty(), b.ty()),
            ));
        }
        let ty = if op.is_comparison() {
            Type::bool(a.ty().lanes())
        } else if op.is_logical() {
            if !a.ty().is_bool() {
                return Err(mismatch(
                    &format!("{op:?}"),
                    format!("operands must be boolean, not {}", a.ty()),
                ));
            }
            a.ty()
        } else {
            if a.ty().is_handle() {
                return Err(mismatch(&format!("{op:?}"), "arithmetic on handles".into()));
            }
            a.ty()
        };
        Ok(Expr::from_node_unchecked(ty, ExprKind::Binary(op, a, b)))
    }
    /// Logical negation of a boolean.
    #[allow(clippy::should_implement_trait)] // a checked constructor, not the `!` operator
    pub fn not(a: Expr) -> Result<Expr, IrError> {
        if !a.ty().is_bool() {
            return Err(mismatch("Not", format!("operand must be boolean, not {}", a.ty())));
        }
        Ok(Expr::from_node_unchecked(a.ty(), ExprKind::Not(a)))
    }
    /// `select(c, t, f)`: `t` and `f` share a type; `c` is a boolean scalar or has their lanes.
    pub fn select(c: Expr, t: Expr, f: Expr) -> Result<Expr, IrError> {
        if !c.ty().is_bool() {
            return Err(mismatch("Select", format!("condition must be boolean, not {}", c.ty())));
        }
        if t.ty() != f.ty() {
            return Err(mismatch("Select", format!("branches differ in type: {} and {}", t.ty(), f.ty())));
        }
        if !c.ty().is_scalar() && c.ty().lanes() != t.ty().lanes() {
            return Err(mismatch("Select", "condition lanes differ from the branches'".into()));
        }
        let ty = t.ty();
        Ok(Expr::from_node_unchecked(ty, ExprKind::Select(c, t, f)))
    }
    /// A load of `ty` from buffer `name`.
    pub fn load(
        ty: Type,
        name: impl Into<Name>,
        index: Expr,
        predicate: Expr,
        alignment: ModulusRemainder,
    ) -> Result<Expr, IrError> {
        if index.ty() != Type::int(32, ty.lanes()) {
            return Err(mismatch(
                "Load",
                format!("index must be int32 with {} lanes, not {}", ty.lanes(), index.ty()),
            ));
        }
        if predicate.ty() != Type::bool(ty.lanes()) {
            return Err(mismatch(
                "Load",
                format!("predicate must be uint1 with {} lanes, not {}", ty.lanes(), predicate.ty()),
            ));
        }
        Ok(Expr::from_node_unchecked(ty, ExprKind::Load { name: name.into(), index, predicate, alignment }))
    }
    /// `ramp(base, stride, lanes)`.
    pub fn ramp(base: Expr, stride: Expr, lanes: u16) -> Result<Expr, IrError> {
        if base.ty() != stride.ty() {
            return Err(mismatch(
                "Ramp",
                format!("base {} and stride {} differ in type", base.ty(), stride.ty()),
            ));
        }
        if lanes < 2 {
            return Err(mismatch("Ramp", "a ramp needs at least two lanes".into()));
        }
        let total = base.ty().lanes() as u32 * lanes as u32;
        let total = u16::try_from(total).map_err(|_| mismatch("Ramp", "too many lanes".into()))?;
        Ok(Expr::from_node_unchecked(base.ty().with_lanes(total), ExprKind::Ramp { base, stride, lanes }))
    }
    /// `value` repeated `lanes` times.
    pub fn broadcast(value: Expr, lanes: u16) -> Result<Expr, IrError> {
        if lanes < 2 {
            return Err(mismatch("Broadcast", "a broadcast needs at least two lanes".into()));
        }
        let total = value.ty().lanes() as u32 * lanes as u32;
        let total = u16::try_from(total).map_err(|_| mismatch("Broadcast", "too many lanes".into()))?;
        Ok(Expr::from_node_unchecked(value.ty().with_lanes(total), ExprKind::Broadcast { value, lanes }))
    }
    /// A call returning `ty`.
    pub fn call(ty: Type, name: impl Into<Name>, args: Vec<Expr>, call_type: CallType) -> Expr {
        Expr::from_node_unchecked(ty, ExprKind::Call { name: name.into(), args, call_type, value_index: 0 })
    }
    /// A call to element `value_index` of a tuple-valued Func.
    pub fn call_func(ty: Type, name: impl Into<Name>, args: Vec<Expr>, value_index: u32) -> Expr {
        Expr::from_node_unchecked(
            ty,
            ExprKind::Call { name: name.into(), args, call_type: CallType::Halide, value_index },
        )
    }
    /// `let name = value in body`.
    pub fn let_in(name: impl Into<Name>, value: Expr, body: Expr) -> Expr {
        let ty = body.ty();
        Expr::from_node_unchecked(ty, ExprKind::Let { name: name.into(), value, body })
    }
    /// Lanes `indices` of the concatenation of `vectors`, which share an element type.
    pub fn shuffle(vectors: Vec<Expr>, indices: Vec<i32>) -> Result<Expr, IrError> {
        let Some(first) = vectors.first() else {
            return Err(mismatch("Shuffle", "no input vectors".into()));
        };
        let elem = first.ty().element_of();
        let mut total: i64 = 0;
        for v in &vectors {
            if v.ty().element_of() != elem {
                return Err(mismatch(
                    "Shuffle",
                    format!("inputs differ in element type: {elem} and {}", v.ty()),
                ));
            }
            total += v.ty().lanes() as i64;
        }
        if indices.is_empty() {
            return Err(mismatch("Shuffle", "no indices".into()));
        }
        if let Some(bad) = indices.iter().find(|&&i| i < 0 || i as i64 >= total) {
            return Err(mismatch("Shuffle", format!("index {bad} is outside the {total} input lanes")));
        }
        let lanes = u16::try_from(indices.len()).map_err(|_| mismatch("Shuffle", "too many lanes".into()))?;
        Ok(Expr::from_node_unchecked(elem.with_lanes(lanes), ExprKind::Shuffle { vectors, indices }))
    }
    /// Reduces `value` to `lanes` lanes by `op` over groups of adjacent lanes.
    pub fn vector_reduce(op: VectorReduceOp, value: Expr, lanes: u16) -> Result<Expr, IrError> {
        if lanes == 0 || !value.ty().lanes().is_multiple_of(lanes) {
            return Err(mismatch(
                "VectorReduce",
                format!("{} lanes do not reduce to {lanes}", value.ty().lanes()),
            ));
        }
        let ty = value.ty().with_lanes(lanes);
        Ok(Expr::from_node_unchecked(ty, ExprKind::VectorReduce { op, value }))
    }

    // ---- queries ----

    /// The integer value of a scalar integer immediate.
    pub fn as_int(&self) -> Option<i64> {
        match self.kind() {
            ExprKind::IntImm(v) => Some(*v),
            ExprKind::UIntImm(v) => i64::try_from(*v).ok(),
            _ => None,
        }
    }
    /// Whether this is the constant true, scalar or broadcast.
    pub fn is_const_true(&self) -> bool {
        match self.kind() {
            ExprKind::UIntImm(1) => self.ty().is_bool(),
            ExprKind::Broadcast { value, .. } => value.is_const_true(),
            _ => false,
        }
    }
    /// The variable name, if this is a Variable.
    pub fn as_variable(&self) -> Option<&Name> {
        match self.kind() {
            ExprKind::Variable(n) => Some(n),
            _ => None,
        }
    }
    /// Whether the node has no operands (`children` is empty), without collecting them.
    pub fn is_leaf(&self) -> bool {
        match self.kind() {
            ExprKind::IntImm(_)
            | ExprKind::UIntImm(_)
            | ExprKind::FloatImm(_)
            | ExprKind::StringImm(_)
            | ExprKind::Variable(_) => true,
            ExprKind::Call { args, .. } => args.is_empty(),
            ExprKind::Shuffle { vectors, .. } => vectors.is_empty(),
            _ => false,
        }
    }
    /// Whether this is a constant in Halide's sense (its `is_const`): a numeric or string
    /// immediate, or a cast, broadcast or ramp built only from constants.
    pub fn is_constant(&self) -> bool {
        let mut e = self;
        loop {
            match e.kind() {
                ExprKind::IntImm(_)
                | ExprKind::UIntImm(_)
                | ExprKind::FloatImm(_)
                | ExprKind::StringImm(_) => {
                    return true;
                }
                ExprKind::Cast(v) | ExprKind::Broadcast { value: v, .. } => e = v,
                ExprKind::Ramp { base, stride, .. } => {
                    return crate::stack::with_stack(|| base.is_constant() && stride.is_constant());
                }
                _ => return false,
            }
        }
    }
    /// The node kind's position in Halide's order of IR node types. Halide's rewriting
    /// code uses it to put the operands of commutative operators in a canonical order, so
    /// passes that must reproduce its output need the same ranking.
    pub fn node_type_rank(&self) -> u8 {
        match self.kind() {
            ExprKind::IntImm(_) => 0,
            ExprKind::UIntImm(_) => 1,
            ExprKind::FloatImm(_) => 2,
            ExprKind::StringImm(_) => 3,
            ExprKind::Broadcast { .. } => 4,
            ExprKind::Cast(_) => 5,
            ExprKind::Reinterpret(_) => 6,
            ExprKind::Variable(_) => 7,
            ExprKind::Binary(op, ..) => match op {
                BinOp::Add => 8,
                BinOp::Sub => 9,
                BinOp::Mod => 10,
                BinOp::Mul => 11,
                BinOp::Div => 12,
                BinOp::Min => 13,
                BinOp::Max => 14,
                BinOp::Eq => 15,
                BinOp::Ne => 16,
                BinOp::Lt => 17,
                BinOp::Le => 18,
                BinOp::Gt => 19,
                BinOp::Ge => 20,
                BinOp::And => 21,
                BinOp::Or => 22,
            },
            ExprKind::Not(_) => 23,
            ExprKind::Select(..) => 24,
            ExprKind::Load { .. } => 25,
            ExprKind::Ramp { .. } => 26,
            ExprKind::Call { .. } => 27,
            ExprKind::Let { .. } => 28,
            ExprKind::Shuffle { .. } => 29,
            ExprKind::VectorReduce { .. } => 30,
        }
    }

    /// Direct children, in the walk order of [`crate::visit`] (a load's predicate before
    /// its index; everything else left to right).
    pub fn children(&self) -> smallvec::SmallVec<[&Expr; 3]> {
        use smallvec::smallvec;
        match self.kind() {
            ExprKind::IntImm(_)
            | ExprKind::UIntImm(_)
            | ExprKind::FloatImm(_)
            | ExprKind::StringImm(_)
            | ExprKind::Variable(_) => smallvec![],
            ExprKind::Cast(a) | ExprKind::Reinterpret(a) | ExprKind::Not(a) => smallvec![a],
            ExprKind::Binary(_, a, b) => smallvec![a, b],
            ExprKind::Select(c, t, f) => smallvec![c, t, f],
            ExprKind::Load { index, predicate, .. } => smallvec![predicate, index],
            ExprKind::Ramp { base, stride, .. } => smallvec![base, stride],
            ExprKind::Broadcast { value, .. } => smallvec![value],
            ExprKind::Call { args, .. } => args.iter().collect(),
            ExprKind::Let { value, body, .. } => smallvec![value, body],
            ExprKind::Shuffle { vectors, .. } => vectors.iter().collect(),
            ExprKind::VectorReduce { value, .. } => smallvec![value],
        }
    }
}

/// Binary-operator shorthands that check types.
macro_rules! binop_ctor {
    ($($fname:ident => $op:ident),* $(,)?) => {
        impl Expr {
            $(
                #[doc = concat!("The `", stringify!($op), "` of two expressions of one type.")]
                #[allow(clippy::should_implement_trait)] // checked constructors, not operators
                pub fn $fname(a: Expr, b: Expr) -> Result<Expr, IrError> {
                    Expr::binary(BinOp::$op, a, b)
                }
            )*
        }
    };
}
binop_ctor!(add => Add, sub => Sub, mul => Mul, div => Div, modulo => Mod, min => Min, max => Max,
    eq => Eq, ne => Ne, lt => Lt, le => Le, gt => Gt, ge => Ge, and => And, or => Or);

impl Drop for Expr {
    fn drop(&mut self) {
        // SAFETY: `self.0` is taken exactly once, here, and never used afterwards.
        let arc = unsafe { ManuallyDrop::take(&mut self.0) };
        crate::teardown::release_expr(arc);
    }
}

impl Expr {
    /// Takes the Arc out of a handle without running the handle's own `Drop`.
    pub(crate) fn into_arc(self) -> Arc<ExprNode> {
        let mut me = ManuallyDrop::new(self);
        // SAFETY: `me` is never dropped, so its field is taken exactly once.
        unsafe { ManuallyDrop::take(&mut me.0) }
    }
}

impl PartialEq for Expr {
    /// Structural equality (types, kinds, names, constants and operands).
    fn eq(&self, other: &Expr) -> bool {
        crate::equality::equal(self, other)
    }
}

impl fmt::Display for Expr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&crate::print::expr_to_string(self))
    }
}

impl fmt::Debug for Expr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}
