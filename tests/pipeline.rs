//! The pass manager over one lowering context: the reference's order of passes on one
//! pipeline with one name generator, the oracle's results through `Pipeline`, the
//! conversions of the single-pass environment files, and stage refusals.

mod support;

use std::collections::BTreeSet;
use std::path::Path;

use loopir::pipeline::{IrStage, LowerCtx, NameGenState, Pass, PassError, Pipeline, PipelineEnv};
use loopir::visit::Visitor;
use loopir::{Binder, Expr, ExprKind, Stmt, parse_stmt_with_env};
use loopir_bounds::{AllocationBounds, ComputationBounds};
use loopir_profiling::{EnvFileKind, InjectProfiling, InjectTracing, merge_envs, read_env_file};
use loopir_testkit::oracle::REFERENCE_COUNTER_COLLISIONS;

fn read(dir: &Path, file: &str) -> Option<String> {
    std::fs::read_to_string(dir.join(file)).ok()
}

fn env_of(dir: &Path, file: &str, kind: EnvFileKind) -> Option<PipelineEnv> {
    read(dir, file).map(|t| read_env_file(&t, Some(kind)).expect("the oracle's env files convert").env)
}

/// Stands in for the reference's passes that loopir does not have (sliding window,
/// uniquifying, simplification, storage flattening, ...): replaces the statement by the
/// oracle's input of the next pass, the reference's own result of those passes.
struct ReferenceStages {
    text: String,
    stage: IrStage,
}

impl Pass for ReferenceStages {
    fn name(&self) -> &'static str {
        "reference_stages"
    }
    fn expects(&self) -> IrStage {
        IrStage::Any
    }
    fn produces(&self) -> IrStage {
        self.stage
    }
    fn run(&self, _: &Stmt, ctx: &mut LowerCtx) -> Result<Stmt, PassError> {
        parse_stmt_with_env(&self.text, &ctx.env().parse_env()).map_err(PassError::new)
    }
}

/// Every `t<N>` number a statement binds or refers to (the box expressions of tracing's
/// `func_type_and_dim` tags included: they are arguments of the tag events).
fn t_numbers(s: &Stmt) -> BTreeSet<u64> {
    struct Scan(BTreeSet<u64>);
    impl Scan {
        fn note(&mut self, n: &str) {
            if let Some(k) =
                n.strip_prefix('t').filter(|d| !d.is_empty() && d.bytes().all(|b| b.is_ascii_digit()))
            {
                self.0.insert(k.parse().expect("a number"));
            }
        }
    }
    impl Visitor for Scan {
        fn visit_expr(&mut self, e: &Expr) {
            if let ExprKind::Variable(n) = e.kind() {
                self.note(n);
            }
            self.super_expr(e)
        }
        fn enter_scope(&mut self, binder: &Binder<'_>) {
            self.note(binder.name());
        }
    }
    let mut scan = Scan(BTreeSet::new());
    scan.visit_stmt(s);
    scan.0
}

/// The environment of a run of `case` from tracing on: its single-pass files merged,
/// with the realization order of its bounds file (the reference's two dumps of
/// app_harris.trace list the Funcs in two orders, both topological), and no counters:
/// the reference's counters at tracing are not recorded (its `bounds.env.json` records
/// them at computation bounds inference), and tracing starts past the input's names.
fn env_from_tracing_on(dir: &Path) -> PipelineEnv {
    let bounds = env_of(dir, "bounds.env.json", EnvFileKind::Bounds).expect("a bounds env");
    let envs = [
        env_of(dir, "trace.env.json", EnvFileKind::Trace)
            .map(|t| PipelineEnv { order: bounds.order.clone(), ..t }),
        Some(bounds),
        env_of(dir, "profile.env.json", EnvFileKind::Profile),
    ];
    let mut env = merge_envs(envs.into_iter().flatten()).expect("the files agree");
    env.fresh_names = NameGenState::default();
    env
}

