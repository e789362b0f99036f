//! Storage flattening, one feature at a time: small statements and the text the
//! reference's pass makes of them (each expected text was derived by hand from
//! `StorageFlattening.cpp` at the reference commit and checked against the pass's output
//! line by line), and the errors for IR and envs the pass refuses.

use loopir::{Expr, Type};
use loopir_lower::{FlattenEnv, FlattenFunc, LowerError, StorageDim, storage_flattening};

/// An env of Funcs `(name, args, types)` and outputs.
fn env(funcs: &[(&str, &[&str], &[Type])], outputs: &[&str]) -> FlattenEnv {
    let mut env = FlattenEnv::default();
    for (name, args, types) in funcs {
        env.funcs.insert(
            name.to_string(),
            FlattenFunc {
                args: args.iter().map(|a| a.to_string()).collect(),
                types: types.to_vec(),
                ..Default::default()
            },
        );
    }
    env.outputs = outputs.iter().map(|o| o.to_string()).collect();
    env
}

/// The pass's output on `text`, fresh names from `t<first_t>`.
fn try_flatten(env: &FlattenEnv, text: &str, first_t: u64) -> Result<String, LowerError> {
    let stmt = loopir::parse_stmt_with_env(text, &env.parse_env()).expect("fixture parses");
    let ctx = loopir_simplify::Ctx::new();
    ctx.seed_t(first_t);
    let out = storage_flattening(&ctx, &stmt, env)?.to_string();
    // Every output reprints unchanged through the parser.
    let reparsed = loopir::parse_stmt(&out).expect("the output parses").to_string();
    assert_eq!(reparsed, out, "the output reprints");
    Ok(out)
}

fn flatten(env: &FlattenEnv, text: &str, first_t: u64) -> String {
    match try_flatten(env, text, first_t) {
        Ok(s) => s,
        Err(e) => panic!("{e}"),
    }
}

fn error(env: &FlattenEnv, text: &str) -> String {
    match try_flatten(env, text, 0) {
        Ok(s) => panic!("expected an error, got\n{s}"),
        Err(e) => e.to_string(),
    }
}

const U8: Type = Type::uint(8, 1);
const I32: Type = Type::INT32;

/// The `let NAME.buffer = ...` line of a realization of `dims` dimensions of `bits`-bit
/// unsigned integers, its shape named `t<t>`.
fn buffer_line(indent: &str, name: &str, code: i32, bits: u8, dims: usize, t: u64) -> String {
    let shape: Vec<String> =
        (0..dims).map(|i| format!("{name}.min.{i}, {name}.extent.{i}, {name}.stride.{i}, 0")).collect();
    format!(
        "{indent}let {name}.buffer = let t{t} = (struct halide_dimension_t *)make_struct({}) in (struct halide_buffer_t *)_halide_buffer_init((struct halide_buffer_t *)alloca(size_of_halide_buffer_t()), t{t}, {name}, 0_u64, reinterpret<(struct halide_device_interface_t *)>(0_u64), {code}, {bits}, {dims}, t{t}, 0_u64)\n",
        shape.join(", ")
    )
}

#[test]
fn realized_buffers_index_from_their_mins_others_through_their_symbols() {
    let env = {
        let mut e = env(&[("f", &["x", "y"], &[U8]), ("out", &["x"], &[U8])], &["out"]);
        e.images.insert("input".into());
        e
    };
    let text = "realize f([0, 10], [y0, 4]) {\n  produce f {\n   for (x, 0, 9) {\n    f(x, y0 + 1) = (uint8)input(x + 2, 0)\n   }\n  }\n  out(0) = f(x + -1, y0)\n}\n";
    let expected = [
        "let f.extent.0 = 10\n",
        "let f.min.0 = 0\n",
        "let f.extent.1 = 4\n",
        "let f.min.1 = y0\n",
        "let f.stride.0 = 1\n",
        "let f.stride.1 = f.stride.0*10\n",
        "allocate f[uint8 * 10 * 4]\n",
        &buffer_line("", "f", 1, 8, 2, 3),
        "produce f {\n",
        " for (x, 0, 9) {\n",
        // The constant of `y0 + 1` is peeled into a last term, and so is image's `x + 2`;
        // the image is indexed through its own symbols, its base subtracted.
        "  f[((0 + ((x - f.min.0)*f.stride.0)) + ((y0 - f.min.1)*f.stride.1)) + (0 + (f.stride.1*1))] = (uint8)input[(((0 + (x*input.stride.0)) + (0*input.stride.1)) - ((0 + (input.min.0*input.stride.0)) + (input.min.1*input.stride.1))) + (0 + (input.stride.0*2))]\n",
        " }\n",
        "}\n",
        "out[(0 + (0*out.stride.0)) - (0 + (out.min.0*out.stride.0))] = f[((0 + ((x - f.min.0)*f.stride.0)) + ((y0 - f.min.1)*f.stride.1)) + (0 + (f.stride.0*-1))]\n",
    ]
    .concat();
    assert_eq!(flatten(&env, text, 3), expected);
}

