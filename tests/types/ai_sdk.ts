// Type-checks adk-wasm/ai-sdk the way a useChat app uses it: the transport is the AI SDK's
// ChatTransport for any UIMessage type, over each of the three sources, and only those.
import { AbstractChat, type ChatTransport, type UIMessage, type UIMessageChunk } from 'ai';
import { AdkServerClient, InMemoryRunner, LlmAgent, RemoteA2aAgent, ScriptedModel, type JsonObject } from '../../pkg/index.js';
import { AdkChatTransport, type AdkChatTransportOptions, type AdkDataTypes } from '../../pkg/ai-sdk.js';

const runner = new InMemoryRunner({ agent: new LlmAgent({ name: 'a', model: new ScriptedModel(['hi']) }), appName: 'app' });
const local = new AdkChatTransport({ runner, userId: 'u' });
const server = new AdkChatTransport({ server: new AdkServerClient({ baseUrl: 'http://127.0.0.1:8000' }), appName: 'weather', userId: 'u', streaming: false });
const remote = new AdkChatTransport({ a2a: new RemoteA2aAgent({ name: 'remote', agentCardUrl: 'https://agent.example.com' }) });
export const transports: ChatTransport<UIMessage>[] = [local, server, remote];

// A typed message: the transport's data parts, and tools by name.
type AppMessage = UIMessage<{ at: number }, AdkDataTypes, { get_weather: { input: { city: string }; output: { temp_c: number } } }>;
const typed: ChatTransport<AppMessage> = new AdkChatTransport<AppMessage>({ runner, userId: 'u' });
export function stateOf(message: AppMessage): { state: JsonObject[]; versions: number[]; temps: number[] } {
  const state = message.parts.flatMap((p) => (p.type === 'data-state' ? [p.data] : []));
  const versions = message.parts.flatMap((p) => (p.type === 'data-artifacts' ? [p.data['note.txt'] ?? 0] : []));
  const temps = message.parts.flatMap((p) => (p.type === 'tool-get_weather' && p.state === 'output-available' ? [p.output.temp_c] : []));
  return { state, versions, temps };
}

export async function read(messages: AppMessage[], abortSignal: AbortSignal): Promise<UIMessageChunk[]> {
  const stream: ReadableStream<UIMessageChunk> = await typed.sendMessages({ trigger: 'submit-message', chatId: 'c', messageId: undefined, messages, abortSignal });
  const again: ReadableStream<UIMessageChunk> | null = await typed.reconnectToStream({ chatId: 'c' });
  const chunks: UIMessageChunk[] = [];
  for (const s of [stream, again]) {
    const reader = s?.getReader();
    for (let r = await reader?.read(); r && !r.done; r = await reader?.read()) chunks.push(r.value);
  }
  return chunks;
}

const replay: true = local.resumeStreamIsReplay;

declare class Chat<M extends UIMessage> extends AbstractChat<M> {}
export const chat = new Chat<AppMessage>({ id: 'c', transport: typed, state: null! });

const bad: AdkChatTransportOptions[] = [
  // @ts-expect-error a runner source needs a userId
  { runner },
  // @ts-expect-error a server source needs an appName
  { server: new AdkServerClient({ baseUrl: 'x' }), userId: 'u' },
  // @ts-expect-error one source only
  { runner, userId: 'u', a2a: new RemoteA2aAgent({ name: 'r', agentCardUrl: 'x' }) },
];
export { bad, replay };
