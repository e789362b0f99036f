//! [`NameGen`]: the one source of fresh names of a lowering run, with the semantics of the
//! reference's `unique_name` (Halide `src/Util.cpp` at 10162e89df).
//!
//! The reference has two families, both drawn from process-wide counters:
//!
//! * **character names** (`unique_name('t')`): the character followed by its counter,
//!   `t0`, `t1`, …; a `$` prefix is replaced by `_`;
//! * **prefixed names** (`unique_name("parallel_task")`): the prefix with every `$`
//!   turned into `_` (the *sanitized* prefix) keys the counter; the first draw returns the
//!   prefix unchanged, later ones `<sanitized>$<k>`. A prefix that looks like a name of
//!   either family (`t12`, `a$3`) never comes back unchanged: it gets `$0` on its first
//!   draw too, so no family can produce a name another family produces.
//!
//! Here the counters belong to one [`NameGen`], owned by the [`LowerCtx`](super::LowerCtx)
//! of a run: every pass of the run draws from it, so two passes never mint the same name,
//! and its state can be seeded from the environment (where the reference's counters stood
//! before the first pass) and read back after the run ([`NameGen::state`]). The reference
//! hashes prefixes into 16,384 buckets, so two prefixes can share a counter there; here
//! every sanitized prefix has its own counter, which differs from the reference only when
//! its hash collides.
//!
//! Besides its counters, the state records where the `t` names of the Func value bounds
//! table end, once that table has drawn them ([`NameGen::func_value_bounds_end`]). The
//! reference computes the table outside any pass, between tracing and computation bounds
//! inference, and the bounds passes number its names from this mark (`docs/pipeline.md`,
//! "The Func value bounds table").

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::dag::{self, Node};
use crate::expr::{ExprKind, Name, name};
use crate::stmt::{Stmt, StmtKind};

/// The largest counter value a [`NameGen`] can be seeded with: the reference's counters
/// are C `int`s.
pub const MAX_COUNTER: u64 = i32::MAX as u64;

/// The state of a [`NameGen`], as the environment's `fresh_names` field spells it:
/// `{"chars": {"t": 566}, "prefixes": {"parallel_task": 1}, "func_value_bounds_end": 566}`,
/// each counter the next number its family will draw (a family that is not listed starts
/// at 0), and where the Func value bounds table's `t` names end if it drew them already.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NameGenState {
    /// Character families (`unique_name('t')`), keyed by the one-character prefix.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub chars: BTreeMap<char, u64>,
    /// Prefixed families (`unique_name("lane")`), keyed by the sanitized prefix.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub prefixes: BTreeMap<String, u64>,
    /// One past the last `t` number of the Func value bounds table's names, when the
    /// table drew them before (the reference's state at the start of computation bounds
    /// inference, where a `bounds.env.json` reads its counter); at most the `t` counter.
    /// Not listed: the table has not drawn its names, and the first bounds pass that
    /// needs it draws them from the `t` counter.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub func_value_bounds_end: Option<u64>,
}

impl NameGenState {
    /// Whether no family is listed (a family listed at 0 is listed: it says where the
    /// counter stands) and the table's names are not placed.
    pub fn is_empty(&self) -> bool {
        self.chars.is_empty() && self.prefixes.is_empty() && self.func_value_bounds_end.is_none()
    }
}

/// A counter that is out of range (see [`MAX_COUNTER`]).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "fresh-name counter `{family}` = {value} is out of range: the reference's counters are at most {MAX_COUNTER}"
)]
pub struct CounterOutOfRange {
    /// The family (`t`, `parallel_task`).
    pub family: String,
    /// The value given.
    pub value: u64,
}

/// Hands out fresh names with the reference's `unique_name` semantics (see the module
/// docs).
///
/// ```
/// use loopir::pipeline::NameGen;
///
/// let mut names = NameGen::new();
/// assert_eq!(names.unique_char('t').as_ref(), "t0");
/// assert_eq!(names.unique_char('t').as_ref(), "t1");
/// assert_eq!(names.unique("parallel_task").as_ref(), "parallel_task");
/// assert_eq!(names.unique("parallel_task").as_ref(), "parallel_task$1");
/// // A prefix that looks like a generated name is never returned as it is.
/// assert_eq!(names.unique("t5").as_ref(), "t5$0");
/// assert_eq!(names.state().chars.get(&'t'), Some(&2));
/// ```
#[derive(Clone, Debug, Default)]
pub struct NameGen {
    chars: BTreeMap<char, u64>,
    prefixes: BTreeMap<String, u64>,
    func_value_bounds_end: Option<u64>,
    /// Every name drawn, in order, once [`NameGen::record`] was called.
    minted: Option<Vec<Name>>,
}

