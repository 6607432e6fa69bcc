//! `--breakdown`: where the time and the memory of one `ModelFile::parse` go, by part of the
//! result. Memory is measured by cloning each part of a parsed file under the counting allocator
//! (a clone allocates exactly `len`, so "retained" minus the sum of clones is spare capacity).

use crate::counting_alloc::CountingAlloc;
use beagle_pcm::{ModelFile, XmlTree};
use std::fmt::Write as _;
use std::hint::black_box;
use std::path::Path;
use std::time::{Duration, Instant};

/// Live bytes that `make` allocates and keeps, and the peak while making it.
fn heap_of<T>(make: impl FnOnce() -> T) -> (usize, usize, T) {
    let before = CountingAlloc::current();
    CountingAlloc::reset_peak();
    let value = make();
    (CountingAlloc::current() - before, CountingAlloc::peak() - before, value)
}

fn median(mut f: impl FnMut() -> Duration) -> Duration {
    let mut v: Vec<Duration> = (0..9).map(|_| f()).collect();
    v.sort();
    v[v.len() / 2]
}

pub fn breakdown(path: &Path, text: &str) -> String {
    let size = text.len() as f64;
    let mut s = String::new();
    let (retained, peak, file) = heap_of(|| ModelFile::parse(path.to_path_buf(), text.to_string()));
    let _ = writeln!(
        s,
        "Memory of `ModelFile::parse` on {} bytes (x = multiple of the file size):",
        text.len()
    );
    let _ = writeln!(s, "| part | bytes | x |\n|---|---:|---:|");
    let row = |s: &mut String, name: &str, bytes: usize| {
        let _ = writeln!(s, "| {name} | {bytes} | {:.2} |", bytes as f64 / size);
    };
    row(&mut s, "peak during parse", peak);
    row(&mut s, "retained by the ModelFile", retained);
    let (b, _, tree_only) = heap_of(|| XmlTree::parse(text.to_string()));
    row(&mut s, "`XmlTree::parse` alone, retained (text included)", b);
    drop(tree_only);
    row(&mut s, "  of which the text", text.len());
    let (b, _, c) = heap_of(|| file.tree.clone());
    row(&mut s, "tree, cloned (no spare capacity)", b);
    drop(c);
    let (b, _, c) = heap_of(|| file.lines.clone());
    row(&mut s, "line index, cloned", b);
    drop(c);
    let (b, _, c) = heap_of(|| file.index.clone());
    row(&mut s, "index (ids, references), cloned", b);
    drop(c);
    let _ = writeln!(
        s,
        "| ... {} references, {} bytes each inline |  |  |",
        file.index.references().len(),
        std::mem::size_of::<beagle_pcm::reference::Reference>()
    );
    let (b, _, c) = heap_of(|| file.specifications.clone());
    row(&mut s, "specifications (text + StoEx trees), cloned", b);
    drop(c);
    let (b, _, c) = heap_of(|| file.repository.clone());
    row(&mut s, "typed view (Repository), cloned", b);
    drop(c);
    let (b, _, c) = heap_of(|| file.diagnostics.clone());
    row(&mut s, "diagnostics, cloned", b);
    drop(c);
    let _ = writeln!(
        s,
        "\n{} elements, {} specifications, {} references",
        file.tree.len(),
        file.specifications.len(),
        file.index.references().len()
    );
    let _ = writeln!(
        s,
        "Inline sizes (bytes): Element {}, Attribute {}, Reference {}, Specification {}, Action {}",
        std::mem::size_of::<beagle_pcm::xml::Element>(),
        std::mem::size_of::<beagle_pcm::xml::Attribute>(),
        std::mem::size_of::<beagle_pcm::reference::Reference>(),
        std::mem::size_of::<beagle_pcm::Specification>(),
        std::mem::size_of::<beagle_pcm::model::Action>(),
    );
    drop(file);

    let whole = median(|| {
        let t = text.to_string();
        let start = Instant::now();
        let f = black_box(ModelFile::parse(path.to_path_buf(), t));
        let d = start.elapsed();
        drop(f);
        d
    });
    let tree = median(|| {
        let t = text.to_string();
        let start = Instant::now();
        let f = black_box(XmlTree::parse(t));
        let d = start.elapsed();
        drop(f);
        d
    });
    let floor = median(|| {
        let start = Instant::now();
        black_box(crate::measure::quick_xml_floor(text));
        start.elapsed()
    });
    let ms = |d: Duration| d.as_secs_f64() * 1e3;
    let _ = writeln!(
        s,
        "\nTime: quick-xml floor {:.1} ms; `XmlTree::parse` {:.1} ms; whole `ModelFile::parse` {:.1} ms \
         (so index + typed view + StoEx + checks: {:.1} ms)",
        ms(floor),
        ms(tree),
        ms(whole),
        ms(whole) - ms(tree)
    );
    s
}
