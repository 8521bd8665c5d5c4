// A local OpenID provider (npm `oidc-provider`, a certified implementation) on 127.0.0.1, for the
// OAuth tests and the demo's "Sign in" card: authorization code with PKCE for public browser
// clients, refresh tokens, userinfo, CORS for the pages whose redirect URIs it knows. Offline: it
// needs nothing but this machine.
//
// Clients, public (no secret, PKCE required) but one:
//   adk-page        signs in as alice (the tests answer the login and consent prompts at once;
//                   the demo shows a login form, any name and password, and a consent form)
//   adk-page-short  the same, with 30-second access tokens, for refresh on expiry
//   adk-page-deny   the person refuses consent (access_denied)
//   adk-server      confidential (secret `adk-server-secret`), for ADK 1.x servers, which refuse
//                   public clients
import { createServer } from 'node:http';
import Provider from 'oidc-provider';

const SCOPES = ['openid', 'offline_access', 'profile'];

/**
 * Starts the provider. `redirectUris`: where the pages receive the sign-in; `interactive`: show the
 * login and consent forms (the demo) instead of answering them for alice (the tests).
 */
export async function startOidcProvider({ redirectUris, interactive = false, port = 0 }) {
  const server = createServer();
  await new Promise((resolve) => server.listen(port, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${server.address().port}`;
  const client = (clientId, secret) => ({
    client_id: clientId,
    ...(secret ? { client_secret: secret } : { token_endpoint_auth_method: 'none' }),
    redirect_uris: redirectUris,
    grant_types: ['authorization_code', 'refresh_token'],
    response_types: ['code'],
  });
  const origins = new Set(redirectUris.map((uri) => new URL(uri).origin));
  const provider = new Provider(issuer, {
    clients: [client('adk-page'), client('adk-page-short'), client('adk-page-deny'), client('adk-server', 'adk-server-secret')],
    findAccount: (_ctx, id) => ({ accountId: id, claims: () => ({ sub: id, name: id === 'alice' ? 'Alice' : id }) }),
    claims: { openid: ['sub'], profile: ['name'] },
    scopes: SCOPES,
    pkce: { required: (_ctx, theClient) => theClient.clientAuthMethod === 'none' },
    cookies: { keys: ['adk-wasm-local-provider'] },
    clientBasedCORS: (_ctx, origin) => origins.has(origin),
    issueRefreshToken: async (_ctx, theClient) => theClient.grantTypeAllowed('refresh_token'),
    ttl: {
      AccessToken: (_ctx, _token, theClient) => (theClient?.clientId === 'adk-page-short' ? 30 : 3600),
      AuthorizationCode: 60,
      Grant: 3600,
      IdToken: 3600,
      Interaction: 600,
      RefreshToken: 86400,
      Session: 86400,
    },
    // Its own forms rather than oidc-provider's development ones, which load web fonts: offline.
    features: { devInteractions: { enabled: false }, userinfo: { enabled: true } },
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
  });
  const handle = provider.callback();
  server.on('request', (req, res) => {
    if (req.url.startsWith('/interaction/')) {
      (interactive ? showPrompt : answerPrompt)(provider, req, res).catch((e) => {
        res.statusCode = 500;
        res.end(String(e?.message ?? e));
      });
      return;
    }
    handle(req, res);
  });
  return { url: issuer, close: () => new Promise((resolve) => server.close(resolve)) };
}

/** The tests' person: logs in as alice and grants what was asked, or refuses for adk-page-deny. */
async function answerPrompt(provider, req, res) {
  const { prompt, params } = await provider.interactionDetails(req, res);
  if (params.client_id === 'adk-page-deny') return refuse(provider, req, res);
  if (prompt.name === 'login') return logIn(provider, req, res, 'alice');
  return consent(provider, req, res);
}

const refuse = (provider, req, res) =>
  provider.interactionFinished(req, res, { error: 'access_denied', error_description: 'End-User refused consent' });

const logIn = (provider, req, res, accountId) =>
  provider.interactionFinished(req, res, { login: { accountId } }, { mergeWithLastSubmission: false });

/** Grants the client what it asked for. */
async function consent(provider, req, res) {
  const { params, session } = await provider.interactionDetails(req, res);
  const grant = new provider.Grant({ accountId: session?.accountId ?? 'alice', clientId: params.client_id });
  grant.addOIDCScope(String(params.scope ?? 'openid'));
  const grantId = await grant.save();
  await provider.interactionFinished(req, res, { consent: { grantId } }, { mergeWithLastSubmission: true });
}

const escape = (text) => String(text).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The demo's person: a login form (any name and password), then a consent form with Cancel. */
async function showPrompt(provider, req, res) {
  const [, , uid, action] = req.url.split('?')[0].split('/');
  if (req.method === 'POST') {
    let body = '';
    for await (const chunk of req) body += chunk;
    const form = new URLSearchParams(body);
    if (action === 'login') return logIn(provider, req, res, form.get('login') || 'alice');
    if (action === 'confirm') return consent(provider, req, res);
    return refuse(provider, req, res);
  }
  const { prompt, params } = await provider.interactionDetails(req, res);
  const page = (title, form) => `<!doctype html><meta charset="utf-8"><title>${title}</title>
<style>body{font:16px system-ui,sans-serif;max-width:22rem;margin:3rem auto}input,button{display:block;width:100%;margin:.5rem 0;padding:.5rem;font:inherit}</style>
<h1>${title}</h1>${form}`;
  const html = prompt.name === 'login'
    ? page('Sign in', `<p>Local OpenID provider: any name and password.</p>
<form method="post" action="/interaction/${escape(uid)}/login"><input required name="login" placeholder="name" autofocus>
<input required type="password" name="password" placeholder="password"><button type="submit">Sign-in</button></form>`)
    : page('Allow access?', `<p><b>${escape(params.client_id)}</b> asks for: ${escape(params.scope)}.</p>
<form method="post" action="/interaction/${escape(uid)}/confirm"><button type="submit">Continue</button></form>
<form method="post" action="/interaction/${escape(uid)}/abort"><button type="submit">Cancel</button></form>`);
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
  res.end(html);
}

// `node scripts/oidc.mjs <redirect URI> …`: the provider alone, interactive, until stopped.
if (import.meta.url === `file://${process.argv[1]}`) {
  const { url } = await startOidcProvider({ redirectUris: process.argv.slice(2), interactive: true });
  console.log(`OpenID provider at ${url}`);
}
