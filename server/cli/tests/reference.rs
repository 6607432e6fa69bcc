//! The manual's reference is checked against the code (issue 41): every subcommand and long flag
//! `beagle --help` lists is in `docs/src/cli.md`, and every table and key the `beagle.toml`
//! readers accept is in `docs/src/java.md`. The key lists come from the readers themselves: a key
//! they do not know makes serde name all those they do ("expected one of `a`, `b`"), so a key
//! added to the code and not to the manual fails here.

mod common;

use common::root;
use std::collections::BTreeSet;
use std::path::Path;
use std::process::Command;

fn help(args: &[&str]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_beagle"))
        .args(args)
        .arg("--help")
        .output()
        .unwrap();
    assert!(out.status.success(), "beagle {args:?} --help");
    String::from_utf8(out.stdout).unwrap()
}

/// The subcommands of a `--help` text: the first word of each line under `Commands:`.
fn subcommands(help: &str) -> Vec<String> {
    help.lines()
        .skip_while(|l| !l.starts_with("Commands:"))
        .skip(1)
        .take_while(|l| l.starts_with("  "))
        .filter_map(|l| l.split_whitespace().next())
        .filter(|c| *c != "help")
        .map(str::to_string)
        .collect()
}

/// The long flags a `--help` text defines (`-s, --name <VALUE>` or `--name` at the start of an
/// option's line; flags its descriptions mention are not definitions), but `--help` and
/// `--version`.
fn long_flags(help: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for line in help.lines().map(str::trim_start) {
        let definition = match line.strip_prefix('-') {
            Some(rest) if rest.starts_with('-') => line,
            // `-s, --name`
            Some(rest) if rest.get(1..3) == Some(", ") => &rest[3..],
            _ => continue,
        };
        let name: String = (definition.trim_start_matches('-').chars())
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '-')
            .collect();
        if definition.starts_with("--") && !name.is_empty() && name != "help" && name != "version" {
            out.insert(format!("--{name}"));
        }
    }
    out
}

fn chapter(name: &str) -> String {
    let path = root().join("docs/src").join(name);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

#[test]
fn every_subcommand_and_flag_is_in_the_command_line_reference() {
    let cli = chapter("cli.md");
    let top = help(&[]);
    let commands = subcommands(&top);
    assert!(commands.len() >= 10, "{commands:?} from\n{top}");
    let mut missing = Vec::new();
    for flag in long_flags(&top) {
        if !cli.contains(&format!("`{flag}")) {
            missing.push(format!("beagle {flag}"));
        }
    }
    for c in &commands {
        if !cli.contains(&format!("beagle {c}")) {
            missing.push(format!("the command `beagle {c}`"));
        }
        for flag in long_flags(&help(&[c])) {
            // As `--flag` or `--flag <VALUE>` in backticks.
            if !cli.contains(&format!("`{flag}`")) && !cli.contains(&format!("`{flag} ")) {
                missing.push(format!("beagle {c} {flag}"));
            }
        }
    }
    assert!(missing.is_empty(), "not in docs/src/cli.md: {missing:#?}");
}

/// The keys serde names when the table `[table]` (written by `prefix`) gets an unknown one.
fn accepted_keys(prefix: &str, table: &str) -> Vec<String> {
    let dir = tempfile::tempdir().unwrap();
    let toml = dir.path().join("beagle.toml");
    let text = format!("{prefix}\n[{table}]\nno_such_key_here = 1\n");
    let message = match beagle_job::workspace::from_toml(dir.path(), &toml, &text) {
        Ok(_) => panic!("[{table}] took an unknown key"),
        Err(e) => e.message,
    };
    let expected = message
        .split_once("expected")
        .unwrap_or_else(|| panic!("[{table}]: {message}"))
        .1;
    let keys: Vec<String> = expected.split('`').skip(1).step_by(2).map(str::to_string).collect();
    assert!(!keys.is_empty(), "[{table}]: {message}");
    keys
}

#[test]
fn every_table_and_key_of_beagle_toml_is_in_the_configuration_reference() {
    let java = chapter("java.md");
    let model = "[model]\nrepository = \"a.repository\"";
    let java_table = format!("{model}\n[java]\nsources = [\"src\"]");
    let mut keys: Vec<(String, String)> = Vec::new();
    for table in ["model", "measurements", "analysis"] {
        let prefix = if table == "model" { "" } else { model };
        keys.extend(accepted_keys(prefix, table).into_iter().map(|k| (table.to_string(), k)));
    }
    keys.extend(
        accepted_keys(model, "java")
            .into_iter()
            .map(|k| ("java".to_string(), k)),
    );
    keys.extend(
        accepted_keys(&java_table, "runner")
            .into_iter()
            .map(|k| ("runner".to_string(), k)),
    );
    keys.extend(
        accepted_keys(&java_table, "[launch]")
            .into_iter()
            .map(|k| ("launch".to_string(), k)),
    );
    // `[launch.parameters.NAME]` is one of two shapes (serde's untagged enum names no keys).
    keys.extend(["from", "to", "scale", "values"].map(|k| ("launch.parameters".to_string(), k.to_string())));
    assert!(keys.len() > 40, "{keys:?}");
    let mut missing: Vec<String> = Vec::new();
    for table in beagle_job::config_check::TABLES {
        if !java.contains(&format!("[{table}]")) {
            missing.push(format!("[{table}]"));
        }
    }
    for (table, key) in &keys {
        if !java.contains(&format!("`{key}`")) && !java.contains(&format!("`{key} ")) {
            missing.push(format!("[{table}] {key}"));
        }
    }
    assert!(missing.is_empty(), "not in docs/src/java.md: {missing:#?}");
}

#[test]
fn the_key_lists_come_from_the_readers() {
    // The probe itself: a known key is among those serde names, an invented one is not.
    let keys = accepted_keys("[model]\nrepository = \"a.repository\"", "analysis");
    assert!(keys.contains(&"seed".to_string()) && !keys.contains(&"no_such_key_here".to_string()));
    assert!(Path::new(&root().join("docs/src/SUMMARY.md")).is_file());
}
