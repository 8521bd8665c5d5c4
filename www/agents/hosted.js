// Agents on hosted models: Gemini's REST API and any OpenAI-compatible /chat/completions server,
// called from the page with the same JS tools as the offline agent. API keys live only in this
// module's closures: the input is cleared as soon as the key is taken, and the key is never
// written to storage, the URL, the console or the DOM.
import { el } from '../ui/dom.js';
import { makeTools } from './tools.js';

const INSTRUCTION = 'You are a helpful assistant in a browser demo of the Agent Development Kit. '
  + 'Use the calculator tool for arithmetic and save_note when the user asks you to remember something. Be brief.';

function field(label, input, hint) {
  return el('label', { className: 'field' }, el('span', {}, label), input, hint ? el('small', {}, hint) : null);
}

function missing(name) {
  return el('p', { className: 'notice' }, `${name} is not in this build of pkg/ yet. Rebuild the package (make build) to use it.`);
}

/**
 * A form with a model name, optional base URL and a key; `make(options)` builds the model.
 * `available` is false when the package lacks the model class.
 */
function hostedProvider({ id, label, blurb, available, modelDefault, baseUrl, keyRequired, make }) {
  let apiKey = '';
  let model = modelDefault;
  let base = baseUrl;

  return {
    id,
    label,
    starters: ['What is 1234 * 5678?', 'Note: call the dentist on Monday', 'Explain ADK agents in two sentences.'],
    mount(container) {
      if (!available) return container.replaceChildren(el('p', {}, blurb), missing(label));
      const modelInput = el('input', { type: 'text', value: model, spellcheck: false, autocomplete: 'off' });
      const baseInput = base === undefined ? null : el('input', { type: 'url', value: base, spellcheck: false, autocomplete: 'off' });
      const keyInput = el('input', { type: 'password', autocomplete: 'off', placeholder: keyRequired ? 'required' : 'optional' });
      const status = el('span', { className: 'key-status', role: 'status' }, 'No key set.');
      const forget = el('button', { type: 'button', className: 'btn small', onclick: () => { apiKey = ''; status.textContent = 'Key forgotten.'; } }, 'Forget key');
      const form = el('form', { className: 'model-form', onsubmit: (e) => {
        e.preventDefault();
        model = modelInput.value.trim();
        if (baseInput) base = baseInput.value.trim().replace(/\/+$/, '');
        if (keyInput.value) apiKey = keyInput.value;
        keyInput.value = '';
        status.textContent = apiKey ? `Key set (kept in memory only) · ${model}` : `No key · ${model}`;
      } },
      field('Model', modelInput),
      baseInput ? field('Base URL', baseInput, 'the part before /chat/completions') : null,
      field('API key', keyInput, 'kept in a JS variable only; cleared from the field'),
      el('div', { className: 'form-actions' }, el('button', { type: 'submit', className: 'btn primary small' }, 'Use'), forget, status));
      container.replaceChildren(el('p', {}, blurb), form);
    },
    ready() {
      if (!available) return `${label} is not in this build of pkg/.`;
      if (!model) return 'Enter a model name and press Use.';
      if (keyRequired && !apiKey) return 'Enter an API key and press Use.';
      return true;
    },
    createAgent(adk) {
      const { calculator, saveNote, clearNotes } = makeTools(adk);
      return new adk.LlmAgent({ name: 'assistant', description: `${label} with JS tools`, instruction: INSTRUCTION,
        model: make({ model, apiKey: apiKey || undefined, baseUrl: base }), tools: [calculator, saveNote, clearNotes, adk.getUserChoiceTool] });
    },
  };
}

export function geminiProvider(adk) {
  return hostedProvider({
    id: 'gemini', label: 'Gemini', available: typeof adk.Gemini === 'function', modelDefault: 'gemini-2.5-flash', keyRequired: true,
    blurb: 'Gemini over its REST API, streamed straight from this page. The key goes to Google only.',
    make: ({ model, apiKey }) => new adk.Gemini({ model, apiKey }),
  });
}

export function openAiProvider(adk) {
  return hostedProvider({
    id: 'openai', label: 'OpenAI-compatible', available: typeof adk.OpenAICompatible === 'function', modelDefault: 'llama3.2',
    baseUrl: 'http://localhost:11434/v1', keyRequired: false,
    blurb: 'Any /chat/completions server: OpenAI, Ollama, llama.cpp, vLLM, LM Studio. The server must allow this origin (CORS).',
    make: ({ model, apiKey, baseUrl }) => new adk.OpenAICompatible({ model, apiKey, baseUrl }),
  });
}
