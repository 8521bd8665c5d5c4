// Wires the demo together. Sessions come from a session source (sources.js): the agent choices that
// run in this page share the local one, services kept in this browser's IndexedDB, so sessions,
// state and artifacts survive switching between the offline tree, hosted models and a remote A2A
// agent, and a reload, with a Runner per run over them; the ADK server choice brings its own, an
// app on that server. The chat, timeline and panels are fed from either's sessions and events alike.
import init, * as adk from '../pkg/index.js';
import { a2aProvider } from './agents/remote.js';
import { geminiProvider, openAiProvider } from './agents/hosted.js';
import { offlineProvider } from './agents/offline.js';
import { serverProvider } from './agents/server.js';
import { localSource } from './sources.js';
import { Chat } from './ui/chat.js';
import { el } from './ui/dom.js';
import { ArtifactsPanel, SessionsList, StatePanel, makeTabs } from './ui/panels.js';
import { Timeline } from './ui/timeline.js';

const APP = 'adk_demo';
const USER = 'demo_user';
/** Given to every new session; `app:` state is shared app-wide, and the writer's instruction reads it. */
const INITIAL_STATE = { 'app:house_style': 'short, concrete, friendly' };
const EMPTY_CHAT = 'Send a message, or pick one of the suggestions above.';
const NO_SOURCE = 'Connect to an ADK server and choose one of its apps to see its sessions.';

const $ = (id) => document.getElementById(id);
const statusLine = $('status');
const setStatus = (text, kind = 'info') => {
  statusLine.textContent = text;
  statusLine.dataset.kind = kind;
};

try {
  await init();
} catch (e) {
  setStatus(`Could not load the WebAssembly package: ${e.message}`, 'error');
  throw e;
}

/** The demo's own database (an app of the origin keeps its data apart by name). */
const DATABASE = 'adk-wasm-demo';

/** The IndexedDB services and the sessions they kept; in memory where the browser has no IndexedDB (some private modes). */
async function openServices() {
  const stored = new adk.IndexedDbSessionService({ databaseName: DATABASE });
  try {
    const { sessions: kept } = await stored.listSessions({ appName: APP, userId: USER });
    return { sessionService: stored, artifactService: new adk.IndexedDbArtifactService({ databaseName: DATABASE }), persistent: true, kept };
  } catch (e) {
    setStatus(`Sessions are kept in memory only (${e.message}).`, 'warn');
    return { sessionService: new adk.InMemorySessionService(), artifactService: new adk.InMemoryArtifactService(), persistent: false, kept: [] };
  }
}

/** Session changes run one after another, each on what the last one left; a failure (a server gone) is shown, not thrown. */
let pending = Promise.resolve();
const serially = (fn) => (...args) => (pending = pending.then(() => fn(...args)).catch((e) => setStatus(`${e.code ?? e.name}: ${e.message}`, 'error')));

const { sessionService, artifactService, persistent, kept } = await openServices();
const local = localSource(adk, { appName: APP, userId: USER, initialState: INITIAL_STATE, sessionService, artifactService,
  label: persistent ? 'Kept in this browser.' : 'Kept in this page\'s memory until it is closed.' });
const chat = new Chat($('transcript'), adk.Transcript);
const timeline = new Timeline($('timeline'));
const statePanel = new StatePanel($('state'));
const artifacts = new ArtifactsPanel($('artifacts'));
const sessions = new SessionsList($('sessions'), { onSwitch: serially(switchSession), onDelete: serially(deleteSession) });
/** Session id → its first message, as a title (sessions have no names); read back after a reload. */
const titles = new Map();
const server = serverProvider(adk, { userId: USER, onSourceChange: serially(serverChanged) });
const providers = [offlineProvider(), geminiProvider(adk), openAiProvider(adk), a2aProvider(adk, $('a2a-view')), server];
let provider = providers[0];
/** Where the shown sessions are: the agent choice's source (local unless it brings one); null while it has none yet. */
let source = null;
let sessionId = null;
/** Source id → the session it showed last, to come back to. */
const lastShown = new Map();
/** The run in progress: its AbortController and a promise of its end. */
let current = null;

const sourceOf = (p) => (p.source ? p.source() : local);
const key = () => source.key(sessionId);
const message = $('message');
const sendButton = $('send');
const stopButton = $('stop');

// ---- Agent picker: one config panel per agent choice, built once and kept (forms keep their input).

