//! Parse-and-index throughput and memory of `beagle_pcm::ModelFile::parse`, on a generated 10 MiB
//! repository and on the real fixtures, against plain quick-xml event reading (the floor).
//!
//! Writes `RESULTS.md` beside `Cargo.toml` and exits non-zero when the 10 MiB targets are missed.

mod breakdown;
mod counting_alloc;
mod generate;
mod machine;
mod measure;

use beagle_pcm::{ModelFile, Severity};
use counting_alloc::CountingAlloc;
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

#[global_allocator]
static ALLOC: CountingAlloc = CountingAlloc;

const GENERATED_BYTES: usize = 10 * 1024 * 1024;
const TARGET_MS: f64 = 100.0;
const TARGET_MEMORY_RATIO: f64 = 5.0;

struct Row {
    name: String,
    bytes: usize,
    seffs: usize,
    floor: measure::Timing,
    ours: measure::Timing,
    memory: measure::Memory,
    errors: usize,
    warnings: usize,
}

fn main() -> ExitCode {
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    let fixtures = manifest.join("../../fixtures/pcm");
    let sources = [
        fixtures.join("mediastore/MediaStore.repository"),
        fixtures.join("beagle-palladiofileshare/internal_architecture_model.repository"),
    ];
    let texts: Vec<String> = sources.iter().map(|p| read(p)).collect();
    let templates: Vec<generate::Template> = sources
        .iter()
        .zip(&texts)
        .map(|(p, t)| generate::Template::new(&p.file_name().unwrap().to_string_lossy(), t))
        .collect();
    let generated = generate::generate(&texts[0], &templates, GENERATED_BYTES);
    let generated_path = PathBuf::from("generated.repository");
    if std::env::args().any(|a| a == "--parse-once") {
        // For profilers: one parse of the generated file and nothing else worth sampling.
        let file = ModelFile::parse(generated_path, generated.text);
        println!("{} elements, {} diagnostics", file.tree.len(), file.diagnostics.len());
        return ExitCode::SUCCESS;
    }
    let check = check_generated(&generated_path, &generated, &sources, &texts);
    println!("{check}");

    if std::env::args().any(|a| a == "--breakdown") {
        println!("{}", breakdown::breakdown(&generated_path, &generated.text));
        return ExitCode::SUCCESS;
    }

    let mut rows = vec![measure_one(
        &generated_path,
        "generated (10 MiB)",
        &generated.text,
        generated.seffs,
    )];
    for path in pcm_files(&fixtures) {
        let text = read(&path);
        let name = path.strip_prefix(&fixtures).unwrap_or(&path).display().to_string();
        let seffs = text.matches("<serviceEffectSpecifications__BasicComponent").count();
        rows.push(measure_one(&path, &name, &text, seffs));
    }

    let big = &rows[0];
    let ms = big.ours.median.as_secs_f64() * 1e3;
    let peak_ratio = big.memory.peak as f64 / big.bytes as f64;
    let mut misses = Vec::new();
    if ms >= TARGET_MS {
        misses.push(format!(
            "TIME TARGET MISSED: {ms:.1} ms for the 10 MiB repository (target < {TARGET_MS} ms)"
        ));
    }
    if peak_ratio >= TARGET_MEMORY_RATIO {
        misses.push(format!(
            "MEMORY TARGET MISSED: peak {peak_ratio:.2}x the file size (target < {TARGET_MEMORY_RATIO}x)"
        ));
    }

    let report = report(&rows, &check, &misses);
    println!("{report}");
    let out = manifest.join("RESULTS.md");
    std::fs::write(&out, &report).unwrap_or_else(|e| panic!("cannot write {}: {e}", out.display()));
    println!("written to {}", out.display());
    if misses.is_empty() {
        ExitCode::SUCCESS
    } else {
        for m in &misses {
            eprintln!("{m}");
        }
        ExitCode::FAILURE
    }
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()))
}

/// Every PCM model file under `dir`, sorted, so that rows come in a stable order.
fn pcm_files(dir: &Path) -> Vec<PathBuf> {
    beagle_pcm::workspace::find_model_files(dir).unwrap_or_else(|e| panic!("cannot list {}: {e}", dir.display()))
}

fn measure_one(path: &Path, name: &str, text: &str, seffs: usize) -> Row {
    eprintln!("measuring {name} ({} bytes)", text.len());
    let file = ModelFile::parse(path.to_path_buf(), text.to_string());
    let count = |s| file.diagnostics.iter().filter(|d| d.severity == s).count();
    Row {
        name: name.to_string(),
        bytes: text.len(),
        seffs,
        errors: count(Severity::Error),
        warnings: count(Severity::Warning),
        floor: measure::time_floor(text),
        ours: measure::time_parse(path, text),
        memory: measure::memory(path, text),
    }
}

