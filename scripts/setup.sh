#!/usr/bin/env bash
# Installs what the build and the tests need and is missing; touches nothing that is already right.
# Run by `make demo` and `make test`; safe to run any number of times.
set -euo pipefail
cd "$(dirname "$0")/.."

say() { printf '[setup] %s\n' "$*"; }
die() { printf '[setup] ERROR: %s\n' "$*" >&2; exit 1; }

export PATH="$HOME/.cargo/bin:$PATH"

# The wasm-bindgen CLI must match the crate exactly, or wasm-pack tries a download that fails here.
WB_VERSION=$(sed -n 's/^wasm-bindgen = { *version = "=\([0-9.]*\)".*/\1/p; s/^wasm-bindgen = "=\([0-9.]*\)"/\1/p' Cargo.toml | head -n1)
[ -n "$WB_VERSION" ] || die "could not read the pinned wasm-bindgen version from Cargo.toml"

if ! rustup target list --installed | grep -qx wasm32-unknown-unknown; then
  say "installing rust target wasm32-unknown-unknown"
  rustup target add wasm32-unknown-unknown
fi

have_wb=$(wasm-bindgen --version 2>/dev/null | awk '{print $2}' || true)
if [ "$have_wb" != "$WB_VERSION" ]; then
  say "installing wasm-bindgen-cli $WB_VERSION (found: ${have_wb:-none})"
  cargo install wasm-bindgen-cli --version "$WB_VERSION" --force
  have_wb=$(wasm-bindgen --version | awk '{print $2}')
  [ "$have_wb" = "$WB_VERSION" ] || die "wasm-bindgen is $have_wb after install, expected $WB_VERSION"
fi

if ! command -v wasm-pack >/dev/null 2>&1; then
  say "installing wasm-pack"
  cargo install wasm-pack --locked
fi

if ! command -v chromium >/dev/null 2>&1 || ! command -v chromedriver >/dev/null 2>&1; then
  say "installing Debian chromium and chromium-driver"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq chromium chromium-driver >/dev/null
fi
# Korean, Chinese and emoji glyphs in the demo's screenshots (the page tests read text, not pixels).
if ! fc-list 2>/dev/null | grep -qi "Noto Sans CJK" || ! fc-list 2>/dev/null | grep -qi "Noto Color Emoji"; then
  say "installing fonts-noto-cjk and fonts-noto-color-emoji"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq fonts-noto-cjk fonts-noto-color-emoji >/dev/null
fi
cv=$(chromium --version 2>/dev/null | grep -o '[0-9]*\.' | head -n1)
dv=$(chromedriver --version 2>/dev/null | grep -o '[0-9]*\.' | head -n1)
[ "$cv" = "$dv" ] || die "chromium ($cv) and chromedriver ($dv) major versions differ"

# Node tooling (playwright-core driving Debian's chromium, binaryen's wasm-opt) from the lock file.
if [ ! -d node_modules ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  say "installing node packages"
  npm ci --no-audit --no-fund --loglevel=error
fi
wo=$(node_modules/.bin/wasm-opt --version 2>/dev/null || true)
case "$wo" in
  *"version 132"*) ;;
  *) die "node_modules/.bin/wasm-opt is not binaryen 132 (got: ${wo:-nothing}); Debian's 108 breaks release builds" ;;
esac

say "ok: wasm-bindgen $WB_VERSION, $(wasm-pack --version), $(chromium --version 2>/dev/null | head -n1), wasm-opt ${wo}"
