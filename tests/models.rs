//! The Gemini and OpenAI-compatible adapters against recorded-shape server replies: request
//! shape, stream parsing at any chunking, errors, and a whole agent run with a tool.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)] // a test states what it expects
#![cfg(not(target_arch = "wasm32"))]

mod common;

use std::rc::Rc;

use adk_wasm::agent::{AgentCore, BuiltInCodeExecutor, Cancellation, LlmAgent, LlmAgentConfig};
use adk_wasm::http::HttpClient;
use adk_wasm::model::FunctionDeclaration;
use adk_wasm::model::{BaseLlm, Gemini, LlmRequest, OpenAICompatible, ToolDeclarations};
use adk_wasm::runner::{RunConfig, Runner, StreamingMode};
use adk_wasm::tool::{FunctionTool, Tool, GOOGLE_SEARCH};
use adk_wasm::transcript::Transcript;
use adk_wasm::types::{Content, JsonObject, Part};
use adk_wasm::{AdkError, ErrorCode, Event, LlmResponse};
use common::http::{ReplayClient, Reply};
use futures::executor::block_on;
use futures::StreamExt;
use serde_json::{json, Value};

type Output = Vec<Result<LlmResponse, AdkError>>;

fn fixture(name: &str) -> Vec<u8> {
    std::fs::read(format!("{}/tests/fixtures/models/{name}", env!("CARGO_MANIFEST_DIR"))).unwrap()
}

fn obj(v: Value) -> JsonObject {
    v.as_object().cloned().unwrap()
}

fn gemini(client: &Rc<ReplayClient>) -> Gemini {
    Gemini::new("gemini-2.5-flash", client.clone() as Rc<dyn HttpClient>)
}

fn openai(client: &Rc<ReplayClient>) -> OpenAICompatible {
    OpenAICompatible::new("gpt-4o-mini", "https://api.openai.com/v1", client.clone() as Rc<dyn HttpClient>)
}

fn generate(model: &dyn BaseLlm, request: LlmRequest, stream: bool) -> Output {
    block_on(model.generate_content(request, stream, Rc::new(Cancellation::default())).collect())
}

fn ask(text: &str) -> LlmRequest {
    LlmRequest { contents: vec![Content::user_text(text)], ..Default::default() }
}

/// Runs `make(client)` on `reply` delivered whole, byte by byte and at scattered offsets; all three
/// must give the same responses, which are returned.
fn replay_every_way<M: BaseLlm>(reply: Reply, make: impl Fn(&Rc<ReplayClient>) -> M, stream: bool) -> Output {
    let len = reply.chunks.concat().len();
    // A fixed pseudo-random walk, so failures reproduce.
    let mut offsets = Vec::new();
    let mut x: usize = 7;
    while offsets.len() < 40 {
        x = (x * 1103515245 + 12345) % 2147483648;
        offsets.push(x % len.max(1));
    }
    let variants = [reply.clone(), reply.clone().chunked(1), reply.split_at(&offsets)];
    let outputs: Vec<Output> = variants
        .into_iter()
        .map(|r| {
            let client = ReplayClient::new([r]);
            generate(&make(&client), ask("hi"), stream)
        })
        .collect();
    assert_eq!(outputs[0], outputs[1], "split at every byte");
    assert_eq!(outputs[0], outputs[2], "split at {offsets:?}");
    outputs.into_iter().next().unwrap()
}

fn ok(output: &Output) -> Vec<LlmResponse> {
    output.iter().map(|r| r.clone().unwrap()).collect()
}

fn partials(responses: &[LlmResponse]) -> Vec<bool> {
    responses.iter().map(|r| r.partial == Some(true)).collect()
}

fn text_of(response: &LlmResponse) -> Vec<(String, bool)> {
    response
        .content
        .iter()
        .flat_map(|c| c.parts())
        .filter_map(|p| Some((p.text.clone()?, p.thought == Some(true))))
        .collect()
}

fn full_request() -> LlmRequest {
    let mut request = LlmRequest {
        model: Some("gemini-2.5-flash".into()),
        contents: vec![
            Content::new(
                "user",
                vec![Part::from_text("이 사진은?"), Part::from_inline_data(vec![1, 2, 250], "image/png")],
            ),
            Content::new("model", vec![Part::from_function_call("get_weather", obj(json!({"city": "Seoul"})))]),
            Content::new("user", vec![Part::from_function_response("get_weather", obj(json!({"temp": 21})))]),
        ],
        ..Default::default()
    };
    request.contents[0].parts.as_mut().unwrap()[1].inline_data.as_mut().unwrap().display_name = Some("cat.png".into());
    request.append_instructions(&["Be brief.".into()]);
    request.config.tools = vec![ToolDeclarations {
        function_declarations: vec![FunctionDeclaration {
            name: "get_weather".into(),
            description: "Weather of a city".into(),
            parameters: Some(json!({"type": "object", "properties": {"city": {"type": "string"}}})),
            response: None,
        }],
        ..Default::default()
    }];
    request.config.settings = obj(json!({
        "temperature": 0.2, "topP": 0.9, "top_k": 40, "maxOutputTokens": 256, "stopSequences": ["END"], "seed": 7,
        "presencePenalty": 0.1, "frequencyPenalty": 0.3, "responseMimeType": "application/json",
        "thinkingConfig": {"includeThoughts": true}, "safetySettings": [{"category": "HARM_CATEGORY_HATE_SPEECH", "threshold": "BLOCK_NONE"}],
        "toolConfig": {"functionCallingConfig": {"mode": "AUTO"}}, "cachedContent": "cachedContents/1", "labels": {"a": "b"},
        "httpOptions": {"timeout": 1}
    }));
    request
}

// ---------------------------------------------------------------- Gemini

/// Gemini's own tools go to the API as ADK groups them: each an entry of its own, before or after the
/// function declarations, in request order; an MCP tool's result schema as `responseJsonSchema`.
#[test]
fn gemini_request_carries_built_in_tools_and_result_schemas() {
    let client = ReplayClient::new([Reply::sse(&fixture("gemini-stream-text.sse"))]);
    let model = gemini(&client).with_api_key("k-1");
    let mut request = LlmRequest { model: Some("gemini-2.5-flash".into()), ..Default::default() };
    request.contents = vec![Content::new("user", vec![Part::from_text("news?")])];
    request.append_built_in_tool("googleSearch");
    request.append_tool(FunctionDeclaration {
        name: "add".into(),
        response: Some(json!({"type": "object"})),
        ..Default::default()
    });
    request.append_built_in_tool("urlContext");
    request.append_built_in_tool("codeExecution");
    generate(&model, request, true);
    assert_eq!(
        client.body(0)["tools"],
        json!([{"googleSearch": {}}, {"functionDeclarations": [{"name": "add", "responseJsonSchema": {"type": "object"}}]}, {"urlContext": {}}, {"codeExecution": {}}])
    );
}

#[test]
fn gemini_request_shape() {
    let client = ReplayClient::new([Reply::sse(&fixture("gemini-stream-text.sse"))]);
    let model = gemini(&client).with_api_key("k-1").with_header("x-app", "demo");
    generate(&model, full_request(), true);
    let sent = &client.requests()[0];
    assert_eq!(sent.method, "POST");
    assert_eq!(
        sent.url,
        "https://generativelanguage.googleapis.com/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse"
    );
    let headers: Vec<(&str, &str)> = sent.headers.iter().map(|(n, v)| (n.as_str(), v.as_str())).collect();
    assert_eq!(headers, [("Content-Type", "application/json"), ("x-goog-api-key", "k-1"), ("x-app", "demo")]);
    assert_eq!(
        client.body(0),
        json!({
            "contents": [
                {"parts": [{"text": "이 사진은?"}, {"inlineData": {"data": "AQL6", "mimeType": "image/png"}}], "role": "user"},
                {"parts": [{"functionCall": {"args": {"city": "Seoul"}, "name": "get_weather"}}], "role": "model"},
                {"parts": [{"functionResponse": {"name": "get_weather", "response": {"temp": 21}}}], "role": "user"}
            ],
            "systemInstruction": {"parts": [{"text": "Be brief."}]},
            "tools": [{"functionDeclarations": [{
                "name": "get_weather", "description": "Weather of a city",
                "parametersJsonSchema": {"type": "object", "properties": {"city": {"type": "string"}}}
            }]}],
            "safetySettings": [{"category": "HARM_CATEGORY_HATE_SPEECH", "threshold": "BLOCK_NONE"}],
            "toolConfig": {"functionCallingConfig": {"mode": "AUTO"}},
            "cachedContent": "cachedContents/1",
            "generationConfig": {
                "temperature": 0.2, "topP": 0.9, "topK": 40, "maxOutputTokens": 256, "stopSequences": ["END"],
                "seed": 7, "presencePenalty": 0.1, "frequencyPenalty": 0.3, "responseMimeType": "application/json",
                "thinkingConfig": {"includeThoughts": true}
            }
        })
    );
}

