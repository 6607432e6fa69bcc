//! Recursive-descent parser for the PCM StoEx grammar (see `shared/docs/stoex.md`).
//!
//! One function per grammar level, loosest first:
//! `if_else` → `or_chain` (AND) → `and_operand` (OR, XOR) → `compare` →
//! `sum` → `product` → `power` → `unary` → `atom`.
//!
//! Two limits keep every later recursive walk (printer, evaluator, `Drop`)
//! off the stack's edge: the parser's own recursion depth, and the height of
//! the tree it builds (a long `1+1+…` has no nesting but a tall tree). Both are
//! [`MAX_DEPTH`].

use crate::ast::{BinaryOp, Characterisation, CompareOp, Expr, ExprKind, ProbFunctionLiteral, Sample, Span, UnaryOp};
use crate::error::ParseError;
use crate::lexer::{tokenize, Tok, Token};

/// Maximum nesting depth and maximum tree height accepted by [`parse`]. Real
/// models stay far below it (the deepest generated CIPM expressions are
/// around 30 levels).
pub const MAX_DEPTH: usize = 256;

/// Words that the grammar reserves and so cannot be used as names.
pub(crate) const RESERVED: [&str; 17] = [
    "AND",
    "OR",
    "XOR",
    "NOT",
    "true",
    "false",
    "IntPMF",
    "DoublePMF",
    "EnumPMF",
    "BoolPMF",
    "DoublePDF",
    "ordered",
    "VALUE",
    "BYTESIZE",
    "NUMBER_OF_ELEMENTS",
    "TYPE",
    "STRUCTURE",
];

