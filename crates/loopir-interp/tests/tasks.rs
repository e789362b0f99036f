//! Forks, semaphores and GPU thread barriers: tasks that must run interleaved.

use loopir_interp::{Buffer, Elem, ErrorKind, HostRuntime, Limits, Machine, compile};

fn run_out(text: &str, n: i32) -> Result<Vec<i64>, loopir_interp::InterpError> {
    let stmt = loopir::parse_stmt(text).expect("parses");
    let program = compile(&stmt)?;
    let mut rt = HostRuntime::new();
    let mut m = Machine::new(&program, &mut rt, Limits::default())?;
    m.bind_buffer("out", &Buffer::new(Elem::I32, &[0], &[n]))?;
    m.run()?;
    Ok(m.read_buffer("out")?.values.iter().map(|&v| v as i64).collect())
}

#[test]
fn threads_exchange_values_through_shared_memory_across_a_barrier() {
    // Each thread writes its slot, waits, then reads its mirror's: serial execution of
    // the thread loop would read slots nobody has written yet.
    let text = "gpu_block<CUDA> (b, 0, 0) {
 allocate buf[int32 * 4] in GPUShared
 gpu_thread<CUDA> (t, 0, 3) {
  buf[t] = t + 10
  gpu_thread_barrier(2)
  out[t] = buf[3 - t]
 }
 free buf
}
";
    assert_eq!(run_out(text, 4).expect("runs"), vec![13, 12, 11, 10]);
}

#[test]
fn nested_thread_loops_form_one_block() {
    let text = "gpu_block<CUDA> (b, 0, 0) {
 allocate buf[int32 * 6] in GPUShared
 gpu_thread<CUDA> (ty, 0, 1) {
  gpu_thread<CUDA> (tx, 0, 2) {
   buf[(ty*3) + tx] = (ty*3) + tx
   gpu_thread_barrier(2)
   out[(ty*3) + tx] = buf[5 - ((ty*3) + tx)]
  }
 }
 free buf
}
";
    assert_eq!(run_out(text, 6).expect("runs"), vec![5, 4, 3, 2, 1, 0]);
}

#[test]
fn the_lanes_of_a_warp_run_in_lockstep() {
    // Thread loop fusion puts no barrier between the stages of a warp (iir_blur's
    // transpose through shared memory): each lane reads what the others stored in the
    // statements before, which serial execution of the lane loop would not have
    // stored yet. `r` is each lane's own.
    let text = "gpu_block<CUDA> (b, 0, 0) {
 allocate buf[int32 * 4] in GPUShared
 gpu_lane<CUDA> (l, 0, 3) {
  allocate r[int32 * 1] in Register
  r[0] = l + 10
  buf[l] = r[0]
  out[l] = buf[3 - l]
  free r
 }
 free buf
}
";
    assert_eq!(run_out(text, 4).expect("runs"), vec![13, 12, 11, 10]);
}

#[test]
fn a_let_of_the_block_may_read_the_thread_ids() {
    // Every thread runs the code of its block: thread loop fusion defines the linear
    // thread id (lens_blur) before the loops that bind `.thread_id_x`.
    let text = "gpu_block<CUDA> (b, 0, 0) {
 let t = (.thread_id_y*3) + .thread_id_x
 gpu_thread<CUDA> (.thread_id_y, 0, 1) {
  gpu_thread<CUDA> (.thread_id_x, 0, 2) {
   out[t] = t*10
  }
 }
}
";
    assert_eq!(run_out(text, 6).expect("runs"), vec![0, 10, 20, 30, 40, 50]);
}

#[test]
fn a_producer_waits_for_its_consumer_to_free_a_fold() {
    // The first task needs a permit the second gives back: run one after the other,
    // the first would wait forever.
    let text = "let sem_a = (struct halide_semaphore_t *)alloca(16)
let sem_b = (struct halide_semaphore_t *)alloca(16)
halide_semaphore_init(sem_a, 0)
halide_semaphore_init(sem_b, 0)
fork {
 out[0] = 1
 halide_semaphore_release(sem_a, 1)
 acquire (sem_b, 1) {
  out[2] = out[1] + 1
 }
} {
 acquire (sem_a, 1) {
  out[1] = out[0] + 1
  halide_semaphore_release(sem_b, 1)
 }
}
";
    assert_eq!(run_out(text, 3).expect("runs"), vec![1, 2, 3]);
}

#[test]
fn tasks_that_wait_on_each_other_are_a_deadlock() {
    let text = "let sem = (struct halide_semaphore_t *)alloca(16)
halide_semaphore_init(sem, 0)
fork {
 acquire (sem, 1) {
  out[0] = 1
 }
} {
 acquire (sem, 1) {
  out[0] = 2
 }
}
";
    let err = run_out(text, 1).expect_err("deadlocks");
    assert_eq!(err.kind, ErrorKind::Deadlock, "{err}");
    assert!(err.message.contains("acquire (") && err.message.contains("sem, 1)"), "{err}");
}

