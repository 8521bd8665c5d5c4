// Type-checks adk-wasm/ag-ui: the README's example and the three sources.
import { HttpAgent, type AbstractAgent, type Message } from '@ag-ui/client';
import { AdkServerClient, InMemoryRunner, LlmAgent, RemoteA2aAgent, ScriptedModel } from '../../pkg/index.js';
import { AgUiAgent, AGUIToolset } from '../../pkg/ag-ui.js';

export async function chat(baseUrl: string): Promise<Message[]> {
  const agent = new LlmAgent({ name: 'helper', model: new ScriptedModel(['Hi!']), tools: [new AGUIToolset({ toolFilter: ['change_background'] })] });
  const local = new AgUiAgent({ runner: new InMemoryRunner({ agent, appName: 'app' }), userId: 'u', threadId: 't1', emitMessagesSnapshot: true });
  const remote = new AgUiAgent({ server: new AdkServerClient({ baseUrl }), appName: 'weather', userId: 'u', streaming: false });
  const a2a = new AgUiAgent({ a2a: new RemoteA2aAgent({ name: 'remote', agentCardUrl: `${baseUrl}/a2a` }) });
  // @ts-expect-error a remote agent's sub-agents are the server's: it takes none
  new RemoteA2aAgent({ name: 'r', agentCardUrl: `${baseUrl}/a2a`, subAgents: [] });
  // Wherever an AG-UI agent goes, these go: they are `AbstractAgent`s.
  const agents: AbstractAgent[] = [local, remote, a2a, new HttpAgent({ url: baseUrl })];
  local.addMessage({ id: 'm1', role: 'user', content: 'Hello' });
  const { newMessages } = await local.runAgent({ tools: [{ name: 'change_background', description: 'Changes the page background.', parameters: {} }] });
  local.abortRun();
  const copy: AgUiAgent = local.clone();
  // @ts-expect-error a server source needs the app's name
  new AgUiAgent({ server: new AdkServerClient({ baseUrl }), userId: 'u' });
  // @ts-expect-error one source at a time
  new AgUiAgent({ runner: new InMemoryRunner({ agent, appName: 'app' }), server: new AdkServerClient({ baseUrl }), appName: 'a', userId: 'u' });
  return [...newMessages, ...copy.messages, ...agents.flatMap((a) => a.messages)];
}
