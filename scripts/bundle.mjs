// The JS a browser downloads, made small (esbuild): each wasm entry (pkg/index.js, pkg/a2a/index.js,
// pkg/server/index.js) bundled with the modules it imports (wasm-bindgen's glue, core.js, …) into
// its one file, fetched in one round instead of two or three; the JS-only subpaths and the OAuth
// popup's script each minified on their own. Local names are shortened; a source map beside each
// file carries the original text.
//
// Exports keep the `.name` they have in the source (`A2AClient.name`, `parseEvent.name`); nothing
// else does. A bundle renames its exports too, so one statement after it names them again: cheaper
// than esbuild's `keepNames`, which names every function and class inside (full −745 B gzip, a2a
// −454, server −586 against it at 2b15a4e; the subpaths −93 to −169 each at b561fad). Each file's
// exports are imported before and after minifying, and a name that changed fails the build. What
// the exports reach (a class a factory returns, a function kept as a property) is renamed like the
// rest.
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { buildSync, transformSync } from 'esbuild';

const root = new URL('../', import.meta.url);
const pkg = new URL('pkg/', root);
const common = { minify: true, sourcemap: 'external', sourcesContent: true };

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
  // Every entry exports `init` as its default: no names read means the import went wrong.
  if (names.default !== 'init') throw new Error(`${entry}: no default export named init`);
  const { metafile } = buildSync({
    ...common, entryPoints: [entry], outfile: entry, allowOverwrite: true, bundle: true, format: 'esm',
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
  await checkNames(entry, names);
}

/** Fails the build when an export's `.name` is not what `names` says it was in the source. */
async function checkNames(file, names) {
  const now = await exportedNames(file);
  const changed = Object.keys(names).filter((key) => now[key] !== names[key]);
  if (changed.length) throw new Error(`${file}: exports renamed by minifying: ${changed.join(', ')}`);
}

/**
 * Gives the bundle's renamed exports their source names, in one statement before its export
 * clause (esbuild writes one, last: `export{k as A2AClient,…};`). The source map is left as it is:
 * what it maps comes before the added statement, on the clause's line.
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

// Minified alone, a module keeps its top-level names (its exports among them); the OAuth popup's
// script has no exports, and runs in a page only.
for (const name of ['worker.js', 'chat-source.js', 'ag-ui.js', 'ag-ui-events.js', 'ai-sdk.js', 'oauth-redirect.js', 'server/oauth-redirect.js']) {
  const file = new URL(name, pkg);
  const popup = name.endsWith('oauth-redirect.js');
  const names = popup ? {} : await exportedNames(file.pathname);
  const { code, map } = transformSync(readFileSync(file, 'utf8'), { ...common, sourcefile: `source/${name.split('/').pop()}` });
  writeFileSync(file, `${code}//# sourceMappingURL=${name.split('/').pop()}.map\n`);
  writeFileSync(new URL(`${name}.map`, pkg), map);
  if (!popup) await checkNames(file.pathname, names);
}
