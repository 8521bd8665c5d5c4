// Type-checks the hand-written pkg/index.d.ts the way an app uses it (tsc --strict --noEmit).
import init, {
  createEvent,
  getFunctionCalls,
  InMemoryArtifactService,
  InMemoryMemoryService,
  InMemorySessionService,
  isFinalResponse,
  parseEvent,
  Part,
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
