// Page tests of the www/ demo in Debian's headless Chromium (never a downloaded browser), served
// from the repository root in-process. Each test gets a fresh browser context; any page error,
// console error (but those it provokes on purpose) or request leaving this machine fails it.
// Usage: node tests/demo/demo.test.mjs
import { mkdir, readFile } from 'node:fs/promises';
import { serve } from '../../scripts/serve.mjs';
import { replay } from '../browser/replay.mjs';
import { launchChromium } from '../browser/chromium.mjs';
import { startPeers } from '../a2a/peers.mjs';
import { startAdkServers } from '../adk_server/servers.mjs';
import { startOidcProvider } from '../../scripts/oidc.mjs';
import { startMcpServer } from '../mcp/servers.mjs';

const ROOT = new URL('../..', import.meta.url).pathname;
const OUT = new URL('../../test-output/', import.meta.url).pathname;
// The A2A tab talks to a real a2a-sdk peer: the one given in A2A_PEER_URL, else one started here.
const peers = process.env.A2A_PEER_URL ? null : await startPeers({ which: ['sdk'] });
const A2A_PEER_URL = process.env.A2A_PEER_URL ?? peers.sdkUrl;
await mkdir(OUT, { recursive: true });
// The OpenAI-compatible tab talks to the local model peer the page tests use (same origin).
const server = await serve(ROOT, 0, [replay]);
const base = `http://127.0.0.1:${server.address().port}`;
// "Who am I?" signs in at a local OpenID provider, through its own login and consent forms, as
// `make demo` runs it.
const oidc = await startOidcProvider({ redirectUris: [`${base}/pkg/oauth-redirect.html`], interactive: true });
// The offline agent's MCP tools come from a real MCP server, as `make demo` starts it.
const mcp = await startMcpServer();
// The ADK server tab talks to a real `adk api_server` (google-adk 2.13.0, tests/adk_server/agents):
// the one given in ADK_SERVER_URL, else one started here.
const adkServers = process.env.ADK_SERVER_URL ? null : await startAdkServers({ versions: ['2.13.0'], oidc: oidc.url });
const ADK_SERVER_URL = process.env.ADK_SERVER_URL ?? adkServers.urls['2.13.0'];
const browser = await launchChromium();
const results = { passed: 0, failed: 0 };

function assert(cond, message) {
  if (!cond) throw new Error(message);
}

const isLocal = (url) => ['127.0.0.1', 'localhost', '[::1]'].includes(new URL(url).hostname);

/** `allowConsole`: predicates matching the console errors a test provokes on purpose (the browser logs failed requests). */
async function test(name, fn, { allowConsole = [] } = {}) {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 }, acceptDownloads: true });
  const page = await context.newPage();
  const problems = [];
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  page.on('console', (m) => m.type() === 'error' && !allowConsole.some((allowed) => allowed(m)) && problems.push(`console error: ${m.text()}`));
  await context.route((url) => url.protocol.startsWith('http') && !isLocal(url.href), (route) => {
    problems.push(`external request: ${route.request().url()}`);
    return route.abort();
  });
  try {
    await fn(page);
    assert(problems.length === 0, problems.join('\n'));
    results.passed += 1;
    console.log(`ok   ${name}`);
  } catch (e) {
    results.failed += 1;
    console.log(`FAIL ${name}\n     ${String(e.message).split('\n').join('\n     ')}`);
    await page.screenshot({ path: `${OUT}failure-${results.passed + results.failed}.png` }).catch(() => {});
  } finally {
    await context.close();
  }
}

// ---- Page helpers.

async function open(page, query = '') {
  await page.goto(`${base}/www/${query}`);
  await page.waitForSelector('body[data-ready="true"]', { timeout: 20_000 });
}

/** Sends with the keyboard (Enter), as a user would. */
async function send(page, text) {
  await page.fill('#message', text);
  await page.press('#message', 'Enter');
}

const idle = (page) => page.waitForSelector('body[data-running="false"]', { timeout: 30_000 });

/** Records every text a streaming agent bubble shows, however briefly. */
async function recordPartials(page) {
  await page.evaluate(() => {
    window.__partials = [];
    new MutationObserver(() => {
      for (const b of document.querySelectorAll('#transcript .msg.from-agent[data-partial="true"] .bubble')) window.__partials.push(b.textContent);
    }).observe(document.getElementById('transcript'), { subtree: true, childList: true, characterData: true, attributes: true });
  });
}

const lastAgentMessage = (page) => page.locator('#transcript .msg.from-agent').last();
const count = (page, selector) => page.locator(selector).count();

async function selectInspector(page, tab) {
  await page.click(`#tab-${tab}`);
  await page.waitForSelector(`#panel-${tab}:not([hidden])`);
}

