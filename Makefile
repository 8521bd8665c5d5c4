# The two commands a new machine needs: `make demo` and `make test`. Both install what is missing first.
SHELL := /bin/bash
export PATH := $(HOME)/.cargo/bin:$(PATH)
export CHROMEDRIVER ?= /usr/bin/chromedriver

.PHONY: setup build test test-native test-wasm test-browser demo example size bench fuzz

setup:
	@bash scripts/setup.sh

build: setup
	@bash scripts/build.sh

## Everything CI runs: native tests, clippy (native and wasm32), rustdoc without warnings, the module layers, wasm-bindgen tests
## in headless Chromium, the release package against its size budget, its exports against its types
## and wasm-bindgen's, then loaded in headless Chromium.
test: setup test-native test-wasm size test-browser

test-native:
	cargo fmt --all --check
	python3 scripts/layers.py
	cargo test --workspace --all-targets
	cargo clippy --workspace --all-targets -- -D warnings
	cargo clippy --workspace --target wasm32-unknown-unknown --all-targets -- -D warnings
	cargo clippy --target wasm32-unknown-unknown --no-default-features --features a2a --lib -- -D warnings
	cargo clippy --target wasm32-unknown-unknown --no-default-features --features server --lib -- -D warnings
	RUSTDOCFLAGS="-D warnings" cargo doc --workspace --no-deps

test-wasm:
	wasm-pack test --headless --chrome --mode no-install

test-browser:
	node_modules/.bin/tsc -p tests/types/tsconfig.json
	node_modules/.bin/tsc -p tests/browser/tsconfig.json
	node tests/api/check.mjs
	node tests/platform/body.test.mjs
	node tests/browser/run.mjs
	node tests/browser/indexeddb.mjs
	node tests/consumer/run.mjs
	node tests/example/run.mjs
	node tests/demo/demo.test.mjs

## Fuzzing: each native decoder target, then the JS API page, for FUZZ_SECONDS each from a random seed
## (printed; FUZZ_SEED=<seed> repeats a native run, the page takes ?seed=). `make test` runs both's fixed pass.
FUZZ_SECONDS ?= 60
fuzz: build
	FUZZ_SECONDS=$(FUZZ_SECONDS) cargo test --release --test fuzz -- --nocapture
	FUZZ_SECONDS=$(FUZZ_SECONDS) node tests/browser/run.mjs tests/browser/fuzz.html

demo: build
	node scripts/demo.mjs

## The React chat of examples/react-chat (Vite's dev server, `useChat` on adk-wasm) beside a real ADK server.
example: build
	node scripts/example.mjs

size: build
	@node scripts/size.mjs

## Benchmarks (numbers, not pass/fail, each side by side with its JS peer in one run): the session
## service's per-op cost at 1k/10k/100k events; the runner against @google/adk (throughput, cost
## against stored history, wasm memory over 1 000 runs); A2A stream decoding in Chromium against
## @a2a-js/sdk and a fetch + JSON.parse floor; import + init() in Chromium; the IndexedDB session
## service beside the in-memory one at 1k/10k/100k stored events.
bench: build
	cargo bench --bench sessions
	node --expose-gc benches/runner.mjs
	node benches/a2a.mjs
	node benches/browser.mjs
