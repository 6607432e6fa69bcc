//! Unit tests of the rewrite's text; compiling and running the result is tests/instrument.rs.

use super::*;

fn run(source: &str, sites: &[Site]) -> Result<String, InstrumentError> {
    instrument(source, sites, &mut SectionTable::default())
}

fn at(source: &str, needle: &str) -> Range<usize> {
    let s = source.find(needle).expect("needle in source");
    s..s + needle.len()
}

#[test]
fn nothing_to_do_gives_the_source() {
    let src = "class A { void m() { f(); } }";
    assert_eq!(run(src, &[]).unwrap(), src);
}

#[test]
fn call_in_an_if_without_braces_gets_braces() {
    let src = "class A { void m(boolean c) { if (c) f(); } }";
    let out = run(
        src,
        &[Site {
            range: at(src, "f();"),
            kind: SiteKind::Call { section: 3 },
        }],
    )
    .unwrap();
    assert_eq!(
        out,
        "class A { void m(boolean c) { if (c) { beagle.probe.Probe.call(3); f(); } } }"
    );
}

#[test]
fn nested_sites_wrap_in_order() {
    let src = "class A { void m() {f();} }";
    let sites = [
        Site {
            range: at(src, "f();"),
            kind: SiteKind::Call { section: 2 },
        },
        Site {
            range: at(src, "f();"),
            kind: SiteKind::Demand { section: 1, cpu: false },
        },
    ];
    let out = run(src, &sites).unwrap();
    assert_eq!(
        out,
        "class A { void m() {long __beagleT0 = beagle.probe.Probe.startWall(); try { beagle.probe.Probe.call(2); f(); } \
         finally { beagle.probe.Probe.stopWall(1, __beagleT0); }} }"
    );
}

#[test]
fn service_records_parameters_in_slots() {
    let src = "class A { int m(int a, String... b) { return a; } }";
    let mut table = SectionTable::default();
    let out = instrument(
        src,
        &[Site {
            range: at(src, "int m"),
            kind: SiteKind::Service { section: 0 },
        }],
        &mut table,
    )
    .unwrap();
    assert_eq!(table.slots, ["a", "b"]);
    assert!(
        out.contains("Probe.param(__beagleE0, 0, a); beagle.probe.Probe.param(__beagleE0, 1, b); try {"),
        "{out}"
    );
}

#[test]
fn constructor_enters_after_super() {
    let src = "class A extends B { A(int x) { super(x); g(); } }";
    let out = run(
        src,
        &[Site {
            range: at(src, "A(int x)"),
            kind: SiteKind::Service { section: 0 },
        }],
    )
    .unwrap();
    assert!(out.contains("super(x); long __beagleE0"), "{out}");
}

#[test]
fn names_avoid_the_users_names() {
    let src = "class A { void m() { int __beagleT0 = 1; f(); } }";
    let out = run(
        src,
        &[Site {
            range: at(src, "f();"),
            kind: SiteKind::Demand { section: 0, cpu: true },
        }],
    )
    .unwrap();
    assert!(out.contains("long __beagle0_T0 ="), "{out}");
}

#[test]
fn used_declarations_are_hoisted_and_others_stay() {
    let src = "class A { void m() { final int a = 1, b[] = {2}; int c = 3; int d; g(a, b); } }";
    let range = at(src, "final int a = 1, b[] = {2}; int c = 3; int d;");
    let out = run(
        src,
        &[Site {
            range,
            kind: SiteKind::Demand { section: 0, cpu: true },
        }],
    )
    .unwrap();
    assert!(out.contains("int a; int[] b; long __beagleT0"), "{out}");
    // `int d;` at the end runs nothing: it stays after the section, in the block's scope.
    assert!(
        out.contains("try { a = 1; b = new int[] {2}; int c = 3; } finally { beagle.probe.Probe.stopCpu(0, __beagleT0); } int d;"),
        "{out}"
    );
}

#[test]
fn declarations_without_initialiser_are_no_section() {
    let src = "class A { boolean ok(int n) { boolean isCopyrighted; int x, y; return n > 0; } }";
    let mut table = SectionTable::default();
    let site = Site {
        range: at(src, "boolean isCopyrighted; int x, y;"),
        kind: SiteKind::Demand { section: 3, cpu: true },
    };
    let out = instrument_report(src, std::slice::from_ref(&site), &mut table).unwrap();
    // Nothing is timed: a `try { }` around them would measure the probe alone.
    assert_eq!(out.text, src);
    assert_eq!(out.skipped.len(), 1);
    assert_eq!(out.skipped[0].site, site);
    assert_eq!(
        out.skipped[0].reason,
        "its code is only declarations without initialiser (`boolean isCopyrighted; int x, y;`): nothing runs \
         there to time"
    );
    // `instrument` gives the same text.
    assert_eq!(run(src, &[site]).unwrap(), src);
}

