//! Static analysis for the fitting engine: numeric literals in and around a section, which are the
//! likely thresholds and factors of its laws (`data.length > LARGE_FILE_THRESHOLD` with
//! `static final int LARGE_FILE_THRESHOLD = 200_000` suggests a step at 200000).

use std::ops::Range;

use tree_sitter::Node;

/// Numeric literals inside `range`, in the condition of the `if`/switch/loop statement that is or
/// contains the range, in the enclosing method, and the initialisers of the enclosing class's
/// `static final` fields named in the range or that condition: deduplicated, sorted, without 0
/// and 1 (and without non-finite values).
pub fn constants_around(source: &str, range: Range<usize>) -> Vec<f64> {
    let mut parser = tree_sitter::Parser::new();
    parser
        .set_language(&tree_sitter_java::LANGUAGE.into())
        .expect("tree-sitter-java matches tree-sitter");
    let Some(tree) = parser.parse(source, None) else {
        return Vec::new();
    };
    let root = tree.root_node();
    let range = range.start.min(source.len())..range.end.min(source.len());
    let mut out = Vec::new();
    // Literals and names in the range and in the condition of the statement around it.
    let mut names = Vec::new();
    let mut places = vec![range.clone()];
    let inner = root.descendant_for_byte_range(range.start, range.end);
    if let Some(cond) = inner.and_then(condition_around) {
        places.push(cond.byte_range());
    }
    for place in &places {
        collect(source, root, place, &mut out, &mut names);
    }
    let method = inner.and_then(|n| ancestor(n, &["method_declaration", "constructor_declaration"]));
    if let Some(m) = method {
        collect(source, m, &m.byte_range(), &mut out, &mut Vec::new());
    }
    if let Some(class) = inner.and_then(|n| ancestor(n, &["class_body", "enum_body", "interface_body"])) {
        for (name, value) in static_finals(source, class) {
            if names.contains(&name) {
                collect(source, value, &value.byte_range(), &mut out, &mut Vec::new());
            }
        }
    }
    out.retain(|v| v.is_finite() && *v != 0.0 && *v != 1.0);
    out.sort_by(f64::total_cmp);
    out.dedup();
    out
}

/// The condition of the nearest `if`, switch or loop that is or contains `node`.
fn condition_around(node: Node) -> Option<Node> {
    let stmt = ancestor(
        node,
        &[
            "if_statement",
            "switch_expression",
            "while_statement",
            "do_statement",
            "for_statement",
            "enhanced_for_statement",
        ],
    )?;
    match stmt.kind() {
        "enhanced_for_statement" => stmt.child_by_field_name("value"),
        _ => stmt.child_by_field_name("condition"),
    }
}

fn ancestor<'t>(mut node: Node<'t>, kinds: &[&str]) -> Option<Node<'t>> {
    loop {
        if kinds.contains(&node.kind()) {
            return Some(node);
        }
        node = node.parent()?;
    }
}

/// Adds the numeric literals of `node`'s subtree inside `range` to `out`, and its identifiers to
/// `names`.
fn collect<'s>(source: &'s str, node: Node, range: &Range<usize>, out: &mut Vec<f64>, names: &mut Vec<&'s str>) {
    let mut stack = vec![node];
    while let Some(n) = stack.pop() {
        if n.end_byte() <= range.start || n.start_byte() >= range.end {
            continue;
        }
        let text = &source[n.byte_range()];
        if n.kind() == "identifier" {
            names.push(text);
        } else if let Some(v) = number(n.kind(), text) {
            // A minus sign in front belongs to the constant (`-5` is not 5).
            let negated = n
                .parent()
                .is_some_and(|p| p.kind() == "unary_expression" && source[p.byte_range()].starts_with('-'));
            out.push(if negated { -v } else { v });
        }
        let mut c = n.walk();
        stack.extend(n.children(&mut c));
    }
}

/// The `static final` fields of a class body: name and initialiser.
fn static_finals<'s, 't>(source: &'s str, class: Node<'t>) -> Vec<(&'s str, Node<'t>)> {
    let mut out = Vec::new();
    let mut c = class.walk();
    for field in class
        .named_children(&mut c)
        .filter(|f| matches!(f.kind(), "field_declaration" | "constant_declaration"))
    {
        let mut mc = field.walk();
        let modifiers = field
            .named_children(&mut mc)
            .find(|m| m.kind() == "modifiers")
            .map(|m| &source[m.byte_range()]);
        let words: Vec<&str> = modifiers.unwrap_or("").split_whitespace().collect();
        // Interface fields are implicitly static and final.
        let constant =
            field.kind() == "constant_declaration" || (words.contains(&"static") && words.contains(&"final"));
        if !constant {
            continue;
        }
        let mut dc = field.walk();
        for d in field.children_by_field_name("declarator", &mut dc) {
            if let (Some(name), Some(value)) = (d.child_by_field_name("name"), d.child_by_field_name("value")) {
                out.push((&source[name.byte_range()], value));
            }
        }
    }
    out
}

/// The value of a Java numeric literal (`200_000`, `0x1F`, `0b101`, `017`, `1e5`, `2L`, `3.5f`).
pub fn number(kind: &str, text: &str) -> Option<f64> {
    let t = text.replace('_', "");
    match kind {
        "decimal_integer_literal" => t.trim_end_matches(['l', 'L']).parse::<u64>().ok().map(|v| v as f64),
        "hex_integer_literal" => u64::from_str_radix(t[2..].trim_end_matches(['l', 'L']), 16)
            .ok()
            .map(|v| v as f64),
        "binary_integer_literal" => u64::from_str_radix(t[2..].trim_end_matches(['l', 'L']), 2)
            .ok()
            .map(|v| v as f64),
        "octal_integer_literal" => u64::from_str_radix(t.trim_end_matches(['l', 'L']), 8)
            .ok()
            .map(|v| v as f64),
        "decimal_floating_point_literal" => t.trim_end_matches(['f', 'F', 'd', 'D']).parse::<f64>().ok(),
        "hex_floating_point_literal" => None,
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn around(source: &str, needle: &str) -> Vec<f64> {
        let s = source.find(needle).expect("needle in source");
        constants_around(source, s..s + needle.len())
    }

    #[test]
    fn static_final_thresholds_named_in_the_condition() {
        let src = "class C {\n static final int LARGE_FILE_THRESHOLD = 200_000;\n static final int UNUSED = 77;\n \
                   void up(byte[] data) {\n  if (data.length > LARGE_FILE_THRESHOLD) {\n   compress(data);\n  }\n }\n}";
        assert_eq!(around(src, "compress(data);"), vec![200000.0]);
    }

    #[test]
    fn java_literal_forms_without_zero_one_and_chars() {
        let src = "class C { void m() { long a = 2L + 0x1F + 0b101 + 017 + 0 + 1; double b = 1e5 + 3.5f + 2_0.5; char c = 'a'; } }";
        assert_eq!(around(src, "char c = 'a';"), vec![2.0, 3.5, 5.0, 15.0, 20.5, 31.0, 1e5]);
    }

    #[test]
    fn loop_conditions_and_the_method_count_but_other_methods_do_not() {
        let src = "class C { static final int N = 40; void m(int[] xs) { int k = 3; for (int i = 0; i < xs.length * N; i++) { f(i); } } \
                   void other() { g(99); } }";
        assert_eq!(around(src, "f(i);"), vec![3.0, 40.0]);
    }

    #[test]
    fn negative_literals_keep_their_sign() {
        let src = "class C { void m(int x) { if (x < -5) { f(); } } }";
        assert_eq!(around(src, "f();"), vec![-5.0]);
    }
}
