// Pages that import npm packages (the AG-UI client, the AI SDK) are bundled before they run: every
// tests/browser/*.js whose first line is `// @bundle` becomes target/bundles/<name>.js. The package's
// wasm entries stay external (loaded from /pkg/ as every other page loads them, so their .wasm is
// found beside them); its JS-only modules (adk-wasm/ag-ui, …) are bundled with the peers they import.
import { readdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { build } from 'esbuild';

const ROOT = new URL('../..', import.meta.url).pathname;
const WASM_ENTRIES = new Set(['index.js', 'a2a/index.js', 'server/index.js'].map((file) => resolve(ROOT, 'pkg', file)));

const wasmEntriesExternal = {
  name: 'wasm-entries-external',
  setup(b) {
    b.onResolve({ filter: /^\/pkg\/|(^|\/)index\.js$/ }, ({ path, resolveDir }) => {
      const file = path.startsWith('/pkg/') ? resolve(ROOT, path.slice(1)) : resolve(resolveDir, path);
      return WASM_ENTRIES.has(file) ? { path: `/${file.slice(ROOT.length)}`, external: true } : { path: file };
    });
  },
};

/** Bundles the marked pages; returns their names. */
export async function bundlePages() {
  const dir = `${ROOT}tests/browser/`;
  const pages = readdirSync(dir).filter((f) => f.endsWith('.js') && readFileSync(dir + f, 'utf8').startsWith('// @bundle\n'));
  await build({
    entryPoints: pages.map((f) => dir + f),
    bundle: true,
    format: 'esm',
    platform: 'browser',
    outdir: `${ROOT}target/bundles`,
    logLevel: 'warning',
    plugins: [wasmEntriesExternal],
  });
  return pages;
}
