-- Schema version 3: validations of the model (beagle validate), per service.

-- One row per service and validation: predicted beside measured total demand at its points.
CREATE TABLE validations (
    id               INTEGER PRIMARY KEY AUTOINCREMENT,
    repository       TEXT NOT NULL,             -- the repository file (absolute path)
    seff             TEXT NOT NULL,
    validation       TEXT NOT NULL,             -- JSON ServiceValidation
    median_relative_error REAL,
    saved_at_ms      INTEGER NOT NULL
);
CREATE INDEX validations_by_seff ON validations (repository, seff, id);
