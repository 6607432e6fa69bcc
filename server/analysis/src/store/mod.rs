//! The result store: an embedded SQLite database at `<workspace>/.beagle/beagle.sqlite` that keeps
//! measurements, analysis runs, their blackboards and their results.
//!
//! # Schema (`schema.sql`, then `schema-2.sql` and `schema-3.sql`; version in `PRAGMA user_version`)
//!
//! - `measurements`: one row per measurement input (`input_key`, a [`content_key`] of the code,
//!   launch configuration and parameters): the tool, an [`EventsSummary`] (one column per field)
//!   and the measurement results as JSON. Re-analysis reuses a row when its key did not change.
//! - `measurement_inputs` (version 2): per measurement read from files, what each file gave
//!   ([`crate::InputFile`]) and the import's notes, so a measurement taken from the store reports
//!   them as when it was read. A version-1 store gets the table when opened.
//! - `validations` (version 3): per service and `beagle validate`, its
//!   [`crate::validation::ServiceValidation`] (points, errors, predicted beside measured), for the
//!   editor's hover and lens.
//! - `runs`: one row per analysis run: `run_key` ("the same analysis", hashed by the caller), the
//!   measurement it analyses, repository, scope, seed, budget, `status` (`running`, `aborted`,
//!   `finished`) and the [`FinishReason`].
//! - `snapshots`: the run's latest [`Blackboard`] as JSON with its step number. The blackboard is
//!   the whole state of an analysis (tools keep theirs in its private data), so it is all a resume
//!   needs.
//! - `results`: for finished runs, one row per final expression (element, kind, resource,
//!   `expression` (StoEx), analyser, R², relative error, samples, status, fitness), so users and
//!   the language server can read results with plain SQL.
//!
//! # Transactions
//!
//! Every write ([`Store::save_measurement`], [`Store::start_run`], [`Store::checkpoint`],
//! [`Store::finish_run`], [`Store::abort_run`]) is one immediate transaction: it either happened
//! completely or not at all, so a crash (or a failing statement) loses at most the step in
//! progress and never leaves a run without a readable snapshot, or finished without its results.
//! A checkpoint replaces the run's snapshot rather than adding one: a resume only needs the
//! latest, and a blackboard holds every observation, so keeping one per step would grow the file
//! quadratically with the analysis.
//!
//! The database runs in WAL mode with `synchronous=FULL`: a committed step survives a process
//! kill and also an OS crash or power loss (NORMAL would survive only the former). A checkpoint
//! comes once per analysis step, which takes far longer than the fsync. Other processes (the CLI
//! and the language server) may open the same file; they wait up to 5 s for a writer.

mod summary;

pub use summary::{content_key, file_key, EventsSummary, SummaryBuilder};

use crate::blackboard::{Blackboard, ElementKind, FitnessFunction, MeasurableElement, MeasurementResult, StopRules};
use crate::judge::FinishReason;
use rusqlite::{params, Connection, OptionalExtension, Transaction, TransactionBehavior};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

/// The schema version this code writes and reads.
pub const SCHEMA_VERSION: i64 = 5;
/// The steps from an empty database to [`SCHEMA_VERSION`]: step `i` takes version `i` to `i + 1`.
/// A store of an older version is brought up to date when opened, in one transaction.
const SCHEMA_STEPS: [&str; 5] = [
    include_str!("schema.sql"),
    include_str!("schema-2.sql"),
    include_str!("schema-3.sql"),
    include_str!("schema-4.sql"),
    include_str!("schema-5.sql"),
];

/// The store's directory, next to the analysed workspace.
pub const STORE_DIR: &str = ".beagle";
/// The database file in [`STORE_DIR`].
pub const STORE_FILE: &str = "beagle.sqlite";

/// An error of the store; every message names the database file.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    #[error("{path}: cannot create the store directory: {source}")]
    Io { path: String, source: std::io::Error },
    #[error("{path}: {source}")]
    Sqlite { path: String, source: rusqlite::Error },
    #[error("{path}: snapshot of run {run} step {step} is unreadable: {source}")]
    Snapshot {
        path: String,
        run: i64,
        step: u64,
        source: serde_json::Error,
    },
    #[error("{path}: {what} is unreadable: {source}")]
    Unreadable {
        path: String,
        what: String,
        source: serde_json::Error,
    },
    #[error("{path}: cannot encode {what}: {source}")]
    Encode {
        path: String,
        what: String,
        source: serde_json::Error,
    },
    #[error(
        "{path}: schema version {found} is newer than this Beagle supports ({supported}); update Beagle, or move \
         the file away to start afresh"
    )]
    NewerSchema { path: String, found: i64, supported: i64 },
    #[error("{path}: run {run} {problem}")]
    Run {
        path: String,
        run: i64,
        problem: &'static str,
    },
}

