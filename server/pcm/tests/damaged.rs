//! Damaged model files: every real fixture, truncated, with flipped bytes, with ids deleted, with
//! bad stochastic expressions and with unknown `xsi:type`s. Parsing must never panic, must report
//! the damage with the right diagnostic code, and every diagnostic's span must lie within the text
//! on character boundaries (editors turn spans into positions and would crash otherwise).

use beagle_pcm::namespaces::{known_types, parse_namespace};
use beagle_pcm::reference::Target;
use beagle_pcm::{ModelFile, Severity, Span};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};

/// Files up to this size are also cut at every tag boundary (larger ones only every 97th byte,
/// which keeps the test fast in debug builds).
const SMALL_FILE: usize = 12 * 1024;

fn fixtures() -> Vec<(PathBuf, String)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/pcm");
    let files: Vec<_> = beagle_pcm::workspace::find_model_files(&root)
        .unwrap()
        .into_iter()
        .map(|path| {
            let text = std::fs::read_to_string(&path).unwrap();
            (path, text)
        })
        .collect();
    assert!(files.len() >= 15, "expected the PCM fixtures under {}", root.display());
    files
}

fn name(path: &Path) -> String {
    path.file_name().unwrap().to_string_lossy().into_owned()
}

/// A tiny deterministic xorshift, so that failures reproduce without extra dependencies.
struct Rng(u64);

impl Rng {
    fn new(seed: u64) -> Rng {
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }

    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// Parses `bytes`, turning a panic into a test failure that names the damaged input.
fn parse(what: &str, bytes: Vec<u8>) -> ModelFile {
    let path = PathBuf::from("damaged.repository");
    match catch_unwind(AssertUnwindSafe(|| ModelFile::from_bytes(path, bytes))) {
        Ok(file) => {
            assert_spans_valid(what, &file);
            file
        }
        Err(_) => panic!("parsing panicked on {what}"),
    }
}

fn assert_spans_valid(what: &str, file: &ModelFile) {
    let text = file.text();
    for d in &file.diagnostics {
        let Span { start, end } = d.span;
        let (start, end) = (start as usize, end as usize);
        assert!(
            start <= end && end <= text.len() && text.is_char_boundary(start) && text.is_char_boundary(end),
            "{what}: diagnostic `{}` has span {start}..{end}, not on char boundaries within the {} bytes of text: {d:?}",
            d.code,
            text.len()
        );
    }
}

/// The diagnostics with this code and severity.
fn with_code<'a>(file: &'a ModelFile, code: &str, severity: Severity) -> Vec<&'a beagle_pcm::Diagnostic> {
    file.diagnostics
        .iter()
        .filter(|d| d.code == code && d.severity == severity)
        .collect()
}

fn replace(text: &str, span: Span, with: &str) -> String {
    format!("{}{with}{}", &text[..span.start as usize], &text[span.end as usize..])
}

#[test]
fn fixtures_parse_with_valid_spans() {
    for (path, text) in fixtures() {
        let file = parse(&name(&path), text.into_bytes());
        assert!(
            file.tree.errors.is_empty(),
            "{}: {:?}",
            path.display(),
            file.tree.errors
        );
    }
}

#[test]
fn truncated_files_report_xml_errors() {
    for (path, text) in fixtures() {
        let mut cuts: Vec<usize> = (0..text.len()).step_by(97).collect();
        if text.len() <= SMALL_FILE {
            cuts.extend(text.match_indices(['<', '>']).flat_map(|(i, _)| [i, i + 1]));
        }
        cuts.sort_unstable();
        cuts.dedup();
        for cut in cuts {
            // Only what is left of the root element counts: cutting the final newline is no damage.
            if text[cut..].trim().is_empty() || !text.is_char_boundary(cut) {
                continue;
            }
            let what = format!("{} cut at byte {cut}", name(&path));
            let file = parse(&what, text.as_bytes()[..cut].to_vec());
            assert!(
                !with_code(&file, "xml", Severity::Error).is_empty(),
                "{what}: no `xml` error; diagnostics: {:?}",
                file.diagnostics
            );
        }
    }
}

#[test]
fn flipped_bytes_never_panic() {
    let mut rng = Rng::new(0xB1A61E);
    for (path, text) in fixtures() {
        let flips = if text.len() <= SMALL_FILE { 400 } else { 60 };
        for _ in 0..flips {
            let mut bytes = text.clone().into_bytes();
            // One to three changed bytes: any value, so invalid UTF-8 and stray `<`, `"`, `&` too.
            let mut changed = Vec::new();
            for _ in 0..1 + rng.below(3) {
                let at = rng.below(bytes.len());
                let value = rng.next() as u8;
                bytes[at] = value;
                changed.push((at, value));
            }
            let what = format!("{} with bytes (offset, new value) {changed:?}", name(&path));
            parse(&what, bytes);
        }
    }
}

#[test]
fn encoding_span_covers_the_replacement_character() {
    let file = ModelFile::from_bytes(PathBuf::from("bad.repository"), b"<a>\xE6</a>".to_vec());
    let d = file
        .diagnostics
        .iter()
        .find(|d| d.code == "encoding")
        .expect("an encoding error");
    assert_eq!(file.text(), "<a>\u{FFFD}</a>");
    // The span must be on char boundaries of the text it refers to: 3..6, not 3..4.
    assert!(
        file.text().get(d.span.range()).is_some(),
        "span {:?} splits U+FFFD",
        d.span
    );
}

