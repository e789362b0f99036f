//! The sampling profiler's runtime: what the `halide_profiler_*` calls of a profiled
//! pipeline record, and the report the reference runtime prints from it.
//!
//! [`Profiler`] keeps the statistics the reference runtime keeps (per pipeline and per
//! entry of its table: time, active threads, heap allocations, current, peak and total
//! memory, stack peak), but bills time by a deterministic clock instead of sampling a
//! wall clock: by default every operation the interpreter executes costs
//! [`NS_PER_OPERATION`] nanoseconds, billed to the entry that is current when it
//! executes ([`ProfileClock::Operations`]), so that two runs of one program print the
//! same report. Each billing of a stretch of time between two profiler calls counts as
//! one sample per operation (one per microsecond of wall time with
//! [`ProfileClock::Wall`], which bills wall time instead).
//!
//! [`Profiler::report`] prints the report in the layout of the reference runtime's
//! `halide_profiler_report` (without terminal colours), and [`Profiler::report_json`]
//! the JSON it writes to `HL_PROFILER_JSON_OUTPUT`.

use std::fmt::Write as _;
use std::time::Instant;

use crate::error::{ErrorKind, InterpError};
use crate::heap::{Handle, NULL};
use crate::runtime::{ProfilerCall, RuntimeCx, mem_error};

/// `halide_profiler_func_kind_overhead`.
pub const KIND_OVERHEAD: i32 = 1;
/// `halide_profiler_func_kind_thread_idle`.
pub const KIND_THREAD_IDLE: i32 = 2;
/// `halide_profiler_func_kind_malloc`.
pub const KIND_MALLOC: i32 = 3;
/// `halide_profiler_func_kind_free`.
pub const KIND_FREE: i32 = 4;
/// `halide_profiler_func_kind_allocation`.
pub const KIND_ALLOCATION: i32 = 7;

/// The model's cost of one interpreter operation: a microsecond, so that the report's
/// millisecond columns show small programs' shares legibly.
pub const NS_PER_OPERATION: u64 = 1000;

/// What time is billed in.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ProfileClock {
    /// [`NS_PER_OPERATION`] per operation executed (reproducible).
    #[default]
    Operations,
    /// Wall time.
    Wall,
}

/// The statistics of one entry of a pipeline's table (`halide_profiler_func_stats`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FuncStats {
    /// The entry's display name.
    pub name: String,
    /// The entry it is nested in (-1: a root).
    pub parent: i32,
    /// The entry of the Func it belongs to.
    pub canonical_id: i32,
    /// Its kind (`halide_profiler_func_kind`).
    pub kind: i32,
    /// For copies, the canonical id of the Func whose buffer is copied (-1 otherwise).
    pub buffer_func_id: i32,
    /// Nanoseconds billed to it.
    pub time: u64,
    /// Bytes allocated now.
    pub memory_current: u64,
    /// The most bytes allocated at once.
    pub memory_peak: u64,
    /// Bytes allocated over all allocations.
    pub memory_total: u64,
    /// The peak stack use the pipeline reported.
    pub stack_peak: u64,
    /// Sum over its samples of the active thread count.
    pub active_threads_numerator: u64,
    /// Its samples.
    pub active_threads_denominator: u64,
    /// Heap allocations billed to it.
    pub num_allocs: u64,
}

/// The statistics of one pipeline over its runs (`halide_profiler_pipeline_stats`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PipelineStats {
    /// The pipeline's name.
    pub name: String,
    /// Its entries.
    pub funcs: Vec<FuncStats>,
    /// Runs that counted (called `halide_profiler_enable_instance`).
    pub runs: u64,
    /// Runs that were billed some time.
    pub billed_runs: u64,
    /// Samples (operations billed, or microseconds of wall time).
    pub samples: u64,
    /// Heap allocations.
    pub num_allocs: u64,
    /// Nanoseconds over the billed runs.
    pub time: u64,
    /// Bytes allocated now.
    pub memory_current: u64,
    /// The most bytes one run held at once.
    pub memory_peak: u64,
    /// Bytes allocated over all runs.
    pub memory_total: u64,
    /// Sum over samples of the active thread count.
    pub active_threads_numerator: u64,
    /// Samples counted for the thread average.
    pub active_threads_denominator: u64,
}

/// A running instance of a pipeline (`halide_profiler_instance_state`).
#[derive(Clone, Debug)]
struct Instance {
    handle: Handle,
    pipeline: usize,
    funcs: Vec<FuncStats>,
    current_func: i32,
    active_threads: i64,
    start: u64,
    billed_time: u64,
    samples: u64,
    num_allocs: u64,
    memory_current: u64,
    memory_peak: u64,
    memory_total: u64,
    active_threads_numerator: u64,
    active_threads_denominator: u64,
    collect: bool,
}

