//! `beagle stoex parse|eval`: the StoEx parser and evaluator from the command line.

use crate::error::CliError;
use std::collections::HashMap;
use std::process::ExitCode;

#[derive(clap::Subcommand)]
pub enum Command {
    /// Print the canonical form of an expression, or the error and its column.
    Parse {
        /// A law may begin with a minus (`-3.0E-9 * n + …`): it is the expression, not an option.
        #[arg(allow_hyphen_values = true)]
        expression: String,
    },
    /// Evaluate an expression to a number (distributions and PMFs by their expectation).
    Eval {
        #[arg(allow_hyphen_values = true)]
        expression: String,
        /// A variable's value, as `name.CHARACTERISATION=value` (repeatable).
        #[arg(long = "var", value_name = "NAME.CHAR=VALUE")]
        vars: Vec<String>,
    },
}

pub fn run(cmd: &Command) -> Result<ExitCode, CliError> {
    match cmd {
        Command::Parse { expression } => Ok(match parse(expression) {
            Some(expr) => {
                println!("{}", beagle_stoex::print(&expr));
                ExitCode::SUCCESS
            }
            None => ExitCode::FAILURE,
        }),
        Command::Eval { expression, vars } => {
            let mut values = HashMap::new();
            for v in vars {
                let (name, value) = v.split_once('=').ok_or_else(|| CliError::VarSyntax(v.clone()))?;
                let value: f64 = value.trim().parse().map_err(|_| CliError::VarValue {
                    var: v.clone(),
                    value: value.to_string(),
                })?;
                values.insert(name.trim().to_string(), value);
            }
            let Some(expr) = parse(expression) else {
                return Ok(ExitCode::FAILURE);
            };
            match beagle_stoex::eval_number(&expr, &|name| values.get(name).copied()) {
                Ok(x) => {
                    println!("{x}");
                    Ok(ExitCode::SUCCESS)
                }
                Err(e) => {
                    eprintln!("error: column {}: {}", column(expression, e.span.start), e.message);
                    Ok(ExitCode::FAILURE)
                }
            }
        }
    }
}

fn parse(expression: &str) -> Option<beagle_stoex::Expr> {
    match beagle_stoex::parse(expression) {
        Ok(e) => Some(e),
        Err(e) => {
            let col = column(expression, e.offset);
            eprintln!("error: column {col}: {}", e.message);
            eprintln!("  {expression}");
            eprintln!("  {}^", " ".repeat(col - 1));
            None
        }
    }
}

/// 1-based column in characters of a byte offset.
fn column(text: &str, offset: usize) -> usize {
    text.get(..offset.min(text.len())).map_or(offset, |s| s.chars().count()) + 1
}
