// Debian's headless Chromium through playwright-core: never a downloaded browser.
import { chromium } from 'playwright-core';

export const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-quic',
  '--disable-background-networking', '--disable-component-update', '--disable-sync'];

/** Launches /usr/bin/chromium (or $CHROMIUM). */
export function launchChromium() {
  return chromium.launch({ executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium', args: CHROMIUM_ARGS });
}

/**
 * A browser context on a fresh profile directory (removed when the context closes). Unlike the
 * off-the-record contexts of `launchChromium().newContext()`, its storage obeys the DevTools
 * protocol's `Storage.overrideQuotaForOrigin`.
 */
export async function launchChromiumProfile() {
  const { mkdtempSync, rmSync } = await import('node:fs');
  const { tmpdir } = await import('node:os');
  const dir = mkdtempSync(`${tmpdir()}/adk-wasm-profile-`);
  const context = await chromium.launchPersistentContext(dir, { executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium', args: CHROMIUM_ARGS });
  // Chromium may still be writing the profile as the context closes: retry, and let a leftover go.
  context.on('close', () => {
    try {
      rmSync(dir, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 });
    } catch {}
  });
  return context;
}
