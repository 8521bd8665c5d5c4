//! ADK's `RestApiTool`: one operation of a REST API as a tool. Its declaration is the operation's
//! arguments schema; a call builds the request, adds the credential the operation's security scheme
//! asks for (asking the person when there is none yet), sends it over the runner's HTTP client with
//! the run's cancellation, and hands the model the JSON answer, the text of any other answer, or
//! ADK's error text for a failed one.

use adk_core::http::HttpRequest;
use adk_core::json;
use adk_core::types::Bytes;
use async_trait::async_trait;
use futures_util::future::LocalBoxFuture;
use serde_json::Value;

use super::operation::{self, ApiParameter, Location, MAX_TOOL_NAME_LENGTH};
use super::request::{self, BadArguments, Endpoint};
use super::spec::ParsedOperation;
use crate::agent::ToolContext;
use crate::auth::{AuthConfig, CredentialManager};
use crate::model::FunctionDeclaration;
use crate::tool::toolset::{headers, HeaderProvider};
use crate::tool::{url_guard, Tool};
use crate::types::JsonObject;
use crate::{AdkError, ErrorCode};

/// One operation of a REST API (ADK's `RestApiTool`).
pub struct RestApiTool {
    pub(super) name: String,
    description: String,
    operation_id: String,
    endpoint: Endpoint,
    operation: JsonObject,
    params: Vec<ApiParameter>,
    pub(super) auth_scheme: Option<JsonObject>,
    pub(super) auth_credential: Option<JsonObject>,
    pub(super) credential_key: Option<String>,
    pub(super) header_provider: Option<HeaderProvider>,
    pub(super) allow_private_network_access: bool,
}

impl RestApiTool {
    /// The tool of a parsed operation (ADK's `from_parsed_operation`).
    pub fn from_parsed_operation(parsed: ParsedOperation, preserve_property_names: bool) -> Result<Self, AdkError> {
        let text = |key: &str| parsed.operation.get(key).and_then(Value::as_str).filter(|s| !s.is_empty());
        let operation_id = text("operationId").unwrap_or_default().to_string();
        let description = text("description").or_else(|| text("summary")).unwrap_or_default().to_string();
        if operation_id.is_empty() {
            return Err(AdkError::invalid(
                ["OpenAPI spec: Operation ID is missing (", parsed.method, " ", &parsed.path, ")"].concat(),
            ));
        }
        // Cut, then snake_cased again and cut again, as ADK names it (a cut that ends in `_` loses it).
        let cut = |name: &str| adk_core::text::first_chars(name, MAX_TOOL_NAME_LENGTH).to_string();
        let name = cut(&operation::to_snake_case(&cut(&operation::to_snake_case(&operation_id))));
        Ok(RestApiTool {
            params: operation::parameters(&parsed.operation, preserve_property_names),
            name,
            description,
            operation_id,
            endpoint: Endpoint { base_url: parsed.base_url, path: parsed.path, method: parsed.method },
            operation: parsed.operation,
            auth_scheme: parsed.auth_scheme,
            auth_credential: None,
            credential_key: None,
            header_provider: None,
            allow_private_network_access: false,
        })
    }

    /// ADK's error text for a call that failed (`_format_error_response`).
    fn error_response(&self, message: &str) -> Value {
        let error = [
            "Tool ",
            &self.name,
            " execution failed. Analyze this execution error and your inputs. Retry with adjustments if \
             applicable. But make sure don't retry more than 3 times. Execution Error: ",
            message,
        ]
        .concat();
        json::object([("error", error.into())])
    }

    /// The header or query parameter carrying `credential` for the scheme (ADK's
    /// `credential_to_param`), as `(location, name, value)`.
    fn credential_param(scheme: &JsonObject, credential: &JsonObject) -> Result<(Location, String, String), AdkError> {
        fn text<'a>(o: Option<&'a Value>, key: &str) -> Option<&'a str> {
            o?.get(key)?.as_str()
        }
        let key = credential.get("apiKey").and_then(Value::as_str);
        if let (Some("apiKey"), Some(key)) = (scheme.get("type").and_then(Value::as_str), key) {
            let location = match scheme.get("in").and_then(Value::as_str) {
                Some("header") => Location::Header,
                Some("query") => Location::Query,
                Some("cookie") => Location::Cookie,
                other => {
                    return Err(AdkError::invalid(["Invalid API Key location: ", other.unwrap_or("none")].concat()))
                }
            };
            let name = scheme.get("name").and_then(Value::as_str).unwrap_or_default();
            return Ok((location, name.into(), key.into()));
        }
        let http = credential.get("http");
        let credentials = http.and_then(|h| h.get("credentials"));
        // OAuth2 and OpenID Connect tokens go as bearer tokens, as ADK's exchanger turns them.
        let token = text(credentials, "token").or_else(|| text(credential.get("oauth2"), "accessToken"));
        if let Some(token) = token {
            return Ok((Location::Header, "Authorization".into(), ["Bearer ", token].concat()));
        }
        let basic = text(http, "scheme").is_some_and(|s| s.eq_ignore_ascii_case("basic"));
        let (username, password) = (text(credentials, "username"), text(credentials, "password"));
        if basic && (username.is_some() || password.is_some()) {
            let username = username.unwrap_or_default();
            if username.contains(':') {
                return Err(AdkError::invalid("Invalid HTTP auth credentials: username cannot contain colons"));
            }
            let pair = [username, ":", password.unwrap_or_default()].concat();
            let encoded = Bytes(pair.into_bytes()).to_standard_base64();
            return Ok((Location::Header, "Authorization".into(), ["Basic ", &encoded].concat()));
        }
        Err(AdkError::invalid("Invalid HTTP auth credentials"))
    }
}

