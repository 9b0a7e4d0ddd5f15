#!/bin/sh
# Fresh machine → console on the embedded SQLite default with the demo data.
set -e
cd "$(dirname "$0")/.."
sh scripts/debian-deps.sh
[ -x .venv/bin/python ] || python3 -m venv .venv
.venv/bin/python -m pip install -q --upgrade pip >/dev/null
.venv/bin/python -m pip install -q -e .
.venv/bin/idc-console db upgrade
.venv/bin/idc-console demo load --if-empty
exec .venv/bin/idc-console "$@"
