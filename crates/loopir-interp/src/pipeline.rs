//! Running a whole pipeline as its caller would: choose the buffers' shapes, make the
//! inputs, run, and read the outputs.
//!
//! Shapes come, in order of preference, from the caller; from the pipeline's own bounds
//! query (a run with every buffer's host pointer null, which the lowered IR answers by
//! writing the shapes it needs, as `Pipeline::infer_input_bounds` asks it); or, for IR
//! before the bounds-query code exists, from a probe: a run in which reads of an input
//! and stores to an output outside its shape are recorded instead of refused, repeated
//! until the buffers cover every access (an output grows as the bounds query would grow
//! it: a tile larger than the output, shifted inwards, writes before its min).
//!
//! Output sizes the caller does not give are chosen so that the pipeline's own checks
//! pass: the smallest of a few candidate extents that the pipeline accepts and that
//! leaves some output non-empty (a pipeline that rounds its output size down to a
//! multiple of its tile accepts a small size by computing nothing), with constraints it
//! states (`output.extent.2 == 3`) applied.
//!
//! Input values are a function of the seed, the buffer's name and the coordinates, so
//! two stages of one pipeline given the same shapes read the same values wherever they
//! read: integers are uniformly random bits of their type, floats are uniform in [0, 1).

use loopir::{Expr, Name, Type};
use rustc_hash::FxHashMap;

use crate::buffer::{Buffer, Dim, dense_strides};
use crate::elem::Elem;
use crate::error::{ErrorKind, InterpError};
use crate::eval::Evaluator;
use crate::exec::{Limits, Machine, RunStats};
use crate::program::Program;
use crate::runtime::Runtime;

/// What a run of a pipeline is given.
#[derive(Clone, Debug, Default)]
pub struct RunConfig {
    /// The seed of the input values.
    pub seed: u64,
    /// Scalar parameters by name (in canonical lane form; see [`parse_scalar`]).
    pub params: FxHashMap<String, u64>,
    /// Shapes of buffers (inputs or outputs) that are not to be chosen.
    pub shapes: FxHashMap<String, Vec<Dim>>,
    /// Extents of outputs to use (mins 0), where no shape is given.
    pub output_extents: FxHashMap<String, Vec<i32>>,
    /// Element types of buffers, where the program does not say.
    pub elems: FxHashMap<String, Elem>,
    /// The output extents tried in turn, smallest first, when the caller gives none
    /// (empty: [`DEFAULT_EXTENTS`]).
    pub candidate_extents: Vec<i32>,
    /// Limits of each run.
    pub limits: Limits,
    /// Extents the pipeline fixes for an output in some dimensions (its constraints, or
    /// explicit bounds, as an env states them; `None` where free), used where neither
    /// `shapes` nor `output_extents` gives the output: the candidate extents fill only
    /// the free dimensions, and an output fixed in every dimension is not searched for.
    /// Mins are 0.
    pub fixed_extents: FxHashMap<String, Vec<Option<i32>>>,
    /// For IR without a bounds query: the region of each input the program reads, per
    /// dimension as inclusive `(min, max)` expressions in the buffers' symbols (`None`
    /// where bounds inference finds no bound)
    /// (`out.min.0`, `out.extent.0`) and the scalar parameters, as bounds inference
    /// finds it. Probing starts each input there, evaluated at the output shapes being
    /// tried (and, where a region reads the input's own shape, at the shape the bounds
    /// query gives an input), rather than at the output's box: a probing run that then
    /// touches nothing outside is the run, where otherwise a first probing run only
    /// finds the inputs' shapes. An input without a region here starts at the output's
    /// box, as does each dimension whose region does not evaluate; an input whose
    /// region is too small grows.
    pub required_regions: FxHashMap<String, Vec<Option<(Expr, Expr)>>>,
}

