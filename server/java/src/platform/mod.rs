//! Platforms (issue 39, points 2 and 3): what one counted unit of work costs on one machine and
//! JVM configuration. A profile (`platform.toml`, written by `beagle calibrate`) names the machine,
//! the JVM and its options, and gives nanoseconds per executed instruction of each opcode class,
//! per call and per element of the JDK methods counts name, and per array allocation and element.
//! `profile` reads and writes it; the costs of counted keys are looked up here
//! ([`Profile::cost_ns`]), so every count key has one meaning across counting, calibration and
//! prediction.

//! `calibrate` makes a profile: it builds and runs the benchmark suite (`suite`, Java sources in
//! `calibrate/beagle/calibrate/`) in several JVMs, fits per-call and per-element costs, and takes
//! the median over the JVMs (`forks`); `rate` turns a profile into a container's processing rate.

pub mod calibrate;
pub mod forks;
pub mod profile;
pub mod rate;
pub mod suite;

pub use profile::{Cost, MachineInfo, Profile, ProfileError, ProfileParseError, NATIVE_REFERENCE};
