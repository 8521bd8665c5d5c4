// `adk-wasm/ag-ui`: an AG-UI agent (`@ag-ui/client`'s `AbstractAgent`) over a local runner, a session
// on an ADK server or a remote A2A agent, so AG-UI front ends (CopilotKit, `@ag-ui/client`, …) drop
// adk-wasm in as they would the `ag-ui-adk` middleware. A thread is an ADK session (its id the
// thread id); each run sends what the person added since the agent last spoke, and the events come
// back translated as `ag-ui-adk` translates them (see ag-ui-events.js).
import { AbstractAgent, PROTOCOL_VERSION } from '@ag-ui/client';
import { Observable } from 'rxjs';
import { chatSource, functionResponsePart, newId, openCalls } from './chat-source.js';
import { EventTranslator, pythonJson } from './ag-ui-events.js';

/** The front-end tools (`RunAgentInput.tools`) of the runs going on, by thread. */
const frontEndTools = new Map();

/**
 * Where an agent's tools include the front end's own (`RunAgentInput.tools`): put one in the
 * `LlmAgent`'s `tools` (as `ag-ui-adk`'s `AGUIToolset`). Each becomes a long-running tool: the run
 * stops at its call, the front end runs it, and its result (a `tool` message) continues the thread.
 */
export class AGUIToolset {
  constructor({ toolFilter, toolNamePrefix } = {}) {
    if (toolFilter !== undefined) this.toolFilter = toolFilter;
    if (toolNamePrefix !== undefined) this.prefix = toolNamePrefix;
  }

  async getTools({ sessionId }) {
    return (frontEndTools.get(sessionId) ?? []).map(({ name, description, parameters }) => ({
      name,
      description: description ?? '',
      parameters: parameters ?? { type: 'object', properties: {} },
      isLongRunning: true,
      // Nothing to run here: the call goes to the front end.
      execute: () => undefined,
    }));
  }
}

/**
 * An AG-UI agent over ADK: `new AgUiAgent({ runner, userId })`, `new AgUiAgent({ server, appName,
 * userId })` or `new AgUiAgent({ a2a })`, plus `AbstractAgent`'s own options.
 */
export class AgUiAgent extends AbstractAgent {
  constructor({ runner, server, a2a, appName, userId, streaming, emitMessagesSnapshot = false, emitSteps = false, allowScopedStateKeys = false, ...config } = {}) {
    super(config);
    this.source = chatSource({ runner, server, a2a, appName, userId });
    // Handed to each run, as the AI SDK transport does (a remote A2A agent streams as its card allows).
    this.options = { streaming, emitMessagesSnapshot, emitSteps, allowScopedStateKeys };
    this.controller = null;
  }

  run(input) {
    return new Observable((subscriber) => {
      const controller = new AbortController();
      this.controller = controller;
      runThread(this.source, this.options, input, controller.signal, (event) => subscriber.next(event))
        .then(() => subscriber.complete(), (error) => subscriber.error(error));
      // Unsubscribing (the client detaching, a component unmounting) stops the run.
      return () => controller.abort(abortError());
    });
  }

  abortRun() {
    this.controller?.abort(abortError());
    super.abortRun();
  }

  clone() {
    const copy = super.clone();
    copy.source = this.source;
    copy.options = this.options;
    copy.controller = null;
    return copy;
  }
}

const abortError = () => new DOMException('The AG-UI run was aborted', 'AbortError');

