// One checked API: the release package's three entries against their hand-written .d.ts and against
// wasm-bindgen's own declarations (target/api/, written by scripts/build.sh), and the shapes of the
// generated glue the build and the SDK rely on. Everything is read from the files: nothing here
// names an export. Prints "N passed, M failed".
//
// 1. Each entry's runtime exports (imported in Node, no init()) are exactly the value exports of its
//    .d.ts: nothing exported undeclared, nothing declared that is not there.
// 2. What JS re-exports straight from wasm (`export const X = wasm.Y`, `key: wasm.f` in a frozen
//    object) is declared no wider than wasm-bindgen declares it: every member the hand-written
//    class declares exists on the generated one (or is added in JS through
//    `Object.defineProperties(wasm.Y.prototype, …)` or `callsByNumber(wasm.Y, […])`, or for a
//    static one as a method of the `methods` index.js's `for (const c of [wasm.Y, …])` defines on
//    each class), and no function or method declares more parameters than the generated one
//    takes. Each `callsByNumber(wasm.Y, […])` names the methods in the order of the `METHODS` the
//    Rust class Y numbers its `call` by (src/js/*/mod.rs).
// 3. The glue: scripts/build.sh routed the exports through fatal.js's guard in each entry; the
//    module's exports still have the names fatal.js keeps quiet after a trap (`*_free`,
//    `__wbindgen_destroy*`, `*__closures_*`); and JSON.stringify of a wasm object is still
//    `{"__wbg_ptr":N}`, which convert.rs's holds_wasm_handle looks for.
// 4. Server-side rendering: importing each entry (and adk-wasm/worker, adk-wasm/ag-ui, adk-wasm/ai-sdk) in a fresh Node touches no
//    browser global (`window`, `document`, `location`, `localStorage`, `indexedDB` throw if read)
//    and adds no global.
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import ts from 'typescript';

const ROOT = new URL('../../', import.meta.url);
const read = (path) => readFileSync(new URL(path, ROOT), 'utf8');
const ENTRIES = [
  { name: 'adk-wasm', dir: 'pkg/', generated: 'target/api/full', js: ['src/js/index.js', 'src/js/core.js'] },
  { name: 'adk-wasm/a2a', dir: 'pkg/a2a/', generated: 'target/api/a2a', js: ['src/js/a2a-entry.js', 'src/js/core.js'] },
  { name: 'adk-wasm/server', dir: 'pkg/server/', generated: 'target/api/server', js: ['src/js/server-entry.js', 'src/js/core.js'] },
];

let passed = 0;
let failed = 0;
function check(label, problems) {
  if (problems.length) {
    failed++;
    for (const p of problems) console.log(`FAIL ${label}: ${p}`);
  } else {
    passed++;
    console.log(`ok   ${label}`);
  }
}

/** A type checker over `files`. */
function program(files) {
  const p = ts.createProgram(files.map((f) => new URL(f, ROOT).pathname), { strict: true, noEmit: true, target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ES2022, moduleResolution: ts.ModuleResolutionKind.Bundler, lib: ['lib.es2022.d.ts', 'lib.dom.d.ts'] });
  return { checker: p.getTypeChecker(), file: (f) => p.getSourceFile(new URL(f, ROOT).pathname) };
}

/** The exported symbols of a module, aliases resolved. */
function exportsOf(checker, sourceFile) {
  const module = checker.getSymbolAtLocation(sourceFile);
  return new Map(checker.getExportsOfModule(module).map((s) => [s.name, s.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(s) : s]));
}

const isValue = (symbol) => (symbol.flags & ts.SymbolFlags.Value) !== 0;

/** The most parameters any signature of `type` declares. */
function arity(checker, type) {
  return Math.max(-1, ...type.getCallSignatures().map((s) => s.getParameters().length));
}