#[test]
fn the_reference_order_on_one_pipeline_mints_no_name_twice() {
    // traced_funcs.cpu runs every pass; app_harris.trace (no profiling) has tags whose
    // box expressions bind `t` names the box analysis draws.
    for case in ["traced_funcs.cpu", "app_harris.trace"] {
        let dir = loopir_testkit::oracle::cases().join(case);
        let mut ctx = LowerCtx::new(env_from_tracing_on(&dir)).expect("valid");
        assert!(ctx.options.verify, "tests verify between passes");
        ctx.names().record();
        let input = read(&dir, "trace.input.lossless.stmt").or_else(|| read(&dir, "trace.input.stmt"));
        let input = parse_stmt_with_env(&input.expect("input"), &ctx.env().parse_env()).expect("parses");
        let mut passes: Vec<Box<dyn Pass>> = vec![
            Box::new(InjectTracing),
            Box::new(ComputationBounds),
            Box::new(ReferenceStages {
                text: read(&dir, "allocbounds.input.stmt").expect("stage"),
                stage: IrStage::Schedule,
            }),
            Box::new(AllocationBounds),
        ];
        let profiled = read(&dir, "profile.input.stmt").is_some_and(|text| {
            passes.push(Box::new(ReferenceStages { text, stage: IrStage::Flattened }));
            passes.push(Box::new(InjectProfiling::default()));
            true
        });
        // One pass at a time over the one context, to see what each brings into the IR.
        let mut current = input;
        let mut brought = 0;
        for pass in passes {
            let name = pass.name();
            let before = t_numbers(&current);
            let mut one = Pipeline::new();
            one.push(pass);
            current = one.run(&current, &mut ctx).unwrap_or_else(|e| panic!("{case}: {e}"));
            if name == "reference_stages" {
                continue;
            }
            // Every `t` name the pass brings into the IR (tracing's temporaries and the
            // tags' box expressions, the lets of the Func value bounds table and of bounds
            // inference) was minted by the run by now, below the counter.
            let minted: BTreeSet<String> = ctx.names().minted().iter().map(|n| n.to_string()).collect();
            let counter = ctx.names().next_char('t');
            for k in t_numbers(&current).difference(&before) {
                assert!(minted.contains(&format!("t{k}")), "{case}: `{name}` brought t{k}, not minted");
                assert!(*k < counter, "{case}: `{name}` brought t{k}, the counter stands at {counter}");
                brought += 1;
            }
            if name == "trace" {
                // Tracing starts past the input's names.
                assert!(before.iter().all(|k| *k < counter), "{case}");
            }
        }
        assert!(brought > 0, "{case}: the run's own names were checked");
        if profiled {
            assert!(current.to_string().contains("halide_profiler_instance_start"));
        }
        let minted: Vec<String> = ctx.names().minted().iter().map(|n| n.to_string()).collect();
        let mut unique = minted.clone();
        unique.sort();
        unique.dedup();
        assert_eq!(unique.len(), minted.len(), "{case}: a name was minted twice: {minted:?}");
        // Tracing, bounds inference and profiling all drew from the one generator.
        assert!(minted.iter().any(|n| n.starts_with('t')), "{minted:?}");
        if profiled {
            assert!(minted.iter().any(|n| n.starts_with("profiler_")), "{minted:?}");
        }
        let t_after = ctx.names().next_char('t');
        let after = ctx.finish();
        assert_eq!(
            after.fresh_names.chars[&'t'], t_after,
            "{case}: the counters are read back after the run"
        );
        assert!(after.fresh_names.func_value_bounds_end.is_some(), "{case}: the table's names are placed");
    }
}

