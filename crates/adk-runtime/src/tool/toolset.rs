//! Toolsets (ADK's `BaseToolset`): a source of tools resolved per invocation, such as the tools an
//! MCP server lists. An agent's `tools` hold tools and toolsets in one list (ADK's `ToolUnion`); each
//! model call asks every toolset for its tools in that order. A toolset's tools carry its
//! `tool_name_prefix` as `<prefix>_<name>`.

use std::rc::Rc;

use async_trait::async_trait;
use futures_util::future::LocalBoxFuture;
use serde_json::Value;

use super::Tool;
use crate::agent::{ReadonlyContext, ToolContext};
use crate::auth::AuthConfig;
use crate::model::{FunctionDeclaration, LlmRequest};
use crate::types::JsonObject;
use crate::AdkError;

/// A source of tools (ADK's `BaseToolset`).
#[async_trait(?Send)]
pub trait Toolset {
    /// The tools for this context, already filtered (ADK's `get_tools`).
    async fn get_tools(&self, ctx: &ReadonlyContext) -> Result<Vec<Rc<dyn Tool>>, AdkError>;

    /// Prepended to each tool's name as `<prefix>_<name>` (ADK's `tool_name_prefix`).
    fn tool_name_prefix(&self) -> Option<&str> {
        None
    }

    /// The credential the toolset needs for listing and calling its tools, if any (ADK's
    /// `get_auth_config`): resolved before each model call, the person asked when there is none.
    fn auth_config(&self) -> Option<AuthConfig> {
        None
    }

    /// The toolset's class name, which names its credential request (ADK's
    /// `_adk_toolset_auth_<class>`).
    fn class_name(&self) -> &'static str {
        "BaseToolset"
    }

    /// Releases what the toolset holds open (ADK's `close`).
    async fn close(&self) -> Result<(), AdkError> {
        Ok(())
    }
}

/// Headers for each request a toolset's tools make, from the context it is made in (ADK's
/// `header_provider`); an error fails the listing or the call it was asked for.
pub type HeaderProvider = Rc<dyn Fn(&ReadonlyContext) -> Result<Vec<(String, String)>, AdkError>>;

/// The headers `provider` gives for a request made in `ctx`, none without one.
pub(crate) fn headers(
    provider: &Option<HeaderProvider>,
    ctx: &ReadonlyContext,
) -> Result<Vec<(String, String)>, AdkError> {
    provider.as_ref().map_or(Ok(Vec::new()), |provide| provide(ctx))
}

/// One entry of an agent's `tools` (ADK's `ToolUnion`).
#[derive(Clone)]
pub enum ToolUnion {
    /// A tool.
    Tool(Rc<dyn Tool>),
    /// A toolset, resolved on each model call.
    Toolset(Rc<dyn Toolset>),
}

impl<T: Tool + 'static> From<Rc<T>> for ToolUnion {
    fn from(tool: Rc<T>) -> Self {
        ToolUnion::Tool(tool)
    }
}

impl From<Rc<dyn Tool>> for ToolUnion {
    fn from(tool: Rc<dyn Tool>) -> Self {
        ToolUnion::Tool(tool)
    }
}

impl From<Rc<dyn Toolset>> for ToolUnion {
    fn from(toolset: Rc<dyn Toolset>) -> Self {
        ToolUnion::Toolset(toolset)
    }
}

/// Which of a toolset's tools the agent gets (ADK's `tool_filter`): names, or a predicate.
#[derive(Clone)]
pub enum ToolFilter {
    /// These names only.
    Names(Vec<String>),
    /// The tools the predicate accepts in the context.
    Predicate(ToolPredicate),
}

/// ADK's `ToolPredicate`: whether a tool is offered in a context.
pub type ToolPredicate = Rc<dyn Fn(&dyn Tool, &ReadonlyContext) -> bool>;

impl ToolFilter {
    /// Whether `tool` is selected (ADK's `_is_tool_selected`).
    pub fn selects(&self, tool: &dyn Tool, ctx: &ReadonlyContext) -> bool {
        match self {
            ToolFilter::Names(names) => names.iter().any(|n| n == tool.name()),
            ToolFilter::Predicate(accepts) => accepts(tool, ctx),
        }
    }
}

/// The agent's tools for this context, toolsets resolved in place (ADK's `canonical_tools`). A
/// toolset that fails to list its tools is left out and the agent runs without them, as ADK does.
/// Boxed: the agent's loop awaits it once a step.
pub fn resolve<'a>(tools: &'a [ToolUnion], ctx: &'a ReadonlyContext) -> LocalBoxFuture<'a, Vec<Rc<dyn Tool>>> {
    Box::pin(async move {
        let mut resolved: Vec<Rc<dyn Tool>> = Vec::with_capacity(tools.len());
        for union in tools {
            match union {
                ToolUnion::Tool(tool) => resolved.push(tool.clone()),
                ToolUnion::Toolset(toolset) => {
                    let Ok(listed) = toolset.get_tools(ctx).await else { continue };
                    match toolset.tool_name_prefix().filter(|p| !p.is_empty()) {
                        None => resolved.extend(listed),
                        Some(prefix) => resolved.extend(listed.into_iter().map(|inner| {
                            let name = [prefix, "_", inner.name()].concat();
                            Rc::new(Prefixed { name, inner }) as Rc<dyn Tool>
                        })),
                    }
                }
            }
        }
        resolved
    })
}

/// A toolset's tool under its prefixed name, declared with it (ADK's copy with a prefixed
/// `_get_declaration`).
struct Prefixed {
    name: String,
    inner: Rc<dyn Tool>,
}

#[async_trait(?Send)]
impl Tool for Prefixed {
    fn name(&self) -> &str {
        &self.name
    }

    fn declaration(&self) -> FunctionDeclaration {
        FunctionDeclaration { name: self.name.clone(), ..self.inner.declaration() }
    }

    fn is_long_running(&self) -> bool {
        self.inner.is_long_running()
    }

    async fn check_require_confirmation(&self, args: &JsonObject, ctx: &ToolContext) -> Result<bool, AdkError> {
        self.inner.check_require_confirmation(args, ctx).await
    }

    async fn run(&self, args: JsonObject, ctx: ToolContext) -> Result<Value, AdkError> {
        self.inner.run(args, ctx).await
    }

    /// The inner tool shapes the request (an MCP tool fences its declaration), under this name.
    async fn process_llm_request(&self, ctx: &ToolContext, request: &mut LlmRequest) -> Result<(), AdkError> {
        self.inner.process_llm_request(ctx, request).await?;
        let inner = self.inner.name();
        // The last declaration of that name.
        for declarations in request.config.tools.iter_mut().rev() {
            if let Some(declaration) = declarations.function_declarations.iter_mut().rev().find(|d| d.name == inner) {
                declaration.name = self.name.clone();
                break;
            }
        }
        Ok(())
    }
}
