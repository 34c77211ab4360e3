#!/usr/bin/env bash
# The turn-quality benchmark over the OpenStreetMap extracts of samples/data, each against a real
# OSRM serving that extract: for every region, prepares OSRM's car dataset (once; skipped while the
# extract and OSRM are unchanged), serves it on a free loopback port, runs
# `roadbook-bench --only turns-quality` and stops the server.
# Usage: scripts/bench-regions.sh [REGION...]
#   REGION is a folder of samples/data holding REGION.osm.pbf; default: all six (Andorra, central
#   Helsinki, Monaco, north of Bayreuth, Krems, Campo Grande). ROADBOOK_TURNS_SEED and
#   ROADBOOK_TURNS_ROUTES pick other routes or more of them, as for the benchmark itself.
set -euo pipefail
cd "$(dirname "$0")/.."
regions=("$@")
[ ${#regions[@]} -gt 0 ] || regions=(andorra helsinki monaco north-bayreuth krems campo-grande)
for region in "${regions[@]}"; do
  [ -f "samples/data/$region/$region.osm.pbf" ] || { echo "error: no samples/data/$region/$region.osm.pbf" >&2; exit 1; }
done
# shellcheck source=engines/common.sh
source scripts/engines/common.sh
port=""
trap '[ -z "$port" ] || scripts/engines/osrm.sh stop "$port" >/dev/null 2>&1 || true' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

scripts/install-deps.sh build
scripts/engines/osrm.sh install
swift build -c release --product roadbook-bench 2>&1 | grep -vE '^\[[0-9]+/[0-9]+\] |prohibited flag' || true
bench="$(swift build -c release --show-bin-path)/roadbook-bench"
for region in "${regions[@]}"; do
  data=$(scripts/engines/osrm.sh prepare car "samples/data/$region/$region.osm.pbf" "$ROADBOOK_CACHE/osrm-car-$region")
  port=$(rb_free_port)
  url=$(scripts/engines/osrm.sh start "$data" "$port")
  echo "== $region"
  "$bench" --only turns-quality --osrm "$url" --extract "samples/data/$region/$region.osm.pbf"
  scripts/engines/osrm.sh stop "$port" >/dev/null
  port=""
done
