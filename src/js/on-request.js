// The JS half of the A2A client's `onRequest` option (src/js/a2a.rs): the hook sees the request as a
// plain object, which a few lines here build and read back.

// Calls `hook({method, url, headers})`, the headers ([name, value, …]) a plain object; gives that
// object's members as [name, value, …] after the hook, or `undefined` (the request stays as it was)
// when the hook throws or leaves a value that is not a string.
export function intercept(hook, method, url, headers) {
  const object = {};
  for (let i = 0; i + 1 < headers.length; i += 2) object[headers[i]] = headers[i + 1];
  try {
    hook({ method, url, headers: object });
  } catch {
    return undefined;
  }
  const pairs = [];
  for (const [name, value] of Object.entries(object)) {
    if (typeof value !== 'string') return undefined;
    pairs.push(name, value);
  }
  return pairs;
}
