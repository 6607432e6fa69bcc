//! Re-anchoring the links of a class that changed since the links were made.
//!
//! The original Beagle's link file keeps, per class, the MD5 of the file the offsets were taken
//! from. When the file's MD5 differs, its offsets may point anywhere: an inserted import or
//! method moves every statement after it. An edit moves the links behind it by the same number
//! of characters, so the search is for shifts under which the links land where such offsets
//! land (SoMoX puts them on the last character of a statement, on its first, or in the
//! whitespace right before it). A position of an unchanged part lands with shift 0; a position
//! behind one edit with that edit's length. The shifts are chosen in file order (a later edit
//! never moves an earlier link), by dynamic programming: most positions landing, each change of
//! shift costing two and a half positions (an edit must be carried by three positions to be believed).
//!
//! Under a wrong shift a position lands by chance on about one character in ten, so a shift
//! carried by most of a class's links is not chance; the confidence says how many of the
//! class's positions landed, and below [`MIN_CONFIDENCE`] nothing is re-anchored.

use crate::syntax::{descendants, is_statement, JavaFile};
use std::collections::{BTreeMap, BTreeSet};

/// Largest shift tried, in characters (an edit of a class larger than this is a rewrite).
pub const MAX_SHIFT: isize = 20_000;
/// Fewest share of a class's positions that must land for its links to be re-anchored.
pub const MIN_CONFIDENCE: f64 = 0.8;
/// Candidate shifts kept (by how many positions land under each), besides 0: few, so that
/// chance landings of many shifts cannot be pieced together into a confident answer.
const CANDIDATES: usize = 4;
/// What a change of shift costs, in landed positions: a shift must be carried by three positions
/// to pay (two positions landing under a shift of their own is what chance does in a long file).
const CHANGE_COST: f64 = 2.5;

/// Where the links of one class land in the changed file.
#[derive(Clone, Debug, PartialEq)]
pub struct Anchoring {
    /// Per position (in the order given): its shift in characters, or `None` when no chosen
    /// shift makes it land.
    pub shifts: Vec<Option<isize>>,
    /// Share of the positions that landed.
    pub confidence: f64,
}

/// Character offsets a SoMoX offset may name: a statement's first and last characters, and the
/// whitespace character right before a statement.
struct Landing {
    exact: BTreeSet<isize>,
    before: BTreeSet<isize>,
}

impl Landing {
    fn of(java: &JavaFile) -> Landing {
        let mut exact = BTreeSet::new();
        let mut before = BTreeSet::new();
        for node in descendants(java.root(), is_statement) {
            let (start, end) = (node.start_byte(), node.end_byte());
            exact.insert(java.char_offset(start) as isize);
            if end > start {
                exact.insert(java.char_offset(end - 1) as isize);
            }
            if start > 0 && java.text.as_bytes()[start - 1].is_ascii_whitespace() {
                before.insert(java.char_offset(start - 1) as isize);
            }
        }
        Landing { exact, before }
    }

    fn lands(&self, at: isize) -> bool {
        self.exact.contains(&at) || self.before.contains(&at)
    }
}

