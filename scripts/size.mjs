// What a browser downloads for each entry of the package, raw and gzip -9, against the budget in
// size-budget.json: exits non-zero when an entry is over it. Sizes are deterministic for a given
// toolchain, so this is a check (run by `make test`), not a measurement.
import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';

const root = new URL('../', import.meta.url);
const budget = JSON.parse(readFileSync(new URL('size-budget.json', root), 'utf8'));
const entries = {
  // Each wasm entry is its module and one bundled file (scripts/bundle.mjs).
  'adk-wasm': ['pkg/adk_wasm_bg.wasm', 'pkg/index.js'],
  'adk-wasm/a2a': ['pkg/a2a/adk_wasm_bg.wasm', 'pkg/a2a/index.js'],
  // The JS-only subpaths: what each adds to whichever entry the page loads.
  'adk-wasm/worker': ['pkg/worker.js'],
  'adk-wasm/ag-ui': ['pkg/ag-ui.js', 'pkg/ag-ui-events.js', 'pkg/chat-source.js'],
  'adk-wasm/ai-sdk': ['pkg/ai-sdk.js', 'pkg/chat-source.js'],
  'adk-wasm/server': ['pkg/server/adk_wasm_bg.wasm', 'pkg/server/index.js'],
};
const kib = (n) => `${(n / 1024).toFixed(1)} KiB`.padStart(11);

let over = false;
for (const [entry, files] of Object.entries(entries)) {
  let raw = 0;
  let gz = 0;
  console.log(`\n${entry}\n${'file'.padEnd(26)}${'raw'.padStart(11)}${'gzip -9'.padStart(11)}`);
  for (const file of files) {
    const bytes = readFileSync(new URL(file, root));
    const zipped = gzipSync(bytes, { level: 9 }).length;
    raw += bytes.length;
    gz += zipped;
    console.log(`${file.padEnd(26)}${kib(bytes.length)}${kib(zipped)}`);
  }
  const limit = budget[entry];
  const fits = gz / 1024 <= limit;
  over ||= !fits;
  console.log(`${'total'.padEnd(26)}${kib(raw)}${kib(gz)}   ${fits ? 'within' : 'OVER'} the ${limit} KiB budget (size-budget.json)`);
}
if (over) {
  console.error('\nmake size: over budget');
  process.exit(1);
}