/// Error diagnostics by code.
fn error_codes(file: &ModelFile) -> BTreeMap<&'static str, usize> {
    let mut codes = BTreeMap::new();
    for d in file.diagnostics.iter().filter(|d| d.severity == Severity::Error) {
        *codes.entry(d.code).or_insert(0) += 1;
    }
    codes
}

/// The generated file must be as valid as its sources: the same errors, once per copy.
fn check_generated(path: &Path, g: &generate::Generated, sources: &[PathBuf], texts: &[String]) -> String {
    let file = ModelFile::parse(path.to_path_buf(), g.text.clone());
    let mut expected: BTreeMap<&'static str, usize> = BTreeMap::new();
    for (p, t) in sources.iter().zip(texts) {
        for (code, n) in error_codes(&ModelFile::parse(p.clone(), t.clone())) {
            *expected.entry(code).or_insert(0) += n * g.copies;
        }
    }
    let got = error_codes(&file);
    let first_unexpected = file
        .diagnostics
        .iter()
        .find(|d| d.severity == Severity::Error && got.get(d.code) != expected.get(d.code));
    assert!(
        got == expected,
        "the generated repository has errors its sources do not have: expected {expected:?}, got {got:?}; first: {first_unexpected:?} at {:?}",
        first_unexpected.map(|d| file.line_col(d.span.start as usize))
    );
    let repo = file.repository.as_ref().expect("the generated file is a repository");
    let seffs = repo.seffs().count();
    assert_eq!(seffs, g.seffs, "SEFFs in the typed view");
    let actions = repo.actions().count();
    let mut by_severity = String::new();
    for s in [Severity::Error, Severity::Warning, Severity::Info] {
        let n = file.diagnostics.iter().filter(|d| d.severity == s).count();
        let _ = write!(by_severity, "{n} {s:?}, ");
    }
    format!(
        "Generated repository: {} bytes, {} copies of each source, {} components, {seffs} SEFFs, {actions} actions, {} elements, {} specifications. \
         Diagnostics: {}error codes {got:?} (exactly the sources' errors once per copy).",
        g.text.len(),
        g.copies,
        repo.components.len(),
        file.tree.len(),
        file.specifications.len(),
        by_severity,
    )
}

fn report(rows: &[Row], check: &str, misses: &[String]) -> String {
    let m = machine::describe();
    let mut s = String::new();
    let _ = writeln!(s, "# beagle-pcm parse-and-index benchmark results\n");
    let _ = writeln!(
        s,
        "Produced by `benchmarks/pcm-parse/run.sh` (see README.md for what is measured).\n"
    );
    let _ = writeln!(s, "- Date: {}", m.date);
    let _ = writeln!(
        s,
        "- CPU: {} ({} cores available; every measurement is single-threaded)",
        m.cpu, m.cores
    );
    let _ = writeln!(s, "- Compiler: {}, release profile", m.rustc);
    let _ = writeln!(
        s,
        "- Time: median of {} samples after {} warm-ups; small files are parsed repeatedly within a sample (at least 2 MiB per sample)",
        measure::RUNS,
        measure::WARM_UPS
    );
    let _ = writeln!(s, "- {check}\n");
    let _ = writeln!(
        s,
        "| File | Size | SEFFs | quick-xml floor | ours (`ModelFile::parse`) | ours / floor | peak memory / size | retained / size | errors / warnings |"
    );
    let _ = writeln!(s, "|---|---:|---:|---:|---:|---:|---:|---:|---:|");
    for r in rows {
        let _ = writeln!(
            s,
            "| {} | {} | {} | {} | {} | {:.1}x | {:.2}x | {:.2}x | {} / {} |",
            r.name,
            size(r.bytes),
            r.seffs,
            timing(&r.floor, r.bytes),
            timing(&r.ours, r.bytes),
            r.ours.median.as_secs_f64() / r.floor.median.as_secs_f64(),
            r.memory.peak as f64 / r.bytes as f64,
            r.memory.retained as f64 / r.bytes as f64,
            r.errors,
            r.warnings,
        );
    }
    let _ = writeln!(s);
    if misses.is_empty() {
        let _ = writeln!(
            s,
            "Targets for the 10 MiB repository (< {TARGET_MS} ms on one core, peak memory < {TARGET_MEMORY_RATIO}x the file size): **met**."
        );
    } else {
        for miss in misses {
            let _ = writeln!(s, "**{miss}**\n");
        }
    }
    s
}

fn size(bytes: usize) -> String {
    if bytes >= 1024 * 1024 {
        format!("{:.1} MiB", bytes as f64 / (1024.0 * 1024.0))
    } else {
        format!("{:.1} KiB", bytes as f64 / 1024.0)
    }
}

fn timing(t: &measure::Timing, bytes: usize) -> String {
    let ms = t.median.as_secs_f64() * 1e3;
    let time = if ms >= 1.0 {
        format!("{ms:.1} ms")
    } else {
        format!("{:.0} µs", ms * 1e3)
    };
    format!("{time} ({:.0} MB/s)", t.mb_per_s(bytes))
}
