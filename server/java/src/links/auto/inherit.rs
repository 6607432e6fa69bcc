//! Java's method resolution, as far as automatic links need it: a class's own methods, then
//! those it inherits, nearest first: its superclasses' (abstract classes included) with a body,
//! then its interfaces' default methods. A component whose class inherits its operation from an
//! abstract base (a template method) is linked to the base's body, which runs for it. Also the
//! interfaces a class implements, through its superclasses and superinterfaces too
//! ([`implemented_interfaces`]): they tell which model interface a class stands for.

use crate::syntax::{JavaFile, Method};
use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;
use tree_sitter::Node;

/// The type declarations of the sources by simple name, built once: looking a supertype up must
/// not walk every file again (the class fallback looks up the supertypes of every class).
pub(super) struct Types<'f> {
    files: &'f [(PathBuf, JavaFile)],
    by_name: BTreeMap<&'f str, Vec<(usize, Node<'f>)>>,
}

impl<'f> Types<'f> {
    pub(super) fn new(files: &'f [(PathBuf, JavaFile)]) -> Types<'f> {
        let mut by_name: BTreeMap<&'f str, Vec<(usize, Node<'f>)>> = BTreeMap::new();
        for (i, (_, java)) in files.iter().enumerate() {
            for class in java.classes() {
                if let Some(name) = java.name_of(class) {
                    by_name.entry(name).or_default().push((i, class));
                }
            }
        }
        Types { files, by_name }
    }

    pub(super) fn java(&self, file: usize) -> &'f JavaFile {
        &self.files[file].1
    }

    /// The declaration of the type named `name` as seen from `files[from]`: one of the same
    /// package first, else the first by path.
    fn find(&self, from: usize, name: &str) -> Option<(usize, Node<'f>)> {
        let found = self.by_name.get(name)?;
        let package = self.files[from].1.package();
        let same_package = found.iter().find(|(i, _)| self.files[*i].1.package() == package);
        same_package.or(found.first()).copied()
    }
}

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
pub(super) fn resolvable_methods<'f>(types: &Types<'f>, file: usize, class: Node<'f>) -> Vec<Resolved<'f>> {
    let files = types.files;
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
                let Some((sf, sc)) = types.find(f, &name) else {
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
    let mut out = type_names(java, class.child_by_field_name("superclass"));
    out.extend(type_names(java, class.child_by_field_name("interfaces")));
    out
}

/// The simple names of the types in an `extends` or `implements` clause.
fn type_names(java: &JavaFile, clause: Option<Node>) -> Vec<String> {
    let mut out = Vec::new();
    let mut stack: Vec<Node> = clause.into_iter().collect();
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
    out
}

/// An interface a class implements.
pub(super) struct Implemented<'f> {
    /// Its simple name, as the code writes it.
    pub name: String,
    /// Its declaration among the sources (file index, node); `None` for a library's interface.
    pub declaration: Option<(usize, Node<'f>)>,
}

/// The interfaces `class` implements: its own, its superclasses', and their superinterfaces,
/// nearest first, each once. A library's interface is named but not followed.
pub(super) fn implemented_interfaces<'f>(types: &Types<'f>, file: usize, class: Node<'f>) -> Vec<Implemented<'f>> {
    let mut out: Vec<Implemented<'f>> = Vec::new();
    let mut seen: BTreeSet<(usize, usize)> = BTreeSet::from([(file, class.start_byte())]);
    let mut level = vec![(file, class)];
    for _ in 0..MOST_LEVELS {
        let mut next = Vec::new();
        for (f, c) in level {
            let java = &types.files[f].1;
            // A superclass is followed for the interfaces it implements; it is none itself.
            for name in type_names(java, c.child_by_field_name("superclass")) {
                if let Some((sf, sc)) = types.find(f, &name) {
                    if seen.insert((sf, sc.start_byte())) {
                        next.push((sf, sc));
                    }
                }
            }
            // A class's `implements`, an interface's `extends`.
            let mut cursor = c.walk();
            let extends = c.named_children(&mut cursor).find(|n| n.kind() == "extends_interfaces");
            let clause = c.child_by_field_name("interfaces").or(extends);
            for name in type_names(java, clause) {
                let declaration = types
                    .find(f, &name)
                    .filter(|(_, n)| n.kind() == "interface_declaration");
                if let Some((sf, sc)) = declaration {
                    if seen.insert((sf, sc.start_byte())) {
                        next.push((sf, sc));
                    }
                }
                if out.iter().all(|i| i.name != name) {
                    out.push(Implemented { name, declaration });
                }
            }
        }
        if next.is_empty() {
            break;
        }
        level = next;
    }
    out
}

/// The classes objects can be made of (not abstract, not interfaces) that have the type named
/// `name` among their supertypes at any level: where an abstract operation of `name` runs.
pub(super) fn concrete_subtypes<'f>(types: &Types<'f>, name: &str) -> Vec<(usize, Node<'f>)> {
    let mut out = Vec::new();
    for (file, (_, java)) in types.files.iter().enumerate() {
        for class in java.classes() {
            let concrete = matches!(
                class.kind(),
                "class_declaration" | "enum_declaration" | "record_declaration"
            ) && !has_modifier(java, class, "abstract");
            if concrete && has_supertype(types, file, class, name) {
                out.push((file, class));
            }
        }
    }
    out
}

