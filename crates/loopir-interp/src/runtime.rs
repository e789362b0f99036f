//! The runtime functions lowered IR calls, and the [`Runtime`] trait through which an
//! embedder gives the profiler, the tracer and extern stages their behaviour.
//!
//! The interpreter implements the calls whose effect is on the program's own memory as
//! the reference runtime does: the `halide_buffer_t` helpers (`_halide_buffer_get_min`,
//! `_halide_buffer_init`, `_halide_buffer_crop`, ...), `halide_malloc`/`halide_free`,
//! semaphores, the `halide_error_*` family (the error codes and messages of the
//! reference's `errors.cpp`), device allocation and copies (simulated: device memory is
//! a second copy on the host, moved by `halide_copy_to_device`/`halide_copy_to_host` as
//! the dirty bits say), and the math functions (`floor_f32`, `pow_f32`, ...).
//!
//! The calls whose effect is outside the program go through [`Runtime`]:
//! `halide_profiler_*` ([`Runtime::profiler`]), `halide_trace_helper`
//! ([`Runtime::trace`]) and any other extern function ([`Runtime::extern_call`], e.g. an
//! extern stage). [`HostRuntime`] gives them the reference runtime's results without
//! keeping statistics: profiler calls return what the runtime returns (0, or the active
//! thread count), trace calls return their event id, extern functions are unknown.

use rustc_hash::FxHashMap;

use crate::buffer::{Descriptor, Dim, layout, type_name};
use crate::elem::Elem;
use crate::error::{ErrorKind, InterpError};
use crate::heap::{Handle, Heap, HeapError, NULL, ObjectKind};

/// A runtime function the interpreter implements (or hands to [`Runtime`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RtFn {
    /// A `_halide_buffer_*` helper.
    Buffer(BufferFn),
    /// A `halide_error_*` function.
    Error(HalideError),
    /// `halide_malloc`.
    Malloc,
    /// `halide_free`.
    Free,
    /// A device-memory function.
    Device(DeviceFn),
    /// `halide_semaphore_init`.
    SemaphoreInit,
    /// `halide_semaphore_release`.
    SemaphoreRelease,
    /// `halide_semaphore_try_acquire`.
    SemaphoreTryAcquire,
    /// `halide_current_thread_id`.
    CurrentThreadId,
    /// A `halide_profiler_*` function.
    Profiler(ProfilerFn),
    /// `halide_trace_helper`.
    TraceHelper,
    /// A `halide_memoization_cache_*` function.
    Memoization(MemoizationFn),
    /// The `stringify` intrinsic.
    Stringify,
    /// The `register_destructor` intrinsic; the destructor is entry `k` of the
    /// program's destructor table.
    RegisterDestructor(u32),
    /// `load_typed_struct_member`, of the field at `offset`.
    LoadStructMember {
        /// The field's byte offset.
        offset: u32,
    },
    /// A math function (`floor_f32`, `pow_f64`, ...) of a float width.
    Math(MathFn, u8),
    /// An extern function handed to [`Runtime::extern_call`]; the name is entry `k` of
    /// the program's extern names.
    User(u32),
}

/// The `_halide_buffer_*` helpers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(missing_docs)]
pub enum BufferFn {
    GetDimensions,
    GetHost,
    GetDevice,
    GetDeviceInterface,
    GetMin,
    GetMax,
    GetExtent,
    GetStride,
    SetHostDirty,
    SetDeviceDirty,
    GetHostDirty,
    GetDeviceDirty,
    GetShape,
    IsBoundsQuery,
    GetType,
    Init,
    InitFromBuffer,
    Crop,
    SetBounds,
    RetireCropAfterExtern,
    RetireCropsAfterExtern,
}

/// Device-memory functions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(missing_docs)]
pub enum DeviceFn {
    /// `halide_<api>_device_interface()`; the API is entry `k` of [`DEVICE_APIS`].
    Interface(u8),
    CopyToDevice,
    CopyToHost,
    Malloc,
    Free,
    FreeAsDestructor,
    AndHostMalloc,
    AndHostFree,
    AndHostFreeAsDestructor,
    HostNopFree,
    Sync,
    SyncGlobal,
    Release,
}

/// The device APIs whose interfaces the interpreter simulates.
pub const DEVICE_APIS: &[&str] = &["cuda", "opencl", "metal", "vulkan", "d3d12compute", "webgpu", "hexagon"];

/// The `halide_memoization_cache_*` functions. The interpreter's cache is always cold:
/// every lookup misses (and allocates the memory of each buffer that has none, which the
/// pipeline then computes), a store keeps nothing, and a release frees what the lookup
/// allocated. A compiled pipeline's first run does the same.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MemoizationFn {
    /// `halide_memoization_cache_lookup(key, key_size, computed_bounds, tuple_count,
    /// tuple_buffers)`: 1, a miss.
    Lookup,
    /// `halide_memoization_cache_store(key, key_size, computed_bounds, tuple_count,
    /// tuple_buffers, has_eviction_key, eviction_key)`.
    Store,
    /// `halide_memoization_cache_release(host)`.
    Release,
}

/// The `halide_profiler_*` functions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(missing_docs)]
pub enum ProfilerFn {
    InstanceStart,
    InstanceEnd,
    SetCurrentFunc,
    EnableInstance,
    IncrActiveThreads,
    DecrActiveThreads,
    MemoryAllocate,
    MemoryFree,
    StackPeakUpdate,
    InitSamplingToken,
    AcquireSamplingToken,
    ReleaseSamplingToken,
}

