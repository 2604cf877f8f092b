//! Listing editions and the library's defaults (`lectern list`, the local
//! API's editions endpoint, the stdio MCP tool `list_installed_docsets`).

use serde::{Deserialize, Serialize};

use crate::edition::EditionRecord;
use crate::error::LibraryError;
use crate::library::Library;

#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct ListRequest {
    /// Include disabled editions.
    #[serde(default)]
    pub all: bool,
    /// Expected generation.
    pub generation: Option<String>,
}

/// The library's resolved defaults (null where none can be decided).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Defaults {
    pub project: Option<String>,
    pub version: Option<String>,
    pub locale: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct ListResponse {
    pub generation: String,
    pub defaults: Defaults,
    pub editions: Vec<EditionRecord>,
}

impl Library {
    pub fn list(&self, request: &ListRequest) -> Result<ListResponse, LibraryError> {
        let view = self.view()?;
        view.check_generation(request.generation.as_deref())?;
        let m = &view.manifest;
        let project = m.default_project();
        Ok(ListResponse {
            generation: view.generation.clone(),
            defaults: Defaults {
                version: project.as_deref().and_then(|p| m.current_version(p)),
                project,
                locale: m.default_locale(),
            },
            editions: m.editions.iter().filter(|e| request.all || e.enabled).cloned().collect(),
        })
    }
}
