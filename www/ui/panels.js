// The side panels: tabs, session state by scope, artifacts, and the sessions list.
import { el, pretty, preview } from './dom.js';

/**
 * ARIA tabs: `tabs` are {id, label}; `select(id)` shows one. Arrow keys move between tabs, as
 * the WAI-ARIA tabs pattern expects. `panelOf(id)` gives the element a tab controls, if any.
 */
export function makeTabs(container, tabs, { onSelect, panelOf = () => null }) {
  const buttons = new Map();
  const select = (id, focus = false) => {
    for (const [tabId, button] of buttons) {
      const on = tabId === id;
      button.setAttribute('aria-selected', String(on));
      button.tabIndex = on ? 0 : -1;
      const panel = panelOf(tabId);
      if (panel) panel.hidden = !on;
      if (on && focus) button.focus();
    }
    onSelect?.(id);
  };
  for (const { id, label } of tabs) {
    const button = el('button', { type: 'button', role: 'tab', id: `tab-${id}`, className: 'tab', onclick: () => select(id) }, label);
    const panel = panelOf(id);
    if (panel) button.setAttribute('aria-controls', panel.id);
    buttons.set(id, button);
    container.append(button);
  }
  container.addEventListener('keydown', (e) => {
    const ids = [...buttons.keys()];
    const at = ids.findIndex((id) => buttons.get(id) === document.activeElement);
    if (at < 0) return;
    const step = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 }[e.key];
    if (step) select(ids[(at + step + ids.length) % ids.length], true);
    else if (e.key === 'Home') select(ids[0], true);
    else if (e.key === 'End') select(ids.at(-1), true);
    else return;
    e.preventDefault();
  });
  return { select, button: (id) => buttons.get(id) };
}

const SCOPES = [
  { prefix: 'app:', title: 'App', hint: 'shared by every user and session' },
  { prefix: 'user:', title: 'User', hint: "shared by this user's sessions" },
  { prefix: '', title: 'Session', hint: 'this session only' },
  { prefix: 'temp:', title: 'Temp', hint: 'this invocation only; never stored' },
];
const scopeOf = (key) => SCOPES.find((s) => s.prefix && key.startsWith(s.prefix)) ?? SCOPES[2];

/** Session state grouped by scope prefix; keys changed by the latest events are highlighted. */
export class StatePanel {
  #root;
  #state = {};
  #changed = new Set();

  constructor(root) {
    this.#root = root;
  }

  /** The state as the session service has it (after a run, or on switching sessions). */
  set(state) {
    this.#state = { ...state };
    this.#render();
  }

