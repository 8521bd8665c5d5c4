// @ts-check
// OAuth2 sign-in through the release package in Chromium, against a real OpenID provider
// (oidc-provider, started by run.mjs on 127.0.0.1): a local agent's tool asks for a sign-in, the page
// signs in through a real popup and the shipped redirect page (signIn), the runner exchanges the code
// with PKCE over fetch, and the tool's token works at the provider's userinfo endpoint. Then: refresh
// on expiry (CredentialManager over SessionStateCredentialService), consent refused, a state that is
// not the sign-in's, and no token in the stored events.
import init, * as adk from '/pkg/index.js';
import { assert, finish, json, test } from './harness.js';

await init();
const { InMemoryRunner, LlmAgent, ScriptedModel, FunctionTool, CredentialManager, SessionStateCredentialService } = adk;
const issuer = new URLSearchParams(location.search).get('oidc');

const text = (t) => ({ role: 'user', parts: [{ text: t }] });
const callOf = (name) => ({ content: { role: 'model', parts: [{ functionCall: { name, args: {} } }] } });

/** The provider's endpoints as an OpenID Connect scheme (`openIdConnectUrl` only: discovered). */
function authConfig(clientId, discovered = true) {
  const authScheme = discovered
    ? { type: 'openIdConnect', openIdConnectUrl: `${issuer}/.well-known/openid-configuration`, scopes: ['openid', 'offline_access', 'profile'] }
    : { type: 'oauth2', flows: { authorizationCode: { authorizationUrl: `${issuer}/auth`, tokenUrl: `${issuer}/token`,
      scopes: { openid: '', offline_access: '', profile: '' } } } };
  return { authScheme, rawAuthCredential: { authType: discovered ? 'openIdConnect' : 'oauth2', oauth2: { clientId } } };
}

/** Who the token belongs to, asked of the provider. */
async function userinfo(token) {
  const response = await fetch(`${issuer}/me`, { headers: { Authorization: `Bearer ${token}` } });
  return response.ok ? (await response.json()).name : `HTTP ${response.status}`;
}

/** A runner whose `whoami` tool needs a sign-in (`clientId`); the tokens the tool got. */
function signingIn(clientId, { manager = false } = {}) {
  const tokens = [];
  // The manager discovers the endpoints; the tool asking through its context names them.
  const config = authConfig(clientId, manager);
  const credentials = new CredentialManager(config);
  const whoami = new FunctionTool({
    name: 'whoami',
    async execute(_args, ctx) {
      const credential = manager ? await credentials.getAuthCredential(ctx) : ctx.getAuthResponse(config);
      const token = credential?.oauth2?.accessToken;
      if (!token) {
        if (manager) credentials.requestCredential(ctx);
        else ctx.requestCredential(config);
        return { status: 'signing in' };
      }
      tokens.push({ token, fromAnswer: ctx.getAuthResponse(config)?.oauth2?.accessToken });
      return { name: await userinfo(token) };
    },
  });
  const model = new ScriptedModel([callOf('whoami'), 'Hello.']);
  const agent = new LlmAgent({ name: 'greeter', model, tools: [whoami] });
  const runner = new InMemoryRunner({ agent, appName: 'app', ...(manager && { credentialService: new SessionStateCredentialService() }) });
  return { runner, tokens };
}

async function run(runner, newMessage) {
  const events = [];
  for await (const e of runner.runAsync({ userId: 'u', sessionId: 's', newMessage })) events.push(e);
  return events;
}

async function ask(runner) {
  await runner.sessionService.createSession({ appName: 'app', userId: 'u', sessionId: 's' });
  const events = await run(runner, text('who am I?'));
  const [request] = adk.getPendingUserInputRequests(events);
  assert(request?.kind === 'credential', `the run pauses on a sign-in: ${JSON.stringify(events)}`);
  return request;
}

function responseOf(events, name) {
  const response = events.flatMap((e) => adk.getFunctionResponses(e)).find((r) => r.name === name);
  return json(response?.response);
}

async function storedText(runner) {
  const session = await runner.sessionService.getSession({ appName: 'app', userId: 'u', sessionId: 's' });
  return JSON.stringify(session.events);
}

await test('sign-in through a popup: the agent builds the URL (PKCE S256), the runner exchanges the code, the token works', async () => {
  const { runner, tokens } = signingIn('adk-page');
  const request = await ask(runner);
  const oauth2 = json(request.authConfig).exchangedAuthCredential.oauth2;
  const uri = new URL(oauth2.authUri);
  assert(uri.origin === issuer && uri.pathname === '/auth', `the configured authorization endpoint: ${uri}`);
  assert(uri.searchParams.get('code_challenge_method') === 'S256' && uri.searchParams.get('state') === oauth2.state);
  const answer = await adk.signIn(request);
  const response = json(answer.parts[0].functionResponse.response).exchangedAuthCredential.oauth2;
  assert(new URL(response.authResponseUri).searchParams.get('code'), 'the redirect carries a code');
  const events = await run(runner, answer);
  assert(responseOf(events, 'whoami')?.name === 'Alice', JSON.stringify(responseOf(events, 'whoami')));
  assert(tokens.length === 1, 'the tool ran once with a token');
  const stored = await storedText(runner);
  assert(!stored.includes(tokens[0].token), 'the access token is not in the stored events');
});

