//! Launches: `beagle.toml`'s `[java]`, `[[launch]]` and `[runner]` tables, the parameter points to
//! measure, and running them: here, over ssh, or on a Slurm cluster.

pub mod config;
pub mod exec;
pub mod failure;
pub mod holes;
pub mod host;
pub mod job;
pub mod points;
pub mod remote;
pub mod run;
pub mod runner;
mod slurm;
pub mod tracker;

pub use config::{read_java_config, JavaConfig, Launch, ParameterSpec, PointValue, Target, Workload};
pub use exec::{Executor, ExecutorError};
pub use failure::{RunError, RunFailure};
pub use job::arguments;
pub use job::{batch_job, point_job, JvmJob};
pub use points::{coarse_points, describe, fresh_points, reaching_points, refine_points, Point};
pub use run::{can_batch, move_events, run_batch, run_point, Classpath, RunOutput};
pub use runner::{Runner, RunnerError};
pub use tracker::Update;