/// Runs `text` with `input` = [5, 6, 7, 8] and a four-element `out` (int32, mins 0);
/// returns `out`'s values.
fn run_on_5_6_7_8(text: &str) -> Vec<u64> {
    let stmt = loopir::parse_stmt(text).expect("parses");
    let program = compile(&stmt).expect("compiles");
    let mut rt = HostRuntime::new();
    let mut m = Machine::new(&program, &mut rt, Limits::default()).expect("machine");
    let mut input = Buffer::new(Elem::I32, &[0], &[4]);
    input.values = vec![5, 6, 7, 8];
    m.bind_buffer("input", &input).expect("input");
    m.bind_buffer("out", &Buffer::new(Elem::I32, &[0], &[4])).expect("out");
    m.run().expect("runs");
    m.read_buffer("out").expect("out").values
}

#[test]
fn device_kernels_write_device_memory_that_is_copied_back() {
    // The input is copied to the device because its caller marked it host-dirty; the
    // kernel's result is copied back because the pipeline marks the output
    // device-dirty.
    let text = "let input = (void *)_halide_buffer_get_host((struct halide_buffer_t *)input.buffer)
let out = (void *)_halide_buffer_get_host((struct halide_buffer_t *)out.buffer)
let r1 = halide_copy_to_device((struct halide_buffer_t *)input.buffer, (struct halide_device_interface_t const *)halide_cuda_device_interface())
let r2 = halide_copy_to_device((struct halide_buffer_t *)out.buffer, (struct halide_device_interface_t const *)halide_cuda_device_interface())
gpu_block<CUDA> (b, 0, 0) {
 gpu_thread<CUDA> (t, 0, 3) {
  out[t] = input[t] + 1
 }
}
_halide_buffer_set_device_dirty((struct halide_buffer_t *)out.buffer, true)
";
    assert_eq!(run_on_5_6_7_8(text), vec![6, 7, 8, 9]);
}

#[test]
fn a_kernel_that_first_names_a_buffer_argument_uses_its_device_copy() {
    // As lowered IR without the reference's buffer unpacking writes it: `input` and `out`
    // are free names, first used inside the kernel. The kernel must still read and write
    // their device copies (it used to write `out`'s host memory, which the copy back of
    // the device-dirty output then overwrote with the device's stale values).
    let text = "let r1 = halide_copy_to_device((struct halide_buffer_t *)input.buffer, (struct halide_device_interface_t const *)halide_cuda_device_interface())
let r2 = halide_copy_to_device((struct halide_buffer_t *)out.buffer, (struct halide_device_interface_t const *)halide_cuda_device_interface())
gpu_block<CUDA> (b, 0, 0) {
 gpu_thread<CUDA> (t, 0, 3) {
  out[t] = input[t] + 1
 }
}
_halide_buffer_set_device_dirty((struct halide_buffer_t *)out.buffer, true)
";
    assert_eq!(run_on_5_6_7_8(text), vec![6, 7, 8, 9]);
}

/// Records the thread ids the runtime sees at each call of the extern `probe`.
#[derive(Default)]
struct ThreadProbe {
    seen: Vec<(i32, Option<i32>)>,
}

impl loopir_interp::Runtime for ThreadProbe {
    fn profiler(
        &mut self,
        _call: &loopir_interp::ProfilerCall,
        _cx: &mut loopir_interp::RuntimeCx<'_>,
    ) -> Result<i64, loopir_interp::InterpError> {
        Ok(0)
    }

    fn trace(
        &mut self,
        _event: &loopir_interp::TraceEvent,
        _cx: &mut loopir_interp::RuntimeCx<'_>,
    ) -> Result<i32, loopir_interp::InterpError> {
        Ok(0)
    }

    fn knows_extern(&self, name: &str) -> bool {
        name == "probe"
    }

    fn extern_call(
        &mut self,
        _name: &str,
        _args: &[loopir_interp::ExternArg],
        cx: &mut loopir_interp::RuntimeCx<'_>,
    ) -> Result<u64, loopir_interp::InterpError> {
        self.seen.push((cx.thread_id, cx.parent_thread));
        Ok(0)
    }
}

