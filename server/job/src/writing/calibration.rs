//! Writing each calibrated SEFF's factor into its repository (`beagle validate
//! --write-calibration`): every demand of the internal actions its prediction is composed of
//! ([`beagle_analysis::validation::Calibration::actions`]) multiplied by the factor, carried into
//! the law's own constants where its form allows (`2·x + 3` times 1.1 is `2.2·x + 3.3`). Each file
//! is edited as a whole and written atomically.

use crate::atomic::replace_if_unchanged;
use crate::error::JobError;
use crate::validation::ValidationReport;
use beagle_pcm::ModelFile;
use std::collections::BTreeMap;
use std::path::PathBuf;

/// Significant digits of a scaled constant: the factor itself is known to a few per cent.
const DIGITS: i32 = 4;

/// Writes the factor of every calibrated service that can take it; one line per SEFF.
pub fn write_calibration(report: &ValidationReport) -> Result<Vec<String>, JobError> {
    let mut by_file: BTreeMap<PathBuf, Vec<_>> = BTreeMap::new();
    for s in &report.services {
        if let Some(c) = &s.calibration {
            by_file.entry(PathBuf::from(&s.repository)).or_default().push((s, c));
        }
    }
    let mut written = Vec::new();
    for (path, services) in by_file {
        let original = std::fs::read(&path).map_err(JobError::unreadable(&path))?;
        let mut file = ModelFile::from_bytes(path.clone(), original.clone());
        for (s, c) in services {
            if let Some(why) = &c.not_writable {
                written.push(format!("{}: {} not calibrated: {why}", path.display(), s.service));
                continue;
            }
            let mut changed = 0;
            for action in &c.actions {
                for (resource, old) in demands(&file, action) {
                    let new = beagle_stoex::scale::scaled_text(&old, c.factor, DIGITS);
                    let edits = (file.set_resource_demand(action, &resource, &new)).map_err(|e| JobError::Edit {
                        path: path.clone(),
                        message: format!("{action}: {e}"),
                    })?;
                    let text = beagle_pcm::edit::apply(file.text(), &edits).map_err(|e| JobError::Edit {
                        path: path.clone(),
                        message: format!("{action}: {e}"),
                    })?;
                    file = ModelFile::from_bytes(path.clone(), text.into_bytes());
                    changed += 1;
                }
            }
            written.push(format!(
                "{}: {}: {changed} demands × {:.3} (calibrated against the plain build)",
                path.display(),
                s.service,
                c.factor
            ));
        }
        replace_if_unchanged(&path, &original, file.text())?;
    }
    Ok(written)
}

/// The demands of internal action `id`: (resource type id, specification text).
fn demands(file: &ModelFile, id: &str) -> Vec<(String, String)> {
    let Some(action) = (file.repository.as_ref()).and_then(|r| r.actions().find(|a| a.id.as_deref() == Some(id)))
    else {
        return Vec::new();
    };
    (action.resource_demands.iter())
        .filter_map(|d| {
            let resource = d.resource_type.as_ref()?.target.fragment().to_string();
            let spec = file.specifications[d.specification?].text.clone();
            Some((resource, spec))
        })
        .collect()
}
