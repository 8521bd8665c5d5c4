// The live event timeline, adk-web's event list in miniature: one row per event with its author,
// kinds, invocation and the full JSON on demand. A streamed reply's partial chunks fold into one
// row with a count, so a long answer does not bury the events around it.
import { el, followEnd, pretty, preview } from './dom.js';

/** What an event does, in the order a reader cares about. */
export function kindsOf(event) {
  const parts = event.content?.parts ?? [];
  const actions = event.actions ?? {};
  const kinds = [];
  if (event.errorCode) kinds.push('error');
  if (event.partial) kinds.push('partial');
  else if (parts.some((p) => p.text && !p.thought)) kinds.push('text');
  if (parts.some((p) => p.functionCall)) kinds.push('tool call');
  if (parts.some((p) => p.functionResponse)) kinds.push('tool result');
  if (parts.some((p) => p.executableCode)) kinds.push('code');
  if (parts.some((p) => p.codeExecutionResult)) kinds.push('code result');
  if (event.groundingMetadata) kinds.push('grounding');
  if (Object.keys(actions.stateDelta ?? {}).length) kinds.push('state');
  if (Object.keys(actions.artifactDelta ?? {}).length) kinds.push('artifact');
  if (actions.transferToAgent) kinds.push('transfer');
  if (actions.escalate) kinds.push('escalate');
  return kinds.length ? kinds : ['event'];
}

function summaryOf(event) {
  if (event.errorCode) return `${event.errorCode}: ${event.errorMessage ?? ''}`;
  const actions = event.actions ?? {};
  const parts = (event.content?.parts ?? []).map((p) => {
    if (p.functionCall) return `${p.functionCall.name}(${preview(p.functionCall.args ?? {}, 60)})`;
    if (p.functionResponse) return `${p.functionResponse.name} → ${preview(p.functionResponse.response ?? {}, 60)}`;
    if (p.executableCode) return `[code] ${preview(p.executableCode.code ?? '', 60)}`;
    if (p.codeExecutionResult) return `[${p.codeExecutionResult.outcome ?? 'result'}] ${preview(p.codeExecutionResult.output ?? '', 60)}`;
    return p.text ?? '';
  }).join(' ');
  if (parts.trim()) return preview(parts, 140);
  if (actions.transferToAgent) return `→ ${actions.transferToAgent}`;
  return preview(actions.stateDelta ?? {}, 140);
}

/** A stable hue per invocation, so rows of one run share a colour stripe. */
function hueOf(id = '') {
  let h = 0;
  for (const c of id) h = (h * 31 + c.charCodeAt(0)) % 360;
  return h;
}

const timeOf = (seconds) => new Date(seconds * 1000).toLocaleTimeString([], { hour12: false });

export class Timeline {
  #root;
  /** The row still collecting partial chunks, if any. */
  #streaming = null;

  constructor(root) {
    this.#root = root;
  }

  reset() {
    this.#streaming = null;
    this.#root.replaceChildren(el('li', { className: 'empty' }, 'Events appear here as the agents work.'));
  }

  add(event) {
    followEnd(this.#root.parentElement, () => this.#add(event));
  }

  #add(event) {
    this.#root.querySelector(':scope > .empty')?.remove();
    const s = this.#streaming;
    if (event.partial && s && s.author === event.author && s.invocationId === event.invocationId) {
      s.count += 1;
      s.text += (event.content?.parts ?? []).map((p) => p.text ?? '').join('');
      this.#fill(s.row, event, { count: s.count, text: s.text });
    } else {
      const row = el('li', { className: 'tl-row' });
      row.style.setProperty('--inv-hue', hueOf(event.invocationId));
      this.#fill(row, event, { count: 1 });
      this.#place(row, event);
      this.#streaming = event.partial
        ? { row, author: event.author, invocationId: event.invocationId, count: 1, text: summaryOf(event) }
        : null;
    }
  }

  /** The user's event is stored by the runner but not yielded: it goes before its invocation's rows. */
  #place(row, event) {
    const first = event.author === 'user'
      ? [...this.#root.children].find((r) => r.dataset.invocation === event.invocationId)
      : null;
    row.dataset.invocation = event.invocationId;
    if (first) first.before(row);
    else this.#root.append(row);
  }

  #fill(row, event, { count, text }) {
    const kinds = kindsOf(event);
    const details = el('details', {},
      el('summary', {},
        el('span', { className: 'tl-time' }, timeOf(event.timestamp)),
        el('span', { className: 'tl-author' }, event.author),
        ...kinds.map((k) => el('span', { className: `badge badge-${k.replace(' ', '-')}` }, k === 'partial' && count > 1 ? `partial ×${count}` : k)),
        el('span', { className: 'tl-inv', title: `invocation ${event.invocationId}` }, event.invocationId?.slice(0, 10) ?? ''),
        el('span', { className: 'tl-summary' }, text !== undefined ? preview(text, 140) : summaryOf(event))));
    // The JSON is built when first opened: streams produce many events and most are never expanded.
    details.addEventListener('toggle', () => {
      if (details.open && !details.querySelector('pre')) details.append(el('pre', { className: 'json' }, pretty(event)));
    });
    details.open = row.querySelector('details')?.open ?? false;
    row.className = `tl-row${event.errorCode ? ' tl-error' : ''}`;
    row.dataset.kinds = kinds.join(',');
    row.replaceChildren(details);
  }
}
