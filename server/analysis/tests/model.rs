//! Elements from real PCM models (data-driven snapshots), the measurement order for them, and
//! results written back into a real model.

use beagle_analysis::*;
use beagle_pcm::ModelFile;
use std::collections::BTreeMap;
use std::fmt::Write;
use std::path::Path;

fn model(path: &str) -> ModelFile {
    ModelFile::read(&Path::new(env!("CARGO_MANIFEST_DIR")).join("../..").join(path)).unwrap()
}

fn listing(scope: &ModelScope) -> String {
    let mut out = String::new();
    for e in &scope.elements {
        let inputs: Vec<&str> = e.inputs.iter().flatten().map(String::as_str).collect();
        let service = e.service.as_deref().unwrap_or("-");
        writeln!(
            out,
            "{:<16} {:<58} {service} ({})",
            e.kind.name(),
            e.id,
            inputs.join(", ")
        )
        .unwrap();
    }
    for s in scope.services.values() {
        let sig = s.signature.as_deref().unwrap_or("?");
        writeln!(out, "service {} = {}.{sig}", s.seff, s.component).unwrap();
    }
    out
}

#[test]
fn mediastore_elements_per_scope() {
    let file = model("fixtures/pcm/mediastore/MediaStore.repository");
    let repo = file.repository.as_ref().unwrap();
    let all = scope_elements(repo, &Scope::Repository).unwrap();
    insta::assert_snapshot!("mediastore_repository", listing(&all));
    let component = scope_elements(repo, &Scope::Component("MediaManagement".into())).unwrap();
    insta::assert_snapshot!("mediastore_media_management", listing(&component));
    // A loop alone: its iteration count, not what is nested in it.
    let one = scope_elements(repo, &Scope::Action("_JGRMMGrVEeajAsHLADMRRw".into())).unwrap();
    assert_eq!(one.elements.len(), 1);
    assert_eq!(one.elements[0].kind.name(), "loop");
    // A SEFF: its actions only, all in that one service.
    let (_, seff) = repo
        .seffs()
        .find(|(_, s)| {
            s.behaviour
                .walk()
                .iter()
                .any(|a| a.id.as_deref() == Some("_JGRMMGrVEeajAsHLADMRRw"))
        })
        .unwrap();
    let seff_id = seff.id.clone().unwrap();
    let service = scope_elements(repo, &Scope::Service(seff_id.clone())).unwrap();
    assert!(service.elements.iter().any(|e| e.kind.name() == "loop"));
    assert_eq!(service.services.keys().collect::<Vec<_>>(), vec![&seff_id]);
    assert!(service.elements.len() < scope_elements(repo, &Scope::Repository).unwrap().elements.len());
    let e = scope_elements(repo, &Scope::Service("_nope".into())).unwrap_err();
    assert!(e.0.contains("no SEFF with id `_nope`"), "{e}");
    let e = scope_elements(repo, &Scope::Component("Nope".into())).unwrap_err();
    assert!(e.0.contains("MediaManagement"), "{e}");
}

#[test]
fn measurements_reveal_elements_in_scope_and_name_unknown_ones() {
    let file = model("fixtures/events-example/FileShare.repository");
    let repo = file.repository.as_ref().unwrap();
    let mut scope = scope_elements(repo, &Scope::Component("FileShare".into())).unwrap();
    let before = scope.elements.len();
    let measured = [
        // An HDD demand of `hash` the model does not declare: taken in.
        MeasurableElement::new(ElementKind::ResourceDemand {
            action: "_fs_hash".into(),
            resource: "HDD".into(),
        }),
        // Storage is not in scope: left alone.
        MeasurableElement::new(ElementKind::ResourceDemand {
            action: "_fs_write".into(),
            resource: "CPU".into(),
        }),
        MeasurableElement::new(ElementKind::Loop {
            loop_id: "_nowhere".into(),
        }),
        MeasurableElement::new(ElementKind::Branch {
            branch: "_fs_notify".into(),
            transition: "_fs_other".into(),
        }),
    ];
    let unknown = scope.adopt(&measured);
    assert_eq!(scope.elements.len(), before + 1);
    assert!(scope.contains("_fs_hash/_BIjHoQ3KEdyouMqirZIhzQ"));
    let hash = scope.elements.last().unwrap();
    assert_eq!(hash.service.as_deref(), Some("_fs_upload_seff"));
    assert_eq!(unknown.len(), 2, "{unknown:?}");
    assert!(unknown[0].contains("`_nowhere`"));
    assert!(unknown[1].contains("_fs_notify/_fs_other"));
}

