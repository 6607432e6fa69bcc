//! Reading expressions back from the contract's infix grammar (what [`crate::infix`] prints):
//! proposals on the blackboard keep their infix text, and combining them (the average of two
//! proposals) works on expressions, not on strings.
//!
//! ```text
//! cond    := and ('||' and)*        and := not ('&&' not)*        not := '!' not | sum cmp sum
//! sum     := term (('+' | '-') term)*
//! term    := unary (('*' | '/') unary)*
//! unary   := '-' unary | power
//! power   := primary ('^' unary)?
//! primary := NUMBER | 'x'N | 'e' | 'pi' | FUNC '(' sum ')' | 'if' '(' cond ',' sum ',' sum ')'
//!          | 'min' '(' sum ',' sum ')' | 'max' '(' sum ',' sum ')' | '(' sum ')'
//! ```
//!
//! `min(a, b)` reads as `if(a < b, a, b)` and `max(a, b)` as `if(a > b, a, b)`, the forms the
//! printer writes that way ([`crate::simplify::caps`]).

use crate::expr::{BinaryOp, CmpOp, Cond, Expr, UnaryOp};
use crate::simplify::caps;

/// Why infix text does not parse; `at` is the byte offset in the text.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum InfixError {
    #[error("unexpected `{found}` at {at}")]
    Unexpected { at: usize, found: String },
    #[error("expected `{expected}` at {at}")]
    Expected { at: usize, expected: &'static str },
    #[error("bad number `{text}` at {at}")]
    BadNumber { at: usize, text: String },
    #[error("unknown function `{name}` at {at}")]
    UnknownFunction { at: usize, name: String },
    #[error("expected a comparison at {at}")]
    NoComparison { at: usize },
    #[error("unexpected end")]
    End,
    #[error("variables start at x1")]
    VariableZero,
}

/// Parses `src`; variables `x1..xk` become `Var(0..k-1)`.
pub fn parse_infix(src: &str) -> Result<Expr, InfixError> {
    let mut p = Parser {
        s: src.as_bytes(),
        at: 0,
    };
    let e = p.sum()?;
    p.space();
    if p.at != p.s.len() {
        return Err(InfixError::Unexpected {
            at: p.at,
            found: src[p.at..].to_string(),
        });
    }
    Ok(e)
}

struct Parser<'a> {
    s: &'a [u8],
    at: usize,
}

