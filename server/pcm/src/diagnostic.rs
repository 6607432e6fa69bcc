//! Diagnostics: what is wrong, where (byte span, hence line and column), and in which element.

use crate::span::Span;
use serde::Serialize;

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    Error,
    Warning,
    Info,
}

impl Severity {
    /// `error`, `warning` or `info`: as JSON has it (serde) and command lines print it.
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Info => "info",
        }
    }
}

impl std::fmt::Display for Severity {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Diagnostic {
    pub severity: Severity,
    /// Byte span in the file's text.
    pub span: Span,
    /// The `id` of the element concerned, or of its nearest ancestor that has one.
    pub element: Option<String>,
    pub message: String,
    /// A stable name for the kind of problem (`xml`, `stoex-syntax`, `unresolved-reference`, ...).
    pub code: &'static str,
}

impl Diagnostic {
    pub fn error(code: &'static str, span: Span, element: Option<String>, message: impl Into<String>) -> Self {
        Diagnostic {
            severity: Severity::Error,
            span,
            element,
            message: message.into(),
            code,
        }
    }

    pub fn warning(code: &'static str, span: Span, element: Option<String>, message: impl Into<String>) -> Self {
        Diagnostic {
            severity: Severity::Warning,
            ..Diagnostic::error(code, span, element, message)
        }
    }
}