/// The profiler's state: pipelines seen and instances running.
#[derive(Clone, Debug)]
pub struct Profiler {
    clock: ProfileClock,
    started: Instant,
    /// In order of first appearance.
    pipelines: Vec<PipelineStats>,
    instances: Vec<Instance>,
    /// The clock's reading when time was last billed.
    last: u64,
}

impl Default for Profiler {
    fn default() -> Profiler {
        Profiler::new(ProfileClock::Operations)
    }
}

fn abort(message: String) -> InterpError {
    InterpError::new(ErrorKind::BadProgram, message)
}

impl Profiler {
    /// A profiler with no pipelines, billing time by `clock`.
    pub fn new(clock: ProfileClock) -> Profiler {
        Profiler { clock, started: Instant::now(), pipelines: Vec::new(), instances: Vec::new(), last: 0 }
    }

    /// The pipelines profiled so far, in order of their first run.
    pub fn pipelines(&self) -> &[PipelineStats] {
        &self.pipelines
    }

    fn now(&self, cx: &RuntimeCx<'_>) -> u64 {
        match self.clock {
            ProfileClock::Operations => cx.ops.saturating_mul(NS_PER_OPERATION),
            ProfileClock::Wall => self.started.elapsed().as_nanos() as u64,
        }
    }

    /// Bills the time since the last call to the current entry of every running
    /// instance, as the sampling thread would.
    fn bill(&mut self, now: u64) {
        let dt = now.saturating_sub(self.last);
        self.last = now;
        if dt == 0 {
            return;
        }
        let samples = dt / NS_PER_OPERATION;
        for inst in &mut self.instances {
            let threads = inst.active_threads.max(0) as u64;
            // The current entry was checked when it was set.
            if let Some(f) = inst.funcs.get_mut(inst.current_func as usize) {
                f.time += dt;
                f.active_threads_numerator += threads * samples;
                f.active_threads_denominator += samples;
            }
            inst.samples += samples;
            inst.active_threads_numerator += threads * samples;
            inst.active_threads_denominator += samples;
            inst.billed_time += dt;
        }
    }

    fn instance(&mut self, h: Handle, call: &str) -> Result<&mut Instance, InterpError> {
        self.instances.iter_mut().find(|i| i.handle == h).ok_or_else(|| {
            abort(format!("{call}: the instance {h:#x} is not running (no halide_profiler_instance_start)"))
        })
    }

