//! The canonical printer.
//!
//! Output re-parses to the same tree (spans aside): parentheses appear exactly
//! where precedence or non-associativity needs them, binary operators are
//! surrounded by single spaces, and numbers keep their exact value.
//!
//! Numbers:
//! - `Int(v)` prints as decimal; `Double(v)` prints Rust's shortest
//!   round-trip representation rewritten into the grammar's DOUBLE form:
//!   always with a `.`, exponent as `E`, e.g. `2.0`, `1.0E-20`, `1.5E300`.
//! - A negative literal (`Int(-3)`, `Double(-2.5)`, built by constructors)
//!   prints as `-3`, which re-parses as `Unary(Neg, Int(3))`; it binds like a
//!   prefix operator, so it is parenthesised where one would be.
//!   [`Expr::normalised`](crate::Expr::normalised) maps both forms to the
//!   same tree.
//! - Text cannot express non-finite numbers or `i64::MIN` as literals, so the
//!   printer writes an expression with (nearly) the same meaning instead:
//!   `±inf` prints as `±1.7976931348623157E308` (`f64::MAX`), NaN prints as
//!   `0.0 / 0.0` (which the evaluator reports as a division by zero), and
//!   `i64::MIN` prints as `-9223372036854775807 - 1`. Inside PMF/PDF samples
//!   only a number can stand, so there NaN prints as `0.0`. `lint` warns
//!   about all of these.
//!
//! Property (tested): `print(&parse(&print(e))?) == print(e)` for every tree,
//! and `parse(&print(e))?.normalised() == e.normalised()` for every tree
//! without non-finite doubles and `i64::MIN`.

use crate::ast::{BinaryOp, Expr, ExprKind, ProbFunctionLiteral, Sample, UnaryOp};

/// Prints `e` as canonical StoEx text.
pub fn print(e: &Expr) -> String {
    let mut out = String::new();
    write_expr(e, IF_ELSE, &mut out);
    out
}

/// `{}` prints the canonical text. Here, not beside `Expr` in `ast`: the tree does not know
/// its printer, the printer knows the tree.
impl std::fmt::Display for Expr {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&print(self))
    }
}

use crate::precedence::{AND, ATOM, COMPARE, IF_ELSE, OR, POWER, PRODUCT, SUM, UNARY};

fn binary_level(op: BinaryOp) -> u8 {
    match op {
        BinaryOp::And => AND,
        BinaryOp::Or | BinaryOp::Xor => OR,
        BinaryOp::Add | BinaryOp::Sub => SUM,
        BinaryOp::Mul | BinaryOp::Div | BinaryOp::Mod => PRODUCT,
        BinaryOp::Pow => POWER,
    }
}

/// Operand levels `(lhs, rhs)` that a binary operator needs without parentheses.
fn operand_levels(op: BinaryOp) -> (u8, u8) {
    match op {
        // Left-associative: a chain continues on the left only.
        BinaryOp::And => (AND, OR),
        BinaryOp::Or | BinaryOp::Xor => (OR, COMPARE),
        BinaryOp::Add | BinaryOp::Sub => (SUM, PRODUCT),
        BinaryOp::Mul | BinaryOp::Div | BinaryOp::Mod => (PRODUCT, POWER),
        // Non-associative: `Power ::= Unary ("^" Unary)?`.
        BinaryOp::Pow => (UNARY, UNARY),
    }
}

/// Literals the grammar cannot write directly, as the expression printed
/// in their place (see the module documentation).
fn stand_in(e: &Expr) -> Option<Expr> {
    match e.kind {
        ExprKind::Int(i64::MIN) => Some(Expr::binary(BinaryOp::Sub, Expr::int(-i64::MAX), Expr::int(1))),
        ExprKind::Double(v) if v.is_nan() => Some(Expr::binary(BinaryOp::Div, Expr::double(0.0), Expr::double(0.0))),
        ExprKind::Double(v) if v.is_infinite() => Some(Expr::double(if v > 0.0 { f64::MAX } else { -f64::MAX })),
        _ => None,
    }
}

fn level(e: &Expr) -> u8 {
    match &e.kind {
        ExprKind::IfElse { .. } => IF_ELSE,
        ExprKind::Binary { op, .. } => binary_level(*op),
        ExprKind::Compare { .. } => COMPARE,
        ExprKind::Unary { .. } => UNARY,
        ExprKind::Int(v) if *v < 0 => UNARY,
        ExprKind::Double(v) if v.is_sign_negative() => UNARY,
        _ => ATOM,
    }
}

