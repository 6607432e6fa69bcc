//! Issue 18, point 2: a CIPM log gives the same measurements whatever the order of its records
//! (across files, as Kieker rotates them) and however coarse its clock (every record of an
//! execution with one timestamp, as millisecond and Windows clocks write them). Records are tied
//! to executions by id.

use beagle_analysis::{results_from_events, ResultOptions};
use beagle_measure::{convert, read_log, OperationMapping};
use proptest::prelude::*;
use rand::seq::SliceRandom;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use std::path::{Path, PathBuf};

const P: &str = "tools.vitruv.applications.pcmjava.modelrefinement.parameters.monitoring.records";

/// How the records of one execution are timed.
#[derive(Clone, Copy, Debug)]
enum Clock {
    /// Nanoseconds: the call starts, its internal action runs, then the nested call.
    Fine,
    /// One timestamp for every record of an execution and its nested call (entries, starts and
    /// logging times); only the ends differ.
    Coarse,
}

/// The lines of a log of `n` upload executions with known laws: an internal action of
/// `1000 * files + 500` ns, a loop of `files` iterations, a branch taking `_Large` above 10 files,
/// and a nested call passing `size = 100 * files` bytes, whose own action takes `2 * size` ns.
fn lines(n: usize, clock: Clock) -> Vec<String> {
    let mut out = Vec::new();
    for k in 0..n {
        let files = 1 + (k * 7) % 20;
        let t0 = 1_000_000 * k as u64;
        let at = |fine: u64| match clock {
            Clock::Fine => t0 + fine,
            Clock::Coarse => t0,
        };
        let demand = 1000 * files as u64 + 500;
        let size = 100 * files;
        let inner = 2 * size as u64;
        let (e, c) = (format!("e-{k}"), format!("e-{k}-c"));
        // Kieker writes a record when its monitored code ends: the call's record comes last.
        out.push(format!(
            "$2;{};s;{e};_Work;_CPU;{};{}",
            at(20) + demand,
            at(10),
            at(10) + demand
        ));
        out.push(format!("$3;{};s;{e};_Loop;{files}", at(30) + demand));
        let branch = if files > 10 { "_Large" } else { "_Small" };
        out.push(format!("$4;{};s;{e};_Branch;{branch}", at(40) + demand));
        out.push(format!(
            "$2;{};s;{c};_Inner;_CPU;{};{}",
            at(60) + demand + inner,
            at(55) + demand,
            at(55) + demand + inner
        ));
        out.push(format!(
            "$1;{};s;{c};_Callee;{{\"size_BYTESIZE\":{size},}};{e};_Call;{};{};<not set>",
            at(70) + demand + inner,
            at(50) + demand,
            at(65) + demand + inner
        ));
        out.push(format!(
            "$1;{};s;{e};_Upload;{{\"files_NUMBER_OF_ELEMENTS\":{files},}};<not set>;<not set>;{};{};<not set>",
            at(90) + demand + inner,
            at(0),
            at(80) + demand + inner
        ));
    }
    out
}

/// Writes `lines` as a log in `dir`, split over `files` `.dat` files in turn.
fn write_log(dir: &Path, lines: &[String], files: usize) {
    std::fs::create_dir_all(dir).unwrap();
    std::fs::write(
        dir.join("kieker.map"),
        format!("$1={P}.ServiceCallRecord\n$2={P}.ResponseTimeRecord\n$3={P}.LoopRecord\n$4={P}.BranchRecord\n"),
    )
    .unwrap();
    for f in 0..files {
        let text: String = lines.iter().skip(f).step_by(files).map(|l| format!("{l}\n")).collect();
        std::fs::write(dir.join(format!("kieker-{f:03}.dat")), text).unwrap();
    }
}

/// Every element's observations, as sorted text (the order the analysis saw them in aside).
fn measured(dir: &Path) -> Vec<(String, Vec<String>)> {
    let log = read_log(dir).unwrap();
    let (events, _) = convert(&log, &OperationMapping::new());
    results_from_events(&events, &ResultOptions::default())
        .into_iter()
        .map(|(element, r)| {
            let mut observations: Vec<String> = r
                .observations
                .iter()
                .map(|o| format!("{:?} {} {:?}", o.parameters, o.value, o.executions))
                .collect();
            observations.sort();
            (format!("{:?}", element.kind), observations)
        })
        .collect()
}