/// A run's row id.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct RunId(pub i64);

/// What a new run analyses.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RunDescription {
    /// Identifies "the same analysis": the caller hashes repository text, scope, measurement key,
    /// options and seed (see [`content_key`]).
    pub run_key: String,
    /// The [`StoredMeasurement::input_key`] the run analyses.
    pub measurement_key: String,
    /// The repository's path, for listings.
    pub repository: String,
    /// E.g. `repository`, `component Foo`, `action _id`.
    pub scope: String,
    pub seed: u64,
    pub budget_ms: Option<u64>,
}

/// An unfinished run and where it stopped.
#[derive(Clone, Debug, PartialEq)]
pub struct ResumableRun {
    pub run: RunId,
    pub step: u64,
    pub blackboard: Blackboard,
}

/// A finished run with its final blackboard.
#[derive(Clone, Debug, PartialEq)]
pub struct FinishedRun {
    pub run: RunId,
    pub run_key: String,
    pub reason: FinishReason,
    pub budget_ms: Option<u64>,
    pub blackboard: Blackboard,
}

impl FinishedRun {
    /// Whether this run's result may stand in for an analysis asked with `fitness` and `stop` on
    /// the same measurement: it must be graded the same way, its finality thresholds must be at
    /// least as strict, and it must not have stopped short of what is asked:
    ///
    /// - all final, or no tool could contribute any more: more time would not have changed it;
    /// - budget spent: only if its budget was at least the asked one (an unlimited ask never is);
    /// - no improvement: only if it waited at least as many steps for at most as small an
    ///   improvement.
    pub fn is_at_least_as_precise_as(&self, fitness: &FitnessFunction, stop: &StopRules) -> bool {
        let had = self.blackboard.fitness_function();
        let same_grading = FitnessFunction {
            final_relative_error: fitness.final_relative_error,
            final_r2: fitness.final_r2,
            ..had.clone()
        } == *fitness;
        let stricter = had.final_relative_error <= fitness.final_relative_error && had.final_r2 >= fitness.final_r2;
        if !same_grading || !stricter {
            return false;
        }
        let had_stop = self.blackboard.stop_rules();
        match self.reason {
            FinishReason::AllFinal | FinishReason::NobodyCanContribute => true,
            FinishReason::BudgetSpent => match (self.budget_ms.or(had_stop.budget_ms), stop.budget_ms) {
                (Some(had), Some(asked)) => had >= asked,
                _ => false,
            },
            FinishReason::NoImprovement => match (had_stop.stall_rounds, stop.stall_rounds) {
                (Some(had), Some(asked)) => had >= asked && had_stop.min_improvement <= stop.min_improvement,
                _ => false,
            },
        }
    }
}

/// A measurement and the inputs it was made from.
#[derive(Clone, Debug, PartialEq)]
pub struct StoredMeasurement {
    /// [`content_key`] of the code, launch configuration and parameters measured.
    pub input_key: String,
    /// The measurement tool's id.
    pub tool: String,
    pub summary: EventsSummary,
    pub results: Vec<(MeasurableElement, MeasurementResult)>,
    /// What each input file gave (measurements read from files; empty for the Java tool).
    pub inputs: Vec<crate::InputFile>,
    /// What the import noted (layouts read, lines skipped, executions not used).
    pub notes: Vec<String>,
}

/// A run's state.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RunStatus {
    /// Started (or resumed) and not finished: resumable.
    Running,
    /// Stopped by the user: resumable.
    Aborted,
    Finished,
}

impl RunStatus {
    /// The name in the `runs.status` column.
    pub fn as_str(self) -> &'static str {
        match self {
            RunStatus::Running => "running",
            RunStatus::Aborted => "aborted",
            RunStatus::Finished => "finished",
        }
    }

    fn parse(s: &str) -> Option<RunStatus> {
        match s {
            "running" => Some(RunStatus::Running),
            "aborted" => Some(RunStatus::Aborted),
            "finished" => Some(RunStatus::Finished),
            _ => None,
        }
    }
}

