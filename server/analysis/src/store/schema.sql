-- Beagle's result store, schema version 1 (PRAGMA user_version). See store/mod.rs.
-- JSON columns hold serde_json text of the named Rust type.

-- One row per measurement input (code, launch configuration, parameters): re-analysis reuses it.
CREATE TABLE measurements (
    input_key        TEXT PRIMARY KEY,          -- content_key of the inputs
    tool             TEXT NOT NULL,             -- the measurement tool's id
    events           INTEGER NOT NULL,          -- EventsSummary, one column per field
    service_calls    INTEGER NOT NULL,
    resource_demands INTEGER NOT NULL,
    loops            INTEGER NOT NULL,
    branches         INTEGER NOT NULL,
    parameter_changes INTEGER NOT NULL,
    executions       INTEGER NOT NULL,
    services         INTEGER NOT NULL,
    first_ns         INTEGER,
    last_ns          INTEGER,
    results          TEXT NOT NULL,             -- JSON [[MeasurableElement, MeasurementResult], ...]
    saved_at_ms      INTEGER NOT NULL           -- Unix time
);

-- One row per analysis run.
CREATE TABLE runs (
    id               INTEGER PRIMARY KEY AUTOINCREMENT,
    run_key          TEXT NOT NULL,             -- "the same analysis" (repository, scope, measurement, options, seed)
    measurement_key  TEXT NOT NULL,             -- measurements.input_key analysed
    repository       TEXT NOT NULL,
    scope            TEXT NOT NULL,
    seed             TEXT NOT NULL,             -- u64 in decimal (SQLite integers are i64)
    budget_ms        INTEGER,
    status           TEXT NOT NULL CHECK (status IN ('running', 'aborted', 'finished')),
    reason           TEXT,                      -- FinishReason (snake_case) once finished
    started_at_ms    INTEGER NOT NULL,
    updated_at_ms    INTEGER NOT NULL,
    finished_at_ms   INTEGER
);
CREATE INDEX runs_by_run_key ON runs (run_key, status);
CREATE INDEX runs_by_measurement ON runs (measurement_key, status);

-- The latest blackboard of each run (only one row per run is kept).
CREATE TABLE snapshots (
    run              INTEGER NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
    step             INTEGER NOT NULL,
    blackboard       TEXT NOT NULL,             -- JSON Blackboard
    saved_at_ms      INTEGER NOT NULL,
    PRIMARY KEY (run, step)
);

-- The final expressions of finished runs, one row per element, for plain SQL readers.
CREATE TABLE results (
    run              INTEGER NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
    element          TEXT NOT NULL,             -- MeasurableElement id
    kind             TEXT,                      -- resource_demand, loop, branch, call_parameter
    resource         TEXT,                      -- resource type id of a resource demand
    expression       TEXT NOT NULL,             -- StoEx
    analyser         TEXT NOT NULL,
    r2               REAL,                      -- NULL when not finite
    relative_error   REAL,
    samples          INTEGER NOT NULL,
    status           TEXT NOT NULL,             -- preliminary or final
    fitness          REAL,
    PRIMARY KEY (run, element)
);
