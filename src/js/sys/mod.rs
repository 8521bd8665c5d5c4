//! Typed declarations of the protocols JS implements for the SDK to call (services, models,
//! agents) and of the option objects that carry tools and callbacks. Declarations without
//! behaviour; the adapters in `super` are written over these.
//!
//! An object is checked against its protocol once, where it enters (a missing method is an
//! `INVALID_ARGUMENT` naming it); after that every call is a typed method call, or, for the
//! services, a call by name ([`ask`]).

mod agent;
mod model;
mod options;
mod services;

pub use agent::JsAgentObject;
pub use model::{GenerateOptions, JsModelObject};
pub use options::{AgentOptions, FunctionToolOptions, LlmAgentOptions};
pub use services::{append_event, ask, JsArtifactServiceObject, JsMemoryServiceObject, JsSessionServiceObject};

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
