//! ADK's `PlanReActPlanner`: the model is told to write a plan, reasoning and actions under tags,
//! and its tagged texts become thoughts, so that only the final answer reads as the answer.

use crate::types::Part;

const PLANNING_TAG: &str = "/*PLANNING*/";
const REPLANNING_TAG: &str = "/*REPLANNING*/";
const REASONING_TAG: &str = "/*REASONING*/";
const ACTION_TAG: &str = "/*ACTION*/";
const FINAL_ANSWER_TAG: &str = "/*FINAL_ANSWER*/";

/// The tags a thought starts with, in the order ADK strips them.
const PLANNING_TAGS: [&str; 4] = [PLANNING_TAG, REASONING_TAG, ACTION_TAG, REPLANNING_TAG];

/// ADK's `_build_nl_planner_instruction`, to the character: its six preambles joined by a blank
/// line, each starting and ending with a line break.
pub(super) const PLANNING_INSTRUCTION: &str = r#"
When answering the question, try to leverage the available tools to gather the information instead of your memorized knowledge.

Follow this process when answering the question: (1) first come up with a plan in natural language text format; (2) Then use tools to execute the plan and provide reasoning between tool code snippets to make a summary of current state and next step. Tool code snippets and reasoning should be interleaved with each other. (3) In the end, return one final answer.

Follow this format when answering the question: (1) The planning part should be under /*PLANNING*/. (2) The tool code snippets should be under /*ACTION*/, and the reasoning parts should be under /*REASONING*/. (3) The final answer part should be under /*FINAL_ANSWER*/.



Below are the requirements for the planning:
The plan is made to answer the user query if following the plan. The plan is coherent and covers all aspects of information from user query, and only involves the tools that are accessible by the agent. The plan contains the decomposed steps as a numbered list where each step should use one or multiple available tools. By reading the plan, you can intuitively know which tools to trigger or what actions to take.
If the initial plan cannot be successfully executed, you should learn from previous execution results and revise your plan. The revised plan should be under /*REPLANNING*/. Then use tools to follow the new plan.



Below are the requirements for the reasoning:
The reasoning makes a summary of the current trajectory based on the user query and tool outputs. Based on the tool outputs and plan, the reasoning also comes up with instructions to the next steps, making the trajectory closer to the final answer.



Below are the requirements for the final answer:
The final answer should be precise and follow query formatting requirements. Some queries may not be answerable with the available tools and information. In those cases, inform the user why you cannot process their query and ask for more information.



Below are the requirements for the tool code:

**Custom Tools:** The available tools are described in the context and can be directly used.
- Code must be valid self-contained Python snippets with no imports and no references to tools or Python libraries that are not in the context.
- You cannot use any parameters or fields that are not explicitly defined in the APIs in the context.
- The code snippets should be readable, efficient, and directly relevant to the user query and reasoning steps.
- When using the tools, you should use the library name together with the function name, e.g., vertex_search.search().
- If Python libraries are not provided in the context, NEVER write your own code other than the function calls using the provided tools.



VERY IMPORTANT instruction that you MUST follow in addition to the above instructions:

You should ask for clarification if you need more information to answer the question.
You should prefer using the information available in the context instead of repeated tool use.
"#;

/// ADK 2.x's `process_planning_response`: texts before the first named call are split into thoughts
/// and answers, then the call and the calls right after it are kept; anything after those (text the
/// model wrote past its calls) and unnamed calls go. An empty result leaves the response as it was.
pub(super) fn process_planning_response(parts: &[Part]) -> Vec<Part> {
    let mut preserved = Vec::new();
    for (i, part) in parts.iter().enumerate() {
        let Some(call) = &part.function_call else {
            split_thoughts(part, &mut preserved);
            continue;
        };
        if call.name.as_deref().unwrap_or_default().is_empty() {
            continue;
        }
        let following = parts.get(i + 1..).unwrap_or_default();
        preserved.push(part.clone());
        preserved.extend(following.iter().take_while(|p| p.function_call.is_some()).cloned());
        break;
    }
    preserved
}

/// ADK's `_handle_non_function_call_parts`: a text with a final-answer tag splits at its last one
/// into a thought (tags stripped; left out when nothing remains) and the answer after it; a text
/// starting with a planning tag becomes a thought, tags stripped; anything else is kept as it is.
fn split_thoughts(part: &Part, preserved: &mut Vec<Part>) {
    let text = part.text.as_deref().unwrap_or_default();
    if let Some(at) = last_index_of(text, FINAL_ANSWER_TAG) {
        let reasoning = strip_planning_tags(text.get(..at).unwrap_or_default());
        let answer = text.get(at + FINAL_ANSWER_TAG.len()..).unwrap_or_default();
        if !reasoning.is_empty() {
            preserved.push(thought(Part::from_text(&reasoning)));
        }
        if !answer.is_empty() {
            preserved.push(Part::from_text(answer));
        }
    } else if PLANNING_TAGS.iter().any(|tag| text.starts_with(tag)) {
        let mut part = part.clone();
        part.text = Some(strip_planning_tags(text));
        preserved.push(thought(part));
    } else {
        preserved.push(part.clone());
    }
}