const currentSession = (page) => page.locator('#sessions .session.current').getAttribute('data-session');

/** The ADK server tab, connected through `?adk=` (the page connects on arrival), showing `app`'s sessions. */
async function useServerApp(page, app) {
  await page.click('#tab-server');
  await page.waitForSelector('#adk-app:not([disabled])', { timeout: 20_000 });
  await page.selectOption('#adk-app', app);
  await page.waitForFunction((app) => document.getElementById('session-source').textContent.startsWith(`App ${app} `)
    && document.querySelector('#sessions .session.current'), app);
}

/** A fresh server session of the shown app (the server keeps the other tests' ones). */
async function newServerSession(page) {
  const old = await currentSession(page);
  await page.click('#new-session');
  await page.waitForFunction((old) => document.querySelector('#sessions .session.current')?.dataset.session !== old, old);
  return currentSession(page);
}

/** The session as the server stores it, read without the page. */
async function serverSession(app, id) {
  const r = await fetch(`${ADK_SERVER_URL}/apps/${app}/users/demo_user/sessions/${encodeURIComponent(id)}`);
  assert(r.ok, `GET session ${id}: ${r.status}`);
  return r.json();
}

// ---- Tests.

await test('1. default agent: streamed reply, tool call and state change in the timeline', async (page) => {
  await open(page);
  await recordPartials(page);
  await page.getByRole('button', { name: 'What is 12 * (3 + 4)?' }).click();
  await idle(page);
  const final = await lastAgentMessage(page).locator('.bubble').textContent();
  assert(final.startsWith('12 * (3 + 4) = 84.'), `final answer: ${final}`);
  assert(await lastAgentMessage(page).getAttribute('data-partial') === 'false', 'the final event replaced the partial text');
  const partials = await page.evaluate(() => window.__partials);
  const intermediate = partials.filter((t) => t.length && t.length < final.length && final.startsWith(t));
  assert(intermediate.length > 0, `no intermediate partial state seen (${partials.length} observed)`);
  assert(await count(page, '#transcript .chip-tool-call') === 1, 'tool call shown in the chat');

  assert(await count(page, '#timeline .tl-row[data-kinds*="tool call"]') >= 1, 'tool call in the timeline');
  assert(await count(page, '#timeline .tl-row[data-kinds*="tool result"]') >= 1, 'tool result in the timeline');
  assert(await count(page, '#timeline .tl-row[data-kinds*="state"]') >= 1, 'state change in the timeline');
  assert(await count(page, '#timeline .tl-row[data-kinds*="partial"]') >= 1, 'partial events in the timeline');
  assert(await page.locator('#timeline .tl-author', { hasText: /^user$/ }).count() === 1, 'the user event in the timeline');
  // The expandable JSON view of the tool call.
  const callRow = page.locator('#timeline .tl-row[data-kinds*="tool call"]').first();
  await callRow.locator('summary').click();
  const json = JSON.parse(await callRow.locator('pre.json').textContent());
  assert(json.content.parts[0].functionCall.name === 'calculator' && json.invocationId.startsWith('e-'), 'event JSON');

  // The writer loop: a transfer, a LoopAgent and exit_loop, so the screenshot shows every kind.
  await page.getByRole('button', { name: 'Write a haiku about rain' }).click();
  await idle(page);
  for (const kind of ['transfer', 'escalate', 'text']) {
    assert(await count(page, `#timeline .tl-row[data-kinds*="${kind}"]`) >= 1, `${kind} in the timeline`);
  }
  const authors = await page.locator('#transcript .msg-author').allTextContents();
  assert(authors.includes('writer') && authors.includes('critic'), `authors: ${authors}`);
  await page.screenshot({ path: `${OUT}demo.png` });
});

await test('2. Stop mid-stream ends the stream; a new message still works', async (page) => {
  await open(page);
  await send(page, 'Hello! What can you do?');
  await page.waitForFunction(() => document.querySelector('#transcript .msg.from-agent[data-partial="true"] .bubble')?.textContent.length > 20);
  await page.click('#stop');
  await idle(page);
  const stopped = page.locator('#transcript .msg[data-partial="stopped"] .bubble');
  assert(await stopped.count() === 1, 'the partial reply is marked as stopped');
  const before = await stopped.textContent();
  await page.waitForTimeout(500);
  assert(await stopped.textContent() === before, 'no chunks arrive after Stop');
  assert(before.length < 300, 'the reply was cut short');
  assert((await page.locator('#transcript .note').textContent()).includes('Stopped'), 'a note says so');
  assert(await page.isEnabled('#send') && await page.isDisabled('#stop'), 'Send is usable again, Stop is not');

  await send(page, 'what is 2 + 2');
  await idle(page);
  const answer = await lastAgentMessage(page).locator('.bubble').textContent();
  assert(answer.startsWith('2 + 2 = 4.'), `after Stop: ${answer}`);
});