/// The box analysis behind tracing's tags and the Func value bounds table draw where the
/// reference's do, between tracing's temporaries and computation bounds inference: a run
/// from tracing on reaches computation bounds with the reference's counter, and its
/// output is the reference's, without a counter given.
#[test]
fn a_run_from_tracing_on_reaches_bounds_inference_with_the_reference_counter() {
    for case in ["app_harris.trace", "app_interpolate.trace"] {
        let dir = loopir_testkit::oracle::cases().join(case);
        let reference =
            env_of(&dir, "bounds.env.json", EnvFileKind::Bounds).expect("a bounds env").fresh_names;
        let mut ctx = LowerCtx::new(env_from_tracing_on(&dir)).expect("valid");
        let input = read(&dir, "trace.input.lossless.stmt").or_else(|| read(&dir, "trace.input.stmt"));
        let input = parse_stmt_with_env(&input.expect("input"), &ctx.env().parse_env()).expect("parses");
        let traced =
            Pipeline::new().with(InjectTracing).run(&input, &mut ctx).unwrap_or_else(|e| panic!("{e}"));
        // The reference's computation bounds input is the traced statement.
        assert_eq!(Some(traced.to_string()), read(&dir, "bounds.input.stmt"), "{case}");
        // The names of the tags' box analysis are the run's (and the table draws none
        // in these two cases).
        assert_eq!(ctx.names().next_char('t'), reference.chars[&'t'], "{case}");
        let out =
            Pipeline::new().with(ComputationBounds).run(&traced, &mut ctx).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(ctx.names().func_value_bounds_end(), reference.func_value_bounds_end, "{case}");
        let single = {
            let mut ctx = LowerCtx::new(env_from_tracing_on(&dir)).expect("valid");
            ctx.names().set_next_char('t', reference.chars[&'t']).expect("in range");
            ctx.names().set_func_value_bounds_end(reference.chars[&'t']);
            Pipeline::new().with(ComputationBounds).run(&traced, &mut ctx).unwrap_or_else(|e| panic!("{e}"))
        };
        assert_eq!(out.to_string(), single.to_string(), "{case}");
    }
    let harris = loopir_testkit::oracle::cases().join("app_harris.trace");
    let mut ctx = LowerCtx::new(env_from_tracing_on(&harris)).expect("valid");
    let input =
        parse_stmt_with_env(&read(&harris, "trace.input.stmt").expect("input"), &ctx.env().parse_env())
            .expect("parses");
    let out = Pipeline::new()
        .with(InjectTracing)
        .with(ComputationBounds)
        .run(&input, &mut ctx)
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(Some(out.to_string()), read(&harris, "bounds.expected.stmt"), "byte for byte");
}

/// The `t` numbers in the entries of the run's Func value bounds table.
fn table_t_numbers(ctx: &LowerCtx) -> BTreeSet<u64> {
    let table = ctx.analysis::<loopir_bounds::FuncValueBounds>().expect("the run's table");
    let mut all = BTreeSet::new();
    for (_, bounds) in table.entries() {
        for end in [bounds.min.as_expr(), bounds.max.as_expr()].into_iter().flatten() {
            all.extend(t_numbers(&Stmt::evaluate(end.clone())));
        }
    }
    all
}

