// `adk-wasm/ai-sdk`: an ADK agent behind the Vercel AI SDK's `useChat`, as a `ChatTransport`. The
// agent is a local runner, a session on an ADK server or a remote A2A agent (chat-source.js); its
// events become the `UIMessageChunk`s the AI SDK builds messages from. No import of `ai` at run time.
//
// Choices:
// - `chatId` is the ADK session id. A session missing on first use is created, seeded with the
//   chat's earlier messages (user text and files as the user's; assistant text, tool calls and
//   outputs as the root agent's), so a chat restored from storage keeps its context.
// - Tools the agent runs are `providerExecuted`: `useChat` neither calls `onToolCall` for them nor
//   waits for them. Calls the agent leaves open — long-running tools and the person's confirmations
//   (`adk_request_confirmation`) — are not: the front end answers them with `addToolOutput`, and the
//   next `sendMessages` sends each answer once as a `functionResponse` (with any new user message).
// - `regenerate-message` runs the last user message again as a new turn: ADK sessions only grow,
//   so the model sees its earlier answer too.
// - A run goes on when a reader cancels its stream (it is recorded in the session, and
//   `reconnectToStream` can pick it up); `abortSignal` stops it.
import { chatSource, functionResponsePart, newId, openCalls } from './chat-source.js';

export class AdkChatTransport {
  #source;
  #streaming;
  #canReconnect;
  /** chatId → the long-running calls still waiting for the front end's answer. */
  #open = new Map();
  /** chatId → the chunks of the run going on in this page. */
  #live = new Map();

  constructor(options) {
    this.#source = chatSource(options);
    this.#streaming = options.streaming;
    // A run on a server is its `/run_sse` response: nothing to attach a second reader to.
    this.#canReconnect = options.server === undefined;
  }

  /** A reconnected stream replays the run's chunks from its `start`. */
  get resumeStreamIsReplay() {
    return true;
  }

  async sendMessages({ trigger, chatId, messages, abortSignal }) {
    const last = messages.at(-1);
    // Tool outputs added to the last assistant message (or the chat asked to go on): it continues.
    const continuing = trigger === 'submit-message' && last?.role === 'assistant';
    const turn = continuing ? undefined : messages.findLast((m) => m.role === 'user');
    const open = await this.#openCalls(chatId, turn ? messages.slice(0, messages.lastIndexOf(turn)) : messages);
    const answers = messages.flatMap((m) => m.parts.filter((p) => isTool(p) && open.has(p.toolCallId) && answered(p)))
      .map((p) => { open.delete(p.toolCallId); return answer(p); });
    const parts = [...answers, ...(turn ? contentParts(turn) : [])];
    if (!parts.length) throw new TypeError('adk-wasm: nothing to send: no user message and no new tool output');

    const stop = new AbortController();
    const onAbort = () => stop.abort(abortSignal.reason);
    if (abortSignal?.aborted) onAbort();
    abortSignal?.addEventListener('abort', onAbort, { once: true });
    // A replay of a run that continues a message rebuilds the message's earlier parts first.
    const chunks = new Chunks(continuing ? replayOf(last) : []);
    if (this.#canReconnect) this.#live.set(chatId, chunks);
    const mapper = new EventMapper((chunk) => chunks.push(chunk), messages, open, continuing ? last : undefined);
    (async () => {
      try {
        const run = this.#source.run({ sessionId: chatId, newMessage: { role: 'user', parts }, streaming: this.#streaming, signal: stop.signal });
        for await (const event of run) mapper.event(event);
        if (stop.signal.aborted) mapper.abort(stop.signal.reason);
        else mapper.end();
      } catch (e) {
        // The session is what is known now: read it again on the next message.
        this.#open.delete(chatId);
        if (stop.signal.aborted) mapper.abort(stop.signal.reason);
        else mapper.end(e?.message ?? String(e));
      } finally {
        abortSignal?.removeEventListener('abort', onAbort);
        chunks.close();
        if (this.#live.get(chatId) === chunks) this.#live.delete(chatId);
      }
    })();
    return chunks.reader();
  }

  async reconnectToStream({ chatId }) {
    return this.#live.get(chatId)?.reader(true) ?? null;
  }

  /** The chat's open calls: read off its session the first time, which is created if missing. */
  async #openCalls(chatId, earlier) {
    let open = this.#open.get(chatId);
    if (open) return open;
    const source = this.#source;
    const session = (await source.getSession(chatId)) ?? (await source.createSession(chatId, {}, seed(earlier, (await source.agentName()) ?? 'model')));
    open = openCalls(session.events ?? []);
    this.#open.set(chatId, open);
    return open;
  }
}

/** The chunks of one run, for its reader and any reconnected one. */
class Chunks {
  #chunks = [];
  #closed = false;
  #changed = null;
  #wake = null;

