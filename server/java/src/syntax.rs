//! Java syntax through tree-sitter-java: the few questions links, instrumentation and static
//! analysis ask of a source file (which class, which method, which statement is at an offset) and
//! the conversions between the three ways positions are written (bytes; 1-based line:column in
//! characters; UTF-16 character offsets as Java and JaMoPP count them).
//!
//! tree-sitter never fails on bad input: a file with syntax errors still gets a tree (with ERROR
//! nodes), so links into a half-edited file keep working where its structure is intact.

use std::ops::Range;
use tree_sitter::{Node, Parser, Tree};

/// Statement node kinds (tree-sitter-java's `statement` supertype without `block`, which is a
/// container here, and without declarations other than local variables).
const STATEMENT_KINDS: &[&str] = &[
    "assert_statement",
    "break_statement",
    "continue_statement",
    "do_statement",
    "enhanced_for_statement",
    "expression_statement",
    "for_statement",
    "if_statement",
    "labeled_statement",
    "local_variable_declaration",
    "return_statement",
    "switch_expression",
    "synchronized_statement",
    "throw_statement",
    "try_statement",
    "try_with_resources_statement",
    "while_statement",
    "yield_statement",
];

/// Nodes whose children are a sequence of statements.
const BLOCK_KINDS: &[&str] = &["block", "constructor_body", "switch_block_statement_group"];

/// Loop statement kinds.
pub const LOOP_KINDS: &[&str] = &[
    "for_statement",
    "enhanced_for_statement",
    "while_statement",
    "do_statement",
];

/// Branch statement kinds.
pub const BRANCH_KINDS: &[&str] = &["if_statement", "switch_expression"];

/// Method-like declarations: what a SEFF links to.
pub const METHOD_KINDS: &[&str] = &["method_declaration", "constructor_declaration"];

const CLASS_KINDS: &[&str] = &[
    "class_declaration",
    "interface_declaration",
    "enum_declaration",
    "record_declaration",
];

/// Whether `node` is a statement. A `switch` is an expression in tree-sitter-java; it is a
/// statement only where statements stand.
pub fn is_statement(node: Node) -> bool {
    let kind = node.kind();
    if kind == "switch_expression" {
        return node
            .parent()
            .is_some_and(|p| BLOCK_KINDS.contains(&p.kind()) || is_statement(p));
    }
    STATEMENT_KINDS.contains(&kind)
}

/// Whether `node` holds a sequence of statements.
pub fn is_block(node: Node) -> bool {
    BLOCK_KINDS.contains(&node.kind())
}

/// A method or constructor of a class.
#[derive(Clone, Debug)]
pub struct Method<'t> {
    pub node: Node<'t>,
    pub name: String,
    pub parameters: Vec<String>,
    /// Parameter types as written (`List<File>`, `byte[]`).
    pub parameter_types: Vec<String>,
    pub range: Range<usize>,
}

/// A parsed Java file.
pub struct JavaFile {
    pub text: String,
    tree: Tree,
    /// Byte offset of each line's first character.
    line_starts: Vec<usize>,
}

impl std::fmt::Debug for JavaFile {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("JavaFile").field("bytes", &self.text.len()).finish()
    }
}

impl JavaFile {
    /// Parses Java source. `None` only if tree-sitter refuses the grammar (a version mismatch).
    pub fn parse(text: String) -> Option<JavaFile> {
        let mut parser = Parser::new();
        parser.set_language(&tree_sitter_java::LANGUAGE.into()).ok()?;
        let tree = parser.parse(&text, None)?;
        let line_starts = std::iter::once(0)
            .chain(text.match_indices('\n').map(|(i, _)| i + 1))
            .collect();
        Some(JavaFile {
            text,
            tree,
            line_starts,
        })
    }

