// Type-checks a web front end of an ADK server: the README's example and the shapes it relies on.
import { AdkServerClient, isFinalResponse, Transcript, type Event, type Part, type ServerSession } from '../../pkg/index.js';

export async function chat(baseUrl: string, signal: AbortSignal): Promise<string> {
  const server = new AdkServerClient({ baseUrl, headers: { Authorization: 'Bearer t' } });
  const [appName = 'weather'] = await server.listApps();
  const session: ServerSession = await server.createSession({ appName, userId: 'u', state: { theme: 'dark' } });
  const transcript = new Transcript();
  const key = { appName, userId: 'u', sessionId: session.id };
  for await (const event of server.runSse({ ...key, newMessage: { role: 'user', parts: [{ text: 'Seoul' }] }, streaming: true }, { signal })) {
    transcript.add(event);
    if (isFinalResponse(event)) break;
  }
  const stored: Event[] = (await server.getSession(key)).events;
  const all: Event[] = await server.run({ ...key, newMessage: { role: 'user', parts: [{ text: 'again' }] }, signal });
  const part: Part | null = await server.loadArtifact({ ...key, filename: 'story.txt', version: 0 });
  const versions: number[] = await server.listArtifactVersions({ ...key, filename: 'story.txt' });
  const updated = await server.updateSession({ ...key, stateDelta: { theme: 'light' } });
  await server.deleteSession(key);
  const reader: ReadableStreamDefaultReader<Event> = server.runSse(key).toReadableStream().getReader();
  reader.releaseLock();
  // @ts-expect-error a session is named by appName, userId and sessionId
  await server.getSession({ appName, sessionId: session.id });
  return `${stored.length} ${all.length} ${part?.text ?? ''} ${versions.length} ${String(updated.state['theme'])} ${server.baseUrl}`;
}