  /** `replay`: what a reconnected reader gets after `start`, before the run's own chunks. */
  constructor(replay) {
    this.replay = replay;
  }

  push(chunk) {
    this.#chunks.push(chunk);
    this.#notify();
  }

  close() {
    this.#closed = true;
    this.#notify();
  }

  #notify() {
    this.#wake?.();
    this.#changed = null;
  }

  /** Every chunk from the first (and the replay when `reconnected`); cancelling it leaves the run going. */
  reader(reconnected) {
    const replay = reconnected ? [...this.replay] : [];
    let next = 0;
    return new ReadableStream({
      pull: async (controller) => {
        if (next === 1 && replay.length) return controller.enqueue(replay.shift());
        while (next === this.#chunks.length && !this.#closed) {
          await (this.#changed ??= new Promise((resolve) => { this.#wake = resolve; }));
        }
        if (next < this.#chunks.length) controller.enqueue(this.#chunks[next++]);
        else controller.close();
      },
    });
  }
}

/**
 * ADK events → UIMessageChunks. A step is one model response (its partial chunks and the complete
 * event, or an event ADK makes, such as a confirmation request) with the function responses that
 * follow it. Partial text streams as deltas; the complete event then adds only what they missed.
 * Agents that answer at once (a ParallelAgent's branches) share the step, each streaming into
 * parts of its own: what follows is kept per author.
 */
class EventMapper {
  #push;
  #step = false;
  /** Authors whose model response is still streaming: with none, the next model output starts a new step. */
  #streaming = new Set();
  /** Author → 'text' | 'reasoning' → its open part's id. */
  #blocks = new Map();
  /** Author → what partial chunks streamed of its current response, by kind, not yet matched by the complete event. */
  #streamed = new Map();
  #ids = 0;
  #calls;
  /** Calls left for the front end to answer. */
  #open;
  #paused = false;
  #failed = false;
  #finishReason;
  #inputs;

  /** `continued`: the assistant message this run adds to. */
  constructor(push, messages, open, continued) {
    this.#push = push;
    this.#open = open;
    const parts = messages.flatMap((m) => (m.role === 'assistant' ? m.parts.filter(isTool) : []));
    // A response to a call of an earlier message (a confirmed tool, answered in a new turn) is
    // declared again in this one, with its input.
    this.#inputs = new Map(parts.map((p) => [p.toolCallId, p.input]));
    this.#calls = new Set(continued?.parts.filter(isTool).map((p) => p.toolCallId));
    push({ type: 'start', messageId: continued?.id ?? newId() });
  }

  event(event) {
    const parts = event.content?.parts ?? [];
    const longRunning = event.longRunningToolIds ?? [];
    const author = event.author ?? '';
    // Function responses join the step of their calls (outputs of an earlier message's calls update those).
    if (parts.some((p) => typeof p.text === 'string' || p.functionCall)) {
      if (!this.#step || !this.#streaming.size) this.#startStep();
      if (event.partial) this.#streaming.add(author);
    }
    // Any complete event of an author ends its streaming, even one without text (an aggregate of
    // empty chunks, a failed stream's error).
    if (!event.partial) this.#streaming.delete(author);

    for (const part of parts) {
      if (typeof part.text === 'string') this.#text(author, part.thought ? 'reasoning' : 'text', part.text, event.partial);
      // Calls come complete in the final event of a response.
      else if (part.functionCall && !event.partial) this.#call(author, part.functionCall, longRunning.includes(part.functionCall.id));
      else if (part.functionResponse) this.#response(author, part.functionResponse, event.actions);
    }
    if (!event.partial) {
      this.#closeBlocks(author);
      this.#streamed.delete(author);
      if (parts.length && event.finishReason) this.#finishReason = finishReasonOf(event.finishReason);
    }
    const { stateDelta, artifactDelta } = event.actions ?? {};
    if (stateDelta && Object.keys(stateDelta).length) this.#push({ type: 'data-state', data: stateDelta });
    if (artifactDelta && Object.keys(artifactDelta).length) this.#push({ type: 'data-artifacts', data: artifactDelta });
    // A streamed answer cut short (the token limit, a content filter) carries its finish reason as an
    // error code too (ADK's stream aggregator); with its text, it ends as the same answer read whole
    // does: a finish, not a failure. Other reasons (a malformed call) stay errors.
    const cut = parts.length && event.errorCode === event.finishReason && /^(length|content-filter)$/.test(finishReasonOf(event.errorCode));
    if (event.errorCode && !cut) {
      this.#error(event.errorMessage ? `${event.errorCode}: ${event.errorMessage}` : event.errorCode, author);
    }
  }

  /** The run is over; `errorText` when it failed. */
  end(errorText) {
    if (errorText !== undefined) this.#error(errorText);
    this.#closeBlocks();
    if (this.#step) this.#push({ type: 'finish-step' });
    const finishReason = this.#failed ? 'error' : this.#paused ? 'tool-calls' : this.#finishReason ?? 'stop';
    this.#push({ type: 'finish', finishReason });
  }

  /** As `streamText` ends on abort: an `abort` chunk, nothing after it. */
  abort(reason) {
    this.#push({ type: 'abort', ...(reason !== undefined && { reason: reason?.message ?? String(reason) }) });
  }

  #startStep() {
    this.#closeBlocks();
    if (this.#step) this.#push({ type: 'finish-step' });
    this.#push({ type: 'start-step' });
    this.#step = true;
    this.#streamed.clear();
  }

  #text(author, kind, text, partial) {
    let streamed = this.#streamed.get(author);
    if (!streamed) this.#streamed.set(author, (streamed = {}));
    if (partial) streamed[kind] = (streamed[kind] ?? '') + text;
    else {
      const sent = streamed[kind] ?? '';
      if (sent.startsWith(text)) {
        streamed[kind] = sent.slice(text.length);
        return;
      }
      if (text.startsWith(sent)) text = text.slice(sent.length);
      streamed[kind] = '';
    }
    if (!text) return;
    let blocks = this.#blocks.get(author);
    if (!blocks?.[kind]) {
      this.#closeBlocks(author);
      this.#blocks.set(author, (blocks = { [kind]: `${kind}-${++this.#ids}` }));
      this.#push({ type: `${kind}-start`, id: blocks[kind] });
    }
    this.#push({ type: `${kind}-delta`, id: blocks[kind], delta: text });
  }

  /** Ends the open parts of `author`, or of every author. */
  #closeBlocks(author) {
    for (const [who, blocks] of this.#blocks) {
      if (author !== undefined && who !== author) continue;
      for (const [kind, id] of Object.entries(blocks)) this.#push({ type: `${kind}-end`, id });
      this.#blocks.delete(who);
    }
  }

  #call(author, { id, name, args }, longRunning) {
    this.#closeBlocks(author);
    this.#calls.add(id);
    if (longRunning) {
      this.#open.set(id, name);
      this.#paused = true;
    }
    this.#push({ type: 'tool-input-available', toolCallId: id, toolName: name, input: args ?? {}, ...(!longRunning && { providerExecuted: true }) });
  }

  #response(author, { id, name, response }, actions) {
    // A long-running tool's own first answer, or the stand-in of a call waiting for the person's
    // confirmation or credential: the call stays open for the front end.
    if (this.#open.has(id) || actions?.requestedToolConfirmations?.[id] || actions?.requestedAuthConfigs?.[id]) return;
    if (!this.#calls.has(id)) this.#call(author, { id, name, args: this.#inputs.get(id) }, false);
    const error = response?.error;
    this.#push(error === undefined
      ? { type: 'tool-output-available', toolCallId: id, output: response, providerExecuted: true }
      : { type: 'tool-output-error', toolCallId: id, errorText: typeof error === 'string' ? error : JSON.stringify(error), providerExecuted: true });
  }

  /** An error: of an author's event (other authors' parts stay open), or of the run. */
  #error(errorText, author) {
    this.#closeBlocks(author);
    this.#failed = true;
    this.#push({ type: 'error', errorText });
  }
}