#[test]
fn gemini_urls_for_proxies_and_model_names() {
    let client = ReplayClient::new([
        Reply::json(200, r#"{"candidates": []}"#),
        Reply::json(200, r#"{"candidates": []}"#),
        Reply::json(200, r#"{"candidates": []}"#),
    ]);
    generate(&gemini(&client).with_base_url("https://proxy.example/gemini/"), ask("x"), false);
    let named = Gemini::new("models/gemini-2.0-flash", client.clone() as Rc<dyn HttpClient>);
    generate(&named, ask("x"), false);
    let mut request = ask("x");
    request.model = Some("tunedModels/mine".into());
    generate(&gemini(&client), request, false);
    let urls: Vec<String> = client.requests().into_iter().map(|r| r.url).collect();
    assert_eq!(
        urls,
        [
            "https://proxy.example/gemini/models/gemini-2.5-flash:generateContent",
            "https://generativelanguage.googleapis.com/v1beta/models/gemini-2.0-flash:generateContent",
            "https://generativelanguage.googleapis.com/v1beta/tunedModels/mine:generateContent",
        ]
    );
    assert!(client.requests()[0].headers.iter().all(|(n, _)| n != "x-goog-api-key"), "no key, no header");
    assert_eq!(client.body(0).get("generationConfig"), None);
}

#[test]
fn gemini_streams_korean_and_emoji_text_at_any_chunking() {
    let responses = ok(&replay_every_way(Reply::sse(&fixture("gemini-stream-text.sse")), gemini, true));
    assert_eq!(partials(&responses), [true, true, true, false]);
    assert_eq!(text_of(&responses[1]), [("맑고 21°C ".to_string(), false)]);
    let last = &responses[3];
    assert_eq!(text_of(last), [("서울은 맑고 21°C 입니다 ☀️🌤".to_string(), false)]);
    assert_eq!(last.content.as_ref().unwrap().role.as_deref(), Some("model"));
    assert_eq!(last.finish_reason.as_deref(), Some("STOP"));
    assert_eq!(last.model_version.as_deref(), Some("gemini-2.5-flash"));
    let usage = last.usage_metadata.as_ref().unwrap();
    assert_eq!(
        (usage.prompt_token_count, usage.candidates_token_count, usage.total_token_count),
        (Some(12), Some(9), Some(21))
    );
    assert_eq!(last.error_code, None);
}

#[test]
fn gemini_thoughts_and_a_call_keep_their_order_and_signature() {
    let responses = ok(&replay_every_way(Reply::sse(&fixture("gemini-stream-thought-call.sse")), gemini, true));
    assert_eq!(partials(&responses), [true, true, true, true, false], "function-call chunks are partial too");
    let last = &responses[4];
    let parts = last.content.as_ref().unwrap().parts();
    assert_eq!(parts.len(), 3);
    assert_eq!(
        (parts[0].text.as_deref(), parts[0].thought),
        (Some("**날씨 확인**\n\n사용자는 부산 날씨를 묻고 있다 🤔"), Some(true))
    );
    assert_eq!((parts[1].text.as_deref(), parts[1].thought), (Some("확인해 볼게요."), None));
    let call = parts[2].function_call.as_ref().unwrap();
    assert_eq!((call.name.as_deref(), call.args.clone()), (Some("get_weather"), Some(obj(json!({"city": "부산"})))));
    assert_eq!(parts[2].thought_signature.as_ref().unwrap().0, b"signature-1");
    assert_eq!(last.usage_metadata.as_ref().unwrap().thoughts_token_count, Some(38));
}

#[test]
fn gemini_max_tokens_ends_as_an_error_response_keeping_the_text() {
    let responses = ok(&replay_every_way(Reply::sse(&fixture("gemini-stream-max-tokens.sse")), gemini, true));
    let last = responses.last().unwrap();
    assert_eq!((last.finish_reason.as_deref(), last.error_code.as_deref()), (Some("MAX_TOKENS"), Some("MAX_TOKENS")));
    assert_eq!(text_of(last), [("긴 답변의 시작…".to_string(), false)]);

    let stopped = concat!(
        "data: {\"candidates\": [{\"content\": {\"parts\": [{\"text\": \"Once\"}], \"role\": \"model\"}, \"index\": 0}]}\r\n\r\n",
        "data: {\"candidates\": [{\"content\": {\"parts\": [{\"text\": \"\"}], \"role\": \"model\"}, ",
        "\"finishReason\": \"SAFETY\", \"finishMessage\": \"stopped for safety\", \"index\": 0}]}\r\n\r\n"
    );
    let client = ReplayClient::new([Reply::sse(stopped.as_bytes())]);
    let last = ok(&generate(&gemini(&client), ask("x"), true)).pop().unwrap();
    assert_eq!(
        (last.error_code.as_deref(), last.error_message.as_deref()),
        (Some("SAFETY"), Some("stopped for safety"))
    );
    assert_eq!(text_of(&last)[0], ("Once".to_string(), false));
}

#[test]
fn gemini_blocked_prompt_and_safety_stop() {
    let responses = ok(&replay_every_way(Reply::sse(&fixture("gemini-stream-blocked.sse")), gemini, true));
    assert_eq!(partials(&responses), [true, false]);
    let last = &responses[1];
    assert_eq!((last.error_code.as_deref(), last.content.as_ref()), (Some("PROHIBITED_CONTENT"), None));
    assert_eq!(last.usage_metadata.as_ref().unwrap().prompt_token_count, Some(7));

    let safety = r#"{"candidates": [{"finishReason": "SAFETY", "finishMessage": "blocked for safety", "index": 0,
        "safetyRatings": [{"category": "HARM_CATEGORY_DANGEROUS_CONTENT", "probability": "HIGH", "blocked": true}]}],
        "usageMetadata": {"promptTokenCount": 9, "totalTokenCount": 9}, "modelVersion": "gemini-2.5-flash"}"#;
    let feedback = r#"{"promptFeedback": {"blockReason": "SAFETY", "blockReasonMessage": "prompt blocked"}}"#;
    let empty = r#"{"usageMetadata": {"promptTokenCount": 2}, "modelVersion": "gemini-2.5-flash"}"#;
    let stop = r#"{"candidates": [{"finishReason": "STOP", "index": 0}]}"#;
    let client = ReplayClient::new([safety, feedback, empty, stop].map(|b| Reply::json(200, b)));
    let mut results = (0..4).map(|_| ok(&generate(&gemini(&client), ask("x"), false)).remove(0));
    let r = results.next().unwrap();
    assert_eq!((r.error_code.as_deref(), r.error_message.as_deref()), (Some("SAFETY"), Some("blocked for safety")));
    assert_eq!((r.finish_reason.as_deref(), r.partial), (Some("SAFETY"), None));
    let r = results.next().unwrap();
    assert_eq!((r.error_code.as_deref(), r.error_message.as_deref()), (Some("SAFETY"), Some("prompt blocked")));
    let r = results.next().unwrap();
    assert_eq!(
        (r.error_code, r.content),
        (None, Some(Content::new("model", vec![]))),
        "ADK: no candidates, no feedback: empty success"
    );
    let r = results.next().unwrap();
    assert_eq!(
        (r.error_code, r.finish_reason.as_deref()),
        (None, Some("STOP")),
        "ADK: STOP without content is no error"
    );
}

