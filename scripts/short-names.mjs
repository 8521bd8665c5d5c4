// The names the module and its glue call each other by, shortened in both, and the glue's import
// object built while the module downloads. Run by scripts/build.sh on one entry's directory (the
// optimised adk_wasm_bg.wasm and the guarded adk_wasm.js), before scripts/bundle.mjs.
//
// wasm-bindgen names each import `__wbg_<name>_<16 hex digits>`: written once in the module's import
// section and once more in the glue, incompressible, and read by a
// browser in both files before anything runs (measured on the full entry: 8.3 KB of the 73.2 KB
// bundle, 4.3 KiB gzip over both files). Here they become `a`, `b`, …, `aa`, … in both, and the glue's
// entries become methods. The glue
// builds its import object (~110 functions) before it starts the module's fetch; here after, so
// that the work is done while the request is in flight. The pinned wasm-bindgen's glue has one
// import object and one place it is built for `init()`; any other shape stops the build.
//
// The exports likewise (`agenthandle_workflow`, `__wbg_<class>_free`, the closures' shims
// `wasm_bindgen__convert__closures_____invoke__h<16 hex digits>`, …), in the export section and in
// every `wasm.<name>` of the glue, but for `memory`, which pages read from what `init()` returns.
// fatal.js's guard tells by an export's name which calls stay quiet after a trap; a shortened name
// keeps the part that says so (the build stops if it would not), and tests/api/check.mjs looks for.
// The import modules' names too (`./adk_wasm_bg.js`, written before each import): `a`, `b`.
import { readFileSync, writeFileSync } from 'node:fs';
import { quiet } from '../src/js/fatal.js';

const dir = process.argv[2];
const MODULE = './adk_wasm_bg.js';

/** An unsigned LEB128 at `at`: its value and the offset after it. */
function leb(bytes, at) {
  let value = 0;
  let shift = 0;
  let byte;
  do {
    byte = bytes[at++];
    value += (byte & 0x7f) * 2 ** shift;
    shift += 7;
  } while (byte & 0x80);
  return [value, at];
}

function toLeb(value) {
  const out = [];
  do {
    let byte = value & 0x7f;
    value = Math.floor(value / 128);
    if (value) byte |= 0x80;
    out.push(byte);
  } while (value);
  return Buffer.from(out);
}

const name = (text) => Buffer.concat([toLeb(Buffer.byteLength(text)), Buffer.from(text)]);

/** `a` … `z`, then two letters and more: never a name wasm-bindgen gives (theirs start with `__`). */
const short = (i) => (i < 26 ? String.fromCharCode(97 + i) : short(Math.floor(i / 26) - 1) + short(i % 26));

/** Where an export's short name goes: between the parts fatal.js's guard and tests/api/check.mjs read. */
function shortExportPattern(from) {
  if (from.includes('__closures_')) return ['__closures_', ''];
  if (from.startsWith('__wbindgen_destroy')) return ['__wbindgen_destroy_', ''];
  if (from.endsWith('_free')) return [from.startsWith('__wbg_') ? '__wbg_' : '', '_free'];
  return ['', ''];
}

// The module: its import and export sections rewritten, every other section kept byte for byte.
const wasmFile = `${dir}/adk_wasm_bg.wasm`;
const wasm = readFileSync(wasmFile);
const renamed = new Map();
const exported = new Map();
const modules = new Map();
/** Per imported JS file (wasm-bindgen's snippets), the functions the module takes from it. */
const fields = new Map();

/** The import section whose body is `wasm[body, end)`, its imports from the glue renamed in `renamed`. */
function importSection(body, end) {
  let [count, p] = leb(wasm, body);
  const entries = [toLeb(count)];
  while (count--) {
    let length;
    [length, p] = leb(wasm, p);
    const module = wasm.toString('utf8', p, (p += length));
    [length, p] = leb(wasm, p);
    const field = wasm.toString('utf8', p, (p += length));
    const kind = p;
    if (wasm[p++] !== 0) throw new Error(`${wasmFile}: import ${module}.${field} is not a function`);
    [, p] = leb(wasm, p);
    let to = field;
    if (module === MODULE) {
      // The same function imported twice keeps one name, as the glue defines it once.
      to = renamed.get(field) ?? short(renamed.size);
      renamed.set(field, to);
    }
    if (!modules.has(module)) modules.set(module, short(modules.size));
    if (module !== MODULE) fields.set(module, (fields.get(module) ?? new Set()).add(field));
    entries.push(name(modules.get(module)), name(to), wasm.subarray(kind, p));
  }
  if (p !== end) throw new Error(`${wasmFile}: the import section does not end where its size says`);
  return entries;
}

/** The export section whose body is `wasm[body, end)`, its exports but `memory` renamed in `exported`. */
function exportSection(body, end) {
  let [count, p] = leb(wasm, body);
  const entries = [toLeb(count)];
  const taken = new Set();
  // Each pattern counts from `a`.
  const counts = new Map();
  while (count--) {
    let length;
    [length, p] = leb(wasm, p);
    const from = wasm.toString('utf8', p, (p += length));
    const kind = p++;
    [, p] = leb(wasm, p);
    let to = from;
    if (from !== 'memory') {
      const [before, after] = shortExportPattern(from);
      const n = counts.get(before + after) ?? 0;
      counts.set(before + after, n + 1);
      to = before + short(n) + after;
    }
    if (quiet(to) !== quiet(from) || taken.has(to)) throw new Error(`${wasmFile}: the export ${from} cannot be named ${to}`);
    taken.add(to);
    if (to !== from) exported.set(from, to);
    entries.push(name(to), wasm.subarray(kind, p));
  }
  if (p !== end) throw new Error(`${wasmFile}: the export section does not end where its size says`);
  return entries;
}

