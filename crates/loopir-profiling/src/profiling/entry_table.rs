//! The profiler's entry table: one row per thing the runtime bills time or memory to.
//!
//! Row ids are dense and assigned in creation order; the runtime's
//! `halide_profiler_func_stats` array is indexed by them. A row is identified by its
//! IR name *and* its parent row, so one Func realized under two producers gets two rows;
//! rows that share an IR name share a canonical id (the first row made for that name).
//!
//! Ids change whenever anything earlier in the walk changes. Each row therefore also has a
//! stable [`EntryKey`]: a 64-bit hash of its IR name, its kind and its parent's key, so
//! that profiles of two compilations can be joined row by row.

use rustc_hash::FxHashMap;
use serde::Serialize;
use smallvec::SmallVec;

use super::env::FuncEnv;

/// What a row accounts for (`enum halide_profiler_func_kind`; the discriminant is the
/// runtime's value).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
#[repr(i32)]
pub enum EntryKind {
    /// The production of a Func.
    Func = 0,
    /// Bookkeeping row 0: time outside any Func.
    Overhead = 1,
    /// Bookkeeping row 1: time a worker thread spends idle.
    ThreadIdle = 2,
    /// Bookkeeping row 2: time spent in allocation.
    Malloc = 3,
    /// Bookkeeping row 3: time spent in release.
    Free = 4,
    /// A `halide_copy_to_host` site.
    CopyToHost = 5,
    /// A `halide_copy_to_device` site.
    CopyToDevice = 6,
    /// An allocation site with no production row of its own (hoisted storage, fused
    /// `allocgroup__` buffers, temporaries, tuple components).
    Allocation = 7,
}

impl EntryKind {
    /// The runtime's numeric value of the kind.
    pub fn code(self) -> i32 {
        self as i32
    }
}

/// A row's stable identity: a 64-bit FNV-1a hash of its IR name, its kind and its
/// parent's key (so the whole parent chain), independent of row ids.
///
/// A key survives any change that leaves the row's own IR name, kind and chain of
/// ancestors alone — adding, removing or reordering other Funcs, renumbering, a different
/// pipeline name, display-name overrides, other profiling levels — and changes when the
/// row moves under a different parent (a Func computed at another level), is renamed, or
/// changes kind (storage hoisted out of its producer).
///
/// The hash input is, in order: the parent's key as 8 little-endian bytes (or the single
/// byte `0xff` for a root row), the kind's runtime code as one byte, then the IR name's
/// UTF-8 bytes. Rows of one table have distinct (parent, IR name) pairs, so two rows get
/// the same hash only by a genuine 64-bit collision; then the later row (in id order) is
/// re-keyed by hashing its key with a counter (1, 2, …) until the key is unused. Keys are
/// therefore unique within a table; in the (≈ n²/2⁶⁵) collision case the later row's key
/// depends on which row came first.
///
/// Keys print and serialise as 16 lower-case hex digits (as a JSON string, so that tools
/// reading numbers as doubles do not round them).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct EntryKey(pub u64);

impl std::fmt::Display for EntryKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{:016x}", self.0)
    }
}

impl std::str::FromStr for EntryKey {
    type Err = std::num::ParseIntError;
    /// Reads the 16-hex-digit form that [`EntryKey`]'s `Display` writes.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        u64::from_str_radix(s, 16).map(EntryKey)
    }
}