fn thought(mut part: Part) -> Part {
    part.thought = Some(true);
    part
}

/// Every planning tag removed, one tag after the other as ADK's `str.replace` calls do (a tag that
/// only forms once another is gone goes too, if its turn comes later); the final-answer tag stays.
fn strip_planning_tags(text: &str) -> String {
    PLANNING_TAGS.iter().fold(text.to_string(), |text, tag| remove_all(&text, tag))
}

// Byte searches for tags (each starts with `/`, so every match is at a character boundary): `str`'s
// substring searcher would add its code to the download for these few short tags.

/// `text` without any occurrence of `tag`, found left to right as Python's `replace(tag, '')`.
fn remove_all(text: &str, tag: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    // Checked slicing (never refused here): a slice that could panic links core's message for it,
    // and the Unicode tables that message needs, into the module.
    while let Some((before, from)) = rest.find('/').and_then(|at| rest.split_at_checked(at)) {
        out.push_str(before);
        let skip = if from.starts_with(tag) {
            tag.len()
        } else {
            out.push('/');
            1
        };
        rest = from.get(skip..).unwrap_or_default();
    }
    out.push_str(rest);
    out
}

/// Where `tag` last starts in `text` (Python's `rfind`).
fn last_index_of(text: &str, tag: &str) -> Option<usize> {
    (0..text.len()).rev().find(|&at| text.as_bytes().get(at..).is_some_and(|rest| rest.starts_with(tag.as_bytes())))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::JsonObject;

    fn call(name: &str) -> Part {
        Part::from_function_call(name, JsonObject::new())
    }

    fn texts(parts: &[Part]) -> Vec<(Option<&str>, bool)> {
        parts.iter().map(|p| (p.text.as_deref(), p.thought == Some(true))).collect()
    }

    #[test]
    fn a_final_answer_splits_at_its_last_tag() {
        let parts = [Part::from_text("/*REASONING*/a/*FINAL_ANSWER*/b/*FINAL_ANSWER*//*ACTION*/c")];
        let out = process_planning_response(&parts);
        // The answer keeps its tags: only the thought is cleaned.
        assert_eq!(texts(&out), [(Some("a/*FINAL_ANSWER*/b"), true), (Some("/*ACTION*/c"), false)]);
        let out = process_planning_response(&[Part::from_text("/*FINAL_ANSWER*/")]);
        assert!(out.is_empty());
    }

    /// Python's `replace` per tag in ADK's order: a tag made whole by removing another goes only if
    /// its own turn is later.
    #[test]
    fn tags_are_stripped_one_after_the_other() {
        assert_eq!(strip_planning_tags("/*REASON/*PLANNING*/ING*/x/"), "x/");
        assert_eq!(strip_planning_tags("/*PLAN/*ACTION*/NING*/x"), "/*PLANNING*/x");
        assert_eq!(last_index_of("a/*FINAL_ANSWER*/b/*FINAL_ANSWER*/", FINAL_ANSWER_TAG), Some(18));
        assert_eq!(last_index_of("한/*FINAL_ANSWER*", FINAL_ANSWER_TAG), None);
    }

    #[test]
    fn only_a_leading_tag_makes_a_thought() {
        let out = process_planning_response(&[Part::from_text("see /*PLANNING*/"), Part::from_text("/*ACTION*/")]);
        assert_eq!(texts(&out), [(Some("see /*PLANNING*/"), false), (Some(""), true)]);
    }

    #[test]
    fn calls_end_the_response_and_unnamed_ones_go() {
        let parts = [call(""), Part::from_text("/*PLANNING*/p"), call("a"), call("b"), Part::from_text("x"), call("c")];
        let out = process_planning_response(&parts);
        let names: Vec<_> = out.iter().map(|p| p.function_call.as_ref().and_then(|c| c.name.as_deref())).collect();
        assert_eq!(names, [None, Some("a"), Some("b")]);
        assert_eq!(texts(&out)[0], (Some("p"), true));
        // A call first keeps the calls after it (1.x lost them: ADK 2.x fixed `first_fc_part_index > 0`).
        assert_eq!(process_planning_response(&[call("a"), call("b")]).len(), 2);
    }
}
