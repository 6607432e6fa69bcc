//! `fixtures/events-example/upload.events` is what its generator writes (so its documented laws are
//! the laws it was made from), and it reads back as the same events.

#[allow(dead_code)]
#[path = "../examples/fileshare_events.rs"]
mod generator;

#[test]
fn the_committed_events_are_the_generator_output() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/events-example/upload.events");
    let committed = std::fs::read_to_string(&path).unwrap();
    let mut generated = generator::HEADER.as_bytes().to_vec();
    beagle_measure::events_format::write_events(&mut generated, &generator::events()).unwrap();
    assert!(
        committed == String::from_utf8(generated).unwrap(),
        "regenerate: cargo run -p beagle-measure --example fileshare_events > fixtures/events-example/upload.events"
    );
    let read = beagle_measure::events_format::read_events(&path).unwrap();
    assert_eq!(read, generator::events());
}
