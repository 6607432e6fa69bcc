//! The StoEx syntax tree.
//!
//! Parentheses are not nodes: they only widen the span of the expression they
//! enclose. Equality (`PartialEq`, [`Expr::same_tree`]) ignores spans, so a tree
//! parsed from printed text compares equal to the tree that was printed.

use serde::Serialize;
use std::fmt;
use std::str::FromStr;

/// Byte offsets `start..end` into the parsed source text.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default, Serialize)]
pub struct Span {
    pub start: usize,
    pub end: usize,
}

impl Span {
    pub const DUMMY: Span = Span { start: 0, end: 0 };

    pub fn new(start: usize, end: usize) -> Span {
        Span { start, end }
    }

    /// The smallest span covering both `self` and `other`.
    pub fn to(self, other: Span) -> Span {
        Span {
            start: self.start.min(other.start),
            end: self.end.max(other.end),
        }
    }

    pub fn len(self) -> usize {
        self.end.saturating_sub(self.start)
    }

    pub fn is_empty(self) -> bool {
        self.len() == 0
    }
}

/// A StoEx expression with the span of source text it was parsed from
/// ([`Span::DUMMY`] for expressions built with the constructors).
#[derive(Clone, Debug)]
pub struct Expr {
    pub kind: ExprKind,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub enum ExprKind {
    /// `DECINT`. The parser never produces a negative value (`-3` is
    /// `Unary(Neg, Int(3))`), but constructors may.
    Int(i64),
    /// `DOUBLE`. The parser only produces finite, non-negative values.
    Double(f64),
    Bool(bool),
    /// The unescaped string value.
    String(String),
    /// `a.b.c.VALUE`: `name` is the path `["a", "b", "c"]`.
    CharacterisedVariable {
        name: Vec<String>,
        characterisation: Characterisation,
    },
    Unary {
        op: UnaryOp,
        expr: Box<Expr>,
    },
    /// Arithmetic (`+ - * / % ^`) and boolean (`AND OR XOR`) operators.
    Binary {
        op: BinaryOp,
        lhs: Box<Expr>,
        rhs: Box<Expr>,
    },
    Compare {
        op: CompareOp,
        lhs: Box<Expr>,
        rhs: Box<Expr>,
    },
    /// `cond ? then : else_`
    IfElse {
        cond: Box<Expr>,
        then: Box<Expr>,
        else_: Box<Expr>,
    },
    FunctionCall {
        name: String,
        args: Vec<Expr>,
    },
    ProbFunction(ProbFunctionLiteral),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum UnaryOp {
    /// Prefix `-`.
    Neg,
    /// Prefix `NOT`.
    Not,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BinaryOp {
    Add,
    Sub,
    Mul,
    Div,
    Mod,
    Pow,
    And,
    Or,
    Xor,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CompareOp {
    Gt,
    Lt,
    Eq,
    /// `<>`
    Ne,
    Ge,
    Le,
}

impl UnaryOp {
    pub fn as_str(self) -> &'static str {
        match self {
            UnaryOp::Neg => "-",
            UnaryOp::Not => "NOT",
        }
    }
}

impl BinaryOp {
    pub fn as_str(self) -> &'static str {
        match self {
            BinaryOp::Add => "+",
            BinaryOp::Sub => "-",
            BinaryOp::Mul => "*",
            BinaryOp::Div => "/",
            BinaryOp::Mod => "%",
            BinaryOp::Pow => "^",
            BinaryOp::And => "AND",
            BinaryOp::Or => "OR",
            BinaryOp::Xor => "XOR",
        }
    }
}

impl CompareOp {
    pub fn as_str(self) -> &'static str {
        match self {
            CompareOp::Gt => ">",
            CompareOp::Lt => "<",
            CompareOp::Eq => "==",
            CompareOp::Ne => "<>",
            CompareOp::Ge => ">=",
            CompareOp::Le => "<=",
        }
    }
}

/// PCM's `VariableCharacterisationType`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub enum Characterisation {
    Value,
    ByteSize,
    NumberOfElements,
    Type,
    Structure,
}

impl Characterisation {
    pub const ALL: [Characterisation; 5] = [
        Characterisation::Value,
        Characterisation::ByteSize,
        Characterisation::NumberOfElements,
        Characterisation::Type,
        Characterisation::Structure,
    ];

    /// The keyword as written in StoEx and in PCM's XMI, e.g. `"VALUE"`.
    pub fn as_str(self) -> &'static str {
        match self {
            Characterisation::Value => "VALUE",
            Characterisation::ByteSize => "BYTESIZE",
            Characterisation::NumberOfElements => "NUMBER_OF_ELEMENTS",
            Characterisation::Type => "TYPE",
            Characterisation::Structure => "STRUCTURE",
        }
    }
}

