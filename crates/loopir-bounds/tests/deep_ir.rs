//! Deep and long IR through every bounds pass (issue 19 item 1): expressions nested
//! 3,000 deep in every position a pass analyses (a Func's value, a call's index, a loop
//! bound, a let value, an `if` condition), of every kind of node that nests (arithmetic,
//! `select`, `!`, `&&`, casts, lets in body and value position, Func calls, loads, extern
//! calls), 100,000 nested `for` loops and a block of 1,000,000 Provides. Each runs
//! computation bounds inference, the Func value bounds of the definitions, allocation
//! bounds inference, `boxes_touched` and the printing of its boxes (what `loopir bounds`
//! does with each), on a thread with a 128 KiB stack.
//!
//! The stack is small so that the depth can be: a walk that recursed without growing its
//! stack would have to take less than 22 bytes per level to get through 3,000 levels on
//! the 64 KiB left above the red zone (every Rust frame takes more), as strict a test as
//! 1,000,000 levels on the 8 MiB of the `loopir` command's main thread and far cheaper
//! (the command itself is checked on 1,000,000 levels by hand, see the issue's closing
//! note). Sizes, not times. The text of 100,000 nested loops would be 5 GB of
//! indentation, so they are built through the API.

use std::fmt::Write as _;

use loopir::parse::parse_stmt_with_env;
use loopir::{DeviceApi, Expr, ForType, MinMax, Stmt, StmtKind};
use loopir_bounds::allocation_bounds::allocation_bounds_inference;
use loopir_bounds::boxes::print_boxes;
use loopir_bounds::compute_bounds::computation_bounds_inference;
use loopir_bounds::env::BoundsEnv;
use loopir_bounds::func_value_bounds::func_value_bounds_of_definitions;
use loopir_bounds::{BoundsError, FuncValueBounds, boxes_touched};
use loopir_simplify::{Ctx, Scope};

/// How deep each expression nests.
const DEPTH: usize = 3_000;

/// Runs `f` on a thread with a 128 KiB stack and propagates its panic.
fn on_small_stack(name: &str, f: impl FnOnce() + Send + 'static) {
    let handle = std::thread::Builder::new()
        .name(name.to_owned())
        .stack_size(128 << 10)
        .spawn(f)
        .unwrap_or_else(|e| panic!("spawn a test thread: {e}"));
    if let Err(panic) = handle.join() {
        std::panic::resume_unwind(panic);
    }
}

/// `g` is computed at the root and read by the output `f`; `h` is an extern function.
const ENV: &str = r#"{"order": ["g", "f"], "target": {"profile": false}, "outputs": [{"func": "f", "buffer": "f"}],
 "funcs": {"g": {"types": ["int32"], "args": ["x"]}, "f": {"types": ["int32"], "args": ["x"]}}}"#;