#[test]
fn a_section_starts_and_ends_at_code_that_runs() {
    // As the original Beagle's links have it: an internal action from a bare declaration to the
    // statement assigning it, and one more bare declaration.
    let src = "class A { boolean ok(int n) { boolean isCopyrighted; isCopyrighted = n > 3; int z, w = 1; int v; \
               return isCopyrighted; } }";
    let range = at(
        src,
        "boolean isCopyrighted; isCopyrighted = n > 3; int z, w = 1; int v;",
    );
    let out = instrument_report(
        src,
        &[Site {
            range,
            kind: SiteKind::Demand { section: 0, cpu: true },
        }],
        &mut SectionTable::default(),
    )
    .unwrap();
    assert!(out.skipped.is_empty());
    // `int z, w = 1;` initialises `w`: it runs, so the section ends after it (hoisted: `z` and `w`
    // are not used later, so it stays as it is). The bare declarations around stay outside.
    assert_eq!(
        out.text,
        "class A { boolean ok(int n) { boolean isCopyrighted; long __beagleT0 = beagle.probe.Probe.startCpu(0); \
         try { isCopyrighted = n > 3; int z, w = 1; } finally { beagle.probe.Probe.stopCpu(0, __beagleT0); } \
         int v; return isCopyrighted; } }"
    );
}

#[test]
fn hoisting_a_var_is_an_error_with_its_line() {
    let src = "class A {\n void m() {\n  var a = 1;\n  g(a);\n }\n}";
    let err = run(
        src,
        &[Site {
            range: at(src, "var a = 1;"),
            kind: SiteKind::Demand { section: 0, cpu: true },
        }],
    )
    .unwrap_err();
    assert_eq!((err.line, err.column), (3, 3));
    assert!(err.message.contains("var a"), "{err}");
}

#[test]
fn wrong_ranges_are_errors() {
    let src = "class A {\n void m() {\n  f();\n  { g(); }\n }\n}";
    let e = |kind: SiteKind, range| run(src, &[Site { range, kind }]).unwrap_err();
    assert!(e(SiteKind::Loop { section: 0 }, at(src, "f();"))
        .message
        .contains("not a loop"));
    assert!(e(SiteKind::Branch { transitions: vec![0] }, at(src, "f();"))
        .message
        .contains("not an if"));
    assert!(e(SiteKind::Service { section: 0 }, at(src, "f();"))
        .message
        .contains("not a method"));
    let err = e(SiteKind::Demand { section: 0, cpu: true }, at(src, "f();\n  { g();"));
    assert_eq!((err.line, err.message.contains("one block")), (3, true));
}

#[test]
fn if_chain_without_else_gets_one() {
    let src = "class A { void m(int x) { if (x > 1) f(); else if (x > 0) { g(); } } }";
    let out = run(
        src,
        &[Site {
            range: at(src, "if (x > 1) f(); else if (x > 0) { g(); }"),
            kind: SiteKind::Branch {
                transitions: vec![5, 6, 7],
            },
        }],
    )
    .unwrap();
    assert_eq!(
        out,
        "class A { void m(int x) { if (x > 1) { beagle.probe.Probe.branch(5); f(); } else if (x > 0) { \
         beagle.probe.Probe.branch(6); g(); } else { beagle.probe.Probe.branch(7); } } }"
    );
}

#[test]
fn switch_groups_with_several_labels_are_one_transition() {
    let src = "class A { void m(int x) { switch (x) { case 1: case 2: f(); break; default: g(); } } }";
    let range = at(src, "switch (x) { case 1: case 2: f(); break; default: g(); }");
    let out = run(
        src,
        &[Site {
            range,
            kind: SiteKind::Branch {
                transitions: vec![1, 2],
            },
        }],
    )
    .unwrap();
    assert!(
        out.contains("case 1: case 2: beagle.probe.Probe.branch(1); f();"),
        "{out}"
    );
    assert!(out.contains("default: beagle.probe.Probe.branch(2); g();"), "{out}");
}

#[test]
fn labelled_loops_are_wrapped_with_their_label() {
    let src = "class A { void m() { outer: for (;;) g(); } }";
    let out = run(
        src,
        &[Site {
            range: at(src, "for (;;) g();"),
            kind: SiteKind::Loop { section: 4 },
        }],
    )
    .unwrap();
    assert_eq!(
        out,
        "class A { void m() { { int __beagleL0 = 0; try { outer: for (;;) { __beagleL0++; g(); } } \
         finally { beagle.probe.Probe.loop(4, __beagleL0); } } } }"
    );
}

