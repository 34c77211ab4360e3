#!/usr/bin/env bash
# The main job, offline: installs what is missing, builds roadbook (release), and prints the
# sample road book of the Andorra route to out/andorra-envalira.pdf (with its book file).
# Turn notes come from the junctions of the Andorra OpenStreetMap extract, and heights from its
# SRTM tile, when they are at hand (../shared/data beside the checkout, or $ROADBOOK_DATA);
# otherwise turns come from the track's shape and the book has no terrain.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh build
swift build -c release --product roadbook 2>&1 | grep -vE '^\[[0-9]+/[0-9]+\]|prohibited flag' || true
bin=$(swift build -c release --show-bin-path)/roadbook
data="${ROADBOOK_DATA:-$(cd .. && pwd)/shared/data}/andorra"
extras=()
if [ -f "$data/andorra.osm.pbf" ]; then
  extras+=(--osm "$data/andorra.osm.pbf")
  echo "turn notes from the junctions of $data/andorra.osm.pbf" >&2
else
  echo "no OpenStreetMap extract at $data: turn notes from the track's shape" >&2
fi
if [ -f "$data/N42E001.hgt.zip" ]; then
  extras+=(--dem "$data/N42E001.hgt.zip")
else
  echo "no SRTM tile at $data: the book has no terrain" >&2
fi
mkdir -p out
"$bin" build samples/andorra-envalira.gpx -o out/andorra-envalira.pdf --book out/andorra-envalira.json "${extras[@]}" \
  --rally "Andorra Test Rally" --stage "Stage 1: Sant Julià – Pas de la Casa" --date 2026-11-29
"$bin" tulip out/andorra-envalira.json --sheet -o out/andorra-envalira-tulips.png
if [ -f "$data/N42E001.hgt.zip" ]; then "$bin" profile out/andorra-envalira.json -o out/andorra-envalira-profile.png; fi
"$bin" inspect out/andorra-envalira.json