async function runThread(source, options, input, signal, emit) {
  const { threadId, runId } = input;
  emit({ type: 'RUN_STARTED', threadId, runId, protocolVersion: PROTOCOL_VERSION });
  const translator = new EventTranslator();
  // With `emitSteps`, each agent's turn is a step named after it (a hand-off ends one, starts the next).
  let step = null;
  const endStep = () => {
    if (step === null) return;
    translator.close().forEach(emit);
    emit({ type: 'STEP_FINISHED', stepName: step });
    step = null;
  };
  try {
    const session = await source.getSession(threadId);
    const turn = turnOf(input, session, session ? null : ((await source.agentName()) ?? 'model'));
    if (!turn) {
      emit({ type: 'RUN_FINISHED', threadId, runId });
      return;
    }
    const state = sessionState(input.state, options);
    if (!session) await source.createSession(threadId, state, turn.history);
    const changed = session ? changedState(session.state, state) : undefined;
    frontEndTools.set(threadId, input.tools ?? []);
    try {
      // As `ag-ui-adk`: the front end's context reaches the agent as the run's `custom_metadata`.
      const customMetadata = input.context?.length ? { ag_ui_context: input.context.map(({ description, value }) => ({ description, value })) } : undefined;
      for await (const event of source.run({ sessionId: threadId, newMessage: turn.newMessage, stateDelta: changed, streaming: options.streaming, customMetadata, signal })) {
        if (options.emitSteps && event.author !== 'user' && event.author !== step && !translator.paused) {
          endStep();
          step = event.author;
          emit({ type: 'STEP_STARTED', stepName: step });
        }
        translator.translate(event).forEach(emit);
      }
    } finally {
      frontEndTools.delete(threadId);
    }
    translator.close().forEach(emit);
    endStep();
    // As `ag-ui-adk`: the state (and the messages, when asked) once the agent is done; a run that
    // stopped at a call the front end answers ends at that call.
    const after = !translator.paused && (await source.getSession(threadId));
    if (after) {
      emit({ type: 'STATE_SNAPSHOT', snapshot: Object.fromEntries(Object.entries(after.state ?? {}).filter(([key]) => !key.startsWith('temp:'))) });
      if (options.emitMessagesSnapshot) emit({ type: 'MESSAGES_SNAPSHOT', messages: messagesOf(after.events ?? []) });
    }
    emit({ type: 'RUN_FINISHED', threadId, runId });
  } catch (error) {
    if (signal.aborted) throw signal.reason;
    translator.close().forEach(emit);
    endStep();
    // `ag-ui-adk`'s code for an agent that failed; the message is the error's.
    emit({ type: 'RUN_ERROR', message: String(error?.message ?? error), code: 'BACKGROUND_EXECUTION_ERROR' });
  }
}

/** State the front end sends, as the session keeps it: `app:`/`user:` keys only when allowed. */
function sessionState(state, { allowScopedStateKeys }) {
  if (!state || typeof state !== 'object' || Array.isArray(state)) return {};
  return Object.fromEntries(Object.entries(state).filter(([key]) => allowScopedStateKeys || !/^(app|user):/.test(key)));
}

function changedState(current = {}, wanted) {
  const delta = Object.fromEntries(Object.entries(wanted).filter(([key, value]) => JSON.stringify(current[key]) !== JSON.stringify(value)));
  return Object.keys(delta).length ? delta : undefined;
}

/**
 * What this run sends: answers to the calls the session still holds open (`tool` messages, wherever
 * the front end put them: CopilotKit puts each after the message of its call) and the person's
 * message after the agent last spoke. A new session first receives the earlier messages as its
 * history. `null` when there is nothing new.
 */
function turnOf(input, session, author) {
  const messages = input.messages ?? [];
  let last = messages.length - 1;
  while (last >= 0 && messages[last].role !== 'assistant') last--;
  const open = openCalls(session?.events ?? []);
  const answers = [];
  for (const m of messages) {
    if (m.role !== 'tool' || !open.has(m.toolCallId)) continue;
    answers.push(functionResponsePart(m.toolCallId, open.get(m.toolCallId), toolOutput(m.content)));
    open.delete(m.toolCallId);
  }
  const userIndex = messages.findLastIndex((m) => m.role === 'user');
  const user = userIndex > last ? messages[userIndex] : undefined;
  const parts = [...answers, ...(user ? userParts(user.content) : [])];
  if (!parts.length) return null;
  const history = session ? [] : historyOf(messages.slice(0, user ? userIndex : last + 1), author);
  return { newMessage: { role: 'user', parts }, history };
}

