//! Palladio stochastic expressions (StoEx): lexer, parser with byte spans,
//! canonical printer, expectation evaluator and linter.
//!
//! The grammar is the PCM variant summarised in `shared/docs/stoex.md`.
//!
//! ```
//! use beagle_stoex::{parse, print, eval_number};
//! let e = parse("Trunc(data.BYTESIZE/seekSize.VALUE)-1").unwrap();
//! assert_eq!(print(&e), "Trunc(data.BYTESIZE / seekSize.VALUE) - 1");
//! let env = |name: &str| match name {
//!     "data.BYTESIZE" => Some(10.0),
//!     "seekSize.VALUE" => Some(4.0),
//!     _ => None,
//! };
//! assert_eq!(eval_number(&e, &env).unwrap(), 1.0);
//! ```
//!
//! Decisions worth knowing:
//! - Int literals are `i64`; values outside Palladio's 32-bit range parse but
//!   [`lint`] warns. Literals beyond 64 bits are a parse error.
//! - `007` (leading zeros) is a parse error, as is `.5`.
//! - `-3` parses as `Unary(Neg, Int(3))`. See [`Expr::normalised`] and the
//!   [`print`](fn@print) documentation for negative and non-finite numbers.
//! - A sign on a sample probability parses (Palladio rejects it) so that
//!   every tree prints to parseable text; [`lint`] warns about it.
//! - Nesting deeper than [`MAX_DEPTH`] levels is a parse error, never a
//!   stack overflow.
//! - [`eval`] computes expectations; see the `eval` module documentation.

mod ast;
mod error;
mod eval;
mod functions;
mod lexer;
mod lint;
mod parser;
mod precedence;
mod print;
pub mod scale;

pub use ast::{
    BinaryOp, Characterisation, CompareOp, Expr, ExprKind, ProbFunctionLiteral, Sample, Span, UnaryOp,
    UnknownCharacterisation,
};
pub use error::{EvalError, ParseError};
pub use eval::{eval, eval_number, Value};
pub use functions::{lookup as lookup_function, Arity, FunctionInfo, FunctionKind, FUNCTIONS};
pub use lint::{lint, variables, Lint, Severity, PROBABILITY_SUM_TOLERANCE};
pub use parser::{is_identifier, parse, MAX_DEPTH};
pub use print::{format_double, print};
