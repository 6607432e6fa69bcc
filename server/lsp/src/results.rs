//! The results the server shows, per repository file: what hovers and code lenses read, and what
//! "apply results" writes. Filled by running analyses (preliminary, then final) and, when the
//! server starts, from the store, so a restarted server shows the last results.

use beagle_analysis::validation::ServiceValidation;
use beagle_analysis::{Blackboard, FinalExpression, MeasurableElement, MeasurementResult, RunStatus, Store};
use beagle_ide::{element_results, ElementResult};
use beagle_pcm::ModelFile;
use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// Where a repository's results stand.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stage {
    /// From the quick pass or an analysis still running.
    Preliminary,
    /// The analysis finished.
    Final,
    /// The analysis was aborted: what it had when stopped.
    Aborted,
    /// Read from the store at start-up.
    Stored,
}

impl Stage {
    pub fn label(self) -> &'static str {
        match self {
            Stage::Preliminary => "preliminary",
            Stage::Final => "final",
            Stage::Aborted => "aborted",
            Stage::Stored => "from the last session",
        }
    }
}

#[derive(Clone, Debug)]
pub struct RepositoryResults {
    pub stage: Stage,
    pub results: Vec<ElementResult>,
    /// What "apply results" writes: element id -> element and final expression.
    pub finals: BTreeMap<String, (MeasurableElement, FinalExpression)>,
    pub headline: String,
    /// SEFF id -> the latest validation of the service (predicted beside measured).
    pub validations: BTreeMap<String, ServiceValidation>,
}

impl RepositoryResults {
    pub fn from_blackboard(
        stage: Stage,
        bb: &Blackboard,
        raw: Option<&BTreeMap<String, MeasurementResult>>,
        file: Option<&ModelFile>,
        headline: String,
    ) -> RepositoryResults {
        let finals = bb
            .final_expressions()
            .iter()
            .filter_map(|(id, fe)| Some((id.clone(), (bb.element(id)?.clone(), fe.clone()))))
            .collect();
        RepositoryResults {
            stage,
            results: element_results(bb, raw, file),
            finals,
            headline,
            validations: BTreeMap::new(),
        }
    }

    /// Adds an analysis's final expressions, also those it reused from an earlier analysis of
    /// the same measurements: those are not on its blackboard, so they get their results here.
    pub fn with_finals(
        mut self,
        finals: &BTreeMap<String, (MeasurableElement, FinalExpression)>,
        raw: Option<&BTreeMap<String, MeasurementResult>>,
        file: Option<&ModelFile>,
    ) -> Self {
        let reused = finals.values().filter(|(e, _)| !self.finals.contains_key(&e.id));
        let reused = beagle_ide::reused_results(reused.map(|(e, fe)| (e, fe)), raw, file);
        self.results.extend(reused);
        self.results.sort_by(|x, y| x.element.cmp(&y.element));
        self.finals.extend(finals.clone());
        self
    }

    /// Adds the validations of this repository's services from a job's validation.
    pub fn with_validations(
        mut self,
        validation: Option<&beagle_job::validating::validate::ValidationReport>,
        path: &Path,
    ) -> Self {
        let mine = key(path);
        for v in validation.into_iter().flat_map(|r| &r.services) {
            if key(Path::new(&v.repository)) == mine {
                self.validations.insert(v.seff.clone(), v.clone());
            }
        }
        self
    }

    /// The results about one action.
    pub fn of_action<'a>(&'a self, action: &'a str) -> impl Iterator<Item = &'a ElementResult> + 'a {
        self.results.iter().filter(move |r| r.action == action)
    }
}

/// Results by repository path (canonical where the file exists).
#[derive(Clone, Default, Debug)]
pub struct Results {
    by_path: HashMap<PathBuf, Arc<RepositoryResults>>,
}

pub fn key(path: &Path) -> PathBuf {
    path.canonicalize()
        .unwrap_or_else(|_| beagle_pcm::workspace::normalise(path))
}

