//! A large, valid repository made of copies of real ones.
//!
//! Every copy of a source repository gets fresh ids, and every reference to an id of that source
//! is rewritten to the copy's id, so the copies never collide and every reference still resolves
//! (EMF path references such as `//@components__Repository.5/...` keep pointing at the first
//! copy, which comes first in the file, so they resolve too). The output is deterministic.

use beagle_pcm::XmlTree;
use std::collections::HashMap;

/// One source repository, cut into literal text and id slots so that copies are cheap to emit.
pub struct Template {
    /// Alternating literal text and id slots (`Piece::Id(i)` is the i-th distinct id of the file).
    pieces: Vec<Piece>,
    id_count: usize,
    pub seffs: usize,
}

enum Piece {
    Text(String),
    Id(usize),
}

impl Template {
    /// The content of the root element of `text` (its children), with ids made into slots.
    pub fn new(name: &str, text: &str) -> Template {
        let tree = XmlTree::parse(text.to_string());
        assert!(tree.errors.is_empty(), "{name}: {:?}", tree.errors);
        let root = tree.root().expect("a root element");
        let body_start = tree.element(root).start_tag.end as usize;
        let body_end = tree.element(root).end_tag.expect("a closed root").start as usize;

        // First pass: every id defined below the root.
        let mut ids: HashMap<&str, usize> = HashMap::new();
        for node in tree.ids().skip(1) {
            if let Some(id) = tree.raw_value(node, "id") {
                let next = ids.len();
                ids.entry(id).or_insert(next);
            }
        }
        // Second pass: the spans of ids and of references to them, in text order.
        let mut slots: Vec<(usize, usize, usize)> = Vec::new(); // (start, end, id index)
        for node in tree.ids().skip(1) {
            for attr in tree.attributes(node) {
                let name = tree.str(attr.name);
                if name == "entityName" || name.starts_with("xmlns") || name == "xsi:type" {
                    continue;
                }
                let value = tree.str(attr.value);
                let mut offset = attr.value.start as usize;
                for token in value.split(' ') {
                    // A same-file reference is `id` or `#id`.
                    let fragment_at = token.strip_prefix('#').map_or(0, |_| 1);
                    if let Some(&i) = ids.get(&token[fragment_at..]) {
                        slots.push((offset + fragment_at, offset + token.len(), i));
                    }
                    offset += token.len() + 1;
                }
            }
        }
        slots.sort_unstable();
        let mut pieces = Vec::new();
        let mut at = body_start;
        for (start, end, i) in slots {
            pieces.push(Piece::Text(text[at..start].to_string()));
            pieces.push(Piece::Id(i));
            at = end;
        }
        pieces.push(Piece::Text(text[at..body_end].trim_end().to_string()));
        let seffs = text.matches("<serviceEffectSpecifications__BasicComponent").count();
        Template {
            pieces,
            id_count: ids.len(),
            seffs,
        }
    }

    /// Appends one copy with fresh ids.
    fn emit(&self, out: &mut String, ids: &mut IdMaker) {
        let fresh: Vec<String> = (0..self.id_count).map(|_| ids.next_id()).collect();
        for p in &self.pieces {
            match p {
                Piece::Text(t) => out.push_str(t),
                Piece::Id(i) => out.push_str(&fresh[*i]),
            }
        }
    }
}

/// EMF-looking ids (`_` and 22 base64url characters): a counter keeps them unique, a xorshift
/// makes them look (and hash) like real ones.
pub struct IdMaker {
    counter: u64,
    state: u64,
}

const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

impl IdMaker {
    pub fn new() -> IdMaker {
        IdMaker {
            counter: 0,
            state: 0x9E37_79B9_7F4A_7C15,
        }
    }

    pub fn next_id(&mut self) -> String {
        let mut id = String::with_capacity(23);
        id.push('_');
        let mut n = self.counter;
        self.counter += 1;
        for _ in 0..5 {
            id.push(ALPHABET[(n % 64) as usize] as char);
            n /= 64;
        }
        for _ in 0..17 {
            self.state ^= self.state << 13;
            self.state ^= self.state >> 7;
            self.state ^= self.state << 17;
            id.push(ALPHABET[(self.state >> 58) as usize] as char);
        }
        id
    }
}

pub struct Generated {
    pub text: String,
    /// How many copies of each template the text holds, in template order.
    pub copies: usize,
    pub seffs: usize,
}

/// Copies of all templates, round-robin, inside `root_text`'s root start tag, until the file
/// holds at least `min_bytes`.
pub fn generate(root_text: &str, templates: &[Template], min_bytes: usize) -> Generated {
    let tree = XmlTree::parse(root_text.to_string());
    let root = tree.root().expect("a root element");
    let element = tree.element(root);
    let id = tree.attribute(root, "id").expect("the root has an id").value;
    let mut ids = IdMaker::new();
    let mut text = String::with_capacity(min_bytes + 256 * 1024);
    text.push_str(&root_text[..id.start as usize]);
    text.push_str(&ids.next_id());
    text.push_str(&root_text[id.end as usize..element.start_tag.end as usize]);
    let end_tag = tree.str(element.end_tag.expect("a closed root"));
    let mut copies = 0;
    let mut seffs = 0;
    while text.len() + end_tag.len() + 1 < min_bytes {
        for t in templates {
            t.emit(&mut text, &mut ids);
            seffs += t.seffs;
        }
        copies += 1;
    }
    text.push('\n');
    text.push_str(end_tag);
    text.push('\n');
    Generated { text, copies, seffs }
}