/// A run as listed by [`Store::runs`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RunRow {
    pub run: RunId,
    pub run_key: String,
    pub measurement_key: String,
    pub repository: String,
    pub scope: String,
    pub seed: u64,
    pub budget_ms: Option<u64>,
    pub status: RunStatus,
    pub reason: Option<FinishReason>,
    /// The step of the run's snapshot.
    pub step: Option<u64>,
    pub started_at_ms: u64,
    pub updated_at_ms: u64,
    pub finished_at_ms: Option<u64>,
}

/// See the module documentation.
pub struct Store {
    conn: Connection,
    path: Option<PathBuf>,
    /// The file's name in messages.
    name: String,
}

impl std::fmt::Debug for Store {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Store").field("path", &self.name).finish()
    }
}

fn now_ms() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as u64)
}

fn sql(name: &str) -> impl Fn(rusqlite::Error) -> StoreError + '_ {
    move |source| StoreError::Sqlite {
        path: name.to_string(),
        source,
    }
}

fn encode<T: Serialize + ?Sized>(name: &str, what: &str, value: &T) -> Result<String, StoreError> {
    serde_json::to_string(value).map_err(|source| StoreError::Encode {
        path: name.to_string(),
        what: what.to_string(),
        source,
    })
}

fn decode<T: DeserializeOwned>(name: &str, what: impl FnOnce() -> String, text: &str) -> Result<T, StoreError> {
    serde_json::from_str(text).map_err(|source| StoreError::Unreadable {
        path: name.to_string(),
        what: what(),
        source,
    })
}

fn decode_snapshot(name: &str, run: i64, step: u64, text: &str) -> Result<Blackboard, StoreError> {
    serde_json::from_str(text).map_err(|source| StoreError::Snapshot {
        path: name.to_string(),
        run,
        step,
        source,
    })
}

/// A serde enum of unit variants as its snake_case name.
fn name_of<T: Serialize>(value: &T) -> String {
    match serde_json::to_value(value) {
        Ok(serde_json::Value::String(s)) => s,
        _ => String::new(),
    }
}

fn parse_reason(name: &str, run: i64, text: &str) -> Result<FinishReason, StoreError> {
    serde_json::from_value(serde_json::Value::String(text.to_string())).map_err(|source| StoreError::Unreadable {
        path: name.to_string(),
        what: format!("finish reason of run {run}"),
        source,
    })
}

fn parse_seed(name: &str, run: i64, text: &str) -> Result<u64, StoreError> {
    decode(name, || format!("seed of run {run}"), text)
}

/// An immediate transaction: takes the write lock at once, so concurrent writers wait
/// (busy_timeout) instead of failing on a lock upgrade.
fn begin<'a>(conn: &'a mut Connection, name: &str) -> Result<Transaction<'a>, StoreError> {
    conn.transaction_with_behavior(TransactionBehavior::Immediate)
        .map_err(sql(name))
}

/// A finite float, or `None` (SQL NULL).
fn finite(v: f64) -> Option<f64> {
    v.is_finite().then_some(v)
}

impl Store {
    /// Opens or creates `<root>/.beagle/beagle.sqlite` (creating `.beagle/`, with a `.gitignore`
    /// so the store is not committed by accident).
    pub fn open(root: &Path) -> Result<Store, StoreError> {
        let dir = root.join(STORE_DIR);
        let path = dir.join(STORE_FILE);
        let name = path.display().to_string();
        let io = |source| StoreError::Io {
            path: name.clone(),
            source,
        };
        std::fs::create_dir_all(&dir).map_err(io)?;
        let ignore = dir.join(".gitignore");
        if !ignore.exists() {
            std::fs::write(&ignore, "*\n").map_err(io)?;
        }
        let conn = Connection::open(&path).map_err(sql(&name))?;
        Store::init(conn, Some(path), name)
    }

    /// A store that lives as long as the value (tests, one-shot analyses).
    pub fn open_in_memory() -> Result<Store, StoreError> {
        let name = ":memory:".to_string();
        let conn = Connection::open_in_memory().map_err(sql(&name))?;
        Store::init(conn, None, name)
    }