await test('3. XSS: model output containing markup is shown as literal text', async (page) => {
  const payload = '<img src=x onerror="window.__pwned=1">';
  await open(page);
  await send(page, `echo ${payload}`);
  await idle(page);
  assert(await lastAgentMessage(page).locator('.bubble').textContent() === `You said: ${payload}`, 'echoed literally');
  assert(await page.locator('#transcript .msg.from-user .bubble').textContent() === `echo ${payload}`, 'the user message too');
  // Render every JSON view and the other panels, so all places that show the text are built.
  for (const summary of await page.locator('#timeline summary').all()) await summary.click();
  await selectInspector(page, 'state');
  await selectInspector(page, 'artifacts');
  await page.waitForTimeout(100);
  assert(await page.evaluate(() => window.__pwned) === undefined, 'window.__pwned was set');
  assert(await count(page, 'img') === 0, 'an <img> element was created');
  assert((await page.locator('#timeline').textContent()).includes(payload), 'the timeline shows it as text');
  assert((await page.locator('#sessions').textContent()).includes('<img'), 'the session title shows it as text');
});

await test('4. sessions, user:notes state and the notes artifact (view, download, versions)', async (page) => {
  await open(page);
  await page.getByRole('button', { name: 'Note: buy oat milk' }).click();
  await idle(page);
  const first = await page.locator('#sessions .session.current').getAttribute('data-session');

  await selectInspector(page, 'state');
  const userScope = page.locator('#state [data-scope="user"]');
  assert((await userScope.textContent()).includes('user:notes'), 'user:notes in the User group');
  assert((await userScope.locator('dd').first().textContent()).includes('buy oat milk'), 'note value');
  assert((await page.locator('#state [data-scope="app"]').textContent()).includes('app:house_style'), 'app: state group');

  await selectInspector(page, 'artifacts');
  const artifact = page.locator('#artifacts .artifact[data-filename="user:notes.md"]');
  await artifact.waitFor();
  assert(await artifact.locator('option').allTextContents().then((v) => v.join()) === 'v0', 'version v0');
  await artifact.getByRole('button', { name: 'View' }).click();
  await page.waitForSelector('#artifacts .artifact-viewer pre');
  assert((await page.locator('#artifacts .artifact-viewer pre').textContent()).includes('- buy oat milk'), 'artifact text');
  const [download] = await Promise.all([page.waitForEvent('download'), artifact.getByRole('button', { name: 'Download' }).click()]);
  assert(download.suggestedFilename() === 'notes.md', `download name ${download.suggestedFilename()}`);
  assert((await readFile(await download.path(), 'utf8')).includes('- buy oat milk'), 'downloaded content');

  // A new session: empty chat; user: state and the user: artifact carry over, session state does not.
  await page.click('#new-session');
  await page.waitForFunction((id) => document.querySelectorAll('#sessions .session').length === 2
    && document.querySelector('#sessions .session.current')?.dataset.session !== id, first);
  assert(await count(page, '#transcript .msg') === 0, 'the new session starts empty');
  assert(await count(page, '#timeline .tl-row') === 0, 'with an empty timeline');
  await send(page, 'Note: call mom');
  await idle(page);
  const second = await page.locator('#sessions .session.current').getAttribute('data-session');
  assert((await artifact.locator('option').allTextContents()).join() === 'v0,v1', 'a second version of the shared notes file');
  await selectInspector(page, 'state');
  assert((await userScope.textContent()).includes('call mom') && (await userScope.textContent()).includes('buy oat milk'), 'user:notes kept across sessions');

  // Switch back: that session's events and state.
  await page.locator(`#sessions .session[data-session="${first}"] .session-open`).click();
  await page.waitForSelector(`#sessions .session.current[data-session="${first}"]`);
  const chatText = await page.locator('#transcript').textContent();
  assert(chatText.includes('Note: buy oat milk') && !chatText.includes('call mom'), 'the first session\'s conversation');
  assert(await count(page, '#timeline .tl-row[data-kinds*="artifact"]') === 1, 'its events in the timeline');

  // Delete the other session, then the current one: a fresh session takes its place.
  await page.locator(`#sessions .session[data-session="${second}"] .session-delete`).click();
  await page.waitForFunction(() => document.querySelectorAll('#sessions .session').length === 1);
  await page.locator(`#sessions .session[data-session="${first}"] .session-delete`).click();
  await page.waitForFunction((id) => {
    const only = document.querySelectorAll('#sessions .session');
    return only.length === 1 && only[0].dataset.session !== id && only[0].classList.contains('current');
  }, first);
  assert(await count(page, '#transcript .msg') === 0, 'the fresh session is empty');
});

