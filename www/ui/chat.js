// The chat pane. Each turn folds its events through ADK's `Transcript`, which merges a reply's
// partial chunks into one message and lets the final event replace them; the pane re-renders only
// the items whose content changed, so a streaming reply updates one bubble in place.
import { el, followEnd, preview } from './dom.js';

function renderItem(item) {
  switch (item.kind) {
    case 'message':
      return el('li', { className: `msg ${item.author === 'user' ? 'from-user' : 'from-agent'}`, 'data-partial': String(item.partial) },
        item.author === 'user' ? null : el('div', { className: 'msg-author' }, item.author),
        el('div', { className: 'bubble' }, item.text));
    case 'toolCall':
      return chip('tool-call', 'tool call', `${item.name}(${preview(item.args ?? {}, 120)})`, item.author);
    case 'toolResult':
      return chip('tool-result', 'tool result', `${item.name} → ${preview(item.response ?? {}, 120)}`, item.author);
    case 'code':
      return block('code', `code${item.language ? ` · ${item.language.toLowerCase()}` : ''}`, item.code, item.author);
    case 'codeResult':
      return block('code-result', `result · ${item.outcome ?? 'unknown'}`, item.output ?? '', item.author);
    case 'grounding':
      return sources(item);
    case 'state':
      return chip('state', 'state', Object.entries(item.delta).map(([k, v]) => `${k} = ${preview(v, 60)}`).join(', '), item.author);
    case 'artifact':
      return chip('artifact', 'artifact', Object.entries(item.delta).map(([name, v]) => `${name} v${v}`).join(', '), item.author);
    case 'transfer':
      return chip('transfer', 'transfer', `${item.author} → ${item.to}`);
    case 'escalate':
      return chip('escalate', 'escalate', `${item.author} escalated: the loop ends`);
    case 'error':
      return errorItem(item.code, item.message, item.author);
    default:
      return chip('other', item.kind, preview(item, 120));
  }
}

function chip(kind, label, text, author) {
  return el('li', { className: `chip chip-${kind}` },
    el('span', { className: 'chip-label' }, label),
    author ? el('span', { className: 'chip-author' }, author) : null,
    el('code', { className: 'chip-text' }, text));
}

/** Code the model ran, or its output: kept as written, in a preformatted block. */
function block(kind, label, text, author) {
  return el('li', { className: `chip chip-${kind}` },
    el('span', { className: 'chip-label' }, label),
    el('span', { className: 'chip-author' }, author),
    el('pre', { className: 'chip-block' }, text));
}

/**
 * The searches and sources of a grounded reply. Only http(s) addresses become links, so a
 * `javascript:` one stays text. Google's search suggestions (`searchEntryPoint`) are markup and
 * are not shown here: that would take a sandboxed frame.
 */
function sources(item) {
  const link = ({ uri, title }) => (/^https?:\/\//i.test(uri ?? '')
    ? el('a', { href: uri, target: '_blank', rel: 'noopener noreferrer' }, title || uri)
    : el('span', {}, title || uri || '?'));
  return el('li', { className: 'chip chip-grounding' },
    el('span', { className: 'chip-label' }, 'sources'),
    el('span', { className: 'chip-author' }, item.author),
    item.queries.length ? el('span', { className: 'chip-text' }, `searched: ${item.queries.join(' · ')}`) : null,
    el('span', { className: 'chip-links' }, ...item.sources.map(link)));
}

function errorItem(code, message, author) {
  return el('li', { className: 'error-item', role: 'alert' },
    el('strong', { className: 'error-code' }, code),
    author ? el('span', { className: 'chip-author' }, author) : null,
    message ? el('span', { className: 'error-message' }, message) : null);
}

/** One user message and everything the agents did about it. */
class Turn {
  #transcript;
  #list;
  #rendered = [];
  #update;

  /** `update(change)` applies a DOM change, keeping the pane scrolled to the end if it was. */
  constructor(Transcript, list, update) {
    this.#transcript = new Transcript();
    this.#list = list;
    this.#update = update;
  }

  add(event) {
    const items = this.#transcript.add(event);
    this.#update(() => {
      items.forEach((item, i) => {
        const signature = JSON.stringify(item);
        if (this.#rendered[i]?.signature === signature) return;
        const node = renderItem(item);
        if (this.#rendered[i]) this.#rendered[i].node.replaceWith(node);
        else this.#list.append(node);
        this.#rendered[i] = { signature, node };
      });
      for (const stale of this.#rendered.splice(items.length)) stale.node.remove();
    });
  }

  /** A stopped run leaves its streamed text on screen, marked as not saved (whole events before it were). */
  stopped() {
    this.#update(() => {
      const cut = this.#list.querySelectorAll('[data-partial="true"]');
      for (const node of cut) node.dataset.partial = 'stopped';
      this.#list.append(el('li', { className: 'note' }, cut.length ? 'Stopped. The partial reply was not saved to the session.' : 'Stopped.'));
    });
  }

  /** A run that threw (not an error event: those come through `add`). */
  failed(error) {
    this.#update(() => this.#list.append(errorItem(error.code ?? error.name ?? 'ERROR', error.message)));
  }

  finish() {
    this.#transcript.free();
  }
}