/** Gemini's finish reasons, as the AI SDK names them. */
function finishReasonOf(reason) {
  if (reason === 'STOP') return 'stop';
  if (reason === 'MAX_TOKENS') return 'length';
  return /SAFETY|RECITATION|BLOCKLIST|PROHIBITED|SPII/.test(reason) ? 'content-filter' : 'other';
}

const isTool = (part) => part.type.startsWith('tool-') || part.type === 'dynamic-tool';
const toolName = (part) => part.toolName ?? part.type.slice(5);
const answered = (part) => part.state === 'output-available' || part.state === 'output-error';

/** The front end's answer to an open call, as the function response ADK waits for. */
function answer(part) {
  const output = part.state === 'output-error' ? { error: part.errorText } : part.output;
  return functionResponsePart(part.toolCallId, toolName(part), output);
}

/** A user message's text and files as ADK parts: `data:` URLs inline, other URLs by reference. */
function contentParts(message) {
  return message.parts.flatMap((part) => {
    if (part.type === 'text') return part.text ? [{ text: part.text }] : [];
    if (part.type !== 'file') return [];
    const data = /^data:[^,]*?(;base64)?,/.exec(part.url);
    if (!data) return [{ fileData: { fileUri: part.url, mimeType: part.mediaType, ...(part.filename && { displayName: part.filename }) } }];
    const payload = part.url.slice(data[0].length);
    const base64 = data[1] ? payload : btoa(Array.from(new TextEncoder().encode(decodeURIComponent(payload)), (b) => String.fromCharCode(b)).join(''));
    return [{ inlineData: { data: base64, mimeType: part.mediaType, ...(part.filename && { displayName: part.filename }) } }];
  });
}

