//! The original Beagle's link XML: the real SoMoX-generated file, and offset resolution on Java
//! written for the test with offsets of the three kinds found in practice.

use beagle_java::links::beagle_xml::{parse_xml, resolve_offset};
use beagle_java::links::{parse_links, read_links, validate, LinkOrigin, Sources};
use beagle_java::syntax::JavaFile;
use beagle_pcm::ModelSet;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

fn dir(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/links").join(name)
}

const REAL_XML: &str = "internal_architecture_model_source_statement_links.xml";

#[test]
fn reads_every_link_of_the_real_file() {
    let path = dir("palladiofileshare").join(REAL_XML);
    let text = std::fs::read_to_string(&path).unwrap();
    let links = parse_xml(&text, &path).unwrap().links;
    assert_eq!(links.len(), 61);
    let first = &links[0];
    assert_eq!(first.element, "_DrQdUue1EeW5NafnxUciog");
    assert_eq!(first.line, 4);
    assert_eq!(
        first.first.class,
        "de.uka.ipd.sdq.palladiofileshare.algorithms.SimpleLZW"
    );
    assert_eq!(first.first.offset, 4146);
    assert_eq!(first.last.as_ref().unwrap().offset, 8972);
    assert_eq!(links[2].element, "_DrkmYOe1EeW5NafnxUciog");
    assert!(links[2].last.is_none());
    let ids: BTreeSet<&str> = links.iter().map(|l| l.element.as_str()).collect();
    assert_eq!(ids.len(), 61, "one link per element");
    let classes: BTreeSet<&str> = links.iter().map(|l| l.first.class.as_str()).collect();
    assert_eq!(classes.len(), 10);
    assert!(classes.contains("de.uka.ipd.sdq.palladiofileshare.businesslogic.existingfilesdb.DbAccess"));
    // Every linked id is an element of the model SoMoX wrote with it.
    let mut models = ModelSet::new();
    let id = models
        .load(&dir("palladiofileshare").join("internal_architecture_model.repository"))
        .unwrap();
    let repo = models.file(id).repository.as_ref().unwrap();
    let model_ids: BTreeSet<&str> = repo
        .actions()
        .filter_map(|a| a.id.as_deref())
        .chain(repo.seffs().filter_map(|(_, s)| s.id.as_deref()))
        .chain(behaviour_ids(repo))
        .collect();
    let missing: Vec<&&str> = ids.iter().filter(|i| !model_ids.contains(**i)).collect();
    assert!(missing.is_empty(), "not in the model: {missing:?}");
}

/// Ids of loop bodies and branch transitions' behaviours: SoMoX links those too (12 of 61).
fn behaviour_ids(repo: &beagle_pcm::model::Repository) -> Vec<&str> {
    repo.actions()
        .flat_map(|a| a.body.behaviours())
        .filter_map(|b| b.id.as_deref())
        .collect()
}

#[test]
fn missing_sources_name_the_class() {
    let root = dir("palladiofileshare");
    // No class of the file is there: every link is a warning of its own, none stops the reading.
    let set = read_links(&root.join(REAL_XML), &root, &[PathBuf::from("src")]).unwrap();
    assert!(set.links.is_empty());
    assert_eq!(set.problems.len(), 61);
    assert!(set.problems.iter().all(|p| p.severity == beagle_pcm::Severity::Warning));
    let err = &set.problems[0];
    assert_eq!(err.line, Some(5));
    let text = err.to_string();
    assert!(text.contains(REAL_XML), "{text}");
    assert!(text.contains("_DrQdUue1EeW5NafnxUciog"), "{text}");
    assert!(
        text.contains("class `de.uka.ipd.sdq.palladiofileshare.algorithms.SimpleLZW`: no `de/uka/ipd/sdq/palladiofileshare/algorithms/SimpleLZW.java` under the source roots (`src`)"),
        "{text}"
    );
}

#[test]
fn a_class_without_a_file_names_the_class_the_file_and_the_roots() {
    use beagle_java::links::beagle_xml::{class_file, ClassError};
    let root = dir("palladiofileshare");
    let sources = Sources::new(&root);
    let e = class_file("a.b.C$D", &sources, &[PathBuf::from("src"), root.join("lib")]).unwrap_err();
    let ClassError::NoFile { class, file, roots } = &e else {
        panic!("{e}")
    };
    assert_eq!(class, "a.b.C$D");
    assert_eq!(file, Path::new("a/b/C/D.java"));
    assert_eq!(roots, &[PathBuf::from("src"), PathBuf::from("lib")]);
    assert_eq!(
        e.to_string(),
        "class `a.b.C$D`: no `a/b/C/D.java` under the source roots (`src`, `lib`)"
    );
    assert!(matches!(
        class_file("a..C", &sources, &[]),
        Err(ClassError::NotAClassName { class }) if class == "a..C"
    ));
}

