//! Helpers shared by the integration tests.
#![allow(dead_code)]

use beagle_stoex::{Expr, ExprKind, ProbFunctionLiteral, UnaryOp};

/// A fully parenthesised S-expression of the tree, so tests can state the
/// exact structure (precedence, associativity) in one readable string.
pub fn sexpr(e: &Expr) -> String {
    match &e.kind {
        ExprKind::Int(v) => v.to_string(),
        ExprKind::Double(v) => format!("{v:?}"),
        ExprKind::Bool(b) => b.to_string(),
        ExprKind::String(s) => format!("{s:?}"),
        ExprKind::CharacterisedVariable { name, characterisation } => {
            format!("{}.{}", name.join("."), characterisation.as_str())
        }
        ExprKind::Unary { op, expr } => {
            let op = match op {
                UnaryOp::Neg => "neg",
                UnaryOp::Not => "not",
            };
            format!("({op} {})", sexpr(expr))
        }
        ExprKind::Binary { op, lhs, rhs } => {
            format!("({} {} {})", op.as_str(), sexpr(lhs), sexpr(rhs))
        }
        ExprKind::Compare { op, lhs, rhs } => {
            format!("({} {} {})", op.as_str(), sexpr(lhs), sexpr(rhs))
        }
        ExprKind::IfElse { cond, then, else_ } => {
            format!("(if {} {} {})", sexpr(cond), sexpr(then), sexpr(else_))
        }
        ExprKind::FunctionCall { name, args } => {
            let mut s = format!("(call {name}");
            for a in args {
                s.push(' ');
                s.push_str(&sexpr(a));
            }
            s.push(')');
            s
        }
        ExprKind::ProbFunction(p) => {
            let samples: Vec<String> = match p {
                ProbFunctionLiteral::IntPMF(s) => {
                    s.iter().map(|s| format!("{}:{:?}", s.value, s.probability)).collect()
                }
                ProbFunctionLiteral::DoublePMF(s) | ProbFunctionLiteral::DoublePDF(s) => {
                    s.iter().map(|s| format!("{:?}:{:?}", s.value, s.probability)).collect()
                }
                ProbFunctionLiteral::EnumPMF { samples, .. } => samples
                    .iter()
                    .map(|s| format!("{:?}:{:?}", s.value, s.probability))
                    .collect(),
                ProbFunctionLiteral::BoolPMF { samples, .. } => samples
                    .iter()
                    .map(|s| format!("{}:{:?}", s.value, s.probability))
                    .collect(),
            };
            let ordered = match p {
                ProbFunctionLiteral::EnumPMF { ordered: true, .. }
                | ProbFunctionLiteral::BoolPMF { ordered: true, .. } => "(ordered)",
                _ => "",
            };
            format!("({}{ordered} {})", p.keyword(), samples.join(" "))
        }
    }
}

/// Parses `src`, panicking with the error (tests only).
pub fn p(src: &str) -> Expr {
    match beagle_stoex::parse(src) {
        Ok(e) => e,
        Err(err) => panic!("{src:?} failed at byte {}: {}", err.offset, err.message),
    }
}

/// Tree of `src` as an S-expression.
pub fn tree(src: &str) -> String {
    sexpr(&p(src))
}

/// Canonical print of `src`, after checking that it is a fixpoint and
/// re-parses to the same tree.
pub fn canon(src: &str) -> String {
    let e = p(src);
    let printed = beagle_stoex::print(&e);
    let again = p(&printed);
    assert_eq!(again, e, "re-parse of {printed:?} differs from {src:?}");
    assert_eq!(beagle_stoex::print(&again), printed, "print is not a fixpoint");
    printed
}

/// `(offset, len, message)` of the parse error of `src`.
pub fn err(src: &str) -> (usize, usize, String) {
    match beagle_stoex::parse(src) {
        Ok(e) => panic!("{src:?} parsed as {} but should fail", sexpr(&e)),
        Err(e) => (e.offset, e.len, e.message),
    }
}