/** Members of a class symbol: instance (`prototype`) and static, by name, with their types. */
function members(checker, symbol, node) {
  const instance = checker.getDeclaredTypeOfSymbol(symbol);
  const statics = checker.getTypeOfSymbolAtLocation(symbol, node);
  const pick = (type, exclude) => new Map(checker.getPropertiesOfType(type).filter((p) => !exclude.has(p.name))
    .map((p) => [p.name, checker.getTypeOfSymbolAtLocation(p, node)]));
  return { instance: pick(instance, new Set()), statics: pick(statics, new Set(['prototype'])) };
}

/** `export const X = wasm.Y;` and, inside `export const X = Object.freeze({…})`, `key: wasm.f`. */
function straightFromWasm(files) {
  const classes = [];
  const functions = [];
  const addedInJs = new Map();
  const byNumber = new Map();
  for (const file of files) {
    const js = read(file);
    for (const [, name, target] of js.matchAll(/^export const (\w+) = wasm\.(\w+);$/gm)) classes.push({ name, target });
    for (const [, name, body] of js.matchAll(/^export const (\w+) = Object\.freeze\(\{([\s\S]*?)^\}\);$/gm)) {
      for (const [, key, target] of body.matchAll(/^\s+(\w+): wasm\.(\w+),$/gm)) functions.push({ name, key, target });
    }
    for (const [, target, proto, body] of js.matchAll(/^Object\.defineProperties\(wasm\.(\w+)(\.prototype)?, \{([\s\S]*?)^\}\);$/gm)) {
      // Keyed by the class, `static ` before a member added to the class itself.
      const keys = [...body.matchAll(/^ {2}(\w+): \{/gm)].map((m) => (proto ? '' : 'static ') + m[1]);
      addedInJs.set(target, new Set([...(addedInJs.get(target) ?? []), ...keys]));
    }
    // Methods named on a service class by index.js's `callsByNumber(wasm.Y, ['name', …])`.
    for (const [, target, list] of js.matchAll(/^callsByNumber\(wasm\.(\w+), \[([^\]]*)\]\);$/gm)) {
      const keys = [...list.matchAll(/'(\w+)'/g)].map((m) => m[1]);
      addedInJs.set(target, new Set([...(addedInJs.get(target) ?? []), ...keys]));
      byNumber.set(target, keys);
    }
    // Statics added to each class of a list, one class's apart: `for (const c of [wasm.Y, …]) {
    // const methods = c === wasm.Z ? { name(…) {…}, … } : { … }; …defineProperty(c, name, …) }`.
    for (const [, , list, one, its, others] of js.matchAll(/^for \(const (\w+) of \[([^\]]*)\]\) \{\n {2}const methods = \1 === wasm\.(\w+) \? \{([\s\S]*?)^ {2}\} : \{([\s\S]*?)^ {2}\};$/gm)) {
      for (const [, target] of list.matchAll(/wasm\.(\w+)/g)) {
        const keys = [...(target === one ? its : others).matchAll(/^ {4}(\w+)\(/gm)].map((m) => `static ${m[1]}`);
        addedInJs.set(target, new Set([...(addedInJs.get(target) ?? []), ...keys]));
      }
    }
  }
  return { classes, functions, addedInJs, byNumber };
}

for (const entry of ENTRIES) {
  const types = `${entry.generated}.d.ts`;
  const { checker, file } = program([`${entry.dir}index.d.ts`, types]);
  const declared = exportsOf(checker, file(`${entry.dir}index.d.ts`));
  const generated = exportsOf(checker, file(types));

  // 1. Runtime exports against the declared value exports.
  const runtime = new Set(Object.keys(await import(new URL(`${entry.dir}index.js`, ROOT))));
  const values = new Set([...declared].filter(([, s]) => isValue(s)).map(([n]) => n));
  check(`${entry.name}: runtime exports = .d.ts value exports (${runtime.size})`, [
    ...[...runtime].filter((n) => !values.has(n)).map((n) => `exported but not declared: ${n}`),
    ...[...values].filter((n) => !runtime.has(n)).map((n) => `declared but not exported: ${n}`),
  ]);

  // 2. What is re-exported straight from wasm, against wasm-bindgen's declarations.
  const { classes, functions, addedInJs } = straightFromWasm(entry.js);
  const problems = [];
  for (const { name, target } of classes) {
    const hand = declared.get(name);
    const gen = generated.get(target);
    if (!hand || !gen) {
      if (hand || values.has(name)) problems.push(`${name}: wasm.${target} is ${gen ? 'there' : 'not generated'}, the declaration ${hand ? 'is there' : 'is missing'}`);
      continue;
    }
    const node = file(types);
    if (gen.flags & ts.SymbolFlags.Class) {
      const h = members(checker, hand, node);
      const g = members(checker, gen, node);
      const js = addedInJs.get(target) ?? new Set();
      for (const [kind, mine, theirs] of [['', h.instance, g.instance], ['static ', h.statics, g.statics]]) {
        for (const [member, type] of mine) {
          if (js.has(kind + member)) continue;
          if (!theirs.has(member)) problems.push(`${name}.${kind}${member} is declared but wasm.${target} has no such member`);
          else if (arity(checker, type) > arity(checker, theirs.get(member))) {
            problems.push(`${name}.${kind}${member} declares ${arity(checker, type)} parameters, wasm.${target} takes ${arity(checker, theirs.get(member))}`);
          }
        }
      }
    } else {
      const [h, g] = [checker.getTypeOfSymbolAtLocation(hand, node), checker.getTypeOfSymbolAtLocation(gen, node)];
      if (arity(checker, h) > arity(checker, g)) problems.push(`${name} declares ${arity(checker, h)} parameters, wasm.${target} takes ${arity(checker, g)}`);
    }
  }
  for (const { name, key, target } of functions) {
    const hand = declared.get(name);
    const gen = generated.get(target);
    const node = file(types);
    const property = hand && checker.getTypeOfSymbolAtLocation(hand, node).getProperty(key);
    if (!gen) problems.push(`${name}.${key}: wasm.${target} is not generated`);
    else if (!property) problems.push(`${name}.${key} is not declared`);
    else if (arity(checker, checker.getTypeOfSymbolAtLocation(property, node)) > arity(checker, checker.getTypeOfSymbolAtLocation(gen, node))) {
      problems.push(`${name}.${key} declares more parameters than wasm.${target} takes`);
    }
  }
  check(`${entry.name}: ${classes.length + functions.length} declarations of wasm exports hold against wasm-bindgen's`, problems);

  // 3a. The guard is wired in (read in the glue as it was before scripts/bundle.mjs bundled it into
  // the entry; the shipped bundle's source map must hold that very glue).
  const glue = read(`${entry.generated}.glue.js`);
  const map = JSON.parse(read(`${entry.dir}index.js.map`));
  check(`${entry.name}: the glue takes its exports through fatal.js's guard`, [
    ...(glue.startsWith('import { guard } from "./fatal.js";\n') ? [] : ['the glue does not import guard from ./fatal.js']),
    ...(map.sources.some((s, i) => s.endsWith('adk_wasm.js') && map.sourcesContent[i] === glue) ? [] : ['the shipped bundle was not built from that glue']),
    ...(glue.split('wasm = guard(instance.exports);').length === 2 ? [] : ['the exports are not taken through guard() exactly once']),
  ]);

  // 3b. The export names fatal.js keeps quiet after a trap.
  const names = WebAssembly.Module.exports(new WebAssembly.Module(readFileSync(new URL(`${entry.dir}adk_wasm_bg.wasm`, ROOT)))).map((e) => e.name);
  const classFrees = [...glue.matchAll(/wasm\.(__wbg_\w+_free)\(/g)].map((m) => m[1]);
  check(`${entry.name}: the module's exports have the names fatal.js keeps quiet`, [
    ...(classFrees.length && classFrees.every((n) => names.includes(n)) ? [] : ['the classes are not freed through `__wbg_<class>_free` exports']),
    ...(names.some((n) => n.startsWith('__wbindgen_destroy')) ? [] : ['no `__wbindgen_destroy*` export for closures']),
    ...(names.some((n) => n.includes('__closures_')) ? [] : ['no `*__closures_*` export: the closures\' invoke shims are named otherwise']),
  ]);
}

// 2b. The service classes' methods are called by number: each `callsByNumber(wasm.Y, […])` in
// index.js names them in the order of the `const METHODS: [&str; N] = […]` of the Rust file whose
// `js_class = Y` numbers its `call` by them.
const numbered = straightFromWasm(['src/js/index.js']).byNumber;
const numberedInRust = new Map();
for (const path of readdirSync(new URL('src/js/', ROOT), { recursive: true }).filter((p) => p.endsWith('.rs'))) {
  const rust = read(`src/js/${path}`);
  const methods = rust.match(/^const METHODS: \[&str; \d+\] =\s*\[([^\]]*)\];$/m);
  if (!methods) continue;
  const classes = new Set([...rust.matchAll(/js_class = (\w+)/g)].map((m) => m[1]));
  numberedInRust.set(classes.size === 1 ? [...classes][0] : `(src/js/${path}: ${classes.size} classes)`, [...methods[1].matchAll(/"(\w+)"/g)].map((m) => m[1]));
}
check(`the methods called by number are numbered alike in index.js and in Rust (${numbered.size})`, [
  ...[...numberedInRust.keys()].filter((c) => !numbered.has(c)).map((c) => `${c}: METHODS in Rust, no callsByNumber in index.js`),
  ...[...numbered].filter(([c, names]) => String(names) !== String(numberedInRust.get(c)))
    .map(([c, names]) => `${c}: index.js numbers [${names}], Rust [${numberedInRust.get(c) ?? 'no METHODS'}]`),
]);

// 3c. A wasm object stringifies as {"__wbg_ptr":N} (the full entry: one wasm-bindgen for all three).
const adk = await import(new URL('pkg/index.js', ROOT));
adk.initSync({ module: readFileSync(new URL('pkg/adk_wasm_bg.wasm', ROOT)) });
const service = adk.SessionService.inMemory();
const text = JSON.stringify(service);
check('a wasm object stringifies as {"__wbg_ptr":N}', /^\{"__wbg_ptr":\d+\}$/.test(text) ? [] : [`JSON.stringify gave ${text}`]);
const refused = (() => {
  try {
    adk.parseEvent({ author: 'a', customMetadata: { service } });
    return 'accepted';
  } catch (e) {
    return e.code;
  }
})();
check('...and the SDK refuses one inside data', refused === 'INVALID_ARGUMENT' ? [] : [`parseEvent with a wasm object inside: ${refused}`]);

// 4. Importing for server-side rendering.
const ssr = `
// The AG-UI adapter's peer (the app's own dependency, loaded first): what it does at import is not ours.
await import('@ag-ui/client');
const touched = [];
for (const name of ['window', 'document', 'location', 'localStorage', 'indexedDB']) {
  Object.defineProperty(globalThis, name, { configurable: true, get() { touched.push(name); throw new Error(name + ' read during import'); } });
}
const before = new Set(Object.getOwnPropertyNames(globalThis));
const failures = [];
for (const entry of ['pkg/index.js', 'pkg/a2a/index.js', 'pkg/server/index.js', 'pkg/worker.js', 'pkg/ag-ui.js', 'pkg/ai-sdk.js']) {
  try { await import(new URL(entry, ${JSON.stringify(ROOT.href)})); } catch (e) { failures.push(entry + ': ' + e.message); }
}
const added = Object.getOwnPropertyNames(globalThis).filter((n) => !before.has(n));
console.log(JSON.stringify({ touched, failures, added }));
`;
const imported = JSON.parse(execFileSync(process.execPath, ['--input-type=module', '-e', ssr], { encoding: 'utf8' }).trim().split('\n').at(-1));
check('every entry, adk-wasm/worker, adk-wasm/ag-ui and adk-wasm/ai-sdk import in Node without touching browser globals or adding any (SSR)', [
  ...imported.touched.map((n) => `read ${n}`),
  ...imported.failures,
  ...imported.added.map((n) => `added the global ${n}`),
]);

console.log(`${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
