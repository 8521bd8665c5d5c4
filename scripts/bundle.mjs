// The JS a browser downloads, made small (esbuild): each wasm entry (pkg/index.js, pkg/a2a/index.js,
// pkg/server/index.js) bundled with the modules it imports (wasm-bindgen's glue, core.js, …) into
// its one file, fetched in one round instead of two or three; the JS-only subpaths and the OAuth
// popup's script each minified on their own. Local names are shortened; a source map beside each
// file carries the original text.
//
// An entry's exports keep the `.name` they have in the source (`A2AClient.name`, `parseEvent.name`),
// set once after the bundle for those alone: esbuild's `keepNames` sets it for every function and
// class inside too, which cost the a2a entry 576 B and the full one about 1.5 KiB of gzip for names
// only a debugger shows (and the source map gives it those). The bundled entry is imported here and
// its exports' names compared with the source's, so a name that changed fails the build.
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { buildSync, transformSync } from 'esbuild';

const root = new URL('../', import.meta.url);
const pkg = new URL('pkg/', root);
const common = { minify: true, keepNames: true, sourcemap: 'external', sourcesContent: true };

let imports = 0;

/** Each exported function's or class's own name (`''` where it has none), by export name. */
async function exportedNames(file) {
  const names = {};
  // A new URL each time: the file is read again, not taken from the module cache.
  for (const [key, value] of Object.entries(await import(`${pathToFileURL(file)}?${++imports}`))) {
    if (typeof value === 'function') names[key] = value.name;
  }
  return names;
}

for (const dir of ['', 'a2a/', 'server/']) {
  const entry = new URL(`${dir}index.js`, pkg).pathname;
  const names = await exportedNames(entry);
  const { metafile } = buildSync({
    ...common, keepNames: false, entryPoints: [entry], outfile: entry, allowOverwrite: true, bundle: true, format: 'esm',
    metafile: true, absWorkingDir: fileURLToPath(root), logLevel: 'error',
  });
  nameExports(entry, names);
  // What went into the bundle is not shipped on its own.
  for (const input of Object.keys(metafile.inputs)) {
    const file = new URL(input, root);
    if (file.pathname !== entry) rmSync(file);
  }
  // The snippets (src/**/*.js imported by wasm-bindgen) are in the bundle now: their folders go too.
  rmSync(new URL(`${dir}snippets/`, pkg), { recursive: true, force: true });
  const bundled = await exportedNames(entry);
  const changed = Object.keys(names).filter((key) => bundled[key] !== names[key]);
  if (changed.length) throw new Error(`${entry}: exports renamed by the bundle: ${changed.join(', ')}`);
}

/**
 * Gives the bundle's renamed exports their source names, in one statement before its export
 * clause (esbuild writes one, last: `export{k as A2AClient,…};`). The source map is left as it is:
 * the lines it maps come before the added statement.
 */
function nameExports(file, names) {
  const code = readFileSync(file, 'utf8');
  const clause = /export\{([^}]*)\};\n$/.exec(code);
  if (!clause) throw new Error(`${file}: no export clause at the end of the bundle`);
  const pairs = [];
  for (const item of clause[1].split(',')) {
    const [local, key = local] = item.split(' as ');
    if (names[key]) pairs.push(`[${local},${JSON.stringify(names[key])}]`);
  }
  if (!pairs.length) return;
  const statement = `for(const[f,n]of[${pairs.join(',')}])Object.defineProperty(f,"name",{value:n,configurable:!0});`;
  writeFileSync(file, code.slice(0, clause.index) + statement + code.slice(clause.index));
}

for (const name of ['worker.js', 'chat-source.js', 'ag-ui.js', 'ag-ui-events.js', 'ai-sdk.js', 'oauth-redirect.js', 'server/oauth-redirect.js']) {
  const file = new URL(name, pkg);
  const { code, map } = transformSync(readFileSync(file, 'utf8'), { ...common, sourcefile: `source/${name.split('/').pop()}` });
  writeFileSync(file, `${code}//# sourceMappingURL=${name.split('/').pop()}.map\n`);
  writeFileSync(new URL(`${name}.map`, pkg), map);
}
