//! Arbitrary bytes as a model file: reading must never panic, spans must be usable, and every
//! edit that succeeds must apply cleanly and leave a file that still reads without XML errors.
//!
//! Seed corpus: the files of `fixtures/pcm` (copied in at run time, see `scripts/fuzz.sh`).

#![no_main]

use beagle_pcm::edit::{apply, TextEdit, UsageTarget};
use beagle_pcm::model::{ActionBody, ActionKind, TransitionKind, UsageRole};
use beagle_pcm::reference::Target;
use beagle_pcm::workspace::{locate, Location};
use beagle_pcm::{ModelFile, ModelSet};
use libfuzzer_sys::fuzz_target;
use std::path::PathBuf;

/// Re-parsing after each edit is the expensive part: a large seed would take seconds per input.
const MAX_EDITS_PER_INPUT: usize = 8;

/// A path whose directory does not exist, so that relative references name no real file.
const PATH: &str = "/nonexistent-beagle-fuzz/fuzz.repository";

fuzz_target!(|data: &[u8]| {
    let file = ModelFile::from_bytes(PathBuf::from(PATH), data.to_vec());
    check_spans(&file);
    try_edits(&file, data.len());
    check_in_a_set(file);
});

fn check_spans(file: &ModelFile) {
    let text = file.text();
    for d in &file.diagnostics {
        let end = d.span.end as usize;
        let start = d.span.start as usize;
        assert!(
            start <= end && end <= text.len(),
            "{d:?} outside the text ({} bytes)",
            text.len()
        );
        assert!(
            text.is_char_boundary(start) && text.is_char_boundary(end),
            "{d:?} splits a character"
        );
        let _ = file.line_col(start);
    }
}

/// One edit to try: its name (for assertion messages) and the edits it produced.
type Attempt = (String, Result<Vec<TextEdit>, beagle_pcm::edit::EditError>);

fn attempts(file: &ModelFile) -> Vec<Attempt> {
    let Some(repo) = &file.repository else {
        return Vec::new();
    };
    let mut out: Vec<Attempt> = Vec::new();
    for action in repo.actions() {
        let Some(id) = action.id.as_deref() else { continue };
        out.push((format!("demand of {id}"), file.set_resource_demand(id, "CPU", "1")));
        out.push((format!("loop count of {id}"), file.set_loop_iteration_count(id, "2")));
        // A new usage, and every existing one (the code paths differ).
        let mut variables: Vec<(UsageRole, String)> = [UsageRole::Input, UsageRole::Return, UsageRole::Local]
            .map(|r| (r, "fz.x".to_string()))
            .into();
        variables.extend(action.body.variable_usages().iter().map(|u| (u.role, u.name.clone())));
        for (role, variable) in &variables {
            let target = UsageTarget {
                action_id: id,
                role: *role,
                variable,
                characterisation: "BYTESIZE",
            };
            out.push((
                format!("{role:?} usage {variable} of {id}"),
                file.set_variable_characterisation(&target, "3"),
            ));
        }
        if let ActionBody::Branch { transitions } = &action.body {
            for t in transitions {
                let Some(tid) = t.id.as_deref() else { continue };
                match t.kind {
                    TransitionKind::Guarded { .. } => {
                        out.push((format!("condition of {tid}"), file.set_branch_condition(tid, "true")))
                    }
                    _ => out.push((format!("probability of {tid}"), file.set_branch_probability(tid, 0.5))),
                }
            }
        }
    }
    out
}

fn try_edits(file: &ModelFile, seed: usize) {
    let all = attempts(file);
    if all.is_empty() {
        return;
    }
    // Start somewhere that depends on the input, so that large files get all their actions tried.
    let start = seed % all.len();
    let mut applied = 0;
    for (what, result) in all[start..].iter().chain(&all[..start]) {
        let Ok(edits) = result else { continue };
        if applied == MAX_EDITS_PER_INPUT {
            break;
        }
        applied += 1;
        let new_text = apply(file.text(), edits).unwrap_or_else(|e| panic!("{what}: the edits do not apply: {e}"));
        let new = ModelFile::parse(file.path.clone(), new_text);
        if file.tree.errors.is_empty() {
            assert!(
                new.tree.errors.is_empty(),
                "{what}: the edited file has XML errors: {:?}",
                new.tree.errors
            );
            assert!(
                new.repository.is_some(),
                "{what}: the edited file is no longer a repository"
            );
        }
        check_spans(&new);
        check_loop_count(what, file, &new);
    }
}

/// After setting a loop's iteration count, the loop (same id, same file) reads back `2`.
fn check_loop_count(what: &str, old: &ModelFile, new: &ModelFile) {
    let Some(id) = what.strip_prefix("loop count of ") else {
        return;
    };
    if !old.tree.errors.is_empty() || old.diagnostics.iter().any(|d| d.code == "duplicate-id") {
        return;
    }
    let action = new.repository.as_ref().and_then(|r| r.action(id));
    let action = action.unwrap_or_else(|| panic!("{what}: the loop is gone"));
    assert_eq!(action.kind, ActionKind::LoopAction);
    let ActionBody::Loop {
        iteration_count: Some(spec),
        ..
    } = action.body
    else {
        panic!("{what}: the loop has no iteration count")
    };
    assert_eq!(new.specifications[spec].text, "2", "{what}");
}

/// Adding the file to a set, replacing it, and checking it across files, with the bundled
/// default models. Skipped when a reference names a file that exists on this machine: the set
/// would read it (the input could name `/dev/zero`).
fn check_in_a_set(file: ModelFile) {
    let names_a_real_file = file.index.references().iter().any(|r| match &r.target {
        Target::External { uri, .. } => match locate(&file.path, uri) {
            Location::File(p) => p.exists(),
            Location::Bundled(_) => false,
        },
        _ => false,
    });
    if names_a_real_file {
        return;
    }
    let mut set = ModelSet::new();
    let id = set.insert(file.clone());
    assert_eq!(set.insert(file), id, "replacing a file keeps its id");
    let text = set.file(id).text().to_string();
    for d in set.check(id) {
        assert!(d.span.start <= d.span.end && d.span.end as usize <= text.len(), "{d:?}");
    }
}
