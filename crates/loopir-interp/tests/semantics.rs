//! Every Expr and Stmt kind, run from `.stmt` text: each test writes what it computes
//! into an `out` buffer and compares it with the reference's semantics; the memory tests
//! check that the heap refuses double frees, leaks, out-of-bounds accesses and uses
//! after free, naming the node.

use loopir::{ParseEnv, ParseOptions, StmtFile};
use loopir_interp::{Buffer, Elem, ErrorKind, HostRuntime, InterpError, Limits, Machine, compile};

/// Reads hand-typed text (any indentation).
fn parse(text: &str) -> loopir::Stmt {
    let options = ParseOptions { dialect: None, lenient: true };
    match StmtFile::parse(text.as_bytes(), &ParseEnv::default(), options).expect("parses").value {
        StmtFile::Stmt(s) => s,
        StmtFile::Module(_) => panic!("a statement, not a module"),
    }
}

/// Runs `text` with an int32 `out` of `n` elements where the text writes it (and an
/// int32 `in` of `n` elements holding 0, 1, ..., n-1 where the text reads it); returns
/// `out`.
fn run(text: &str, n: i32) -> Result<Vec<i64>, InterpError> {
    let program = compile(&parse(text))?;
    let mut rt = HostRuntime::new();
    let mut m = Machine::new(&program, &mut rt, Limits::default())?;
    if program.interface().buffer("out").is_none() {
        m.run()?;
        return Ok(vec![]);
    }
    m.bind_buffer("out", &Buffer::new(Elem::I32, &[0], &[n]))?;
    if program.interface().buffer("in").is_some() {
        let mut input = Buffer::new(Elem::I32, &[0], &[n]);
        input.fill(|c| c[0] as u64);
        m.bind_buffer("in", &input)?;
    }
    m.run()?;
    Ok(m.read_buffer("out")?.values.iter().map(|&v| v as i64).collect())
}

fn ok(text: &str, n: i32) -> Vec<i64> {
    run(text, n).unwrap_or_else(|e| panic!("{text}\nfails: {e}"))
}

fn err(text: &str) -> InterpError {
    match run(text, 4) {
        Ok(v) => panic!("{text}\nran and wrote {v:?}"),
        Err(e) => e,
    }
}

#[test]
fn constants_variables_and_lets() {
    let text = "let a = 7
out[0] = a
out[1] = (let b = (a*2) in (b + 1))
out[2] = int32(3_u8) + int32(-2_i8)
out[3] = int32(2.750000f)
";
    assert_eq!(ok(text, 4), vec![7, 15, 1, 2]);
}

#[test]
fn integer_arithmetic_wraps_and_divides_euclidean() {
    let text = "out[0] = -7/2
out[1] = -7 % 2
out[2] = 7/-2
out[3] = int32(200_u8 + 100_u8)
out[4] = int32(int8(127) + int8(1))
out[5] = min(3, -4) + max(3, -4)
out[6] = 5/0
out[7] = 5 % 0
";
    // Division rounds down for positive divisors, the remainder is never negative, and
    // division by zero is zero (Halide's definition).
    assert_eq!(ok(text, 8), vec![-4, 1, -3, 44, -128, -1, 0, 0]);
}

#[test]
fn comparisons_logic_and_select() {
    let text = "out[0] = select((3 < 4) && !(2 == 2), 1, 2)
out[1] = select((3 <= 3) || (1 > 2), 10, 20)
out[2] = select(2 != 2, 1, select(5 >= 6, 2, 3))
";
    assert_eq!(ok(text, 3), vec![2, 10, 3]);
}

#[test]
fn floats_reinterpret_and_math_intrinsics() {
    let text = "out[0] = reinterpret<int32>(1.000000f)
out[1] = int32((float32)floor_f32(-1.500000f))
out[2] = int32((float32)sqrt_f32(16.000000f))
out[3] = int32(lerp(0_u8, 255_u8, 128_u8))
out[4] = int32(absd(3, 10))
out[5] = int32(float16(1.000000f) + float16(0.000488f))
";
    // 1.0 + 2^-11 rounds to 1.0 in float16 (ties to even).
    assert_eq!(ok(text, 6), vec![0x3f80_0000, -2, 4, 128, 7, 1]);
}

