//! Extern stages (`docs/reference/bounds.md` §2.1.8): the bounds-query protocol of an extern Func without a proxy
//! expression, from its description in the bounds env.

use loopir::parse::{parse_expr, parse_stmt};
use loopir::substitute;
use loopir::{Expr, Stmt, Type};

use crate::env::{BoundsEnv, parse_env_expr};
use crate::error::BoundsError;
use loopir_simplify::ctx::Ctx;

use super::unsupported;

/// One argument of an extern definition.
pub(super) enum ExternArg {
    /// A Func, passed as one query buffer per output.
    Func {
        /// The Func.
        name: String,
        /// Its value types (one buffer each).
        types: Vec<Type>,
        /// Its number of dimensions.
        dims: usize,
    },
    /// An input image or a constant buffer, passed as a query copy of its buffer.
    Buffer {
        /// The image parameter's or buffer's name.
        name: String,
        /// Its number of dimensions.
        dims: usize,
    },
    /// An expression, passed by value.
    Expr(Expr),
}

/// An extern definition.
pub(super) struct ExternDef {
    /// The extern function's name.
    pub name: String,
    /// Its arguments, in order.
    pub args: Vec<ExternArg>,
    /// The value types of the extern Func (one output buffer each).
    pub types: Vec<Type>,
}