#[test]
fn nested_realizations_draw_their_shape_names_innermost_first() {
    let env = env(&[("f", &["x"], &[I32]), ("g", &["x"], &[I32]), ("s", &[], &[I32])], &[]);
    // `s` has no dimensions: no shape, a null one instead, but a name is drawn all the same.
    let text = "realize g([0, 2]) {\n  realize f([0, 2]) {\n    realize s() {\n      s() = 1\n      f(0) = s()\n    }\n    g(0) = f(0)\n  }\n}\n";
    let out = flatten(&env, text, 5);
    assert!(out.contains("let g.buffer = let t7 = "), "{out}");
    assert!(out.contains("let f.buffer = let t6 = "), "{out}");
    assert!(out.contains(
        "allocate s[int32]\nlet s.buffer = (struct halide_buffer_t *)_halide_buffer_init((struct halide_buffer_t *)alloca(size_of_halide_buffer_t()), reinterpret<(struct halide_dimension_t *)>(0_u64), s, 0_u64, reinterpret<(struct halide_device_interface_t *)>(0_u64), 0, 32, 0, reinterpret<(struct halide_dimension_t *)>(0_u64), 0_u64)\ns[0] = 1\n"
    ), "{out}");
    assert!(out.contains("\nf[0 + ((0 - f.min.0)*f.stride.0)] = s[0]\n"), "{out}");
}

#[test]
fn storage_order_alignment_and_storage_bounds() {
    let mut env = env(&[("f", &["x", "y", "c"], &[I32])], &[]);
    if let Some(f) = env.funcs.get_mut("f") {
        f.storage = vec![
            StorageDim { var: "c".into(), alignment: None, bound: Some(Expr::i32(4)) },
            StorageDim { var: "x".into(), alignment: Some(Expr::i32(16)), bound: None },
            StorageDim::plain("y"),
        ];
    }
    let text = "realize f([0, w], [0, h], [0, 3]) {\n  f(1, 2, 0) = 0\n}\n";
    let expected = [
        // The bound replaces the extent of c; x's extent is rounded up to 16.
        "let f.extent.0 = w\n",
        "let f.min.0 = 0\n",
        "let f.extent.1 = h\n",
        "let f.min.1 = 0\n",
        "let f.extent.2 = 4\n",
        "let f.min.2 = 0\n",
        // c is innermost, then x (aligned), then y.
        "let f.stride.2 = 1\n",
        "let f.stride.0 = f.stride.2*4\n",
        "let f.stride.1 = f.stride.0*((((w + 16) - 1)/16)*16)\n",
        "assert(3 <= 4, halide_error_storage_bound_too_small(\"f\", \"c\", 4, 3))\n",
        "allocate f[int32 * ((((w + 16) - 1)/16)*16) * h * 4]\n",
        &buffer_line("", "f", 0, 32, 3, 0),
        "f[((0 + ((1 - f.min.0)*f.stride.0)) + ((2 - f.min.1)*f.stride.1)) + ((0 - f.min.2)*f.stride.2)] = 0\n",
    ]
    .concat();
    assert_eq!(flatten(&env, text, 0), expected);

    // A bound that is provably too small is refused.
    let text = "realize f([0, w], [0, h], [0, 5]) {\n  f(1, 2, 0) = 0\n}\n";
    assert_eq!(
        error(&env, text),
        "realize f: the explicit storage bound (4) for variable c of function f is smaller than required (5)"
    );
}