/// The result of running a pipeline.
#[derive(Clone, Debug)]
pub struct PipelineRun {
    /// The inputs it was given.
    pub inputs: Vec<(Name, Buffer)>,
    /// The outputs it computed.
    pub outputs: Vec<(Name, Buffer)>,
    /// What the final run did.
    pub stats: RunStats,
    /// How the shapes were found.
    pub shapes_from: ShapeSource,
    /// The shape of every buffer (to run another stage of the pipeline on the same).
    pub shapes: FxHashMap<String, Vec<Dim>>,
    /// The element type of every buffer.
    pub elems: FxHashMap<String, Elem>,
}

/// Where the buffers' shapes came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ShapeSource {
    /// All given by the caller.
    Given,
    /// The pipeline's bounds query.
    BoundsQuery,
    /// Probing runs.
    Probe,
}

/// Output extents tried in turn when the caller gives none.
pub const DEFAULT_EXTENTS: &[i32] = &[16, 32, 64, 128, 256];

/// Runs `program` as a pipeline (see the module documentation).
pub fn run_pipeline(
    program: &Program,
    runtime: &mut dyn Runtime,
    config: &RunConfig,
) -> Result<PipelineRun, InterpError> {
    let iface = program.interface();
    for p in &iface.scalars {
        if !config.params.contains_key(&*p.name) {
            return Err(InterpError::new(
                ErrorKind::BadArgument,
                format!("the pipeline reads the scalar parameter `{}` ({}); give it a value", p.name, p.ty),
            ));
        }
    }
    check_per_dimension(
        iface,
        "fixed_extents",
        true,
        config.fixed_extents.iter().map(|(n, v)| (n, v.len())),
    )?;
    check_per_dimension(
        iface,
        "required_regions",
        false,
        config.required_regions.iter().map(|(n, v)| (n, v.len())),
    )?;
    let outputs: Vec<&crate::BufferParam> = iface.buffers.iter().filter(|b| b.is_output).collect();
    let all_given = iface.buffers.iter().all(|b| config.shapes.contains_key(&*b.name));
    // An output's extents in the dimensions the pipeline fixes, with `fill` in the others.
    let extents_of = |b: &crate::BufferParam, fill: Option<i32>| -> Option<Vec<i32>> {
        let fixed = config.fixed_extents.get(&*b.name);
        let n = b.dimensions.or(fixed.map(Vec::len)).unwrap_or(0);
        (0..n).map(|d| fixed.and_then(|f| f.get(d).copied().flatten()).or(fill)).collect()
    };
    let explicit = outputs.iter().all(|b| {
        config.shapes.contains_key(&*b.name)
            || config.output_extents.contains_key(&*b.name)
            || extents_of(b, None).is_some()
    });
    let tried =
        if config.candidate_extents.is_empty() { DEFAULT_EXTENTS } else { &config.candidate_extents[..] };
    let candidates: Vec<Option<i32>> =
        if explicit { vec![None] } else { tried.iter().map(|&e| Some(e)).collect() };
    let mut last_err = None;
    // The first accepted run whose outputs are all empty: used only if no candidate
    // gives a non-empty one.
    let mut empty_run = None;
    for candidate in candidates {
        let mut shapes: FxHashMap<String, Vec<Dim>> = config.shapes.clone();
        for b in &outputs {
            if shapes.contains_key(&*b.name) {
                continue;
            }
            let extents = match config.output_extents.get(&*b.name) {
                Some(e) => e.clone(),
                // Without a candidate, every dimension is fixed (`explicit`).
                None => extents_of(b, candidate).unwrap_or_default(),
            };
            shapes.insert(b.name.to_string(), dense_dims(&extents));
        }
        match attempt(program, runtime, config, shapes, all_given, candidate.unwrap_or(16)) {
            // A pipeline that rounds its output size down to a multiple of its tile
            // (`(extent/64)*64`) accepts a small size by computing nothing: a run that
            // shows nothing is worth less than one at the next size.
            Ok(run) if candidate.is_some() && run.outputs.iter().all(|(_, b)| b.is_empty()) => {
                empty_run.get_or_insert(run);
            }
            Ok(run) => return Ok(run),
            // Only the pipeline's own checks make another size worth trying.
            Err(e) if e.is_assertion() && candidate.is_some() => last_err = Some(e),
            Err(e) => return Err(e),
        }
    }
    if let Some(run) = empty_run {
        return Ok(run);
    }
    Err(last_err.unwrap_or_else(|| InterpError::new(ErrorKind::BadArgument, "no output size was accepted")))
}

