//! Halide's compiler intrinsics, as an enum instead of strings.
//!
//! A call to an intrinsic is an [`ExprKind::Call`] whose call type is
//! [`CallType::Intrinsic`] or [`CallType::PureIntrinsic`] and whose name is the
//! intrinsic's spelling: the text prints the name, so the node keeps it. Code that asks
//! "is this a call to `likely`?" asks [`Expr::as_intrinsic`] or [`Expr::is_intrinsic`]
//! rather than comparing strings, so a misspelt name is a compile error and every question
//! about an intrinsic (its spelling, whether it has side effects, whether it only computes
//! a value, how many arguments it takes) is answered in one table, here.
//!
//! The table is Halide's `Call::IntrinsicOp` at the reference commit (10162e89df).
//!
//! ```
//! use loopir::{Expr, Intrinsic, IntrinsicKind};
//!
//! let x = Expr::var_i32("x");
//! let hint = Intrinsic::Likely.call(x.ty(), vec![x.clone()]);
//! assert_eq!(hint.to_string(), "likely(x)");
//! assert_eq!(hint.as_intrinsic(), Some((Intrinsic::Likely, &[x][..])));
//! assert_eq!(Intrinsic::from_name("likely"), Some(Intrinsic::Likely));
//! assert_eq!(Intrinsic::Likely.kind(), IntrinsicKind::Hint);
//! assert!(!Intrinsic::Likely.has_side_effects());
//! assert!(Intrinsic::ShiftLeft.is_pure_math());
//! ```

use std::fmt;

use crate::expr::{CallType, Expr, ExprKind};
use crate::types::Type;

/// What an intrinsic is for; decides how passes and analyses treat its calls.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum IntrinsicKind {
    /// Computes a value from its arguments and nothing else (`shift_left`,
    /// `saturating_add`, `lerp`, ...): it can be evaluated, folded and bounded.
    Math,
    /// Stands for one of its arguments and tells later passes something about it
    /// (`likely`, `promise_clamped`, ...). The value is the first argument.
    Hint,
    /// Marks a place in the IR for a later lowering pass, which replaces or removes it
    /// (`add_image_checks_marker`, `profiling_enable_instance_marker`, ...).
    Marker,
    /// Talks to the runtime or the target (`make_struct`, `register_destructor`,
    /// `target_has_feature`, ...).
    Runtime,
}

/// How many arguments a call to an intrinsic takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Arity {
    /// Exactly this many.
    Exactly(usize),
    /// At least this many.
    AtLeast(usize),
}

impl Arity {
    /// Whether a call with `n` arguments has this arity.
    pub fn accepts(self, n: usize) -> bool {
        match self {
            Arity::Exactly(k) => n == k,
            Arity::AtLeast(k) => n >= k,
        }
    }
}

impl fmt::Display for Arity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Arity::Exactly(1) => f.write_str("1 argument"),
            Arity::Exactly(k) => write!(f, "{k} arguments"),
            Arity::AtLeast(1) => f.write_str("at least 1 argument"),
            Arity::AtLeast(k) => write!(f, "at least {k} arguments"),
        }
    }
}

/// Declares the intrinsics, sorted by spelling, with their kind, side effects and arity.
macro_rules! intrinsics {
    ($($variant:ident = $name:literal, $kind:ident, $effects:ident, $arity:expr;)*) => {
        /// One of Halide's compiler intrinsics (the reference's `Call::IntrinsicOp`).
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum Intrinsic {
            $(
                #[doc = concat!("`", $name, "`")]
                $variant,
            )*
        }

        impl Intrinsic {
            /// Every intrinsic, in the order of their spellings.
            pub const ALL: &'static [Intrinsic] = &[$(Intrinsic::$variant),*];

            /// The spelling in `.stmt` text (and in Halide's IR).
            pub fn name(self) -> &'static str {
                match self {
                    $(Intrinsic::$variant => $name,)*
                }
            }

            /// What the intrinsic is for.
            pub fn kind(self) -> IntrinsicKind {
                match self {
                    $(Intrinsic::$variant => IntrinsicKind::$kind,)*
                }
            }

            /// Whether a call has effects beyond its value (call type
            /// [`CallType::Intrinsic`] rather than [`CallType::PureIntrinsic`]): it must
            /// not be removed, duplicated or moved across other effects.
            pub fn has_side_effects(self) -> bool {
                match self {
                    $(Intrinsic::$variant => effects!($effects),)*
                }
            }

            /// How many arguments a call takes.
            pub fn arity(self) -> Arity {
                use Arity::*;
                match self {
                    $(Intrinsic::$variant => $arity,)*
                }
            }
        }
    };
}

