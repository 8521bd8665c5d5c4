// The only way the demo builds DOM: strings always become text nodes, so nothing a model, tool or
// A2A server says can turn into markup.

/**
 * `el('button', {className: 'x', onclick, 'aria-label': '…'}, 'text', child)`. Keys that are
 * element properties (className, type, value, disabled, on…) are set as properties; the rest as
 * attributes. Children are nodes or strings; null/false are skipped.
 */
export function el(tag, props = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(props)) {
    if (value === undefined || value === null || value === false) continue;
    if (key.startsWith('on') || key in node) node[key] = value;
    else node.setAttribute(key, value === true ? '' : String(value));
  }
  node.append(...children.flat().filter((c) => c !== null && c !== undefined && c !== false)
    .map((c) => (c instanceof Node ? c : document.createTextNode(String(c)))));
  return node;
}

export function clear(node) {
  node.replaceChildren();
  return node;
}

/** Pretty JSON for display (text, never markup). */
export const pretty = (value) => JSON.stringify(value, null, 2);

/** A one-line preview of a JSON value, cut to `max` characters. */
export function preview(value, max = 80) {
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/** Applies `change`; new content scrolls into view unless the reader had scrolled up to read. */
export function followEnd(scroller, change) {
  const atEnd = scroller.scrollHeight - scroller.scrollTop - scroller.clientHeight < 80;
  change();
  if (atEnd) scroller.scrollTop = scroller.scrollHeight;
}