/// That each buffer `field` gives per-dimension values for is an output (`outputs`) or
/// an input of the program, given one value per dimension.
fn check_per_dimension<'a>(
    iface: &crate::Interface,
    field: &str,
    outputs: bool,
    given: impl Iterator<Item = (&'a String, usize)>,
) -> Result<(), InterpError> {
    let role = if outputs { "output" } else { "input" };
    for (name, n) in given {
        let Some(b) = iface.buffers.iter().find(|b| &*b.name == name && b.is_output == outputs) else {
            return Err(InterpError::new(
                ErrorKind::BadArgument,
                format!("{field}: the program has no {role} buffer `{name}`"),
            ));
        };
        if let Some(d) = b.dimensions
            && d != n
        {
            return Err(InterpError::new(
                ErrorKind::BadArgument,
                format!("{field}: {n} dimensions given for the {role} `{name}`, which has {d}"),
            ));
        }
    }
    Ok(())
}

fn dense_dims(extents: &[i32]) -> Vec<Dim> {
    dense_box(&vec![0; extents.len()], extents)
}

/// The dense layout (dimension 0 innermost) of the box with `mins` and `extents`.
fn dense_box(mins: &[i32], extents: &[i32]) -> Vec<Dim> {
    let strides = dense_strides(extents);
    mins.iter()
        .zip(extents.iter().zip(strides))
        .map(|(&min, (&extent, stride))| Dim { min, extent, stride })
        .collect()
}

/// One try with the output shapes in `shapes` (constraints the pipeline states on them
/// are applied and the try repeated).
fn attempt(
    program: &Program,
    runtime: &mut dyn Runtime,
    config: &RunConfig,
    mut shapes: FxHashMap<String, Vec<Dim>>,
    all_given: bool,
    extent: i32,
) -> Result<PipelineRun, InterpError> {
    let iface = program.interface();
    let mut source = ShapeSource::Given;
    let mut elems = config.elems.clone();
    let mut ran = None;
    if !all_given {
        if iface.answers_bounds_queries {
            source = ShapeSource::BoundsQuery;
            let (queried, types) = bounds_query(program, runtime, config, &shapes, extent)?;
            shapes = queried;
            for (k, v) in types {
                elems.entry(k).or_insert(v);
            }
        } else {
            source = ShapeSource::Probe;
            let (probed, clean_run) = probe(program, runtime, config, shapes, extent)?;
            shapes = probed;
            // A probing run that touched nothing outside the shapes ran exactly as a
            // plain run would (probing changes only what such an access does): its
            // results are the run's, not to be computed again (a heavy stage's
            // whole-size run takes tens of minutes).
            ran = clean_run;
        }
    }
    let (inputs, outputs, stats) = match ran {
        Some(run) => run,
        None => run_once(program, runtime, config, &shapes, &elems, None)?,
    };
    let elems = inputs.iter().chain(&outputs).map(|(n, b)| (n.to_string(), b.elem)).collect();
    Ok(PipelineRun { inputs, outputs, stats, shapes_from: source, shapes, elems })
}

fn elem_of(b: &crate::BufferParam, elems: &FxHashMap<String, Elem>) -> Elem {
    elems.get(&*b.name).copied().or(b.elem).unwrap_or(Elem::UInt(8))
}

