//! XML attribute values: unescaping with a map back to raw offsets, and escaping for writing.

use std::borrow::Cow;

/// An unescaped attribute value that remembers where each character came from in the raw text,
/// so that an error found inside the value (a StoEx syntax error, say) points at the right column
/// of the file even when entities such as `&lt;` stand before it.
#[derive(Clone, Debug, PartialEq)]
pub struct Unescaped<'a> {
    pub text: Cow<'a, str>,
    /// `(unescaped offset, raw offset)` pairs at every point where the two stop advancing together.
    /// Empty when the value had no entities (the offsets are then equal).
    anchors: Vec<(u32, u32)>,
}

impl Unescaped<'_> {
    /// The raw offset (relative to the start of the raw value) of an offset in the unescaped text.
    pub fn raw_offset(&self, unescaped: usize) -> usize {
        let i = self.anchors.partition_point(|&(u, _)| u as usize <= unescaped);
        match i.checked_sub(1).map(|i| self.anchors[i]) {
            Some((u, r)) => r as usize + (unescaped - u as usize),
            None => unescaped,
        }
    }
}

/// A bad entity in a value, at a raw offset relative to the value's start.
#[derive(Clone, Debug, PartialEq)]
pub struct EntityError {
    pub offset: usize,
    pub message: String,
}

/// Unescapes an attribute value as an XML parser must: entities and character references are
/// replaced, and literal tabs and line breaks become spaces (attribute-value normalisation), which
/// keeps offsets 1:1 because each is one byte either way.
pub fn unescape_attribute(raw: &str) -> Result<Unescaped<'_>, EntityError> {
    if !raw.bytes().any(|b| matches!(b, b'&' | b'\t' | b'\n' | b'\r')) {
        return Ok(Unescaped {
            text: Cow::Borrowed(raw),
            anchors: Vec::new(),
        });
    }
    let mut out = String::with_capacity(raw.len());
    let mut anchors = Vec::new();
    let mut rest = raw;
    let mut raw_pos = 0;
    while let Some(i) = rest.find(['&', '\t', '\n', '\r']) {
        out.push_str(&rest[..i]);
        raw_pos += i;
        rest = &rest[i..];
        if !rest.starts_with('&') {
            out.push(' ');
            rest = &rest[1..];
            raw_pos += 1;
            continue;
        }
        let end = rest.find(';').filter(|&e| e <= 12).ok_or_else(|| EntityError {
            offset: raw_pos,
            message: "`&` must start an entity such as `&amp;` or `&lt;`".into(),
        })?;
        let name = &rest[1..end];
        let ch = decode_entity(name).ok_or_else(|| EntityError {
            offset: raw_pos,
            message: format!("unknown entity `&{name};`"),
        })?;
        out.push(ch);
        rest = &rest[end + 1..];
        raw_pos += end + 1;
        anchors.push((out.len() as u32, raw_pos as u32));
    }
    out.push_str(rest);
    Ok(Unescaped {
        text: Cow::Owned(out),
        anchors,
    })
}

fn decode_entity(name: &str) -> Option<char> {
    match name {
        "lt" => Some('<'),
        "gt" => Some('>'),
        "amp" => Some('&'),
        "quot" => Some('"'),
        "apos" => Some('\''),
        _ => {
            let code = if let Some(hex) = name.strip_prefix("#x").or_else(|| name.strip_prefix("#X")) {
                u32::from_str_radix(hex, 16).ok()?
            } else {
                name.strip_prefix('#')?.parse().ok()?
            };
            char::from_u32(code)
        }
    }
}

/// Escapes a value for an attribute delimited by `quote`, the way EMF writes XMI: `&`, `<`, `>`,
/// the delimiter, and line breaks and tabs as character references so they survive normalisation.
pub fn escape_attribute(value: &str, quote: u8) -> Cow<'_, str> {
    let needs = |c: char| matches!(c, '&' | '<' | '>' | '\n' | '\r' | '\t') || (c == quote as char);
    if !value.chars().any(needs) {
        return Cow::Borrowed(value);
    }
    let mut out = String::with_capacity(value.len() + 8);
    for c in value.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' if quote == b'"' => out.push_str("&quot;"),
            '\'' if quote == b'\'' => out.push_str("&apos;"),
            '\n' => out.push_str("&#xA;"),
            '\r' => out.push_str("&#xD;"),
            '\t' => out.push_str("&#x9;"),
            c => out.push(c),
        }
    }
    Cow::Owned(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_values_borrow() {
        let u = unescape_attribute("a.VALUE + 1").unwrap();
        assert!(matches!(u.text, Cow::Borrowed(_)));
        assert_eq!(u.raw_offset(4), 4);
    }

    #[test]
    fn entities_map_back_to_raw_offsets() {
        let raw = "a.VALUE &lt;= 3 &amp;&amp; x";
        let u = unescape_attribute(raw).unwrap();
        assert_eq!(u.text, "a.VALUE <= 3 && x");
        // `=` is at unescaped 9 and at raw 12.
        assert_eq!(&raw[u.raw_offset(9)..u.raw_offset(9) + 1], "=");
        let x = u.text.find('x').unwrap();
        assert_eq!(&raw[u.raw_offset(x)..], "x");
    }

    #[test]
    fn character_references_and_normalisation() {
        let u = unescape_attribute("4&#xD;&#xA;\tb&#65;").unwrap();
        assert_eq!(u.text, "4\r\n bA");
    }

    #[test]
    fn bad_entities_are_errors_at_their_offset() {
        assert_eq!(unescape_attribute("1 &foo; 2").unwrap_err().offset, 2);
        assert_eq!(unescape_attribute("1 & 2").unwrap_err().offset, 2);
        assert!(unescape_attribute("&#xD800;").is_err());
    }

    #[test]
    fn escape_round_trips() {
        for v in ["a < b", "x \"q\" & 'y'", "4\r\n", "plain", "\t>"] {
            for q in [b'"', b'\''] {
                let e = escape_attribute(v, q);
                assert!(!e.contains(q as char));
                assert_eq!(unescape_attribute(&e).unwrap().text, v);
            }
        }
    }
}
