// Prints the raw and gzip (level 9) size of what a browser downloads from pkg/ (the full SDK) and
// from pkg/a2a/ (event model + A2A client), against the 150 KiB gzip budget.
import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';

const BUDGET_KIB = 150;
const kb = (n) => `${(n / 1024).toFixed(1)} KiB`.padStart(11);

for (const [title, dir] of [['adk-wasm (full SDK)', 'pkg/'], ['adk-wasm/a2a (events + A2A client)', 'pkg/a2a/']]) {
  let raw = 0;
  let gz = 0;
  console.log(`\n${title}\n${'file'.padEnd(24)}${'raw'.padStart(11)}${'gzip'.padStart(11)}`);
  for (const f of ['adk_wasm_bg.wasm', 'adk_wasm.js', dir === 'pkg/' ? 'index.js' : 'sdk.js']) {
    const bytes = readFileSync(new URL(`../${dir}${f}`, import.meta.url));
    const z = gzipSync(bytes, { level: 9 }).length;
    raw += bytes.length;
    gz += z;
    console.log(`${(dir + f).padEnd(24)}${kb(bytes.length)}${kb(z)}`);
  }
  const verdict = gz / 1024 <= BUDGET_KIB ? 'within' : 'OVER';
  console.log(`${'total'.padEnd(24)}${kb(raw)}${kb(gz)}   ${verdict} the ${BUDGET_KIB} KiB gzip budget`);
}