/// A nested expression of `depth` levels around the variable `v`.
fn nested(kind: &str, v: &str, depth: usize) -> String {
    let mut s = String::new();
    match kind {
        // ((v + 1) + 1) ...
        "add" => {
            s.push_str(&"(".repeat(depth));
            s.push_str(v);
            s.push_str(&" + 1)".repeat(depth));
        }
        // Every arithmetic operator and min/max, in turn.
        "arith" => {
            let ops = ["(", "(", "(", "min(", "max(", "(", "("];
            let tails = [" + 1)", " - 2)", "*3)", ", 100)", ", -100)", "/2)", " % 7)"];
            for i in (0..depth).rev() {
                s.push_str(ops[i % ops.len()]);
            }
            s.push_str(v);
            for i in 0..depth {
                s.push_str(tails[i % tails.len()]);
            }
        }
        // select(v < 0, select(v < 1, ..., 1), 0)
        "select" => {
            for i in 0..depth {
                let _ = write!(s, "select({v} < {i}, ");
            }
            s.push_str(v);
            for i in (0..depth).rev() {
                let _ = write!(s, ", {i})");
            }
        }
        "not" => {
            let _ = write!(s, "select({}({v} < 0), 1, 0)", "!".repeat(depth));
        }
        "and" => {
            s.push_str("select(");
            s.push_str(&"(".repeat(depth));
            let _ = write!(s, "{v} < 0");
            for i in 0..depth {
                let _ = write!(s, ") && ({v} < {i})");
            }
            s.push_str(", 1, 0)");
        }
        // int32(int16(int32(int16(v))))
        "cast" => {
            for i in 0..depth {
                s.push_str(if i % 2 == 0 { "int32(" } else { "int16(" });
            }
            s.push_str(v);
            s.push_str(&")".repeat(depth));
        }
        // (let a0 = (v + 0) in (let a1 = (v + 1) in ... v))
        "let" => {
            for i in 0..depth {
                let _ = write!(s, "(let a{i} = ({v} + {i}) in ");
            }
            s.push_str(v);
            s.push_str(&")".repeat(depth));
        }
        // (let a0 = (let a1 = (... (v + 1) ...) in (a1 + 1)) in (a0 + 1))
        "let_value" => {
            for i in 0..depth {
                let _ = write!(s, "(let a{i} = ");
            }
            let _ = write!(s, "({v} + 1)");
            for i in (0..depth).rev() {
                let _ = write!(s, " in (a{i} + 1))");
            }
        }
        "call" => {
            s.push_str(&"g(".repeat(depth));
            s.push_str(v);
            s.push_str(&")".repeat(depth));
        }
        "extern" => {
            s.push_str(&"h(".repeat(depth));
            s.push_str(v);
            s.push_str(&")".repeat(depth));
        }
        "load" => {
            s.push_str(&"b[".repeat(depth));
            s.push_str(v);
            s.push_str(&"]".repeat(depth));
        }
        other => panic!("no such kind: {other}"),
    }
    s
}

/// The two-Func pipeline with a deep expression of `kind` (over `g.s0.x`, `f.s0.x` or
/// the parameter `p`) put where `place` says.
fn pipeline(place: &str, kind: &str) -> String {
    let gv = |v: &str| if place == "g value" { nested(kind, v, DEPTH) } else { v.to_owned() };
    let fv = |v: &str| match place {
        "f index" => format!("g({})", nested(kind, v, DEPTH)),
        "f value" => format!("g({v}) + {}", nested(kind, v, DEPTH)),
        _ => format!("g({v})"),
    };
    let f_max = if place == "loop bound" { nested(kind, "p", DEPTH) } else { "f.s0.x.max".to_owned() };
    let f_body = match place {
        "let value" => format!("let t = {}\n     f(f.s0.x) = g(t)", nested(kind, "f.s0.x", DEPTH)),
        "if condition" => {
            format!("if (0 < {}) {{\n      f(f.s0.x) = g(f.s0.x)\n     }}", nested(kind, "f.s0.x", DEPTH))
        }
        _ => format!("f(f.s0.x) = {}", fv("f.s0.x")),
    };
    let produce_f = format!(
        "produce f {{
    for (f.s0.x, f.s0.x.min, {f_max}) {{
     {f_body}
    }}
   }}"
    );
    // An `if` around f's whole production, on a parameter (each line inside it indented
    // one more space).
    let consumer = if place == "guard" {
        let inner = produce_f.replace('\n', "\n ");
        format!("if (0 < {}) {{\n    {inner}\n   }}", nested(kind, "p", DEPTH))
    } else {
        produce_f
    };
    format!(
        "realize g([g.x.min_realized, g.x.extent_realized]) {{
  produce g {{
   for (g.s0.x, g.s0.x.min, g.s0.x.max) {{
    g(g.s0.x) = {}
   }}
  }}
  consume g {{
   {consumer}
  }}
}}
",
        gv("g.s0.x")
    )
}