impl Parser<'_> {
    fn space(&mut self) {
        while self.at < self.s.len() && self.s[self.at].is_ascii_whitespace() {
            self.at += 1;
        }
    }

    fn eat(&mut self, t: &str) -> bool {
        self.space();
        if self.s[self.at..].starts_with(t.as_bytes()) {
            self.at += t.len();
            true
        } else {
            false
        }
    }

    fn expect(&mut self, t: &'static str) -> Result<(), InfixError> {
        if self.eat(t) {
            Ok(())
        } else {
            Err(InfixError::Expected {
                at: self.at,
                expected: t,
            })
        }
    }

    fn sum(&mut self) -> Result<Expr, InfixError> {
        let mut e = self.term()?;
        loop {
            if self.eat("+") {
                e = Expr::Binary(BinaryOp::Add, Box::new(e), Box::new(self.term()?));
            } else if self.peek_minus() {
                self.at += 1;
                e = Expr::Binary(BinaryOp::Sub, Box::new(e), Box::new(self.term()?));
            } else {
                return Ok(e);
            }
        }
    }

    fn peek_minus(&mut self) -> bool {
        self.space();
        self.s.get(self.at) == Some(&b'-')
    }

    fn term(&mut self) -> Result<Expr, InfixError> {
        let mut e = self.unary()?;
        loop {
            if self.eat("*") {
                e = Expr::Binary(BinaryOp::Mul, Box::new(e), Box::new(self.unary()?));
            } else if self.eat("/") {
                e = Expr::Binary(BinaryOp::Div, Box::new(e), Box::new(self.unary()?));
            } else {
                return Ok(e);
            }
        }
    }

    fn unary(&mut self) -> Result<Expr, InfixError> {
        if self.eat("-") {
            let a = self.unary()?;
            return Ok(match a {
                Expr::Const(v) => Expr::Const(-v),
                a => Expr::Unary(UnaryOp::Neg, Box::new(a)),
            });
        }
        self.power()
    }

    fn power(&mut self) -> Result<Expr, InfixError> {
        let base = self.primary()?;
        if self.eat("^") {
            let exponent = self.unary()?;
            return Ok(Expr::Binary(BinaryOp::Pow, Box::new(base), Box::new(exponent)));
        }
        Ok(base)
    }

    fn word(&mut self) -> String {
        self.space();
        let start = self.at;
        while self.at < self.s.len() && (self.s[self.at].is_ascii_alphanumeric() || self.s[self.at] == b'_') {
            self.at += 1;
        }
        String::from_utf8_lossy(&self.s[start..self.at]).into_owned()
    }

    fn number(&mut self) -> Result<Expr, InfixError> {
        let start = self.at;
        let digits = |p: &mut Self| {
            while p.at < p.s.len() && (p.s[p.at].is_ascii_digit() || p.s[p.at] == b'.') {
                p.at += 1;
            }
        };
        digits(self);
        if self.at < self.s.len() && (self.s[self.at] == b'e' || self.s[self.at] == b'E') {
            let save = self.at;
            self.at += 1;
            if self.at < self.s.len() && (self.s[self.at] == b'+' || self.s[self.at] == b'-') {
                self.at += 1;
            }
            if self.at < self.s.len() && self.s[self.at].is_ascii_digit() {
                digits(self);
            } else {
                self.at = save;
            }
        }
        // Digits, `.`, `e` and signs only: ASCII, hence UTF-8.
        let text = String::from_utf8_lossy(&self.s[start..self.at]);
        text.parse::<f64>().map(Expr::Const).map_err(|_| InfixError::BadNumber {
            at: start,
            text: text.into_owned(),
        })
    }

    fn primary(&mut self) -> Result<Expr, InfixError> {
        self.space();
        match self.s.get(self.at) {
            None => Err(InfixError::End),
            Some(b'(') => {
                self.at += 1;
                let e = self.sum()?;
                self.expect(")")?;
                Ok(e)
            }
            Some(c) if c.is_ascii_digit() || *c == b'.' => self.number(),
            Some(_) => {
                let start = self.at;
                let w = self.word();
                if w.is_empty() {
                    return Err(InfixError::Unexpected {
                        at: start,
                        found: (self.s[start] as char).to_string(),
                    });
                }
                if let Some(i) = w.strip_prefix('x').or_else(|| w.strip_prefix('X')) {
                    if let Ok(i) = i.parse::<usize>() {
                        if i == 0 {
                            return Err(InfixError::VariableZero);
                        }
                        return Ok(Expr::Var(i - 1));
                    }
                }
                match w.as_str() {
                    "e" => return Ok(Expr::Const(std::f64::consts::E)),
                    "pi" => return Ok(Expr::Const(std::f64::consts::PI)),
                    "if" => {
                        self.expect("(")?;
                        let c = self.cond()?;
                        self.expect(",")?;
                        let a = self.sum()?;
                        self.expect(",")?;
                        let b = self.sum()?;
                        self.expect(")")?;
                        return Ok(Expr::If(Box::new(c), Box::new(a), Box::new(b)));
                    }
                    "min" | "max" => {
                        self.expect("(")?;
                        let a = self.sum()?;
                        self.expect(",")?;
                        let b = self.sum()?;
                        self.expect(")")?;
                        let f = if w == "min" { caps::min } else { caps::max };
                        return Ok(f(a, b));
                    }
                    _ => {}
                }
                let op = UnaryOp::ALL
                    .into_iter()
                    .find(|op| op.infix_name() == Some(w.as_str()))
                    .ok_or_else(|| InfixError::UnknownFunction {
                        at: start,
                        name: w.clone(),
                    })?;
                self.expect("(")?;
                let a = self.sum()?;
                self.expect(")")?;
                Ok(Expr::Unary(op, Box::new(a)))
            }
        }
    }

    fn cond(&mut self) -> Result<Cond, InfixError> {
        let mut c = self.and()?;
        while self.eat("||") {
            c = Cond::Or(Box::new(c), Box::new(self.and()?));
        }
        Ok(c)
    }

    fn and(&mut self) -> Result<Cond, InfixError> {
        let mut c = self.not()?;
        while self.eat("&&") {
            c = Cond::And(Box::new(c), Box::new(self.not()?));
        }
        Ok(c)
    }

    fn not(&mut self) -> Result<Cond, InfixError> {
        if self.eat("!") && !self.s[self.at..].starts_with(b"=") {
            return Ok(Cond::Not(Box::new(self.not()?)));
        }
        self.space();
        if self.s.get(self.at) == Some(&b'(') {
            // A parenthesised condition or a parenthesised sum on the left of a comparison.
            let save = self.at;
            self.at += 1;
            if let Ok(c) = self.cond() {
                if self.eat(")") {
                    return Ok(c);
                }
            }
            self.at = save;
        }
        let a = self.sum()?;
        let op = [
            ("<=", CmpOp::Le),
            (">=", CmpOp::Ge),
            ("==", CmpOp::Eq),
            ("!=", CmpOp::Ne),
            ("<", CmpOp::Lt),
            (">", CmpOp::Gt),
        ]
        .into_iter()
        .find(|(t, _)| self.eat(t))
        .map(|(_, op)| op)
        .ok_or(InfixError::NoComparison { at: self.at })?;
        let b = self.sum()?;
        Ok(Cond::Cmp(op, a, b))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::print::infix;

    #[test]
    fn reads_back_what_the_printer_writes() {
        for text in [
            "0.35*x1 + 120",
            "-x2 + 250",
            "if(x1 > 200000, 0.04*x1, 1500)",
            "2*if(x1 > 40, x1 - 40, 0) + 3",
            "(x1^2 - x1)/2",
            "floor((x1 + 2)/4)",
            "x1*log2(x1) - 1.5e-5*sqrt(x2)",
            "if(x2 > 0.5 && x1 > 50000, 1, 0)",
            "-0.5*x1^-1 + 3",
            "0.001*min(x1, 40000) + 5",
            "max(x1, 16) - min(x2, x1)",
        ] {
            let e = parse_infix(text).unwrap();
            assert_eq!(infix(&e), text);
        }
        assert_eq!(parse_infix("x1 +"), Err(InfixError::End));
        let e = parse_infix("foo(x1)").unwrap_err();
        assert_eq!(
            e,
            InfixError::UnknownFunction {
                at: 0,
                name: "foo".into()
            }
        );
        assert_eq!(e.to_string(), "unknown function `foo` at 0");
    }
}