await test('5. A2A: agent card, streamed reply, completed task', async (page) => {
  await open(page, `?a2a=${encodeURIComponent(A2A_PEER_URL)}`);
  await page.click('#tab-a2a');
  const name = await page.locator('#a2a-card .agent-card-name').textContent({ timeout: 20_000 });
  assert(name.trim().length > 0, 'the card names the agent');
  await recordPartials(page);
  await send(page, 'Hello from the adk-wasm demo test');
  await idle(page);
  const finals = await page.locator('#transcript .msg[data-partial="false"] .bubble').allTextContents();
  const partials = await page.evaluate(() => window.__partials);
  assert(partials.some((t) => t.length && finals.some((f) => f.length > t.length && f.startsWith(t))), `the reply streamed: ${JSON.stringify({ partials, finals })}`);
  assert(await page.locator('#a2a-task-state').textContent() === 'TASK_STATE_COMPLETED', 'the task completed');
  await page.screenshot({ path: `${OUT}demo-a2a.png` });
  await selectInspector(page, 'events');
  const row = page.locator('#timeline .tl-row[data-kinds*="text"]').last();
  await row.locator('summary').click();
  assert((await row.locator('pre.json').textContent()).includes('a2a:task_id'), 'events carry the A2A task id');
});

await test('6. OpenAI-compatible tab: a real fetch to a local /chat/completions peer, tool call and streamed answer', async (page) => {
  const chunk = (delta, finish = null) => `data: ${JSON.stringify({ choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
  const call = chunk({ tool_calls: [{ index: 0, id: 'call_1', type: 'function', function: { name: 'calculator', arguments: '{"expression":"6*7"}' } }] })
    + chunk({}, 'tool_calls') + 'data: [DONE]\n\n';
  const answer = ['6 * 7 ', 'is ', '42.'].map((t) => chunk({ content: t })).join('') + chunk({}, 'stop') + 'data: [DONE]\n\n';
  const { baseUrl } = await (await fetch(`${base}/replay/scenario`, { method: 'POST', body: JSON.stringify({ replies: [
    { body: call, chunkSize: 16, delayMs: 2 }, { body: answer, chunkSize: 8, delayMs: 40 },
  ] }) })).json();
  await open(page);
  await page.click('#tab-openai');
  const panel = page.locator('#agent-openai');
  await panel.locator('input[type="text"]').fill('local-model');
  await panel.locator('input[type="url"]').fill(`${base}${baseUrl}`);
  await panel.getByRole('button', { name: 'Use' }).click();
  await recordPartials(page);
  await send(page, 'what is 6*7?');
  await idle(page);
  const final = await lastAgentMessage(page).locator('.bubble').textContent();
  assert(final.trim() === '6 * 7 is 42.', `final: ${final}`);
  const partials = await page.evaluate(() => window.__partials);
  assert(partials.some((t) => t.length && t.length < final.trim().length), 'the answer streamed');
  const kinds = await page.locator('#timeline .tl-row').evaluateAll((rows) => rows.map((r) => r.dataset.kinds));
  assert(kinds.some((k) => k.includes('tool call')) && kinds.some((k) => k.includes('state')), `timeline: ${kinds}`);
});

await test('7. a reload brings back the conversation, its state and artifacts; Clear all data removes them', async (page) => {
  await open(page);
  await page.getByRole('button', { name: 'Note: buy oat milk' }).click();
  await idle(page);
  const id = await page.locator('#sessions .session.current').getAttribute('data-session');
  const before = await page.locator('#transcript').textContent();
  await page.reload();
  await page.waitForSelector('body[data-ready="true"]', { timeout: 20_000 });
  assert(await page.locator('#sessions .session.current').getAttribute('data-session') === id, 'the same session is shown');
  assert((await page.locator('#sessions').textContent()).includes('Note: buy oat milk'), 'its title is read back');
  const after = await page.locator('#transcript').textContent();
  assert(after.includes('Note: buy oat milk') && after.includes('buy oat milk'), `the conversation: ${after}`);
  assert(await count(page, '#transcript .msg') >= 2 && before.includes('buy oat milk'), 'the messages are back');
  await selectInspector(page, 'state');
  assert((await page.locator('#state [data-scope="user"]').textContent()).includes('buy oat milk'), 'user:notes is back');
  await selectInspector(page, 'artifacts');
  await page.locator('#artifacts .artifact[data-filename="user:notes.md"]').waitFor();

  await page.click('#clear-data');
  await page.waitForFunction((old) => document.body.dataset.ready === 'true'
    && document.querySelector('#sessions .session.current')?.dataset.session !== old, id, { timeout: 20_000 });
  assert(await count(page, '#sessions .session') === 1, 'one fresh session');
  assert(await count(page, '#transcript .msg') === 0, 'an empty conversation');
  await selectInspector(page, 'state');
  assert(!(await page.locator('#state').textContent()).includes('buy oat milk'), 'the notes are gone');
});

await test('8. ADK server: the apps, a streamed run with a tool call, the session on the server', async (page) => {
  await open(page, `?adk=${encodeURIComponent(ADK_SERVER_URL)}`);
  await useServerApp(page, 'weather');
  assert((await page.locator('#adk-connected').textContent()).includes(ADK_SERVER_URL), 'says where it is connected');
  const apps = await page.locator('#adk-app option').allTextContents();
  assert(['failing', 'slow', 'story', 'weather'].every((a) => apps.includes(a)), `apps: ${apps}`);
  await page.click('#adk-app-info summary');
  await page.locator('#adk-app-info', { hasText: 'get_weather' }).waitFor();
  const id = await newServerSession(page);
  await recordPartials(page);
  await send(page, 'Seoul');
  await idle(page);

  const call = await page.locator('#transcript .chip-tool-call').textContent();
  assert(call.includes('get_weather') && call.includes('Seoul'), `tool call card: ${call}`);
  assert((await page.locator('#transcript .chip-tool-result').textContent()).includes('21'), 'tool result card');
  const final = await lastAgentMessage(page).locator('.bubble').textContent();
  assert(final.includes('21 °C') && final.includes('Seoul'), `final: ${final}`);
  assert(await lastAgentMessage(page).getAttribute('data-partial') === 'false', 'the final event replaced the partial text');
  const partials = await page.evaluate(() => window.__partials);
  assert(partials.some((t) => t.length && t.length < final.length && final.startsWith(t)), `the answer streamed: ${JSON.stringify(partials)}`);
  for (const kind of ['tool call', 'tool result', 'partial', 'text']) {
    assert(await count(page, `#timeline .tl-row[data-kinds*="${kind}"]`) >= 1, `${kind} in the timeline`);
  }
  assert(await page.locator('#timeline .tl-author', { hasText: /^user$/ }).count() === 1, 'the user event, read back from the server, in the timeline');
  assert(await page.locator('#status').textContent() === 'Done.', 'status');

  assert(await currentSession(page) === id, 'the run went to the current session');
  assert((await page.locator(`#sessions .session[data-session="${id}"] .session-title`).textContent()) === 'Seoul', 'its title in the sessions list');
  const stored = await serverSession('weather', id);
  assert(stored.events[0].author === 'user' && stored.events.at(-1).content.parts[0].text.includes('21 °C'), 'the server keeps the conversation');
  await page.screenshot({ path: `${OUT}demo-adk-server.png` });
});

