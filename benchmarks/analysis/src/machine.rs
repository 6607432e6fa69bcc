//! What the results were measured on, for RESULTS.md.

use std::process::Command;

pub struct Machine {
    pub cores: usize,
    pub cpu: String,
    pub rustc: String,
    pub date: String,
}

pub fn describe() -> Machine {
    let cpu = std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|info| {
            info.lines()
                .find(|l| l.starts_with("model name"))
                .and_then(|l| l.split_once(':'))
                .map(|(_, v)| v.trim().to_string())
        })
        .unwrap_or_else(|| "unknown".into());
    let rustc = std::env::var("RUSTC").unwrap_or_else(|_| "rustc".into());
    Machine {
        cores: std::thread::available_parallelism().map_or(1, |n| n.get()),
        cpu,
        rustc: output(&rustc, &["--version"]),
        date: output("date", &["-u", "+%Y-%m-%d %H:%M UTC"]),
    }
}

fn output(program: &str, args: &[&str]) -> String {
    Command::new(program)
        .args(args)
        .output()
        .ok()
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
        .filter(|s| !s.is_empty())
        .unwrap_or_else(|| "unknown".into())
}