#[test]
fn a_math_function_without_its_type_is_refused() {
    // Read without its `(float32)` prefix, the call has type int32: converting its
    // result would compute another program (it wrote 0 here before).
    let e = err("out[0] = floor_f32(-1.500000f)\n");
    assert!(e.to_string().contains("floor_f32 returns float32, but the call has type int32"), "{e}");
}

#[test]
fn shifts_saturating_and_widening_intrinsics() {
    // The text gives an intrinsic's type as a prefix, as Halide prints it.
    let text = "out[0] = int32((uint8)saturating_add(250_u8, 10_u8))
out[1] = int32((uint8)saturating_sub(5_u8, 10_u8))
out[2] = int32(widening_mul(200_u8, 200_u8))
out[3] = int32(shift_left(1_u8, 7_u8))
out[4] = shift_right(-16, 2)
out[5] = int32(rounding_shift_right(7_u8, 1_u8))
out[6] = int32(halving_add(255_u8, 1_u8))
out[7] = int32((int8)saturating_cast(300))
";
    assert_eq!(ok(text, 8), vec![255, 0, 40000, 128, -4, 4, 128, 127]);
}

#[test]
fn vectors_ramps_broadcasts_shuffles_and_reduces() {
    let text = "out[ramp(0, 1, 4)] = ramp(10, 2, 4) + x4(1)
out[ramp(4, 1, 2)] = slice_vectors(ramp(0, 1, 4), 1, 2, 2)
out[ramp(6, 1, 4)] = interleave_vectors(ramp(0, 1, 2), ramp(100, 1, 2))
out[10] = (int32)vector_reduce_add(ramp(1, 1, 4))
out[11] = (int32)vector_reduce_max(ramp(1, 1, 4))
out[ramp(12, 1, 4)] = concat_vectors(ramp(7, 1, 2), x2(9))
";
    assert_eq!(ok(text, 16), vec![11, 13, 15, 17, 1, 3, 0, 100, 1, 101, 10, 4, 7, 8, 9, 9]);
}

#[test]
fn loads_with_predicates_and_loops_of_every_kind() {
    let text = "for (x, 0, 1) {
 out[x] = in[x] + 100
}
parallel (x, 2, 3) {
 out[x] = in[x] + 200
}
unrolled (x, 4, 5) {
 out[x] = in[x] + 300
}
vectorized (x, 6, 7) {
 out[x] = in[x] + 400
}
";
    assert_eq!(ok(text, 8), vec![100, 101, 202, 203, 304, 305, 406, 407]);
}

#[test]
fn if_then_else_assert_and_evaluate() {
    let text = "if (1 < 2) {
 out[0] = 1
} else {
 out[0] = 2
}
if (2 < 1) {
 out[1] = 1
}
assert(0 <= 1, 7)
halide_free((void *)halide_malloc(8))
";
    assert_eq!(ok(text, 2), vec![1, 0]);
    let failed = err("assert(1 < 0, halide_error_bad_dimensions(\"Input buffer in\", 3, 2))\n");
    assert!(matches!(failed.kind, ErrorKind::AssertionFailed { .. }), "{failed}");
    assert!(
        failed.to_string().contains("Input buffer in requires a buffer of exactly 2 dimensions"),
        "{failed}"
    );
}

#[test]
fn realize_provide_and_func_calls() {
    let text = "realize f([0, 4]) {
 produce f {
  for (x, 0, 3) {
   f(x) = x*x
  }
 }
 consume f {
  for (x, 0, 3) {
   out[x] = f(3 - x)
  }
 }
}
";
    assert_eq!(ok(text, 4), vec![9, 4, 1, 0]);
    let outside = err("realize f([0, 2]) {\n f(5) = 1\n}\n");
    assert_eq!(outside.kind, ErrorKind::OutsideRealization, "{outside}");
}

#[test]
fn allocations_on_the_heap_and_the_stack() {
    let text = "allocate buf[int32 * 4] in Heap
for (x, 0, 3) {
 buf[x] = x + 1
}
out[0] = buf[3]
free buf
allocate s[int32 * 2] in Stack
s[1] = 5
out[1] = s[1]
";
    assert_eq!(ok(text, 2), vec![4, 5]);
}

