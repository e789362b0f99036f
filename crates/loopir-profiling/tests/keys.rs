//! Stable entry keys (issue #7): a row's key depends on its IR name, its kind and its
//! parent's key only, so it survives unrelated changes to the pipeline (another Func
//! added, rows renumbered, another level, pipeline name or display name) and changes when
//! the row's nesting changes.

use loopir::Stmt;
use loopir_profiling::{
    Entry, EntryKey, EntryKind, FuncEnv, FuncInfo, ProfileOptions, Profiled, inject_profiling,
};

fn profile(text: &str, env: &FuncEnv, pipeline: &str, options: ProfileOptions) -> Profiled {
    let stmt: Stmt = loopir::parse_stmt(text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    inject_profiling(&stmt, pipeline, env, &options).unwrap_or_else(|e| panic!("{e}"))
}

fn rows_named<'a>(p: &'a Profiled, ir_name: &str) -> Vec<&'a Entry> {
    p.entries.iter().filter(|e| e.ir_name == ir_name).collect()
}

fn key_of(p: &Profiled, ir_name: &str) -> EntryKey {
    let rows = rows_named(p, ir_name);
    assert_eq!(rows.len(), 1, "one row named {ir_name}: {}", p.entries);
    rows[0].key
}

fn read_case(case: &str) -> (String, FuncEnv) {
    let dir = loopir_testkit::oracle::case(case);
    let read = |f: &str| std::fs::read_to_string(dir.join(f)).unwrap_or_else(|e| panic!("{case}/{f}: {e}"));
    (read("profile.input.stmt"), FuncEnv::from_json(&read("profile.env.json")).expect("valid env"))
}

#[test]
fn keys_survive_adding_a_func_elsewhere() {
    for case in [
        "two_stage_root.cpu",
        "compute_at_nesting.cpu",
        "hoist_storage.cpu",
        "async_producer.cpu",
        "app_unsharp.cuda",
    ] {
        let (text, env) = read_case(case);
        let before = profile(&text, &env, "out", ProfileOptions::ALL);
        // A new Func computed first, at the root: every later row gets a new id.
        let extra = format!("produce zz_extra {{\n zz_extra[0] = 1.000000f\n}}\n{text}");
        let after = profile(&extra, &env.clone().with(FuncInfo::new("zz_extra")), "out", ProfileOptions::ALL);
        assert_eq!(after.entries.len(), before.entries.len() + 1, "{case}");
        let mut renumbered = 0;
        for e in before.entries.iter() {
            let Some(same) = after.entries.by_key(e.key) else {
                panic!("{case}: row {} ({}) lost its key {}", e.id, e.display_name, e.key)
            };
            assert_eq!(
                (&same.ir_name, same.kind, &same.display_name),
                (&e.ir_name, e.kind, &e.display_name),
                "{case}"
            );
            renumbered += usize::from(same.id != e.id);
        }
        assert!(renumbered > 0, "{case}: the new Func renumbers the rows after it");
    }
}

const TWO_ROOTS: &str = "produce f {\n f[0] = 1.000000f\n}\nproduce g {\n g[0] = 2.000000f\n}\n";
const TWO_ROOTS_SWAPPED: &str = "produce g {\n g[0] = 2.000000f\n}\nproduce f {\n f[0] = 1.000000f\n}\n";

#[test]
fn keys_survive_renumbering_and_everything_but_identity() {
    let env = FuncEnv::new().with(FuncInfo::new("f")).with(FuncInfo::new("g"));
    let a = profile(TWO_ROOTS, &env, "p", ProfileOptions::ALL);
    let b = profile(TWO_ROOTS_SWAPPED, &env, "p", ProfileOptions::ALL);
    assert_ne!(rows_named(&a, "f")[0].id, rows_named(&b, "f")[0].id, "the ids swap");
    assert_eq!(key_of(&a, "f"), key_of(&b, "f"));
    assert_eq!(key_of(&a, "g"), key_of(&b, "g"));
    // Neither the pipeline name, nor a display name, nor the level changes a key.
    let renamed =
        FuncEnv::new().with(FuncInfo::new("f").with_display_name("f (input)")).with(FuncInfo::new("g"));
    let c = profile(TWO_ROOTS, &renamed, "another", ProfileOptions::level(1).expect("level 1"));
    assert_eq!(rows_named(&c, "f")[0].display_name, "f (input)");
    assert_eq!(key_of(&c, "f"), key_of(&a, "f"));
    // The bookkeeping rows have the same keys in every table.
    for (x, y) in a.entries.iter().zip(c.entries.iter()).take(4) {
        assert_eq!(x.key, y.key);
    }
}