impl fmt::Display for Characterisation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Error of [`Characterisation::from_str`]: the text is not one of the five keywords.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown characterisation `{0}` (expected VALUE, BYTESIZE, NUMBER_OF_ELEMENTS, TYPE or STRUCTURE)")]
pub struct UnknownCharacterisation(pub String);

impl FromStr for Characterisation {
    type Err = UnknownCharacterisation;

    /// Case-sensitive, like the grammar.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Characterisation::ALL
            .into_iter()
            .find(|c| c.as_str() == s)
            .ok_or_else(|| UnknownCharacterisation(s.to_string()))
    }
}

/// One `(value; probability)` pair of a PMF or PDF literal.
#[derive(Clone, Debug)]
pub struct Sample<T> {
    pub value: T,
    pub probability: f64,
    pub span: Span,
}

impl<T> Sample<T> {
    pub fn new(value: T, probability: f64) -> Self {
        Sample {
            value,
            probability,
            span: Span::DUMMY,
        }
    }
}

#[derive(Clone, Debug)]
pub enum ProbFunctionLiteral {
    IntPMF(Vec<Sample<i64>>),
    DoublePMF(Vec<Sample<f64>>),
    EnumPMF {
        ordered: bool,
        samples: Vec<Sample<String>>,
    },
    BoolPMF {
        ordered: bool,
        samples: Vec<Sample<bool>>,
    },
    /// Boxed PDF: sample `(x_i; p_i)` is the probability of `(x_{i-1}, x_i]`, `x_0 = 0`.
    DoublePDF(Vec<Sample<f64>>),
}

impl ProbFunctionLiteral {
    pub fn keyword(&self) -> &'static str {
        match self {
            ProbFunctionLiteral::IntPMF(_) => "IntPMF",
            ProbFunctionLiteral::DoublePMF(_) => "DoublePMF",
            ProbFunctionLiteral::EnumPMF { .. } => "EnumPMF",
            ProbFunctionLiteral::BoolPMF { .. } => "BoolPMF",
            ProbFunctionLiteral::DoublePDF(_) => "DoublePDF",
        }
    }

    /// `(span, probability)` of every sample, whatever the value type.
    pub fn probabilities(&self) -> Vec<(Span, f64)> {
        fn collect<T>(s: &[Sample<T>]) -> Vec<(Span, f64)> {
            s.iter().map(|s| (s.span, s.probability)).collect()
        }
        match self {
            ProbFunctionLiteral::IntPMF(s) => collect(s),
            ProbFunctionLiteral::DoublePMF(s) | ProbFunctionLiteral::DoublePDF(s) => collect(s),
            ProbFunctionLiteral::EnumPMF { samples, .. } => collect(samples),
            ProbFunctionLiteral::BoolPMF { samples, .. } => collect(samples),
        }
    }
}

// ---------------------------------------------------------------------------
// Equality that ignores spans.
// ---------------------------------------------------------------------------

/// Floats are equal when their bits are (so `0.0 != -0.0`, which matters for
/// printing), and any two NaNs are equal (so equality stays reflexive).
pub(crate) fn same_f64(a: f64, b: f64) -> bool {
    a.to_bits() == b.to_bits() || (a.is_nan() && b.is_nan())
}

fn same_samples<T>(a: &[Sample<T>], b: &[Sample<T>], eq: impl Fn(&T, &T) -> bool) -> bool {
    a.len() == b.len()
        && a.iter()
            .zip(b)
            .all(|(x, y)| eq(&x.value, &y.value) && same_f64(x.probability, y.probability))
}

impl PartialEq for ProbFunctionLiteral {
    fn eq(&self, other: &Self) -> bool {
        use ProbFunctionLiteral::*;
        match (self, other) {
            (IntPMF(a), IntPMF(b)) => same_samples(a, b, |x, y| x == y),
            (DoublePMF(a), DoublePMF(b)) | (DoublePDF(a), DoublePDF(b)) => same_samples(a, b, |x, y| same_f64(*x, *y)),
            (
                EnumPMF {
                    ordered: o1,
                    samples: a,
                },
                EnumPMF {
                    ordered: o2,
                    samples: b,
                },
            ) => o1 == o2 && same_samples(a, b, |x, y| x == y),
            (
                BoolPMF {
                    ordered: o1,
                    samples: a,
                },
                BoolPMF {
                    ordered: o2,
                    samples: b,
                },
            ) => o1 == o2 && same_samples(a, b, |x, y| x == y),
            _ => false,
        }
    }
}