impl Results {
    pub fn get(&self, path: &Path) -> Option<Arc<RepositoryResults>> {
        self.by_path.get(&key(path)).cloned()
    }

    pub fn all(&self) -> impl Iterator<Item = (&PathBuf, &Arc<RepositoryResults>)> {
        self.by_path.iter()
    }

    /// Sets a repository's results. A scoped analysis (one component) replaces only the elements
    /// it analysed; the rest of the repository's results stay.
    pub fn merge(&mut self, path: &Path, new: RepositoryResults) {
        match self.by_path.get_mut(&key(path)) {
            Some(old) => {
                let old = Arc::make_mut(old);
                let ids: Vec<&String> = new.results.iter().map(|r| &r.element).collect();
                old.results.retain(|r| !ids.contains(&&r.element));
                old.results.extend(new.results);
                old.results.sort_by(|a, b| a.element.cmp(&b.element));
                old.finals.extend(new.finals);
                old.validations.extend(new.validations);
                old.stage = new.stage;
                old.headline = new.headline;
            }
            None => {
                self.by_path.insert(key(path), Arc::new(new));
            }
        }
    }

    pub fn discard(&mut self, path: &Path) -> bool {
        self.by_path.remove(&key(path)).is_some()
    }

    /// The last results of every repository analysed under `root`, from its store: per element,
    /// the newest run's result (a later run may have analysed only one component), with the
    /// measurements' raw observations.
    pub fn load_from_store(&mut self, root: &Path) -> Result<usize, beagle_analysis::StoreError> {
        if !root.join(".beagle").join("beagle.sqlite").is_file() {
            return Ok(0);
        }
        let store = Store::open(root)?;
        let runs = store.runs()?;
        let mut loaded: HashMap<PathBuf, RepositoryResults> = HashMap::new();
        for run in runs.iter().rev() {
            let path = PathBuf::from(&run.repository);
            if !path.is_absolute() || self.get(&path).is_some() {
                continue;
            }
            let Some(bb) = store.latest_snapshot(run.run)? else {
                continue;
            };
            if bb.final_expressions().is_empty() {
                continue;
            }
            let raw: Option<BTreeMap<String, MeasurementResult>> = store
                .cached_measurement(&run.measurement_key)
                .ok()
                .flatten()
                .map(|m| m.results.into_iter().map(|(e, r)| (e.id, r)).collect());
            let file = ModelFile::read(&path).ok();
            let status = match run.status {
                RunStatus::Finished => "finished",
                RunStatus::Aborted => "aborted",
                RunStatus::Running => "interrupted",
            };
            let headline = format!("last analysis ({}, {status})", run.scope);
            let older = RepositoryResults::from_blackboard(Stage::Stored, &bb, raw.as_ref(), file.as_ref(), headline);
            match loaded.get_mut(&key(&path)) {
                Some(newer) => {
                    for r in older.results {
                        if !newer.results.iter().any(|n| n.element == r.element) {
                            newer.results.push(r);
                        }
                    }
                    for (id, f) in older.finals {
                        newer.finals.entry(id).or_insert(f);
                    }
                }
                None => {
                    loaded.insert(key(&path), older);
                }
            }
        }
        let count = loaded.len();
        for (path, mut r) in loaded {
            r.results.sort_by(|a, b| a.element.cmp(&b.element));
            let validations = store.latest_validations(&path.display().to_string())?;
            r.validations = validations.into_iter().map(|(seff, (v, _))| (seff, v)).collect();
            self.by_path.insert(path, Arc::new(r));
        }
        Ok(count)
    }
}

impl RepositoryResults {
    /// Keeps only the results about actions `keep` accepts (a job's preliminary blackboard spans
    /// every repository of the workspace; each repository shows its own).
    pub fn retain_actions(&mut self, keep: impl Fn(&str) -> bool) {
        self.results.retain(|r| keep(&r.action));
        self.finals
            .retain(|_, (e, _)| keep(beagle_analysis::model::action_of(&e.kind)));
    }
}