impl Serialize for EntryKey {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

const FNV_OFFSET: u64 = 0xcbf2_9ce4_8422_2325;
const FNV_PRIME: u64 = 0x0000_0100_0000_01b3;

fn fnv1a(mut h: u64, bytes: &[u8]) -> u64 {
    for &b in bytes {
        h ^= u64::from(b);
        h = h.wrapping_mul(FNV_PRIME);
    }
    h
}

impl EntryKey {
    /// The key of a row named `ir_name` of kind `kind` under the row keyed `parent`
    /// (`None` for a root row), before collision handling.
    pub fn derive(parent: Option<EntryKey>, kind: EntryKind, ir_name: &str) -> EntryKey {
        let mut h = FNV_OFFSET;
        h = match parent {
            Some(p) => fnv1a(h, &p.0.to_le_bytes()),
            None => fnv1a(h, &[0xff]),
        };
        h = fnv1a(h, &[kind.code() as u8]);
        EntryKey(fnv1a(h, ir_name.as_bytes()))
    }

    /// The `n`-th re-key of a colliding key.
    fn salted(self, n: u64) -> EntryKey {
        let h = fnv1a(FNV_OFFSET, &self.0.to_le_bytes());
        EntryKey(fnv1a(h, &n.to_le_bytes()))
    }
}

/// One row of the table.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Entry {
    /// The row id (its index in the table).
    pub id: usize,
    /// The row's stable key (see [`EntryKey`]).
    pub key: EntryKey,
    /// The name the report shows.
    pub display_name: String,
    /// The IR name the row was made for (half of its identity, with `parent`).
    pub ir_name: String,
    /// The enclosing row, if any.
    pub parent: Option<usize>,
    /// The first row made for the same IR name.
    pub canonical_id: usize,
    /// What the row accounts for.
    pub kind: EntryKind,
    /// For copy rows: the canonical row of the Func whose buffer is copied, when that Func
    /// had been seen before the copy.
    pub buffer_func_id: Option<usize>,
    /// The static stack peak billed to the row, in bytes (0 when it has no stack use).
    pub stack_peak_bytes: u64,
}

/// The (parent, id) pairs of the rows made for one IR name, in creation order.
type RowsOfName = SmallVec<[(Option<usize>, usize); 2]>;

/// The rows of one profiled pipeline.
#[derive(Clone, Debug, Default)]
pub struct EntryTable {
    entries: Vec<Entry>,
    /// IR name → the (parent, id) pairs of its rows, in creation order; the first pair's id
    /// is the name's canonical id.
    by_name: FxHashMap<Box<str>, RowsOfName>,
}

/// The ids of the four bookkeeping rows.
pub(crate) const OVERHEAD_ID: usize = 0;
pub(crate) const THREAD_IDLE_ID: usize = 1;
pub(crate) const MALLOC_ID: usize = 2;
pub(crate) const FREE_ID: usize = 3;

impl EntryTable {
    /// A table holding the four bookkeeping rows (`overhead`, `thread idle`, `malloc`,
    /// `free`), ids 0–3.
    pub(crate) fn with_bookkeeping(env: &FuncEnv) -> EntryTable {
        let mut t = EntryTable::default();
        for (name, kind) in [
            ("overhead", EntryKind::Overhead),
            ("thread idle", EntryKind::ThreadIdle),
            ("malloc", EntryKind::Malloc),
            ("free", EntryKind::Free),
        ] {
            t.mint_or_get(name, None, kind, None, env);
        }
        t
    }

    /// The row for `(parent, ir_name)`, made with `kind` and `buffer_func_id` if there is
    /// none yet. An existing row is returned untouched, whatever `kind` says.
    pub(crate) fn mint_or_get(
        &mut self,
        ir_name: &str,
        parent: Option<usize>,
        kind: EntryKind,
        buffer_func_id: Option<usize>,
        env: &FuncEnv,
    ) -> usize {
        let id = self.entries.len();
        let canonical_id = match self.by_name.get_mut(ir_name) {
            Some(rows) => {
                if let Some(&(_, existing)) = rows.iter().find(|(p, _)| *p == parent) {
                    return existing;
                }
                let canonical = rows[0].1;
                rows.push((parent, id));
                canonical
            }
            None => {
                let mut rows = SmallVec::new();
                rows.push((parent, id));
                self.by_name.insert(ir_name.into(), rows);
                id
            }
        };
        let display_name = display_name_for(ir_name, kind, env);
        self.entries.push(Entry {
            id,
            display_name,
            ir_name: ir_name.to_owned(),
            parent,
            canonical_id,
            kind,
            buffer_func_id,
            stack_peak_bytes: 0,
            key: EntryKey::default(),
        });
        id
    }

