//! Beagle's own link format: reading, errors that name the place, validation against the model,
//! and the writer (a round trip through arbitrary Java).

use beagle_java::links::{own, parse_links, read_links, validate, CodeLink, LinkOrigin, Sources};
use beagle_java::syntax::JavaFile;
use beagle_pcm::{ModelSet, Severity};
use proptest::prelude::*;
use std::path::{Path, PathBuf};

fn quirks() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/links/quirks")
}

fn models() -> ModelSet {
    let mut m = ModelSet::new();
    m.load(&quirks().join("Quirks.repository")).unwrap();
    m
}

/// The links of `text`, or its first problem (a damaged file, or a link that does not resolve).
fn parse(text: &str) -> Result<Vec<CodeLink>, beagle_java::links::LinkError> {
    let set = parse_links(text.as_bytes(), Path::new("links.toml"), &quirks(), &[])?;
    match set.problems.into_iter().next() {
        Some(problem) => Err(problem),
        None => Ok(set.links),
    }
}

#[test]
fn a_link_that_does_not_resolve_costs_only_itself() {
    let text = [
        link("_a", "10:13", "10:27"),
        link("_gone", "10:13", "10:27").replace("Quirks.java", "Gone.java"),
        link("_late", "900:1", "900:2"),
        link("_b", "8:9", "8:20"),
    ]
    .concat();
    let set = parse_links(text.as_bytes(), Path::new("links.toml"), &quirks(), &[]).unwrap();
    let linked: Vec<&str> = set.links.iter().map(|l| l.element.as_str()).collect();
    assert_eq!(linked, ["_a", "_b"]);
    let problems: Vec<(Option<usize>, bool, beagle_pcm::Severity)> = set
        .problems
        .iter()
        .map(|p| {
            (
                p.line,
                p.message
                    .starts_with(if p.line == Some(6) { "`_gone`" } else { "`_late`" }),
                p.severity,
            )
        })
        .collect();
    assert_eq!(
        problems,
        [
            (Some(6), true, beagle_pcm::Severity::Warning),
            (Some(11), true, beagle_pcm::Severity::Warning)
        ]
    );
}

fn link(element: &str, from: &str, to: &str) -> String {
    format!("[[link]]\nelement = \"{element}\"\nfile = \"src/q/Quirks.java\"\nfrom = \"{from}\"\nto = \"{to}\"\n")
}

#[test]
fn reads_links_as_whole_nodes() {
    let root = quirks();
    let links = read_links(&root.join("links.toml"), &root, &[]).unwrap().links;
    let java = std::fs::read_to_string(root.join("src/q/Quirks.java")).unwrap();
    let texts: Vec<&str> = links.iter().map(|l| &java[l.range.clone()]).collect();
    assert!(texts[0].starts_with("public int work(int[] data) {") && texts[0].ends_with("return sum;\n    }"));
    assert!(texts[1].starts_with("for (int i") && texts[1].ends_with("}"));
    assert_eq!(texts[2], "sum += data[i];");
    assert_eq!(links[2].name.as_deref(), Some("sum up"));
    assert_eq!(
        links[1].origin,
        LinkOrigin::File {
            path: root.join("links.toml"),
            line: 8
        }
    );
    assert!(validate(&links, &models(), &root).is_empty());
}

#[test]
fn a_range_inside_statements_grows_to_whole_statements() {
    // From the middle of `int sum = 0;` to the middle of the loop's first body statement: the
    // nodes are lifted until they are siblings (the declaration and the loop).
    let links = parse(&link("_x", "8:13", "10:17")).unwrap();
    let java = std::fs::read_to_string(quirks().join("src/q/Quirks.java")).unwrap();
    let text = &java[links[0].range.clone()];
    assert!(
        text.starts_with("int sum = 0;") && text.ends_with("sink.put(i);\n        }"),
        "{text}"
    );
}