    fn init(mut conn: Connection, path: Option<PathBuf>, name: String) -> Result<Store, StoreError> {
        let e = sql(&name);
        conn.busy_timeout(Duration::from_secs(5)).map_err(&e)?;
        // Returns the mode in force ("memory" for an in-memory database).
        let _: String = conn
            .query_row("PRAGMA journal_mode = WAL", [], |r| r.get(0))
            .map_err(&e)?;
        conn.pragma_update(None, "synchronous", "FULL").map_err(&e)?;
        conn.pragma_update(None, "foreign_keys", true).map_err(&e)?;
        // Immediate: two processes creating the schema at once take turns, the second sees it.
        let tx = conn
            .transaction_with_behavior(TransactionBehavior::Immediate)
            .map_err(&e)?;
        let version: i64 = tx.pragma_query_value(None, "user_version", |r| r.get(0)).map_err(&e)?;
        if version > SCHEMA_VERSION {
            return Err(StoreError::NewerSchema {
                path: name.clone(),
                found: version,
                supported: SCHEMA_VERSION,
            });
        }
        if version < SCHEMA_VERSION {
            for step in &SCHEMA_STEPS[version.max(0) as usize..] {
                tx.execute_batch(step).map_err(&e)?;
            }
            tx.pragma_update(None, "user_version", SCHEMA_VERSION).map_err(&e)?;
        }
        tx.commit().map_err(&e)?;
        drop(e);
        Ok(Store { conn, path, name })
    }

    /// The database file; `None` in memory.
    pub fn path(&self) -> Option<&Path> {
        self.path.as_deref()
    }

    /// The measurement made from these inputs, if any.
    pub fn cached_measurement(&self, input_key: &str) -> Result<Option<StoredMeasurement>, StoreError> {
        let e = sql(&self.name);
        let row = self
            .conn
            .query_row(
                "SELECT tool, events, service_calls, resource_demands, loops, branches, executions, services, \
                 first_ns, last_ns, results, parameter_changes, probe_costs FROM measurements WHERE input_key = ?1",
                [input_key],
                |r| {
                    Ok((
                        r.get::<_, String>(0)?,
                        EventsSummary {
                            events: r.get(1)?,
                            service_calls: r.get(2)?,
                            resource_demands: r.get(3)?,
                            loops: r.get(4)?,
                            branches: r.get(5)?,
                            executions: r.get(6)?,
                            services: r.get(7)?,
                            first_ns: r.get(8)?,
                            last_ns: r.get(9)?,
                            parameter_changes: r.get(11)?,
                            probe_costs: Default::default(),
                        },
                        r.get::<_, String>(10)?,
                        r.get::<_, Option<String>>(12)?,
                    ))
                },
            )
            .optional()
            .map_err(e)?;
        let Some((tool, mut summary, results, probe_costs)) = row else {
            return Ok(None);
        };
        if let Some(costs) = probe_costs {
            summary.probe_costs = decode(&self.name, || format!("probe costs of measurement {input_key}"), &costs)?;
        }
        let results = decode(&self.name, || format!("results of measurement {input_key}"), &results)?;
        let inputs: Option<(String, String)> = self
            .conn
            .query_row(
                "SELECT files, notes FROM measurement_inputs WHERE input_key = ?1",
                [input_key],
                |r| Ok((r.get(0)?, r.get(1)?)),
            )
            .optional()
            .map_err(sql(&self.name))?;
        let (inputs, notes) = match inputs {
            Some((files, notes)) => (
                decode(&self.name, || format!("input files of measurement {input_key}"), &files)?,
                decode(&self.name, || format!("notes of measurement {input_key}"), &notes)?,
            ),
            None => (Vec::new(), Vec::new()),
        };
        Ok(Some(StoredMeasurement {
            input_key: input_key.to_string(),
            tool,
            summary,
            results,
            inputs,
            notes,
        }))
    }

