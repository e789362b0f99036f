"""Writes the Halide 21.0.0 .stmt corpus (see README.md).

Usage: HALIDE_PY=DIR python3 gen.py [--all-stages] OUT_DIR [CASE ...]

Every case is a pipeline lowered for one target, in its own process (Halide makes Func
names unique per process). For each it writes `OUT_DIR/<case>/module.stmt`, the file
`Func.compile_to_lowered_stmt(path, args, StmtOutputFormat.Text, target)` writes, and
`OUT_DIR/<case>/stages/NN.<stage>.stmt`, the IR after lowering stage NN, cut out of the
`HL_DEBUG_CODEGEN=2` log: every stage that changed the IR with `--all-stages` (about 9 MB
for the whole corpus), else the stages of `KEEP_STAGES` (every stage of the cases in
`ALL_STAGES_OF`), which keeps the checked-in corpus near 2 MB.
"""

import os
import re
import shutil
import subprocess
import sys

HALIDE_PY = os.environ.get("HALIDE_PY", "/tmp/hl/x")

# Explicit targets, so that the output does not depend on the machine that runs this.
HOST = "x86-64-linux-avx2-sse41"
TARGETS = {
    "cpu": HOST,
    "profile": HOST + "-profile",
    "trace": HOST + "-trace_all",
    "cuda": HOST + "-cuda-cuda_capability_50",
    "opencl": HOST + "-opencl",
    "vulkan": HOST + "-vulkan-vk_int8-vk_int16-vk_int64-vk_float16-vk_float64-vk_v13",
    "metal": "x86-64-osx-avx2-sse41-metal",
    "hvx": "arm-64-android-hvx",
}


# The stages kept of every case: Halide-level IR (realize, provide, produce/consume) as
# built and once simplified, flattened IR (allocate, load, store), the final IR with
# intrinsics, and the IR split into closures and device loops.
KEEP_STAGES = {
    "creating initial loop nests",
    "first simplification",
    "storage flattening",
    "finding intrinsics",
    "generating parallel tasks and closures",
}
# Cases kept with every stage: a profiled one (the stage before `injecting profiling` is
# Halide 21's profiling input), a traced one with async producers, and a GPU one.
ALL_STAGES_OF = {"blur.profile", "async_producer.trace", "gpu_tiles.cuda"}


