//! `LlmAgent`, models and tools for JS: the scripted model, models written in JS, function tools,
//! and the model/tool callbacks.

use std::rc::Rc;

use serde_json::Value;
use wasm_bindgen::prelude::*;

use adk_core::limits::Limit;
use adk_runtime::or_break;
use futures_util::StreamExt;

use super::agent::{core_from, AgentHandle};
use super::convert::{from_js_core, from_js_within, handles, js_error_to_core, object, prop, resolve, to_js_core};
use super::hook::{Args, JsHook};
use super::in_place::InPlace;
use super::sys::{FunctionToolOptions, GenerateOptions, JsModelObject, LlmAgentOptions, Protocol};
use super::to_js_error;
use crate::agent::llm::{
    validate_generate_content_config, AfterModelCallback, AfterToolCallback, BeforeModelCallback, BeforeToolCallback,
    ModelErrorCallback, ToolErrorCallback,
};
use crate::agent::{
    BuiltInCodeExecutor, Cancellation, IncludeContents, Instruction, LlmAgent, LlmAgentConfig, Planner, ReadonlyContext,
};
use crate::model::scripted::ScriptedTurn;
use crate::model::{BaseLlm, LlmRequest, LlmResponseStream, ScriptedModel, StreamingAggregator};
use crate::platform::abort::AbortBridge;
use crate::platform::iter::JsStream;
use crate::tool::schema::check_schema;
use crate::tool::{
    get_user_choice_tool, request_input_tool, AgentTool, ExitLoopTool, FunctionTool, LoadArtifactsTool, LoadMemoryTool,
    PreloadMemoryTool, RequireConfirmation, ToolUnion, GOOGLE_MAPS_GROUNDING, GOOGLE_SEARCH, URL_CONTEXT,
};
use crate::types::{Content, JsonObject};
use crate::{AdkError, ErrorCode, LlmResponse};

fn optional<T: adk_core::json::FromJson>(what: &str, value: &JsValue) -> Result<Option<T>, AdkError> {
    if value.is_undefined() || value.is_null() {
        Ok(None)
    } else {
        from_js_core(what, value).map(Some)
    }
}

/// A JSON Schema option, checked as the agent is made.
fn schema(what: &str, value: &JsValue) -> Result<Option<JsonObject>, AdkError> {
    optional::<Value>(what, value)?.map(|schema| check_schema(what, &schema)).transpose()
}

/// A model for an `LlmAgent`.
#[wasm_bindgen]
pub struct ModelHandle {
    model: Rc<dyn BaseLlm>,
    scripted: Option<Rc<ScriptedModel>>,
}

impl ModelHandle {
    /// A handle on a model that is not scripted.
    pub(super) fn wrap(model: Rc<dyn BaseLlm>) -> Self {
        ModelHandle { model, scripted: None }
    }

    /// The model.
    pub(super) fn base_llm(&self) -> Rc<dyn BaseLlm> {
        self.model.clone()
    }
}

#[wasm_bindgen]
impl ModelHandle {
    /// A model by kind: `ScriptedModel` (0, from its turns), a model written in JS (1), `Gemini` (2)
    /// or `OpenAICompatible` (3, from their options); one export for the four, as each export costs
    /// a shim.
    pub fn make(kind: u32, value: JsValue) -> Result<ModelHandle, JsValue> {
        match kind {
            0 => ModelHandle::scripted(value),
            1 => ModelHandle::from_js(value),
            2 => ModelHandle::gemini(value),
            _ => ModelHandle::open_ai_compatible(value),
        }
    }

    /// The requests a `ScriptedModel` has received.
    pub fn requests(&self) -> Result<JsValue, JsValue> {
        match &self.scripted {
            Some(m) => to_js_core(&m.requests()).map_err(to_js_error),
            None => Ok(js_sys::Array::new().into()),
        }
    }
}