/// Asks the pipeline for the shapes of its buffers.
fn bounds_query(
    program: &Program,
    runtime: &mut dyn Runtime,
    config: &RunConfig,
    given: &FxHashMap<String, Vec<Dim>>,
    extent: i32,
) -> Result<(Shapes, FxHashMap<String, Elem>), InterpError> {
    let iface = program.interface();
    let mut m = Machine::new(program, runtime, config.limits)?;
    bind_params(&mut m, program, config)?;
    for b in &iface.buffers {
        // An input the query is asked about still gets a plausible shape: a pipeline
        // whose output size depends on its input's reads the input's extents first.
        let dims = match given.get(&*b.name) {
            Some(d) => d.clone(),
            None => dense_dims(&vec![extent; b.dimensions.unwrap_or(0)]),
        };
        m.bind_bounds_query(&b.name, elem_of(b, &FxHashMap::default()), &dims)?;
    }
    m.run()?;
    let mut shapes = FxHashMap::default();
    let mut elems = FxHashMap::default();
    for b in &iface.buffers {
        let (elem, dims) = m.buffer_shape(&b.name)?;
        if let Some(e) = elem {
            elems.insert(b.name.to_string(), e);
        }
        // A given input keeps its shape: the query only says what it must cover.
        let dims = if b.is_output || !given.contains_key(&*b.name) { dims } else { given[&*b.name].clone() };
        shapes.insert(b.name.to_string(), dims);
    }
    Ok((shapes, elems))
}

/// Finds the buffers' shapes by running with buffers that record accesses outside their
/// shape, until no access falls outside; returns them with the last probing run's
/// results when that run touched nothing outside them. An input starts at its required
/// region (with its own shape, where the region reads it, `extent` in every dimension,
/// as [`bounds_query`] gives an input it is asked about), else at the output's box.
fn probe(
    program: &Program,
    runtime: &mut dyn Runtime,
    config: &RunConfig,
    mut shapes: FxHashMap<String, Vec<Dim>>,
    extent: i32,
) -> Result<(Shapes, Option<RunResult>), InterpError> {
    let iface = program.interface();
    let reference: Option<Vec<Dim>> =
        iface.buffers.iter().find(|b| b.is_output).and_then(|b| shapes.get(&*b.name).cloned());
    for b in iface.buffers.iter().filter(|b| !b.is_output) {
        if shapes.contains_key(&*b.name) {
            continue;
        }
        let n = b.dimensions.unwrap_or(0);
        // Start from the region bounds inference found, in the dimensions where it
        // evaluates, and from the output's box in the others (as `bounds_query`).
        // run_pipeline checked that a region has a pair of ends per dimension.
        let region = match config.required_regions.get(&*b.name) {
            Some(region) => {
                // A region that reads the input's own shape (a boundary condition
                // clamping to it) reads the shape the bounds query would give it.
                let mut known = shapes.clone();
                known.insert(b.name.to_string(), dense_dims(&vec![extent; n]));
                evaluate_region(region, &known, &config.params)
            }
            None => vec![None; n],
        };
        let (mins, extents): (Vec<i32>, Vec<i32>) = (0..n)
            .map(|d| {
                region[d].unwrap_or_else(|| {
                    (0, reference.as_ref().and_then(|r| r.get(d)).map(|x| x.extent).unwrap_or(1))
                })
            })
            .unzip();
        shapes.insert(b.name.to_string(), dense_box(&mins, &extents));
    }
    for _ in 0..8 {
        let mut touched: FxHashMap<String, Vec<(i64, i64)>> = FxHashMap::default();
        let run = run_once(program, runtime, config, &shapes, &config.elems, Some(&mut touched))?;
        if touched.is_empty() {
            return Ok((shapes, Some(run)));
        }
        let mut grew = false;
        for (name, boxes) in touched {
            let Some(dims) = shapes.get_mut(&name) else { continue };
            let mut lo_hi: Vec<(i64, i64)> =
                dims.iter().map(|d| (d.min as i64, d.min as i64 + d.extent as i64 - 1)).collect();
            for (d, (lo, hi)) in boxes.into_iter().enumerate() {
                if let Some(x) = lo_hi.get_mut(d)
                    && (lo < x.0 || hi > x.1)
                {
                    *x = (x.0.min(lo), x.1.max(hi));
                    grew = true;
                }
            }
            let mins: Vec<i32> = lo_hi.iter().map(|(l, _)| *l as i32).collect();
            let extents: Vec<i32> = lo_hi.iter().map(|(l, h)| (h - l + 1) as i32).collect();
            *dims = dense_box(&mins, &extents);
        }
        if !grew {
            return Ok((shapes, None));
        }
    }
    Err(InterpError::new(ErrorKind::Limit, "the buffers' shapes did not settle after 8 probing runs"))
}