/// app_lens_blur.cpu's Func value bounds table has lets in two entries, which bounds
/// inference prints. With the counter its `bounds.env.json` gives (the reference's at
/// the start of the pass, past the table's names), the table's names end just before
/// it and the output is the single pass's; with the same counter and the table's names
/// not drawn yet, the table draws them from it, all before the pass's own.
#[test]
fn the_value_bounds_table_draws_before_the_counter_or_from_it() {
    let dir = loopir_testkit::oracle::cases().join("app_lens_blur.cpu");
    let env = env_of(&dir, "bounds.env.json", EnvFileKind::Bounds).expect("a bounds env");
    let t = env.fresh_names.chars[&'t'];
    assert_eq!(env.fresh_names.func_value_bounds_end, Some(t), "a bounds env places the table's names");
    let input = parse_stmt_with_env(&read(&dir, "bounds.input.stmt").expect("input"), &env.parse_env())
        .expect("parses");
    let run = |env: PipelineEnv| {
        let mut ctx = LowerCtx::new(env).expect("valid");
        ctx.names().record();
        let out =
            Pipeline::new().with(ComputationBounds).run(&input, &mut ctx).unwrap_or_else(|e| panic!("{e}"));
        (out, ctx)
    };

    let (out, mut ctx) = run(env.clone());
    let library = {
        let bounds = loopir_bounds::env::BoundsEnv::from_json(&read(&dir, "bounds.env.json").expect("env"))
            .expect("reads");
        let c = loopir_simplify::Ctx::new();
        c.seed_t(t);
        loopir_bounds::compute_bounds::computation_bounds_inference(&c, &input, &bounds).expect("runs")
    };
    assert_eq!(out.to_string(), library.to_string());
    let names = table_t_numbers(&ctx);
    assert!(names.last() == Some(&(t - 1)), "the table's names end at t{}: {names:?}", t - 1);
    assert!(names.iter().all(|k| !ctx.names().minted().iter().any(|n| n.as_ref() == format!("t{k}"))));
    assert_eq!(ctx.names().func_value_bounds_end(), Some(t));

    let mut not_drawn = env;
    not_drawn.fresh_names.func_value_bounds_end = None;
    let (out, mut ctx) = run(not_drawn);
    let from = t_numbers(&out);
    let end = ctx.names().func_value_bounds_end().expect("placed by the run");
    // The table draws first, from the counter (its `<let>.min` names too); its lets are
    // in the output.
    let minted: Vec<String> = ctx.names().minted().iter().map(|n| n.to_string()).collect();
    let t_names: Vec<&String> = minted.iter().filter(|n| !n.contains('.')).collect();
    let table: Vec<String> = (t..end).map(|k| format!("t{k}")).collect();
    assert!(end > t && t_names[..table.len()] == table.iter().collect::<Vec<_>>()[..], "{minted:?}");
    let names = table_t_numbers(&ctx);
    assert!(names.first() >= Some(&t) && names.last() == Some(&(end - 1)), "{names:?}");
    assert!(from.range(t..end).next().is_some(), "a table's let is printed: {from:?}");
    assert!(from.iter().all(|&k| k < ctx.names().next_char('t')), "{from:?}");
    assert_eq!(ctx.finish().fresh_names.func_value_bounds_end, Some(end), "read back after the run");

    // An end lower than the number of the table's names cannot be the reference's: the
    // names would start at 0 and run into the pass's own.
    let mut too_low = PipelineEnv {
        fresh_names: NameGenState::default(),
        ..env_of(&dir, "bounds.env.json", EnvFileKind::Bounds).expect("env")
    };
    too_low.fresh_names.chars.insert('t', 2);
    too_low.fresh_names.func_value_bounds_end = Some(2);
    let mut ctx = LowerCtx::new(too_low).expect("valid");
    let e =
        Pipeline::new().with(ComputationBounds).run(&input, &mut ctx).expect_err("names overlap").to_string();
    assert!(e.contains("fresh_names.func_value_bounds_end") && e.contains("end before 2"), "{e}");
}

