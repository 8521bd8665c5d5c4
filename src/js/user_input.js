// What a paused run waits for, read off its events, and the message that answers it: `@google/adk`
// 2.0's three functions, plus `kind: 'choice'` (`get_user_choice`, with `options`) and a remote A2A
// task's question (`kind: 'input'`), which a UI must render too. Plain JS over event objects.

const CONFIRMATION = 'adk_request_confirmation';
const CREDENTIAL = 'adk_request_credential';
const INPUT = 'adk_request_input';
const CHOICE = 'get_user_choice';
/** What ADK 2.x (and a RemoteA2aAgent) puts in place of a remote A2A task's question. */
const REMOTE_INPUT = 'mock_function_call_for_required_user_input';
/** The same, for a remote task that needs the person to authenticate (out of band). */
const REMOTE_AUTH = 'mock_function_call_for_required_user_auth';

const asString = (v) => (typeof v === 'string' ? v : undefined);
const nonEmpty = (v) => (typeof v === 'string' && v.trim() ? v : undefined);
const camel = (k) => k.replace(/_([a-z])/g, (_, c) => c.toUpperCase());

/**
 * ADK's Python side writes a credential request's args in snake_case; read them in camelCase. The
 * keys of a map stay as they are: an OAuth2 flow's `scopes` (`public_repo` is a scope, and the
 * answer sends it back as asked) and HTTP auth's `additionalHeaders`.
 */
function camelKeys(value) {
  if (Array.isArray(value)) return value.map(camelKeys);
  if (!value || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => {
    k = camel(k);
    return [k, k === 'scopes' || k === 'additionalHeaders' ? v : camelKeys(v)];
  }));
}

/** Every request for the person in one event, in part order (answered or not). */
export function getUserInputRequests(event) {
  const requests = [];
  for (const part of event?.content?.parts ?? []) {
    const call = part?.functionCall;
    if (!call?.name) continue;
    const args = call.name === CREDENTIAL ? camelKeys(call.args ?? {}) : (call.args ?? {});
    const interruptId = call.id ?? asString(args.interruptId) ?? asString(args.functionCallId);
    if (!interruptId) continue;
    const base = { interruptId, functionCallName: call.name, author: event.author };
    switch (call.name) {
      case INPUT:
        requests.push({ ...base, kind: 'input', message: asString(args.message), payload: args.payload ?? undefined,
          responseSchema: args.response_schema ?? undefined });
        break;
      case CREDENTIAL:
        requests.push({ ...base, kind: 'credential', message: asString(args.message), authConfig: args.authConfig ?? undefined });
        break;
      case CONFIRMATION: {
        const confirmation = args.toolConfirmation;
        const original = args.originalFunctionCall;
        requests.push({ ...base, kind: 'confirmation', message: nonEmpty(confirmation?.hint),
          payload: confirmation?.payload ?? undefined, toolName: asString(original?.name), toolArgs: original?.args ?? undefined });
        break;
      }
      case REMOTE_INPUT:
      case REMOTE_AUTH:
        if (Array.isArray(event.longRunningToolIds) && event.longRunningToolIds.includes(interruptId)) {
          const prompt = call.name === REMOTE_INPUT ? args.input_required : args.auth_required;
          const message = typeof prompt === 'string' ? prompt : JSON.stringify(prompt);
          // A remote sign-in has no auth config: the person signs in where the prompt says.
          requests.push({ ...base, kind: call.name === REMOTE_INPUT ? 'input' : 'credential', message });
        }
        break;
      case CHOICE:
        if (Array.isArray(event.longRunningToolIds) && event.longRunningToolIds.includes(interruptId)) {
          requests.push({ ...base, kind: 'choice', options: Array.isArray(args.options) ? args.options.map(String) : [] });
        }
        break;
      default:
        break;
    }
  }
  return requests;
}

/** Whether the event asks the person for something. */
export function requiresUserInput(event) {
  return getUserInputRequests(event).length > 0;
}

/** The requests across `events` (a session's, or a run's so far) not answered yet, in the order raised. */
export function getPendingUserInputRequests(events) {
  const answered = new Set();
  for (const event of events ?? []) {
    for (const part of event?.content?.parts ?? []) {
      const id = part?.functionResponse?.id;
      if (id) answered.add(id);
    }
  }
  const pending = [];
  const seen = new Set();
  for (const event of events ?? []) {
    for (const request of getUserInputRequests(event)) {
      if (answered.has(request.interruptId) || seen.has(request.interruptId)) continue;
      seen.add(request.interruptId);
      pending.push(request);
    }
  }
  return pending;
}

function invalid(message) {
  return Object.assign(new Error(message), { name: 'AdkError', code: 'INVALID_ARGUMENT' });
}

/**
 * The user message answering `request` (see index.d.ts). A credential goes inside the requested
 * `authConfig` as its `exchangedAuthCredential`: the form both ADK lines accept.
 */
export function createUserInputResponse(request, answer) {
  if (!request || typeof request.interruptId !== 'string' || typeof request.functionCallName !== 'string') {
    throw invalid('createUserInputResponse: expected a request from getUserInputRequests()');
  }
  let response;
  switch (request.kind) {
    case 'confirmation': {
      if (typeof answer?.confirmed !== 'boolean') throw invalid('createUserInputResponse: a confirmation needs {confirmed: boolean}');
      response = { confirmed: answer.confirmed };
      if (answer.payload !== undefined) response.payload = answer.payload;
      break;
    }
    case 'credential':
      if (request.functionCallName === REMOTE_AUTH) {
        // ADK never forwards this answer (it would carry credentials): the remote task goes on
        // with the person's words, sent beside it.
        if (typeof answer !== 'string' || !answer) throw invalid('createUserInputResponse: a remote sign-in is answered with what to tell the agent (a string)');
        return { role: 'user', parts: [
          { functionResponse: { id: request.interruptId, name: request.functionCallName, response: { result: 'signed in' } } },
          { text: answer },
        ] };
      }
      if (!answer || typeof answer !== 'object') throw invalid('createUserInputResponse: a credential needs {authType, …} or the completed authConfig');
      response = answer.authScheme ? answer : { ...request.authConfig, exchangedAuthCredential: answer };
      break;
    default:
      response = answer && typeof answer === 'object' && !Array.isArray(answer) ? answer : { result: answer };
  }
  return { role: 'user', parts: [{ functionResponse: { id: request.interruptId, name: request.functionCallName, response } }] };
}