/// Whether `s` can be written as a name (function, variable path segment).
pub fn is_identifier(s: &str) -> bool {
    let mut chars = s.chars();
    matches!(chars.next(), Some(c) if c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
        && !RESERVED.contains(&s)
}

/// Parses a complete StoEx expression.
pub fn parse(src: &str) -> Result<Expr, ParseError> {
    let mut p = Parser {
        tokens: tokenize(src),
        pos: 0,
        depth: 0,
    };
    let node = p.if_else()?;
    p.expect_end()?;
    Ok(node.expr)
}

/// An expression plus the height of its tree (a leaf has height 1).
struct Node {
    expr: Expr,
    height: usize,
}

type PResult<T> = Result<T, ParseError>;

use crate::precedence::{AND, COMPARE, OR, POWER, PRODUCT, SUM};

#[derive(Clone, Copy)]
enum Op {
    Binary(BinaryOp),
    Compare(CompareOp),
}

struct Parser {
    tokens: Vec<Token>,
    pos: usize,
    depth: usize,
}

fn too_deep(span: Span) -> ParseError {
    ParseError::new(
        span,
        format!("expression is nested too deeply (the limit is {MAX_DEPTH} levels)"),
    )
}

impl Parser {
    // ----- token helpers -------------------------------------------------

    fn peek(&self) -> &Token {
        // `tokenize` always ends with Eof or Error and we never move past it.
        &self.tokens[self.pos.min(self.tokens.len() - 1)]
    }

    fn peek_tok(&self) -> &Tok {
        &self.peek().tok
    }

    fn peek_second(&self) -> &Tok {
        &self.tokens[(self.pos + 1).min(self.tokens.len() - 1)].tok
    }

    fn bump(&mut self) -> Token {
        let t = self.peek().clone();
        if !matches!(t.tok, Tok::Eof | Tok::Error(_)) {
            self.pos += 1;
        }
        t
    }

    fn is_ident(&self, word: &str) -> bool {
        matches!(self.peek_tok(), Tok::Ident(s) if s == word)
    }

    /// An error at the current token. A pending lexical error wins, since it
    /// explains the token better than "unexpected …" could.
    fn error_here(&self, message: impl Into<String>) -> ParseError {
        let t = self.peek();
        match &t.tok {
            Tok::Error(e) => e.clone(),
            _ => ParseError::new(t.span, message),
        }
    }

    fn unexpected(&self, expected: &str) -> ParseError {
        let found = self.peek_tok().describe();
        self.error_here(format!("expected {expected}, found {found}"))
    }

    /// Counts one nesting level opened by the token at `at`.
    fn enter(&mut self, at: Span) -> PResult<()> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err(too_deep(at));
        }
        Ok(())
    }

    fn leave(&mut self) {
        self.depth -= 1;
    }

    fn node(&self, kind: ExprKind, span: Span, children: &[usize]) -> PResult<Node> {
        let height = 1 + children.iter().copied().max().unwrap_or(0);
        if height > MAX_DEPTH {
            return Err(too_deep(span));
        }
        Ok(Node {
            expr: Expr::new(kind, span),
            height,
        })
    }

    fn expect_end(&self) -> PResult<()> {
        match self.peek_tok() {
            Tok::Eof => Ok(()),
            Tok::RParen => Err(self.error_here("unexpected `)`: there is no open `(` to close")),
            Tok::Question => Err(self.error_here(
                "conditional expressions cannot be nested without parentheses; wrap the inner `?:` in `(` `)`",
            )),
            _ => Err(self.unexpected("an operator or the end of the expression")),
        }
    }

    // ----- grammar levels, loosest first --------------------------------

    /// `IfElse ::= OrChain ( "?" OrChain ":" OrChain )?`
    fn if_else(&mut self) -> PResult<Node> {
        let cond = self.or_chain()?;
        if self.peek_tok() != &Tok::Question {
            return Ok(cond);
        }
        let q = self.bump();
        let then = self.or_chain()?;
        self.reject_nested_conditional()?;
        if self.peek_tok() != &Tok::Colon {
            return Err(self.expected_colon(q.span));
        }
        self.bump();
        let else_ = self.or_chain()?;
        self.reject_nested_conditional()?;
        let span = cond.expr.span.to(else_.expr.span);
        let heights = [cond.height, then.height, else_.height];
        self.node(
            ExprKind::IfElse {
                cond: Box::new(cond.expr),
                then: Box::new(then.expr),
                else_: Box::new(else_.expr),
            },
            span,
            &heights,
        )
    }

    #[cold]
    #[inline(never)]
    fn expected_colon(&self, question: Span) -> ParseError {
        let found = self.peek_tok().describe();
        self.error_here(format!(
            "expected `:` for the `?` at byte {}, found {found}",
            question.start
        ))
    }

    fn reject_nested_conditional(&self) -> PResult<()> {
        if self.peek_tok() == &Tok::Question {
            return Err(self.error_here(
                "conditional expressions cannot be nested without parentheses; wrap the inner `?:` in `(` `)`",
            ));
        }
        Ok(())
    }

    /// `OrChain` and every tighter binary level down to `Power`, by
    /// precedence climbing. One function instead of one per level keeps
    /// the stack small per nesting level (debug builds use ~1 KiB a frame).
    fn or_chain(&mut self) -> PResult<Node> {
        self.binary_expr(AND)
    }

    /// Parses operators binding at least as tight as `min`.
    fn binary_expr(&mut self, min: u8) -> PResult<Node> {
        let mut lhs = self.unary()?;
        while let Some((op, level)) = self.binary_op() {
            if level < min {
                break;
            }
            self.bump();
            // All levels are left-associative or non-associative, so the
            // right operand only takes tighter operators.
            let rhs = self.binary_expr(level + 1)?;
            if matches!(op, Op::Compare(_) | Op::Binary(BinaryOp::Pow)) {
                // `Compare ::= Sum (CmpOp Sum)?` and `Power ::= Unary ("^" Unary)?`.
                if let Some((_, next)) = self.binary_op() {
                    if next == level {
                        return Err(self.chained(op));
                    }
                }
            }
            lhs = self.combine(op, lhs, rhs)?;
        }
        Ok(lhs)
    }

    #[cold]
    #[inline(never)]
    fn chained(&self, op: Op) -> ParseError {
        match op {
            Op::Compare(_) => self.error_here("comparisons cannot be chained; add parentheses"),
            _ => self.error_here("`^` cannot be chained; add parentheses"),
        }
    }

    /// The binary operator at the current token and its level.
    fn binary_op(&self) -> Option<(Op, u8)> {
        Some(match self.peek_tok() {
            Tok::Ident(s) if s == "AND" => (Op::Binary(BinaryOp::And), AND),
            Tok::Ident(s) if s == "OR" => (Op::Binary(BinaryOp::Or), OR),
            Tok::Ident(s) if s == "XOR" => (Op::Binary(BinaryOp::Xor), OR),
            Tok::Gt => (Op::Compare(CompareOp::Gt), COMPARE),
            Tok::Lt => (Op::Compare(CompareOp::Lt), COMPARE),
            Tok::EqEq => (Op::Compare(CompareOp::Eq), COMPARE),
            Tok::Ne => (Op::Compare(CompareOp::Ne), COMPARE),
            Tok::Ge => (Op::Compare(CompareOp::Ge), COMPARE),
            Tok::Le => (Op::Compare(CompareOp::Le), COMPARE),
            Tok::Plus => (Op::Binary(BinaryOp::Add), SUM),
            Tok::Minus => (Op::Binary(BinaryOp::Sub), SUM),
            Tok::Star => (Op::Binary(BinaryOp::Mul), PRODUCT),
            Tok::Slash => (Op::Binary(BinaryOp::Div), PRODUCT),
            Tok::Percent => (Op::Binary(BinaryOp::Mod), PRODUCT),
            Tok::Caret => (Op::Binary(BinaryOp::Pow), POWER),
            _ => return None,
        })
    }

    fn combine(&self, op: Op, lhs: Node, rhs: Node) -> PResult<Node> {
        let span = lhs.expr.span.to(rhs.expr.span);
        let heights = [lhs.height, rhs.height];
        let (lhs, rhs) = (Box::new(lhs.expr), Box::new(rhs.expr));
        let kind = match op {
            Op::Binary(op) => ExprKind::Binary { op, lhs, rhs },
            Op::Compare(op) => ExprKind::Compare { op, lhs, rhs },
        };
        self.node(kind, span, &heights)
    }

    /// `Unary ::= "-" Unary | "NOT" Unary | Atom`
    fn unary(&mut self) -> PResult<Node> {
        let op = match self.peek_tok() {
            Tok::Minus => UnaryOp::Neg,
            Tok::Ident(s) if s == "NOT" => UnaryOp::Not,
            _ => return self.atom(),
        };
        let op_tok = self.bump();
        self.enter(op_tok.span)?;
        let inner = self.unary();
        self.leave();
        let inner = inner?;
        let span = op_tok.span.to(inner.expr.span);
        let heights = [inner.height];
        self.node(
            ExprKind::Unary {
                op,
                expr: Box::new(inner.expr),
            },
            span,
            &heights,
        )
    }

    fn atom(&mut self) -> PResult<Node> {
        // Parentheses first, so the deep path through this frame stays small.
        if self.peek_tok() == &Tok::LParen {
            return self.parenthesised();
        }
        self.leaf()
    }

    #[inline(never)]
    fn leaf(&mut self) -> PResult<Node> {
        let t = self.peek().clone();
        match &t.tok {
            Tok::Int(text) => {
                self.bump();
                let v = text.parse::<i64>().map_err(|_| {
                    ParseError::new(
                        t.span,
                        format!("integer `{text}` does not fit in 64 bits; write it as a double, e.g. `{text}.0`"),
                    )
                })?;
                self.node(ExprKind::Int(v), t.span, &[])
            }
            Tok::Double(v) => {
                self.bump();
                self.node(ExprKind::Double(*v), t.span, &[])
            }
            Tok::Str(s) => {
                self.bump();
                self.node(ExprKind::String(s.clone()), t.span, &[])
            }
            Tok::Ident(word) => self.word(word, t.span),
            Tok::RParen => Err(self.error_here("unexpected `)`: expected an expression")),
            Tok::Eof => Err(self.error_here("unexpected end of input: expected an expression")),
            _ => Err(self.unexpected("an expression")),
        }
    }

    /// `"(" IfElse ")"`: the parentheses only widen the span.
    fn parenthesised(&mut self) -> PResult<Node> {
        let open = self.bump().span;
        self.enter(open)?;
        let inner = self.if_else();
        self.leave();
        let mut inner = inner?;
        if self.peek_tok() != &Tok::RParen {
            return Err(self.unclosed(open));
        }
        let close = self.bump().span;
        inner.expr.span = open.to(close);
        Ok(inner)
    }

    #[cold]
    #[inline(never)]
    fn unclosed(&self, open: Span) -> ParseError {
        let found = self.peek_tok().describe();
        self.error_here(format!(
            "expected `)` to close the `(` at byte {}, found {found}",
            open.start
        ))
    }

    /// An identifier or keyword in operand position.
    fn word(&mut self, word: &str, span: Span) -> PResult<Node> {
        match word {
            "true" | "false" => {
                self.bump();
                self.node(ExprKind::Bool(word == "true"), span, &[])
            }
            "IntPMF" | "DoublePMF" | "EnumPMF" | "BoolPMF" | "DoublePDF" => self.prob_function(word),
            "AND" | "OR" | "XOR" => Err(self.error_here(format!("expected an expression before `{word}`"))),
            _ if RESERVED.contains(&word) => Err(self.error_here(format!(
                "`{word}` is a reserved word; a characterisation follows a variable name, as in x.{word}"
            ))),
            _ => match self.peek_second() {
                Tok::LParen => self.function_call(word, span),
                Tok::Dot => self.variable(word, span),
                _ => {
                    self.bump();
                    Err(missing_characterisation(&[word.to_string()], span))
                }
            },
        }
    }

    /// `FunctionCall ::= ID "(" ( OrChain ( "," OrChain )* )? ")"`
    fn function_call(&mut self, name: &str, name_span: Span) -> PResult<Node> {
        self.bump();
        let open = self.bump();
        let mut args = Vec::new();
        let mut heights = Vec::new();
        if self.peek_tok() != &Tok::RParen {
            loop {
                self.enter(open.span)?;
                let arg = self.or_chain();
                self.leave();
                let arg = arg?;
                heights.push(arg.height);
                args.push(arg.expr);
                match self.peek_tok() {
                    Tok::Comma => {
                        self.bump();
                    }
                    Tok::RParen => break,
                    Tok::Question => {
                        return Err(self.error_here(
                            "a conditional `?:` cannot be a function argument without parentheses; wrap it in `(` `)`",
                        ))
                    }
                    _ => {
                        let found = self.peek_tok().describe();
                        return Err(self.error_here(format!(
                            "expected `,` or `)` to close the `(` of `{name}` at byte {}, found {found}",
                            open.span.start
                        )));
                    }
                }
            }
        }
        let close = self.bump();
        self.node(
            ExprKind::FunctionCall {
                name: name.to_string(),
                args,
            },
            name_span.to(close.span),
            &heights,
        )
    }

    /// `CharacterisedVariable ::= ID ( "." ID )* "." CharType`; the current
    /// token is the first ID and a `.` follows it.
    fn variable(&mut self, first: &str, start: Span) -> PResult<Node> {
        self.bump();
        let mut path = vec![first.to_string()];
        let mut span = start;
        loop {
            if self.peek_tok() != &Tok::Dot {
                return Err(missing_characterisation(&path, span));
            }
            self.bump();
            let t = self.peek().clone();
            let Tok::Ident(word) = &t.tok else {
                return Err(self.unexpected("a name or a characterisation such as VALUE after `.`"));
            };
            self.bump();
            span = span.to(t.span);
            if let Ok(characterisation) = word.parse::<Characterisation>() {
                return self.node(
                    ExprKind::CharacterisedVariable {
                        name: path,
                        characterisation,
                    },
                    span,
                    &[],
                );
            }
            if RESERVED.contains(&word.as_str()) {
                return Err(ParseError::new(
                    t.span,
                    format!("`{word}` is a reserved word and cannot be part of a variable name"),
                ));
            }
            if let Ok(c) = word.to_ascii_uppercase().parse::<Characterisation>() {
                return Err(ParseError::new(
                    t.span,
                    format!(
                        "unknown characterisation `{word}`; characterisations are upper-case, as in {}.{c}",
                        path.join(".")
                    ),
                ));
            }
            path.push(word.clone());
        }
    }

    // ----- probability function literals --------------------------------

    /// `IntPMF[…]`, `DoublePMF[…]`, `EnumPMF(ordered)?[…]`, `BoolPMF(ordered)?[…]`, `DoublePDF[…]`
    fn prob_function(&mut self, keyword: &str) -> PResult<Node> {
        let kw = self.bump();
        let mut ordered = false;
        if self.peek_tok() == &Tok::LParen {
            if keyword != "EnumPMF" && keyword != "BoolPMF" {
                return Err(self.error_here(format!("`{keyword}` takes no `(ordered)`; only EnumPMF and BoolPMF do")));
            }
            self.bump();
            if !self.is_ident("ordered") {
                return Err(self.unexpected("`ordered`"));
            }
            self.bump();
            if self.peek_tok() != &Tok::RParen {
                return Err(self.unexpected("`)` after `ordered`"));
            }
            self.bump();
            ordered = true;
        }
        if self.peek_tok() != &Tok::LBracket {
            return Err(self.unexpected(&format!("`[` to start the samples of {keyword}")));
        }
        let open = self.bump();
        let literal = match keyword {
            "IntPMF" => ProbFunctionLiteral::IntPMF(self.samples(open.span, keyword, |p| p.int_value())?),
            "DoublePMF" => ProbFunctionLiteral::DoublePMF(self.samples(open.span, keyword, |p| p.signed_number())?),
            "DoublePDF" => ProbFunctionLiteral::DoublePDF(self.samples(open.span, keyword, |p| p.signed_number())?),
            "EnumPMF" => ProbFunctionLiteral::EnumPMF {
                ordered,
                samples: self.samples(open.span, keyword, |p| p.string_value())?,
            },
            _ => ProbFunctionLiteral::BoolPMF {
                ordered,
                samples: self.samples(open.span, keyword, |p| p.bool_value())?,
            },
        };
        let close = self.bump();
        self.node(ExprKind::ProbFunction(literal), kw.span.to(close.span), &[])
    }

    /// `Sample+ "]"`, each sample `"(" value ";" Number ")"`. Stops before `]`.
    fn samples<T>(
        &mut self,
        open: Span,
        keyword: &str,
        value: impl Fn(&mut Self) -> PResult<T>,
    ) -> PResult<Vec<Sample<T>>> {
        let mut samples = Vec::new();
        loop {
            match self.peek_tok() {
                Tok::LParen => {}
                Tok::RBracket if !samples.is_empty() => return Ok(samples),
                Tok::RBracket => return Err(self.error_here(format!("{keyword} needs at least one sample"))),
                _ => {
                    let found = self.peek_tok().describe();
                    return Err(self.error_here(format!(
                        "expected `(` to start a sample or `]` to close the `[` at byte {}, found {found}",
                        open.start
                    )));
                }
            }
            let sample_open = self.bump();
            let v = value(self)?;
            if self.peek_tok() != &Tok::Semi {
                return Err(self.unexpected("`;` between the sample's value and its probability"));
            }
            self.bump();
            if !matches!(self.peek_tok(), Tok::Int(_) | Tok::Double(_) | Tok::Minus) {
                let found = self.peek_tok().describe();
                return Err(self.error_here(format!("sample probabilities must be numbers, found {found}")));
            }
            let probability = self.signed_number()?;
            if self.peek_tok() != &Tok::RParen {
                let found = self.peek_tok().describe();
                return Err(self.error_here(format!(
                    "expected `)` to close the sample at byte {}, found {found}",
                    sample_open.span.start
                )));
            }
            let close = self.bump();
            samples.push(Sample {
                value: v,
                probability,
                span: sample_open.span.to(close.span),
            });
        }
    }

    /// `"-"? DECINT` as an i64 (the sign is part of the literal here).
    fn int_value(&mut self) -> PResult<i64> {
        let negative = self.take_minus();
        let t = self.peek().clone();
        match &t.tok {
            Tok::Int(text) => {
                self.bump();
                let magnitude = text.parse::<i128>().ok();
                magnitude
                    .map(|m| if negative { -m } else { m })
                    .and_then(|v| i64::try_from(v).ok())
                    .ok_or_else(|| ParseError::new(t.span, format!("integer `{text}` does not fit in 64 bits")))
            }
            Tok::Double(_) => Err(self.error_here("IntPMF sample values must be integers")),
            _ => Err(self.unexpected("an integer sample value")),
        }
    }

    /// `"-"? Number` as an f64. A sign on probabilities is accepted (Palladio
    /// does not) so that every tree prints to parseable text; `lint` warns.
    fn signed_number(&mut self) -> PResult<f64> {
        let negative = self.take_minus();
        let t = self.peek().clone();
        let v = match &t.tok {
            Tok::Int(text) => {
                self.bump();
                match text.parse::<f64>() {
                    Ok(v) if v.is_finite() => v,
                    _ => {
                        return Err(ParseError::new(
                            t.span,
                            format!("number `{text}` is out of range for a double"),
                        ))
                    }
                }
            }
            Tok::Double(v) => {
                self.bump();
                *v
            }
            _ => return Err(self.unexpected("a number")),
        };
        Ok(if negative { -v } else { v })
    }

    fn take_minus(&mut self) -> bool {
        if self.peek_tok() == &Tok::Minus {
            self.bump();
            true
        } else {
            false
        }
    }

    fn string_value(&mut self) -> PResult<String> {
        match self.peek_tok().clone() {
            Tok::Str(s) => {
                self.bump();
                Ok(s)
            }
            _ => Err(self.unexpected("a string sample value such as \"a\"")),
        }
    }

    fn bool_value(&mut self) -> PResult<bool> {
        match self.peek_tok() {
            Tok::Ident(s) if s == "true" || s == "false" => {
                let v = s == "true";
                self.bump();
                Ok(v)
            }
            _ => Err(self.unexpected("`true` or `false`")),
        }
    }
}

/// The error for `x` or `a.b` without `.VALUE` (or another characterisation).
fn missing_characterisation(path: &[String], span: Span) -> ParseError {
    let name = path.join(".");
    let mut message = format!("variable `{name}` needs a characterisation such as {name}.VALUE");
    // CIPM writes `mylist_NUMBER_OF_ELEMENTS` for `mylist.NUMBER_OF_ELEMENTS`.
    if let Some(last) = path.last() {
        for c in Characterisation::ALL {
            if let Some(stem) = last.strip_suffix(c.as_str()).and_then(|s| s.strip_suffix('_')) {
                if !stem.is_empty() {
                    let mut fixed = path[..path.len() - 1].to_vec();
                    fixed.push(stem.to_string());
                    message = format!(
                        "variable `{name}` needs a characterisation; did you mean `{}.{c}`?",
                        fixed.join(".")
                    );
                }
            }
        }
    }
    ParseError::new(span, message)
}
