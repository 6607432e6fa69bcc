//! `beagle calibrate [PATH] [--jvm-args "..."] [--out platform.toml] [--set-rate CONTAINER]`: run
//! the benchmark suite in JVMs on this machine and write the platform profile
//! (`beagle_java::platform`); optionally set a container's CPU rate from it.

use crate::commands::analyse::progress::bar;
use crate::error::CliError;
use beagle_java::count::agent::asm_dir;
use beagle_java::platform::calibrate::{calibrate, Options};
use beagle_java::platform::rate::{rate_per, rate_text, set_rate_edit};
use beagle_java::platform::Profile;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

#[derive(clap::Args)]
pub struct Args {
    /// A workspace folder (the suite is built in its `.beagle/`; `--set-rate` edits its resource
    /// environment), or nothing.
    #[arg(default_value = ".")]
    path: PathBuf,
    /// The JVM options of the platform to calibrate, as one string (e.g. "-Xint").
    #[arg(long, value_name = "OPTIONS", allow_hyphen_values = true, default_value = "")]
    jvm_args: String,
    /// Where the profile goes.
    #[arg(long, value_name = "FILE", default_value = "platform.toml")]
    out: PathBuf,
    /// A name for the platform (default: the host and the JVM options).
    #[arg(long)]
    name: Option<String>,
    /// Set this resource container's CPU processing rate (by name or id) in the workspace's
    /// resource environment from the profile: work units per time unit, one work unit being the
    /// suite's reference mix.
    #[arg(long, value_name = "CONTAINER")]
    set_rate: Option<String>,
    /// The `java` command to calibrate.
    #[arg(long, default_value = "java")]
    java: String,
    /// Fewer, shorter samples (for tests): about a quarter of the time, not repeatable within 2 %.
    #[arg(long)]
    quick: bool,
    /// JVMs to run the suite in, one after the other; the profile is the median of theirs
    /// (default: 3, or 1 with --quick).
    #[arg(long, value_name = "N")]
    forks: Option<usize>,
}

fn other(path: &Path, message: String) -> CliError {
    CliError::Unreadable {
        path: path.to_path_buf(),
        source: std::io::Error::other(message),
    }
}

/// Writes `text` to `path` through a temporary file beside it: never half-written.
fn write_atomic(path: &Path, text: &str) -> Result<(), CliError> {
    let dir = path
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let tmp = dir.join(format!(
        ".{}.tmp",
        path.file_name().map_or("profile".into(), |n| n.to_string_lossy())
    ));
    let err = |source| CliError::Unreadable {
        path: path.to_path_buf(),
        source,
    };
    std::fs::write(&tmp, text).map_err(err)?;
    std::fs::rename(&tmp, path).map_err(err)
}

pub fn run(args: &Args) -> Result<ExitCode, CliError> {
    // Resolve the workspace first: a --set-rate that cannot be done fails before minutes of work.
    let target = match &args.set_rate {
        Some(container) => {
            let (path, unit) = resource_environment(&args.path)?;
            let file = read_model(&path)?;
            set_rate_edit(&file, container, 1.0).map_err(|e| other(&path, e.to_string()))?;
            Some((container, (path, unit)))
        }
        None => None,
    };
    let work_dir = if args.path.join("beagle.toml").is_file() || args.path.join(".beagle").is_dir() {
        args.path.join(".beagle/calibrate")
    } else {
        std::env::temp_dir().join("beagle-calibrate")
    };
    let opts = Options {
        java: args.java.clone(),
        jvm_args: args.jvm_args.split_whitespace().map(str::to_string).collect(),
        name: args.name.clone(),
        work_dir,
        asm_dir: asm_dir(),
        quick: args.quick,
        forks: match args.forks {
            Some(n) => n.max(1),
            None if args.quick => 1,
            None => beagle_java::platform::calibrate::FORKS,
        },
    };
    let mut progress = None;
    let mut on_progress = |p: beagle_java::platform::suite::Progress<'_>| {
        let bar = progress.get_or_insert_with(|| bar(p.total as usize, "calibrating".into(), "steps"));
        if let Some(bar) = bar {
            bar.set_position(p.done);
            bar.set_message(p.label.to_string());
        }
    };
    let profile = calibrate(&opts, &mut on_progress).map_err(|e| other(&args.out, e.to_string()));
    if let Some(Some(bar)) = progress.take() {
        bar.finish_and_clear();
    }
    let profile = profile?;
    write_atomic(&args.out, &profile.to_toml())?;
    summary(args, &profile);
    if let Some((container, (env_path, unit))) = target {
        set_rate(&profile, container, &env_path, unit)?;
    }
    Ok(ExitCode::SUCCESS)
}

fn summary(args: &Args, p: &Profile) {
    println!("wrote {}: {}", args.out.display(), p.platform.name);
    println!(
        "  {} ({}), {} on {} ({} cores); the suite ran {:.1} s",
        p.platform.jvm,
        if p.platform.jvm_args.is_empty() {
            "default options".to_string()
        } else {
            p.platform.jvm_args.join(" ")
        },
        p.platform.host,
        p.platform.cpu,
        p.platform.cores,
        p.calibration_s
    );
    println!(
        "  {} instruction classes, {} JDK methods, {} array types; clock resolution {} ns",
        p.instructions.len(),
        p.methods.len(),
        p.arrays.len(),
        p.clock_resolution_ns
    );
    println!(
        "  suite total {:.1} ns: {:.1} work units per second (one work unit = the suite's reference mix, \
         one of each timed key)",
        p.suite_total_ns(),
        p.work_units_per_s()
    );
    if !p.notes.is_empty() {
        println!(
            "  {} notes in the profile (timings clamped at their floor)",
            p.notes.len()
        );
    }
    if p.quick {
        println!("  measured with --quick: not repeatable within 2 %");
    }
}

/// The workspace's resource environment and its rates' time unit.
fn resource_environment(path: &Path) -> Result<(PathBuf, beagle_pcm::TimeUnit), CliError> {
    let ws = crate::commands::workspace::resolve(path)?;
    let env = ws.resource_environment().ok_or_else(|| {
        other(
            path,
            "--set-rate: the workspace has no .resourceenvironment (name one with [model] \
             resource_environment in beagle.toml)"
                .into(),
        )
    })?;
    Ok((env, ws.deployment.time_unit))
}

fn read_model(path: &Path) -> Result<beagle_pcm::ModelFile, CliError> {
    let bytes = std::fs::read(path).map_err(|source| CliError::Unreadable {
        path: path.to_path_buf(),
        source,
    })?;
    Ok(beagle_pcm::ModelFile::from_bytes(path.to_path_buf(), bytes))
}

fn set_rate(p: &Profile, container: &str, path: &Path, unit: beagle_pcm::TimeUnit) -> Result<(), CliError> {
    let file = read_model(path)?;
    let rate = rate_per(p, unit).map_err(|e| other(path, e.to_string()))?;
    let (edit, old) = set_rate_edit(&file, container, rate).map_err(|e| other(path, e.to_string()))?;
    let text =
        beagle_pcm::edit::apply(file.text(), std::slice::from_ref(&edit)).map_err(|e| other(path, e.to_string()))?;
    write_atomic(path, &text)?;
    println!(
        "set the CPU rate of `{container}` in {}: `{old}` -> `{}` work units per {} (one work unit = \
         the suite's reference mix, {:.1} ns on this platform)",
        path.display(),
        rate_text(rate),
        unit.as_str(),
        p.suite_total_ns()
    );
    Ok(())
}
