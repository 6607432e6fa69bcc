//! Instrumenting tricky Java, compiling original and copy with javac, running both: the program's
//! output must not change, and the probes must record what the sites stand for (read from the
//! raw 32-byte records, see README.md "Binary events").

use std::ops::Range;
use std::path::{Path, PathBuf};
use std::process::Command;

use beagle_analysis::events::{MeasurementEvent, Parameters};
use beagle_java::instrument::{instrument, Site, SiteKind};
use beagle_java::probe::decode::{decode, DecodeOptions, DecodeSummary};
use beagle_java::sections::{Section, SectionTable};

const ENTER: i32 = 1;
const PARAM: i32 = 2;
const EXIT: i32 = 3;
const DEMAND: i32 = 4;
const LOOP: i32 = 5;
const BRANCH: i32 = 6;

/// One probe record as written by `beagle.probe.Probe`.
#[derive(Clone, Copy, Debug)]
struct Rec {
    kind: i32,
    section: i32,
    execution: i64,
    a: i64,
    b: i64,
}

struct Run {
    records: Vec<Rec>,
    table: SectionTable,
    /// What the decoder made of the records (section names from [`table_for`]).
    events: Vec<MeasurementEvent>,
    summary: DecodeSummary,
}

/// A section table in which every id the sites use names itself: service `s0`, demand `a1`, loop
/// `l9`, branch `b3` (named by its first transition) with transitions `t3`, `t4`, call `c8`.
fn table_for(sites: &[Site]) -> SectionTable {
    let mut named = std::collections::BTreeMap::new();
    for site in sites {
        match &site.kind {
            SiteKind::Service { section } => {
                named.insert(
                    *section,
                    Section::Service {
                        service: format!("s{section}"),
                    },
                );
            }
            SiteKind::Demand { section, cpu } => {
                let resource = if *cpu { "CPU" } else { "WALL" }.to_string();
                named.insert(
                    *section,
                    Section::Demand {
                        action: format!("a{section}"),
                        resource,
                        cpu: *cpu,
                    },
                );
            }
            SiteKind::Loop { section } => {
                named.insert(
                    *section,
                    Section::Loop {
                        loop_id: format!("l{section}"),
                    },
                );
            }
            SiteKind::Branch { transitions } => {
                for t in transitions {
                    let (branch, transition) = (format!("b{}", transitions[0]), format!("t{t}"));
                    named.insert(*t, Section::Transition { branch, transition });
                }
            }
            SiteKind::Call { section } => {
                named.insert(
                    *section,
                    Section::Call {
                        call: format!("c{section}"),
                    },
                );
            }
        }
    }
    let mut table = SectionTable::default();
    for id in 0..=named.keys().max().copied().unwrap_or(0) {
        let unused = Section::Call {
            call: format!("unused{id}"),
        };
        assert_eq!(table.add(named.remove(&id).unwrap_or(unused)), id);
    }
    table
}

/// One decoded service execution.
struct Call<'e> {
    execution: &'e str,
    caller: Option<&'e str>,
    call: Option<&'e str>,
    parameters: &'e Parameters,
}

impl Run {
    fn of(&self, kind: i32, section: i32) -> impl Iterator<Item = &Rec> {
        self.records
            .iter()
            .filter(move |r| r.kind == kind && r.section == section)
    }
    fn count(&self, kind: i32, section: i32) -> usize {
        self.of(kind, section).count()
    }
    fn a_values(&self, kind: i32, section: i32) -> Vec<i64> {
        self.of(kind, section).map(|r| r.a).collect()
    }
    /// The transitions taken among `sections`, in recording order (one thread).
    fn branches(&self, sections: &[i32]) -> Vec<i32> {
        self.records
            .iter()
            .filter(|r| r.kind == BRANCH && sections.contains(&r.section))
            .map(|r| r.section)
            .collect()
    }
    /// The values recorded for a parameter slot, by name (unique in the file).
    fn params(&self, name: &str) -> Vec<(i64, f64)> {
        let slot = self.table.slots.iter().position(|s| s == name).expect("slot") as i32;
        self.of(PARAM, slot)
            .map(|r| (r.a, f64::from_bits(r.b as u64)))
            .collect()
    }
    /// The exits of the executions of `service` (EXIT records carry the execution, not the service).
    fn exits(&self, service: i32) -> usize {
        let entered = self.executions(ENTER, service);
        self.records
            .iter()
            .filter(|r| r.kind == EXIT && entered.contains(&r.execution))
            .count()
    }
    fn executions(&self, kind: i32, section: i32) -> Vec<i64> {
        self.of(kind, section).map(|r| r.execution).collect()
    }

