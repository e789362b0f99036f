//! The bounds crate's analyses checked by execution, on random expressions:
//! - every simplifier rewrite keeps the value;
//! - every value lies inside the interval `bounds_of_expr_in_scope` gives;
//! - every read lies inside the box `boxes_required` gives.
//!
//! Expressions mix int32 arithmetic (division and modulo included) with narrow types
//! that wrap (uint8, int16, uint16), selects, comparisons and logic. Variables and
//! constants are small and trees shallow, so int32 arithmetic never overflows: the
//! simplifier may assume that it does not, as the reference's does.

use loopir::build::{self, cast, const_of, select};
use loopir::{BinOp, Expr, Type};
use loopir_bounds::{FuncValueBounds, bounds_of_expr_in_scope, boxes_required};
use loopir_interp::eval::Evaluator;
use loopir_interp::{Buffer, Dim, Elem, HostRuntime, Limits, Machine, compile};
use loopir_simplify::{Bound, Ctx, Interval, Scope, simplify_expr};
use proptest::prelude::*;

const VARS: [&str; 3] = ["x", "y", "z"];

fn leaf() -> impl Strategy<Value = Expr> {
    prop_oneof![(0..VARS.len()).prop_map(|k| build::var(VARS[k])), (-8i32..=8).prop_map(build::int),]
}

/// A narrow integer type: arithmetic in it wraps, which the simplifier must keep.
fn narrow() -> impl Strategy<Value = Type> {
    prop_oneof![
        Just(Type::uint(8, 1)),
        Just(Type::int(16, 1)),
        Just(Type::uint(16, 1)),
        Just(Type::int(8, 1))
    ]
}

fn int_expr() -> impl Strategy<Value = Expr> {
    leaf().prop_recursive(3, 24, 3, |inner| {
        let op = prop_oneof![
            Just(BinOp::Add),
            Just(BinOp::Sub),
            Just(BinOp::Mul),
            Just(BinOp::Div),
            Just(BinOp::Mod),
            Just(BinOp::Min),
            Just(BinOp::Max),
        ];
        let cmp = prop_oneof![Just(BinOp::Lt), Just(BinOp::Le), Just(BinOp::Eq), Just(BinOp::Ne)];
        prop_oneof![
            (op.clone(), inner.clone(), inner.clone()).prop_map(|(op, a, b)| build::binary(op, a, b)),
            (cmp, inner.clone(), inner.clone(), inner.clone(), inner.clone())
                .prop_map(|(op, a, b, t, f)| select(build::binary(op, a, b), t, f)),
            // A detour through a narrow type: `int32(uint8(a) op uint8(b))` wraps there.
            (narrow(), op, inner.clone(), inner.clone()).prop_map(|(t, op, a, b)| {
                let narrowed = build::binary(op, cast(t, a), cast(t, b));
                cast(Type::INT32, narrowed)
            }),
            (inner.clone(), inner.clone(), inner).prop_map(|(a, b, c)| {
                let both = build::binary(
                    BinOp::And,
                    build::binary(BinOp::Lt, a.clone(), b),
                    build::binary(BinOp::Ne, a, c.clone()),
                );
                select(both, c, build::int(1))
            }),
        ]
    })
}

fn point() -> impl Strategy<Value = [i32; 3]> {
    [-8i32..=8, -8i32..=8, -8i32..=8]
}

