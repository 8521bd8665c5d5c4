//! Which agent answers the next user message (ADK's `Runner._find_agent_to_run`).

use std::rc::Rc;

use crate::agent::Agent;
use crate::session::{Events, Session};
use crate::Event;

/// The event whose function call the last event answers, if the last event is a function response.
pub fn find_matching_function_call(events: &Events) -> Option<&Event> {
    let mut newest_first = events.iter().rev();
    let id = newest_first.next()?.get_function_responses().first()?.id.clone()?;
    newest_first.find(|e| e.get_function_calls().iter().any(|c| c.id.as_deref() == Some(id.as_str())))
}

/// The agent that called the function the user is answering; else the agent that spoke last, if it
/// (and every agent above it) may transfer back up; else the root.
pub fn find_agent_to_run(session: &Session, root: &Rc<dyn Agent>) -> Rc<dyn Agent> {
    if let Some(agent) = find_matching_function_call(&session.events).and_then(|e| root.find_agent(&e.author)) {
        return agent;
    }
    let spoken = session
        .events
        .iter()
        .rev()
        .filter(|e| e.author != "user" && e.actions.agent_state.is_none() && e.actions.end_of_agent != Some(true));
    for event in spoken {
        if event.author == root.name() {
            return root.clone();
        }
        if let Some(agent) = root.find_sub_agent(&event.author) {
            if is_transferable_across_agent_tree(&agent) {
                return agent;
            }
        }
    }
    root.clone()
}

/// Whether the agent and all its ancestors may transfer to their parents.
fn is_transferable_across_agent_tree(agent: &Rc<dyn Agent>) -> bool {
    let mut current = Some(agent.clone());
    while let Some(agent) = current {
        if agent.disallow_transfer_to_parent() != Some(false) {
            return false;
        }
        current = agent.parent_agent();
    }
    true
}
