// @ts-check
// One case of memory.js, in its own frame: a fresh instance, whose wasm memory (which never
// shrinks) says how much the case needed at its peak.
import init, * as adk from '/pkg/index.js';

const exports = /** @type {{memory: WebAssembly.Memory}} */ (await init());
const size = 64 * 2 ** 20;
adk.setLimits({ maxEventBytes: 2 ** 30, maxModelResponseBytes: 2 ** 30, maxToolResultBytes: 2 ** 30, maxSessionBytes: 2 ** 31 });
const text = 'x'.repeat(size);
const user = { role: 'user', parts: [{ text: 'go' }] };
const drain = async (run) => { for await (const _ of run); };
const cases = {
  parseEvent: async () => adk.parseEvent({ author: 'a', content: { role: 'model', parts: [{ text }] } }),
  appendEvent: async () => {
    const service = new adk.InMemorySessionService();
    const session = await service.createSession({ appName: 'a', userId: 'u' });
    await service.appendEvent({ session, event: { ...adk.createEvent({ author: 'a' }), content: { role: 'model', parts: [{ text }] } } });
  },
  modelResponse: async () => {
    const model = { generateContent: async () => ({ content: { role: 'model', parts: [{ text }] } }) };
    const runner = new adk.InMemoryRunner({ agent: new adk.LlmAgent({ name: 'm', model }), appName: 'a', autoCreateSession: true });
    await drain(runner.runAsync({ userId: 'u', sessionId: 's', newMessage: user }));
  },
  toolResult: async () => {
    const tool = new adk.FunctionTool({ name: 't', execute: () => ({ text }) });
    const model = new adk.ScriptedModel([{ content: { role: 'model', parts: [{ functionCall: { name: 't', args: {} } }] } }, 'done']);
    const runner = new adk.InMemoryRunner({ agent: new adk.LlmAgent({ name: 'm', model, tools: [tool] }), appName: 'a', autoCreateSession: true });
    await drain(runner.runAsync({ userId: 'u', sessionId: 's', newMessage: user }));
  },
};
const name = new URLSearchParams(location.search).get('case');
const before = exports.memory.buffer.byteLength;
let error = null;
try {
  await cases[name]();
} catch (e) {
  error = `${e.code}: ${e.message}`;
}
parent.postMessage({ name, ratio: (exports.memory.buffer.byteLength - before) / size, error }, '*');
