// Installs examples/react-chat's own dependencies (adk-wasm from ../../pkg, React, the AI SDK, Vite) when its
// package.json or lockfile changed since the last install: what a developer who copies the example runs.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';

const APP = new URL('../examples/react-chat/', import.meta.url).pathname;

export function installExample() {
  const stamp = `${APP}node_modules/.install-stamp`;
  const want = readFileSync(`${APP}package.json`, 'utf8') + (existsSync(`${APP}package-lock.json`) ? readFileSync(`${APP}package-lock.json`, 'utf8') : '');
  if (existsSync(stamp) && readFileSync(stamp, 'utf8') === want) return;
  execFileSync('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', '--loglevel=error'], { cwd: APP, stdio: ['ignore', 2, 2] });
  writeFileSync(stamp, readFileSync(`${APP}package.json`, 'utf8') + readFileSync(`${APP}package-lock.json`, 'utf8'));
}