#[test]
fn loads_of_a_gpu_allocation_group_read_the_type_of_their_member() {
    // Halide's text prints the loads inside `allocate` without a type. In a group of a
    // GPU block's Funcs, packed into memory of the widest type, a load has the type of
    // the member it reads (the one its section consumes, whose stores say its type) and
    // indexes in that type's units: here the uint8 `b` at byte 8 and the int16 `c` in
    // uint16 memory.
    let text = "allocate allocgroup__a_b__c[uint16 * 8] in GPUShared
produce a {
 allocgroup__a_b__c[0] = 1000_u16
}
produce b {
 consume a {
  allocgroup__a_b__c[8] = uint8(allocgroup__a_b__c[0]/10_u16)
 }
}
produce c {
 allocgroup__a_b__c[5] = -7_i16
}
consume b {
 out[0] = int32(allocgroup__a_b__c[8])
}
consume c {
 out[1] = int32(allocgroup__a_b__c[5])
}
free allocgroup__a_b__c
";
    assert_eq!(ok(text, 2), vec![100, -7]);
}

#[test]
fn fork_and_acquire_run_as_tasks() {
    let text = "let sema = (struct halide_semaphore_t *)make_struct(0)
fork {
 acquire (sema, 1) {
  out[1] = out[0] + 1
 }
} {
 out[0] = 41
 halide_semaphore_release(sema, 1)
}
";
    assert_eq!(ok(text, 2), vec![41, 42]);
}

#[test]
fn atomic_hoisted_storage_and_prefetch_keep_their_bodies() {
    let text = "atomic (out) {
 out[0] = out[0] + 3
}
hoisted_storage {
 out[1] = 9
}
";
    assert_eq!(ok(text, 2), vec![3, 9]);
}

#[test]
fn double_frees_are_caught() {
    let e = err("allocate buf[int32 * 4]\nbuf[0] = 1\nfree buf\nfree buf\n");
    assert_eq!(e.kind, ErrorKind::DoubleFree, "{e}");
    assert!(e.to_string().contains("buf"), "{e}");
}

#[test]
fn leaks_are_caught() {
    let e = err("let p = (void *)halide_malloc(16)\nout[0] = 1\n");
    assert_eq!(e.kind, ErrorKind::Leak, "{e}");
    assert!(e.to_string().contains("16 bytes"), "{e}");
    // Freed, it is no leak.
    assert_eq!(ok("let p = (void *)halide_malloc(16)\nhalide_free(p)\nout[0] = 1\n", 1), vec![1]);
}

#[test]
fn out_of_bounds_accesses_are_caught() {
    let store = err("allocate buf[int32 * 4]\nbuf[4] = 1\nfree buf\n");
    assert_eq!(store.kind, ErrorKind::MemoryAccess, "{store}");
    assert!(store.to_string().contains("which has 16 bytes"), "{store}");
    let load = err("allocate buf[int32 * 4]\nbuf[0] = 1\nout[0] = buf[-1]\nfree buf\n");
    assert_eq!(load.kind, ErrorKind::MemoryAccess, "{load}");
    let argument = err("out[4] = 1\n");
    assert_eq!(argument.kind, ErrorKind::MemoryAccess, "{argument}");
}

#[test]
fn uses_after_free_are_caught() {
    let e = err("allocate buf[int32 * 4]\nbuf[0] = 1\nfree buf\nout[0] = buf[0]\n");
    assert!(e.to_string().contains("buf"), "{e}");
    assert_ne!(e.kind, ErrorKind::Leak);
}

