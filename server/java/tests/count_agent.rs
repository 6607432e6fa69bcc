//! The counting agent on a synthetic section: its per-class counts must be what a hand count of
//! `javap -c` of the same class gives (the loop's instructions times its iterations), its JDK
//! calls and array allocations counted with the arrays' sizes, and each JDK call passed an array
//! with the elements it is passed (`<signature> elements`).

use beagle_analysis::events::MeasurementEvent;
use beagle_java::count::agent::{asm_dir, asm_jars, build_agent};
use beagle_java::count::run::{observations, read_keys};
use beagle_java::probe::decode::{decode_file, DecodeOptions};
use beagle_java::probe::{classes_dir, compile_probe};
use beagle_java::sections::{Section, SectionTable};
use std::collections::BTreeMap;
use std::path::Path;
use std::process::Command;

const N: u64 = 1000;

const SYNTHETIC: &str = r#"
import beagle.probe.Probe;

public class Synthetic {
    static int work(int n, java.security.MessageDigest md) {
        int sum = 0;
        long t = Probe.startCpu(1);
        try {
            byte[] buf = new byte[n];
            java.util.Arrays.fill(buf, (byte) 1);
            for (int i = 0; i < n; i++) {
                // Casts: i2l and l2i ("convert"), i2d and d2i ("float-convert").
                sum += i * 3 + buf[i] + (int) (long) i + (int) (double) i;
            }
            int[] ints = new int[100];
            java.util.Arrays.fill(ints, 7);
            System.arraycopy(ints, 0, ints, 50, 37);
            long[] longs = new long[10];
            java.util.Arrays.fill(longs, 3L);
            md.update(buf, 5, 64);
            md.digest(new byte[50]);
            int[] none = null;
            sum += java.util.Arrays.hashCode(none);
        } finally {
            Probe.stopCpu(1, t);
        }
        return sum;
    }

    public static void main(String[] args) throws Exception {
        java.security.MessageDigest md = java.security.MessageDigest.getInstance("SHA-256");
        long e = Probe.enter(0);
        try {
            System.out.println(work(Integer.parseInt(args[0]), md));
        } finally {
            Probe.exit(e);
        }
    }
}
"#;

fn java_tools() -> bool {
    Command::new("javap").arg("-version").output().is_ok() && Command::new("jar").arg("--version").output().is_ok()
}

/// The opcode class of a `javap -c` mnemonic, by hand (independent of the agent's table).
fn class_of(mnemonic: &str) -> &'static str {
    let m = mnemonic;
    if m.starts_with("iconst")
        || m.starts_with("bipush")
        || m.starts_with("sipush")
        || m.starts_with("ldc")
        || m == "aconst_null"
    {
        "const"
    } else if m.ends_with("aload") && m.len() == 6 && m != "aload" || m == "baload" {
        "array-load"
    } else if m.contains("load") {
        "load"
    } else if m.contains("store") {
        "store"
    } else if m == "imul" {
        "int-mul"
    } else if m == "iadd" || m == "iinc" {
        "int-arith"
    } else if m.starts_with("if") || m == "goto" {
        "branch"
    } else if m.starts_with("invoke") {
        "invoke"
    } else if m == "newarray" {
        "new"
    } else if m == "pop" {
        "stack"
    } else if m == "i2l" || m == "l2i" {
        "convert"
    } else if m == "i2d" || m == "d2i" {
        "float-convert"
    } else {
        panic!("no hand class for {m}")
    }
}

/// `(offset, mnemonic, jump target)` of method `work` in `javap -c` of the class.
fn javap_work(classes: &Path, probe: &Path) -> Vec<(u32, String, Option<u32>, String)> {
    let cp = std::env::join_paths([classes, probe]).unwrap();
    let out = Command::new("javap")
        .arg("-c")
        .arg("-cp")
        .arg(cp)
        .arg("Synthetic")
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    let body = text
        .split("static int work(int, java.security.MessageDigest);")
        .nth(1)
        .unwrap();
    let body = body.split("Exception table").next().unwrap();
    body.lines()
        .filter_map(|l| {
            let (off, rest) = l.trim().split_once(": ")?;
            let off: u32 = off.parse().ok()?;
            let mut words = rest.split_whitespace();
            let m = words.next()?.to_string();
            let target = if m.starts_with("if") || m == "goto" {
                words.next()?.parse().ok()
            } else {
                None
            };
            Some((off, m, target, rest.to_string()))
        })
        .collect()
}

