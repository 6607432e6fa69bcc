//! Putting a SEFF's unmodelled time into the model: an internal action `<SEFF> (unmodelled)`
//! right after the SEFF's start, carrying the time no other action carries (found where the model
//! is validated: `beagle_analysis::unmodelled`). Minimal edits: the new action, and the two
//! references of the chain it joins; a second call sets the existing action's demand.

use crate::edit::{EditError, TextEdit};
use crate::file::ModelFile;
use crate::model::{ActionBody, ActionKind};
use crate::xml::escape_attribute;

/// The name of a SEFF's unmodelled-time action.
pub fn unmodelled_action_name(seff_name: &str) -> String {
    format!("{seff_name} (unmodelled)")
}

impl ModelFile {
    /// Whether an external call of this file's SEFFs calls the service SEFF `seff_id` describes.
    /// A called SEFF's time is inside its callers' measured totals: its unmodelled time would be
    /// counted twice if both were written, so only the outermost SEFFs' is.
    pub fn seff_is_called(&self, seff_id: &str) -> bool {
        let Some(repo) = self.repository.as_ref() else {
            return false;
        };
        let Some(service) = repo
            .seffs()
            .find(|(_, s)| s.id.as_deref() == Some(seff_id))
            .and_then(|(_, s)| {
                s.described_service
                    .as_ref()
                    .and_then(|r| r.target.id().map(str::to_string))
            })
        else {
            return false;
        };
        repo.actions().any(|a| match &a.body {
            ActionBody::ExternalCall { called_service, .. } => {
                called_service.as_ref().and_then(|r| r.target.id()) == Some(service.as_str())
            }
            _ => false,
        })
    }

    /// Edits that give SEFF `seff_id` an internal action named `<seff_name> (unmodelled)` with
    /// `spec` as its demand of `resource_type`, first after the SEFF's StartAction; when it has
    /// one already, its demand is set.
    pub fn set_unmodelled_action(
        &self,
        seff_id: &str,
        seff_name: &str,
        resource_type: &str,
        spec: &str,
    ) -> Result<Vec<TextEdit>, EditError> {
        let repo = self
            .repository
            .as_ref()
            .ok_or_else(|| EditError::NotEditable("it is not a PCM repository".into()))?;
        let (_, seff) = repo
            .seffs()
            .find(|(_, s)| s.id.as_deref() == Some(seff_id))
            .ok_or_else(|| EditError::NotFound(format!("no SEFF with id `{seff_id}`")))?;
        let name = unmodelled_action_name(seff_name);
        let actions = &seff.behaviour.actions;
        if let Some(existing) = actions.iter().find(|a| a.name.as_deref() == Some(name.as_str())) {
            let id = existing
                .id
                .as_deref()
                .ok_or_else(|| EditError::NotFound(format!("`{name}` has no id")))?;
            return self.set_resource_demand(id, resource_type, spec);
        }
        let start = actions
            .iter()
            .find(|a| a.kind == ActionKind::StartAction)
            .ok_or_else(|| EditError::NotFound(format!("SEFF `{seff_id}` has no StartAction")))?;
        let start_id = start
            .id
            .as_deref()
            .ok_or_else(|| EditError::NotFound(format!("the StartAction of `{seff_id}` has no id")))?;
        let next_id = start
            .successor
            .as_ref()
            .and_then(|r| r.target.id().map(str::to_string))
            .ok_or_else(|| EditError::NotFound(format!("the StartAction of `{seff_id}` has no successor")))?;
        let next = actions
            .iter()
            .find(|a| a.id.as_deref() == Some(next_id.as_str()))
            .ok_or_else(|| EditError::NotFound(format!("`{next_id}`, the start's successor, is not in `{seff_id}`")))?;
        let mut id = format!("{seff_id}_unmodelled");
        while self.index.node_by_id_in(self.text(), &id).is_some() {
            id.push('_');
        }
        let q = b'"';
        let mut edits = vec![
            self.set_attribute(start.node, "successor_AbstractAction", &id),
            self.set_attribute(next.node, "predecessor_AbstractAction", &id),
        ];
        let demand = self.set_resource_demand_lines(resource_type, spec);
        let mut lines = vec![format!(
            "<steps_Behaviour xsi:type=\"seff:InternalAction\" id=\"{}\" entityName=\"{}\" predecessor_AbstractAction=\"{}\" successor_AbstractAction=\"{}\">",
            escape_attribute(&id, q),
            escape_attribute(&name, q),
            escape_attribute(start_id, q),
            escape_attribute(&next_id, q)
        )];
        lines.extend(demand.into_iter().map(|l| format!("{}{l}", self.indent_unit())));
        lines.push("</steps_Behaviour>".into());
        edits.push(self.insert_child(seff.behaviour.node, &lines));
        Ok(edits)
    }
}
