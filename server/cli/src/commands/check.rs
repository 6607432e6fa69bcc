//! `beagle check`: diagnostics and a summary per file, as text or one JSON object per line.
//! PCM files are checked as models; a `beagle.toml` as the configuration it is
//! ([`beagle_job::config_check`]: unknown tables, keys its readers refuse, files it names that do
//! not exist), not as XML.

use crate::error::CliError;
use beagle_pcm::model::ActionKind;
use beagle_pcm::namespaces::{parse_namespace, Package};
use beagle_pcm::workspace::find_model_files;
use beagle_pcm::{Diagnostic, ModelFile, ModelSet, Severity};
use serde::Serialize;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

#[derive(clap::Args)]
pub struct Args {
    /// PCM files, or folders to search for them (.repository, .system, .allocation, .usagemodel,
    /// .resourceenvironment, .resourcetype), and `beagle.toml` files (a folder's own is checked
    /// too).
    #[arg(required = true)]
    paths: Vec<PathBuf>,
    /// Print one JSON object per file instead of text.
    #[arg(long)]
    json: bool,
}

#[derive(Serialize)]
struct FileReport {
    file: String,
    pcm_version: Option<String>,
    components: usize,
    interfaces: usize,
    seffs: usize,
    actions: BTreeMap<&'static str, usize>,
    specifications: usize,
    diagnostics: Vec<JsonDiagnostic>,
}

#[derive(Serialize)]
struct JsonDiagnostic {
    severity: Severity,
    line: u32,
    column: u32,
    element: Option<String>,
    message: String,
    code: &'static str,
}

pub fn run(args: &Args) -> Result<ExitCode, CliError> {
    let files = expand(&args.paths)?;
    let mut set = ModelSet::new();
    let mut any_error = false;
    for path in files {
        if is_config(&path) {
            let report = config_report(&path);
            any_error |= report.diagnostics.iter().any(|d| d.severity == Severity::Error);
            if args.json {
                println!("{}", serde_json::to_string(&report)?);
            } else {
                print_config(&report);
            }
            continue;
        }
        let report = match set.load(&path) {
            Ok(id) => {
                let diagnostics = set.check(id);
                report(set.file(id), &diagnostics)
            }
            Err(e) => unreadable(&path, &e),
        };
        any_error |= report.diagnostics.iter().any(|d| d.severity == Severity::Error);
        if args.json {
            println!("{}", serde_json::to_string(&report)?);
        } else {
            print_text(&report);
        }
    }
    Ok(if any_error {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    })
}

/// Files as given, and PCM files under folders (sorted, so output is stable).
fn expand(paths: &[PathBuf]) -> Result<Vec<PathBuf>, CliError> {
    let mut out = Vec::new();
    for p in paths {
        if p.is_dir() {
            if p.join("beagle.toml").is_file() {
                out.push(p.join("beagle.toml"));
            }
            out.extend(find_model_files(p).map_err(|source| CliError::Folder {
                path: p.clone(),
                source,
            })?);
        } else {
            out.push(p.clone());
        }
    }
    Ok(out)
}

/// A TOML file is configuration (`beagle.toml`, or another name given on purpose).
fn is_config(path: &Path) -> bool {
    path.extension().is_some_and(|e| e == "toml")
}

/// What `--json` prints for a configuration file.
#[derive(Serialize)]
struct ConfigReport {
    file: String,
    kind: &'static str,
    diagnostics: Vec<JsonDiagnostic>,
}

fn config_report(path: &Path) -> ConfigReport {
    let diagnostics = match std::fs::read_to_string(path) {
        Ok(text) => beagle_job::config_check::check(path, &text, None)
            .into_iter()
            .map(|p| JsonDiagnostic {
                severity: p.severity,
                line: p.line as u32,
                column: 1,
                element: None,
                message: p.message,
                code: p.code,
            })
            .collect(),
        Err(e) => unreadable(path, &e).diagnostics,
    };
    ConfigReport {
        file: path.display().to_string(),
        kind: "configuration",
        diagnostics,
    }
}

fn print_config(r: &ConfigReport) {
    for d in &r.diagnostics {
        println!(
            "{}:{}:{}: {}[{}]: {}",
            r.file, d.line, d.column, d.severity, d.code, d.message
        );
    }
    let errors = r.diagnostics.iter().filter(|d| d.severity == Severity::Error).count();
    let warnings = r.diagnostics.iter().filter(|d| d.severity == Severity::Warning).count();
    println!("{}: configuration: {errors} errors, {warnings} warnings", r.file);
}

fn report(file: &ModelFile, diagnostics: &[Diagnostic]) -> FileReport {
    let tree = &file.tree;
    let count = |tag: &str| tree.ids().filter(|&n| tree.local_name(n) == tag).count();
    let mut actions = BTreeMap::new();
    for n in tree.ids() {
        let Some((Some(ns), local)) = tree.xsi_type(n) else {
            continue;
        };
        if parse_namespace(ns).is_some_and(|p| p.package == Package::Seff) {
            let kind = ActionKind::from_type(local);
            if kind != ActionKind::Unknown {
                *actions.entry(kind.as_str()).or_insert(0) += 1;
            }
        }
    }
    FileReport {
        file: file.path.display().to_string(),
        pcm_version: file.pcm_version.clone(),
        components: count("components__Repository"),
        interfaces: count("interfaces__Repository"),
        seffs: count("serviceEffectSpecifications__BasicComponent"),
        actions,
        specifications: file.specifications.len(),
        diagnostics: diagnostics
            .iter()
            .map(|d| {
                let at = file.line_col(d.span.start as usize);
                JsonDiagnostic {
                    severity: d.severity,
                    line: at.line,
                    column: at.column,
                    element: d.element.clone(),
                    message: d.message.clone(),
                    code: d.code,
                }
            })
            .collect(),
    }
}

fn unreadable(path: &Path, e: &std::io::Error) -> FileReport {
    FileReport {
        file: path.display().to_string(),
        pcm_version: None,
        components: 0,
        interfaces: 0,
        seffs: 0,
        actions: BTreeMap::new(),
        specifications: 0,
        diagnostics: vec![JsonDiagnostic {
            severity: Severity::Error,
            line: 1,
            column: 1,
            element: None,
            message: format!("cannot read the file: {e}"),
            code: "io",
        }],
    }
}

fn print_text(r: &FileReport) {
    for d in &r.diagnostics {
        let severity = d.severity;
        let element = d
            .element
            .as_ref()
            .map(|e| format!(" (element {e})"))
            .unwrap_or_default();
        println!(
            "{}:{}:{}: {severity}[{}]: {}{element}",
            r.file, d.line, d.column, d.code, d.message
        );
    }
    let actions: usize = r.actions.values().sum();
    let errors = r.diagnostics.iter().filter(|d| d.severity == Severity::Error).count();
    let warnings = r.diagnostics.iter().filter(|d| d.severity == Severity::Warning).count();
    println!(
        "{}: PCM {}, {} components, {} interfaces, {} SEFFs, {} actions, {} specifications: {} errors, {} warnings",
        r.file,
        r.pcm_version.as_deref().unwrap_or("?"),
        r.components,
        r.interfaces,
        r.seffs,
        actions,
        r.specifications,
        errors,
        warnings
    );
}
