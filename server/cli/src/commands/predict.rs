//! `beagle predict PATH --service NAME --at name.CHAR=value ...`: the expected demand of a
//! service, per resource type, from the repository as it is (see
//! `beagle_job::predicting::predict`).

use crate::error::CliError;
use beagle_analysis::model::resource_name;
use beagle_analysis::predict::Bindings;
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(clap::Args)]
pub struct Args {
    /// A workspace folder with a beagle.toml, or a .repository file.
    #[arg(default_value = ".")]
    path: PathBuf,
    /// The service: `Component.operation`, an operation that one SEFF implements, or a SEFF id.
    #[arg(long, value_name = "NAME")]
    service: String,
    /// An input characterisation's value, e.g. `files.NUMBER_OF_ELEMENTS=20` (repeatable).
    #[arg(long = "at", value_name = "NAME.CHAR=VALUE")]
    at: Vec<String>,
    /// Print the prediction as JSON.
    #[arg(long)]
    json: bool,
    /// What if it ran there: `CONTAINER` (every component) or `COMPONENT=CONTAINER` (one), by
    /// name or id (repeatable). Needs a resource environment.
    #[arg(long, value_name = "[COMPONENT=]CONTAINER")]
    on: Vec<String>,
    /// Another `.allocation` than the workspace's.
    #[arg(long, value_name = "FILE")]
    allocation: Option<PathBuf>,
    /// Predict for another platform: its profile (`beagle calibrate --out FILE` on it). Counted
    /// actions (`beagle analyse --count`) take their times there from their counts.
    #[arg(long, value_name = "FILE")]
    platform: Option<PathBuf>,
}

/// Exit status 0 for a complete prediction, 1 when parts could not be predicted (each named),
/// 2 when the input is unusable.
pub fn run(args: &Args) -> Result<ExitCode, CliError> {
    let ws = crate::commands::workspace::resolve(&args.path)?;
    let mut inputs = Bindings::new();
    for a in &args.at {
        let (name, value) = beagle_job::predicting::predict::parse_binding(a)?;
        inputs.insert(name, value);
    }
    let deploy = beagle_job::predicting::predict::Deploy {
        allocation: args.allocation.clone(),
        on: args.on.clone(),
    };
    let on_platform = match &args.platform {
        Some(path) => {
            let profile = beagle_java::platform::Profile::read(path)?;
            Some(beagle_job::predicting::platform::predict_on_platform(
                &ws,
                &args.service,
                &inputs,
                &deploy,
                &profile,
            )?)
        }
        None => None,
    };
    let p = match &on_platform {
        Some(o) => o.prediction.clone(),
        None => beagle_job::predicting::predict::predict(&ws, &args.service, &inputs, &deploy)?,
    };
    if args.json {
        match &on_platform {
            Some(o) => println!("{}", serde_json::to_string_pretty(o)?),
            None => println!("{}", serde_json::to_string_pretty(&p)?),
        }
    } else {
        if let Some(o) = &on_platform {
            println!("on platform {}:", o.platform);
            for c in &o.counted {
                println!(
                    "  {} from its counts (R = {:.3}: counted work × {:.3}, unexplained × {:.3}): {} ms",
                    c.name, c.r, c.counted_factor, c.unexplained_factor, c.expression_ms
                );
            }
            for note in &o.notes {
                eprintln!("warning: {note}");
            }
            for (name, why) in &o.not_moved {
                println!("  {name}: as measured ({why})");
            }
            if !o.uncalibrated.is_empty() {
                eprintln!(
                    "warning: the profile has no timing for {} (each costed as an invoke)",
                    o.uncalibrated.join(", ")
                );
            }
        }
        let at: Vec<String> = inputs.iter().map(|(k, v)| format!("{k} = {v}")).collect();
        println!(
            "{} (SEFF {}){}:",
            p.service,
            p.prediction.seff,
            if at.is_empty() {
                String::new()
            } else {
                format!(" at {}", at.join(", "))
            }
        );
        for (resource, ms) in &p.prediction.demands {
            println!("  {:<8} {ms:>14.6} ms", resource_name(resource));
        }
        println!("  {:<8} {:>14.6} ms", "total", p.prediction.total());
        // Per container: the work units the model's demands add up to, and their time there.
        for (container, resources) in &p.prediction.deployed {
            for (resource, d) in resources {
                println!(
                    "  on {container}: {} {} units = {:.6} ms at {}/{}",
                    resource_name(resource),
                    beagle_stoex::format_double(beagle_stoex::scale::round(d.units, 6)),
                    d.ms,
                    beagle_stoex::format_double(d.rate),
                    p.time_unit.unwrap_or("s")
                );
            }
        }
        if p.time_unit.is_none() {
            println!("  (no resource environment: the demands are read as milliseconds)");
        }
        for (resource, e) in &p.composed {
            println!("  {} as a function of the inputs: {e}", resource_name(resource));
        }
        for c in &p.prediction.calls {
            println!("  call {} -> {} ({})", c.call, c.seff, c.via);
        }
        for problem in &p.prediction.problems {
            eprintln!("warning: {}: {}: not predicted", problem.element, problem.message);
        }
    }
    Ok(if p.prediction.is_complete() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}
