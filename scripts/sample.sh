#!/usr/bin/env bash
# The main job, offline: installs what is missing, builds roadbook (release), and prints the
# sample road book of the Andorra route to out/andorra-envalira.pdf (with its book file).
# Turn notes come from the junctions of the Andorra OpenStreetMap extract when it is at hand
# (../shared/data beside the checkout, or $ROADBOOK_DATA); otherwise from the track's shape.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh build
swift build -c release --product roadbook 2>&1 | grep -vE '^\[[0-9]+/[0-9]+\]|prohibited flag' || true
bin=$(swift build -c release --show-bin-path)/roadbook
extract="${ROADBOOK_DATA:-$(cd .. && pwd)/shared/data}/andorra/andorra.osm.pbf"
osm=()
if [ -f "$extract" ]; then
  osm=(--osm "$extract")
  echo "turn notes from the junctions of $extract" >&2
else
  echo "no OpenStreetMap extract at $extract: turn notes from the track's shape" >&2
fi
mkdir -p out
"$bin" build samples/andorra-envalira.gpx -o out/andorra-envalira.pdf --book out/andorra-envalira.json "${osm[@]}" \
  --rally "Andorra Test Rally" --stage "Stage 1: Sant Julià – Pas de la Casa" --date 2026-11-29
"$bin" tulip out/andorra-envalira.json --sheet -o out/andorra-envalira-tulips.png
"$bin" inspect out/andorra-envalira.json