/** What to show for each kind of request, and how the person answers it. */
function requestCard(request, answer, signIn) {
  const card = el('li', { className: `asking asking-${request.kind}`, 'data-kind': request.kind });
  const done = (value, label) => {
    for (const control of card.querySelectorAll('button, input')) control.disabled = true;
    card.dataset.answered = label;
    answer(request, value);
  };
  const title = (text) => el('div', { className: 'asking-title' }, text);
  switch (request.kind) {
    case 'confirmation':
      card.append(
        title(`${request.author ?? 'The agent'} wants to run ${request.toolName}(${preview(request.toolArgs ?? {}, 80)})`),
        request.message ? el('p', { className: 'asking-hint' }, request.message) : '',
        el('div', { className: 'asking-actions' },
          el('button', { type: 'button', className: 'approve', onclick: () => done({ confirmed: true }, 'approved') }, 'Approve'),
          el('button', { type: 'button', className: 'deny', onclick: () => done({ confirmed: false }, 'denied') }, 'Deny')));
      break;
    case 'choice':
      card.append(title(`${request.author ?? 'The agent'} asks you to choose`),
        el('div', { className: 'asking-actions' },
          ...(request.options ?? []).map((option) => el('button', { type: 'button', onclick: () => done(option, option) }, option))));
      break;
    case 'credential':
      if (request.authConfig?.exchangedAuthCredential?.oauth2?.authUri) {
        // An OAuth2 sign-in: the popup must open in the click itself, or the browser blocks it.
        const button = el('button', { type: 'button', className: 'sign-in' }, 'Sign in');
        button.onclick = () => {
          button.disabled = true;
          signIn(request).then(() => { card.dataset.answered = 'signed in'; }, () => { button.disabled = false; });
        };
        const provider = new URL(request.authConfig.exchangedAuthCredential.oauth2.authUri).host;
        card.append(title(`${request.author ?? 'The agent'} asks you to sign in at ${provider}`), el('div', { className: 'asking-actions' }, button));
        break;
      }
    // falls through: a key or token the person types
    default: {
      // Input, and a credential the person types (an API key, a token): one field. A remote
      // agent's sign-in (no auth config) is answered with words, after signing in elsewhere.
      const secret = request.kind === 'credential' && Boolean(request.authConfig);
      const field = el('input', { type: secret ? 'password' : 'text', placeholder: secret ? 'key or token' : 'your answer', autocomplete: 'off' });
      const submit = () => {
        if (!field.value) return;
        const scheme = request.authConfig?.authScheme?.type;
        const value = !secret ? field.value
          : scheme === 'apiKey' ? { authType: 'apiKey', apiKey: field.value }
            : { authType: 'http', http: { scheme: 'bearer', credentials: { token: field.value } } };
        done(value, 'sent');
      };
      card.append(title(request.message ?? (secret ? `${request.author ?? 'The agent'} needs your credential` : 'The agent asks')),
        el('div', { className: 'asking-actions' }, field, el('button', { type: 'button', onclick: submit }, secret ? 'Give' : 'Send')));
    }
  }
  return card;
}

export class Chat {
  #root;
  #Transcript;

  constructor(root, Transcript) {
    this.#root = root;
    this.#Transcript = Transcript;
  }

  reset(emptyText) {
    this.#root.replaceChildren(el('li', { className: 'empty' }, emptyText));
  }

  beginTurn() {
    this.#root.querySelector(':scope > .empty')?.remove();
    const list = el('ol', { className: 'turn-items' });
    this.#root.append(el('li', { className: 'turn' }, list));
    return new Turn(this.#Transcript, list, (change) => followEnd(this.#root, change));
  }

  /**
   * Cards for what the agents wait for (`getPendingUserInputRequests` of the session), each
   * answered once through `answer(request, value)`, or `signIn(request)` for an OAuth2 sign-in;
   * replaces the cards shown before.
   */
  showRequests(requests, answer, signIn) {
    for (const old of this.#root.querySelectorAll(':scope > .asking')) old.remove();
    for (const request of requests) followEnd(this.#root, () => this.#root.append(requestCard(request, answer, signIn)));
  }

  /** Re-renders stored events (a switched-to session), one turn per invocation. */
  showEvents(events, emptyText) {
    this.reset(emptyText);
    let turn = null;
    let invocation = null;
    for (const event of events) {
      if (event.invocationId !== invocation) {
        turn?.finish();
        turn = this.beginTurn();
        invocation = event.invocationId;
      }
      turn.add(event);
    }
    turn?.finish();
    this.#root.scrollTop = this.#root.scrollHeight;
  }
}