#[test]
fn errors_name_the_file_and_line() {
    let cases = [
        (
            "[[link]]\nelement = 1\n",
            2,
            "invalid type: integer `1`, expected a string",
        ),
        (
            "[[link]]\nelement = \"a\"\nfile = \"x\"\nfrom = \"1:1\"\nto = \"1:2\"\ncolour = 1\n",
            6,
            "unknown field `colour`, expected one of `element`, `name`, `file`, `from`, `to`, `class`",
        ),
        (&link("_a", "9", "10:1"), 1, "`_a`: from = \"9\" is not \"line:column\""),
        (
            &link("_a", "99:1", "100:1"),
            1,
            "`_a`: from = \"99:1\" is not in `src/q/Quirks.java` (18 lines)",
        ),
        (
            &link("_a", "10:5", "9:1"),
            1,
            "`_a`: to = \"9:1\" is before from = \"10:5\"",
        ),
        (
            &format!("{}\n{}", link("_a", "10:13", "10:27"), link("_b", "3:1", "3:3")),
            7,
            "`_b`: no statement or method between 3:1 and 3:3 in `src/q/Quirks.java`",
        ),
        (
            &link("_a", "2:1", "2:3"),
            1,
            "`_a`: to = \"2:3\" is not in `src/q/Quirks.java` (line 2 has 0 characters)",
        ),
        (
            &link("_a", "10:13", "10:27").replace("src/q", "../quirks/src/q"),
            1,
            "`_a`: `../quirks/src/q/Quirks.java` leaves the workspace",
        ),
        (
            &link("_a", "10:13", "10:27").replace("src/q", "/etc/q"),
            1,
            "`_a`: `/etc/q/Quirks.java` is absolute: paths are relative to the workspace",
        ),
    ];
    for (text, line, message) in cases {
        let e = parse(text).unwrap_err();
        assert_eq!((e.line, e.message.as_str()), (Some(line), message), "{text}");
        assert!(e.to_string().starts_with(&format!("links.toml:{line}: ")));
    }
}

#[test]
fn a_symlink_out_of_the_workspace_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let outside = tempfile::tempdir().unwrap();
    std::fs::write(outside.path().join("X.java"), "class X { void f() { g(); } }").unwrap();
    std::os::unix::fs::symlink(outside.path(), dir.path().join("src")).unwrap();
    let text = "[[link]]\nelement = \"_a\"\nfile = \"src/X.java\"\nfrom = \"1:22\"\nto = \"1:25\"\n";
    let set = parse_links(text.as_bytes(), Path::new("links.toml"), dir.path(), &[]).unwrap();
    assert!(set.links.is_empty());
    assert!(
        set.problems[0].message.contains("leads out of the workspace"),
        "{:?}",
        set.problems
    );
}

#[test]
fn validation_names_link_element_and_problem() {
    let text = [
        link("_loop", "10:13", "10:27"),
        link("_nothing", "10:13", "10:27"),
        link("_branch", "9:9", "12:9"),
        link("_put", "8:9", "8:20"),
        link("_work_seff", "8:9", "8:20"),
        link("_sum_ia", "10:13", "10:27").replace("[[link]]\n", "[[link]]\nname = \"add\"\n"),
        link("_halve", "10:13", "11:25"),
    ]
    .join("\n");
    let links = parse(&text).unwrap();
    let errors: Vec<String> = validate(&links, &models(), &quirks())
        .iter()
        .map(|e| e.to_string())
        .collect();
    assert_eq!(
        errors,
        [
            "links.toml:1: _loop (for each): a LoopAction links to one loop statement, not to expression_statement (code at src/q/Quirks.java:10:13)",
            "links.toml:7: _nothing: no such element in the model",
            "links.toml:13: _branch (halve if large): a BranchAction links to one if or switch, not to enhanced_for_statement (code at src/q/Quirks.java:9:9)"
                .replace("enhanced_for_statement", "for_statement")
                .as_str(),
            "links.toml:19: _put (put): an ExternalCallAction links to one statement with a method call, not to local_variable_declaration (code at src/q/Quirks.java:8:9)",
            "links.toml:25: _work_seff (work): a SEFF links to a method declaration, not to local_variable_declaration (code at src/q/Quirks.java:8:9)",
            "links.toml:31: warning: _sum_ia (sum up): named `add` here, `sum up` in the model",
        ]
    );
    let all = validate(&links, &models(), &quirks());
    assert_eq!(all[5].severity, Severity::Warning);
    // A file that is gone.
    let mut gone = links[0].clone();
    gone.element = "_sum_ia".into();
    gone.file = "src/q/Gone.java".into();
    let e = validate(&[gone], &models(), &quirks());
    assert!(e[0].message.starts_with("cannot read `src/q/Gone.java`"), "{:?}", e);
}