/// The names the leading LetStmts of `s` define (a pass's definitions at the root).
fn leading_lets(s: &Stmt) -> String {
    let mut names = Vec::new();
    let mut at = s;
    while let StmtKind::LetStmt { name, body, .. } = at.kind() {
        names.push(name.to_string());
        at = body;
    }
    names.join(" ")
}

/// Every pass on `s`, summarised: the names each inference defines at the root and the
/// size of the printed boxes touched. Each may refuse the input, none may crash.
fn every_pass(s: &Stmt, env: &BoundsEnv) -> [Result<String, BoundsError>; 3] {
    let computed = computation_bounds_inference(&Ctx::new(), s, env).map(|s| leading_lets(&s));
    let definitions = func_value_bounds_of_definitions(s, env);
    let allocated = allocation_bounds_inference(s, env, &definitions, 0).map(|s| leading_lets(&s));
    let ctx = Ctx::new();
    let touched = boxes_touched(&ctx, s, &Scope::new(), &FuncValueBounds::default())
        .map(|boxes| format!("{} bytes of boxes", print_boxes(&ctx, &boxes).len()));
    [computed, allocated, touched]
}

/// What each pass must give: the root definitions of both Funcs (computation bounds) and
/// of `g`'s realization (allocation bounds), or one of the errors the input deserves (an
/// `if` around a pure definition is not supported; an index read from a Func or a buffer
/// has no bounds here).
fn check(name: &str, results: &[Result<String, BoundsError>; 3]) {
    let expected = [
        "f.s0.x.max f.s0.x.min g.s0.x.max g.s0.x.min",
        "g.x.max_realized g.x.min_realized g.x.extent_realized",
    ];
    for (r, want) in results.iter().zip(expected) {
        match r {
            Ok(got) => assert_eq!(got, want, "{name}"),
            Err(BoundsError::Unsupported(m)) => assert_eq!(m, "conditional pure definition of f", "{name}"),
            Err(BoundsError::UnboundedCall(m)) => {
                assert!(m.contains("calls function g in an unbounded way"), "{name}: {m}")
            }
            Err(BoundsError::Unbounded { func, .. }) => assert_eq!(func.as_ref(), "g", "{name}"),
            Err(e) => panic!("{name}: {e}"),
        }
    }
    assert!(results[2].is_ok(), "{name}: {:?}", results[2]);
}

fn run_places(kinds: &[&'static str], places: &[&'static str]) {
    for &kind in kinds {
        for &place in places {
            let name = format!("{kind} in {place}");
            on_small_stack(&name.clone(), move || {
                let env = BoundsEnv::from_json(ENV).unwrap_or_else(|e| panic!("{e}"));
                let t0 = std::time::Instant::now();
                let text = pipeline(place, kind);
                let s =
                    parse_stmt_with_env(&text, &env.parse_env()).unwrap_or_else(|e| panic!("{name}: {e}"));
                let results = every_pass(&s, &env);
                eprintln!("{name}: {results:?} in {:?}", t0.elapsed());
                check(&name, &results);
                drop(s);
            });
        }
    }
}

#[test]
fn deep_index_expressions_of_every_kind() {
    run_places(
        &["add", "arith", "select", "not", "and", "cast", "let", "let_value", "call", "extern", "load"],
        &["f index"],
    );
}

#[test]
fn deep_values_of_every_kind() {
    run_places(&["add", "select", "let_value", "load"], &["f value", "g value"]);
}

#[test]
fn deep_loop_bounds_let_values_and_conditions() {
    run_places(
        &["add", "select", "let", "let_value", "cast"],
        &["loop bound", "let value", "if condition", "guard"],
    );
}

