//! Runs the genetic programming alone (no analysers, no seeds) on a CSV and prints its best
//! individual and candidates. Environment: GP_POP, GP_GENS, GP_STAGNATION, GP_TIME, GP_SEED,
//! GP_ITER, GP_EXACT (exact-fit tolerance), FIT_SIZE (Krogmann size threshold), GP_VERBOSE
//! (progress every 50 generations on stderr).
use beagle_fit::criterion::ErrorScale;
use beagle_fit::gp::{run, GpOptions};
use beagle_fit::parse_csv;

fn main() {
    let path = std::env::args().nth(1).expect("usage: gp_run FILE.csv");
    let data = parse_csv(&std::fs::read_to_string(&path).expect("read")).expect("csv");
    let env = |k: &str| std::env::var(k).ok().and_then(|v| v.parse::<f64>().ok());
    let mut g = GpOptions::default();
    if let Some(v) = env("GP_POP") {
        g.population = v as usize;
    }
    if let Some(v) = env("GP_GENS") {
        g.generations = v as usize;
    }
    if let Some(v) = env("GP_STAGNATION") {
        g.stagnation = v as usize;
    }
    if let Some(v) = env("GP_ITER") {
        g.optimisation_iterations = v as usize;
    }
    if let Some(v) = env("GP_EXACT") {
        // A negative tolerance never counts as exact: the run goes on (throughput measurements).
        g.exact_tolerance = v;
    }
    if let Some(v) = env("GP_SEED") {
        g.seed = v as u64;
    }
    g.time_limit = Some(std::time::Duration::from_secs_f64(env("GP_TIME").unwrap_or(10.0)));
    if std::env::var("GP_FUNCS").is_ok_and(|v| v == "arith") {
        g.functions = beagle_fit::FunctionSet::arithmetic();
    }
    if let Some(v) = env("FIT_SIZE") {
        g.fitness.size_threshold = v as usize;
    }
    if std::env::var("GP_VERBOSE").is_ok() {
        g.progress = Some(std::sync::Arc::new(|p: &beagle_fit::GpProgress| {
            if p.generation.is_multiple_of(50) {
                eprintln!(
                    "gen {} evals {} best error {:e} mean length {:.1}",
                    p.generation, p.evaluations, p.best_error, p.mean_length
                );
            }
        }));
    }
    let r = run(&data.columns, &data.y, ErrorScale::Auto, &[], &g);
    println!(
        "{} generations, {} evaluations, stop: {}, {:?}",
        r.generations, r.evaluations, r.stop, r.elapsed
    );
    if let Some(b) = &r.best {
        println!("best: error {:e} fitness {:.4} {}", b.error, b.fitness, b.expr());
    }
    for c in r.candidates.iter().take(5) {
        println!("candidate (penalty {:.1}): {}", c.penalty, c.expr);
    }
}
