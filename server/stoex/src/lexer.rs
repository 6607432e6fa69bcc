//! Tokeniser for StoEx text.
//!
//! Skips the hidden tokens (space, tab, CR, LF, `/* */` and `//` comments).
//! A lexical error becomes the last token, so the parser reports an earlier
//! syntax error first, in source order.

use crate::ast::Span;
use crate::error::ParseError;

#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Tok {
    /// `DECINT`, kept as text: whether it fits depends on where it is used.
    Int(String),
    /// `DOUBLE`, already converted (always finite).
    Double(f64),
    /// String literal, unescaped.
    Str(String),
    /// Identifiers and keywords alike; the parser tells them apart.
    Ident(String),
    LParen,
    RParen,
    LBracket,
    RBracket,
    Comma,
    Semi,
    Question,
    Colon,
    Dot,
    Plus,
    Minus,
    Star,
    Slash,
    Percent,
    Caret,
    Gt,
    Lt,
    EqEq,
    Ne,
    Ge,
    Le,
    Eof,
    Error(ParseError),
}

impl Tok {
    /// How the token is named in error messages.
    pub(crate) fn describe(&self) -> String {
        match self {
            Tok::Int(s) => format!("number `{s}`"),
            Tok::Double(_) => "number".to_string(),
            Tok::Str(_) => "string".to_string(),
            Tok::Ident(s) => format!("`{s}`"),
            Tok::Eof => "end of input".to_string(),
            Tok::Error(e) => e.message.clone(),
            other => format!("`{}`", other.punct()),
        }
    }

    fn punct(&self) -> &'static str {
        match self {
            Tok::LParen => "(",
            Tok::RParen => ")",
            Tok::LBracket => "[",
            Tok::RBracket => "]",
            Tok::Comma => ",",
            Tok::Semi => ";",
            Tok::Question => "?",
            Tok::Colon => ":",
            Tok::Dot => ".",
            Tok::Plus => "+",
            Tok::Minus => "-",
            Tok::Star => "*",
            Tok::Slash => "/",
            Tok::Percent => "%",
            Tok::Caret => "^",
            Tok::Gt => ">",
            Tok::Lt => "<",
            Tok::EqEq => "==",
            Tok::Ne => "<>",
            Tok::Ge => ">=",
            Tok::Le => "<=",
            _ => "",
        }
    }
}

#[derive(Clone, Debug)]
pub(crate) struct Token {
    pub tok: Tok,
    pub span: Span,
}

/// Tokenises all of `src`. The result always ends with `Eof` or `Error`.
pub(crate) fn tokenize(src: &str) -> Vec<Token> {
    let mut lx = Lexer {
        src,
        bytes: src.as_bytes(),
        pos: 0,
    };
    let mut out = Vec::new();
    loop {
        match lx.next_token() {
            Ok(t) => {
                let end = t.tok == Tok::Eof;
                out.push(t);
                if end {
                    return out;
                }
            }
            Err(e) => {
                let span = e.span();
                out.push(Token {
                    tok: Tok::Error(e),
                    span,
                });
                return out;
            }
        }
    }
}

struct Lexer<'a> {
    src: &'a str,
    bytes: &'a [u8],
    pos: usize,
}

fn err<T>(start: usize, end: usize, msg: impl Into<String>) -> Result<T, ParseError> {
    Err(ParseError::new(Span::new(start, end), msg))
}

