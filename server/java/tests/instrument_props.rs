//! Properties of the rewrite on the test inputs: any set of well-formed sites (calls, timed single
//! statements, loops, branches, services, nested as they come) gives Java that parses without
//! errors, keeps every original line in order, and records every site. javac runs in
//! tests/instrument.rs; here many combinations are checked cheaply with tree-sitter.

use beagle_java::instrument::{instrument, Site, SiteKind};
use beagle_java::sections::SectionTable;
use proptest::prelude::*;

const FILES: &[&str] = &["EarlyReturn", "Loops", "Branches", "Lambdas", "Odds"];

fn parse(src: &str) -> tree_sitter::Tree {
    let mut parser = tree_sitter::Parser::new();
    parser.set_language(&tree_sitter_java::LANGUAGE.into()).unwrap();
    parser.parse(src, None).unwrap()
}

/// Every place of the file where a site of some kind is well-formed.
fn candidates(src: &str) -> Vec<Site> {
    let tree = parse(src);
    let mut out = Vec::new();
    let mut stack = vec![tree.root_node()];
    while let Some(n) = stack.pop() {
        let parent = n.parent().map(|p| p.kind()).unwrap_or("");
        let in_block = matches!(parent, "block" | "constructor_body" | "switch_block_statement_group");
        let range = n.byte_range();
        match n.kind() {
            "method_declaration" | "constructor_declaration" => out.push(Site {
                range,
                kind: SiteKind::Service { section: 0 },
            }),
            "for_statement" | "enhanced_for_statement" | "while_statement" | "do_statement" => out.push(Site {
                range,
                kind: SiteKind::Loop { section: 1 },
            }),
            "expression_statement" | "return_statement" if in_block => {
                out.push(Site {
                    range: range.clone(),
                    kind: SiteKind::Call { section: 2 },
                });
                out.push(Site {
                    range,
                    kind: SiteKind::Demand { section: 3, cpu: true },
                });
            }
            // Declarations used later are hoisted (`var` cannot be: an error, tested elsewhere).
            "local_variable_declaration"
                if in_block && &src[n.child_by_field_name("type").unwrap().byte_range()] != "var" =>
            {
                out.push(Site {
                    range,
                    kind: SiteKind::Demand { section: 4, cpu: false },
                })
            }
            "if_statement" if parent != "if_statement" => {
                let mut count = 2;
                let mut at = n;
                while let Some(alt) = at
                    .child_by_field_name("alternative")
                    .filter(|a| a.kind() == "if_statement")
                {
                    count += 1;
                    at = alt;
                }
                out.push(Site {
                    range,
                    kind: SiteKind::Branch {
                        transitions: (10..10 + count).collect(),
                    },
                })
            }
            _ => {}
        }
        let mut c = n.walk();
        stack.extend(n.children(&mut c));
    }
    out
}

fn has_error(node: tree_sitter::Node) -> bool {
    node.has_error() || node.is_missing()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn any_sites_give_parsable_java(file in 0..FILES.len(), picks in proptest::collection::vec(any::<bool>(), 0..200)) {
        let path = format!("{}/tests/java/{}.java", env!("CARGO_MANIFEST_DIR"), FILES[file]);
        let src = std::fs::read_to_string(path).unwrap();
        let all = candidates(&src);
        let sites: Vec<Site> = all.into_iter().zip(picks.iter().chain(std::iter::repeat(&false))).filter(|(_, p)| **p).map(|(s, _)| s).collect();
        let out = instrument(&src, &sites, &mut SectionTable::default()).unwrap();
        prop_assert!(!has_error(parse(&out).root_node()), "does not parse:\n{out}");
        // Only insertions within lines (and small replacements in hoisted declarations): the
        // line count is kept.
        prop_assert_eq!(out.lines().count(), src.lines().count());
        let probes = out.matches("beagle.probe.Probe.").count();
        prop_assert!(probes >= sites.len());
        if sites.is_empty() {
            prop_assert_eq!(out, src);
        }
    }
}

/// Compiles `text` as CLASS with the probe runtime and runs it; its standard output.
fn compile_and_run(dir: &std::path::Path, class: &str, text: &str) -> String {
    use std::process::Command;
    std::fs::create_dir_all(dir.join("src")).unwrap();
    let file = dir.join("src").join(format!("{class}.java"));
    std::fs::write(&file, text).unwrap();
    let mut javac = Command::new("javac");
    javac
        .args(["--release", "17", "-nowarn", "-d"])
        .arg(dir.join("classes"))
        .arg(&file);
    for (path, source) in beagle_java::PROBE_SOURCES {
        let p = dir.join("probe").join(path);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(&p, source).unwrap();
        javac.arg(p);
    }
    let o = javac.output().unwrap();
    assert!(
        o.status.success(),
        "javac:\n{}\n{text}",
        String::from_utf8_lossy(&o.stderr)
    );
    let o = Command::new("java")
        .arg(format!("-Dbeagle.events={}", dir.join("events").display()))
        .arg("-cp")
        .arg(dir.join("classes"))
        .arg(class)
        .output()
        .unwrap();
    assert!(o.status.success(), "{class}: {}", String::from_utf8_lossy(&o.stderr));
    String::from_utf8(o.stdout).unwrap()
}

/// Every candidate site at once (calls and demands on the same statements, in loops, in
/// branches, in services): javac accepts the copy and the program prints the same.
#[test]
fn all_sites_at_once_compile_and_behave() {
    if std::process::Command::new("javac").arg("-version").output().is_err() {
        eprintln!("skipping: no javac on this machine");
        return;
    }
    for class in FILES {
        let path = format!("{}/tests/java/{class}.java", env!("CARGO_MANIFEST_DIR"));
        let src = std::fs::read_to_string(path).unwrap();
        let sites = candidates(&src);
        let out = instrument(&src, &sites, &mut SectionTable::default()).unwrap();
        let tmp = tempfile::tempdir().unwrap();
        let expected = compile_and_run(&tmp.path().join("original"), class, &src);
        let got = compile_and_run(&tmp.path().join("instrumented"), class, &out);
        assert_eq!(got, expected, "{class}");
        let events = std::fs::metadata(tmp.path().join("instrumented/events")).unwrap().len();
        assert!(events > 0 && events % 32 == 0, "{class}: {events} bytes of events");
    }
}
