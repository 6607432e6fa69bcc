//! The VS Code extension's protocol types, generated from [`super::shapes`] with ts-rs, so the
//! two sides cannot drift: `vscode-extension/src/protocol.generated.ts` is this module's output,
//! and a test fails when it is not (`BEAGLE_UPDATE_PROTOCOL=1 cargo test -p beagle-lsp
//! generated_typescript` writes it).

use super::graph_shapes::*;
use super::shapes::*;
use super::Command;
use ts_rs::{Config, TS};

/// The generated file, relative to the repository's root.
pub const GENERATED: &str = "vscode-extension/src/protocol.generated.ts";

/// The method of the status notification.
pub const STATUS_NOTIFICATION: &str = "beagle/status";

/// Every declaration, dependencies first.
fn declarations(cfg: &Config) -> Vec<String> {
    vec![
        Target::decl(cfg),
        QueuedJob::decl(cfg),
        QueuedJobs::decl(cfg),
        ControlAnswer::decl(cfg),
        Applied::decl(cfg),
        Discarded::decl(cfg),
        LinkProposal::decl(cfg),
        RunningJob::decl(cfg),
        WaitingJob::decl(cfg),
        InputFileReport::decl(cfg),
        UnmeasuredElement::decl(cfg),
        InputsReport::decl(cfg),
        RepositoryStatus::decl(cfg),
        Status::decl(cfg),
        ElementKind::decl(cfg),
        ElementAt::decl(cfg),
        MeasuredPoint::decl(cfg),
        ConstantInterval::decl(cfg),
        Evidence::decl(cfg),
        FitStatus::decl(cfg),
        FittedResult::decl(cfg),
        UnmodelledTime::decl(cfg),
        ElementResults::decl(cfg),
        EvaluateRequest::decl(cfg),
        EvaluateResult::decl(cfg),
        CallRoute::decl(cfg),
        PredictionProblem::decl(cfg),
        Prediction::decl(cfg),
        TextPosition::decl(cfg),
        TextRange::decl(cfg),
        GraphInput::decl(cfg),
        GraphPrediction::decl(cfg),
        GraphSpec::decl(cfg),
        GraphResult::decl(cfg),
        GraphProvider::decl(cfg),
        GraphCall::decl(cfg),
        GraphBody::decl(cfg),
        GraphNode::decl(cfg),
        GraphFlow::decl(cfg),
        SeffGraph::decl(cfg),
        RoleNode::decl(cfg),
        SeffSummary::decl(cfg),
        ComponentNode::decl(cfg),
        RepositoryGraph::decl(cfg),
    ]
}

/// The TypeScript file.
pub fn render() -> String {
    // Ids and counts fit JavaScript's numbers.
    let cfg = Config::new().with_large_int("number");
    let mut out = String::from(
        "// Generated from server/lsp/src/protocol (ts-rs): do not edit. `BEAGLE_UPDATE_PROTOCOL=1\n\
         // cargo test -p beagle-lsp generated_typescript` writes it again; the test fails when it is stale.\n\n",
    );
    out.push_str("/** Server command ids (`workspace/executeCommand`). */\nexport const ServerCommand = {\n");
    for c in Command::ALL {
        let key = c.name().trim_start_matches("beagle.");
        out.push_str(&format!("  {key}: '{}',\n", c.name()));
    }
    out.push_str("} as const;\n\n");
    out.push_str(&format!(
        "export const STATUS_NOTIFICATION = '{STATUS_NOTIFICATION}';\n"
    ));
    for decl in declarations(&cfg) {
        out.push('\n');
        out.push_str("export ");
        out.push_str(decl.trim_end());
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    #[test]
    fn generated_typescript_is_the_extensions_protocol_file() {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..").join(GENERATED);
        let generated = render();
        if std::env::var_os("BEAGLE_UPDATE_PROTOCOL").is_some() {
            std::fs::write(&path, &generated).unwrap();
        }
        let committed = std::fs::read_to_string(&path).unwrap_or_default();
        assert!(
            committed == generated,
            "{GENERATED} is stale: run BEAGLE_UPDATE_PROTOCOL=1 cargo test -p beagle-lsp generated_typescript"
        );
    }
}
