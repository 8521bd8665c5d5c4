#!/usr/bin/env bash
# What each function of the wasm costs, for size work: builds the module of one entry with names
# kept (`full`, `a2a` or `server`; `none`, the event model every entry carries, built with no feature
# at all), optimises it with wasm-opt -Oz -g (names kept; -Oz as when the size issue began, so
# that its first tables compare: scripts/build.sh ships -Os --converge and more), and prints
# twiggy's top N and the bytes per module path (two segments deep, or DEPTH). Needs twiggy
# (`cargo install twiggy --locked`). Sizes are raw bytes of the optimised module, before gzip; the
# names section is left out of the sums.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$HOME/.cargo/bin:$PATH"
entry=${1:-full}
top=${2:-20}
depth=${DEPTH:-2}
case $entry in
  full) features=() ;;
  a2a | server) features=(--no-default-features --features "$entry") ;;
  none) features=(--no-default-features) ;;
  *) echo "usage: scripts/twiggy.sh full|a2a|server|none [N]" >&2; exit 2 ;;
esac
out=target/twiggy/$entry
mkdir -p "$out"
cargo build --quiet --release --target wasm32-unknown-unknown --lib "${features[@]}"
wasm-bindgen --target web --keep-debug --out-dir "$out" target/wasm32-unknown-unknown/release/adk_wasm.wasm
node_modules/.bin/wasm-opt "$out/adk_wasm_bg.wasm" -Oz -g \
  --enable-bulk-memory --enable-nontrapping-float-to-int --enable-sign-ext \
  --enable-mutable-globals --enable-reference-types --enable-multivalue -o "$out/named.wasm"
twiggy top -n "$top" "$out/named.wasm"
twiggy top -n 1000000 -f csv "$out/named.wasm" > "$out/items.csv"
python3 - "$out/items.csv" "$depth" <<'PY'
import collections, csv, re, sys
path, depth = sys.argv[1], int(sys.argv[2])
size, count = collections.Counter(), collections.Counter()
for row in csv.DictReader(open(path)):
    name, bytes_ = row['Name'], int(row['ShallowSize'])
    if 'names" subsection' in name:
        continue
    if name.startswith('data segment'):
        key = '(data)'
    elif 'drop_in_place' in name:
        key = '(drop glue)'
    elif 'shim' in name:
        key = '(export shims)'
    else:
        # A closure or other generic type implementing a trait (`<F as adk_core::json::read::OnMember>`)
        # is counted under the trait's path: that is the code that takes it.
        generic = re.match(r'<[A-Z]\w? as ([A-Za-z_][\w:]*)', name)
        m = generic or re.match(r'<?([A-Za-z_]\w*(?:\[[0-9a-f]+\])?(?:::[A-Za-z_]\w*)*)', name)
        key = '::'.join(re.sub(r'\[[0-9a-f]+\]', '', m.group(1)).split('::')[:depth]) if m else name[:40]
    size[key] += bytes_
    count[key] += 1
print(f'\nbytes per module path ({sum(size.values())} in all, names left out)')
for key, bytes_ in size.most_common(30):
    print(f'{bytes_:9d} {count[key]:6d}  {key}')
PY
