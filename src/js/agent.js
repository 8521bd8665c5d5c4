// An event a JS agent yields, read here when it is one text: `{content: {role?, parts: [{text}]}}` of
// plain objects and well-formed strings, the shape most agents yield. Answers its role (null when it
// has none) and text, which wasm takes as they are, with no JSON text in between; undefined for any
// other shape, for an event whose JSON text might be over `max` bytes (checked before anything is
// copied into wasm), and when a getter throws: those go through `JSON.stringify` and the decoder.

/** Whether `o` is a plain object that `JSON.stringify` writes as its own members, which are `keys` in any order. */
function plain(o, keys) {
  if (o === null || typeof o !== 'object' || Object.getPrototypeOf(o) !== Object.prototype || o.toJSON !== undefined) return false;
  const own = Object.keys(o);
  return own.length === keys.length && own.every((key) => keys.includes(key));
}

/** Whether `s` is a string that crosses into wasm as `JSON.stringify` would write it. */
const wellFormed = (s) => typeof s === 'string' && s.isWellFormed?.();

export function textEvent(event, max) {
  try {
    const content = plain(event, ['content']) && event.content;
    const role = plain(content, ['parts', 'role']) ? content.role : plain(content, ['parts']) && null;
    const parts = role !== false && content.parts;
    if (!Array.isArray(parts) || parts.length !== 1 || parts.toJSON !== undefined || !plain(parts[0], ['text'])) return;
    const text = parts[0].text;
    // At most 64 bytes of JSON around the two strings, which take at most 6 a UTF-16 unit (escaped).
    if ((role === null || wellFormed(role)) && wellFormed(text) && 64 + 6 * (text.length + (role?.length ?? 0)) <= max) {
      return [role, text];
    }
  } catch {
    // A getter threw: `JSON.stringify` will throw it again, where the event's errors are made.
  }
}
