// Type-checks the hand-written pkg/index.d.ts the way an app uses it (tsc --strict --noEmit).
import init, {
  AgentTool,
  BasePlugin,
  GlobalInstructionPlugin,
  LoggingPlugin,
  createEvent,
  getFunctionCalls,
  InMemoryArtifactService,
  InMemoryMemoryService,
  InMemorySessionService,
  IndexedDbSessionService,
  isFinalResponse,
  parseEvent,
  Part,
  BaseAgent,
  type Context,
  InMemoryRunner,
  type JsonObject,
  type JsAgent,
  LoopAgent,
  Runner,
  SequentialAgent,
  Transcript,
  type TranscriptItem,
  BuiltInCodeExecutor,
  BuiltInPlanner,
  PlanReActPlanner,
  MCPToolset,
  type MCPConnectionParams,
  type YieldedEvent,
  exitLoop,
  getUserChoiceTool,
  requestInputTool,
  BaseToolset,
  type HeaderProviderContext,
  FunctionTool,
  type JsModel,
  LlmAgent,
  type LlmRequest,
  ScriptedModel,
  type AdkError,
  type BaseSessionService,
  type Event,
  type Session,
} from '../../pkg/index.js';

export async function usage(): Promise<string> {
  await init();
  const event: Event = parseEvent('{"author": "user"}');
  const reply = createEvent({ author: 'agent', content: { role: 'model', parts: [Part.fromText('hi')] }, actions: { stateDelta: { 'user:x': 1 } } });
  const names: (string | undefined)[] = getFunctionCalls(reply).map((c) => c.name);
  const sessions = new InMemorySessionService();
  const session: Session = await sessions.createSession({ appName: 'app', userId: 'u', state: { n: 1 } });
  const stored: Event = await sessions.appendEvent({ session, event: reply });
  const again: Session | null = await sessions.getSession({ appName: 'app', userId: 'u', sessionId: session.id, config: { numRecentEvents: 10 } });
  const memory = new InMemoryMemoryService();
  await memory.addSessionToMemory(session);
  const { memories } = await memory.searchMemory({ appName: 'app', userId: 'u', query: '날씨' });
  const artifacts = new InMemoryArtifactService();
  const version: number = await artifacts.saveArtifact({ appName: 'app', userId: 'u', sessionId: session.id, filename: 'a.txt', artifact: Part.fromText('x') });
  const custom: BaseSessionService = {
    createSession: async (r) => ({ id: 'x', appName: r.appName, userId: r.userId, state: {}, events: [], lastUpdateTime: 0 }),
    getSession: () => null,
    listSessions: () => ({ sessions: [] }),
    deleteSession: () => undefined,
    appendEvent: ({ event }) => event,
  };
  try {
    parseEvent('{');
  } catch (e) {
    const code: AdkError['code'] = (e as AdkError).code;
    return `${code} ${isFinalResponse(event)} ${stored.id} ${again?.events.length} ${memories.length} ${version} ${names} ${typeof custom}`;
  }
  return '';
}

export async function runUsage(): Promise<number> {
  class Greeter extends BaseAgent {
    async *runAsyncImpl(ctx: Context): AsyncGenerator<YieldedEvent> {
      ctx.state.set('greeted', true);
      yield { content: { role: 'model', parts: [{ text: `hi ${ctx.userId}` }] } };
    }
  }
  const plain: JsAgent = { name: 'plain', async *runAsyncImpl() { yield { content: { parts: [{ text: 'x' }] } }; } };
  const root = new SequentialAgent({
    name: 'root',
    subAgents: [new Greeter({ name: 'greeter' }), plain, new LoopAgent({ name: 'loop', maxIterations: 2, subAgents: [] })],
    beforeAgentCallback: async (ctx) => { ctx.setVariable('n', 1); },
  });
  const runner = new InMemoryRunner({ agent: root, appName: 'app' });
  await runner.sessionService.createSession({ appName: 'app', userId: 'u', sessionId: 's' });
  const controller = new AbortController();
  const transcript = new Transcript();
  let count = 0;
  for await (const event of runner.runAsync({ userId: 'u', sessionId: 's', newMessage: { role: 'user', parts: [{ text: 'hi' }] }, signal: controller.signal })) {
    const items: TranscriptItem[] = transcript.add(event);
    for (const item of items) {
      if (item.kind === 'code') count += item.code.length + (item.language ?? '').length;
      if (item.kind === 'codeResult') count += (item.output ?? '').length;
      if (item.kind === 'grounding') count += item.sources.filter((s) => s.uri?.startsWith('https:')).length + item.queries.length;
    }
    count += items.length + (isFinalResponse(event) ? 1 : 0);
  }
  const kept = new IndexedDbSessionService({ databaseName: 'my-app' });
  const listed = await new Runner({ appName: 'app', agent: plain, sessionService: kept }).sessionService.listSessions({ appName: 'app' });
  count += 'sessions' in listed ? listed.sessions.length : 0;
  await IndexedDbSessionService.deleteDatabase('my-app');
  const stream: ReadableStream<Event> = new Runner({ appName: 'app', agent: plain, sessionService: new InMemorySessionService(), autoCreateSession: true })
    .runAsync({ userId: 'u', sessionId: 's', newMessage: { parts: [{ text: 'x' }] }, runConfig: { streamingMode: 'sse', maxLlmCalls: 10 } })
    .toReadableStream();
  return count + (stream.locked ? 1 : 0);
}