/// A statement of a generated method body, nested at most `depth` deep.
fn statement(depth: u32) -> BoxedStrategy<String> {
    let leaf = prop_oneof![
        (0..100i32).prop_map(|k| format!("x = {k};")),
        "[a-zé𝄞 ]{0,6}".prop_map(|s| format!("log(\"{s}\");")),
        Just("// note\n        y++;".to_string()),
    ];
    if depth == 0 {
        return leaf.boxed();
    }
    let body = prop::collection::vec(statement(depth - 1), 1..4);
    prop_oneof![
        3 => leaf,
        1 => body.clone().prop_map(|b| format!("for (int i = 0; i < n; i++) {{\n{}\n}}", b.join("\n"))),
        1 => (body.clone(), body).prop_map(|(t, e)| format!("if (n > 1) {{\n{}\n}} else {{\n{}\n}}", t.join("\n"), e.join("\n"))),
    ]
    .boxed()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Writing links and reading them back gives the same elements, files and ranges.
    #[test]
    fn write_then_read_is_identity(
        body in prop::collection::vec(statement(2), 1..6),
        picks in prop::collection::vec((any::<usize>(), any::<usize>(), any::<usize>()), 1..6),
    ) {
        let dir = tempfile::tempdir().unwrap();
        let text = format!("/* ü */ class A {{\n    void m(int n) {{\n{}\n    }}\n}}\n", body.join("\n"));
        std::fs::create_dir_all(dir.path().join("src")).unwrap();
        std::fs::write(dir.path().join("src/A.java"), &text).unwrap();
        let java = JavaFile::parse(text.clone()).unwrap();
        let blocks = java.blocks(java.root());
        let mut links = Vec::new();
        for (k, (b, i, j)) in picks.into_iter().enumerate() {
            let block = blocks[b % blocks.len()];
            let mut cursor = block.walk();
            let stmts: Vec<_> = block.named_children(&mut cursor).filter(|n| beagle_java::syntax::is_statement(*n)).collect();
            let range = if stmts.is_empty() || k == 0 {
                let m = java.methods(java.class("A").unwrap())[0].range.clone();
                m
            } else {
                let (i, j) = (i % stmts.len(), j % stmts.len());
                stmts[i.min(j)].start_byte()..stmts[i.max(j)].end_byte()
            };
            links.push(CodeLink {
                element: format!("_e{k}"),
                name: (k % 2 == 0).then(|| format!("name \"{k}\" ü")),
                file: PathBuf::from("src/A.java"),
                range,
                origin: LinkOrigin::File { path: PathBuf::from("x"), line: 1 },
                receiver: (k % 3 == 0).then(|| format!("a.B{k}$Inner")),
            });
        }
        let written = own::write(&links, &mut Sources::new(dir.path())).unwrap();
        let read = parse_links(written.as_bytes(), Path::new("links.toml"), dir.path(), &[]).unwrap().links;
        let key = |l: &CodeLink| (l.element.clone(), l.name.clone(), l.file.clone(), l.range.clone());
        let mut want: Vec<_> = links.iter().map(key).collect();
        let mut got: Vec<_> = read.iter().map(key).collect();
        want.sort_by(|a, b| a.0.cmp(&b.0));
        got.sort_by(|a, b| a.0.cmp(&b.0));
        prop_assert_eq!(want, got, "{}", written);
        // Stable: writing what was read gives the same text.
        prop_assert_eq!(own::write(&read, &mut Sources::new(dir.path())).unwrap(), written);
    }
}

/// Issue 50: `[[input]]` gives a characterisation as a Java expression; one that names no
/// characterisation is a warning at its line, and the others are read.
#[test]
fn inputs_give_a_characterisation_in_java_and_a_bad_one_is_a_warning_at_its_line() {
    let text = "[[input]]\nelement = \"_pack\"\ncharacterisation = \"items.BYTESIZE\"\njava = \" items.size() \"\n\n[[input]]\nelement = \"_pack\"\ncharacterisation = \"items\"\njava = \"1\"\n";
    let dir = tempfile::tempdir().unwrap();
    let set = parse_links(text.as_bytes(), Path::new("links.toml"), dir.path(), &[]).unwrap();
    assert_eq!(set.inputs.len(), 1);
    let given = &set.inputs[0];
    assert_eq!(
        (
            given.service.as_str(),
            given.variable.as_str(),
            given.characterisation.as_str(),
            given.java.as_str(),
            given.line
        ),
        ("_pack", "items", "BYTESIZE", "items.size()", 1)
    );
    assert_eq!(set.problems.len(), 1);
    assert_eq!(
        set.problems[0].to_string(),
        "links.toml:6: warning: `_pack`: [[input]] characterisation = \"items\" is not `variable.VALUE` or `variable.BYTESIZE` or `variable.NUMBER_OF_ELEMENTS`"
    );
}
