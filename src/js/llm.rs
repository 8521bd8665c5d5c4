//! `LlmAgent`, models and tools for JS: the scripted model, models written in JS, function tools,
//! and the model/tool callbacks.

use std::rc::Rc;

use serde_json::Value;
use wasm_bindgen::prelude::*;

use adk_core::limits::Limit;
use futures_util::StreamExt;

use super::agent::{core_from, AgentHandle};
use super::context::JsContext;
use super::convert::{
    call, from_js_core, from_js_within, js_error_to_core, method_of, object, prop, resolve, to_js_core,
};
use super::to_js_error;
use crate::agent::llm::{
    validate_generate_content_config, AfterModelCallback, AfterToolCallback, BeforeModelCallback, BeforeToolCallback,
    ModelErrorCallback, ToolErrorCallback,
};
use crate::agent::{Cancellation, IncludeContents, Instruction, LlmAgent, LlmAgentConfig, ReadonlyContext};
use crate::model::scripted::ScriptedTurn;
use crate::model::{BaseLlm, LlmRequest, LlmResponseStream, ScriptedModel, StreamingAggregator};
use crate::platform::callback::JsCallback;
use crate::platform::iter::JsStream;
use crate::tool::{AgentTool, ExitLoopTool, FunctionTool, LoadMemoryTool, PreloadMemoryTool, Tool};
use crate::types::{Content, JsonObject};
use crate::{AdkError, ErrorCode, LlmResponse};

fn optional<T: adk_core::json::FromJson>(what: &str, value: &JsValue) -> Result<Option<T>, AdkError> {
    if value.is_undefined() || value.is_null() {
        Ok(None)
    } else {
        from_js_core(what, value).map(Some)
    }
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
}

#[wasm_bindgen]
impl ModelHandle {
    /// `ScriptedModel`: each entry answers one call — a string (text), an `LlmResponse`-shaped
    /// object, or `{chunks: [...]}` streamed as partial events and then one complete response.
    pub fn scripted(turns: JsValue) -> Result<ModelHandle, JsValue> {
        if !js_sys::Array::is_array(&turns) {
            return Err(to_js_error(AdkError::invalid("ScriptedModel: expected an array of responses")));
        }
        let turns = js_sys::Array::from(&turns);
        let turns = turns
            .iter()
            .enumerate()
            .map(|(i, t)| scripted_turn(i, &t))
            .collect::<Result<Vec<_>, _>>()
            .map_err(to_js_error)?;
        let model = Rc::new(ScriptedModel::new(turns));
        Ok(ModelHandle { model: model.clone(), scripted: Some(model) })
    }

    /// A model written in JS: `object.generateContent(request, {stream, signal})` returning an
    /// `LlmResponse`, a Promise of one, or an (async) iterable of them.
    #[wasm_bindgen(js_name = fromJs)]
    pub fn from_js(object: JsValue) -> Result<ModelHandle, JsValue> {
        if method_of(&object, "generateContent").is_none() {
            return Err(to_js_error(AdkError::invalid(
                "model: expected an object with generateContent(request, {stream, signal})",
            )));
        }
        let name = prop(&object, "model").as_string().unwrap_or_else(|| "js-model".into());
        Ok(ModelHandle::wrap(Rc::new(JsModel { object, name })))
    }

    /// The requests a `ScriptedModel` has received.
    pub fn requests(&self) -> Result<JsValue, JsValue> {
        match &self.scripted {
            Some(m) => to_js_core(&m.requests()).map_err(to_js_error),
            None => Ok(js_sys::Array::new().into()),
        }
    }
}

fn scripted_turn(index: usize, value: &JsValue) -> Result<ScriptedTurn, AdkError> {
    let what = format!("ScriptedModel response {index}");
    if let Some(text) = value.as_string() {
        return Ok(ScriptedTurn::Response(Box::new(LlmResponse::from_parts(vec![crate::Part::from_text(&text)]))));
    }
    let chunks = prop(value, "chunks");
    if js_sys::Array::is_array(&chunks) {
        let chunks = js_sys::Array::from(&chunks)
            .iter()
            .map(|c| match c.as_string() {
                Some(t) => Ok(LlmResponse::from_parts(vec![crate::Part::from_text(&t)])),
                None => from_js_core(&what, &c),
            })
            .collect::<Result<Vec<_>, _>>()?;
        return Ok(ScriptedTurn::Chunks(chunks));
    }
    Ok(ScriptedTurn::Response(Box::new(from_js_core(&what, value)?)))
}