const configs = new Map(providers.map((p) => [p.id, el('div', { className: 'agent-panel', id: `agent-${p.id}`, role: 'tabpanel', 'aria-labelledby': `tab-${p.id}` })]));
const starters = el('div', { className: 'starters', role: 'group', 'aria-label': 'Suggestions' });
$('agent-config').append(...configs.values(), starters);
for (const p of providers) p.mount(configs.get(p.id), adk);

const inspector = makeTabs($('inspector-tabs'), [
  { id: 'events', label: 'Events' }, { id: 'state', label: 'State' }, { id: 'artifacts', label: 'Artifacts' }, { id: 'a2a', label: 'A2A task' },
], { panelOf: (id) => $(`panel-${id}`) });
inspector.select('events');

const picker = makeTabs($('picker'), providers.map(({ id, label }) => ({ id, label })), {
  panelOf: (id) => configs.get(id),
  onSelect: async (id) => {
    if (provider.id !== id) await stopRun();
    provider = providers.find((p) => p.id === id);
    starters.replaceChildren(...provider.starters.map((text) => el('button', { type: 'button', className: 'starter', onclick: () => send(text) }, text)));
    inspector.button('a2a').hidden = provider.inspectorTab !== 'a2a';
    if (provider.inspectorTab) inspector.select(provider.inspectorTab);
    else if (inspector.button('a2a').getAttribute('aria-selected') === 'true') inspector.select('events');
    announce();
    serially(enterSource)(sourceOf(provider));
  },
});

/** The server choice connected or chose an app: while it is the agent choice, its sessions are shown. */
async function serverChanged() {
  if (provider !== server) return;
  await enterSource(server.source());
  announce();
}

function announce() {
  const ready = provider.ready();
  setStatus(ready === true ? `${provider.label} agent ready.` : ready, ready === true ? 'info' : 'warn');
}

// ---- Runs.

function setRunning(running) {
  sendButton.disabled = running;
  stopButton.disabled = !running;
  document.body.dataset.running = String(running);
}

async function send(text) {
  text = text.trim();
  if (!text || current) return;
  if (!titles.has(sessionId)) titles.set(sessionId, text);
  await run({ role: 'user', parts: [{ text }] }, () => { message.value = ''; });
}

/** The person's answer to a request card: the function response the agent waits for. */
function answer(request, value) {
  run(adk.createUserInputResponse(request, value));
}

/** An OAuth2 sign-in card: the popup, then the answer (the agent exchanges the code). */
function signIn(request) {
  setStatus('Signing in (in the popup)…', 'busy');
  return adk.signIn(request).then((message) => run(message), (e) => {
    setStatus(`The sign-in did not finish: ${e.message}`, 'warn');
    throw e;
  });
}

async function run(newMessage, accepted = () => {}) {
  if (current) return;
  const ready = provider.ready();
  if (ready !== true) return setStatus(ready, 'warn');
  // None while a source is being switched to, or when it could not list its sessions.
  if (!sessionId) return setStatus('There is no session to send to yet.', 'warn');
  accepted();
  // The source stores the user's event but yields only the agents' ones: show the message now.
  const turn = chat.beginTurn();
  turn.add(adk.createEvent({ author: 'user', content: newMessage }));
  statePanel.clearHighlights();
  provider.beforeRun?.();
  const controller = new AbortController();
  setRunning(true);
  setStatus(`${provider.label} agent is working…`, 'busy');
  let invocationId = null;
  let errorCode = null;
  const done = (async () => {
    try {
      // The local source runs the chosen agent in this page; a server source runs its app there.
      const events = source.run({ sessionId, newMessage, signal: controller.signal, agent: () => provider.createAgent(adk) });
      for await (const event of events) {
        invocationId ??= event.invocationId;
        errorCode ??= event.errorCode ?? null;
        turn.add(event);
        timeline.add(event);
        provider.onEvent?.(event);
        const { stateDelta = {}, artifactDelta = {} } = event.actions ?? {};
        if (Object.keys(stateDelta).length) statePanel.applyDelta(stateDelta);
        if (Object.keys(artifactDelta).length) await artifacts.show(source.artifacts, key());
      }
      if (errorCode) setStatus(`Finished with an error event (${errorCode}).`, 'error');
      else setStatus('Done.', 'ok');
    } catch (e) {
      if (e.name === 'AbortError') {
        turn.stopped();
        setStatus('Stopped.', 'info');
      } else {
        turn.failed(e);
        setStatus(`The run failed: ${e.message}`, 'error');
      }
    } finally {
      turn.finish();
      await afterRun(invocationId).catch((e) => setStatus(`Could not read the session back: ${e.message}`, 'error'));
      current = null;
      setRunning(false);
    }
  })();
  current = { controller, done };
}