#[test]
fn a_ring_buffer_is_the_outermost_storage_dimension() {
    let mut env = env(&[("f", &["x", "y"], &[I32])], &[]);
    if let Some(f) = env.funcs.get_mut("f") {
        f.storage = vec![StorageDim::plain("y"), StorageDim::plain("x")];
        f.ring_buffer = true;
    }
    let out = flatten(&env, "realize f([0, 8], [0, 2], [0, 3]) {\n  f(0, 0, 0) = 1\n}\n", 0);
    assert!(
        out.starts_with(
            "let f.extent.0 = 8\nlet f.min.0 = 0\nlet f.extent.1 = 2\nlet f.min.1 = 0\nlet f.extent.2 = 3\nlet f.min.2 = 0\nlet f.stride.1 = 1\nlet f.stride.0 = f.stride.1*2\nlet f.stride.2 = f.stride.0*8\nallocate f[int32 * 8 * 2 * 3]\n"
        ),
        "{out}"
    );
}

#[test]
fn tuple_elements_are_separate_buffers() {
    let env =
        env(&[("f", &["x"], &[U8, Type::float(32, 1)]), ("out", &["x"], &[Type::float(32, 1)])], &["out"]);
    let text = "realize f.0([0, 4]) {\n  realize f.1([0, 4]) {\n    f.0(x) = 1_u8\n    f.1(x) = 2.000000f\n    out(x) = float32(f.0(x)) + f.1(x + 1)\n  }\n}\n";
    let out = flatten(&env, text, 0);
    assert!(
        out.contains("allocate f.0[uint8 * 4]\n") && out.contains("allocate f.1[float32 * 4]\n"),
        "{out}"
    );
    // The inner realization draws its name first; type codes: uint 1, float 2.
    assert!(out.contains(&buffer_line("", "f.0", 1, 8, 1, 1)), "{out}");
    assert!(out.contains(&buffer_line("", "f.1", 2, 32, 1, 0)), "{out}");
    assert!(
        out.contains(
            "\nout[(0 + (x*out.stride.0)) - (0 + (out.min.0*out.stride.0))] = float32(f.0[0 + ((x - f.0.min.0)*f.0.stride.0)]) + f.1[(0 + ((x - f.1.min.0)*f.1.stride.0)) + (0 + (f.1.stride.0*1))]\n"
        ),
        "{out}"
    );
}

#[test]
fn booleans_are_stored_in_bytes() {
    let env = env(&[("f", &["x"], &[Type::BOOL]), ("out", &["x"], &[Type::BOOL])], &["out"]);
    let text = "realize f([0, 4]) {\n  f(x) = x < 2\n  out(x) = f(x) && f(x + 1)\n}\n";
    let out = flatten(&env, text, 0);
    // The allocation is of bytes; the buffer keeps the Func's type (uint, 1 bit).
    assert!(out.contains("allocate f[uint8 * 4]\n"), "{out}");
    assert!(
        out.contains(
            ", f, 0_u64, reinterpret<(struct halide_device_interface_t *)>(0_u64), 1, 1, 1, t0, 0_u64)"
        ),
        "{out}"
    );
    assert!(out.contains("f[0 + ((x - f.min.0)*f.stride.0)] = uint8(x < 2)\n"), "{out}");
    assert!(
        out.contains(
            "out[(0 + (x*out.stride.0)) - (0 + (out.min.0*out.stride.0))] = uint8(uint1(f[0 + ((x - f.min.0)*f.stride.0)]) && uint1(f[(0 + ((x - f.min.0)*f.stride.0)) + (0 + (f.stride.0*1))]))\n"
        ),
        "{out}"
    );
}

#[test]
fn predicates_conditions_and_memory_types_carry_over() {
    let env = env(&[("f", &["x"], &[I32])], &[]);
    let text = "realize f([0, 4]) in Stack if c {\n  predicate (x < 3)\n   f(x) = 1\n}\n";
    let out = flatten(&env, text, 0);
    assert!(out.contains("allocate f[int32 * 4] in Stack if c\n"), "{out}");
    assert!(out.ends_with("predicate (x < 3)\n f[0 + ((x - f.min.0)*f.stride.0)] = 1\n"), "{out}");
}