impl ModelHandle {
    /// `ScriptedModel`: each entry answers one call — a string (text), an `LlmResponse`-shaped
    /// object, or `{chunks: [...]}` streamed as partial events and then one complete response.
    fn scripted(turns: JsValue) -> Result<ModelHandle, JsValue> {
        if !js_sys::Array::is_array(&turns) {
            return Err(to_js_error(AdkError::invalid("ScriptedModel: expected an array of responses")));
        }
        // Loops rather than collecting `Result`s: that adapter is code of its own per item type.
        let mut scripted = Vec::new();
        for (i, turn) in js_sys::Array::from(&turns).iter().enumerate() {
            scripted.push(scripted_turn(i, &turn).map_err(to_js_error)?);
        }
        let model = Rc::new(ScriptedModel::new(scripted));
        Ok(ModelHandle { model: model.clone(), scripted: Some(model) })
    }

    /// A model written in JS: `object.generateContent(request, {stream, signal})` returning an
    /// `LlmResponse`, a Promise of one, or an (async) iterable of them.
    fn from_js(object: JsValue) -> Result<ModelHandle, JsValue> {
        let object = JsModelObject::check(object).map_err(to_js_error)?;
        let name = object.name().unwrap_or_else(|| "js-model".into());
        Ok(ModelHandle::wrap(Rc::new(JsModel { object, name })))
    }
}

fn scripted_turn(index: usize, value: &JsValue) -> Result<ScriptedTurn, AdkError> {
    let what = format!("ScriptedModel response {index}");
    if let Some(text) = value.as_string() {
        return Ok(ScriptedTurn::Response(Box::new(LlmResponse::from_parts(vec![crate::Part::from_text(&text)]))));
    }
    let chunks = prop(value, "chunks");
    if js_sys::Array::is_array(&chunks) {
        let mut list = Vec::new();
        for chunk in js_sys::Array::from(&chunks).iter() {
            list.push(match chunk.as_string() {
                Some(t) => LlmResponse::from_parts(vec![crate::Part::from_text(&t)]),
                None => from_js_core(&what, &chunk)?,
            });
        }
        return Ok(ScriptedTurn::Chunks(list));
    }
    Ok(ScriptedTurn::Response(Box::new(from_js_core(&what, value)?)))
}

/// A model whose `generateContent` is JS (WebLLM, transformers.js, an app's proxy, …).
struct JsModel {
    object: JsModelObject,
    name: String,
}

impl BaseLlm for JsModel {
    fn model(&self) -> &str {
        &self.name
    }