    /// Decoded executions of service `s{id}`, in entry order.
    fn calls(&self, service: i32) -> Vec<Call<'_>> {
        let name = format!("s{service}");
        self.events
            .iter()
            .filter_map(|e| match e {
                MeasurementEvent::ServiceCall {
                    execution,
                    service,
                    caller_execution,
                    call,
                    parameters,
                    ..
                } if *service == name => Some(Call {
                    execution,
                    caller: caller_execution.as_deref(),
                    call: call.as_deref(),
                    parameters,
                }),
                _ => None,
            })
            .collect()
    }

    /// Decoded loop counts of `l{id}`: (execution, count).
    fn loops(&self, id: i32) -> Vec<(&str, u64)> {
        let name = format!("l{id}");
        self.events
            .iter()
            .filter_map(|e| match e {
                MeasurementEvent::Loop {
                    execution,
                    loop_id,
                    count,
                } if *loop_id == name => Some((execution.as_str(), *count)),
                _ => None,
            })
            .collect()
    }

    /// Decoded transitions of branch `b{first}`: (execution, transition).
    fn taken(&self, first: i32) -> Vec<(&str, &str)> {
        let name = format!("b{first}");
        self.events
            .iter()
            .filter_map(|e| match e {
                MeasurementEvent::Branch {
                    execution,
                    branch,
                    transition,
                } if *branch == name => Some((execution.as_str(), transition.as_deref().unwrap_or("-"))),
                _ => None,
            })
            .collect()
    }

    /// Executions of the decoded demands of `a{id}`.
    fn demands(&self, id: i32) -> Vec<&str> {
        let name = format!("a{id}");
        self.events
            .iter()
            .filter_map(|e| match e {
                MeasurementEvent::ResourceDemand { execution, action, .. } if *action == name => {
                    Some(execution.as_str())
                }
                _ => None,
            })
            .collect()
    }
}

fn param(c: &Call, name: &str) -> f64 {
    *c.parameters
        .get(name)
        .unwrap_or_else(|| panic!("no {name} in {:?}", c.parameters))
}

/// The byte range of the largest syntax node starting at `needle` (unique in `src`): a whole
/// statement or declaration when the needle is its beginning.
fn node(src: &str, needle: &str) -> Range<usize> {
    assert_eq!(src.matches(needle).count(), 1, "needle {needle:?} must be unique");
    let at = src.find(needle).unwrap();
    let mut parser = tree_sitter::Parser::new();
    parser.set_language(&tree_sitter_java::LANGUAGE.into()).unwrap();
    let tree = parser.parse(src, None).unwrap();
    let mut n = tree
        .root_node()
        .descendant_for_byte_range(at, at + needle.len())
        .unwrap();
    while n.start_byte() > at || n.end_byte() < at + needle.len() {
        n = n.parent().unwrap();
    }
    while let Some(p) = n.parent().filter(|p| p.start_byte() == at) {
        n = p;
    }
    n.byte_range()
}

/// From the statement starting at `first` to the end of the one starting at `last`.
fn span(src: &str, first: &str, last: &str) -> Range<usize> {
    node(src, first).start..node(src, last).end
}

fn site(range: Range<usize>, kind: SiteKind) -> Site {
    Site { range, kind }
}

fn tool(name: &str) -> Option<PathBuf> {
    let path = PathBuf::from("/usr/bin").join(name);
    if path.exists() {
        return Some(path);
    }
    Command::new(name)
        .arg("-version")
        .output()
        .ok()
        .filter(|o| o.status.success())
        .map(|_| PathBuf::from(name))
}

