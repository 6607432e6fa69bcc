//! Printing: the infix grammar of the benchmark contract and StoEx through `beagle_stoex`.
//!
//! # Infix (`shared/bench/sr/CONTRACT.md`)
//! Variables are `x1..xk`. Parentheses appear only where the grammar needs them; `a + -3` prints
//! `a - 3`. A cap `if(a < b, a, b)` prints `min(a, b)`, a floor `if(a > b, a, b)` `max(a, b)`
//! ([`crate::simplify::caps`]); StoEx keeps the conditional (`a < b ? a : b`). Numbers: integers up to 1e15 without a fraction (`120`), other values between 1e-4 and
//! 1e15 in plain decimal (`0.00025`), the rest in exponent form (`1.5e-6`), always the shortest
//! text that reads back to the same double. Negative numbers print with a unary minus.
//!
//! # StoEx
//! [`to_stoex`] builds a `beagle_stoex::Expr` with the constructors; its `print` is the text.
//! Column names are PCM variable texts: `files.NUMBER_OF_ELEMENTS` becomes that characterised
//! variable; a name without a characterisation suffix (`x1`, `n`) gets `.VALUE`
//! ([`stoex_variable_text`] gives the text an evaluator's environment sees). Mapping of the nodes,
//! chosen so that the result only uses functions Palladio's analysers know:
//!
//! | fit node | StoEx |
//! |---|---|
//! | `exp(a)` | `2.718281828459045 ^ a` (StoEx `Exp` is the exponential *distribution*) |
//! | `log(a)` (natural) | `Log(2.718281828459045, a)` (Palladio's `Log(base, value)`) |
//! | `log2(a)` | `Log(2, a)` |
//! | `sqrt(a)`, `ceil(a)` | `Sqrt(a)`, `Ceil(a)` |
//! | `floor(a)` | `Trunc(a)` (equal for `a >= 0`, the case of loop counts) |
//! | `abs(a)` | `Max(a, -a)` |
//! | `if(c, a, b)` | `c ? a : b`, `&&`/`\|\|`/`!` as `AND`/`OR`/`NOT`, `!=` as `<>` |
//!
//! Constants keep 12 significant digits (no float residue such as `0.05639999999999999`).
//! Integer-valued constants print as StoEx `Int` literals, except as an operand of `/`, where they
//! print as doubles (`n.VALUE / 2.0`), so a solver that types `Int / Int` as integer division
//! still divides in floating point.

use crate::expr::{BinaryOp, CmpOp, Cond, Expr, UnaryOp};
use beagle_stoex as stoex;
use std::str::FromStr;

// ---------------------------------------------------------------------------------------------
// Infix.
// ---------------------------------------------------------------------------------------------

// Binding strength, loosest first (the contract grammar's levels).
const SUM: u8 = 1;
const PRODUCT: u8 = 2;
const UNARY: u8 = 3;
const POWER: u8 = 4;
const ATOM: u8 = 5;

/// Prints `e` in the contract's infix grammar with variables `x1..xk`.
pub fn infix(e: &Expr) -> String {
    let mut out = String::new();
    write_infix(e, SUM, &mut out);
    out
}

/// Prints a condition in the contract's infix grammar.
pub fn infix_cond(c: &Cond) -> String {
    let mut out = String::new();
    write_cond(c, COND_OR, &mut out);
    out
}

/// Formats a number for the infix grammar (see the module documentation); negative numbers get a
/// leading `-`.
pub fn format_number(v: f64) -> String {
    if v.is_nan() {
        return "(0/0)".to_string();
    }
    if v.is_infinite() {
        return if v > 0.0 { "1e308*10" } else { "-1e308*10" }.to_string();
    }
    let a = v.abs();
    let body = if a == a.trunc() && a < 1e15 {
        format!("{a:.0}")
    } else if (1e-4..1e15).contains(&a) {
        format!("{a}")
    } else {
        format!("{a:e}")
    };
    if v.is_sign_negative() && a != 0.0 {
        format!("-{body}")
    } else {
        body
    }
}

fn level(e: &Expr) -> u8 {
    match e {
        Expr::Const(v) if v.is_sign_negative() && *v != 0.0 => UNARY,
        Expr::Const(v) if !v.is_finite() => PRODUCT,
        Expr::Const(_) | Expr::Var(_) | Expr::If(..) => ATOM,
        Expr::Unary(UnaryOp::Neg, _) => UNARY,
        Expr::Unary(..) => ATOM,
        Expr::Binary(BinaryOp::Add | BinaryOp::Sub, ..) => SUM,
        Expr::Binary(BinaryOp::Mul | BinaryOp::Div, ..) => PRODUCT,
        Expr::Binary(BinaryOp::Pow, ..) => POWER,
    }
}

