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

  return { calculator, saveNote, clearNotes };
}

/** `user:` makes the file shared by all of the user's sessions, like the `user:notes` state. */
export const NOTES_FILE = 'user:notes.md';
