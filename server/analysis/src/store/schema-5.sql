-- Schema version 5: counting runs' results per internal action (issue 39): count laws over the
-- inputs and the platform factor R (JSON SectionCounts), the latest per action.
CREATE TABLE section_counts (
    repository       TEXT NOT NULL,             -- the repository file (absolute path)
    action           TEXT NOT NULL,
    counts           TEXT NOT NULL,             -- JSON SectionCounts
    saved_at_ms      INTEGER NOT NULL,
    PRIMARY KEY (repository, action)
);
