//! Running a compiled program: the machine state (memory, realizations, tasks) and the
//! instruction loop.
//!
//! A program runs as one task until it forks (`fork`), a GPU thread loop whose body
//! waits at barriers starts one task per thread, or a GPU lane loop one task per lane.
//! Tasks run one at a time, in a fixed order: a task runs until it ends or must wait
//! (for a semaphore held by another task, for its thread block at a barrier, for its
//! children), and then the most recently started task that can run goes on. A lane
//! yields after each store to shared memory, going behind every task that can run, so
//! the lanes of a warp advance in lockstep. A run is therefore deterministic, and a
//! program whose tasks wait on each other forever is reported as a deadlock.

use std::collections::VecDeque;

use loopir::{BinOp, Name, VectorReduceOp};
use rustc_hash::FxHashMap;
use smallvec::SmallVec;

use crate::arith::{self, LaneArgs};
use crate::buffer::{Buffer, Descriptor, Dim, layout, offset_span, type_bits, write_descriptor};
use crate::code::{Arg, Instr, NO_REG, Pc, Reg};
use crate::elem::{self, Elem};
use crate::error::{ErrorKind, InterpError};
use crate::heap::{Handle, Heap, HeapError, NULL, ObjectKind, decode};
use crate::program::{BufferSymbol, GlobalKind, Program};
use crate::runtime::{RtFn, Runtime, mem_error};

/// Leaves the instruction loop with an error at `site`.
macro_rules! break_err {
    ($self:ident, $site:expr, $kind:expr, $msg:expr, $ops:ident, $pc:ident, $pc_out:ident) => {{
        $self.ops = $ops;
        *$pc_out = $pc as Pc;
        return Err($self.fail($site, InterpError::new($kind, $msg)));
    }};
}

/// Leaves the instruction loop with an error value, attributed to `site`.
macro_rules! break_with {
    ($self:ident, $site:expr, $e:expr, $ops:ident, $pc:ident, $pc_out:ident) => {{
        $self.ops = $ops;
        *$pc_out = $pc as Pc;
        return Err($self.fail($site, $e));
    }};
}

/// The element offset in `s` of the coordinates in registers `args`, when `s` is live
/// and they fall inside its box: the common case of a Func access, without collecting
/// the coordinates. Anything else takes [`Machine::storage_offset`]'s path.
#[inline]
fn offset_inside(s: &Storage, args: &[u32], regs: &[u64]) -> Option<i64> {
    if !s.live || args.len() != s.mins.len() {
        return None;
    }
    let mut offset = 0i64;
    for (d, &a) in args.iter().enumerate() {
        let from_min = (regs[a as usize] as i64).checked_sub(s.mins[d])?;
        if from_min < 0 || from_min >= s.extents[d] {
            return None;
        }
        offset += from_min * s.strides[d];
    }
    Some(offset)
}

/// How many ended tasks' register files a machine keeps for reuse (a warp's worth
/// and then some; more would only hold memory).
const MAX_FREE_REGISTER_FILES: usize = 64;

/// Limits of a run.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// Live memory, in bytes.
    pub memory: usize,
    /// Instructions executed.
    pub operations: u64,
}

impl Default for Limits {
    fn default() -> Self {
        Limits { memory: crate::heap::DEFAULT_MEMORY_LIMIT, operations: 20_000_000_000 }
    }
}

/// What a finished run did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RunStats {
    /// Instructions executed.
    pub operations: u64,
    /// Tasks started besides the main one (fork branches, GPU threads).
    pub tasks: u64,
    /// The most live memory at once, in bytes.
    pub peak_memory: usize,
}

/// The storage of a realization (or of a buffer argument read as a Func): one plane of
/// memory per tuple value, over a box.
#[derive(Clone, Debug)]
pub(crate) struct Storage {
    name: Name,
    mins: SmallVec<[i64; 4]>,
    extents: SmallVec<[i64; 4]>,
    strides: SmallVec<[i64; 4]>,
    planes: SmallVec<[(Handle, Elem); 1]>,
    descriptors: SmallVec<[Handle; 1]>,
    growable: bool,
    owned: bool,
    live: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum TaskState {
    Runnable,
    Joining,
    WaitSemaphore,
    WaitBarrier,
    Done,
}

#[derive(Clone, Debug)]
struct Task {
    /// The thread id the runtime sees: the number of tasks started before it in the run
    /// (0 for the main task), so a task in a reused slot is still a new thread.
    id: i32,
    regs: Vec<u64>,
    pc: Pc,
    parent: Option<usize>,
    pending: usize,
    state: TaskState,
    group: Option<usize>,
}

#[derive(Clone, Debug, Default)]
struct BarrierGroup {
    participants: usize,
    waiting: Vec<usize>,
}

/// Why the instruction loop stopped.
enum Stop {
    Halt,
    TaskEnd,
    Fork { rest: Pc, resume: Pc },
    Spawn { var: Reg, min: i64, max: i64, end: Pc },
    Semaphore,
    Barrier,
    Yield,
}

/// A buffer argument as bound.
#[derive(Clone, Debug)]
struct BoundBuffer {
    descriptor: Handle,
    storage: Option<usize>,
}

/// A program ready to run, with its memory and arguments.
pub struct Machine<'p> {
    program: &'p Program,
    runtime: &'p mut dyn Runtime,
    pub(crate) heap: Heap,
    globals: Vec<u64>,
    bound: Vec<bool>,
    buffers: Vec<Option<BoundBuffer>>,
    storages: Vec<Storage>,
    free_storages: Vec<usize>,
    stack_slots: Vec<Handle>,
    pub(crate) destructors: Vec<(RtFn, Handle)>,
    tasks: Vec<Task>,
    /// Slots of `tasks` whose task has ended, for the next ones (a program may start
    /// millions of short tasks: the lanes of a warp, each time its loop runs).
    free_tasks: Vec<usize>,
    /// Register files of ended tasks, kept for the next child: a GPU loop starts a
    /// task per lane, and allocating each one's file anew cost more than copying it.
    free_regs: Vec<Vec<u64>>,
    groups: Vec<BarrierGroup>,
    /// Slots of `groups` whose threads have all ended.
    free_groups: Vec<usize>,
    pub(crate) last_error: Option<String>,
    pub(crate) ops: u64,
    op_limit: u64,
    pub(crate) device_interfaces: Vec<Handle>,
    pub(crate) current_task: usize,
    tasks_started: u64,
    peak_memory: usize,
    ran: bool,
    probing: bool,
    probed: FxHashMap<Name, Vec<(i64, i64)>>,
}

