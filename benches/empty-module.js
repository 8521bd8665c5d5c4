// An empty module: benches/browser.mjs imports it as it imports each entry, so that what the page,
// the browser and the harness take before any byte of adk-wasm is measured beside the entries.