macro_rules! effects {
    (pure) => {
        false
    };
    (effects) => {
        true
    };
}

intrinsics! {
    Abs = "abs", Math, pure, Exactly(1);
    Absd = "absd", Math, pure, Exactly(2);
    AddImageChecksMarker = "add_image_checks_marker", Marker, effects, Exactly(0);
    Alloca = "alloca", Runtime, effects, Exactly(1);
    BitwiseAnd = "bitwise_and", Math, pure, Exactly(2);
    BitwiseNot = "bitwise_not", Math, pure, Exactly(1);
    BitwiseOr = "bitwise_or", Math, pure, Exactly(2);
    BitwiseXor = "bitwise_xor", Math, pure, Exactly(2);
    BoolToMask = "bool_to_mask", Math, pure, Exactly(1);
    Bundle = "bundle", Runtime, pure, AtLeast(1);
    CallCachedIndirectFunction = "call_cached_indirect_function", Runtime, pure, AtLeast(2);
    CastMask = "cast_mask", Math, pure, Exactly(1);
    ConcatBits = "concat_bits", Math, pure, AtLeast(1);
    CountLeadingZeros = "count_leading_zeros", Math, pure, Exactly(1);
    CountTrailingZeros = "count_trailing_zeros", Math, pure, Exactly(1);
    DebugToFile = "debug_to_file", Runtime, effects, AtLeast(1);
    DeclareBoxTouched = "declare_box_touched", Marker, effects, AtLeast(1);
    DivRoundToZero = "div_round_to_zero", Math, pure, Exactly(2);
    DynamicShuffle = "dynamic_shuffle", Math, pure, Exactly(4);
    ExtractBits = "extract_bits", Math, pure, Exactly(2);
    ExtractMaskElement = "extract_mask_element", Math, pure, Exactly(2);
    GetRuntimeVscale = "get_runtime_vscale", Runtime, pure, Exactly(0);
    GetUserContext = "get_user_context", Runtime, effects, Exactly(0);
    GpuThreadBarrier = "gpu_thread_barrier", Runtime, effects, Exactly(1);
    HalvingAdd = "halving_add", Math, pure, Exactly(2);
    HalvingSub = "halving_sub", Math, pure, Exactly(2);
    HvxGather = "hvx_gather", Runtime, pure, AtLeast(1);
    HvxScatter = "hvx_scatter", Runtime, effects, AtLeast(1);
    HvxScatterAcc = "hvx_scatter_acc", Runtime, effects, AtLeast(1);
    HvxScatterRelease = "hvx_scatter_release", Runtime, effects, AtLeast(0);
    IfThenElse = "if_then_else", Math, pure, AtLeast(2);
    IfThenElseMask = "if_then_else_mask", Math, pure, AtLeast(2);
    ImageLoad = "image_load", Runtime, pure, AtLeast(1);
    ImageStore = "image_store", Runtime, effects, AtLeast(1);
    Lerp = "lerp", Math, pure, Exactly(3);
    Likely = "likely", Hint, pure, Exactly(1);
    LikelyIfInnermost = "likely_if_innermost", Hint, pure, Exactly(1);
    LoadTypedStructMember = "load_typed_struct_member", Runtime, pure, Exactly(3);
    MakeStruct = "make_struct", Runtime, effects, AtLeast(0);
    MemoizeExpr = "memoize_expr", Hint, pure, AtLeast(1);
    ModRoundToZero = "mod_round_to_zero", Math, pure, Exactly(2);
    MulShiftRight = "mul_shift_right", Math, pure, Exactly(3);
    Mux = "mux", Math, pure, AtLeast(2);
    Popcount = "popcount", Math, pure, Exactly(1);
    Prefetch = "prefetch", Runtime, effects, AtLeast(1);
    ProfilingEnableInstanceMarker = "profiling_enable_instance_marker", Marker, effects, Exactly(0);
    PromiseClamped = "promise_clamped", Hint, pure, Exactly(3);
    Random = "random", Math, effects, AtLeast(0);
    RegisterDestructor = "register_destructor", Runtime, effects, Exactly(2);
    Require = "require", Runtime, effects, Exactly(3);
    RequireMask = "require_mask", Runtime, effects, Exactly(3);
    ReturnSecond = "return_second", Math, pure, Exactly(2);
    Round = "round", Math, pure, Exactly(1);
    RoundingHalvingAdd = "rounding_halving_add", Math, pure, Exactly(2);
    RoundingMulShiftRight = "rounding_mul_shift_right", Math, pure, Exactly(3);
    RoundingShiftLeft = "rounding_shift_left", Math, pure, Exactly(2);
    RoundingShiftRight = "rounding_shift_right", Math, pure, Exactly(2);
    SaturatingAdd = "saturating_add", Math, pure, Exactly(2);
    SaturatingCast = "saturating_cast", Math, pure, Exactly(1);
    SaturatingSub = "saturating_sub", Math, pure, Exactly(2);
    ScatterGather = "scatter_gather", Runtime, pure, AtLeast(1);
    SelectMask = "select_mask", Math, pure, Exactly(3);
    ShiftLeft = "shift_left", Math, pure, Exactly(2);
    ShiftRight = "shift_right", Math, pure, Exactly(2);
    SignedIntegerOverflow = "signed_integer_overflow", Marker, pure, Exactly(1);
    SizeOfHalideBufferT = "size_of_halide_buffer_t", Runtime, pure, Exactly(0);
    SkipStagesMarker = "skip_stages_marker", Marker, effects, Exactly(0);
    SlidingWindowMarker = "sliding_window_marker", Marker, effects, Exactly(2);
    SortedAvg = "sorted_avg", Math, pure, Exactly(2);
    StrictAdd = "strict_add", Math, pure, Exactly(2);
    StrictCast = "strict_cast", Math, pure, Exactly(1);
    StrictDiv = "strict_div", Math, pure, Exactly(2);
    StrictEq = "strict_eq", Math, pure, Exactly(2);
    StrictFma = "strict_fma", Math, pure, Exactly(3);
    StrictLe = "strict_le", Math, pure, Exactly(2);
    StrictLt = "strict_lt", Math, pure, Exactly(2);
    StrictMax = "strict_max", Math, pure, Exactly(2);
    StrictMin = "strict_min", Math, pure, Exactly(2);
    StrictMul = "strict_mul", Math, pure, Exactly(2);
    StrictSub = "strict_sub", Math, pure, Exactly(2);
    Stringify = "stringify", Runtime, pure, AtLeast(0);
    TargetArchIs = "target_arch_is", Runtime, pure, Exactly(1);
    TargetBits = "target_bits", Runtime, pure, Exactly(0);
    TargetHasFeature = "target_has_feature", Runtime, pure, Exactly(1);
    TargetNaturalVectorSize = "target_natural_vector_size", Runtime, pure, AtLeast(0);
    TargetOsIs = "target_os_is", Runtime, pure, Exactly(1);
    Undef = "undef", Runtime, effects, Exactly(0);
    Unreachable = "unreachable", Runtime, effects, Exactly(0);
    UnsafePromiseClamped = "unsafe_promise_clamped", Hint, pure, Exactly(3);
    WidenRightAdd = "widen_right_add", Math, pure, Exactly(2);
    WidenRightMul = "widen_right_mul", Math, pure, Exactly(2);
    WidenRightSub = "widen_right_sub", Math, pure, Exactly(2);
    WideningAdd = "widening_add", Math, pure, Exactly(2);
    WideningMul = "widening_mul", Math, pure, Exactly(2);
    WideningShiftLeft = "widening_shift_left", Math, pure, Exactly(2);
    WideningShiftRight = "widening_shift_right", Math, pure, Exactly(2);
    WideningSub = "widening_sub", Math, pure, Exactly(2);
}