fn compile(javac: &Path, dir: &Path, class: &str, text: &str, probe: &Path) -> PathBuf {
    let src = dir.join("src");
    std::fs::create_dir_all(&src).unwrap();
    std::fs::write(src.join(format!("{class}.java")), text).unwrap();
    let out = dir.join("classes");
    let mut cmd = Command::new(javac);
    cmd.args(["--release", "17", "-nowarn", "-d"])
        .arg(&out)
        .arg(src.join(format!("{class}.java")));
    for (path, _) in beagle_java::PROBE_SOURCES {
        cmd.arg(probe.join(path));
    }
    let o = cmd.output().unwrap();
    assert!(
        o.status.success(),
        "javac failed on {}:\n{}\n{text}",
        dir.display(),
        String::from_utf8_lossy(&o.stderr)
    );
    out
}

fn execute(java: &Path, classes: &Path, class: &str, events: &Path) -> String {
    let o = Command::new(java)
        .arg(format!("-Dbeagle.events={}", events.display()))
        // Placement is checked per run of each section (the default adds up runs per execution).
        .arg("-Dbeagle.perIteration=true")
        .arg("-cp")
        .arg(classes)
        .arg(class)
        .output()
        .unwrap();
    assert!(
        o.status.success(),
        "{class} failed:\n{}",
        String::from_utf8_lossy(&o.stderr)
    );
    String::from_utf8(o.stdout).unwrap()
}

/// Instruments `tests/java/CLASS.java`, snapshots the copy, compiles and runs original and copy
/// and compares their output; `None` (with a printed reason) when there is no JDK.
fn check(class: &str, sites: impl Fn(&str) -> Vec<Site>) -> Option<Run> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/java")
        .join(format!("{class}.java"));
    let before = std::fs::read(&path).unwrap();
    let src = String::from_utf8(before.clone()).unwrap();
    let sites = sites(&src);
    let mut table = table_for(&sites);
    let copy = instrument(&src, &sites, &mut table).unwrap_or_else(|e| panic!("{class}: {e}"));
    insta::assert_snapshot!(class, copy);
    let (Some(javac), Some(java)) = (tool("javac"), tool("java")) else {
        eprintln!("skipping the javac part of {class}: no javac/java on this machine");
        return None;
    };
    let tmp = tempfile::tempdir().unwrap();
    let probe = tmp.path().join("probe");
    for (p, text) in beagle_java::PROBE_SOURCES {
        std::fs::create_dir_all(probe.join(p).parent().unwrap()).unwrap();
        std::fs::write(probe.join(p), text).unwrap();
    }
    let original = compile(&javac, &tmp.path().join("original"), class, &src, &probe);
    let instrumented = compile(&javac, &tmp.path().join("instrumented"), class, &copy, &probe);
    let expected = execute(&java, &original, class, &tmp.path().join("original.events"));
    let events = tmp.path().join("instrumented.events");
    let got = execute(&java, &instrumented, class, &events);
    assert_eq!(got, expected, "{class}: the instrumented program prints something else");
    let bytes = std::fs::read(&events).unwrap();
    assert!(
        !bytes.is_empty() && bytes.len() % 32 == 0,
        "{class}: {} bytes of events",
        bytes.len()
    );
    assert_eq!(std::fs::read(&path).unwrap(), before, "{class}: the input file changed");
    let records = bytes
        .chunks_exact(32)
        .map(|r| Rec {
            kind: i32::from_le_bytes(r[0..4].try_into().unwrap()),
            section: i32::from_le_bytes(r[4..8].try_into().unwrap()),
            execution: i64::from_le_bytes(r[8..16].try_into().unwrap()),
            a: i64::from_le_bytes(r[16..24].try_into().unwrap()),
            b: i64::from_le_bytes(r[24..32].try_into().unwrap()),
        })
        .collect();
    let (events, summary) = decode(&bytes, &table, &DecodeOptions::default());
    let bad = (
        summary.unknown_sections,
        summary.unknown_types,
        summary.orphans,
        summary.invalid,
        summary.truncated_bytes,
    );
    assert_eq!(bad, (0, 0, 0, 0, 0), "{class}: {summary:?}");
    Some(Run {
        records,
        table,
        events,
        summary,
    })
}

fn is_subset(inner: &[i64], outer: &[i64]) -> bool {
    inner.iter().all(|e| outer.contains(e))
}