#[test]
fn the_oracle_through_pipeline_is_unchanged() {
    let mut checked = (0, 0);
    for dir in std::fs::read_dir(loopir_testkit::oracle::cases()).expect("cases").flatten().map(|e| e.path())
    {
        if let (Some(env), Some(input), Some(expected)) = (
            env_of(&dir, "trace.env.json", EnvFileKind::Trace),
            read(&dir, "trace.input.lossless.stmt").or_else(|| read(&dir, "trace.input.stmt")),
            read(&dir, "trace.expected.stmt"),
        ) {
            let s = parse_stmt_with_env(&input, &env.parse_env()).expect("parses");
            let mut ctx = LowerCtx::new(env).expect("valid");
            let out = Pipeline::new()
                .with(InjectTracing)
                .run(&s, &mut ctx)
                .unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
            assert_eq!(out.to_string(), expected, "{}", dir.display());
            checked.0 += 1;
        }
        if let (Some(env), Some(input), Some(expected)) = (
            env_of(&dir, "profile.env.json", EnvFileKind::Profile),
            read(&dir, "profile.input.stmt"),
            read(&dir, "profile.expected.stmt"),
        ) {
            let s = loopir::parse_stmt(&input).expect("parses");
            let mut env = env;
            // The reference's counters for these names stood at 1 before profiling (a
            // name of an earlier pass shared their hash bucket; see the profiling oracle
            // test): seeded in the environment, the run reproduces them exactly.
            let name = dir.file_name().and_then(|n| n.to_str()).unwrap_or_default();
            for (case, names) in REFERENCE_COUNTER_COLLISIONS {
                if *case == name {
                    for n in *names {
                        env.fresh_names.prefixes.insert((*n).to_owned(), 1);
                    }
                }
            }
            let mut ctx = LowerCtx::new(env).expect("valid");
            let out = Pipeline::new()
                .with(InjectProfiling::default())
                .run(&s, &mut ctx)
                .unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
            assert_eq!(out.to_string(), expected, "{}", dir.display());
            checked.1 += 1;
        }
    }
    println!("through Pipeline: {} trace cases, {} profile cases, all byte for byte", checked.0, checked.1);
    assert!(checked.0 >= 12 && checked.1 >= 49, "{checked:?}");
}

