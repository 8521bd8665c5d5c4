// A consumer of the packed `adk-wasm` tarball: imported by package name, type-checked with
// `tsc --strict`, bundled by esbuild (the wasm file emitted as an asset), run in Chromium.
import init, { FunctionTool, InMemoryRunner, LlmAgent, ScriptedModel, isFinalResponse, type Event } from 'adk-wasm';
import wasmUrl from 'adk-wasm/adk_wasm_bg.wasm';
import * as slim from 'adk-wasm/a2a';
import slimWasmUrl from 'adk-wasm/a2a/adk_wasm_bg.wasm';
import * as front from 'adk-wasm/server';
import frontWasmUrl from 'adk-wasm/server/adk_wasm_bg.wasm';

const add = new FunctionTool({
  name: 'add',
  description: 'Adds two numbers.',
  parameters: { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } } },
  execute: ({ a, b }) => Number(a) + Number(b),
});

/** Before init() the SDK says so, with a code, instead of failing somewhere inside the glue. */
function beforeInit(): string {
  try {
    new ScriptedModel([]);
    return 'no error';
  } catch (error) {
    return (error as { code?: string }).code ?? String(error);
  }
}

/** The smaller entry: events and the A2A client, on its own wasm module, without the agent classes. */
async function slimEntry(): Promise<string> {
  await slim.default(slimWasmUrl);
  const event = slim.parseEvent({ author: 'remote', content: { role: 'model', parts: [{ text: 'hi' }] } });
  const card = { name: 'peer', description: '', version: '1', capabilities: {}, defaultInputModes: [], defaultOutputModes: [], skills: [],
    supportedInterfaces: [{ url: 'http://127.0.0.1:1/', protocolBinding: 'JSONRPC', protocolVersion: '1.0' }] };
  const client = slim.A2AClient.fromCard(card);
  const hasAgents = 'LlmAgent' in slim;
  return `${slim.isFinalResponse(event)} ${client.protocolVersion} ${client.binding} agents:${hasAgents}`;
}

/** The ADK server front-end entry: events, Transcript and the server client, on its own module. */
async function frontEntry(): Promise<string> {
  await front.default(frontWasmUrl);
  const transcript = new front.Transcript();
  const items = transcript.add(front.parseEvent({ author: 'agent', content: { role: 'model', parts: [{ text: 'hi' }] } }));
  const client = new front.AdkServerClient({ baseUrl: 'http://127.0.0.1:1/' });
  return `${items[0]?.kind} ${client.baseUrl} agents:${'LlmAgent' in front} a2a:${'A2AClient' in front}`;
}

export async function main(): Promise<{ beforeInit: string; slim: string; front: string; authors: string[]; answer: string; final: boolean }> {
  const early = beforeInit();
  await init(wasmUrl);
  const model = new ScriptedModel([
    { content: { role: 'model', parts: [{ functionCall: { name: 'add', args: { a: 20, b: 22 } } }] } },
    'The answer is 42.',
  ]);
  const agent = new LlmAgent({ name: 'calc', model, tools: [add] });
  const runner = new InMemoryRunner({ agent, appName: 'consumer', autoCreateSession: true });
  const events: Event[] = [];
  for await (const event of runner.runAsync({ userId: 'u', sessionId: 's', newMessage: { role: 'user', parts: [{ text: '20 + 22?' }] } })) {
    events.push(event);
  }
  const last = events[events.length - 1];
  return { beforeInit: early, slim: await slimEntry(), front: await frontEntry(), authors: events.map((e) => e.author), answer: last?.content?.parts?.[0]?.text ?? '', final: last ? isFinalResponse(last) : false };
}

const out = document.getElementById('out');
main().then(
  (result) => { if (out) out.textContent = JSON.stringify(result); },
  (error: unknown) => { if (out) out.textContent = `error: ${String(error)}`; },
);