    /// Stores a measurement, replacing one with the same key; one transaction.
    pub fn save_measurement(&mut self, m: &StoredMeasurement) -> Result<(), StoreError> {
        let results = encode(&self.name, "measurement results", &m.results)?;
        let inputs = encode(&self.name, "input files", &m.inputs)?;
        let notes = encode(&self.name, "import notes", &m.notes)?;
        let probe_costs = match m.summary.probe_costs.is_empty() {
            true => None,
            false => Some(encode(&self.name, "probe costs", &m.summary.probe_costs)?),
        };
        let tx = begin(&mut self.conn, &self.name)?;
        let e = sql(&self.name);
        let s = &m.summary;
        tx.execute(
            "INSERT OR REPLACE INTO measurements (input_key, tool, events, service_calls, resource_demands, loops, \
             branches, executions, services, first_ns, last_ns, results, saved_at_ms, parameter_changes, probe_costs) \
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15)",
            params![
                m.input_key,
                m.tool,
                s.events,
                s.service_calls,
                s.resource_demands,
                s.loops,
                s.branches,
                s.executions,
                s.services,
                s.first_ns,
                s.last_ns,
                results,
                now_ms(),
                s.parameter_changes,
                probe_costs
            ],
        )
        .map_err(&e)?;
        if !m.inputs.is_empty() || !m.notes.is_empty() {
            tx.execute(
                "INSERT OR REPLACE INTO measurement_inputs (input_key, files, notes) VALUES (?1, ?2, ?3)",
                params![m.input_key, inputs, notes],
            )
            .map_err(&e)?;
        }
        tx.commit().map_err(&e)
    }

    /// Saves a validation of the service `v.seff` of `repository`; one transaction.
    pub fn save_validation(
        &mut self,
        repository: &str,
        v: &crate::validation::ServiceValidation,
    ) -> Result<(), StoreError> {
        let json = encode(&self.name, "validation", v)?;
        let tx = begin(&mut self.conn, &self.name)?;
        let e = sql(&self.name);
        let median = v.median_relative_error.is_finite().then_some(v.median_relative_error);
        tx.execute(
            "INSERT INTO validations (repository, seff, validation, median_relative_error, saved_at_ms) \
             VALUES (?1, ?2, ?3, ?4, ?5)",
            params![repository, v.seff, json, median, now_ms()],
        )
        .map_err(&e)?;
        tx.commit().map_err(&e)
    }

    /// The latest validation of every service of `repository`: SEFF id -> (validation, saved at
    /// (Unix ms)).
    pub fn latest_validations(
        &self,
        repository: &str,
    ) -> Result<std::collections::BTreeMap<String, (crate::validation::ServiceValidation, i64)>, StoreError> {
        let e = sql(&self.name);
        let mut stmt = self
            .conn
            .prepare(
                "SELECT seff, validation, saved_at_ms FROM validations v WHERE repository = ?1 \
                 AND id = (SELECT MAX(id) FROM validations w WHERE w.repository = v.repository AND w.seff = v.seff)",
            )
            .map_err(&e)?;
        let rows = stmt
            .query_map([repository], |r| {
                Ok((r.get::<_, String>(0)?, r.get::<_, String>(1)?, r.get::<_, i64>(2)?))
            })
            .map_err(&e)?;
        let mut out = std::collections::BTreeMap::new();
        for row in rows {
            let (seff, json, at) = row.map_err(&e)?;
            let v = decode(&self.name, || format!("validation of {seff}"), &json)?;
            out.insert(seff, (v, at));
        }
        Ok(out)
    }

    /// Saves the counts of internal actions of `repository` (replacing each action's earlier
    /// ones); one transaction.
    pub fn save_section_counts(
        &mut self,
        repository: &str,
        counts: &[crate::section_counts::SectionCounts],
    ) -> Result<(), StoreError> {
        let mut rows = Vec::new();
        for c in counts {
            rows.push((c.action.clone(), encode(&self.name, "section counts", c)?));
        }
        let tx = begin(&mut self.conn, &self.name)?;
        let e = sql(&self.name);
        for (action, json) in rows {
            tx.execute(
                "INSERT OR REPLACE INTO section_counts (repository, action, counts, saved_at_ms) \
                 VALUES (?1, ?2, ?3, ?4)",
                params![repository, action, json, now_ms()],
            )
            .map_err(&e)?;
        }
        tx.commit().map_err(&e)
    }

    /// The counts of every counted internal action of `repository`, by action id.
    pub fn section_counts(
        &self,
        repository: &str,
    ) -> Result<std::collections::BTreeMap<String, crate::section_counts::SectionCounts>, StoreError> {
        let e = sql(&self.name);
        let mut stmt = self
            .conn
            .prepare("SELECT action, counts FROM section_counts WHERE repository = ?1")
            .map_err(&e)?;
        let rows = stmt
            .query_map([repository], |r| Ok((r.get::<_, String>(0)?, r.get::<_, String>(1)?)))
            .map_err(&e)?;
        let mut out = std::collections::BTreeMap::new();
        for row in rows {
            let (action, json) = row.map_err(&e)?;
            let c = decode(&self.name, || format!("counts of {action}"), &json)?;
            out.insert(action, c);
        }
        Ok(out)
    }