/// The shifts that make `positions` (character offsets into the file as it was) land on
/// statements of `java` (the file as it is).
pub fn reanchor(java: &JavaFile, positions: &[usize]) -> Anchoring {
    if positions.is_empty() {
        return Anchoring {
            shifts: Vec::new(),
            confidence: 1.0,
        };
    }
    let landing = Landing::of(java);
    // Candidates: shifts that take some position exactly onto a statement's edge, by support.
    let mut support: BTreeMap<isize, usize> = BTreeMap::new();
    for &p in positions {
        let p = p as isize;
        let near = landing.exact.range(p - MAX_SHIFT..=p + MAX_SHIFT);
        let shifts: BTreeSet<isize> = near.map(|a| a - p).collect();
        for d in shifts {
            support.entry(d).or_default();
        }
    }
    for (d, n) in support.iter_mut() {
        *n = positions.iter().filter(|p| landing.lands(**p as isize + d)).count();
    }
    let mut ranked: Vec<(isize, usize)> = support.into_iter().collect();
    ranked.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.abs().cmp(&b.0.abs())).then(a.0.cmp(&b.0)));
    let mut candidates: Vec<isize> = vec![0];
    candidates.extend(ranked.iter().map(|r| r.0).filter(|d| *d != 0).take(CANDIDATES));

    // Dynamic programming over the positions in file order; state: the shift in force.
    let mut order: Vec<usize> = (0..positions.len()).collect();
    order.sort_by_key(|i| positions[*i]);
    let k = candidates.len();
    let hit = |i: usize, c: usize| landing.lands(positions[i] as isize + candidates[c]);
    // score[c]: best score of the positions so far ending with shift c; from[step][c]: previous.
    let mut score: Vec<f64> = (0..k).map(|c| if hit(order[0], c) { 1.0 } else { 0.0 }).collect();
    let mut from: Vec<Vec<usize>> = vec![(0..k).collect()];
    for &i in &order[1..] {
        let mut next = vec![f64::NEG_INFINITY; k];
        let mut back = vec![0; k];
        for c in 0..k {
            for (p, s) in score.iter().enumerate() {
                let v = s - if p == c { 0.0 } else { CHANGE_COST };
                if v > next[c] {
                    next[c] = v;
                    back[c] = p;
                }
            }
            next[c] += if hit(i, c) { 1.0 } else { 0.0 };
        }
        score = next;
        from.push(back);
    }
    let mut c = (0..k)
        .max_by(|a, b| score[*a].total_cmp(&score[*b]).then(b.cmp(a)))
        .unwrap_or(0);
    let mut chosen = vec![0; order.len()];
    for step in (0..order.len()).rev() {
        chosen[step] = c;
        c = from[step][c];
    }
    let mut shifts = vec![None; positions.len()];
    for (step, &i) in order.iter().enumerate() {
        if hit(i, chosen[step]) {
            shifts[i] = Some(candidates[chosen[step]]);
        }
    }
    let landed = shifts.iter().filter(|s| s.is_some()).count();
    Anchoring {
        confidence: landed as f64 / positions.len() as f64,
        shifts,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const OLD: &str = "class A {\n    void f(int n) {\n        int a = 1;\n        for (int i = 0; i < n; i++) {\n            a += i;\n        }\n        g(a);\n    }\n    void g(int x) {\n        System.out.println(x);\n        x++;\n        x--;\n    }\n}\n";

    /// SoMoX-style offsets of every statement of `OLD`: the `;` ending it or, for a block
    /// statement, its first character.
    fn offsets(text: &str) -> Vec<usize> {
        [
            "int a = 1;",
            "for (",
            "a += i;",
            "g(a);",
            "System.out.println(x);",
            "x++;",
            "x--;",
        ]
        .iter()
        .map(|s| {
            let at = text.find(s).unwrap();
            if s.ends_with(';') {
                text[..at + s.len() - 1].chars().count()
            } else {
                text[..at].chars().count()
            }
        })
        .collect()
    }

    #[test]
    fn an_unchanged_file_keeps_its_offsets() {
        let java = JavaFile::parse(OLD.to_string()).unwrap();
        let a = reanchor(&java, &offsets(OLD));
        assert_eq!(a.shifts, vec![Some(0); 7]);
        assert_eq!(a.confidence, 1.0);
    }

    #[test]
    fn an_import_moves_every_link_by_its_length() {
        let new = format!("import java.util.List;\n\n{OLD}");
        let java = JavaFile::parse(new.clone()).unwrap();
        let a = reanchor(&java, &offsets(OLD));
        assert_eq!(a.shifts, vec![Some(24); 7]);
        // Each shifted offset names the same statement it named before.
        assert_eq!(offsets(OLD).iter().map(|p| p + 24).collect::<Vec<_>>(), offsets(&new));
    }

    #[test]
    fn a_method_inserted_in_the_middle_moves_only_what_follows() {
        let inserted = "    void h() {\n        int unused = 2;\n    }\n";
        let at = OLD.find("    void g").unwrap();
        let new = format!("{}{inserted}{}", &OLD[..at], &OLD[at..]);
        let java = JavaFile::parse(new.clone()).unwrap();
        let a = reanchor(&java, &offsets(OLD));
        let d = inserted.chars().count() as isize;
        assert_eq!(
            a.shifts,
            vec![Some(0), Some(0), Some(0), Some(0), Some(d), Some(d), Some(d)]
        );
        assert_eq!(
            offsets(OLD)
                .iter()
                .zip(&a.shifts)
                .map(|(p, d)| (*p as isize + d.unwrap()) as usize)
                .collect::<Vec<_>>(),
            offsets(&new)
        );
    }

    #[test]
    fn offsets_into_a_rewritten_file_are_not_re_anchored() {
        // A class of 30 methods of different shapes; ten positions that were never statement
        // edges of it (a file rewritten since). Chance finds shifts that carry enough of them
        // in at most 2 % of such files (measured over 200 seeds).
        // (Code that repeats itself character for character, such as a run of identical
        // getters, can fool the search; `validate` then checks each link's kind of statement.)
        use rand::{RngExt, SeedableRng};
        let mut fooled = Vec::new();
        for seed in 0..200u64 {
            let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
            let name = |rng: &mut rand_chacha::ChaCha8Rng| -> String {
                (0..rng.random_range(1..12))
                    .map(|_| (b'a' + rng.random_range(0..26u8)) as char)
                    .collect()
            };
            let mut text = String::from("class Big {\n");
            for _ in 0..30 {
                let (m, a) = (name(&mut rng), name(&mut rng));
                text.push_str(&format!(
                    "    int {m}(int {a}) {{\n        int b = {a} * {};\n",
                    rng.random_range(0..1000)
                ));
                for _ in 0..rng.random_range(1..6) {
                    let (f, s) = (name(&mut rng), name(&mut rng));
                    text.push_str(&format!("        b += {f}({a}, \"{s}\");\n"));
                }
                text.push_str("        return b;\n    }\n");
            }
            text.push_str("}\n");
            let java = JavaFile::parse(text.clone()).unwrap();
            let chars = text.chars().count();
            let positions: Vec<usize> = (0..10).map(|_| rng.random_range(0..chars)).collect();
            let a = reanchor(&java, &positions);
            if a.confidence >= MIN_CONFIDENCE {
                fooled.push((seed, a));
            }
        }
        eprintln!("{} of 200 fooled: {fooled:?}", fooled.len());
        assert!(fooled.len() <= 4, "{} of 200: {fooled:?}", fooled.len());
    }
}
