// ADK events → AG-UI events, as the `ag-ui-adk` middleware (PyPI, 0.11) translates them for one run:
// its `EventTranslator` and the routing around it in `ADKAgent`. What it adds for integrations of
// its own (predictive state, `confirm_changes`, streamed function-call arguments, A2UI) is not here.
import { newId } from './chat-source.js';

/** ADK 2.x's `Event.is_final_response()` (core.js has it too, behind the wasm glue this module avoids). */
export function isFinalResponse(event) {
  if (event.actions?.skipSummarization || event.longRunningToolIds?.length) return true;
  const parts = event.content?.parts ?? [];
  const calls = parts.some((p) => p.functionCall);
  if (event.errorCode && !event.partial && !calls) return true;
  return !calls && !parts.some((p) => p.functionResponse) && !event.partial && !parts.at(-1)?.codeExecutionResult;
}

/** `json.dumps(value, ensure_ascii=False)`: Python's separators, so a result reads as ag-ui-adk sends it. */
export function pythonJson(value) {
  if (Array.isArray(value)) return `[${value.map(pythonJson).join(', ')}]`;
  if (value !== null && typeof value === 'object') {
    return `{${Object.entries(value).filter(([, v]) => v !== undefined).map(([k, v]) => `${JSON.stringify(k)}: ${pythonJson(v)}`).join(', ')}}`;
  }
  return value === undefined ? 'null' : JSON.stringify(value);
}

/** RFC 6901: a state key as one JSON Pointer token. */
const pointer = (key) => `/${key.replaceAll('~', '~0').replaceAll('/', '~1')}`;

/** One run's translation: `translate(event)` and `close()` return the AG-UI events to emit. */
export class EventTranslator {
  constructor() {
    this.messageId = null; // the open text message
    this.streamedText = '';
    this.lastStreamedText = null;
    this.reasoningId = null; // the open reasoning block
    this.reasoningOpen = false; // … and its open message
    this.longRunningIds = new Set();
    this.emittedCallIds = new Set();
    this.signedCallIds = new Set();
    /** Whether the run stopped at a call the front end answers. */
    this.paused = false;
  }