/// Math functions of the runtime, by their name without the `_fNN` suffix.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(missing_docs)]
pub enum MathFn {
    Sqrt,
    Sin,
    Cos,
    Tan,
    Asin,
    Acos,
    Atan,
    Atan2,
    Sinh,
    Cosh,
    Tanh,
    Asinh,
    Acosh,
    Atanh,
    Exp,
    Log,
    Pow,
    Floor,
    Ceil,
    Round,
    Trunc,
    IsNan,
    IsInf,
    IsFinite,
    FastInverse,
    FastInverseSqrt,
}

const MATH_FNS: &[(&str, MathFn)] = &[
    ("sqrt", MathFn::Sqrt),
    ("sin", MathFn::Sin),
    ("cos", MathFn::Cos),
    ("tan", MathFn::Tan),
    ("asin", MathFn::Asin),
    ("acos", MathFn::Acos),
    ("atan", MathFn::Atan),
    ("atan2", MathFn::Atan2),
    ("sinh", MathFn::Sinh),
    ("cosh", MathFn::Cosh),
    ("tanh", MathFn::Tanh),
    ("asinh", MathFn::Asinh),
    ("acosh", MathFn::Acosh),
    ("atanh", MathFn::Atanh),
    ("exp", MathFn::Exp),
    ("log", MathFn::Log),
    ("pow", MathFn::Pow),
    ("floor", MathFn::Floor),
    ("ceil", MathFn::Ceil),
    ("round", MathFn::Round),
    ("trunc", MathFn::Trunc),
    ("is_nan", MathFn::IsNan),
    ("is_inf", MathFn::IsInf),
    ("is_finite", MathFn::IsFinite),
    ("fast_inverse", MathFn::FastInverse),
    ("fast_inverse_sqrt", MathFn::FastInverseSqrt),
];

impl MathFn {
    /// How many arguments it takes.
    pub fn arity(self) -> usize {
        if matches!(self, MathFn::Atan2 | MathFn::Pow) { 2 } else { 1 }
    }

    /// Whether it returns a boolean.
    pub fn is_predicate(self) -> bool {
        matches!(self, MathFn::IsNan | MathFn::IsInf | MathFn::IsFinite)
    }

    /// Applies the function to exact values (the caller rounds the result to the type).
    /// float16 math is computed in float32, as the reference remaps it.
    pub fn apply(self, bits: u8, x: f64, y: f64) -> f64 {
        if bits == 64 {
            return self.apply64(x, y);
        }
        let (x, y) = (x as f32, y as f32);
        let r: f32 = match self {
            MathFn::Sqrt => x.sqrt(),
            MathFn::Sin => x.sin(),
            MathFn::Cos => x.cos(),
            MathFn::Tan => x.tan(),
            MathFn::Asin => x.asin(),
            MathFn::Acos => x.acos(),
            MathFn::Atan => x.atan(),
            MathFn::Atan2 => x.atan2(y),
            MathFn::Sinh => x.sinh(),
            MathFn::Cosh => x.cosh(),
            MathFn::Tanh => x.tanh(),
            MathFn::Asinh => x.asinh(),
            MathFn::Acosh => x.acosh(),
            MathFn::Atanh => x.atanh(),
            MathFn::Exp => x.exp(),
            MathFn::Log => x.ln(),
            MathFn::Pow => x.powf(y),
            MathFn::Floor => x.floor(),
            MathFn::Ceil => x.ceil(),
            MathFn::Round => crate::elem::round_half_even(x as f64) as f32,
            MathFn::Trunc => x.trunc(),
            MathFn::IsNan => x.is_nan() as u8 as f32,
            MathFn::IsInf => x.is_infinite() as u8 as f32,
            MathFn::IsFinite => x.is_finite() as u8 as f32,
            MathFn::FastInverse => 1.0 / x,
            MathFn::FastInverseSqrt => 1.0 / x.sqrt(),
        };
        r as f64
    }

    fn apply64(self, x: f64, y: f64) -> f64 {
        match self {
            MathFn::Sqrt => x.sqrt(),
            MathFn::Sin => x.sin(),
            MathFn::Cos => x.cos(),
            MathFn::Tan => x.tan(),
            MathFn::Asin => x.asin(),
            MathFn::Acos => x.acos(),
            MathFn::Atan => x.atan(),
            MathFn::Atan2 => x.atan2(y),
            MathFn::Sinh => x.sinh(),
            MathFn::Cosh => x.cosh(),
            MathFn::Tanh => x.tanh(),
            MathFn::Asinh => x.asinh(),
            MathFn::Acosh => x.acosh(),
            MathFn::Atanh => x.atanh(),
            MathFn::Exp => x.exp(),
            MathFn::Log => x.ln(),
            MathFn::Pow => x.powf(y),
            MathFn::Floor => x.floor(),
            MathFn::Ceil => x.ceil(),
            MathFn::Round => crate::elem::round_half_even(x),
            MathFn::Trunc => x.trunc(),
            MathFn::IsNan => x.is_nan() as u8 as f64,
            MathFn::IsInf => x.is_infinite() as u8 as f64,
            MathFn::IsFinite => x.is_finite() as u8 as f64,
            MathFn::FastInverse => 1.0 / x,
            MathFn::FastInverseSqrt => 1.0 / x.sqrt(),
        }
    }
}

