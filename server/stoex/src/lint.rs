//! Checks that go beyond the grammar: things Palladio would reject or
//! misread although they parse.

use crate::ast::{Expr, ExprKind, ProbFunctionLiteral, Sample, Span};
use crate::functions::{lookup, Arity, FUNCTIONS};
use crate::parser::is_identifier;
use serde::Serialize;

/// How far the probabilities of a PMF/PDF may sum away from 1 before
/// [`lint`] warns. Real files round probabilities to six digits (MediaStore's
/// seven samples of 0.142857/0.142858 sum to 1.000000), so exact equality
/// would be noise.
pub const PROBABILITY_SUM_TOLERANCE: f64 = 1e-3;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub enum Severity {
    Warning,
    Info,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Lint {
    pub span: Span,
    pub severity: Severity,
    pub message: String,
}

/// All findings for `e`, in tree order (parents first).
pub fn lint(e: &Expr) -> Vec<Lint> {
    let mut out = Vec::new();
    e.walk(&mut |node| lint_node(node, &mut out));
    out
}

fn warn(out: &mut Vec<Lint>, span: Span, message: String) {
    out.push(Lint {
        span,
        severity: Severity::Warning,
        message,
    });
}

fn lint_node(e: &Expr, out: &mut Vec<Lint>) {
    match &e.kind {
        ExprKind::Int(v) => check_int(*v, e.span, out),
        ExprKind::Double(v) if !v.is_finite() => warn(
            out,
            e.span,
            format!("{v} is not a finite number; StoEx cannot write it and prints a stand-in"),
        ),
        ExprKind::CharacterisedVariable { name, .. } => {
            for segment in name {
                if !is_identifier(segment) {
                    warn(
                        out,
                        e.span,
                        format!("`{segment}` is not a valid variable name; the printed expression will not parse"),
                    );
                }
            }
        }
        ExprKind::FunctionCall { name, args } => check_call(e, name, args.len(), out),
        ExprKind::ProbFunction(p) => check_prob_function(e, p, out),
        _ => {}
    }
}

/// Palladio stores int literals as EInt (32 bits); we accept 64 bits.
fn check_int(v: i64, span: Span, out: &mut Vec<Lint>) {
    if i32::try_from(v).is_err() {
        warn(
            out,
            span,
            format!("integer {v} is outside Palladio's 32-bit int range; write it as a double"),
        );
    }
}

fn check_call(e: &Expr, name: &str, n_args: usize, out: &mut Vec<Lint>) {
    if !is_identifier(name) {
        warn(
            out,
            e.span,
            format!("`{name}` is not a valid function name; the printed expression will not parse"),
        );
        return;
    }
    let Some(info) = lookup(name) else {
        let known: Vec<&str> = FUNCTIONS
            .iter()
            .filter(|f| f.known_to_palladio)
            .map(|f| f.name)
            .collect();
        let hint = FUNCTIONS
            .iter()
            .find(|f| f.name.eq_ignore_ascii_case(name))
            .map(|f| format!(" (did you mean `{}`?)", f.name))
            .unwrap_or_default();
        warn(
            out,
            e.span,
            format!("unknown function `{name}`{hint}; Palladio knows {}", known.join(", ")),
        );
        return;
    };
    if !info.known_to_palladio {
        warn(
            out,
            e.span,
            format!(
                "`{name}` is not known to Palladio's analysers (it means {}); use a Palladio function instead",
                info.doc
            ),
        );
    }
    if !info.arity.accepts(n_args) {
        warn(
            out,
            e.span,
            format!("`{name}` takes {}, found {n_args}", info.arity.describe()),
        );
    }
    if info.arity == Arity::Unspecified {
        out.push(Lint {
            span: e.span,
            severity: Severity::Info,
            message: format!("`{name}` is {}", info.doc),
        });
    }
}

fn check_prob_function(e: &Expr, p: &ProbFunctionLiteral, out: &mut Vec<Lint>) {
    let keyword = p.keyword();
    let probabilities = p.probabilities();
    if probabilities.is_empty() {
        warn(
            out,
            e.span,
            format!("{keyword} has no samples; the printed expression will not parse"),
        );
        return;
    }
    let mut sum = 0.0;
    for (span, prob) in &probabilities {
        let span = if *span == Span::DUMMY { e.span } else { *span };
        if !prob.is_finite() {
            warn(out, span, format!("probability {prob} is not a finite number"));
        } else if *prob < 0.0 {
            warn(out, span, format!("probability {prob} is negative"));
        }
        sum += prob;
    }
    if sum.is_finite() && (sum - 1.0).abs() > PROBABILITY_SUM_TOLERANCE {
        warn(
            out,
            e.span,
            format!("the probabilities of this {keyword} sum to {sum} instead of 1"),
        );
    }
    match p {
        ProbFunctionLiteral::IntPMF(samples) => {
            for s in samples {
                check_int(s.value, sample_span(e, s), out);
            }
            check_duplicates(e, samples, |v| *v, |v| v.to_string(), out);
        }
        ProbFunctionLiteral::DoublePMF(samples) => {
            check_finite_values(e, samples, out);
            // `+ 0.0` makes -0.0 and 0.0 one key, as they are one value.
            check_duplicates(e, samples, |v| (v + 0.0).to_bits(), |v| v.to_string(), out);
        }
        ProbFunctionLiteral::EnumPMF { samples, .. } => {
            check_duplicates(e, samples, |v| v.clone(), |v| format!("{v:?}"), out)
        }
        ProbFunctionLiteral::BoolPMF { samples, .. } => check_duplicates(e, samples, |v| *v, |v| v.to_string(), out),
        ProbFunctionLiteral::DoublePDF(samples) => {
            check_finite_values(e, samples, out);
            // Boxes are (x_{i-1}, x_i]: the points must strictly increase.
            for pair in samples.windows(2) {
                if pair[1].value <= pair[0].value {
                    warn(
                        out,
                        sample_span(e, &pair[1]),
                        format!(
                            "DoublePDF sample points must increase: {} follows {}",
                            pair[1].value, pair[0].value
                        ),
                    );
                }
            }
        }
    }
}

fn sample_span<T>(e: &Expr, s: &Sample<T>) -> Span {
    if s.span == Span::DUMMY {
        e.span
    } else {
        s.span
    }
}

fn check_finite_values(e: &Expr, samples: &[Sample<f64>], out: &mut Vec<Lint>) {
    for s in samples {
        if !s.value.is_finite() {
            warn(
                out,
                sample_span(e, s),
                format!("sample value {} is not a finite number", s.value),
            );
        }
    }
}

/// Warns about repeated sample values. Hashing keeps wide PMFs (real files
/// have 100+ samples, fuzzers many more) linear.
fn check_duplicates<T, K: std::hash::Hash + Eq>(
    e: &Expr,
    samples: &[Sample<T>],
    key: impl Fn(&T) -> K,
    show: impl Fn(&T) -> String,
    out: &mut Vec<Lint>,
) {
    let mut seen = std::collections::HashSet::new();
    for s in samples {
        if !seen.insert(key(&s.value)) {
            warn(
                out,
                sample_span(e, s),
                format!("value {} appears more than once", show(&s.value)),
            );
        }
    }
}

/// The distinct characterised variables of `e` (e.g. `"files.NUMBER_OF_ELEMENTS"`),
/// in order of first appearance.
pub fn variables(e: &Expr) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    e.walk(&mut |node| {
        if let Some(v) = node.variable_text() {
            if !out.contains(&v) {
                out.push(v);
            }
        }
    });
    out
}
