//! The agent layer: the `Agent` trait (ADK's `BaseAgent`), the tree, the contexts an invocation
//! gives agents, callbacks and tools, and `RunConfig`. The agents themselves are in [`crate::agents`].

mod callback;
mod context;
mod plugins;
mod run_config;

use adk_core::cell::Lend;
use std::any::Any;
use std::cell::RefCell;
use std::pin::Pin;
use std::rc::{Rc, Weak};

use futures_core::Stream;
use futures_util::StreamExt;

use crate::or_break::or_break;
use crate::types::Content;
use crate::{AdkError, Event};

pub use callback::{AgentCallback, CallbackFuture};
pub use context::{
    CallbackContext, Cancellation, CompactBeforeModel, Invocation, InvocationContext, ReadonlyContext, State,
    ToolContext,
};
pub use plugins::{Plugin, PluginManager};
pub use run_config::{RunConfig, StreamingMode};

/// The events an agent produces, pulled one at a time: an agent does not go on until its last
/// event has been taken (and, under a runner, appended to the session). Dropping it stops the agent.
pub type EventStream = Pin<Box<dyn Stream<Item = Result<Event, AdkError>>>>;

/// What every agent has: a name, a description, its place in the tree, and its callbacks.
pub struct AgentCore {
    name: String,
    description: String,
    sub_agents: RefCell<Vec<Rc<dyn Agent>>>,
    parent: RefCell<Option<Weak<dyn Agent>>>,
    before_agent_callbacks: Vec<AgentCallback>,
    after_agent_callbacks: Vec<AgentCallback>,
}

impl AgentCore {
    /// A core for an agent named `name`: an identifier that is not `user`.
    pub fn new(name: &str, description: &str) -> Result<Self, AdkError> {
        validate_name(name)?;
        Ok(AgentCore {
            name: name.to_string(),
            description: description.to_string(),
            sub_agents: RefCell::new(Vec::new()),
            parent: RefCell::new(None),
            before_agent_callbacks: Vec::new(),
            after_agent_callbacks: Vec::new(),
        })
    }

    /// The agent's name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The direct sub-agents, in order.
    pub fn sub_agents(&self) -> Vec<Rc<dyn Agent>> {
        self.sub_agents.lend().clone()
    }

    /// Adds callbacks run before the agent; the first to return content skips the agent.
    pub fn with_before_agent_callbacks(mut self, callbacks: Vec<AgentCallback>) -> Self {
        self.before_agent_callbacks = callbacks;
        self
    }

    /// Adds callbacks run after the agent; the first to return content adds a reply.
    pub fn with_after_agent_callbacks(mut self, callbacks: Vec<AgentCallback>) -> Self {
        self.after_agent_callbacks = callbacks;
        self
    }
}

/// Gives every agent `as_any`, so a layer above can recognise its own agents in the tree (an
/// `LlmAgent` reads its root's global instruction) without this layer knowing them.
pub trait AsAny: Any {
    /// `self` as `Any`.
    fn as_any(&self) -> &dyn Any;
}

impl<T: Any> AsAny for T {
    fn as_any(&self) -> &dyn Any {
        self
    }
}

/// ADK's `BaseAgent`. Implementors give their core and their own run (`_run_async_impl`);
/// [`run_agent`] adds the callbacks around it.
pub trait Agent: AsAny {
    /// Name, description, tree and callbacks.
    fn core(&self) -> &AgentCore;

    /// The agent's own work (ADK's `_run_async_impl`).
    fn run_impl(self: Rc<Self>, ctx: InvocationContext) -> EventStream;

    /// `Some(disallow_transfer_to_parent)` for agents that can take part in transfers (LLM agents);
    /// `None` for the others, which the runner never routes a conversation back to.
    fn disallow_transfer_to_parent(&self) -> Option<bool> {
        None
    }
}

impl dyn Agent {
    /// The agent's name.
    pub fn name(&self) -> &str {
        &self.core().name
    }

    /// What the agent does, for other agents deciding on transfers.
    pub fn description(&self) -> &str {
        &self.core().description
    }

    /// The direct sub-agents.
    pub fn sub_agents(&self) -> Vec<Rc<dyn Agent>> {
        self.core().sub_agents()
    }

    /// The agent this one is a sub-agent of.
    pub fn parent_agent(&self) -> Option<Rc<dyn Agent>> {
        self.core().parent.lend().as_ref().and_then(Weak::upgrade)
    }

    /// The top of the tree.
    pub fn root_agent(self: &Rc<Self>) -> Rc<dyn Agent> {
        let mut agent = self.clone();
        while let Some(parent) = agent.parent_agent() {
            agent = parent;
        }
        agent
    }