/// `Some(t)` when `e` is `-t`: a negation, a negative constant, or a product or quotient whose
/// first factor is one (`-400*x1`), so that `a + -400*x1` prints `a - 400*x1` (issue 41).
fn negated(e: &Expr) -> Option<Expr> {
    match e {
        Expr::Unary(UnaryOp::Neg, a) => Some((**a).clone()),
        Expr::Const(v) if v.is_sign_negative() && *v != 0.0 && v.is_finite() => Some(Expr::Const(-v)),
        Expr::Binary(op @ (BinaryOp::Mul | BinaryOp::Div), a, b) => {
            negated(a).map(|t| Expr::Binary(*op, Box::new(t), b.clone()))
        }
        _ => None,
    }
}

fn write_infix(e: &Expr, min_level: u8, out: &mut String) {
    let parens = level(e) < min_level;
    if parens {
        out.push('(');
    }
    match e {
        Expr::Const(v) => out.push_str(&format_number(*v)),
        Expr::Var(i) => {
            out.push('x');
            out.push_str(&(i + 1).to_string());
        }
        Expr::Unary(UnaryOp::Neg, a) => {
            out.push('-');
            write_infix(a, UNARY, out);
        }
        Expr::Unary(op, a) => {
            out.push_str(op.infix_name().unwrap_or("?"));
            out.push('(');
            write_infix(a, SUM, out);
            out.push(')');
        }
        Expr::Binary(op @ (BinaryOp::Add | BinaryOp::Sub), a, b) => {
            write_infix(a, SUM, out);
            match negated(b) {
                Some(t) => {
                    out.push_str(if *op == BinaryOp::Add { " - " } else { " + " });
                    write_infix(&t, PRODUCT, out);
                }
                None => {
                    out.push(' ');
                    out.push_str(op.symbol());
                    out.push(' ');
                    write_infix(b, PRODUCT, out);
                }
            }
        }
        Expr::Binary(op @ (BinaryOp::Mul | BinaryOp::Div), a, b) => {
            write_infix(a, PRODUCT, out);
            out.push_str(op.symbol());
            // `a/(b*c)`, `a*(b/c)` keep their grouping.
            write_infix(b, if level(b) == PRODUCT { ATOM } else { UNARY }, out);
        }
        Expr::Binary(BinaryOp::Pow, a, b) => {
            // `power := primary ('^' unary)?`: the base must be an atom.
            write_infix(a, ATOM, out);
            out.push('^');
            write_infix(b, UNARY, out);
        }
        Expr::If(..) if crate::simplify::caps::as_min_max(e).is_some() => {
            let (is_min, a, b) = crate::simplify::caps::as_min_max(e).unwrap_or((true, e, e));
            out.push_str(if is_min { "min(" } else { "max(" });
            write_infix(a, SUM, out);
            out.push_str(", ");
            write_infix(b, SUM, out);
            out.push(')');
        }
        Expr::If(c, a, b) => {
            out.push_str("if(");
            write_cond(c, COND_OR, out);
            out.push_str(", ");
            write_infix(a, SUM, out);
            out.push_str(", ");
            write_infix(b, SUM, out);
            out.push(')');
        }
    }
    if parens {
        out.push(')');
    }
}

const COND_OR: u8 = 0;
const COND_AND: u8 = 1;
const COND_NOT: u8 = 2;

fn cond_level(c: &Cond) -> u8 {
    match c {
        Cond::Or(..) => COND_OR,
        Cond::And(..) => COND_AND,
        Cond::Not(..) | Cond::Cmp(..) => COND_NOT,
    }
}