/** A tool message's content as `ag-ui-adk` reads it: JSON when it parses, else the text. */
function toolOutput(content) {
  const text = typeof content === 'string' ? content : (content ?? []).filter((p) => p.type === 'text').map((p) => p.text).join('');
  if (!text.trim()) return { success: true, result: null, status: 'completed' };
  try {
    return JSON.parse(text);
  } catch {
    return { success: true, result: text, status: 'completed' };
  }
}

/** A user message's content as ADK parts: text, and media by data or URL. */
function userParts(content) {
  if (typeof content === 'string') return content ? [{ text: content }] : [];
  return (content ?? []).flatMap((part) => {
    if (part.type === 'text') return part.text ? [{ text: part.text }] : [];
    const source = part.source;
    if (!source) return [];
    if (source.type === 'data') return [{ inlineData: { mimeType: source.mimeType, data: source.value } }];
    return [{ fileData: { fileUri: source.value, ...(source.mimeType && { mimeType: source.mimeType }) } }];
  });
}

/** Earlier messages as the events of a new session (the agent's by `author`), so it sees the conversation so far. */
function historyOf(messages, author) {
  return messages.flatMap((message) => {
    if (message.role === 'user') {
      const parts = userParts(message.content);
      return parts.length ? [{ author: 'user', content: { role: 'user', parts } }] : [];
    }
    if (message.role === 'assistant') {
      const parts = [
        ...(typeof message.content === 'string' && message.content ? [{ text: message.content }] : []),
        ...(message.toolCalls ?? []).map((call) => ({ functionCall: { id: call.id, name: call.function.name, args: parseArgs(call.function.arguments) } })),
      ];
      return parts.length ? [{ author, content: { role: 'model', parts } }] : [];
    }
    if (message.role === 'tool') {
      const name = messages.flatMap((m) => m.toolCalls ?? []).find((c) => c.id === message.toolCallId)?.function.name ?? 'unknown';
      return [{ author: 'user', content: { role: 'user', parts: [functionResponsePart(message.toolCallId, name, toolOutput(message.content))] } }];
    }
    return [];
  });
}

function parseArgs(text) {
  try {
    const args = JSON.parse(text || '{}');
    return args !== null && typeof args === 'object' && !Array.isArray(args) ? args : {};
  } catch {
    return {};
  }
}

/** A session's events as AG-UI messages (`ag-ui-adk`'s `adk_events_to_messages`). */
function messagesOf(events) {
  const messages = [];
  for (const event of events) {
    const parts = event.content?.parts;
    if (event.partial || !parts?.length) continue;
    const text = parts.filter((p) => p.text && p.thought !== true).map((p) => p.text).join('');
    const thinking = parts.filter((p) => p.text && p.thought === true).map((p) => p.text).join('');
    const responses = parts.filter((p) => p.functionResponse).map((p) => p.functionResponse);
    if (responses.length) {
      for (const r of responses) messages.push({ id: newId(), role: 'tool', content: pythonJson(r.response ?? null), toolCallId: r.id ?? newId() });
      continue;
    }
    const calls = parts.filter((p) => p.functionCall).map((p) => p.functionCall);
    if (event.author === 'user') {
      if (text) messages.push({ id: event.id, role: 'user', content: text });
      continue;
    }
    if (thinking) messages.push({ id: `${event.id}-reasoning`, role: 'reasoning', content: thinking });
    if (text || calls.length) {
      messages.push({
        id: event.id,
        role: 'assistant',
        ...(event.author !== 'model' && { name: event.author }),
        ...(text && { content: text }),
        ...(calls.length && { toolCalls: calls.map((c) => ({ id: c.id, type: 'function', function: { name: c.name, arguments: JSON.stringify(c.args ?? {}) } })) }),
      });
    }
  }
  return messages;
}
