//! Demands in the units Palladio's simulators read. A PCM resource demand is in work units of its
//! resource type, a container's processing rate is work units per simulation time unit, and the
//! simulators take `demand / rate` as the time. Beagle measures time (ms), so a demand is written
//! as the measured time times the rate of the container that stands for the machine measured on.
//!
//! Only plain data here: per component and resource type the [`Conversion`] (or why there is
//! none), which the job crate computes from the deployment, and the conversion of a law. Laws
//! stay in milliseconds in the store and the results; they are converted where they are written
//! ([`crate::write_back`]) or shown beside their time.

use beagle_pcm::model::Repository;
use beagle_pcm::TimeUnit;
use std::collections::BTreeMap;

/// Significant digits of a converted law's constants (as the calibration writes them).
const DIGITS: i32 = 12;

/// How one demand's measured milliseconds become work units.
#[derive(Clone, Debug, PartialEq)]
pub struct Conversion {
    /// Work units per measured millisecond: the rate over the milliseconds in a time unit.
    pub per_ms: f64,
    /// The container whose rate converts (its name, else its id).
    pub container: String,
    /// Work units per `time_unit`.
    pub rate: f64,
    /// The resource type's name (`CPU`).
    pub resource: String,
    pub time_unit: TimeUnit,
}

impl Conversion {
    pub fn new(rate: f64, time_unit: TimeUnit, container: &str, resource: &str) -> Conversion {
        Conversion {
            per_ms: rate / (1e3 * time_unit.seconds()),
            container: container.to_string(),
            rate,
            resource: resource.to_string(),
            time_unit,
        }
    }

    /// A law in milliseconds as a law in work units (the factor carried into its constants).
    pub fn to_units(&self, ms_law: &str) -> String {
        beagle_stoex::scale::scaled_text(ms_law, self.per_ms, DIGITS)
    }

    /// A law in work units as a law in milliseconds.
    pub fn to_ms(&self, units_law: &str) -> String {
        beagle_stoex::scale::scaled_text(units_law, 1.0 / self.per_ms, DIGITS)
    }

    /// `on ApplicationServer at 1E9/s`.
    pub fn on(&self) -> String {
        format!(
            "on {} at {}/{}",
            self.container,
            short_number(self.rate),
            self.time_unit.as_str()
        )
    }
}

/// What each demand of a repository is written in.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct DemandUnits {
    /// The resource environment the rates come from; `None`: there is none, and demands are
    /// written in milliseconds, as measured.
    pub environment: Option<String>,
    /// (component id, resource type id) -> the conversion, or why there is none. A demand of a
    /// component or resource type not listed has none either ([`DemandUnit::Unconvertible`]).
    pub demands: BTreeMap<(String, String), Result<Conversion, String>>,
}

/// The unit one demand is written in.
#[derive(Clone, Debug, PartialEq)]
pub enum DemandUnit {
    /// No resource environment: milliseconds, as measured.
    Milliseconds,
    WorkUnits(Conversion),
    /// The model has rates, but not for this demand (no container, containers that disagree, no
    /// rate of its type): it is not written, since milliseconds would be read as work units.
    Unconvertible(String),
}

impl DemandUnits {
    /// Demands in milliseconds (no resource environment).
    pub fn milliseconds() -> DemandUnits {
        DemandUnits::default()
    }

    /// The unit of `component`'s demands of `resource` (a resource type id).
    pub fn of(&self, component: &str, resource: &str) -> DemandUnit {
        if self.environment.is_none() {
            return DemandUnit::Milliseconds;
        }
        match self.demands.get(&(component.to_string(), resource.to_string())) {
            Some(Ok(c)) => DemandUnit::WorkUnits(c.clone()),
            Some(Err(why)) => DemandUnit::Unconvertible(why.clone()),
            None => DemandUnit::Unconvertible(format!(
                "no processing rate for {} where component `{component}` runs",
                crate::model::resource_name(resource)
            )),
        }
    }

    /// The unit of the demand of `resource` of action `action` in `repository` (the action's
    /// component decides where it runs).
    pub fn of_action(&self, repository: &Repository, action: &str, resource: &str) -> DemandUnit {
        if self.environment.is_none() {
            return DemandUnit::Milliseconds;
        }
        match component_of(repository, action) {
            Some(c) => self.of(c, resource),
            None => DemandUnit::Unconvertible(format!("action `{action}` is in no component")),
        }
    }
}

/// The id of the component whose SEFF or internal behaviour holds `action`.
pub fn component_of<'a>(repository: &'a Repository, action: &str) -> Option<&'a str> {
    repository.components.iter().find_map(|c| {
        let behaviours = c.seffs.iter().map(|s| &s.behaviour).chain(&c.internal_behaviours);
        let mut actions = behaviours.flat_map(|b| b.walk());
        actions
            .any(|a| a.id.as_deref() == Some(action))
            .then_some(c.id.as_deref())
            .flatten()
    })
}

/// A rate or factor as people read it: `1E9`, `5E7`, `6.25E6`, `1.081`, `250`.
pub fn short_number(v: f64) -> String {
    if v == 0.0 || !v.is_finite() {
        return v.to_string();
    }
    let exponent = v.abs().log10().floor() as i32;
    let rounded = beagle_stoex::scale::round(v, 4);
    if (-3..5).contains(&exponent) {
        return format!("{rounded}");
    }
    let mantissa = beagle_stoex::scale::round(rounded / 10f64.powi(exponent), 4);
    format!("{mantissa}E{exponent}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_measured_time_becomes_work_units_at_the_rate_and_back() {
        let s = Conversion::new(1e9, TimeUnit::Seconds, "ApplicationServer", "CPU");
        assert_eq!(s.per_ms, 1e6);
        assert_eq!(s.to_units("75"), "75000000.0");
        assert_eq!(s.to_units("0.05 * n.VALUE + 0.8"), "50000.0 * n.VALUE + 800000.0");
        assert_eq!(s.to_ms("7.5E7"), "75.0");
        assert_eq!(s.on(), "on ApplicationServer at 1E9/s");
        // A rate per millisecond: one measured ms is `rate` units.
        let ms = Conversion::new(1e9, TimeUnit::Milliseconds, "A", "CPU");
        assert_eq!(ms.per_ms, 1e9);
        assert_eq!(ms.on(), "on A at 1E9/ms");
    }

    #[test]
    fn numbers_are_short() {
        assert_eq!(short_number(1e9), "1E9");
        assert_eq!(short_number(6.25e6), "6.25E6");
        assert_eq!(short_number(1.0810638521955225), "1.081");
        assert_eq!(short_number(250.0), "250");
        assert_eq!(short_number(5e7), "5E7");
    }

    #[test]
    fn without_an_environment_every_demand_is_in_milliseconds() {
        let none = DemandUnits::milliseconds();
        assert_eq!(none.of("c", "t"), DemandUnit::Milliseconds);
        let some = DemandUnits {
            environment: Some("x.resourceenvironment".into()),
            demands: BTreeMap::new(),
        };
        assert!(matches!(some.of("c", "t"), DemandUnit::Unconvertible(_)));
    }
}