fn final_expression(element: &str, stoex: &str, predictions: Vec<f64>, guard: Option<&str>) -> FinalExpression {
    FinalExpression {
        proposal: ProposedExpression {
            element: element.into(),
            analyser: "test".into(),
            stoex: stoex.into(),
            infix: String::new(),
            r2: 1.0,
            relative_error: 0.0,
            samples: predictions.len(),
            parameter_ranges: BTreeMap::new(),
            size: 1,
            depth: 1,
            variables: vec![],
            guard: guard.map(str::to_string),
            predictions,
            evidence: None,
        },
        fitness: 0.0,
        status: Status::Final,
        reasons: Vec::new(),
        fitted: None,
    }
}

#[test]
fn results_into_mediastore_every_kind_and_nothing_else() {
    let file = model("fixtures/pcm/mediastore/MediaStore.repository");
    let el = |kind| MeasurableElement::new(kind);
    let results = [
        // A demand on a resource type the action does not declare yet: inserted.
        (
            el(ElementKind::ResourceDemand {
                action: "_O_Z-4MG8EeSIWsmXhQZfeA".into(),
                resource: "_BIjHoQ3KEdyouMqirZIhzQ".into(),
            }),
            final_expression("a", "0.002 * audioRequest.Count.VALUE", vec![1.0], None),
        ),
        (
            el(ElementKind::Loop {
                loop_id: "_JGRMMGrVEeajAsHLADMRRw".into(),
            }),
            final_expression("l", "audioRequest.Count.VALUE", vec![1.0], None),
        ),
        // A guarded transition whose probability depends on the inputs: a BoolPMF of its mean.
        (
            el(ElementKind::Branch {
                branch: "_3OYkQMG8EeSIWsmXhQZfeA".into(),
                transition: "_hlUUoMG9EeSIWsmXhQZfeA".into(),
            }),
            final_expression("b", "0.1 * audioRequest.Count.VALUE", vec![0.2, 0.4], None),
        ),
        // A probabilistic transition with a constant probability.
        (
            el(ElementKind::Branch {
                branch: "_A9obsGrWEeajAsHLADMRRw".into(),
                transition: "_JtaPQGrWEeajAsHLADMRRw".into(),
            }),
            final_expression("p", "0.25", vec![0.25], None),
        ),
        (
            el(ElementKind::Branch {
                branch: "_A9obsGrWEeajAsHLADMRRw".into(),
                transition: "_64QuAGrXEeajAsHLADMRRw".into(),
            }),
            final_expression("q", "0.75", vec![0.75], None),
        ),
        // A characterisation the call does not have yet: created on its existing usage.
        (
            el(ElementKind::CallParameter {
                call: "_AzXr4MZ7EeSDae6OpXziLw".into(),
                parameter: "audioRequest.Size.BYTESIZE".into(),
            }),
            final_expression("c", "audioRequest.Size.VALUE * 8", vec![1.0], None),
        ),
    ];
    let written = write_back(
        &file,
        results.iter().map(|(e, f)| (e, f)),
        false,
        &DemandUnits::milliseconds(),
    )
    .unwrap();
    assert_eq!(written.applied.len(), 6);
    assert_eq!(written.notes.len(), 1, "{:?}", written.notes);
    assert!(written.notes[0].contains("depends on the inputs"));
    let diff = similar::TextDiff::from_lines(file.text(), &written.text)
        .unified_diff()
        .context_radius(0)
        .to_string();
    insta::assert_snapshot!(diff);
    // The written model is as sound as before, and holds the new values.
    let after = ModelFile::parse(file.path.clone(), written.text.clone());
    assert_eq!(
        after.diagnostics.len(),
        file.diagnostics.len(),
        "{:?}",
        after.diagnostics
    );
    assert!(written
        .text
        .contains(r#"specification="BoolPMF[(true;0.3)(false;0.7)]""#));
    // Preliminary results are left out when asked.
    let mut preliminary = results[1].1.clone();
    preliminary.status = Status::Preliminary;
    let none = write_back(
        &file,
        [(&results[1].0, &preliminary)],
        false,
        &DemandUnits::milliseconds(),
    )
    .unwrap();
    assert_eq!(none.text, file.text());
    assert_eq!(none.skipped, vec!["_JGRMMGrVEeajAsHLADMRRw".to_string()]);
    // A result for an element the file does not have: an error naming it, nothing written.
    let ghost = el(ElementKind::Loop {
        loop_id: "_ghost".into(),
    });
    let e = write_back(&file, [(&ghost, &results[1].1)], true, &DemandUnits::milliseconds()).unwrap_err();
    assert!(e.to_string().contains("_ghost"), "{e}");
}

#[test]
fn probabilistic_transitions_written_from_means_sum_to_one() {
    let file = model("fixtures/events-example/FileShare.repository");
    let el = |transition: &str| {
        MeasurableElement::new(ElementKind::Branch {
            branch: "_fs_notify".into(),
            transition: transition.into(),
        })
    };
    // Each transition's mean is over its own observations: 0.3 and 0.9 do not sum to 1.
    let results = [
        (
            el("_fs_send_mail"),
            final_expression("s", "0.1 * n.VALUE", vec![0.2, 0.4], None),
        ),
        (
            el("_fs_no_mail"),
            final_expression("n", "0.2 * n.VALUE", vec![0.8, 1.0], None),
        ),
    ];
    let wb = write_back(
        &file,
        results.iter().map(|(e, f)| (e, f)),
        true,
        &DemandUnits::milliseconds(),
    )
    .unwrap();
    assert!(
        wb.text
            .contains("id=\"_fs_send_mail\" entityName=\"send mail\" branchProbability=\"0.25\""),
        "{}",
        wb.text
    );
    assert!(wb
        .text
        .contains("id=\"_fs_no_mail\" entityName=\"no mail\" branchProbability=\"0.75\""));
    assert!(
        wb.notes.iter().any(|n| n.contains("scaled to sum to 1")),
        "{:?}",
        wb.notes
    );
    // Only one transition written: nothing to scale against.
    let one = write_back(
        &file,
        results[..1].iter().map(|(e, f)| (e, f)),
        true,
        &DemandUnits::milliseconds(),
    )
    .unwrap();
    assert!(one.text.contains("branchProbability=\"0.3\""));
}

/// The old way, one element at a time on the re-parsed text: what `write_back` must still give.
fn one_at_a_time(file: &ModelFile, results: &[(MeasurableElement, FinalExpression)]) -> String {
    let mut current = file.clone();
    for (e, f) in results {
        let wb = write_back(&current, [(e, f)], true, &DemandUnits::milliseconds()).unwrap();
        current = ModelFile::parse(file.path.clone(), wb.text);
    }
    current.text().to_string()
}

#[test]
fn write_back_computes_every_edit_from_one_parse() {
    let file = model("fixtures/pcm/mediastore/MediaStore.repository");
    let el = |kind| MeasurableElement::new(kind);
    let param = |parameter: &str| {
        el(ElementKind::CallParameter {
            call: "_AzXr4MZ7EeSDae6OpXziLw".into(),
            parameter: parameter.into(),
        })
    };
    let mut results = vec![
        (
            el(ElementKind::ResourceDemand {
                action: "_O_Z-4MG8EeSIWsmXhQZfeA".into(),
                resource: "_BIjHoQ3KEdyouMqirZIhzQ".into(),
            }),
            final_expression("d", "2.5E-5 * audioRequest.Size.VALUE + 0.3", vec![1.0], None),
        ),
        (
            el(ElementKind::Loop {
                loop_id: "_JGRMMGrVEeajAsHLADMRRw".into(),
            }),
            final_expression("l", "audioRequest.Count.VALUE", vec![1.0], None),
        ),
        (
            param("audioRequest.Size.BYTESIZE"),
            final_expression("c", "audioRequest.Size.VALUE * 8", vec![1.0], None),
        ),
    ];
    let one = write_back(
        &file,
        results.iter().map(|(e, f)| (e, f)),
        true,
        &DemandUnits::milliseconds(),
    )
    .unwrap();
    assert_eq!(one.rounds, 1, "independent elements: one parse");
    assert_eq!(one.edits.len(), 3, "{:?}", one.edits);
    assert_eq!(beagle_pcm::edit::apply(file.text(), &one.edits).unwrap(), one.text);
    assert_eq!(one.text, one_at_a_time(&file, &results));
    // Two characterisations of a variable the call does not pass yet: both would create its
    // usage, so the second waits for a second round, and the edits still come out against the
    // original text, as one usage with both.
    results.push((param("extra.VALUE"), final_expression("v", "3", vec![3.0], None)));
    results.push((param("extra.BYTESIZE"), final_expression("b", "12", vec![12.0], None)));
    let two = write_back(
        &file,
        results.iter().map(|(e, f)| (e, f)),
        true,
        &DemandUnits::milliseconds(),
    )
    .unwrap();
    assert_eq!(two.rounds, 2);
    assert_eq!(beagle_pcm::edit::apply(file.text(), &two.edits).unwrap(), two.text);
    assert_eq!(two.text, one_at_a_time(&file, &results));
    assert_eq!(two.text.matches("referenceName=\"extra\"").count(), 1, "{}", two.text);
    let after = ModelFile::parse(file.path.clone(), two.text.clone());
    assert_eq!(
        after.diagnostics.len(),
        file.diagnostics.len(),
        "{:?}",
        after.diagnostics
    );
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(300))]
    #[test]
    fn composed_edits_make_the_same_text(
        text in "[a-e]{0,40}",
        first in proptest::collection::vec((0usize..41, 0usize..4, "[X-Z]{0,3}"), 0..5),
        second in proptest::collection::vec((0usize..60, 0usize..4, "[p-r]{0,3}"), 0..5),
    ) {
        use beagle_pcm::edit::{apply, TextEdit};
        // Non-overlapping edits on a text: sorted starts, each kept clear of the previous one.
        let edits_on = |text: &str, raw: &[(usize, usize, String)]| -> Vec<TextEdit> {
            let mut out: Vec<TextEdit> = Vec::new();
            let mut raw = raw.to_vec();
            raw.sort();
            let mut free = 0;
            for (start, len, new) in raw {
                let start = start.min(text.len());
                if start < free || out.last().is_some_and(|e: &TextEdit| e.span.start as usize == start) {
                    continue;
                }
                let end = (start + len).min(text.len());
                out.push(TextEdit { span: beagle_pcm::Span::new(start, end), new_text: new });
                free = end.max(start + 1);
            }
            out
        };
        let a = edits_on(&text, &first);
        let middle = apply(&text, &a).unwrap();
        let b = edits_on(&middle, &second);
        let end = apply(&middle, &b).unwrap();
        let c = compose(&a, &b, &end);
        proptest::prop_assert_eq!(apply(&text, &c).unwrap(), end);
        // Sorted and apart: a client applies them as they come.
        proptest::prop_assert!(c.windows(2).all(|w| w[0].span.end < w[1].span.start));
    }
}

