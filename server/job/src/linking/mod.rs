//! Linking the model to the code, as the user sees it: `beagle link --suggest` prints the
//! automatic candidates as a link file (`suggest`), the language server's quick fix on a
//! "did you mean ...?" warning proposes entries for it (`proposals`), and both go to the
//! workspace's link file (`file`: the one `[model] links` names, else `links.toml`).
//!
//! Above measuring, whose links (`crate::measuring::links`) decide which candidates a job uses
//! and which it only proposes.

pub mod file;
pub(crate) mod proposals;
pub(crate) mod suggest;