fn write_expr(e: &Expr, min_level: u8, out: &mut String) {
    if let Some(replacement) = stand_in(e) {
        return write_expr(&replacement, min_level, out);
    }
    let parens = level(e) < min_level;
    if parens {
        out.push('(');
    }
    match &e.kind {
        ExprKind::Int(v) => out.push_str(&v.to_string()),
        ExprKind::Double(v) => out.push_str(&format_double(*v)),
        ExprKind::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        ExprKind::String(s) => write_string(s, out),
        ExprKind::CharacterisedVariable { name, characterisation } => {
            out.push_str(&name.join("."));
            out.push('.');
            out.push_str(characterisation.as_str());
        }
        ExprKind::Unary { op, expr } => {
            match op {
                UnaryOp::Neg => out.push('-'),
                UnaryOp::Not => out.push_str("NOT "),
            }
            write_expr(expr, UNARY, out);
        }
        ExprKind::Binary { op, lhs, rhs } => {
            let (l, r) = operand_levels(*op);
            write_expr(lhs, l, out);
            out.push(' ');
            out.push_str(op.as_str());
            out.push(' ');
            write_expr(rhs, r, out);
        }
        ExprKind::Compare { op, lhs, rhs } => {
            // Non-associative: both sides must be sums.
            write_expr(lhs, SUM, out);
            out.push(' ');
            out.push_str(op.as_str());
            out.push(' ');
            write_expr(rhs, SUM, out);
        }
        ExprKind::IfElse { cond, then, else_ } => {
            // All three parts are OrChains: a nested `?:` needs parentheses.
            write_expr(cond, AND, out);
            out.push_str(" ? ");
            write_expr(then, AND, out);
            out.push_str(" : ");
            write_expr(else_, AND, out);
        }
        ExprKind::FunctionCall { name, args } => {
            out.push_str(name);
            out.push('(');
            for (i, a) in args.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                write_expr(a, AND, out);
            }
            out.push(')');
        }
        ExprKind::ProbFunction(p) => write_prob_function(p, out),
    }
    if parens {
        out.push(')');
    }
}

fn write_prob_function(p: &ProbFunctionLiteral, out: &mut String) {
    out.push_str(p.keyword());
    match p {
        ProbFunctionLiteral::EnumPMF { ordered: true, .. } | ProbFunctionLiteral::BoolPMF { ordered: true, .. } => {
            out.push_str("(ordered)")
        }
        _ => {}
    }
    out.push('[');
    match p {
        ProbFunctionLiteral::IntPMF(s) => write_samples(s, out, |v, o| o.push_str(&v.to_string())),
        ProbFunctionLiteral::DoublePMF(s) | ProbFunctionLiteral::DoublePDF(s) => {
            write_samples(s, out, |v, o| o.push_str(&format_sample_number(*v)))
        }
        ProbFunctionLiteral::EnumPMF { samples, .. } => write_samples(samples, out, |v, o| write_string(v, o)),
        ProbFunctionLiteral::BoolPMF { samples, .. } => {
            write_samples(samples, out, |v, o| o.push_str(if *v { "true" } else { "false" }))
        }
    }
    out.push(']');
}

fn write_samples<T>(samples: &[Sample<T>], out: &mut String, value: impl Fn(&T, &mut String)) {
    for s in samples {
        out.push('(');
        value(&s.value, out);
        out.push(';');
        out.push_str(&format_sample_number(s.probability));
        out.push(')');
    }
}

/// A sample number: only a (signed) number literal can stand there.
fn format_sample_number(v: f64) -> String {
    if v.is_nan() {
        "0.0".to_string()
    } else if v.is_infinite() {
        format_double(if v > 0.0 { f64::MAX } else { -f64::MAX })
    } else {
        format_double(v)
    }
}

/// Formats a finite double in the grammar's DOUBLE syntax with the shortest
/// text that parses back to the same bits: `2.0`, `0.1`, `1.0E-20`,
/// `1.5E300`, `-2.5`. Rust's `{:?}` already gives the shortest round-trip
/// digits; only its exponent form (`1e-20`) needs rewriting, because the
/// grammar wants a `.` in the mantissa for readability (`1E-20` would also
/// parse) and we print `E` like Java does.
pub fn format_double(v: f64) -> String {
    let s = format!("{v:?}");
    match s.split_once('e') {
        Some((mantissa, exponent)) => {
            let dot = if mantissa.contains('.') { "" } else { ".0" };
            format!("{mantissa}{dot}E{exponent}")
        }
        None if s.contains('.') => s,
        // Not reached for finite values ({:?} always writes `.0`), but keep
        // the output a DOUBLE whatever the standard library does.
        None => format!("{s}.0"),
    }
}

/// A double-quoted string with Java escapes for `"`, `\` and control characters.
fn write_string(s: &str, out: &mut String) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            '\r' => out.push_str("\\r"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            c if c.is_control() => {
                let mut buf = [0u16; 2];
                for unit in c.encode_utf16(&mut buf) {
                    out.push_str(&format!("\\u{unit:04X}"));
                }
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

#[cfg(test)]
mod tests {
    use super::format_double;

    #[test]
    fn doubles_use_the_grammar_form() {
        assert_eq!(format_double(2.0), "2.0");
        assert_eq!(format_double(0.1), "0.1");
        assert_eq!(format_double(1e-20), "1.0E-20");
        assert_eq!(format_double(1.5e300), "1.5E300");
        assert_eq!(format_double(-2.5), "-2.5");
        assert_eq!(format_double(-0.0), "-0.0");
        assert_eq!(format_double(25072240.0), "25072240.0");
        assert_eq!(format_double(8.014104824491104e-5), "8.014104824491104E-5");
        assert_eq!(format_double(f64::MAX), "1.7976931348623157E308");
        assert_eq!(format_double(5e-324), "5.0E-324");
    }

    #[test]
    fn doubles_round_trip_exactly() {
        for v in [0.1, 1.0 / 3.0, 123456789.123, 1e22, 1e-7, f64::MIN_POSITIVE] {
            let text = format_double(v);
            assert_eq!(text.parse::<f64>().map(f64::to_bits), Ok(v.to_bits()), "{text}");
        }
    }
}