impl NameGen {
    /// A generator with every counter at 0.
    pub fn new() -> NameGen {
        NameGen::default()
    }

    /// A generator whose counters stand where `state` says.
    pub fn from_state(state: &NameGenState) -> Result<NameGen, CounterOutOfRange> {
        let mut g = NameGen::new();
        for (&c, &n) in &state.chars {
            g.set_next_char(c, n)?;
        }
        for (p, &n) in &state.prefixes {
            g.set_next_prefixed(p, n)?;
        }
        if let Some(end) = state.func_value_bounds_end {
            if end > MAX_COUNTER {
                return Err(CounterOutOfRange { family: "func_value_bounds_end".to_owned(), value: end });
            }
            g.func_value_bounds_end = Some(end);
        }
        Ok(g)
    }

    /// The state as it stands: the families that ever drew or were seeded, and the end
    /// of the Func value bounds table's names if they are placed.
    pub fn state(&self) -> NameGenState {
        NameGenState {
            chars: self.chars.clone(),
            prefixes: self.prefixes.clone(),
            func_value_bounds_end: self.func_value_bounds_end,
        }
    }

    /// One past the last `t` number of the Func value bounds table's names, if the table
    /// drew them: before the run (the environment says so) or in it (the first bounds
    /// pass that needed the table drew them from this generator and recorded where they
    /// end). `None`: the table has not drawn its names yet.
    pub fn func_value_bounds_end(&self) -> Option<u64> {
        self.func_value_bounds_end
    }

    /// Records that the Func value bounds table's `t` names end just before `end`.
    pub fn set_func_value_bounds_end(&mut self, end: u64) {
        self.func_value_bounds_end = Some(end);
    }

    /// Starts recording every name drawn (see [`NameGen::minted`]); tests use it to show
    /// that a run never mints a name twice.
    pub fn record(&mut self) {
        self.minted.get_or_insert_with(Vec::new);
    }

    /// The names drawn since [`NameGen::record`], in order.
    pub fn minted(&self) -> &[Name] {
        self.minted.as_deref().unwrap_or(&[])
    }

    fn note(&mut self, n: Name) -> Name {
        if let Some(m) = &mut self.minted {
            m.push(n.clone());
        }
        n
    }

    /// Sets the next number of the character family `c`.
    pub fn set_next_char(&mut self, c: char, next: u64) -> Result<(), CounterOutOfRange> {
        let c = if c == '$' { '_' } else { c };
        if next > MAX_COUNTER {
            return Err(CounterOutOfRange { family: c.to_string(), value: next });
        }
        self.chars.insert(c, next);
        Ok(())
    }

    /// Raises the next number of the character family `c` to at least `next` (a pass that
    /// must not capture the input's `t<N>` names raises `t` past them).
    pub fn raise_char(&mut self, c: char, next: u64) -> Result<(), CounterOutOfRange> {
        let now = self.next_char(c);
        if next > now { self.set_next_char(c, next) } else { Ok(()) }
    }

    /// The number the next [`NameGen::unique_char`] of `c` will draw.
    pub fn next_char(&self, c: char) -> u64 {
        let c = if c == '$' { '_' } else { c };
        self.chars.get(&c).copied().unwrap_or(0)
    }

    /// Sets the next number of the prefixed family of `prefix` (sanitized first).
    pub fn set_next_prefixed(&mut self, prefix: &str, next: u64) -> Result<(), CounterOutOfRange> {
        let key = sanitize(prefix);
        if next > MAX_COUNTER {
            return Err(CounterOutOfRange { family: key, value: next });
        }
        self.prefixes.insert(key, next);
        Ok(())
    }

