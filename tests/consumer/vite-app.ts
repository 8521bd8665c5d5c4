// The packed `adk-wasm` as a Vite app uses it: `init()` with no argument, the .wasm found by the
// glue's `new URL('adk_wasm_bg.wasm', import.meta.url)`, which Vite emits as an asset.
import init, { InMemoryRunner, LlmAgent, ScriptedModel, isFinalResponse } from 'adk-wasm';

async function main(): Promise<string> {
  await init();
  const agent = new LlmAgent({ name: 'vite_agent', model: new ScriptedModel(['Bundled by Vite.']) });
  const runner = new InMemoryRunner({ agent, appName: 'vite', autoCreateSession: true });
  let answer = '';
  for await (const event of runner.runAsync({ userId: 'u', sessionId: 's', newMessage: { role: 'user', parts: [{ text: 'hi' }] } })) {
    if (isFinalResponse(event)) answer = event.content?.parts?.[0]?.text ?? '';
  }
  return answer;
}

main().then(
  (answer) => { document.getElementById('out')!.textContent = JSON.stringify({ answer }); },
  (error) => { document.getElementById('out')!.textContent = `error: ${error}`; },
);