impl<'p> Machine<'p> {
    /// A machine for `program` whose runtime calls go to `runtime`.
    pub fn new(
        program: &'p Program,
        runtime: &'p mut dyn Runtime,
        limits: Limits,
    ) -> Result<Machine<'p>, InterpError> {
        let mut heap = Heap::new(limits.memory);
        for (k, s) in program.strings.iter().enumerate() {
            let h = heap
                .alloc(s.len() as u128, ObjectKind::String, &Name::from("a string constant"))
                .map_err(|e| mem_error(&e))?;
            heap.write(h, 0, s).map_err(|e| mem_error(&e))?;
            debug_assert_eq!(decode(h).map(|(o, _)| o), Some(k));
        }
        Ok(Machine {
            program,
            runtime,
            heap,
            globals: vec![
                0;
                program
                    .globals
                    .iter()
                    .map(|g| g.lanes as usize)
                    .sum::<usize>()
                    .max(program.globals.len())
            ],
            bound: vec![false; program.globals.len()],
            buffers: vec![None; program.interface.buffers.len()],
            storages: Vec::new(),
            free_storages: Vec::new(),
            stack_slots: vec![NULL; program.stack_slots as usize],
            destructors: Vec::new(),
            tasks: Vec::new(),
            free_tasks: Vec::new(),
            free_regs: Vec::new(),
            groups: Vec::new(),
            free_groups: Vec::new(),
            last_error: None,
            ops: 0,
            op_limit: limits.operations,
            device_interfaces: Vec::new(),
            current_task: 0,
            tasks_started: 0,
            peak_memory: 0,
            ran: false,
            probing: false,
            probed: FxHashMap::default(),
        })
    }

    /// Gives scalar parameter `name` the value `value` (in canonical lane form; see
    /// [`crate::elem`]).
    pub fn bind_scalar(&mut self, name: &str, value: u64) -> Result<(), InterpError> {
        let Some(k) = self.program.interface.scalars.iter().position(|s| &*s.name == name) else {
            return Err(InterpError::new(
                ErrorKind::BadArgument,
                format!("the program has no scalar parameter `{name}`"),
            ));
        };
        let elem = Elem::of(self.program.interface.scalars[k].ty)
            .map_err(|e| InterpError::new(ErrorKind::BadArgument, e))?;
        for (g, global) in self.program.globals.iter().enumerate() {
            if global.what == GlobalKind::Scalar(k) {
                self.globals[g] = elem.wrap(value);
                self.bound[g] = true;
            }
        }
        Ok(())
    }

    /// Gives buffer argument `name` the contents of `buffer`.
    pub fn bind_buffer(&mut self, name: &str, buffer: &Buffer) -> Result<(), InterpError> {
        let k = self.buffer_index(name)?;
        let elem = buffer.elem;
        let (lo, hi) = offset_span(&buffer.dims);
        let bytes = (hi - lo).max(0) as u128 * elem.bytes() as u128;
        let name_n: Name = self.program.interface.buffers[k].name.clone();
        let base = self.heap.alloc(bytes, ObjectKind::Buffer, &name_n).map_err(|e| mem_error(&e))?;
        let host = base + (-lo) as u64 * elem.bytes() as u64;
        for (i, v) in buffer.values.iter().enumerate() {
            let c = buffer.coords_of(i);
            let off: i64 =
                c.iter().zip(&buffer.dims).map(|(c, d)| (*c as i64 - d.min as i64) * d.stride as i64).sum();
            self.heap.store(host, elem.bytes(), off, *v).map_err(|e| mem_error(&e))?;
        }
        self.bind_descriptor(k, host, elem, &buffer.dims)
    }

    /// Gives buffer argument `name` a descriptor with no memory: a bounds query, whose
    /// answer [`Machine::buffer_shape`] reads after the run.
    pub fn bind_bounds_query(&mut self, name: &str, elem: Elem, dims: &[Dim]) -> Result<(), InterpError> {
        let k = self.buffer_index(name)?;
        self.bind_descriptor(k, NULL, elem, dims)
    }

    fn buffer_index(&self, name: &str) -> Result<usize, InterpError> {
        self.program.interface.buffers.iter().position(|b| &*b.name == name).ok_or_else(|| {
            InterpError::new(ErrorKind::BadArgument, format!("the program has no buffer argument `{name}`"))
        })
    }

    fn bind_descriptor(
        &mut self,
        k: usize,
        host: Handle,
        elem: Elem,
        dims: &[Dim],
    ) -> Result<(), InterpError> {
        let name = self.program.interface.buffers[k].name.clone();
        let err = |e: HeapError| mem_error(&e);
        // Room for more dimensions than given: a bounds query may be answered with more.
        let dim_array = self
            .heap
            .alloc((layout::DIM_SIZE * dims.len().max(8)) as u128, ObjectKind::BufferDescriptor, &name)
            .map_err(err)?;
        let descriptor =
            self.heap.alloc(layout::SIZE as u128, ObjectKind::BufferDescriptor, &name).map_err(err)?;
        // A caller who filled a buffer on the host marks it so (`set_host_dirty`), which
        // is what makes `halide_copy_to_device` copy it.
        let flags = if host == NULL { 0 } else { layout::HOST_DIRTY };
        let d = Descriptor {
            device: 0,
            device_interface: NULL,
            host,
            flags,
            ty: type_bits(elem),
            dimensions: dims.len() as i32,
            dim: dim_array,
        };
        write_descriptor(&mut self.heap, descriptor, &d, dims).map_err(err)?;
        let wants_storage =
            self.program.globals.iter().any(|g| g.what == GlobalKind::Buffer(k, BufferSymbol::Storage));
        let storage = if wants_storage {
            Some(self.new_storage(Storage {
                name: name.clone(),
                mins: dims.iter().map(|d| d.min as i64).collect(),
                extents: dims.iter().map(|d| d.extent as i64).collect(),
                strides: dims.iter().map(|d| d.stride as i64).collect(),
                planes: SmallVec::from_elem((host, elem), 1),
                descriptors: SmallVec::from_elem(descriptor, 1),
                growable: false,
                owned: false,
                live: true,
            }))
        } else {
            None
        };
        self.buffers[k] = Some(BoundBuffer { descriptor, storage });
        Ok(())
    }

    /// Sets every global of the program from the bound arguments.
    fn fill_globals(&mut self) -> Result<(), InterpError> {
        let mut missing = Vec::new();
        for (g, global) in self.program.globals.iter().enumerate() {
            match global.what {
                GlobalKind::Scalar(k) => {
                    if !self.bound[g] {
                        let p = &self.program.interface.scalars[k];
                        missing.push(format!("scalar parameter `{}` ({})", p.name, p.ty));
                    }
                }
                GlobalKind::Buffer(k, sym) => {
                    let Some(b) = &self.buffers[k] else {
                        let name = &self.program.interface.buffers[k].name;
                        let m = format!("buffer `{name}`");
                        if !missing.contains(&m) {
                            missing.push(m);
                        }
                        continue;
                    };
                    let (desc_h, storage) = (b.descriptor, b.storage);
                    let d = Descriptor::read(&self.heap, desc_h).map_err(|e| mem_error(&e))?;
                    let dim = |n: u32| -> Result<Dim, InterpError> {
                        if n as i32 >= d.dimensions {
                            return Err(InterpError::new(
                                ErrorKind::BadArgument,
                                format!(
                                    "the program uses `{}`, but buffer `{}` has {} dimensions",
                                    global.name, self.program.interface.buffers[k].name, d.dimensions
                                ),
                            ));
                        }
                        d.dim(&self.heap, n as i64).map_err(|e| mem_error(&e))
                    };
                    self.globals[g] = match sym {
                        BufferSymbol::Descriptor => desc_h,
                        BufferSymbol::Host => d.host,
                        BufferSymbol::Min(n) => dim(n)?.min as i64 as u64,
                        BufferSymbol::Extent(n) => dim(n)?.extent as i64 as u64,
                        BufferSymbol::Stride(n) => dim(n)?.stride as i64 as u64,
                        BufferSymbol::Type => d.ty as u64,
                        BufferSymbol::Dimensions => d.dimensions as i64 as u64,
                        BufferSymbol::HostDirty => d.flags & layout::HOST_DIRTY,
                        BufferSymbol::DeviceDirty => (d.flags & layout::DEVICE_DIRTY) >> 1,
                        BufferSymbol::Device => d.device,
                        BufferSymbol::DeviceInterface => d.device_interface,
                        BufferSymbol::Storage => storage.unwrap_or(0) as u64,
                    };
                }
            }
        }
        if !missing.is_empty() {
            return Err(InterpError::new(
                ErrorKind::BadArgument,
                format!("no value given for {}", missing.join(", ")),
            ));
        }
        Ok(())
    }

    /// In a probing run, reads of a buffer argument (as a Func) outside its shape give 0,
    /// stores to one outside its shape do nothing, and both are recorded
    /// ([`Machine::probed_boxes`]) instead of failing.
    pub fn set_probing(&mut self, on: bool) {
        self.probing = on;
    }

    /// The boxes of accesses outside buffer arguments' shapes in a probing run, per
    /// buffer: each dimension's lowest and highest coordinate among those accesses.
    pub fn probed_boxes(&self) -> FxHashMap<String, Vec<(i64, i64)>> {
        self.probed.iter().map(|(k, v)| (k.to_string(), v.clone())).collect()
    }

    /// Widens storage `k`'s probed box to take in `coords`.
    fn record_probed(&mut self, k: usize, coords: &[i64]) {
        let name = self.storages[k].name.clone();
        let b = self.probed.entry(name).or_insert_with(|| coords.iter().map(|&c| (c, c)).collect());
        for (x, &c) in b.iter_mut().zip(coords) {
            *x = (x.0.min(c), x.1.max(c));
        }
    }

    /// Runs the program to its end.
    pub fn run(&mut self) -> Result<RunStats, InterpError> {
        if self.ran {
            return Err(InterpError::new(ErrorKind::BadArgument, "a machine runs its program once"));
        }
        self.ran = true;
        self.fill_globals()?;
        let mut regs = vec![0u64; self.program.registers];
        let mut at = 0usize;
        for g in &self.program.globals {
            let n = g.lanes as usize;
            regs[at..at + n].copy_from_slice(&self.globals[at..at + n]);
            at += n;
        }
        regs[at..at + self.program.constants.len()].copy_from_slice(&self.program.constants);
        self.tasks.push(Task {
            id: 0,
            regs,
            pc: 0,
            parent: None,
            pending: 0,
            state: TaskState::Runnable,
            group: None,
        });
        let result = self.schedule();
        // Destructors run on success and on error, as the compiled pipeline's do.
        let destructed = self.run_destructors();
        result?;
        destructed?;
        self.check_leaks()?;
        Ok(RunStats { operations: self.ops, tasks: self.tasks_started, peak_memory: self.peak_memory })
    }

    /// The shape a buffer argument has now (after a bounds query, the shape the program
    /// asked for).
    pub fn buffer_shape(&self, name: &str) -> Result<(Option<Elem>, Vec<Dim>), InterpError> {
        let k = self.buffer_index(name)?;
        let Some(b) = &self.buffers[k] else {
            return Err(InterpError::new(ErrorKind::BadArgument, format!("buffer `{name}` was not given")));
        };
        let d = Descriptor::read(&self.heap, b.descriptor).map_err(|e| mem_error(&e))?;
        Ok((d.elem(), d.dims(&self.heap).map_err(|e| mem_error(&e))?))
    }

    /// The contents of a buffer argument after the run (copied back from the simulated
    /// device if the device copy is the newer one, as a caller's `copy_to_host` would).
    pub fn read_buffer(&mut self, name: &str) -> Result<Buffer, InterpError> {
        let k = self.buffer_index(name)?;
        let Some(b) = &self.buffers[k] else {
            return Err(InterpError::new(ErrorKind::BadArgument, format!("buffer `{name}` was not given")));
        };
        let desc = b.descriptor;
        let d = Descriptor::read(&self.heap, desc).map_err(|e| mem_error(&e))?;
        if d.flags & layout::DEVICE_DIRTY != 0 && d.device != 0 {
            crate::device::copy(&mut self.heap, &d, true)?;
            crate::runtime::set_flag(&mut self.heap, desc, layout::DEVICE_DIRTY, false)
                .map_err(|e| mem_error(&e))?;
        }
        let elem = d.elem().unwrap_or(Elem::UInt(8));
        let dims = d.dims(&self.heap).map_err(|e| mem_error(&e))?;
        let mut out = Buffer::with_dims(elem, dims.clone());
        for i in 0..out.len() {
            let c = out.coords_of(i);
            let off: i64 =
                c.iter().zip(&dims).map(|(c, d)| (*c as i64 - d.min as i64) * d.stride as i64).sum();
            out.values[i] = self.heap.load(d.host, elem, elem.bytes(), off).map_err(|e| mem_error(&e))?;
        }
        Ok(out)
    }

    // ---- tasks ----

    fn schedule(&mut self) -> Result<(), InterpError> {
        // The runnable tasks: the next to run at the back; a task that yields goes to
        // the front, behind every task runnable now.
        let mut runnable = VecDeque::from([0usize]);
        loop {
            let Some(t) = runnable.pop_back() else {
                if self.wake_waiting(&mut runnable) {
                    continue;
                }
                return Err(self.deadlock());
            };
            self.current_task = t;
            match self.exec(t)? {
                Stop::Halt => return Ok(()),
                Stop::TaskEnd => self.end_task(t, &mut runnable),
                Stop::Fork { rest, resume } => {
                    let first = self.tasks[t].pc;
                    let a = self.child(t, first, self.tasks[t].group);
                    let b = self.child(t, rest, self.tasks[t].group);
                    let task = &mut self.tasks[t];
                    task.pc = resume;
                    task.pending = 2;
                    task.state = TaskState::Joining;
                    runnable.push_back(b);
                    runnable.push_back(a);
                }
                Stop::Spawn { var, min, max, end } => {
                    let body = self.tasks[t].pc;
                    let group = match self.tasks[t].group {
                        Some(g) => {
                            self.groups[g].participants -= 1;
                            g
                        }
                        None => match self.free_groups.pop() {
                            Some(g) => g,
                            None => {
                                self.groups.push(BarrierGroup::default());
                                self.groups.len() - 1
                            }
                        },
                    };
                    let n = if max >= min { (max - min + 1) as usize } else { 0 };
                    self.tasks[t].pc = end;
                    if n == 0 {
                        if self.tasks[t].group == Some(group) {
                            self.groups[group].participants += 1;
                        }
                        runnable.push_back(t);
                        continue;
                    }
                    self.groups[group].participants += n;
                    self.tasks[t].pending = n;
                    self.tasks[t].state = TaskState::Joining;
                    let mut children = Vec::with_capacity(n);
                    for v in min..=max {
                        let c = self.child(t, body, Some(group));
                        self.tasks[c].regs[var as usize] = v as u64;
                        children.push(c);
                    }
                    runnable.extend(children.into_iter().rev());
                }
                Stop::Semaphore => self.tasks[t].state = TaskState::WaitSemaphore,
                // Every task runnable now runs before this one goes on (the tasks that
                // yielded earlier first).
                Stop::Yield => runnable.push_front(t),
                Stop::Barrier => match self.tasks[t].group {
                    None => runnable.push_back(t),
                    Some(g) => {
                        self.tasks[t].state = TaskState::WaitBarrier;
                        self.groups[g].waiting.push(t);
                        self.release_barrier(g, &mut runnable);
                    }
                },
            }
        }
    }

    /// The runtime's view of the current task: its thread id and that of the task that
    /// started it (`None` for the main task). A parent outlives its children (it waits
    /// for them), so its slot still holds it.
    pub(crate) fn thread_ids(&self) -> (i32, Option<i32>) {
        let task = &self.tasks[self.current_task];
        (task.id, task.parent.map(|p| self.tasks[p].id))
    }

    fn child(&mut self, parent: usize, pc: Pc, group: Option<usize>) -> usize {
        let mut regs = self.free_regs.pop().unwrap_or_default();
        regs.clone_from(&self.tasks[parent].regs);
        self.tasks_started += 1;
        // Ids wrap after 2^31 tasks; a run that long is far past any operation budget.
        let id = (self.tasks_started & i32::MAX as u64) as i32;
        let task = Task { id, regs, pc, parent: Some(parent), pending: 0, state: TaskState::Runnable, group };
        match self.free_tasks.pop() {
            Some(t) => {
                self.tasks[t] = task;
                t
            }
            None => {
                self.tasks.push(task);
                self.tasks.len() - 1
            }
        }
    }

    fn end_task(&mut self, t: usize, runnable: &mut VecDeque<usize>) {
        self.tasks[t].state = TaskState::Done;
        let regs = std::mem::take(&mut self.tasks[t].regs);
        if self.free_regs.len() < MAX_FREE_REGISTER_FILES {
            self.free_regs.push(regs);
        }
        if let Some(g) = self.tasks[t].group {
            self.groups[g].participants -= 1;
            self.release_barrier(g, runnable);
        }
        if let Some(p) = self.tasks[t].parent {
            self.tasks[p].pending -= 1;
            if self.tasks[p].pending == 0 {
                self.tasks[p].state = TaskState::Runnable;
                if let Some(g) = self.tasks[p].group
                    && self.tasks[t].group == Some(g)
                {
                    self.groups[g].participants += 1;
                }
                // A group made for the threads of this parent ends with them.
                if let Some(g) = self.tasks[t].group
                    && self.tasks[p].group != Some(g)
                {
                    self.groups[g] = BarrierGroup::default();
                    self.free_groups.push(g);
                }
                runnable.push_back(p);
            }
            // Nothing refers to an ended task but its parent's count of pending ones.
            self.free_tasks.push(t);
        }
    }

    fn release_barrier(&mut self, g: usize, runnable: &mut VecDeque<usize>) {
        let group = &mut self.groups[g];
        if !group.waiting.is_empty() && group.waiting.len() >= group.participants {
            let waiting = std::mem::take(&mut group.waiting);
            for &w in waiting.iter().rev() {
                self.tasks[w].state = TaskState::Runnable;
                runnable.push_back(w);
            }
        }
    }

    fn wake_waiting(&mut self, runnable: &mut VecDeque<usize>) -> bool {
        let mut woke = false;
        for t in (0..self.tasks.len()).rev() {
            if self.tasks[t].state != TaskState::WaitSemaphore {
                continue;
            }
            let Instr::Acquire { sem, count, .. } = &self.program.code[self.tasks[t].pc as usize] else {
                continue;
            };
            let sem = self.tasks[t].regs[*sem as usize];
            let count = self.tasks[t].regs[*count as usize] as i64;
            if self.heap.read_i32(sem, 0).is_ok_and(|v| v as i64 >= count) {
                self.tasks[t].state = TaskState::Runnable;
                runnable.push_back(t);
                woke = true;
            }
        }
        woke
    }

    fn deadlock(&self) -> InterpError {
        let mut waits = Vec::new();
        for t in &self.tasks {
            match t.state {
                TaskState::WaitSemaphore => {
                    let site = match &self.program.code[t.pc as usize] {
                        Instr::Acquire { site, .. } => self.program.sites[*site as usize].describe(),
                        _ => String::new(),
                    };
                    waits.push(format!("a task waits at `{site}`"));
                }
                TaskState::WaitBarrier => waits.push("a GPU thread waits at a barrier".into()),
                _ => {}
            }
        }
        waits.dedup();
        InterpError::new(ErrorKind::Deadlock, format!("no task can go on: {}", waits.join("; ")))
    }

    fn run_destructors(&mut self) -> Result<(), InterpError> {
        while let Some((f, obj)) = self.destructors.pop() {
            let args = [Arg { reg: 0, elem: Elem::Handle, lanes: 1 }];
            let mut regs = [obj, 0];
            self.call(f, &args, &mut regs, 1, Elem::Int(32), 1, u32::MAX)?;
        }
        Ok(())
    }

    fn check_leaks(&self) -> Result<(), InterpError> {
        // Device memory of the arguments belongs to the caller's buffers.
        let mut owned_by_args = Vec::new();
        for b in self.buffers.iter().flatten() {
            if let Ok(d) = Descriptor::read(&self.heap, b.descriptor)
                && let Some((o, _)) = decode(d.device)
            {
                owned_by_args.push(o);
            }
        }
        let leaks: Vec<String> = self
            .heap
            .objects()
            .iter()
            .enumerate()
            .filter(|(k, o)| {
                o.live
                    && matches!(o.kind, ObjectKind::Malloc | ObjectKind::Device)
                    && !owned_by_args.contains(k)
            })
            .map(|(_, o)| {
                let what =
                    if o.kind == ObjectKind::Device { "device memory" } else { "halide_malloc memory" };
                format!("{what} of {} ({} bytes)", o.name, o.size)
            })
            .collect();
        if leaks.is_empty() {
            Ok(())
        } else {
            Err(InterpError::new(ErrorKind::Leak, format!("never freed: {}", leaks.join(", "))))
        }
    }

    // ---- storage ----

    fn new_storage(&mut self, s: Storage) -> usize {
        if let Some(k) = self.free_storages.pop() {
            self.storages[k] = s;
            k
        } else {
            self.storages.push(s);
            self.storages.len() - 1
        }
    }

    fn realize(
        &mut self,
        bounds: &[(i64, i64)],
        types: &[Elem],
        growable: bool,
        site: u32,
    ) -> Result<usize, InterpError> {
        let name = match self.program.sites.get(site as usize) {
            Some(crate::code::Site::Stmt(s)) => match s.kind() {
                loopir::StmtKind::Realize { name, .. } => name.clone(),
                _ => Name::from("?"),
            },
            _ => Name::from("?"),
        };
        let mut s = Storage {
            name,
            mins: SmallVec::new(),
            extents: SmallVec::new(),
            strides: SmallVec::new(),
            planes: SmallVec::new(),
            descriptors: SmallVec::new(),
            growable,
            owned: true,
            live: true,
        };
        if !growable {
            let mut stride = 1i64;
            for &(min, extent) in bounds {
                let extent = extent.max(0);
                s.mins.push(min);
                s.extents.push(extent);
                s.strides.push(stride);
                stride = stride.saturating_mul(extent.max(1));
            }
        } else {
            s.mins.extend(std::iter::repeat_n(0, bounds.len()));
            s.extents.extend(std::iter::repeat_n(0, bounds.len()));
            s.strides.extend(std::iter::repeat_n(0, bounds.len()));
        }
        let count: i128 = s.extents.iter().map(|&e| e as i128).product();
        for &elem in types {
            let h = self
                .heap
                .alloc(count.max(0) as u128 * elem.bytes() as u128, ObjectKind::Realization, &s.name)
                .map_err(|e| mem_error(&e))?;
            s.planes.push((h, elem));
        }
        self.note_memory();
        Ok(self.new_storage(s))
    }

    fn end_realization(&mut self, k: usize) -> Result<(), InterpError> {
        let Some(s) = self.storages.get_mut(k) else { return Ok(()) };
        if !s.live || !s.owned {
            return Ok(());
        }
        s.live = false;
        let planes = std::mem::take(&mut s.planes);
        for (h, _) in planes {
            self.heap.free(h).map_err(|e| mem_error(&e))?;
        }
        self.free_storages.push(k);
        Ok(())
    }

    /// Where `coords` fall in storage `k`: `Some(offset)` in elements, or `None` when
    /// outside its box (which a growable storage, when `grow`, first grows to cover).
    /// Many runs read outside on purpose (a growable realization's unstored points, a
    /// probing run's reads): the message for an access outside is only built when it
    /// becomes the run's error ([`Machine::outside_error`]).
    fn storage_offset(&mut self, k: usize, coords: &[i64], grow: bool) -> Result<Option<i64>, InterpError> {
        let s = self
            .storages
            .get(k)
            .ok_or_else(|| InterpError::new(ErrorKind::BadProgram, "a Func access with no storage"))?;
        if !s.live {
            return Err(InterpError::new(
                ErrorKind::MemoryAccess,
                format!("{} is accessed after its realization ended", s.name),
            ));
        }
        if coords.len() != s.mins.len() {
            return Err(InterpError::new(
                ErrorKind::BadProgram,
                format!(
                    "{} has {} dimensions but is accessed with {} coordinates",
                    s.name,
                    s.mins.len(),
                    coords.len()
                ),
            ));
        }
        let inside =
            coords.iter().zip(s.mins.iter().zip(&s.extents)).all(|(c, (m, e))| *c >= *m && *c < m + e);
        if !inside {
            if s.growable && grow {
                self.grow(k, coords, coords)?;
            } else {
                return Ok(None);
            }
        }
        let s = &self.storages[k];
        Ok(Some(coords.iter().zip(s.mins.iter().zip(&s.strides)).map(|(c, (m, st))| (c - m) * st).sum()))
    }

    /// The element offset of a Func access (a store if `store`) to storage `k` at the
    /// coordinates in registers `args`; `None` for an access outside the box that the
    /// run lets through: a load then reads 0, a store is dropped. Anything else outside
    /// is an error.
    #[inline]
    fn func_access(
        &mut self,
        k: usize,
        args: &[u32],
        regs: &[u64],
        store: bool,
    ) -> Result<Option<i64>, InterpError> {
        if let Some(off) = self.storages.get(k).and_then(|s| offset_inside(s, args, regs)) {
            return Ok(Some(off));
        }
        let coords: SmallVec<[i64; 4]> = args.iter().map(|&a| regs[a as usize] as i64).collect();
        // A growable storage grows to take a store.
        if let Some(off) = self.storage_offset(k, &coords, store)? {
            return Ok(Some(off));
        }
        let s = &self.storages[k];
        // An open realization is allocated, later in lowering, over what is read as
        // well as what is stored: a read of a point never stored reads zeroed memory
        // there, and here.
        if !store && s.growable {
            return Ok(None);
        }
        // Before the reference inserts its checks on the buffers' shapes, a schedule may
        // read an input, or write an output, outside the size asked for (a tile larger
        // than the output, shifted inwards past its min), as the bounds query of a later
        // stage reports: a probing run records where.
        if self.probing && !s.owned {
            self.record_probed(k, &coords);
            return Ok(None);
        }
        Err(self.outside_error(k, &coords))
    }

    /// The error for an access of storage `k` at `coords`, outside its box.
    fn outside_error(&self, k: usize, coords: &[i64]) -> InterpError {
        let s = &self.storages[k];
        let region: Vec<String> =
            s.mins.iter().zip(&s.extents).map(|(m, e)| format!("[{m}, {}]", m + e - 1)).collect();
        let at: Vec<String> = coords.iter().map(|c| c.to_string()).collect();
        let why = if s.growable { "which nothing has stored to" } else { "outside its realization" };
        InterpError::new(
            ErrorKind::OutsideRealization,
            format!("{}({}) is {why} {}", s.name, at.join(", "), region.join(" x ")),
        )
    }

    /// Grows a growable storage to cover the box `lo..=hi` (keeping its contents).
    fn grow(&mut self, k: usize, lo: &[i64], hi: &[i64]) -> Result<(), InterpError> {
        let s = &self.storages[k];
        let empty = s.extents.contains(&0);
        let mut mins: SmallVec<[i64; 4]> = SmallVec::new();
        let mut extents: SmallVec<[i64; 4]> = SmallVec::new();
        for d in 0..s.mins.len() {
            let (old_min, old_ext) = (s.mins[d], s.extents[d]);
            let (mut new_min, mut new_max) =
                if empty { (lo[d], hi[d]) } else { (old_min.min(lo[d]), (old_min + old_ext - 1).max(hi[d])) };
            // Grow by at least the old extent in the direction that needs it, so a
            // sweep costs amortised linear time.
            if !empty {
                if new_min < old_min {
                    new_min = new_min.min(old_min - old_ext);
                }
                if new_max > old_min + old_ext - 1 {
                    new_max = new_max.max(old_min + 2 * old_ext - 1);
                }
            }
            mins.push(new_min);
            extents.push(new_max - new_min + 1);
        }
        let mut strides: SmallVec<[i64; 4]> = SmallVec::new();
        let mut stride = 1i64;
        for &e in &extents {
            strides.push(stride);
            stride = stride.saturating_mul(e);
        }
        let count: i128 = extents.iter().map(|&e| e as i128).product();
        let old = self.storages[k].clone();
        let mut planes = SmallVec::new();
        for &(h, elem) in &old.planes {
            let nh = self
                .heap
                .alloc(count as u128 * elem.bytes() as u128, ObjectKind::Realization, &old.name)
                .map_err(|e| mem_error(&e))?;
            if !empty {
                // Copy the old box row by row (dimension 0 is contiguous in both).
                let rows: i64 = old.extents.iter().skip(1).product();
                let size = elem.bytes() as i64;
                for r in 0..rows {
                    let mut rem = r;
                    let (mut src, mut dst) = (0i64, 0i64);
                    dst += old.mins[0] - mins[0];
                    for d in 1..old.mins.len() {
                        let c = rem % old.extents[d];
                        rem /= old.extents[d];
                        src += c * old.strides[d];
                        dst += (c + old.mins[d] - mins[d]) * strides[d];
                    }
                    let len = (old.extents[0] * size) as usize;
                    let data = self.heap.read(h, src * size, len).map_err(|e| mem_error(&e))?.to_vec();
                    self.heap.write(nh, dst * size, &data).map_err(|e| mem_error(&e))?;
                }
            }
            self.heap.free(h).map_err(|e| mem_error(&e))?;
            planes.push((nh, elem));
        }
        let s = &mut self.storages[k];
        s.mins = mins;
        s.extents = extents;
        s.strides = strides;
        s.planes = planes;
        let descriptors = s.descriptors.clone();
        for (v, d) in descriptors.into_iter().enumerate() {
            self.write_storage_descriptor(k, v, d)?;
        }
        self.note_memory();
        Ok(())
    }

    /// The `halide_buffer_t` of plane `v` of storage `k` (made on first use).
    fn storage_descriptor(&mut self, k: usize, v: usize) -> Result<Handle, InterpError> {
        let s = &self.storages[k];
        if let Some(&d) = s.descriptors.get(v) {
            return Ok(d);
        }
        if v >= s.planes.len() {
            return Err(InterpError::new(ErrorKind::BadProgram, format!("{} has no value {v}", s.name)));
        }
        let name = s.name.clone();
        let dims = s.mins.len();
        while self.storages[k].descriptors.len() <= v {
            let dim_array = self
                .heap
                .alloc((layout::DIM_SIZE * dims.max(1)) as u128, ObjectKind::BufferDescriptor, &name)
                .map_err(|e| mem_error(&e))?;
            let d = self
                .heap
                .alloc(layout::SIZE as u128, ObjectKind::BufferDescriptor, &name)
                .map_err(|e| mem_error(&e))?;
            self.heap.write_uint(d, layout::DIM, 8, dim_array).map_err(|e| mem_error(&e))?;
            self.storages[k].descriptors.push(d);
        }
        for w in 0..self.storages[k].descriptors.len().min(self.storages[k].planes.len()) {
            let d = self.storages[k].descriptors[w];
            self.write_storage_descriptor(k, w, d)?;
        }
        Ok(self.storages[k].descriptors[v])
    }

    fn write_storage_descriptor(&mut self, k: usize, v: usize, d: Handle) -> Result<(), InterpError> {
        let s = &self.storages[k];
        let Some(&(host, elem)) = s.planes.get(v) else { return Ok(()) };
        let dims: Vec<Dim> = (0..s.mins.len())
            .map(|i| Dim { min: s.mins[i] as i32, extent: s.extents[i] as i32, stride: s.strides[i] as i32 })
            .collect();
        let dim = self.heap.read_uint(d, layout::DIM, 8).map_err(|e| mem_error(&e))?;
        let desc = Descriptor {
            device: 0,
            device_interface: NULL,
            host,
            flags: 0,
            ty: type_bits(elem),
            dimensions: dims.len() as i32,
            dim,
        };
        write_descriptor(&mut self.heap, d, &desc, &dims).map_err(|e| mem_error(&e))
    }

    fn note_memory(&mut self) {
        self.peak_memory = self.peak_memory.max(self.heap.live_bytes());
    }

    // ---- the instruction loop ----

    fn exec(&mut self, t: usize) -> Result<Stop, InterpError> {
        let mut regs = std::mem::take(&mut self.tasks[t].regs);
        let mut pc = self.tasks[t].pc;
        let r = self.exec_loop(&mut regs, &mut pc);
        self.tasks[t].regs = regs;
        self.tasks[t].pc = pc;
        r
    }

    fn site(&self, site: u32) -> String {
        self.program.sites.get(site as usize).map(|s| s.describe()).unwrap_or_default()
    }

    #[inline(never)]
    fn fail(&self, site: u32, e: InterpError) -> InterpError {
        e.at(|| self.site(site))
    }

    fn exec_loop(&mut self, regs: &mut [u64], pc_out: &mut Pc) -> Result<Stop, InterpError> {
        let program: &'p Program = self.program;
        let code = program.code.as_slice();
        let mut pc = *pc_out as usize;
        let mut ops = self.ops;
        let result = loop {
            let Some(ins) = code.get(pc) else {
                break Err(InterpError::new(ErrorKind::BadProgram, "the code ends without a halt"));
            };
            pc += 1;
            ops += 1;
            match ins {
                Instr::Const { dst, value } => regs[*dst as usize] = *value,
                Instr::Copy { dst, src, lanes } => {
                    let (d, s, n) = (*dst as usize, *src as usize, *lanes as usize);
                    regs.copy_within(s..s + n, d);
                }
                Instr::Binary { op, elem, dst, a, b, lanes } => {
                    let (d, a, b) = (*dst as usize, *a as usize, *b as usize);
                    if *lanes == 1 {
                        regs[d] = arith::binary(*op, *elem, regs[a], regs[b]);
                    } else {
                        for i in 0..*lanes as usize {
                            regs[d + i] = arith::binary(*op, *elem, regs[a + i], regs[b + i]);
                        }
                    }
                }
                Instr::AddI32 { dst, a, b } => {
                    regs[*dst as usize] =
                        (regs[*a as usize] as i32).wrapping_add(regs[*b as usize] as i32) as i64 as u64;
                }
                Instr::MulAddI32 { dst, a, b, c } => {
                    let p = (regs[*a as usize] as i32).wrapping_mul(regs[*b as usize] as i32);
                    regs[*dst as usize] = p.wrapping_add(regs[*c as usize] as i32) as i64 as u64;
                    // Two operations of the IR.
                    ops += 1;
                }
                Instr::SubI32 { dst, a, b } => {
                    regs[*dst as usize] =
                        (regs[*a as usize] as i32).wrapping_sub(regs[*b as usize] as i32) as i64 as u64;
                }
                Instr::MulI32 { dst, a, b } => {
                    regs[*dst as usize] =
                        (regs[*a as usize] as i32).wrapping_mul(regs[*b as usize] as i32) as i64 as u64;
                }
                Instr::MinI32 { dst, a, b } => {
                    regs[*dst as usize] = (regs[*a as usize] as i64).min(regs[*b as usize] as i64) as u64;
                }
                Instr::MaxI32 { dst, a, b } => {
                    regs[*dst as usize] = (regs[*a as usize] as i64).max(regs[*b as usize] as i64) as u64;
                }
                Instr::BinaryI32 { op, dst, a, b } => {
                    let (x, y) = (regs[*a as usize] as i64 as i32, regs[*b as usize] as i64 as i32);
                    let r: i32 = match op {
                        BinOp::Add => x.wrapping_add(y),
                        BinOp::Sub => x.wrapping_sub(y),
                        BinOp::Mul => x.wrapping_mul(y),
                        BinOp::Min => x.min(y),
                        BinOp::Max => x.max(y),
                        BinOp::Lt => (x < y) as i32,
                        BinOp::Le => (x <= y) as i32,
                        BinOp::Gt => (x > y) as i32,
                        BinOp::Ge => (x >= y) as i32,
                        BinOp::Eq => (x == y) as i32,
                        BinOp::Ne => (x != y) as i32,
                        // Euclidean, zero for a zero divisor, i32::MIN / -1 wraps.
                        BinOp::Div if y != 0 => (x as i64).div_euclid(y as i64) as i32,
                        BinOp::Mod if y != 0 => (x as i64).rem_euclid(y as i64) as i32,
                        BinOp::Div | BinOp::Mod => 0,
                        _ => arith::binary(*op, Elem::I32, x as i64 as u64, y as i64 as u64) as i64 as i32,
                    };
                    // Comparisons give a bool (0 or 1), which is also its int32 value.
                    regs[*dst as usize] = r as i64 as u64;
                }
                Instr::BinaryF32 { op, dst, a, b } => {
                    let (x, y) =
                        (f32::from_bits(regs[*a as usize] as u32), f32::from_bits(regs[*b as usize] as u32));
                    regs[*dst as usize] = match op {
                        BinOp::Add => (x + y).to_bits() as u64,
                        BinOp::Sub => (x - y).to_bits() as u64,
                        BinOp::Mul => (x * y).to_bits() as u64,
                        BinOp::Div => (x / y).to_bits() as u64,
                        BinOp::Lt => (x < y) as u64,
                        BinOp::Gt => (x > y) as u64,
                        _ => arith::binary(*op, Elem::Float(32), regs[*a as usize], regs[*b as usize]),
                    };
                }
                Instr::LoadScalar { dst, ptr, index, elem, site } => {
                    let idx = regs[*index as usize] as i64;
                    match self.heap.load(regs[*ptr as usize], *elem, elem.bytes(), idx) {
                        Ok(v) => regs[*dst as usize] = v,
                        Err(e) => {
                            let msg = format!("load of element {idx}: {e}");
                            break_err!(self, *site, kind_of(&e), msg, ops, pc, pc_out)
                        }
                    }
                }
                Instr::StoreScalar { ptr, index, value, elem, site } => {
                    let idx = regs[*index as usize] as i64;
                    if let Err(e) =
                        self.heap.store(regs[*ptr as usize], elem.bytes(), idx, regs[*value as usize])
                    {
                        let msg = format!("store to element {idx}: {e}");
                        break_err!(self, *site, kind_of(&e), msg, ops, pc, pc_out)
                    }
                }
                Instr::Not { dst, a, lanes } => {
                    for i in 0..*lanes as usize {
                        regs[*dst as usize + i] = (regs[*a as usize + i] & 1) ^ 1;
                    }
                }
                Instr::Select { dst, cond, t, f, lanes, cond_lanes } => {
                    let (d, c, tt, ff) = (*dst as usize, *cond as usize, *t as usize, *f as usize);
                    if *cond_lanes == 1 {
                        let src = if regs[c] & 1 != 0 { tt } else { ff };
                        regs.copy_within(src..src + *lanes as usize, d);
                    } else {
                        for i in 0..*lanes as usize {
                            regs[d + i] = if regs[c + i] & 1 != 0 { regs[tt + i] } else { regs[ff + i] };
                        }
                    }
                }
                Instr::Cast { dst, src, from, to, lanes } => {
                    for i in 0..*lanes as usize {
                        regs[*dst as usize + i] = elem::cast(*from, *to, regs[*src as usize + i]);
                    }
                }
                Instr::Reinterpret { dst, src, from, to, from_lanes, to_lanes } => {
                    let input: SmallVec<[u64; 16]> =
                        regs[*src as usize..*src as usize + *from_lanes as usize].iter().copied().collect();
                    elem::reinterpret(
                        *from,
                        *to,
                        &input,
                        &mut regs[*dst as usize..*dst as usize + *to_lanes as usize],
                    );
                }
                Instr::Ramp { dst, base, stride, elem, base_lanes, count } => {
                    let bl = *base_lanes as usize;
                    for k in 0..*count as usize {
                        for j in 0..bl {
                            let b = regs[*base as usize + j];
                            let s = regs[*stride as usize + j];
                            // base + k * stride, in the element type.
                            let ks = match elem {
                                Elem::Int(_) | Elem::UInt(_) => elem.wrap(s.wrapping_mul(k as u64)),
                                _ => arith::binary(
                                    BinOp::Mul,
                                    *elem,
                                    s,
                                    elem::cast(Elem::Int(32), *elem, k as u64),
                                ),
                            };
                            regs[*dst as usize + k * bl + j] = arith::binary(BinOp::Add, *elem, b, ks);
                        }
                    }
                }
                Instr::Broadcast { dst, src, src_lanes, count } => {
                    let n = *src_lanes as usize;
                    for k in 0..*count as usize {
                        regs.copy_within(*src as usize..*src as usize + n, *dst as usize + k * n);
                    }
                }
                Instr::Shuffle { dst, src, indices } => {
                    let picked: SmallVec<[u64; 32]> =
                        indices.iter().map(|&i| regs[*src as usize + i as usize]).collect();
                    regs[*dst as usize..*dst as usize + picked.len()].copy_from_slice(&picked);
                }
                Instr::Reduce { op, elem, dst, src, in_lanes, out_lanes } => {
                    let group = (*in_lanes / (*out_lanes).max(1)) as usize;
                    for o in 0..*out_lanes as usize {
                        let lanes = &regs[*src as usize + o * group..*src as usize + (o + 1) * group];
                        let r = reduce(*op, *elem, lanes);
                        regs[*dst as usize + o] = r;
                    }
                }
                Instr::Math { op, out, dst, lanes, args, site } => {
                    let mut vals: SmallVec<[u64; 4]> = SmallVec::from_elem(0, args.len());
                    let elems: SmallVec<[Elem; 4]> = args.iter().map(|a| a.elem).collect();
                    for i in 0..*lanes as usize {
                        for (k, a) in args.iter().enumerate() {
                            vals[k] = regs[a.reg as usize + if a.lanes == 1 { 0 } else { i }];
                        }
                        match arith::math(*op, *out, LaneArgs { v: &vals, e: &elems }) {
                            Ok(v) => regs[*dst as usize + i] = v,
                            Err(u) => break_err!(self, *site, ErrorKind::Undefined, u.0, ops, pc, pc_out),
                        }
                    }
                }
                Instr::Load { dst, ptr, index, pred, elem, lanes, site } => {
                    let h = regs[*ptr as usize];
                    let size = elem.bytes();
                    for i in 0..*lanes as usize {
                        if *pred != NO_REG && regs[*pred as usize + i] & 1 == 0 {
                            regs[*dst as usize + i] = 0;
                            continue;
                        }
                        let idx = regs[*index as usize + i] as i64;
                        match self.heap.load(h, *elem, size, idx) {
                            Ok(v) => regs[*dst as usize + i] = v,
                            Err(e) => {
                                let msg = format!("load of element {idx}: {e}");
                                break_err!(self, *site, kind_of(&e), msg, ops, pc, pc_out)
                            }
                        }
                    }
                }
                Instr::Store { ptr, index, value, pred, elem, lanes, site } => {
                    let h = regs[*ptr as usize];
                    let size = elem.bytes();
                    for i in 0..*lanes as usize {
                        if *pred != NO_REG && regs[*pred as usize + i] & 1 == 0 {
                            continue;
                        }
                        let idx = regs[*index as usize + i] as i64;
                        if let Err(e) = self.heap.store(h, size, idx, regs[*value as usize + i]) {
                            let msg = format!("store to element {idx}: {e}");
                            break_err!(self, *site, kind_of(&e), msg, ops, pc, pc_out)
                        }
                    }
                }
                Instr::FuncLoad { dst, storage, value_index, args, elem, site } => {
                    let k = regs[*storage as usize] as usize;
                    let off = match self.func_access(k, args, regs, false) {
                        Ok(Some(o)) => o,
                        Ok(None) => {
                            regs[*dst as usize] = 0;
                            continue;
                        }
                        Err(e) => break_with!(self, *site, e, ops, pc, pc_out),
                    };
                    let Some(&(h, _)) = self.storages[k].planes.get(*value_index as usize) else {
                        break_err!(
                            self,
                            *site,
                            ErrorKind::BadProgram,
                            format!("{} has no value {value_index}", self.storages[k].name),
                            ops,
                            pc,
                            pc_out
                        )
                    };
                    match self.heap.load(h, *elem, elem.bytes(), off) {
                        Ok(v) => regs[*dst as usize] = v,
                        Err(e) => break_err!(self, *site, kind_of(&e), e.to_string(), ops, pc, pc_out),
                    }
                }
                Instr::FuncStore { storage, value_index, value, args, pred, elem, site } => {
                    if *pred != NO_REG && regs[*pred as usize] & 1 == 0 {
                        continue;
                    }
                    let k = regs[*storage as usize] as usize;
                    let off = match self.func_access(k, args, regs, true) {
                        Ok(Some(o)) => o,
                        Ok(None) => continue,
                        Err(e) => break_with!(self, *site, e, ops, pc, pc_out),
                    };
                    let Some(&(h, _)) = self.storages[k].planes.get(*value_index as usize) else {
                        break_err!(
                            self,
                            *site,
                            ErrorKind::BadProgram,
                            format!("{} has no value {value_index}", self.storages[k].name),
                            ops,
                            pc,
                            pc_out
                        )
                    };
                    if let Err(e) = self.heap.store(h, elem.bytes(), off, regs[*value as usize]) {
                        break_err!(self, *site, kind_of(&e), e.to_string(), ops, pc, pc_out)
                    }
                }
                Instr::Call { func, dst, ret, lanes, args, site } => {
                    self.ops = ops;
                    if let Err(e) = self.call(*func, args, regs, *dst, *ret, *lanes, *site) {
                        break_with!(self, *site, e, ops, pc, pc_out)
                    }
                    ops = self.ops;
                }
                Instr::MakeStruct { dst, fields, slot, site } => {
                    match self.make_struct(fields, regs, *slot) {
                        Ok(h) => regs[*dst as usize] = h,
                        Err(e) => break_with!(self, *site, e, ops, pc, pc_out),
                    }
                }
                Instr::Alloca { dst, size, slot, site } => {
                    let size = regs[*size as usize] as i64;
                    match self.stack_object(*slot, size.max(0) as usize, "alloca") {
                        Ok(h) => regs[*dst as usize] = h,
                        Err(e) => break_with!(self, *site, e, ops, pc, pc_out),
                    }
                }
                Instr::Jump { to } => {
                    pc = *to as usize;
                    if ops > self.op_limit {
                        break Err(self.op_limit_error());
                    }
                }
                Instr::JumpIfFalse { cond, to } => {
                    if regs[*cond as usize] & 1 == 0 {
                        pc = *to as usize;
                    }
                }
                Instr::JumpIfTrue { cond, to } => {
                    if regs[*cond as usize] & 1 != 0 {
                        pc = *to as usize;
                    }
                }
                Instr::LoopStart { var, min, max, end } => {
                    let lo = regs[*min as usize] as i64;
                    let hi = regs[*max as usize] as i64;
                    regs[*var as usize] = lo as u64;
                    if lo > hi {
                        pc = *end as usize;
                    }
                }
                Instr::LoopNext { var, max, body } => {
                    let v = regs[*var as usize] as i64;
                    if v < regs[*max as usize] as i64 {
                        regs[*var as usize] = (v + 1) as u64;
                        pc = *body as usize;
                        if ops > self.op_limit {
                            break Err(self.op_limit_error());
                        }
                    }
                }
                Instr::Fail { code, site } => {
                    let code = regs[*code as usize] as i64 as i32;
                    let message = self
                        .last_error
                        .take()
                        .unwrap_or_else(|| format!("the assertion failed and the pipeline returns {code}"));
                    break_err!(self, *site, ErrorKind::AssertionFailed { code }, message, ops, pc, pc_out)
                }
                Instr::Allocate { dst, elem, extents, cond, padding, site } => {
                    let mut count: i128 = 1;
                    for &e in extents.iter() {
                        count = count.saturating_mul(regs[e as usize] as i64 as i128);
                    }
                    if count < 0 {
                        break_err!(
                            self,
                            *site,
                            ErrorKind::BadProgram,
                            format!("allocation of {count} elements"),
                            ops,
                            pc,
                            pc_out
                        )
                    }
                    if regs[*cond as usize] & 1 == 0 {
                        count = 0;
                    } else {
                        count += *padding as i128;
                    }
                    let name = self.alloc_name(*site);
                    match self.heap.alloc(count as u128 * elem.bytes() as u128, ObjectKind::Allocation, &name)
                    {
                        Ok(h) => regs[*dst as usize] = h,
                        Err(e) => break_err!(self, *site, kind_of(&e), e.to_string(), ops, pc, pc_out),
                    }
                    self.note_memory();
                }
                Instr::AllocateToken { dst, site } => {
                    let name = self.alloc_name(*site);
                    match self.heap.alloc(0, ObjectKind::CustomAllocation, &name) {
                        Ok(h) => regs[*dst as usize] = h,
                        Err(e) => break_err!(self, *site, kind_of(&e), e.to_string(), ops, pc, pc_out),
                    }
                }
                Instr::Free { ptr, custom, free_fn, scope_end, site } => {
                    let h = regs[*ptr as usize];
                    if *scope_end && !self.heap.is_live(h) {
                        continue;
                    }
                    if let Err(e) = self.heap.free(h) {
                        break_err!(self, *site, kind_of(&e), e.to_string(), ops, pc, pc_out)
                    }
                    if let Some(f) = free_fn {
                        let args = [Arg { reg: *custom, elem: Elem::Handle, lanes: 1 }];
                        self.ops = ops;
                        if let Err(e) = self.call(*f, &args, regs, NO_REG, Elem::Int(32), 1, *site) {
                            break_with!(self, *site, e, ops, pc, pc_out)
                        }
                    }
                }
                Instr::RealizeStart { dst, bounds, types, cond, growable, site } => {
                    let b: SmallVec<[(i64, i64); 4]> = bounds
                        .iter()
                        .map(|&(m, e)| {
                            let get = |r: Reg| if r == NO_REG { 0 } else { regs[r as usize] as i64 };
                            (get(m), get(e))
                        })
                        .collect();
                    let realized = if regs[*cond as usize] & 1 == 0 {
                        let zero: SmallVec<[(i64, i64); 4]> = b.iter().map(|_| (0, 0)).collect();
                        self.realize(&zero, types, false, *site)
                    } else {
                        self.realize(&b, types, *growable, *site)
                    };
                    match realized {
                        Ok(k) => regs[*dst as usize] = k as u64,
                        Err(e) => break_with!(self, *site, e, ops, pc, pc_out),
                    }
                }
                Instr::GrowRealization { storage, lo, hi, site } => {
                    let k = regs[*storage as usize] as usize;
                    let lo: SmallVec<[i64; 4]> = lo.iter().map(|&r| regs[r as usize] as i64).collect();
                    let hi: SmallVec<[i64; 4]> = hi.iter().map(|&r| regs[r as usize] as i64).collect();
                    let grows = self.storages.get(k).is_some_and(|s| s.growable && s.mins.len() == lo.len());
                    if grows && lo.iter().zip(&hi).all(|(l, h)| l <= h) {
                        let covered = {
                            let s = &self.storages[k];
                            !s.extents.contains(&0)
                                && (0..lo.len())
                                    .all(|d| lo[d] >= s.mins[d] && hi[d] < s.mins[d] + s.extents[d])
                        };
                        if !covered && let Err(e) = self.grow(k, &lo, &hi) {
                            break_with!(self, *site, e, ops, pc, pc_out)
                        }
                    }
                }
                Instr::RealizationBound { dst, storage, dim, kind } => {
                    let s = self.storages.get(regs[*storage as usize] as usize);
                    let (min, extent) = s
                        .and_then(|s| Some((*s.mins.get(*dim as usize)?, *s.extents.get(*dim as usize)?)))
                        .unwrap_or((0, 0));
                    regs[*dst as usize] = match kind {
                        crate::compile::BoundKind::Min => min,
                        crate::compile::BoundKind::Extent => extent,
                        crate::compile::BoundKind::Max => min + extent - 1,
                    } as u64;
                }
                Instr::RealizeEnd { storage } => {
                    if let Err(e) = self.end_realization(regs[*storage as usize] as usize) {
                        break Err(e);
                    }
                }
                Instr::RealizationBuffer { dst, storage, value_index, site } => {
                    match self.storage_descriptor(regs[*storage as usize] as usize, *value_index as usize) {
                        Ok(h) => regs[*dst as usize] = h,
                        Err(e) => break_with!(self, *site, e, ops, pc, pc_out),
                    }
                }
                Instr::Fork { rest, resume } => {
                    *pc_out = pc as Pc;
                    self.ops = ops;
                    return Ok(Stop::Fork { rest: *rest, resume: *resume });
                }
                Instr::TaskEnd => {
                    *pc_out = pc as Pc;
                    self.ops = ops;
                    return Ok(Stop::TaskEnd);
                }
                Instr::Acquire { sem, count, site } => {
                    let h = regs[*sem as usize];
                    let n = regs[*count as usize] as i64;
                    match self.heap.read_i32(h, 0) {
                        Ok(v) if v as i64 >= n => {
                            if let Err(e) = self.heap.write_uint(h, 0, 4, (v as i64 - n) as u64) {
                                break_err!(self, *site, kind_of(&e), e.to_string(), ops, pc, pc_out)
                            }
                        }
                        Ok(_) => {
                            *pc_out = (pc - 1) as Pc;
                            self.ops = ops;
                            return Ok(Stop::Semaphore);
                        }
                        Err(e) => break_err!(self, *site, kind_of(&e), e.to_string(), ops, pc, pc_out),
                    }
                }
                Instr::SpawnThreads { var, min, max, end } => {
                    *pc_out = pc as Pc;
                    self.ops = ops;
                    let (min, max) = (regs[*min as usize] as i64, regs[*max as usize] as i64);
                    return Ok(Stop::Spawn { var: *var, min, max, end: *end });
                }
                Instr::Barrier => {
                    *pc_out = pc as Pc;
                    self.ops = ops;
                    return Ok(Stop::Barrier);
                }
                Instr::Yield => {
                    *pc_out = pc as Pc;
                    self.ops = ops;
                    return Ok(Stop::Yield);
                }
                Instr::DeviceView { dst, buffer, host, site } => {
                    match crate::device::view(
                        &self.heap,
                        regs[*buffer as usize],
                        regs[*host as usize],
                        program.device_aware,
                    ) {
                        Ok(h) => regs[*dst as usize] = h,
                        Err(e) => break_with!(self, *site, e, ops, pc, pc_out),
                    }
                }
                Instr::Unsupported { site, reason } => {
                    break_err!(self, *site, ErrorKind::Unsupported, reason.to_string(), ops, pc, pc_out)
                }
                Instr::Halt => {
                    *pc_out = pc as Pc;
                    self.ops = ops;
                    return Ok(Stop::Halt);
                }
            }
        };
        self.ops = ops;
        *pc_out = pc as Pc;
        result
    }

    fn op_limit_error(&self) -> InterpError {
        InterpError::new(ErrorKind::Limit, format!("the run exceeded {} operations", self.op_limit))
    }

    fn alloc_name(&self, site: u32) -> Name {
        match self.program.sites.get(site as usize) {
            Some(crate::code::Site::Stmt(s)) => match s.kind() {
                loopir::StmtKind::Allocate { name, .. } => name.clone(),
                _ => Name::from("?"),
            },
            _ => Name::from("?"),
        }
    }

    /// The memory of stack site `slot` (made on first use, or remade larger).
    pub(crate) fn stack_object(&mut self, slot: u32, size: usize, what: &str) -> Result<Handle, InterpError> {
        let h = self.stack_slots[slot as usize];
        if h != NULL && self.heap.object(h).is_ok_and(|o| o.size >= size) {
            return Ok(h);
        }
        let h =
            self.heap.alloc(size as u128, ObjectKind::Stack, &Name::from(what)).map_err(|e| mem_error(&e))?;
        self.stack_slots[slot as usize] = h;
        Ok(h)
    }

    fn make_struct(&mut self, fields: &[Arg], regs: &[u64], slot: u32) -> Result<Handle, InterpError> {
        let (offsets, size) = struct_layout(fields.iter().map(|a| (a.elem, a.lanes)));
        let h = self.stack_object(slot, size, "make_struct")?;
        for (a, off) in fields.iter().zip(offsets) {
            let bytes = a.elem.bytes();
            for l in 0..a.lanes as usize {
                self.heap
                    .write_uint(h, (off + l * bytes) as i64, bytes, regs[a.reg as usize + l])
                    .map_err(|e| mem_error(&e))?;
            }
        }
        Ok(h)
    }

    /// The runtime and the memory, borrowed together.
    pub(crate) fn runtime_and_heap(&mut self) -> (&mut (dyn Runtime + 'p), &mut Heap) {
        (&mut *self.runtime, &mut self.heap)
    }

    /// The program.
    pub(crate) fn program(&self) -> &'p Program {
        self.program
    }
}