    /// Starts a run: its row and the snapshot of step 0, one transaction.
    pub fn start_run(&mut self, run: &RunDescription, bb: &Blackboard) -> Result<RunId, StoreError> {
        let snapshot = encode(&self.name, "blackboard", bb)?;
        let tx = begin(&mut self.conn, &self.name)?;
        let e = sql(&self.name);
        let now = now_ms();
        tx.execute(
            "INSERT INTO runs (run_key, measurement_key, repository, scope, seed, budget_ms, status, started_at_ms, \
             updated_at_ms) VALUES (?1, ?2, ?3, ?4, ?5, ?6, 'running', ?7, ?7)",
            params![
                run.run_key,
                run.measurement_key,
                run.repository,
                run.scope,
                run.seed.to_string(),
                run.budget_ms,
                now
            ],
        )
        .map_err(&e)?;
        let id = tx.last_insert_rowid();
        tx.execute(
            "INSERT INTO snapshots (run, step, blackboard, saved_at_ms) VALUES (?1, 0, ?2, ?3)",
            params![id, snapshot, now],
        )
        .map_err(&e)?;
        tx.commit().map_err(&e)?;
        Ok(RunId(id))
    }

    /// The newest unfinished (running or aborted) run with this key, and its latest snapshot.
    pub fn unfinished_run(&self, run_key: &str) -> Result<Option<ResumableRun>, StoreError> {
        let row = self
            .conn
            .query_row(
                "SELECT r.id, s.step, s.blackboard FROM runs r JOIN snapshots s ON s.run = r.id \
                 WHERE r.run_key = ?1 AND r.status IN ('running', 'aborted') ORDER BY r.id DESC, s.step DESC LIMIT 1",
                [run_key],
                |r| Ok((r.get::<_, i64>(0)?, r.get::<_, u64>(1)?, r.get::<_, String>(2)?)),
            )
            .optional()
            .map_err(sql(&self.name))?;
        row.map(|(id, step, text)| {
            Ok(ResumableRun {
                run: RunId(id),
                step,
                blackboard: decode_snapshot(&self.name, id, step, &text)?,
            })
        })
        .transpose()
    }

    /// The run's status and latest step, failing when it does not exist.
    /// The latest snapshot step of a run that may still be written to; `if_finished` is the
    /// error's wording when the run is finished.
    fn writable_run_step(
        tx: &Transaction<'_>,
        name: &str,
        run: RunId,
        if_finished: &'static str,
    ) -> Result<Option<u64>, StoreError> {
        let row = tx
            .query_row(
                "SELECT status, (SELECT MAX(step) FROM snapshots WHERE run = runs.id) FROM runs WHERE id = ?1",
                [run.0],
                |r| Ok((r.get::<_, String>(0)?, r.get::<_, Option<u64>>(1)?)),
            )
            .optional()
            .map_err(sql(name))?;
        let problem = |problem| StoreError::Run {
            path: name.to_string(),
            run: run.0,
            problem,
        };
        let (status, step) = row.ok_or_else(|| problem("does not exist"))?;
        let status = RunStatus::parse(&status).ok_or_else(|| problem("has an unknown status"))?;
        if status == RunStatus::Finished {
            return Err(problem(if_finished));
        }
        Ok(step)
    }

    /// Makes `bb` the run's only snapshot, at `step`.
    fn replace_snapshot(
        tx: &Transaction<'_>,
        name: &str,
        run: RunId,
        step: u64,
        snapshot: &str,
        now: u64,
    ) -> Result<(), StoreError> {
        let e = sql(name);
        tx.execute(
            "INSERT OR REPLACE INTO snapshots (run, step, blackboard, saved_at_ms) VALUES (?1, ?2, ?3, ?4)",
            params![run.0, step, snapshot, now],
        )
        .map_err(&e)?;
        tx.execute(
            "DELETE FROM snapshots WHERE run = ?1 AND step <> ?2",
            params![run.0, step],
        )
        .map_err(&e)?;
        Ok(())
    }

