// Debian's headless Chromium through playwright-core: never a downloaded browser.
import { chromium } from 'playwright-core';

export const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-quic',
  '--disable-background-networking', '--disable-component-update', '--disable-sync'];

/** Launches /usr/bin/chromium (or $CHROMIUM). */
export function launchChromium() {
  return chromium.launch({ executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium', args: CHROMIUM_ARGS });
}
