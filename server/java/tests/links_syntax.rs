//! The syntax helpers on a small Java file with nesting, comments and non-ASCII text.

use beagle_java::syntax::{byte_of_utf16, utf16_of_byte, JavaFile};

const SOURCE: &str = r#"package a.b;

public class Store {
    private Compression compression;

    public void upload(List<File> files, boolean alreadyCompressed) {
        int n = files.size(); // count
        for (File f : files) {
            String s = "é𝄞"; /* note */
            compression.compress(f);
        }
        if (n > 2) {
            log(n);
        } else {
            n = 0;
        }
    }

    Store(int x) { this.x = x; }

    static class Inner {
        void run() { go(); }
    }
}
"#;

fn file() -> JavaFile {
    JavaFile::parse(SOURCE.to_string()).unwrap()
}

fn at(s: &str) -> usize {
    SOURCE.find(s).unwrap()
}

#[test]
fn finds_classes_by_simple_and_qualified_name() {
    let f = file();
    assert_eq!(f.package(), "a.b");
    assert!(f.class("Store").is_some());
    assert!(f.class("a.b.Store").is_some());
    assert!(f.class("a.b.Store.Inner").is_some());
    assert!(f.class("a.b.Store$Inner").is_some());
    assert!(f.class("Inner").is_some());
    assert!(f.class("x.Store").is_none());
    assert!(f.class("Missing").is_none());
}

#[test]
fn lists_methods_with_parameters() {
    let f = file();
    let class = f.class("Store").unwrap();
    let methods = f.methods(class);
    let names: Vec<&str> = methods.iter().map(|m| m.name.as_str()).collect();
    assert_eq!(names, ["upload", "Store"]);
    assert_eq!(methods[0].parameters, ["files", "alreadyCompressed"]);
    assert_eq!(methods[0].parameter_types, ["List<File>", "boolean"]);
    assert!(f.text[methods[0].range.clone()].starts_with("public void upload("));
    assert!(f.text[methods[0].range.clone()].ends_with("}\n    }"));
    let inner = f.methods(f.class("Inner").unwrap());
    assert_eq!(inner[0].name, "run");
}

#[test]
fn statements_and_blocks() {
    let f = file();
    let upload = f.methods(f.class("Store").unwrap())[0].node;
    let kinds: Vec<&str> = f.statements(upload).iter().map(|n| n.kind()).collect();
    assert_eq!(
        kinds,
        [
            "local_variable_declaration",
            "enhanced_for_statement",
            "local_variable_declaration",
            "expression_statement",
            "if_statement",
            "expression_statement",
            "expression_statement"
        ]
    );
    assert_eq!(f.blocks(upload).len(), 4);
}

#[test]
fn statement_at_ending_at_and_after() {
    let f = file();
    let call = at("compression.compress(f);");
    let s = f.statement_at(call + 3).unwrap();
    assert_eq!(f.text_of(s), "compression.compress(f);");
    // The `;` of the call ends the call's statement.
    let semi = call + "compression.compress(f)".len();
    assert_eq!(
        f.text_of(f.statement_ending_at(semi).unwrap()),
        "compression.compress(f);"
    );
    // The `}` of the loop ends the loop.
    let loop_end = at("        }\n        if") + 8;
    assert_eq!(
        f.statement_ending_at(loop_end).unwrap().kind(),
        "enhanced_for_statement"
    );
    assert!(f.statement_ending_at(call).is_none());
    // After a comment and whitespace: the next statement.
    let comment = at(" /* note */");
    assert_eq!(
        f.text_of(f.statement_after(comment).unwrap()),
        "compression.compress(f);"
    );
    let line_comment = at(" // count");
    assert_eq!(
        f.statement_after(line_comment).unwrap().kind(),
        "enhanced_for_statement"
    );
}

#[test]
fn line_column_counts_characters() {
    let f = file();
    let call = at("compression.compress(f);");
    assert_eq!(f.line_col(call), (10, 13));
    assert_eq!(f.offset_of(10, 13), Some(call));
    // After "é𝄞" (2 characters, 6 bytes) columns still count characters.
    let note = at("/* note */");
    let (line, col) = f.line_col(note);
    assert_eq!((line, col), (9, 30));
    assert_eq!(f.offset_of(line, col), Some(note));
    assert_eq!(f.offset_of(0, 1), None);
    assert_eq!(f.offset_of(1, 100), None);
    // One past the last character of a line is its end.
    assert_eq!(f.offset_of(1, 13), Some(at("\n")));
}

#[test]
fn utf16_offsets_count_surrogate_pairs_twice() {
    let f = file();
    let e = at("é");
    let note = at("/* note */");
    // é is 1 UTF-16 unit (2 bytes), 𝄞 is 2 units (4 bytes), then `"; `.
    assert_eq!(f.char_offset(note), e + 1 + 2 + 3);
    assert_eq!(f.byte_offset(e + 1 + 2 + 3), Some(note));
    assert_eq!(f.byte_offset(e + 2), None, "inside the surrogate pair of 𝄞");
    assert_eq!(byte_of_utf16("ab", 2), Some(2));
    assert_eq!(byte_of_utf16("ab", 3), None);
    assert_eq!(utf16_of_byte("aé", 3), 2);
    // A byte inside a character rounds down.
    assert_eq!(utf16_of_byte("aé", 2), 1);
}

#[test]
fn offsets_inside_a_character_do_not_panic() {
    let f = file();
    let inside = at("é") + 1;
    assert!(f.statement_at(inside).is_none());
    assert!(f.statement_ending_at(inside).is_none());
    let _ = f.statement_after(inside);
    let _ = f.trim_trivia_end(inside);
    assert!(f.statement_at(f.text.len() + 5).is_none());
}

#[test]
fn a_method_is_named_with_its_class_as_people_name_it() {
    let f = file();
    assert_eq!(
        f.method_label(at("public void upload")).as_deref(),
        Some("Store.upload")
    );
    assert_eq!(
        f.method_label(at("compression.compress")).as_deref(),
        Some("Store.upload")
    );
    assert_eq!(f.method_label(at("Store(int x)")).as_deref(), Some("Store.Store"));
    assert_eq!(f.method_label(at("void run")).as_deref(), Some("Store.Inner.run"));
    assert_eq!(
        f.method_label(at("private Compression")),
        None,
        "a field is in no method"
    );
}