#[test]
fn early_returns_and_exceptions_through_sections() {
    let Some(run) = check("EarlyReturn", |s| {
        vec![
            site(node(s, "static int classify"), SiteKind::Service { section: 0 }),
            site(
                span(s, "int half", "final int[] parts"),
                SiteKind::Demand { section: 1, cpu: true },
            ),
            site(
                span(s, "if (size > 10)", "return half +"),
                SiteKind::Demand { section: 2, cpu: false },
            ),
            // A second resource of the same internal action: the same statements timed twice.
            site(
                span(s, "int half", "final int[] parts"),
                SiteKind::Demand {
                    section: 11,
                    cpu: false,
                },
            ),
            site(
                node(s, "if (size < 0)"),
                SiteKind::Branch {
                    transitions: vec![3, 4],
                },
            ),
            site(node(s, "static int risky"), SiteKind::Service { section: 5 }),
            site(
                span(s, "int y = x * 3;", "if (x == 7)"),
                SiteKind::Demand { section: 6, cpu: true },
            ),
            site(node(s, "static int caller"), SiteKind::Service { section: 7 }),
            site(node(s, "return risky(x);"), SiteKind::Call { section: 8 }),
            site(node(s, "for (int i = -1;"), SiteKind::Loop { section: 9 }),
            site(node(s, "out.add(classify("), SiteKind::Call { section: 10 }),
        ]
    }) else {
        return;
    };
    assert_eq!((run.count(ENTER, 0), run.exits(0)), (5, 5));
    assert_eq!(run.branches(&[3, 4]), [3, 4, 4, 4, 4]);
    // The early return before section 1 skips it; section 2 ends in returns.
    assert_eq!(
        (run.count(DEMAND, 1), run.count(DEMAND, 2), run.count(DEMAND, 11)),
        (4, 4, 4)
    );
    assert!(is_subset(&run.executions(DEMAND, 1), &run.executions(ENTER, 0)));
    // The exception thrown in section 6 still records its demand and exits the service.
    assert_eq!((run.count(ENTER, 5), run.count(DEMAND, 6), run.exits(5)), (4, 4, 4));
    // Every entry of risky is the call of caller's call site 8; classify's are call 10.
    assert!(run.of(ENTER, 5).all(|r| r.b >> 32 == 8));
    assert!(run.of(ENTER, 0).all(|r| r.b >> 32 == 10));
    assert_eq!(run.a_values(LOOP, 9), [5]);
    let sizes: Vec<f64> = run
        .params("size")
        .into_iter()
        .map(|(c, v)| if c == 1 { v } else { f64::NAN })
        .collect();
    assert_eq!(sizes, [-1.0, 2.0, 5.0, 8.0, 11.0]);
    // Decoded: one execution per classify call, parameters at entry, demands in it, the branch.
    let classify = run.calls(0);
    let sizes: Vec<f64> = classify.iter().map(|c| param(c, "size.VALUE")).collect();
    assert_eq!(sizes, [-1.0, 2.0, 5.0, 8.0, 11.0]);
    assert!(classify
        .iter()
        .all(|c| param(c, "name.BYTESIZE") >= 2.0 && c.call == Some("c10")));
    let ids: Vec<&str> = classify.iter().map(|c| c.execution).collect();
    assert_eq!(run.demands(1), ids[1..]);
    assert_eq!(run.demands(11), ids[1..]);
    let taken: Vec<(&str, &str)> = run.taken(3);
    assert_eq!(
        taken,
        ids.iter()
            .zip(["t3", "t4", "t4", "t4", "t4"])
            .map(|(e, t)| (*e, t))
            .collect::<Vec<_>>()
    );
    // risky is called through call c8 from caller's executions, also when it throws.
    let callers: Vec<&str> = run.calls(7).iter().map(|c| c.execution).collect();
    let risky = run.calls(5);
    assert_eq!(risky.iter().map(|c| c.caller.unwrap()).collect::<Vec<_>>(), callers);
    assert!(risky.iter().all(|c| c.call == Some("c8")));
    assert_eq!(run.demands(6), risky.iter().map(|c| c.execution).collect::<Vec<_>>());
    // The loop in main is outside any service: counted as such, not attributed.
    assert!(run.loops(9).is_empty() && run.summary.outside > 0);
}

