//! Deep and long IR must not overflow the stack: long sequences, long let chains and deep
//! loop nests are walked with bounded native stack.

use loopir::{DeviceApi, Expr, ForType, Stmt};
use loopir_profiling::{FuncEnv, FuncInfo, ProfileOptions, inject_profiling};

fn store(i: i32) -> Stmt {
    Stmt::store("g", Expr::i32(i), Expr::i32(0), Expr::const_true(), Default::default())
        .expect("well-typed store")
}

#[test]
fn long_sequences_and_deep_nests_are_instrumented() {
    // A 200k-statement block inside a 20k-deep let chain inside a 5k-deep loop nest.
    let mut body = Stmt::block((0..200_000).map(store).collect());
    for i in 0..20_000 {
        body = Stmt::let_stmt(format!("t{i}"), Expr::i32(i), body);
    }
    for i in 0..5_000 {
        body = Stmt::for_loop(
            format!("x{i}"),
            loopir::MinMax { min: Expr::i32(0), max: Expr::i32(3) },
            ForType::Serial,
            DeviceApi::None,
            body,
        )
        .expect("well-typed loop");
    }
    let stmt = Stmt::produce("g", body);
    let env = FuncEnv::new().with(FuncInfo::new("g"));
    let out = inject_profiling(&stmt, "deep", &env, &ProfileOptions::default()).expect("instrumentable");
    assert_eq!(out.entries.len(), 5);
    assert_eq!(out.entries.get(4).map(|e| e.display_name.as_str()), Some("g"));
}
