//! One analysis job, as `beagle analyse` and the language server run it: the analysis
//! ([`crate::analysing`]: measurements, then every repository, kept in the store), then, when
//! [`Settings::validate`] asks, the validation of the analysed model on measurements it was not
//! fitted to ([`crate::validating::validate`]).
//!
//! Nothing here prints: progress and intermediate results go to an [`Observer`], the outcome is
//! plain data ([`JobOutput`]), and [`Control`] pauses or aborts the job from another thread.
//!
//! The job is the top of the crate: the stages it calls do not call back into it.

use crate::analysing::analyse::analyse;
use crate::error::JobError;
use crate::observer::{Event, Observer};
use crate::report::Diagnostic;
use crate::validating::held_out::held_out;
use crate::validating::validate::analysed_models;
use crate::validation::ValidateOptions;
use crate::workspace::Source;
use beagle_analysis::Control;

// Where they were first defined; `beagle_job::job::Settings` and the others keep working.
pub use crate::output::{Analysed, JobOutput, MeasuredSummary};
pub use crate::request::{Request, Settings};

/// Runs a job: measurements, then every repository of the workspace in turn, then the
/// validation if the settings ask for it.
pub fn run(request: &Request, observer: &mut dyn Observer, control: &Control) -> Result<JobOutput, JobError> {
    let ws = &request.workspace;
    let mut output = analyse(request, observer, control)?;
    if request.settings.validate && !output.aborted() && !control.cancel.is_cancelled() {
        observer.on(Event::Stage(
            "validating the model on measurements it was not fitted to",
        ));
        let options = ValidateOptions {
            seed: request.settings.seed,
            gp: request.settings.gp,
            budget_ms: request.settings.budget_ms,
            ..Default::default()
        };
        let validated = match &ws.source {
            Some(Source::Java { .. }) => analysed_models(&output)
                .and_then(|models| crate::validating::java::validate(ws, &models, None, &options, observer, control)),
            Some(other) => held_out(ws, other, &options, observer, control),
            // Not reached: the analysis has failed with this already.
            None => Err(JobError::NoMeasurements),
        };
        match validated {
            Ok(v) => output.validation = Some(v),
            Err(e) => output
                .report
                .diagnostics
                .push(Diagnostic::info(None, format!("the model was not validated: {e}"))),
        }
    }
    let counts_asked = match &ws.source {
        Some(Source::Java { config, .. }) => config.count || request.settings.count,
        _ => false,
    };
    if counts_asked && !output.aborted() && !control.cancel.is_cancelled() {
        observer.on(Event::Stage("counting the work per section"));
        if let Err(e) = crate::measuring::counting::count(ws, &mut output, &request.settings, observer, control) {
            output
                .report
                .diagnostics
                .push(Diagnostic::warning(None, format!("the work was not counted: {e}")));
        }
    }
    Ok(output)
}