#[test]
fn loops_with_labels_break_continue_and_recursion() {
    let Some(run) = check("Loops", |s| {
        vec![
            site(node(s, "static int grid"), SiteKind::Service { section: 0 }),
            site(node(s, "for (int i = 0; i < n; i++)"), SiteKind::Loop { section: 1 }),
            site(node(s, "for (int j = 0;"), SiteKind::Loop { section: 2 }),
            site(
                node(s, "if (j > i) continue outer;"),
                SiteKind::Branch {
                    transitions: vec![3, 4],
                },
            ),
            site(node(s, "hits++;"), SiteKind::Demand { section: 5, cpu: true }),
            site(node(s, "static int scan"), SiteKind::Service { section: 6 }),
            site(node(s, "for (String w : words)"), SiteKind::Loop { section: 7 }),
            site(node(s, "total += w.length();"), SiteKind::Call { section: 8 }),
            site(node(s, "while (k < total)"), SiteKind::Loop { section: 9 }),
            site(node(s, "do total--;"), SiteKind::Loop { section: 10 }),
            site(
                span(s, "int k = 0;", "do total--;"),
                SiteKind::Demand { section: 11, cpu: true },
            ),
            site(node(s, "static int fact"), SiteKind::Service { section: 12 }),
            site(node(s, "return n * fact(n - 1);"), SiteKind::Call { section: 13 }),
            site(
                node(s, "if (n <= 1)"),
                SiteKind::Branch {
                    transitions: vec![14, 15],
                },
            ),
        ]
    }) else {
        return;
    };
    // Labelled continue and break end iterations and loops; counts are per loop execution.
    assert_eq!(run.a_values(LOOP, 1), [3, 4]);
    assert_eq!(run.a_values(LOOP, 2), [2, 3, 3, 2, 3, 4, 4]);
    assert_eq!(run.count(DEMAND, 5), 15);
    assert_eq!(run.a_values(LOOP, 7), [4, 2]);
    assert_eq!(run.a_values(LOOP, 9), [2, 10]);
    assert_eq!(run.a_values(LOOP, 10), [1, 17]);
    assert_eq!(run.count(DEMAND, 11), 2);
    // NUMBER_OF_ELEMENTS (3), the mean INNER.BYTESIZE (4) and the elements' summed BYTESIZE (5)
    // of the list.
    assert_eq!(
        run.params("words"),
        [(3, 5.0), (4, 2.6), (5, 13.0), (3, 2.0), (4, 18.5), (5, 37.0)]
    );
    // Recursion: five nested executions, four of them entered through call 13.
    assert_eq!(run.count(ENTER, 12), 5);
    assert_eq!(run.of(ENTER, 12).filter(|r| r.b >> 32 == 13).count(), 4);
    assert_eq!(run.branches(&[14, 15]), [15, 15, 15, 15, 14]);
    // Each nested entry's caller is the previous execution.
    let fact: Vec<&Rec> = run.of(ENTER, 12).collect();
    assert!(fact.windows(2).all(|w| w[1].a == w[0].execution));
    // Decoded: loop counts per loop execution, in the innermost service execution.
    let grids: Vec<&str> = run.calls(0).iter().map(|c| c.execution).collect();
    assert_eq!(run.loops(1), [(grids[0], 3), (grids[1], 4)]);
    let inner: Vec<u64> = run.loops(2).iter().map(|(_, n)| *n).collect();
    assert_eq!(inner, [2, 3, 3, 2, 3, 4, 4]);
    assert_eq!(run.demands(5).iter().filter(|e| **e == grids[0]).count(), 6);
    let scans = run.calls(6);
    assert_eq!(
        scans
            .iter()
            .map(|c| param(c, "words.NUMBER_OF_ELEMENTS"))
            .collect::<Vec<_>>(),
        [5.0, 2.0]
    );
    let counts = |id| {
        run.loops(id)
            .into_iter()
            .map(|(e, n)| (e.to_string(), n))
            .collect::<Vec<_>>()
    };
    let scan_ids: Vec<String> = scans.iter().map(|c| c.execution.to_string()).collect();
    assert_eq!(counts(9), [(scan_ids[0].clone(), 2), (scan_ids[1].clone(), 10)]);
    assert_eq!(counts(10), [(scan_ids[0].clone(), 1), (scan_ids[1].clone(), 17)]);
    // Recursion: each nested fact is called through c13 by the one before, with n one less.
    let fact = run.calls(12);
    assert_eq!(
        fact.iter().map(|c| param(c, "n.VALUE")).collect::<Vec<_>>(),
        [5.0, 4.0, 3.0, 2.0, 1.0]
    );
    assert!(fact
        .windows(2)
        .all(|w| w[1].caller == Some(w[0].execution) && w[1].call == Some("c13")));
    let taken = run.taken(14);
    assert_eq!(taken.last(), Some(&(fact[4].execution, "t14")));
}