#[test]
fn gemini_non_stream_gives_one_response_with_candidate_metadata() {
    let body = r#"{"candidates": [{"content": {"parts": [{"text": "안녕 👋"}], "role": "model"}, "finishReason": "STOP",
        "avgLogprobs": -0.25, "citationMetadata": {"citations": [{"uri": "https://example.com"}]},
        "groundingMetadata": {"webSearchQueries": ["q"]}, "index": 0}],
        "usageMetadata": {"promptTokenCount": 3, "candidatesTokenCount": 2, "totalTokenCount": 5},
        "modelVersion": "gemini-2.5-flash-001", "responseId": "r"}"#;
    let client = ReplayClient::new([Reply::json(200, body)]);
    let responses = ok(&generate(&gemini(&client), ask("hi"), false));
    assert_eq!(responses.len(), 1);
    let r = &responses[0];
    assert!(client.requests()[0].url.ends_with("/models/gemini-2.5-flash:generateContent"));
    assert_eq!(
        (r.partial, r.avg_logprobs, r.model_version.as_deref()),
        (None, Some(-0.25), Some("gemini-2.5-flash-001"))
    );
    assert_eq!(text_of(r), [("안녕 👋".to_string(), false)]);
    assert_eq!(r.citation_metadata.as_ref().unwrap()["citations"][0]["uri"], "https://example.com");
    assert_eq!(r.grounding_metadata.as_ref().unwrap()["webSearchQueries"], json!(["q"]));
}

#[test]
fn gemini_http_errors_carry_status_code_and_message() {
    let quota = r#"{"error": {"code": 429, "message": "Resource has been exhausted (e.g. check quota).", "status": "RESOURCE_EXHAUSTED"}}"#;
    let internal = r#"{"error": {"code": 500, "message": "An internal error has occurred.", "status": "INTERNAL"}}"#;
    let client = ReplayClient::new([
        Reply::json(429, quota),
        Reply::json(500, internal),
        Reply::new(502, "text/html", b"<html>Bad Gateway</html>"),
    ]);
    let mut errors = (0..3).map(|_| generate(&gemini(&client), ask("x"), true).remove(0).unwrap_err());
    let e = errors.next().unwrap();
    assert_eq!(
        (e.code, e.http_status, e.rpc_code, e.message.as_str()),
        (ErrorCode::ResourceExhausted, Some(429), None, "Resource has been exhausted (e.g. check quota).")
    );
    let e = errors.next().unwrap();
    assert_eq!(
        (e.code, e.http_status, e.message.as_str()),
        (ErrorCode::Internal, Some(500), "An internal error has occurred.")
    );
    let e = errors.next().unwrap();
    assert_eq!(
        (e.code, e.http_status, e.message.as_str()),
        (ErrorCode::Unavailable, Some(502), "<html>Bad Gateway</html>")
    );
}