impl PartialEq for ExprKind {
    fn eq(&self, other: &Self) -> bool {
        use ExprKind::*;
        match (self, other) {
            (Int(a), Int(b)) => a == b,
            (Double(a), Double(b)) => same_f64(*a, *b),
            (Bool(a), Bool(b)) => a == b,
            (String(a), String(b)) => a == b,
            (
                CharacterisedVariable {
                    name: n1,
                    characterisation: c1,
                },
                CharacterisedVariable {
                    name: n2,
                    characterisation: c2,
                },
            ) => n1 == n2 && c1 == c2,
            (Unary { op: o1, expr: e1 }, Unary { op: o2, expr: e2 }) => o1 == o2 && e1 == e2,
            (
                Binary {
                    op: o1,
                    lhs: l1,
                    rhs: r1,
                },
                Binary {
                    op: o2,
                    lhs: l2,
                    rhs: r2,
                },
            ) => o1 == o2 && l1 == l2 && r1 == r2,
            (
                Compare {
                    op: o1,
                    lhs: l1,
                    rhs: r1,
                },
                Compare {
                    op: o2,
                    lhs: l2,
                    rhs: r2,
                },
            ) => o1 == o2 && l1 == l2 && r1 == r2,
            (
                IfElse {
                    cond: c1,
                    then: t1,
                    else_: e1,
                },
                IfElse {
                    cond: c2,
                    then: t2,
                    else_: e2,
                },
            ) => c1 == c2 && t1 == t2 && e1 == e2,
            (FunctionCall { name: n1, args: a1 }, FunctionCall { name: n2, args: a2 }) => n1 == n2 && a1 == a2,
            (ProbFunction(a), ProbFunction(b)) => a == b,
            _ => false,
        }
    }
}

/// Structural equality that ignores spans.
impl PartialEq for Expr {
    fn eq(&self, other: &Self) -> bool {
        self.kind == other.kind
    }
}

// ---------------------------------------------------------------------------
// Constructors (dummy spans) and helpers.
// ---------------------------------------------------------------------------

impl Expr {
    pub fn new(kind: ExprKind, span: Span) -> Expr {
        Expr { kind, span }
    }

    fn dummy(kind: ExprKind) -> Expr {
        Expr::new(kind, Span::DUMMY)
    }

    pub fn int(v: i64) -> Expr {
        Expr::dummy(ExprKind::Int(v))
    }

    pub fn double(v: f64) -> Expr {
        Expr::dummy(ExprKind::Double(v))
    }

    pub fn bool(v: bool) -> Expr {
        Expr::dummy(ExprKind::Bool(v))
    }

    pub fn string(v: impl Into<String>) -> Expr {
        Expr::dummy(ExprKind::String(v.into()))
    }

    /// `Expr::var("audioRequest.Count", Characterisation::Value)` is
    /// `audioRequest.Count.VALUE`. The name is split at dots and not validated:
    /// a segment that is not an identifier prints as text that does not parse
    /// ([`crate::lint`] reports it).
    pub fn var(name: &str, characterisation: Characterisation) -> Expr {
        Expr::dummy(ExprKind::CharacterisedVariable {
            name: name.split('.').map(str::to_string).collect(),
            characterisation,
        })
    }

    pub fn unary(op: UnaryOp, expr: Expr) -> Expr {
        Expr::dummy(ExprKind::Unary {
            op,
            expr: Box::new(expr),
        })
    }

    pub fn binary(op: BinaryOp, lhs: Expr, rhs: Expr) -> Expr {
        Expr::dummy(ExprKind::Binary {
            op,
            lhs: Box::new(lhs),
            rhs: Box::new(rhs),
        })
    }

    pub fn compare(op: CompareOp, lhs: Expr, rhs: Expr) -> Expr {
        Expr::dummy(ExprKind::Compare {
            op,
            lhs: Box::new(lhs),
            rhs: Box::new(rhs),
        })
    }

    pub fn if_else(cond: Expr, then: Expr, else_: Expr) -> Expr {
        Expr::dummy(ExprKind::IfElse {
            cond: Box::new(cond),
            then: Box::new(then),
            else_: Box::new(else_),
        })
    }

    pub fn call(name: impl Into<String>, args: Vec<Expr>) -> Expr {
        Expr::dummy(ExprKind::FunctionCall {
            name: name.into(),
            args,
        })
    }

    pub fn prob_function(p: ProbFunctionLiteral) -> Expr {
        Expr::dummy(ExprKind::ProbFunction(p))
    }

    /// `IntPMF[(v;p)...]` from `(value, probability)` pairs.
    pub fn int_pmf(samples: impl IntoIterator<Item = (i64, f64)>) -> Expr {
        Expr::prob_function(ProbFunctionLiteral::IntPMF(
            samples.into_iter().map(|(v, p)| Sample::new(v, p)).collect(),
        ))
    }

    /// `DoublePMF[(v;p)...]` from `(value, probability)` pairs.
    pub fn double_pmf(samples: impl IntoIterator<Item = (f64, f64)>) -> Expr {
        Expr::prob_function(ProbFunctionLiteral::DoublePMF(
            samples.into_iter().map(|(v, p)| Sample::new(v, p)).collect(),
        ))
    }