#[test]
fn tag_spans_after_a_byte_order_mark() {
    // Windows editors write a BOM; quick-xml skips it, and the tag spans do not count it.
    let file = ModelFile::parse(
        PathBuf::from("bom.repository"),
        "\u{FEFF}<a>\n  <b/>\n</a>\n".to_string(),
    );
    for node in file.tree.ids() {
        let e = file.tree.element(node);
        let tag = &file.text()[e.start_tag.range()];
        assert!(
            tag.starts_with('<') && tag.ends_with('>'),
            "start tag of node {node} reads {tag:?}"
        );
    }
}

/// Ids that some reference in the same file names, with the element that defines them.
fn referenced_ids(file: &ModelFile) -> Vec<String> {
    let mut ids: Vec<String> = file
        .index
        .references()
        .iter()
        .filter_map(|r| match &r.target {
            Target::Id(id) if file.resolve_local(&r.target).is_some() => Some(id.clone()),
            _ => None,
        })
        .collect();
    ids.sort();
    ids.dedup();
    ids
}

#[test]
fn deleted_ids_leave_unresolved_references() {
    let mut rng = Rng::new(0x1D5);
    for (path, text) in fixtures() {
        let original = parse(&name(&path), text.clone().into_bytes());
        let ids = referenced_ids(&original);
        for _ in 0..ids.len().min(12) {
            let id = &ids[rng.below(ids.len())];
            let node = original.resolve_local(&Target::Id(id.clone())).unwrap();
            let attr = original.tree.attribute(node, "id").unwrap();
            // ` id="..."`: the space before the name up to the closing quote.
            let span = Span::new(attr.name.start as usize - 1, attr.value.end as usize + 1);
            let damaged = replace(&text, span, "");
            let what = format!("{} without the definition of id `{id}`", name(&path));
            let file = parse(&what, damaged.clone().into_bytes());
            let unresolved = with_code(&file, "unresolved-reference", Severity::Error);
            assert!(
                unresolved.iter().any(|d| &damaged[d.span.range()] == id.as_str()),
                "{what}: no `unresolved-reference` error at a reference to it; diagnostics: {:?}",
                file.diagnostics
            );
        }
    }
}

/// Invalid StoEx, raw as written in the attribute (so some hold entities).
const BAD_STOEX: [&str; 5] = ["1 +", "foo(", "1 &lt;", "&quot;unterminated", "(2 * ) + &amp;&amp; 3"];

#[test]
fn bad_specifications_are_reported_inside_their_value() {
    let mut rng = Rng::new(0x5705);
    for (path, text) in fixtures() {
        let original = parse(&name(&path), text.clone().into_bytes());
        let specs = &original.specifications;
        // Every specification of a small file; a sample of a large one (one parse each).
        let picks: Vec<usize> = if text.len() <= SMALL_FILE {
            (0..specs.len()).collect()
        } else {
            (0..specs.len().min(25)).map(|_| rng.below(specs.len())).collect()
        };
        for (n, i) in picks.into_iter().enumerate() {
            let bad = BAD_STOEX[n % BAD_STOEX.len()];
            let value = specs[i].value;
            let damaged = replace(&text, value, bad);
            let what = format!("{} with specification {i} set to `{bad}`", name(&path));
            let file = parse(&what, damaged.into_bytes());
            let (start, end) = (value.start, value.start + bad.len() as u32);
            let errors = with_code(&file, "stoex-syntax", Severity::Error);
            assert!(
                errors.iter().any(|d| d.span.start >= start && d.span.end <= end),
                "{what}: no `stoex-syntax` error within bytes {start}..{end}; diagnostics: {:?}",
                file.diagnostics
            );
        }
    }
}

#[test]
fn unknown_types_are_warned_about() {
    let mut rng = Rng::new(0x7E9E);
    for (path, text) in fixtures() {
        let original = parse(&name(&path), text.clone().into_bytes());
        let tree = &original.tree;
        // Elements whose `xsi:type` is in a package whose types Beagle knows.
        let typed: Vec<Span> = tree
            .ids()
            .filter_map(|n| {
                let (ns, local) = tree.element(n).xsi_type?;
                let package = parse_namespace(tree.namespace(ns)?)?.package;
                known_types(package).map(|_| local)
            })
            .collect();
        for _ in 0..typed.len().min(8) {
            let local = typed[rng.below(typed.len())];
            let damaged = replace(&text, local, "NoSuchType");
            let what = format!("{} with the xsi:type at byte {} renamed", name(&path), local.start);
            let file = parse(&what, damaged.into_bytes());
            let (start, end) = (local.start, local.start + "NoSuchType".len() as u32);
            let warnings = with_code(&file, "unknown-type", Severity::Warning);
            assert!(
                warnings.iter().any(|d| d.span.start >= start && d.span.end <= end),
                "{what}: no `unknown-type` warning within bytes {start}..{end}; diagnostics: {:?}",
                file.diagnostics
            );
        }
    }
}