#[test]
fn rejects_what_is_not_a_link_file() {
    let p = Path::new("x.xml");
    let root = dir("quirks");
    let e = parse_links(b"<a/>", p, &root, &[]).unwrap_err();
    assert!(e.message.contains("not a PcmSourceStatementLinkRepository"), "{e}");
    let bad = b"<PcmSourceStatementLinkRepository>\n<PcmSourceStatementLink pcmElementId=\"_a\">\n<FirstStatement sourceCodeFile=\"q.Quirks\">abc</FirstStatement></PcmSourceStatementLink></PcmSourceStatementLinkRepository>";
    // A damaged offset is a warning about its link; the file is still read.
    let set = parse_links(bad, p, &root, &[PathBuf::from("src")]).unwrap();
    assert!(set.links.is_empty());
    let e = &set.problems[0];
    assert_eq!(
        (e.line, e.message.as_str(), e.severity),
        (
            Some(3),
            "`_a`: `abc` is not a character offset",
            beagle_pcm::Severity::Warning
        )
    );
}

/// The Java of `quirks/` with UTF-16 offsets of marked places.
struct Quirks {
    text: String,
}

impl Quirks {
    fn load() -> Quirks {
        Quirks {
            text: std::fs::read_to_string(dir("quirks").join("src/q/Quirks.java")).unwrap(),
        }
    }

    fn byte(&self, s: &str) -> usize {
        self.text.find(s).unwrap_or_else(|| panic!("{s} not in Quirks.java"))
    }

    /// UTF-16 offset of a byte offset: the file has non-ASCII text before the code.
    fn chars(&self, byte: usize) -> usize {
        self.text[..byte].encode_utf16().count()
    }
}

#[test]
fn offsets_resolve_in_all_three_ways() {
    let q = Quirks::load();
    let java = JavaFile::parse(q.text.clone()).unwrap();
    assert_ne!(
        q.chars(q.byte("int sum")),
        q.byte("int sum"),
        "the test needs non-ASCII text"
    );
    let text_at = |byte: usize| java.text_of(resolve_offset(&java, byte).unwrap()).to_string();
    // The schema's way: a statement's first character.
    assert_eq!(text_at(q.byte("sum += data[i];")), "sum += data[i];");
    // JaMoPP's `;`.
    assert_eq!(text_at(q.byte("sum += data[i];") + 14), "sum += data[i];");
    // JaMoPP's whitespace before a statement, also inside a loop body (not the loop).
    assert_eq!(text_at(q.byte("sum += data[i];") - 1), "sum += data[i];");
    assert_eq!(text_at(q.byte("\n            sink.put")), "sink.put(i);");
    // A loop's closing brace is the loop's end.
    assert!(text_at(q.byte("}\n        if")).starts_with("for (int i"));
}

