//! Beagle's measurement import: turns what measurement tools wrote into the
//! time-ordered [`MeasurementEvent`]s the analysis core consumes.
//!
//! - [`kieker`] reads Kieker text logs (`kieker.map` + `*.dat`): Kieker's standard records and the
//!   CIPM record family keyed by PCM ids.
//! - [`convert`] turns those records into events: CIPM records map directly, standard records
//!   through an [`OperationMapping`] from operation signatures to PCM ids.
//! - [`events_format`] reads and writes the Beagle events format, one JSON event per line, so that
//!   instrumentation in any language can feed Beagle.
//! - [`otel`] reads OpenTelemetry traces (OTLP/JSON) into the same events.

pub mod convert;
pub mod error;
pub mod events_format;
pub mod kieker;
pub mod mapping;
pub mod otel;

pub use beagle_analysis::{MeasurementEvent, Parameters};

pub use convert::{convert, ConversionReport, MappedOperation, OperationMapping};
pub use error::FileError;
pub use kieker::{read_log, KiekerError, KiekerLog, KiekerRecord, Record};
pub use mapping::{parse_mapping, read_mapping};
