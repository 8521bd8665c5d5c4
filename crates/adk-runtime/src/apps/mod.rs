//! An app (ADK's `App`): the root agent under a name, with what applies to the whole app: for
//! now, when its sessions are compacted. A runner made from it (`Runner::from_app`) runs that.

mod compaction;
mod config;
mod summarizer;
mod tokens;
mod window;

use std::rc::Rc;

use crate::agent::{Agent, Plugin, PluginManager};
use crate::AdkError;

pub(crate) use compaction::{compact_after_invocation, compaction_before_model};
pub use config::EventsCompactionConfig;
pub use summarizer::{
    format_events_for_prompt, BaseEventsSummarizer, LlmEventSummarizer, SummaryFuture, DEFAULT_PROMPT_TEMPLATE,
};

/// ADK's check of an app name: a letter, then letters, digits, `_` or `-`; not `user`.
pub fn validate_app_name(name: &str) -> Result<(), AdkError> {
    let mut chars = name.chars();
    let valid = chars.next().is_some_and(|c| c.is_ascii_alphabetic())
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-');
    if !valid {
        return Err(AdkError::invalid(format!(
            "Invalid app name '{name}': must start with a letter and can only consist of letters, digits, underscores, \
             and hyphens."
        )));
    }
    if name == "user" {
        return Err(AdkError::invalid("App name cannot be 'user'; reserved for end-user input."));
    }
    Ok(())
}

/// An LLM-backed agentic application (ADK's `App`).
#[derive(Clone)]
pub struct App {
    /// The app's name.
    pub name: String,
    /// Where every run starts.
    pub root_agent: Rc<dyn Agent>,
    /// When the app's sessions are compacted; never without one.
    pub events_compaction_config: Option<Rc<EventsCompactionConfig>>,
    /// What every run of the app goes through (ADK's `App.plugins`).
    pub plugins: PluginManager,
}

impl App {
    /// An app named `name` (checked as ADK checks it) running `root_agent`.
    pub fn new(name: &str, root_agent: Rc<dyn Agent>) -> Result<Self, AdkError> {
        validate_app_name(name)?;
        Ok(App {
            name: name.to_string(),
            root_agent,
            events_compaction_config: None,
            plugins: PluginManager::default(),
        })
    }

    /// The app's plugins, in order; two of one name are refused, as ADK refuses them.
    pub fn with_plugins(mut self, plugins: Vec<Rc<dyn Plugin>>) -> Result<Self, AdkError> {
        self.plugins = PluginManager::new(plugins)?;
        Ok(self)
    }

    /// Compacts the app's sessions as `config` says, once checked as ADK checks it.
    pub fn with_events_compaction_config(mut self, config: EventsCompactionConfig) -> Result<Self, AdkError> {
        config.validate()?;
        self.events_compaction_config = Some(Rc::new(config));
        Ok(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn app_names_as_adk_checks_them() {
        for good in ["a", "my-app_2", "Z9"] {
            assert!(validate_app_name(good).is_ok(), "{good}");
        }
        for bad in ["", "1app", "my app", "é", "_x", "a.b"] {
            let e = validate_app_name(bad).unwrap_err();
            assert!(e.message.contains("must start with a letter"), "{bad}: {}", e.message);
        }
        assert_eq!(
            validate_app_name("user").unwrap_err().message,
            "App name cannot be 'user'; reserved for end-user input."
        );
    }
}