    /// Executes one `halide_profiler_*` call; returns what the runtime returns.
    pub fn call(&mut self, call: &ProfilerCall, cx: &mut RuntimeCx<'_>) -> Result<i64, InterpError> {
        let now = self.now(cx);
        self.bill(now);
        match call {
            ProfilerCall::InstanceStart {
                pipeline,
                names,
                parents,
                canonical_ids,
                kinds,
                buffer_func_ids,
                instance,
            } => {
                let n = names.len();
                let k = match self.pipelines.iter().position(|p| p.name == *pipeline && p.funcs.len() == n) {
                    Some(k) => k,
                    None => {
                        let funcs = (0..n)
                            .map(|i| FuncStats {
                                name: names[i].clone(),
                                parent: parents.get(i).copied().unwrap_or(-1),
                                canonical_id: canonical_ids.get(i).copied().unwrap_or(-1),
                                kind: kinds.get(i).copied().unwrap_or(0),
                                buffer_func_id: buffer_func_ids.get(i).copied().unwrap_or(-1),
                                ..FuncStats::default()
                            })
                            .collect();
                        self.pipelines.push(PipelineStats {
                            name: pipeline.clone(),
                            funcs,
                            ..PipelineStats::default()
                        });
                        self.pipelines.len() - 1
                    }
                };
                let blank = |f: &FuncStats| FuncStats {
                    name: f.name.clone(),
                    parent: f.parent,
                    canonical_id: f.canonical_id,
                    kind: f.kind,
                    buffer_func_id: f.buffer_func_id,
                    ..FuncStats::default()
                };
                let funcs = self.pipelines[k].funcs.iter().map(blank).collect();
                self.instances.retain(|i| i.handle != *instance);
                self.instances.push(Instance {
                    handle: *instance,
                    pipeline: k,
                    funcs,
                    current_func: 0,
                    active_threads: 0,
                    start: now,
                    billed_time: 0,
                    samples: 0,
                    num_allocs: 0,
                    memory_current: 0,
                    memory_peak: 0,
                    memory_total: 0,
                    active_threads_numerator: 0,
                    active_threads_denominator: 0,
                    collect: false,
                });
                Ok(0)
            }
            ProfilerCall::InstanceEnd { instance } => {
                let at = self.instances.iter().position(|i| i.handle == *instance).ok_or_else(|| {
                    abort(format!("halide_profiler_instance_end: the instance {instance:#x} is not running"))
                })?;
                let inst = self.instances.remove(at);
                if inst.collect {
                    let p = &mut self.pipelines[inst.pipeline];
                    p.active_threads_numerator += inst.active_threads_numerator;
                    p.active_threads_denominator += inst.active_threads_denominator;
                    p.memory_total += inst.memory_total;
                    p.memory_peak = p.memory_peak.max(inst.memory_peak);
                    p.num_allocs += inst.num_allocs;
                    p.runs += 1;
                    p.samples += inst.samples;
                    for (f, g) in p.funcs.iter_mut().zip(&inst.funcs) {
                        f.memory_peak = f.memory_peak.max(g.memory_peak);
                        f.stack_peak = f.stack_peak.max(g.stack_peak);
                        f.memory_current += g.memory_current;
                        f.memory_total += g.memory_total;
                        f.active_threads_numerator += g.active_threads_numerator;
                        f.active_threads_denominator += g.active_threads_denominator;
                        f.num_allocs += g.num_allocs;
                    }
                    if inst.billed_time > 0 {
                        // Every nanosecond of the run was billed, so the reference's
                        // rescaling of billed to true time is the identity here.
                        p.time += now - inst.start;
                        p.billed_runs += 1;
                        for (f, g) in p.funcs.iter_mut().zip(&inst.funcs) {
                            f.time += g.time;
                        }
                    }
                }
                Ok(0)
            }
            ProfilerCall::SetCurrentFunc { instance, func, token } => {
                let token_held =
                    *token != NULL && cx.heap.read_i32(*token, 0).map_err(|e| mem_error(&e))? != 0;
                let inst = self.instance(*instance, "halide_profiler_set_current_func")?;
                if *func < 0 || *func as usize >= inst.funcs.len() {
                    return Err(abort(format!(
                        "halide_profiler_set_current_func: entry {func} is outside the table of {} entries",
                        inst.funcs.len()
                    )));
                }
                if !token_held {
                    inst.current_func = *func;
                }
                Ok(0)
            }
            ProfilerCall::EnableInstance { instance } => {
                self.instance(*instance, "halide_profiler_enable_instance")?.collect = true;
                Ok(0)
            }
            ProfilerCall::IncrActiveThreads { instance } => {
                let inst = self.instance(*instance, "halide_profiler_incr_active_threads")?;
                inst.active_threads += 1;
                Ok(inst.active_threads - 1)
            }
            ProfilerCall::DecrActiveThreads { instance } => {
                let inst = self.instance(*instance, "halide_profiler_decr_active_threads")?;
                inst.active_threads -= 1;
                Ok(inst.active_threads + 1)
            }
            ProfilerCall::MemoryAllocate { instance, func, bytes } => {
                if *bytes == 0 {
                    return Ok(0);
                }
                let inst = self.instance(*instance, "halide_profiler_memory_allocate")?;
                let f = entry(&mut inst.funcs, *func, "halide_profiler_memory_allocate")?;
                f.num_allocs += 1;
                f.memory_total += bytes;
                f.memory_current += bytes;
                f.memory_peak = f.memory_peak.max(f.memory_current);
                inst.num_allocs += 1;
                inst.memory_total += bytes;
                inst.memory_current += bytes;
                inst.memory_peak = inst.memory_peak.max(inst.memory_current);
                Ok(0)
            }
            ProfilerCall::MemoryFree { instance, func, bytes } => {
                if *bytes == 0 {
                    return Ok(0);
                }
                let inst = self.instance(*instance, "halide_profiler_memory_free")?;
                let f = entry(&mut inst.funcs, *func, "halide_profiler_memory_free")?;
                f.memory_current = f.memory_current.wrapping_sub(*bytes);
                inst.memory_current = inst.memory_current.wrapping_sub(*bytes);
                Ok(0)
            }
            ProfilerCall::StackPeakUpdate { instance, values } => {
                let n = self.instance(*instance, "halide_profiler_stack_peak_update")?.funcs.len();
                let mut peaks = Vec::with_capacity(n);
                for k in 0..n {
                    peaks.push(cx.heap.read_uint(*values, 8 * k as i64, 8).map_err(|e| mem_error(&e))?);
                }
                let inst = self.instance(*instance, "halide_profiler_stack_peak_update")?;
                for (f, v) in inst.funcs.iter_mut().zip(peaks) {
                    f.stack_peak = f.stack_peak.max(v);
                }
                Ok(0)
            }
        }
    }

