import { defineConfig, searchForWorkspaceRoot } from 'vite';

export default defineConfig({
  // JSX through Vite's own esbuild (React 17+'s automatic runtime): no plugin needed.
  esbuild: { jsx: 'automatic' },
  // Vite's dev-time pre-bundling would move adk-wasm's glue away from its .wasm (the glue finds it through
  // `new URL(…, import.meta.url)`): serve the package as it is.
  optimizeDeps: { exclude: ['adk-wasm'] },
  server: {
    host: '127.0.0.1',
    // This example links adk-wasm from the repository's pkg/ (`file:../../pkg`), outside this folder, which
    // Vite's dev server does not serve by default; an app that installs adk-wasm from npm needs no `fs`.
    fs: { allow: [searchForWorkspaceRoot(process.cwd()), '../../pkg'] },
  },
});