    /// The number the next [`NameGen::unique`] of `prefix` will draw.
    pub fn next_prefixed(&self, prefix: &str) -> u64 {
        self.prefixes.get(&sanitize(prefix)).copied().unwrap_or(0)
    }

    /// `unique_name(c)`: `c` followed by the family's counter (`$` becomes `_`).
    pub fn unique_char(&mut self, c: char) -> Name {
        let c = if c == '$' { '_' } else { c };
        let counter = self.chars.entry(c).or_insert(0);
        let k = *counter;
        // Counters start at most at 2^31 - 1 and grow by one per draw: 2^64 draws are out
        // of reach, so the addition cannot overflow.
        *counter = k.saturating_add(1);
        self.note(name(&format!("{c}{k}")))
    }

    /// `unique_name(prefix)`: the prefix itself on the family's first draw (unless it looks
    /// like a generated name), `<sanitized prefix>$<k>` afterwards.
    pub fn unique(&mut self, prefix: &str) -> Name {
        let sanitized = sanitize(prefix);
        let looks_generated = looks_like_char_name(prefix) || looks_like_prefixed_name(prefix);
        let counter = self.prefixes.entry(sanitized).or_insert(0);
        let k = *counter;
        *counter = k.saturating_add(1);
        let n = if k == 0 && !looks_generated {
            name(prefix)
        } else {
            let mut s = sanitize(prefix);
            s.push('$');
            s.push_str(&k.to_string());
            name(&s)
        };
        self.note(n)
    }
}

/// The prefix with every `$` turned into `_`.
fn sanitize(prefix: &str) -> String {
    prefix.replace('$', "_")
}

/// Whether `s` looks like a name of a character family: more than one character, all
/// but the first of them digits.
fn looks_like_char_name(s: &str) -> bool {
    s.len() > 1 && s.bytes().skip(1).all(|b| b.is_ascii_digit())
}

/// Whether `s` looks like a name of a prefixed family, judged as the reference judges it:
/// exactly one `$`, and no character after the first that is not a digit once a `$` has
/// been seen (the `$` itself counts as such a character unless it comes first, so only
/// `$<digits>` qualifies; `x$7` does not and is returned unchanged on its first draw).
fn looks_like_prefixed_name(s: &str) -> bool {
    let mut dollars = 0;
    for (i, b) in s.bytes().enumerate() {
        if b == b'$' {
            dollars += 1;
        }
        if i > 0 && !b.is_ascii_digit() && dollars > 0 {
            return false;
        }
    }
    dollars == 1
}