impl Intrinsic {
    /// The intrinsic spelt `name`, if there is one.
    pub fn from_name(name: &str) -> Option<Intrinsic> {
        // The table is sorted by spelling (a test checks it), so a binary search finds it.
        Intrinsic::ALL.binary_search_by(|i| i.name().cmp(name)).ok().map(|k| Intrinsic::ALL[k])
    }

    /// Whether the intrinsic only computes a value from its arguments
    /// ([`IntrinsicKind::Math`]) and may be evaluated or folded like an operator.
    pub fn is_pure_math(self) -> bool {
        self.kind() == IntrinsicKind::Math && !self.has_side_effects()
    }

    /// The call type of a call to this intrinsic.
    pub fn call_type(self) -> CallType {
        if self.has_side_effects() { CallType::Intrinsic } else { CallType::PureIntrinsic }
    }

    /// A call to this intrinsic returning `ty`. The arguments are not checked against
    /// [`Intrinsic::arity`]; the verifier does that.
    pub fn call(self, ty: Type, args: Vec<Expr>) -> Expr {
        Expr::call(ty, self.name(), args, self.call_type())
    }
}

impl fmt::Display for Intrinsic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl Expr {
    /// The intrinsic this expression calls and the call's arguments, if it is a call to
    /// an intrinsic.
    pub fn as_intrinsic(&self) -> Option<(Intrinsic, &[Expr])> {
        match self.kind() {
            ExprKind::Call {
                name, args, call_type: CallType::Intrinsic | CallType::PureIntrinsic, ..
            } => Intrinsic::from_name(name).map(|i| (i, args.as_slice())),
            _ => None,
        }
    }

