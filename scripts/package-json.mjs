// Writes pkg/package.json for the npm package: the hand-written entry and types, not wasm-bindgen's.
import { readFileSync, writeFileSync } from 'node:fs';

const cargo = readFileSync(new URL('../Cargo.toml', import.meta.url), 'utf8');
const field = (name) => cargo.match(new RegExp(`^${name} = "([^"]*)"`, 'm'))?.[1];

const pkg = {
  name: 'adk-wasm',
  version: field('version'),
  description: field('description'),
  license: field('license'),
  repository: { type: 'git', url: field('repository') },
  keywords: ['adk', 'agents', 'a2a', 'llm', 'wasm', 'webassembly'],
  type: 'module',
  main: './index.js',
  module: './index.js',
  types: './index.d.ts',
  exports: {
    '.': { types: './index.d.ts', default: './index.js' },
    './adk_wasm_bg.wasm': './adk_wasm_bg.wasm',
    './a2a': { types: './a2a/index.d.ts', default: './a2a/index.js' },
    './a2a/adk_wasm_bg.wasm': './a2a/adk_wasm_bg.wasm',
    './server': { types: './server/index.d.ts', default: './server/index.js' },
    './server/adk_wasm_bg.wasm': './server/adk_wasm_bg.wasm',
    './worker': { types: './worker.d.ts', default: './worker.js' },
    './ag-ui': { types: './ag-ui.d.ts', default: './ag-ui.js' },
    './ai-sdk': { types: './ai-sdk.d.ts', default: './ai-sdk.js' },
    './oauth-redirect.html': './oauth-redirect.html',
    './oauth-redirect.js': './oauth-redirect.js',
    './package.json': './package.json',
  },
  files: ['index.js', 'index.d.ts', 'adk_wasm_bg.wasm', 'oauth-redirect.html', 'oauth-redirect.js', 'worker.js', 'worker.d.ts',
    'chat-source.js', 'ag-ui.js', 'ag-ui-events.js', 'ag-ui.d.ts', 'ai-sdk.js', 'ai-sdk.d.ts', 'README.md',
    'a2a/index.js', 'a2a/index.d.ts', 'a2a/adk_wasm_bg.wasm',
    'server/index.js', 'server/index.d.ts', 'server/adk_wasm_bg.wasm', 'server/oauth-redirect.html', 'server/oauth-redirect.js',
    '*.js.map', 'a2a/*.js.map', 'server/*.js.map'],
  // The AG-UI adapter builds on the AG-UI client (and its rxjs), the AI SDK transport's types on `ai`;
  // the other entries need none of them.
  peerDependencies: { '@ag-ui/client': '^1.0.0', rxjs: '^7.8.0', ai: '^7.0.0' },
  peerDependenciesMeta: { '@ag-ui/client': { optional: true }, rxjs: { optional: true }, ai: { optional: true } },
  sideEffects: false,
};
writeFileSync(new URL('../pkg/package.json', import.meta.url), JSON.stringify(pkg, null, 2) + '\n');