    pub fn root(&self) -> Node<'_> {
        self.tree.root_node()
    }

    /// The source text of a node.
    pub fn text_of(&self, node: Node) -> &str {
        &self.text[node.byte_range()]
    }

    /// The package this file declares (`a.b`), or "" for the default package.
    pub fn package(&self) -> String {
        let mut cursor = self.root().walk();
        let package = self
            .root()
            .named_children(&mut cursor)
            .find(|n| n.kind() == "package_declaration");
        package
            .and_then(|p| {
                let mut c = p.walk();
                let name = p
                    .named_children(&mut c)
                    .find(|n| matches!(n.kind(), "scoped_identifier" | "identifier"));
                name
            })
            .map(|n| self.text_of(n).to_string())
            .unwrap_or_default()
    }

    /// Every class, interface, enum and record declaration, nested ones included, in document order.
    pub fn classes(&self) -> Vec<Node<'_>> {
        descendants(self.root(), |n| CLASS_KINDS.contains(&n.kind()))
    }

    /// The declared name of a class, method or parameter node.
    pub fn name_of(&self, node: Node) -> Option<&str> {
        node.child_by_field_name("name").map(|n| self.text_of(n))
    }

    /// The class by simple name (`BusinessCore`, any nesting depth) or qualified name
    /// (`a.b.BusinessCore`, `a.b.Outer.Inner`, `a.b.Outer$Inner`).
    pub fn class(&self, name: &str) -> Option<Node<'_>> {
        let name = name.replace('$', ".");
        if !name.contains('.') {
            return self
                .classes()
                .into_iter()
                .find(|c| self.name_of(*c) == Some(name.as_str()));
        }
        let package = self.package();
        let rest = if package.is_empty() {
            name.as_str()
        } else {
            name.strip_prefix(&package)?.strip_prefix('.')?
        };
        self.classes()
            .into_iter()
            .find(|c| self.nested_name(*c).as_deref() == Some(rest))
    }

    /// The class's binary name, as `Class.getName()` says it: `pkg.Outer$Inner`.
    pub fn binary_name(&self, class: Node) -> Option<String> {
        let nested = self.nested_name(class)?.replace('.', "$");
        let package = self.package();
        Some(if package.is_empty() {
            nested
        } else {
            format!("{package}.{nested}")
        })
    }

    /// `Outer.Inner` for a nested class: the names of the enclosing classes.
    fn nested_name(&self, class: Node) -> Option<String> {
        let mut parts = vec![self.name_of(class)?.to_string()];
        let mut n = class.parent();
        while let Some(p) = n {
            if CLASS_KINDS.contains(&p.kind()) {
                parts.push(self.name_of(p)?.to_string());
            }
            n = p.parent();
        }
        parts.reverse();
        Some(parts.join("."))
    }

    /// The methods and constructors declared directly in `class` (not in nested classes).
    pub fn methods<'t>(&'t self, class: Node<'t>) -> Vec<Method<'t>> {
        let Some(body) = class.child_by_field_name("body") else {
            return Vec::new();
        };
        let mut cursor = body.walk();
        let members: Vec<Node> = body.named_children(&mut cursor).collect();
        members
            .into_iter()
            .filter(|m| METHOD_KINDS.contains(&m.kind()))
            .map(|m| self.method(m))
            .collect()
    }

    /// A method_declaration or constructor_declaration as a [`Method`].
    pub fn method<'t>(&'t self, node: Node<'t>) -> Method<'t> {
        let mut parameters = Vec::new();
        let mut parameter_types = Vec::new();
        if let Some(list) = node.child_by_field_name("parameters") {
            let mut cursor = list.walk();
            for p in list.named_children(&mut cursor) {
                if matches!(p.kind(), "formal_parameter" | "spread_parameter") {
                    let name = p
                        .child_by_field_name("name")
                        .or_else(|| last_named(p, "variable_declarator").and_then(|d| d.child_by_field_name("name")));
                    parameters.push(name.map(|n| self.text_of(n).to_string()).unwrap_or_default());
                    let ty = p.child_by_field_name("type").or_else(|| first_type(p));
                    let mut ty = ty.map(|t| self.text_of(t).to_string()).unwrap_or_default();
                    // Varargs (`Object... args`): the type as written, which the grammar splits.
                    if p.kind() == "spread_parameter" && !ty.ends_with("...") {
                        ty.push_str("...");
                    }
                    parameter_types.push(ty);
                }
            }
        }
        Method {
            node,
            name: self.name_of(node).unwrap_or_default().to_string(),
            parameters,
            parameter_types,
            range: node.byte_range(),
        }
    }

    /// `Class.method` (`Outer.Inner.method` when nested) for the method or constructor declared
    /// at `offset`: how a person names the code a link points to.
    pub fn method_label(&self, offset: usize) -> Option<String> {
        let node = self.root().descendant_for_byte_range(offset, offset)?;
        let method = ancestors(node).find(|n| METHOD_KINDS.contains(&n.kind()))?;
        let class = ancestors(method).find(|n| CLASS_KINDS.contains(&n.kind()))?;
        Some(format!("{}.{}", self.nested_name(class)?, self.name_of(method)?))
    }

    /// The method or constructor enclosing `node`.
    pub fn enclosing_method<'t>(&'t self, node: Node<'t>) -> Option<Node<'t>> {
        ancestors(node).find(|n| METHOD_KINDS.contains(&n.kind()))
    }

    /// Every statement inside `within` (itself included when it is one), in document order.
    pub fn statements<'t>(&'t self, within: Node<'t>) -> Vec<Node<'t>> {
        descendants(within, is_statement)
    }

    /// Every block (statement sequence) inside `within`, in document order.
    pub fn blocks<'t>(&'t self, within: Node<'t>) -> Vec<Node<'t>> {
        descendants(within, is_block)
    }

    /// The smallest node covering the character at `offset`.
    fn node_at(&self, offset: usize) -> Option<Node<'_>> {
        if offset >= self.text.len() || !self.text.is_char_boundary(offset) {
            return None;
        }
        let end = offset + self.text[offset..].chars().next().map_or(1, char::len_utf8);
        self.root().descendant_for_byte_range(offset, end)
    }

    /// The innermost statement containing the character at byte `offset`.
    pub fn statement_at(&self, offset: usize) -> Option<Node<'_>> {
        ancestors(self.node_at(offset)?).find(|n| is_statement(*n))
    }

    /// The outermost statement whose last character is the one at byte `offset` (the `;` of
    /// `x = 1;`, the `}` of a loop): JaMoPP's offsets point there.
    pub fn statement_ending_at(&self, offset: usize) -> Option<Node<'_>> {
        let node = self.node_at(offset)?;
        let end = node.end_byte().min(self.text.len());
        if end != offset + self.text[offset..].chars().next()?.len_utf8() {
            return None;
        }
        ancestors(node)
            .take_while(|n| n.end_byte() == end)
            .filter(|n| is_statement(*n))
            .last()
    }

    /// The outermost statement starting at the first code after byte `offset`, skipping
    /// whitespace and comments (`offset` itself included).
    pub fn statement_after(&self, offset: usize) -> Option<Node<'_>> {
        let start = self.skip_trivia(offset);
        let node = self.node_at(start)?;
        ancestors(node)
            .take_while(|n| n.start_byte() == start)
            .filter(|n| is_statement(*n))
            .last()
    }

    /// The first byte at or after `offset` that is neither whitespace nor in a comment.
    pub fn skip_trivia(&self, offset: usize) -> usize {
        let bytes = self.text.as_bytes();
        let mut offset = floor_boundary(&self.text, offset);
        loop {
            while offset < bytes.len() && bytes[offset].is_ascii_whitespace() {
                offset += 1;
            }
            if bytes[offset.min(bytes.len())..].starts_with(b"//") {
                offset = self.text[offset..].find('\n').map_or(bytes.len(), |i| offset + i + 1);
            } else if bytes[offset.min(bytes.len())..].starts_with(b"/*") {
                offset = self.text[offset + 2..]
                    .find("*/")
                    .map_or(bytes.len(), |i| offset + 2 + i + 2);
            } else {
                return offset.min(bytes.len());
            }
        }
    }

    /// The last byte before `end` that is neither whitespace nor in a line comment, plus one: the
    /// end of the code in `..end`.
    pub fn trim_trivia_end(&self, mut end: usize) -> usize {
        end = floor_boundary(&self.text, end);
        loop {
            let trimmed = self.text[..end].trim_end().len();
            let line_start = self.text[..trimmed].rfind('\n').map_or(0, |i| i + 1);
            // A `//` comment at the end of the line (not inside a string: the node there is a comment).
            let comment = self.text[line_start..trimmed]
                .find("//")
                .map(|i| line_start + i)
                .filter(|&c| {
                    self.node_at(c)
                        .is_some_and(|n| n.kind() == "line_comment" && n.start_byte() == c)
                });
            match comment {
                Some(c) => end = c,
                None => return trimmed,
            }
        }
    }

    /// 1-based line and column (in characters) of byte `offset`.
    pub fn line_col(&self, offset: usize) -> (usize, usize) {
        let offset = floor_boundary(&self.text, offset);
        let line = self.line_starts.partition_point(|&s| s <= offset);
        let start = self.line_starts[line - 1];
        (line, self.text[start..offset].chars().count() + 1)
    }

    /// Byte offset of 1-based `line` and character `column`; the column may name the end of
    /// the line (one past its last character).
    pub fn offset_of(&self, line: usize, column: usize) -> Option<usize> {
        let start = *self.line_starts.get(line.checked_sub(1)?)?;
        let end = self.line_starts.get(line).map_or(self.text.len(), |&s| s - 1);
        let line_text = &self.text[start..end];
        let column = column.checked_sub(1)?;
        match line_text.char_indices().nth(column) {
            Some((i, _)) => Some(start + i),
            None if column == line_text.chars().count() => Some(end),
            None => None,
        }
    }

    /// The UTF-16 character offset (as Java counts) of byte `offset`.
    pub fn char_offset(&self, offset: usize) -> usize {
        utf16_of_byte(&self.text, offset)
    }

    /// The byte offset of UTF-16 character offset `chars`; `None` past the end or inside a
    /// surrogate pair.
    pub fn byte_offset(&self, chars: usize) -> Option<usize> {
        byte_of_utf16(&self.text, chars)
    }
}