def pipelines():
    """name -> (build, variants): build() returns (output Func or Pipeline, arguments)."""
    sys.path.insert(0, HALIDE_PY)
    import halide as hl

    x, y, c, k = hl.Var("x"), hl.Var("y"), hl.Var("c"), hl.Var("k")
    xo, xi, yo, yi = hl.Var("xo"), hl.Var("xi"), hl.Var("yo"), hl.Var("yi")
    u8, u16, i16, i32, f32 = hl.UInt(8), hl.UInt(16), hl.Int(16), hl.Int(32), hl.Float(32)
    cases = {}

    def case(*variants):
        def add(fn):
            cases[fn.__name__] = (fn, variants)
            return fn
        return add

    @case("cpu", "profile", "trace")
    def blur():
        # The classic separable 3x3 blur on uint16: vectorized, parallel rows, the
        # horizontal pass per strip of rows.
        inp = hl.ImageParam(u16, 2, "input")
        bx, by = hl.Func("blur_x"), hl.Func("blur_y")
        bx[x, y] = (inp[x, y] + inp[x + 1, y] + inp[x + 2, y]) / 3
        by[x, y] = (bx[x, y] + bx[x, y + 1] + bx[x, y + 2]) / 3
        by.split(y, yo, yi, 8).parallel(yo).vectorize(x, 8)
        bx.store_at(by, yo).compute_at(by, yi).vectorize(x, 8)
        return by, [inp]

    @case("cpu", "trace")
    def bitwise():
        # Bitwise operators, shifts and booleans of several widths.
        inp = hl.ImageParam(u8, 2, "input")
        mask = hl.Param(u8, "mask")
        f, g = hl.Func("masked"), hl.Func("mixed")
        f[x, y] = (inp[x, y] & mask) | (inp[x + 1, y] ^ hl.u8(0x5a))
        g[x, y] = hl.select((f[x, y] & 1) == 1, ~f[x, y], f[x, y] >> 2) + \
            hl.u8(hl.i16(f[x, y]) << 1)
        h = hl.Func("flags")
        h[x, y] = hl.u16(hl.select(g[x, y] > 7, hl.u16(0xff00), hl.u16(3)) & hl.u16(g[x, y]))
        f.compute_root().vectorize(x, 16)
        g.compute_at(h, y)
        h.vectorize(x, 8)
        return h, [inp, mask]

    @case("cuda", "opencl", "vulkan", "metal")
    def gpu_tiles():
        # Two GPU stages, the first computed per block in shared memory.
        inp = hl.ImageParam(f32, 2, "input")
        f, g = hl.Func("scaled"), hl.Func("summed")
        f[x, y] = inp[x, y] * 2.0 + 1.0
        g[x, y] = f[x, y] + f[x + 1, y] + f[x, y + 1]
        g.gpu_tile(x, y, xo, yo, xi, yi, 16, 8)
        f.compute_at(g, xo).gpu_threads(x, y)
        return g, [inp]

    @case("cuda")
    def gpu_lanes_reduce():
        # A reduction across GPU lanes (warp shuffles) and an atomic histogram.
        inp = hl.ImageParam(f32, 2, "input")
        r = hl.RDom([(0, 32)], "r")
        s, out = hl.Func("rowsum"), hl.Func("out")
        s[y] = 0.0
        s[y] += inp[r.x, y]
        out[y] = s[y] * 0.5
        out.gpu_tile(y, yo, yi, 32)
        rxo, rxi = hl.RVar("rxo"), hl.RVar("rxi")
        s.compute_at(out, yo).update().atomic().split(r.x, rxo, rxi, 32).gpu_lanes(rxi)
        s.gpu_threads(y)
        return out, [inp]

    @case("cpu", "trace")
    def async_producer():
        # A producer computed asynchronously per row of its consumer (a fork and
        # semaphores), with the consumer's rows in parallel (closures).
        inp = hl.ImageParam(u16, 2, "input")
        p, q, out = hl.Func("prod"), hl.Func("other"), hl.Func("out")
        p[x, y] = inp[x, y] * 3
        q[x, y] = inp[x, y] + 7
        out[x, y] = p[x, y] + q[x, y]
        out.parallel(y)
        p.compute_at(out, y).async_()
        q.compute_at(out, y).async_()
        return out, [inp]

    @case("cpu")
    def extern_stage():
        # An extern stage between two Halide stages.
        inp = hl.ImageParam(u8, 2, "input")
        pre, post = hl.Func("pre"), hl.Func("post")
        pre[x, y] = inp[x, y] + 1
        ext = hl.Func("ext")
        ext.define_extern("my_filter", [hl.ExternFuncArgument(pre), hl.ExternFuncArgument(hl.Expr(42))], u8, 2)
        post[x, y] = ext[x, y] * 2
        pre.compute_root()
        ext.compute_root()
        return post, [inp]

    @case("cpu", "trace")
    def tuple_argmin():
        # A tuple-valued reduction (argmin) with an update stage.
        inp = hl.ImageParam(f32, 2, "input")
        r = hl.RDom([(0, 16)], "r")
        am = hl.Func("argmin")
        am[y] = (0, hl.f32(1e30))
        am[y] = hl.select(inp[r.x, y] < am[y][1], (r.x, inp[r.x, y]), (am[y][0], am[y][1]))
        out = hl.Func("out")
        out[y] = am[y][0] * 2 + hl.i32(am[y][1])
        am.compute_root()
        return out, [inp]

    @case("cpu")
    def specialized():
        # Specializations on a parameter, with different vector widths and an unrolled
        # inner loop.
        inp = hl.ImageParam(f32, 1, "input")
        gain = hl.Param(f32, "gain")
        wide = hl.Param(hl.Bool(), "wide")
        f = hl.Func("gained")
        f[x] = inp[x] * gain + hl.sqrt(hl.abs(inp[x]))
        f.specialize(wide).vectorize(x, 16)
        f.specialize(gain == 1.0).vectorize(x, 8).unroll(x, 2)
        return f, [inp, gain, wide]

    @case("cpu")
    def histogram():
        # A histogram by atomic scatter in parallel, then a cumulative sum.
        inp = hl.ImageParam(u8, 2, "input")
        r = hl.RDom([(0, inp.width()), (0, inp.height())], "r")
        hist, cdf = hl.Func("hist"), hl.Func("cdf")
        hist[x] = 0
        hist[hl.i32(inp[r.x, r.y])] += 1
        rc = hl.RDom([(1, 255)], "rc")
        cdf[x] = hist[x]
        cdf[rc.x] = cdf[rc.x - 1] + hist[rc.x]
        hist.compute_root().update().atomic().parallel(r.y)
        return cdf, [inp]

    @case("cpu")
    def vector_reduce():
        # Dot products along a vectorized reduction (vector_reduce) and an interleaved
        # three-channel output.
        a = hl.ImageParam(i16, 2, "a")
        b = hl.ImageParam(i16, 1, "b")
        r = hl.RDom([(0, 16)], "r")
        dot = hl.Func("dot")
        dot[y] = hl.i32(0)
        dot[y] += hl.i32(a[r.x, y]) * hl.i32(b[r.x])
        rgb = hl.Func("rgb")
        rgb[c, x] = hl.select(c == 0, dot[x], hl.select(c == 1, dot[x] / 2, dot[x] / 4))
        dot.compute_root().update().atomic().vectorize(r.x, 8)
        rgb.reorder(c, x).bound(c, 0, 3).unroll(c).vectorize(x, 8)
        return rgb, [a, b]

    @case("cpu")
    def lut_gather():
        # Data-dependent loads through a lookup table, clamped.
        inp = hl.ImageParam(u8, 2, "input")
        lut, out = hl.Func("lut"), hl.Func("out")
        lut[x] = hl.u8(hl.clamp(hl.sqrt(hl.f32(x)) * 16.0, 0.0, 255.0))
        out[x, y] = lut[hl.i32(inp[x, y])] + lut[hl.clamp(hl.i32(inp[x, y + 1]) * 2, 0, 255)]
        lut.compute_root().bound(x, 0, 256)
        out.vectorize(x, 16)
        return out, [inp]

    @case("cpu")
    def float_math():
        # Float math intrinsics, 16-bit floats, casts and saturation.
        inp = hl.ImageParam(f32, 1, "input")
        f, g = hl.Func("fm"), hl.Func("half")
        f[x] = hl.exp(inp[x]) * hl.sin(inp[x]) + hl.pow(hl.abs(inp[x]), 0.5) + hl.lerp(inp[x], 1.0, 0.25)
        g[x] = hl.saturating_cast(u8, f[x] * 255.0) + hl.u8(hl.cast(hl.Float(16), f[x]) > hl.cast(hl.Float(16), 0.5))
        f.compute_root().vectorize(x, 8)
        return g, [inp]

    @case("cpu")
    def fused_stages():
        # compute_with fusion, store_root/compute_at with sliding windows, hoisted
        # storage.
        inp = hl.ImageParam(i32, 2, "input")
        a, b, out = hl.Func("a"), hl.Func("b"), hl.Func("out")
        a[x, y] = inp[x, y] + 1
        b[x, y] = inp[x, y] - 1
        out[x, y] = a[x, y - 1] + a[x, y + 1] + b[x, y]
        a.store_root().compute_at(out, y)
        b.compute_at(out, y).compute_with(a, x)
        return out, [inp]

    @case("cpu")
    def prefetched():
        # Explicit prefetches and a hoisted storage.
        inp = hl.ImageParam(f32, 2, "input")
        f, out = hl.Func("f"), hl.Func("out")
        f[x, y] = inp[x, y] * inp[x, y]
        out[x, y] = f[x, y] + f[x, y + 1]
        f.compute_at(out, y).hoist_storage(out, hl.Var.outermost())
        out.prefetch(inp, y, y, 2)
        return out, [inp]

    @case("cpu")
    def traced_funcs():
        # Per-Func tracing switches and trace tags on a plain target.
        inp = hl.ImageParam(u16, 2, "input")
        a, b = hl.Func("a"), hl.Func("b")
        a[x, y] = inp[x, y] + 1
        b[x, y] = a[x, y] * 2
        a.compute_root().trace_stores().trace_realizations().add_trace_tag("alpha")
        b.trace_loads()
        return b, [inp]

    @case("cpu")
    def memoized():
        # A memoized stage (cache lookups), keyed by a scalar parameter.
        inp = hl.ImageParam(f32, 1, "input")
        scale = hl.Param(f32, "scale")
        f, out = hl.Func("expensive"), hl.Func("out")
        f[x] = hl.sqrt(hl.f32(x)) * scale
        out[x] = f[x] + inp[x]
        f.compute_root().memoize()
        return out, [inp, scale]

    @case("cpu")
    def transposed():
        # A transpose of 4x4 tiles, vectorized in both dimensions.
        inp = hl.ImageParam(u16, 2, "input")
        t = hl.Func("transposed")
        t[x, y] = inp[y, x]
        t.tile(x, y, xo, yo, xi, yi, 4, 4).vectorize(xi).unroll(yi)
        return t, [inp]

    @case("cpu")
    def tails():
        # Every tail strategy of a split.
        inp = hl.ImageParam(f32, 1, "input")
        out = []
        for i, ts in enumerate([hl.TailStrategy.GuardWithIf, hl.TailStrategy.ShiftInwards,
                                hl.TailStrategy.RoundUp, hl.TailStrategy.PredicateLoads,
                                hl.TailStrategy.PredicateStores]):
            f = hl.Func(f"tail{i}")
            f[x] = inp[x] * (i + 1)
            if i:
                f[x] = f[x] + out[-1][x]
            f.compute_root().vectorize(x, 8, ts)
            out.append(f)
        return out[-1], [inp]

    @case("cpu")
    def two_outputs():
        # A pipeline with two outputs of different types.
        inp = hl.ImageParam(u8, 2, "input")
        lo, hi = hl.Func("lo"), hl.Func("hi")
        lo[x, y] = inp[x, y] / 2
        hi[x, y] = hl.u16(inp[x, y]) * 300
        return hl.Pipeline([lo, hi]), [inp]

    @case("hvx")
    def hexagon():
        # Code offloaded to Hexagon: its module is a submodule of the host's.
        inp = hl.ImageParam(u8, 2, "input")
        f = hl.Func("hvxed")
        f[x, y] = inp[x, y] / 2 + inp[x + 1, y] / 2
        f.hexagon().vectorize(x, 128)
        return f, [inp]

    return cases


