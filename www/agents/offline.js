// The default agent: a multi-agent tree that runs with no key and no network. Its models are
// deterministic JS objects that stream word by word, so every event kind of ADK shows up in the
// timeline and Stop can be tried mid-reply.
//
//   coordinator (LlmAgent, rule-based model; tools: calculator, save_note, clear_notes (asks to be
//   approved first), get_user_choice (the person picks), adk_request_input (the person answers),
//   whoami (the person signs in), and the tools of the MCP server `make demo` starts)
//   └── writer_loop (LoopAgent, at most 3 rounds)
//       ├── writer (LlmAgent, drafting model; outputKey "draft")
//       └── critic (LlmAgent, ScriptedModel: one critique, then exit_loop)
import { el } from '../ui/dom.js';
import { agentTreeView } from '../ui/panels.js';
import { makeTools, mcpTools } from './tools.js';

export const STARTERS = [
  'What is 12 * (3 + 4)?',
  'Note: buy oat milk',
  'Write a haiku about rain',
  'echo <b>markup</b> stays text',
  'Clear my notes',
  'Help me pick a colour',
  'Book me a table',
  'Who am I?',
  'Ask the MCP server about Seoul',
  'Simulate an error',
  'Hello! What can you do?',
];

const CHUNK_DELAY_MS = 40;

/** Resolves after `ms`; rejects with the signal's reason as soon as the run is stopped. */
function sleep(ms, signal) {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => { clearTimeout(timer); reject(signal.reason); }, { once: true });
  });
}

/** Streams `text` as partial chunks (a word and its trailing space each); ADK aggregates the final. */
async function* streamText(text, signal) {
  for (const piece of text.match(/\S+\s*|\s+/g) ?? []) {
    await sleep(CHUNK_DELAY_MS, signal);
    yield { content: { role: 'model', parts: [{ text: piece }] }, partial: true };
  }
}

const callOf = (name, args) => ({ content: { role: 'model', parts: [{ functionCall: { name, args } }] } });
const partsOf = (content) => content?.parts ?? [];
const textOf = (content) => partsOf(content).map((p) => p.text ?? '').join('');

/** The newest user turn: either the user's words or the function responses the model is waiting on. */
function lastTurn(request) {
  const last = request.contents.at(-1);
  const responses = partsOf(last).filter((p) => p.functionResponse).map((p) => p.functionResponse);
  return responses.length ? { responses } : { text: textOf(last).trim() };
}

/** Arithmetic the calculator can take, e.g. "what is 2 + 2?" → "2 + 2"; null when there is none. */
function arithmeticIn(text) {
  const match = text.match(/[-+(]?[\d.]+(?:\s*[-+*/%^x×÷()]\s*[-+(]?[\d.]+\)*)+\)*/i);
  return match ? match[0].replace(/[x×]/gi, '*').replace(/÷/g, '/').trim() : null;
}

const HELP = 'I am the offline coordinator: a deterministic model running in this page, no network needed. '
  + 'Try arithmetic ("what is 12 * (3 + 4)?") and I will call the calculator tool; '
  + '"note: …" saves a note to user state and to the notes.md artifact; '
  + '"clear my notes" asks for your approval first; "help me pick a colour" lets you choose; "book me a table" asks you a question; "who am I?" asks you to sign in; "ask the MCP server about Seoul" calls a tool of a real MCP server; '
  + '"write a haiku about rain" hands over to the writer loop, where a writer drafts and a critic reviews until it calls exit_loop; '
  + '"echo …" repeats your words; "simulate an error" shows an error event. '
  + 'Watch the event timeline, state and artifacts on the right while I answer.';

