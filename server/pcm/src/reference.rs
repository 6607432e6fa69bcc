//! References between model elements, as EMF writes them: ids in attributes, EMF XPath fragments
//! (`//@dataTypes__Repository.0`), and `href="file#fragment"` children pointing into other files.

use crate::span::Span;
use crate::xml::NodeId;
use std::borrow::Cow;

/// One reference as written in a file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reference {
    /// The element that holds the reference (for `href` children: the child itself).
    pub node: NodeId,
    /// The feature: the attribute's name (`successor_AbstractAction`), or the child's tag name.
    /// Known features borrow a static name, so the index allocates nothing for them.
    pub feature: Cow<'static, str>,
    /// Span of the reference text in the file (one token of a multi-valued attribute).
    pub span: Span,
    pub target: Target,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Target {
    /// An id in the same file.
    Id(String),
    /// An EMF fragment path in the same file, such as `//@components__Repository.5/@steps_Behaviour.2`.
    Path(String),
    /// Another file: the URI as written (relative, `pathmap://...`, `platform:/...`) and the fragment.
    External { uri: String, fragment: String },
}

impl Target {
    /// Parses one reference token.
    pub fn parse(token: &str) -> Target {
        match token.split_once('#') {
            Some((uri, fragment)) if !uri.is_empty() => Target::External {
                uri: uri.to_string(),
                fragment: fragment.to_string(),
            },
            Some((_, fragment)) => Target::local(fragment),
            None => Target::local(token),
        }
    }

    fn local(fragment: &str) -> Target {
        if fragment.starts_with('/') {
            Target::Path(fragment.to_string())
        } else {
            Target::Id(fragment.to_string())
        }
    }

    /// The fragment part: an id or a path.
    pub fn fragment(&self) -> &str {
        match self {
            Target::Id(s) | Target::Path(s) => s,
            Target::External { fragment, .. } => fragment,
        }
    }

    /// The id this reference names, when it names one.
    pub fn id(&self) -> Option<&str> {
        let f = self.fragment();
        (!f.starts_with('/')).then_some(f)
    }
}

/// Splits an EMF XPath fragment `//@a.0/@b.3/@c` into `(feature, index)` steps.
/// `None` when the fragment is not of that form.
pub fn path_steps(path: &str) -> Option<Vec<(&str, usize)>> {
    let rest = path.strip_prefix("//").or_else(|| path.strip_prefix("/0/"))?;
    if rest.is_empty() {
        return Some(Vec::new());
    }
    rest.split('/')
        .map(|step| {
            let step = step.strip_prefix('@')?;
            match step.rsplit_once('.') {
                Some((feature, index)) => Some((feature, index.parse().ok()?)),
                None => Some((step, 0)),
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens() {
        assert_eq!(Target::parse("_abc"), Target::Id("_abc".into()));
        assert_eq!(Target::parse("#_abc"), Target::Id("_abc".into()));
        assert_eq!(
            Target::parse("pathmap://PCM_MODELS/PrimitiveTypes.repository#//@dataTypes__Repository.0"),
            Target::External {
                uri: "pathmap://PCM_MODELS/PrimitiveTypes.repository".into(),
                fragment: "//@dataTypes__Repository.0".into()
            }
        );
        assert_eq!(Target::parse("//@a.1"), Target::Path("//@a.1".into()));
    }

    #[test]
    fn paths() {
        assert_eq!(path_steps("//@a.1/@b.0/@c"), Some(vec![("a", 1), ("b", 0), ("c", 0)]));
        assert_eq!(path_steps("//"), Some(vec![]));
        assert_eq!(path_steps("//@a.x"), None);
        assert_eq!(path_steps("_id"), None);
    }
}
