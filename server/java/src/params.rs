//! Which parameter of a method stands for which parameter of the signature it implements: by
//! name first, whatever the order (`find(owner, items)` for `find(items, owner)`), then by a
//! similar name (`currentItems` for `items`), then by type where one parameter of a kind is left
//! on each side, then by position where as many are left on both sides. Each match says how it
//! was made; a code parameter the signature lacks stays unmatched (it is no input of the model).

use beagle_pcm::model::{DataTypeKind, Repository};
use beagle_pcm::reference::{Reference, Target};

/// What kind of value a parameter holds, as far as matching cares.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TypeClass {
    Number,
    Bool,
    Text,
    Char,
    /// Arrays, collections, maps, iterables: what has a NUMBER_OF_ELEMENTS.
    Collection,
    /// Any other object.
    Composite,
    Unknown,
}

impl TypeClass {
    /// Whether two parameters of these kinds may be the same parameter (an unknown kind may be any).
    pub fn compatible(self, other: TypeClass) -> bool {
        self == other || self == TypeClass::Unknown || other == TypeClass::Unknown
    }

    /// Whether a code parameter of this kind may be the model's parameter of kind `model` when
    /// their names say so: kinds that fit, or a collection the model abstracts to its size (a
    /// number: CIPM's convention gives `entries: INT` for `List<Entry> currentEntries`).
    pub fn may_be_named(self, model: TypeClass) -> bool {
        self.compatible(model) || (self == TypeClass::Collection && model == TypeClass::Number)
    }

    /// The kind in words, for reasons (`a collection`).
    pub fn describe(self) -> &'static str {
        match self {
            TypeClass::Number => "a number",
            TypeClass::Bool => "a boolean",
            TypeClass::Text => "a text",
            TypeClass::Char => "a character",
            TypeClass::Collection => "a collection",
            TypeClass::Composite => "an object",
            TypeClass::Unknown => "of unknown kind",
        }
    }
}

/// The kind of a Java type as written (`int`, `List<File>`, `byte[]`, `java.lang.String`).
pub fn java_type_class(ty: &str) -> TypeClass {
    let ty = ty.trim();
    if ty.ends_with("[]") || ty.ends_with("...") {
        return TypeClass::Collection;
    }
    let raw = ty.split('<').next().unwrap_or(ty).trim();
    let simple = raw.rsplit('.').next().unwrap_or(raw);
    match simple {
        "int" | "long" | "short" | "byte" | "double" | "float" | "Integer" | "Long" | "Short" | "Byte" | "Double"
        | "Float" | "Number" | "BigInteger" | "BigDecimal" | "AtomicInteger" | "AtomicLong" => TypeClass::Number,
        "boolean" | "Boolean" => TypeClass::Bool,
        "char" | "Character" => TypeClass::Char,
        "String" | "CharSequence" | "StringBuilder" => TypeClass::Text,
        s if COLLECTIONS.iter().any(|c| s == *c || s.ends_with(c)) => TypeClass::Collection,
        "" => TypeClass::Unknown,
        _ => TypeClass::Composite,
    }
}

/// Whether a Java type is an array of primitives (`byte[]`, `int[]`, `char...`): its BYTESIZE, if
/// any, is its own (a `byte[]`'s length), not a sum over elements that hold bytes.
pub fn is_primitive_array(ty: &str) -> bool {
    let t = ty.trim();
    let element = t.strip_suffix("...").or_else(|| t.strip_suffix("[]")).map(str::trim);
    element.is_some_and(|e| {
        matches!(
            e,
            "byte" | "short" | "int" | "long" | "float" | "double" | "char" | "boolean"
        )
    })
}

/// Simple names (and name endings, `ArrayList`, `ConcurrentHashMap`) of Java's collection types.
const COLLECTIONS: &[&str] = &[
    "List",
    "Set",
    "Map",
    "Collection",
    "Iterable",
    "Queue",
    "Deque",
    "Stream",
    "Vector",
    "Stack",
];

/// Palladio's primitive types, in the order of their paths (one list, `beagle_pcm`'s).
use beagle_pcm::vocabulary::PRIMITIVES as PCM_PRIMITIVES;

