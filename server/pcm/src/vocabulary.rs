//! The model's own words for a service's inputs: which characterisation of each parameter the
//! model's callers pass (`items.VALUE`, a list's size as its VALUE by CIPM's convention, or
//! `items.NUMBER_OF_ELEMENTS`; `request.Files.VALUE` inside a composite). A law written over a
//! characterisation no caller sets is one a simulator reads as undefined, so what Beagle measures
//! is named in these words, and `beagle check` warns where a specification uses others.

use crate::model::{ActionBody, DataTypeKind, Repository, UsageRole};
use crate::reference::{Reference, Target};
use std::collections::{BTreeMap, BTreeSet};

/// Variable path (`items`, `request.Files`) -> the characterisations used for it (`VALUE`).
pub type Words = BTreeMap<String, BTreeSet<String>>;

/// Per signature id: what the ExternalCallActions that call it set, over all of `repositories`.
/// A signature no action calls has no entry (its callers may be a usage model or other code).
pub fn passed_by_callers(repositories: &[&Repository]) -> BTreeMap<String, Words> {
    let mut out: BTreeMap<String, Words> = BTreeMap::new();
    for repo in repositories {
        for action in repo.actions() {
            let ActionBody::ExternalCall {
                called_service: Some(signature),
                inputs,
                ..
            } = &action.body
            else {
                continue;
            };
            let words = out.entry(signature.target.fragment().to_string()).or_default();
            for usage in inputs.iter().filter(|u| u.role == UsageRole::Input) {
                let set = words.entry(usage.name.clone()).or_default();
                set.extend(usage.characterisations.iter().map(|c| c.kind.clone()));
            }
        }
    }
    out
}

/// The characterisation a number of the model has: its VALUE (`INT`, `LONG`, `DOUBLE`, `BYTE`,
/// `BOOL`, `CHAR`); a `STRING`'s is its BYTESIZE. None for collections and other types: their
/// type does not say which of NUMBER_OF_ELEMENTS or BYTESIZE the model means.
fn primitive_words(name: &str) -> Option<&'static str> {
    match name {
        "INT" | "LONG" | "DOUBLE" | "BYTE" | "BOOL" | "CHAR" => Some("VALUE"),
        "STRING" => Some("BYTESIZE"),
        _ => None,
    }
}

/// Palladio's `PrimitiveTypes.repository`, in the order of its `//@dataTypes__Repository.N` paths.
pub const PRIMITIVES: [&str; 7] = ["INT", "STRING", "BOOL", "DOUBLE", "CHAR", "BYTE", "LONG"];

/// What a data type says of a variable `path` of that type: a primitive's characterisation, and
/// for a composite type its inner declarations' (`request.Files` -> VALUE), to `depth` levels.
pub fn type_words(repositories: &[&Repository], path: &str, data_type: Option<&Reference>, out: &mut Words) {
    type_words_at(repositories, path, data_type, out, 3);
}

fn type_words_at(
    repositories: &[&Repository],
    path: &str,
    data_type: Option<&Reference>,
    out: &mut Words,
    depth: usize,
) {
    let Some(reference) = data_type else { return };
    if depth == 0 {
        return;
    }
    if let Target::External { uri, fragment } = &reference.target {
        if uri.ends_with("PrimitiveTypes.repository") {
            let name = fragment
                .rsplit('.')
                .next()
                .and_then(|n| n.parse::<usize>().ok())
                .and_then(|i| PRIMITIVES.get(i));
            if let Some(word) = name.and_then(|n| primitive_words(n)) {
                out.entry(path.to_string()).or_default().insert(word.to_string());
            }
            return;
        }
    }
    let id = reference.target.fragment();
    let Some(found) = repositories
        .iter()
        .flat_map(|r| &r.data_types)
        .find(|t| t.id.as_deref() == Some(id))
    else {
        return;
    };
    match &found.kind {
        DataTypeKind::Primitive(name) => {
            if let Some(word) = primitive_words(name) {
                out.entry(path.to_string()).or_default().insert(word.to_string());
            }
        }
        DataTypeKind::Composite { members, .. } => {
            for m in members {
                if let Some(name) = &m.name {
                    type_words_at(
                        repositories,
                        &format!("{path}.{name}"),
                        m.data_type.as_ref(),
                        out,
                        depth - 1,
                    );
                }
            }
        }
        _ => {}
    }
}

/// The words of signature `signature_id`'s inputs: what its callers pass where it has callers in
/// `repositories`, else what its parameters' types say ([`type_words`]).
pub fn of_signature(repositories: &[&Repository], callers: &BTreeMap<String, Words>, signature_id: &str) -> Words {
    if let Some(words) = callers.get(signature_id).filter(|w| !w.is_empty()) {
        return words.clone();
    }
    let mut out = Words::new();
    let signature = repositories
        .iter()
        .flat_map(|r| r.signatures())
        .find(|(_, s)| s.id.as_deref() == Some(signature_id));
    if let Some((_, s)) = signature {
        for p in &s.parameters {
            if let Some(name) = &p.name {
                type_words(repositories, name, p.data_type.as_ref(), &mut out);
            }
        }
    }
    out
}

/// The characterisation the model uses for `variable` in place of `measured`, where the words
/// say another: a size measured as NUMBER_OF_ELEMENTS where the model passes only the VALUE (a
/// list's size as an `INT`), or the other way round. None: keep `measured` (the words are
/// silent, or use it, or use nothing it could be).
pub fn in_the_models_words<'w>(words: &'w Words, variable: &str, measured: &str) -> Option<&'w str> {
    let used = words.get(variable)?;
    if used.contains(measured) {
        return None;
    }
    let other = match measured {
        "NUMBER_OF_ELEMENTS" => "VALUE",
        "VALUE" => "NUMBER_OF_ELEMENTS",
        _ => return None,
    };
    used.get(other).map(String::as_str)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(pairs: &[(&str, &[&str])]) -> Words {
        pairs
            .iter()
            .map(|(v, cs)| (v.to_string(), cs.iter().map(|c| c.to_string()).collect()))
            .collect()
    }

    #[test]
    fn a_size_is_named_as_the_callers_name_it() {
        let w = words(&[
            ("cartItems", &["VALUE"]),
            ("files", &["NUMBER_OF_ELEMENTS", "BYTESIZE"]),
        ]);
        assert_eq!(
            in_the_models_words(&w, "cartItems", "NUMBER_OF_ELEMENTS"),
            Some("VALUE")
        );
        assert_eq!(in_the_models_words(&w, "cartItems", "VALUE"), None);
        assert_eq!(in_the_models_words(&w, "files", "NUMBER_OF_ELEMENTS"), None);
        assert_eq!(in_the_models_words(&w, "files", "BYTESIZE"), None);
        // Silent words keep what was measured.
        assert_eq!(in_the_models_words(&w, "other", "NUMBER_OF_ELEMENTS"), None);
        assert_eq!(in_the_models_words(&w, "files", "INNER.BYTESIZE"), None);
    }
}
