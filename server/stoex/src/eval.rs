//! Evaluates an expression to a single value: its expectation.
//!
//! Beagle compares measured means with model predictions, so every random
//! quantity is replaced by its mean:
//! - distributions (`Exp`, `Norm`, …) by their means (see `functions.rs`);
//! - `IntPMF`/`DoublePMF` by `Σ v·p / Σ p` (dividing by `Σ p` makes rounded
//!   probabilities harmless);
//! - a boxed `DoublePDF` by `Σ p_i·(x_{i-1}+x_i)/2 / Σ p`, with `x_0 = 0`;
//! - a `BoolPMF` by its probability of `true`.
//!
//! Booleans and probabilities: a boolean operand may also be a number in
//! `[0, 1]`, read as the probability of `true` (what a `BoolPMF` evaluates
//! to). Then `NOT p = 1-p`, `p AND q = p·q`, `p OR q = p+q-p·q`,
//! `p XOR q = p+q-2·p·q` (independent events), and `p ? a : b = p·a + (1-p)·b`.
//! With a plain `true`/`false` condition only the chosen branch is evaluated.
//! Both operands of `AND`/`OR`/`XOR` are always evaluated.
//!
//! Arithmetic is in f64; `true`/`false` count as 1/0. Division or `%` by zero,
//! and any result that is not finite (overflow, `Sqrt(-1)`, `(-8)^0.5`), are
//! errors rather than `inf`/`NaN`, so a bad model never yields a silent `NaN`.
//! `%` is the truncating remainder, like Java's.

use crate::ast::{BinaryOp, CompareOp, Expr, ExprKind, ProbFunctionLiteral, Sample, UnaryOp};
use crate::error::EvalError;
use crate::functions::lookup;

/// The result of [`eval`].
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    Number(f64),
    Bool(bool),
    Str(String),
}

impl Value {
    /// The value as a number: booleans are 1/0, strings have none.
    pub fn as_f64(&self) -> Option<f64> {
        match self {
            Value::Number(v) => Some(*v),
            Value::Bool(b) => Some(if *b { 1.0 } else { 0.0 }),
            Value::Str(_) => None,
        }
    }

    fn describe(&self) -> String {
        match self {
            Value::Number(v) => format!("number {v}"),
            Value::Bool(b) => format!("boolean {b}"),
            Value::Str(s) => format!("string {s:?}"),
        }
    }
}

/// The environment maps a variable's full text (`"files.NUMBER_OF_ELEMENTS"`,
/// `"audioRequest.Count.VALUE"`) to its value (its mean, if random).
pub type Env<'a> = &'a dyn Fn(&str) -> Option<f64>;

/// Evaluates `e` (see the module documentation for the semantics).
pub fn eval(e: &Expr, env: &dyn Fn(&str) -> Option<f64>) -> Result<Value, EvalError> {
    Evaluator { env }.eval(e)
}

/// Evaluates `e` to a number; `true`/`false` become 1/0.
pub fn eval_number(e: &Expr, env: &dyn Fn(&str) -> Option<f64>) -> Result<f64, EvalError> {
    let v = eval(e, env)?;
    v.as_f64()
        .ok_or_else(|| EvalError::new(e.span, format!("expected a number, found {}", v.describe())))
}

/// A boolean operand: certain, or the probability of `true`.
#[derive(Clone, Copy)]
enum Truth {
    Certain(bool),
    Probability(f64),
}

impl Truth {
    fn p(self) -> f64 {
        match self {
            Truth::Certain(b) => f64::from(u8::from(b)),
            Truth::Probability(p) => p,
        }
    }
}

struct Evaluator<'a> {
    env: Env<'a>,
}

fn finite(v: f64, e: &Expr, what: &str) -> Result<f64, EvalError> {
    if v.is_finite() {
        Ok(v)
    } else {
        Err(EvalError::new(e.span, format!("{what} is not a finite number")))
    }
}

