// The JS half of src/platform/body.rs: a fetch body decoded by TextDecoder and, for an event
// stream, framed here, for the entries without the A2A client (see fetch.rs's `body`).
import { bytes } from './fetch.js';

// The next chunk of `reader`, or `undefined` at the end.
async function chunk(reader) {
  const read = await reader.read();
  return read == null || read.done ? undefined : bytes(read.value);
}

// The whole body as text, decoded as the native reader decodes it (invalid UTF-8 replaced, a BOM
// kept); `null` once it passes `max` bytes (the caller refuses it, dropping the request).
export async function text(reader, max) {
  const decoder = new TextDecoder('utf-8', { ignoreBOM: true });
  let text = '';
  let size = 0;
  for (let piece; (piece = await chunk(reader)); ) {
    if ((size += piece.length) > max) return null;
    text += decoder.decode(piece, { stream: true });
  }
  return text + decoder.decode();
}

// The body's server-sent events (the WHATWG event-stream format: lines end in LF, CRLF or a lone
// CR; `:` lines are comments; `data` lines join with LF; `event`, `id` and `retry` are kept; a
// leading BOM goes), framed here from the decoded text, as adk-core's native SseParser frames
// bytes. A reader (`read()`, `cancel()`) whose every read gives the events of one or more chunks
// as one string, each event `type\rid\rretry\rdata\r` (CR ends every line: no field holds one), or
// a framing error: 0 for a line or event over `max` bytes (counted in UTF-16 units where that
// cannot refuse what bytes allow, in bytes where it matters; the wasm counts a whole event's data
// in bytes), 1 for a stream that ends inside an event.
export function events(reader, max) {
  const decoder = new TextDecoder();
  const encoder = new TextEncoder();
  const size = (s) => (s.length * 3 <= max ? s.length : encoder.encode(s).length);
  let rest = '';
  let afterCr = false;
  let out = '';
  let [type, data, hasData, dataSize, id, retry, inEvent] = ['', '', false, 0, '', '', false];
  // Processes one line; false when it is too large.
  const line = (text) => {
    if (text === '') {
      inEvent = false;
      if (hasData) out += `${type || 'message'}\r${id}\r${retry}\r${data}\r`;
      [type, data, hasData, dataSize] = ['', '', false, 0];
      return true;
    }
    if (text.charCodeAt(0) === 58 /* : */) return size(text) <= max;
    if (size(text) > max) return false;
    inEvent = true;
    const colon = text.indexOf(':');
    const field = colon < 0 ? text : text.slice(0, colon);
    const value = colon < 0 ? '' : text.slice(text.charCodeAt(colon + 1) === 32 ? colon + 2 : colon + 1);
    if (field === 'data') {
      if ((dataSize += size(value) + 1) > max) return false;
      data = hasData ? `${data}\n${value}` : value;
      hasData = true;
    } else if (field === 'event') type = value;
    else if (field === 'id') {
      if (!value.includes('\0')) id = value;
    } else if (field === 'retry' && /^[0-9]+$/.test(value)) retry = value;
    return true;
  };
  // Frames `text`; false when a line or event is too large.
  const frame = (text) => {
    if (afterCr && text !== '') {
      afterCr = false;
      if (text.charCodeAt(0) === 10) text = text.slice(1);
    }
    const buffer = rest + text;
    // `rest` holds no line break: only the new text is searched.
    let [start, lf, cr] = [0, buffer.indexOf('\n', rest.length), buffer.indexOf('\r', rest.length)];
    while (lf >= 0 || cr >= 0) {
      const end = cr < 0 || (lf >= 0 && lf < cr) ? lf : cr;
      if (!line(buffer.slice(start, end))) return false;
      start = end + 1;
      if (end === cr) {
        if (start === buffer.length) afterCr = true;
        else if (buffer.charCodeAt(start) === 10) start++;
      }
      if (lf >= 0 && lf < start) lf = buffer.indexOf('\n', start);
      if (cr >= 0 && cr < start) cr = buffer.indexOf('\r', start);
    }
    rest = buffer.slice(start);
    return rest.length <= max;
  };
  // What the reads after the last events give: the end, or how the stream failed at its end.
  let end;
  return {
    async read() {
      while (end === undefined) {
        const piece = await chunk(reader);
        if (piece === undefined) {
          // A last line without its line break is a field: the event it is in was cut.
          if (!frame(decoder.decode()) || (rest !== '' && !line(rest))) return { done: false, value: 0 };
          end = inEvent ? { done: false, value: 1 } : { done: true };
        } else if (!frame(decoder.decode(piece, { stream: true }))) return { done: false, value: 0 };
        if (out !== '') {
          const value = out;
          out = '';
          return { done: false, value };
        }
      }
      return end;
    },
    cancel: () => reader.cancel(),
  };
}
