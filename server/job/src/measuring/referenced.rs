//! The data types a repository names from other repository files by `href` (CoCoME's
//! `cocome.repository` takes `ProductMovementTO` from `cocomeTypes.repository`). Linking tells
//! parameters and overloads apart by the model's type names, and a type in a file it never read
//! has none: `beagle.toml` names the repository, not the files it refers to. Only their types and
//! interfaces are read; their components are not the workspace's to link.

use beagle_pcm::model::{DataTypeKind, Repository};
use beagle_pcm::reference::{Reference, Target};
use beagle_pcm::ModelFile;
use std::path::{Path, PathBuf};

/// The repository files that `repositories` (read from `paths`, in the same order) refer to for
/// data types, and those they refer to, without their components. A file that cannot be read or
/// is no repository is left out: the model's own checks name it (`beagle check`).
pub(crate) fn type_repositories(paths: &[PathBuf], repositories: &[&Repository]) -> Vec<Repository> {
    let mut seen: Vec<PathBuf> = paths.iter().map(|p| canonical(p)).collect();
    let mut queue: Vec<(PathBuf, Vec<String>)> = (paths.iter().zip(repositories))
        .map(|(p, r)| (p.clone(), type_files(r)))
        .collect();
    let mut out = Vec::new();
    while let Some((from, uris)) = queue.pop() {
        for uri in uris {
            let Some(path) = beside(&from, &uri) else { continue };
            if seen.contains(&canonical(&path)) {
                continue;
            }
            seen.push(canonical(&path));
            let Ok(bytes) = std::fs::read(&path) else { continue };
            let Some(mut repository) = ModelFile::from_bytes(path.clone(), bytes).repository else {
                continue;
            };
            repository.components.clear();
            queue.push((path, type_files(&repository)));
            out.push(repository);
        }
    }
    out
}

/// The other repository files `repository`'s signatures and data types take types from, as
/// written (relative URIs; `pathmap://` ones are Palladio's own, which Beagle knows).
fn type_files(repository: &Repository) -> Vec<String> {
    let mut references: Vec<&Reference> = Vec::new();
    for signature in repository.interfaces.iter().flat_map(|i| &i.signatures) {
        references.extend(signature.parameters.iter().filter_map(|p| p.data_type.as_ref()));
        references.extend(signature.return_type.as_ref());
    }
    for data_type in &repository.data_types {
        match &data_type.kind {
            DataTypeKind::Collection { inner } => references.extend(inner.as_ref()),
            DataTypeKind::Composite { members, parents } => {
                references.extend(members.iter().filter_map(|m| m.data_type.as_ref()));
                references.extend(parents);
            }
            _ => {}
        }
    }
    let mut uris: Vec<String> = references
        .into_iter()
        .filter_map(|r| match &r.target {
            Target::External { uri, .. } if uri.ends_with(".repository") && !uri.contains(':') => Some(uri.clone()),
            _ => None,
        })
        .collect();
    uris.sort();
    uris.dedup();
    uris
}

/// The file a relative `uri` written in `from` names.
fn beside(from: &Path, uri: &str) -> Option<PathBuf> {
    Some(from.parent()?.join(uri))
}

fn canonical(path: &Path) -> PathBuf {
    path.canonicalize().unwrap_or_else(|_| path.to_path_buf())
}

#[cfg(test)]
mod tests {
    use super::*;

    const TYPES: &str = r#"<?xml version="1.0" encoding="UTF-8"?>
<repository:Repository xmi:version="2.0" xmlns:xmi="http://www.omg.org/XMI" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:repository="http://palladiosimulator.org/PalladioComponentModel/Repository/5.2" id="_types" entityName="Types">
  <components__Repository xsi:type="repository:BasicComponent" id="_other" entityName="NotOurs"/>
  <dataTypes__Repository xsi:type="repository:CompositeDataType" id="_movement" entityName="shop.ProductMovementTO"/>
</repository:Repository>
"#;
    const MAIN: &str = r#"<?xml version="1.0" encoding="UTF-8"?>
<repository:Repository xmi:version="2.0" xmlns:xmi="http://www.omg.org/XMI" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:repository="http://palladiosimulator.org/PalladioComponentModel/Repository/5.2" id="_r" entityName="Shop">
  <interfaces__Repository xsi:type="repository:OperationInterface" id="_StoreIf" entityName="StoreIf">
    <signatures__OperationInterface id="_mark" entityName="markUnavailable">
      <parameters__OperationSignature parameterName="required">
        <dataType__Parameter xsi:type="repository:CompositeDataType" href="types/shop.repository#_movement"/>
      </parameters__OperationSignature>
      <parameters__OperationSignature parameterName="n">
        <dataType__Parameter href="pathmap://PCM_MODELS/PrimitiveTypes.repository#//@dataTypes__Repository.0"/>
      </parameters__OperationSignature>
    </signatures__OperationInterface>
  </interfaces__Repository>
</repository:Repository>
"#;

    #[test]
    fn the_types_a_repository_takes_from_another_file_are_read_without_its_components() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join("types")).unwrap();
        std::fs::write(dir.path().join("types/shop.repository"), TYPES).unwrap();
        let main = dir.path().join("Shop.repository");
        std::fs::write(&main, MAIN).unwrap();
        let file = ModelFile::from_bytes(main.clone(), MAIN.as_bytes().to_vec());
        let repository = file.repository.as_ref().unwrap();
        let found = type_repositories(std::slice::from_ref(&main), &[repository]);
        assert_eq!(found.len(), 1, "{found:?}");
        assert!(found[0].components.is_empty());
        assert_eq!(found[0].data_types[0].name.as_deref(), Some("shop.ProductMovementTO"));
        // A file that is not there is left to the model's checks.
        std::fs::remove_file(dir.path().join("types/shop.repository")).unwrap();
        assert!(type_repositories(&[main], &[repository]).is_empty());
    }
}