    /// `DoublePDF[(x;p)...]` from `(upper bound, probability)` pairs.
    pub fn double_pdf(samples: impl IntoIterator<Item = (f64, f64)>) -> Expr {
        Expr::prob_function(ProbFunctionLiteral::DoublePDF(
            samples.into_iter().map(|(v, p)| Sample::new(v, p)).collect(),
        ))
    }

    /// Structural equality ignoring spans; the same as `==`.
    pub fn same_tree(&self, other: &Expr) -> bool {
        self == other
    }

    /// The variable text as the evaluator's environment sees it, e.g.
    /// `"audioRequest.Count.VALUE"`; `None` for other nodes.
    pub fn variable_text(&self) -> Option<String> {
        match &self.kind {
            ExprKind::CharacterisedVariable { name, characterisation } => {
                Some(format!("{}.{}", name.join("."), characterisation.as_str()))
            }
            _ => None,
        }
    }

    /// Folds a prefix minus applied to a positive int literal or a double
    /// literal with a clear sign bit into a negative literal, everywhere in the
    /// tree: `Unary(Neg, Int(3))` becomes `Int(-3)`, `Unary(Neg, Double(0.0))`
    /// becomes `Double(-0.0)`; `Unary(Neg, Int(0))` stays.
    ///
    /// Why: the parser always reads `-3` as `Unary(Neg, Int(3))`, while
    /// constructors may build `Int(-3)` directly, and both print as `-3`.
    /// After normalising, `parse(print(e))` equals `e` for every tree `e`
    /// without non-finite doubles or `i64::MIN` (see [`crate::print`]).
    /// Only literals whose negation prints the same are folded, so `print(e.normalised()) ==
    /// print(e)` always holds (`Unary(Neg, Int(-3))` prints `--3` and stays).
    pub fn normalised(&self) -> Expr {
        let kind = match &self.kind {
            ExprKind::Unary { op: UnaryOp::Neg, expr } => {
                let inner = expr.normalised();
                match inner.kind {
                    // Not 0: `-0` would become `0` and print differently.
                    ExprKind::Int(v) if v > 0 => ExprKind::Int(-v),
                    ExprKind::Double(v) if v.is_sign_positive() && !v.is_nan() => ExprKind::Double(-v),
                    _ => ExprKind::Unary {
                        op: UnaryOp::Neg,
                        expr: Box::new(inner),
                    },
                }
            }
            ExprKind::Unary { op, expr } => ExprKind::Unary {
                op: *op,
                expr: Box::new(expr.normalised()),
            },
            ExprKind::Binary { op, lhs, rhs } => ExprKind::Binary {
                op: *op,
                lhs: Box::new(lhs.normalised()),
                rhs: Box::new(rhs.normalised()),
            },
            ExprKind::Compare { op, lhs, rhs } => ExprKind::Compare {
                op: *op,
                lhs: Box::new(lhs.normalised()),
                rhs: Box::new(rhs.normalised()),
            },
            ExprKind::IfElse { cond, then, else_ } => ExprKind::IfElse {
                cond: Box::new(cond.normalised()),
                then: Box::new(then.normalised()),
                else_: Box::new(else_.normalised()),
            },
            ExprKind::FunctionCall { name, args } => ExprKind::FunctionCall {
                name: name.clone(),
                args: args.iter().map(Expr::normalised).collect(),
            },
            other => other.clone(),
        };
        Expr::new(kind, self.span)
    }

    /// Calls `f` on this node and every descendant, parents first.
    pub fn walk<'a>(&'a self, f: &mut dyn FnMut(&'a Expr)) {
        f(self);
        for child in self.children() {
            child.walk(f);
        }
    }

    /// Direct sub-expressions, left to right.
    pub fn children(&self) -> Vec<&Expr> {
        match &self.kind {
            ExprKind::Unary { expr, .. } => vec![expr],
            ExprKind::Binary { lhs, rhs, .. } | ExprKind::Compare { lhs, rhs, .. } => {
                vec![lhs, rhs]
            }
            ExprKind::IfElse { cond, then, else_ } => vec![cond, then, else_],
            ExprKind::FunctionCall { args, .. } => args.iter().collect(),
            _ => Vec::new(),
        }
    }
}

/// `-e` builds `Unary(Neg, e)`.
impl std::ops::Neg for Expr {
    type Output = Expr;
    fn neg(self) -> Expr {
        Expr::unary(UnaryOp::Neg, self)
    }
}

/// `!e` builds `Unary(Not, e)` (StoEx's `NOT`).
impl std::ops::Not for Expr {
    type Output = Expr;
    fn not(self) -> Expr {
        Expr::unary(UnaryOp::Not, self)
    }
}