fn primitive_class(name: &str) -> TypeClass {
    match name {
        "INT" | "DOUBLE" | "LONG" | "BYTE" => TypeClass::Number,
        "BOOL" => TypeClass::Bool,
        "STRING" => TypeClass::Text,
        "CHAR" => TypeClass::Char,
        _ => TypeClass::Unknown,
    }
}

/// The kind of a PCM parameter's data type: a type of the repositories by id, or one of Palladio's
/// primitive types by its path.
pub fn pcm_type_class(repositories: &[&Repository], data_type: Option<&Reference>) -> TypeClass {
    let Some(reference) = data_type else {
        return TypeClass::Unknown;
    };
    if let Target::External { uri, fragment } = &reference.target {
        if uri.ends_with("PrimitiveTypes.repository") {
            let index = fragment.rsplit('.').next().and_then(|n| n.parse::<usize>().ok());
            return index
                .and_then(|i| PCM_PRIMITIVES.get(i))
                .map_or(TypeClass::Unknown, |name| primitive_class(name));
        }
    }
    let id = reference.target.fragment();
    let found = repositories
        .iter()
        .flat_map(|r| &r.data_types)
        .find(|t| t.id.as_deref() == Some(id));
    match found.map(|t| &t.kind) {
        Some(DataTypeKind::Primitive(name)) => primitive_class(name),
        Some(DataTypeKind::Collection { .. }) => TypeClass::Collection,
        Some(DataTypeKind::Composite { .. }) => TypeClass::Composite,
        _ => TypeClass::Unknown,
    }
}

/// The name of a PCM parameter's data type as the model gives it: a repository type's
/// `entityName` (`UpdateByEmail`), a primitive's (`INT`); for a collection, its inner type's
/// (what a Java `List<Update>` or `Update[]` holds).
pub fn pcm_type_name(repositories: &[&Repository], data_type: Option<&Reference>) -> Option<String> {
    let reference = data_type?;
    if let Target::External { uri, fragment } = &reference.target {
        if uri.ends_with("PrimitiveTypes.repository") {
            let index = fragment.rsplit('.').next().and_then(|n| n.parse::<usize>().ok())?;
            return PCM_PRIMITIVES.get(index).map(|n| n.to_string());
        }
    }
    let id = reference.target.fragment();
    let found = repositories
        .iter()
        .flat_map(|r| &r.data_types)
        .find(|t| t.id.as_deref() == Some(id))?;
    match &found.kind {
        DataTypeKind::Collection { inner: Some(inner) } => pcm_type_name(repositories, Some(inner)),
        _ => found.name.clone(),
    }
}

/// The inner declarations (name, kind) of a composite data type the repositories define; none
/// for other types.
pub fn composite_members(repositories: &[&Repository], data_type: Option<&Reference>) -> Vec<(String, TypeClass)> {
    let Some(id) = data_type.map(|d| d.target.fragment()) else {
        return Vec::new();
    };
    let found = repositories
        .iter()
        .flat_map(|r| &r.data_types)
        .find(|t| t.id.as_deref() == Some(id));
    match found.map(|t| &t.kind) {
        Some(DataTypeKind::Composite { members, .. }) => members
            .iter()
            .filter_map(|m| Some((m.name.clone()?, pcm_type_class(repositories, m.data_type.as_ref()))))
            .collect(),
        _ => Vec::new(),
    }
}

/// Types a web container passes to a handler, which no model of the service's inputs declares
/// (TeaStore's `updateOrder(HttpServletRequest request, List<OrderItem> orderItems,
/// HttpServletResponse response)` is the model's `updateOrder(items)`), by simple name.
const CONTAINER_SUPPLIED: [&str; 10] = [
    "HttpServletRequest",
    "HttpServletResponse",
    "ServletRequest",
    "ServletResponse",
    "HttpSession",
    "UriInfo",
    "HttpHeaders",
    "SecurityContext",
    "AsyncResponse",
    "ContainerRequestContext",
];

/// Whether a Java parameter of type `java` (as written) is one the web container passes
/// ([`CONTAINER_SUPPLIED`]), not an input of the operation.
pub fn container_supplied(java: &str) -> bool {
    let t = java.trim();
    let simple = t.rsplit('.').next().unwrap_or(t);
    CONTAINER_SUPPLIED.contains(&simple)
}

