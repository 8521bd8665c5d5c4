// A remote agent over A2A. Everything that touches the A2A API lives here, because that API is
// new: `A2AClient.fromCardUrl` reads the agent card, `RemoteA2aAgent` (given that client) chats
// through the runner like any local agent, so the chat, timeline and sessions work unchanged.
// The side view (task state, artifact chunks) watches the same stream on the wire: the client is
// given a `fetch` that copies each server-sent-events body, so nothing is requested twice.
import { el, pretty } from '../ui/dom.js';

/** A2A servers publish their card here; a bare server URL is completed with it. */
const CARD_PATH = '/.well-known/agent-card.json';

export function cardUrlOf(input) {
  const url = new URL(input, location.href);
  if (!url.pathname.includes('/.well-known/')) url.pathname = url.pathname.replace(/\/+$/, '') + CARD_PATH;
  return url.href;
}

/** The server URL the page was opened with: `?a2a=<url>`, or the one `make demo` injects. */
export function presetA2aUrl() {
  return new URLSearchParams(location.search).get('a2a') ?? window.ADK_DEMO_A2A_URL ?? '';
}

/** Stream responses in v1.0 form, whether the server speaks v1.0 or v0.3 (`kind`-tagged). */
function normalize(response) {
  if (!response || typeof response !== 'object') return null;
  if (['task', 'message', 'statusUpdate', 'artifactUpdate', 'resumed'].some((k) => k in response)) return response;
  const key = { task: 'task', message: 'message', 'status-update': 'statusUpdate', 'artifact-update': 'artifactUpdate' }[response.kind];
  return key ? { [key]: response } : null;
}

/** v0.3 says `completed`, v1.0 `TASK_STATE_COMPLETED`: show one spelling. */
export const stateName = (state = '') =>
  (state.startsWith('TASK_STATE_') ? state : `TASK_STATE_${state.toUpperCase().replace(/-/g, '_')}`);

/** Reads a copy of an SSE body and hands each decoded stream response to `onResponse`. */
async function watchSse(body, onResponse) {
  let buffer = '';
  const emit = (block) => {
    const data = block.split(/\r?\n/).filter((l) => l.startsWith('data:')).map((l) => l.slice(5).trimStart()).join('\n');
    if (!data) return;
    try {
      const parsed = JSON.parse(data);
      const response = normalize(parsed.result ?? parsed);
      if (response) onResponse(response);
    } catch {
      // Not JSON: the client reports broken streams itself; the side view just skips the block.
    }
  };
  try {
    for await (const chunk of body.pipeThrough(new TextDecoderStream())) {
      buffer += chunk;
      const blocks = buffer.split(/\r?\n\r?\n/);
      buffer = blocks.pop();
      blocks.forEach(emit);
    }
    emit(buffer);
  } catch {
    // The run was stopped or the connection dropped; the chat shows what that means.
  }
}

/** A `fetch` for the client that tees event streams to `onResponse` and passes everything through. */
function watchingFetch(onResponse) {
  return async (input, init) => {
    const response = await fetch(input, init);
    if (!response.body || !(response.headers.get('content-type') ?? '').includes('text/event-stream')) return response;
    const [forClient, forView] = response.body.tee();
    watchSse(forView, onResponse);
    return new Response(forClient, { status: response.status, statusText: response.statusText, headers: response.headers });
  };
}

const textOfParts = (parts = []) => parts.map((p) => p.text ?? (p.data !== undefined ? pretty(p.data) : p.file ? '[file]' : '')).join('');

/** The inspector's A2A tab: the current task's state changes and its artifacts as chunks arrive. */
class TaskView {
  #root;
  #task = null;

  constructor(root) {
    this.#root = root;
    this.reset();
  }

  reset(note = 'Connect to an A2A server and send a message to see its task here.') {
    this.#task = null;
    this.#root.replaceChildren(el('p', { className: 'empty' }, note));
  }

  /** A new message was sent: the next stream responses belong to it. */
  begin() {
    this.#task = { id: null, contextId: null, states: [], artifacts: new Map() };
    this.#render();
  }

  add(response) {
    const t = this.#task ?? (this.begin(), this.#task);
    const { task, message, statusUpdate, artifactUpdate, resumed } = response;
    if (task) {
      Object.assign(t, { id: task.id, contextId: task.contextId });
      if (task.status) t.states.push({ state: stateName(task.status.state), text: textOfParts(task.status.message?.parts) });
      for (const a of task.artifacts ?? []) t.artifacts.set(a.artifactId, { name: a.name, text: textOfParts(a.parts), chunks: 1, last: true });
    } else if (statusUpdate) {
      Object.assign(t, { id: statusUpdate.taskId, contextId: statusUpdate.contextId });
      t.states.push({ state: stateName(statusUpdate.status?.state), text: textOfParts(statusUpdate.status?.message?.parts) });
    } else if (artifactUpdate) {
      const { artifact, append, lastChunk } = artifactUpdate;
      const prev = t.artifacts.get(artifact.artifactId);
      const text = textOfParts(artifact.parts);
      t.artifacts.set(artifact.artifactId, append && prev
        ? { ...prev, text: prev.text + text, chunks: prev.chunks + 1, last: Boolean(lastChunk) }
        : { name: artifact.name, text, chunks: 1, last: Boolean(lastChunk) });
    } else if (message) {
      t.states.push({ state: 'message', text: textOfParts(message.parts) });
    } else if (resumed) {
      t.states.push({ state: 'resumed', text: `stream resumed (attempt ${resumed.attempt})` });
    }
    this.#render();
  }