/// Issue 50: measured call parameters are taken in only for the called signature's inputs. The
/// code's `fetch(ids, size, reader)` passes `reader`, which the model's `fetch(ids, size)` lacks:
/// not an element, said once for the call (before: published as `reader.BYTESIZE = 3`).
#[test]
fn a_call_parameter_the_called_signature_lacks_is_said_once_per_call_and_not_taken_in() {
    let file = model("fixtures/downloads/model/downloads.repository");
    let repo = file.repository.as_ref().unwrap();
    let mut scope = scope_elements(repo, &Scope::Repository).unwrap();
    let measured = |parameter: &str| {
        MeasurableElement::new(ElementKind::CallParameter {
            call: "_dl_download_fetch".into(),
            parameter: parameter.into(),
        })
    };
    let said = scope.adopt(&[
        measured("ids.VALUE"),
        measured("reader.BYTESIZE"),
        measured("reader.VALUE"),
        measured("size.NUMBER_OF_ELEMENTS"),
    ]);
    assert_eq!(
        said,
        ["_dl_download_fetch: the code passes `reader.BYTESIZE`, `reader.VALUE`, which are no parameters of the called signature fetch(ids, size): not published"]
    );
    assert!(!scope.contains("_dl_download_fetch/reader.BYTESIZE"));
    assert!(scope.contains("_dl_download_fetch/ids.VALUE"));
    assert!(
        scope.contains("_dl_download_fetch/size.NUMBER_OF_ELEMENTS"),
        "an input's other characterisation is the signature's"
    );
}
