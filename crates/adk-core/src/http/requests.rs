//! The seeds' `ces_requests`: HTTP calls from tool and callback code in the shape of Python's
//! `requests` (`get(url, params=…)`, `post(url, json=…)`, …), answered with an
//! [`ExternalResponse`]: an error status is a response, only a failed exchange is an error.

use std::rc::Rc;

use serde_json::Value;

use super::url::form_encode;
use super::{reason_phrase, ExternalResponse, HttpClient, HttpRequest};
use crate::cancellation::Cancellation;
use crate::{json, AdkError};

/// The methods `requests` offers.
pub const METHODS: [&str; 7] = ["GET", "POST", "PUT", "DELETE", "PATCH", "HEAD", "OPTIONS"];

/// What a call sends besides its method and URL.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct RequestOptions {
    /// Headers, in order.
    pub headers: Vec<(String, String)>,
    /// Query parameters, appended to the URL form-encoded.
    pub params: Vec<(String, String)>,
    /// A JSON body (sent with `Content-Type: application/json` unless a header says otherwise).
    pub json: Option<Value>,
    /// A text body, sent as it is.
    pub body: Option<String>,
}

/// `url` with `params` added to its query.
fn with_params(url: &str, params: &[(String, String)]) -> String {
    let mut out = url.to_string();
    for (i, (key, value)) in params.iter().enumerate() {
        out.push(if i == 0 && !url.contains('?') { '?' } else { '&' });
        form_encode(&mut out, key);
        out.push('=');
        form_encode(&mut out, value);
    }
    out
}

/// Sends `method url` through `client`; `cancellation` stops it (the run's, from a tool). HTTP error
/// statuses come back as responses; a bad method or both a JSON and a text body are INVALID_ARGUMENT,
/// a failed exchange is the client's error (UNAVAILABLE, ABORTED).
pub async fn request(
    client: &dyn HttpClient,
    method: &str,
    url: &str,
    options: RequestOptions,
    cancellation: Rc<Cancellation>,
) -> Result<ExternalResponse, AdkError> {
    let method = method.to_ascii_uppercase();
    if !METHODS.contains(&method.as_str()) {
        return Err(AdkError::invalid(["requests: unsupported method `", &method, "`"].concat()));
    }
    let mut headers = options.headers;
    let body = match (options.json, options.body) {
        (Some(_), Some(_)) => return Err(AdkError::invalid("requests: give json or body, not both")),
        (Some(value), None) => {
            if !headers.iter().any(|(name, _)| name.eq_ignore_ascii_case("content-type")) {
                headers.push(("Content-Type".into(), "application/json".into()));
            }
            Some(json::to_string(&value))
        }
        (None, body) => body,
    };
    let request = HttpRequest { method, url: with_params(url, &options.params), headers, body };
    let response = client.send(request, cancellation).await?;
    let status_code = response.status;
    let text = response.text().await?;
    Ok(ExternalResponse { status_code, reason: reason_phrase(status_code).into(), text })
}
