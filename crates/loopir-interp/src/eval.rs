//! Evaluating one expression at given values of its variables: what a property test of
//! an expression rewrite needs (the rewrite must not change the value).
//!
//! ```
//! use loopir_interp::eval::Evaluator;
//!
//! let e = loopir::parse_expr("(x + 7)/2")?;
//! let eval = Evaluator::new(&e)?;
//! // Division rounds toward negative infinity.
//! assert_eq!(eval.eval(&[("x", -10i64 as u64)])?, vec![-2i64 as u64]);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use loopir::{Expr, Stmt, Type};

use crate::buffer::Buffer;
use crate::compile::compile;
use crate::elem::Elem;
use crate::error::{ErrorKind, InterpError};
use crate::exec::{Limits, Machine};
use crate::program::{Program, ScalarParam};
use crate::runtime::HostRuntime;

/// The buffer the value is stored to.
const RESULT: &str = "__loopir_interp_result";

/// An expression compiled once, to be evaluated at many points.
#[derive(Clone, Debug)]
pub struct Evaluator {
    program: Program,
    ty: Type,
}

impl Evaluator {
    /// Compiles `e`; its free variables become parameters. An expression that reads
    /// buffers or Funcs is refused.
    pub fn new(e: &Expr) -> Result<Evaluator, InterpError> {
        let lanes = e.ty().lanes();
        let index = if lanes == 1 {
            Expr::i32(0)
        } else {
            Expr::ramp(Expr::i32(0), Expr::i32(1), lanes)
                .map_err(|err| InterpError::new(ErrorKind::BadProgram, err.to_string()))?
        };
        let store =
            Stmt::store(RESULT, e.clone(), index, Expr::const_true().with_lanes(lanes), Default::default())
                .map_err(|err| InterpError::new(ErrorKind::BadProgram, err.to_string()))?;
        let program = compile(&store)?;
        if let Some(b) = program.interface().buffers.iter().find(|b| &*b.name != RESULT) {
            return Err(InterpError::new(
                ErrorKind::BadArgument,
                format!("the expression reads the buffer `{}`", b.name),
            ));
        }
        Ok(Evaluator { program, ty: e.ty() })
    }

    /// The variables the expression reads, with their types.
    pub fn variables(&self) -> &[ScalarParam] {
        &self.program.interface().scalars
    }

    /// The value's lanes (in canonical lane form, see [`crate::elem`]) with each
    /// variable bound to a value.
    pub fn eval(&self, values: &[(&str, u64)]) -> Result<Vec<u64>, InterpError> {
        let mut runtime = HostRuntime::new();
        let mut m = Machine::new(&self.program, &mut runtime, Limits::default())?;
        for (name, v) in values {
            if self.variables().iter().any(|p| &*p.name == *name) {
                m.bind_scalar(name, *v)?;
            }
        }
        let elem = Elem::of(self.ty).map_err(|e| InterpError::new(ErrorKind::BadProgram, e))?;
        m.bind_buffer(RESULT, &Buffer::new(elem, &[0], &[self.ty.lanes() as i32]))?;
        m.run()?;
        Ok(m.read_buffer(RESULT)?.values)
    }
}

trait WithLanes {
    fn with_lanes(self, lanes: u16) -> Expr;
}

impl WithLanes for Expr {
    fn with_lanes(self, lanes: u16) -> Expr {
        if lanes == 1 { self } else { Expr::broadcast(self.clone(), lanes).unwrap_or(self) }
    }
}