/// Whether `name` is among the supertypes of `class`, followed up to [`MOST_LEVELS`].
fn has_supertype(types: &Types, file: usize, class: Node, name: &str) -> bool {
    let mut seen: BTreeSet<(usize, usize)> = BTreeSet::new();
    let mut level = vec![(file, class)];
    for _ in 0..MOST_LEVELS {
        let mut next = Vec::new();
        for (f, c) in level {
            let java = &types.files[f].1;
            let mut cursor = c.walk();
            let extends = c.named_children(&mut cursor).find(|n| n.kind() == "extends_interfaces");
            let mut names = supertypes(java, c);
            names.extend(type_names(java, extends));
            if names.iter().any(|n| n == name) {
                return true;
            }
            for n in names {
                if let Some((sf, sc)) = types.find(f, &n) {
                    if seen.insert((sf, sc.start_byte())) {
                        next.push((sf, sc));
                    }
                }
            }
        }
        if next.is_empty() {
            break;
        }
        level = next;
    }
    false
}

/// Whether a declaration has the modifier keyword `word` (`abstract`, `static`).
pub(super) fn has_modifier(java: &JavaFile, declaration: Node, word: &str) -> bool {
    modifiers(java, declaration).contains(&word)
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
        let types = Types::new(files);
        let (i, node) = types.find(0, class).unwrap();
        resolvable_methods(&types, i, node)
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

    #[test]
    fn interfaces_through_superclasses_and_superinterfaces() {
        let f = files(&[
            (
                "src/s/Base.java",
                "package s;\npublic abstract class Base implements Query, java.io.Serializable {}\n",
            ),
            (
                "src/s/Query.java",
                "package s;\npublic interface Query extends Read<String> { int ask(); }\n",
            ),
            (
                "src/s/Read.java",
                "package s;\npublic interface Read<T> { T read(); }\n",
            ),
            (
                "src/s/Endpoint.java",
                "package s;\npublic class Endpoint extends Base implements Sync {}\n",
            ),
        ]);
        let types = Types::new(&f);
        let (i, node) = types.find(0, "Endpoint").unwrap();
        let found = implemented_interfaces(&types, i, node);
        let names: Vec<(&str, bool)> = found
            .iter()
            .map(|i| (i.name.as_str(), i.declaration.is_some()))
            .collect();
        // `Sync` is not among the sources: named, not followed.
        assert_eq!(
            names,
            [
                ("Sync", false),
                ("Query", true),
                ("Serializable", false),
                ("Read", true)
            ]
        );
    }
}