#[test]
fn keys_change_when_nesting_changes() {
    let env = FuncEnv::new().with(FuncInfo::new("f")).with(FuncInfo::new("g"));
    // f computed at the root, then inside g's loop (compute_at), then with its storage
    // hoisted out of g (an allocation row at the root beside the production row in g).
    let root = "allocate f[float32 * 100]\nproduce f {\n f[0] = 1.000000f\n}\nproduce g {\n consume f {\n  g[0] = f[0]\n }\n}\nfree f\n";
    let inner = "produce g {\n for (g.s0.y, 0, 9) {\n  allocate f[float32 * 100]\n  produce f {\n   f[0] = 1.000000f\n  }\n  consume f {\n   g[0] = f[0]\n  }\n  free f\n }\n}\n";
    let hoisted = "allocate f[float32 * 100]\nproduce g {\n for (g.s0.y, 0, 9) {\n  produce f {\n   f[0] = 1.000000f\n  }\n  consume f {\n   g[0] = f[0]\n  }\n }\n}\nfree f\n";
    let a = profile(root, &env, "p", ProfileOptions::ALL);
    let b = profile(inner, &env, "p", ProfileOptions::ALL);
    let c = profile(hoisted, &env, "p", ProfileOptions::ALL);
    // g did not move: same key everywhere.
    assert_eq!(key_of(&a, "g"), key_of(&b, "g"));
    assert_eq!(key_of(&a, "g"), key_of(&c, "g"));
    // f moved under g: new key, derived from g's.
    assert_ne!(key_of(&a, "f"), key_of(&b, "f"));
    assert_eq!(key_of(&b, "f"), EntryKey::derive(Some(key_of(&b, "g")), EntryKind::Func, "f"));
    // Hoisting the storage keeps the production row's key and adds an allocation row whose
    // key differs from a root production row of the same name (the kind is hashed).
    let c_rows = rows_named(&c, "f");
    assert_eq!(c_rows.len(), 2);
    let (alloc, prod) = (c_rows[0], c_rows[1]);
    assert_eq!((alloc.kind, alloc.parent), (EntryKind::Allocation, None));
    assert_eq!(prod.key, key_of(&b, "f"));
    assert_ne!(alloc.key, key_of(&a, "f"));
    assert_eq!(alloc.key, EntryKey::derive(None, EntryKind::Allocation, "f"));
}

#[test]
fn keys_are_unique_in_every_oracle_table() {
    let mut cases = 0;
    for entry in std::fs::read_dir(loopir_testkit::oracle::cases()).expect("oracle cases") {
        let dir = entry.expect("directory entry").path();
        if !dir.join("profile.input.stmt").exists() {
            continue;
        }
        let case = dir.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        let (text, env) = read_case(&case);
        let p = profile(&text, &env, "out", ProfileOptions::ALL);
        let mut keys: Vec<EntryKey> = p.entries.iter().map(|e| e.key).collect();
        keys.sort_unstable();
        keys.dedup();
        assert_eq!(keys.len(), p.entries.len(), "{case}: duplicate keys");
        // Without collisions every key is the plain hash of its row.
        for e in p.entries.iter() {
            let parent = e.parent.and_then(|id| p.entries.get(id)).map(|p| p.key);
            assert_eq!(e.key, EntryKey::derive(parent, e.kind, &e.ir_name), "{case}: {}", e.display_name);
        }
        cases += 1;
    }
    assert!(cases >= 49, "{cases} oracle cases");
}
