//! A container's CPU processing rate from a profile (`beagle calibrate --set-rate`): the rate is
//! the platform's work units per simulation time unit, one work unit being the suite's reference
//! mix ([`Profile::work_units_per_s`]). The edit replaces the rate's attribute value and nothing
//! else, so the file keeps every other byte.

use super::profile::Profile;
use beagle_pcm::edit::TextEdit;
use beagle_pcm::model::resource_environment::{resource_environment, RateError};
use beagle_pcm::{ModelFile, TimeUnit};

/// Palladio's CPU resource type.
const CPU: &str = "_oro4gG3fEdy4YaaT-RYrLQ";

#[derive(Debug, thiserror::Error, PartialEq)]
pub enum SetRateError {
    #[error("{0} holds no resource environment")]
    NotAResourceEnvironment(String),
    #[error("no resource container named `{container}` (or with that id) in {file}; there are: {known}")]
    NoContainer {
        container: String,
        file: String,
        known: String,
    },
    #[error("resource container `{0}` has no CPU processing resource")]
    NoCpu(String),
    #[error(
        "the CPU of `{0}` has no processing rate to replace (add a processingRate_ProcessingResourceSpecification)"
    )]
    NoRate(String),
    #[error("the profile's suite total is not positive: no rate can be derived")]
    NoTotal,
}

/// The rate a profile gives, per `unit` (work units per second or per millisecond).
pub fn rate_per(profile: &Profile, unit: TimeUnit) -> Result<f64, SetRateError> {
    let per_s = profile.work_units_per_s();
    if !(per_s > 0.0 && per_s.is_finite()) {
        return Err(SetRateError::NoTotal);
    }
    Ok(match unit {
        TimeUnit::Seconds => per_s,
        TimeUnit::Milliseconds => per_s / 1000.0,
    })
}

/// A rate as the specification writes it: a plain decimal with 6 significant digits.
pub fn rate_text(rate: f64) -> String {
    let digits = (5 - rate.abs().log10().floor() as i32).max(0) as usize;
    format!("{rate:.digits$}")
}

/// The edit that sets the CPU rate of `container` (a name or id) to `rate`, and the text it had.
pub fn set_rate_edit(file: &ModelFile, container: &str, rate: f64) -> Result<(TextEdit, String), SetRateError> {
    let path = file.path.display().to_string();
    let env = resource_environment(file).ok_or_else(|| SetRateError::NotAResourceEnvironment(path.clone()))?;
    let Some(c) =
        (env.containers.iter()).find(|c| c.name.as_deref() == Some(container) || c.id.as_deref() == Some(container))
    else {
        let known: Vec<&str> = env.containers.iter().filter_map(|c| c.name.as_deref()).collect();
        return Err(SetRateError::NoContainer {
            container: container.to_string(),
            file: path,
            known: known.join(", "),
        });
    };
    let cpu = (c.resources.iter())
        .find(|r| r.resource_type.as_deref() == Some(CPU))
        .ok_or_else(|| SetRateError::NoCpu(container.to_string()))?;
    let old = match &cpu.rate {
        Ok(r) => r.text.clone(),
        Err(RateError::Missing) => return Err(SetRateError::NoRate(container.to_string())),
        // A rate that does not parse is still an attribute value: it is replaced.
        Err(_) => file.text()[cpu.rate_span.range()].to_string(),
    };
    // Without a rate element the span is the start tag: never overwrite that.
    let has_value = file
        .tree
        .child_named(cpu.node, "processingRate_ProcessingResourceSpecification")
        .is_some();
    if !has_value {
        return Err(SetRateError::NoRate(container.to_string()));
    }
    Ok((
        TextEdit {
            span: cpu.rate_span,
            new_text: rate_text(rate),
        },
        old,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::PathBuf;

    const ENV: &str = r#"<?xml version="1.0" encoding="UTF-8"?>
<resourceenvironment:ResourceEnvironment xmi:version="2.0" xmlns:xmi="http://www.omg.org/XMI" xmlns:resourceenvironment="http://palladiosimulator.org/PalladioComponentModel/ResourceEnvironment/5.2" entityName="E">
  <resourceContainer_ResourceEnvironment id="_s" entityName="Server">
    <activeResourceSpecifications_ResourceContainer id="_cpu">
      <activeResourceType_ActiveResourceSpecification href="pathmap://PCM_MODELS/Palladio.resourcetype#_oro4gG3fEdy4YaaT-RYrLQ"/>
      <processingRate_ProcessingResourceSpecification specification="1000 * 1000 * 1000"/>
    </activeResourceSpecifications_ResourceContainer>
  </resourceContainer_ResourceEnvironment>
</resourceenvironment:ResourceEnvironment>
"#;

    #[test]
    fn only_the_rate_changes() {
        let file = ModelFile::parse(PathBuf::from("a.resourceenvironment"), ENV.to_string());
        let (edit, old) = set_rate_edit(&file, "Server", 123456.789).unwrap();
        assert_eq!(old, "1000 * 1000 * 1000");
        let text = beagle_pcm::edit::apply(ENV, &[edit]).unwrap();
        assert_eq!(text, ENV.replace("1000 * 1000 * 1000", "123457"));
        assert!(set_rate_edit(&file, "_s", 1.0).is_ok());
        assert!(matches!(
            set_rate_edit(&file, "Nope", 1.0),
            Err(SetRateError::NoContainer { .. })
        ));
    }

    #[test]
    fn rates_keep_six_digits() {
        assert_eq!(rate_text(123456.789), "123457");
        assert_eq!(rate_text(12.3456789), "12.3457");
        assert_eq!(rate_text(0.01234567), "0.0123457");
    }
}