/// The `halide_error_*` functions (`errors.cpp`), with their codes and messages.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(missing_docs)]
pub enum HalideError {
    BoundsInferenceCallFailed,
    ExternStageFailed,
    ExplicitBoundsTooSmall,
    BadType,
    BadDimensions,
    AccessOutOfBounds,
    BufferAllocationTooLarge,
    BufferExtentsNegative,
    BufferExtentsTooLarge,
    ConstraintsMakeRequiredRegionSmaller,
    ConstraintViolated,
    ParamTooSmallI64,
    ParamTooSmallU64,
    ParamTooSmallF64,
    ParamTooLargeI64,
    ParamTooLargeU64,
    ParamTooLargeF64,
    OutOfMemory,
    BufferArgumentIsNull,
    DebugToFileFailed,
    UnalignedHostPtr,
    DeviceDirtyWithNoDeviceSupport,
    HostIsNull,
    BadFold,
    BadExternFold,
    FoldFactorTooSmall,
    RequirementFailed,
    SpecializeFail,
    NoDeviceInterface,
    DeviceInterfaceNoDevice,
    HostAndDeviceDirty,
    BufferIsNull,
    StorageBoundTooSmall,
    DeviceCropFailed,
    SplitFactorNotPositive,
    VscaleInvalid,
}

const HALIDE_ERRORS: &[(&str, HalideError)] = &[
    ("bounds_inference_call_failed", HalideError::BoundsInferenceCallFailed),
    ("extern_stage_failed", HalideError::ExternStageFailed),
    ("explicit_bounds_too_small", HalideError::ExplicitBoundsTooSmall),
    ("bad_type", HalideError::BadType),
    ("bad_dimensions", HalideError::BadDimensions),
    ("access_out_of_bounds", HalideError::AccessOutOfBounds),
    ("buffer_allocation_too_large", HalideError::BufferAllocationTooLarge),
    ("buffer_extents_negative", HalideError::BufferExtentsNegative),
    ("buffer_extents_too_large", HalideError::BufferExtentsTooLarge),
    ("constraints_make_required_region_smaller", HalideError::ConstraintsMakeRequiredRegionSmaller),
    ("constraint_violated", HalideError::ConstraintViolated),
    ("param_too_small_i64", HalideError::ParamTooSmallI64),
    ("param_too_small_u64", HalideError::ParamTooSmallU64),
    ("param_too_small_f64", HalideError::ParamTooSmallF64),
    ("param_too_large_i64", HalideError::ParamTooLargeI64),
    ("param_too_large_u64", HalideError::ParamTooLargeU64),
    ("param_too_large_f64", HalideError::ParamTooLargeF64),
    ("out_of_memory", HalideError::OutOfMemory),
    ("buffer_argument_is_null", HalideError::BufferArgumentIsNull),
    ("debug_to_file_failed", HalideError::DebugToFileFailed),
    ("unaligned_host_ptr", HalideError::UnalignedHostPtr),
    ("device_dirty_with_no_device_support", HalideError::DeviceDirtyWithNoDeviceSupport),
    ("host_is_null", HalideError::HostIsNull),
    ("bad_fold", HalideError::BadFold),
    ("bad_extern_fold", HalideError::BadExternFold),
    ("fold_factor_too_small", HalideError::FoldFactorTooSmall),
    ("requirement_failed", HalideError::RequirementFailed),
    ("specialize_fail", HalideError::SpecializeFail),
    ("no_device_interface", HalideError::NoDeviceInterface),
    ("device_interface_no_device", HalideError::DeviceInterfaceNoDevice),
    ("host_and_device_dirty", HalideError::HostAndDeviceDirty),
    ("buffer_is_null", HalideError::BufferIsNull),
    ("storage_bound_too_small", HalideError::StorageBoundTooSmall),
    ("device_crop_failed", HalideError::DeviceCropFailed),
    ("split_factor_not_positive", HalideError::SplitFactorNotPositive),
    ("vscale_invalid", HalideError::VscaleInvalid),
];

/// Functions of the reference runtime the interpreter cannot run, and why.
const NOT_ON_HOST: &[(&str, &str)] = &[
    (
        "halide_do_par_for",
        "runs a parallel loop body that was compiled into a closure function whose body is not in the file",
    ),
    (
        "halide_do_parallel_tasks",
        "runs tasks that were compiled into closure functions whose bodies are not in the file",
    ),
    ("halide_do_task", "runs a closure function whose body is not in the file"),
    ("halide_do_loop_task", "runs a closure function whose body is not in the file"),
];