    /// Whether this is a call to `intrinsic` (cheaper than [`Expr::as_intrinsic`]: one
    /// comparison of names).
    pub fn is_intrinsic(&self, intrinsic: Intrinsic) -> bool {
        self.intrinsic_args(intrinsic).is_some()
    }

    /// The arguments of this expression if it is a call to `intrinsic`.
    pub fn intrinsic_args(&self, intrinsic: Intrinsic) -> Option<&[Expr]> {
        match self.kind() {
            ExprKind::Call {
                name, args, call_type: CallType::Intrinsic | CallType::PureIntrinsic, ..
            } if name.as_ref() == intrinsic.name() => Some(args),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_is_sorted_by_spelling() {
        assert!(Intrinsic::ALL.windows(2).all(|w| w[0].name() < w[1].name()));
    }

    #[test]
    fn every_spelling_reads_back() {
        for &i in Intrinsic::ALL {
            assert_eq!(Intrinsic::from_name(i.name()), Some(i));
        }
        assert_eq!(Intrinsic::from_name("likelyy"), None);
        assert_eq!(Intrinsic::from_name(""), None);
    }

    #[test]
    fn the_enum_and_the_reference_agree_in_size() {
        // Halide's IntrinsicOp at the reference commit has 97 members before its sentinel.
        assert_eq!(Intrinsic::ALL.len(), 97);
    }

    #[test]
    fn a_call_with_another_call_type_is_not_an_intrinsic() {
        let x = Expr::var_i32("x");
        let ext = Expr::call(x.ty(), "likely", vec![x.clone()], CallType::Extern);
        assert_eq!(ext.as_intrinsic(), None);
        assert!(!ext.is_intrinsic(Intrinsic::Likely));
        let call = Intrinsic::Likely.call(x.ty(), vec![x]);
        assert!(call.is_intrinsic(Intrinsic::Likely));
        assert!(!call.is_intrinsic(Intrinsic::LikelyIfInnermost));
    }
}
