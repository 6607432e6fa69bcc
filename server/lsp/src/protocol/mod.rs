//! Beagle's editor protocol beyond LSP: the `workspace/executeCommand` commands, parsed once
//! from their names, their arguments and results ([`shapes`]), and the TypeScript the VS Code
//! extension uses, generated from them ([`typescript`]). `docs/src/lsp-extensions.md` (a chapter
//! of the manual) documents it.

pub mod graph_shapes;
pub mod shapes;
pub mod typescript;

use crate::error::ServerError;
use serde_json::Value;
use shapes::Target;
use std::fmt;
use std::str::FromStr;

/// A `beagle.*` command.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Command {
    AnalyseRepository,
    AnalyseComponent,
    AnalyseAction,
    AnalyseWorkspace,
    Pause,
    Resume,
    Abort,
    ApplyResults,
    DiscardResults,
    Status,
    LinkToCode,
    ElementAt,
    ElementResults,
    Evaluate,
    Predict,
    SeffGraph,
    RepositoryGraph,
}

impl Command {
    pub const ALL: [Command; 17] = [
        Command::AnalyseRepository,
        Command::AnalyseComponent,
        Command::AnalyseAction,
        Command::AnalyseWorkspace,
        Command::Pause,
        Command::Resume,
        Command::Abort,
        Command::ApplyResults,
        Command::DiscardResults,
        Command::Status,
        Command::LinkToCode,
        Command::ElementAt,
        Command::ElementResults,
        Command::Evaluate,
        Command::Predict,
        Command::SeffGraph,
        Command::RepositoryGraph,
    ];

    /// The name the client sends.
    pub const fn name(self) -> &'static str {
        match self {
            Command::AnalyseRepository => "beagle.analyseRepository",
            Command::AnalyseComponent => "beagle.analyseComponent",
            Command::AnalyseAction => "beagle.analyseAction",
            Command::AnalyseWorkspace => "beagle.analyseWorkspace",
            Command::Pause => "beagle.pause",
            Command::Resume => "beagle.resume",
            Command::Abort => "beagle.abort",
            Command::ApplyResults => "beagle.applyResults",
            Command::DiscardResults => "beagle.discardResults",
            Command::Status => "beagle.status",
            Command::LinkToCode => "beagle.linkToCode",
            Command::ElementAt => "beagle.elementAt",
            Command::ElementResults => "beagle.elementResults",
            Command::Evaluate => "beagle.evaluate",
            Command::Predict => "beagle.predict",
            Command::SeffGraph => "beagle.seffGraph",
            Command::RepositoryGraph => "beagle.repositoryGraph",
        }
    }

    /// Whether it queues an analysis.
    pub fn analyses(self) -> bool {
        matches!(
            self,
            Command::AnalyseRepository | Command::AnalyseComponent | Command::AnalyseAction | Command::AnalyseWorkspace
        )
    }
}

impl fmt::Display for Command {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A command name Beagle does not have.
#[derive(Debug, PartialEq, Eq)]
pub struct UnknownCommand(pub String);

impl fmt::Display for UnknownCommand {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "unknown command `{}`", self.0)
    }
}

impl FromStr for Command {
    type Err = UnknownCommand;

    fn from_str(name: &str) -> Result<Command, UnknownCommand> {
        Command::ALL
            .into_iter()
            .find(|c| c.name() == name)
            .ok_or_else(|| UnknownCommand(name.to_string()))
    }
}

impl Target {
    /// From a command's arguments: `[uri]`, `[uri, id]` or `[{"uri": .., "id": ..}]`.
    pub fn from_args(args: &[Value]) -> Result<Target, ServerError> {
        match args.first() {
            Some(Value::String(uri)) => Ok(Target {
                uri: uri.clone(),
                id: args.get(1).and_then(Value::as_str).map(String::from),
            }),
            Some(object @ Value::Object(_)) => serde_json::from_value(object.clone()).map_err(|e| {
                ServerError::Arguments(format!(
                    "expected {{\"uri\": .., \"id\": ..}} as the first argument: {e}"
                ))
            }),
            _ => Err(ServerError::Arguments(
                "expected a document URI as the first argument".into(),
            )),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_command_parses_back_from_its_name_and_nothing_else_does() {
        for c in Command::ALL {
            assert_eq!(c.name().parse::<Command>(), Ok(c));
        }
        let names: std::collections::HashSet<&str> = Command::ALL.iter().map(|c| c.name()).collect();
        assert_eq!(names.len(), Command::ALL.len());
        assert_eq!(
            "beagle.analyse".parse::<Command>(),
            Err(UnknownCommand("beagle.analyse".into()))
        );
    }

    #[test]
    fn a_target_is_an_array_or_an_object() {
        let uri = "file:///w/a.repository";
        let both = Target {
            uri: uri.into(),
            id: Some("_x".into()),
        };
        assert_eq!(Target::from_args(&[uri.into(), "_x".into()]).ok(), Some(both.clone()));
        assert_eq!(
            Target::from_args(&[serde_json::json!({ "uri": uri, "id": "_x" })]).ok(),
            Some(both)
        );
        assert_eq!(Target::from_args(&[uri.into()]).ok().map(|t| t.id), Some(None));
        for bad in [vec![], vec![serde_json::json!({ "id": "_x" })]] {
            assert!(matches!(Target::from_args(&bad), Err(ServerError::Arguments(_))));
        }
    }
}