fn write_cond(c: &Cond, min_level: u8, out: &mut String) {
    let parens = cond_level(c) < min_level;
    if parens {
        out.push('(');
    }
    match c {
        Cond::Cmp(op, a, b) => {
            write_infix(a, SUM, out);
            out.push(' ');
            out.push_str(op.symbol());
            out.push(' ');
            write_infix(b, SUM, out);
        }
        Cond::And(a, b) => {
            write_cond(a, COND_AND, out);
            out.push_str(" && ");
            write_cond(b, COND_NOT, out);
        }
        Cond::Or(a, b) => {
            write_cond(a, COND_OR, out);
            out.push_str(" || ");
            write_cond(b, COND_AND, out);
        }
        Cond::Not(a) => {
            out.push('!');
            // `!x1 > 3` reads as `!(x1 > 3)`; parenthesise anyway for the reader.
            let inner_parens = matches!(**a, Cond::Cmp(..) | Cond::And(..) | Cond::Or(..));
            if inner_parens {
                out.push('(');
                write_cond(a, COND_OR, out);
                out.push(')');
            } else {
                write_cond(a, COND_NOT, out);
            }
        }
    }
    if parens {
        out.push(')');
    }
}

// ---------------------------------------------------------------------------------------------
// StoEx.
// ---------------------------------------------------------------------------------------------

/// Splits a column name into the variable path and its characterisation: `files.NUMBER_OF_ELEMENTS`
/// is (`files`, NUMBER_OF_ELEMENTS); a name without a characterisation suffix is itself with VALUE.
pub fn stoex_variable(name: &str) -> (String, stoex::Characterisation) {
    if let Some((path, last)) = name.rsplit_once('.') {
        if let Ok(c) = stoex::Characterisation::from_str(last) {
            return (path.to_string(), c);
        }
    }
    (name.to_string(), stoex::Characterisation::Value)
}

/// The variable text an evaluator's environment sees for a column name (`n` -> `n.VALUE`).
pub fn stoex_variable_text(name: &str) -> String {
    let (path, c) = stoex_variable(name);
    format!("{path}.{}", c.as_str())
}

/// Builds the StoEx tree of `e`; `names[i]` is the PCM name of column `i` (missing names become
/// `x{i+1}`).
pub fn to_stoex(e: &Expr, names: &[String]) -> stoex::Expr {
    stoex_expr(e, names, false)
}

/// Prints `e` as StoEx text (see [`to_stoex`]).
pub fn stoex_text(e: &Expr, names: &[String]) -> String {
    stoex::print(&to_stoex(e, names))
}

/// Builds the StoEx tree of a condition (a branch guard): comparisons, `AND`, `OR`, `NOT`.
pub fn cond_to_stoex(c: &Cond, names: &[String]) -> stoex::Expr {
    stoex_cond(c, names)
}

/// Prints a condition as StoEx text (see [`cond_to_stoex`]), e.g. `n.VALUE > 200000`.
pub fn stoex_cond_text(c: &Cond, names: &[String]) -> String {
    stoex::print(&cond_to_stoex(c, names))
}

/// Drops float residue that arithmetic on rounded constants leaves (`0.05639999999999999` from
/// `-0.0047 * -12`): 12 significant digits are far beyond any measurement, and a model should say
/// `0.0564`. Euler's number (the base of natural logarithms) stays exact.
fn without_residue(v: f64) -> f64 {
    if v == std::f64::consts::E || !v.is_finite() {
        return v;
    }
    crate::numeric::round_significant(v, 12)
}

fn stoex_number(v: f64, in_division: bool) -> stoex::Expr {
    let v = without_residue(v);
    if !in_division && v == v.trunc() && v.abs() < 9.0e15 {
        stoex::Expr::int(v as i64)
    } else {
        stoex::Expr::double(v)
    }
}