#[test]
fn resolves_links_to_whole_statements_and_converts_to_own_format() {
    let q = Quirks::load();
    let root = dir("quirks");
    let c = |s: &str, delta: isize| q.chars((q.byte(s) as isize + delta) as usize);
    let xml = format!(
        r#"<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<ns2:PcmSourceStatementLinkRepository xmlns:ns2="http://sdq.ipd.uka.de/beagle/core/pcmsourcestatementlink">
    <PcmRepositoryFile hash="0"/>
    <PcmSourceStatementLink pcmElementId="_init">
        <FirstStatement sourceCodeFile="q.Quirks">{init}</FirstStatement>
    </PcmSourceStatementLink>
    <PcmSourceStatementLink pcmElementId="_loop">
        <FirstStatement sourceCodeFile="q.Quirks">{loop_first}</FirstStatement>
        <LastStatement sourceCodeFile="q.Quirks">{loop_last}</LastStatement>
    </PcmSourceStatementLink>
    <PcmSourceStatementLink pcmElementId="_sum_ia">
        <FirstStatement sourceCodeFile="q.Quirks">{sum}</FirstStatement>
    </PcmSourceStatementLink>
    <PcmSourceStatementLink pcmElementId="_put">
        <FirstStatement sourceCodeFile="q.Quirks">{put}</FirstStatement>
    </PcmSourceStatementLink>
    <PcmSourceStatementLink pcmElementId="_branch">
        <FirstStatement sourceCodeFile="q.Quirks">{branch}</FirstStatement>
    </PcmSourceStatementLink>
    <PcmSourceStatementLink pcmElementId="_halve">
        <FirstStatement sourceCodeFile="q.Quirks">{halve}</FirstStatement>
    </PcmSourceStatementLink>
    <PcmSourceStatementLink pcmElementId="_ret">
        <FirstStatement sourceCodeFile="q.Quirks">{ret}</FirstStatement>
    </PcmSourceStatementLink>
    <SourceCodeFileHash sourceCodeFile="q.Quirks">0</SourceCodeFileHash>
</ns2:PcmSourceStatementLinkRepository>
"#,
        init = c("int sum = 0;", -1),
        loop_first = c("for (int i", 0),
        loop_last = c("}\n        if", 0),
        sum = c("sum += data[i];", 14),
        put = c("sink.put(i);", 11),
        branch = c("if (sum > 10)", 0),
        halve = c("sum = sum / 2;", -1),
        ret = c("return sum;", 10),
    );
    let path = root.join("links.xml");
    let links = parse_links(xml.as_bytes(), &path, &root, &[PathBuf::from("src")])
        .unwrap()
        .links;
    let got: Vec<(&str, &str)> = links
        .iter()
        .map(|l| (l.element.as_str(), &q.text[l.range.clone()]))
        .map(|(e, t)| (e, t.lines().next().unwrap()))
        .collect();
    assert_eq!(
        got,
        [
            ("_init", "int sum = 0;"),
            ("_loop", "for (int i = 0; i < data.length; i++) {"),
            ("_sum_ia", "sum += data[i];"),
            ("_put", "sink.put(i);"),
            ("_branch", "if (sum > 10) {"),
            ("_halve", "sum = sum / 2;"),
            ("_ret", "return sum;"),
        ]
    );
    assert!(links.iter().all(|l| l.file == Path::new("src/q/Quirks.java")));
    assert_eq!(
        links[1].origin,
        LinkOrigin::File {
            path: path.clone(),
            line: 7
        }
    );
    assert!(q.text[links[1].range.clone()].ends_with("sink.put(i);\n        }"));

    // The model agrees with every link.
    let mut models = ModelSet::new();
    models.load(&root.join("Quirks.repository")).unwrap();
    let errors = validate(&links, &models, &root);
    assert!(errors.is_empty(), "{errors:?}");

    // Converted to Beagle's own format and read back: the same code.
    let toml = beagle_java::links::own::write(&links, &mut Sources::new(&root)).unwrap();
    assert!(
        toml.contains("element = \"_loop\"\nfile = \"src/q/Quirks.java\"\nfrom = \"9:9\"\nto = \"12:9\""),
        "{toml}"
    );
    let again = parse_links(toml.as_bytes(), &root.join("links.toml"), &root, &[])
        .unwrap()
        .links;
    let ranges = |ls: &[beagle_java::links::CodeLink]| {
        let mut v: Vec<(String, std::ops::Range<usize>)> =
            ls.iter().map(|l| (l.element.clone(), l.range.clone())).collect();
        v.sort_by(|a, b| a.0.cmp(&b.0));
        v
    };
    assert_eq!(ranges(&links), ranges(&again));
}

#[test]
fn converts_a_link_file_to_the_own_format() {
    let q = Quirks::load();
    let root = dir("quirks");
    let out = tempfile::tempdir().unwrap();
    let path = out.path().join("links.xml");
    let loop_first = q.chars(q.byte("for (int i"));
    let loop_last = q.chars(q.byte("}\n        if"));
    std::fs::write(
        &path,
        format!(
            "<PcmSourceStatementLinkRepository>\n<PcmSourceStatementLink pcmElementId=\"_loop\">\n\
             <FirstStatement sourceCodeFile=\"q.Quirks\">{loop_first}</FirstStatement>\n\
             <LastStatement sourceCodeFile=\"q.Quirks\">{loop_last}</LastStatement>\n\
             </PcmSourceStatementLink>\n</PcmSourceStatementLinkRepository>\n"
        ),
    )
    .unwrap();
    let toml = beagle_java::links::beagle_xml::convert(&path, &root, &[root.join("src")]).unwrap();
    assert!(
        toml.ends_with(
            "\n[[link]]\nelement = \"_loop\"\nfile = \"src/q/Quirks.java\"\nfrom = \"9:9\"\nto = \"12:9\"\n"
        ),
        "{toml}"
    );
}

/// The XML of `quirks/` links `_init`, `_loop`, `_sum_ia`, `_put` and `_ret` at SoMoX-style
/// offsets (all three kinds), with `hash` as the class's MD5.
fn quirks_links(q: &Quirks, hash: &str) -> String {
    let c = |s: &str, delta: isize| q.chars((q.byte(s) as isize + delta) as usize);
    let link = |id: &str, first: usize, last: Option<usize>| {
        let last = last.map_or(String::new(), |l| {
            format!("<LastStatement sourceCodeFile=\"q.Quirks\">{l}</LastStatement>")
        });
        format!("<PcmSourceStatementLink pcmElementId=\"{id}\"><FirstStatement sourceCodeFile=\"q.Quirks\">{first}</FirstStatement>{last}</PcmSourceStatementLink>\n")
    };
    format!(
        "<PcmSourceStatementLinkRepository>\n{}{}{}{}{}<SourceCodeFileHash sourceCodeFile=\"q.Quirks\">{hash}</SourceCodeFileHash>\n</PcmSourceStatementLinkRepository>\n",
        link("_init", c("int sum = 0;", -1), None),
        link("_loop", c("for (int i", 0), Some(c("}\n        if", 0))),
        link("_sum_ia", c("sum += data[i];", 14), None),
        link("_put", c("sink.put(i);", 11), None),
        link("_ret", c("return sum;", 10), None),
    )
}