    /// Computes every row's [`EntryKey`]; called once the table is final (kinds can still
    /// change until the end of enumeration).
    pub(crate) fn assign_keys(&mut self) {
        self.assign_keys_with(EntryKey::derive);
    }

    /// [`EntryTable::assign_keys`] with another hash (tests force collisions with it).
    pub(crate) fn assign_keys_with(
        &mut self,
        derive: impl Fn(Option<EntryKey>, EntryKind, &str) -> EntryKey,
    ) {
        let mut used: rustc_hash::FxHashSet<EntryKey> = Default::default();
        for i in 0..self.entries.len() {
            // A parent always has a smaller id than its children (it existed when they
            // were made), so its key is already final.
            let parent = self.entries[i].parent.filter(|&p| p < i).map(|p| self.entries[p].key);
            let e = &self.entries[i];
            let base = derive(parent, e.kind, &e.ir_name);
            let mut key = base;
            let mut n = 0;
            while !used.insert(key) {
                n += 1;
                key = base.salted(n);
            }
            self.entries[i].key = key;
        }
    }

    /// The row keyed `key`.
    pub fn by_key(&self, key: EntryKey) -> Option<&Entry> {
        self.entries.iter().find(|e| e.key == key)
    }

    /// The canonical id of `ir_name`, if a row was ever made for it.
    pub(crate) fn canonical_of(&self, ir_name: &str) -> Option<usize> {
        self.by_name.get(ir_name).map(|rows| rows[0].1)
    }

    pub(crate) fn set_kind(&mut self, id: usize, kind: EntryKind) {
        self.entries[id].kind = kind;
    }

    pub(crate) fn set_stack_peak(&mut self, id: usize, bytes: u64) {
        self.entries[id].stack_peak_bytes = bytes;
    }

    /// The number of rows.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether the table has no rows (true only for the table of a pass run with every
    /// feature off; otherwise it holds at least the bookkeeping rows).
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The row with id `id`.
    pub fn get(&self, id: usize) -> Option<&Entry> {
        self.entries.get(id)
    }