fn stoex_expr(e: &Expr, names: &[String], in_division: bool) -> stoex::Expr {
    use stoex::BinaryOp as B;
    match e {
        Expr::Const(v) => stoex_number(*v, in_division),
        Expr::Var(i) => {
            let name = names.get(*i).cloned().unwrap_or_else(|| format!("x{}", i + 1));
            let (path, c) = stoex_variable(&name);
            stoex::Expr::var(&path, c)
        }
        Expr::Unary(op, a) => {
            let x = stoex_expr(a, names, false);
            match op {
                UnaryOp::Neg => stoex::Expr::unary(stoex::UnaryOp::Neg, x),
                UnaryOp::Exp => stoex::Expr::binary(B::Pow, stoex::Expr::double(std::f64::consts::E), x),
                UnaryOp::Log => stoex::Expr::call("Log", vec![stoex::Expr::double(std::f64::consts::E), x]),
                UnaryOp::Log2 => stoex::Expr::call("Log", vec![stoex::Expr::int(2), x]),
                UnaryOp::Sqrt => stoex::Expr::call("Sqrt", vec![x]),
                UnaryOp::Floor => stoex::Expr::call("Trunc", vec![x]),
                UnaryOp::Ceil => stoex::Expr::call("Ceil", vec![x]),
                UnaryOp::Abs => {
                    let neg = stoex::Expr::unary(stoex::UnaryOp::Neg, x.clone());
                    stoex::Expr::call("Max", vec![x, neg])
                }
            }
        }
        // `a + -400 * n` as `a - 400 * n`, as infix prints it: the same law, read as written.
        Expr::Binary(op, a, b) => {
            if let (BinaryOp::Add | BinaryOp::Sub, Some(t)) = (op, negated(b)) {
                let flipped = if *op == BinaryOp::Add { B::Sub } else { B::Add };
                return stoex::Expr::binary(flipped, stoex_expr(a, names, false), stoex_expr(&t, names, false));
            }
            let div = *op == BinaryOp::Div;
            let op = match op {
                BinaryOp::Add => B::Add,
                BinaryOp::Sub => B::Sub,
                BinaryOp::Mul => B::Mul,
                BinaryOp::Div => B::Div,
                BinaryOp::Pow => B::Pow,
            };
            stoex::Expr::binary(op, stoex_expr(a, names, div), stoex_expr(b, names, div))
        }
        Expr::If(c, a, b) => stoex::Expr::if_else(
            stoex_cond(c, names),
            stoex_expr(a, names, false),
            stoex_expr(b, names, false),
        ),
    }
}

fn stoex_cond(c: &Cond, names: &[String]) -> stoex::Expr {
    match c {
        Cond::Cmp(op, a, b) => {
            let op = match op {
                CmpOp::Gt => stoex::CompareOp::Gt,
                CmpOp::Ge => stoex::CompareOp::Ge,
                CmpOp::Lt => stoex::CompareOp::Lt,
                CmpOp::Le => stoex::CompareOp::Le,
                CmpOp::Eq => stoex::CompareOp::Eq,
                CmpOp::Ne => stoex::CompareOp::Ne,
            };
            stoex::Expr::compare(op, stoex_expr(a, names, false), stoex_expr(b, names, false))
        }
        Cond::And(a, b) => stoex::Expr::binary(stoex::BinaryOp::And, stoex_cond(a, names), stoex_cond(b, names)),
        Cond::Or(a, b) => stoex::Expr::binary(stoex::BinaryOp::Or, stoex_cond(a, names), stoex_cond(b, names)),
        Cond::Not(a) => stoex::Expr::unary(stoex::UnaryOp::Not, stoex_cond(a, names)),
    }
}

// Here rather than in expr.rs: the tree does not depend on its printers.
impl std::fmt::Display for Expr {
    /// The infix grammar of the benchmark contract, variables `x1..xk`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&infix(self))
    }
}