#[test]
fn runtime_calls_with_the_wrong_arguments_are_refused() {
    // A missing argument must not read as zero, nor a count out of range as its clamp.
    let trace = |args: &str| {
        format!(
            "let t = halide_trace_helper(\"f\", (void *)make_struct(), (int32_t *)make_struct(0), {args}, \"\")\nout[0] = t\n"
        )
    };
    // (11 arguments is Halide 21's form, which the parser brings to the reference's 12.)
    let short = err(&trace("3, 0, 0, 8, 0, 0"));
    assert_eq!(short.kind, ErrorKind::BadProgram, "{short}");
    assert!(short.message.contains("halide_trace_helper takes 12 arguments, not 10"), "{short}");
    let negative = err(&trace("3, 0, 0, 8, 0, 0, 0, -1"));
    assert!(
        negative.message.contains("halide_trace_helper is given dimensions -1, outside 0..="),
        "{negative}"
    );
    let lanes = err(&trace("3, 32, 70000, 8, 0, 0, 0, 1"));
    assert!(lanes.message.contains("is given type lanes 70000, outside 0..=65535"), "{lanes}");
    // In range, the event is recorded (the host runtime numbers events from 1).
    assert_eq!(ok(&trace("3, 0, 0, 8, 0, 0, 0, 1"), 1), vec![1]);
    let funcs = err(
        "let p = halide_profiler_instance_start(\"p\", -1, (void *)make_struct(), (void *)make_struct(), (void *)make_struct(), (void *)make_struct(), (void *)make_struct(), (void *)make_struct())\nout[0] = 0\n",
    );
    assert!(funcs.message.contains("halide_profiler_instance_start is given -1 funcs"), "{funcs}");
    let memo = err(
        "let r = halide_memoization_cache_lookup((void *)make_struct(0), 4, (void *)make_struct(0), -1, (void *)make_struct(0))\nout[0] = r\n",
    );
    assert!(memo.message.contains("halide_memoization_cache_lookup is given -1 buffers"), "{memo}");
    let thread = err("out[0] = halide_current_thread_id(1)\n");
    assert!(thread.message.contains("halide_current_thread_id takes 0 arguments, not 1"), "{thread}");
}

#[test]
fn halide21_profiler_instance_start_has_no_report_tree() {
    // Halide 21 passes (pipeline, num_funcs, names, instance): every entry is a root.
    let text = "allocate names[(void *) * 2] in Stack
allocate instance[uint8 * 64] in Stack
names[0] = \"overhead\"
names[1] = \"f\"
let e = halide_profiler_instance_start(\"p\", 2, (void *)names, (void *)instance)
out[0] = e
";
    let program = compile(&parse(text)).expect("compiles");
    let mut rt = loopir_interp::RecordingRuntime::default();
    let mut m = Machine::new(&program, &mut rt, Limits::default()).expect("machine");
    m.bind_buffer("out", &Buffer::new(Elem::I32, &[0], &[1])).expect("binds");
    m.run().expect("runs");
    drop(m);
    let p = &rt.profiler.pipelines()[0];
    assert_eq!(p.name, "p");
    let funcs: Vec<(&str, i32)> = p.funcs.iter().map(|f| (f.name.as_str(), f.parent)).collect();
    assert_eq!(funcs, vec![("overhead", -1), ("f", -1)]);
}

#[test]
fn the_trace_log_counts_against_the_memory_limit() {
    // 10,000 events of 3 coordinates: about 10,000 * (the record + 12 bytes), past a
    // limit of 64 KiB, which the program's own memory (a 4-byte buffer) stays far below.
    let text = "for (x, 0, 9999) {
 halide_trace_helper(\"f\", (void *)make_struct(x), (int32_t *)make_struct(x, x, x), 3, 0, 0, 2, 0, 0, 0, 3, \"\")
}
out[0] = 1
";
    let program = compile(&parse(text)).expect("compiles");
    let run = |memory: usize| -> Result<usize, InterpError> {
        let mut rt = loopir_interp::RecordingRuntime::default();
        let mut m = Machine::new(&program, &mut rt, Limits { memory, ..Limits::default() })?;
        m.bind_buffer("out", &Buffer::new(Elem::I32, &[0], &[1]))?;
        m.run()?;
        drop(m);
        Ok(rt.trace.len())
    };
    assert_eq!(run(Limits::default().memory).expect("runs in the default limit"), 10_000);
    let err = run(64 << 10).expect_err("the log outgrows 64 KiB");
    assert_eq!(err.kind, ErrorKind::Limit, "{err}");
    assert!(err.to_string().contains("the trace log ("), "{err}");
    assert!(err.to_string().contains("exceed the memory limit of 65536 bytes"), "{err}");
}