fn md5_hex(bytes: &[u8]) -> String {
    use md5::Digest;
    md5::Md5::digest(bytes).iter().map(|b| format!("{b:02x}")).collect()
}

/// The statement texts (first line) the links of `set` resolve to, by element.
fn statements(set: &beagle_java::links::LinkSet, text: &str) -> Vec<(String, String)> {
    set.links
        .iter()
        .map(|l| {
            (
                l.element.clone(),
                text[l.range.clone()].lines().next().unwrap().to_string(),
            )
        })
        .collect()
}

#[test]
fn links_into_a_changed_class_are_re_anchored_by_its_hash() {
    let q = Quirks::load();
    let original = std::fs::read(dir("quirks").join("src/q/Quirks.java")).unwrap();
    let xml = quirks_links(&q, &md5_hex(&original));
    let before = parse_links(
        xml.as_bytes(),
        Path::new("links.xml"),
        &dir("quirks"),
        &[PathBuf::from("src")],
    )
    .unwrap();
    assert!(before.problems.is_empty(), "hash agrees: {:?}", before.problems);
    assert_eq!(before.links.len(), 5);

    // The class got a header comment and an import since the links were made.
    let ws = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(ws.path().join("src/q")).unwrap();
    let added = "// Edited after the links were made.\nimport java.util.List;\n";
    let changed = format!("{added}{}", q.text);
    std::fs::write(ws.path().join("src/q/Quirks.java"), &changed).unwrap();
    let after = parse_links(
        xml.as_bytes(),
        Path::new("links.xml"),
        ws.path(),
        &[PathBuf::from("src")],
    )
    .unwrap();
    assert_eq!(statements(&after, &changed), statements(&before, &q.text));
    assert_eq!(after.problems.len(), 5, "{:?}", after.problems);
    let shift = added.encode_utf16().count();
    for p in &after.problems {
        assert_eq!(p.severity, beagle_pcm::Severity::Info, "{p}");
        assert!(p.message.starts_with("re-anchored: `q.Quirks` changed"), "{p}");
        assert!(p.message.contains(&format!("moved by +{shift} characters")), "{p}");
        assert!(p.message.contains("confidence 1.00"), "{p}");
    }

    // The quick fix writes the positions in and the class's hash: read again, the links are
    // where they were re-anchored to, and nothing is left to say.
    let (fixed, moved) = beagle_java::links::beagle_xml::reanchored_text(
        &xml,
        Path::new("links.xml"),
        &mut Sources::new(ws.path()),
        &[PathBuf::from("src")],
    )
    .unwrap()
    .unwrap();
    assert_eq!(moved, 6, "five links, one with a last statement");
    assert!(fixed.contains(&md5_hex(changed.as_bytes())), "{fixed}");
    let again = parse_links(
        fixed.as_bytes(),
        Path::new("links.xml"),
        ws.path(),
        &[PathBuf::from("src")],
    )
    .unwrap();
    assert!(again.problems.is_empty(), "{:?}", again.problems);
    assert_eq!(statements(&again, &changed), statements(&before, &q.text));
    // An unchanged class has nothing to fix.
    let fresh = beagle_java::links::beagle_xml::reanchored_text(
        &fixed,
        Path::new("links.xml"),
        &mut Sources::new(ws.path()),
        &[PathBuf::from("src")],
    )
    .unwrap();
    assert!(fresh.is_none());

    // Rewritten beyond recognition: every link is a warning, nothing binds to the wrong code.
    let rewritten = "package q;\nclass Quirks {\n    int f() { return 1; }\n}\n";
    std::fs::write(ws.path().join("src/q/Quirks.java"), rewritten).unwrap();
    let lost = parse_links(
        xml.as_bytes(),
        Path::new("links.xml"),
        ws.path(),
        &[PathBuf::from("src")],
    )
    .unwrap();
    assert!(lost.links.is_empty(), "{:?}", statements(&lost, rewritten));
    assert_eq!(lost.problems.len(), 5);
    assert!(
        lost.problems
            .iter()
            .all(|p| p.severity == beagle_pcm::Severity::Warning && p.message.contains("cannot be re-anchored")),
        "{:?}",
        lost.problems
    );
}