impl std::fmt::Display for Cond {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&infix_cond(self))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::eval_point;

    fn x(i: usize) -> Expr {
        Expr::var(i)
    }

    #[test]
    fn infix_examples_of_the_contract() {
        let step = Expr::if_else(Cond::var_gt(0, 200000.0), 0.04 * x(0), Expr::Const(1500.0));
        assert_eq!(infix(&step), "if(x1 > 200000, 0.04*x1, 1500)");
        assert_eq!(infix(&(x(0) / 2.0).floor()), "floor(x1/2)");
        assert_eq!(infix(&x(0).powi(2)), "x1^2");
        assert_eq!(infix(&x(0).ln()), "log(x1)");
        assert_eq!(infix(&(0.35 * x(0) + 120.0)), "0.35*x1 + 120");
        assert_eq!(infix(&(0.35 * x(0) + -120.0)), "0.35*x1 - 120");
        assert_eq!(infix(&(x(0) - (x(1) - 1.0))), "x1 - (x2 - 1)");
        assert_eq!(infix(&(x(0) * (x(0) - 1.0) / 2.0)), "x1*(x1 - 1)/2");
        assert_eq!(infix(&(x(0) / (x(0) + x(1)))), "x1/(x1 + x2)");
        assert_eq!(infix(&(x(0) / (2.0 * x(1)))), "x1/(2*x2)");
        assert_eq!(infix(&(1.5e-6 * x(0).powi(3))), "1.5e-6*x1^3");
        assert_eq!(infix(&Expr::Const(2.0).pow(x(0))), "2^x1");
        assert_eq!(infix(&(-x(0)).pow(Expr::Const(2.0))), "(-x1)^2");
        assert_eq!(infix(&-(x(0).powi(2))), "-x1^2");
        assert_eq!(infix(&x(0).pow(Expr::Const(-1.0))), "x1^-1");
        assert_eq!(infix(&(0.02 * x(0) * x(0).log2())), "0.02*x1*log2(x1)");
        // Caps and floors (issue 21): the harness grammar's `min` and `max`.
        let cap = 0.001 * crate::simplify::caps::min(x(0), Expr::Const(40000.0)) + 5.0;
        assert_eq!(infix(&cap), "0.001*min(x1, 40000) + 5");
        assert_eq!(infix(&crate::simplify::caps::max(x(1), x(0))), "max(x2, x1)");
        // An `if` of another shape stays one.
        let other = Expr::if_else(Cond::cmp(CmpOp::Lt, x(0), Expr::Const(4.0)), x(0), Expr::Const(5.0));
        assert_eq!(infix(&other), "if(x1 < 4, x1, 5)");
        let flag = Expr::if_else(Cond::var_gt(1, 0.5), 0.9 * x(0), 0.3 * x(0)) + 20.0;
        assert_eq!(infix(&flag), "if(x2 > 0.5, 0.9*x1, 0.3*x1) + 20");
        let c = Cond::var_gt(0, 200000.0)
            .and(Cond::cmp(CmpOp::Eq, x(1), Expr::Const(1.0)))
            .or(Cond::var_gt(2, 3.0).negate());
        assert_eq!(infix_cond(&c), "x1 > 200000 && x2 == 1 || !(x3 > 3)");
        let c2 = Cond::var_gt(0, 1.0).and(Cond::var_gt(1, 2.0).or(Cond::var_gt(2, 3.0)));
        assert_eq!(infix_cond(&c2), "x1 > 1 && (x2 > 2 || x3 > 3)");
    }

    #[test]
    fn numbers() {
        assert_eq!(format_number(120.0), "120");
        assert_eq!(format_number(0.00025), "0.00025");
        assert_eq!(format_number(0.35), "0.35");
        assert_eq!(format_number(-2.5), "-2.5");
        assert_eq!(format_number(1.5e-6), "1.5e-6");
        assert_eq!(format_number(3.5e20), "3.5e20");
        assert_eq!(format_number(1.0 / 3.0).parse::<f64>().unwrap(), 1.0 / 3.0);
        assert_eq!(format_number(0.0), "0");
    }

    #[test]
    fn stoex_text_uses_palladio_functions_and_pcm_names() {
        let names = vec!["files.NUMBER_OF_ELEMENTS".to_string(), "compressed".to_string()];
        let e = Expr::if_else(Cond::var_gt(1, 0.5), 0.9 * x(0), 0.3 * x(0)) + 20.0;
        assert_eq!(
            stoex_text(&e, &names),
            "(compressed.VALUE > 0.5 ? 0.9 * files.NUMBER_OF_ELEMENTS : 0.3 * files.NUMBER_OF_ELEMENTS) + 20"
        );
        assert_eq!(
            stoex_text(&(x(0) / 2.0).floor(), &names),
            "Trunc(files.NUMBER_OF_ELEMENTS / 2.0)"
        );
        let cap = 0.001 * crate::simplify::caps::min(x(0), Expr::Const(40000.0)) + 5.0;
        assert_eq!(
            stoex_text(&cap, &names),
            "0.001 * (files.NUMBER_OF_ELEMENTS < 40000 ? files.NUMBER_OF_ELEMENTS : 40000) + 5"
        );
        assert_eq!(
            stoex_text(&(0.02 * x(0) * x(0).log2()), &names),
            "0.02 * files.NUMBER_OF_ELEMENTS * Log(2, files.NUMBER_OF_ELEMENTS)"
        );
        assert_eq!(
            stoex_text(&x(1).ln(), &names),
            "Log(2.718281828459045, compressed.VALUE)"
        );
        // Float residue from arithmetic on rounded constants is not printed.
        assert_eq!(
            stoex_text(&((0.1 + 0.2) * x(0) + 1e-5 * 3.0), &names),
            "0.3 * files.NUMBER_OF_ELEMENTS + 3.0E-5"
        );
        // A negative coefficient after the first term is a minus, not `+ -400` (issue 41).
        let falling = 0.35 * x(0) + -400.0 * x(1) + 12.0;
        assert_eq!(
            stoex_text(&falling, &names),
            "0.35 * files.NUMBER_OF_ELEMENTS - 400 * compressed.VALUE + 12"
        );
        assert_eq!(infix(&falling), "0.35*x1 - 400*x2 + 12");
        let subtracted = x(0) - -2.5 * x(1) / 4.0;
        assert_eq!(
            stoex_text(&subtracted, &names),
            "files.NUMBER_OF_ELEMENTS + 2.5 * compressed.VALUE / 4.0"
        );
        assert_eq!(infix(&subtracted), "x1 + 2.5*x2/4");
        // A leading one stays a sign, and a negative factor inside a product stays where it is.
        assert_eq!(infix(&(-400.0 * x(1) + 5.0)), "-400*x2 + 5");
        assert_eq!(infix(&(x(0) + x(1) * -3.0)), "x1 + x2*-3");
        assert_eq!(stoex_variable_text("data.BYTESIZE"), "data.BYTESIZE");
        assert_eq!(stoex_variable_text("x1"), "x1.VALUE");
        assert_eq!(stoex_variable_text("a.b.VALUE"), "a.b.VALUE");
    }

    /// Every node kind printed to StoEx, parsed back and evaluated by `beagle_stoex` equals the
    /// fitting evaluator on random points.
    #[test]
    fn stoex_round_trip_evaluates_equal() {
        use rand::{RngExt, SeedableRng};
        let names = vec![
            "files.NUMBER_OF_ELEMENTS".to_string(),
            "n".to_string(),
            "data.BYTESIZE".to_string(),
        ];
        let exprs = vec![
            0.35 * x(0) + 120.0,
            0.00025 * x(0).powi(2) + 0.8 * x(0) + 50.0,
            1.5e-6 * x(0).powi(3),
            0.02 * x(0) * x(0).log2(),
            12.0 * x(0).sqrt() + 3.0,
            0.013 * x(0) * x(1),
            0.8 * x(2) / 1024.0 + 35.0,
            Expr::if_else(Cond::var_gt(0, 200000.0), 0.04 * x(0), Expr::Const(1500.0)),
            Expr::if_else(Cond::var_gt(1, 0.5), 0.9 * x(0), 0.3 * x(0)) + 20.0,
            x(0) - x(1),
            (x(0) / 2.0).floor(),
            x(0) * (x(0) - 1.0) / 2.0,
            Expr::Const(2.0).pow(x(1) / 100.0),
            x(0) / (x(0) + x(1)),
            x(0).ln() - (x(1) / 1000.0).exp() + (x(2) - x(0)).abs() / (x(1) / 3.0).ceil(),
            -x(0).powi(2) + (-x(1)).pow(Expr::Const(2.0)),
            0.001 * crate::simplify::caps::min(x(0), Expr::Const(40000.0)) + 5.0,
            2.0 * crate::simplify::caps::max(x(2), Expr::Const(65536.0))
                - 77.0 * crate::simplify::caps::min(x(1), x(0)),
            (x(2) / 4096.0).ceil(),
            0.35 * x(0) + -400.0 * x(1) + 12.0,
            x(0) - -2.5 * x(1) / 4.0 - -7.0,
            Expr::Const(3.0) - -0.5 * x(2).sqrt() * x(1),
            Expr::if_else(
                Cond::var_gt(0, 10.0)
                    .and(Cond::cmp(CmpOp::Le, x(1), Expr::Const(500.0)))
                    .or(Cond::cmp(CmpOp::Ne, x(2), x(0)).negate()),
                x(2) / 3.0,
                Expr::Const(-7.5),
            ),
        ];
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
        for e in &exprs {
            let text = stoex_text(e, &names);
            let parsed = stoex::parse(&text).unwrap_or_else(|err| panic!("{text}: {err:?}"));
            for _ in 0..50 {
                let p = [
                    rng.random_range(1.0..1.0e6_f64).floor(),
                    rng.random_range(1.0..1000.0_f64).floor(),
                    rng.random_range(0.0..1.0e6_f64),
                ];
                let env = |v: &str| names.iter().position(|n| stoex_variable_text(n) == v).map(|i| p[i]);
                let want = eval_point(e, &p);
                let got = stoex::eval_number(&parsed, &env).unwrap_or_else(|err| panic!("{text}: {err:?}"));
                assert!(
                    (got - want).abs() <= 1e-9 * want.abs().max(1.0),
                    "{text} at {p:?}: stoex {got}, fit {want}"
                );
            }
        }
    }
}
