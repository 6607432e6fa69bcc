//! `beagle calibrate`: run the suite on this machine and make a [`Profile`] of what it measured.
//! The per-element costs are least-squares lines over the sizes the suite timed (per call: the
//! intercept; per element: the slope), each clamped at zero with a note.

use super::profile::{Cost, MachineInfo, Profile};
use super::suite::{build_suite, run_suite, Progress, SuiteError, SuiteOutput};
use std::path::PathBuf;

#[derive(Clone, Debug)]
pub struct Options {
    /// The `java` command.
    pub java: String,
    /// The JVM options to calibrate (the platform's: `-Xint`, `-XX:TieredStopAtLevel=1`, ...).
    pub jvm_args: Vec<String>,
    /// A name for the platform; default: host and JVM options.
    pub name: Option<String>,
    /// Where the suite is compiled.
    pub work_dir: PathBuf,
    /// The ASM jars' folder.
    pub asm_dir: PathBuf,
    /// Fewer, shorter samples (tests): not repeatable within 2 %.
    pub quick: bool,
    /// JVMs the suite runs in, one after the other ([`super::forks`]); at least 1.
    pub forks: usize,
}

/// JVMs a full calibration runs the suite in (one with `--quick`).
pub const FORKS: usize = 3;

/// Calibrates: builds the suite, runs it in `opts.forks` JVMs, returns the median profile.
/// `on_progress` sees the steps of every JVM as one count.
pub fn calibrate(opts: &Options, on_progress: &mut dyn FnMut(Progress<'_>)) -> Result<Profile, SuiteError> {
    let cp = build_suite(&opts.work_dir, &opts.asm_dir)?;
    let forks = opts.forks.max(1) as u64;
    let mut runs = Vec::new();
    for fork in 0..forks {
        let started = std::time::Instant::now();
        let mut forward = |p: Progress<'_>| {
            let label = if forks > 1 {
                format!("JVM {} of {forks}: {}", fork + 1, p.label)
            } else {
                p.label.to_string()
            };
            on_progress(Progress {
                done: fork * p.total + p.done,
                total: forks * p.total,
                label: &label,
            });
        };
        let out = run_suite(&opts.java, &cp, &opts.jvm_args, opts.quick, &mut forward)?;
        let mut profile = profile_of(&out, machine(opts, &out));
        profile.calibration_s = started.elapsed().as_secs_f64();
        profile.quick = opts.quick;
        runs.push(profile);
    }
    Ok(super::forks::median_profile(&runs).expect("at least one JVM ran"))
}

/// The profile from the suite's output.
pub fn profile_of(out: &SuiteOutput, platform: MachineInfo) -> Profile {
    let mut notes = out.notes.clone();
    let mut p = Profile {
        platform,
        clock_resolution_ns: out.clock_resolution_ns,
        instructions: out.jit.clone(),
        interpreted: out.interpreted.clone(),
        ..Profile::default()
    };
    for ((kind, key), points) in &out.points {
        let (call, element) = fit_line(points);
        let mut cost = Cost {
            call_ns: call,
            element_ns: if points.len() > 1 { element } else { 0.0 },
        };
        for (what, v) in [("per call", &mut cost.call_ns), ("per element", &mut cost.element_ns)] {
            if *v < 0.0 {
                notes.push(format!("{key}: {what} fitted {v:.3} ns, clamped to 0"));
                *v = 0.0;
            }
        }
        if kind == "array" {
            p.arrays.insert(key.clone(), cost);
        } else if key == DEFLATER_INPUT {
            deflater(&mut p.methods, cost);
        } else {
            p.methods.insert(key.clone(), cost);
        }
    }
    p.notes = notes;
    p
}

/// The suite's Deflater benchmark: setInput of n bytes, finish, deflate until finished, reset.
const DEFLATER_INPUT: &str = "java/util/zip/Deflater.setInput([B)V";

/// The compression's work follows the input setInput is given (its elements), while deflate's own
/// array is the output buffer, whose length does not drive it: the per-byte cost goes to
/// setInput, the per-compression cost (finish, deflate, reset) to deflate's call.
fn deflater(methods: &mut std::collections::BTreeMap<String, Cost>, c: Cost) {
    let input = Cost {
        call_ns: 0.0,
        element_ns: c.element_ns,
    };
    methods.insert(DEFLATER_INPUT.into(), input);
    methods.insert("java/util/zip/Deflater.setInput([BII)V".into(), input);
    methods.insert(
        "java/util/zip/Deflater.deflate([B)I".into(),
        Cost {
            call_ns: c.call_ns,
            element_ns: 0.0,
        },
    );
}

