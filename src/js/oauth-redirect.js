// Posts this redirect's URL (code, state, or the provider's error) to the page that opened the
// sign-in: to the opener when it is still reachable, and over BroadcastChannel when the provider's
// Cross-Origin-Opener-Policy cut that link. Same origin only; the page checks the state.
const message = { type: 'adk-oauth-redirect', url: location.href };
try { window.opener?.postMessage(message, location.origin); } catch { /* opener gone */ }
if (typeof BroadcastChannel === 'function') {
  const channel = new BroadcastChannel('adk-oauth');
  channel.postMessage(message);
  channel.close();
}
setTimeout(() => window.close(), 50);
