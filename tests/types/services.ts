// Type-checks the three service kinds as an app makes and passes them: one class per kind, the
// @google/adk names that make it, services written in JS, and the context's history reads.
import {
  ArtifactService, BaseAgent, InMemorySessionService, IndexedDbArtifactService, MemoryService, Runner, SessionService, initSync,
  type A2AClient, type A2AStream, type Run, type State, type BaseArtifactService, type BaseMemoryService, type BaseSessionService, type Context, type Event, type Session,
} from '../../pkg/index.js';

class Reader extends BaseAgent {
  async *runAsyncImpl(ctx: Context) {
    const session: Session = ctx.getSession();
    const events: Event[] = ctx.getEvents();
    yield { content: { role: 'model', parts: [{ text: `${session.id} ${events.length}` }] } };
  }
}

export async function services(js: BaseSessionService, memory: BaseMemoryService, files: BaseArtifactService): Promise<string> {
  const sessions: SessionService = new InMemorySessionService();
  const stored: SessionService = SessionService.indexedDb({ databaseName: 'app' });
  const artifacts: ArtifactService = new IndexedDbArtifactService();
  const runner = new Runner({ appName: 'app', agent: new Reader({ name: 'reader' }), sessionService: js, memoryService: memory, artifactService: files });
  const other = new Runner({ appName: 'app', agent: new Reader({ name: 'reader' }), sessionService: SessionService.fromJs(js),
    memoryService: MemoryService.fromJs(memory), artifactService: ArtifactService.fromJs(files) });
  const exported: string | null = await sessions.exportSession({ appName: 'app', userId: 'u', sessionId: 's' });
  const imported: Session | null = exported === null ? null : await stored.importSession(exported);
  await SessionService.deleteDatabase('app');
  const keys: string[] = await artifacts.listArtifactKeys({ appName: 'app', userId: 'u' });
  return `${runner.appName} ${other.appName} ${imported?.id} ${keys.length}`;
}

// The rest of the value exports, as an app names them.
export function loadFrom(bytes: ArrayBuffer, client: A2AClient, runner: Runner, ctx: Context): [A2AStream, Run, State] {
  initSync({ module: bytes });
  const stream: A2AStream = client.sendMessageStream({ message: { role: 'ROLE_USER', parts: [{ text: 'hi' }] } });
  const run: Run = runner.runAsync({ userId: 'u', sessionId: 's', newMessage: { role: 'user', parts: [{ text: 'hi' }] } });
  return [stream, run, ctx.state];
}
