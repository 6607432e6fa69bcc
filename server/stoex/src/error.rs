//! Error types of parsing and evaluation.

use crate::ast::Span;

/// A syntax error: `offset` is the byte offset in the source where the problem
/// is, `len` the byte length of the offending token (0 at the end of input).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct ParseError {
    pub offset: usize,
    pub len: usize,
    pub message: String,
}

impl ParseError {
    pub fn new(span: Span, message: impl Into<String>) -> ParseError {
        ParseError {
            offset: span.start,
            len: span.len(),
            message: message.into(),
        }
    }

    pub fn span(&self) -> Span {
        Span::new(self.offset, self.offset + self.len)
    }
}

/// An evaluation failure, pointing at the sub-expression that failed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct EvalError {
    pub span: Span,
    pub message: String,
}

impl EvalError {
    pub fn new(span: Span, message: impl Into<String>) -> EvalError {
        EvalError {
            span,
            message: message.into(),
        }
    }
}