impl RtFn {
    /// The numbers of arguments the lowered IR passes to the function, where they are
    /// fixed (as every call in the oracle's and Halide 21's files has them); `None` where
    /// the interpreter does not rely on a number. A call with another number is refused
    /// when the program is compiled, rather than reading missing arguments as zero.
    pub fn arities(self) -> Option<&'static [usize]> {
        use BufferFn as B;
        use DeviceFn as D;
        Some(match self {
            RtFn::Buffer(
                B::GetDimensions
                | B::GetHost
                | B::GetDevice
                | B::GetDeviceInterface
                | B::GetHostDirty
                | B::GetDeviceDirty
                | B::GetShape
                | B::IsBoundsQuery
                | B::GetType,
            ) => &[1],
            RtFn::Buffer(
                B::GetMin | B::GetMax | B::GetExtent | B::GetStride | B::SetHostDirty | B::SetDeviceDirty,
            ) => &[2],
            RtFn::Buffer(B::SetBounds) => &[4],
            RtFn::Buffer(B::Init) => &[10],
            RtFn::Device(D::Interface(_)) => &[0],
            RtFn::Device(
                D::CopyToHost
                | D::Free
                | D::FreeAsDestructor
                | D::AndHostFree
                | D::AndHostFreeAsDestructor
                | D::HostNopFree
                | D::SyncGlobal,
            ) => &[1],
            RtFn::Device(D::CopyToDevice | D::Malloc | D::AndHostMalloc) => &[2],
            RtFn::SemaphoreInit | RtFn::SemaphoreRelease | RtFn::SemaphoreTryAcquire => &[2],
            RtFn::CurrentThreadId => &[0],
            RtFn::Profiler(p) => match p {
                // Halide 21 passes (pipeline, num_funcs, names, instance); the reference adds
                // parents, canonical ids, kinds and buffer Func ids before the instance.
                ProfilerFn::InstanceStart => &[4, 8],
                ProfilerFn::SetCurrentFunc | ProfilerFn::MemoryAllocate | ProfilerFn::MemoryFree => &[3],
                ProfilerFn::InstanceEnd
                | ProfilerFn::EnableInstance
                | ProfilerFn::IncrActiveThreads
                | ProfilerFn::DecrActiveThreads => &[1],
                ProfilerFn::StackPeakUpdate
                | ProfilerFn::InitSamplingToken
                | ProfilerFn::AcquireSamplingToken
                | ProfilerFn::ReleaseSamplingToken => &[2],
            },
            RtFn::TraceHelper => &[12],
            RtFn::Memoization(MemoizationFn::Lookup) => &[5],
            RtFn::Memoization(MemoizationFn::Store) => &[7],
            RtFn::Memoization(MemoizationFn::Release) => &[1],
            RtFn::Math(m, _) => {
                if m.arity() == 2 {
                    &[2]
                } else {
                    &[1]
                }
            }
            _ => return None,
        })
    }

    /// The runtime function named `name`, if the interpreter implements it. `Err` gives
    /// the reason for a function of the reference runtime that cannot be run here.
    pub fn lookup(name: &str) -> Result<Option<RtFn>, String> {
        if let Some(rest) = name.strip_prefix("_halide_buffer_") {
            use BufferFn as B;
            let f = match rest {
                "get_dimensions" => B::GetDimensions,
                "get_host" => B::GetHost,
                "get_device" => B::GetDevice,
                "get_device_interface" => B::GetDeviceInterface,
                "get_min" => B::GetMin,
                "get_max" => B::GetMax,
                "get_extent" => B::GetExtent,
                "get_stride" => B::GetStride,
                "set_host_dirty" => B::SetHostDirty,
                "set_device_dirty" => B::SetDeviceDirty,
                "get_host_dirty" => B::GetHostDirty,
                "get_device_dirty" => B::GetDeviceDirty,
                "get_shape" => B::GetShape,
                "is_bounds_query" => B::IsBoundsQuery,
                "get_type" => B::GetType,
                "init" => B::Init,
                "init_from_buffer" => B::InitFromBuffer,
                "crop" => B::Crop,
                "set_bounds" => B::SetBounds,
                "retire_crop_after_extern_stage" => B::RetireCropAfterExtern,
                "retire_crops_after_extern_stage" => B::RetireCropsAfterExtern,
                _ => return Ok(None),
            };
            return Ok(Some(RtFn::Buffer(f)));
        }
        if let Some(rest) = name.strip_prefix("halide_error_") {
            return Ok(HALIDE_ERRORS.iter().find(|(n, _)| *n == rest).map(|(_, e)| RtFn::Error(*e)));
        }
        if let Some(rest) = name.strip_prefix("halide_profiler_") {
            use ProfilerFn as P;
            let f = match rest {
                "instance_start" => P::InstanceStart,
                "instance_end" => P::InstanceEnd,
                "set_current_func" => P::SetCurrentFunc,
                "enable_instance" => P::EnableInstance,
                "incr_active_threads" => P::IncrActiveThreads,
                "decr_active_threads" => P::DecrActiveThreads,
                "memory_allocate" => P::MemoryAllocate,
                "memory_free" => P::MemoryFree,
                "stack_peak_update" => P::StackPeakUpdate,
                "init_sampling_token" => P::InitSamplingToken,
                "acquire_sampling_token" => P::AcquireSamplingToken,
                "release_sampling_token" => P::ReleaseSamplingToken,
                _ => return Ok(None),
            };
            return Ok(Some(RtFn::Profiler(f)));
        }
        if let Some((_, why)) = NOT_ON_HOST.iter().find(|(n, _)| *n == name) {
            return Err(format!("{name} {why}"));
        }
        for (k, api) in DEVICE_APIS.iter().enumerate() {
            if name == format!("halide_{api}_device_interface") {
                return Ok(Some(RtFn::Device(DeviceFn::Interface(k as u8))));
            }
            if name == format!("halide_{api}_run") {
                return Err(format!(
                    "{name} launches a device kernel that was compiled separately and is not in the file"
                ));
            }
            if name.starts_with(&format!("halide_{api}_")) && name.ends_with("_kernels") {
                return Err(format!("{name} loads device kernels that are not in the file"));
            }
        }
        use DeviceFn as D;
        let f = match name {
            "halide_malloc" => RtFn::Malloc,
            "halide_free" => RtFn::Free,
            "halide_copy_to_device" => RtFn::Device(D::CopyToDevice),
            "halide_copy_to_host" => RtFn::Device(D::CopyToHost),
            "halide_device_malloc" => RtFn::Device(D::Malloc),
            "halide_device_free" => RtFn::Device(D::Free),
            "halide_device_free_as_destructor" => RtFn::Device(D::FreeAsDestructor),
            "halide_device_and_host_malloc" => RtFn::Device(D::AndHostMalloc),
            "halide_device_and_host_free" => RtFn::Device(D::AndHostFree),
            "halide_device_and_host_free_as_destructor" => RtFn::Device(D::AndHostFreeAsDestructor),
            "halide_device_host_nop_free" => RtFn::Device(D::HostNopFree),
            "halide_device_sync" => RtFn::Device(D::Sync),
            "halide_device_sync_global" => RtFn::Device(D::SyncGlobal),
            "halide_device_release" => RtFn::Device(D::Release),
            "halide_semaphore_init" => RtFn::SemaphoreInit,
            "halide_semaphore_release" => RtFn::SemaphoreRelease,
            "halide_semaphore_try_acquire" => RtFn::SemaphoreTryAcquire,
            "halide_current_thread_id" => RtFn::CurrentThreadId,
            "halide_trace_helper" => RtFn::TraceHelper,
            "halide_memoization_cache_lookup" => RtFn::Memoization(MemoizationFn::Lookup),
            "halide_memoization_cache_store" => RtFn::Memoization(MemoizationFn::Store),
            "halide_memoization_cache_release" => RtFn::Memoization(MemoizationFn::Release),
            _ => {
                for suffix in ["_f16", "_f32", "_f64"] {
                    if let Some(base) = name.strip_suffix(suffix)
                        && let Some((_, m)) = MATH_FNS.iter().find(|(n, _)| *n == base)
                    {
                        let bits = suffix[2..].parse().unwrap_or(32);
                        return Ok(Some(RtFn::Math(*m, bits)));
                    }
                }
                return Ok(None);
            }
        };
        Ok(Some(f))
    }

    /// Whether the function's result depends only on its arguments and it has no effect
    /// (so a vector call applies it lane by lane).
    pub fn is_lane_wise(self) -> bool {
        matches!(self, RtFn::Math(..))
    }
}