    fn generate_content(&self, request: LlmRequest, stream: bool, cancellation: Rc<Cancellation>) -> LlmResponseStream {
        let model = self.object.clone();
        Box::pin(async_stream::try_stream! {
            // Aborted when the run stops; its listener goes with this stream. Out here, as the JS
            // stream, so that an error is yielded while they live.
            let mut abort = None;
            let mut values = None;
            // Errors leave the block here and are yielded once, below (see `or_break!`).
            let failed: Result<(), AdkError> = 'call: {
                let abort = abort.insert(or_break!('call, AbortBridge::new(&cancellation)));
                let options = GenerateOptions::new(stream, &abort.signal());
                let request = or_break!('call, to_js_core(&request));
                let called = model.generate_content(&request, &options).map_err(|e| js_error_to_core(&e));
                let result = or_break!('call, called);
                match or_break!('call, JsStream::iterable(&result)) {
                    None => {
                        let value = or_break!('call, resolve(result).await);
                        yield or_break!('call, model_response(&value)).0;
                    }
                    Some(iterable) => {
                        let values = values.insert(iterable);
                        let mut aggregator = StreamingAggregator::new();
                        // Every whole response is one, as ADK takes each a model yields (a text,
                        // then a call); partials before one are its pieces, and partials after
                        // the last one are made whole here.
                        while let Some(value) = values.next().await {
                            let value = or_break!('call, value);
                            let (response, over) = or_break!('call, model_response(&value));
                            if response.partial == Some(true) {
                                let partial = aggregator.add(response);
                                if stream {
                                    yield partial;
                                }
                                continue;
                            }
                            aggregator = StreamingAggregator::new();
                            yield response;
                            if over {
                                break;
                            }
                        }
                        if let Some(whole) = aggregator.finish() {
                            yield whole;
                        }
                    }
                }
                Ok(())
            };
            failed?;
        })
    }
}

/// A JS model's response; one over `maxModelResponseBytes` becomes an error response (`true`: the
/// stream ends there), so the run goes on with an error event instead of failing.
fn model_response(value: &JsValue) -> Result<(LlmResponse, bool), AdkError> {
    match from_js_within("model response", value, Limit::model_response()) {
        Err(e) if e.code == ErrorCode::ResourceExhausted => {
            Ok((LlmResponse::from_error(e.code.as_str(), &e.message), true))
        }
        answer => answer.map(|response| (response, false)),
    }
}

/// A tool for an `LlmAgent`.
#[wasm_bindgen]
pub struct ToolHandle {
    tool: ToolUnion,
}

impl ToolHandle {
    /// A handle on a toolset (`MCPToolset`, …).
    pub fn toolset(toolset: Rc<dyn crate::tool::Toolset>) -> ToolHandle {
        ToolHandle { tool: ToolUnion::Toolset(toolset) }
    }

    /// The tool or toolset the handle holds.
    pub fn into_union(self) -> ToolUnion {
        self.tool
    }
}

#[wasm_bindgen]
impl ToolHandle {
    /// A tool or toolset by kind: a `FunctionTool` (0, from its options), an `OpenAPIToolset` (1,
    /// from its options), an `MCPToolset` (2: connection parameters, filter, prefix, options) or a
    /// toolset written in JS (3: the object, and index.js's `resolveTools`), or one of ADK's own
    /// tools (4: its name, see [`Self::built_in`]); one export for the five, as each export costs
    /// a shim.
    pub fn make(kind: u32, a: JsValue, b: JsValue, c: JsValue, d: JsValue) -> Result<ToolHandle, JsValue> {
        match kind {
            0 => ToolHandle::function(a),
            1 => ToolHandle::open_api(a),
            2 => ToolHandle::mcp(a, b, c, d),
            // As wasm-bindgen took a `Function` parameter: unchecked (index.js passes its own).
            3 => ToolHandle::js_toolset(a, b.unchecked_into()),
            // index.js names only tools there are.
            _ => ToolHandle::built_in(&a.as_string().unwrap_or_default())
                .ok_or_else(|| to_js_error(AdkError::invalid("no such built-in tool"))),
        }
    }
}

impl ToolHandle {
    /// `FunctionTool` from `{name, description, parameters, execute(args, toolContext), isLongRunning}`.
    fn function(options: JsValue) -> Result<ToolHandle, JsValue> {
        let options = FunctionToolOptions::new(options);
        let name = options
            .name()
            .as_string()
            .ok_or_else(|| to_js_error(AdkError::invalid("FunctionTool: name: expected a string")))?;
        let description = options.description().as_string().unwrap_or_default();
        let parameters: Option<Value> =
            optional("FunctionTool parameters", &options.parameters()).map_err(to_js_error)?;
        let execute: js_sys::Function = options.execute().dyn_into().map_err(|_| {
            to_js_error(AdkError::invalid(format!("FunctionTool `{name}`: execute must be a function")))
        })?;
        let execute = JsHook::new(execute, "tool");
        let long_running = options.is_long_running().is_truthy();
        let require_confirmation = require_confirmation(&name, &options.require_confirmation()).map_err(to_js_error)?;
        let function = Rc::new(move |args: JsonObject, ctx: crate::agent::ToolContext| {
            let execute = execute.clone();
            Box::pin(async move {
                let Some(result) = execute.call(ctx, Args::Positional(&[to_js_core(&args)?])).await? else {
                    return Ok(Value::Null);
                };
                match from_js_within::<Value>("tool result", &result, Limit::tool_result()) {
                    // Too large for the model anyway: it hears why instead, and the run goes on.
                    Err(e) if e.code == ErrorCode::ResourceExhausted => {
                        Ok(adk_core::json::object([("error", Value::String(e.message))]))
                    }
                    answer => answer,
                }
            }) as std::pin::Pin<Box<dyn std::future::Future<Output = Result<Value, AdkError>>>>
        });
        let tool = FunctionTool::new(&name, &description, parameters, function)
            .long_running(long_running)
            .require_confirmation(require_confirmation);
        Ok(ToolHandle { tool: ToolUnion::Tool(Rc::new(tool)) })
    }
}

impl ToolHandle {
    /// One of ADK's own tools by its name (`exit_loop`, `get_user_choice`, `adk_request_input`,
    /// `preload_memory`, `load_memory`, `load_artifacts`, and Gemini's `google_search`, `url_context`,
    /// `google_maps_grounding`).
    fn built_in(name: &str) -> Option<ToolHandle> {
        let tool: Rc<dyn crate::tool::Tool> = match name {
            "exit_loop" => Rc::new(ExitLoopTool),
            "get_user_choice" => Rc::new(get_user_choice_tool()),
            "adk_request_input" => Rc::new(request_input_tool()),
            "preload_memory" => Rc::new(PreloadMemoryTool),
            "load_memory" => Rc::new(LoadMemoryTool),
            "load_artifacts" => Rc::new(LoadArtifactsTool),
            "google_search" => Rc::new(GOOGLE_SEARCH),
            "url_context" => Rc::new(URL_CONTEXT),
            "google_maps_grounding" => Rc::new(GOOGLE_MAPS_GROUNDING),
            _ => return None,
        };
        Some(ToolHandle { tool: ToolUnion::Tool(tool) })
    }
}

#[wasm_bindgen]
impl ToolHandle {
    /// ADK's `AgentTool`: `agent` answers the model's `request` in a session of its own.
    pub fn agent(agent: &super::agent::AgentHandle, skip_summarization: bool) -> ToolHandle {
        ToolHandle {
            tool: ToolUnion::Tool(Rc::new(AgentTool::new(agent.agent()).skip_summarization(skip_summarization))),
        }
    }

    /// Another handle on the same tool or toolset: an agent takes the handle it is given, so a
    /// toolset object keeps one and hands each agent a share.
    pub fn share(&self) -> ToolHandle {
        ToolHandle { tool: self.tool.clone() }
    }

    /// Releases what a toolset holds open (an MCP session); nothing for a tool.
    pub fn close(&self) -> js_sys::Promise {
        let tool = self.tool.clone();
        super::convert::promise(async move {
            if let ToolUnion::Toolset(toolset) = tool {
                toolset.close().await?;
            }
            Ok(JsValue::UNDEFINED)
        })
    }
}

/// `requireConfirmation`: absent or a flag, or a predicate `(args, toolContext)` answering one (or
/// a Promise of one), as `@google/adk` takes it.
fn require_confirmation(tool: &str, value: &JsValue) -> Result<RequireConfirmation, AdkError> {
    if value.is_undefined() || value.is_null() || value.as_bool() == Some(false) {
        return Ok(RequireConfirmation::Never);
    }
    if value.as_bool() == Some(true) {
        return Ok(RequireConfirmation::Always);
    }
    let f: js_sys::Function = value.clone().dyn_into().map_err(|_| {
        AdkError::invalid(format!("FunctionTool `{tool}`: requireConfirmation must be a boolean or a function"))
    })?;
    let predicate = JsHook::new(f, "requireConfirmation");
    Ok(RequireConfirmation::When(Rc::new(move |args: JsonObject, ctx: crate::agent::ToolContext| {
        let predicate = predicate.clone();
        Box::pin(async move {
            // As ADK: anything but `true` lets the call through.
            Ok(predicate.answer::<Value>(ctx, Args::Positional(&[to_js_core(&args)?])).await?
                == Some(Value::Bool(true)))
        })
    })))
}

pub(super) fn instruction(value: &JsValue, what: &'static str) -> Result<Instruction, AdkError> {
    if value.is_undefined() || value.is_null() {
        return Ok(Instruction::None);
    }
    if let Some(text) = value.as_string() {
        return Ok(Instruction::Text(text));
    }
    let f: js_sys::Function =
        value.clone().dyn_into().map_err(|_| AdkError::invalid(format!("{what}: expected a string or a function")))?;
    let provider = JsHook::new(f, what);
    Ok(Instruction::Provider(Rc::new(move |ctx: ReadonlyContext| {
        let provider = provider.clone();
        Box::pin(async move {
            let ctx = crate::agent::CallbackContext::new(ctx.invocation_context().clone());
            let text = provider.call(ctx, Args::Context).await?.and_then(|text| text.as_string());
            text.ok_or_else(|| AdkError::invalid(format!("{what}: the function must return a string")))
        })
    })))
}

/// What JS hooks get as the tool (or agent): its name.
pub(super) fn tool_info(name: &str) -> JsValue {
    object(&[("name", JsValue::from_str(name))])
}

/// A hook's answer to what was encoded for it: one future type per answer type, shared by the
/// callbacks that answer it (after and on error), instead of one async block per callback.
type Answer<T> = std::pin::Pin<Box<dyn std::future::Future<Output = Result<Option<T>, AdkError>>>>;

fn answer<T: adk_core::json::FromJson + 'static>(
    hook: &JsHook,
    ctx: crate::agent::CallbackContext,
    fields: Result<Vec<(&'static str, JsValue)>, AdkError>,
) -> Answer<T> {
    let hook = hook.clone();
    Box::pin(async move { hook.answer(ctx, Args::Fields(&fields?)).await })
}

/// The model callbacks, each a [`JsHook`] called with `{request | response | error, context}`;
/// the request is read back only if the callback changed it.
fn model_callbacks(options: &LlmAgentOptions, config: &mut LlmAgentConfig) -> Result<(), AdkError> {
    JsHook::each(&options.before_model_callback(), "beforeModelCallback", &mut |hook: JsHook| {
        let callback: BeforeModelCallback = Rc::new(move |ctx, request| {
            let hook = hook.clone();
            Box::pin(async move {
                let lent = InPlace::new(&request)?;
                let response = hook.answer(ctx, Args::Fields(&[("request", lent.js())])).await?;
                Ok((lent.read_back(request, "request after beforeModelCallback")?, response))
            })
        });
        config.before_model_callbacks.push(callback);
    })?;
    JsHook::each(&options.after_model_callback(), "afterModelCallback", &mut |hook: JsHook| {
        let callback: AfterModelCallback = Rc::new(move |ctx, response| {
            answer(&hook, ctx, to_js_core(&response).map(|response| vec![("response", response)]))
        });
        config.after_model_callbacks.push(callback);
    })?;
    JsHook::each(&options.on_model_error_callback(), "onModelErrorCallback", &mut |hook: JsHook| {
        let callback: ModelErrorCallback = Rc::new(move |ctx, request, error| {
            let fields = to_js_core(&request).map(|request| vec![("request", request), ("error", to_js_error(error))]);
            answer(&hook, ctx, fields)
        });
        config.on_model_error_callbacks.push(callback);
    })?;
    Ok(())
}

/// The tool callbacks, each a [`JsHook`] called with `{tool, args, response | error, context}`;
/// the arguments are read back only if the callback changed them.
fn tool_callbacks(options: &LlmAgentOptions, config: &mut LlmAgentConfig) -> Result<(), AdkError> {
    JsHook::each(&options.before_tool_callback(), "beforeToolCallback", &mut |hook: JsHook| {
        let callback: BeforeToolCallback = Rc::new(move |name, args, ctx| {
            let hook = hook.clone();
            Box::pin(async move {
                let lent = InPlace::new(&args)?;
                let result = hook.answer(ctx, Args::Fields(&[("tool", tool_info(&name)), ("args", lent.js())])).await?;
                Ok((lent.read_back(args, "args after beforeToolCallback")?, result))
            })
        });
        config.before_tool_callbacks.push(callback);
    })?;
    JsHook::each(&options.after_tool_callback(), "afterToolCallback", &mut |hook: JsHook| {
        let callback: AfterToolCallback = Rc::new(move |name, args, ctx, response| {
            let fields = (|| {
                Ok(vec![("tool", tool_info(&name)), ("args", to_js_core(&args)?), ("response", to_js_core(&response)?)])
            })();
            answer(&hook, ctx, fields)
        });
        config.after_tool_callbacks.push(callback);
    })?;
    JsHook::each(&options.on_tool_error_callback(), "onToolErrorCallback", &mut |hook: JsHook| {
        let callback: ToolErrorCallback = Rc::new(move |name, args, ctx, error| {
            let fields = to_js_core(&args)
                .map(|args| vec![("tool", tool_info(&name)), ("args", args), ("error", to_js_error(error))]);
            answer(&hook, ctx, fields)
        });
        config.on_tool_error_callbacks.push(callback);
    })?;
    Ok(())
}

/// The planner index.js read from the classes: `'PlanReAct'`, or a `BuiltInPlanner`'s thinking config.
fn planner(value: &JsValue) -> Result<Option<Planner>, AdkError> {
    if value.is_undefined() {
        return Ok(None);
    }
    if value.as_string().is_some() {
        return Ok(Some(Planner::PlanReAct));
    }
    let thinking_config = from_js_core("BuiltInPlanner.thinkingConfig", &prop(value, "thinkingConfig"))?;
    Ok(Some(Planner::BuiltIn { thinking_config }))
}

fn llm_config(
    options: &LlmAgentOptions,
    model: &ModelHandle,
    tools: Vec<ToolHandle>,
) -> Result<LlmAgentConfig, AdkError> {
    let mut config = LlmAgentConfig::new(model.model.clone());
    config.instruction = instruction(&options.instruction(), "instruction")?;
    config.global_instruction = instruction(&options.global_instruction(), "globalInstruction")?;
    config.static_instruction = match options.static_instruction() {
        // An empty one is none, as ADK's `if agent.static_instruction` reads it.
        v if v.as_string().is_some_and(|t| t.is_empty()) => None,
        v if v.as_string().is_some() => {
            Some(Content { parts: Some(vec![crate::Part::from_text(&v.as_string().unwrap_or_default())]), role: None })
        }
        v => optional("staticInstruction", &v)?,
    };
    config.tools = Vec::with_capacity(tools.len());
    for t in tools {
        config.tools.push(t.tool);
    }
    config.output_key = options.output_key().as_string();
    config.output_schema = schema("outputSchema", &options.output_schema())?;
    config.input_schema = schema("inputSchema", &options.input_schema())?;
    config.include_contents = match options.include_contents().as_string().as_deref() {
        None | Some("default") => IncludeContents::Default,
        Some("none") => IncludeContents::None,
        Some(other) => {
            return Err(AdkError::invalid(format!("includeContents: expected 'default' or 'none', got '{other}'")))
        }
    };
    config.generate_content_config =
        optional("generateContentConfig", &options.generate_content_config())?.unwrap_or_default();
    validate_generate_content_config(&config.generate_content_config)?;
    config.code_executor = options.code_executor().is_truthy().then_some(BuiltInCodeExecutor);
    config.planner = planner(&options.planner())?;
    config.disallow_transfer_to_parent = options.disallow_transfer_to_parent().is_truthy();
    config.disallow_transfer_to_peers = options.disallow_transfer_to_peers().is_truthy();
    model_callbacks(options, &mut config)?;
    tool_callbacks(options, &mut config)?;
    Ok(config)
}

#[wasm_bindgen]
impl AgentHandle {
    /// `LlmAgent` from its options, its model and its tools.
    pub fn llm(options: JsValue, model: &ModelHandle, tools: Vec<JsValue>) -> Result<AgentHandle, JsValue> {
        let tools = handles("LlmAgent tools", tools)?;
        let options = LlmAgentOptions::new(options);
        let core = core_from(&options.agent()).map_err(to_js_error)?;
        let config = llm_config(&options, model, tools).map_err(to_js_error)?;
        Ok(AgentHandle::wrap(Rc::new(LlmAgent::new(core, config))))
    }
}