fn temp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("beagle-order-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

#[test]
fn the_laws_are_in_the_measurements_of_the_log_as_written() {
    let dir = temp("written");
    write_log(&dir, &lines(40, Clock::Fine), 1);
    let m = measured(&dir);
    let text: String = m.iter().flat_map(|(_, o)| o.iter().map(|o| format!("{o}\n"))).collect();
    // The demand carries its service's input; the nested call its size; nothing lost its
    // parameters.
    // (Demands in milliseconds: 1000 * 12 + 500 ns, 2 * 1200 ns.)
    assert!(text.contains("\"files.NUMBER_OF_ELEMENTS\": 12.0} 0.0125 "), "{text}");
    assert!(text.contains("\"size.BYTESIZE\": 1200.0} 0.0024 "), "{text}");
    assert!(
        !text.lines().any(|l| l.starts_with("{}")),
        "an observation without parameters: {text}"
    );
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    /// Shuffled over up to four files, with a fine or a coarse clock: the same measurements.
    #[test]
    fn shuffling_records_or_coarsening_the_clock_changes_nothing(seed in any::<u64>(), files in 1usize..5, coarse in any::<bool>()) {
        let reference = temp(&format!("ref-{seed}"));
        write_log(&reference, &lines(30, Clock::Fine), 1);
        let mut shuffled = lines(30, if coarse { Clock::Coarse } else { Clock::Fine });
        shuffled.shuffle(&mut ChaCha8Rng::seed_from_u64(seed));
        let dir = temp(&format!("shuffled-{seed}"));
        write_log(&dir, &shuffled, files);
        let (a, b) = (measured(&reference), measured(&dir));
        let _ = std::fs::remove_dir_all(&reference);
        let _ = std::fs::remove_dir_all(&dir);
        prop_assert_eq!(a, b);
    }
}

/// Issue 18, point 3: the same log compressed as Kieker's writers compress it (1.13: a zip per
/// file; 1.14+: gzip, xz, zip or zlib per file, `kieker.map` plain), or packed whole into one zip
/// archive, gives the same measurements.
#[test]
fn compressed_logs_give_the_same_measurements() {
    use std::io::Write;
    let plain = temp("plain");
    write_log(&plain, &lines(30, Clock::Fine), 3);
    let reference = measured(&plain);
    let dats: Vec<PathBuf> = {
        let mut v: Vec<PathBuf> = std::fs::read_dir(&plain)
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|e| e == "dat"))
            .collect();
        v.sort();
        v
    };
    /// Compresses a `.dat` file's bytes (the entry name for zip).
    type Compressor = fn(&[u8], &str) -> Vec<u8>;
    let compressors: [(&str, Compressor); 4] = [
        ("gz", |b, _| {
            let mut w = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
            w.write_all(b).unwrap();
            w.finish().unwrap()
        }),
        ("xz", |b, _| {
            let mut out = Vec::new();
            lzma_rs::xz_compress(&mut &b[..], &mut out).unwrap();
            out
        }),
        ("zip", |b, name| {
            let mut w = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
            w.start_file(name, zip::write::SimpleFileOptions::default()).unwrap();
            w.write_all(b).unwrap();
            w.finish().unwrap().into_inner()
        }),
        ("df", |b, _| {
            let mut w = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::default());
            w.write_all(b).unwrap();
            w.finish().unwrap()
        }),
    ];
    for (extension, compress) in compressors {
        let dir = temp(extension);
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::copy(plain.join("kieker.map"), dir.join("kieker.map")).unwrap();
        for dat in &dats {
            let name = dat.file_name().unwrap().to_str().unwrap();
            let packed = compress(&std::fs::read(dat).unwrap(), name);
            std::fs::write(dir.join(dat.with_extension(extension).file_name().unwrap()), packed).unwrap();
        }
        assert_eq!(measured(&dir), reference, "{extension}");
        let _ = std::fs::remove_dir_all(&dir);
    }
    // The whole folder in one archive.
    let archive = temp("archive").with_extension("zip");
    let mut w = zip::ZipWriter::new(std::fs::File::create(&archive).unwrap());
    for f in std::iter::once(plain.join("kieker.map")).chain(dats.iter().cloned()) {
        let name = format!("kieker-20261125/{}", f.file_name().unwrap().to_str().unwrap());
        w.start_file(name, zip::write::SimpleFileOptions::default()).unwrap();
        w.write_all(&std::fs::read(&f).unwrap()).unwrap();
    }
    w.finish().unwrap();
    assert_eq!(measured(&archive), reference, "archive");
    let _ = std::fs::remove_file(&archive);
    let _ = std::fs::remove_dir_all(&plain);
}

