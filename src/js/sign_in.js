// The person's side of an OAuth2 sign-in that an agent asked for (`adk_request_credential`): open
// the authorization URL in a popup, take the redirect back (oauth-redirect.html, shipped beside this
// file, posts it over BroadcastChannel and to its opener), check its `state`, and build the answer
// adk-web sends: the request's `authConfig` with `authResponseUri` and `redirectUri` set. The code is
// exchanged where ADK exchanges it: by the agent (this page's runner for a local agent, the server
// for an `AdkServerClient` session), which also holds the PKCE verifier and the client.
import { createUserInputResponse } from './user_input.js';

const CHANNEL = 'adk-oauth';
const MESSAGE = 'adk-oauth-redirect';

function failure(code, message, extra) {
  return Object.assign(new Error(message), { name: 'AdkError', code }, extra);
}

function paramsOf(url) {
  try {
    return new URL(url).searchParams;
  } catch {
    return new URLSearchParams();
  }
}

/**
 * Signs the person in for `request` (a `kind: 'credential'` request whose `authConfig` carries an
 * OAuth2 `authUri`) and resolves to the user message that answers it. Call it from a click handler
 * (browsers block popups opened later), or open the window yourself and pass it as `popup`.
 */
export function signIn(request, options = {}) {
  try {
    return start(request, options);
  } catch (e) {
    try { options.popup?.close(); } catch { /* already gone */ }
    return Promise.reject(e);
  }
}

function start(request, options) {
  const exchanged = request?.authConfig?.exchangedAuthCredential;
  const oauth2 = exchanged?.oauth2;
  if (request?.kind !== 'credential' || typeof oauth2?.authUri !== 'string' || !oauth2.authUri) {
    throw failure('INVALID_ARGUMENT', 'signIn: expected a credential request whose authConfig has an OAuth2 authUri');
  }
  let authUri = oauth2.authUri;
  // The redirect URI the provider will check the code against: the one in the URL when the agent
  // put one there, else the agent's, the caller's or the package's redirect page.
  const inUri = paramsOf(authUri).get('redirect_uri');
  const redirectUri = inUri ?? oauth2.redirectUri ?? options.redirectUri ?? new URL('oauth-redirect.html', import.meta.url).href;
  if (inUri === null) {
    // ADK's docs append it the same way when the agent leaves it to the page.
    const [base, fragment] = authUri.split('#');
    authUri = `${base}${base.includes('?') ? '&' : '?'}redirect_uri=${encodeURIComponent(redirectUri)}${fragment === undefined ? '' : `#${fragment}`}`;
  }
  const expectedState = typeof oauth2.state === 'string' ? oauth2.state : undefined;
  const redirectOrigin = new URL(redirectUri, globalThis.location?.href).origin;
  const { signal } = options;
  if (signal?.aborted) throw signal.reason ?? failure('ABORTED', 'signIn: aborted');

  const popup = options.popup ?? globalThis.open?.(authUri, 'adk-sign-in', 'popup,width=520,height=680');
  if (!popup) throw failure('FAILED_PRECONDITION', 'signIn: the browser blocked the sign-in popup; call signIn from a click handler');
  if (options.popup) popup.location.href = authUri;

  return new Promise((resolve, reject) => {
    const channel = typeof BroadcastChannel === 'function' ? new BroadcastChannel(CHANNEL) : undefined;
    let closedSince = 0;
    const watch = setInterval(() => {
      // A provider whose Cross-Origin-Opener-Policy cuts the popup off makes it look closed while
      // the person is still signing in there; only a popup that looks closed while this page has
      // the focus back, for a second, was closed by the person.
      if (!popup.closed || (channel && !globalThis.document?.hasFocus?.())) return void (closedSince = 0);
      closedSince ||= Date.now();
      if (Date.now() - closedSince >= 1000) finish(failure('ABORTED', 'signIn: the sign-in window was closed before it finished'));
    }, 250);
    const finish = (error, url) => {
      clearInterval(watch);
      channel?.close();
      globalThis.removeEventListener?.('message', onWindowMessage);
      signal?.removeEventListener('abort', onAbort);
      try { popup.close(); } catch { /* already gone */ }
      if (error) return reject(error);
      const params = paramsOf(url);
      if (params.has('error')) {
        const description = params.get('error_description');
        return reject(failure('UNAUTHENTICATED', `signIn: ${params.get('error')}${description ? `: ${description}` : ''}`,
          { oauthError: params.get('error'), oauthErrorDescription: description ?? undefined }));
      }
      const answer = { ...exchanged, oauth2: { ...oauth2, authResponseUri: url, redirectUri } };
      resolve(createUserInputResponse(request, { ...request.authConfig, exchangedAuthCredential: answer }));
    };
    // A redirect carrying another sign-in's state is that sign-in's (another tab's, on the shared
    // channel) and is left alone; from this sign-in's own popup it is refused. An agent that gave
    // its own authUri may have no state to check: then the redirect is taken as it comes.
    const take = (url, fromOwnPopup) => {
      if (typeof url !== 'string') return;
      const state = paramsOf(url).get('state');
      if (expectedState === undefined || state === expectedState) return finish(undefined, url);
      if (fromOwnPopup) finish(failure('UNAUTHENTICATED', 'signIn: the redirect\'s state is not this sign-in\'s; refused'));
    };
    const onWindowMessage = (event) => {
      if (event.origin !== redirectOrigin || event.data?.type !== MESSAGE) return;
      take(event.data.url, event.source === popup);
    };
    const onAbort = () => finish(signal.reason ?? failure('ABORTED', 'signIn: aborted'));
    if (channel) channel.onmessage = (event) => event.data?.type === MESSAGE && take(event.data.url, false);
    globalThis.addEventListener?.('message', onWindowMessage);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