/// A model whose `generateContent` is JS (WebLLM, transformers.js, an app's proxy, …).
struct JsModel {
    object: JsValue,
    name: String,
}

impl BaseLlm for JsModel {
    fn model(&self) -> &str {
        &self.name
    }

    fn generate_content(&self, request: LlmRequest, stream: bool, cancellation: Rc<Cancellation>) -> LlmResponseStream {
        let model = self.object.clone();
        Box::pin(async_stream::try_stream! {
            let controller = web_sys::AbortController::new().map_err(|e| js_error_to_core(&e))?;
            let on_cancel = controller.clone();
            cancellation.on_cancel(move || on_cancel.abort());
            let options = object(&[("stream", JsValue::from_bool(stream)), ("signal", controller.signal().into())]);
            let f = method_of(&model, "generateContent").ok_or_else(|| AdkError::invalid("model: generateContent() is gone"))?;
            let result = call(&f, &model, &[to_js_core(&request)?, options])?;
            let iterator = [js_sys::Symbol::async_iterator(), js_sys::Symbol::iterator()].into_iter().find_map(|symbol| {
                js_sys::Reflect::get(&result, &symbol).ok().and_then(|f| f.dyn_into::<js_sys::Function>().ok())
            });
            match iterator {
                None => {
                    yield model_response(&resolve(result).await?)?.0;
                }
                Some(make) => {
                    let mut values = JsStream::iterator(call(&make, &result, &[])?)?;
                    let mut aggregator = StreamingAggregator::new();
                    let mut complete = None;
                    while let Some(value) = values.next().await {
                        let (response, over) = model_response(&value?)?;
                        if over {
                            complete = Some(response);
                            break;
                        }
                        if response.partial == Some(true) {
                            let partial = aggregator.add(response);
                            if stream {
                                yield partial;
                            }
                        } else {
                            complete = Some(response);
                        }
                    }
                    if let Some(whole) = complete.or_else(|| aggregator.finish()) {
                        yield whole;
                    }
                }
            }
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
    tool: Rc<dyn Tool>,
}

#[wasm_bindgen]
impl ToolHandle {
    /// `FunctionTool` from `{name, description, parameters, execute(args, toolContext), isLongRunning}`.
    pub fn function(options: JsValue) -> Result<ToolHandle, JsValue> {
        let name = prop(&options, "name")
            .as_string()
            .ok_or_else(|| to_js_error(AdkError::invalid("FunctionTool: name: expected a string")))?;
        let description = prop(&options, "description").as_string().unwrap_or_default();
        let parameters: Option<Value> =
            optional("FunctionTool parameters", &prop(&options, "parameters")).map_err(to_js_error)?;
        let execute: js_sys::Function = prop(&options, "execute").dyn_into().map_err(|_| {
            to_js_error(AdkError::invalid(format!("FunctionTool `{name}`: execute must be a function")))
        })?;
        let execute = JsCallback::new(execute);
        let long_running = prop(&options, "isLongRunning").is_truthy();
        let function = Rc::new(move |args: JsonObject, ctx: crate::agent::ToolContext| {
            let execute = execute.clone();
            Box::pin(async move {
                let (js_ctx, _lease) = JsContext::lend(ctx);
                let result = execute.call(&[to_js_core(&args)?, js_ctx]).await?;
                if result.is_undefined() {
                    return Ok(Value::Null);
                }
                match from_js_within::<Value>("tool result", &result, Limit::tool_result()) {
                    // Too large for the model anyway: it hears why instead, and the run goes on.
                    Err(e) if e.code == ErrorCode::ResourceExhausted => {
                        Ok(Value::Object([("error".to_string(), Value::String(e.message))].into_iter().collect()))
                    }
                    answer => answer,
                }
            }) as std::pin::Pin<Box<dyn std::future::Future<Output = Result<Value, AdkError>>>>
        });
        Ok(ToolHandle {
            tool: Rc::new(FunctionTool::new(&name, &description, parameters, function).long_running(long_running)),
        })
    }

    /// ADK's `exit_loop` tool.
    #[wasm_bindgen(js_name = exitLoop)]
    pub fn exit_loop() -> ToolHandle {
        ToolHandle { tool: Rc::new(ExitLoopTool) }
    }

    /// ADK's `PreloadMemoryTool`: recalls the user's memories for every model call.
    #[wasm_bindgen(js_name = preloadMemory)]
    pub fn preload_memory() -> ToolHandle {
        ToolHandle { tool: Rc::new(PreloadMemoryTool) }
    }

    /// ADK's `load_memory` tool: the model searches the user's memories.
    #[wasm_bindgen(js_name = loadMemory)]
    pub fn load_memory() -> ToolHandle {
        ToolHandle { tool: Rc::new(LoadMemoryTool) }
    }

    /// ADK's `AgentTool`: `agent` answers the model's `request` in a session of its own.
    pub fn agent(agent: &super::agent::AgentHandle, skip_summarization: bool) -> ToolHandle {
        ToolHandle { tool: Rc::new(AgentTool::new(agent.agent()).skip_summarization(skip_summarization)) }
    }

    /// The tool's name.
    #[wasm_bindgen(getter)]
    pub fn name(&self) -> String {
        self.tool.name().to_string()
    }
}

fn instruction(value: &JsValue, what: &str) -> Result<Instruction, AdkError> {
    if value.is_undefined() || value.is_null() {
        return Ok(Instruction::None);
    }
    if let Some(text) = value.as_string() {
        return Ok(Instruction::Text(text));
    }
    let f: js_sys::Function =
        value.clone().dyn_into().map_err(|_| AdkError::invalid(format!("{what}: expected a string or a function")))?;
    let (f, what) = (JsCallback::new(f), what.to_string());
    Ok(Instruction::Provider(Rc::new(move |ctx: ReadonlyContext| {
        let (f, what) = (f.clone(), what.clone());
        Box::pin(async move {
            let (js_ctx, _lease) =
                JsContext::lend(crate::agent::CallbackContext::new(ctx.invocation_context().clone()));
            let text = f.call(&[js_ctx]).await?;
            text.as_string().ok_or_else(|| AdkError::invalid(format!("{what}: the function must return a string")))
        })
    })))
}

/// Calls a model or tool callback with `fields` plus its `context` (lent for the call) and reads
/// what it answers: `undefined`/`null` means "no change".
async fn answer<T: adk_core::json::FromJson>(
    f: &JsCallback,
    ctx: crate::agent::CallbackContext,
    fields: &[(&str, JsValue)],
    what: &str,
) -> Result<Option<T>, AdkError> {
    let (js_ctx, _lease) = JsContext::lend(ctx);
    let args = object(&[fields, &[("context", js_ctx)]].concat());
    f.call_optional(&[args]).await?.map(|answer| from_js_core(what, &answer)).transpose()
}

fn tool_info(name: &str) -> JsValue {
    object(&[("name", JsValue::from_str(name))])
}

fn model_callbacks(options: &JsValue, config: &mut LlmAgentConfig) -> Result<(), AdkError> {
    for f in JsCallback::list(&prop(options, "beforeModelCallback"), "beforeModelCallback")? {
        let cb: BeforeModelCallback = Rc::new(move |ctx, request| {
            let f = f.clone();
            Box::pin(async move {
                let request_js = to_js_core(&request)?;
                let response =
                    answer(&f, ctx, &[("request", request_js.clone())], "beforeModelCallback result").await?;
                // The callback may have changed the request in place, as in ADK.
                let request: LlmRequest = from_js_core("request after beforeModelCallback", &request_js)?;
                Ok((request, response))
            })
        });
        config.before_model_callbacks.push(cb);
    }
    for f in JsCallback::list(&prop(options, "afterModelCallback"), "afterModelCallback")? {
        let cb: AfterModelCallback = Rc::new(move |ctx, response| {
            let f = f.clone();
            Box::pin(async move {
                answer(&f, ctx, &[("response", to_js_core(&response)?)], "afterModelCallback result").await
            })
        });
        config.after_model_callbacks.push(cb);
    }
    for f in JsCallback::list(&prop(options, "onModelErrorCallback"), "onModelErrorCallback")? {
        let cb: ModelErrorCallback = Rc::new(move |ctx, request, error| {
            let f = f.clone();
            Box::pin(async move {
                let fields = [("request", to_js_core(&request)?), ("error", to_js_error(error))];
                answer(&f, ctx, &fields, "onModelErrorCallback result").await
            })
        });
        config.on_model_error_callbacks.push(cb);
    }
    Ok(())
}

fn tool_callbacks(options: &JsValue, config: &mut LlmAgentConfig) -> Result<(), AdkError> {
    for f in JsCallback::list(&prop(options, "beforeToolCallback"), "beforeToolCallback")? {
        let cb: BeforeToolCallback = Rc::new(move |name, args, ctx| {
            let f = f.clone();
            Box::pin(async move {
                let args_js = to_js_core(&args)?;
                let fields = [("tool", tool_info(&name)), ("args", args_js.clone())];
                let result = answer(&f, ctx, &fields, "beforeToolCallback result").await?;
                // The callback may have changed the arguments in place, as in ADK.
                let args: JsonObject = from_js_core("args after beforeToolCallback", &args_js)?;
                Ok((args, result))
            })
        });
        config.before_tool_callbacks.push(cb);
    }
    for f in JsCallback::list(&prop(options, "afterToolCallback"), "afterToolCallback")? {
        let cb: AfterToolCallback = Rc::new(move |name, args, ctx, response| {
            let f = f.clone();
            Box::pin(async move {
                let fields =
                    [("tool", tool_info(&name)), ("args", to_js_core(&args)?), ("response", to_js_core(&response)?)];
                answer(&f, ctx, &fields, "afterToolCallback result").await
            })
        });
        config.after_tool_callbacks.push(cb);
    }
    for f in JsCallback::list(&prop(options, "onToolErrorCallback"), "onToolErrorCallback")? {
        let cb: ToolErrorCallback = Rc::new(move |name, args, ctx, error| {
            let f = f.clone();
            Box::pin(async move {
                let fields = [("tool", tool_info(&name)), ("args", to_js_core(&args)?), ("error", to_js_error(error))];
                answer(&f, ctx, &fields, "onToolErrorCallback result").await
            })
        });
        config.on_tool_error_callbacks.push(cb);
    }
    Ok(())
}

fn llm_config(options: &JsValue, model: &ModelHandle, tools: Vec<ToolHandle>) -> Result<LlmAgentConfig, AdkError> {
    let mut config = LlmAgentConfig::new(model.model.clone());
    config.instruction = instruction(&prop(options, "instruction"), "instruction")?;
    config.global_instruction = instruction(&prop(options, "globalInstruction"), "globalInstruction")?;
    config.static_instruction = match prop(options, "staticInstruction") {
        // An empty one is none, as ADK's `if agent.static_instruction` reads it.
        v if v.as_string().is_some_and(|t| t.is_empty()) => None,
        v if v.as_string().is_some() => {
            Some(Content { parts: Some(vec![crate::Part::from_text(&v.as_string().unwrap_or_default())]), role: None })
        }
        v => optional("staticInstruction", &v)?,
    };
    config.tools = tools.into_iter().map(|t| t.tool).collect();
    config.output_key = prop(options, "outputKey").as_string();
    config.include_contents = match prop(options, "includeContents").as_string().as_deref() {
        None | Some("default") => IncludeContents::Default,
        Some("none") => IncludeContents::None,
        Some(other) => {
            return Err(AdkError::invalid(format!("includeContents: expected 'default' or 'none', got '{other}'")))
        }
    };
    config.generate_content_config =
        optional("generateContentConfig", &prop(options, "generateContentConfig"))?.unwrap_or_default();
    validate_generate_content_config(&config.generate_content_config)?;
    config.disallow_transfer_to_parent = prop(options, "disallowTransferToParent").is_truthy();
    config.disallow_transfer_to_peers = prop(options, "disallowTransferToPeers").is_truthy();
    model_callbacks(options, &mut config)?;
    tool_callbacks(options, &mut config)?;
    Ok(config)
}

#[wasm_bindgen]
impl AgentHandle {
    /// `LlmAgent` from its options, its model and its tools.
    pub fn llm(options: JsValue, model: &ModelHandle, tools: Vec<ToolHandle>) -> Result<AgentHandle, JsValue> {
        let core = core_from(&options).map_err(to_js_error)?;
        let config = llm_config(&options, model, tools).map_err(to_js_error)?;
        Ok(AgentHandle::wrap(Rc::new(LlmAgent::new(core, config))))
    }
}