  /** An event's `actions.stateDelta`, applied while the run is going. */
  applyDelta(delta) {
    Object.assign(this.#state, delta);
    for (const key of Object.keys(delta)) this.#changed.add(key);
    this.#render();
  }

  /** Called when a run starts, so only that run's changes are highlighted. */
  clearHighlights() {
    this.#changed.clear();
    this.#render();
  }

  #render() {
    const keys = Object.keys(this.#state).sort();
    if (!keys.length) {
      this.#root.replaceChildren(el('p', { className: 'empty' }, 'No state yet. Tools and agents write state as they run (try a note).'));
      return;
    }
    this.#root.replaceChildren(...SCOPES.map((scope) => {
      const mine = keys.filter((k) => scopeOf(k) === scope);
      if (!mine.length) return null;
      return el('section', { className: 'scope', 'data-scope': scope.title.toLowerCase() },
        el('h3', {}, scope.title, el('small', {}, ` ${scope.prefix || 'no prefix'} · ${scope.hint}`)),
        el('dl', {}, ...mine.flatMap((key) => [
          el('dt', { className: this.#changed.has(key) ? 'changed' : '' }, key),
          el('dd', {}, el('pre', { className: 'json' }, pretty(this.#state[key]))),
        ])));
    }).filter(Boolean));
  }
}

/** The text of an artifact part, or null for binary data. */
function textOfPart(part) {
  if (typeof part?.text === 'string') return part.text;
  const mime = part?.inlineData?.mimeType ?? '';
  if (part?.inlineData?.data && /^(text\/|application\/json)/.test(mime)) return new TextDecoder().decode(bytesOf(part.inlineData.data));
  return null;
}

/** Decodes URL-safe or standard base64. */
function bytesOf(base64) {
  const binary = atob(base64.replace(/-/g, '+').replace(/_/g, '/'));
  return Uint8Array.from(binary, (c) => c.charCodeAt(0));
}

function blobOf(part) {
  if (typeof part.text === 'string') return new Blob([part.text], { type: 'text/plain;charset=utf-8' });
  if (part.inlineData?.data) return new Blob([bytesOf(part.inlineData.data)], { type: part.inlineData.mimeType ?? 'application/octet-stream' });
  return new Blob([pretty(part)], { type: 'application/json' });
}

/**
 * Artifacts of the current session (and the user's `user:` ones): name, versions, a viewer for
 * text and a download of any version. `service` has the artifact services' listArtifactKeys,
 * listArtifactVersions and loadArtifact (the session source's `artifacts`).
 */
export class ArtifactsPanel {
  #root;
  #key;
  #viewer = el('div', { className: 'artifact-viewer', 'aria-live': 'polite' });
  #objectUrls = [];

  constructor(root) {
    this.#root = root;
  }

  async show(service, key) {
    this.#key = key;
    const names = await service.listArtifactKeys(key);
    if (key !== this.#key) return; // a newer call won the race
    if (!names.length) return this.reset('No artifacts yet. Tools save them with toolContext.saveArtifact (try a note).');
    this.#revokeUrls();
    const rows = await Promise.all(names.map(async (filename) => this.#row(service, key, filename, await service.listArtifactVersions({ ...key, filename }))));
    if (key !== this.#key) return;
    this.#viewer.replaceChildren();
    this.#root.replaceChildren(el('ul', { className: 'artifact-list' }, ...rows), this.#viewer);
  }

  /** No artifacts to show: `text` says why. */
  reset(text) {
    this.#key = null;
    this.#revokeUrls();
    this.#root.replaceChildren(el('p', { className: 'empty' }, text));
  }

  #revokeUrls() {
    for (const url of this.#objectUrls.splice(0)) URL.revokeObjectURL(url);
  }

  #row(service, key, filename, versions) {
    const latest = versions.at(-1);
    const picker = el('select', { className: 'version', 'aria-label': `Version of ${filename}` },
      ...versions.map((v) => el('option', { value: String(v.version), selected: v === latest }, `v${v.version}`)));
    const load = () => service.loadArtifact({ ...key, filename, version: Number(picker.value) });
    const view = async () => {
      const part = await load();
      const text = textOfPart(part);
      this.#viewer.replaceChildren(
        el('h3', {}, `${filename} · v${picker.value}`),
        text === null ? el('p', { className: 'empty' }, 'Binary content: download it to open it.') : el('pre', { className: 'artifact-text' }, text));
    };
    const download = async () => {
      const url = URL.createObjectURL(blobOf(await load()));
      this.#objectUrls.push(url);
      const link = el('a', { href: url, download: filename.replace(/^user:/, '') });
      document.body.append(link);
      link.click();
      link.remove();
    };
    return el('li', { className: 'artifact', 'data-filename': filename },
      el('div', { className: 'artifact-name' }, filename,
        el('small', {}, ` ${versions.length} version${versions.length === 1 ? '' : 's'}${latest?.mimeType ? ` · ${latest.mimeType}` : ''}`)),
      el('div', { className: 'artifact-actions' }, picker,
        el('button', { type: 'button', className: 'btn small', onclick: view }, 'View'),
        el('button', { type: 'button', className: 'btn small', onclick: download }, 'Download')));
  }
}

/** The sessions of the demo user: switch by clicking, delete with the × button. */
export class SessionsList {
  #root;
  #handlers;

  constructor(root, handlers) {
    this.#root = root;
    this.#handlers = handlers;
  }

  /** `sessions` oldest first, as listSessions gives them; `titles` maps ids to a first message. */
  render(sessions, currentId, titles) {
    this.#root.replaceChildren(...[...sessions].reverse().map((s) => {
      const current = s.id === currentId;
      const title = titles.get(s.id) ?? 'New conversation';
      const when = new Date(s.lastUpdateTime * 1000).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' });
      return el('li', { className: `session${current ? ' current' : ''}`, 'data-session': s.id },
        el('button', { type: 'button', className: 'session-open', 'aria-current': current ? 'true' : null, onclick: () => this.#handlers.onSwitch(s.id) },
          el('span', { className: 'session-title' }, preview(title, 40)),
          el('small', {}, `${s.id.slice(0, 8)} · ${when}`)),
        el('button', { type: 'button', className: 'session-delete', 'aria-label': `Delete session ${preview(title, 40)}`, title: 'Delete session', onclick: () => this.#handlers.onDelete(s.id) }, '×'));
    }));
  }
}

/** An agent tree as nested lists: name, kind, tools; for showing what will run. */
export function agentTreeView(agent) {
  // A toolset has no name of its own: its server's tools are listed when the agent runs.
  const tools = (agent.tools ?? []).map((t) => t.name ?? (t.connectionParams ? `MCP server ${t.connectionParams.url}` : '?'));
  return el('li', {},
    el('span', { className: 'agent-name' }, agent.name),
    el('span', { className: 'agent-kind' }, agent.constructor?.name ?? 'agent'),
    tools.length ? el('span', { className: 'agent-tools' }, `tools: ${tools.join(', ')}`) : null,
    agent.subAgents?.length ? el('ul', {}, ...agent.subAgents.map(agentTreeView)) : null);
}
