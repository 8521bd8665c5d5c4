#!/usr/bin/env bash
# Builds the release npm package into pkg/: wasm-pack (web target), binaryen 132's wasm-opt, the
# hand-written JS entry and types, and the package.json.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$HOME/.cargo/bin:$PATH"

wasm-pack --quiet build --release --target web --no-typescript --mode no-install --out-dir pkg --out-name adk_wasm

# The features rustc enables by default for wasm32-unknown-unknown; wasm-opt must be allowed to keep them.
node_modules/.bin/wasm-opt pkg/adk_wasm_bg.wasm -Oz \
  --enable-bulk-memory --enable-nontrapping-float-to-int --enable-sign-ext \
  --enable-mutable-globals --enable-reference-types --enable-multivalue \
  -o pkg/adk_wasm_bg.wasm

cp src/js/index.js src/js/index.d.ts src/js/README.md pkg/
node scripts/package-json.mjs
echo "[build] pkg/ ready ($(wc -c < pkg/adk_wasm_bg.wasm) bytes of wasm)"