#[test]
fn gemini_error_mid_stream_cut_stream_and_wrong_content_type() {
    let output = replay_every_way(Reply::sse(&fixture("gemini-stream-error.sse")), gemini, true);
    assert_eq!(output.len(), 2);
    assert_eq!(text_of(output[0].as_ref().unwrap()), [("부분 ".to_string(), false)]);
    let e = output[1].as_ref().unwrap_err();
    assert_eq!(
        (e.code, e.http_status, e.message.as_str()),
        (ErrorCode::Unavailable, Some(503), "The model is overloaded. Please try again later.")
    );

    let body = fixture("gemini-stream-text.sse");
    let cut_at = body.len() - 40;
    let client = ReplayClient::new([Reply::sse(&body[..cut_at]).chunked(7).cut()]);
    let output = generate(&gemini(&client), ask("x"), true);
    assert_eq!(output.len(), 3, "two whole chunks, then the error");
    assert_eq!(output[2].as_ref().unwrap_err().code, ErrorCode::Unavailable);

    let client = ReplayClient::new([Reply::sse(&body[..cut_at])]);
    let output = generate(&gemini(&client), ask("x"), true);
    assert_eq!(output.last().unwrap().as_ref().unwrap_err().code, ErrorCode::Unavailable, "ended inside an event");

    let client = ReplayClient::new([Reply::json(200, r#"{"candidates": []}"#)]);
    let e = generate(&gemini(&client), ask("x"), true).remove(0).unwrap_err();
    assert_eq!(e.code, ErrorCode::Unimplemented);
    assert!(e.message.contains("application/json"), "{}", e.message);

    let client = ReplayClient::new([Reply::sse(b"data: {not json\r\n\r\n")]);
    let e = generate(&gemini(&client), ask("x"), true).remove(0).unwrap_err();
    assert_eq!(e.code, ErrorCode::Unknown);
    assert!(e.message.starts_with("invalid Gemini response"), "{}", e.message);
}

#[test]
fn cancellation_aborts_the_body_and_stays_aborted() {
    let client = ReplayClient::new([Reply::sse(&fixture("gemini-stream-text.sse")).chunked(50)]);
    let cancellation = Rc::new(Cancellation::default());
    let model = gemini(&client);
    let mut stream = model.generate_content(ask("x"), true, cancellation.clone());
    let first = block_on(stream.next()).unwrap();
    assert!(first.is_ok() || first.as_ref().unwrap_err().code == ErrorCode::Aborted);
    cancellation.cancel();
    let rest: Output = block_on(stream.collect());
    assert_eq!(rest.len(), 1);
    assert_eq!(rest[0].as_ref().unwrap_err().code, ErrorCode::Aborted);
}

// ---------------------------------------------------------------- OpenAI-compatible

#[test]
fn openai_request_shape() {
    let client = ReplayClient::new([Reply::sse(&fixture("openai-stream-text.sse"))]);
    let model = openai(&client).with_api_key("sk-1").with_header("OpenAI-Organization", "org");
    let mut request = full_request();
    request.model = None;
    request.config.settings.insert("responseJsonSchema".into(), json!({"title": "Weather", "type": "object"}));
    generate(&model, request, true);
    let sent = &client.requests()[0];
    assert_eq!(sent.url, "https://api.openai.com/v1/chat/completions");
    let headers: Vec<(&str, &str)> = sent.headers.iter().map(|(n, v)| (n.as_str(), v.as_str())).collect();
    assert_eq!(
        headers,
        [("Content-Type", "application/json"), ("Authorization", "Bearer sk-1"), ("OpenAI-Organization", "org")]
    );
    assert_eq!(
        client.body(0),
        json!({
            "model": "gpt-4o-mini",
            "messages": [
                {"role": "system", "content": "Be brief."},
                {"role": "user", "content": [
                    {"type": "text", "text": "이 사진은?"},
                    {"type": "image_url", "image_url": {"url": "data:image/png;base64,AQL6"}}
                ]},
                {"role": "assistant", "content": null, "tool_calls": [
                    {"id": "call_1", "type": "function", "function": {"name": "get_weather", "arguments": "{\"city\":\"Seoul\"}"}}
                ]},
                {"role": "tool", "tool_call_id": "call_1", "content": "{\"temp\":21}"}
            ],
            "tools": [{"type": "function", "function": {
                "name": "get_weather", "description": "Weather of a city",
                "parameters": {"type": "object", "properties": {"city": {"type": "string"}}}
            }}],
            "stream": true,
            "stream_options": {"include_usage": true},
            "temperature": 0.2, "top_p": 0.9, "max_completion_tokens": 256, "stop": ["END"], "seed": 7,
            "presence_penalty": 0.1, "frequency_penalty": 0.3,
            "response_format": {"type": "json_schema", "json_schema": {"name": "Weather", "schema": {"title": "Weather", "type": "object"}}}
        })
    );
}

/// `maxOutputTokens` as LiteLlm has it sent to OpenAI and Azure, `max_completion_tokens` (their
/// reasoning models refuse `max_tokens`), and as `max_tokens` elsewhere (the name Ollama, llama.cpp
/// and vLLM read).
#[test]
fn openai_max_output_tokens_by_server() {
    for (base, key) in [
        ("https://api.openai.com/v1", "max_completion_tokens"),
        ("https://My-Res.OpenAI.Azure.com/openai/v1", "max_completion_tokens"),
        ("http://localhost:11434/v1", "max_tokens"),
        ("https://api.openai.com.example/v1", "max_tokens"),
    ] {
        let client = ReplayClient::new([Reply::json(200, r#"{"choices": []}"#)]);
        let model = OpenAICompatible::new("m", base, client.clone() as Rc<dyn HttpClient>);
        let mut request = ask("x");
        request.config.settings = obj(json!({"maxOutputTokens": 64}));
        generate(&model, request, false);
        let body = client.body(0);
        let keys: Vec<&String> = body.as_object().unwrap().keys().filter(|k| k.starts_with("max_")).collect();
        assert_eq!((keys, &body[key]), (vec![&key.to_string()], &json!(64)), "{base}");
    }
}

#[test]
fn openai_media_items_as_adk_lite_llm_writes_them() {
    let part = |v: Value| serde_json::from_value::<Part>(v).unwrap();
    let inline = |mime: &str| part(json!({"inlineData": {"mimeType": mime, "data": "AQL6"}}));
    let file = |uri: &str, mime: &str| part(json!({"fileData": {"fileUri": uri, "mimeType": mime}}));
    let named_pdf =
        part(json!({"inlineData": {"mimeType": "application/pdf", "data": "AQL6", "displayName": "plan.pdf"}}));
    let parts = vec![
        inline("audio/mpeg; rate=44100"),
        inline("Audio/X-WAV"),
        inline("audio/ogg"),
        inline("video/mp4; codecs=\"avc1\""),
        inline("application/pdf"),
        named_pdf,
        // Empty inline data is left out (LiteLlm's `if part.inline_data.data`).
        part(json!({"inlineData": {"mimeType": "audio/wav", "data": ""}})),
        file("https://x.example/cat.png", "image/png"),
        file("https://x.example/clip.mp4", "Video/MP4"),
        // OpenAI file ids (LiteLlm's `_looks_like_openai_file_id`), whatever their type.
        file("file-abc123", "application/pdf"),
        file("assistant-x9", "image/png"),
    ];
    let client = ReplayClient::new([Reply::json(200, r#"{"choices": []}"#)]);
    generate(&openai(&client), LlmRequest { contents: vec![Content::new("user", parts)], ..Default::default() }, false);
    let item = |kind: &str, member: Value| json!({"type": kind, kind: member});
    assert_eq!(
        client.body(0)["messages"][0]["content"],
        json!([
            item("input_audio", json!({"data": "AQL6", "format": "mp3"})),
            item("input_audio", json!({"data": "AQL6", "format": "wav"})),
            item("input_audio", json!({"data": "AQL6", "format": "ogg"})),
            item("video_url", json!({"url": "data:video/mp4;base64,AQL6"})),
            item("file", json!({"file_data": "data:application/pdf;base64,AQL6", "filename": "document.pdf"})),
            item("file", json!({"file_data": "data:application/pdf;base64,AQL6", "filename": "plan.pdf"})),
            item("image_url", json!({"url": "https://x.example/cat.png"})),
            item("video_url", json!({"url": "https://x.example/clip.mp4"})),
            item("file", json!({"file_id": "file-abc123"})),
            item("file", json!({"file_id": "assistant-x9"})),
        ])
    );
    // What has no Chat Completions form is refused before anything is sent.
    for refused in [
        inline("application/zip"),
        inline("application/vnd.openxmlformats-officedocument.wordprocessingml.document"),
        file("gs://bucket/a.pdf", "application/pdf"),
        file("https://x.example/a.pdf", "application/pdf"),
    ] {
        let client = ReplayClient::new([]);
        let out = generate(
            &openai(&client),
            LlmRequest { contents: vec![Content::new("user", vec![refused])], ..Default::default() },
            false,
        );
        assert_eq!(out[0].as_ref().unwrap_err().code, ErrorCode::InvalidArgument);
        assert!(client.requests().is_empty());
    }
}

#[test]
fn openai_request_without_key_json_mode_and_synthesized_ids() {
    let client = ReplayClient::new([Reply::json(200, r#"{"choices": []}"#)]);
    let model = OpenAICompatible::new("llama3.2", "http://localhost:11434/v1/", client.clone() as Rc<dyn HttpClient>);
    let call = |name: &str| Part::from_function_call(name, JsonObject::new());
    let answer = |name: &str, v: i64| Part::from_function_response(name, obj(json!({"v": v})));
    let mut request = LlmRequest {
        contents: vec![
            Content::user_text("go"),
            Content::new("model", vec![Part::from_text("on it"), call("a"), call("b"), call("a")]),
            Content::new("user", vec![answer("b", 2), answer("a", 1), answer("a", 3)]),
            Content::new("model", vec![call("a")]),
            Content::new("user", vec![answer("a", 4)]),
        ],
        ..Default::default()
    };
    request.config.settings = obj(json!({"response_mime_type": "application/json", "max_output_tokens": 9, "topK": 3}));
    generate(&model, request, false);
    let sent = &client.requests()[0];
    assert_eq!(sent.url, "http://localhost:11434/v1/chat/completions");
    assert!(sent.headers.iter().all(|(n, _)| n != "Authorization"));
    let body = client.body(0);
    assert_eq!((body["stream"].clone(), body.get("stream_options")), (json!(false), None));
    assert_eq!(body["response_format"], json!({"type": "json_object"}));
    assert_eq!((body["max_tokens"].clone(), body.get("top_k")), (json!(9), None), "no Chat Completions equivalent");
    let messages = body["messages"].as_array().unwrap();
    let call_ids: Vec<&str> =
        messages[1]["tool_calls"].as_array().unwrap().iter().map(|c| c["id"].as_str().unwrap()).collect();
    assert_eq!(call_ids, ["call_1", "call_2", "call_3"]);
    assert_eq!(messages[1]["content"], "on it");
    let answered: Vec<(&str, &str)> =
        messages[2..5].iter().map(|m| (m["tool_call_id"].as_str().unwrap(), m["content"].as_str().unwrap())).collect();
    assert_eq!(answered, [("call_2", "{\"v\":2}"), ("call_1", "{\"v\":1}"), ("call_3", "{\"v\":3}")]);
    assert_eq!(messages[5]["tool_calls"][0]["id"], "call_4");
    assert_eq!(messages[6]["tool_call_id"], "call_4");
}

#[test]
fn openai_streams_text_and_usage_at_any_chunking() {
    let responses = ok(&replay_every_way(Reply::sse(&fixture("openai-stream-text.sse")), openai, true));
    assert_eq!(partials(&responses), [true, true, false], "only chunks with text are partials");
    assert_eq!(text_of(&responses[1]), [("흐려요 🌧️.".to_string(), false)]);
    let last = &responses[2];
    assert_eq!(text_of(last), [("부산은 흐려요 🌧️.".to_string(), false)]);
    assert_eq!((last.finish_reason.as_deref(), last.error_code.as_deref()), (Some("STOP"), None));
    assert_eq!(last.model_version.as_deref(), Some("gpt-4o-mini"));
    let usage = last.usage_metadata.as_ref().unwrap();
    assert_eq!(
        (usage.prompt_token_count, usage.candidates_token_count, usage.total_token_count),
        (Some(8), Some(4), Some(12))
    );
    assert_eq!((usage.cached_content_token_count, usage.thoughts_token_count), (None, None));
}

#[test]
fn openai_tool_call_deltas_are_joined_by_index() {
    let responses = ok(&replay_every_way(Reply::sse(&fixture("openai-stream-tools.sse")), openai, true));
    assert_eq!(responses.len(), 1, "tool calls come whole, in the final response only");
    let last = &responses[0];
    let calls = last.get_function_calls();
    let calls: Vec<(Option<&str>, Option<&str>, Option<JsonObject>)> =
        calls.iter().map(|c| (c.id.as_deref(), c.name.as_deref(), c.args.clone())).collect();
    assert_eq!(
        calls,
        [
            (Some("call_a1"), Some("get_weather"), Some(obj(json!({"city": "서울"})))),
            (Some("call_b2"), Some("get_time"), Some(JsonObject::new())),
        ]
    );
    assert_eq!((last.finish_reason.as_deref(), last.error_code.as_deref()), (Some("STOP"), None));
    assert_eq!(last.usage_metadata.as_ref().unwrap().cached_content_token_count, Some(32));
}

#[test]
fn openai_reasoning_becomes_thought_text() {
    let responses = ok(&replay_every_way(Reply::sse(&fixture("openai-stream-reasoning.sse")), openai, true));
    assert_eq!(partials(&responses), [true, true, true, true, false]);
    assert_eq!(text_of(&responses[0]), [("사용자가 인사했다. ".to_string(), true)]);
    let last = responses.last().unwrap();
    assert_eq!(
        text_of(last),
        [("사용자가 인사했다. 짧게 답하자 🙂".to_string(), true), ("안녕하세요! 👋".to_string(), false)]
    );
    let usage = last.usage_metadata.as_ref().unwrap();
    assert_eq!((usage.thoughts_token_count, usage.total_token_count), (Some(22), Some(40)));
    assert_eq!(last.model_version.as_deref(), Some("deepseek-reasoner"));

    let responses = ok(&replay_every_way(Reply::sse(&fixture("openai-stream-ollama.sse")), openai, true));
    assert_eq!(partials(&responses), [true, false]);
    let last = &responses[1];
    assert_eq!(text_of(last), [("Need the time.".to_string(), true)]);
    let call = last.get_function_calls()[0].clone();
    assert_eq!((call.id.as_deref(), call.args), (Some("call_x9"), Some(obj(json!({"zone": "Asia/Seoul"})))));
}

fn sse_chunks(chunks: &[Value]) -> Reply {
    let mut body: String = chunks.iter().map(|c| format!("data: {c}\n\n")).collect();
    body.push_str("data: [DONE]\n\n");
    Reply::sse(body.as_bytes())
}

fn tool_delta(index: u64, id: Option<&str>, name: Option<&str>, arguments: &str) -> Value {
    let mut function = json!({"arguments": arguments});
    if let Some(name) = name {
        function["name"] = json!(name);
    }
    let mut call = json!({"index": index, "function": function});
    if let Some(id) = id {
        call["id"] = json!(id);
        call["type"] = json!("function");
    }
    json!({"choices": [{"index": 0, "delta": {"tool_calls": [call]}, "finish_reason": null}]})
}

#[test]
fn openai_finish_reasons_and_unparseable_arguments() {
    let finish = |reason: &str| json!({"choices": [{"index": 0, "delta": {}, "finish_reason": reason}]});
    let text = json!({"choices": [{"index": 0, "delta": {"content": "잘린"}, "finish_reason": null}]});
    let client = ReplayClient::new([
        sse_chunks(&[text.clone(), finish("length")]),
        sse_chunks(&[text.clone(), finish("content_filter")]),
        sse_chunks(&[text, finish("eos")]),
        sse_chunks(&[
            tool_delta(0, Some("call_1"), Some("good"), "{\"a\":"),
            tool_delta(1, Some("call_2"), Some("bad"), "{\"a\": tru"),
            tool_delta(0, None, None, "1}"),
            tool_delta(2, Some("call_3"), Some("list"), "[1]"),
            finish("tool_calls"),
        ]),
        sse_chunks(&[tool_delta(0, Some("call_1"), Some("cut"), "{\"a\": \"x"), finish("length")]),
    ]);
    let mut last = (0..5).map(|_| ok(&generate(&openai(&client), ask("x"), true)).pop().unwrap());
    let r = last.next().unwrap();
    assert_eq!(
        (r.finish_reason.as_deref(), r.error_code.as_deref(), r.error_message.as_deref()),
        (Some("MAX_TOKENS"), Some("MAX_TOKENS"), Some("Maximum tokens reached"))
    );
    assert_eq!(text_of(&r), [("잘린".to_string(), false)]);
    let r = last.next().unwrap();
    assert_eq!((r.error_code.as_deref(), r.error_message.as_deref()), (Some("SAFETY"), Some("Finished with SAFETY")));
    assert_eq!(last.next().unwrap().finish_reason.as_deref(), Some("OTHER"));
    let r = last.next().unwrap();
    assert_eq!(r.get_function_calls().len(), 1, "only the call whose arguments parse is kept");
    assert_eq!(r.get_function_calls()[0].args, Some(obj(json!({"a": 1}))));
    assert_eq!(
        (r.finish_reason.as_deref(), r.error_code.as_deref(), r.error_message.as_deref()),
        (
            Some("MALFORMED_FUNCTION_CALL"),
            Some("MALFORMED_FUNCTION_CALL"),
            Some("Arguments for the following function calls were not a valid JSON object: bad, list")
        )
    );
    let r = last.next().unwrap();
    assert_eq!(
        r.error_message.as_deref(),
        Some("Maximum tokens reached. Arguments for the following function calls were not a valid JSON object: cut")
    );
}

#[test]
fn openai_non_stream_reads_the_message() {
    let body = r#"{"id": "chatcmpl-9", "object": "chat.completion", "created": 1763780000, "model": "gpt-4o-mini-2024-07-18",
        "choices": [{"index": 0, "message": {"role": "assistant", "content": "날씨를 볼게요",
            "tool_calls": [{"id": "call_z", "type": "function", "function": {"name": "get_weather", "arguments": "{\"city\": \"Jeju\"}"}}],
            "refusal": null}, "logprobs": null, "finish_reason": "tool_calls"}],
        "usage": {"prompt_tokens": 20, "completion_tokens": 9, "total_tokens": 29}}"#;
    let client = ReplayClient::new([Reply::json(200, body)]);
    let responses = ok(&generate(&openai(&client), ask("x"), false));
    assert_eq!(responses.len(), 1);
    let r = &responses[0];
    assert_eq!(r.partial, None);
    assert_eq!(text_of(r), [("날씨를 볼게요".to_string(), false)]);
    assert_eq!(r.get_function_calls()[0].args, Some(obj(json!({"city": "Jeju"}))));
    assert_eq!(
        (r.finish_reason.as_deref(), r.model_version.as_deref()),
        (Some("STOP"), Some("gpt-4o-mini-2024-07-18"))
    );
    assert_eq!(r.usage_metadata.as_ref().unwrap().total_token_count, Some(29));
}

#[test]
fn openai_errors_http_and_mid_stream() {
    let limit = r#"{"error": {"message": "Rate limit reached for gpt-4o-mini in organization org-1 on requests per min (RPM): Limit 3, Used 3, Requested 1.", "type": "requests", "param": null, "code": "rate_limit_exceeded"}}"#;
    let server = r#"{"error": {"message": "The server had an error while processing your request.", "type": "server_error", "param": null, "code": null}}"#;
    let client = ReplayClient::new([Reply::json(429, limit).header("Retry-After", "7"), Reply::json(500, server)]);
    let e = generate(&openai(&client), ask("x"), true).remove(0).unwrap_err();
    assert_eq!((e.code, e.http_status, e.rpc_code), (ErrorCode::ResourceExhausted, Some(429), None));
    // The server's Retry-After reaches the caller (JS: `retryAfterMs`), as the A2A client's does.
    assert_eq!(e.retry_after_ms, Some(7_000));
    assert!(e.message.starts_with("Rate limit reached for gpt-4o-mini"), "{}", e.message);
    let e = generate(&openai(&client), ask("x"), false).remove(0).unwrap_err();
    assert_eq!((e.code, e.http_status), (ErrorCode::Internal, Some(500)));
    assert_eq!(e.message, "The server had an error while processing your request.");

    let output = replay_every_way(Reply::sse(&fixture("openai-stream-error.sse")), openai, true);
    assert_eq!(output.len(), 2);
    assert_eq!(text_of(output[0].as_ref().unwrap()), [("부분".to_string(), false)]);
    let e = output[1].as_ref().unwrap_err();
    assert_eq!((e.code, e.http_status), (ErrorCode::Internal, None));
    assert!(e.message.starts_with("The server had an error"), "{}", e.message);

    let body = fixture("openai-stream-text.sse");
    let client = ReplayClient::new([Reply::sse(&body[..300]).cut()]);
    let output = generate(&openai(&client), ask("x"), true);
    assert_eq!(output.last().unwrap().as_ref().unwrap_err().code, ErrorCode::Unavailable);
}

// ---------------------------------------------------------------- Whole agent runs

fn weather_tool() -> Rc<dyn Tool> {
    Rc::new(FunctionTool::new(
        "get_weather",
        "Weather of a city",
        Some(json!({"type": "object", "properties": {"city": {"type": "string"}}})),
        Rc::new(|args, _ctx| {
            let city = args["city"].as_str().unwrap_or_default().to_string();
            Box::pin(async move { Ok(json!(format!("{city}: 21°C"))) })
        }),
    ))
}

fn time_tool() -> Rc<dyn Tool> {
    Rc::new(FunctionTool::new("get_time", "Current time", None, Rc::new(|_, _| Box::pin(async { Ok(json!("09:00")) }))))
}

fn run_agent(model: Rc<dyn BaseLlm>, streaming: bool) -> Vec<Event> {
    let mut config = LlmAgentConfig::new(model);
    config.instruction = adk_wasm::agent::Instruction::Text("You report the weather.".into());
    config.tools = vec![weather_tool().into(), time_tool().into()];
    let agent = Rc::new(LlmAgent::new(AgentCore::new("weather", "weather agent").unwrap(), config));
    let runner = Runner::in_memory("app", agent);
    block_on(runner.session_service().create_session("app", "u", None, Some("s"))).unwrap();
    let mode = if streaming { StreamingMode::Sse } else { StreamingMode::None };
    let run_config = RunConfig { streaming_mode: mode, ..Default::default() };
    block_on(
        runner.run_async("u", "s", Content::user_text("서울 날씨?"), None, run_config).map(|e| e.unwrap()).collect(),
    )
}

fn finals(events: &[Event]) -> Vec<&Event> {
    events.iter().filter(|e| e.partial != Some(true)).collect()
}

#[test]
fn gemini_agent_runs_the_tool_loop_streaming_and_not() {
    for streaming in [true, false] {
        let (first, second) = if streaming {
            (Reply::sse(&fixture("gemini-stream-call.sse")), Reply::sse(&fixture("gemini-stream-text.sse")).chunked(3))
        } else {
            let call = r#"{"candidates": [{"content": {"parts": [{"functionCall": {"name": "get_weather", "args": {"city": "Seoul"}}}], "role": "model"}, "finishReason": "STOP", "index": 0}]}"#;
            let text = r#"{"candidates": [{"content": {"parts": [{"text": "서울은 맑고 21°C 입니다 ☀️🌤"}], "role": "model"}, "finishReason": "STOP", "index": 0}]}"#;
            (Reply::json(200, call), Reply::json(200, text))
        };
        let client = ReplayClient::new([first, second]);
        let events = run_agent(Rc::new(gemini(&client)), streaming);
        let finals = finals(&events);
        assert_eq!(finals.len(), 3, "call, tool response, answer");
        assert_eq!(events.len() - finals.len(), if streaming { 4 } else { 0 }, "one partial per chunk");
        if streaming {
            let flags: Vec<bool> = events.iter().map(|e| e.partial == Some(true)).collect();
            assert_eq!(flags, [true, false, false, true, true, true, false]);
        }
        let call_id = finals[0].get_function_calls()[0].id.clone().unwrap();
        assert_eq!(finals[1].get_function_responses()[0].id.as_deref(), Some(call_id.as_str()));
        assert_eq!(finals[2].parts()[0].text.as_deref(), Some("서울은 맑고 21°C 입니다 ☀️🌤"));
        assert!(finals[2].is_final_response());

        let urls: Vec<String> = client.requests().into_iter().map(|r| r.url).collect();
        assert_eq!(urls.len(), 2);
        assert_eq!(urls[0].ends_with(":streamGenerateContent?alt=sse"), streaming);
        let second = client.body(1);
        let identity =
            "You are an agent. Your internal name is \"weather\". The description about you is \"weather agent\".";
        let system = format!("You report the weather.\n\n{identity}");
        assert_eq!(second["systemInstruction"], json!({"parts": [{"text": system}]}));
        let names: Vec<&str> = second["tools"][0]["functionDeclarations"]
            .as_array()
            .unwrap()
            .iter()
            .map(|d| d["name"].as_str().unwrap())
            .collect();
        assert_eq!(names, ["get_weather", "get_time"]);
        assert_eq!(
            second["contents"],
            json!([
                {"parts": [{"text": "서울 날씨?"}], "role": "user"},
                {"parts": [{"functionCall": {"args": {"city": "Seoul"}, "name": "get_weather"}}], "role": "model"},
                {"parts": [{"functionResponse": {"name": "get_weather", "response": {"result": "Seoul: 21°C"}}}], "role": "user"}
            ])
        );
    }
}

/// Gemini's stream with the code it ran, the result, and the sources of a grounded answer (the REST
/// shape of `streamGenerateContent`): the request asks for `codeExecution` and `googleSearch`, the
/// executor's event (no images: no artifacts) goes before the answer, and a `Transcript` shows the
/// text, the code, its result, the text after it and the sources, in that order.
#[test]
fn gemini_code_execution_and_grounding_reach_the_transcript() {
    let client = ReplayClient::new([Reply::sse(&fixture("gemini-stream-code-execution.sse")).chunked(7)]);
    let mut config = LlmAgentConfig::new(Rc::new(gemini(&client)));
    config.code_executor = Some(BuiltInCodeExecutor);
    config.tools = vec![Rc::new(GOOGLE_SEARCH).into()];
    let agent = Rc::new(LlmAgent::new(AgentCore::new("coder", "").unwrap(), config));
    let runner = Runner::in_memory("app", agent);
    block_on(runner.session_service().create_session("app", "u", None, Some("s"))).unwrap();
    let run_config = RunConfig { streaming_mode: StreamingMode::Sse, ..Default::default() };
    let run = runner.run_async("u", "s", Content::user_text("Sum of the first 10 primes?"), None, run_config);
    let events: Vec<Event> = block_on(run.map(|e| e.unwrap()).collect());
    assert_eq!(client.body(0)["tools"], json!([{"codeExecution": {}}, {"googleSearch": {}}]));
    let finals = finals(&events);
    assert_eq!(finals.len(), 2, "the executor's event, then the answer");
    assert!(finals[0].content.is_none() && finals[0].actions.artifact_delta.is_empty());
    let mut transcript = Transcript::new();
    events.iter().for_each(|e| transcript.push(e));
    let items: Vec<Value> = transcript
        .items()
        .iter()
        .map(|i| {
            let mut item = adk_core::json::to_value(i);
            let item_map = item.as_object_mut().unwrap();
            item_map.remove("eventId");
            item_map.remove("invocationId");
            item
        })
        .collect();
    let code = "primes = [p for p in range(2, 30) if all(p % d for d in range(2, p))]\nprint(sum(primes))";
    assert_eq!(
        items,
        [
            json!({"kind": "message", "author": "coder", "text": "Let me compute it.", "partial": false}),
            json!({"kind": "code", "author": "coder", "language": "PYTHON", "code": code}),
            json!({"kind": "codeResult", "author": "coder", "outcome": "OUTCOME_OK", "output": "129\n"}),
            json!({"kind": "message", "author": "coder", "text": "The sum is 129, as primes.example lists.", "partial": false}),
            json!({"kind": "grounding", "author": "coder", "queries": ["first 10 prime numbers"],
                   "sources": [{"uri": "https://primes.example/first-ten", "title": "primes.example"}],
                   "searchEntryPoint": finals[1].grounding_metadata.as_ref().unwrap()["searchEntryPoint"]["renderedContent"]}),
        ]
    );
}

#[test]
fn openai_agent_runs_the_tool_loop_streaming_and_not() {
    for streaming in [true, false] {
        let (first, second) = if streaming {
            (Reply::sse(&fixture("openai-stream-tools.sse")), Reply::sse(&fixture("openai-stream-text.sse")).chunked(5))
        } else {
            let calls = r#"{"choices": [{"index": 0, "message": {"role": "assistant", "content": null, "tool_calls": [
                {"id": "call_a1", "type": "function", "function": {"name": "get_weather", "arguments": "{\"city\": \"서울\"}"}},
                {"id": "call_b2", "type": "function", "function": {"name": "get_time", "arguments": "{}"}}]}, "finish_reason": "tool_calls"}]}"#;
            let text = r#"{"choices": [{"index": 0, "message": {"role": "assistant", "content": "부산은 흐려요 🌧️."}, "finish_reason": "stop"}]}"#;
            (Reply::json(200, calls), Reply::json(200, text))
        };
        let client = ReplayClient::new([first, second]);
        let events = run_agent(Rc::new(openai(&client)), streaming);
        let finals = finals(&events);
        assert_eq!(finals.len(), 3, "calls, tool responses, answer");
        assert_eq!(events.len() - finals.len(), if streaming { 2 } else { 0 });
        assert_eq!(finals[0].get_function_calls().len(), 2);
        let ids: Vec<&str> = finals[1].get_function_responses().iter().map(|r| r.id.as_deref().unwrap()).collect();
        assert_eq!(ids, ["call_a1", "call_b2"]);
        assert_eq!(finals[2].parts()[0].text.as_deref(), Some("부산은 흐려요 🌧️."));

        let second = client.body(1);
        assert_eq!(second["stream"], json!(streaming));
        let messages = second["messages"].as_array().unwrap();
        let identity =
            "You are an agent. Your internal name is \"weather\". The description about you is \"weather agent\".";
        let system = format!("You report the weather.\n\n{identity}");
        assert_eq!(messages[0], json!({"role": "system", "content": system}));
        assert_eq!(messages[1], json!({"role": "user", "content": "서울 날씨?"}));
        assert_eq!(
            messages[2]["tool_calls"][0]["function"],
            json!({"name": "get_weather", "arguments": "{\"city\":\"서울\"}"})
        );
        assert_eq!(messages[2]["tool_calls"][1]["id"], "call_b2");
        assert_eq!(
            messages[3],
            json!({"role": "tool", "tool_call_id": "call_a1", "content": "{\"result\":\"서울: 21°C\"}"})
        );
        assert_eq!(
            messages[4],
            json!({"role": "tool", "tool_call_id": "call_b2", "content": "{\"result\":\"09:00\"}"})
        );
        assert_eq!(messages.len(), 5);
    }
}

#[test]
fn openai_tool_calls_without_index_are_told_apart_by_id() {
    // Gemini's OpenAI-compatible endpoint sends each call whole, in its own delta, without `index`.
    let whole = |id: &str, name: &str, args: &str| {
        json!({"choices": [{"index": 0, "delta": {"tool_calls": [
            {"id": id, "type": "function", "function": {"name": name, "arguments": args}}
        ]}, "finish_reason": null}]})
    };
    let finish = json!({"choices": [{"index": 0, "delta": {}, "finish_reason": "tool_calls"}]});
    let client = ReplayClient::new([sse_chunks(&[
        whole("call_f", "f", "{\"x\":1}"),
        whole("call_g", "g", "{\"y\":"),
        json!({"choices": [{"index": 0, "delta": {"tool_calls": [{"function": {"arguments": "2}"}}]}, "finish_reason": null}]}),
        finish,
    ])]);
    let last = ok(&generate(&openai(&client), ask("x"), true)).pop().unwrap();
    let calls: Vec<(Option<&str>, Option<&str>, Option<JsonObject>)> =
        last.get_function_calls().iter().map(|c| (c.id.as_deref(), c.name.as_deref(), c.args.clone())).collect();
    assert_eq!(
        calls,
        [
            (Some("call_f"), Some("f"), Some(obj(json!({"x": 1})))),
            (Some("call_g"), Some("g"), Some(obj(json!({"y": 2})))),
        ]
    );
    assert_eq!(last.error_code, None);
}

/// Gemini's OpenAI-compatible endpoint signs each call (`extra_content.google.thought_signature`),
/// and Gemini 3 refuses a request whose calls come back without their signatures: each is read onto
/// its call's part (whole responses and streams alike), stored as ADK stores bytes, and written back
/// with the call as ADK's LiteLlm writes it (standard base64). A signature streamed in a delta of
/// its own, before or after the rest of its call, with or without `index`, joins that call (as in
/// LiteLlm, it never opens a call). One that is empty or does not decode is dropped, as LiteLlm
/// drops it.
#[test]
fn openai_calls_keep_their_thought_signatures_for_the_next_request() {
    let signed = |mut call: Value, signature: &str| {
        call["extra_content"] = json!({"google": {"thought_signature": signature}});
        call
    };
    let call = |id: &str| json!({"id": id, "type": "function", "function": {"name": "f", "arguments": "{}"}});
    let at = |index: u64, call: Value| {
        let mut call = call;
        call["index"] = json!(index);
        call
    };
    let alone = |signature: &str| signed(json!({}), signature);
    let calls = [signed(call("a"), "c2ln+/8="), call("b"), signed(call("c"), "not base64!"), signed(call("d"), "")];
    let whole = json!({"choices": [{"index": 0, "message": {"role": "assistant", "tool_calls": calls}, "finish_reason": "tool_calls"}]});
    let stream_of = |deltas: &[Value]| {
        let chunk = |c: &Value| json!({"choices": [{"index": 0, "delta": {"tool_calls": [c]}, "finish_reason": null}]});
        let finish = json!({"choices": [{"index": 0, "delta": {}, "finish_reason": "tool_calls"}]});
        sse_chunks(&deltas.iter().map(chunk).chain([finish]).collect::<Vec<_>>())
    };
    let rest = [call("b"), signed(call("c"), "not base64!"), signed(call("d"), "")];
    // Without `index` (Gemini's way): the signature before its call, then after it.
    let before = [&[alone("c2ln+/8="), call("a")][..], &rest].concat();
    let after = [&[call("a"), alone("c2ln+/8=")][..], &rest].concat();
    // With `index`: the call's id and name, its arguments, then its signature, each alone; the
    // signature of the next index before its call.
    let indexed = [
        at(0, json!({"id": "a", "type": "function", "function": {"name": "f", "arguments": ""}})),
        at(0, json!({"function": {"arguments": "{}"}})),
        at(0, alone("c2ln+/8=")),
        at(1, call("b")),
        at(2, alone("not base64!")),
        at(2, call("c")),
        at(3, signed(call("d"), "")),
    ];
    for (reply, stream) in [
        (Reply::json(200, &whole.to_string()), false),
        (stream_of(&calls), true),
        (stream_of(&before), true),
        (stream_of(&after), true),
        (stream_of(&indexed), true),
    ] {
        let client = ReplayClient::new([reply, Reply::json(200, r#"{"choices": []}"#)]);
        let answer = ok(&generate(&openai(&client), ask("x"), stream)).pop().unwrap();
        assert_eq!(answer.error_code, None, "stream {stream}");
        let ids: Vec<_> = answer.get_function_calls().iter().map(|c| c.id.clone().unwrap()).collect();
        assert_eq!(ids, ["a", "b", "c", "d"], "stream {stream}");
        let parts = serde_json::to_value(&answer.content.as_ref().unwrap().parts).unwrap();
        let signatures: Vec<&Value> = parts.as_array().unwrap().iter().map(|p| &p["thoughtSignature"]).collect();
        assert_eq!(signatures, [&json!("c2ln-_8="), &Value::Null, &Value::Null, &Value::Null], "stream {stream}");

        let mut next = ask("x");
        next.contents.push(answer.content.clone().unwrap());
        generate(&openai(&client), next, false);
        let sent = &client.body(1)["messages"][1]["tool_calls"];
        let extra: Vec<&Value> = sent.as_array().unwrap().iter().map(|c| &c["extra_content"]).collect();
        let first = json!({"google": {"thought_signature": "c2ln+/8="}});
        assert_eq!(extra, [&first, &Value::Null, &Value::Null, &Value::Null], "stream {stream}");
    }
}

#[test]
fn a_stream_closed_between_chunks_without_a_finish_is_unavailable() {
    // A proxy closing the connection after whole events: no cut inside an event, but no finish either.
    let gemini_part =
        r#"data: {"candidates": [{"content": {"parts": [{"text": "반쯤"}], "role": "model"}, "index": 0}]}"#;
    let openai_part = r#"data: {"choices": [{"index": 0, "delta": {"content": "반쯤"}, "finish_reason": null}]}"#;
    let gemini_client = ReplayClient::new([Reply::sse(format!("{gemini_part}\r\n\r\n").as_bytes())]);
    let openai_client = ReplayClient::new([Reply::sse(format!("{openai_part}\n\n").as_bytes())]);
    for out in [generate(&gemini(&gemini_client), ask("x"), true), generate(&openai(&openai_client), ask("x"), true)] {
        assert!(out.first().is_some_and(|r| r.as_ref().is_ok_and(|r| r.partial == Some(true))), "{out:?}");
        let last = out.last().unwrap().as_ref().unwrap_err();
        assert_eq!(last.code, ErrorCode::Unavailable, "{}", last.message);
    }
}

#[test]
fn both_adapters_end_the_request_on_a_user_turn_as_adk_models_do() {
    // google-adk's Gemini and LiteLlm (BaseLlm._maybe_append_user_content): no contents, or a last
    // turn of the model's own, gets a user turn asking it to go on; a user's last turn is left as it is.
    const HANDLE: &str = "Handle the requests as specified in the System Instruction.";
    const CONTINUE: &str =
        "Continue processing previous requests as instructed. Exit or provide a summary if no more outputs are needed.";
    let model_turn = Content::new("model", vec![Part::from_text("Done.")]);
    let cases: [(Vec<Content>, Option<&str>); 3] = [
        (vec![], Some(HANDLE)),
        (vec![Content::user_text("hi"), model_turn], Some(CONTINUE)),
        (vec![Content::user_text("hi")], None),
    ];
    for (contents, added) in cases {
        let len = contents.len();
        let client = ReplayClient::new([Reply::sse(&fixture("gemini-stream-text.sse"))]);
        generate(&gemini(&client), LlmRequest { contents: contents.clone(), ..Default::default() }, true);
        let sent = client.body(0)["contents"].as_array().unwrap().clone();
        let client = ReplayClient::new([Reply::sse(&fixture("openai-stream-text.sse"))]);
        generate(&openai(&client), LlmRequest { contents, ..Default::default() }, true);
        let messages = client.body(0)["messages"].as_array().unwrap().clone();
        match added {
            Some(text) => {
                assert_eq!(sent.len(), len + 1);
                assert_eq!(sent[len], json!({"role": "user", "parts": [{"text": text}]}));
                assert_eq!(messages.len(), len + 1);
                assert_eq!(messages[len], json!({"role": "user", "content": text}));
            }
            None => assert_eq!((sent.len(), messages.len()), (len, len)),
        }
    }
}

#[test]
fn openai_tool_choice_and_reasoning_content_as_adk_lite_llm_sends_them() {
    let mut thoughtful = full_request();
    // The model's turn had reasoning before its call (a thinking model: DeepSeek, vLLM, …).
    thoughtful.contents[1]
        .parts
        .as_mut()
        .unwrap()
        .insert(0, Part { thought: Some(true), ..Part::from_text("Weather? ") });
    thoughtful.contents[1]
        .parts
        .as_mut()
        .unwrap()
        .insert(1, Part { thought: Some(true), ..Part::from_text("Call it.") });
    for (mode, choice) in [("ANY", Some("required")), ("NONE", Some("none")), ("AUTO", None)] {
        let mut request = thoughtful.clone();
        request.config.settings.insert("toolConfig".into(), json!({"functionCallingConfig": {"mode": mode}}));
        let client = ReplayClient::new([Reply::sse(&fixture("openai-stream-text.sse"))]);
        generate(&openai(&client), request, true);
        let body = client.body(0);
        assert_eq!(body.get("tool_choice").and_then(Value::as_str), choice, "{mode}");
        assert_eq!(body["messages"][2]["reasoning_content"], json!("Weather? Call it."), "{mode}");
        assert_eq!(body["messages"][2]["content"], Value::Null, "{mode}");
    }
    // The nested key in either spelling, as every setting.
    let mut request = thoughtful.clone();
    request.config.settings.insert("tool_config".into(), json!({"function_calling_config": {"mode": "ANY"}}));
    request.config.settings.remove("toolConfig");
    let client = ReplayClient::new([Reply::sse(&fixture("openai-stream-text.sse"))]);
    generate(&openai(&client), request, true);
    assert_eq!(client.body(0)["tool_choice"], json!("required"));
    // No tools, no tool choice (LiteLlm drops it: providers refuse one without tools).
    let mut request = ask("hi");
    request.config.settings.insert("toolConfig".into(), json!({"functionCallingConfig": {"mode": "ANY"}}));
    let client = ReplayClient::new([Reply::sse(&fixture("openai-stream-text.sse"))]);
    generate(&openai(&client), request, true);
    assert!(client.body(0).get("tool_choice").is_none());
}

#[test]
fn gemini_service_tier_store_and_continuation_token_are_request_fields() {
    let mut request = ask("hi");
    request.config.settings =
        obj(json!({"service_tier": "flex", "store": false, "continuationToken": "t1", "temperature": 0.5}));
    let client = ReplayClient::new([Reply::sse(&fixture("gemini-stream-text.sse"))]);
    generate(&gemini(&client), request, true);
    let body = client.body(0);
    assert_eq!(
        (&body["serviceTier"], &body["store"], &body["continuationToken"]),
        (&json!("flex"), &json!(false), &json!("t1"))
    );
    assert_eq!(body["generationConfig"], json!({"temperature": 0.5}));
}

#[test]
fn openai_calls_that_share_an_index_as_lite_llm_reads_them() {
    let calls = |deltas: &[Value]| -> Vec<(String, String, JsonObject)> {
        let responses = ok(&replay_every_way(sse_chunks(deltas), openai, true));
        let calls = responses.last().unwrap().get_function_calls();
        calls.iter().map(|c| (c.id.clone().unwrap(), c.name.clone().unwrap(), c.args.clone().unwrap())).collect()
    };
    // Ollama numbers every call of a turn 0: a new id once a call's arguments are whole is another
    // call, and a delta without an id goes on with the newest.
    let ollama = [
        tool_delta(0, Some("a"), Some("f"), r#"{"x":1}"#),
        tool_delta(0, Some("b"), Some("g"), r#"{"y":"#),
        tool_delta(0, None, None, "2}"),
    ];
    assert_eq!(
        calls(&ollama),
        [("a".into(), "f".into(), obj(json!({"x": 1}))), ("b".into(), "g".into(), obj(json!({"y": 2})))]
    );
    // Some servers send a new id with every chunk of one call: before its arguments are whole, the
    // same call (the last id counts).
    let unstable = [tool_delta(0, Some("x1"), Some("f"), r#"{"a":"#), tool_delta(0, Some("x2"), None, "1}")];
    assert_eq!(calls(&unstable), [("x2".into(), "f".into(), obj(json!({"a": 1})))]);
}

#[test]
fn gemini_sends_inline_data_as_adk_gemini_does() {
    // ADK's Gemini model runs every inline part through `as_safe_part_for_llm`: the API refuses SVG
    // and office files as inline data.
    let blob = |mime: &str, data: &[u8]| Part::from_inline_data(data.to_vec(), mime);
    let request = LlmRequest {
        contents: vec![Content::new(
            "user",
            vec![
                blob("image/svg+xml", b"<svg/>"),
                blob("application/vnd.openxmlformats-officedocument.wordprocessingml.document", &[0; 2048]),
                blob("IMAGE/PNG", &[1, 2]),
            ],
        )],
        ..Default::default()
    };
    let client = ReplayClient::new([Reply::sse(&fixture("gemini-stream-text.sse"))]);
    generate(&gemini(&client), request, true);
    assert_eq!(
        client.body(0)["contents"][0]["parts"],
        json!([
            {"text": "<svg/>"},
            {"text": "[Binary artifact: inline-file, type: application/vnd.openxmlformats-officedocument.wordprocessingml.document, size: 2.0 KB. Content cannot be displayed inline.]"},
            {"inlineData": {"mimeType": "image/png", "data": "AQI="}}
        ])
    );
}
