//! Byte-for-byte comparison with the reference compiler on every oracle case that has a
//! profiling input: parse `profile.input.stmt`, run `inject_profiling` with the case's
//! environment and pipeline name, and require `profile.expected.stmt` exactly.

use loopir_profiling::{FuncEnv, ProfileOptions, inject_profiling};
use loopir_testkit::oracle::{REFERENCE_COUNTER_COLLISIONS, cases as cases_dir};

/// Renames whole-identifier occurrences of `name` to `name$1` in printed IR.
fn rename_identifier(text: &str, name: &str) -> String {
    let is_ident = |c: char| c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '$');
    let mut out = String::with_capacity(text.len() + 64);
    let mut rest = text;
    while let Some(pos) = rest.find(name) {
        let before_ok = rest[..pos].chars().next_back().is_none_or(|c| !is_ident(c));
        let after = &rest[pos + name.len()..];
        let after_ok = after.chars().next().is_none_or(|c| !is_ident(c));
        out.push_str(&rest[..pos]);
        out.push_str(name);
        if before_ok && after_ok {
            out.push_str("$1");
        }
        rest = after;
    }
    out.push_str(rest);
    out
}

/// Runs one case; `Err` carries a description of the first difference.
fn run_case(case: &str) -> Result<(), String> {
    let dir = cases_dir().join(case);
    let read = |f: &str| std::fs::read_to_string(dir.join(f)).map_err(|e| format!("{case}/{f}: {e}"));
    let input = read("profile.input.stmt")?;
    let expected = read("profile.expected.stmt")?;
    let env = FuncEnv::from_json(&read("profile.env.json")?).map_err(|e| format!("{case}: {e}"))?;
    let pipeline = env.pipeline_name().ok_or_else(|| format!("{case}: env has no pipeline name"))?.to_owned();
    let stmt = loopir::parse_stmt(&input).map_err(|e| format!("{case}: input does not parse: {e}"))?;
    let out = inject_profiling(&stmt, &pipeline, &env, &ProfileOptions::default())
        .map_err(|e| format!("{case}: pass failed: {e}"))?;
    let mut got = out.stmt.to_string();
    if let Some((_, names)) = REFERENCE_COUNTER_COLLISIONS.iter().find(|(c, _)| *c == case) {
        for name in *names {
            got = rename_identifier(&got, name);
        }
    }
    if got == expected {
        return Ok(());
    }
    let (g, x): (Vec<&str>, Vec<&str>) = (got.lines().collect(), expected.lines().collect());
    let line = g.iter().zip(&x).position(|(a, b)| a != b).unwrap_or(g.len().min(x.len()));
    Err(format!(
        "{case}: output differs from profile.expected.stmt at line {} ({} lines vs {} expected)\n  got:      {}\n  expected: {}",
        line + 1,
        g.len(),
        x.len(),
        g.get(line).unwrap_or(&"<end of output>"),
        x.get(line).unwrap_or(&"<end of expected>"),
    ))
}

macro_rules! oracle_cases {
    ($($test:ident => $case:literal,)*) => {
        $(
            #[test]
            fn $test() {
                if let Err(e) = run_case($case) {
                    panic!("{e}");
                }
            }
        )*

        /// Every case directory with a profiling input is listed above.
        #[test]
        fn every_oracle_case_is_listed() {
            let listed: Vec<&str> = vec![$($case),*];
            let mut missing = Vec::new();
            for entry in std::fs::read_dir(cases_dir()).expect("oracle cases directory") {
                let entry = entry.expect("directory entry");
                let name = entry.file_name().to_string_lossy().into_owned();
                if entry.path().join("profile.input.stmt").exists() && !listed.contains(&name.as_str()) {
                    missing.push(name);
                }
            }
            assert!(missing.is_empty(), "oracle cases not listed in tests/oracle.rs: {missing:?}");
        }
    };
}

oracle_cases! {
    app_bgu_cpu => "app_bgu.cpu",
    app_bilateral_grid_cpu => "app_bilateral_grid.cpu",
    app_bilateral_grid_cuda => "app_bilateral_grid.cuda",
    app_camera_pipe_cpu => "app_camera_pipe.cpu",
    app_camera_pipe_cuda => "app_camera_pipe.cuda",
    app_conv_layer_cpu => "app_conv_layer.cpu",
    app_conv_layer_cuda => "app_conv_layer.cuda",
    app_daubechies_x_cpu => "app_daubechies_x.cpu",
    app_depthwise_separable_conv_cpu => "app_depthwise_separable_conv.cpu",
    app_halide_blur_cpu => "app_halide_blur.cpu",
    app_harris_cpu => "app_harris.cpu",
    app_harris_cuda => "app_harris.cuda",
    app_hist_cpu => "app_hist.cpu",
    app_iir_blur_cpu => "app_iir_blur.cpu",
    app_iir_blur_cuda => "app_iir_blur.cuda",
    app_interpolate_cpu => "app_interpolate.cpu",
    app_interpolate_cuda => "app_interpolate.cuda",
    app_lens_blur_cpu => "app_lens_blur.cpu",
    app_lens_blur_cuda => "app_lens_blur.cuda",
    app_local_laplacian_cpu => "app_local_laplacian.cpu",
    app_local_laplacian_cuda => "app_local_laplacian.cuda",
    app_max_filter_cpu => "app_max_filter.cpu",
    app_nl_means_cpu => "app_nl_means.cpu",
    app_nl_means_cuda => "app_nl_means.cuda",
    app_stencil_chain_cpu => "app_stencil_chain.cpu",
    app_stencil_chain_cuda => "app_stencil_chain.cuda",
    app_unsharp_cpu => "app_unsharp.cpu",
    app_unsharp_cuda => "app_unsharp.cuda",
    async_producer_cpu => "async_producer.cpu",
    compute_at_nesting_cpu => "compute_at_nesting.cpu",
    compute_at_nesting_cuda => "compute_at_nesting.cuda",
    extern_stage_cpu => "extern_stage.cpu",
    gpu_basic_cuda => "gpu_basic.cuda",
    gpu_heap_allocgroup_cuda => "gpu_heap_allocgroup.cuda",
    gpu_host_bounce_cuda => "gpu_host_bounce.cuda",
    gpu_shared_allocgroup_cuda => "gpu_shared_allocgroup.cuda",
    heap_and_stack_cpu => "heap_and_stack.cpu",
    hoist_storage_cpu => "hoist_storage.cpu",
    multi_output_cpu => "multi_output.cpu",
    nested_parallel_cpu => "nested_parallel.cpu",
    serial_chain_cpu => "serial_chain.cpu",
    sliding_window_cpu => "sliding_window.cpu",
    traced_funcs_cpu => "traced_funcs.cpu",
    tuple_func_cpu => "tuple_func.cpu",
    two_parents_cpu => "two_parents.cpu",
    two_stage_root_cpu => "two_stage_root.cpu",
    two_stage_root_cuda => "two_stage_root.cuda",
    update_stages_cpu => "update_stages.cpu",
    wrapper_in_cpu => "wrapper_in.cpu",
}