    /// The rows in id order.
    pub fn iter(&self) -> std::slice::Iter<'_, Entry> {
        self.entries.iter()
    }

    /// The rows as a slice, indexed by id.
    pub fn entries(&self) -> &[Entry] {
        &self.entries
    }

    /// The rows in report order: a depth-first walk from the roots, children in id order.
    /// Each item is `(entry, depth)`.
    pub fn tree_order(&self) -> Vec<(&Entry, usize)> {
        let n = self.entries.len();
        let mut children: Vec<Vec<usize>> = vec![Vec::new(); n];
        let mut roots = Vec::new();
        for e in &self.entries {
            match e.parent {
                Some(p) if p < n && p != e.id => children[p].push(e.id),
                _ => roots.push(e.id),
            }
        }
        let mut out = Vec::with_capacity(n);
        let mut visited = vec![false; n];
        // Explicit stack of (id, depth) so that deep nesting cannot overflow.
        let mut stack: Vec<(usize, usize)> = roots.iter().rev().map(|&r| (r, 0)).collect();
        while let Some((id, depth)) = stack.pop() {
            if std::mem::replace(&mut visited[id], true) {
                continue;
            }
            out.push((&self.entries[id], depth));
            stack.extend(children[id].iter().rev().map(|&c| (c, depth + 1)));
        }
        // Rows on a parent cycle (impossible for tables the pass builds) still get a row.
        for e in &self.entries {
            if !visited[e.id] {
                out.push((e, 0));
            }
        }
        out
    }

    /// The table as the first column of the profiler report: one line per row, in report
    /// order, nested with `├`, `└` and `│`. Allocation rows are marked `(allocation)`;
    /// copy rows carry `(copy to host)` / `(copy to device)` in their names. A name's
    /// backslashes and control characters are escaped (`\\`, `\n`, `\t`, `\r`,
    /// `\u{..}`), so that each row stays one line.
    pub fn render_tree(&self) -> String {
        self.render_tree_impl(false)
    }

    /// [`EntryTable::render_tree`] with each row's [`EntryKey`] in a first column.
    pub fn render_tree_with_keys(&self) -> String {
        self.render_tree_impl(true)
    }

    fn render_tree_impl(&self, keys: bool) -> String {
        let order = self.tree_order();
        // A row is the last of its siblings if no later row in report order shares its
        // parent before the parent's subtree ends; compute it from the child lists.
        let n = self.entries.len();
        let mut last_child_of: Vec<Option<usize>> = vec![None; n + 1];
        for &(e, _) in &order {
            let slot = e.parent.filter(|&p| p < n).unwrap_or(n);
            last_child_of[slot] = Some(e.id);
        }
        let is_last = |e: &Entry| {
            let slot = e.parent.filter(|&p| p < n).unwrap_or(n);
            last_child_of[slot] == Some(e.id)
        };
        let mut out = String::new();
        for &(e, depth) in &order {
            if keys {
                out.push_str(&e.key.to_string());
                out.push_str("  ");
            }
            if depth > 0 {
                // Ancestors at depths 1 ..= depth-1 draw a continuation bar unless they
                // were the last of their siblings; the row itself draws its connector.
                let mut lineage = Vec::with_capacity(depth);
                let mut cur = e;
                for _ in 0..depth {
                    lineage.push(cur);
                    match cur.parent.and_then(|p| self.entries.get(p)) {
                        Some(p) => cur = p,
                        None => break,
                    }
                }
                lineage.reverse();
                for anc in &lineage[..lineage.len() - 1] {
                    out.push_str(if is_last(anc) { " " } else { "│" });
                }
                out.push_str(if is_last(e) { "└" } else { "├" });
            }
            push_escaped(&mut out, &e.display_name);
            if e.kind == EntryKind::Allocation {
                out.push_str(" (allocation)");
            }
            out.push('\n');
        }
        out
    }

    /// The rows as a JSON array of objects (`id`, `key` as 16 hex digits, `display_name`,
    /// `ir_name`, `parent`, `canonical_id`, `kind`, `buffer_func_id`, `stack_peak_bytes`).
    pub fn to_json(&self) -> String {
        // Serialising strings and integers into a String cannot fail.
        serde_json::to_string_pretty(&self.entries).unwrap_or_default()
    }
}

impl Serialize for EntryTable {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.entries.serialize(s)
    }
}

impl<'a> IntoIterator for &'a EntryTable {
    type Item = &'a Entry;
    type IntoIter = std::slice::Iter<'a, Entry>;
    fn into_iter(self) -> Self::IntoIter {
        self.entries.iter()
    }
}

/// The report name of a new row: a Func's display-name override (exact name only), or the
/// member list of a fused `allocgroup__` buffer, or the IR name itself.
/// Appends `name` with `\` and control characters (line breaks above all) escaped.
fn push_escaped(out: &mut String, name: &str) {
    for c in name.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if c.is_control() || matches!(c, '\u{2028}' | '\u{2029}') => {
                out.extend(c.escape_unicode());
            }
            c => out.push(c),
        }
    }
}