    /// This agent or a descendant named `name`.
    pub fn find_agent(self: &Rc<Self>, name: &str) -> Option<Rc<dyn Agent>> {
        if self.name() == name {
            return Some(self.clone());
        }
        self.find_sub_agent(name)
    }

    /// A descendant named `name`.
    pub fn find_sub_agent(&self, name: &str) -> Option<Rc<dyn Agent>> {
        self.sub_agents().iter().find_map(|sub| sub.find_agent(name))
    }
}

/// Makes `child` a sub-agent of `parent`; an agent has at most one parent.
pub fn add_sub_agent(parent: &Rc<dyn Agent>, child: Rc<dyn Agent>) -> Result<(), AdkError> {
    if let Some(existing) = child.parent_agent() {
        return Err(AdkError::invalid(format!(
            "Agent `{}` already has a parent agent, current parent: `{}`, trying to add: `{}`",
            child.name(),
            existing.name(),
            parent.name()
        )));
    }
    if Rc::ptr_eq(parent, &child) || child.find_agent(parent.name()).is_some_and(|a| Rc::ptr_eq(&a, parent)) {
        return Err(AdkError::invalid(format!("Agent `{}` cannot be its own descendant", parent.name())));
    }
    if parent.sub_agents().iter().any(|s| s.name() == child.name()) {
        return Err(AdkError::invalid(format!(
            "Agent `{}` already has a sub-agent named `{}`; sub-agent names must be unique",
            parent.name(),
            child.name()
        )));
    }
    *child.core().parent.lend_mut() = Some(Rc::downgrade(parent));
    parent.core().sub_agents.lend_mut().push(child);
    Ok(())
}

/// Gives `agent` its sub-agents, in order, and returns it.
pub fn with_sub_agents(agent: Rc<dyn Agent>, sub_agents: Vec<Rc<dyn Agent>>) -> Result<Rc<dyn Agent>, AdkError> {
    for sub in sub_agents {
        add_sub_agent(&agent, sub)?;
    }
    Ok(agent)
}

/// An agent name must be a Python identifier (letters, digits, `_`, not starting with a digit) and
/// not `user`, which is reserved for the end user.
pub fn validate_name(name: &str) -> Result<(), AdkError> {
    let mut chars = name.chars();
    let valid =
        chars.next().is_some_and(|c| c == '_' || c.is_alphabetic()) && chars.all(|c| c == '_' || c.is_alphanumeric());
    if !valid {
        return Err(AdkError::invalid(format!(
            "Found invalid agent name: `{name}`. Agent name must be a valid identifier. It should start with a \
             letter (a-z, A-Z) or an underscore (_), and can only contain letters, digits (0-9), and underscores."
        )));
    }
    if name == "user" {
        return Err(AdkError::invalid("Agent name cannot be `user`. `user` is reserved for end-user's input."));
    }
    Ok(())
}

/// Runs `agent` as ADK's `BaseAgent.run_async`: before-agent plugins and callbacks (content skips
/// the agent and ends its invocation context), the agent's own run, then after-agent plugins and
/// callbacks (content adds a reply). A callback that only changed state yields a state-only event.
pub fn run_agent(agent: Rc<dyn Agent>, parent: &InvocationContext) -> EventStream {
    let ctx = parent.for_agent(agent.clone());
    Box::pin(async_stream::try_stream! {
        // The agent's own events: out here, so that an error is yielded while they live (a stopped
        // run's signals fire before its work in flight is dropped; see `or_break!`).
        let mut events: Option<EventStream> = None;
        // Errors leave the block here and are yielded once, below.
        let failed: Result<(), AdkError> = 'run: {
            let before = callback::run_callbacks(&agent.core().before_agent_callbacks, &ctx, true);
            if let Some(event) = or_break!('run, before.await) {
                yield event;
            }
            if !ctx.end_invocation() {
                let events = events.insert(agent.clone().run_impl(ctx.clone()));
                while let Some(event) = events.next().await {
                    yield or_break!('run, event);
                }
                if !ctx.end_invocation() {
                    let after = callback::run_callbacks(&agent.core().after_agent_callbacks, &ctx, false);
                    if let Some(event) = or_break!('run, after.await) {
                        yield event;
                    }
                }
            }
            Ok(())
        };
        failed?;
    })
}

/// An event authored by the context's agent, on its branch and invocation.
pub fn agent_event(ctx: &InvocationContext, content: Option<Content>) -> Event {
    let mut event = Event::new(ctx.agent_name());
    event.invocation_id = ctx.invocation_id().to_string();
    event.branch = ctx.branch().map(str::to_string);
    event.content = content;
    event
}
