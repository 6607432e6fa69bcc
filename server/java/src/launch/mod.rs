//! Launch configurations and workloads: which parameter points to run, how to run them, and
//! what the runs measured.

pub mod config;
pub mod holes;
pub mod points;
pub mod run;

pub use config::{read_java_config, JavaConfig, Launch, ParameterSpec, PointValue, Target, Workload};
pub use points::{coarse_points, describe, fresh_points, reaching_points, refine_points, Point};
pub use run::{can_batch, run_batch, run_point, Classpath, RunError, RunFailure, RunOutput};
