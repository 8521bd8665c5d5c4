// @ts-check
// OpenAPIToolset through the release package in Chromium, against a real FastAPI service
// (tests/openapi/app.py, started by run.mjs, which echoes each request it gets): an LlmAgent over a
// scripted model calls each operation of the service's generated spec, and what it declares to its
// model and the function responses it writes equal what google-adk 2.13.0's OpenAPIToolset produced
// against the same service (tests/fixtures/openapi/adk-2.13.0.json, recorded by
// tests/openapi/record.py).
import init, * as adk from '/pkg/index.js';
import { assert, assertJsonEqual, assertRejectsAdk, assertThrowsAdk, finish, json, test } from './harness.js';

await init();
const { InMemoryRunner, LlmAgent, ScriptedModel, OpenAPIToolset } = adk;
const service = String(new URLSearchParams(location.search).get('openapi'));
const recorded = await (await fetch('/tests/fixtures/openapi/adk-2.13.0.json')).json();
const spec = await (await fetch(`${service}/openapi.json`)).json();

const callOf = (name, args) => ({ content: { role: 'model', parts: [{ functionCall: { name, args } }] } });
const text = (t) => ({ role: 'user', parts: [{ text: t }] });

/**
 * Runs each of `calls` in a turn of its own; the model, each turn's events and function response.
 * @param {any[]} tools @param {[string, object][]} calls @param {{signal?: AbortSignal}} [options]
 */
async function runCalls(tools, calls, { signal } = {}) {
  const model = new ScriptedModel(calls.flatMap(([tool, args]) => [callOf(tool, args), 'done']));
  const agent = new LlmAgent({ name: 'api_user', model, instruction: 'Use the tools.', tools });
  const runner = new InMemoryRunner({ agent, appName: 'app', autoCreateSession: true });
  const responses = [];
  const turns = [];
  for (const [tool] of calls) {
    const events = [];
    for await (const e of runner.runAsync({ userId: 'u', sessionId: 's', newMessage: text(`call ${tool}`), signal })) events.push(e);
    turns.push(events);
    responses.push(events.flatMap((e) => adk.getFunctionResponses(e)).map((r) => r.response)[0]);
  }
  return { model, responses, turns };
}

/** The recording's two toolsets: every operation but `whoAmI` as the spec says, `whoAmI` with an API key. */
const recordedToolsets = (specDict = spec) => [
  new OpenAPIToolset({ specDict, allowPrivateNetworkAccess: true, toolFilter: (tool) => tool.name !== 'who_am_i' }),
  new OpenAPIToolset({
    specDict,
    allowPrivateNetworkAccess: true,
    toolFilter: ['who_am_i'],
    authScheme: { type: 'apiKey', in: 'header', name: 'X-Api-Key' },
    authCredential: { authType: 'apiKey', apiKey: 'sesame' },
  }),
];

await test('declarations and every call\'s function response are google-adk 2.13.0\'s, against the running service', async () => {
  const { model, responses } = await runCalls(recordedToolsets(), recorded.calls.map((c) => [c.tool, c.args]));
  const declarations = json(model.requests[0]).config.tools[0].functionDeclarations;
  assertJsonEqual(declarations, recorded.declarations);
  recorded.calls.forEach((call, i) => assertJsonEqual(responses[i], call.response, `${call.tool}(${JSON.stringify(call.args)})`));
});

await test('specStr, a prefix, preservePropertyNames and a headerProvider', async () => {
  const seen = [];
  const toolset = new OpenAPIToolset({
    specStr: JSON.stringify(spec),
    allowPrivateNetworkAccess: true,
    prefix: 'store',
    preservePropertyNames: true,
    toolFilter: ['get_pet_by_id', 'list_pets'],
    headerProvider: (context) => {
      seen.push(context.agentName);
      return { 'X-Request-Id': `from-${context.userId}` };
    },
  });
  const { model, responses } = await runCalls([toolset], [['store_get_pet_by_id', { pet_id: 5 }], ['store_list_pets', { name_contains: 'x' }]]);
  const declarations = json(model.requests[0]).config.tools[0].functionDeclarations;
  assertJsonEqual(declarations.map((d) => d.name), ['store_list_pets', 'store_get_pet_by_id']);
  // Preserved: the spec's own `x-request-id` and `name_contains` (already snake_case).
  assertJsonEqual(Object.keys(declarations[1].parametersJsonSchema.properties), ['pet_id', 'x-request-id']);
  assertJsonEqual(json(responses[0]).request.headers, { 'x-request-id': 'from-u' });
  assertJsonEqual(json(responses[1]).request.query, { name_contains: 'x' });
  assert(seen.length === 2 && seen.every((n) => n === 'api_user'), JSON.stringify(seen));
});

await test('private hosts are refused unless allowed, as ADK refuses them (an error the model sees)', async () => {
  const { responses } = await runCalls([new OpenAPIToolset({ specDict: spec })], [['readme', {}]]);
  const error = String(json(responses[0]).error);
  assert(error.startsWith('Tool readme execution failed.') && error.endsWith('Execution Error: Blocked host: 127.0.0.1'), error);
});

await test('a service that does not allow the page\'s origin (CORS) fails the call with UNAVAILABLE, saying so', async () => {
  // This page's own server, under another name: cross-origin, and it sends no CORS headers.
  const elsewhere = location.origin.replace('127.0.0.1', 'localhost');
  const specDict = { ...spec, servers: [{ url: elsewhere }] };
  await assertRejectsAdk(runCalls([new OpenAPIToolset({ specDict, allowPrivateNetworkAccess: true })], [['readme', {}]]), 'UNAVAILABLE', 'CORS');
});

await test('a run stopped during a call aborts the request', async () => {
  const controller = new AbortController();
  setTimeout(() => controller.abort(), 500);
  const started = Date.now();
  const toolset = new OpenAPIToolset({ specDict: spec, allowPrivateNetworkAccess: true });
  const error = await runCalls([toolset], [['wait_for', { seconds: 20 }]], { signal: controller.signal }).then(() => null, (e) => e);
  assert(error?.name === 'AbortError' && Date.now() - started < 5_000, String(error));
});

await test('bad specs and options are refused where they are given', async () => {
  const refused = (options, code, part) => assertThrowsAdk(() => new OpenAPIToolset(json(options)), code, part);
  refused({}, 'INVALID_ARGUMENT', 'specDict or specStr');
  refused({ specStr: '{' }, 'INVALID_ARGUMENT');
  refused({ specStr: 'openapi: 3.1.0', specType: 'yaml' }, 'UNIMPLEMENTED', 'YAML');
  refused({ specDict: { paths: { '/a': { $ref: 'https://elsewhere.test/spec.json' } } } }, 'INVALID_ARGUMENT', 'external references');
  refused({ specDict: spec, toolFilter: 3 }, 'INVALID_ARGUMENT', 'toolFilter');
});

finish();