/// The `(min, extent)` of each dimension of `region`, with the buffers' symbols bound to
/// `shapes` and the scalar parameters to `params`; `None` for a dimension without ends,
/// or whose ends read anything else (a boundary condition clamping to the input's own extent reads the
/// input's symbols), do not evaluate to `int32`s, or are empty.
fn evaluate_region(
    region: &[Option<(Expr, Expr)>],
    shapes: &Shapes,
    params: &FxHashMap<String, u64>,
) -> Vec<Option<(i32, i32)>> {
    let mut symbols: FxHashMap<Name, Expr> = FxHashMap::default();
    for (buffer, dims) in shapes {
        for (d, dim) in dims.iter().enumerate() {
            symbols.insert(Name::from(format!("{buffer}.min.{d}")), Expr::i32(dim.min));
            symbols.insert(Name::from(format!("{buffer}.extent.{d}")), Expr::i32(dim.extent));
            symbols.insert(Name::from(format!("{buffer}.stride.{d}")), Expr::i32(dim.stride));
        }
    }
    let value = |e: &Expr| -> Option<i64> {
        let e = loopir::substitute::substitute(&symbols, e);
        if e.ty() != Type::int(32, 1) {
            return None;
        }
        let eval = Evaluator::new(&e).ok()?;
        let mut values = Vec::new();
        for v in eval.variables() {
            values.push((&*v.name, *params.get(&*v.name)?));
        }
        eval.eval(&values).ok()?.first().map(|&v| v as i64)
    };
    region
        .iter()
        .map(|ends| {
            let (lo, hi) = ends.as_ref()?;
            let (lo, hi) = (value(lo)?, value(hi)?);
            let extent = i32::try_from(hi.checked_sub(lo)?.checked_add(1)?).ok().filter(|&e| e > 0)?;
            Some((i32::try_from(lo).ok()?, extent))
        })
        .collect()
}

type Buffers = Vec<(Name, Buffer)>;

/// What one run gives: its inputs, its outputs and its statistics.
type RunResult = (Buffers, Buffers, RunStats);

/// The shape of each buffer, by name.
type Shapes = FxHashMap<String, Vec<Dim>>;