await test('signIn\'s redirectUri: the provider sends the person back there, and the runner exchanges the code with it', async () => {
  const { runner } = signingIn('adk-page');
  const request = await ask(runner);
  // The package's redirect page, as the server entry ships it: registered with the provider too.
  const redirectUri = new URL('/pkg/server/oauth-redirect.html', location.href).href;
  const answer = await adk.signIn(request, { redirectUri });
  const response = json(answer.parts[0].functionResponse.response).exchangedAuthCredential.oauth2;
  assert(response.redirectUri === redirectUri && response.authResponseUri.startsWith(`${redirectUri}?`), response.authResponseUri);
  // The token endpoint refuses a code redeemed with another redirect_uri than it was issued for.
  const events = await run(runner, answer);
  assert(responseOf(events, 'whoami')?.name === 'Alice', JSON.stringify(responseOf(events, 'whoami')));
});

await test('CredentialManager: endpoints discovered, a token about to expire refreshed, the session keeps the new one', async () => {
  const { runner, tokens } = signingIn('adk-page-short', { manager: true });
  const request = await ask(runner);
  const uri = new URL(json(request.authConfig).exchangedAuthCredential.oauth2.authUri);
  assert(uri.origin === issuer && uri.pathname === '/auth', `the discovered authorization endpoint: ${uri}`);
  const events = await run(runner, await adk.signIn(request));
  assert(responseOf(events, 'whoami')?.name === 'Alice', JSON.stringify(responseOf(events, 'whoami')));
  // The code's token lives 30 s, under ADK's minute of leeway: the manager refreshed it at once.
  const [{ token, fromAnswer }] = tokens;
  assert(fromAnswer && token !== fromAnswer, 'the tool got a refreshed token, not the exchanged one');
  const session = await runner.sessionService.getSession({ appName: 'app', userId: 'u', sessionId: 's' });
  const key = new CredentialManager(authConfig('adk-page-short', true)).authConfig.credentialKey;
  assert(json(session.state)[key ?? '']?.oauth2?.accessToken === token, 'SessionStateCredentialService saved the refreshed token');
  assert(!json(session.state)[key ?? '']?.oauth2?.clientSecret);
});

await test('consent refused: signIn rejects with the provider\'s access_denied and the request stays pending', async () => {
  const { runner } = signingIn('adk-page-deny');
  const request = await ask(runner);
  const error = await adk.signIn(request).then(() => null, (e) => e);
  assert(error?.code === 'UNAUTHENTICATED' && error.oauthError === 'access_denied', String(error?.message ?? error));
  const session = await runner.sessionService.getSession({ appName: 'app', userId: 'u', sessionId: 's' });
  assert(adk.getPendingUserInputRequests(session.events).length === 1, 'the sign-in is still asked for');
});

await test('a redirect whose state is not the sign-in\'s is refused', async () => {
  const { runner } = signingIn('adk-page');
  const request = await ask(runner);
  const tampered = structuredClone(request);
  json(tampered.authConfig).exchangedAuthCredential.oauth2.state = 'not-the-one-in-the-url';
  const error = await adk.signIn(tampered).then(() => null, (e) => e);
  assert(error?.code === 'UNAUTHENTICATED' && /state/.test(error.message), String(error?.message ?? error));
});

await test('signIn: a signal stops it (its window closed, the reason given, the request still pending); a window the page opened is used', async () => {
  const { runner, tokens } = signingIn('adk-page');
  const request = await ask(runner);
  const closed = async (/** @type {Window | null} */ w) => {
    for (let i = 0; i < 40 && !w?.closed; i++) await new Promise((r) => setTimeout(r, 50));
    return Boolean(w?.closed);
  };
  const stop = new AbortController();
  const first = window.open('about:blank', 'own-sign-in-1');
  const pending = adk.signIn(request, { popup: first ?? undefined, signal: stop.signal });
  stop.abort(new DOMException('the person went elsewhere', 'AbortError'));
  const error = await pending.then(() => null, (e) => e);
  assert(error?.name === 'AbortError' && /elsewhere/.test(error.message), String(error?.message ?? error));
  assert(await closed(first), 'the stopped sign-in closed its window');
  const session = await runner.sessionService.getSession({ appName: 'app', userId: 'u', sessionId: 's' });
  assert(adk.getPendingUserInputRequests(session.events).length === 1, 'the sign-in is still asked for');
  const own = window.open('about:blank', 'own-sign-in-2');
  const events = await run(runner, await adk.signIn(request, { popup: own ?? undefined }));
  assert(responseOf(events, 'whoami')?.name === 'Alice' && tokens.length === 1, JSON.stringify(responseOf(events, 'whoami')));
  assert(await closed(own), 'the window the page gave is closed when the sign-in is done');
});

await test('signIn refuses what is not an OAuth2 sign-in, without opening anything', async () => {
  const error = await adk.signIn(json({ kind: 'confirmation', interruptId: 'x', functionCallName: 'adk_request_confirmation' })).then(() => null, (e) => e);
  assert(error?.code === 'INVALID_ARGUMENT', String(error));
});

finish();