impl Evaluator<'_> {
    fn number(&self, e: &Expr) -> Result<f64, EvalError> {
        let v = self.eval(e)?;
        v.as_f64()
            .ok_or_else(|| EvalError::new(e.span, format!("expected a number, found {}", v.describe())))
    }

    fn truth(&self, e: &Expr) -> Result<Truth, EvalError> {
        match self.eval(e)? {
            Value::Bool(b) => Ok(Truth::Certain(b)),
            Value::Number(p) if (0.0..=1.0).contains(&p) => Ok(Truth::Probability(p)),
            other => Err(EvalError::new(
                e.span,
                format!(
                    "expected a boolean or a probability in [0, 1], found {}",
                    other.describe()
                ),
            )),
        }
    }

    fn eval(&self, e: &Expr) -> Result<Value, EvalError> {
        match &e.kind {
            ExprKind::Int(v) => Ok(Value::Number(*v as f64)),
            ExprKind::Double(v) => Ok(Value::Number(finite(*v, e, "the literal")?)),
            ExprKind::Bool(b) => Ok(Value::Bool(*b)),
            ExprKind::String(s) => Ok(Value::Str(s.clone())),
            ExprKind::CharacterisedVariable { .. } => {
                let name = e.variable_text().unwrap_or_default();
                match (self.env)(&name) {
                    Some(v) => Ok(Value::Number(v)),
                    None => Err(EvalError::new(e.span, format!("unknown variable `{name}`"))),
                }
            }
            ExprKind::Unary { op: UnaryOp::Neg, expr } => Ok(Value::Number(-self.number(expr)?)),
            ExprKind::Unary { op: UnaryOp::Not, expr } => Ok(match self.truth(expr)? {
                Truth::Certain(b) => Value::Bool(!b),
                Truth::Probability(p) => Value::Number(1.0 - p),
            }),
            ExprKind::Binary { op, lhs, rhs } => self.binary(e, *op, lhs, rhs),
            ExprKind::Compare { op, lhs, rhs } => self.compare(e, *op, lhs, rhs),
            ExprKind::IfElse { cond, then, else_ } => match self.truth(cond)? {
                Truth::Certain(true) => self.eval(then),
                Truth::Certain(false) => self.eval(else_),
                // A certain probability must not fail on the branch never taken.
                Truth::Probability(1.0) => self.eval(then),
                Truth::Probability(0.0) => self.eval(else_),
                Truth::Probability(p) => {
                    let a = self.number(then)?;
                    let b = self.number(else_)?;
                    Ok(Value::Number(finite(p * a + (1.0 - p) * b, e, "the result")?))
                }
            },
            ExprKind::FunctionCall { name, args } => self.call(e, name, args),
            ExprKind::ProbFunction(p) => expectation(e, p),
        }
    }

    fn binary(&self, e: &Expr, op: BinaryOp, lhs: &Expr, rhs: &Expr) -> Result<Value, EvalError> {
        if matches!(op, BinaryOp::And | BinaryOp::Or | BinaryOp::Xor) {
            let (a, b) = (self.truth(lhs)?, self.truth(rhs)?);
            if let (Truth::Certain(a), Truth::Certain(b)) = (a, b) {
                return Ok(Value::Bool(match op {
                    BinaryOp::And => a && b,
                    BinaryOp::Or => a || b,
                    _ => a ^ b,
                }));
            }
            let (p, q) = (a.p(), b.p());
            return Ok(Value::Number(match op {
                BinaryOp::And => p * q,
                BinaryOp::Or => p + q - p * q,
                _ => p + q - 2.0 * p * q,
            }));
        }
        let (a, b) = (self.number(lhs)?, self.number(rhs)?);
        let v = match op {
            BinaryOp::Add => a + b,
            BinaryOp::Sub => a - b,
            BinaryOp::Mul => a * b,
            BinaryOp::Div | BinaryOp::Mod if b == 0.0 => {
                let what = if op == BinaryOp::Div {
                    "division"
                } else {
                    "remainder `%`"
                };
                return Err(EvalError::new(e.span, format!("{what} by zero")));
            }
            BinaryOp::Div => a / b,
            BinaryOp::Mod => a % b,
            _ => a.powf(b),
        };
        Ok(Value::Number(finite(
            v,
            e,
            &format!("the result of `{}`", op.as_str()),
        )?))
    }

    fn compare(&self, e: &Expr, op: CompareOp, lhs: &Expr, rhs: &Expr) -> Result<Value, EvalError> {
        let (a, b) = (self.eval(lhs)?, self.eval(rhs)?);
        let ordering = match (&a, &b) {
            (Value::Str(x), Value::Str(y)) => {
                if !matches!(op, CompareOp::Eq | CompareOp::Ne) {
                    return Err(EvalError::new(
                        e.span,
                        "strings can only be compared with `==` and `<>`",
                    ));
                }
                x.cmp(y)
            }
            (Value::Str(_), _) | (_, Value::Str(_)) => {
                return Err(EvalError::new(
                    e.span,
                    format!("cannot compare {} with {}", a.describe(), b.describe()),
                ))
            }
            _ => {
                let (x, y) = (a.as_f64().unwrap_or(0.0), b.as_f64().unwrap_or(0.0));
                match x.partial_cmp(&y) {
                    Some(o) => o,
                    None => return Err(EvalError::new(e.span, "cannot compare NaN")),
                }
            }
        };
        use std::cmp::Ordering::*;
        Ok(Value::Bool(match op {
            CompareOp::Gt => ordering == Greater,
            CompareOp::Lt => ordering == Less,
            CompareOp::Eq => ordering == Equal,
            CompareOp::Ne => ordering != Equal,
            CompareOp::Ge => ordering != Less,
            CompareOp::Le => ordering != Greater,
        }))
    }

    fn call(&self, e: &Expr, name: &str, args: &[Expr]) -> Result<Value, EvalError> {
        let Some(info) = lookup(name) else {
            return Err(EvalError::new(e.span, format!("unknown function `{name}`")));
        };
        if info.name == "MinDeviation" || info.name == "MaxDeviation" {
            return Err(EvalError::new(
                e.span,
                format!("`{name}` cannot be evaluated by Beagle"),
            ));
        }
        if !info.arity.accepts(args.len()) {
            return Err(EvalError::new(
                e.span,
                format!("`{name}` takes {}, found {}", info.arity.describe(), args.len()),
            ));
        }
        let x = args.iter().map(|a| self.number(a)).collect::<Result<Vec<f64>, _>>()?;
        let arg = |i: usize| x.get(i).copied().unwrap_or(f64::NAN);
        let positive = |i: usize, what: &str| -> Result<f64, EvalError> {
            let v = arg(i);
            if v > 0.0 {
                Ok(v)
            } else {
                Err(EvalError::new(
                    args.get(i).map_or(e.span, |a| a.span),
                    format!("{what} of `{name}` must be positive, found {v}"),
                ))
            }
        };
        let v = match info.name {
            "Exp" => 1.0 / positive(0, "the rate")?,
            "Norm" | "LognormMoments" | "GammaMoments" | "Pois" => arg(0),
            "Lognorm" => (arg(0) + arg(1) * arg(1) / 2.0).exp(),
            "Gamma" | "Binom" => arg(0) * arg(1),
            "UniDouble" | "UniInt" => (arg(0) + arg(1)) / 2.0,
            "Trunc" => arg(0).floor(),
            "Round" => (arg(0) + 0.5).floor(),
            "Ceil" => arg(0).ceil(),
            "Log" => arg(1).ln() / positive(0, "the base")?.ln(),
            "Sqrt" => arg(0).sqrt(),
            "Min" => x.iter().copied().fold(f64::INFINITY, f64::min),
            "Max" => x.iter().copied().fold(f64::NEG_INFINITY, f64::max),
            "log" => arg(0).ln(),
            "exp" => arg(0).exp(),
            _ => return Err(EvalError::new(e.span, format!("`{name}` cannot be evaluated"))),
        };
        Ok(Value::Number(finite(v, e, &format!("the result of `{name}`"))?))
    }
}

