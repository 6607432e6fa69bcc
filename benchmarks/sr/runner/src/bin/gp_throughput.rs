//! GP evaluation throughput: individuals evaluated per second on one thread
//! ([`beagle_fit::gp::throughput`]), without constant optimisation (linear scaling only) and
//! with 10 Levenberg-Marquardt iterations. Compare with the peers' `shared/bench/sr/throughput.py`.
//!
//! `cargo run --release -p beagle-bench-sr --bin gp_throughput -- FILE.csv [SECONDS]`

use beagle_fit::gp::throughput::{measure, POPULATION};
use beagle_fit::parse_csv;

fn main() {
    let mut args = std::env::args().skip(1);
    let path = args.next().expect("usage: gp_throughput FILE.csv [SECONDS]");
    let seconds: f64 = args.next().map_or(10.0, |s| s.parse().expect("seconds"));
    let data = parse_csv(&std::fs::read_to_string(&path).expect("read")).expect("csv");
    let (population, figures) = measure(&data.columns, &data.y, seconds, &[0, 10]);
    println!(
        "{}: {} rows, {} inputs; {POPULATION} random finite trees (of {} drawn), mean length {:.1}, one thread, {} s each",
        path,
        data.len(),
        data.k(),
        population.drawn,
        population.mean_length,
        seconds
    );
    for f in figures {
        let label = match f.iterations {
            0 => "without constant optimisation".to_string(),
            n => format!("with {n} optimisation iterations"),
        };
        println!(
            "{label}: {:.0} individuals/s ({} in {:.2} s, {:.0} % finite)",
            f.per_second(),
            f.count,
            f.seconds,
            100.0 * f.finite as f64 / f.count as f64
        );
    }
}
