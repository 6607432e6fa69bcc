//! A new parameter of a signature: `<parameters__OperationSignature parameterName="catalogue" …/>`
//! of one of Palladio's primitive types, after the signature's parameters (first, when it has none),
//! where the analysis found a launch parameter the cost follows that no input of the model declares
//! (`beagle_analysis::UndeclaredInput`). The type is referenced the way the file already references
//! primitives: a type of its own with that id, an `href` child (with the file's `xsi:type` and
//! URI, a pathmap or a plug-in path), or a URI in the attribute; Palladio's default when it
//! references none. One inserted element; the rest of the file keeps its bytes.

use crate::edit::{EditError, TextEdit};
use crate::file::ModelFile;
use crate::model::{DataTypeKind, Repository, Signature};
use crate::namespaces::{parse_namespace, Package};
use crate::reference::Target;
use crate::span::Span;
use crate::vocabulary::PRIMITIVES;
use crate::xml::{escape_attribute, NodeId};

/// Palladio's primitive types as the default `PrimitiveTypes.repository` is reached from a model.
const PRIMITIVES_URI: &str = "pathmap://PCM_MODELS/PrimitiveTypes.repository";

/// How this file writes a reference to a primitive type.
enum TypeStyle {
    /// `dataType__Parameter="…"`: an id of the file's own type, or `uri#//@dataTypes__Repository.N`.
    Attribute(String),
    /// `<dataType__Parameter xsi:type="…" href="uri#//@dataTypes__Repository.N"/>`.
    Href { xsi_type: Option<String>, uri: String },
}

impl ModelFile {
    /// Edits that give signature `signature_id` a parameter `name` of the primitive type
    /// `primitive` (`INT`, `DOUBLE`, ... of [`PRIMITIVES`]), after its last parameter. Refused
    /// ([`EditError::Exists`]) when the signature has a parameter of that name.
    pub fn add_signature_parameter(
        &self,
        signature_id: &str,
        name: &str,
        primitive: &str,
    ) -> Result<Vec<TextEdit>, EditError> {
        let repo = self.editable()?;
        let signature = repo
            .signatures()
            .map(|(_, s)| s)
            .find(|s| s.id.as_deref() == Some(signature_id))
            .ok_or_else(|| EditError::NotFound(format!("no signature with id `{signature_id}`")))?;
        let tag = match self.tree.local_name(signature.node) {
            "signatures__OperationInterface" => "parameters__OperationSignature",
            "signatures__InfrastructureInterface" => "parameters__InfrastructureSignature",
            other => {
                return Err(EditError::NotFound(format!(
                    "`{signature_id}` is a `{other}`, not an operation's signature"
                )))
            }
        };
        let name = name.trim();
        if name.is_empty() || name.contains(['.', ' ']) {
            return Err(EditError::NotFound(format!("`{name}` is not a parameter name")));
        }
        let Some(index) = PRIMITIVES.iter().position(|p| p.eq_ignore_ascii_case(primitive)) else {
            return Err(EditError::NotFound(format!(
                "`{primitive}` is none of Palladio's primitive types ({})",
                PRIMITIVES.join(", ")
            )));
        };
        if signature.parameters.iter().any(|p| p.name.as_deref() == Some(name)) {
            return Err(EditError::Exists(format!(
                "`{}` has a parameter `{name}` already",
                signature.name.as_deref().unwrap_or(signature_id)
            )));
        }
        let lines = self.parameter_lines(repo, tag, name, index);
        Ok(vec![self.insert_parameter(signature, &lines)])
    }

    /// The new parameter element, as lines (relative indentation included).
    fn parameter_lines(&self, repo: &Repository, tag: &str, name: &str, index: usize) -> Vec<String> {
        let q = b'"';
        let name_attr = format!("parameterName=\"{}\"", escape_attribute(name, q));
        match self.primitive_style(repo, index) {
            TypeStyle::Attribute(value) => {
                let type_attr = format!("dataType__Parameter=\"{}\"", escape_attribute(&value, q));
                let attrs = if self.type_written_first() {
                    format!("{type_attr} {name_attr}")
                } else {
                    format!("{name_attr} {type_attr}")
                };
                vec![format!("<{tag} {attrs}/>")]
            }
            TypeStyle::Href { xsi_type, uri } => {
                let xsi = xsi_type
                    .map(|t| format!(" {}:type=\"{}\"", self.xsi_prefix(), escape_attribute(&t, q)))
                    .unwrap_or_default();
                let href = format!("{uri}#//@dataTypes__Repository.{index}");
                let child = format!("<dataType__Parameter{xsi} href=\"{}\"/>", escape_attribute(&href, q));
                if self.parameters_on_one_line() {
                    vec![format!("<{tag} {name_attr}>{child}</{tag}>")]
                } else {
                    vec![
                        format!("<{tag} {name_attr}>"),
                        format!("{}{child}", self.indent_unit()),
                        format!("</{tag}>"),
                    ]
                }
            }
        }
    }