def run_one(name, variant, out_dir):
    cases = pipelines()
    import halide as hl

    build, _ = cases[name]
    out, args = build()
    path = os.path.join(out_dir, "module.stmt")
    target = hl.Target(TARGETS[variant])
    if isinstance(out, hl.Pipeline):
        out.compile_to_lowered_stmt(path, args, hl.StmtOutputFormat.Text, target)
    else:
        out.compile_to_lowered_stmt(path, args, hl.StmtOutputFormat.Text, target)


HEADING = re.compile(r"^Lowering after (.*?):?( \(unchanged\))?$", re.M)


def stages(log):
    """(stage name, IR) for each stage that changed the IR. The log prints a stage as
    `Lowering after NAME:`, the IR and an empty line; log messages follow up to the next
    heading (some with indented lines after them, some with device source code). The IR
    ends at the first empty line followed by a line starting with a capital letter: no
    line of the IR does at the top level, every name in the corpus being lower case. (The
    IR may have empty lines of its own, after a store of a let chain, but not at its
    end.)"""
    out = []
    heads = list(HEADING.finditer(log))
    for i, m in enumerate(heads):
        if m.group(2):
            continue
        end = heads[i + 1].start() if i + 1 < len(heads) else len(log)
        body = log[m.end() + 1:end]
        cut = re.search(r"\n\n(?=[A-Z])", body)
        ir = body[:cut.start()] if cut else body
        # Some stages are logged with one empty line after the IR, some with two; the IR
        # of a whole pipeline never ends with an empty line of its own (its last
        # statement is not a store).
        out.append((m.group(1), ir.rstrip("\n") + "\n"))
    return out


