// An app on an ADK server (`adk api_server`, `adk web`): the agent runs there, not in this page.
// This panel connects with AdkServerClient, lists the server's apps and describes the chosen one;
// choosing an app gives app.js a session source (../sources.js), so the sessions list, chat,
// timeline, state and artifacts then show that app's sessions on the server, and runs stream from it.
import { el } from '../ui/dom.js';
import { serverSource } from '../sources.js';

/** The server URL the page was opened with: `?adk=<url>`, or the one `make demo` injects. */
export function presetAdkUrl() {
  return new URLSearchParams(location.search).get('adk') ?? window.ADK_DEMO_ADK_URL ?? '';
}

/** A failed call, explained: UNAVAILABLE is all a page learns when the server is down or refuses its origin. */
function problemView(e, url) {
  const why = e.code === 'UNAVAILABLE'
    ? `The ADK server at ${url} did not answer: it is down, or it does not allow this page's origin (${location.origin}).`
    : null;
  return el('div', { className: 'error-item', role: 'alert' },
    el('strong', { className: 'error-code' }, e.code ?? e.name),
    why ? el('span', {}, why) : null,
    el('q', { className: 'error-message' }, e.message));
}

/** The root agent as app-info describes it: name, language, description, tools. */
function appInfoView(info) {
  const root = info.agents?.[info.rootAgentName] ?? {};
  const tools = (root.tools ?? []).flatMap((t) => t.functionDeclarations ?? []).map((f) => f.name);
  return el('div', { className: 'agent-card' },
    el('div', { className: 'agent-card-head' },
      el('h3', { className: 'agent-card-name' }, info.rootAgentName ?? info.name),
      info.language ? el('span', { className: 'badge' }, info.language) : null),
    info.description ? el('p', {}, info.description) : null,
    tools.length ? el('p', { className: 'muted' }, `tools: ${tools.join(', ')}`) : null);
}

/**
 * The app's root agent, read when first opened: the server describes only an LlmAgent root and
 * answers 400 for the others, which the browser logs as an error, so the page does not ask unasked.
 */
function appDetails(client, appName) {
  const body = el('div', {}, el('p', { className: 'muted' }, 'Reading the app\'s description…'));
  const details = el('details', { className: 'tree', id: 'adk-app-info' }, el('summary', {}, `About ${appName}`), body);
  // Read on opening, again on the next opening after a failure (the server away a moment).
  const read = async () => {
    if (!details.open) return;
    try {
      body.replaceChildren(appInfoView(await client.getAppInfo(appName)));
      details.removeEventListener('toggle', read);
    } catch (e) {
      // The server's 400 for a root that is not an LlmAgent is its final word.
      if (e.code === 'INVALID_ARGUMENT') details.removeEventListener('toggle', read);
      body.replaceChildren(e.code === 'INVALID_ARGUMENT'
        ? el('p', { className: 'muted' }, `The server describes only apps whose root agent is an LlmAgent (${e.message}).`)
        : problemView(e, client.baseUrl));
    }
  };
  details.addEventListener('toggle', read);
  return details;
}

/** `onSourceChange()` is called whenever `source()` changes (connecting, choosing an app). */
export function serverProvider(adk, { userId, onSourceChange }) {
  const available = typeof adk.AdkServerClient === 'function';
  let client = null;
  let source = null;
  /** Bumped by every connect, so an older one that answers late changes nothing. */
  let attempt = 0;
  let appSelect;
  let statusBox;
  let infoBox;

  function setSource(next) {
    if (next === source) return;
    source = next;
    onSourceChange();
  }

  /** The app picker: `apps` as listed, or null before connecting. */
  function setApps(apps) {
    appSelect.replaceChildren(el('option', { value: '' }, apps ? 'Choose an app…' : 'Connect first'), ...(apps ?? []).map((name) => el('option', { value: name }, name)));
    appSelect.disabled = !apps?.length;
  }

  async function connect(url) {
    const mine = ++attempt;
    client = null;
    setApps(null);
    infoBox.replaceChildren();
    setSource(null);
    statusBox.replaceChildren(el('p', { className: 'muted' }, `Connecting to ${url} …`));
    try {
      const next = new adk.AdkServerClient({ baseUrl: url });
      const apps = await next.listApps();
      if (mine !== attempt) return;
      client = next;
      setApps(apps);
      statusBox.replaceChildren(el('p', { className: 'muted', id: 'adk-connected' },
        `Connected to ${client.baseUrl}: ${apps.length} app${apps.length === 1 ? '' : 's'}. Sessions are kept by the server, as user ${userId}.`));
    } catch (e) {
      if (mine === attempt) statusBox.replaceChildren(problemView(e, url));
    }
  }

  function chooseApp(appName) {
    infoBox.replaceChildren(...(appName ? [appDetails(client, appName)] : []));
    setSource(appName ? serverSource(client, { appName, userId }) : null);
  }

  return {
    id: 'server',
    label: 'ADK server',
    // The first suits the `weather` app `make demo` serves (it looks up the city it is sent).
    starters: ['Seoul', 'Hello! What can you do?'],
    mount(container) {
      const urlInput = el('input', { type: 'url', value: presetAdkUrl(), placeholder: 'http://127.0.0.1:8000', spellcheck: false, autocomplete: 'off', id: 'adk-url' });
      appSelect = el('select', { id: 'adk-app', onchange: () => chooseApp(appSelect.value) });
      statusBox = el('div', { className: 'card-box', role: 'status' });
      infoBox = el('div', { className: 'card-box' });
      setApps(null);
      const form = el('form', { className: 'model-form', onsubmit: (e) => {
        e.preventDefault();
        connect(urlInput.value.trim());
      } },
      el('label', { className: 'field' }, el('span', {}, 'ADK server URL'), urlInput),
      el('label', { className: 'field' }, el('span', {}, 'App'), appSelect),
      el('div', { className: 'form-actions' }, el('button', { type: 'submit', className: 'btn primary small', disabled: !available }, 'Connect')));
      container.replaceChildren(el('p', {}, 'An app on an ADK server (adk api_server or adk web): the agent runs on the server; its sessions, state and artifacts are the server\'s. The server must allow this page\'s origin (--allow_origins).'),
        ...(available ? [] : [el('p', { className: 'notice' }, 'The ADK server client is not in this build of pkg/ yet. Rebuild the package (make build) to use it.')]),
        form, statusBox, infoBox);
      // A preset URL (from ?adk= or `make demo`) is read at once, so the apps are there on arrival.
      if (available && urlInput.value) connect(urlInput.value.trim());
    },
    ready() {
      if (!available) return 'The ADK server client is not in this build of pkg/.';
      if (!client) return 'Connect to an ADK server first.';
      return source ? true : 'Choose one of the server\'s apps.';
    },
    /** The chosen app's sessions, or null until there is one. */
    source: () => source,
  };
}
