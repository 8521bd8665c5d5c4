// Where a chat front end's turns go: a local runner, a session on an ADK server, or a remote A2A
// agent. The AG-UI and AI SDK adapters take any of the three and see one shape: sessions by id (a
// thread, a chat), and runs that yield ADK events. Nothing here loads wasm; the A2A source imports
// the full entry (for its runner) only when it is used.

/**
 * The source `options` name: `{ runner, userId }`, `{ server, appName, userId, streaming? }` or
 * `{ a2a, userId? }` (a `RemoteA2aAgent`, run by an in-memory runner of its own). `agentName()` is
 * the root agent's name (`null` when the server cannot say), the author of the model's turns when a
 * front end's earlier messages seed a new session.
 */
export function chatSource(options) {
  const { runner, server, a2a } = options ?? {};
  const given = [runner, server, a2a].filter((source) => source !== undefined).length;
  if (given !== 1) throw new TypeError('adk-wasm: give exactly one of `runner`, `server` or `a2a`');
  if (server !== undefined) return serverSource(options);
  if (runner !== undefined) return runnerSource(runner, userIdOf(options, 'runner'));
  let remote;
  const runnerOfA2a = async () => {
    if (!remote) {
      const { InMemoryRunner } = await import('./index.js');
      remote = runnerSource(new InMemoryRunner({ agent: a2a, appName: a2a.name }), options.userId ?? 'user');
    }
    return remote;
  };
  return {
    get appName() { return a2a.name; },
    userId: options.userId ?? 'user',
    async agentName() { return a2a.name; },
    async getSession(sessionId) { return (await runnerOfA2a()).getSession(sessionId); },
    async createSession(sessionId, state, events) { return (await runnerOfA2a()).createSession(sessionId, state, events); },
    async *run(request) { yield* (await runnerOfA2a()).run(request); },
  };
}

function userIdOf(options, kind) {
  if (typeof options.userId !== 'string' || !options.userId) throw new TypeError(`adk-wasm: a \`${kind}\` source needs a \`userId\``);
  return options.userId;
}

/** A `Runner` (or an `InMemoryRunner`) in this page. */
function runnerSource(runner, userId) {
  if (typeof runner?.runAsync !== 'function' || !runner.sessionService) {
    throw new TypeError('adk-wasm: `runner` must be a Runner (with its sessionService)');
  }
  const { appName, sessionService } = runner;
  return {
    appName,
    userId,
    async agentName() { return runner.agent?.name ?? null; },
    async getSession(sessionId) {
      return (await sessionService.getSession({ appName, userId, sessionId })) ?? null;
    },
    async createSession(sessionId, state, events) {
      let session = await sessionService.createSession({ appName, userId, sessionId, state });
      for (const event of events) session = await appendTo(sessionService, session, event);
      return session;
    },
    run({ sessionId, newMessage, stateDelta, streaming, customMetadata, signal }) {
      const runConfig = { streamingMode: streaming === false ? 'none' : 'sse', ...(customMetadata && { customMetadata }) };
      return runner.runAsync({ userId, sessionId, newMessage, stateDelta, runConfig, signal });
    },
  };
}

async function appendTo(sessionService, session, event) {
  await sessionService.appendEvent({ session, event });
  return (await sessionService.getSession({ appName: session.appName, userId: session.userId, sessionId: session.id })) ?? session;
}

/** A session of an app on an ADK server, through an `AdkServerClient`. */
function serverSource({ server, appName, userId, streaming = true }) {
  if (typeof server?.runSse !== 'function') throw new TypeError('adk-wasm: `server` must be an AdkServerClient');
  if (typeof appName !== 'string' || !appName) throw new TypeError('adk-wasm: a `server` source needs an `appName`');
  userIdOf({ userId }, 'server');
  return {
    appName,
    userId,
    // The server names the root only of an app whose root is an LlmAgent.
    agentName() { return server.getAppInfo(appName).then((info) => info.rootAgentName, () => null); },
    async getSession(sessionId) {
      try {
        return await server.getSession({ appName, userId, sessionId });
      } catch (e) {
        if (e?.code === 'NOT_FOUND') return null;
        throw e;
      }
    },
    createSession(sessionId, state, events) {
      return server.createSession({ appName, userId, sessionId, state, events });
    },
    run({ sessionId, newMessage, stateDelta, streaming: wanted, customMetadata, signal }) {
      return server.runSse({ appName, userId, sessionId, newMessage, stateDelta, streaming: wanted ?? streaming, customMetadata }, { signal });
    },
  };
}

/** An id (`crypto.randomUUID` needs a secure context, which a LAN dev server is not). */
export const newId = () => Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, '0')).join('');

/** Long-running calls (front-end tools, confirmations) the person has not answered, id → name. */
export function openCalls(events) {
  const open = new Map();
  for (const event of events) {
    for (const { functionCall: call, functionResponse: response } of event.content?.parts ?? []) {
      if (call && event.longRunningToolIds?.includes(call.id)) open.set(call.id, call.name);
      // A long-running tool's own first answer leaves its call open; the person's closes it.
      if (response && event.author === 'user') open.delete(response.id);
    }
  }
  return open;
}

/** The front end's answer to a call the agent left to it, as ADK reads one (a non-object output as `{result}`). */
export function functionResponsePart(id, name, output) {
  const response = output !== null && typeof output === 'object' && !Array.isArray(output) ? output : { result: output };
  return { functionResponse: { id, name, response } };
}