#[test]
fn gpu_loops_start_at_zero() {
    let env = env(&[("out", &["x"], &[I32])], &["out"]);
    let text =
        "gpu_block<CUDA> (b, m, m + 7) {\n gpu_thread<CUDA> (t, b*4, (b*4) + 3) {\n  out(t) = b\n }\n}\n";
    let expected = "gpu_block<CUDA> (b, 0, 7) {\n gpu_thread<CUDA> (t, 0, 3) {\n  out[(0 + ((t + ((b + m)*4))*out.stride.0)) - (0 + (out.min.0*out.stride.0))] = b + m\n }\n}\n";
    assert_eq!(flatten(&env, text, 0), expected);
}

#[test]
fn textures_in_gpu_loops_use_image_intrinsics() {
    let mut env = env(&[("f", &["x"], &[I32]), ("out", &["x"], &[I32])], &["out"]);
    env.images.insert("input".into());
    env.textures.insert("input".into());
    let text = "realize f([0, 4]) in GPUTexture {\n  gpu_block<CUDA> (b, 0, 3) {\n   f(b) = input(b + 1)\n   out(b) = f(b)\n  }\n  out(0) = f(0)\n}\n";
    let out = flatten(&env, text, 0);
    assert!(out.contains("allocate f[int32 * 4] in GPUTexture\n"), "{out}");
    // Inside the GPU loop: image_store with the coordinates minus the mins, image_load
    // with each coordinate minus its min and the extent.
    assert!(
        out.contains(
            "gpu_block<CUDA> (b, 0, 3) {\n image_store(\"f\", f.buffer, b - f.min.0, image_load(\"input\", (struct halide_buffer_t *)input.buffer, (b + 1) - input.min.0, input.extent.0))\n out[(0 + (b*out.stride.0)) - (0 + (out.min.0*out.stride.0))] = image_load(\"f\", f.buffer, b - f.min.0, f.extent.0)\n}\n"
        ),
        "{out}"
    );
    // Outside it, a plain load.
    assert!(out.contains("out[(0 + (0*out.stride.0)) - (0 + (out.min.0*out.stride.0))] = f[0 + ((0 - f.min.0)*f.stride.0)]\n"), "{out}");
}

#[test]
fn prefetches_are_calls_at_the_flattened_base_in_storage_order() {
    let mut env = env(&[("f", &["x", "y"], &[Type::uint(16, 1)])], &[]);
    if let Some(f) = env.funcs.get_mut("f") {
        f.storage = vec![StorageDim::plain("y"), StorageDim::plain("x")];
    }
    let text = "realize f([0, 8], [0, 8]) {\n  for (y, 0, 7) {\n   prefetch f, y, y, ([0, 8], [y + 1, 2])\n   f(0, y) = 0_u16\n  }\n}\n";
    let out = flatten(&env, text, 0);
    assert!(
        out.contains(
            " (uint16)prefetch(f, ((0 + ((0 - f.min.0)*f.stride.0)) + ((y - f.min.1)*f.stride.1)) + (0 + (f.stride.1*1)), 2, f.stride.1, 8, f.stride.0)\n f[(0 + ((0 - f.min.0)*f.stride.0)) + ((y - f.min.1)*f.stride.1)] = 0_u16\n"
        ),
        "{out}"
    );
}

#[test]
fn hoisted_storage_takes_the_largest_allocation_over_the_loops() {
    let env = env(&[("f", &["x"], &[I32]), ("out", &["x"], &[I32])], &["out"]);
    let text = "hoisted_storage (f) {\n  for (y, 0, 9) {\n   let f.e = y + 1\n   realize f([0, f.e]) {\n     f(0) = 1\n     out(y) = f(0)\n   }\n   realize f([0, 3]) if c {\n     f(0) = 2\n   }\n  }\n}\n";
    let out = flatten(&env, text, 0);
    // y + 1 is at most 10 over the loop; the condition of the second is `c`, the first's
    // true: the hoisted allocation happens if either's does.
    // (Bounds are not simplified after the analysis, as in the reference.)
    assert!(out.starts_with("allocate f[int32 * max(9 + 1, 3)] if (true || c)\nfor (y, 0, 9) {\n let f.e = y + 1\n let f.extent.0 = f.e\n"), "{out}");
    assert!(!out.contains(" allocate "), "{out}");
}

#[test]
fn large_buffers_index_in_64_bits() {
    let mut env = env(&[("f", &["x"], &[I32])], &[]);
    env.large_buffers = true;
    let out = flatten(&env, "realize f([0, 4]) {\n  f(x + 1) = 0\n}\n", 0);
    assert!(
        out.ends_with(
            "f[(0_i64 + (int64(x - f.min.0)*int64(f.stride.0))) + (0_i64 + (int64(f.stride.0)*1_i64))] = 0\n"
        ),
        "{out}"
    );
}

