//! Typed declarations of the protocols JS implements for the SDK to call: services, models,
//! agents, tools and the option objects that carry them. Declarations without behaviour; the
//! adapters in `super` are written over these.
//!
//! An object is checked against its protocol once, where it enters (a missing method is an
//! `INVALID_ARGUMENT` naming it); after that every call is a typed method call.

mod agent;
mod model;
mod services;
mod tool;

pub use agent::{AgentOptions, JsAgentObject, LlmAgentOptions};
pub use model::{GenerateOptions, JsModelObject};
pub use services::{JsArtifactServiceObject, JsMemoryServiceObject, JsSessionServiceObject};
pub use tool::FunctionToolOptions;

use wasm_bindgen::{JsCast, JsValue};

use crate::platform::interop::method_of;
use crate::{AdkError, ErrorCode};

/// A protocol JS objects implement: the methods the SDK calls on them.
pub trait Protocol: JsCast {
    /// How errors name the object (`sessionService`, `model`, …).
    const NAME: &'static str;
    /// The methods an object must have.
    const METHODS: &'static [&'static str];

    /// `value` as this protocol, or `INVALID_ARGUMENT` naming the first method it lacks.
    fn check(value: JsValue) -> Result<Self, AdkError> {
        match Self::METHODS.iter().find(|m| method_of(&value, m).is_none()) {
            Some(missing) => Err(AdkError::invalid(format!("{}: missing method {missing}()", Self::NAME))),
            None => Ok(value.unchecked_into()),
        }
    }

    /// `UNIMPLEMENTED` unless the object has the optional method `method`.
    fn needs(&self, method: &str) -> Result<(), AdkError> {
        match method_of(self.as_ref(), method) {
            Some(_) => Ok(()),
            None => {
                Err(AdkError::new(ErrorCode::Unimplemented, format!("{}.{method}() is not implemented", Self::NAME)))
            }
        }
    }
}

/// What a getter of these declarations read: a getter that throws (a hostile Proxy, options that
/// are not an object) reads as `undefined`, as `Reflect.get` failing did.
pub fn read(got: Result<JsValue, JsValue>) -> JsValue {
    got.unwrap_or(JsValue::UNDEFINED)
}