/** Re-reads what the source kept: the state as stored, the user's event for the timeline. */
async function afterRun(invocationId) {
  const session = await source.getSession(sessionId);
  if (!session) return;
  statePanel.set(session.state);
  const userEvent = session.events.find((e) => e.author === 'user' && e.invocationId === invocationId);
  if (userEvent) timeline.add(userEvent);
  chat.showRequests(adk.getPendingUserInputRequests(session.events), answer, signIn);
  await Promise.all([artifacts.show(source.artifacts, key()), refreshSessions()]);
}

async function stopRun() {
  if (!current) return;
  current.controller.abort();
  await current.done;
}

// ---- Sessions.

/**
 * Shows the sessions of `next` (null: none until the agent choice has a source): the one it showed
 * last, else its newest, else a new one. `listed` is its sessions when the caller has them already.
 */
async function enterSource(next, listed) {
  if (next?.id === source?.id) return;
  await stopRun();
  if (source) lastShown.set(source.id, sessionId);
  source = next;
  sessionId = null;
  // Nothing of the previous source stays on screen while the next one loads (or fails to).
  $('session-source').textContent = next?.label ?? NO_SOURCE;
  $('new-session').disabled = !next;
  chat.reset(next ? 'Loading…' : NO_SOURCE);
  timeline.reset();
  statePanel.clearHighlights();
  statePanel.set({});
  artifacts.reset('No session shown.');
  sessions.render([], null, titles);
  if (!next) return;
  try {
    const list = listed ?? await next.listSessions();
    const last = lastShown.get(next.id);
    const id = list.some((s) => s.id === last) ? last : list.at(-1)?.id;
    if (id) await showSession(id);
    else await newSession();
  } catch (e) {
    chat.reset(`Could not read the sessions: ${e.message}`);
    throw e;
  }
}

async function refreshSessions() {
  const list = await source.listSessions();
  for (const { id } of list.filter((s) => !titles.has(s.id))) {
    const kept = await source.getSession(id);
    const first = kept?.events.find((e) => e.author === 'user' && e.content?.parts?.[0]?.text);
    if (first) titles.set(id, first.content.parts[0].text);
  }
  sessions.render(list, sessionId, titles);
}

async function showSession(id) {
  sessionId = id;
  const session = await source.getSession(id);
  chat.showEvents(session.events, EMPTY_CHAT);
  // A run paused on the person shows its card again after a reload or a switch.
  chat.showRequests(adk.getPendingUserInputRequests(session.events), answer, signIn);
  timeline.reset();
  for (const event of session.events) timeline.add(event);
  statePanel.clearHighlights();
  statePanel.set(session.state);
  await Promise.all([artifacts.show(source.artifacts, key()), refreshSessions()]);
}

async function newSession() {
  await stopRun();
  const session = await source.createSession();
  await showSession(session.id);
  message.focus();
}

async function switchSession(id) {
  if (id === sessionId) return;
  await stopRun();
  await showSession(id);
}

async function deleteSession(id) {
  if (id === sessionId) await stopRun();
  await source.deleteSession(id);
  titles.delete(id);
  if (id !== sessionId) return refreshSessions();
  const rest = await source.listSessions();
  if (rest.length) await showSession(rest.at(-1).id);
  else await newSession();
}

// ---- Composer.

$('composer').addEventListener('submit', (e) => {
  e.preventDefault();
  send(message.value);
});
message.addEventListener('keydown', (e) => {
  if (e.key === 'Enter' && !e.shiftKey && !e.isComposing) {
    e.preventDefault();
    send(message.value);
  }
});
stopButton.addEventListener('click', () => {
  stopRun();
  message.focus();
});
$('new-session').addEventListener('click', serially(newSession));
$('clear-data').addEventListener('click', async () => {
  await stopRun();
  if (persistent) await adk.IndexedDbSessionService.deleteDatabase(DATABASE);
  location.reload();
});

// After a reload: the most recent conversation, as it was left.
await serially(enterSource)(local, kept);
picker.select(providers[0].id);
document.body.dataset.ready = 'true';