fn weighted_mean<T>(
    e: &Expr,
    samples: &[Sample<T>],
    value: impl Fn(usize, &Sample<T>) -> f64,
) -> Result<f64, EvalError> {
    let total: f64 = samples.iter().map(|s| s.probability).sum();
    if total <= 0.0 || !total.is_finite() {
        return Err(EvalError::new(
            e.span,
            "the probabilities of this distribution do not sum to a positive number",
        ));
    }
    let sum: f64 = samples
        .iter()
        .enumerate()
        .map(|(i, s)| value(i, s) * s.probability)
        .sum();
    finite(sum / total, e, "the expectation")
}

fn expectation(e: &Expr, p: &ProbFunctionLiteral) -> Result<Value, EvalError> {
    let v = match p {
        ProbFunctionLiteral::IntPMF(s) => weighted_mean(e, s, |_, s| s.value as f64)?,
        ProbFunctionLiteral::DoublePMF(s) => weighted_mean(e, s, |_, s| s.value)?,
        ProbFunctionLiteral::DoublePDF(s) => weighted_mean(e, s, |i, sample| {
            // Box i covers (x_{i-1}, x_i] with x_0 = 0: its mean is the midpoint.
            let lower = if i == 0 { 0.0 } else { s[i - 1].value };
            (lower + sample.value) / 2.0
        })?,
        ProbFunctionLiteral::BoolPMF { samples, .. } => {
            weighted_mean(e, samples, |_, s| if s.value { 1.0 } else { 0.0 })?
        }
        ProbFunctionLiteral::EnumPMF { .. } => {
            return Err(EvalError::new(e.span, "an EnumPMF has no numeric expectation"))
        }
    };
    Ok(Value::Number(v))
}