/// The hand count: the instructions between the section's start and stop (less the probe's
/// `lstore` of its start time and the stop's two arguments), the loop's condition n+1 times and
/// its body n times.
fn hand_count(code: &[(u32, String, Option<u32>, String)]) -> BTreeMap<String, u64> {
    let start = code.iter().position(|c| c.3.contains("Probe.startCpu")).unwrap() + 2;
    let stop = code.iter().position(|c| c.3.contains("Probe.stopCpu")).unwrap() - 2;
    let section = &code[start..stop];
    let back = section.iter().find(|c| c.1 == "goto" && c.2.unwrap() < c.0).unwrap();
    let head = back.2.unwrap();
    let exit = section
        .iter()
        .find(|c| c.0 >= head && c.1.starts_with("if_"))
        .unwrap()
        .0;
    let mut counts = BTreeMap::new();
    for (off, m, _, _) in section {
        let times = if *off >= head && *off <= exit {
            N + 1
        } else if *off > exit && *off <= back.0 {
            N
        } else {
            1
        };
        *counts.entry(class_of(m).to_string()).or_insert(0) += times;
    }
    counts
}

#[test]
fn a_synthetic_section_counts_what_javap_shows() {
    if !java_tools() || asm_jars(&asm_dir()).is_err() {
        eprintln!("skipped: no JDK tools or no ASM (libasm-java)");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let probe_out = dir.path().join("probe");
    compile_probe(&probe_out).unwrap();
    let probe = classes_dir(&probe_out);
    let agent = build_agent(&dir.path().join("agent"), &probe, &asm_dir()).unwrap();
    let src = dir.path().join("Synthetic.java");
    std::fs::write(&src, SYNTHETIC).unwrap();
    let classes = dir.path().join("classes");
    let javac = Command::new("javac")
        .args(["--release", "17", "-cp"])
        .arg(&probe)
        .arg("-d")
        .arg(&classes)
        .arg(&src)
        .output()
        .unwrap();
    assert!(javac.status.success(), "{}", String::from_utf8_lossy(&javac.stderr));
    let events = dir.path().join("events.bin");
    let keys = dir.path().join("keys.tsv");
    let run = Command::new("java")
        .arg(format!("-javaagent:{}", agent.display()))
        .arg("-Dbeagle.count=true")
        .arg(format!("-Dbeagle.countKeys={}", keys.display()))
        .arg(format!("-Dbeagle.events={}", events.display()))
        .arg("-cp")
        .arg(std::env::join_paths([&classes, &probe]).unwrap())
        .arg("Synthetic")
        .arg(N.to_string())
        .output()
        .unwrap();
    assert!(run.status.success(), "{}", String::from_utf8_lossy(&run.stderr));
    assert!(run.stderr.is_empty(), "{}", String::from_utf8_lossy(&run.stderr));

    let mut table = SectionTable::default();
    table.add(Section::Service { service: "_s".into() });
    table.add(Section::Demand {
        action: "_work".into(),
        resource: "CPU".into(),
        cpu: true,
    });
    let options = DecodeOptions {
        run: "t".into(),
        warmup: 0,
        service_times: false,
        count_keys: read_keys(&keys),
    };
    let (decoded, _) = decode_file(&events, &table, &options).unwrap();
    assert!(decoded.iter().any(|e| matches!(e, MeasurementEvent::Count { .. })));
    let counted: BTreeMap<String, u64> = observations(&decoded)
        .into_iter()
        .inspect(|o| assert_eq!((o.action.as_str(), o.runs), ("_work", 1)))
        .map(|o| (o.key, o.per_run as u64))
        .collect();
    let code = javap_work(&classes, &probe);
    let mut expected = hand_count(&code);
    // The JDK calls, each once, and the elements each is passed: an array's length, the length
    // after an offset, arraycopy's length; a null array passes none (its key never counts).
    let calls = [
        ("java/util/Arrays.fill([BB)V", Some(N)),
        ("java/util/Arrays.fill([II)V", Some(100)),
        (
            "java/lang/System.arraycopy(Ljava/lang/Object;ILjava/lang/Object;II)V",
            Some(37),
        ),
        ("java/util/Arrays.fill([JJ)V", Some(10)),
        ("java/security/MessageDigest.update([BII)V", Some(64)),
        ("java/security/MessageDigest.digest([B)[B", Some(50)),
        ("java/util/Arrays.hashCode([I)I", None),
    ];
    for (signature, elements) in calls {
        expected.insert(signature.into(), 1);
        if let Some(n) = elements {
            expected.insert(format!("{signature} elements"), n);
        }
    }
    expected.insert("new byte[]".into(), 2);
    expected.insert("new byte[] elements".into(), N + 50);
    expected.insert("new int[]".into(), 1);
    expected.insert("new int[] elements".into(), 100);
    expected.insert("new long[]".into(), 1);
    expected.insert("new long[] elements".into(), 10);
    eprintln!("counted: {counted:?}");
    for (key, n) in expected.iter().filter(|(k, _)| k.ends_with(" elements")) {
        assert_eq!(counted.get(key), Some(n), "{key}");
    }
    assert_eq!(counted, expected, "javap -c:\n{code:#?}");
}
