// Type-checks the three service kinds as an app makes and passes them: one class per kind, the
// @google/adk names that make it, services written in JS, and the context's history reads.
import {
  ArtifactService, BaseAgent, InMemorySessionService, IndexedDbArtifactService, MemoryService, Runner, SessionService,
  type BaseArtifactService, type BaseMemoryService, type BaseSessionService, type Context, type Event, type Session,
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
