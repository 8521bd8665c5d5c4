// Prints the raw and gzip (level 9) size of what a browser downloads from pkg/.
import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';

const files = ['adk_wasm_bg.wasm', 'adk_wasm.js', 'index.js'];
let raw = 0;
let gz = 0;
const kb = (n) => `${(n / 1024).toFixed(1)} KiB`.padStart(10);
console.log(`${'file'.padEnd(20)}${'raw'.padStart(10)}${'gzip'.padStart(10)}`);
for (const f of files) {
  const bytes = readFileSync(new URL(`../pkg/${f}`, import.meta.url));
  const z = gzipSync(bytes, { level: 9 }).length;
  raw += bytes.length;
  gz += z;
  console.log(`${f.padEnd(20)}${kb(bytes.length)}${kb(z)}`);
}
console.log(`${'total'.padEnd(20)}${kb(raw)}${kb(gz)}`);
