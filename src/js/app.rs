//! `App` for JS (ADK's `App`): the name and root agent checked as ADK checks them, and when the
//! app's sessions are compacted, with the summarizer (`LlmEventSummarizer` over any model) that
//! writes the summaries. A runner given the app (`useApp`) compacts as it says.

use std::rc::Rc;

use wasm_bindgen::prelude::*;

use super::convert::from_js_core;
use super::llm::ModelHandle;
use super::to_js_error;
use crate::apps::{validate_app_name, BaseEventsSummarizer, EventsCompactionConfig, LlmEventSummarizer};

adk_core::json_struct! {
    /// `eventsCompactionConfig` without its summarizer, which comes as a handle.
    struct CompactionOptions {
        compaction_interval: Option<i64> => "compactionInterval" opt,
        overlap_size: Option<i64> => "overlapSize" opt,
        token_threshold: Option<i64> => "tokenThreshold" opt,
        event_retention_size: Option<i64> => "eventRetentionSize" opt,
    }
}

/// What writes compaction summaries; `LlmEventSummarizer` holds one.
#[wasm_bindgen]
pub struct SummarizerHandle {
    summarizer: Rc<dyn BaseEventsSummarizer>,
}

#[wasm_bindgen]
impl SummarizerHandle {
    /// ADK's `LlmEventSummarizer(llm, prompt_template)`.
    pub fn llm(model: &ModelHandle, prompt_template: Option<String>) -> Result<SummarizerHandle, JsValue> {
        let summarizer = LlmEventSummarizer::new(model.base_llm(), prompt_template.as_deref()).map_err(to_js_error)?;
        Ok(SummarizerHandle { summarizer: Rc::new(summarizer) })
    }
}

/// An app's settings, checked when it is made.
#[wasm_bindgen]
pub struct AppHandle {
    compaction: Option<EventsCompactionConfig>,
}

impl AppHandle {
    /// The compaction the app's runners run, if any.
    pub fn events_compaction_config(&self) -> Option<Rc<EventsCompactionConfig>> {
        self.compaction.clone().map(Rc::new)
    }
}

#[wasm_bindgen]
impl AppHandle {
    /// `new App({name, eventsCompactionConfig})` (the root agent stays in JS): fails as ADK does on
    /// a bad name or a compaction config ADK refuses (`INVALID_ARGUMENT`, ADK's message).
    #[wasm_bindgen(constructor)]
    pub fn new(name: String, compaction: JsValue) -> Result<AppHandle, JsValue> {
        validate_app_name(&name).map_err(to_js_error)?;
        if compaction.is_undefined() || compaction.is_null() {
            return Ok(AppHandle { compaction: None });
        }
        let options: CompactionOptions = from_js_core("eventsCompactionConfig", &compaction).map_err(to_js_error)?;
        let config = EventsCompactionConfig {
            summarizer: None,
            compaction_interval: options.compaction_interval,
            overlap_size: options.overlap_size,
            token_threshold: options.token_threshold,
            event_retention_size: options.event_retention_size,
        };
        config.validate().map_err(to_js_error)?;
        Ok(AppHandle { compaction: Some(config) })
    }

    /// The compaction's `summarizer` (without one, the root agent's model summarizes).
    #[wasm_bindgen(js_name = useSummarizer)]
    pub fn use_summarizer(&mut self, summarizer: &SummarizerHandle) {
        if let Some(config) = &mut self.compaction {
            config.summarizer = Some(summarizer.summarizer.clone());
        }
    }
}