#[test]
fn single_pass_env_files_convert_both_ways_unchanged() {
    let mut count = 0;
    for dir in std::fs::read_dir(loopir_testkit::oracle::cases()).expect("cases").flatten().map(|e| e.path())
    {
        if let Some(text) = read(&dir, "bounds.env.json") {
            let b = loopir_bounds::env::BoundsEnv::from_json(&text).expect("reads");
            let p = b.to_pipeline_env();
            let again = loopir_bounds::env::BoundsEnv::from_pipeline_env(&p);
            assert_eq!(
                format!("{:?}", again.funcs.keys().collect::<Vec<_>>()),
                format!("{:?}", b.funcs.keys().collect::<Vec<_>>())
            );
            for (name, f) in &b.funcs {
                assert_eq!(b.func_types(name), again.func_types(name), "{}", dir.display());
                assert_eq!(f.args, again.funcs[name].args);
                assert_eq!(
                    format!("{:?}{:?}{:?}", f.updates, f.bounds, f.r#extern),
                    format!(
                        "{:?}{:?}{:?}",
                        again.funcs[name].updates, again.funcs[name].bounds, again.funcs[name].r#extern
                    )
                );
            }
            assert_eq!(
                format!("{:?}{:?}{:?}{:?}", b.order, b.outputs, b.target, b.fresh_names),
                format!("{:?}{:?}{:?}{:?}", again.order, again.outputs, again.target, again.fresh_names)
            );
            assert_eq!(PipelineEnv::from_json(&p.to_json()).expect("JSON round trip"), p);
            // The counter is the reference's at the start of computation bounds
            // inference, past the Func value bounds table's names.
            assert_eq!(p.fresh_names.func_value_bounds_end, b.fresh_names.t, "{}", dir.display());
            count += 1;
        }
        if let Some(text) = read(&dir, "trace.env.json") {
            let t = loopir_profiling::TraceEnv::from_json(&text).expect("reads");
            assert_eq!(
                loopir_profiling::TraceEnv::from_pipeline_env(&t.to_pipeline_env().expect("consistent")),
                t
            );
        }
        if let Some(text) = read(&dir, "profile.env.json") {
            let f = loopir_profiling::FuncEnv::from_json(&text).expect("reads");
            assert_eq!(loopir_profiling::FuncEnv::from_pipeline_env(&f.to_pipeline_env()), f);
        }
    }
    assert_eq!(count, 60);
}

#[test]
fn every_pass_refuses_the_wrong_stage() {
    let schedule =
        loopir::parse_stmt("realize f([0, 4]) {\n  produce f {\n   f(0) = 1\n  }\n}\n").expect("parses");
    let flat = loopir::parse_stmt(
        "allocate f[int32 * 4]\nproduce f {\n f[0] = profiling_enable_instance_marker()\n}\nfree f\n",
    )
    .expect("parses");
    let passes: [(Box<dyn Pass>, &Stmt, &str); 7] = [
        (Box::new(InjectTracing), &flat, "storage-flattened IR"),
        (Box::new(ComputationBounds), &flat, "storage-flattened IR"),
        (Box::new(AllocationBounds), &flat, "storage-flattened IR"),
        (Box::new(loopir_lower::CanonicalizeGpuVars), &flat, "storage-flattened IR"),
        (Box::new(loopir_lower::StorageFlattening), &flat, "storage-flattened IR"),
        (Box::new(loopir_lower::SelectGpuApi), &schedule, "the schedule stage"),
        (Box::new(InjectProfiling::default()), &schedule, "the schedule stage"),
    ];
    for (pass, input, got) in passes {
        let name = pass.name();
        let mut ctx = LowerCtx::new(PipelineEnv::new()).expect("valid");
        let mut pipeline = Pipeline::new();
        pipeline.push(pass);
        let e = pipeline.run(input, &mut ctx).expect_err("the wrong stage").to_string();
        assert!(e.contains(&format!("(`{name}`)")) && e.contains(&format!("but got {got}")), "{name}: {e}");
    }
    // The library functions refuse it too, outside any pipeline.
    let e = loopir_profiling::inject_profiling(
        &schedule,
        "p",
        &loopir_profiling::FuncEnv::new(),
        &Default::default(),
    );
    assert!(e.err().is_some_and(|e| e.to_string().contains("but got the schedule stage")));
    let e = loopir_profiling::inject_tracing(&flat, &loopir_profiling::TraceEnv::new("p"));
    assert!(e.err().is_some_and(|e| e.to_string().contains("but got storage-flattened IR")));
}

#[test]
fn profiling_without_the_enable_marker_is_an_error_unless_allowed() {
    let s = loopir::parse_stmt("produce f {\n f[0] = 1\n}\n").expect("parses");
    let mut env = PipelineEnv::new();
    env.pipeline = Some("p".into());
    env.funcs.push(loopir::pipeline::FuncDesc::new("f"));
    let mut ctx = LowerCtx::new(env.clone()).expect("valid");
    let e = Pipeline::new()
        .with(InjectProfiling::default())
        .run(&s, &mut ctx)
        .expect_err("no marker")
        .to_string();
    assert!(e.contains("no `profiling_enable_instance_marker()`"), "{e}");
    let mut ctx = LowerCtx::new(env).expect("valid");
    let allowed = InjectProfiling { allow_missing_marker: true, ..InjectProfiling::default() };
    assert!(Pipeline::new().with(allowed).run(&s, &mut ctx).is_ok());
}

#[test]
fn pipeline_env_mistakes_are_errors() {
    for (text, want) in [
        (r#"{"funcs": []}"#, "version: missing"),
        (r#"{"version": 2}"#, "version 2 is not supported"),
        (r#"{"version": 1, "fucns": []}"#, "unknown field `fucns`"),
        (
            r#"{"version": 1, "funcs": [{"name": "f"}, {"name": "f"}]}"#,
            "funcs[1].name: Func `f` is listed twice",
        ),
        (r#"{"version": 1, "funcs": [{"name": "f", "types": ["int33x"]}]}"#, "`int33x` is not a type"),
        (r#"{"version": 1, "funcs": [{"name": "f"}], "order": ["f", "f"]}"#, "order[1]: `f` is listed twice"),
        (r#"{"version": 1, "funcs": [{"name": "f"}], "order": ["g"]}"#, "order[0]: `g` is not a Func"),
        (r#"{"version": 1, "outputs": [{"func": "g"}]}"#, "outputs[0].func: output `g` is not a Func"),
        (r#"{"version": 1, "fresh_names": {"chars": {"t": 4294967296}}}"#, "fresh_names.chars.t"),
        (
            r#"{"version": 1, "fresh_names": {"chars": {"t": 3}, "func_value_bounds_end": 5}}"#,
            "fresh_names.func_value_bounds_end: 5 is above the `t` counter (3)",
        ),
        (
            r#"{"version": 1, "funcs": [{"name": "f", "args": ["x"], "storage_order": ["y"]}]}"#,
            "funcs[0].storage_order",
        ),
        (
            r#"{"version": 1, "target": {"default_device_api": "Default_GPU"}}"#,
            "`Default_GPU` is not the device API of a target feature (one of Metal, OpenCL, CUDA,",
        ),
        (r#"{"version": 1, "target": {"default_device_api": "cuda"}}"#, "`cuda` is not the device API"),
    ] {
        let e = PipelineEnv::from_json(text).err().map(|e| e.to_string()).unwrap_or_default();
        assert!(e.contains(want), "{text}: {e}");
    }
}

/// A mistake serde_json finds below the top level names the whole path to the field, not
/// an empty one (`env.json: : unknown field ...` before).
#[test]
fn nested_env_mistakes_name_the_whole_field_path() {
    for (text, want) in [
        (r#"{"version": 1, "funcs": [{"name": "f", "bogus": 1}]}"#, "funcs[0].bogus: unknown field `bogus`"),
        (
            r#"{"version": 1, "funcs": [{"name": "f"}, {"name": "g", "args": ["x", 3]}]}"#,
            "funcs[1].args[1]: invalid type",
        ),
        (r#"{"version": 1, "fresh_names": {"chars": {"t": "x"}}}"#, "fresh_names.chars.t: invalid type"),
        (r#"{"version": 1, "funcs": [{"types": ["int32"]}]}"#, "funcs[0]: missing field `name`"),
        // A value a field's own reader rejects: serde_json places it at the end of the
        // object holding it, which is the path named.
        (r#"{"version": 1, "target": {"default_device_api": "Host"}}"#, "target: `Host` is not"),
        (
            r#"{"version": 1, "funcs": [{"name": "f", "types": ["int33x"]}]}"#,
            "funcs[0]: `int33x` is not a type",
        ),
        (r#"{"version": 1, "fucns": []}"#, "fucns: unknown field `fucns`"),
    ] {
        let e = PipelineEnv::from_json(text).err().map(|e| e.to_string()).unwrap_or_default();
        assert!(e.starts_with(want), "{text}: {e}");
    }
    // Text that is not JSON has no field to name, and no empty one is printed.
    let e = PipelineEnv::from_json("{").err().map(|e| e.to_string()).unwrap_or_default();
    assert!(e.starts_with("not JSON: "), "{e}");
}

#[test]
fn the_targets_device_api_reads_writes_and_is_checked_when_built_in_code() {
    let text = r#"{"version": 1, "target": {"profile": true, "default_device_api": "OpenCL"}}"#;
    let env = PipelineEnv::from_json(text).expect("valid");
    assert_eq!(env.target.default_device_api, Some(loopir::DeviceApi::OpenCl));
    assert_eq!(PipelineEnv::from_json(&env.to_json()).expect("reads back"), env);
    let mut built = PipelineEnv::new();
    built.target.default_device_api = Some(loopir::DeviceApi::Host);
    let e = built.validate().expect_err("the host is not a device").to_string();
    assert!(e.starts_with("target.default_device_api: `Host` is not the device API"), "{e}");
}