#[test]
fn if_chains_ifs_without_else_and_switches() {
    let Some(run) = check("Branches", |s| {
        vec![
            site(node(s, "static String size"), SiteKind::Service { section: 0 }),
            site(
                node(s, "if (x < 10)"),
                SiteKind::Branch {
                    transitions: vec![1, 2, 3, 4],
                },
            ),
            site(
                node(s, "if (x % 2 == 0)"),
                SiteKind::Branch {
                    transitions: vec![5, 6],
                },
            ),
            site(
                node(s, "switch (month)"),
                SiteKind::Branch {
                    transitions: vec![7, 8, 9],
                },
            ),
            site(node(s, "d = 28;"), SiteKind::Demand { section: 10, cpu: true }),
            site(
                node(s, "switch (c)"),
                SiteKind::Branch {
                    transitions: vec![11, 12, 13],
                },
            ),
            site(node(s, "s = \"medium\";"), SiteKind::Call { section: 14 }),
            site(node(s, "s = \"huge\";"), SiteKind::Call { section: 15 }),
            site(
                node(s, "k = \"vowel\";"),
                SiteKind::Demand {
                    section: 16,
                    cpu: false,
                },
            ),
        ]
    }) else {
        return;
    };
    assert_eq!(run.branches(&[1, 2, 3, 4]), [1, 2, 3, 4, 1]);
    assert_eq!(run.branches(&[5, 6]), [6, 5, 6, 5, 5]);
    assert_eq!(run.branches(&[7, 8, 9]), [9, 7, 9, 8, 9, 8, 9, 9, 8, 9, 8, 9]);
    assert_eq!(run.count(DEMAND, 10), 1);
    // The switch without default gets one for the model's last transition.
    assert_eq!(run.branches(&[11, 12, 13]), [13, 11, 12, 13, 11, 11]);
    assert_eq!(run.count(DEMAND, 16), 3);
    // Branches and demands outside any service belong to no execution.
    assert!(run.of(BRANCH, 7).all(|r| r.execution == 0));
    assert!(is_subset(&run.executions(BRANCH, 1), &run.executions(ENTER, 0)));
    // Decoded: the chain's transitions in size's executions; the switches are outside services.
    let sizes = run.calls(0);
    let taken: Vec<&str> = run.taken(1).iter().map(|(_, t)| *t).collect();
    assert_eq!(taken, ["t1", "t2", "t3", "t4", "t1"]);
    assert!(run.taken(1).iter().zip(&sizes).all(|((e, _), c)| *e == c.execution));
    assert!(run.taken(7).is_empty() && run.taken(11).is_empty());
}

#[test]
fn sections_in_lambdas_and_threads() {
    let Some(run) = check("Lambdas", |s| {
        vec![
            site(node(s, "static long work"), SiteKind::Service { section: 0 }),
            site(node(s, "for (int i = 0; i < n; i++)"), SiteKind::Loop { section: 1 }),
            site(
                node(s, "SUM.addAndGet(acc);"),
                SiteKind::Demand { section: 2, cpu: true },
            ),
            site(node(s, "for (int i = 0; i < x; i++)"), SiteKind::Loop { section: 3 }),
            site(node(s, "String greeting"), SiteKind::Demand { section: 4, cpu: false }),
            site(node(s, "th.start();"), SiteKind::Call { section: 5 }),
        ]
    }) else {
        return;
    };
    let mut counts = run.a_values(LOOP, 1);
    counts.sort_unstable();
    assert_eq!(counts, [1000, 2000, 3000, 4000]);
    assert_eq!(run.a_values(LOOP, 3), [6]);
    assert_eq!(run.count(DEMAND, 4), 1);
    // Each thread's demand belongs to that thread's execution of work.
    let mut entered = run.executions(ENTER, 0);
    let mut demands = run.executions(DEMAND, 2);
    entered.sort_unstable();
    demands.sort_unstable();
    assert_eq!((entered.len(), &demands), (4, &entered));
    let mut n: Vec<f64> = run.params("n").into_iter().map(|(_, v)| v).collect();
    n.sort_by(f64::total_cmp);
    assert_eq!(n, [1000.0, 2000.0, 3000.0, 4000.0]);
    // Decoded: per thread's execution of work, its loop ran n times and its demand is its own.
    let works = run.calls(0);
    assert_eq!(works.len(), 4);
    for w in &works {
        assert_eq!(
            run.loops(1)
                .iter()
                .filter(|(e, _)| *e == w.execution)
                .map(|(_, n)| *n as f64)
                .collect::<Vec<_>>(),
            [param(w, "n.VALUE")]
        );
        assert_eq!(run.demands(2).iter().filter(|e| **e == w.execution).count(), 1);
    }
}

