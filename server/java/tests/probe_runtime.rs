//! The probe runtime end to end: javac compiles it and a hand-instrumented program (calls placed as
//! the README's probe API table says), the launcher runs the program three times in one JVM, and
//! the decoder (warm-up 1) must give back exactly what the program did: nested external calls,
//! an exception through a timed section, recursion, two threads running executions at once.

mod probe_common;

use beagle_analysis::events::MeasurementEvent;
use beagle_java::probe::decode::{decode_file, DecodeOptions, DecodeSummary};
use beagle_java::sections::{Section, SectionTable};
use std::collections::HashMap;
use std::path::Path;
use std::process::Command;

/// Section ids as the program below uses them.
fn table() -> SectionTable {
    let mut t = SectionTable::default();
    let service = |s: &str| Section::Service { service: s.into() };
    assert_eq!(t.add(service("_upload")), 0);
    t.add(service("_store"));
    t.add(Section::Call {
        call: "_call_store".into(),
    });
    t.add(Section::Demand {
        action: "_compress".into(),
        resource: "CPU".into(),
        cpu: true,
    });
    t.add(Section::Demand {
        action: "_write".into(),
        resource: "_hdd".into(),
        cpu: false,
    });
    t.add(Section::Loop {
        loop_id: "_files".into(),
    });
    t.add(Section::Transition {
        branch: "_many".into(),
        transition: "_yes".into(),
    });
    t.add(Section::Transition {
        branch: "_many".into(),
        transition: "_no".into(),
    });
    t.add(service("_fact"));
    assert_eq!(
        t.add(Section::Call {
            call: "_call_fact".into()
        }),
        9
    );
    for slot in ["files", "flag", "name", "data", "n", "k"] {
        t.add_slot(slot);
    }
    t
}

/// Thread A uploads 3 files (100, 200, 300 bytes; its store throws "disk full" through the timed
/// write), thread B 2 files (10, 30 bytes), 4 times each, at once; then main computes fact(3)
/// recursively. A wall-timed join outside any service is recorded once per iteration.
const MAIN: &str = r#"
import beagle.probe.Probe;
import java.util.*;
import java.util.concurrent.CyclicBarrier;

public class Main {
    static int upload(Map<String, byte[]> files, boolean flag, String name) {
        long e = Probe.enter(0);
        try {
            Probe.param(e, 0, files);
            Probe.param(e, 1, flag);
            Probe.param(e, 2, name);
            long sum = 0;
            int size = 0;
            int c = 0;
            for (byte[] d : files.values()) {
                c++;
                long t = Probe.startCpu(3);
                try {
                    for (int r = 0; r < 2000; r++) for (byte b : d) sum += b * r;
                    size += d.length;
                } finally {
                    Probe.stopCpu(3, t);
                }
            }
            Probe.loop(5, c);
            if (files.size() > 2) {
                Probe.branch(6);
            } else {
                Probe.branch(7);
            }
            byte[] all = new byte[size];
            try {
                Probe.call(2);
                store(all, files.size());
            } catch (IllegalStateException x) {
                return -1;
            }
            return (int) sum;
        } finally {
            Probe.exit(e);
        }
    }

    static void store(byte[] data, int n) {
        long e = Probe.enter(1);
        try {
            Probe.param(e, 3, data);
            Probe.param(e, 4, n);
            long t = Probe.startWall();
            try {
                if (n == 3) throw new IllegalStateException("disk full");
                Thread.sleep(2);
            } catch (InterruptedException x) {
                throw new RuntimeException(x);
            } finally {
                Probe.stopWall(4, t);
            }
        } finally {
            Probe.exit(e);
        }
    }

    static int fact(int k) {
        long e = Probe.enter(8);
        try {
            Probe.param(e, 5, k);
            if (k == 0) return 1;
            Probe.call(9);
            return k * fact(k - 1);
        } finally {
            Probe.exit(e);
        }
    }

    static Map<String, byte[]> files(int... sizes) {
        Map<String, byte[]> m = new HashMap<>();
        for (int i = 0; i < sizes.length; i++) m.put("f" + i, new byte[sizes[i]]);
        return m;
    }

