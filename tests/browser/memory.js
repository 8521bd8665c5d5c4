// @ts-check
// Peak wasm memory per input byte: a 64 MiB text through parseEvent, appendEvent, a JS model's
// response in a run and a JS tool's result, each in a frame of its own (a fresh instance). Three
// copies is the floor (the JSON in, the decoded value, the JSON out to JS); 3.1× allows the
// allocator's growth step.
import { assert, finish, test } from './harness.js';

function measure(name) {
  return new Promise((resolve) => {
    const frame = document.createElement('iframe');
    const done = (e) => {
      if (e.data?.name !== name) return;
      removeEventListener('message', done);
      frame.remove();
      resolve(e.data);
    };
    addEventListener('message', done);
    frame.src = `./memory-case.html?case=${name}`;
    document.body.append(frame);
  });
}

const notes = [];
for (const name of ['parseEvent', 'appendEvent', 'modelResponse', 'toolResult']) {
  await test(`${name} of a 64 MiB text grows wasm memory at most 3.1x`, async () => {
    const { ratio, error } = await measure(name);
    assert(!error, `${name}: ${error}`);
    notes.push(`${name} ${ratio.toFixed(2)}x`);
    assert(ratio <= 3.1, `${name}: ${ratio.toFixed(2)}x`);
  });
}
window.__results.notes = [`peak wasm memory per input byte: ${notes.join(', ')}`];

finish();