/// A `halide_profiler_*` call, with its arguments read.
#[derive(Clone, Debug, PartialEq)]
pub enum ProfilerCall {
    /// `halide_profiler_instance_start`: the pipeline's name and Func table.
    InstanceStart {
        /// The pipeline's name.
        pipeline: String,
        /// Names of the entries.
        names: Vec<String>,
        /// Parent of each entry (-1 for none). This and the next three tables are empty
        /// in Halide 21's form of the call, which passes none.
        parents: Vec<i32>,
        /// Canonical id of each entry.
        canonical_ids: Vec<i32>,
        /// Kind of each entry (`halide_profiler_func_kind`).
        kinds: Vec<i32>,
        /// Buffer Func id of each entry.
        buffer_func_ids: Vec<i32>,
        /// The instance state's memory.
        instance: Handle,
    },
    /// `halide_profiler_instance_end` (run as a destructor).
    InstanceEnd {
        /// The instance.
        instance: Handle,
    },
    /// `halide_profiler_set_current_func`.
    SetCurrentFunc {
        /// The instance.
        instance: Handle,
        /// The entry now running.
        func: i32,
        /// The sampling token (null for none): the call has effect only if it is null
        /// or holds 0.
        token: Handle,
    },
    /// `halide_profiler_enable_instance`.
    EnableInstance {
        /// The instance.
        instance: Handle,
    },
    /// `halide_profiler_incr_active_threads`.
    IncrActiveThreads {
        /// The instance.
        instance: Handle,
    },
    /// `halide_profiler_decr_active_threads`.
    DecrActiveThreads {
        /// The instance.
        instance: Handle,
    },
    /// `halide_profiler_memory_allocate`.
    MemoryAllocate {
        /// The instance.
        instance: Handle,
        /// The entry the memory is billed to.
        func: i32,
        /// Bytes.
        bytes: u64,
    },
    /// `halide_profiler_memory_free`.
    MemoryFree {
        /// The instance.
        instance: Handle,
        /// The entry the memory was billed to.
        func: i32,
        /// Bytes.
        bytes: u64,
    },
    /// `halide_profiler_stack_peak_update`.
    StackPeakUpdate {
        /// The instance.
        instance: Handle,
        /// The per-entry stack peaks (a `uint64_t` array).
        values: Handle,
    },
}

/// A `halide_trace_helper` call: one event of the trace.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TraceEvent {
    /// The Func (or pipeline) name.
    pub func: String,
    /// The event code (`halide_trace_event_code_t`: 0 load, 1 store, 2 begin
    /// realization, ...).
    pub event: i32,
    /// The id of the enclosing event.
    pub parent_id: i32,
    /// The thread id argument.
    pub thread_id: i32,
    /// Which value of a tuple.
    pub value_index: i32,
    /// The coordinates (`dimensions` of them).
    pub coordinates: Vec<i32>,
    /// The value's type, packed as `halide_type_t` (code | bits << 8 | lanes << 16).
    pub ty: u32,
    /// The value's bytes (loads and stores).
    pub value: Vec<u8>,
    /// The trace tag.
    pub tag: String,
}

/// What a [`Runtime`] may see and touch of the running program.
pub struct RuntimeCx<'a> {
    /// The program's memory.
    pub heap: &'a mut Heap,
    /// Operations executed so far (a deterministic clock).
    pub ops: u64,
    /// The id of the thread making the call: 0 on the main thread, n on the n-th task
    /// the run started (a fork's, a GPU thread's or lane's), so no two tasks share one.
    pub thread_id: i32,
    /// The thread that started the calling one (a fork's or a GPU thread loop's task);
    /// `None` on the main thread.
    pub parent_thread: Option<i32>,
}