fn values(p: &[i32; 3]) -> Vec<(&'static str, u64)> {
    VARS.iter().zip(p).map(|(n, v)| (*n, *v as i64 as u64)).collect()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 160, ..ProptestConfig::default() })]

    #[test]
    fn the_simplifier_keeps_values(e in int_expr(), points in proptest::collection::vec(point(), 4)) {
        let simplified = simplify_expr(&Ctx::new(), &e);
        let (before, after) = (Evaluator::new(&e).expect("compiles"), Evaluator::new(&simplified).expect("compiles"));
        for p in &points {
            let Ok(want) = before.eval(&values(p)) else { continue };
            let got = after.eval(&values(p));
            prop_assert_eq!(got.as_ref().ok(), Some(&want), "{} simplified to {} at {:?}: {:?}", e, simplified, p, got);
        }
    }

    #[test]
    fn values_lie_inside_their_bounds(
        e in int_expr(),
        lo in [-8i32..=8, -8i32..=8],
        width in [0i32..=6, 0i32..=6],
        points in proptest::collection::vec(point(), 4),
    ) {
        let ctx = Ctx::new();
        let mut scope = Scope::new();
        let _x = scope.push("x", Interval::new(build::int(lo[0]), build::int(lo[0] + width[0])));
        let _y = scope.push("y", Interval::new(build::int(lo[1]), build::int(lo[1] + width[1])));
        let interval = bounds_of_expr_in_scope(&ctx, &e, &scope, &FuncValueBounds::default(), false);
        let eval = Evaluator::new(&e).expect("compiles");
        for p in &points {
            // A point of the box (z is free: the bounds may depend on it).
            let at = [lo[0] + p[0].rem_euclid(width[0] + 1), lo[1] + p[1].rem_euclid(width[1] + 1), p[2]];
            let Ok(v) = eval.eval(&values(&at)) else { continue };
            let v = v[0] as i64;
            let end = |b: &Bound| -> Option<i64> {
                let e = b.as_expr()?;
                Some(Evaluator::new(e).ok()?.eval(&values(&at)).ok()?[0] as i64)
            };
            if let Some(min) = end(&interval.min) {
                prop_assert!(v >= min, "{} = {} at {:?} is below {}", e, v, at, interval.pretty());
            }
            if let Some(max) = end(&interval.max) {
                prop_assert!(v <= max, "{} = {} at {:?} is above {}", e, v, at, interval.pretty());
            }
        }
    }

    #[test]
    fn reads_lie_inside_the_required_box(
        e1 in int_expr(),
        e2 in int_expr(),
        lo in [-8i32..=8, -8i32..=8],
        width in [0i32..=5, 0i32..=5],
        z in -8i32..=8,
    ) {
        // for (y) for (x) out(x, y) = g(e1, e2): every coordinate of g it reads must lie in
        // the box boxes_required gives for g.
        let g = build::image_call("g", Type::INT32, vec![e1.clone(), e2.clone()]);
        let body = build::provide("out", vec![g], vec![build::var("x"), build::var("y")]);
        let inner = build::for_loop("x", build::int(lo[0]), build::int(lo[0] + width[0]), body);
        let nest = build::for_loop("y", build::int(lo[1]), build::int(lo[1] + width[1]), inner);
        let stmt = build::let_stmt("z", build::int(z), nest);
        let ctx = Ctx::new();
        let boxes = boxes_required(&ctx, &stmt, &Scope::new(), &FuncValueBounds::default()).expect("boxes");
        let region = boxes.get("g").expect("g is read").clone();

        let program = compile(&stmt).expect("compiles");
        let mut runtime = HostRuntime::new();
        let mut m = Machine::new(&program, &mut runtime, Limits::default()).expect("machine");
        m.bind_buffer("out", &Buffer::new(Elem::I32, &[lo[0], lo[1]], &[width[0] + 1, width[1] + 1])).expect("out");
        // g holds one element far away: every read is recorded as outside it.
        let far = Dim { min: 1 << 20, extent: 1, stride: 1 };
        m.bind_buffer("g", &Buffer::with_dims(Elem::I32, vec![far, Dim { stride: 1, ..far }])).expect("g");
        m.set_probing(true);
        if m.run().is_err() {
            return Ok(());
        }
        let read = m.probed_boxes().remove("g").expect("g was read");
        for (d, (rlo, rhi)) in read.iter().enumerate() {
            let b = &region.bounds[d];
            let end = |b: &Bound| b.as_expr().and_then(|e| Evaluator::new(e).ok()?.eval(&[]).ok()).map(|v| v[0] as i64);
            if let Some(min) = end(&b.min) {
                prop_assert!(*rlo >= min, "g is read at {} in dimension {}, below {} of {}", rlo, d, b.pretty(), stmt);
            }
            if let Some(max) = end(&b.max) {
                prop_assert!(*rhi <= max, "g is read at {} in dimension {}, above {} of {}", rhi, d, b.pretty(), stmt);
            }
        }
    }
}

#[test]
fn narrow_arithmetic_wraps_in_the_interpreter_and_the_simplifier_agrees() {
    // uint8(250) + uint8(10) wraps to 4; the simplifier folds it the same way.
    let e = cast(
        Type::INT32,
        build::binary(
            BinOp::Add,
            const_of(Type::uint(8, 1), 250).expect("fits"),
            cast(Type::uint(8, 1), build::int(10)),
        ),
    );
    let eval = Evaluator::new(&e).expect("compiles");
    assert_eq!(eval.eval(&[]).expect("runs"), vec![4]);
    let folded = simplify_expr(&Ctx::new(), &e);
    assert_eq!(Evaluator::new(&folded).expect("compiles").eval(&[]).expect("runs"), vec![4], "{folded}");
}