await test('9. ADK server: state and artifacts from the server, Stop, an in-stream error, and back to the local sessions', async (page) => {
  await open(page, `?adk=${encodeURIComponent(ADK_SERVER_URL)}`);
  await send(page, 'echo kept in the browser');
  await idle(page);
  const localId = await currentSession(page);

  await useServerApp(page, 'story');
  await newServerSession(page);
  assert(!(await page.locator('#sessions').textContent()).includes('echo kept'), 'the local sessions are not listed');
  await send(page, 'Tell me a story');
  await idle(page);
  const chatText = await page.locator('#transcript').textContent();
  assert(chatText.includes('Once upon a time') && chatText.includes('안녕히 가세요 👋🌏'), `story: ${chatText}`);
  await selectInspector(page, 'state');
  const userScope = page.locator('#state [data-scope="user"]');
  assert((await userScope.textContent()).includes('user:reader') && (await userScope.textContent()).includes('ada'), 'user:reader in the User group');
  assert((await page.locator('#state [data-scope="app"]').textContent()).includes('app:title'), 'app:title in the App group');
  await selectInspector(page, 'artifacts');
  const artifact = page.locator('#artifacts .artifact[data-filename="story.txt"]');
  await artifact.waitFor();
  assert((await artifact.locator('option').allTextContents()).join() === 'v0', 'version v0');
  await artifact.getByRole('button', { name: 'View' }).click();
  await page.waitForSelector('#artifacts .artifact-viewer pre');
  assert((await page.locator('#artifacts .artifact-viewer pre').textContent()).startsWith('Chapter 1: the weather was fine. 날씨가 좋았다 ☀️'), 'artifact text');
  await selectInspector(page, 'events');

  // Stop: the stream ends and the server stops the run.
  await useServerApp(page, 'slow');
  const slowId = await newServerSession(page);
  await send(page, 'go');
  await page.waitForFunction(() => document.querySelectorAll('#transcript .msg.from-agent').length >= 3);
  await page.click('#stop');
  await idle(page);
  assert((await page.locator('#transcript .note').textContent()) === 'Stopped.', 'a note says so (the ticks shown were saved)');
  const ticks = await count(page, '#transcript .msg.from-agent');
  await page.waitForTimeout(600);
  assert(await count(page, '#transcript .msg.from-agent') === ticks && ticks < 10, `no events after Stop (${ticks})`);
  assert(await page.isEnabled('#send') && await page.isDisabled('#stop'), 'Send is usable again, Stop is not');
  const stored = (await serverSession('slow', slowId)).events.filter((e) => e.author === 'slow').length;
  await page.waitForTimeout(1000);
  const later = (await serverSession('slow', slowId)).events.filter((e) => e.author === 'slow').length;
  assert(stored < 10 && later === stored, `the server stopped the run (${stored}, then ${later} events kept)`);

  // The server's in-stream error ends the run as a failure, after the event before it.
  await useServerApp(page, 'failing');
  const failingId = await newServerSession(page);
  await send(page, 'fail please');
  await idle(page);
  assert((await lastAgentMessage(page).textContent()).includes('about to fail'), 'the event before the error');
  const error = await page.locator('#transcript .error-item').textContent();
  assert(error.includes('INTERNAL') && error.includes('scripted failure'), `error: ${error}`);

  // Back to the offline agent: the local sessions, as they were left; then the server's again.
  await page.click('#tab-offline');
  await page.waitForSelector(`#sessions .session.current[data-session="${localId}"]`);
  assert(await page.locator('#session-source').textContent() === 'Kept in this browser.', 'the sessions pane says where they are');
  assert((await page.locator('#transcript').textContent()).includes('You said: kept in the browser'), 'the local conversation');
  await page.getByRole('button', { name: 'What is 12 * (3 + 4)?' }).click();
  await idle(page);
  assert((await lastAgentMessage(page).locator('.bubble').textContent()).startsWith('12 * (3 + 4) = 84.'), 'the offline agent still runs');
  await page.click('#tab-server');
  await page.waitForSelector(`#sessions .session.current[data-session="${failingId}"]`);
  assert((await page.locator('#transcript').textContent()).includes('about to fail'), 'the server session shown last');
});

