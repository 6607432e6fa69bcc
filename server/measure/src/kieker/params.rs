//! CIPM `parameters` objects: `{"files_NUMBER_OF_ELEMENTS":12,"size_BYTESIZE":4096,}` (real logs
//! have the trailing comma) become PCM characterised names, `files.NUMBER_OF_ELEMENTS = 12.0`.

use beagle_analysis::Parameters;

/// PCM's variable characterisation types; a key `<name>_<TYPE>` ends in one of these. Matched as
/// suffixes because both parameter names and `NUMBER_OF_ELEMENTS` contain underscores.
const CHARACTERISATIONS: [&str; 5] = ["NUMBER_OF_ELEMENTS", "BYTESIZE", "VALUE", "STRUCTURE", "TYPE"];

/// Parses a CIPM parameter object. `<not set>` and empty text give no parameters. Numbers and
/// booleans (as 1/0) and numeric strings are kept; other values cannot be characterised as a
/// number and are left out. `None` means the text is not such an object.
pub fn parse_parameters(text: &str) -> Option<Parameters> {
    let text = text.trim();
    let mut out = Parameters::new();
    if text.is_empty() || text == super::fields::NOT_SET {
        return Some(out);
    }
    let fixed = strip_trailing_comma(text);
    let value: serde_json::Value = serde_json::from_str(&fixed).ok()?;
    let serde_json::Value::Object(map) = value else {
        return None;
    };
    for (key, v) in map {
        let number = match v {
            serde_json::Value::Number(n) => n.as_f64(),
            serde_json::Value::Bool(b) => Some(if b { 1.0 } else { 0.0 }),
            serde_json::Value::String(s) => s.trim().parse::<f64>().ok(),
            _ => None,
        };
        if let Some(x) = number {
            out.insert(characterised_name(&key), x);
        }
    }
    Some(out)
}

/// `files_NUMBER_OF_ELEMENTS` -> `files.NUMBER_OF_ELEMENTS`; a key without a known suffix is split
/// at its last `_`, and one without `_` is kept as it is.
pub fn characterised_name(key: &str) -> String {
    for c in CHARACTERISATIONS {
        if let Some(name) = key.strip_suffix(c).and_then(|k| k.strip_suffix('_')) {
            if !name.is_empty() {
                return format!("{name}.{c}");
            }
        }
    }
    match key.rsplit_once('_') {
        Some((name, c)) if !name.is_empty() && !c.is_empty() => format!("{name}.{c}"),
        _ => key.to_string(),
    }
}

/// Removes a `,` that directly (up to whitespace) precedes the closing `}`.
fn strip_trailing_comma(text: &str) -> String {
    if let Some(body) = text.strip_suffix('}') {
        let trimmed = body.trim_end();
        if let Some(without) = trimmed.strip_suffix(',') {
            return format!("{without}}}");
        }
    }
    text.to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn trailing_comma_and_names() {
        let p = parse_parameters(r#"{"files_NUMBER_OF_ELEMENTS":12,"size_BYTESIZE":4096,"my_n_VALUE":true,}"#).unwrap();
        assert_eq!(p["files.NUMBER_OF_ELEMENTS"], 12.0);
        assert_eq!(p["size.BYTESIZE"], 4096.0);
        assert_eq!(p["my_n.VALUE"], 1.0);
        assert!(parse_parameters("<not set>").unwrap().is_empty());
        assert!(parse_parameters("{}").unwrap().is_empty());
        assert!(parse_parameters(r#"{"a":}"#).is_none());
        assert!(parse_parameters("[1]").is_none());
    }
}