    /// Records the blackboard after `step`, one transaction: the snapshot replaces the run's
    /// previous one. A run that was aborted is running again.
    pub fn checkpoint(&mut self, run: RunId, step: u64, bb: &Blackboard) -> Result<(), StoreError> {
        let snapshot = encode(&self.name, "blackboard", bb)?;
        let name = &self.name;
        let tx = begin(&mut self.conn, name)?;
        Store::writable_run_step(&tx, name, run, "is finished")?;
        let now = now_ms();
        Store::replace_snapshot(&tx, name, run, step, &snapshot, now)?;
        let e = sql(name);
        tx.execute(
            "UPDATE runs SET status = 'running', updated_at_ms = ?2 WHERE id = ?1",
            params![run.0, now],
        )
        .map_err(&e)?;
        tx.commit().map_err(&e)
    }

    /// Finishes a run, one transaction: the final snapshot (the step after the latest), one
    /// `results` row per final expression, status `finished` with the reason; earlier runs of
    /// the same key that are not running lose their snapshots (compaction).
    pub fn finish_run(&mut self, run: RunId, reason: FinishReason, bb: &Blackboard) -> Result<(), StoreError> {
        let snapshot = encode(&self.name, "blackboard", bb)?;
        let name = &self.name;
        let tx = begin(&mut self.conn, name)?;
        let step = Store::writable_run_step(&tx, name, run, "is finished already")?;
        let now = now_ms();
        Store::replace_snapshot(&tx, name, run, step.map_or(0, |s| s + 1), &snapshot, now)?;
        let e = sql(name);
        tx.execute("DELETE FROM results WHERE run = ?1", [run.0]).map_err(&e)?;
        {
            let mut insert = tx
                .prepare(
                    "INSERT INTO results (run, element, kind, resource, expression, analyser, r2, relative_error, \
                     samples, status, fitness) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)",
                )
                .map_err(&e)?;
            for (id, fe) in bb.final_expressions() {
                let kind = bb.element(id).map(|el| &el.kind);
                let resource = match kind {
                    Some(ElementKind::ResourceDemand { resource, .. }) => Some(resource.as_str()),
                    _ => None,
                };
                let p = &fe.proposal;
                insert
                    .execute(params![
                        run.0,
                        id,
                        kind.map(ElementKind::name),
                        resource,
                        p.stoex,
                        p.analyser,
                        finite(p.r2),
                        finite(p.relative_error),
                        p.samples,
                        name_of(&fe.status),
                        finite(fe.fitness)
                    ])
                    .map_err(&e)?;
            }
        }
        tx.execute(
            "UPDATE runs SET status = 'finished', reason = ?2, updated_at_ms = ?3, finished_at_ms = ?3 WHERE id = ?1",
            params![run.0, name_of(&reason), now],
        )
        .map_err(&e)?;
        // Earlier runs of the same analysis (same key: model, scope, measurements, settings)
        // that are not running any more are superseded: their blackboards go, their rows and
        // results stay as history. Runs of other keys are kept whole: their finals are reused.
        tx.execute(
            "DELETE FROM snapshots WHERE run IN (SELECT id FROM runs WHERE id < ?1 AND status <> 'running' \
             AND run_key = (SELECT run_key FROM runs WHERE id = ?1))",
            [run.0],
        )
        .map_err(&e)?;
        tx.commit().map_err(&e)?;
        // The write-ahead log held every checkpoint of the run: fold it into the database and
        // truncate it, so a finished analysis leaves one file of its final size. Best effort: a
        // reader in another process may hold it, and the next write retries.
        let _ = self.conn.query_row("PRAGMA wal_checkpoint(TRUNCATE)", [], |_| Ok(()));
        Ok(())
    }

    /// The user stopped the run, one transaction: `bb` replaces the latest snapshot (under the
    /// same step: no step completed) and the run is `aborted`, still returned by
    /// [`Store::unfinished_run`] so the next start resumes it.
    pub fn abort_run(&mut self, run: RunId, bb: &Blackboard) -> Result<(), StoreError> {
        let snapshot = encode(&self.name, "blackboard", bb)?;
        let name = &self.name;
        let tx = begin(&mut self.conn, name)?;
        let step = Store::writable_run_step(&tx, name, run, "is finished")?;
        let now = now_ms();
        Store::replace_snapshot(&tx, name, run, step.unwrap_or(0), &snapshot, now)?;
        let e = sql(name);
        tx.execute(
            "UPDATE runs SET status = 'aborted', updated_at_ms = ?2 WHERE id = ?1",
            params![run.0, now],
        )
        .map_err(&e)?;
        tx.commit().map_err(&e)
    }

