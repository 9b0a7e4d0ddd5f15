#!/bin/sh
# Fresh machine → the whole suite (SQLite always; PostgreSQL too when IDC_TEST_PG_URL is set).
set -e
cd "$(dirname "$0")/.."
sh scripts/debian-deps.sh
[ -x .venv/bin/python ] || python3 -m venv .venv
.venv/bin/python -m pip install -q --upgrade pip >/dev/null
.venv/bin/python -m pip install -q -e '.[test]'
QT_QPA_PLATFORM=offscreen exec .venv/bin/python -m pytest "$@"
