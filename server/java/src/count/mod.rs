//! Counting runs (issue 39, point 1): the work a section does, counted instead of timed. A
//! counting run is its own JVMs with the counting agent (`agent`: ASM, compiled like the probe
//! runtime); the probe writes per section and execution the executed bytecode instructions by
//! opcode class, the JDK methods called by signature with the elements each call is passed
//! (`<signature> elements`: the length argument after an array and an offset, else the first
//! array's length; `System.arraycopy`'s length) and the arrays allocated with their elements
//! (COUNT records, decoded into `MeasurementEvent::Count`). `laws` fits each count over
//! the inputs. Timing runs never load the agent: it changes no count, but it would change times.

pub mod agent;
pub mod laws;
pub mod run;