/// Whether the Java type `java` (as written: `Requests.UpdateById`, `List<Update>`, `Update[]`)
/// is the model's type named `model`: the same simple name, case aside, of the type itself or of
/// what a collection or array of it holds. Primitives are left to [`TypeClass`]: their names differ.
pub fn java_type_is(java: &str, model: &str) -> bool {
    let simple = |t: &str| -> String {
        let t = t.trim().trim_end_matches("...").trim_end_matches("[]");
        let raw = t.split('<').next().unwrap_or(t).trim();
        raw.rsplit(['.', '$']).next().unwrap_or(raw).to_lowercase()
    };
    let wanted = simple(model);
    if wanted.is_empty() || PCM_PRIMITIVES.iter().any(|p| p.eq_ignore_ascii_case(model.trim())) {
        return false;
    }
    let held = java
        .split_once('<')
        .map(|(_, args)| {
            args.trim_end()
                .trim_end_matches('>')
                .split(',')
                .map(simple)
                .collect::<Vec<_>>()
        })
        .unwrap_or_default();
    simple(java) == wanted || held.contains(&wanted)
}

/// How a code parameter was matched to a signature parameter.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MatchedBy {
    Name,
    SimilarName,
    Type,
    Position,
}

impl MatchedBy {
    pub fn describe(self) -> &'static str {
        match self {
            MatchedBy::Name => "by name",
            MatchedBy::SimilarName => "by a similar name",
            MatchedBy::Type => "by type",
            MatchedBy::Position => "by position",
        }
    }
}

/// Code parameter `code` stands for signature parameter `model` (indices), matched `by`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParameterMatch {
    pub code: usize,
    pub model: usize,
    pub by: MatchedBy,
}

/// Matches a method's parameters (name, kind) to its signature's: see the module's doc.
pub fn match_parameters(code: &[(String, TypeClass)], model: &[(String, TypeClass)]) -> Vec<ParameterMatch> {
    let mut matches = Matches {
        found: Vec::new(),
        code_free: vec![true; code.len()],
        model_free: vec![true; model.len()],
    };
    // The same name (case aside): unique on both sides in any Java method and PCM signature.
    for (m, (name, _)) in model.iter().enumerate() {
        if let Some(c) = code.iter().position(|(n, _)| n.eq_ignore_ascii_case(name)) {
            if matches.code_free[c] {
                matches.take(c, m, MatchedBy::Name);
            }
        }
    }
    // A similar name, of a kind that fits, when exactly one candidate is left on each side.
    let similar_pairs = |code_free: &[bool], model_free: &[bool]| -> Vec<(usize, usize)> {
        let mut pairs = Vec::new();
        for (m, (name, class)) in model.iter().enumerate().filter(|(m, _)| model_free[*m]) {
            let fits = |c: usize| code_free[c] && similar(&code[c].0, name) && code[c].1.may_be_named(*class);
            let candidates: Vec<usize> = (0..code.len()).filter(|c| fits(*c)).collect();
            if let [c] = candidates[..] {
                let rivals = model
                    .iter()
                    .enumerate()
                    .filter(|(o, (other, class))| {
                        model_free[*o] && similar(&code[c].0, other) && code[c].1.may_be_named(*class)
                    })
                    .count();
                if rivals == 1 {
                    pairs.push((c, m));
                }
            }
        }
        pairs
    };
    for (c, m) in similar_pairs(&matches.code_free, &matches.model_free) {
        matches.take(c, m, MatchedBy::SimilarName);
    }
    // A kind left once on each side.
    let left_model: Vec<usize> = (0..model.len()).filter(|m| matches.model_free[*m]).collect();
    for m in left_model {
        let class = model[m].1;
        if class == TypeClass::Unknown {
            continue;
        }
        let code_of_kind: Vec<usize> = (0..code.len())
            .filter(|c| matches.code_free[*c] && code[*c].1 == class)
            .collect();
        let model_of_kind = (0..model.len())
            .filter(|o| matches.model_free[*o] && model[*o].1 == class)
            .count();
        if let ([c], 1) = (&code_of_kind[..], model_of_kind) {
            matches.take(*c, m, MatchedBy::Type);
        }
    }
    // As many left on both sides, of kinds that fit: in order.
    let code_left: Vec<usize> = (0..code.len()).filter(|c| matches.code_free[*c]).collect();
    let model_left: Vec<usize> = (0..model.len()).filter(|m| matches.model_free[*m]).collect();
    if code_left.len() == model_left.len()
        && code_left
            .iter()
            .zip(&model_left)
            .all(|(c, m)| code[*c].1.compatible(model[*m].1))
    {
        for (c, m) in code_left.into_iter().zip(model_left) {
            matches.take(c, m, MatchedBy::Position);
        }
    }
    let mut found = matches.found;
    found.sort_by_key(|x| x.code);
    found
}

