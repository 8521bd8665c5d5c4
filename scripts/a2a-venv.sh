#!/usr/bin/env bash
# Creates .venv/a2a with the pinned packages of tests/a2a/requirements.txt for the A2A test peers.
# A stamp holding the requirement list and the interpreter version makes a second run a no-op.
set -euo pipefail
cd "$(dirname "$0")/.."

say() { printf '[a2a-venv] %s\n' "$*" >&2; }
die() { printf '[a2a-venv] ERROR: %s\n' "$*" >&2; exit 1; }

VENV=.venv/a2a
REQS=tests/a2a/requirements.txt
STAMP=$VENV/.requirements.stamp

# google-adk 2.x needs Python >= 3.10; prefer 3.11, the version the peers are written against.
PY=""
for cand in python3.11 python3.12 python3.13 python3.10 python3; do
  if command -v "$cand" >/dev/null 2>&1 &&
     "$cand" -c 'import sys; sys.exit(sys.version_info < (3, 10))' 2>/dev/null; then
    PY=$(command -v "$cand"); break
  fi
done
[ -n "$PY" ] || die "no Python >= 3.10 found (apt-get install python3)"

pyver() { "$1" -c 'import sys; print(sys.version.split()[0])' 2>/dev/null; }
want="$(pyver "$PY")
$(cat "$REQS")"
[ -f "$STAMP" ] && [ "$(cat "$STAMP")" = "$want" ] && [ -x "$VENV/bin/python" ] && exit 0

# A venv made by another interpreter (or a broken one) is rebuilt rather than patched.
if [ "$(pyver "$VENV/bin/python")" != "$(pyver "$PY")" ]; then
  say "creating $VENV with $PY"
  rm -rf "$VENV"
  if ! "$PY" -m venv "$VENV" 2>/dev/null; then
    # Debian's python3 ships venv (ensurepip) separately.
    say "installing python3-venv"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq && apt-get install -y -qq python3-venv >/dev/null
    rm -rf "$VENV"
    "$PY" -m venv "$VENV"
  fi
fi

say "installing $(grep -cv '^\s*\(#\|$\)' "$REQS") pinned requirements"
"$VENV/bin/python" -m pip install --quiet --disable-pip-version-check -r "$REQS"
"$VENV/bin/python" -c 'import a2a, google.adk.a2a, uvicorn' || die "installed packages do not import"
printf '%s' "$want" > "$STAMP"
say "ok: $("$VENV/bin/python" -m pip show a2a-sdk google-adk 2>/dev/null | awk '/^(Name|Version):/{printf "%s ", $2}')"
