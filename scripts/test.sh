#!/usr/bin/env bash
# The whole test suite: installs what is missing, starts the real engines the integration tests
# compare against (OSRM from the osrm-bindings wheel on 127.0.0.1, over the Andorra extract), runs
# every unit, golden, end-to-end and integration test (`swift test`), and stops the engines.
# Shared test data is found at ../shared/data beside the checkout, or at $ROADBOOK_DATA.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh test

data="${ROADBOOK_DATA:-$(cd .. && pwd)/shared/data}"
[ -f "$data/andorra/andorra.osm.pbf" ] || { echo "test data missing: $data/andorra/andorra.osm.pbf (set ROADBOOK_DATA)" >&2; exit 1; }
export ROADBOOK_DATA="$data"

# Real engines on loopback for the integration tests. The port is chosen free at run time.
cache="${ROADBOOK_CACHE:-$HOME/.cache/roadbook}"
export ROADBOOK_CACHE="$cache"
osrm_port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
scripts/engines/osrm.sh install
scripts/engines/osrm.sh prepare car "$data/andorra/andorra.osm.pbf" "$cache/osrm-car"
scripts/engines/osrm.sh start "$cache/osrm-car/andorra.osrm" "$osrm_port"
trap 'scripts/engines/osrm.sh stop "$osrm_port" || true' EXIT
export ROADBOOK_OSRM_URL="http://127.0.0.1:$osrm_port"

set +e
swift test 2>&1 | grep --line-buffered -vE '^\[[0-9]+/[0-9]+\] |prohibited flag\(s\)'
status=${PIPESTATUS[0]}
set -e
exit "$status"
