#!/usr/bin/env bash
# Builds the release npm package into pkg/: wasm-pack (web target), binaryen 132's wasm-opt, the
# hand-written JS entry and types, and the package.json. pkg/a2a/ and pkg/server/ are smaller entries,
# each over a module built with one feature: the event model with the A2A client, or with the client
# of an ADK server (and Transcript).
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$HOME/.cargo/bin:$PATH"

# The features rustc enables by default for wasm32-unknown-unknown, and SIMD (.cargo/config.toml);
# wasm-opt must be allowed to keep them.
# -Os --converge, not -Oz: measured on the three modules at 3b9cd81, it is the smallest after gzip
# (full 491.2 -> 488.6 KiB, a2a 125.2 -> 124.8, server 100.8 -> 99.8; -Oz --converge gave 490.0 /
# 124.9 / 99.9, -O3 493.7 on the full one), though some KB larger before it. Rust's opt-level "s"
# instead of "z" made the full module 75 KiB larger.
# --low-memory-unused: the low 1 KiB of memory is the far end of Rust's stack (placed first, below
# the data at 1 MiB), never reached by an address that wraps past 4 GiB, so wasm-opt may fold
# added constants into load and store offsets: full -1.6 KiB gzip, a2a -0.6 (measured at 36da1a2;
# with it, -Oz was 0.06 smaller on the full module and 0.04 larger on a2a). The producers and
# target-features sections are read by no browser. Further passes after the first -Os, if any, are
# the rest of the arguments.
optimize() {
  local module=$1
  shift
  node_modules/.bin/wasm-opt "$module" -Os --converge "$@" --low-memory-unused --strip-producers --strip-target-features \
    --enable-bulk-memory --enable-nontrapping-float-to-int --enable-sign-ext \
    --enable-mutable-globals --enable-reference-types --enable-multivalue --enable-simd \
    -o "$module"
}

# Every call into the module goes through src/js/fatal.js's guard, so that a trap stops the instance
# with typed errors instead of leaving promises pending for ever. The pinned wasm-bindgen's glue has
# exactly one place where it takes the instance's exports; a newer one must be looked at again.
guard_glue() {
  node -e '
    const fs = require("fs");
    const file = process.argv[1];
    const glue = fs.readFileSync(file, "utf8");
    const from = "    wasm = instance.exports;\n";
    if (glue.split(from).length !== 2) throw new Error(`${file}: the glue does not take the exports in one place`);
    fs.writeFileSync(file, `import { guard } from "./fatal.js";\n${glue.replace(from, "    wasm = guard(instance.exports);\n")}`);
  ' "$1"
}

# wasm-bindgen's own declarations of the exports are not shipped (the package's types are the
# hand-written index.d.ts): they go to target/api/, where tests/api/check.mjs holds the hand-written
# ones to them, beside the guarded glue as it was before scripts/bundle.mjs bundled it into the entry.
generated_types() {
  mkdir -p target/api
  mv "$1/adk_wasm.d.ts" "target/api/$2.d.ts"
  rm -f "$1/adk_wasm_bg.wasm.d.ts"
  cp "$1/adk_wasm.js" "target/api/$2.glue.js"
}

# From an empty pkg/: what an earlier build left there would ship (the files list takes every map).
rm -rf pkg
wasm-pack --quiet build --release --target web --mode no-install --out-dir pkg --out-name adk_wasm
optimize pkg/adk_wasm_bg.wasm
guard_glue pkg/adk_wasm.js
node scripts/short-names.mjs pkg
generated_types pkg full
cp src/js/index.js src/js/core.js src/js/fatal.js src/js/user_input.js src/js/sign_in.js src/js/oauth-redirect.html src/js/oauth-redirect.js \
  src/js/a2a.js src/js/adk-server.js src/js/index.d.ts src/js/README.md src/js/worker.js src/js/worker.d.ts \
  src/js/chat-source.js src/js/ag-ui.js src/js/ag-ui-events.js src/js/ag-ui.d.ts src/js/ai-sdk.js src/js/ai-sdk.d.ts pkg/

# An entry over the module built with `feature` only: pkg/<feature>/index.js from src/js/<feature>-entry.js.
# Its dependencies (not the workspace's crates) at opt-level 3: measured at 8eb4978, gzip a2a 91 294 ->
# 90 779 B and server 69 122 -> 68 467 ("s": 90 966 / 68 748; 2: 90 925 / 68 692). The full module
# stays at "z" but for the four dependencies Cargo.toml sets otherwise, whose own settings would win
# over "*" here too: the two a slim module links (hashbrown, futures-util; indexmap is at 3 already,
# sha2 is not in them) are set back to 3 (at their Cargo.toml levels, a2a and server were ~70 B
# larger). Its dependencies all at 3 made the full module 2 410 B larger, at "s" 825.
# Its wasm-opt then rebuilds each function's control flow with binaryen's relooper and shrinks it
# again (--flatten --rereloop -Os; measured at 73ee939: a2a 90 570 -> 90 207 B, server 68 090 ->
# 67 782; A2A decoding as fast, timed with the pass on the full module; the server entry's streams
# were not timed). Not the full module: there it saved 954 B but made a JS agent's runs ~4 % slower
# (B/A 0.959, 0.974, 0.955, three alternated runs of 16 samples in one Node process).
slim() {
  local feature=$1
  shift
  wasm-pack --quiet build --release --target web --mode no-install --out-dir "pkg/$feature" \
    --out-name adk_wasm -- --no-default-features --features "$feature" --config 'profile.release.package."*".opt-level=3' \
    --config profile.release.package.hashbrown.opt-level=3 --config profile.release.package.futures-util.opt-level=3
  optimize "pkg/$feature/adk_wasm_bg.wasm" --flatten --rereloop -Os
  guard_glue "pkg/$feature/adk_wasm.js"
  node scripts/short-names.mjs "pkg/$feature"
  generated_types "pkg/$feature" "$feature"
  rm -f "pkg/$feature/package.json" "pkg/$feature/README.md" "pkg/$feature/.gitignore"
  cp "$@" "pkg/$feature/"
  cp "src/js/$feature-entry.js" "pkg/$feature/index.js"
  cp "src/js/$feature-entry.d.ts" "pkg/$feature/index.d.ts"
}
slim a2a src/js/core.js src/js/fatal.js src/js/a2a.js
slim server src/js/core.js src/js/fatal.js src/js/user_input.js src/js/sign_in.js src/js/oauth-redirect.html src/js/oauth-redirect.js \
  src/js/adk-server.js

node scripts/bundle.mjs
node scripts/package-json.mjs
echo "[build] pkg/ ready ($(wc -c < pkg/adk_wasm_bg.wasm) bytes of wasm; pkg/a2a/: $(wc -c < pkg/a2a/adk_wasm_bg.wasm); pkg/server/: $(wc -c < pkg/server/adk_wasm_bg.wasm))"