#[test]
fn a_hundred_thousand_nested_loops() {
    on_small_stack("loops", || {
        const N: usize = 100_000;
        let env = BoundsEnv::from_json(ENV).unwrap_or_else(|e| panic!("{e}"));
        // f's pure loop and, inside it, N loops of f's stage that it splits into, around
        // f(f.s0.x) = g(f.s0.x + 1); then the same nest of loops that no stage owns.
        let text = pipeline("", "add").replace("g(f.s0.x)", "g(f.s0.x + 1)");
        let s = parse_stmt_with_env(&text, &env.parse_env()).unwrap_or_else(|e| panic!("{e}"));
        for stage_loops in [true, false] {
            let nest = |body: &Stmt| {
                (0..N).fold(body.clone(), |inner, i| {
                    let name = if stage_loops { format!("f.s0.x.v{i}") } else { format!("k{i}") };
                    Stmt::for_loop(
                        name.as_str(),
                        MinMax { min: Expr::i32(0), max: Expr::i32(1) },
                        ForType::Serial,
                        DeviceApi::None,
                        inner,
                    )
                    .unwrap_or_else(|e| panic!("{e}"))
                })
            };
            let deep = rewrite_provide(&s, "f", &nest);
            let t0 = std::time::Instant::now();
            let results = every_pass(&deep, &env);
            eprintln!("{N} nested loops (stage loops: {stage_loops}): {results:?} in {:?}", t0.elapsed());
            check("nested loops", &results);
            for r in &results {
                assert!(r.is_ok(), "{r:?}");
            }
        }
    });
}

/// `s` with the Provide of `func` replaced by `wrap(provide)`.
fn rewrite_provide(s: &Stmt, func: &str, wrap: &dyn Fn(&Stmt) -> Stmt) -> Stmt {
    struct Wrap<'a> {
        func: &'a str,
        wrap: &'a dyn Fn(&Stmt) -> Stmt,
    }
    impl loopir::Mutator for Wrap<'_> {
        fn mutate_stmt(&mut self, s: &Stmt) -> Stmt {
            match s.kind() {
                loopir::StmtKind::Provide { name, .. } if name.as_ref() == self.func => (self.wrap)(s),
                _ => self.super_stmt(s),
            }
        }
    }
    loopir::Mutator::mutate_stmt(&mut Wrap { func, wrap }, s)
}

/// A `produce` block of 1,000,000 Provides: all the same definition (one definition,
/// inferred), or all different (refused: not one definition and not a specialization
/// tree).
#[test]
fn a_block_of_a_million_provides() {
    on_small_stack("block", || {
        const N: usize = 1_000_000;
        let env = BoundsEnv::from_json(ENV).unwrap_or_else(|e| panic!("{e}"));
        for same in [true, false] {
            let mut text = String::from("produce f {\n");
            for i in 0..N {
                let index = if same { "f.s0.x".to_owned() } else { i.to_string() };
                let _ = writeln!(text, " f(f.s0.x) = g({index}) + f.s0.x");
            }
            text.push_str("}\n");
            let s = parse_stmt_with_env(&text, &env.parse_env()).unwrap_or_else(|e| panic!("{e}"));
            let computed = computation_bounds_inference(&Ctx::new(), &s, &env).map(|s| leading_lets(&s));
            if same {
                assert_eq!(computed.as_deref(), Ok("f.s0.x.max f.s0.x.min"), "{same}");
            } else {
                assert!(
                    matches!(&computed, Err(BoundsError::Unsupported(m)) if m.starts_with("specializations of f.s0")),
                    "{computed:?}"
                );
            }
            let definitions = func_value_bounds_of_definitions(&s, &env);
            let allocated = allocation_bounds_inference(&s, &env, &definitions, 0).map(|s| leading_lets(&s));
            assert_eq!(allocated.as_deref(), Ok(""), "{same}");
            let ctx = Ctx::new();
            let boxes = boxes_touched(&ctx, &s, &Scope::new(), &FuncValueBounds::default())
                .unwrap_or_else(|e| panic!("{e}"));
            assert_eq!(boxes.len(), 2, "{same}");
        }
    });
}