impl ExternDef {
    /// Reads the env's description of the extern Func `f` (None if `f` is not extern).
    pub fn from_env(env: &BoundsEnv, f: &str) -> Result<Option<ExternDef>, BoundsError> {
        let Some(value) = env.funcs.get(f).and_then(|fe| fe.r#extern.as_ref()) else { return Ok(None) };
        let bad = |what: &str| BoundsError::Env(format!("extern definition of {f}: {what}"));
        let name = value.get("name").and_then(|n| n.as_str()).ok_or_else(|| bad("no name"))?;
        if value.get("proxy").is_some() {
            // Read by `proxy_of`: such a Func is a stage with that value, not a query.
            return Ok(None);
        }
        match value.get("mangling").and_then(|m| m.as_str()) {
            None | Some("c") => {}
            Some(m) => return Err(unsupported(format!("extern Func {f} with {m} name mangling"))),
        }
        let mut args = Vec::new();
        for a in value.get("args").and_then(|a| a.as_array()).ok_or_else(|| bad("no args"))? {
            if let Some(g) = a.get("func").and_then(|g| g.as_str()) {
                let types = env.func_types(g);
                let dims = env.funcs.get(g).map_or(0, |fe| fe.args.len());
                if types.is_empty() || dims == 0 {
                    return Err(bad(&format!("Func argument {g} needs its types and args in the env")));
                }
                args.push(ExternArg::Func { name: g.to_owned(), types, dims });
            } else if let Some(e) = a.get("expr").and_then(|e| e.as_str()) {
                args.push(ExternArg::Expr(parse_env_expr(e)?));
            } else if let Some(b) = a.get("image").or_else(|| a.get("buffer")).and_then(|b| b.as_str()) {
                let dims =
                    a.get("dimensions").and_then(|d| d.as_u64()).ok_or_else(|| bad("no dimensions"))?;
                args.push(ExternArg::Buffer { name: b.to_owned(), dims: dims as usize });
            } else {
                return Err(bad(&format!("argument {a} is none of func, image, buffer, expr")));
            }
        }
        let types = env.func_types(f);
        if types.is_empty() {
            return Err(bad("no value types"));
        }
        Ok(Some(ExternDef { name: name.to_owned(), args, types }))
    }
}

/// The proxy expression of the extern Func `f`, if its env entry has one, in terms of
/// the stage's qualified pure arguments (`x` becomes `f.s0.x`). The reference analyses
/// such a Func through that expression instead of querying it: `copy_to_host` and
/// `copy_to_device` make a wrapper an extern `halide_buffer_copy` whose proxy is the
/// wrapped call.
pub(super) fn proxy_of(env: &BoundsEnv, f: &str, args: &[String]) -> Result<Option<Expr>, BoundsError> {
    let Some(proxy) = env.funcs.get(f).and_then(|fe| fe.r#extern.as_ref()).and_then(|v| v.get("proxy"))
    else {
        return Ok(None);
    };
    let not_text = || BoundsError::Env(format!("extern definition of {f}: proxy not a string"));
    let text = proxy.as_str().ok_or_else(not_text)?;
    let proxy = env.parse_expr(text)?;
    let qualified: rustc_hash::FxHashMap<loopir::Name, Expr> =
        args.iter().map(|a| (loopir::name(a), Expr::var_i32(format!("{f}.s0.{a}").as_str()))).collect();
    Ok(Some(substitute::substitute(&qualified, &proxy)))
}

fn type_code(t: Type) -> Result<(u8, u8), BoundsError> {
    let code = if t.is_int() {
        0
    } else if t.is_uint() || t.is_bool() {
        1
    } else if t.is_float() {
        2
    } else {
        return Err(unsupported(format!("extern query buffer of type {t}")));
    };
    Ok((code, t.bits()))
}

fn parse(text: &str) -> Result<Expr, BoundsError> {
    parse_expr(text).map_err(|e| BoundsError::IllTyped(format!("extern query `{text}`: {e}")))
}

/// A query buffer: `let tK = make_struct(shape) in _halide_buffer_init(...)`.
fn query_buffer(ctx: &Ctx, shape: &[(String, String)], ty: Type) -> Result<Expr, BoundsError> {
    let t = ctx.fresh_t();
    let (code, bits) = type_code(ty)?;
    let fields: Vec<String> = shape.iter().map(|(min, extent)| format!("{min}, {extent}, 0, 0")).collect();
    parse(&format!(
        "let {t} = (struct halide_dimension_t *)make_struct({}) in (struct halide_buffer_t *)_halide_buffer_init((struct halide_buffer_t *)alloca(size_of_halide_buffer_t()), {t}, reinterpret<(void *)>(0_u64), 0_u64, reinterpret<(struct halide_device_interface_t *)>(0_u64), {code}, {bits}, {}, {t}, 0_u64)",
        fields.join(", "),
        shape.len()
    ))
}

/// Wraps `body` in one query block of the extern stage `func.s<stage>` with pure arguments
/// `args` (`docs/reference/bounds.md` §2.1.8): the query-buffer lets (outputs outermost), the call and its check.
pub(super) fn query_block(
    ctx: &Ctx,
    def: &ExternDef,
    func: &str,
    stage: u32,
    args: &[String],
    body: Stmt,
) -> Result<Stmt, BoundsError> {
    let mut lets: Vec<(String, Expr)> = Vec::new();
    let mut call_args: Vec<String> = Vec::new();
    for a in &def.args {
        match a {
            ExternArg::Expr(e) => call_args.push(e.to_string()),
            ExternArg::Buffer { name, dims } => {
                // A copy of the input's buffer, for the query to write its needs into
                // (a halide_dimension_t is 16 bytes).
                let buf = format!("{name}.bounds_query.{func}");
                lets.push((
                    buf.clone(),
                    parse(&format!(
                        "(struct halide_buffer_t *)_halide_buffer_init_from_buffer((struct halide_buffer_t *)alloca(size_of_halide_buffer_t()), (struct halide_dimension_t *)alloca({}), (struct halide_buffer_t *){name}.buffer)",
                        16 * dims
                    ))?,
                ));
                call_args.push(buf);
            }
            ExternArg::Func { name, types, dims } => {
                for (k, ty) in types.iter().enumerate() {
                    let buf = format!("{name}.o{k}.bounds_query.{func}");
                    let shape = vec![("0".to_owned(), "0".to_owned()); *dims];
                    lets.push((buf.clone(), query_buffer(ctx, &shape, *ty)?));
                    call_args.push(buf);
                }
            }
        }
    }
    for (j, ty) in def.types.iter().enumerate() {
        let shape: Vec<(String, String)> = args
            .iter()
            .map(|d| {
                let p = format!("{func}.s{stage}.{d}");
                (format!("{p}.min"), format!("({p}.max + 1) - {p}.min"))
            })
            .collect();
        let buf = format!("{func}.o{j}.bounds_query");
        lets.push((buf.clone(), query_buffer(ctx, &shape, *ty)?));
        call_args.push(buf);
    }
    let result = ctx.fresh_t();
    let call = parse(&format!("{}({})", def.name, call_args.join(", ")))?;
    let check = parse_stmt(&format!(
        "assert({result} == 0, halide_error_bounds_inference_call_failed(\"{}\", {result}))\n",
        def.name
    ))
    .map_err(|e| BoundsError::IllTyped(format!("extern query check: {e}")))?;
    let mut s = Stmt::let_stmt(result.as_ref(), call, Stmt::block(vec![check, body]));
    for (name, value) in lets {
        s = Stmt::let_stmt(name.as_str(), value, s);
    }
    Ok(s)
}

/// `_halide_buffer_get_min(buf, d)` or `_halide_buffer_get_max(buf, d)`.
pub(super) fn buffer_get(which: &str, buf: &str, d: usize) -> Result<Expr, BoundsError> {
    parse(&format!("_halide_buffer_get_{which}({buf}, {d})"))
}

/// The query buffer variable `buf`.
pub(super) fn buffer_get_var(buf: &str) -> Result<Expr, BoundsError> {
    parse(buf)
}