/** The coordinator's model: reads the last turn and picks a tool, a transfer or a streamed reply. */
const coordinatorModel = {
  model: 'offline-coordinator',
  async *generateContent(request, { signal }) {
    const turn = lastTurn(request);
    if (turn.responses) {
      const [{ name, response }] = turn.responses;
      if (name === 'clear_notes' && response?.error) return yield* streamText('Fine, your notes stay as they are.', signal);
      if (response?.error) return yield* streamText(`The ${name} tool failed: ${response.error}`, signal);
      if (name === 'clear_notes') return yield* streamText(`Done: ${response.cleared} note${response.cleared === 1 ? '' : 's'} deleted, with your approval.`, signal);
      if (name === 'get_user_choice') return yield* streamText(`${response.result} it is. The choice came back as the function response of the get_user_choice call.`, signal);
      if (name === 'adk_request_input') return yield* streamText(`Booked for ${response.result}. Your answer came back as the function response of adk_request_input.`, signal);
      // An MCP tool's answer is its CallToolResult: the text of its content.
      if (Array.isArray(response?.content)) {
        const said = response.content.filter((c) => c.type === 'text').map((c) => c.text).join('\n');
        return yield* streamText(`The MCP server's ${name} tool answered${response.isError ? ' with an error' : ''}: ${said}`, signal);
      }
      if (name === 'whoami') return yield* streamText(`You are ${response.name}. You signed in at the local OpenID provider; the whoami tool got the token and asked it who you are.`, signal);
      if (name === 'calculator') return yield* streamText(`${response.expression} = ${response.result}. The calculator tool worked it out, and the result is now in session state as last_result.`, signal);
      if (name === 'save_note') return yield* streamText(`Saved "${response.saved}". You have ${response.count} note${response.count === 1 ? '' : 's'}; they are in user:notes state and in ${response.file} (version ${response.version}).`, signal);
      return yield* streamText(`The ${name} tool answered.`, signal);
    }
    const { text } = turn;
    await sleep(CHUNK_DELAY_MS, signal);
    const echo = text.match(/^echo\s+([\s\S]+)/i);
    if (echo) return yield* streamText(`You said: ${echo[1]}`, signal);
    const note = text.match(/^(?:note|remember)\b[\s:,-]*([\s\S]+)/i);
    if (note) return yield callOf('save_note', { text: note[1].trim() });
    if (/\b(clear|delete|erase)\b.*\bnotes?\b/i.test(text)) return yield callOf('clear_notes', {});
    if (/\b(pick|choose)\b/i.test(text)) return yield callOf('get_user_choice', { options: ['Red', 'Green', 'Blue'] });
    if (/\bwho am i\b/i.test(text)) return yield callOf('whoami', {});
    const mcpCity = text.match(/\bmcp\b.*\babout\s+([\p{L} ]+?)[.!?]*$/iu);
    if (mcpCity) return yield callOf('describe_city', { city: mcpCity[1].trim() });
    if (/\b(book|reserve)\b/i.test(text)) return yield callOf('adk_request_input', { message: 'For what time?', response_schema: { type: 'string' } });
    if (/\b(write|draft)\b/i.test(text)) return yield callOf('transfer_to_agent', { agent_name: 'writer_loop' });
    if (/\b(error|fail)\b/i.test(text)) {
      return yield { errorCode: 'RESOURCE_EXHAUSTED', errorMessage: 'Simulated quota error from the offline model (ask for anything else to continue).' };
    }
    const expression = arithmeticIn(text);
    if (expression) return yield callOf('calculator', { expression });
    yield* streamText(HELP, signal);
  },
};

/** The writer's model: a first draft, then a revision once the critic has spoken. */
const writerModel = {
  model: 'offline-writer',
  async *generateContent(request, { signal }) {
    const said = request.contents.map(textOf);
    const ask = said.find((t) => /\b(write|draft)\b/i.test(t)) ?? 'write something';
    const topic = ask.match(/\babout\s+(.+?)[.!?]*$/i)?.[1] ?? 'the browser';
    const revising = said.some((t) => t.includes('Critique:'));
    const draft = revising
      ? `Revised draft:\n${topic} on the glass —\nthe page keeps its own weather,\nno server listening.`
      : `Draft:\n${topic} falls softly,\nwords arrive one at a time,\na page in the rain.`;
    yield* streamText(draft, signal);
  },
};

/** A fresh tree per run: the critic's ScriptedModel is consumed as it answers. */
export function buildOfflineAgent(adk) {
  const { calculator, saveNote, clearNotes, whoami } = makeTools(adk);
  const writer = new adk.LlmAgent({
    name: 'writer',
    description: 'Drafts short texts.',
    model: writerModel,
    instruction: 'Write in the house style: {app:house_style?}.',
    outputKey: 'draft',
    disallowTransferToParent: true,
    disallowTransferToPeers: true,
  });
  const critic = new adk.LlmAgent({
    name: 'critic',
    description: 'Reviews drafts; calls exit_loop when one is good enough.',
    model: new adk.ScriptedModel([
      { chunks: ['Critique: ', 'good imagery, ', 'but tie the last line ', 'to where this runs.'] },
      callOf('exit_loop', {}),
    ]),
    tools: [adk.exitLoop],
    disallowTransferToParent: true,
    disallowTransferToPeers: true,
  });
  const loop = new adk.LoopAgent({
    name: 'writer_loop',
    description: 'Writes and refines a short text: draft, critique, revise.',
    maxIterations: 3,
    subAgents: [writer, critic],
  });
  return new adk.LlmAgent({
    name: 'coordinator',
    description: 'Answers, calculates, keeps notes, and hands writing to the writer loop.',
    model: coordinatorModel,
    instruction: 'Help the user. Use calculator for arithmetic, save_note for notes, clear_notes to delete them, get_user_choice to let the user pick, adk_request_input to ask, whoami to know who they are, and transfer writing requests to writer_loop.',
    tools: [calculator, saveNote, clearNotes, adk.getUserChoiceTool, adk.requestInputTool, whoami, ...mcpTools(adk)],
    subAgents: [loop],
  });
}

export function offlineProvider() {
  return {
    id: 'offline',
    label: 'Offline',
    starters: STARTERS,
    mount(container, adk) {
      container.replaceChildren(
        el('p', {}, 'A multi-agent tree with deterministic models running in this page: no key, no network. Its JS tools really run; every ADK event kind shows up in the timeline.'),
        el('details', { className: 'tree' }, el('summary', {}, 'Agent tree'), el('ul', { className: 'agent-tree' }, agentTreeView(buildOfflineAgent(adk)))));
    },
    ready: () => true,
    createAgent: buildOfflineAgent,
  };
}