/** Chunks that rebuild `message`'s parts as this transport streamed them. */
function replayOf(message) {
  return message.parts.flatMap((part, i) => {
    const id = `replay-${i}`;
    if (part.type === 'step-start') return [{ type: 'start-step' }];
    if (part.type === 'text' || part.type === 'reasoning') {
      return [{ type: `${part.type}-start`, id }, { type: `${part.type}-delta`, id, delta: part.text }, { type: `${part.type}-end`, id }];
    }
    if (part.type.startsWith('data-')) return [{ type: part.type, data: part.data }];
    if (!isTool(part)) return [];
    const { toolCallId, providerExecuted } = part;
    const by = providerExecuted ? { providerExecuted } : {};
    return [
      { type: 'tool-input-available', toolCallId, toolName: toolName(part), input: part.input, ...by },
      ...(part.state === 'output-available' ? [{ type: 'tool-output-available', toolCallId, output: part.output, ...by }] : []),
      ...(part.state === 'output-error' ? [{ type: 'tool-output-error', toolCallId, errorText: part.errorText, ...by }] : []),
    ];
  });
}

/**
 * A new session's events from a chat's earlier messages. Each assistant step is one model event
 * (its text and calls) and one event of its calls' outputs; a call without output that the front
 * end was to answer stays open (long-running).
 */
function seed(messages, author) {
  const events = [];
  for (const message of messages) {
    if (message.role === 'user') {
      const parts = contentParts(message);
      if (parts.length) events.push({ author: 'user', content: { role: 'user', parts } });
      continue;
    }
    if (message.role !== 'assistant') continue;
    let said = [];
    let outputs = [];
    let longRunningToolIds = [];
    const flush = () => {
      if (said.length) events.push({ author, content: { role: 'model', parts: said }, ...(longRunningToolIds.length && { longRunningToolIds }) });
      if (outputs.length) events.push({ author, content: { role: 'user', parts: outputs } });
      [said, outputs, longRunningToolIds] = [[], [], []];
    };
    for (const part of [...message.parts, { type: 'step-start' }]) {
      if (part.type === 'step-start') flush();
      else if (part.type === 'text' && part.text) said.push({ text: part.text });
      else if (isTool(part)) {
        said.push({ functionCall: { id: part.toolCallId, name: toolName(part), args: part.input ?? {} } });
        if (answered(part)) outputs.push(answer(part));
        else if (!part.providerExecuted) longRunningToolIds.push(part.toolCallId);
      }
    }
  }
  return events;
}
