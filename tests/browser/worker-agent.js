// The module worker of tests/browser/worker.html: the release package's runner served to the page
// (adk-wasm/worker). A scripted model answers; `wait` takes 30 s unless the run is stopped, and
// records the runs it saw stopped. Another runner is served over a MessagePort the page sends.
import init, { FunctionTool, InMemoryRunner, LlmAgent, ScriptedModel } from '/pkg/index.js';
import { serveRunner } from '/pkg/worker.js';

await init();
const stopped = [];
const wait = new FunctionTool({
  name: 'wait',
  description: 'Waits.',
  execute: (_args, context) => new Promise((resolve) => {
    const timer = setTimeout(() => resolve({ waited: true }), 30_000);
    context.abortSignal.addEventListener('abort', () => {
      clearTimeout(timer);
      stopped.push(context.sessionId);
      resolve({ waited: false });
    });
  }),
});
const report = new FunctionTool({ name: 'report', description: 'Says which runs were stopped.', execute: () => ({ stopped }) });
const call = (name) => ({ content: { role: 'model', parts: [{ functionCall: { name, args: {} } }] } });
const model = new ScriptedModel(['Hello from the worker ', call('wait'), call('report'), 'done']);
const agent = new LlmAgent({ name: 'worker_agent', model, tools: [wait, report] });
serveRunner(new InMemoryRunner({ agent, appName: 'app', autoCreateSession: true }));
// A second runner served over a MessagePort the page sends (serveRunner's `port`): three events at
// once, each naming its session.
const overPort = {
  name: 'port_agent',
  async *runAsyncImpl(ctx) {
    for (let i = 1; i <= 3; i++) yield { content: { role: 'model', parts: [{ text: `${ctx.sessionId} ${i}` }] } };
  },
};
addEventListener('message', ({ data, ports }) => {
  if (data?.type === 'port') serveRunner(new InMemoryRunner({ agent: overPort, appName: 'app', autoCreateSession: true }), ports[0]);
});
postMessage({ type: 'ready' });
