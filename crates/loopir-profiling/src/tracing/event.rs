//! The trace call: event codes and the twelve-argument `halide_trace_helper` call that
//! carries one event (`docs/reference/tracing.md` §4, §5).

use std::fmt;

use loopir::{CType, CallType, Expr, ExprKind, Intrinsic, Type, TypeCode};

use super::error::{TracingError, expr_text};

/// Name of the runtime entry point every event calls.
pub const TRACE_HELPER: &str = "halide_trace_helper";
/// Name of the extern call that yields the executing thread's id (begin_parallel_task).
pub const CURRENT_THREAD_ID: &str = "halide_current_thread_id";
/// Suffix of the variables that hold event ids (`f.trace_id`, `pipeline.trace_id`).
pub const TRACE_ID_SUFFIX: &str = ".trace_id";
/// The scope name of the whole pipeline.
pub const PIPELINE_SCOPE: &str = "pipeline";

/// The events of Halide's tracing runtime, with their wire codes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TraceEventCode {
    /// A load from a Func or image.
    Load = 0,
    /// A store to a Func.
    Store = 1,
    /// Storage for a Func was allocated.
    BeginRealization = 2,
    /// Storage for a Func is about to be freed.
    EndRealization = 3,
    /// A Func's production starts.
    Produce = 4,
    /// A Func's production ends.
    EndProduce = 5,
    /// A Func's consumers start.
    Consume = 6,
    /// A Func's consumers end.
    EndConsume = 7,
    /// The pipeline starts.
    BeginPipeline = 8,
    /// The pipeline ends.
    EndPipeline = 9,
    /// A tag (user text or `func_type_and_dim`).
    Tag = 10,
    /// One task of a parallel loop starts.
    BeginParallelTask = 11,
    /// One task of a parallel loop ends.
    EndParallelTask = 12,
}

impl TraceEventCode {
    /// Every code, in wire order.
    pub const ALL: [TraceEventCode; 13] = [
        TraceEventCode::Load,
        TraceEventCode::Store,
        TraceEventCode::BeginRealization,
        TraceEventCode::EndRealization,
        TraceEventCode::Produce,
        TraceEventCode::EndProduce,
        TraceEventCode::Consume,
        TraceEventCode::EndConsume,
        TraceEventCode::BeginPipeline,
        TraceEventCode::EndPipeline,
        TraceEventCode::Tag,
        TraceEventCode::BeginParallelTask,
        TraceEventCode::EndParallelTask,
    ];

    /// The wire code.
    pub fn code(self) -> i32 {
        self as i32
    }
    /// The event with wire code `code`.
    pub fn from_code(code: i64) -> Option<TraceEventCode> {
        usize::try_from(code).ok().and_then(|i| TraceEventCode::ALL.get(i).copied())
    }
    /// Whether the event opens a scope whose id other events use as parent.
    pub fn is_begin(self) -> bool {
        self.matching_end().is_some()
    }
    /// The event that closes the scope this one opens.
    pub fn matching_end(self) -> Option<TraceEventCode> {
        use TraceEventCode as C;
        match self {
            C::BeginRealization => Some(C::EndRealization),
            C::Produce => Some(C::EndProduce),
            C::Consume => Some(C::EndConsume),
            C::BeginPipeline => Some(C::EndPipeline),
            C::BeginParallelTask => Some(C::EndParallelTask),
            _ => None,
        }
    }
    /// The event that opened the scope this one closes.
    pub fn matching_begin(self) -> Option<TraceEventCode> {
        TraceEventCode::ALL.iter().copied().find(|b| b.matching_end() == Some(self))
    }
    /// Halide's name of the event.
    pub fn as_str(self) -> &'static str {
        use TraceEventCode as C;
        match self {
            C::Load => "load",
            C::Store => "store",
            C::BeginRealization => "begin_realization",
            C::EndRealization => "end_realization",
            C::Produce => "produce",
            C::EndProduce => "end_produce",
            C::Consume => "consume",
            C::EndConsume => "end_consume",
            C::BeginPipeline => "begin_pipeline",
            C::EndPipeline => "end_pipeline",
            C::Tag => "tag",
            C::BeginParallelTask => "begin_parallel_task",
            C::EndParallelTask => "end_parallel_task",
        }
    }
}

impl fmt::Display for TraceEventCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The name of the variable holding the id of scope `scope`'s event.
pub fn trace_id_var_name(scope: &str) -> String {
    format!("{scope}{TRACE_ID_SUFFIX}")
}

/// The int32 variable holding the id of scope `scope`'s event.
pub(crate) fn trace_id_var(scope: &str) -> Expr {
    Expr::var_i32(trace_id_var_name(scope))
}

/// Halide's numeric type code (`halide_type_code_t`).
pub(crate) fn type_code(ty: Type) -> i32 {
    match ty.code() {
        TypeCode::Int => 0,
        TypeCode::UInt => 1,
        TypeCode::Float => 2,
        TypeCode::Handle => 3,
        TypeCode::BFloat => 4,
    }
}

/// The `(code, bits, lanes)` triple of a type; `None` is Halide's default type, which reads
/// as a handle of zero bits and lanes.
pub(crate) fn type_triple(ty: Option<Type>) -> [i32; 3] {
    match ty {
        Some(t) => [type_code(t), i32::from(t.bits()), i32::from(t.lanes())],
        None => [3, 0, 0],
    }
}