/// Field offsets and total size of a C struct of the given members (natural alignment).
pub(crate) fn struct_layout(fields: impl Iterator<Item = (Elem, u16)>) -> (Vec<usize>, usize) {
    let mut offsets = Vec::new();
    let mut at = 0usize;
    let mut align = 1usize;
    for (elem, lanes) in fields {
        let size = elem.bytes() * lanes as usize;
        let a = if lanes > 1 { size.next_power_of_two().min(64) } else { elem.bytes() };
        at = at.div_ceil(a) * a;
        offsets.push(at);
        at += size;
        align = align.max(a);
    }
    (offsets, at.div_ceil(align) * align)
}

fn kind_of(e: &HeapError) -> ErrorKind {
    mem_error(e).kind
}

/// Reduces lanes by `op`.
fn reduce(op: VectorReduceOp, elem: Elem, lanes: &[u64]) -> u64 {
    let bin = match op {
        VectorReduceOp::Add => BinOp::Add,
        VectorReduceOp::Mul => BinOp::Mul,
        VectorReduceOp::Min => BinOp::Min,
        VectorReduceOp::Max => BinOp::Max,
        VectorReduceOp::And => BinOp::And,
        VectorReduceOp::Or => BinOp::Or,
        VectorReduceOp::SaturatingAdd => {
            if elem.is_float() {
                BinOp::Add
            } else {
                let total: i128 = lanes.iter().map(|&v| elem.as_i128(v)).sum();
                return elem.saturate(total);
            }
        }
    };
    let mut acc = lanes[0];
    for &v in &lanes[1..] {
        acc = arith::binary(bin, elem, acc, v);
    }
    acc
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Buffer, HostRuntime, compile};

    #[test]
    fn ended_tasks_and_their_barrier_groups_leave_their_slots_to_the_next() {
        // A lane loop run a thousand times starts 4000 tasks; no more than one loop's
        // lanes (and the main task) are alive at once.
        let text = "gpu_block<CUDA> (b, 0, 0) {
 allocate buf[int32 * 4] in GPUShared
 for (i, 0, 999) {
  gpu_lane<CUDA> (l, 0, 3) {
   buf[l] = i + l
   out[l] = buf[3 - l]
  }
 }
 free buf
}
";
        let program = compile(&loopir::parse_stmt(text).expect("parses")).expect("compiles");
        let mut rt = HostRuntime::new();
        let mut m = Machine::new(&program, &mut rt, Limits::default()).expect("machine");
        m.bind_buffer("out", &Buffer::new(Elem::I32, &[0], &[4])).expect("binds");
        let stats = m.run().expect("runs");
        assert_eq!(stats.tasks, 4000);
        assert!(m.tasks.len() <= 5, "{} task slots", m.tasks.len());
        assert!(m.groups.len() <= 1, "{} barrier groups", m.groups.len());
        assert_eq!(m.read_buffer("out").expect("reads").values, vec![1002, 1001, 1000, 999]);
    }

    #[test]
    fn lanes_do_not_wait_for_each_other_after_stores_to_registers() {
        // Halide stripes a register allocation outside a lane loop over the lanes
        // (conv_layer.cuda's accumulators): a lane only reads its own entries, so stores
        // there need no lockstep, which in shared memory costs a task switch each.
        let run = |memory: &str| {
            let text = format!(
                "gpu_block<CUDA> (b, 0, 0) {{
 allocate acc[int32 * 4] in {memory}
 gpu_lane<CUDA> (l, 0, 3) {{
  acc[l] = 0
  for (i, 0, 99) {{
   acc[l] = acc[l] + i
  }}
  out[l] = acc[l] + l
 }}
 free acc
}}
"
            );
            let program = compile(&loopir::parse_stmt(&text).expect("parses")).expect("compiles");
            let mut rt = HostRuntime::new();
            let mut m = Machine::new(&program, &mut rt, Limits::default()).expect("machine");
            m.bind_buffer("out", &Buffer::new(Elem::I32, &[0], &[4])).expect("binds");
            let stats = m.run().expect("runs");
            (stats.operations, m.read_buffer("out").expect("reads").values)
        };
        let (in_registers, out) = run("Register");
        let (in_shared, out_shared) = run("GPUShared");
        assert_eq!(out, vec![4950, 4951, 4952, 4953]);
        assert_eq!(out, out_shared);
        // A yield before and after each of the 4*101 stores to shared memory.
        assert_eq!(in_shared - in_registers, 2 * 4 * 101);
    }
}
