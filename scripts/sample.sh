#!/usr/bin/env bash
# The main job, offline: installs what is missing, builds roadbook (release), and prints the
# sample road book of the Andorra route to out/andorra-envalira.pdf (with its book file), with the
# notes an organiser adds by hand (samples/andorra-envalira.notes), and in French to
# out/andorra-envalira-fr.pdf.
# Turn notes come from the junctions of the Andorra OpenStreetMap extract and heights from its
# SRTM tile, both committed in samples/data (see samples/data/README.md for their licences).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh build
swift build -c release --product roadbook 2>&1 | grep -vE '^\[[0-9]+/[0-9]+\]|prohibited flag' || true
bin=$(swift build -c release --show-bin-path)/roadbook
data=samples/data/andorra
mkdir -p out
"$bin" build samples/andorra-envalira.gpx -o out/andorra-envalira.pdf --book out/andorra-envalira.json --osm "$data/andorra.osm.pbf" --dem "$data/N42E001.hgt.zip" \
  --rally "Andorra Test Rally" --stage "Stage 1: Sant Julià – Pas de la Casa" --date 2026-11-29
# The organiser's own notes, one `roadbook note` a line; then the book printed again with them,
# in English and in French, and checked.
grep -v '^#' samples/andorra-envalira.notes | xargs -L1 "$bin" note out/andorra-envalira.json >/dev/null
"$bin" render out/andorra-envalira.json -o out/andorra-envalira.pdf
"$bin" render out/andorra-envalira.json -o out/andorra-envalira-fr.pdf --language fr
"$bin" check out/andorra-envalira.json
"$bin" tulip out/andorra-envalira.json --sheet -o out/andorra-envalira-tulips.png
"$bin" profile out/andorra-envalira.json -o out/andorra-envalira-profile.png
"$bin" inspect out/andorra-envalira.json
