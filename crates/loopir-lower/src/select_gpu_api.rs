//! Choosing the device API of `Default_GPU` loops (the reference's `select_gpu_api`, run
//! after storage flattening on targets with a GPU feature).
//!
//! A schedule may put a loop on "the target's GPU" (`gpu_block<Default_GPU>`); once the
//! target is known, such loops run on its device API (`gpu_block<CUDA>` on a CUDA target),
//! and a call `halide_default_device_interface()` becomes that API's device interface.
//! Loops with an API of their own keep it.

use loopir::mutate::Mutator;
use loopir::{CType, CallType, DeviceApi, Expr, ExprKind, Stmt, StmtKind, Type};

use crate::error::LowerError;

/// The call the reference makes for "the default GPU's device interface" before an API is
/// chosen.
const DEFAULT_INTERFACE: &str = "halide_default_device_interface";

/// `halide_<api>_device_interface()`, the runtime's interface of `api`; `None` for the
/// APIs that are not devices.
pub fn device_interface_call(api: DeviceApi) -> Option<Expr> {
    let callee = match api {
        DeviceApi::Cuda => "halide_cuda_device_interface",
        DeviceApi::OpenCl => "halide_opencl_device_interface",
        DeviceApi::Metal => "halide_metal_device_interface",
        DeviceApi::Hexagon => "halide_hexagon_device_interface",
        DeviceApi::HexagonDma => "halide_hexagon_dma_device_interface",
        DeviceApi::D3D12Compute => "halide_d3d12compute_device_interface",
        DeviceApi::Vulkan => "halide_vulkan_device_interface",
        DeviceApi::WebGpu => "halide_webgpu_device_interface",
        DeviceApi::DefaultGpu | DeviceApi::None | DeviceApi::Host => return None,
    };
    let ty = Type::handle(CType::new("struct halide_device_interface_t const *"), 1);
    Some(Expr::call(ty, callee, vec![], CallType::Extern))
}

/// `stmt` with its `Default_GPU` loops on `api` and its calls to
/// `halide_default_device_interface()` replaced by `api`'s interface; an error if `api`
/// is not one a target can have as its default ([`DeviceApi::TARGET_DEFAULTS`]).
///
/// ```
/// use loopir::DeviceApi;
/// use loopir_lower::select_gpu_api;
/// let s = loopir::parse_stmt("gpu_block<Default_GPU> (b, 0, 3) {\n f[b] = 0\n}\n").unwrap();
/// let c = select_gpu_api(&s, DeviceApi::Cuda).unwrap();
/// assert_eq!(c.to_string(), "gpu_block<CUDA> (b, 0, 3) {\n f[b] = 0\n}\n");
/// assert!(select_gpu_api(&s, DeviceApi::Host).is_err());
/// ```
pub fn select_gpu_api(stmt: &Stmt, api: DeviceApi) -> Result<Stmt, LowerError> {
    let Some(interface) = device_interface_call(api).filter(|_| DeviceApi::TARGET_DEFAULTS.contains(&api))
    else {
        return Err(LowerError::env(
            "target.default_device_api",
            format!("`{}` is not a device API a target can run its GPU loops on", api.name()),
        ));
    };
    Ok(SelectGpuApi { api, interface }.mutate_stmt(stmt))
}

struct SelectGpuApi {
    api: DeviceApi,
    interface: Expr,
}

impl Mutator for SelectGpuApi {
    fn mutate_expr(&mut self, e: &Expr) -> Expr {
        match e.kind() {
            ExprKind::Call { name, args, call_type: CallType::Extern, .. }
                if args.is_empty() && name.as_ref() == DEFAULT_INTERFACE =>
            {
                self.interface.clone()
            }
            _ => self.super_expr(e),
        }
    }

    fn mutate_stmt(&mut self, s: &Stmt) -> Stmt {
        let stmt = self.super_stmt(s);
        match stmt.kind() {
            StmtKind::For {
                name,
                min,
                max,
                for_type,
                device_api: DeviceApi::DefaultGpu,
                partition_policy,
                body,
            } => Stmt::from_kind_unchecked(StmtKind::For {
                name: name.clone(),
                min: min.clone(),
                max: max.clone(),
                for_type: *for_type,
                device_api: self.api,
                partition_policy: *partition_policy,
                body: body.clone(),
            }),
            _ => stmt,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_gpu_loops_and_interface_calls_take_the_api_and_others_keep_theirs() {
        let s = loopir::parse_stmt(
            "let i = (struct halide_device_interface_t const *)halide_default_device_interface()\n\
             gpu_block<Default_GPU> (b, 0, 3) {\n gpu_thread<Default_GPU> (t, 0, 3) {\n  f[t] = 0\n }\n}\n\
             gpu_block<OpenCL> (c, 0, 3) {\n f[c] = 0\n}\nparallel (p, 0, 3) {\n f[p] = 0\n}\n",
        )
        .expect("ok");
        let out = select_gpu_api(&s, DeviceApi::Metal).expect("ok").to_string();
        assert_eq!(
            out,
            "let i = (struct halide_device_interface_t const *)halide_metal_device_interface()\n\
             gpu_block<Metal> (b, 0, 3) {\n gpu_thread<Metal> (t, 0, 3) {\n  f[t] = 0\n }\n}\n\
             gpu_block<OpenCL> (c, 0, 3) {\n f[c] = 0\n}\nparallel (p, 0, 3) {\n f[p] = 0\n}\n"
        );
    }

    #[test]
    fn ir_without_default_gpu_loops_comes_back_unchanged() {
        let s = loopir::parse_stmt("gpu_block<CUDA> (b, 0, 3) {\n f[b] = 0\n}\n").expect("ok");
        assert!(select_gpu_api(&s, DeviceApi::Cuda).expect("ok").same_as(&s));
    }

    #[test]
    fn only_a_device_api_can_be_the_default() {
        let s = loopir::parse_stmt("f[0] = 0\n").expect("ok");
        for api in [DeviceApi::None, DeviceApi::Host, DeviceApi::DefaultGpu] {
            let err = select_gpu_api(&s, api).expect_err("refused").to_string();
            assert!(err.starts_with("env: target.default_device_api: "), "{err}");
        }
    }
}
