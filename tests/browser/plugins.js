// @ts-check
// Plugins through the release package in Chromium, beyond the recorded flows (flows.js compares
// their order and answers with ADK's): names, a hook that throws, hooks that change the request
// and the arguments in place, the error hooks, a plain object as a plugin, and LoggingPlugin.
import init, * as adk from '/pkg/index.js';
import { assert, assertRejectsAdk, assertThrowsAdk, collect, finish, json, test } from './harness.js';

await init();
const { InMemoryRunner, LlmAgent, FunctionTool, BasePlugin, LoggingPlugin, GlobalInstructionPlugin } = adk;

const text = (t) => ({ role: 'user', parts: [{ text: t }] });
const reply = (t) => ({ content: { role: 'model', parts: [{ text: t }] } });

/** A model answering from `script` (a function of the request, or a response) that records each request. */
function model(script) {
  const requests = [];
  return {
    requests,
    model: 'scripted',
    generateContent(request) {
      requests.push(request);
      const turn = script.shift();
      return typeof turn === 'function' ? turn(request) : turn;
    },
  };
}

async function run(agent, plugins, message = 'Hi', sessionId = 's') {
  const runner = new InMemoryRunner({ agent, appName: 'app', plugins });
  await runner.sessionService.createSession({ appName: 'app', userId: 'u', sessionId });
  return { runner, events: await collect(runner.runAsync({ userId: 'u', sessionId, newMessage: text(message) })) };
}

await test('two plugins of one name are refused as ADK refuses them', async () => {
  const agent = new LlmAgent({ name: 'a', model: model([]) });
  assertThrowsAdk(() => new InMemoryRunner({ agent, plugins: [new BasePlugin('p'), new LoggingPlugin('p')] }), 'INVALID_ARGUMENT', "Plugin with name 'p' already registered.");
});

await test('a hook that throws fails the run, named after the plugin and the hook; the session carries on', async () => {
  class Strict extends BasePlugin {
    beforeModelCallback() { throw new Error('not today'); }
  }
  const runner = new InMemoryRunner({ agent: new LlmAgent({ name: 'a', model: model([reply('never')]) }), appName: 'app', plugins: [new Strict('strict')] });
  await runner.sessionService.createSession({ appName: 'app', userId: 'u', sessionId: 's' });
  const error = await assertRejectsAdk(collect(runner.runAsync({ userId: 'u', sessionId: 's', newMessage: text('Hi') })), 'INTERNAL',
    "Error in plugin 'strict' during 'before_model_callback' callback: not today");
  assert(error.message.startsWith('Error in plugin'), error.message);
  const session = await runner.sessionService.getSession({ appName: 'app', userId: 'u', sessionId: 's' });
  assert(session.events.length === 1 && session.events[0].author === 'user', JSON.stringify(session.events));
  await assertRejectsAdk(collect(runner.runAsync({ userId: 'u', sessionId: 's', newMessage: text('Again') })), 'INTERNAL', 'not today');
});

await test('a plugin changes the request and the arguments in place; the agent callbacks see the change', async () => {
  const m = model([{ content: { role: 'model', parts: [{ functionCall: { name: 'add', args: { a: 1, b: 2 } } }] } }, reply('Done.')]);
  const seen = [];
  const add = new FunctionTool({ name: 'add', description: 'Adds.', parameters: { type: 'object' }, execute: (args) => ({ sum: json(args).a + json(args).b }) });
  class Shaper extends BasePlugin {
    beforeModelCallback({ llmRequest }) { llmRequest.config.systemInstruction += '\n\nBe exact.'; }
    beforeToolCallback({ toolArgs }) { toolArgs.b = 40; }
  }
  const agent = new LlmAgent({ name: 'calc', model: m, tools: [add], beforeToolCallback: ({ args }) => void seen.push(args.b) });
  const { events } = await run(agent, [new Shaper('shaper')]);
  assert(m.requests.every((r) => r.config.systemInstruction.endsWith('Be exact.')), JSON.stringify(m.requests[0].config));
  assert(json(seen)[0] === 40 && json(events[1]).content.parts[0].functionResponse.response.sum === 41, JSON.stringify(events[1]));
});