impl RestApiTool {
    /// The credential for the operation's scheme, or `None` once the person has been asked for it
    /// (ADK's `ToolAuthHandler.prepare_auth_credentials`). Boxed, as the send is: the tool's own
    /// future then stays small.
    fn credential<'a>(
        &'a self,
        scheme: &'a JsonObject,
        ctx: &'a ToolContext,
    ) -> LocalBoxFuture<'a, Result<Option<JsonObject>, AdkError>> {
        Box::pin(async move {
            let mut config = JsonObject::new();
            config.insert("authScheme".into(), Value::Object(scheme.clone()));
            if let Some(credential) = &self.auth_credential {
                config.insert("rawAuthCredential".into(), Value::Object(credential.clone()));
            }
            if let Some(key) = &self.credential_key {
                config.insert("credentialKey".into(), key.as_str().into());
            }
            let manager = CredentialManager::new(AuthConfig::from_json(config)?);
            let credential = manager.get_auth_credential(ctx).await?;
            if credential.is_none() {
                manager.request_credential(ctx)?;
            }
            Ok(credential)
        })
    }

    /// The request for `args` with the credential and the header provider's headers; a call that
    /// cannot be made is the error response the model gets instead (ADK's `InputValidationError`
    /// and URL checks).
    fn request(
        &self,
        mut args: JsonObject,
        credential: Option<&JsonObject>,
        ctx: &ToolContext,
    ) -> Result<Result<HttpRequest, Value>, AdkError> {
        // A required argument the model left out takes its schema's default.
        for param in self.params.iter().filter(|p| p.required) {
            if let (false, Some(default)) = (args.contains_key(&param.py_name), param.schema.get("default")) {
                args.insert(param.py_name.clone(), default.clone());
            }
        }
        let mut extra_headers = Vec::new();
        // The configured credential's extra headers, scheme or not, as ADK adds them.
        let additional =
            self.auth_credential.as_ref().and_then(|c| c.get("http")).and_then(|h| h.get("additionalHeaders"));
        if let Some(additional) = additional.and_then(Value::as_object) {
            for (name, value) in additional {
                extra_headers.push((name.clone(), request::param_string(value)));
            }
        }
        let mut auth = None;
        if let (Some(scheme), Some(credential)) = (&self.auth_scheme, credential) {
            let (location, name, value) = Self::credential_param(scheme, credential)?;
            // Under ADK's internal prefix, ahead of the operation's own parameters.
            let py_name = ["_auth_prefix_vaf_", &name].concat();
            args.insert(py_name.clone(), value.into());
            auth = Some(ApiParameter { original_name: name, py_name, location, schema: Value::Null, required: false });
        }
        let params = request::Params { auth: auth.as_ref(), operation: &self.params };
        let mut request = match request::build(&self.endpoint, &self.operation, params, &args, extra_headers) {
            Ok(request) => request,
            Err(BadArguments(message)) => return Ok(Err(self.error_response(&message))),
        };
        if let Some(refusal) = url_guard::refusal(&request.url, self.allow_private_network_access) {
            return Ok(Err(self.error_response(&refusal)));
        }
        for (name, value) in headers(&self.header_provider, ctx)? {
            request::set_header(&mut request.headers, name, value);
        }
        Ok(Ok(request))
    }

    /// Sends `request` over the runner's client with the run's cancellation; the answer as the
    /// model gets it: JSON, else `{text}`, and ADK's error text for a failed status.
    fn send<'a>(&'a self, request: HttpRequest, ctx: &'a ToolContext) -> LocalBoxFuture<'a, Result<Value, AdkError>> {
        Box::pin(async move {
            let invocation = ctx.invocation_context().invocation();
            let http = invocation.http_client.clone().ok_or_else(|| {
                AdkError::new(ErrorCode::FailedPrecondition, "a RestApiTool needs the runner's HTTP client")
            })?;
            let url = request.url.clone();
            let response = http.send(request, invocation.cancellation.clone()).await.map_err(|e| {
                if e.code != ErrorCode::Unavailable {
                    return e;
                }
                let why = "the service did not answer, or did not allow this page's origin (CORS)";
                let message = [&self.name, ": ", self.endpoint.method, " ", &url, " failed: ", why].concat();
                AdkError::new(ErrorCode::Unavailable, message)
            })?;
            let status = response.status;
            let text = response.text().await?;
            if !(200..300).contains(&status) {
                return Ok(self.error_response(&format!("Status Code: {status}, {text}")));
            }
            Ok(json::parse("response", &text).unwrap_or_else(|_| json::object([("text", text.into())])))
        })
    }
}

/// What the person is told while the tool waits for their credential (ADK's words).
fn pending() -> Value {
    json::object([("pending", Value::Bool(true)), ("message", "Needs your authorization to access your data.".into())])
}

#[async_trait(?Send)]
impl Tool for RestApiTool {
    fn name(&self) -> &str {
        &self.name
    }

    fn declaration(&self) -> FunctionDeclaration {
        FunctionDeclaration {
            name: self.name.clone(),
            description: self.description.clone(),
            parameters: Some(operation::arguments_schema(&self.operation_id, &self.params)),
            response: None,
        }
    }

    async fn run(&self, args: JsonObject, ctx: ToolContext) -> Result<Value, AdkError> {
        let credential = match &self.auth_scheme {
            Some(scheme) => match self.credential(scheme, &ctx).await? {
                Some(credential) => Some(credential),
                None => return Ok(pending()),
            },
            None => None,
        };
        match self.request(args, credential.as_ref(), &ctx)? {
            Ok(request) => self.send(request, &ctx).await,
            Err(refused) => Ok(refused),
        }
    }
}
