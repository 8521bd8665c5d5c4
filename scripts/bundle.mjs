// The JS a browser downloads, made small (esbuild): each wasm entry (pkg/index.js, pkg/a2a/index.js,
// pkg/server/index.js) bundled with the modules it imports (wasm-bindgen's glue, core.js, …) into
// its one file, fetched in one round instead of two or three; the JS-only subpaths and the OAuth
// popup's script each minified on their own. Local names are shortened, class and function names
// kept (errors and devtools show them); a source map beside each file carries the original text.
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { buildSync, transformSync } from 'esbuild';

const root = new URL('../', import.meta.url);
const pkg = new URL('pkg/', root);
const common = { minify: true, keepNames: true, sourcemap: 'external', sourcesContent: true };

for (const dir of ['', 'a2a/', 'server/']) {
  const entry = new URL(`${dir}index.js`, pkg).pathname;
  const { metafile } = buildSync({
    ...common, entryPoints: [entry], outfile: entry, allowOverwrite: true, bundle: true, format: 'esm',
    metafile: true, absWorkingDir: fileURLToPath(root), logLevel: 'error',
  });
  // What went into the bundle is not shipped on its own.
  for (const input of Object.keys(metafile.inputs)) {
    const file = new URL(input, root);
    if (file.pathname !== entry) rmSync(file);
  }
  // The snippets (src/**/*.js imported by wasm-bindgen) are in the bundle now: their folders go too.
  rmSync(new URL(`${dir}snippets/`, pkg), { recursive: true, force: true });
}

for (const name of ['worker.js', 'chat-source.js', 'ag-ui.js', 'ag-ui-events.js', 'ai-sdk.js', 'oauth-redirect.js', 'server/oauth-redirect.js']) {
  const file = new URL(name, pkg);
  const { code, map } = transformSync(readFileSync(file, 'utf8'), { ...common, sourcefile: `source/${name.split('/').pop()}` });
  writeFileSync(file, `${code}//# sourceMappingURL=${name.split('/').pop()}.map\n`);
  writeFileSync(new URL(`${name}.map`, pkg), map);
}