await test('10. ADK server: a reload keeps working; app info on demand; a server that does not answer is explained', async (page) => {
  await open(page, `?adk=${encodeURIComponent(ADK_SERVER_URL)}`);
  await useServerApp(page, 'weather');
  const id = await newServerSession(page);
  await send(page, 'Busan');
  await idle(page);
  await page.reload();
  await page.waitForSelector('body[data-ready="true"]', { timeout: 20_000 });
  // The server describes an app only when asked: story's root is not an LlmAgent, and the tab says so.
  await useServerApp(page, 'story');
  await page.click('#adk-app-info summary');
  await page.locator('#adk-app-info', { hasText: 'only apps whose root agent is an LlmAgent' }).waitFor();
  await useServerApp(page, 'weather');
  assert(await currentSession(page) === id, 'the newest session of the app is shown');
  assert((await page.locator(`#sessions .session[data-session="${id}"] .session-title`).textContent()) === 'Busan', 'its title is read back from the server');
  const before = await page.locator('#transcript').textContent();
  assert(before.includes('Busan') && before.includes('21 °C'), `the conversation: ${before}`);
  assert(await page.locator('#timeline .tl-author', { hasText: /^user$/ }).count() === 1, 'its events in the timeline');
  await send(page, 'Jeju');
  await idle(page);
  assert((await lastAgentMessage(page).locator('.bubble').textContent()).includes('in Jeju'), 'a run after the reload');

  // Nothing listens on this port: the tab says what that can mean, quoting the client's message.
  const closed = await serve(ROOT, 0);
  const deadUrl = `http://127.0.0.1:${closed.address().port}`;
  await new Promise((r) => closed.close(r));
  await page.fill('#adk-url', deadUrl);
  await page.click('#agent-server button[type="submit"]');
  const problem = page.locator('#agent-server .error-item');
  await problem.waitFor();
  const text = await problem.textContent();
  assert(text.includes('UNAVAILABLE') && text.includes('does not allow this page\'s origin') && text.includes('--allow_origins'), `problem: ${text}`);
  assert(await page.locator('#adk-app').isDisabled() && await count(page, '#sessions .session') === 0, 'no app, no sessions');
  assert((await page.locator('#transcript').textContent()).includes('Connect to an ADK server'), 'the chat says what to do');
  await page.getByRole('button', { name: 'Seoul' }).click();
  assert(await page.locator('#status').textContent() === 'Connect to an ADK server first.', 'sending is refused with a reason');
}, { allowConsole: [
  (m) => m.text() === 'Failed to load resource: net::ERR_CONNECTION_REFUSED',
  (m) => m.text().includes('status of 400') && m.location().url.endsWith('/apps/story/app-info'),
] });