    /// Errors if an instance is still running (its `halide_profiler_instance_end` never
    /// ran).
    pub fn finish(&self) -> Result<(), InterpError> {
        match self.instances.first() {
            Some(i) => Err(abort(format!(
                "the profiler instance of pipeline `{}` never ended (no halide_profiler_instance_end)",
                self.pipelines[i.pipeline].name
            ))),
            None => Ok(()),
        }
    }

    /// The report, as the reference runtime's `halide_profiler_report` prints it
    /// (newest pipeline first, no colours).
    pub fn report(&self) -> String {
        let mut out = String::new();
        for p in self.pipelines.iter().rev() {
            report_pipeline(&mut out, p);
        }
        out
    }

    /// The JSON the reference runtime writes to `HL_PROFILER_JSON_OUTPUT`.
    pub fn report_json(&self) -> String {
        let mut j = String::from("{\n  \"pipelines\": [");
        for (k, p) in self.pipelines.iter().rev().enumerate() {
            j.push_str(if k == 0 { "\n" } else { ",\n" });
            j.push_str("    {\n");
            let ind = "      ";
            field(&mut j, ind, "name", &json_string(&p.name), false);
            for (name, v) in [
                ("runs", p.runs),
                ("billed_runs", p.billed_runs),
                ("samples", p.samples),
                ("num_allocs", p.num_allocs),
                ("time_ns", p.time),
                ("memory_current", p.memory_current),
                ("memory_peak", p.memory_peak),
                ("memory_total", p.memory_total),
                ("active_threads_numerator", p.active_threads_numerator),
                ("active_threads_denominator", p.active_threads_denominator),
            ] {
                field(&mut j, ind, name, &v.to_string(), false);
            }
            j.push_str("      \"funcs\": [");
            for (i, f) in p.funcs.iter().enumerate() {
                j.push_str(if i == 0 { "\n" } else { ",\n" });
                j.push_str("        {\n");
                let ind = "          ";
                field(&mut j, ind, "name", &json_string(&f.name), false);
                for (name, v) in [
                    ("parent", f.parent),
                    ("canonical_id", f.canonical_id),
                    ("kind", f.kind),
                    ("buffer_func_id", f.buffer_func_id),
                ] {
                    field(&mut j, ind, name, &v.to_string(), false);
                }
                let counters = [
                    ("time_ns", f.time),
                    ("memory_current", f.memory_current),
                    ("memory_peak", f.memory_peak),
                    ("memory_total", f.memory_total),
                    ("stack_peak", f.stack_peak),
                    ("active_threads_numerator", f.active_threads_numerator),
                    ("active_threads_denominator", f.active_threads_denominator),
                    ("num_allocs", f.num_allocs),
                ];
                for (c, (name, v)) in counters.iter().enumerate() {
                    field(&mut j, ind, name, &v.to_string(), c + 1 == counters.len());
                }
                j.push_str("        }");
            }
            j.push_str("\n      ]\n    }");
        }
        j.push_str(if self.pipelines.is_empty() { "" } else { "\n" });
        j.push_str("  ]\n}\n");
        j
    }
}

fn entry<'a>(funcs: &'a mut [FuncStats], func: i32, call: &str) -> Result<&'a mut FuncStats, InterpError> {
    let n = funcs.len();
    usize::try_from(func)
        .ok()
        .and_then(|k| funcs.get_mut(k))
        .ok_or_else(|| abort(format!("{call}: entry {func} is outside the table of {n} entries")))
}

fn field(j: &mut String, indent: &str, name: &str, value: &str, last: bool) {
    let _ = write!(j, "{indent}\"{name}\": {value}{}", if last { "\n" } else { ",\n" });
}