/// The matches so far, and which parameters on each side are still free.
struct Matches {
    found: Vec<ParameterMatch>,
    code_free: Vec<bool>,
    model_free: Vec<bool>,
}

impl Matches {
    fn take(&mut self, code: usize, model: usize, by: MatchedBy) {
        self.code_free[code] = false;
        self.model_free[model] = false;
        self.found.push(ParameterMatch { code, model, by });
    }
}

/// The words of a camelCase or snake_case name, lower case, plurals made singular
/// (`currentItems` → current, item).
fn words(name: &str) -> Vec<String> {
    let chars: Vec<char> = name.chars().collect();
    let mut out: Vec<String> = Vec::new();
    let mut word = String::new();
    for (i, &ch) in chars.iter().enumerate() {
        if !ch.is_alphabetic() {
            if !word.is_empty() {
                out.push(std::mem::take(&mut word));
            }
            continue;
        }
        // A word starts at an upper-case letter after a lower-case one (`fileList`), or at the
        // last capital of an acronym that a lower-case letter follows (`HTTPServer`).
        let previous = i.checked_sub(1).map(|j| chars[j]);
        let next = chars.get(i + 1);
        let starts = ch.is_uppercase()
            && !word.is_empty()
            && (previous.is_some_and(char::is_lowercase)
                || (previous.is_some_and(char::is_uppercase) && next.is_some_and(|n| n.is_lowercase())));
        if starts {
            out.push(std::mem::take(&mut word));
        }
        word.extend(ch.to_lowercase());
    }
    if !word.is_empty() {
        out.push(word);
    }
    out.into_iter().map(|w| singular(&w)).collect()
}

fn singular(word: &str) -> String {
    match word.strip_suffix('s') {
        Some(stem) if stem.len() >= 3 && !stem.ends_with('s') => stem.to_string(),
        _ => word.to_string(),
    }
}

/// Whether every word of one name is a word of the other (`items` ~ `currentItems`,
/// `uploadFiles` ~ `files`; not `alreadyCompressed` ~ `compressedIndices`).
pub fn similar(a: &str, b: &str) -> bool {
    let (wa, wb) = (words(a), words(b));
    if wa.is_empty() || wb.is_empty() {
        return false;
    }
    wa.iter().all(|w| wb.contains(w)) || wb.iter().all(|w| wa.contains(w))
}

#[cfg(test)]
mod tests {

    #[test]
    fn a_similar_name_beats_a_type_even_for_a_list_the_model_abstracts_to_its_size() {
        // `lookup(entries: INT)` for `findEntries(long ownerId, List<Entry> currentEntries)`: the
        // number `ownerId` is not `entries` by type; `currentEntries` is, by its name.
        let m = match_parameters(
            &[p("ownerId", Number), p("currentEntries", Collection)],
            &[p("entries", Number)],
        );
        assert_eq!(by(&m), vec![(1, 0, MatchedBy::SimilarName)]);
    }

    #[test]
    fn java_types_are_the_models_by_simple_name_or_by_what_they_hold() {
        assert!(java_type_is("UpdateByEmail", "UpdateByEmail"));
        assert!(java_type_is("Requests.UpdateById", "UpdateById"));
        assert!(java_type_is("a.b.Requests$UpdateById", "updatebyid"));
        assert!(java_type_is("List<Update>", "Update"));
        assert!(java_type_is("Map<String, Update>", "Update"));
        assert!(java_type_is("Update[]", "Update"));
        assert!(java_type_is("Update...", "Update"));
        assert!(!java_type_is("UpdateById", "UpdateByEmail"));
        assert!(!java_type_is("int", "INT"), "primitives are matched by kind");
        assert!(!java_type_is("Int", "INT"));
    }
    use super::*;
    use TypeClass::*;

