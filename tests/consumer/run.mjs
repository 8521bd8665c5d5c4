// The consumer check: `npm pack` the built pkg/, install the tarball into a fresh app, type-check the
// app against the packed .d.ts (tsc --strict), bundle it with esbuild, and run the bundle in Debian's
// headless Chromium; then build a second app with Vite and with webpack 5 (`init()` with no argument:
// the .wasm found through `new URL(…, import.meta.url)`) and run both too. Proves the package as
// published works, not just the files in the repo.
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { build } from 'esbuild';
import { build as viteBuild } from 'vite';
import webpack from 'webpack';
import { serve } from '../../scripts/serve.mjs';
import { launchChromium } from '../browser/chromium.mjs';

const ROOT = new URL('../..', import.meta.url).pathname;
const WORK = `${ROOT}test-output/consumer`;
rmSync(WORK, { recursive: true, force: true });
mkdirSync(`${WORK}/app`, { recursive: true });

const run = (cmd, args, cwd) => {
  try {
    return execFileSync(cmd, args, { cwd, stdio: ['ignore', 'pipe', 'inherit'] }).toString();
  } catch (e) {
    throw new Error(`${cmd} ${args.join(' ')} failed:\n${e.stdout ?? ''}`);
  }
};
const tarball = run('npm', ['pack', `${ROOT}pkg`, '--pack-destination', WORK, '--silent'], ROOT).trim().split('\n').pop();
writeFileSync(`${WORK}/app/package.json`, JSON.stringify({ name: 'consumer', private: true, type: 'module', dependencies: { 'adk-wasm': `file:../${tarball}` } }));
run('npm', ['install', '--no-audit', '--no-fund', '--offline', '--loglevel=error'], `${WORK}/app`);
cpSync(new URL('app.ts', import.meta.url), `${WORK}/app/app.ts`);
cpSync(new URL('wasm.d.ts', import.meta.url), `${WORK}/app/wasm.d.ts`);
cpSync(new URL('bundled-app.js', import.meta.url), `${WORK}/app/bundled-app.js`);
writeFileSync(`${WORK}/app/tsconfig.json`, JSON.stringify({
  compilerOptions: { strict: true, noEmit: true, allowJs: true, checkJs: true, target: 'ES2022', module: 'ES2022', moduleResolution: 'bundler', lib: ['ES2022', 'DOM', 'DOM.Iterable'], skipLibCheck: false },
  files: ['app.ts', 'wasm.d.ts', 'bundled-app.js'],
}));
run(`${ROOT}node_modules/.bin/tsc`, ['-p', 'tsconfig.json'], `${WORK}/app`);
console.log('consumer: tsc --strict against the packed types: ok');

await build({
  absWorkingDir: `${WORK}/app`, entryPoints: ['app.ts'], bundle: true, format: 'esm', outdir: 'dist',
  loader: { '.wasm': 'file' }, minify: true, logLevel: 'error',
});
writeFileSync(`${WORK}/app/dist/index.html`, '<!doctype html><meta charset="utf-8"><link rel="icon" href="data:,"><pre id="out"></pre><script type="module" src="./app.js"></script>');
console.log('consumer: esbuild bundle: ok');

const htmlFor = (script) => `<!doctype html><meta charset="utf-8"><link rel="icon" href="data:,"><pre id="out"></pre><script type="module" src="${script}"></script>`;
writeFileSync(`${WORK}/app/index.html`, htmlFor('./bundled-app.js'));
await viteBuild({ root: `${WORK}/app`, logLevel: 'error', configFile: false, build: { outDir: `${WORK}/vite-dist`, emptyOutDir: true } });
console.log('consumer: Vite build: ok');
await new Promise((resolve, reject) => webpack({
  mode: 'production', context: `${WORK}/app`, entry: './bundled-app.js',
  output: { path: `${WORK}/webpack-dist`, filename: 'app.js', clean: true },
}, (error, stats) => (error || stats?.hasErrors() ? reject(error ?? new Error(stats?.toString('errors-only'))) : resolve(undefined))));
writeFileSync(`${WORK}/webpack-dist/index.html`, htmlFor('./app.js'));
console.log('consumer: webpack build: ok');

const server = await serve(`${WORK}/app/dist`);
const browser = await launchChromium();
let failed = false;
try {
  const page = await browser.newPage();
  page.on('pageerror', (e) => { failed = true; console.log(`FAIL consumer page error: ${e.message}`); });
  await page.goto(`http://127.0.0.1:${server.address().port}/index.html`);
  const handle = await page.waitForFunction(() => document.getElementById('out')?.textContent, null, { timeout: 60_000 });
  const text = await handle.jsonValue();
  const result = text.startsWith('{') ? JSON.parse(text) : null;
  const ok = result && result.beforeInit === 'FAILED_PRECONDITION' && result.slim === 'true 1.0 JSONRPC agents:false' && result.front === 'message http://127.0.0.1:1 agents:false a2a:false' && result.answer === 'The answer is 42.' && result.final && result.authors.join() === 'calc,calc,calc';
  if (!ok) { failed = true; console.log(`FAIL consumer: the bundled app printed ${text}`); }
  else console.log('consumer: the bundled app ran in Chromium: ok');
  for (const [bundler, dist] of [['Vite', 'vite-dist'], ['webpack', 'webpack-dist']]) {
    const built = await serve(`${WORK}/${dist}`);
    try {
      const tab = await browser.newPage();
      tab.on('pageerror', (e) => { failed = true; console.log(`FAIL consumer (${bundler}) page error: ${e.message}`); });
      await tab.goto(`http://127.0.0.1:${built.address().port}/index.html`);
      const text = await (await tab.waitForFunction(() => document.getElementById('out')?.textContent, null, { timeout: 60_000 })).jsonValue();
      if (text !== JSON.stringify({ answer: 'Bundled.' })) { failed = true; console.log(`FAIL consumer: the ${bundler} app printed ${text}`); }
      else console.log(`consumer: the ${bundler}-built app ran in Chromium: ok`);
    } finally {
      built.close();
    }
  }
} finally {
  await browser.close();
  server.close();
}
process.exit(failed ? 1 : 0);