/// One more than the largest `N` of a name `t<N>` that `stmt` binds (let, loop,
/// allocation, realization) or uses as a variable; 0 if there is none. Linear in the DAG.
///
/// The reference draws every `t<N>` from one counter for the whole compilation, so the
/// names a pass makes depend on how many the passes before it drew. A caller that knows
/// the counter seeds the [`NameGen`] with it; one that does not raises the `t` family
/// past this number ([`NameGen::raise_char`]), which keeps the new names from capturing
/// the input's, though it need not number them as the reference does.
///
/// ```
/// let s = loopir::parse_stmt("let t12 = x\nf(t3) = t12 + tx\n").unwrap();
/// assert_eq!(loopir::pipeline::first_unused_temp(&s), 13);
/// assert_eq!(loopir::pipeline::first_unused_temp(&loopir::parse_stmt("f(x) = 1\n").unwrap()), 0);
/// ```
pub fn first_unused_temp(stmt: &Stmt) -> u64 {
    let mut next = 0u64;
    let mut note = |n: &str| {
        if let Some(digits) =
            n.strip_prefix('t').filter(|d| !d.is_empty() && d.bytes().all(|b| b.is_ascii_digit()))
            && let Ok(k) = digits.parse::<u64>()
        {
            next = next.max(k.saturating_add(1));
        }
    };
    dag::for_each_node(stmt, |node| match node {
        Node::Stmt(s) => match s.kind() {
            StmtKind::LetStmt { name, .. }
            | StmtKind::For { name, .. }
            | StmtKind::Allocate { name, .. }
            | StmtKind::Realize { name, .. } => note(name),
            _ => {}
        },
        Node::Expr(e) => match e.kind() {
            ExprKind::Variable(name) | ExprKind::Let { name, .. } => note(name),
            _ => {}
        },
    });
    next
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn follows_the_reference_families() {
        let mut g = NameGen::new();
        assert_eq!(g.unique("lane").as_ref(), "lane");
        assert_eq!(g.unique("lane").as_ref(), "lane$1");
        // `$` is sanitized, and the sanitized prefix keys the counter.
        assert_eq!(g.unique("a$b").as_ref(), "a$b");
        assert_eq!(g.unique("a_b").as_ref(), "a_b$1");
        // Names that look generated get a suffix even on the first draw: `v12` looks like
        // a character name, `$3` like a prefixed one; `x$7` does not, by the reference's
        // scan (a `$` after the first character is itself a non-digit).
        assert_eq!(g.unique("v12").as_ref(), "v12$0");
        assert_eq!(g.unique("$3").as_ref(), "_3$0");
        assert_eq!(g.unique("x$7").as_ref(), "x$7");
        assert_eq!(g.unique("x$7").as_ref(), "x_7$1");
        assert_eq!(g.unique_char('$').as_ref(), "_0");
        assert_eq!(g.unique_char('t').as_ref(), "t0");
        // Character and prefixed families are separate counters, as in the reference.
        assert_eq!(g.unique("t").as_ref(), "t");
        assert_eq!(g.unique_char('t').as_ref(), "t1");
    }

    #[test]
    fn state_round_trips_and_is_checked() {
        let mut g = NameGen::new();
        g.set_next_char('t', 566).expect("in range");
        let _ = g.unique("parallel_task");
        let state = g.state();
        let json = serde_json::to_string(&state).expect("serializable");
        assert_eq!(json, r#"{"chars":{"t":566},"prefixes":{"parallel_task":1}}"#);
        let again = NameGen::from_state(&serde_json::from_str(&json).expect("parses")).expect("in range");
        assert_eq!(again.state(), state);
        let too_big = NameGenState { chars: [('t', MAX_COUNTER + 1)].into(), ..NameGenState::default() };
        assert!(NameGen::from_state(&too_big).is_err());
    }

    #[test]
    fn the_value_bounds_table_end_travels_with_the_counters() {
        let mut g = NameGen::new();
        assert_eq!(g.func_value_bounds_end(), None);
        g.set_next_char('t', 10).expect("in range");
        g.set_func_value_bounds_end(7);
        let json = serde_json::to_string(&g.state()).expect("serializable");
        assert_eq!(json, r#"{"chars":{"t":10},"func_value_bounds_end":7}"#);
        let again = NameGen::from_state(&serde_json::from_str(&json).expect("parses")).expect("in range");
        assert_eq!(again.func_value_bounds_end(), Some(7));
        assert!(!again.state().is_empty());
        let too_big =
            NameGenState { func_value_bounds_end: Some(MAX_COUNTER + 1), ..NameGenState::default() };
        assert_eq!(
            NameGen::from_state(&too_big).err().map(|e| e.family),
            Some("func_value_bounds_end".to_owned())
        );
    }

    #[test]
    fn the_first_unused_temp_is_past_every_bound_and_used_t_name() {
        let named = |text: &str| first_unused_temp(&crate::parse_stmt(text).expect("parses"));
        assert_eq!(named("realize t7([0, 4]) {\n  t7(0) = 1\n}\n"), 8);
        assert_eq!(named("for (t4, 0, 9) {\n f(t4) = (let t9 = 1 in t9)\n}\n"), 10);
        assert_eq!(named("allocate t2[int32 * 4]\nt2[0] = t03\nfree t2\n"), 4);
        assert_eq!(named("f(x) = tx + t1a\n"), 0);
    }

    #[test]
    fn raising_never_lowers() {
        let mut g = NameGen::new();
        g.raise_char('t', 5).expect("in range");
        g.raise_char('t', 2).expect("in range");
        assert_eq!(g.unique_char('t').as_ref(), "t5");
    }

    #[test]
    fn records_what_it_mints() {
        let mut g = NameGen::new();
        let _ = g.unique_char('t');
        g.record();
        let _ = g.unique_char('t');
        let _ = g.unique("lane");
        let minted: Vec<&str> = g.minted().iter().map(|n| n.as_ref()).collect();
        assert_eq!(minted, ["t1", "lane"]);
    }
}