#[test]
fn a_bzip2_file_named_gz_is_named_and_costs_only_its_records() {
    let dir = temp("bz2");
    write_log(&dir, &lines(4, Clock::Fine), 2);
    std::fs::remove_file(dir.join("kieker-000.dat")).unwrap();
    std::fs::write(dir.join("kieker-000.gz"), b"BZh91AY&SY not really").unwrap();
    let log = read_log(&dir).unwrap();
    assert_eq!(log.records.len(), 12, "the other file's records");
    assert_eq!(log.unreadable.len(), 1);
    assert!(log.unreadable[0].1.contains("bzip2"), "{:?}", log.unreadable);
    // Alone, it is the error.
    std::fs::remove_file(dir.join("kieker-001.dat")).unwrap();
    let e = read_log(&dir).unwrap_err().to_string();
    assert!(e.contains("kieker-000.gz") && e.contains("bzip2"), "{e}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Issue 18, point 3: a log in Kieker's write order streams, with at most the executions of one
/// upload open at a time, into the measurements the whole log gives; a shuffled one is refused
/// (the caller reads it whole).
#[test]
fn a_log_in_write_order_streams_into_the_same_measurements() {
    use beagle_analysis::EventDigest;
    use beagle_measure::kieker::stream::{stream_log, StreamError, Streamed};
    let dir = temp("stream");
    // Rotated as Kieker rotates: consecutive records per file.
    let all = lines(60, Clock::Fine);
    write_log(&dir, &all, 1);
    std::fs::remove_file(dir.join("kieker-000.dat")).unwrap();
    for (n, chunk) in all.chunks(50).enumerate() {
        let text: String = chunk.iter().map(|l| format!("{l}\n")).collect();
        std::fs::write(dir.join(format!("kieker-{n:03}.dat")), text).unwrap();
    }
    let mut digest = EventDigest::new(ResultOptions::default());
    let report = stream_log(&dir, &mut |s| match s {
        Streamed::Event(e) => digest.add(&e),
        Streamed::Ended(x) => digest.end(&x),
    })
    .unwrap();
    assert_eq!((report.records, report.executions), (60 * 6, 120));
    assert!(
        report.most_open <= 2,
        "an upload and its nested call: {}",
        report.most_open
    );
    let streamed: Vec<(String, Vec<String>)> = digest
        .finish()
        .into_iter()
        .map(|(element, r)| {
            let mut o: Vec<String> = r
                .observations
                .iter()
                .map(|o| format!("{:?} {} {:?}", o.parameters, o.value, o.executions))
                .collect();
            o.sort();
            (format!("{:?}", element.kind), o)
        })
        .collect();
    assert_eq!(streamed, measured(&dir));

    let mut shuffled = lines(60, Clock::Fine);
    shuffled.shuffle(&mut ChaCha8Rng::seed_from_u64(3));
    let dir2 = temp("stream-shuffled");
    write_log(&dir2, &shuffled, 3);
    let refused = stream_log(&dir2, &mut |_| {});
    assert!(
        matches!(refused, Err(StreamError::NotInWriteOrder { .. })),
        "{refused:?}"
    );
    let _ = std::fs::remove_dir_all(&dir);
    let _ = std::fs::remove_dir_all(&dir2);
}
