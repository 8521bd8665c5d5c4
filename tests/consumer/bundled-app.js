// @ts-check
// The packed `adk-wasm` as a bundled app uses it, built by Vite and by webpack: `init()` with no
// argument, the .wasm found by the glue's `new URL('adk_wasm_bg.wasm', import.meta.url)`, which both
// emit as an asset.
import init, { InMemoryRunner, LlmAgent, ScriptedModel, isFinalResponse } from 'adk-wasm';

/** The agent's answer, from a run in the bundled package. */
async function main() {
  await init();
  const agent = new LlmAgent({ name: 'bundled_agent', model: new ScriptedModel(['Bundled.']) });
  const runner = new InMemoryRunner({ agent, appName: 'bundled', autoCreateSession: true });
  let answer = '';
  for await (const event of runner.runAsync({ userId: 'u', sessionId: 's', newMessage: { role: 'user', parts: [{ text: 'hi' }] } })) {
    if (isFinalResponse(event)) answer = event.content?.parts?.[0]?.text ?? '';
  }
  return answer;
}

const out = /** @type {HTMLElement} */ (document.getElementById('out'));
main().then((answer) => { out.textContent = JSON.stringify({ answer }); }, (error) => { out.textContent = `error: ${error}`; });