  translate(event) {
    // `ag-ui-adk` ends the run at a call the front end answers; what the agent does after it (the
    // paused tool's placeholder answer) still reaches the session, not the front end.
    if (event.author === 'user' || this.paused) return [];
    const out = [];
    const parts = event.content?.parts ?? [];
    const calls = parts.filter((p) => p.functionCall).map((p) => p.functionCall);
    const lroIds = new Set(event.longRunningToolIds ?? []);
    for (const id of lroIds) this.longRunningIds.add(id);
    if (calls.some((c) => lroIds.has(c.id))) {
      // A call the front end answers: the text before it, then the call (ADKAgent's LRO branch).
      if (parts.length) out.push(...this.#text(event));
      // Only from the whole event: ADK gives a streamed chunk's call an id of its own, and the
      // answer must name the one the session keeps (`ag-ui-adk` maps one to the other instead).
      if (event.partial) return out;
      out.push(...this.#closeText());
      out.push(...this.#longRunningCalls(calls, lroIds));
      this.paused = true;
      return out;
    }
    if (parts.length) out.push(...this.#text(event));
    if (!event.partial && calls.length) {
      const open = calls.filter((c) => !this.longRunningIds.has(c.id) && !this.emittedCallIds.has(c.id));
      if (open.length) {
        out.push(...this.#closeText());
        for (const call of open) out.push(...this.#call(call));
      }
      out.push(...this.#callSignatures(parts));
    }
    for (const { functionResponse: response } of parts.filter((p) => p.functionResponse)) {
      if (this.longRunningIds.has(response.id)) continue;
      // The result of a call an earlier run started (a confirmed tool's) comes after its call declared
      // again: AG-UI wants each result's call started in the run (ag-ui-validate's AGUI207, which
      // `ag-ui-adk`'s lone result fails), and the front end closes the call it shows with it.
      const id = response.id ?? newId();
      if (!this.emittedCallIds.has(id)) out.push(...this.#call({ name: response.name }, id));
      out.push({ type: 'TOOL_CALL_RESULT', messageId: newId(), toolCallId: id, content: pythonJson(response.response ?? null) });
    }
    const delta = event.actions?.stateDelta;
    if (delta && Object.keys(delta).length) {
      out.push({ type: 'STATE_DELTA', delta: Object.entries(delta).map(([key, value]) => ({ op: 'add', path: pointer(key), value })) });
    }
    return out;
  }

  /** What the run leaves open: a text message the events never ended. */
  close() {
    return this.#closeText();
  }

  #text(event) {
    const out = [];
    const final = isFinalResponse(event);
    const texts = [];
    const thoughts = [];
    for (const part of event.content.parts) {
      if (!part.text) continue;
      if (part.thought === true) thoughts.push(part);
      else texts.push(part.text);
    }
    // A non-partial event after streamed thoughts repeats them.
    if (thoughts.length && !(this.reasoningOpen && !event.partial)) out.push(...this.#reasoning(thoughts));
    if (!texts.length && !final) return out;
    const text = texts.join('');
    if (final) {
      out.push(...this.#closeReasoning());
      if (this.messageId) {
        if (this.streamedText) this.lastStreamedText = this.streamedText;
        this.streamedText = '';
        out.push({ type: 'TEXT_MESSAGE_END', messageId: this.messageId });
        this.messageId = null;
        return out;
      }
      // The aggregated final response of a stream already ended (with no other event between).
      const last = this.lastStreamedText;
      this.lastStreamedText = null;
      if (last !== null && (text === last || last.endsWith(text))) return out;
      if (!text) return out;
    }
    if (!text) return out;
    const ending = (event.turnComplete && !event.partial) || (final && !event.partial) || (Boolean(event.finishReason) && this.messageId !== null);
    const streaming = this.messageId !== null;
    if (!streaming) {
      out.push(...this.#closeReasoning());
      this.messageId = newId();
      this.streamedText = '';
      out.push({ type: 'TEXT_MESSAGE_START', messageId: this.messageId, role: 'assistant' });
    }
    // The consolidated event after partial chunks repeats them.
    if (!(streaming && !event.partial)) {
      this.streamedText += text;
      out.push({ type: 'TEXT_MESSAGE_CONTENT', messageId: this.messageId, delta: text });
    }
    if (ending) {
      out.push({ type: 'TEXT_MESSAGE_END', messageId: this.messageId });
      if (this.streamedText) this.lastStreamedText = this.streamedText;
      this.streamedText = '';
      this.messageId = null;
    }
    return out;
  }

  #reasoning(thoughts) {
    const out = [];
    const text = thoughts.map((p) => p.text).join('');
    if (!text) return out;
    if (!this.reasoningId) {
      this.reasoningId = newId();
      out.push({ type: 'REASONING_START', messageId: this.reasoningId });
    }
    if (!this.reasoningOpen) {
      this.reasoningOpen = true;
      out.push({ type: 'REASONING_MESSAGE_START', messageId: this.reasoningId, role: 'reasoning' });
    }
    out.push({ type: 'REASONING_MESSAGE_CONTENT', messageId: this.reasoningId, delta: text });
    for (const { thoughtSignature } of thoughts) {
      if (thoughtSignature) out.push({ type: 'REASONING_ENCRYPTED_VALUE', subtype: 'message', entityId: this.reasoningId, encryptedValue: thoughtSignature });
    }
    return out;
  }

  #closeReasoning() {
    const out = [];
    if (this.reasoningOpen) out.push({ type: 'REASONING_MESSAGE_END', messageId: this.reasoningId ?? '' });
    if (this.reasoningId) out.push({ type: 'REASONING_END', messageId: this.reasoningId });
    this.reasoningOpen = false;
    this.reasoningId = null;
    return out;
  }

  #closeText() {
    if (!this.messageId) return [];
    const end = { type: 'TEXT_MESSAGE_END', messageId: this.messageId };
    this.streamedText = '';
    this.messageId = null;
    return [end];
  }

  #call(call, id = call.id ?? newId()) {
    const out = [{ type: 'TOOL_CALL_START', toolCallId: id, toolCallName: call.name }];
    if (call.args && Object.keys(call.args).length) out.push({ type: 'TOOL_CALL_ARGS', toolCallId: id, delta: JSON.stringify(call.args) });
    out.push({ type: 'TOOL_CALL_END', toolCallId: id });
    this.emittedCallIds.add(id);
    return out;
  }

  #longRunningCalls(calls, lroIds) {
    const out = [];
    for (const call of calls) {
      if (!lroIds.has(call.id) || this.emittedCallIds.has(call.id)) continue;
      out.push(...this.#call(call));
    }
    return out;
  }

  /** Gemini signs the call, not the thought before it. */
  #callSignatures(parts) {
    const out = [];
    for (const { functionCall: call, thoughtSignature } of parts) {
      if (!call || !thoughtSignature || !call.id || this.signedCallIds.has(call.id)) continue;
      this.signedCallIds.add(call.id);
      out.push({ type: 'REASONING_ENCRYPTED_VALUE', subtype: 'tool-call', entityId: call.id, encryptedValue: thoughtSignature });
    }
    return out;
  }
}
