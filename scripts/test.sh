#!/usr/bin/env bash
# The whole test suite: installs what is missing, then runs every unit, golden, end-to-end and
# integration test (`swift test`). Tests that need ../shared/data find it there or at $ROADBOOK_DATA.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh test

set +e
swift test 2>&1 | grep --line-buffered -vE '^\[[0-9]+/[0-9]+\] |prohibited flag\(s\)'
status=${PIPESTATUS[0]}
set -e
exit "$status"
