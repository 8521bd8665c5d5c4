//! What the JS toolsets (`MCPToolset`, `OpenAPIToolset`) read the same way, `toolFilter` and
//! `headerProvider`, and the URL check the tools that open URLs share (`loadWebPage` is JS).

use std::rc::Rc;

use wasm_bindgen::prelude::*;

use super::convert::prop;
use super::http_options::header_list;
use super::to_js_error;
use crate::agent::ReadonlyContext;
use crate::tool::toolset::HeaderProvider;
use crate::tool::{Tool, ToolFilter};
use crate::AdkError;

/// `toolFilter`: names, or a predicate of the tool's `{name, description}`.
pub fn tool_filter(what: &str, value: &JsValue) -> Result<Option<ToolFilter>, JsValue> {
    if value.is_undefined() || value.is_null() {
        return Ok(None);
    }
    let expected =
        || to_js_error(AdkError::invalid(format!("{what}: toolFilter: expected names (strings) or a function")));
    let Some(names) = value.dyn_ref::<js_sys::Array>() else {
        return value.dyn_ref::<js_sys::Function>().cloned().map(|f| Some(predicate_filter(f))).ok_or_else(expected);
    };
    // A loop rather than collecting `Option`s: that adapter is code of its own.
    let mut list = Vec::new();
    for name in names.iter() {
        list.push(name.as_string().ok_or_else(expected)?);
    }
    Ok(Some(ToolFilter::Names(list)))
}

/// A filter of the tools `predicate` accepts.
fn predicate_filter(predicate: js_sys::Function) -> ToolFilter {
    let accepts = move |tool: &dyn Tool, _ctx: &ReadonlyContext| {
        let declaration = tool.declaration();
        let described = strings_object(&[("name", &declaration.name), ("description", &declaration.description)]);
        // A predicate that throws selects nothing.
        predicate.call1(&JsValue::UNDEFINED, &described).is_ok_and(|v| v.is_truthy())
    };
    ToolFilter::Predicate(Rc::new(accepts))
}

/// `options.headerProvider`: a function of `{invocationId, agentName, userId, sessionId}` that
/// returns the headers of one request (ADK's `header_provider`, called for each listing and call).
pub fn header_provider(what: &str, options: &JsValue) -> Result<Option<HeaderProvider>, JsValue> {
    let given = prop(options, "headerProvider");
    if given.is_undefined() || given.is_null() {
        return Ok(None);
    }
    let Some(provide) = given.dyn_ref::<js_sys::Function>().cloned() else {
        return Err(to_js_error(AdkError::invalid(format!("{what}: headerProvider: expected a function"))));
    };
    let what = what.to_string();
    let provider = move |ctx: &ReadonlyContext| {
        let headers = provide.call1(&JsValue::UNDEFINED, &context_object(ctx)).map_err(|e| {
            let message = crate::platform::interop::js_error_to_core(&e).message;
            AdkError::invalid(format!("{what} headerProvider threw: {message}"))
        })?;
        header_list(&format!("{what} headerProvider"), &headers)
    };
    Ok(Some(Rc::new(provider)))
}

/// The context a toolset's callbacks get: `{invocationId, agentName, userId, sessionId}`.
pub fn context_object(ctx: &ReadonlyContext) -> js_sys::Object {
    strings_object(&[
        ("invocationId", ctx.invocation_id()),
        ("agentName", ctx.agent_name()),
        ("userId", &ctx.user_id()),
        ("sessionId", &ctx.session_id()),
    ])
}

/// A plain object of string fields, for the callbacks above.
fn strings_object(fields: &[(&str, &str)]) -> js_sys::Object {
    let object = js_sys::Object::new();
    for (key, value) in fields {
        // Setting a field of a fresh plain object cannot fail.
        let _ = js_sys::Reflect::set(&object, &(*key).into(), &(*value).into());
    }
    object
}