fn display_name_for(ir_name: &str, kind: EntryKind, env: &FuncEnv) -> String {
    match kind {
        EntryKind::Func => {
            if let Some(d) = env.get(ir_name).and_then(|f| f.display_name.as_deref())
                && !d.is_empty()
            {
                return d.to_owned();
            }
        }
        EntryKind::Allocation if ir_name.starts_with("allocgroup__") => {
            // `allocgroup__a.0__b.1.buffer` lists its members after the tag; a plain split
            // keeps empty pieces, as the reference does.
            let mut pieces = ir_name.split("__");
            pieces.next();
            let mut s = String::with_capacity(ir_name.len());
            for (i, p) in pieces.enumerate() {
                if i > 0 {
                    s.push(',');
                }
                s.push_str(p);
            }
            return s;
        }
        _ => {}
    }
    ir_name.to_owned()
}

impl std::fmt::Display for EntryTable {
    /// One line per row in id order: id, display name, parent, canonical id, kind and
    /// buffer Func id (-1 for none, as the runtime tables spell it).
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        for e in &self.entries {
            let parent = e.parent.map_or(-1, |p| p as i64);
            let bfid = e.buffer_func_id.map_or(-1, |p| p as i64);
            writeln!(
                f,
                "{:>3} {:?} parent={parent} canonical={} kind={:?} buffer_func_id={bfid}",
                e.id, e.display_name, e.canonical_id, e.kind
            )?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn table() -> EntryTable {
        let env = FuncEnv::new();
        let mut t = EntryTable::with_bookkeeping(&env);
        let g = t.mint_or_get("g", None, EntryKind::Func, None, &env);
        t.mint_or_get("f", Some(g), EntryKind::Func, None, &env);
        t.mint_or_get("f", None, EntryKind::Func, None, &env);
        t
    }

    #[test]
    fn keys_are_fnv1a_of_parent_kind_and_name() {
        // Pinned values (checked against an independent FNV-1a implementation): keys are
        // a contract between compilations, so the algorithm must not drift.
        let mut t = table();
        t.assign_keys();
        let keys: Vec<String> = t.iter().map(|e| e.key.to_string()).collect();
        assert_eq!(keys[0], "95c10e84b096a60d");
        assert_eq!(keys[4], "f920ac1be415a097");
        assert_eq!(keys[5], "26e7e3daf0eeecf9");
        // `f` under `g` and `f` at the root are different rows with different keys.
        assert_ne!(keys[5], keys[6]);
        assert_eq!(t.by_key(t.entries()[5].key).map(|e| e.id), Some(5));
        assert_eq!("26e7e3daf0eeecf9".parse::<EntryKey>(), Ok(EntryKey(0x26e7_e3da_f0ee_ecf9)));
        assert_eq!(serde_json::to_string(&t.entries()[5].key).ok().as_deref(), Some("\"26e7e3daf0eeecf9\""));
    }

    #[test]
    fn colliding_keys_are_salted_in_id_order() {
        // A degenerate hash makes every row collide; keys stay unique and deterministic,
        // and the first row keeps the unsalted key.
        let mut a = table();
        a.assign_keys_with(|_, _, _| EntryKey(42));
        let keys: Vec<EntryKey> = a.iter().map(|e| e.key).collect();
        assert_eq!(keys[0], EntryKey(42));
        let unique: rustc_hash::FxHashSet<EntryKey> = keys.iter().copied().collect();
        assert_eq!(unique.len(), keys.len());
        let mut b = table();
        b.assign_keys_with(|_, _, _| EntryKey(42));
        assert_eq!(keys, b.iter().map(|e| e.key).collect::<Vec<_>>());
        // Only the colliding pair is affected: with a hash that collides on `f` alone, the
        // other rows keep their ordinary keys.
        let mut c = table();
        c.assign_keys_with(|p, k, n| if n == "f" { EntryKey(7) } else { EntryKey::derive(p, k, n) });
        assert_eq!(c.entries()[5].key, EntryKey(7));
        assert_ne!(c.entries()[6].key, EntryKey(7));
        assert_eq!(c.entries()[4].key.to_string(), "f920ac1be415a097");
    }
}
