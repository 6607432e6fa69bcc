//! The measurement-source arguments `analyse` and `validate` share: they override beagle.toml's
//! `[measurements]`.

use crate::error::CliError;
use beagle_job::{Source, Workspace};
use std::path::PathBuf;

#[derive(clap::Args)]
pub struct SourceArgs {
    /// Measurements in the Beagle events format (one JSON event per line).
    #[arg(long, value_name = "FILE", conflicts_with = "kieker")]
    events: Option<PathBuf>,
    /// Measurements as a Kieker text log folder (kieker.map + record files, plain or compressed),
    /// or such a folder in one zip archive.
    #[arg(long, value_name = "DIR", conflicts_with = "otel")]
    kieker: Option<PathBuf>,
    /// Measurements as OpenTelemetry traces (OTLP/JSON, one export request per line).
    #[arg(long, value_name = "FILE", conflicts_with = "events")]
    otel: Option<PathBuf>,
    /// Operation mapping (TOML) for Kieker's standard records and OpenTelemetry spans.
    #[arg(long, value_name = "FILE")]
    mapping: Option<PathBuf>,
}

impl SourceArgs {
    /// Sets the workspace's source from the arguments given.
    pub fn apply(&self, ws: &mut Workspace) -> Result<(), CliError> {
        if let Some(e) = &self.events {
            ws.source = Some(Source::Events(e.clone()));
        }
        if let Some(k) = &self.kieker {
            ws.source = Some(Source::Kieker {
                dir: k.clone(),
                mapping: self.mapping.clone(),
            });
        }
        if let Some(o) = &self.otel {
            ws.source = Some(Source::Otel {
                file: o.clone(),
                mapping: self.mapping.clone(),
            });
        }
        if self.mapping.is_some() && self.kieker.is_none() && self.otel.is_none() {
            return Err(CliError::MappingWithoutSource);
        }
        Ok(())
    }
}