/// One run with the given shapes; with `touched`, accesses to buffers outside their
/// shapes are recorded there (as per-dimension boxes) instead of failing.
fn run_once(
    program: &Program,
    runtime: &mut dyn Runtime,
    config: &RunConfig,
    shapes: &FxHashMap<String, Vec<Dim>>,
    elems: &FxHashMap<String, Elem>,
    touched: Option<&mut FxHashMap<String, Vec<(i64, i64)>>>,
) -> Result<RunResult, InterpError> {
    let iface = program.interface();
    let mut m = Machine::new(program, runtime, config.limits)?;
    bind_params(&mut m, program, config)?;
    let probing = touched.is_some();
    m.set_probing(probing);
    let mut inputs = Vec::new();
    let mut total_bytes = 0u128;
    for b in &iface.buffers {
        let Some(dims) = shapes.get(&*b.name) else {
            return Err(InterpError::new(
                ErrorKind::BadArgument,
                format!("no shape for buffer `{}`", b.name),
            ));
        };
        // The caller's copies of the buffers count against the memory limit too: a
        // bounds query may ask for inputs far larger than the heap would accept.
        let bytes = Buffer::count(dims) as u128 * elem_of(b, elems).bytes() as u128;
        total_bytes += bytes;
        if total_bytes > config.limits.memory as u128 {
            let shape: Vec<String> = dims.iter().map(|d| d.extent.to_string()).collect();
            return Err(InterpError::new(
                ErrorKind::Limit,
                format!(
                    "buffer `{}` of {} elements ({bytes} bytes) takes the buffers to {total_bytes} bytes, \
                     beyond the memory limit of {} bytes",
                    b.name,
                    shape.join("x"),
                    config.limits.memory
                ),
            ));
        }
        let mut buf = Buffer::with_dims(elem_of(b, elems), dims.clone());
        if !b.is_output {
            let elem = buf.elem;
            let name_hash = name_hash(&b.name);
            buf.fill(|c| input_value(config.seed, name_hash, c, elem));
            inputs.push((b.name.clone(), buf.clone()));
        }
        m.bind_buffer(&b.name, &buf)?;
    }
    let stats = m.run()?;
    if let Some(t) = touched {
        *t = m.probed_boxes();
    }
    let mut outputs = Vec::new();
    for b in iface.buffers.iter().filter(|b| b.is_output) {
        outputs.push((b.name.clone(), m.read_buffer(&b.name)?));
    }
    Ok((inputs, outputs, stats))
}

fn bind_params(m: &mut Machine<'_>, program: &Program, config: &RunConfig) -> Result<(), InterpError> {
    for p in &program.interface().scalars {
        if let Some(v) = config.params.get(&*p.name) {
            m.bind_scalar(&p.name, *v)?;
        }
    }
    Ok(())
}

fn name_hash(name: &str) -> u64 {
    let mut h = crate::buffer::Fnv::new();
    h.bytes(name.as_bytes());
    h.finish()
}

fn mix(mut z: u64) -> u64 {
    // splitmix64's finaliser.
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// The value of an input at `coords`: a function of the seed, the buffer's name and the
/// coordinates only.
pub fn input_value(seed: u64, name_hash: u64, coords: &[i32], elem: Elem) -> u64 {
    let mut h = mix(seed ^ 0x9e37_79b9_7f4a_7c15);
    h = mix(h ^ name_hash);
    for &c in coords {
        h = mix(h ^ (c as u32 as u64).wrapping_add(0x632b_e59b_d9b4_e019));
    }
    match elem {
        Elem::Float(_) | Elem::BFloat16 => elem.from_f64((h >> 11) as f64 / (1u64 << 53) as f64),
        _ => elem.wrap(h),
    }
}

/// Parses a scalar parameter's value as the CLI gives it (`7`, `-3`, `0.5`, `true`)
/// into canonical lane form for `ty`.
pub fn parse_scalar(text: &str, ty: Type) -> Result<u64, String> {
    let elem = Elem::of(ty)?;
    let bad = || format!("`{text}` is not a value of type {ty}");
    match elem {
        Elem::Float(_) | Elem::BFloat16 => text.parse::<f64>().map(|x| elem.from_f64(x)).map_err(|_| bad()),
        Elem::UInt(1) => match text {
            "true" | "1" => Ok(1),
            "false" | "0" => Ok(0),
            _ => Err(bad()),
        },
        Elem::Int(_) | Elem::UInt(_) => {
            let v: i128 = text.parse().map_err(|_| bad())?;
            if v < elem.int_min() || v > elem.int_max() {
                return Err(format!("{v} does not fit in {ty}"));
            }
            Ok(elem.from_i128(v))
        }
        Elem::Handle => Err(format!("cannot give a value to a handle parameter ({ty})")),
    }
}