export function llmUsage(): LlmAgent {
  const tool = new FunctionTool({
    name: 'add',
    description: 'Adds.',
    parameters: { type: 'object', properties: { a: { type: 'number' } } },
    execute: async (args, ctx) => { ctx.state.set('last', args); return { sum: 1 }; },
  });
  const local: JsModel = {
    model: 'local',
    async *generateContent(request: LlmRequest, { signal }) {
      if (!signal.aborted) yield { content: { role: 'model', parts: [{ text: `${request.contents.length}` }] }, partial: true };
    },
  };
  const specialist = new LlmAgent({ name: 'specialist', model: local, tools: [tool, exitLoop, getUserChoiceTool, requestInputTool], outputKey: 'out', includeContents: 'none' });
  return new LlmAgent({
    name: 'coordinator',
    model: new ScriptedModel(['hi', { chunks: ['a', 'b'] }, { content: { parts: [{ text: 'x' }] } }]),
    instruction: (ctx) => `You help ${ctx.userId}.`,
    subAgents: [specialist],
    beforeModelCallback: ({ request }) => {
      request.config.temperature = 0;
      // Gemini's built-in tools are entries without declarations.
      const declared: string[] = (request.config.tools ?? []).flatMap((t) => (t.functionDeclarations ?? []).map((d) => d.name));
      if (request.config.tools?.some((t) => t.googleSearch) && declared.length === 0) return undefined;
    },
    afterToolCallback: ({ response }) => (typeof response === 'number' ? { result: response } : undefined),
  });
}

export function structuredOutputUsage(model: JsModel): AgentTool {
  const trip = { type: 'object', properties: { city: { type: 'string' }, days: { type: 'integer' } }, required: ['city'] };
  const planner = new LlmAgent({ name: 'planner', model, inputSchema: trip, outputSchema: trip, outputKey: 'trip' });
  const saved: JsonObject | undefined = planner.outputSchema;
  // @ts-expect-error a schema is a JSON Schema object
  new LlmAgent({ name: 'bad', model, outputSchema: saved ? 'object' : 'array' });
  return new AgentTool({ agent: planner });
}

export function codeExecutorUsage(model: JsModel): LlmAgent {
  return new LlmAgent({ name: 'coder', model, codeExecutor: new BuiltInCodeExecutor() });
}

export function plannerUsage(model: JsModel): LlmAgent[] {
  const thinking = new BuiltInPlanner({ thinkingConfig: { includeThoughts: true, thinkingBudget: 1024 } });
  // @ts-expect-error the thinking config is required
  void new BuiltInPlanner({});
  return [new LlmAgent({ name: 'thinker', model, planner: thinking }), new LlmAgent({ name: 'planner', model, planner: new PlanReActPlanner() })];
}

export function mcpUsage(model: JsModel, sse: boolean): LlmAgent {
  const params: MCPConnectionParams = sse
    ? { type: 'SseConnectionParams', url: 'http://127.0.0.1:8000/sse', headers: { 'X-Key': 'k' } }
    : { type: 'StreamableHTTPConnectionParams', url: 'http://127.0.0.1:8000/mcp' };
  // @ts-expect-error: the url is required
  const _noUrl: MCPConnectionParams = { type: 'SseConnectionParams' };
  return new LlmAgent({ name: 'mcp', model, tools: [new MCPToolset(params, ['add'], 'srv')] });
}

export function pluginUsage(agent: LlmAgent): InMemoryRunner {
  class Guard extends BasePlugin {
    override beforeToolCallback({ tool, toolArgs }: Parameters<BasePlugin['beforeToolCallback']>[0]) {
      return tool.name === 'pay' && Number(toolArgs.amount) > 100 ? { error: 'refused' } : undefined;
    }
    override beforeModelCallback({ callbackContext, llmRequest }: Parameters<BasePlugin['beforeModelCallback']>[0]) {
      llmRequest.config.labels = { agent: callbackContext.agentName };
    }
  }
  const global = new GlobalInstructionPlugin((ctx) => `User ${ctx.userId}.`);
  // @ts-expect-error: a plugin needs its name
  new BasePlugin();
  return new InMemoryRunner({ agent, plugins: [new Guard('guard'), global, new LoggingPlugin()] });
}

/** A toolset gives tools, not toolsets (ADK's `get_tools` gives `BaseTool`s). */
export class PerUserTools extends BaseToolset {
  async getTools(context: HeaderProviderContext) {
    return [new FunctionTool({ name: `hello_${context.userId}`, description: 'Greets.', execute: () => ({ ok: true }) }), exitLoop];
  }
}

export class NestedToolsets extends BaseToolset {
  // @ts-expect-error a toolset inside a toolset is refused at run time
  async getTools() {
    return [new MCPToolset({ type: 'StreamableHTTPConnectionParams', url: 'https://mcp.example.com/mcp' })];
  }
}
