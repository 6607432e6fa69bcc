//! Debug helper: fits a CSV file and prints every candidate.
use beagle_fit::{fit, parse_csv, FitOptions};

fn main() {
    let path = std::env::args().nth(1).expect("usage: debug_fit FILE.csv");
    let text = std::fs::read_to_string(&path).expect("read");
    let data = parse_csv(&text).expect("csv");
    let t = std::time::Instant::now();
    let mut options = FitOptions::default();
    if let Some(g) = options.gp.as_mut() {
        let env = |k: &str| std::env::var(k).ok().and_then(|v| v.parse::<f64>().ok());
        if let Some(v) = env("GP_STAGNATION") {
            g.stagnation = v as usize;
        }
        if let Some(v) = env("GP_TOL") {
            g.stagnation_tolerance = v;
        }
        if let Some(v) = env("GP_POP") {
            g.population = v as usize;
        }
        if let Some(v) = env("GP_GENS") {
            g.generations = v as usize;
        }
        if let Some(v) = env("GP_ITER") {
            g.optimisation_iterations = v as usize;
        }
        if let Some(v) = env("GP_SEED") {
            g.seed = v as u64;
        }
        if let Some(v) = env("GP_TIME") {
            g.time_limit = Some(std::time::Duration::from_secs_f64(v));
        }
    }
    let env = |k: &str| std::env::var(k).ok().and_then(|v| v.parse::<f64>().ok());
    if let Some(g) = options.gp.as_mut() {
        if let Some(v) = env("FIT_SIZE") {
            g.fitness.size_threshold = v as usize;
        }
        if let Some(v) = env("GP_ISLANDS") {
            g.islands = v as usize;
        }
    }
    // TARGET=count|value|time|auto, NO_GP=1: the paths the issue-21 forms take.
    if let Ok(t) = std::env::var("TARGET") {
        options.target = match t.as_str() {
            "count" => beagle_fit::Target::Count,
            "value" => beagle_fit::Target::Value,
            "time" => beagle_fit::Target::Time,
            _ => beagle_fit::Target::Auto,
        };
    }
    if std::env::var("NO_GP").is_ok() {
        options.gp = None;
    }
    let r = fit(&data, &options).expect("fit");
    println!("time {:?} sigma {:e}", t.elapsed(), r.sigma);
    if let Some(g) = &r.gp {
        println!(
            "gp: {} generations, {} evaluations, stop: {}, {:?}, best {}",
            g.generations,
            g.evaluations,
            g.stop,
            g.elapsed,
            g.best.as_deref().unwrap_or("-")
        );
    }
    for c in r.candidates.iter().take(12) {
        println!("{:10} {:10.2} {}", c.source, c.score, c.infix);
    }
    println!("stoex: {}", r.stoex);
    println!("expr: {}", r.infix);
    if std::env::var("EVIDENCE").is_ok() {
        println!("{:#?}", r.evidence);
    }
}
