// A remote agent over A2A. Everything that touches the A2A API lives here, because that API is
// new: `A2AClient.fromCardUrl` reads the agent card, `RemoteA2aAgent` (given that client) chats
// through the runner like any local agent, so the chat, timeline and sessions work unchanged.
// The side view (task state, artifact chunks) is drawn from the same events.
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

/** A state as shown: `TASK_STATE_COMPLETED` → `completed`. */
const shortState = (state = '') => state.replace('TASK_STATE_', '').toLowerCase();

/** The text of an event's parts (RemoteA2aAgent already turned A2A data parts into JSON text). */
const textOfParts = (parts = []) => parts.map((p) => p.text ?? (p.inlineData || p.fileData ? '[file]' : '')).join('');

/**
 * The inspector's A2A tab, fed by RemoteA2aAgent's events: `customMetadata['a2a:task_state']` says how
 * the task stands, thought parts are the agent's working messages, partial events are artifact chunks,
 * and the stored event that ends an artifact holds all of it.
 */
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

  /** A new message was sent: the next events belong to it. */
  begin() {
    this.#task = { id: null, contextId: null, state: null, updates: [], chunks: [], artifact: null };
    this.#render();
  }

  add(event) {
    const t = this.#task ?? (this.begin(), this.#task);
    const meta = event.customMetadata ?? {};
    t.id = meta['a2a:task_id'] ?? t.id;
    t.contextId = meta['a2a:context_id'] ?? t.contextId;
    const text = textOfParts(event.content?.parts);
    if (meta['a2a:resumed']) t.updates.push({ state: 'resumed', text: `the stream dropped and was resumed (attempt ${meta['a2a:resumed']})` });
    const state = meta['a2a:task_state'];
    if (state && state !== t.state) t.updates.push({ state: shortState(state), text: '' });
    t.state = state ?? t.state;
    if (event.errorCode) t.updates.push({ state: 'error', text: `${event.errorCode}: ${event.errorMessage ?? ''}` });
    else if (event.content?.parts?.every((p) => p.thought)) t.updates.push({ state: 'message', text });
    else if (event.partial && text) t.chunks.push(text);
    else if (text && t.chunks.length && !t.artifact) t.artifact = text;
    else if (text) t.updates.push({ state: 'message', text });
    this.#render();
  }

  #render() {
    const t = this.#task;
    const current = shortState(t.state ?? '') || 'waiting';
    this.#root.replaceChildren(
      el('dl', { className: 'task-facts' },
        el('dt', {}, 'Task'), el('dd', {}, el('code', {}, t.id ?? '—')),
        el('dt', {}, 'Context'), el('dd', {}, el('code', {}, t.contextId ?? '—')),
        el('dt', {}, 'State'), el('dd', {}, el('span', { className: `task-state state-${current}`, id: 'a2a-task-state' }, t.state ?? 'waiting'))),
      el('h3', {}, 'Updates'),
      el('ol', { className: 'task-states' }, ...t.updates.map((u) => el('li', {}, el('code', {}, u.state), u.text ? ` ${u.text}` : ''))),
      el('h3', {}, 'Artifact chunks'),
      t.chunks.length
        ? el('ol', { className: 'task-artifacts' }, ...t.chunks.map((c) => el('li', {}, el('pre', { className: 'artifact-text' }, c))))
        : el('p', { className: 'empty' }, 'None yet.'),
      ...(t.artifact ? [el('h3', {}, 'Whole artifact'), el('pre', { className: 'artifact-text', id: 'a2a-artifact' }, t.artifact)] : []));
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
      client = await adk.A2AClient.fromCardUrl(cardUrl);
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
    onEvent(event) {
      view.add(event);
    },
    createAgent() {
      return new adk.RemoteA2aAgent({ name: agentNameOf(client.card), description: client.card?.description, client });
    },
  };
}
