//! Timing and memory of one input: the quick-xml floor against `ModelFile::parse`.

use crate::counting_alloc::CountingAlloc;
use beagle_pcm::ModelFile;
use quick_xml::events::Event;
use quick_xml::Reader;
use std::hint::black_box;
use std::path::Path;
use std::time::{Duration, Instant};

pub const WARM_UPS: usize = 3;
pub const RUNS: usize = 15;
/// Small files are parsed repeatedly within one sample so that a sample lasts long enough to time.
const MIN_BYTES_PER_SAMPLE: usize = 2 * 1024 * 1024;

/// The floor: every event and every attribute of `text` read by plain quick-xml, with the same
/// reader settings as Beagle's tree builder, building nothing.
pub fn quick_xml_floor(text: &str) -> usize {
    let mut reader = Reader::from_str(text);
    let config = reader.config_mut();
    config.check_end_names = true;
    config.trim_text(false);
    let mut touched = 0usize;
    loop {
        match reader.read_event() {
            Ok(Event::Start(e)) | Ok(Event::Empty(e)) => {
                touched += e.name().as_ref().len();
                for a in e.attributes().with_checks(true) {
                    let a = a.expect("the floor is only run on well-formed files");
                    touched += a.key.as_ref().len() + a.value.len();
                }
            }
            Ok(Event::Eof) => break,
            Ok(_) => touched += 1,
            Err(e) => panic!("the floor is only run on well-formed files: {e}"),
        }
    }
    touched
}

pub struct Timing {
    /// Median wall time of one pass over the input.
    pub median: Duration,
}

impl Timing {
    pub fn mb_per_s(&self, bytes: usize) -> f64 {
        bytes as f64 / 1e6 / self.median.as_secs_f64()
    }
}

/// Median over `RUNS` samples (after `WARM_UPS`) of `pass`, which returns the time it measured.
fn median_of(bytes: usize, mut pass: impl FnMut() -> Duration) -> Timing {
    let repeats = MIN_BYTES_PER_SAMPLE.div_ceil(bytes.max(1)).max(1);
    let mut sample = || (0..repeats).map(|_| pass()).sum::<Duration>() / repeats as u32;
    for _ in 0..WARM_UPS {
        sample();
    }
    let mut samples: Vec<Duration> = (0..RUNS).map(|_| sample()).collect();
    samples.sort();
    Timing {
        median: samples[samples.len() / 2],
    }
}

pub fn time_floor(text: &str) -> Timing {
    median_of(text.len(), || {
        let t = Instant::now();
        black_box(quick_xml_floor(black_box(text)));
        t.elapsed()
    })
}

/// Times `ModelFile::parse` alone: copying the text in and dropping the result are outside the clock.
pub fn time_parse(path: &Path, text: &str) -> Timing {
    median_of(text.len(), || {
        let owned = text.to_string();
        let t = Instant::now();
        let file = black_box(ModelFile::parse(path.to_path_buf(), black_box(owned)));
        let elapsed = t.elapsed();
        drop(file);
        elapsed
    })
}

pub struct Memory {
    /// Highest live bytes during the parse, counting the text the `ModelFile` takes ownership of.
    pub peak: usize,
    /// Live bytes held by the finished `ModelFile` (its text included).
    pub retained: usize,
}

pub fn memory(path: &Path, text: &str) -> Memory {
    let before = CountingAlloc::current();
    CountingAlloc::reset_peak();
    let owned = text.to_string();
    let file = ModelFile::parse(path.to_path_buf(), owned);
    let peak = CountingAlloc::peak() - before;
    let retained = CountingAlloc::current() - before;
    drop(black_box(file));
    Memory { peak, retained }
}