  #render() {
    const t = this.#task;
    const current = t.states.filter((s) => s.state.startsWith('TASK_STATE_')).at(-1)?.state ?? 'waiting';
    this.#root.replaceChildren(
      el('dl', { className: 'task-facts' },
        el('dt', {}, 'Task'), el('dd', {}, el('code', {}, t.id ?? '—')),
        el('dt', {}, 'Context'), el('dd', {}, el('code', {}, t.contextId ?? '—')),
        el('dt', {}, 'State'), el('dd', {}, el('span', { className: `task-state state-${current.replace('TASK_STATE_', '').toLowerCase()}`, id: 'a2a-task-state' }, current))),
      el('h3', {}, 'Updates'),
      el('ol', { className: 'task-states' }, ...t.states.map((s) => el('li', {}, el('code', {}, s.state), s.text ? ` ${s.text}` : ''))),
      el('h3', {}, 'Artifacts'),
      t.artifacts.size
        ? el('ul', { className: 'task-artifacts' }, ...[...t.artifacts].map(([id, a]) => el('li', {},
          el('div', {}, el('strong', {}, a.name ?? id), ` · ${a.chunks} chunk${a.chunks === 1 ? '' : 's'}${a.last ? ' · last chunk' : ''}`),
          el('pre', { className: 'artifact-text' }, a.text))))
        : el('p', { className: 'empty' }, 'None yet.'));
  }
}

function cardView(client, cardUrl) {
  const card = client.card ?? {};
  const interfaces = card.supportedInterfaces ?? (card.url ? [{ url: card.url, protocolBinding: card.preferredTransport ?? 'JSONRPC', protocolVersion: card.protocolVersion }] : []);
  return el('div', { className: 'agent-card', id: 'a2a-card' },
    el('div', { className: 'agent-card-head' },
      el('h3', { className: 'agent-card-name' }, card.name ?? 'Unnamed agent'),
      el('span', { className: 'badge' }, `A2A ${client.protocolVersion}`),
      el('span', { className: 'badge' }, client.binding)),
    card.description ? el('p', {}, card.description) : null,
    (card.skills ?? []).length ? el('ul', { className: 'skills' }, ...card.skills.map((s) => el('li', { title: s.description ?? '' },
      el('strong', {}, s.name ?? s.id), s.description ? el('span', {}, ` ${s.description}`) : null))) : null,
    el('details', {}, el('summary', {}, 'Interfaces and raw card'),
      el('ul', {}, ...interfaces.map((i) => el('li', {}, el('code', {}, `${i.protocolBinding ?? ''} ${i.protocolVersion ?? ''} ${i.url ?? ''}`)))),
      el('p', {}, 'Card URL: ', el('code', {}, cardUrl)),
      el('pre', { className: 'json' }, pretty(card))));
}

/** An agent name the runner accepts (an identifier, not `user`) made from the card's name. */
const agentNameOf = (card) => {
  const name = String(card?.name ?? 'remote').replace(/\W+/g, '_').replace(/^(\d)/, '_$1') || 'remote';
  return name === 'user' ? 'remote_user' : name;
};

export function a2aProvider(adk, sideView) {
  const available = typeof adk.A2AClient?.fromCardUrl === 'function' && typeof adk.RemoteA2aAgent === 'function';
  const view = new TaskView(sideView);
  let client = null;
  let cardBox;

  async function connect(url) {
    client = null;
    view.reset();
    const cardUrl = cardUrlOf(url);
    cardBox.replaceChildren(el('p', { className: 'muted' }, `Reading ${cardUrl} …`));
    try {
      client = await adk.A2AClient.fromCardUrl(cardUrl, { fetch: watchingFetch((r) => view.add(r)) });
      cardBox.replaceChildren(cardView(client, cardUrl));
    } catch (e) {
      cardBox.replaceChildren(el('p', { className: 'error-item', role: 'alert' }, el('strong', { className: 'error-code' }, e.code ?? e.name), ` ${e.message}`));
    }
  }

  return {
    id: 'a2a',
    label: 'A2A remote',
    inspectorTab: 'a2a',
    starters: ['Hello! What can you do?'],
    mount(container) {
      const urlInput = el('input', { type: 'url', value: presetA2aUrl(), placeholder: 'http://127.0.0.1:9999', spellcheck: false, autocomplete: 'off', id: 'a2a-url' });
      cardBox = el('div', { className: 'card-box' });
      const form = el('form', { className: 'model-form', onsubmit: (e) => {
        e.preventDefault();
        connect(urlInput.value.trim());
      } },
      el('label', { className: 'field' }, el('span', {}, 'A2A server or agent card URL'), urlInput),
      el('div', { className: 'form-actions' }, el('button', { type: 'submit', className: 'btn primary small', disabled: !available }, 'Connect')));
      container.replaceChildren(el('p', {}, 'A remote agent, reached over the Agent2Agent protocol. Its card says what it can do; the chat goes through RemoteA2aAgent in this page\'s runner.'),
        ...(available ? [] : [el('p', { className: 'notice' }, 'A2A is not in this build of pkg/ yet. Rebuild the package (make build) to use it.')]),
        form, cardBox);
      // A preset URL (from ?a2a= or `make demo`) is read at once, so the card is there on arrival.
      if (available && urlInput.value) connect(urlInput.value.trim());
    },
    ready() {
      if (!available) return 'A2A is not in this build of pkg/.';
      return client ? true : 'Connect to an A2A server first.';
    },
    beforeRun() {
      view.begin();
    },
    createAgent() {
      return new adk.RemoteA2aAgent({ name: agentNameOf(client.card), description: client.card?.description, client });
    },
  };
}
