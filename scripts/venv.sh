#!/usr/bin/env bash
# Creates .venv/NAME with the pinned packages of a requirements file, for the Python test servers:
#   scripts/venv.sh NAME REQUIREMENTS_FILE 'python import check'
#   scripts/venv.sh a2a tests/a2a/requirements.txt 'import a2a, google.adk.a2a, uvicorn'
#   scripts/venv.sh adk-2.13.0 tests/adk_server/requirements-2.13.0.txt 'import google.adk, uvicorn'
# Paths are relative to the repository root. A stamp holding the requirement list and the interpreter
# version makes a second run a no-op. Progress goes to stderr; stdout stays empty.
set -euo pipefail
cd "$(dirname "$0")/.."

[ $# -eq 3 ] || { printf 'usage: %s NAME REQUIREMENTS_FILE IMPORT_CHECK\n' "$0" >&2; exit 2; }
NAME=$1
REQS=$2
CHECK=$3

say() { printf '[venv %s] %s\n' "$NAME" "$*" >&2; }
die() { printf '[venv %s] ERROR: %s\n' "$NAME" "$*" >&2; exit 1; }

[[ $NAME =~ ^[A-Za-z0-9][A-Za-z0-9._-]*$ ]] || die "bad venv name '$NAME'"
[ -f "$REQS" ] || die "no requirements file $REQS"

VENV=.venv/$NAME
STAMP=$VENV/.requirements.stamp

# google-adk 2.x needs Python >= 3.10; prefer 3.11, the version the servers are written against.
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

say "installing $(grep -cv '^\s*\(#\|$\)' "$REQS") pinned requirements from $REQS"
"$VENV/bin/python" -m pip install --quiet --disable-pip-version-check -r "$REQS" >&2
"$VENV/bin/python" -c "$CHECK" >&2 || die "installed packages do not import ($CHECK)"
printf '%s' "$want" > "$STAMP"
# The versions actually installed, for the log: every package the requirements file names.
names=$(sed -e 's/#.*//' -e 's/[][ =<>~!;].*//' "$REQS" | grep -v '^$' || true)
# shellcheck disable=SC2086
say "ok: $("$VENV/bin/python" -m pip show $names 2>/dev/null | awk '/^(Name|Version):/{printf "%s ", $2}')"
