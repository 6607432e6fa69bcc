//! Beagle's Java measurement tool (see README.md): code links, static analysis, instrumentation
//! of a copy of the sources, the probe runtime, launches and workloads.

/// The probe runtime's Java sources, compiled with javac at analysis time.
pub const PROBE_SOURCES: &[(&str, &str)] = &[
    (
        "beagle/probe/Probe.java",
        include_str!("../probe/beagle/probe/Probe.java"),
    ),
    (
        "beagle/probe/Calibration.java",
        include_str!("../probe/beagle/probe/Calibration.java"),
    ),
    (
        "beagle/probe/Receivers.java",
        include_str!("../probe/beagle/probe/Receivers.java"),
    ),
    (
        "beagle/probe/Members.java",
        include_str!("../probe/beagle/probe/Members.java"),
    ),
    (
        "beagle/probe/Counts.java",
        include_str!("../probe/beagle/probe/Counts.java"),
    ),
    (
        "beagle/probe/Launcher.java",
        include_str!("../probe/beagle/probe/Launcher.java"),
    ),
    (
        "beagle/probe/Windows.java",
        include_str!("../probe/beagle/probe/Windows.java"),
    ),
    (
        "beagle/probe/Reference.java",
        include_str!("../probe/beagle/probe/Reference.java"),
    ),
];

pub mod constants;
pub mod count;
pub mod encoding;
pub mod exclude;
pub mod instrument;
pub mod launch;
pub mod links;
pub mod measure;
pub mod params;
pub mod platform;
pub mod prepare;
pub mod probe;
pub mod refine;
pub mod sections;
pub mod syntax;

/// The counting agent's sources (`count::agent`): compiled against ASM and the probe runtime.
pub const AGENT_SOURCES: &[(&str, &str)] = &[
    (
        "beagle/count/Agent.java",
        include_str!("../agent/beagle/count/Agent.java"),
    ),
    (
        "beagle/count/BlockCounter.java",
        include_str!("../agent/beagle/count/BlockCounter.java"),
    ),
    (
        "beagle/count/OpcodeClasses.java",
        include_str!("../agent/beagle/count/OpcodeClasses.java"),
    ),
];

/// The calibration suite's sources (`platform::suite`): compiled against ASM, run by `beagle calibrate`.
pub const SUITE_SOURCES: &[(&str, &str)] = &[
    (
        "beagle/calibrate/Suite.java",
        include_str!("../calibrate/beagle/calibrate/Suite.java"),
    ),
    (
        "beagle/calibrate/Timer.java",
        include_str!("../calibrate/beagle/calibrate/Timer.java"),
    ),
    (
        "beagle/calibrate/Bench.java",
        include_str!("../calibrate/beagle/calibrate/Bench.java"),
    ),
    (
        "beagle/calibrate/Emit.java",
        include_str!("../calibrate/beagle/calibrate/Emit.java"),
    ),
    (
        "beagle/calibrate/Generator.java",
        include_str!("../calibrate/beagle/calibrate/Generator.java"),
    ),
    (
        "beagle/calibrate/Instructions.java",
        include_str!("../calibrate/beagle/calibrate/Instructions.java"),
    ),
    (
        "beagle/calibrate/Methods.java",
        include_str!("../calibrate/beagle/calibrate/Methods.java"),
    ),
    (
        "beagle/calibrate/OpcodeClasses.java",
        include_str!("../calibrate/beagle/calibrate/OpcodeClasses.java"),
    ),
];
