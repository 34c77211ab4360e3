#!/usr/bin/env bash
# Installs the Debian packages roadbook needs, only those missing, and puts the fonts the
# templates use into Fonts/. Safe to run again. Usage: scripts/install-deps.sh [build|test]
#   build: what building and printing need (C libraries, fonts)
#   test:  also the tools the tests compare against (GeographicLib, poppler, qpdf, xmllint, GDAL's ogrinfo and validate_gpkg.py)
#          and those that read what scripts/install.sh installs (man and groff, zsh), and the browser the
#          page of `roadbook serve` is tested in (Chromium and its driver)
set -euo pipefail
cd "$(dirname "$0")/.."

build_packages=(pkg-config libcairo2-dev libpango1.0-dev librsvg2-dev libcurl4-openssl-dev libexpat1-dev libfontconfig-dev zlib1g-dev libzip-dev libtiff-dev libsqlite3-dev libmicrohttpd-dev fonts-dejavu-core fonts-dejavu-extra)
test_packages=(geographiclib-tools poppler-utils qpdf libxml2-utils unzip gdal-bin python3-gdal man-db groff-base zsh chromium chromium-driver)

wanted=("${build_packages[@]}")
[ "${1:-build}" = test ] && wanted+=("${test_packages[@]}")

missing=()
for p in "${wanted[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "installing: ${missing[*]}" >&2
  sudo=""; [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

# The templates' fonts, loaded by the renderer from Fonts/ so output does not depend on what the
# system has installed. They come from Debian's fonts-dejavu-core and -extra and are not committed.
for f in DejaVuSans.ttf DejaVuSans-Bold.ttf DejaVuSans-Oblique.ttf DejaVuSans-BoldOblique.ttf; do
  src=/usr/share/fonts/truetype/dejavu/$f
  if [ ! -f "Fonts/$f" ] && [ -f "$src" ]; then cp "$src" "Fonts/$f"; fi
done
