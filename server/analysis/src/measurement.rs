//! Measurement tools as the analysis loop sees them. A tool gets only the
//! [`MeasurementToolView`]: the elements to measure, and a place to put results.
//!
//! [`EventsTool`] delivers recorded events (Beagle events format, Kieker import): it measures by
//! looking up the events it was configured with, so the loop runs the same for recorded and live
//! measurements.

use crate::blackboard::{MeasurableElement, MeasurementResult};
use crate::control::CancelToken;
use crate::events::MeasurementEvent;
use crate::results::{EventDigest, ResultOptions};
use crate::views::MeasurementToolView;

/// A measurement tool: measures what the view says is to be measured.
pub trait MeasurementTool: Send + Sync {
    fn id(&self) -> &str;
    fn measure(&self, view: &mut MeasurementToolView, cancel: &CancelToken);
}

/// Recorded, time-ordered events.
pub struct EventsTool {
    pub id: String,
    pub events: Vec<MeasurementEvent>,
    pub options: ResultOptions,
}

impl EventsTool {
    pub fn new(events: Vec<MeasurementEvent>) -> Self {
        EventsTool {
            id: "events".into(),
            events,
            options: ResultOptions::default(),
        }
    }
}

impl MeasurementTool for EventsTool {
    fn id(&self) -> &str {
        &self.id
    }

    fn measure(&self, view: &mut MeasurementToolView, cancel: &CancelToken) {
        // The elements say which SEFF each action belongs to and every transition of a branch.
        let mut digest = EventDigest::for_elements(self.options.clone(), view.elements());
        for e in &self.events {
            digest.add(e);
        }
        for note in digest.notes() {
            view.diagnostic(note);
        }
        for (_, result) in digest.finish() {
            if cancel.is_cancelled() {
                return;
            }
            view.add_result(result);
        }
    }
}

/// Results computed before the analysis (from a stored measurement, or from events parsed once to
/// learn which elements they measure): delivers those of the elements to be measured.
pub struct RecordedResults {
    pub id: String,
    pub results: Vec<(MeasurableElement, MeasurementResult)>,
}

impl MeasurementTool for RecordedResults {
    fn id(&self) -> &str {
        &self.id
    }

    fn measure(&self, view: &mut MeasurementToolView, cancel: &CancelToken) {
        for (_, result) in &self.results {
            if cancel.is_cancelled() {
                return;
            }
            if view.to_measure().contains(&result.element) {
                view.add_result(result.clone());
            }
        }
    }
}