await test('11. the agent asks: approve or deny a card, pick a choice, answer a question, and a pending card survives a reload; also from an ADK server', async (page) => {
  await open(page, `?adk=${encodeURIComponent(ADK_SERVER_URL)}`);
  await send(page, 'Note: water the plants');
  await idle(page);
  await page.getByRole('button', { name: 'Clear my notes' }).click();
  await idle(page);
  const card = page.locator('#transcript .asking[data-kind="confirmation"]');
  await card.waitFor();
  assert((await card.textContent()).includes('clear_notes('), `the card names the tool: ${await card.textContent()}`);
  // Nothing was deleted before the approval.
  await selectInspector(page, 'state');
  assert((await page.locator('#state [data-scope="user"]').textContent()).includes('water the plants'), 'the notes are still there');
  // The run waits on the person: after a reload the same card is back, from the stored session.
  await page.reload();
  await page.waitForSelector('body[data-ready="true"]', { timeout: 20_000 });
  await page.locator('#transcript .asking[data-kind="confirmation"]').waitFor();
  await page.locator('#transcript .asking button.deny').click();
  await idle(page);
  assert((await page.locator('#transcript').textContent()).includes('Fine, your notes stay as they are.'), 'denied: nothing deleted');
  assert(await count(page, '#transcript .asking:not([data-answered])') === 0, 'no card left waiting');
  await page.getByRole('button', { name: 'Clear my notes' }).click();
  await idle(page);
  await page.locator('#transcript .asking:not([data-answered]) button.approve').click();
  await idle(page);
  assert((await page.locator('#transcript').textContent()).includes('deleted, with your approval'), 'approved: the tool ran');
  await selectInspector(page, 'state');
  assert(!(await page.locator('#state [data-scope="user"]').textContent()).includes('water the plants'), 'the notes are gone');

  await page.getByRole('button', { name: 'Help me pick a colour' }).click();
  await idle(page);
  await page.locator('#transcript .asking[data-kind="choice"] button', { hasText: 'Green' }).click();
  await idle(page);
  assert((await page.locator('#transcript').textContent()).includes('Green it is.'), 'the choice reached the model');

  await page.getByRole('button', { name: 'Book me a table' }).click();
  await idle(page);
  const question = page.locator('#transcript .asking[data-kind="input"]');
  assert((await question.textContent()).includes('For what time?'), `the question: ${await question.textContent()}`);
  await question.locator('input').fill('7 pm');
  await question.locator('button').click();
  await idle(page);
  assert((await page.locator('#transcript').textContent()).includes('Booked for 7 pm.'), 'the answer reached the model');

  // The same cards for an agent on an ADK server: its `asking` app asks for an API key.
  await useServerApp(page, 'asking');
  const id = await newServerSession(page);
  await send(page, 'Read my mail.');
  await idle(page);
  const key = page.locator('#transcript .asking[data-kind="credential"]');
  await key.locator('input').fill('secret-123');
  await key.locator('button').click();
  await idle(page);
  assert((await page.locator('#transcript').textContent()).includes('"key_ends": "123"'), 'the server tool read the key');
  const stored = await serverSession('asking', id);
  assert(!JSON.stringify(stored.state).includes('secret-123'), 'the key is not in the server session state');
});

await test('12. "Who am I?": a Sign in card, the provider\'s own login and consent in a popup, the token used; also from an ADK server', async (page) => {
  await open(page, `?adk=${encodeURIComponent(ADK_SERVER_URL)}&oidc=${encodeURIComponent(oidc.url)}`);
  /** Clicks the card's Sign in and goes through oidc-provider's forms in the popup. */
  const signIn = async () => {
    const card = page.locator('#transcript .asking[data-kind="credential"]');
    assert((await card.textContent()).includes(`sign in at ${new URL(oidc.url).host}`), `the card: ${await card.textContent()}`);
    const [popup] = await Promise.all([page.waitForEvent('popup'), card.locator('button.sign-in').click()]);
    // The login form the first time; the provider remembers alice after that and asks consent only.
    const consent = popup.locator('button[type="submit"]', { hasText: /continue/i });
    await popup.locator('input[name="login"]').or(consent).first().waitFor();
    if (await popup.locator('input[name="login"]').count()) {
      await popup.locator('input[name="login"]').fill('alice');
      await popup.locator('input[name="password"]').fill('any');
      await popup.locator('button[type="submit"]').click();
    }
    await consent.click();
    await popup.waitForEvent('close');
    await idle(page);
  };
  await page.getByRole('button', { name: 'Who am I?' }).click();
  await idle(page);
  await signIn();
  assert((await page.locator('#transcript').textContent()).includes('You are Alice.'), 'the tool used the token');
  // The same card for an agent on an ADK server: its `asking` app's whoami; the server exchanges the code.
  await useServerApp(page, 'asking');
  await newServerSession(page);
  await send(page, 'Who am I?');
  await idle(page);
  await signIn();
  assert((await page.locator('#transcript').textContent()).includes('Done: {"name": "Alice"}'), 'the server tool used the token');
});