impl Lexer<'_> {
    fn peek(&self) -> Option<u8> {
        self.bytes.get(self.pos).copied()
    }

    fn peek_at(&self, n: usize) -> Option<u8> {
        self.bytes.get(self.pos + n).copied()
    }

    /// Skips whitespace and comments.
    fn skip_hidden(&mut self) -> Result<(), ParseError> {
        loop {
            match self.peek() {
                Some(b' ' | b'\t' | b'\r' | b'\n') => self.pos += 1,
                Some(b'/') if self.peek_at(1) == Some(b'*') => {
                    let start = self.pos;
                    match self.src[self.pos + 2..].find("*/") {
                        Some(i) => self.pos += 2 + i + 2,
                        None => return err(start, start + 2, "unterminated comment: missing `*/`"),
                    }
                }
                Some(b'/') if self.peek_at(1) == Some(b'/') => {
                    while let Some(c) = self.peek() {
                        if c == b'\n' {
                            break;
                        }
                        self.pos += 1;
                    }
                }
                _ => return Ok(()),
            }
        }
    }

    fn next_token(&mut self) -> Result<Token, ParseError> {
        self.skip_hidden()?;
        let start = self.pos;
        let Some(c) = self.peek() else {
            return Ok(Token {
                tok: Tok::Eof,
                span: Span::new(start, start),
            });
        };
        let tok = match c {
            b'0'..=b'9' => self.number()?,
            b'a'..=b'z' | b'A'..=b'Z' | b'_' => {
                while matches!(self.peek(), Some(b'a'..=b'z' | b'A'..=b'Z' | b'0'..=b'9' | b'_')) {
                    self.pos += 1;
                }
                Tok::Ident(self.src[start..self.pos].to_string())
            }
            b'"' | b'\'' => self.string(c)?,
            _ => self.punct(c)?,
        };
        Ok(Token {
            tok,
            span: Span::new(start, self.pos),
        })
    }

    fn punct(&mut self, c: u8) -> Result<Tok, ParseError> {
        let start = self.pos;
        let next = self.peek_at(1);
        let (tok, len) = match (c, next) {
            (b'=', Some(b'=')) => (Tok::EqEq, 2),
            (b'<', Some(b'>')) => (Tok::Ne, 2),
            (b'>', Some(b'=')) => (Tok::Ge, 2),
            (b'<', Some(b'=')) => (Tok::Le, 2),
            (b'(', _) => (Tok::LParen, 1),
            (b')', _) => (Tok::RParen, 1),
            (b'[', _) => (Tok::LBracket, 1),
            (b']', _) => (Tok::RBracket, 1),
            (b',', _) => (Tok::Comma, 1),
            (b';', _) => (Tok::Semi, 1),
            (b'?', _) => (Tok::Question, 1),
            (b':', _) => (Tok::Colon, 1),
            (b'.', Some(b'0'..=b'9')) => {
                return err(
                    start,
                    start + 1,
                    "a number cannot start with `.`; write `0.` before the digits",
                )
            }
            (b'.', _) => (Tok::Dot, 1),
            (b'+', _) => (Tok::Plus, 1),
            (b'-', _) => (Tok::Minus, 1),
            (b'*', _) => (Tok::Star, 1),
            (b'/', _) => (Tok::Slash, 1),
            (b'%', _) => (Tok::Percent, 1),
            (b'^', _) => (Tok::Caret, 1),
            (b'>', _) => (Tok::Gt, 1),
            (b'<', _) => (Tok::Lt, 1),
            // Common mistakes from other languages get a hint.
            (b'!', Some(b'=')) => {
                return err(
                    start,
                    start + 2,
                    "unknown operator `!=`; StoEx writes not-equal as `<>`",
                )
            }
            (b'=', _) => return err(start, start + 1, "unexpected `=`; StoEx compares with `==`"),
            (b'!', _) => return err(start, start + 1, "unexpected `!`; StoEx negates with `NOT`"),
            (b'&', Some(b'&')) => return err(start, start + 2, "unknown operator `&&`; StoEx writes `AND`"),
            (b'|', Some(b'|')) => return err(start, start + 2, "unknown operator `||`; StoEx writes `OR`"),
            _ => {
                let ch = self.src[start..].chars().next().unwrap_or('\u{FFFD}');
                return err(
                    start,
                    start + ch.len_utf8(),
                    format!("unexpected character `{}`", ch.escape_debug()),
                );
            }
        };
        self.pos += len;
        Ok(tok)
    }

    /// Reads `[0-9]+` and returns the digits; rejects leading zeros (DECINT).
    fn decint(&mut self, what: &str) -> Result<(), ParseError> {
        let start = self.pos;
        while matches!(self.peek(), Some(b'0'..=b'9')) {
            self.pos += 1;
        }
        if self.pos - start > 1 && self.bytes[start] == b'0' {
            return err(start, self.pos, format!("leading zeros are not allowed in {what}"));
        }
        Ok(())
    }

    /// `DECINT` or `DOUBLE ::= DECINT ( "." [0-9]* | ("." [0-9]*)? [eE] [+-]? DECINT )`.
    fn number(&mut self) -> Result<Tok, ParseError> {
        let start = self.pos;
        self.decint("numbers")?;
        let mut is_double = false;
        if self.peek() == Some(b'.') {
            // `1.VALUE` is never valid, but `1.` is a double, so the dot
            // always belongs to the number.
            is_double = true;
            self.pos += 1;
            while matches!(self.peek(), Some(b'0'..=b'9')) {
                self.pos += 1;
            }
        }
        if matches!(self.peek(), Some(b'e' | b'E')) {
            let e_pos = self.pos;
            self.pos += 1;
            if matches!(self.peek(), Some(b'+' | b'-')) {
                self.pos += 1;
            }
            if !matches!(self.peek(), Some(b'0'..=b'9')) {
                return err(e_pos, self.pos, "malformed exponent: expected digits after `E`");
            }
            self.decint("exponents")?;
            is_double = true;
        }
        if matches!(self.peek(), Some(b'a'..=b'z' | b'A'..=b'Z' | b'_')) {
            let mut end = self.pos;
            while matches!(
                self.bytes.get(end),
                Some(b'a'..=b'z' | b'A'..=b'Z' | b'0'..=b'9' | b'_')
            ) {
                end += 1;
            }
            return err(
                start,
                end,
                format!(
                    "`{}` is not a number; names cannot start with a digit",
                    &self.src[start..end]
                ),
            );
        }
        let text = &self.src[start..self.pos];
        if !is_double {
            return Ok(Tok::Int(text.to_string()));
        }
        match text.parse::<f64>() {
            Ok(v) if v.is_finite() => Ok(Tok::Double(v)),
            _ => err(start, self.pos, format!("number `{text}` is out of range for a double")),
        }
    }

    /// A `'…'` or `"…"` string with Java escapes.
    fn string(&mut self, quote: u8) -> Result<Tok, ParseError> {
        let start = self.pos;
        self.pos += 1;
        let mut out = String::new();
        loop {
            let Some(c) = self.src[self.pos..].chars().next() else {
                return err(start, start + 1, "unterminated string: missing closing quote");
            };
            if c as u32 == quote as u32 {
                self.pos += 1;
                return Ok(Tok::Str(out));
            }
            if c != '\\' {
                out.push(c);
                self.pos += c.len_utf8();
                continue;
            }
            let esc_start = self.pos;
            self.pos += 1;
            let Some(e) = self.src[self.pos..].chars().next() else {
                return err(start, start + 1, "unterminated string: missing closing quote");
            };
            self.pos += e.len_utf8();
            match e {
                'b' => out.push('\u{8}'),
                't' => out.push('\t'),
                'n' => out.push('\n'),
                'f' => out.push('\u{c}'),
                'r' => out.push('\r'),
                '"' => out.push('"'),
                '\'' => out.push('\''),
                '\\' => out.push('\\'),
                'u' => out.push(self.unicode_escape(esc_start)?),
                other => {
                    return err(
                        esc_start,
                        self.pos,
                        format!("unknown escape sequence `\\{}`", other.escape_debug()),
                    )
                }
            }
        }
    }

    /// After `\u`: four hex digits, combining a surrogate pair `\uD83D\uDE00`.
    fn unicode_escape(&mut self, esc_start: usize) -> Result<char, ParseError> {
        let first = self.hex4(esc_start)?;
        let code = if (0xD800..0xDC00).contains(&first) {
            let low_start = self.pos;
            if self.bytes.get(self.pos..self.pos + 2) != Some(b"\\u") {
                return err(esc_start, self.pos, "unpaired surrogate in `\\u` escape");
            }
            self.pos += 2;
            let low = self.hex4(low_start)?;
            if !(0xDC00..0xE000).contains(&low) {
                return err(esc_start, self.pos, "unpaired surrogate in `\\u` escape");
            }
            0x10000 + ((first - 0xD800) << 10) + (low - 0xDC00)
        } else {
            first
        };
        char::from_u32(code)
            .ok_or_else(|| ParseError::new(Span::new(esc_start, self.pos), "unpaired surrogate in `\\u` escape"))
    }

    fn hex4(&mut self, esc_start: usize) -> Result<u32, ParseError> {
        let digits = self.bytes.get(self.pos..self.pos + 4);
        let value = digits
            .filter(|d| d.iter().all(u8::is_ascii_hexdigit))
            .and_then(|d| std::str::from_utf8(d).ok())
            .and_then(|s| u32::from_str_radix(s, 16).ok());
        match value {
            Some(v) => {
                self.pos += 4;
                Ok(v)
            }
            None => err(
                esc_start,
                (self.pos).min(self.src.len()),
                "`\\u` must be followed by four hex digits",
            ),
        }
    }
}
