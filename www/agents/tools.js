// The demo's JS tools. They run in the page for every agent choice that calls tools (the offline
// coordinator, Gemini, OpenAI-compatible models), so they are real code, not canned answers.

/**
 * Evaluates + - * / % ^ and parentheses over decimal numbers. A tiny parser instead of `eval`:
 * the expression comes from a model.
 */
export function evaluate(expression) {
  const tokens = expression.replace(/\s+/g, '').match(/\d*\.?\d+(?:e[+-]?\d+)?|[-+*/%^()]/gi) ?? [];
  if (tokens.join('') !== expression.replace(/\s+/g, '')) throw new Error(`cannot read "${expression}"`);
  let i = 0;
  const peek = () => tokens[i];
  const take = (t) => (tokens[i] === t ? (i += 1, true) : false);
  const primary = () => {
    if (take('(')) {
      const v = sum();
      if (!take(')')) throw new Error('missing )');
      return v;
    }
    if (take('-')) return -primary();
    if (take('+')) return primary();
    const t = tokens[i++];
    if (t === undefined || !/\d/.test(t)) throw new Error(`unexpected ${t ?? 'end'}`);
    return Number(t);
  };
  const power = () => {
    const base = primary();
    return take('^') ? base ** power() : base;
  };
  const product = () => {
    let v = power();
    for (;;) {
      if (take('*')) v *= power();
      else if (take('/')) v /= power();
      else if (take('%')) v %= power();
      else return v;
    }
  };
  const sum = () => {
    let v = product();
    for (;;) {
      if (take('+')) v += product();
      else if (take('-')) v -= product();
      else return v;
    }
  };
  const value = sum();
  if (peek() !== undefined) throw new Error(`unexpected ${peek()}`);
  if (!Number.isFinite(value)) throw new Error('the result is not a finite number');
  return Number(value.toPrecision(12));
}

export function makeTools(adk) {
  const calculator = new adk.FunctionTool({
    name: 'calculator',
    description: 'Evaluates an arithmetic expression (+ - * / % ^ and parentheses).',
    parameters: { type: 'object', properties: { expression: { type: 'string' } }, required: ['expression'] },
    execute: ({ expression }, ctx) => {
      try {
        const result = evaluate(String(expression));
        ctx.state.set('last_result', result);
        return { expression, result };
      } catch (e) {
        return { error: e.message };
      }
    },
  });

  const saveNote = new adk.FunctionTool({
    name: 'save_note',
    description: "Saves a note to the user's notes (kept across sessions) and to the notes file.",
    parameters: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
    execute: async ({ text }, ctx) => {
      const notes = [...(ctx.state.get('user:notes') ?? []), String(text)];
      ctx.state.set('user:notes', notes);
      const file = notes.map((n) => `- ${n}`).join('\n');
      const version = await ctx.saveArtifact(NOTES_FILE, adk.Part.fromText(`# Notes\n\n${file}\n`));
      return { saved: text, count: notes.length, file: NOTES_FILE, version };
    },
  });

  // Deleting is what a person should approve: the run pauses on a confirmation card first.
  const clearNotes = new adk.FunctionTool({
    name: 'clear_notes',
    description: "Deletes all of the user's notes. Asks the user to approve first.",
    parameters: { type: 'object', properties: {} },
    requireConfirmation: true,
    execute: (_args, ctx) => {
      const count = (ctx.state.get('user:notes') ?? []).length;
      ctx.state.set('user:notes', []);
      return { cleared: count };
    },
  });

  // Signing in is the person's part: the run pauses on a "Sign in" card (an OAuth2 sign-in with
  // PKCE at the local OpenID provider `make demo` starts); the tool runs again with the token,
  // which it uses and never shows.
  const whoami = new adk.FunctionTool({
    name: 'whoami',
    description: 'Says who the user is, once they signed in.',
    parameters: { type: 'object', properties: {} },
    execute: async (_args, ctx) => {
      const auth = signInConfig();
      if (!auth) return { error: 'no OpenID provider to sign in at (make demo starts one)' };
      const token = ctx.getAuthResponse(auth)?.oauth2?.accessToken;
      if (!token) {
        ctx.requestCredential(auth);
        return { status: 'waiting for the sign-in' };
      }
      const response = await fetch(`${providerUrl()}/me`, { headers: { Authorization: `Bearer ${token}` }, signal: ctx.abortSignal });
      if (!response.ok) return { error: `the provider answered ${response.status}` };
      const { sub, name } = await response.json();
      return { name: name ?? sub };
    },
  });

  return { calculator, saveNote, clearNotes, whoami };
}

/** The local OpenID provider `make demo` started (`?oidc=` overrides), if any. */
export function providerUrl() {
  return new URLSearchParams(location.search).get('oidc') ?? window.ADK_DEMO_OIDC_URL ?? '';
}

/** Its public client `adk-page`, which redirects to the package's oauth-redirect.html. */
function signInConfig() {
  const issuer = providerUrl();
  if (!issuer) return null;
  return {
    authScheme: { type: 'oauth2', flows: { authorizationCode: { authorizationUrl: `${issuer}/auth`, tokenUrl: `${issuer}/token`,
      scopes: { openid: 'who you are', profile: 'your name' } } } },
    rawAuthCredential: { authType: 'oauth2', oauth2: { clientId: 'adk-page' } },
  };
}

/** `user:` makes the file shared by all of the user's sessions, like the `user:notes` state. */
export const NOTES_FILE = 'user:notes.md';

/** The MCP server `make demo` started (`?mcp=` overrides), if any. */
function mcpUrl() {
  return new URLSearchParams(location.search).get('mcp') ?? window.ADK_DEMO_MCP_URL ?? '';
}

let mcpToolset = null;

/**
 * Its tools, as one MCPToolset shared by every run (one MCP session), or none: the agent trees are
 * rebuilt per run, the session with the server need not be.
 */
export function mcpTools(adk) {
  const url = mcpUrl();
  if (!url) return [];
  if (mcpToolset?.connectionParams.url !== url) mcpToolset = new adk.MCPToolset({ type: 'StreamableHTTPConnectionParams', url });
  return [mcpToolset];
}

