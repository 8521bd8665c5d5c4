#!/usr/bin/env bash
# Builds the release npm package into pkg/: wasm-pack (web target), binaryen 132's wasm-opt, the
# hand-written JS entry and types, and the package.json. pkg/a2a/ is the same entry over a smaller
# module built without the `agents` feature (event model and A2A client only).
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$HOME/.cargo/bin:$PATH"

# The features rustc enables by default for wasm32-unknown-unknown; wasm-opt must be allowed to keep them.
optimize() {
  node_modules/.bin/wasm-opt "$1" -Oz \
    --enable-bulk-memory --enable-nontrapping-float-to-int --enable-sign-ext \
    --enable-mutable-globals --enable-reference-types --enable-multivalue \
    -o "$1"
}

wasm-pack --quiet build --release --target web --no-typescript --mode no-install --out-dir pkg --out-name adk_wasm
optimize pkg/adk_wasm_bg.wasm
cp src/js/index.js src/js/core.js src/js/index.d.ts src/js/README.md pkg/

wasm-pack --quiet build --release --target web --no-typescript --mode no-install --out-dir pkg/a2a --out-name adk_wasm \
  -- --no-default-features
optimize pkg/a2a/adk_wasm_bg.wasm
rm -f pkg/a2a/package.json pkg/a2a/README.md pkg/a2a/.gitignore
cp src/js/core.js pkg/a2a/core.js
cp src/js/a2a-entry.js pkg/a2a/index.js
cp src/js/a2a-entry.d.ts pkg/a2a/index.d.ts

node scripts/package-json.mjs
echo "[build] pkg/ ready ($(wc -c < pkg/adk_wasm_bg.wasm) bytes of wasm; pkg/a2a/: $(wc -c < pkg/a2a/adk_wasm_bg.wasm))"
