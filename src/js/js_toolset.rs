//! Toolsets written in JS (`class T extends BaseToolset { async getTools(context) {…} }`, or any
//! object with `getTools`): each model call asks for its tools in the run's context; the tools come
//! back through a `ToolSink`, which takes wasm handles by value (the stable way for JS to hand them
//! over), then the toolset's `toolFilter` and `prefix` apply as to any toolset.

use adk_core::cell::Lend;
use std::cell::RefCell;
use std::rc::Rc;

use async_trait::async_trait;
use wasm_bindgen::prelude::*;

use super::convert::prop;
use super::http_options::text;
use super::llm::ToolHandle;
use super::to_js_error;
use super::toolset::{context_object, tool_filter};
use crate::agent::ReadonlyContext;
use crate::platform::interop::{call, method_of, resolve};
use crate::tool::{Tool, ToolFilter, ToolUnion, Toolset};
use crate::AdkError;

/// Where a JS toolset's `getTools` puts the tools it gives.
#[wasm_bindgen]
pub struct ToolSink {
    tools: Rc<RefCell<Vec<Rc<dyn Tool>>>>,
}

#[wasm_bindgen]
impl ToolSink {
    /// Adds one tool (a handle made of a `FunctionTool`, an `AgentTool`, a built-in, …).
    pub fn push(&self, handle: ToolHandle) -> Result<(), JsValue> {
        match handle.into_union() {
            ToolUnion::Tool(tool) => {
                self.tools.lend_mut().push(tool);
                Ok(())
            }
            ToolUnion::Toolset(_) => {
                Err(to_js_error(AdkError::invalid("BaseToolset.getTools must give tools, not toolsets")))
            }
        }
    }
}

/// A toolset whose tools come from JS.
struct JsToolset {
    object: JsValue,
    // The package's `resolveToolset`, called with the toolset as `this`: it awaits `getTools` and
    // fills the sink.
    resolve_tools: js_sys::Function,
    filter: Option<ToolFilter>,
    prefix: Option<String>,
}

#[async_trait(?Send)]
impl Toolset for JsToolset {
    async fn get_tools(&self, ctx: &ReadonlyContext) -> Result<Vec<Rc<dyn Tool>>, AdkError> {
        let context = context_object(ctx);
        let tools = Rc::new(RefCell::new(Vec::new()));
        let sink = ToolSink { tools: tools.clone() };
        resolve(call(&self.resolve_tools, &self.object, &[context.into(), sink.into()])?).await?;
        let mut tools = tools.take();
        tools.retain(|t| self.filter.as_ref().is_none_or(|f| f.selects(&**t, ctx)));
        Ok(tools)
    }

    fn tool_name_prefix(&self) -> Option<&str> {
        self.prefix.as_deref()
    }

    async fn close(&self) -> Result<(), AdkError> {
        match method_of(&self.object, "close") {
            Some(close) => resolve(call(&close, &self.object, &[])?).await.map(drop),
            None => Ok(()),
        }
    }
}

impl ToolHandle {
    /// A toolset written in JS: `toolset.getTools(context)` through `resolveTools`, its
    /// `toolFilter` and `prefix` read once.
    pub(super) fn js_toolset(toolset: JsValue, resolve_tools: js_sys::Function) -> Result<ToolHandle, JsValue> {
        const WHAT: &str = "BaseToolset";
        let filter = tool_filter(WHAT, &prop(&toolset, "toolFilter"))?;
        let prefix = text(WHAT, &toolset, "prefix").map_err(to_js_error)?.filter(|p| !p.is_empty());
        let inner = JsToolset { object: toolset, resolve_tools, filter, prefix };
        Ok(ToolHandle::toolset(Rc::new(inner)))
    }
}