/// Least squares `y = a + b x` over the points, each weighted by `1 / y²` (relative errors: the
/// small sizes, whose time is mostly the call, set the intercept; unweighted, the largest size's
/// few percent of noise or cache effects outweigh a small call's whole cost and the intercept
/// goes negative). One point, or one size: (their mean, 0).
pub fn fit_line(points: &[(f64, f64)]) -> (f64, f64) {
    if points.is_empty() {
        return (0.0, 0.0);
    }
    let w = |y: f64| if y > 0.0 { 1.0 / (y * y) } else { 1.0 };
    let sw: f64 = points.iter().map(|p| w(p.1)).sum();
    let mx = points.iter().map(|p| w(p.1) * p.0).sum::<f64>() / sw;
    let my = points.iter().map(|p| w(p.1) * p.1).sum::<f64>() / sw;
    let sxx: f64 = points.iter().map(|p| w(p.1) * (p.0 - mx).powi(2)).sum();
    if sxx == 0.0 {
        let mean = points.iter().map(|p| p.1).sum::<f64>() / points.len() as f64;
        return (mean, 0.0);
    }
    let sxy: f64 = points.iter().map(|p| w(p.1) * (p.0 - mx) * (p.1 - my)).sum();
    let b = sxy / sxx;
    (my - b * mx, b)
}

fn machine(opts: &Options, out: &SuiteOutput) -> MachineInfo {
    let host = read_trimmed("/proc/sys/kernel/hostname")
        .or_else(|| read_trimmed("/etc/hostname"))
        .or_else(|| std::env::var("HOSTNAME").ok())
        .unwrap_or_default();
    let cpu = std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|t| {
            t.lines()
                .find(|l| l.starts_with("model name"))
                .and_then(|l| l.split_once(':'))
                .map(|(_, v)| v.trim().to_string())
        })
        .unwrap_or_default();
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get() as u32);
    let os = format!(
        "{} {}",
        std::env::consts::OS,
        read_trimmed("/proc/sys/kernel/osrelease").unwrap_or_default()
    )
    .trim()
    .to_string();
    let options = if opts.jvm_args.is_empty() {
        "default JVM options".to_string()
    } else {
        opts.jvm_args.join(" ")
    };
    MachineInfo {
        name: opts.name.clone().unwrap_or_else(|| format!("{host} ({options})")),
        host,
        cpu,
        cores,
        os,
        java: opts.java.clone(),
        jvm: format!("{} {}", out.vm_name, out.runtime_version),
        jvm_args: opts.jvm_args.clone(),
        created: now_rfc3339(),
        beagle: env!("CARGO_PKG_VERSION").to_string(),
    }
}

fn read_trimmed(path: &str) -> Option<String> {
    let s = std::fs::read_to_string(path).ok()?.trim().to_string();
    (!s.is_empty()).then_some(s)
}

/// Now as RFC 3339 in UTC (civil date from days since the epoch: Howard Hinnant's algorithm).
fn now_rfc3339() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs()) as i64;
    let (days, rem) = (secs.div_euclid(86400), secs.rem_euclid(86400));
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!(
        "{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}Z",
        rem / 3600,
        rem % 3600 / 60,
        rem % 60
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_line_through_the_sizes_gives_call_and_element() {
        let (a, b) = fit_line(&[(64.0, 300.0), (512.0, 524.0), (2048.0, 1292.0)]);
        assert!((a - 268.0).abs() < 1e-9 && (b - 0.5).abs() < 1e-12, "{a} {b}");
        // A large size's 3 % of noise does not sink a small call's cost below zero.
        let (a, b) = fit_line(&[(16.0, 300.0), (256.0, 660.0), (2048.0, 3350.0), (8192.0, 12800.0)]);
        assert!(a > 250.0 && (b - 1.5).abs() < 0.1, "{a} {b}");
        assert_eq!(fit_line(&[(0.0, 7.0), (0.0, 9.0)]), (8.0, 0.0));
    }

    #[test]
    fn the_deflater_benchmark_splits_into_input_and_call() {
        let mut out = SuiteOutput {
            jit: [("int-arith".to_string(), 0.3)].into(),
            ..SuiteOutput::default()
        };
        out.points.insert(
            ("method".into(), DEFLATER_INPUT.into()),
            vec![(100.0, 3000.0), (1100.0, 8000.0)],
        );
        out.points
            .insert(("array".into(), "byte".into()), vec![(16.0, 10.0), (32.0, 9.0)]);
        let p = profile_of(&out, MachineInfo::default());
        let near = |key: &str, want: f64| {
            let got = p.cost_ns(key).unwrap();
            assert!((got - want).abs() < 1e-6 * want, "{key}: {got}, not {want}");
        };
        near("java/util/zip/Deflater.deflate([B)I", 2500.0);
        near("java/util/zip/Deflater.setInput([B)V elements", 5.0);
        assert_eq!(p.cost_ns("java/util/zip/Deflater.setInput([B)V"), Some(0.0));
        assert_eq!(p.cost_ns("new byte[] elements"), Some(0.0));
        assert!(p.notes.iter().any(|n| n.contains("byte") && n.contains("clamped")));
    }

    #[test]
    fn the_date_is_rfc3339() {
        let s = now_rfc3339();
        assert_eq!(s.len(), 20, "{s}");
        assert!(s.starts_with("20") && s.ends_with('Z'), "{s}");
    }
}
