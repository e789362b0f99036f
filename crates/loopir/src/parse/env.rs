//! What a reader of `.stmt` text may know beyond the text: the pipeline's Funcs, images and
//! buffers. The text omits call types and the types of names whose types "can be deduced";
//! an environment settles them where the text cannot.

use rustc_hash::FxHashMap;

use crate::types::Type;

/// Optional knowledge about the names in a `.stmt` file.
#[derive(Clone, Debug, Default)]
pub struct ParseEnv {
    /// Funcs of the pipeline and the types of their values (one per tuple element).
    pub funcs: FxHashMap<String, Vec<Type>>,
    /// Input images (buffer parameters and embedded buffers) and their element types.
    pub images: FxHashMap<String, Type>,
    /// Element types of flat buffers loaded from or stored to by name.
    pub buffers: FxHashMap<String, Type>,
}

impl ParseEnv {
    /// An empty environment: everything is recovered from the text alone.
    pub fn new() -> ParseEnv {
        ParseEnv::default()
    }
    /// Declares a Func with its value types.
    pub fn with_func(mut self, name: &str, types: Vec<Type>) -> ParseEnv {
        self.funcs.insert(name.to_owned(), types);
        self
    }
    /// Declares an input image with its element type.
    pub fn with_image(mut self, name: &str, ty: Type) -> ParseEnv {
        self.images.insert(name.to_owned(), ty);
        self
    }
    /// Declares a buffer's element type.
    pub fn with_buffer(mut self, name: &str, ty: Type) -> ParseEnv {
        self.buffers.insert(name.to_owned(), ty);
        self
    }
}

/// Intrinsics whose calls have side effects (call type `Intrinsic`); the others are
/// `PureIntrinsic`.
const IMPURE_INTRINSICS: &[&str] = &[
    "alloca",
    "debug_to_file",
    "gpu_thread_barrier",
    "hvx_scatter",
    "hvx_scatter_acc",
    "hvx_scatter_release",
    "image_store",
    "make_struct",
    "prefetch",
    "profiling_enable_instance_marker",
    "random",
    "register_destructor",
    "require",
    "require_mask",
    "undef",
    "unreachable",
    "declare_box_touched",
    "get_user_context",
    "skip_stages_marker",
    "sliding_window_marker",
    "add_image_checks_marker",
];

/// Intrinsic names of Halide at the reference commit.
const INTRINSICS: &[&str] = &[
    "abs",
    "absd",
    "add_image_checks_marker",
    "alloca",
    "bitwise_and",
    "bitwise_not",
    "bitwise_or",
    "bitwise_xor",
    "bool_to_mask",
    "bundle",
    "call_cached_indirect_function",
    "cast_mask",
    "concat_bits",
    "count_leading_zeros",
    "count_trailing_zeros",
    "debug_to_file",
    "declare_box_touched",
    "div_round_to_zero",
    "dynamic_shuffle",
    "extract_bits",
    "extract_mask_element",
    "get_runtime_vscale",
    "get_user_context",
    "gpu_thread_barrier",
    "halving_add",
    "halving_sub",
    "hvx_gather",
    "hvx_scatter",
    "hvx_scatter_acc",
    "hvx_scatter_release",
    "if_then_else",
    "if_then_else_mask",
    "image_load",
    "image_store",
    "lerp",
    "likely",
    "likely_if_innermost",
    "load_typed_struct_member",
    "make_struct",
    "memoize_expr",
    "mod_round_to_zero",
    "mul_shift_right",
    "mux",
    "popcount",
    "prefetch",
    "profiling_enable_instance_marker",
    "promise_clamped",
    "random",
    "register_destructor",
    "require",
    "require_mask",
    "return_second",
    "round",
    "rounding_halving_add",
    "rounding_mul_shift_right",
    "rounding_shift_left",
    "rounding_shift_right",
    "saturating_add",
    "saturating_cast",
    "saturating_sub",
    "scatter_gather",
    "select_mask",
    "shift_left",
    "shift_right",
    "signed_integer_overflow",
    "size_of_halide_buffer_t",
    "skip_stages_marker",
    "sliding_window_marker",
    "sorted_avg",
    "strict_add",
    "strict_cast",
    "strict_div",
    "strict_eq",
    "strict_fma",
    "strict_le",
    "strict_lt",
    "strict_max",
    "strict_min",
    "strict_mul",
    "strict_sub",
    "stringify",
    "target_arch_is",
    "target_bits",
    "target_has_feature",
    "target_natural_vector_size",
    "target_os_is",
    "undef",
    "unreachable",
    "unsafe_promise_clamped",
    "widen_right_add",
    "widen_right_mul",
    "widen_right_sub",
    "widening_add",
    "widening_mul",
    "widening_shift_left",
    "widening_shift_right",
    "widening_sub",
];

/// Whether `name` is one of Halide's intrinsics.
pub fn is_intrinsic(name: &str) -> bool {
    INTRINSICS.binary_search(&name).is_ok()
}

/// Whether `name` is an intrinsic with side effects.
pub fn is_impure_intrinsic(name: &str) -> bool {
    IMPURE_INTRINSICS.contains(&name)
}

#[cfg(test)]
mod tests {
    #[test]
    fn intrinsic_table_is_sorted() {
        assert!(super::INTRINSICS.windows(2).all(|w| w[0] < w[1]));
    }
}