await test('13. MCP: the offline agent calls a tool of a real MCP server and answers with its result', async (page) => {
  await open(page, `?mcp=${encodeURIComponent(mcp.url)}`);
  assert((await page.locator('.agent-tree').textContent()).includes(`MCP server ${mcp.url}`), 'the tree shows the MCP toolset');
  await page.getByRole('button', { name: 'Ask the MCP server about Seoul' }).click();
  await idle(page);
  const said = await page.locator('#transcript').textContent();
  assert(said.includes("The MCP server's describe_city tool answered") && said.includes('맑음 ☀️'), said);
  assert((await page.locator('#timeline').textContent()).includes('describe_city'), 'the tool call is in the timeline');
});

await test('14. a Gemini reply with code it ran and grounded sources, stored on an ADK server, renders in the chat and the timeline', async (page) => {
  // The complete event of tests/fixtures/models/gemini-stream-code-execution.sse (Gemini's REST shape),
  // plus a source whose address is not http(s), which must stay text.
  const chunks = (await readFile(`${ROOT}tests/fixtures/models/gemini-stream-code-execution.sse`, 'utf8'))
    .split('\n').filter((l) => l.startsWith('data: ')).map((l) => JSON.parse(l.slice(6)).candidates[0]);
  const parts = chunks.flatMap((c) => c.content.parts);
  const grounding = chunks.at(-1).groundingMetadata;
  grounding.groundingChunks.push({ web: { uri: 'javascript:alert(1)', title: 'not a link' } });
  const id = `code-${Date.now()}`;
  const invocationId = 'e-code';
  const events = [
    { author: 'user', invocationId, content: { role: 'user', parts: [{ text: 'Sum of the first 10 primes?' }] } },
    { author: 'weather', invocationId, content: { role: 'model', parts }, groundingMetadata: grounding },
  ];
  const created = await fetch(`${ADK_SERVER_URL}/apps/weather/users/demo_user/sessions`, {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ sessionId: id, events }) });
  assert(created.ok, `POST session: ${created.status} ${await created.text()}`);
  await open(page, `?adk=${encodeURIComponent(ADK_SERVER_URL)}`);
  await useServerApp(page, 'weather');
  await page.click(`#sessions .session[data-session="${id}"] .session-open`);
  await page.locator('#transcript .chip-grounding').waitFor();

  const kinds = await page.locator('#transcript .turn-items > li').evaluateAll((items) => items.map((i) => i.className));
  assert(JSON.stringify(kinds) === JSON.stringify(['msg from-user', 'msg from-agent', 'chip chip-code', 'chip chip-code-result', 'msg from-agent', 'chip chip-grounding']),
    `the text, the code, its result, the text after it and the sources, in order: ${kinds}`);
  assert((await page.locator('#transcript .chip-code pre').textContent()).startsWith('primes = [p for p in range(2, 30)'), 'the code as written');
  assert((await page.locator('#transcript .chip-code-result').textContent()).includes('OUTCOME_OK'), 'the outcome');
  const links = await page.locator('#transcript .chip-grounding a').evaluateAll((as) => as.map((a) => a.getAttribute('href')));
  assert(JSON.stringify(links) === '["https://primes.example/first-ten"]', `only the http(s) source is a link: ${links}`);
  assert((await page.locator('#transcript .chip-grounding').textContent()).includes('not a link'), 'the other one shows as text');
  assert(await count(page, '#transcript style, #transcript .chip-grounding div') === 0, 'the search suggestions\' markup is not put in the page');
  const row = page.locator('#timeline .tl-row').last();
  assert(await row.getAttribute('data-kinds') === 'text,code,code result,grounding', `timeline kinds: ${await row.getAttribute('data-kinds')}`);
  await page.screenshot({ path: `${OUT}demo-code-execution.png` });
});

await browser.close();
server.close();
await oidc.close();
await mcp.stop();
await peers?.stop();
await adkServers?.stop();
console.log(`${results.passed} passed, ${results.failed} failed`);
process.exit(results.failed === 0 && results.passed > 0 ? 0 : 1);
