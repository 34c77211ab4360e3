#!/usr/bin/env bash
# The editor benchmark (scripts/bench/editor-bench.py): the page of `roadbook serve` in headless
# Chromium on a 2,000-row book and on a handles book routed by the embedded router over the
# prepared Andorra extract, timed by the page's own marks on Chromium's performance timeline.
# Builds roadbook in release and uses the venv with Selenium that scripts/browser-test.sh makes.
# Usage: scripts/bench-editor.sh   (also: scripts/bench.sh --only editor)
# Environment: ROADBOOK_BIN (default: the release build), ROADBOOK_CACHE, ROADBOOK_CHROMIUM,
#   ROADBOOK_CHROMEDRIVER, ROADBOOK_EDITOR_LOADS (5), ROADBOOK_EDITOR_DRAGS (10).
set -euo pipefail
cd "$(dirname "$0")/.."

venv="${ROADBOOK_CACHE:-$HOME/.cache/roadbook}/browser-venv"
chromium="${ROADBOOK_CHROMIUM:-/usr/bin/chromium}"
chromedriver="${ROADBOOK_CHROMEDRIVER:-/usr/bin/chromedriver}"
if [ ! -x "$chromium" ] || [ ! -x "$chromedriver" ]; then
  echo "bench-editor: no Chromium ($chromium) or chromedriver ($chromedriver):" \
       "apt-get install chromium chromium-driver" >&2
  exit 77
fi
if ! "$venv/bin/python" -c 'import selenium' 2>/dev/null; then
  echo "bench-editor: no venv with Selenium in $venv: run scripts/browser-test.sh once to make it" >&2
  exit 1
fi

if [ -z "${ROADBOOK_BIN:-}" ]; then
  swift build -c release --product roadbook 2>&1 | grep -vE '^\[[0-9]+/[0-9]+\] |prohibited flag' || true
  export ROADBOOK_BIN="$(swift build -c release --show-bin-path)/roadbook"
fi
export ROADBOOK_CHROMIUM="$chromium" ROADBOOK_CHROMEDRIVER="$chromedriver" SE_OFFLINE=true
echo "bench-editor: load average $(cut -d' ' -f1-3 /proc/loadavg)"
exec "$venv/bin/python" scripts/bench/editor-bench.py
