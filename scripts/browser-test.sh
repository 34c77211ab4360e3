#!/usr/bin/env bash
# The browser tests of the page of `roadbook serve` (Tests/Browser/test_editor.py): the real server
# on a copy of a book, the page in headless Chromium driven by Selenium. Makes a venv with Selenium
# under the cache (like the engines' venv of scripts/engines/common.sh) and runs the tests.
# Usage: scripts/browser-test.sh [unittest names, e.g. test_editor.EditorTests.test_undo_and_redo]
# Environment: ROADBOOK_BIN (default .build/debug/roadbook, built if missing), ROADBOOK_CACHE,
#   ROADBOOK_CHROMIUM, ROADBOOK_CHROMEDRIVER, ROADBOOK_BROWSER_ARTEFACTS (screenshots, default
#   .build/browser-artefacts), ROADBOOK_DOCS_SCREENSHOT=1 (copy the editor's screenshot to docs/).
# Exits 77 when Chromium cannot start here (no browser, or it fails to run headless): the caller
# decides whether that is a skip.
set -euo pipefail
cd "$(dirname "$0")/.."

cache="${ROADBOOK_CACHE:-$HOME/.cache/roadbook}"
venv="$cache/browser-venv"
selenium_version=4.51.0
chromium="${ROADBOOK_CHROMIUM:-/usr/bin/chromium}"
chromedriver="${ROADBOOK_CHROMEDRIVER:-/usr/bin/chromedriver}"

if [ ! -x "$chromium" ] || [ ! -x "$chromedriver" ]; then
  echo "browser-test: no Chromium ($chromium) or chromedriver ($chromedriver):" \
       "apt-get install chromium chromium-driver" >&2
  exit 77
fi
if ! "$chromium" --headless=new --no-sandbox --disable-gpu --dump-dom about:blank >/dev/null 2>&1; then
  echo "browser-test: Chromium does not start headless here ($chromium --headless=new)" >&2
  exit 77
fi

if ! "$venv/bin/python" -c 'import selenium, sys; sys.exit(selenium.__version__ != sys.argv[1])' "$selenium_version" 2>/dev/null; then
  echo "browser-test: installing selenium==$selenium_version into $venv" >&2
  mkdir -p "$cache"
  python3 -m venv "$venv"
  "$venv/bin/python" -m pip install --quiet --disable-pip-version-check "selenium==$selenium_version" \
    || { echo "error: pip could not install selenium (is PyPI reachable?)" >&2; exit 1; }
fi

export ROADBOOK_BIN="${ROADBOOK_BIN:-$PWD/.build/debug/roadbook}"
if [ ! -x "$ROADBOOK_BIN" ]; then
  swift build --product roadbook 2>&1 | grep -vE '^\[[0-9]+/[0-9]+\] ' || true
fi
export ROADBOOK_CHROMIUM="$chromium" ROADBOOK_CHROMEDRIVER="$chromedriver"
# Selenium must not look for a driver on the internet: the Debian one is given.
export SE_OFFLINE=true
cd Tests/Browser
exec "$venv/bin/python" -m unittest -v "${@:-test_editor}"