/// UTF-16 code units before byte `offset` of `text` (rounded down to a character boundary).
pub fn utf16_of_byte(text: &str, offset: usize) -> usize {
    text[..floor_boundary(text, offset)].encode_utf16().count()
}

/// The byte offset of a UTF-16 offset into `text`; `None` past the end or inside a surrogate pair.
pub fn byte_of_utf16(text: &str, chars: usize) -> Option<usize> {
    let mut units = 0;
    for (i, c) in text.char_indices() {
        if units == chars {
            return Some(i);
        }
        units += c.len_utf16();
        if units > chars {
            return None;
        }
    }
    (units == chars).then_some(text.len())
}

fn floor_boundary(text: &str, mut offset: usize) -> usize {
    offset = offset.min(text.len());
    while !text.is_char_boundary(offset) {
        offset -= 1;
    }
    offset
}

/// `node` and its ancestors, innermost first.
pub fn ancestors<'t>(node: Node<'t>) -> impl Iterator<Item = Node<'t>> {
    std::iter::successors(Some(node), |n| n.parent())
}

/// The nodes under `root` (itself included) that satisfy `keep`, in document order.
pub fn descendants<'t>(root: Node<'t>, keep: impl Fn(Node<'t>) -> bool) -> Vec<Node<'t>> {
    let mut out = Vec::new();
    let mut cursor = root.walk();
    let mut stack = vec![root];
    while let Some(n) = stack.pop() {
        if keep(n) {
            out.push(n);
        }
        let children: Vec<Node> = n.named_children(&mut cursor).collect();
        stack.extend(children.into_iter().rev());
    }
    out
}

fn last_named<'t>(node: Node<'t>, kind: &str) -> Option<Node<'t>> {
    let mut cursor = node.walk();
    let found = node.named_children(&mut cursor).filter(|n| n.kind() == kind).last();
    found
}

fn first_type<'t>(node: Node<'t>) -> Option<Node<'t>> {
    let mut cursor = node.walk();
    let found = node
        .named_children(&mut cursor)
        .find(|n| n.kind().ends_with("_type") || n.kind() == "type_identifier");
    found
}
