//! An internal action's counted work in its hover (issue 39): the largest counts as laws over
//! the inputs, and the platform factor R that `beagle predict --platform` multiplies with.

use beagle_analysis::section_counts::SectionCounts;
use std::fmt::Write;

/// Count laws shown in a hover; the rest are summed up in a line.
const SHOWN: usize = 6;

/// The markdown section about `counts` (appended to the action's hover).
pub fn counts_section(counts: &SectionCounts) -> String {
    let finals = counts.laws.values().filter(|l| l.is_final).count();
    let mut out = format!(
        "\n\n**Counted work** (per run, {} points; {finals} of {} laws final)\n\n",
        counts.points,
        counts.laws.len()
    );
    for (key, law) in counts.laws.iter().take(SHOWN) {
        let status = if law.is_final { "" } else { " (preliminary)" };
        let _ = writeln!(out, "- {}: `{}`{status}", short(key), law.stoex);
    }
    if counts.laws.len() > SHOWN {
        let _ = writeln!(out, "- … and {} more keys", counts.laws.len() - SHOWN);
    }
    match &counts.factor {
        Some(f) => {
            let _ = write!(
                out,
                "\nR = {:.3} on {} (measured / count-based estimate; spread {:.0} %): `beagle predict --platform` uses it",
                f.r,
                f.platform,
                f.spread * 100.0
            );
        }
        None => out.push_str("\nNo R yet: name the measuring machine's profile in `[java] platform`"),
    }
    out
}

/// A key without a JDK method's descriptor.
fn short(key: &str) -> String {
    match key.split_once('(') {
        Some((name, rest)) => match rest.rsplit_once(' ') {
            Some((_, suffix)) => format!("{name} {suffix}"),
            None => name.to_string(),
        },
        None => key.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use beagle_analysis::section_counts::{CountLaw, Factor};

    #[test]
    fn the_section_names_laws_and_r() {
        let law = |s: &str| CountLaw {
            stoex: s.into(),
            is_final: true,
            r2: 1.0,
        };
        let c = SectionCounts {
            action: "_a".into(),
            name: "hash".into(),
            laws: [
                ("java/security/MessageDigest.digest([B)[B".to_string(), law("1")),
                (
                    "java/security/MessageDigest.digest([B)[B elements".to_string(),
                    law("data.BYTESIZE"),
                ),
            ]
            .into(),
            points: 12,
            factor: Some(Factor {
                r: 1.25,
                spread: 0.04,
                platform: "default".into(),
                ..Factor::default()
            }),
        };
        let text = counts_section(&c);
        assert!(text.contains("12 points; 2 of 2 laws final"), "{text}");
        assert!(text.contains("- java/security/MessageDigest.digest: `1`"), "{text}");
        assert!(
            text.contains("- java/security/MessageDigest.digest elements: `data.BYTESIZE`"),
            "{text}"
        );
        assert!(text.contains("R = 1.250 on default"), "{text}");
    }
}