/// One event to be emitted as a trace call. Fields an event does not set keep Halide's
/// defaults: no values, no coordinates, the default type, thread id 0, value index 0,
/// empty tag.
pub(crate) struct TraceEvent {
    pub(crate) func: String,
    pub(crate) event: TraceEventCode,
    pub(crate) parent: Expr,
    pub(crate) values: Vec<Expr>,
    pub(crate) coordinates: Vec<Expr>,
    pub(crate) ty: Option<Type>,
    pub(crate) thread_id: Option<Expr>,
    pub(crate) value_index: u32,
    pub(crate) tag: Option<Expr>,
}

impl TraceEvent {
    /// An event of `func` with parent `parent` and every other field at its default.
    pub(crate) fn new(func: &str, event: TraceEventCode, parent: Expr) -> TraceEvent {
        TraceEvent {
            func: func.to_owned(),
            event,
            parent,
            values: Vec::new(),
            coordinates: Vec::new(),
            ty: None,
            thread_id: None,
            value_index: 0,
            tag: None,
        }
    }

    /// The `halide_trace_helper(...)` call.
    pub(crate) fn build(&self) -> Result<Expr, TracingError> {
        let values = Intrinsic::MakeStruct.call(Type::void_ptr(), self.values.clone());
        let coords =
            Intrinsic::MakeStruct.call(Type::handle(CType::new("int32_t *"), 1), self.coordinates.clone());
        let [code, bits, lanes] = type_triple(self.ty);
        let value_index = i32::try_from(self.value_index).map_err(|_| TracingError::Ir {
            what: format!("the {} event of `{}`", self.event, self.func),
            source: loopir::IrError::Type {
                node: "trace call".into(),
                detail: format!("value index {} does not fit in int32", self.value_index),
            },
        })?;
        let dims = i32::try_from(self.coordinates.len()).unwrap_or(i32::MAX);
        let args = vec![
            Expr::string(self.func.as_bytes()),
            values,
            coords,
            Expr::i32(code),
            Expr::i32(bits),
            Expr::i32(lanes),
            Expr::i32(self.event.code()),
            self.parent.clone(),
            self.thread_id.clone().unwrap_or_else(|| Expr::i32(0)),
            Expr::i32(value_index),
            Expr::i32(dims),
            self.tag.clone().unwrap_or_else(|| Expr::string(b"")),
        ];
        Ok(Expr::call(Type::INT32, TRACE_HELPER, args, CallType::Extern))
    }
}

/// The fields of a trace call found in IR, for the hierarchy checker and for tests.
#[derive(Clone, Debug)]
pub struct DecodedEvent {
    /// The func argument (Func, image, pipeline or loop name).
    pub func: String,
    /// The event.
    pub event: TraceEventCode,
    /// The parent-id argument.
    pub parent: Expr,
    /// The coordinate expressions (arguments of the coordinates' `make_struct`).
    pub coordinates: Vec<Expr>,
}

/// Whether `e` is a call of the trace helper.
pub fn is_trace_call(e: &Expr) -> bool {
    matches!(e.kind(), ExprKind::Call { name, .. } if name.as_ref() == TRACE_HELPER)
}

/// Reads the fields of a trace call. `Err` explains what is malformed; `Ok(None)` means
/// `e` is not a trace call at all.
pub fn decode_event(e: &Expr) -> Result<Option<DecodedEvent>, String> {
    let ExprKind::Call { name, args, .. } = e.kind() else { return Ok(None) };
    if name.as_ref() != TRACE_HELPER {
        return Ok(None);
    }
    if args.len() != 12 {
        return Err(format!("a trace call takes 12 arguments, this one has {}", args.len()));
    }
    let func = match args[0].kind() {
        ExprKind::StringImm(bytes) => String::from_utf8_lossy(bytes).into_owned(),
        _ => return Err(format!("the func argument `{}` is not a string constant", expr_text(&args[0]))),
    };
    let code = args[6]
        .as_int()
        .ok_or_else(|| format!("the event argument `{}` is not a constant", expr_text(&args[6])))?;
    let event = TraceEventCode::from_code(code).ok_or_else(|| format!("{code} is not an event code"))?;
    let coordinates = args[2].intrinsic_args(Intrinsic::MakeStruct).map(<[Expr]>::to_vec).unwrap_or_default();
    Ok(Some(DecodedEvent { func, event, parent: args[7].clone(), coordinates }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn store_event_prints_like_halide() {
        let mut ev = TraceEvent::new("f", TraceEventCode::Store, trace_id_var("parallel_task"));
        ev.values = vec![Expr::var_i32("t0")];
        ev.coordinates = vec![Expr::var_i32("f.s0.x"), Expr::var_i32("f.s0.y")];
        ev.ty = Some(Type::INT32);
        let call = ev.build().expect("builds");
        assert_eq!(
            call.to_string(),
            "halide_trace_helper(\"f\", (void *)make_struct(t0), (int32_t *)make_struct(f.s0.x, f.s0.y), \
             0, 32, 1, 1, parallel_task.trace_id, 0, 0, 2, \"\")"
        );
        let decoded = decode_event(&call).expect("well formed").expect("a trace call");
        assert_eq!(decoded.event, TraceEventCode::Store);
        assert_eq!(decoded.func, "f");
        assert_eq!(decoded.coordinates.len(), 2);
    }

    #[test]
    fn codes_pair_up() {
        for c in TraceEventCode::ALL {
            assert_eq!(TraceEventCode::from_code(c.code() as i64), Some(c));
            if let Some(end) = c.matching_end() {
                assert_eq!(end.matching_begin(), Some(c));
            }
        }
        assert_eq!(TraceEventCode::from_code(13), None);
        assert_eq!(TraceEventCode::from_code(-1), None);
    }
}