#[test]
fn constructors_switch_expressions_sole_bodies_and_name_clashes() {
    let Some(run) = check("Odds", |s| {
        vec![
            site(
                node(s, "Child(int seed, boolean flag)"),
                SiteKind::Service { section: 0 },
            ),
            site(
                node(s, "if (flag)"),
                SiteKind::Branch {
                    transitions: vec![1, 2],
                },
            ),
            site(node(s, "Odds(int base)"), SiteKind::Service { section: 3 }),
            site(
                node(s, "case 0 -> next.getAsInt();").start + 10..node(s, "case 0 -> next.getAsInt();").end,
                SiteKind::Call { section: 4 },
            ),
            site(node(s, "for (int x : xs)"), SiteKind::Loop { section: 5 }),
            site(node(s, "do {"), SiteKind::Loop { section: 6 }),
            site(
                node(s, "if (xs[i - 1] < 0)"),
                SiteKind::Branch {
                    transitions: vec![7, 8],
                },
            ),
            site(
                span(s, "var local", "s = local"),
                SiteKind::Demand { section: 9, cpu: true },
            ),
            site(
                node(s, "if (score > 90)"),
                SiteKind::Branch {
                    transitions: vec![10, 11],
                },
            ),
            site(
                node(s, "if (twice)"),
                SiteKind::Branch {
                    transitions: vec![12, 13],
                },
            ),
            site(node(s, "int sum("), SiteKind::Service { section: 14 }),
        ]
    }) else {
        return;
    };
    // The constructor's execution starts after super(...), and sees its parameters.
    assert_eq!(run.count(ENTER, 0), 2);
    assert_eq!(run.branches(&[1, 2]), [1, 2]);
    assert_eq!(run.count(ENTER, 3), 1);
    // Services only: the call in the switch expression's rule (wrapped with `yield`) enters none.
    assert_eq!(run.records.iter().filter(|r| r.kind == ENTER).count(), 5);
    assert_eq!(run.a_values(LOOP, 5), [2]);
    assert_eq!(run.a_values(LOOP, 6), [3]);
    assert_eq!(run.branches(&[7, 8]), [8, 7, 8]);
    assert_eq!(run.count(DEMAND, 9), 2);
    // An else-if chain with two transitions: then, and the whole else part.
    assert_eq!(run.branches(&[10, 11]), [10, 11, 11]);
    assert_eq!(run.branches(&[12, 13]), [13, 12]);
    assert!(is_subset(&run.executions(DEMAND, 9), &run.executions(ENTER, 14)));
    // Decoded: the constructor's parameters at entry (after super(...)).
    let children = run.calls(0);
    let flags: Vec<(f64, f64)> = children
        .iter()
        .map(|c| (param(c, "seed.VALUE"), param(c, "flag.VALUE")))
        .collect();
    assert_eq!(flags, [(4.0, 1.0), (4.0, 0.0)]);
    let sums = run.calls(14);
    assert_eq!(
        sums.iter()
            .map(|c| param(c, "xs.NUMBER_OF_ELEMENTS"))
            .collect::<Vec<_>>(),
        [3.0, 2.0]
    );
    assert_eq!(run.loops(6), [(sums[0].execution, 3)]);
    assert_eq!(run.loops(5), [(sums[1].execution, 2)]);
}
