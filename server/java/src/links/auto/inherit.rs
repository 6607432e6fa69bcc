//! Java's method resolution, as far as automatic links need it: a class's own methods, then
//! those it inherits, nearest first: its superclasses' (abstract classes included) with a body,
//! then its interfaces' default methods. A component whose class inherits its operation from an
//! abstract base (a template method) is linked to the base's body, which runs for it.

use crate::syntax::{JavaFile, Method};
use std::collections::BTreeSet;
use std::path::PathBuf;
use tree_sitter::Node;

/// A method a class can be called with, and where it is declared.
pub(super) struct Resolved<'f> {
    /// Index into the files.
    pub file: usize,
    /// The class (or interface) that declares it.
    pub class: Node<'f>,
    pub method: Method<'f>,
    /// The declaring type's name when it is not the class itself.
    pub inherited_from: Option<String>,
}

/// Most levels of supertypes followed (a guard against cycles the code cannot have, and
/// against deep frameworks).
const MOST_LEVELS: usize = 8;

/// The methods of `class` (in `files[file]`) and those it inherits, own first, then level by level.
pub(super) fn resolvable_methods<'f>(
    files: &'f [(PathBuf, JavaFile)],
    file: usize,
    class: Node<'f>,
) -> Vec<Resolved<'f>> {
    let mut out: Vec<Resolved<'f>> = files[file]
        .1
        .methods(class)
        .into_iter()
        .map(|method| Resolved {
            file,
            class,
            method,
            inherited_from: None,
        })
        .collect();
    let mut seen: BTreeSet<(usize, usize)> = BTreeSet::from([(file, class.start_byte())]);
    let mut level = vec![(file, class)];
    for _ in 0..MOST_LEVELS {
        let mut next = Vec::new();
        for (f, c) in level {
            for name in supertypes(&files[f].1, c) {
                let Some((sf, sc)) = find_type(files, f, &name) else {
                    continue;
                };
                if !seen.insert((sf, sc.start_byte())) {
                    continue;
                }
                let java = &files[sf].1;
                let interface = sc.kind() == "interface_declaration";
                for method in java.methods(sc) {
                    // What a call can reach: a body (an abstract declaration runs nothing); of an
                    // interface only default methods (static ones are not inherited).
                    let has_body = method.node.child_by_field_name("body").is_some();
                    let modifiers = modifiers(java, method.node);
                    if !has_body || (interface && !modifiers.contains(&"default")) || modifiers.contains(&"static") {
                        continue;
                    }
                    // Overridden below: the nearest declaration wins.
                    let overridden = out
                        .iter()
                        .any(|r| r.method.name == method.name && r.method.parameter_types == method.parameter_types);
                    if !overridden {
                        out.push(Resolved {
                            file: sf,
                            class: sc,
                            method,
                            inherited_from: Some(name.clone()),
                        });
                    }
                }
                next.push((sf, sc));
            }
        }
        if next.is_empty() {
            break;
        }
        level = next;
    }
    out
}

/// The simple names of the types `class` extends and implements, superclass first.
fn supertypes(java: &JavaFile, class: Node) -> Vec<String> {
    let mut out = Vec::new();
    for field in ["superclass", "interfaces"] {
        let Some(node) = class.child_by_field_name(field) else {
            continue;
        };
        let mut stack = vec![node];
        while let Some(n) = stack.pop() {
            match n.kind() {
                "type_identifier" => out.push(java.text_of(n).to_string()),
                "scoped_type_identifier" => {
                    let text = java.text_of(n);
                    out.push(text.rsplit('.').next().unwrap_or(text).trim().to_string());
                }
                // The type's own name, not its type arguments (`Base<Item>` extends Base).
                "generic_type" => {
                    if let Some(first) = n.named_child(0) {
                        stack.push(first);
                    }
                }
                _ => {
                    let mut cursor = n.walk();
                    let children: Vec<Node> = n.named_children(&mut cursor).collect();
                    stack.extend(children.into_iter().rev());
                }
            }
        }
    }
    out
}

/// The declaration of the type named `name` as seen from `files[from]`: one of the same package
/// first, else the first by path.
fn find_type<'f>(files: &'f [(PathBuf, JavaFile)], from: usize, name: &str) -> Option<(usize, Node<'f>)> {
    let package = files[from].1.package();
    let mut found: Vec<(bool, usize, Node<'f>)> = Vec::new();
    for (i, (_, java)) in files.iter().enumerate() {
        for class in java.classes() {
            if java.name_of(class) == Some(name) {
                found.push((java.package() == package, i, class));
            }
        }
    }
    found.sort_by_key(|(same_package, i, _)| (!*same_package, *i));
    found.first().map(|(_, i, c)| (*i, *c))
}

/// The modifier keywords of a declaration (`public`, `abstract`, `default`, `static`).
fn modifiers<'f>(java: &'f JavaFile, declaration: Node<'f>) -> Vec<&'f str> {
    let mut cursor = declaration.walk();
    let list = declaration.children(&mut cursor).find(|c| c.kind() == "modifiers");
    let Some(list) = list else {
        return Vec::new();
    };
    let mut c = list.walk();
    let words: Vec<&str> = list
        .children(&mut c)
        .filter(|m| !m.kind().contains("annotation"))
        .map(|m| java.text_of(m))
        .collect();
    words
}

#[cfg(test)]
mod tests {
    use super::*;

    fn files(sources: &[(&str, &str)]) -> Vec<(PathBuf, JavaFile)> {
        sources
            .iter()
            .map(|(p, t)| (PathBuf::from(p), JavaFile::parse(t.to_string()).unwrap()))
            .collect()
    }

    fn resolved(files: &[(PathBuf, JavaFile)], class: &str) -> Vec<String> {
        let (i, node) = find_type(files, 0, class).unwrap();
        resolvable_methods(files, i, node)
            .iter()
            .map(|r| {
                format!(
                    "{}{}",
                    r.method.name,
                    r.inherited_from
                        .as_ref()
                        .map_or(String::new(), |f| format!(" from {f}"))
                )
            })
            .collect()
    }

    #[test]
    fn a_template_method_is_found_in_the_abstract_base() {
        let f = files(&[
            (
                "src/s/Base.java",
                "package s;\npublic abstract class Base<T> implements Scored {\n  public int rank(int[] items) { return step(items) + 1; }\n  protected abstract int step(int[] items);\n}\n",
            ),
            (
                "src/s/Fast.java",
                "package s;\npublic class Fast extends Base<String> {\n  protected int step(int[] items) { return items.length; }\n}\n",
            ),
            (
                "src/s/Scored.java",
                "package s;\npublic interface Scored {\n  default double score(int[] items) { return items.length; }\n  static Scored none() { return null; }\n  int weight();\n}\n",
            ),
        ]);
        assert_eq!(resolved(&f, "Fast"), ["step", "rank from Base", "score from Scored"]);
        // The base's own abstract step is no body to link; the override in Fast is.
        assert_eq!(resolved(&f, "Base"), ["rank", "step", "score from Scored"]);
    }
}