    fn p(name: &str, class: TypeClass) -> (String, TypeClass) {
        (name.to_string(), class)
    }

    fn by(m: &[ParameterMatch]) -> Vec<(usize, usize, MatchedBy)> {
        m.iter().map(|x| (x.code, x.model, x.by)).collect()
    }

    #[test]
    fn the_same_names_in_another_order_match_by_name() {
        let code = [p("owners", Collection), p("items", Collection)];
        let model = [p("items", Collection), p("owners", Collection)];
        assert_eq!(
            by(&match_parameters(&code, &model)),
            [(0, 1, MatchedBy::Name), (1, 0, MatchedBy::Name)]
        );
    }

    #[test]
    fn a_longer_name_and_an_extra_parameter() {
        // `findMatches(long ownerId, List<Item> currentItems)` for `find(items)`.
        let code = [p("ownerId", Number), p("currentItems", Collection)];
        let model = [p("items", Collection)];
        assert_eq!(by(&match_parameters(&code, &model)), [(1, 0, MatchedBy::SimilarName)]);
        // Without a similar name, the one collection on each side.
        let code = [p("ownerId", Number), p("stock", Collection)];
        assert_eq!(by(&match_parameters(&code, &model)), [(1, 0, MatchedBy::Type)]);
        // Two collections in the code and no name to tell them: nothing is guessed.
        let code = [p("a", Collection), p("b", Collection)];
        assert_eq!(by(&match_parameters(&code, &model)), []);
    }

    #[test]
    fn other_names_in_the_same_number_match_by_position_where_kinds_fit() {
        // The file-share upload: `upload(byte[][] uploadFiles, int[] compressedIndices)` for
        // `upload(files, alreadyCompressed)`, both collections.
        let code = [p("uploadFiles", Collection), p("compressedIndices", Collection)];
        let model = [p("files", Collection), p("alreadyCompressed", Collection)];
        assert_eq!(
            by(&match_parameters(&code, &model)),
            [(0, 0, MatchedBy::SimilarName), (1, 1, MatchedBy::Type)]
        );
        let code = [p("x", Number), p("y", Text)];
        let model = [p("name", Text), p("count", Number)];
        assert_eq!(
            by(&match_parameters(&code, &model)),
            [(0, 1, MatchedBy::Type), (1, 0, MatchedBy::Type)]
        );
        let code = [p("x", Number), p("y", Number)];
        let model = [p("width", Number), p("height", Unknown)];
        assert_eq!(
            by(&match_parameters(&code, &model)),
            [(0, 0, MatchedBy::Position), (1, 1, MatchedBy::Position)]
        );
        // Kinds that do not fit are never matched by position.
        let code = [p("x", Text), p("y", Bool)];
        let model = [p("width", Number), p("height", Number)];
        assert_eq!(by(&match_parameters(&code, &model)), []);
    }

    #[test]
    fn words_and_similar_names() {
        assert_eq!(words("currentItems"), ["current", "item"]);
        assert_eq!(words("HTTPServer_port2"), ["http", "server", "port"]);
        assert!(similar("items", "currentItems"));
        assert!(similar("uploadFiles", "files"));
        assert!(!similar("alreadyCompressed", "compressedIndices"));
        assert!(!similar("owner", "items"));
    }

    #[test]
    fn arrays_of_primitives_are_told_from_those_of_objects() {
        assert!(is_primitive_array("byte[]"));
        assert!(is_primitive_array("int ..."));
        assert!(!is_primitive_array("byte[][]"));
        assert!(!is_primitive_array("Item[]"));
        assert!(!is_primitive_array("List<Item>"));
    }

    #[test]
    fn java_and_pcm_kinds() {
        assert_eq!(java_type_class("int"), Number);
        assert_eq!(java_type_class("java.lang.Integer"), Number);
        assert_eq!(java_type_class("byte[][]"), Collection);
        assert_eq!(java_type_class("List<File>"), Collection);
        assert_eq!(java_type_class("ConcurrentHashMap<String, Long>"), Collection);
        assert_eq!(java_type_class("String"), Text);
        assert_eq!(java_type_class("Item"), Composite);
        assert_eq!(primitive_class(PCM_PRIMITIVES[5]), Number);
        assert_eq!(primitive_class(PCM_PRIMITIVES[1]), Text);
    }
}
