//! ADK's `OpenAPIToolset`: the operations of an OpenAPI 3 spec (JSON), each a [`RestApiTool`]
//! named and parameterised as ADK names them, with the spec's security schemes or one given for
//! all, the toolset's filter, prefix and header provider.

mod operation;
mod request;
mod rest_api_tool;
mod spec;

use std::rc::Rc;

use async_trait::async_trait;
use serde_json::Value;

use super::toolset::HeaderProvider;
use super::{Tool, ToolFilter, Toolset};
use crate::agent::ReadonlyContext;
use crate::types::JsonObject;
use crate::AdkError;
use operation::MAX_TOOL_NAME_LENGTH;
pub use rest_api_tool::RestApiTool;

/// What an `OpenAPIToolset` is made with besides its spec.
#[derive(Default, Clone)]
pub struct OpenApiOptions {
    /// The security scheme of every operation, in place of the spec's.
    pub auth_scheme: Option<JsonObject>,
    /// The credential for it (an API key, an HTTP credential, an OAuth2 client).
    pub auth_credential: Option<JsonObject>,
    /// The key the credential is stored and asked for under (computed from the scheme otherwise).
    pub credential_key: Option<String>,
    /// Parameters named as the spec names them, not in snake_case.
    pub preserve_property_names: bool,
    /// Which tools the agent gets.
    pub tool_filter: Option<ToolFilter>,
    /// Tools named `<prefix>_<name>`.
    pub tool_name_prefix: Option<String>,
    /// Headers computed for each call.
    pub header_provider: Option<HeaderProvider>,
    /// Lets tools call loopback, private and link-local addresses (refused by default, as ADK).
    pub allow_private_network_access: bool,
}

/// The tools of one OpenAPI spec (ADK's `OpenAPIToolset`).
pub struct OpenApiToolset {
    tools: Vec<Rc<RestApiTool>>,
    filter: Option<ToolFilter>,
    prefix: Option<String>,
}

impl OpenApiToolset {
    /// The toolset of `spec` (a parsed OpenAPI 3 document). A spec that cannot be read is
    /// INVALID_ARGUMENT here, where it is given.
    pub fn new(spec: &Value, options: OpenApiOptions) -> Result<Self, AdkError> {
        if !spec.is_object() {
            return Err(AdkError::invalid("The OpenAPI specification must be an object"));
        }
        // A loop rather than collecting `Result`s: that adapter is code of its own per item type.
        let mut tools = Vec::new();
        for operation in spec::parse(spec)? {
            tools.push(RestApiTool::from_parsed_operation(operation, options.preserve_property_names)?);
        }
        for tool in &mut tools {
            if options.auth_scheme.is_some() {
                tool.auth_scheme.clone_from(&options.auth_scheme);
            }
            if options.auth_credential.is_some() {
                tool.auth_credential.clone_from(&options.auth_credential);
            }
            tool.credential_key.clone_from(&options.credential_key);
            tool.header_provider.clone_from(&options.header_provider);
            tool.allow_private_network_access = options.allow_private_network_access;
        }
        disambiguate(&mut tools);
        let mut shared = Vec::with_capacity(tools.len());
        for tool in tools {
            shared.push(Rc::new(tool));
        }
        Ok(OpenApiToolset { tools: shared, filter: options.tool_filter, prefix: options.tool_name_prefix })
    }

    /// The tool named `name`, filter or not (ADK's `get_tool`).
    pub fn get_tool(&self, name: &str) -> Option<Rc<RestApiTool>> {
        self.tools.iter().find(|t| t.name == name).cloned()
    }
}

/// Operation ids that share a long prefix are cut to one name; each later one gets `_2`, `_3`, …
/// (within the name limit) until it is unique (ADK's `_parse`).
fn disambiguate(tools: &mut [RestApiTool]) {
    let mut reserved: Vec<String> = Vec::with_capacity(tools.len());
    for tool in tools.iter() {
        reserved.push(tool.name.clone());
    }
    let mut assigned: Vec<String> = Vec::new();
    // The next suffix to try for each name, so a thousand clashes of one name stay linear in it.
    let mut next: Vec<(String, usize)> = Vec::new();
    for tool in tools.iter_mut() {
        if assigned.contains(&tool.name) {
            let base = tool.name.clone();
            let slot = match next.iter().position(|(b, _)| *b == base) {
                Some(i) => i,
                None => {
                    next.push((base.clone(), 2));
                    next.len() - 1
                }
            };
            while assigned.contains(&tool.name) || reserved.contains(&tool.name) {
                let n = next.get(slot).map_or(2, |(_, n)| *n);
                let suffix = format!("_{n}");
                let kept = adk_core::text::first_chars(&base, MAX_TOOL_NAME_LENGTH.saturating_sub(suffix.len()));
                tool.name = [kept, &suffix].concat();
                if let Some((_, n)) = next.get_mut(slot) {
                    *n += 1;
                }
            }
        }
        assigned.push(tool.name.clone());
    }
}

#[async_trait(?Send)]
impl Toolset for OpenApiToolset {
    async fn get_tools(&self, ctx: &ReadonlyContext) -> Result<Vec<Rc<dyn Tool>>, AdkError> {
        let mut selected: Vec<Rc<dyn Tool>> = Vec::new();
        for t in &self.tools {
            if self.filter.as_ref().is_none_or(|f| f.selects(&**t, ctx)) {
                selected.push(Rc::clone(t) as Rc<dyn Tool>);
            }
        }
        Ok(selected)
    }

    fn tool_name_prefix(&self) -> Option<&str> {
        self.prefix.as_deref()
    }
}
