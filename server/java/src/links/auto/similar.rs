//! A method under another name than its signature's (`findMatches(ownerId, currentItems)` for
//! `find(items)`), scored by the evidence that it implements the operation:
//!
//! | evidence | confidence |
//! |---|---|
//! | its name shares its words with the signature's | [`SIMILAR_NAME`] 0.6, the base |
//! | the signature's parameters it takes | + 0.25 × their share: by (similar) name 1, by type 0.6, by position 0.3; no parameters on the signature: half |
//! | the kinds of matched parameters agree (a PCM collection for a `List`) | + 0.05 |
//! | a `List` matched by name to a number (the model abstracts the list to its size) | 0 |
//! | a signature parameter of a known kind the method has no parameter of that kind for | − 0.2 each |
//! | the counterpart of the signature's interface declares it | + 0.15 |
//! | a code parameter the signature lacks (an id, a context) | × 0.95 each |
//! | fewer parameters than the signature | × 0.9 |
//!
//! capped at 0.95 (under a method of the signature's name). So a shared word alone stays a
//! proposal (0.6 to 0.73); the parameters by name and kind, or the interface, carry it over the
//! threshold of use (0.8); kinds that contradict keep it under.

use crate::params::{java_type_class, match_parameters, MatchedBy, ParameterMatch, TypeClass};
use crate::syntax::Method;

/// Confidence of a method found by a similar name alone: below the threshold of use.
const SIMILAR_NAME: f64 = 0.6;
/// What the signature's parameters add, all found by name.
const PARAMETERS: f64 = 0.25;
/// Kinds that agree: a little, as they often agree by chance (two numbers).
const KINDS_AGREE: f64 = 0.05;
/// Per signature parameter the method cannot take: strong, a method of other inputs is another method.
const CONTRADICTION: f64 = 0.2;
/// The method implements the interface that stands for the signature's.
const INTERFACE: f64 = 0.15;
/// Per code parameter the signature lacks: only a little (ids and context objects are common).
const EXTRA_PARAMETER: f64 = 0.95;
/// Fewer parameters than the signature: the method cannot take one of the model's inputs.
const FEWER_PARAMETERS: f64 = 0.9;
/// At most: a method under another name is never as sure as one under the signature's.
const MOST: f64 = 0.95;

/// What is looked for: the signature's name and its parameters with their kinds.
pub(super) struct Wanted<'s> {
    pub name: &'s str,
    pub parameters: Vec<(String, TypeClass)>,
    /// Each parameter's data type name in the model, where it has one (`UpdateByEmail`).
    pub type_names: Vec<Option<String>>,
    /// Each parameter's inner declarations where its type is a composite (`request:
    /// DownloadRequest` with `Files`, `Size`), which code may take spread over its parameters.
    pub members: Vec<Vec<String>>,
}

/// The best-scored method whose name shares its words with the signature's, its confidence and
/// why; several equally good halve it. `declared_by` says, for a method the counterpart of the
/// signature's interface declares, how (see [`super::provided::Counterpart`]).
pub(super) fn similar_method<'m, 't>(
    methods: &'m [Method<'t>],
    wanted: &Wanted,
    declared_by: &dyn Fn(&Method) -> Option<String>,
) -> Option<(&'m Method<'t>, f64, String)> {
    let scored: Vec<(&Method, f64, String)> = methods
        .iter()
        .filter(|m| m.node.kind() == "method_declaration" && crate::params::similar(&m.name, wanted.name))
        .map(|m| {
            let (confidence, reason) = score(m, wanted, declared_by(m));
            (m, confidence, reason)
        })
        .collect();
    let best = scored.iter().map(|s| s.1).fold(f64::NEG_INFINITY, f64::max);
    let tied: Vec<&(&Method, f64, String)> = scored.iter().filter(|s| (s.1 - best).abs() < 1e-9).collect();
    let &&(method, confidence, ref reason) = tied.first()?;
    let mut reason = reason.clone();
    if tied.len() > 1 {
        reason.push_str(&format!(
            " (one of {} methods that fit equally well: a guess)",
            tied.len()
        ));
        return Some((method, confidence * 0.5, reason));
    }
    Some((method, confidence, reason))
}