#[test]
fn ir_the_pass_cannot_flatten_is_refused_naming_the_node() {
    let e = env(&[("f", &["x"], &[I32]), ("g", &["x"], &[I32, I32])], &[]);
    assert_eq!(
        error(&e, "realize h([0, 4]) {\n  h(0) = 1\n}\n"),
        "realize h: no Func of the env is stored in this buffer (the elements of a tuple-valued Func are realized as `f.0`, `f.1`, ...)"
    );
    assert_eq!(
        error(&e, "realize f([0, 4], [0, 4]) {\n  f(0, 0) = 1\n}\n"),
        "realize f: has 2 dimensions, but Func f has 1 pure arguments (x)"
    );
    assert_eq!(
        error(&e, "realize g([0, 4]) {\n  g(0) = 1\n}\n"),
        "realize g: no Func of the env is stored in this buffer (the elements of a tuple-valued Func are realized as `f.0`, `f.1`, ...)"
    );
    assert_eq!(
        error(&e, "realize g.0([0, 4]) {\n  g.0(0) = 1\n  g.0(1) = g.0(0)[1]\n}\n").split(':').next(),
        Some("call g.0(...)")
    );
    assert_eq!(
        error(&e, "f(0) = 1\n"),
        "f(...) = ...: stores to a Func that is neither realized around it nor a pipeline output"
    );
    assert_eq!(
        error(&e, "realize f([0, 4]) {\n  f(0) = f(1)\n}\nf(2) = 3\n"),
        "f(...) = ...: stores to a Func that is neither realized around it nor a pipeline output"
    );
    assert_eq!(
        error(&e, "g.1(0) = f(1)\n"),
        "g.1(...) = ...: stores to a Func that is neither realized around it nor a pipeline output"
    );
    assert_eq!(
        error(&e, "realize f([0, 4]) {\n  f(0) = 1\n}\nassert(f(1) == 0, 0)\n").split(':').next(),
        Some("call f(...)")
    );
    assert_eq!(
        error(&e, "hoisted_storage (f) {\n  f(0) = 1\n}\n"),
        "f(...) = ...: stores to a Func that is neither realized around it nor a pipeline output"
    );
    assert_eq!(
        error(&e, "hoisted_storage (g.0) {\n  realize f([0, 1]) {\n    f(0) = 1\n  }\n}\n"),
        "hoisted_storage (g.0): couldn't find a matching allocation of g.0 inside it"
    );
}

#[test]
fn a_provide_of_a_tuple_is_refused() {
    let e = env(&[("g", &["x"], &[I32, I32])], &["g"]);
    let stmt =
        loopir::Stmt::provide("g", vec![Expr::i32(1), Expr::i32(2)], vec![Expr::i32(0)], Expr::const_true())
            .expect("a provide");
    let err = storage_flattening(&loopir_simplify::Ctx::new(), &stmt, &e).err().map(|e| e.to_string());
    assert_eq!(
        err.as_deref(),
        Some(
            "g(...) = ...: provides a tuple of 2 values: tuple-valued realizations must be split into `g.0`, `g.1`, ... before storage flattening"
        )
    );
}

#[test]
fn a_realization_whose_type_disagrees_with_the_env_is_refused() {
    let e = env(&[("f", &["x"], &[I32])], &[]);
    let stmt = loopir::parse_stmt("realize f([0, 4]) {\n  f(0) = 1.000000f\n}\n").expect("parses");
    let err = storage_flattening(&loopir_simplify::Ctx::new(), &stmt, &e).err().map(|e| e.to_string());
    assert_eq!(
        err.as_deref(),
        Some("realize f: stores float32 values, but the env gives Func f the type int32")
    );
}

#[test]
fn an_env_whose_storage_order_is_not_a_permutation_is_refused() {
    let mut e = env(&[("f", &["x", "y"], &[I32])], &[]);
    if let Some(f) = e.funcs.get_mut("f") {
        f.storage = vec![StorageDim::plain("x")];
    }
    assert_eq!(error(&e, "evaluate(0)\n"), "env: funcs.f.storage: no storage dimension for y");
}