const sections = [wasm.subarray(0, 8)];
for (let at = 8; at < wasm.length;) {
  const id = wasm[at];
  const [size, body] = leb(wasm, at + 1);
  const end = body + size;
  const rewrite = { 2: importSection, 7: exportSection }[id];
  if (rewrite) {
    const section = Buffer.concat(rewrite(body, end));
    sections.push(Buffer.from([id]), toLeb(section.length), section);
  } else {
    sections.push(wasm.subarray(at, end));
  }
  at = end;
}
if (!renamed.size) throw new Error(`${wasmFile}: no imports from ${MODULE}`);
if (!exported.size) throw new Error(`${wasmFile}: no exports`);

// The glue: the import object's keys as the module now names them, as methods.
const glueFile = `${dir}/adk_wasm.js`;
let glue = readFileSync(glueFile, 'utf8');
const once = (text, from, to) => {
  if (text.split(from).length !== 2) throw new Error(`${glueFile}: expected \`${from.trim()}\` exactly once`);
  return text.replace(from, to);
};
const open = '    const import0 = {\n        __proto__: null,\n';
const close = `\n    };\n    return {\n        __proto__: null,\n        "${MODULE}": import0,\n`;
const start = glue.indexOf(open);
const stop = glue.indexOf(close, start);
if (start < 0 || stop < 0 || glue.split(open).length !== 2) throw new Error(`${glueFile}: no single import object for ${MODULE}`);
const seen = new Set();
const block = glue.slice(start, stop).replace(/^ {8}(\w+): function\(/gm, (line, key) => {
  const to = renamed.get(key);
  if (to === undefined) return line;
  seen.add(key);
  return `        ${to}(`;
});
const missing = [...renamed.keys()].filter((key) => !seen.has(key));
if (missing.length) throw new Error(`${glueFile}: the module imports ${missing.join(', ')}, which the glue does not define as \`key: function(\``);
glue = glue.slice(0, start) + block + glue.slice(stop);
// A snippet the module imports from is handed over as an object of just the functions it takes,
// not as the file's namespace: esbuild keeps every export of a namespace (and a helper to build
// it), so the entries without a caller of some export (`forget` is the agents') would carry it.
for (const [module, names] of fields) {
  const [line, local] = glue.match(new RegExp(`^import \\* as (import\\d+) from ${JSON.stringify(module).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')};?$`, 'm')) ?? [];
  if (!line) throw new Error(`${glueFile}: no namespace import of ${module}`);
  const list = [...names];
  glue = once(glue, line, [
    `import { ${list.map((n, i) => `${n} as ${local}_${i}`).join(', ')} } from ${JSON.stringify(module)};`,
    `const ${local} = { __proto__: null, ${list.map((n, i) => `${n}: ${local}_${i}`).join(', ')} };`,
  ].join('\n'));
}
// The import object's modules, keyed as the module now names them.
for (const [from, to] of modules) glue = once(glue, `\n        ${JSON.stringify(from)}: import`, `\n        ${to}: import`);
// Every call into the module: `wasm.<export>` (the guarded exports), none other (the build stops).
if (glue.split('.exports').length !== 2 || /(?<![\w$.])wasm\s*\[|=\s*wasm(?![\w$.])/.test(glue)) {
  throw new Error(`${glueFile}: the module's exports are read other than as \`wasm.<name>\``);
}
glue = glue.replace(/(?<![\w$.])wasm\.([A-Za-z_$][\w$]*)/g, (whole, key) => {
  if (key === 'memory') return whole;
  const to = exported.get(key);
  if (to === undefined) throw new Error(`${glueFile}: \`${whole}\` is no export of the module`);
  return `wasm.${to}`;
});
// Built after the fetch has started, not before.
glue = once(glue, '    const imports = __wbg_get_imports();\n\n    if (typeof module_or_path === \'string\'', '    if (typeof module_or_path === \'string\'');
glue = once(glue, '    const { instance, module } = await __wbg_load(await module_or_path, imports);', '    const imports = __wbg_get_imports();\n    const { instance, module } = await __wbg_load(await module_or_path, imports);');

// The rewritten module must compile and declare what the original did under the new names: the
// section encoder above is hand-written.
const out = Buffer.concat(sections);
const declared = (module, importName = (i) => i.name, exportName = (e) => e.name, moduleName = (m) => m) => JSON.stringify([
  WebAssembly.Module.imports(module).map((i) => [moduleName(i.module), importName(i), i.kind]),
  WebAssembly.Module.exports(module).map((e) => [exportName(e), e.kind]),
]);
const expected = declared(
  new WebAssembly.Module(wasm),
  (i) => (i.module === MODULE ? renamed.get(i.name) : i.name),
  (e) => exported.get(e.name) ?? e.name,
  (m) => modules.get(m),
);
if (declared(new WebAssembly.Module(out)) !== expected) {
  throw new Error(`${wasmFile}: the rewritten module does not declare the original's imports and exports under their new names`);
}
writeFileSync(wasmFile, out);
writeFileSync(glueFile, glue);
