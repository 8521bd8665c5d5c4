// The JS half of src/platform/fetch.rs: what JS does in a few words (a plain object of headers, a
// Response's status and headers, its body's reader) costs the wasm several kilobytes of bindings.

// Headers ([name, value, name, value, …]) as a plain object, a repeated name joined with ", " as
// `Headers` joins it.
function object(headers) {
  const object = {};
  for (let i = 0; i < headers.length; i += 2) {
    const [name, value] = [headers[i], headers[i + 1]];
    const earlier = object[name];
    object[name] = typeof earlier === 'string' ? `${earlier}, ${value}` : value;
  }
  return object;
}

// `init` of `fetch(url, init)`, the headers a plain object.
function init(method, headers, body, signal) {
  const init = { method, headers: object(headers) };
  if (signal) init.signal = signal;
  if (body !== undefined) init.body = body;
  return init;
}

// Settles to `undefined` when the answer is not a Response, else to [status, headers as
// [name, value, …] (in lower case: `Headers` iterates them so), the body's reader (null for no
// body), getReader()'s failure]; rejects when fetch throws or rejects.
export async function send(fetch, url, method, headers, body, signal) {
  const response = await fetch(url, init(method, headers, body, signal));
  if (!(response instanceof Response)) return undefined;
  const pairs = [];
  for (const [name, value] of response.headers) pairs.push(name, value);
  const stream = response.body;
  let reader = null;
  if (typeof stream === 'object' && stream !== null) {
    try {
      reader = stream.getReader();
    } catch (error) {
      return [response.status, pairs, null, error];
    }
  }
  return [response.status, pairs, reader];
}

// A body chunk as bytes: a Uint8Array as it is, anything else a custom fetch yields viewed as one.
export function bytes(chunk) {
  return chunk instanceof Uint8Array ? chunk : new Uint8Array(chunk);
}

// Sends without waiting: neither a throw nor a rejection reaches anyone.
export function forget(fetch, url, method, headers, body) {
  try {
    Promise.resolve(fetch(url, init(method, headers, body))).catch(() => {});
  } catch {}
}

// The A2A client's `onRequest` option (src/js/a2a.rs): the hook sees the request as a plain object.
// Calls `hook({method, url, headers})`, the headers a plain object as `fetch` would get them; gives
// the request's `headers` as [name, value, …] after the hook: changed in place, or replaced by
// another object, a `Headers` or a `Map`; a value of `null` or `undefined` leaves its header out,
// any other (and any name) is made a string, as `fetch` makes it. `undefined` (the request stays as
// it was) when the hook throws or leaves headers that are not an object.
export function intercept(hook, method, url, headers) {
  const request = { method, url, headers: object(headers) };
  const pairs = [];
  try {
    hook(request);
    const given = request.headers;
    // `in` throws for anything but an object, as `Object.entries` does for null and undefined.
    for (const [name, value] of Symbol.iterator in given ? given : Object.entries(given)) {
      if (value != null) pairs.push(String(name), String(value));
    }
  } catch {
    return undefined;
  }
  return pairs;
}
