//! The cases over `oracle_interp`'s budget, checked in the suite on their first block
//! (and conv_layer's on its last too): every stage from computation bounds inference on,
//! with each `gpu_block` and `parallel` loop cut to its first (last) iteration, computes
//! what the newest stage so cut computes. A
//! whole stage of these cases takes minutes (`oracle_interp`'s ignored tests run them);
//! a cut one takes a second or less, and still runs every kind of statement the stage
//! has — the lanes of a warp, shared memory, barriers, register striping, the parallel
//! tasks — so a stage the interpreter misreads disagrees here too (conv_layer.cuda's
//! stages 35-49 did, before warp lanes kept lockstep on both sides of their stores).

mod interp_support;

use interp_support::{
    Agreement, cases_dir, compare_outputs, computes_something, parse, run, stage_name, stages,
};
use loopir::mutate::Mutator;
use loopir::{ForType, Stmt, StmtKind};
use loopir_interp::PipelineRun;

/// The stage from which on these cases cannot run: their kernels are compiled
/// separately from it on.
const FIRST_UNRUNNABLE: &str = "52.";

/// The operations a cut stage may execute (conv_layer.cpu's stage 22 needs the most:
/// its loops are not yet simplified).
const LIMIT: u64 = 2_000_000_000;

/// Cuts every `gpu_block` and `parallel` loop to its first iteration (or, with `last`,
/// its last: the tile at the far edge, which a split shifts inwards).
struct Cut {
    last: bool,
}

impl Mutator for Cut {
    fn mutate_stmt(&mut self, s: &Stmt) -> Stmt {
        let s = self.super_stmt(s);
        match s.kind() {
            StmtKind::For {
                name,
                min,
                max,
                for_type: for_type @ (ForType::GpuBlock | ForType::Parallel),
                device_api,
                partition_policy,
                body,
            } => Stmt::from_kind_unchecked(StmtKind::For {
                name: name.clone(),
                min: if self.last { max.clone() } else { min.clone() },
                max: if self.last { max.clone() } else { min.clone() },
                for_type: *for_type,
                device_api: *device_api,
                partition_policy: *partition_policy,
                body: body.clone(),
            }),
            _ => s,
        }
    }
}

/// Runs the cut stages of `case` before `first_unrunnable`; says what disagrees.
fn check(case: &str, first_unrunnable: &str, last: bool) -> Result<usize, String> {
    let dir = cases_dir().join(case);
    let files: Vec<_> =
        stages(&dir).into_iter().filter(|f| stage_name(f).as_str() < first_unrunnable).collect();
    let cut = |f: &std::path::Path| parse(&dir, f).map(|s| Cut { last }.mutate_stmt(&s));
    let newest = files.last().ok_or_else(|| format!("{case}: no stages"))?;
    let reference: PipelineRun =
        run(case, &cut(newest)?, None, LIMIT).map_err(|e| format!("{case} {}: {e}", stage_name(newest)))?;
    computes_something(&reference)?;
    let mut problems = Vec::new();
    // The newest stage is the reference: the others are compared with it.
    for f in &files[..files.len() - 1] {
        let name = stage_name(f);
        match run(case, &cut(f)?, Some(&reference), LIMIT) {
            Ok(r) => match compare_outputs(&r, &reference) {
                Agreement::Exact | Agreement::Rounding(_) => {}
                Agreement::Differs(d) => problems.push(format!("{case} {name}: {d}")),
            },
            Err(e) => problems.push(format!("{case} {name}: {e}")),
        }
    }
    if problems.is_empty() { Ok(files.len()) } else { Err(problems.join("\n")) }
}

/// Checks `case`, printing how many stages agree and how long it took.
fn check_case(case: &str) {
    check_case_before(case, FIRST_UNRUNNABLE, false);
}

/// Checks the stages of `case` before `first_unrunnable`, cut to the first or the last
/// block.
fn check_case_before(case: &str, first_unrunnable: &str, last: bool) {
    let started = std::time::Instant::now();
    let which = if last { "last" } else { "first" };
    match check(case, first_unrunnable, last) {
        Ok(n) => println!("{case}: {n} stages agree on their {which} block ({:.1?})", started.elapsed()),
        Err(e) => panic!("{e}"),
    }
}

// Each case's blocks are self-contained: the output's first block reads only what the
// same block computes of the Funcs it needs. local_laplacian's are not (its pyramid
// levels are separate loop nests), and its stages 04 and 07 disagree with the rest once
// cut; iir_blur.cuda's first block scans whole columns, a minute and a half. They, and
// the other heavy CPU cases (not tried cut), run whole in oracle_interp's ignored tests.

#[test]
fn conv_layer_cuda() {
    check_case("app_conv_layer.cuda");
}

#[test]
fn conv_layer_cuda_last_block() {
    check_case_before("app_conv_layer.cuda", FIRST_UNRUNNABLE, true);
}

#[test]
fn conv_layer_cpu() {
    check_case_before("app_conv_layer.cpu", "46.", false);
}

#[test]
fn conv_layer_cpu_last_tile() {
    check_case_before("app_conv_layer.cpu", "46.", true);
}

#[test]
fn nl_means_cuda() {
    check_case("app_nl_means.cuda");
}

#[test]
fn stencil_chain_cuda() {
    check_case("app_stencil_chain.cuda");
}