await test('the error hooks turn a failed model call and a failed tool into answers; a plain object is a plugin', async () => {
  const broken = new FunctionTool({ name: 'broken', description: 'Fails.', parameters: { type: 'object' }, execute: () => { throw new Error('down'); } });
  const m = model([{ content: { role: 'model', parts: [{ functionCall: { name: 'broken', args: {} } }] } }, () => { throw new Error('overloaded'); }]);
  const rescue = {
    name: 'rescue',
    onToolErrorCallback: ({ tool, error }) => ({ fallback: tool.name, error: error.message }),
    onModelErrorCallback: async ({ error }) => reply(`recovered: ${error.message}`),
  };
  const { events } = await run(new LlmAgent({ name: 'a', model: m, tools: [broken] }), [rescue]);
  const response = json(events[1]).content.parts[0].functionResponse.response;
  assert(response.fallback === 'broken' && response.error === 'down', JSON.stringify(response));
  assert(json(events[2]).content.parts[0].text === 'recovered: overloaded', JSON.stringify(events[2]));
});

await test('GlobalInstructionPlugin: a function of the context leads the system instruction', async () => {
  const m = model([reply('Hi.')]);
  const plugin = new GlobalInstructionPlugin((context) => `Serve ${context.userId}.`, 'house_rules');
  await run(new LlmAgent({ name: 'a', model: m }), [plugin]);
  assert(m.requests[0].config.systemInstruction === 'Serve u.\n\nYou are an agent. Your internal name is "a".', m.requests[0].config.systemInstruction);
});

await test('LoggingPlugin writes a console line for each hook, in order', async () => {
  const lines = [];
  const log = console.log;
  console.log = (line) => lines.push(line);
  try {
    await run(new LlmAgent({ name: 'a', model: model([reply('Hi.')]) }), [new LoggingPlugin()], 'Yo');
  } finally {
    console.log = log;
  }
  const headings = lines.map((l) => l.split(' ').slice(1, 3).join(' '));
  const want = ['🚀 USER', '🏃 INVOCATION', '🤖 AGENT', '🧠 LLM', '🧠 LLM', '📢 EVENT', '🤖 AGENT', '✅ INVOCATION'];
  assert(JSON.stringify(headings) === JSON.stringify(want), JSON.stringify(lines));
  assert(lines[4] === "[logging_plugin] 🧠 LLM RESPONSE for a: text: 'Hi.'", lines[4]);
});

await test('an App carries its plugins to the runner (ADK\'s App.plugins); plugins beside an app are refused', async () => {
  const seen = [];
  class Tracer extends BasePlugin {
    beforeRunCallback() { seen.push('before_run'); }
    afterRunCallback() { seen.push('after_run'); }
  }
  const agent = new LlmAgent({ name: 'helper', model: new adk.ScriptedModel(['hi']) });
  const app = new adk.App({ name: 'traced', rootAgent: agent, plugins: [new Tracer('tracer')] });
  const runner = new InMemoryRunner({ app });
  assert(runner.appName === 'traced' && runner.plugins.length === 1, 'the app\'s name and plugins');
  const session = await runner.sessionService.createSession({ appName: 'traced', userId: 'u' });
  await collect(runner.runAsync({ userId: 'u', sessionId: session.id, newMessage: { role: 'user', parts: [{ text: 'x' }] } }));
  assert(seen.join() === 'before_run,after_run', seen.join());
  // What a JS caller without types can pass.
  assertThrowsAdk(() => new InMemoryRunner(/** @type {any} */ ({ app, plugins: [new Tracer('other')] })), 'INVALID_ARGUMENT', 'provided in the app');
});

finish();
