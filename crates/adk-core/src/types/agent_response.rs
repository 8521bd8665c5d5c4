//! The seeds' `Part.from_customized_response`: a reply the voice channel plays with settings of its
//! own (no barge-in, DTMF input). The settings travel as JSON inline data of MIME type
//! `application/json+agentResponse`, the bytes Python's `json.dumps` writes for them.

use super::{Blob, Bytes, Part};
use crate::json::Writer;

/// The MIME type the channel recognises a customized response by.
pub const AGENT_RESPONSE_MIME_TYPE: &str = "application/json+agentResponse";

/// How a customized response is played (`from_customized_response`'s keyword arguments).
#[derive(Debug, Clone, PartialEq)]
pub struct CustomizedResponse {
    /// What is said.
    pub content: String,
    /// The user cannot interrupt it.
    pub disable_barge_in: bool,
    /// The user may answer with the keypad.
    pub enable_dtmf: bool,
    /// The key that ends keypad input.
    pub dtmf_finish_digit: String,
    /// Seconds of keypad silence that end the input.
    pub dtmf_endpointing_timeout: i64,
}

impl Default for CustomizedResponse {
    /// The seeds' defaults: interruptible, no DTMF, `#` ends keypad input after 3 seconds.
    fn default() -> Self {
        CustomizedResponse {
            content: String::new(),
            disable_barge_in: false,
            enable_dtmf: false,
            dtmf_finish_digit: "#".into(),
            dtmf_endpointing_timeout: 3,
        }
    }
}

/// `text` as Python's `json.dumps` quotes it: everything outside printable ASCII as `\uXXXX`.
fn python_string(out: &mut String, text: &str) {
    let mut writer = Writer::new();
    writer.str(text);
    const HEX: &[u8; 16] = b"0123456789abcdef";
    let mut units = [0u16; 2];
    for c in writer.into_string().chars() {
        if (' '..='~').contains(&c) {
            out.push(c);
            continue;
        }
        for unit in c.encode_utf16(&mut units).iter() {
            out.push_str("\\u");
            for shift in [12, 8, 4, 0] {
                out.push(char::from(*HEX.get(usize::from((unit >> shift) & 0xf)).unwrap_or(&b'0')));
            }
        }
    }
}

impl CustomizedResponse {
    /// The JSON text, key order and spacing as `json.dumps` gives them.
    pub fn to_json_text(&self) -> String {
        let mut out = String::from("{\"content\": ");
        python_string(&mut out, &self.content);
        out.push_str(", \"disableBargeIn\": ");
        out.push_str(if self.disable_barge_in { "true" } else { "false" });
        out.push_str(", \"enableDtmf\": ");
        out.push_str(if self.enable_dtmf { "true" } else { "false" });
        out.push_str(", \"dtmfFinishDigit\": ");
        python_string(&mut out, &self.dtmf_finish_digit);
        out.push_str(", \"dtmfEndpointingTimeout\": ");
        out.push_str(&crate::json::to_string(&self.dtmf_endpointing_timeout));
        out.push('}');
        out
    }
}

impl Part {
    /// The seeds' `Part.from_customized_response`.
    pub fn from_customized_response(response: &CustomizedResponse) -> Self {
        let blob = Blob {
            data: Some(Bytes(response.to_json_text().into_bytes())),
            mime_type: Some(AGENT_RESPONSE_MIME_TYPE.into()),
            ..Default::default()
        };
        Part { inline_data: Some(blob), ..Default::default() }
    }
}
