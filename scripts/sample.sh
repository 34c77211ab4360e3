#!/usr/bin/env bash
# The main job, offline: installs what is missing, builds roadbook (release), and prints the
# sample road book of the Andorra route to out/andorra-envalira.pdf (with its book file).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh build
swift build -c release --product roadbook 2>&1 | grep -vE '^\[[0-9]+/[0-9]+\]|prohibited flag' || true
bin=$(swift build -c release --show-bin-path)/roadbook
mkdir -p out
"$bin" build samples/andorra-envalira.gpx -o out/andorra-envalira.pdf --book out/andorra-envalira.json \
  --rally "Andorra Test Rally" --stage "Stage 1: Sant Julià – Pas de la Casa" --date 2026-11-29
"$bin" inspect out/andorra-envalira.json