/// A method's confidence and reason: see the module's table.
fn score(method: &Method, wanted: &Wanted, declared_by: Option<String>) -> (f64, String) {
    let code: Vec<(String, TypeClass)> = method
        .parameters
        .iter()
        .zip(&method.parameter_types)
        .map(|(name, ty)| (name.clone(), kind(ty)))
        .collect();
    let model = &wanted.parameters;
    let matches = match_parameters(&code, model);
    let matched_to = |m: usize| matches.iter().find(|x| x.model == m);
    let mut taken = 0.0;
    let count = |by: MatchedBy| matches.iter().filter(|x| x.by == by).count();
    let (by_name, by_type, by_position) = (
        count(MatchedBy::Name) + count(MatchedBy::SimilarName),
        count(MatchedBy::Type),
        count(MatchedBy::Position),
    );
    let mut agree = Vec::new();
    let mut sizes = Vec::new();
    let mut contradict = Vec::new();
    for (m, (name, class)) in model.iter().enumerate() {
        let known = *class != TypeClass::Unknown;
        match matched_to(m) {
            Some(ParameterMatch { code: c, by, .. }) => {
                let (code_name, code_class) = &code[*c];
                if known && *code_class != TypeClass::Unknown {
                    if code_class == class {
                        agree.push(format!("{code_name} is {} like {name}", class.describe()));
                    } else if *code_class == TypeClass::Collection && *class == TypeClass::Number {
                        // The model's convention: a list abstracted to its size (`entries: INT`).
                        // Its name carries it; the kinds neither agree nor contradict.
                        sizes.push(format!("{name} is the size of collection {code_name}"));
                    } else {
                        // Only a name can match kinds that differ: `items` an int for a collection.
                        contradict.push(format!(
                            "{name} is {}, {code_name} {}",
                            class.describe(),
                            code_class.describe()
                        ));
                        continue;
                    }
                }
                taken += match by {
                    MatchedBy::Name | MatchedBy::SimilarName => 1.0,
                    MatchedBy::Type => 0.6,
                    MatchedBy::Position => 0.3,
                };
            }
            None if known && !code.iter().any(|(_, k)| k.compatible(*class)) => contradict.push(format!(
                "{name} is {}, and no parameter of the method is",
                class.describe()
            )),
            None => {}
        }
    }
    let share = if model.is_empty() {
        0.5
    } else {
        taken / model.len() as f64
    };
    let mut confidence = SIMILAR_NAME + PARAMETERS * share - CONTRADICTION * contradict.len() as f64;
    if !agree.is_empty() && contradict.is_empty() {
        confidence += KINDS_AGREE;
    }
    if declared_by.is_some() {
        confidence += INTERFACE;
    }
    let extra: Vec<&str> = (0..code.len())
        .filter(|c| !matches.iter().any(|x| x.code == *c))
        .map(|c| code[c].0.as_str())
        .collect();
    confidence *= EXTRA_PARAMETER.powi(extra.len() as i32);
    if code.len() < model.len() {
        confidence *= FEWER_PARAMETERS;
    }
    let confidence = confidence.clamp(0.0, MOST);

    let mut reason = format!(
        "method {}({}) has a name like signature {}'s",
        method.name,
        method.parameters.join(", "),
        wanted.name
    );
    if model.is_empty() {
        reason.push_str(", which has no parameters");
    } else {
        reason.push_str(&format!(", and {by_name} of its {} parameters by name", model.len()));
        for (n, how) in [(by_type, "by type"), (by_position, "by position")] {
            if n > 0 {
                reason.push_str(&format!(", {n} {how}"));
            }
        }
    }
    if !contradict.is_empty() {
        reason.push_str(&format!("; kinds contradict: {}", contradict.join("; ")));
    } else if !agree.is_empty() {
        reason.push_str(&format!("; kinds agree: {}", agree.join("; ")));
    }
    if !sizes.is_empty() {
        reason.push_str(&format!("; {} (the model's abstraction)", sizes.join("; ")));
    }
    if !extra.is_empty() {
        let s = if extra.len() == 1 { "" } else { "s" };
        reason.push_str(&format!("; the signature lacks parameter{s} {}", extra.join(", ")));
    }
    if let Some(how) = declared_by {
        reason.push_str(&format!("; {how}"));
    }
    (confidence, reason)
}

/// A Java parameter's kind for this comparison: an `Object` or a type variable (`T`) may hold
/// anything, so it contradicts nothing.
fn kind(ty: &str) -> TypeClass {
    let raw = ty.trim();
    let simple = raw.rsplit('.').next().unwrap_or(raw);
    let type_variable = simple.len() == 1 && simple.chars().all(|c| c.is_ascii_uppercase());
    if simple == "Object" || type_variable {
        TypeClass::Unknown
    } else {
        java_type_class(raw)
    }
}
