// A module with nothing but a no-op `init`: benches/browser.mjs imports it and awaits its default as
// it does each entry's, so that what the page, the browser and the harness take before any byte of
// adk-wasm is measured beside the entries.
export default async function init() {}