/// An argument of an extern call: its value (for a vector, its first lane) and type.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ExternArg {
    /// The value, in canonical lane form.
    pub value: u64,
    /// Its element type.
    pub elem: Elem,
}

/// The runtime calls whose behaviour the embedder chooses.
pub trait Runtime {
    /// A `halide_profiler_*` call; returns the function's result.
    fn profiler(&mut self, call: &ProfilerCall, cx: &mut RuntimeCx<'_>) -> Result<i64, InterpError>;

    /// A `halide_trace_helper` call; returns the event's id.
    fn trace(&mut self, event: &TraceEvent, cx: &mut RuntimeCx<'_>) -> Result<i32, InterpError>;

    /// Whether [`Runtime::extern_call`] implements the function `name` (asked when the
    /// program is compiled).
    fn knows_extern(&self, _name: &str) -> bool {
        false
    }

    /// A call to an extern function the interpreter does not implement (an extern
    /// stage, say); returns its result in canonical lane form.
    fn extern_call(
        &mut self,
        name: &str,
        _args: &[ExternArg],
        _cx: &mut RuntimeCx<'_>,
    ) -> Result<u64, InterpError> {
        Err(InterpError::new(
            ErrorKind::Unsupported,
            format!("no implementation of the extern function {name}"),
        ))
    }
}

/// The reference runtime's behaviour without its side channels: profiler calls do what
/// they do to the program's memory and return what they return, but keep no
/// statistics; trace calls print nothing and return event ids 1, 2, 3, ...
#[derive(Clone, Debug, Default)]
pub struct HostRuntime {
    next_trace_id: i32,
    active_threads: FxHashMap<Handle, i64>,
}

impl HostRuntime {
    /// A fresh runtime.
    pub fn new() -> HostRuntime {
        HostRuntime::default()
    }
}

impl Runtime for HostRuntime {
    fn profiler(&mut self, call: &ProfilerCall, cx: &mut RuntimeCx<'_>) -> Result<i64, InterpError> {
        Ok(match call {
            ProfilerCall::InstanceStart { instance, .. } => {
                self.active_threads.insert(*instance, 0);
                0
            }
            ProfilerCall::InstanceEnd { instance } => {
                self.active_threads.remove(instance);
                0
            }
            ProfilerCall::SetCurrentFunc { .. } | ProfilerCall::EnableInstance { .. } => 0,
            // The runtime returns the count before the change.
            ProfilerCall::IncrActiveThreads { instance } => {
                let n = self.active_threads.entry(*instance).or_insert(0);
                *n += 1;
                *n - 1
            }
            ProfilerCall::DecrActiveThreads { instance } => {
                let n = self.active_threads.entry(*instance).or_insert(0);
                *n -= 1;
                *n + 1
            }
            ProfilerCall::MemoryAllocate { .. } | ProfilerCall::MemoryFree { .. } => 0,
            ProfilerCall::StackPeakUpdate { values, .. } => {
                // The runtime reads the array; a bad pointer is the program's fault.
                cx.heap.read(*values, 0, 0).map_err(|e| mem_error(&e))?;
                0
            }
        })
    }

    fn trace(&mut self, _event: &TraceEvent, _cx: &mut RuntimeCx<'_>) -> Result<i32, InterpError> {
        self.next_trace_id += 1;
        Ok(self.next_trace_id)
    }
}

/// An interpreter error for a failed memory access.
pub(crate) fn mem_error(e: &HeapError) -> InterpError {
    let kind = match e {
        HeapError::DoubleFree { .. } => ErrorKind::DoubleFree,
        HeapError::TooLarge { .. } => ErrorKind::Limit,
        _ => ErrorKind::MemoryAccess,
    };
    InterpError::new(kind, e.to_string())
}

/// The runtime's scientific rendering of a double (`halide_double_to_string(x, 1)`).
pub fn runtime_double(x: f64) -> String {
    if x.is_nan() {
        return if x.is_sign_negative() { "-nan".into() } else { "nan".into() };
    }
    if x.is_infinite() {
        return if x < 0.0 { "-inf".into() } else { "inf".into() };
    }
    if x == 0.0 {
        return if x.is_sign_negative() { "-0.000000e+00".into() } else { "0.000000e+00".into() };
    }
    let mut out = String::new();
    let mut arg = x;
    if arg < 0.0 {
        out.push('-');
        arg = -arg;
    }
    let mut exp = 0i32;
    while arg < 1.0 {
        arg *= 10.0;
        exp -= 1;
    }
    while arg >= 10.0 {
        arg /= 10.0;
        exp += 1;
    }
    let fixed = (arg * 1_000_000.0 + 0.5) as u64;
    let top = fixed / 1_000_000;
    let rest = fixed - top * 1_000_000;
    out.push_str(&format!("{top}.{rest:06}e{}{:02}", if exp >= 0 { '+' } else { '-' }, exp.abs()));
    out
}

impl HalideError {
    /// The error code and message of a call with argument values `a` (the interpreter
    /// reads strings from `heap`).
    pub fn report(self, a: &[ExternArg], heap: &Heap) -> (i32, String) {
        let s = |k: usize| {
            a.get(k)
                .map(|x| heap.c_string(x.value).unwrap_or_else(|_| "<bad string>".into()))
                .unwrap_or_default()
        };
        let i = |k: usize| a.get(k).map(|x| x.elem.as_i128(x.value)).unwrap_or(0);
        let f = |k: usize| a.get(k).map(|x| x.elem.to_f64(x.value)).unwrap_or(0.0);
        use HalideError as E;
        match self {
            E::BoundsInferenceCallFailed => {
                let r = i(1);
                (
                    r as i32,
                    format!("Bounds inference call to external stage {} returned non-zero value: {r}", s(0)),
                )
            }
            E::ExternStageFailed => {
                let r = i(1);
                (r as i32, format!("Call to external stage {} returned non-zero value: {r}", s(0)))
            }
            E::ExplicitBoundsTooSmall => (
                -2,
                format!(
                    "Bounds given for {} in {} (from {} to {}) do not cover required region (from {} to {})",
                    s(1),
                    s(0),
                    i(2),
                    i(3),
                    i(4),
                    i(5)
                ),
            ),
            E::BadType => (
                -3,
                format!(
                    "{} has type {} but type of the buffer passed in is {}",
                    s(0),
                    type_name(i(2) as u32),
                    type_name(i(1) as u32)
                ),
            ),
            E::BadDimensions => (
                -43,
                format!(
                    "{} requires a buffer of exactly {} dimensions, but the buffer passed in has {} dimensions",
                    s(0),
                    i(2),
                    i(1)
                ),
            ),
            E::AccessOutOfBounds => {
                let (dim, min_t, max_t, min_v, max_v) = (i(1), i(2), i(3), i(4), i(5));
                let msg = if min_t < min_v {
                    format!(
                        "{} is accessed at {min_t}, which is before the min ({min_v}) in dimension {dim}",
                        s(0)
                    )
                } else if max_t > max_v {
                    format!(
                        "{} is accessed at {max_t}, which is beyond the max ({max_v}) in dimension {dim}",
                        s(0)
                    )
                } else {
                    String::new()
                };
                (-4, msg)
            }
            E::BufferAllocationTooLarge => (
                -5,
                format!(
                    "Total allocation for buffer {} is {}, which exceeds the maximum size of {}",
                    s(0),
                    i(1),
                    i(2)
                ),
            ),
            E::BufferExtentsNegative => {
                (-28, format!("The extents for buffer {} dimension {} is negative ({})", s(0), i(1), i(2)))
            }
            E::BufferExtentsTooLarge => (
                -6,
                format!(
                    "Product of extents for buffer {} is {}, which exceeds the maximum size of {}",
                    s(0),
                    i(1),
                    i(2)
                ),
            ),
            E::ConstraintsMakeRequiredRegionSmaller => {
                let (cmin, cext, rmin, rext) = (i(2), i(3), i(4), i(5));
                (
                    -7,
                    format!(
                        "Applying the constraints on {} to the required region made it smaller in dimension {}. Required size: {} to {}. Constrained size: {} to {}.",
                        s(0),
                        i(1),
                        rmin,
                        rmin + rext - 1,
                        cmin,
                        cmin + cext - 1
                    ),
                )
            }
            E::ConstraintViolated => {
                (-8, format!("Constraint violated: {} ({}) == {} ({})", s(0), i(1), s(2), i(3)))
            }
            E::ParamTooSmallI64 | E::ParamTooSmallU64 => {
                (-9, format!("Parameter {} is {} but must be at least {}", s(0), i(1), i(2)))
            }
            E::ParamTooSmallF64 => (
                -9,
                format!(
                    "Parameter {} is {} but must be at least {}",
                    s(0),
                    runtime_double(f(1)),
                    runtime_double(f(2))
                ),
            ),
            E::ParamTooLargeI64 | E::ParamTooLargeU64 => {
                (-10, format!("Parameter {} is {} but must be at most {}", s(0), i(1), i(2)))
            }
            E::ParamTooLargeF64 => (
                -10,
                format!(
                    "Parameter {} is {} but must be at most {}",
                    s(0),
                    runtime_double(f(1)),
                    runtime_double(f(2))
                ),
            ),
            E::OutOfMemory => (-11, "Out of memory (halide_malloc returned nullptr)".into()),
            E::BufferArgumentIsNull => (-12, format!("Buffer argument {} is nullptr", s(0))),
            E::DebugToFileFailed => {
                (-13, format!("Failed to dump function {} to file {} with error {}", s(0), s(1), i(2)))
            }
            E::UnalignedHostPtr => {
                (-24, format!("The host pointer of {} is not aligned to a {} bytes boundary.", s(0), i(1)))
            }
            E::DeviceDirtyWithNoDeviceSupport => (
                -44,
                format!(
                    "The buffer {} is dirty on device, but this pipeline was compiled with no support for device to host copies.",
                    s(0)
                ),
            ),
            E::HostIsNull => (
                -34,
                format!("The host pointer of {} is null, but the pipeline will access it on the host.", s(0)),
            ),
            E::BadFold => (
                -25,
                format!(
                    "The folded storage dimension {} of {} was accessed out of order by loop {}.",
                    s(1),
                    s(0),
                    s(2)
                ),
            ),
            E::BadExternFold => {
                (-35, format!("Cannot fold dimension {} of {} (extern stage access)", i(1), s(0)))
            }
            E::FoldFactorTooSmall => (
                -26,
                format!(
                    "The fold factor ({}) of dimension {} of {} is too small to store the required region accessed by loop {} ({}).",
                    i(2),
                    s(1),
                    s(0),
                    s(3),
                    i(4)
                ),
            ),
            E::RequirementFailed => (-27, format!("Requirement Failed: ({}) {}", s(0), s(1))),
            E::SpecializeFail => {
                (-31, format!("A schedule specialized with specialize_fail() was chosen: {}", s(0)))
            }
            E::NoDeviceInterface => (-19, "Buffer has a non-zero device but no device interface.".into()),
            E::DeviceInterfaceNoDevice => {
                (-36, "Buffer has a non-null device_interface but device is 0.".into())
            }
            E::HostAndDeviceDirty => (-37, "Buffer has both host and device dirty bits set.".into()),
            E::BufferIsNull => (-38, format!("Buffer pointer passed to {} is null.", s(0))),
            E::StorageBoundTooSmall => (
                -45,
                format!(
                    "The explicit allocation bound ({}) of dimension {} of {} is too small to store the required region ({}).",
                    i(2),
                    s(1),
                    s(0),
                    i(3)
                ),
            ),
            E::DeviceCropFailed => {
                (-41, "Buffer could not be cropped (runtime error or unimplemented device option).".into())
            }
            E::SplitFactorNotPositive => (
                -46,
                format!(
                    "In schedule for func {}, the factor used to split the variable {} into {} and {} is {}. This evaluated to {}, which is not strictly positive. Consider using max({}, 1) instead.",
                    s(0),
                    s(1),
                    s(2),
                    s(3),
                    s(4),
                    i(5),
                    s(4)
                ),
            ),
            E::VscaleInvalid => (
                -47,
                format!(
                    "The function {} is compiled with the assumption that vscale of Scalable Vector is {}. However, the detected runtime vscale is {}.",
                    s(0),
                    i(2),
                    i(1)
                ),
            ),
        }
    }
}

/// The size in bytes of a buffer's memory (the span its shape covers), and the offset
/// of its host pointer into that memory, in elements.
pub(crate) fn buffer_span(dims: &[Dim]) -> (i64, i64) {
    crate::buffer::offset_span(dims)
}

/// Reads the descriptor at `b`, reporting a null or bad pointer as the runtime would
/// crash on it.
pub(crate) fn descriptor(heap: &Heap, b: Handle, routine: &str) -> Result<Descriptor, InterpError> {
    if b == NULL {
        return Err(InterpError::new(
            ErrorKind::MemoryAccess,
            format!("{routine} is called with a null halide_buffer_t"),
        ));
    }
    Descriptor::read(heap, b).map_err(|e| mem_error(&e))
}

/// Sets or clears bits of a descriptor's flags.
pub(crate) fn set_flag(heap: &mut Heap, b: Handle, bit: u64, on: bool) -> Result<(), HeapError> {
    let flags = heap.read_uint(b, layout::FLAGS, 8)?;
    let flags = if on { flags | bit } else { flags & !bit };
    heap.write_uint(b, layout::FLAGS, 8, flags)
}

/// Allocates a device's memory for a descriptor (its span, like the host's).
pub(crate) fn device_alloc(
    heap: &mut Heap,
    d: &Descriptor,
    name: &loopir::Name,
) -> Result<Handle, InterpError> {
    let dims = d.dims(heap).map_err(|e| mem_error(&e))?;
    let elem = d.elem().unwrap_or(Elem::UInt(8));
    let (lo, hi) = buffer_span(&dims);
    let bytes = (hi - lo).max(0) as u128 * elem.bytes() as u128;
    let base = heap.alloc(bytes, ObjectKind::Device, name).map_err(|e| mem_error(&e))?;
    Ok(base + ((-lo) as u64 * elem.bytes() as u64))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_resolve_to_runtime_functions() {
        assert_eq!(RtFn::lookup("_halide_buffer_get_min"), Ok(Some(RtFn::Buffer(BufferFn::GetMin))));
        assert_eq!(RtFn::lookup("halide_error_bad_type"), Ok(Some(RtFn::Error(HalideError::BadType))));
        assert_eq!(RtFn::lookup("floor_f32"), Ok(Some(RtFn::Math(MathFn::Floor, 32))));
        assert_eq!(
            RtFn::lookup("halide_cuda_device_interface"),
            Ok(Some(RtFn::Device(DeviceFn::Interface(0))))
        );
        assert!(RtFn::lookup("halide_do_par_for").is_err());
        assert!(RtFn::lookup("halide_cuda_run").is_err());
        assert_eq!(RtFn::lookup("my_extern"), Ok(None));
    }

    #[test]
    fn doubles_print_as_the_runtime_prints_them() {
        assert_eq!(runtime_double(1.0), "1.000000e+00");
        assert_eq!(runtime_double(-0.5), "-5.000000e-01");
        assert_eq!(runtime_double(0.0), "0.000000e+00");
        assert_eq!(runtime_double(123456.0), "1.234560e+05");
    }

    #[test]
    fn error_messages_follow_errors_cpp() {
        let mut heap = Heap::default();
        let name = heap.alloc(17, ObjectKind::String, &"s".into()).expect("alloc");
        heap.write(name, 0, b"Input buffer in\0").expect("write");
        let arg = |v: i64| ExternArg { value: v as u64, elem: Elem::I32 };
        let args = [ExternArg { value: name, elem: Elem::Handle }, arg(0), arg(-1), arg(9), arg(0), arg(9)];
        let (code, msg) = HalideError::AccessOutOfBounds.report(&args, &heap);
        assert_eq!(code, -4);
        assert_eq!(msg, "Input buffer in is accessed at -1, which is before the min (0) in dimension 0");
    }
}