    /// How the file refers to primitive type number `index`: its own type of that name, or the
    /// form and URI of its references to Palladio's (a parameter's first), else Palladio's default.
    fn primitive_style(&self, repo: &Repository, index: usize) -> TypeStyle {
        let own = repo.data_types.iter().find_map(|t| match &t.kind {
            DataTypeKind::Primitive(n) if n == PRIMITIVES[index] => t.id.clone(),
            _ => None,
        });
        if let Some(id) = own {
            return TypeStyle::Attribute(id);
        }
        let mut external: Vec<_> = (self.index.references().iter())
            .filter_map(|r| match &r.target {
                Target::External { uri, .. } if uri.ends_with("PrimitiveTypes.repository") => Some((r, uri)),
                _ => None,
            })
            .collect();
        external.sort_by_key(|(r, _)| r.feature != "dataType__Parameter");
        if let Some((r, uri)) = external.first() {
            let is_child = self.tree.attribute(r.node, "href").is_some() && self.tree.local_name(r.node) == r.feature;
            if !is_child {
                return TypeStyle::Attribute(format!("{uri}#//@dataTypes__Repository.{index}"));
            }
            let xsi_type = self
                .tree
                .value(r.node, &format!("{}:type", self.xsi_prefix()))
                .map(|t| t.into_owned());
            return TypeStyle::Href {
                xsi_type,
                uri: uri.to_string(),
            };
        }
        TypeStyle::Href {
            xsi_type: self.repository_prefix().map(|p| format!("{p}:PrimitiveDataType")),
            uri: PRIMITIVES_URI.to_string(),
        }
    }

    /// The parameters of this file, every one.
    fn parameter_nodes(&self) -> impl Iterator<Item = NodeId> + '_ {
        (self.repository.iter())
            .flat_map(|r| r.signatures())
            .flat_map(|(_, s)| s.parameters.iter().map(|p| p.node))
    }

    /// Whether the file's parameters name their type before their name (MediaStore does).
    fn type_written_first(&self) -> bool {
        self.parameter_nodes()
            .find_map(|p| {
                let names: Vec<&str> = (self.tree.attributes(p).iter())
                    .map(|a| self.tree.str(a.name))
                    .collect();
                let ty = names.iter().position(|n| *n == "dataType__Parameter")?;
                let name = names.iter().position(|n| *n == "parameterName")?;
                Some(ty < name)
            })
            .unwrap_or(false)
    }

    /// Whether the file writes a parameter with an `href` child on one line.
    fn parameters_on_one_line(&self) -> bool {
        self.parameter_nodes()
            .find_map(|p| {
                let child = self.tree.child_named(p, "dataType__Parameter")?;
                let between = Span::new(
                    self.tree.element(p).start_tag.end as usize,
                    self.tree.element(child).start_tag.start as usize,
                );
                Some(!self.tree.str(between).contains('\n'))
            })
            .unwrap_or(false)
    }

    /// The prefix the root binds to PCM's repository package (`repository`, `pcm.repository`).
    fn repository_prefix(&self) -> Option<String> {
        let root = self.tree.root()?;
        self.tree.attributes(root).iter().find_map(|a| {
            let prefix = self.tree.str(a.name).strip_prefix("xmlns:")?;
            (parse_namespace(self.tree.str(a.value))?.package == Package::Repository).then(|| prefix.to_string())
        })
    }

    /// Inserts the parameter after the signature's last parameter, as its first child when it has
    /// none (parameters precede an `href` return type in EMF's order), or into an empty signature.
    fn insert_parameter(&self, signature: &Signature, lines: &[String]) -> TextEdit {
        let tree = &self.tree;
        let nl = self.newline();
        if let Some(last) = signature.parameters.last() {
            let indent = tree.indentation(last.node);
            let body: String = lines.iter().map(|l| format!("{nl}{indent}{l}")).collect();
            return TextEdit {
                span: Span::empty(tree.element(last.node).span().end as usize),
                new_text: body,
            };
        }
        match tree.children(signature.node).next() {
            Some(first) => {
                let indent = tree.indentation(first);
                let body: String = lines.iter().map(|l| format!("{l}{nl}{indent}")).collect();
                TextEdit {
                    span: Span::empty(tree.element(first).start_tag.start as usize),
                    new_text: body,
                }
            }
            None => self.insert_child(signature.node, lines),
        }
    }
}
