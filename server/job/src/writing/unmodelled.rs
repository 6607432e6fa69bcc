//! Writing each validated SEFF's unmodelled time into its repository (`beagle validate
//! --write-unmodelled`): an internal action `<Component.operation> (unmodelled)` right after the
//! SEFF's start, its CPU demand the law of the time no other action carried
//! (`beagle_analysis::unmodelled`). Each file is edited as a whole and written atomically. The law
//! is in milliseconds; where the model has processing rates it is written in CPU work units of the
//! SEFF's component's container, like every demand ([`crate::writing::units`]).

use crate::atomic::replace_if_unchanged;
use crate::error::JobError;
use crate::validation::ValidationReport;
use crate::workspace::Workspace;
use crate::writing::units::Rates;
use beagle_analysis::DemandUnit;
use beagle_pcm::edit_unmodelled::unmodelled_action_name;
use beagle_pcm::ModelFile;
use std::collections::BTreeMap;
use std::path::PathBuf;

/// Writes the unmodelled time of every outermost service that has a law (a called SEFF's time is
/// inside its caller's total, and would be counted twice); one line per action written or not.
/// A model that has the action already (written by an earlier validation) predicted with it: its
/// law then grows by what is still unmodelled.
pub fn write_unmodelled(ws: &Workspace, report: &ValidationReport) -> Result<Vec<String>, JobError> {
    let rates = Rates::load(ws)?;
    let mut by_file: BTreeMap<PathBuf, Vec<(&str, &str, &beagle_analysis::unmodelled::Unmodelled, &str)>> =
        BTreeMap::new();
    for s in &report.services {
        // A calibrated service's gap is the probes' distortion, which its factor takes up.
        if let (Some(_), Some(c)) = (&s.unmodelled, &s.calibration) {
            if c.not_writable.is_none() {
                continue;
            }
        }
        if let Some(u) = &s.unmodelled {
            by_file
                .entry(PathBuf::from(&s.repository))
                .or_default()
                .push((&s.seff, &s.service, u, &u.status));
        }
    }
    let mut written = Vec::new();
    for (path, services) in by_file {
        let original = std::fs::read(&path).map_err(JobError::unreadable(&path))?;
        let mut file = ModelFile::from_bytes(path.clone(), original.clone());
        for (seff, service, u, status) in services {
            let name = unmodelled_action_name(service);
            // A model that predicts more than was measured misses no time: a negative demand
            // is nothing a simulator can run.
            if u.median_share <= 0.0 {
                written.push(format!(
                    "{}: `{name}` not written: the model predicts more than was measured ({:.0} %)",
                    path.display(),
                    100.0 * u.median_share
                ));
                continue;
            }
            if !u.material() {
                written.push(format!(
                    "{}: `{name}` not written: {:.0} % of the measured time is within the noise (the shares' quartiles are {:.0} points apart; written from above {:.0} %)",
                    path.display(),
                    100.0 * u.median_share,
                    100.0 * u.share_spread,
                    100.0 * beagle_analysis::unmodelled::MATERIAL_SHARE
                ));
                continue;
            }
            let units = (file.repository.as_ref()).map_or_else(Default::default, |r| rates.units_for(r));
            let component = (file.repository.as_ref())
                .and_then(|r| r.seffs().find(|(_, s)| s.id.as_deref() == Some(seff)))
                .and_then(|(c, _)| c.id.clone())
                .unwrap_or_default();
            let law = match units.of(&component, beagle_pcm::edit::resource_type_id("CPU")) {
                DemandUnit::Milliseconds => u.stoex.clone(),
                DemandUnit::WorkUnits(c) => c.to_units(&u.stoex),
                DemandUnit::Unconvertible(why) => {
                    written.push(format!(
                        "{}: `{name}` not written: no work units: {why}",
                        path.display()
                    ));
                    continue;
                }
            };
            if file.seff_is_called(seff) {
                written.push(format!(
                    "{}: `{name}` not written: {seff} is called by another SEFF, whose measured total holds its time",
                    path.display()
                ));
                continue;
            }
            let existing = (file.repository.as_ref())
                .and_then(|r| r.actions().find(|a| a.name.as_deref() == Some(name.as_str())))
                .and_then(|a| a.resource_demands.first())
                .and_then(|d| d.specification)
                .map(|i| file.specifications[i].text.clone());
            let spec = match existing {
                Some(old) if old.trim() != "0" => format!("{old} + ({law})"),
                _ => law.clone(),
            };
            let edits = file
                .set_unmodelled_action(seff, service, "CPU", &spec)
                .map_err(|e| JobError::Edit {
                    path: path.clone(),
                    message: format!("{seff}: {e}"),
                })?;
            let text = beagle_pcm::edit::apply(file.text(), &edits).map_err(|e| JobError::Edit {
                path: path.clone(),
                message: format!("{seff}: {e}"),
            })?;
            file = ModelFile::from_bytes(path.clone(), text.into_bytes());
            written.push(format!("{}: `{name}` = {spec} ({status})", path.display()));
        }
        replace_if_unchanged(&path, &original, file.text())?;
    }
    Ok(written)
}