#[test]
fn sites_that_overlap_without_nesting_are_errors() {
    let src = "class A {\n void m() {\n  f();\n  for (;;) { g(); }\n }\n}";
    let sites = [
        Site {
            range: at(src, "f();\n  for (;;) { g(); }"),
            kind: SiteKind::Demand { section: 0, cpu: true },
        },
        Site {
            range: at(src, "for (;;) { g(); }"),
            kind: SiteKind::Loop { section: 1 },
        },
        Site {
            range: at(src, "g();"),
            kind: SiteKind::Call { section: 2 },
        },
    ];
    assert!(run(src, &sites).is_ok());
    let bad = [
        Site {
            range: at(src, "f();\n  for (;;) { g(); }"),
            kind: SiteKind::Demand { section: 0, cpu: true },
        },
        Site {
            range: at(src, "g(); }\n }"),
            kind: SiteKind::Service { section: 1 },
        },
    ];
    assert!(run(src, &bad).is_err());
}

#[test]
fn an_added_else_stays_inside_a_section_around_its_if() {
    let src = "class A { void m(int x) { if (x > 1) f(); else if (x > 0) g(); } }";
    let sites = [
        Site {
            range: at(src, "if (x > 1) f(); else if (x > 0) g();"),
            kind: SiteKind::Branch {
                transitions: vec![1, 2, 3],
            },
        },
        Site {
            range: at(src, "if (x > 0) g();"),
            kind: SiteKind::Demand { section: 4, cpu: true },
        },
    ];
    assert_eq!(
        run(src, &sites).unwrap(),
        "class A { void m(int x) { if (x > 1) { beagle.probe.Probe.branch(1); f(); } else { long __beagleT0 = \
         beagle.probe.Probe.startCpu(4); try { if (x > 0) { beagle.probe.Probe.branch(2); g(); } else { \
         beagle.probe.Probe.branch(3); } } finally { beagle.probe.Probe.stopCpu(4, __beagleT0); } } } }"
    );
}

#[test]
fn a_variable_named_beagle_is_an_error() {
    let src = "class A {\n void m(int beagle) { f(); }\n}";
    let err = run(
        src,
        &[Site {
            range: at(src, "f();"),
            kind: SiteKind::Call { section: 0 },
        }],
    )
    .unwrap_err();
    assert_eq!((err.line, err.column), (2, 13));
    // A package or class named beagle is harmless.
    let src = "import beagle.Util;\nclass A { void m() { beagle.Util.f(); } }";
    assert!(run(
        src,
        &[Site {
            range: at(src, "beagle.Util.f();"),
            kind: SiteKind::Call { section: 0 }
        }]
    )
    .is_ok());
}

/// A body several components inherit: its entry asks the probe which component the receiving
/// object stands for; a static one has no receiving object, and says so.
#[test]
fn a_shared_body_picks_its_section_by_the_receiving_class() {
    let src = "abstract class A { int m(int a) { return a; } static int s(int a) { return a; } }";
    let mut table = SectionTable::default();
    let first = table.add(crate::sections::Section::Service { service: "_m1".into() });
    let second = table.add(crate::sections::Section::Service { service: "_m2".into() });
    let statics = table.add(crate::sections::Section::Service { service: "_s1".into() });
    table.dispatch.tables = vec![
        vec![("p.B".into(), first), ("p.C".into(), second)],
        vec![("p.B".into(), statics)],
    ];
    table.dispatch.site_table = [(first, 0), (statics, 1)].into();
    let sites = [
        Site {
            range: at(src, "int m"),
            kind: SiteKind::Service { section: first },
        },
        Site {
            range: at(src, "static int s"),
            kind: SiteKind::Service { section: statics },
        },
    ];
    let out = super::instrument_report(src, &sites, &mut table).unwrap();
    assert!(
        out.text
            .contains("= beagle.probe.Probe.enter(beagle.probe.Probe.pick(this, 0));"),
        "{}",
        out.text
    );
    assert!(
        out.text.contains(&format!("= beagle.probe.Probe.enter({statics});")),
        "{}",
        out.text
    );
    assert_eq!(out.skipped.len(), 1);
    assert!(
        out.skipped[0].reason.starts_with("a static method"),
        "{:?}",
        out.skipped
    );
    assert_eq!(table.dispatch.others(first), [second]);
}
