-- Schema version 2: what each input file of a measurement gave, and the import's notes.

-- One row per measurement read from files (Kieker logs, OTLP/JSON, events): shown again when the
-- measurement is taken from the store.
CREATE TABLE measurement_inputs (
    input_key        TEXT PRIMARY KEY REFERENCES measurements (input_key) ON DELETE CASCADE,
    files            TEXT NOT NULL,             -- JSON [InputFile, ...]
    notes            TEXT NOT NULL              -- JSON [String, ...]
);
