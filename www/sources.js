// Where the demo's sessions live and where its runs go: a "session source". The local one runs the
// chosen agent in this page through a Runner over the browser's session and artifact services; a
// server one is an app on an ADK server, reached through AdkServerClient. app.js shows whichever
// the selected agent choice uses with the same chat, timeline and panels, since both give ADK
// sessions and events. A source offers:
//   id                             the same for the same sessions
//   label                          where the sessions are, for the sessions pane
//   key(sessionId)                 {appName, userId, sessionId} for its artifact service
//   listSessions()                 the user's sessions, oldest first, without their events
//   getSession(sessionId)          the session with its events, or null
//   createSession() / deleteSession(sessionId)
//   run({sessionId, newMessage, signal, agent})   the agents' events (not the user's, which the
//                                  session keeps); `agent()` builds the agent when the page runs it
//   artifacts                      listArtifactKeys / listArtifactVersions / loadArtifact, as the
//                                  local artifact services have them (what ArtifactsPanel reads)

/** The services of this browser (IndexedDB, or memory where there is none), under one app and user. */
export function localSource(adk, { appName, userId, initialState, sessionService, artifactService, label }) {
  const key = (sessionId) => ({ appName, userId, sessionId });
  return {
    id: 'local',
    label,
    key,
    listSessions: async () => (await sessionService.listSessions({ appName, userId })).sessions,
    getSession: (sessionId) => sessionService.getSession(key(sessionId)),
    createSession: () => sessionService.createSession({ appName, userId, state: initialState }),
    deleteSession: (sessionId) => sessionService.deleteSession(key(sessionId)),
    run({ sessionId, newMessage, signal, agent }) {
      const runner = new adk.Runner({ appName, agent: agent(), sessionService, artifactService });
      return runner.runAsync({ userId, sessionId, newMessage, runConfig: { streamingMode: 'sse' }, signal });
    },
    artifacts: artifactService,
  };
}

/** One app of an ADK server: its sessions of `userId`, its runs (streamed over SSE), its artifacts. */
export function serverSource(client, { appName, userId }) {
  const key = (sessionId) => ({ appName, userId, sessionId });
  return {
    id: `${client.baseUrl} ${appName}`,
    label: `App ${appName} on the ADK server at ${client.baseUrl}.`,
    key,
    // A server's session service promises no order: by last activity, as the list is read.
    listSessions: async () => (await client.listSessions({ appName, userId })).sort((a, b) => a.lastUpdateTime - b.lastUpdateTime),
    async getSession(sessionId) {
      try {
        return await client.getSession(key(sessionId));
      } catch (e) {
        // The local services answer null for a missing session; the server says 404.
        if (e.code === 'NOT_FOUND') return null;
        throw e;
      }
    },
    // Server sessions start empty: the app's own state is the server's business.
    createSession: () => client.createSession({ appName, userId }),
    deleteSession: (sessionId) => client.deleteSession(key(sessionId)),
    run: ({ sessionId, newMessage, signal }) => client.runSse({ ...key(sessionId), newMessage, streaming: true }, { signal }),
    artifacts: {
      listArtifactKeys: (request) => client.listArtifactNames(request),
      // The server gives bare version numbers, in no promised order; the panel wants records, oldest first.
      listArtifactVersions: async (request) => (await client.listArtifactVersions(request)).sort((a, b) => a - b).map((version) => ({ version })),
      loadArtifact: (request) => client.loadArtifact(request),
    },
  };
}
