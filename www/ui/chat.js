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
