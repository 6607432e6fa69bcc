//! What every stage of a job works with, passed down from the job to the analysis, the Java
//! measurements and the validation of a Java workspace. Apart from `job` so that those stages do
//! not depend on the job that calls them.

use crate::observer::Observer;
use crate::report::Report;
use crate::request::Settings;
use beagle_analysis::{Control, Store};

/// What every stage of a job works with.
pub(crate) struct Context<'a> {
    pub settings: &'a Settings,
    pub store: &'a mut Store,
    pub observer: &'a mut dyn Observer,
    pub control: &'a Control,
    pub report: &'a mut Report,
}
