#!/usr/bin/env bash
# Speed and memory figures: builds roadbook in release, compiles the plain C floor that the
# renderer is compared with, and runs the benchmark executable. Usage: scripts/bench.sh [--only NAME]
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh build
swift build -c release 2>&1 | grep -vE '^\[[0-9]+/[0-9]+\] |prohibited flag' || true
bin=$(swift build -c release --show-bin-path)
floor="$bin/roadbook-floor"
cc -O2 scripts/bench/floor.c $(pkg-config --cflags --libs pangocairo) -o "$floor"
exec "$bin/roadbook-bench" --floor "$floor" "$@"