    /// The finished runs that analysed this measurement, newest first.
    pub fn finished_runs(&self, measurement_key: &str) -> Result<Vec<FinishedRun>, StoreError> {
        let e = sql(&self.name);
        let mut stmt = self
            .conn
            .prepare(
                "SELECT r.id, r.run_key, r.reason, r.budget_ms, s.step, s.blackboard FROM runs r \
                 JOIN snapshots s ON s.run = r.id WHERE r.measurement_key = ?1 AND r.status = 'finished' \
                 ORDER BY r.id DESC, s.step DESC",
            )
            .map_err(&e)?;
        let rows = stmt
            .query_map([measurement_key], |r| {
                Ok((
                    r.get::<_, i64>(0)?,
                    r.get::<_, String>(1)?,
                    r.get::<_, Option<String>>(2)?,
                    r.get::<_, Option<u64>>(3)?,
                    r.get::<_, u64>(4)?,
                    r.get::<_, String>(5)?,
                ))
            })
            .map_err(&e)?;
        let mut out: Vec<FinishedRun> = Vec::new();
        for row in rows {
            let (id, run_key, reason, budget_ms, step, text) = row.map_err(&e)?;
            if out.last().is_some_and(|f| f.run.0 == id) {
                continue;
            }
            out.push(FinishedRun {
                run: RunId(id),
                run_key,
                reason: parse_reason(&self.name, id, reason.as_deref().unwrap_or(""))?,
                budget_ms,
                blackboard: decode_snapshot(&self.name, id, step, &text)?,
            });
        }
        Ok(out)
    }

    /// The blackboard of a run's latest snapshot (`None` when the run has none).
    pub fn latest_snapshot(&self, run: RunId) -> Result<Option<Blackboard>, StoreError> {
        let e = sql(&self.name);
        let row = self
            .conn
            .query_row(
                "SELECT step, blackboard FROM snapshots WHERE run = ?1 ORDER BY step DESC LIMIT 1",
                [run.0],
                |r| Ok((r.get::<_, u64>(0)?, r.get::<_, String>(1)?)),
            )
            .optional()
            .map_err(&e)?;
        row.map(|(step, text)| decode_snapshot(&self.name, run.0, step, &text))
            .transpose()
    }

    /// Every run, oldest first.
    pub fn runs(&self) -> Result<Vec<RunRow>, StoreError> {
        let e = sql(&self.name);
        let mut stmt = self
            .conn
            .prepare(
                "SELECT id, run_key, measurement_key, repository, scope, seed, budget_ms, status, reason, \
                 (SELECT MAX(step) FROM snapshots WHERE run = runs.id), started_at_ms, updated_at_ms, finished_at_ms \
                 FROM runs ORDER BY id",
            )
            .map_err(&e)?;
        let rows = stmt
            .query_map([], |r| {
                Ok((
                    r.get::<_, i64>(0)?,
                    [r.get::<_, String>(1)?, r.get(2)?, r.get(3)?, r.get(4)?, r.get(5)?],
                    r.get::<_, Option<u64>>(6)?,
                    r.get::<_, String>(7)?,
                    r.get::<_, Option<String>>(8)?,
                    r.get::<_, Option<u64>>(9)?,
                    [r.get::<_, u64>(10)?, r.get(11)?],
                    r.get::<_, Option<u64>>(12)?,
                ))
            })
            .map_err(&e)?;
        let mut out = Vec::new();
        for row in rows {
            let (id, [run_key, measurement_key, repository, scope, seed], budget_ms, status, reason, step, times, fin) =
                row.map_err(&e)?;
            let status = RunStatus::parse(&status).ok_or_else(|| StoreError::Run {
                path: self.name.clone(),
                run: id,
                problem: "has an unknown status",
            })?;
            out.push(RunRow {
                run: RunId(id),
                run_key,
                measurement_key,
                repository,
                scope,
                seed: parse_seed(&self.name, id, &seed)?,
                budget_ms,
                status,
                reason: reason.map(|r| parse_reason(&self.name, id, &r)).transpose()?,
                step,
                started_at_ms: times[0],
                updated_at_ms: times[1],
                finished_at_ms: fin,
            });
        }
        Ok(out)
    }
}

#[cfg(test)]
mod tests;
