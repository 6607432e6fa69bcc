//! Debug helper: fits a CSV file and prints every candidate.
use beagle_fit::{fit, parse_csv, FitOptions};

fn main() {
    let path = std::env::args().nth(1).expect("usage: debug_fit FILE.csv");
    let text = std::fs::read_to_string(&path).expect("read");
    let data = parse_csv(&text).expect("csv");
    let t = std::time::Instant::now();
    let r = fit(&data, &FitOptions::default()).expect("fit");
    println!("time {:?} sigma {:e}", t.elapsed(), r.sigma);
    for c in r.candidates.iter().take(12) {
        println!("{:10} {:10.2} {}", c.source, c.score, c.infix);
    }
    println!("stoex: {}", r.stoex);
    println!("expr: {}", r.infix);
}