#[test]
fn every_task_is_a_new_thread_even_in_a_reused_slot() {
    // Each run of the lane loop starts two tasks in the slots the run before freed; the
    // tracer keys a thread's open events by its id, so a reused id would hand a new
    // task the events its slot's last task left open.
    let text = "gpu_block<CUDA> (b, 0, 0) {
 for (i, 0, 1) {
  gpu_lane<CUDA> (l, 0, 1) {
   out[(i*2) + l] = probe(l)
  }
 }
}
";
    let mut rt = ThreadProbe::default();
    let program =
        loopir_interp::compile_with(&loopir::parse_stmt(text).expect("parses"), &rt).expect("compiles");
    let mut m = Machine::new(&program, &mut rt, Limits::default()).expect("machine");
    m.bind_buffer("out", &Buffer::new(Elem::I32, &[0], &[4])).expect("binds");
    let stats = m.run().expect("runs");
    assert_eq!(stats.tasks, 4);
    let mut ids: Vec<i32> = rt.seen.iter().map(|&(id, _)| id).collect();
    ids.sort();
    assert_eq!(ids, vec![1, 2, 3, 4], "{:?}", rt.seen);
    assert!(rt.seen.iter().all(|&(_, parent)| parent == Some(0)), "{:?}", rt.seen);
}

#[test]
fn every_lane_reads_before_any_lane_overwrites() {
    // In lockstep, each lane reads its neighbour's value before any lane stores the
    // next: a lane that ran ahead to its store would overwrite a value another lane has
    // yet to read (lane 3 would read 10, not 0). conv_layer.cuda's fused warp loops
    // (stages 35-49) overwrite shared memory so in the next iteration of a serial loop.
    let text = "gpu_block<CUDA> (b, 0, 0) {
 allocate buf[int32 * 4] in GPUShared
 gpu_lane<CUDA> (l, 0, 3) {
  buf[l] = l
  buf[l] = buf[(l + 1) % 4]*10
  out[l] = buf[l]
 }
}
";
    assert_eq!(run_out(text, 4).expect("runs"), vec![10, 20, 30, 0]);
}

#[test]
fn an_atomic_update_is_not_split_between_lanes() {
    // Lockstep would have every lane read 0 before any stores; `atomic` makes each
    // lane's read-modify-write whole (Halide 21's gpu_lanes_reduce sums a row so).
    let text = "gpu_block<CUDA> (b, 0, 0) {
 allocate acc[int32 * 1] in GPUShared
 acc[0] = 0
 gpu_lane<CUDA> (l, 0, 3) {
  atomic (acc) {
    acc[0] = acc[0] + (l + 1)
  }
 }
 out[0] = acc[0]
}
";
    assert_eq!(run_out(text, 1).expect("runs"), vec![10]);
}

#[test]
fn a_register_allocated_in_the_lane_loop_may_be_freed_after_it() {
    // Halide's warp shuffle pass moves a register allocation into the lane loop and
    // leaves its `free` after the loop (conv_layer.cuda, stages 46-49); the free does
    // nothing. A free of a name nothing allocated is still refused.
    let text = "gpu_block<CUDA> (b, 0, 0) {
 gpu_lane<CUDA> (l, 0, 3) {
  allocate r[int32 * 1] in Register
  r[0] = l + 10
  out[l] = r[0]
 }
 free r
}
";
    assert_eq!(run_out(text, 4).expect("runs"), vec![10, 11, 12, 13]);
    let stray = "gpu_block<CUDA> (b, 0, 0) {
 gpu_lane<CUDA> (l, 0, 3) {
  out[l] = l
 }
 free r
}
";
    let err = run_out(stray, 4).expect_err("a free of nothing");
    assert!(err.to_string().contains("free of r, which no enclosing allocate defines"), "{err}");
}

#[test]
fn a_lane_loops_register_may_not_be_freed_outside_its_kernel() {
    // The `free` the warp shuffle pass leaves behind is tolerated inside the kernel the
    // register lived in; after the kernel, nothing allocated `r`.
    let text = "gpu_block<CUDA> (b, 0, 0) {
 gpu_lane<CUDA> (l, 0, 3) {
  allocate r[int32 * 1] in Register
  r[0] = l
  out[l] = r[0]
 }
}
free r
";
    let err = run_out(text, 4).expect_err("a free outside the kernel");
    assert!(err.to_string().contains("free of r, which no enclosing allocate defines"), "{err}");
}

#[test]
fn the_current_thread_id_is_the_tasks_start_number_not_its_slot() {
    // Four tasks run in two slots; each reads its own id, as trace events see it.
    let text = "gpu_block<CUDA> (b, 0, 0) {
 for (i, 0, 1) {
  gpu_lane<CUDA> (l, 0, 1) {
   out[(i*2) + l] = halide_current_thread_id()
  }
 }
}
";
    assert_eq!(run_out(text, 4).expect("runs"), vec![1, 2, 3, 4]);
}
