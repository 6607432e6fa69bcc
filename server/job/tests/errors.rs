//! A job's errors carry what they are about (the file and line, the repository), not only text.

use beagle_analysis::{Control, Scope};
use beagle_job::predicting::predict::{parse_binding, PredictError};
use beagle_job::{run, JobError, Quiet, Request, Settings, Source, Workspace};
use beagle_measure::FileError;

fn workspace(dir: &std::path::Path, repository: &str, events: Option<&str>) -> Workspace {
    let repo = dir.join("a.repository");
    std::fs::write(&repo, repository).unwrap();
    let source = events.map(|text| {
        let path = dir.join("a.events");
        std::fs::write(&path, text).unwrap();
        Source::Events(path)
    });
    Workspace {
        root: dir.to_path_buf(),
        repositories: vec![repo],
        source,
        seed: None,
        budget_s: None,
        spread: None,
        system: None,
        deployment: Default::default(),
    }
}

fn job(workspace: Workspace) -> Result<beagle_job::JobOutput, JobError> {
    let request = Request {
        workspace,
        scope: Scope::Repository,
        settings: Settings {
            gp: false,
            threads: 1,
            ..Settings::default()
        },
    };
    run(&request, &mut Quiet, &Control::new())
}

#[test]
fn a_damaged_repository_is_named_with_its_line() {
    let dir = tempfile::tempdir().unwrap();
    let ws = workspace(
        dir.path(),
        "<?xml version=\"1.0\"?>\n<repository:Repository\n<oops",
        Some(""),
    );
    let repo = ws.repositories[0].clone();
    let Err(JobError::File(FileError { file, line, message })) = job(ws) else {
        panic!("a file error")
    };
    // The tag left open on line 2.
    assert_eq!((file, line), (repo.clone(), Some(2)), "{message}");
    let ws = workspace(dir.path(), "<?xml version=\"1.0\"?>\n<a/>\n", Some(""));
    let e = job(ws).unwrap_err();
    assert!(matches!(&e, JobError::File(f) if f.line.is_none()), "{e}");
    assert_eq!(e.to_string(), format!("{}: not a PCM repository", repo.display()));
}

#[test]
fn no_measurements_and_unreadable_ones_are_told_apart() {
    let dir = tempfile::tempdir().unwrap();
    let e = job(workspace(dir.path(), "", None)).unwrap_err();
    assert!(matches!(e, JobError::NoMeasurements), "{e}");
    let mut ws = workspace(dir.path(), "", None);
    let gone = dir.path().join("gone.events");
    ws.source = Some(Source::Events(gone.clone()));
    let Err(JobError::Unreadable { path, .. }) = job(ws) else {
        panic!("unreadable")
    };
    assert_eq!(path, gone);
}

#[test]
fn a_binding_names_what_is_wrong_with_it() {
    let Err(PredictError::NoCharacterisation { text, name }) = parse_binding("files = 3") else {
        panic!("no characterisation")
    };
    assert_eq!((text.as_str(), name.as_str()), ("files = 3", "files"));
    let e = parse_binding("files.VALUE=three").unwrap_err();
    assert!(
        matches!(&e, PredictError::NotANumber { value, .. } if value == "three"),
        "{e}"
    );
    assert_eq!(e.to_string(), "`files.VALUE=three`: `three` is not a number");
}
