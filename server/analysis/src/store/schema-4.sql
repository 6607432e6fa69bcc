-- Schema version 4: the probes' own cost per element (JSON map of element id to ProbeCost),
-- subtracted from a measurement's demands by the Java tool. NULL: none recorded.
ALTER TABLE measurements ADD COLUMN probe_costs TEXT;
