// What the page tests publish for tests/browser/run.mjs to read.
interface Window {
  __results: { passed: number; failed: number; failures: string[]; notes?: string[]; done: boolean };
}
