#!/usr/bin/env bash
# Speed and memory figures: builds roadbook in release, compiles the plain C floors that the
# renderer and the GPX reader are compared with, and runs the benchmark executable.
# Usage: scripts/bench.sh [--only NAME] (roadbook-bench --help lists the rest; --only editor runs
# scripts/bench-editor.sh)
set -euo pipefail
cd "$(dirname "$0")/.."
# The editor's figures come from a browser, not from roadbook-bench: scripts/bench-editor.sh.
if [ "${1:-}" = "--only" ] && [ "${2:-}" = "editor" ]; then exec scripts/bench-editor.sh; fi
scripts/install-deps.sh build
swift build -c release 2>&1 | grep -vE '^\[[0-9]+/[0-9]+\] |prohibited flag' || true
bin=$(swift build -c release --show-bin-path)
floor="$bin/roadbook-floor"
gpx_floor="$bin/roadbook-gpx-floor"
cc -O2 scripts/bench/floor.c $(pkg-config --cflags --libs pangocairo) -lm -o "$floor"
cc -O2 scripts/bench/gpx-floor.c $(pkg-config --cflags --libs expat) -o "$gpx_floor"
exec "$bin/roadbook-bench" --floor "$floor" --gpx-floor "$gpx_floor" "$@"
