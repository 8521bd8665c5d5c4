# The two commands a new machine needs: `make demo` and `make test`. Both install what is missing first.
SHELL := /bin/bash
export PATH := $(HOME)/.cargo/bin:$(PATH)
export CHROMEDRIVER ?= /usr/bin/chromedriver

.PHONY: setup build test test-native test-wasm test-browser demo size bench

setup:
	@bash scripts/setup.sh

build: setup
	@bash scripts/build.sh

## Everything CI runs: native tests, clippy (native and wasm32), wasm-bindgen tests in headless
## Chromium, then the release package loaded in headless Chromium.
test: setup test-native test-wasm build test-browser

test-native:
	cargo fmt --all --check
	python3 scripts/layers.py
	cargo test --workspace --all-targets
	cargo clippy --workspace --all-targets -- -D warnings
	cargo clippy --workspace --target wasm32-unknown-unknown --all-targets -- -D warnings
	cargo clippy --target wasm32-unknown-unknown --no-default-features --lib -- -D warnings

test-wasm:
	wasm-pack test --headless --chrome --mode no-install

test-browser:
	node_modules/.bin/tsc -p tests/types/tsconfig.json
	node tests/browser/run.mjs
	node tests/consumer/run.mjs
	node tests/demo/demo.test.mjs

demo: build
	node scripts/demo.mjs

size: build
	@node scripts/size.mjs

## Benchmarks (numbers, not pass/fail): per-op cost of the session service at 1k/10k/100k events,
## and events/s through InMemoryRunner against @google/adk in one Node process.
bench: build
	cargo bench --bench sessions
	node --expose-gc benches/runner.mjs
	node benches/a2a.mjs
