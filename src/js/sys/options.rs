//! Typed views of the option objects JS passes (an agent's, an `LlmAgent`'s, a `FunctionTool`'s):
//! each member declared once, here, and read by one shared `Reflect.get` (a getter that throws,
//! or options that are not an object, read as `undefined`). An `extern` getter per member would
//! cost a JS function and a wasm import each: 1.3 KiB gzip for these 25.

use wasm_bindgen::JsValue;

use crate::platform::interop::prop;

/// A typed view of an options object: `name { member => "jsName", … }`.
macro_rules! options {
    ($(#[$meta:meta])* $name:ident { $( $(#[$fmeta:meta])* $member:ident => $key:literal, )* }) => {
        $(#[$meta])*
        #[derive(Clone)]
        pub struct $name(JsValue);

        impl $name {
            /// A view of `options`.
            pub fn new(options: JsValue) -> Self {
                $name(options)
            }

            $( $(#[$fmeta])* pub fn $member(&self) -> JsValue { prop(&self.0, $key) } )*
        }
    };
}

options! {
    /// `{name, description?, beforeAgentCallback?, afterAgentCallback?, maxIterations?}`.
    AgentOptions {
        /// The agent's name.
        name => "name",
        /// What it does, for other agents' transfer decisions.
        description => "description",
        /// A function or an array of them.
        before_agent_callback => "beforeAgentCallback",
        /// A function or an array of them.
        after_agent_callback => "afterAgentCallback",
        /// `LoopAgent`'s bound on rounds.
        max_iterations => "maxIterations",
    }
}

options! {
    /// `LlmAgent`'s options beyond every agent's.
    LlmAgentOptions {
        /// A string, or a function of the context returning one.
        instruction => "instruction",
        /// Likewise, for the whole tree (ADK's `global_instruction`).
        global_instruction => "globalInstruction",
        /// A string or `Content`, sent as the system instruction as it is.
        static_instruction => "staticInstruction",
        /// The state key the final text is written to.
        output_key => "outputKey",
        /// The JSON Schema of the answer (ADK's `output_schema`).
        output_schema => "outputSchema",
        /// The JSON Schema of what it takes as an `AgentTool` (ADK's `input_schema`).
        input_schema => "inputSchema",
        /// `'default'` or `'none'`.
        include_contents => "includeContents",
        /// Settings passed to the model.
        generate_content_config => "generateContentConfig",
        /// A `BuiltInCodeExecutor` (checked in JS, where the class is).
        code_executor => "codeExecutor",
        /// `'PlanReAct'` or `{thinkingConfig}` (index.js's reading of the planner classes).
        planner => "planner",
        /// No transfer back to the parent.
        disallow_transfer_to_parent => "disallowTransferToParent",
        /// No transfer to the peers.
        disallow_transfer_to_peers => "disallowTransferToPeers",
        /// A model callback: a function or an array of them.
        before_model_callback => "beforeModelCallback",
        /// A model callback.
        after_model_callback => "afterModelCallback",
        /// A model callback.
        on_model_error_callback => "onModelErrorCallback",
        /// A tool callback: a function or an array of them.
        before_tool_callback => "beforeToolCallback",
        /// A tool callback.
        after_tool_callback => "afterToolCallback",
        /// A tool callback.
        on_tool_error_callback => "onToolErrorCallback",
    }
}

impl LlmAgentOptions {
    /// The members every agent has.
    pub fn agent(&self) -> AgentOptions {
        AgentOptions(self.0.clone())
    }
}

options! {
    /// `FunctionTool`'s: `{name, description?, parameters?, execute(args, toolContext), isLongRunning?,
    /// requireConfirmation?}`.
    FunctionToolOptions {
        /// The name the model calls it by.
        name => "name",
        /// What it does, for the model.
        description => "description",
        /// The JSON Schema of its arguments.
        parameters => "parameters",
        /// The function that runs it.
        execute => "execute",
        /// Whether its answer comes later (ADK's long-running tools).
        is_long_running => "isLongRunning",
        /// Whether a call waits for the person's approval: a flag, or `(args, toolContext)` answering one.
        require_confirmation => "requireConfirmation",
    }
}
