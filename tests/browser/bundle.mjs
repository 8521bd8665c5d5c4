// Bundles the browser test pages that import npm packages: every tests/browser/*.js whose first line
// is `// @bundle` becomes target/bundles/<name>.js (esbuild, ESM, for the browser). Imports of the
// package under test (any path with `/pkg/`) stay imports, so the page runs the release pkg/ and its
// wasm is found next to it.
import { readdirSync, readFileSync } from 'node:fs';
import { build } from 'esbuild';

const ROOT = new URL('../..', import.meta.url).pathname;
const DIR = `${ROOT}tests/browser/`;

const keepPkg = {
  name: 'keep-pkg',
  setup(b) {
    b.onResolve({ filter: /\/pkg\// }, ({ path }) => ({ path, external: true }));
  },
};

export async function bundlePages() {
  const pages = readdirSync(DIR).filter((f) => f.endsWith('.js') && readFileSync(DIR + f, 'utf8').startsWith('// @bundle\n'));
  await Promise.all(pages.map((page) => build({
    entryPoints: [DIR + page],
    outfile: `${ROOT}target/bundles/${page}`,
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    plugins: [keepPkg],
    logLevel: 'warning',
  })));
  return pages;
}