/// A JSON string literal. The reference escapes `"` and `\` only; control characters
/// are escaped too here, so that every name gives valid JSON.
fn json_string(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '"' | '\\' => {
                out.push('\\');
                out.push(c);
            }
            c if (c as u32) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// The row layout of an entry: a run of one marker letter is a column of that width.
const FUNC_ROW: &str = "NNNNNNNNNNNNNNNNNNNNNNNNN|TTTTTTTTT PPPPPPPP|HHHHHH |AAAAAA|MMMMMM|VVVVVV|";
/// The row layout of an `(allocation)` entry.
const ALLOCATION_ROW: &str = "NNNNNNNNNNNNNNNNNNNNNNNNN|ZZZZZZZZZZZZZZZZZZ|       |AAAAAA|MMMMMM|VVVVVV|";
const LEGEND_1: &str = "  name                   | time     percent | active| heap | peak | avg  |";
const LEGEND_2: &str = "                         |                  |threads|allocs|  mem |  mem |";
const RULE_WIDTH: usize = 104;

/// The runtime's rendering of a `float` (`halide_double_to_string(x, 0)`: six decimals).
fn float_text(x: f32) -> String {
    format!("{:.6}", x as f64)
}

/// A line being laid out. Widths count bytes, as the reference's do, except that a tree
/// or column glyph (three bytes of UTF-8) counts as the one column it shows as: the
/// reference adds each glyph's extra bytes to its padding target.
struct Line {
    text: String,
    width: usize,
    /// Where the glyphs of the name slot end (truncation within them counts each as 1).
    glyphs_end: usize,
}

impl Line {
    fn new() -> Line {
        Line { text: String::new(), width: 0, glyphs_end: 0 }
    }
    /// Text counted byte for byte.
    fn push(&mut self, s: &str) {
        self.text.push_str(s);
        self.width += s.len();
    }
    /// A glyph, one column wide.
    fn push_glyph(&mut self, g: char) {
        self.text.push(g);
        self.width += 1;
        self.glyphs_end = self.text.len();
    }
    fn pad_to(&mut self, target: usize) {
        while self.width < target {
            self.push(" ");
        }
    }
    /// Cuts the line to `target` columns. The reference cuts bytes, which may split a
    /// multi-byte character of a name; here the whole character goes, and the padding
    /// that follows fills its columns.
    fn truncate_to(&mut self, target: usize) {
        while self.width > target {
            let Some(c) = self.text.pop() else { break };
            let counted = if self.text.len() < self.glyphs_end { 1 } else { c.len_utf8() };
            self.width = self.width.saturating_sub(counted);
        }
        self.glyphs_end = self.glyphs_end.min(self.text.len());
    }
}

/// `emit_counter`: an SI-suffixed counter right-aligned in `width`, blank for zero.
fn counter(l: &mut Line, mut x: u64, width: usize) {
    let target = l.width + width;
    if x != 0 {
        const SUFFIXES: [&str; 7] = [" ", "K", "M", "G", "T", "P", "E"];
        for _ in 6..width {
            l.push(" ");
        }
        let mut scale = 0;
        while x >= 10000 {
            scale += 1;
            x = (x + 499) / 1000;
        }
        let mut y = x;
        while y < 10000 {
            l.push(" ");
            y *= 10;
        }
        l.push(&x.to_string());
        l.push(SUFFIXES[scale.min(6)]);
    }
    l.pad_to(target);
}

/// `emit_float`: up to two decimals in `width`, or a counter from 10000 on.
fn float_column(l: &mut Line, x: f32, width: usize) {
    if x >= 10000.0 {
        counter(l, x as u64, width);
        return;
    }
    let target = l.width + width;
    let left = width as i64 - 7 + i64::from(x < 10.0) + i64::from(x < 100.0) + i64::from(x < 1000.0);
    l.pad_to((l.width as i64 + left).max(0) as usize);
    l.push(&float_text(x));
    l.pad_to(target);
    l.truncate_to(target);
}

/// `emit_si`: an SI-suffixed integer without padding.
fn si(out: &mut String, mut x: u64) {
    const SUFFIXES: [&str; 7] = ["", "K", "M", "G", "T", "P", "E"];
    let mut scale = 0;
    while x >= 10000 {
        scale += 1;
        x = (x + 499) / 1000;
    }
    let _ = write!(out, "{x}{}", SUFFIXES[scale.min(6)]);
}

/// The order of the report's rows: a depth-first walk of the entry tree (children in
/// table order), then entries whose parent chain does not reach a root, at depth 0.
/// Returns (entry, depth, is last sibling) per entry.
pub fn tree_order(parents: &[i32]) -> Vec<(usize, usize, bool)> {
    let n = parents.len();
    let mut children: Vec<Vec<usize>> = vec![Vec::new(); n + 1];
    for (i, &p) in parents.iter().enumerate() {
        if p == -1 {
            children[n].push(i);
        } else if p >= 0 && (p as usize) < n {
            children[p as usize].push(i);
        }
    }
    let mut visited = vec![false; n];
    let mut order = Vec::with_capacity(n);
    // Explicit stack of (node's children list, next child index, depth of children).
    let mut stack: Vec<(usize, usize, usize)> = vec![(n, 0, 0)];
    while let Some(top) = stack.last_mut() {
        let (list, next, depth) = *top;
        let kids = &children[list];
        if next >= kids.len() {
            stack.pop();
            continue;
        }
        top.1 += 1;
        let i = kids[next];
        if visited[i] {
            continue;
        }
        visited[i] = true;
        let last = kids[next + 1..].iter().all(|&k| visited[k]);
        order.push((i, depth, last));
        stack.push((i, 0, depth + 1));
    }
    for (i, v) in visited.iter().enumerate() {
        if !v {
            order.push((i, 0, true));
        }
    }
    order
}

/// The rows the report prints, in order, with their depth and whether each is its
/// parent's last child: the tree order without the bookkeeping entries that would be
/// noise (overhead and thread idle with no time, malloc and free without heap
/// allocations).
pub fn report_rows(p: &PipelineStats) -> Vec<(usize, usize, bool)> {
    let parents: Vec<i32> = p.funcs.iter().map(|f| f.parent).collect();
    tree_order(&parents)
        .into_iter()
        .filter(|&(i, _, _)| {
            let f = &p.funcs[i];
            !((f.kind == KIND_OVERHEAD || f.kind == KIND_THREAD_IDLE) && f.time == 0
                || (f.kind == KIND_MALLOC || f.kind == KIND_FREE) && p.num_allocs == 0)
        })
        .collect()
}

fn report_pipeline(out: &mut String, p: &PipelineStats) {
    if p.runs == 0 {
        return;
    }
    let total_ms = p.time as f32 / 1_000_000.0;
    let time_runs = if p.billed_runs != 0 { p.billed_runs } else { 1 };
    let threads = p.active_threads_numerator as f32 / (p.active_threads_denominator as f32 + 1e-10);
    out.push_str(&"-".repeat(RULE_WIDTH));
    out.push('\n');
    let _ = write!(
        out,
        "{}\n total time: {} ms  samples: {}  runs: {}",
        p.name,
        float_text(total_ms),
        p.samples,
        p.runs
    );
    if p.billed_runs != p.runs {
        let _ = write!(out, " ({} timed)", p.billed_runs);
    }
    let _ = writeln!(out, "  time per run: {} ms", float_text(total_ms / time_runs as f32));
    if threads > 1.01 {
        let _ = writeln!(out, " average threads used: {}", float_text(threads));
    }
    let _ = write!(out, " heap allocations: {}  peak heap usage: ", p.num_allocs);
    si(out, p.memory_peak);
    out.push('\n');

    let any_stack = p.funcs.iter().any(|f| f.stack_peak != 0);
    if p.time == 0 && p.memory_total == 0 && !any_stack {
        return;
    }

    let parents: Vec<i32> = p.funcs.iter().map(|f| f.parent).collect();
    let order = tree_order(&parents);
    let n = p.funcs.len();
    let mut depth = vec![0usize; n];
    let mut is_last = vec![true; n];
    for &(i, d, last) in &order {
        depth[i] = d;
        is_last[i] = last;
    }
    // Time and thread samples of each entry and everything below it.
    let mut cum = vec![(0u64, 0u64, 0u64); n];
    for &(j, _, _) in order.iter().rev() {
        let f = &p.funcs[j];
        cum[j].0 += f.time;
        cum[j].1 += f.active_threads_numerator;
        cum[j].2 += f.active_threads_denominator;
        // As the reference: to any parent in the table, an orphan's too.
        if f.parent >= 0 && (f.parent as usize) < n {
            let c = cum[j];
            let q = &mut cum[f.parent as usize];
            q.0 += c.0;
            q.1 += c.1;
            q.2 += c.2;
        }
    }

    for legend in [LEGEND_1, LEGEND_2] {
        out.push_str(&legend.replace('|', "│"));
        out.push('\n');
    }
    for (i, _, _) in report_rows(p) {
        let f = &p.funcs[i];
        let template = if f.kind == KIND_ALLOCATION { ALLOCATION_ROW } else { FUNC_ROW };
        let mut l = Line::new();
        let bytes = template.as_bytes();
        let mut at = 0;
        while at < bytes.len() {
            let c = bytes[at];
            let w = bytes[at..].iter().take_while(|&&b| b == c).count();
            at += w;
            let target = l.width + w;
            match c {
                b'N' => {
                    l.push("  ");
                    let d = depth[i];
                    if d > 0 {
                        // The entry's ancestors below the root, outermost first.
                        let mut lineage = vec![0usize; d];
                        let mut j = i;
                        for k in (0..d).rev() {
                            lineage[k] = j;
                            j = p.funcs[j].parent as usize;
                        }
                        for &a in &lineage[..d - 1] {
                            if is_last[a] {
                                l.push(" ");
                            } else {
                                l.push_glyph('│');
                            }
                        }
                        l.push_glyph(if is_last[lineage[d - 1]] { '└' } else { '├' });
                    }
                    l.push(&f.name);
                    l.truncate_to(target);
                    l.pad_to(target);
                }
                b'T' => {
                    let mut val = f.time as f32 / (time_runs as f32 * 1_000_000.0);
                    let mut unit = "ms";
                    if val >= 1000.0 {
                        val /= 1000.0;
                        unit = "s ";
                    }
                    for limit in [1000.0, 100.0, 10.0] {
                        if val < limit {
                            l.push(" ");
                        }
                    }
                    let text = float_text(val);
                    // Six decimals, trimmed to two.
                    l.push(&text[..text.len() - 4]);
                    l.push(unit);
                    l.pad_to(target);
                }
                b'P' => {
                    let perthousand = f.time.saturating_mul(1000).checked_div(p.time).unwrap_or(0) as i64;
                    l.push("(");
                    if perthousand < 100 {
                        l.push(" ");
                    }
                    let percent = perthousand / 10;
                    l.push(&format!("{percent}.{}%)", perthousand - percent * 10));
                    l.pad_to(target);
                }
                b'H' => {
                    if cum[i].0 != 0 {
                        float_column(&mut l, cum[i].1 as f32 / (cum[i].2 as f32 + 1e-10), w);
                    } else {
                        l.pad_to(target);
                    }
                }
                b'A' => {
                    let runs = p.runs;
                    if f.num_allocs.is_multiple_of(runs) {
                        counter(&mut l, f.num_allocs / runs, w);
                    } else {
                        float_column(&mut l, f.num_allocs as f32 / runs as f32, w);
                    }
                }
                b'M' => counter(&mut l, if f.num_allocs != 0 { f.memory_peak } else { f.stack_peak }, w),
                b'V' => match f.memory_total.checked_div(f.num_allocs) {
                    Some(average) => counter(&mut l, average, w),
                    None => l.pad_to(target),
                },
                b'|' => {
                    for _ in 0..w {
                        l.push_glyph('│');
                    }
                }
                b'Z' => {
                    let text = "(allocation)";
                    let left = w.saturating_sub(text.len()) / 2;
                    l.pad_to(l.width + left);
                    l.push(text);
                    l.truncate_to(target);
                    l.pad_to(target);
                }
                _ => {
                    for _ in 0..w {
                        l.push(&(c as char).to_string());
                    }
                }
            }
        }
        out.push_str(&l.text);
        out.push('\n');
    }
    out.push_str(&"-".repeat(RULE_WIDTH));
    out.push('\n');
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(name: &str, parent: i32, kind: i32) -> FuncStats {
        FuncStats {
            name: name.to_owned(),
            parent,
            canonical_id: -1,
            kind,
            buffer_func_id: -1,
            ..FuncStats::default()
        }
    }

    fn profiler_of(pipelines: Vec<PipelineStats>) -> Profiler {
        Profiler { pipelines, ..Profiler::new(ProfileClock::Operations) }
    }

    /// The first lines of the seed's example report (halide/Halide#9157, the reference
    /// commit's PR: `nl_means` on the CPU), from the same statistics.
    #[test]
    fn the_header_is_the_seed_examples() {
        let mut idle = entry("thread idle", -1, KIND_THREAD_IDLE);
        idle.time = 5_200_000;
        let p = PipelineStats {
            name: "nl_means".into(),
            funcs: vec![entry("overhead", -1, KIND_OVERHEAD), idle],
            runs: 11,
            billed_runs: 11,
            samples: 66,
            num_allocs: 10560,
            time: 94_709_183,
            memory_peak: 30_000_000,
            active_threads_numerator: 3510,
            active_threads_denominator: 66,
            ..PipelineStats::default()
        };
        let report = profiler_of(vec![p]).report();
        let lines: Vec<&str> = report.lines().collect();
        assert_eq!(lines[0], "-".repeat(104));
        assert_eq!(lines[1], "nl_means");
        assert_eq!(lines[2], " total time: 94.709183 ms  samples: 66  runs: 11  time per run: 8.609925 ms");
        assert_eq!(lines[3], " average threads used: 53.181820");
        assert_eq!(lines[4], " heap allocations: 10560  peak heap usage: 30M");
        assert_eq!(lines[5], "  name                   │ time     percent │ active│ heap │ peak │ avg  │");
        assert_eq!(lines[6], "                         │                  │threads│allocs│  mem │  mem │");
        assert!(lines[7].starts_with("  thread idle            │   0.47m"), "{}", lines[7]);
    }

    /// Every column of the reference runtime's row templates, by hand from
    /// `profiler_common.cpp` (see `docs/profiler-report.md`): the tree glyphs, a name
    /// cut at its slot, a name's width counted in bytes, times in ms and in s, the
    /// percentage, cumulative active threads, counters, an `(allocation)` row, the
    /// bookkeeping rows left out, and pipelines newest first.
    #[test]
    fn the_report_is_laid_out_as_the_reference_runtime_lays_it_out() {
        let mut f = vec![
            entry("overhead", -1, KIND_OVERHEAD),
            entry("thread idle", -1, KIND_THREAD_IDLE),
            entry("malloc", -1, KIND_MALLOC),
            entry("free", -1, KIND_FREE),
            entry("out", -1, 0),
            entry("g", 4, KIND_ALLOCATION),
            entry("g", 4, 0),
            entry("f", 6, 0),
            entry("h (copy to device)", 4, 6),
            entry("a_very_long_function_name_that_is_cut", -1, 0),
            entry("é_name", -1, 0),
        ];
        (f[4].time, f[4].active_threads_numerator, f[4].active_threads_denominator) = (2_000_000, 2000, 2000);
        (f[5].num_allocs, f[5].memory_peak, f[5].memory_total) = (1, 512, 512);
        (f[6].time, f[6].active_threads_numerator, f[6].active_threads_denominator) = (1_500_000, 3000, 1500);
        f[7].stack_peak = 2;
        (f[8].time, f[8].active_threads_numerator, f[8].active_threads_denominator) = (250_000, 250, 250);
        (f[9].time, f[9].active_threads_numerator, f[9].active_threads_denominator) =
            (12_345_678_900, 12345, 12345);
        let pipe = PipelineStats {
            name: "pipe".into(),
            funcs: f,
            runs: 1,
            billed_runs: 1,
            samples: 17595,
            num_allocs: 1,
            time: 12_349_428_900,
            memory_peak: 512,
            memory_total: 512,
            active_threads_numerator: 17595,
            active_threads_denominator: 17595,
            ..PipelineStats::default()
        };
        // Seen first: printed last. No time, memory or stack: the header only.
        let quiet = PipelineStats {
            name: "quiet".into(),
            funcs: vec![entry("overhead", -1, KIND_OVERHEAD)],
            runs: 2,
            billed_runs: 0,
            ..PipelineStats::default()
        };
        // Never run: not printed.
        let idle = PipelineStats { name: "idle".into(), ..PipelineStats::default() };
        let rule = "-".repeat(104);
        let expected = [
            rule.as_str(),
            "pipe",
            " total time: 12349.428711 ms  samples: 17595  runs: 1  time per run: 12349.428711 ms",
            " heap allocations: 1  peak heap usage: 512",
            "  name                   │ time     percent │ active│ heap │ peak │ avg  │",
            "                         │                  │threads│allocs│  mem │  mem │",
            "  malloc                 │   0.00ms ( 0.0%) │       │      │      │      │",
            "  free                   │   0.00ms ( 0.0%) │       │      │      │      │",
            "  out                    │   2.00ms ( 0.0%) │  1.40 │      │      │      │",
            "  ├g                     │   (allocation)   │       │    1 │  512 │  512 │",
            "  ├g                     │   1.50ms ( 0.0%) │  2.00 │      │      │      │",
            "  │└f                    │   0.00ms ( 0.0%) │       │      │    2 │      │",
            "  └h (copy to device)    │   0.25ms ( 0.0%) │  1.00 │      │      │      │",
            "  a_very_long_function_na│  12.34s  (99.9%) │  1.00 │      │      │      │",
            "  é_name                │   0.00ms ( 0.0%) │       │      │      │      │",
            rule.as_str(),
            rule.as_str(),
            "quiet",
            " total time: 0.000000 ms  samples: 0  runs: 2 (0 timed)  time per run: 0.000000 ms",
            " heap allocations: 0  peak heap usage: 0",
        ]
        .map(|l| format!("{l}\n"))
        .concat();
        assert_eq!(profiler_of(vec![quiet, idle, pipe]).report(), expected);
    }

    /// Entries whose parents form a cycle are orphans, printed at depth 0; the reference
    /// still adds each one's time and threads to its parent's cumulative figures, so the
    /// entry with no time of its own shows the other's threads.
    #[test]
    fn orphans_add_to_their_parents_cumulative_threads() {
        let mut a = entry("a", 1, 0);
        (a.time, a.active_threads_numerator, a.active_threads_denominator) = (1_000_000, 3000, 1000);
        let b = entry("b", 0, 0);
        let p = PipelineStats {
            name: "cycle".into(),
            funcs: vec![a, b],
            runs: 1,
            billed_runs: 1,
            time: 1_000_000,
            ..PipelineStats::default()
        };
        let report = profiler_of(vec![p]).report();
        let b_row = report.lines().find(|l| l.starts_with("  b ")).unwrap_or_default();
        assert_eq!(b_row, "  b                      │   0.00ms ( 0.0%) │  3.00 │      │      │      │");
    }
}