    public static void main(String[] args) throws Exception {
        CyclicBarrier together = new CyclicBarrier(2);
        Thread a = new Thread(() -> run(together, files(100, 200, 300), true, "\u00e4\u20ac"));
        Thread b = new Thread(() -> run(together, files(10, 30), false, "bob"));
        a.start();
        b.start();
        long t = Probe.startWall();
        a.join();
        b.join();
        Probe.stopWall(4, t);
        if (fact(3) != 6) throw new AssertionError("fact");
    }

    static void run(CyclicBarrier together, Map<String, byte[]> files, boolean flag, String name) {
        try {
            for (int i = 0; i < 4; i++) {
                together.await();
                upload(files, flag, name);
            }
        } catch (Exception x) {
            throw new RuntimeException(x);
        }
    }
}
"#;

fn javac_available() -> bool {
    Command::new("javac").arg("-version").output().is_ok()
}

/// Compiles the probe and the program, runs `Launcher 1 0 2 Main` (one warm-up run, two measured),
/// decodes with warm-up 1.
fn run_program(dir: &Path) -> (Vec<MeasurementEvent>, DecodeSummary) {
    run_source(dir, MAIN, &table())
}

/// [`run_program`] of any `Main` class, decoded with `table`.
fn run_source(dir: &Path, main: &str, table: &SectionTable) -> (Vec<MeasurementEvent>, DecodeSummary) {
    let classpath = probe_common::compile_with_probe(dir, "Main.java", main);
    let events = dir.join("p.events");
    let out = Command::new("java")
        .arg("-cp")
        .arg(&classpath)
        .arg(format!("-Dbeagle.events={}", events.display()))
        .args(["beagle.probe.Launcher", "1", "0", "2", "Main"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let options = DecodeOptions {
        run: "p".into(),
        warmup: 1,
        service_times: true,
        count_keys: Default::default(),
    };
    decode_file(&events, table, &options).unwrap()
}

/// A kept service execution, as the test looks at it.
struct Exec<'a> {
    service: &'a str,
    caller: Option<&'a str>,
    call: Option<&'a str>,
    params: &'a beagle_analysis::events::Parameters,
    ns: u64,
}

#[test]
fn a_hand_instrumented_program_decodes_to_what_it_did() {
    if !javac_available() {
        eprintln!("skipped: no javac");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let (events, summary) = run_program(dir.path());

    // Per iteration: 8 uploads, 8 stores, fact(3..0): 20 executions; iteration 0 is warm-up.
    assert_eq!(
        summary,
        DecodeSummary {
            records: summary.records,
            executions: 40,
            warmup_executions: 20,
            warmup_records: summary.warmup_records,
            outside: 3,
            // At start-up and when the launcher's warm-up ends.
            calibrations: 2,
            probe_costs: summary.probe_costs.clone(),
            service_cpu_ns: summary.service_cpu_ns.clone(),
            ..Default::default()
        }
    );
    // Per upload: ENTER, 5 PARAMs (a map gives three: its size, its elements' mean and summed
    // bytes), OVERHEAD and EXIT, one OVERHEAD and DEMAND_TOTAL for its files' runs of the compress
    // section, LOOP, BRANCH; per store ENTER, 2 PARAMs, OVERHEAD, DEMAND_TOTAL, OVERHEAD, EXIT; per
    // fact ENTER, PARAM, OVERHEAD, EXIT.
    let per_iteration = 4 * (8 + 2 + 2) + 4 * (8 + 2 + 2) + 8 * 7 + 4 * 4;
    assert_eq!(summary.warmup_records, per_iteration);
    // Per iteration, the join outside any service (OVERHEAD and DEMAND); 17 records per calibration.
    assert_eq!(summary.records, 3 * per_iteration + 3 * 2 + 2 * 17);
    // Every kept execution's time, net of the probes (CPU time outermost, else wall clock less
    // the time not running: a store's 2 ms sleep is no CPU time).
    assert_eq!(summary.service_cpu_ns.len(), 40);
    assert_eq!(summary.probe_costs["_upload"].runs, 16);
    assert_eq!(summary.probe_costs["_fact"].runs, 8);
    // What the probes subtracted: per compress run (20 per iteration: 4 × 3 files and 4 × 2) and
    // per write (8 per iteration), in the two measured iterations; the calibration's noise known.
    let compress = summary.probe_costs["_compress"];
    assert_eq!(compress.runs, 40);
    assert!(compress.noise_ns >= 1 && compress.subtracted_ns > 0, "{compress:?}");
    assert!(compress.net_ns > 0 && !compress.too_short(), "{compress:?}");
    let write = summary.probe_costs["_write"];
    assert_eq!(write.runs, 16);
    // 8 of 16 writes sleep 2 ms; the probes cost far less than that.
    assert!(write.net_ns >= 8 * 2_000_000 && write.share() < 0.01, "{write:?}");

    let mut execs: HashMap<&str, Exec> = HashMap::new();
    for e in &events {
        match e {
            MeasurementEvent::ServiceCall {
                execution,
                service,
                caller_execution,
                call,
                parameters,
                entry_ns,
                exit_ns,
            } => {
                assert_eq!(*entry_ns, 0);
                let exec = Exec {
                    service,
                    caller: caller_execution.as_deref(),
                    call: call.as_deref(),
                    params: parameters,
                    ns: *exit_ns,
                };
                assert!(execs.insert(execution, exec).is_none());
            }
            other => assert!(
                execs.contains_key(other.execution()),
                "{other:?} before its ServiceCall"
            ),
        }
    }
    let of = |service: &'static str| execs.iter().filter(move |(_, x)| x.service == service);
    assert_eq!(of("_upload").count(), 16);
    assert_eq!(of("_store").count(), 16);
    assert_eq!(of("_fact").count(), 8);
    assert!(execs.values().all(|x| x.ns > 0), "every execution has its duration");

    // Parameters, characterised as specified.
    let p = |x: &Exec, name: &str| x.params.get(name).copied();
    let mut big = 0;
    for (_, up) in of("_upload") {
        assert_eq!((up.caller, up.call), (None, None));
        let n = p(up, "files.NUMBER_OF_ELEMENTS").unwrap();
        if n == 3.0 {
            big += 1;
            assert_eq!(p(up, "files.INNER.BYTESIZE"), Some(200.0));
            assert_eq!(p(up, "flag.VALUE"), Some(1.0));
            assert_eq!(p(up, "name.BYTESIZE"), Some(5.0), "ä€ is 5 bytes in UTF-8");
        } else {
            assert_eq!(n, 2.0);
            assert_eq!(p(up, "files.INNER.BYTESIZE"), Some(20.0));
            assert_eq!(p(up, "flag.VALUE"), Some(0.0));
            assert_eq!(p(up, "name.BYTESIZE"), Some(3.0));
        }
        assert_eq!(up.params.len(), 4);
    }
    assert_eq!(big, 8);

    // Each store is called by the upload of its own thread, through `_call_store`.
    for (_, st) in of("_store") {
        assert_eq!(st.call, Some("_call_store"));
        let caller = &execs[st.caller.expect("a caller")];
        assert_eq!(caller.service, "_upload");
        let n = p(caller, "files.NUMBER_OF_ELEMENTS").unwrap();
        let bytes = n * p(caller, "files.INNER.BYTESIZE").unwrap();
        assert_eq!(p(st, "data.BYTESIZE"), Some(bytes));
        assert_eq!(p(st, "n.VALUE"), Some(n));
        if n == 2.0 {
            assert!(st.ns >= 2_000_000, "the store slept 2 ms: {}", st.ns);
        }
    }

    // Recursion: fact(3) from outside, each deeper one called by the one above it.
    for (_, f) in of("_fact") {
        let k = p(f, "k.VALUE").unwrap();
        match f.caller {
            None => assert_eq!((k, f.call), (3.0, None)),
            Some(c) => {
                assert_eq!(f.call, Some("_call_fact"));
                assert_eq!(execs[c].service, "_fact");
                assert_eq!(p(&execs[c], "k.VALUE"), Some(k + 1.0));
            }
        }
    }

    // Demands, loops, branches, each in the innermost execution of its own thread.
    let mut per_exec: HashMap<(&str, &str), u64> = HashMap::new();
    let mut loops = 0;
    let mut cpu_ns: HashMap<&str, u64> = HashMap::new();
    for e in &events {
        let x = &execs[e.execution()];
        let n = p(x, "files.NUMBER_OF_ELEMENTS");
        // The runs of a section in one execution come as one total (the probe adds them up).
        let demand = match e {
            MeasurementEvent::ResourceDemand {
                action,
                resource,
                stop_ns,
                ..
            } => Some((action, resource, 1, *stop_ns)),
            MeasurementEvent::ResourceDemandTotal {
                action,
                resource,
                count,
                total_ns,
                ..
            } => Some((action, resource, *count, *total_ns)),
            _ => None,
        };
        if let Some((action, resource, runs, ns)) = demand {
            let stop_ns = &ns;
            {
                match (action.as_str(), resource.as_str()) {
                    ("_compress", "CPU") => {
                        assert_eq!(x.service, "_upload");
                        assert!(*stop_ns > 0, "compressing takes CPU time");
                        *cpu_ns.entry(e.execution()).or_default() += stop_ns;
                    }
                    ("_write", "_hdd") => {
                        assert_eq!(x.service, "_store");
                        if p(x, "n.VALUE") == Some(2.0) {
                            assert!(*stop_ns >= 2_000_000, "slept 2 ms: {stop_ns}");
                        }
                    }
                    other => panic!("unexpected demand {other:?}"),
                }
                *per_exec.entry((e.execution(), action.as_str())).or_default() += runs;
            }
        }
        match e {
            MeasurementEvent::Loop { count, .. } => {
                loops += 1;
                assert_eq!(Some(*count as f64), n);
            }
            MeasurementEvent::Branch { transition, .. } => {
                let expected = if n == Some(3.0) { "_yes" } else { "_no" };
                assert_eq!(transition.as_deref(), Some(expected));
            }
            _ => {}
        }
    }
    assert_eq!(loops, 16);
    for (id, x) in &execs {
        let compress = per_exec.get(&(*id, "_compress")).copied().unwrap_or(0);
        let write = per_exec.get(&(*id, "_write")).copied().unwrap_or(0);
        match x.service {
            "_upload" => {
                assert_eq!((Some(compress as f64), write), (p(x, "files.NUMBER_OF_ELEMENTS"), 0));
                assert!(cpu_ns[id] <= x.ns, "CPU time within the execution's wall time");
            }
            "_store" => assert_eq!((compress, write), (0, 1)),
            _ => assert_eq!((compress, write), (0, 0)),
        }
    }
}

/// Arrays as parameters, called once per run: `byte[][]` (sizes 10, 20, 60), `String[]` ("a",
/// "bcd"), `File[]` (files of 4 and 8 bytes), `int[]`, `byte[]`, an empty `byte[][]` and a
/// `String[]` with a null element.
const ARRAYS: &str = r#"
import beagle.probe.Probe;
import java.io.File;
import java.nio.file.Files;

public class Main {
    static void store(byte[][] chunks, String[] names, File[] files, int[] counts, byte[] data,
            byte[][] none, String[] holes) {
        long e = Probe.enter(0);
        try {
            Probe.param(e, 0, chunks);
            Probe.param(e, 1, names);
            Probe.param(e, 2, files);
            Probe.param(e, 3, counts);
            Probe.param(e, 4, data);
            Probe.param(e, 5, none);
            Probe.param(e, 6, holes);
        } finally {
            Probe.exit(e);
        }
    }

    public static void main(String[] args) throws Exception {
        File a = File.createTempFile("beagle", ".a");
        File b = File.createTempFile("beagle", ".b");
        a.deleteOnExit();
        b.deleteOnExit();
        Files.write(a.toPath(), new byte[4]);
        Files.write(b.toPath(), new byte[8]);
        store(new byte[][] {new byte[10], new byte[20], new byte[60]}, new String[] {"a", "bcd"},
                new File[] {a, b}, new int[] {1, 2, 3, 4}, new byte[7], new byte[0][],
                new String[] {"x", null});
    }
}
"#;

#[test]
fn array_parameters_give_their_length_and_the_mean_size_of_their_elements() {
    if !javac_available() {
        eprintln!("skipped: no javac");
        return;
    }
    let mut table = SectionTable::default();
    table.add(Section::Service {
        service: "_store".into(),
    });
    for slot in ["chunks", "names", "files", "counts", "data", "none", "holes"] {
        table.add_slot(slot);
    }
    let dir = tempfile::tempdir().unwrap();
    let (events, summary) = run_source(dir.path(), ARRAYS, &table);
    assert_eq!(
        (summary.executions, summary.invalid, summary.unknown_sections),
        (2, 0, 0)
    );
    let calls: Vec<_> = (events.iter())
        .filter_map(|e| match e {
            MeasurementEvent::ServiceCall { parameters, .. } => Some(parameters),
            _ => None,
        })
        .collect();
    assert_eq!(calls.len(), 2);
    for params in calls {
        let got: Vec<(&str, f64)> = params.iter().map(|(k, v)| (k.as_str(), *v)).collect();
        assert_eq!(
            got,
            [
                // An array of arrays: its length, and the mean length of the inner byte arrays.
                ("chunks.INNER.BYTESIZE", 30.0),
                ("chunks.NUMBER_OF_ELEMENTS", 3.0),
                // Primitive elements have no byte size.
                ("counts.NUMBER_OF_ELEMENTS", 4.0),
                ("data.BYTESIZE", 7.0),
                ("files.INNER.BYTESIZE", 6.0),
                ("files.NUMBER_OF_ELEMENTS", 2.0),
                // A null element has no size, so the mean would be a guess.
                ("holes.NUMBER_OF_ELEMENTS", 2.0),
                ("names.INNER.BYTESIZE", 2.0),
                ("names.NUMBER_OF_ELEMENTS", 2.0),
                ("none.NUMBER_OF_ELEMENTS", 0.0),
            ]
        );
    }
}

/// Issue 50: the bytes inside the user's objects. A `List<Item>` whose bytes sit in each item's
/// private `byte[] content`, an `Item` alone, and a `Request` whose model composite has the inner
/// declaration `Parts`, read through its getter.
const OBJECTS: &str = r#"
import beagle.probe.Probe;
import java.util.List;

public class Main {
    static class Item {
        private final long id;
        private final byte[] content;
        Item(long id, byte[] content) { this.id = id; this.content = content; }
        byte[] getContent() { return content; }
    }

    static class Request {
        private final List<byte[]> parts;
        Request(List<byte[]> parts) { this.parts = parts; }
        public List<byte[]> getParts() { return parts; }
    }

    static void pack(List<Item> items, Item one, Request request, List<Item> others) {
        long e = Probe.enter(0);
        try {
            Probe.param(e, 0, items);
            Probe.param(e, 1, one);
            Probe.param(e, 2, request);
            Probe.param(e, 3, others);
        } finally {
            Probe.exit(e);
        }
    }

    public static void main(String[] args) {
        List<Item> items = List.of(new Item(1, new byte[100]), new Item(2, new byte[300]));
        pack(items, new Item(3, new byte[50]), new Request(List.of(new byte[5], new byte[6], new byte[7])), items);
    }
}
"#;

/// Before, an object's BYTESIZE was unknown (`Item` gave nothing, `items` its length only) and a
/// composite taken as one object gave none of its inner declarations.
#[test]
fn objects_give_the_bytes_they_hold_and_their_members_by_name() {
    if !javac_available() {
        eprintln!("skipped: no javac");
        return;
    }
    let mut table = SectionTable::default();
    table.add(Section::Service {
        service: "_pack".into(),
    });
    for slot in ["items", "one", "request", "others", "request.Parts"] {
        table.add_slot(slot);
    }
    // `items.BYTESIZE` is what the model reads: the sum over the elements; for `others`, not.
    table.elements_bytesize.insert(0);
    table.members.insert(2, vec![("Parts".to_string(), 4)]);
    table.sizes_as_value.insert(4);
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join("app")).unwrap();
    std::fs::write(
        dir.path().join("app").join(beagle_java::sections::MEMBERS_RESOURCE),
        table.members_text(),
    )
    .unwrap();
    let (events, summary) = run_source(dir.path(), OBJECTS, &table);
    assert_eq!(
        (summary.executions, summary.invalid, summary.unknown_sections),
        (2, 0, 0)
    );
    for e in &events {
        let MeasurementEvent::ServiceCall { parameters, .. } = e else {
            continue;
        };
        let got: Vec<(&str, f64)> = parameters.iter().map(|(k, v)| (k.as_str(), *v)).collect();
        assert_eq!(
            got,
            [
                ("items.BYTESIZE", 400.0),
                ("items.INNER.BYTESIZE", 200.0),
                ("items.NUMBER_OF_ELEMENTS", 2.0),
                ("one.BYTESIZE", 50.0),
                ("others.INNER.BYTESIZE", 200.0),
                ("others.NUMBER_OF_ELEMENTS", 2.0),
                // The composite's `Parts: INT`: the list behind `getParts()`, by its size.
                ("request.Parts.VALUE", 3.0),
            ]
        );
    }
}