def main():
    if sys.argv[1] == "--one":
        run_one(sys.argv[2], sys.argv[3], sys.argv[4])
        return
    all_stages = sys.argv[1] == "--all-stages"
    args = sys.argv[2:] if all_stages else sys.argv[1:]
    out_dir = args[0]
    wanted = args[1:]
    for name, (_, variants) in pipelines().items():
        for variant in variants:
            case_name = f"{name}.{variant}"
            if wanted and case_name not in wanted and name not in wanted:
                continue
            d = os.path.join(out_dir, case_name)
            shutil.rmtree(d, ignore_errors=True)
            os.makedirs(os.path.join(d, "stages"))
            env = dict(os.environ, HL_DEBUG_CODEGEN="2")
            r = subprocess.run([sys.executable, __file__, "--one", name, variant, d], env=env,
                               capture_output=True, text=True, errors="surrogateescape")
            if r.returncode != 0:
                shutil.rmtree(d)
                print(f"{case_name}: FAILED\n{r.stderr[-1500:]}", file=sys.stderr)
                continue
            st = stages(r.stderr)
            for i, (stage, text) in enumerate(st):
                if not (all_stages or case_name in ALL_STAGES_OF or stage in KEEP_STAGES):
                    continue
                fname = re.sub(r"[^a-z0-9]+", "_", stage.lower()).strip("_")
                with open(os.path.join(d, "stages", f"{i:02d}.{fname}.stmt"), "w", errors="surrogateescape") as f:
                    f.write(text)
            print(f"{case_name}: module and {len(st)} stages")


if __name__ == "__main__":
    main()
