#!/usr/bin/env bash
# The whole test suite: installs what is missing, starts the real engines the integration tests
# compare against (OSRM from the osrm-bindings wheel and Valhalla from the pyvalhalla wheel, on
# 127.0.0.1, over the Andorra extract; ROADBOOK_OSRM_URL and ROADBOOK_VALHALLA_URL), runs
# every unit, golden, end-to-end and integration test (`swift test`, the hostile-input corpus on the
# release binary), runs the kill test (`scripts/kill-test.sh`) and the install test
# (`scripts/install-test.sh`), and fuzzes each parser for a short while (scripts/fuzz.sh).
# The test data (the Andorra extract and SRTM tile) is committed in samples/data.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh test

data="$PWD/samples/data"

# Real engines on loopback for the integration tests: OSRM and Valhalla over the Andorra extract,
# Valhalla with the Andorra SRTM3 tile upsampled to the 1-arc-second tile its /height reads, and a
# second OSRM over the extract with test turn restrictions (andorra-restrictions.osm.pbf).
# Ports are chosen free at run time; the engines are stopped on exit, whatever happens.
cache="${ROADBOOK_CACHE:-$HOME/.cache/roadbook}"
export ROADBOOK_CACHE="$cache"
osrm_port=""
osrm_restrictions_port=""
valhalla_port=""
stop_engines() {
  [ -z "$osrm_port" ] || scripts/engines/osrm.sh stop "$osrm_port" || true
  [ -z "$osrm_restrictions_port" ] || scripts/engines/osrm.sh stop "$osrm_restrictions_port" || true
  [ -z "$valhalla_port" ] || scripts/engines/valhalla.sh stop "$valhalla_port" || true
}
trap stop_engines EXIT
# Without these, SIGINT/SIGTERM would end the script without running the EXIT trap.
trap 'exit 130' INT
trap 'exit 143' TERM

# shellcheck source=engines/common.sh
source scripts/engines/common.sh

# start_engine VAR SCRIPT DATA: starts SCRIPT on a free port and stores the port in VAR. A free
# port can be taken between choosing and binding it, so a port clash is retried on another port
# (three tries); any other failure ends the run at once with the engine's error and log tail.
start_engine() {
  local var="$1" script="$2" data="$3" port attempt err
  for attempt in 1 2 3; do
    port=$(rb_free_port)
    printf -v "$var" '%s' "$port"
    if err=$("$script" start "$data" "$port" 2>&1 >/dev/null); then
      printf '%s\n' "$err" >&2
      return 0
    fi
    printf -v "$var" '%s' ""
    printf '%s\n' "$err" >&2
    case "$err" in
      *"in use"*) echo "$(basename "$script"): port $port was taken (attempt $attempt of 3)" >&2 ;;
      *) break ;;
    esac
  done
  echo "error: $(basename "$script") could not start; its error and log are above" >&2
  exit 1
}

scripts/engines/osrm.sh install
scripts/engines/osrm.sh prepare car "$data/andorra/andorra.osm.pbf" "$cache/osrm-car" >/dev/null
start_engine osrm_port scripts/engines/osrm.sh "$cache/osrm-car/andorra.osrm"
export ROADBOOK_OSRM_URL="http://127.0.0.1:$osrm_port"
scripts/engines/osrm.sh prepare car "$data/andorra/andorra-restrictions.osm.pbf" "$cache/osrm-car-restrictions" >/dev/null
start_engine osrm_restrictions_port scripts/engines/osrm.sh "$cache/osrm-car-restrictions/andorra-restrictions.osrm"
export ROADBOOK_OSRM_RESTRICTIONS_URL="http://127.0.0.1:$osrm_restrictions_port"

elevation="$cache/elevation"
hgt_src="$data/andorra/N42E001.hgt.zip"
hgt="$elevation/N42/N42E001.hgt"
if [ ! -f "$hgt" ] || [ "$hgt_src" -nt "$hgt" ] || [ scripts/engines/upsample_hgt.py -nt "$hgt" ]; then
  python3 scripts/engines/upsample_hgt.py "$hgt_src" "$elevation" >/dev/null
fi
scripts/engines/valhalla.sh install
scripts/engines/valhalla.sh prepare "$data/andorra/andorra.osm.pbf" "$cache/valhalla-andorra" "$elevation" >/dev/null
start_engine valhalla_port scripts/engines/valhalla.sh "$cache/valhalla-andorra"
export ROADBOOK_VALHALLA_URL="http://127.0.0.1:$valhalla_port"

# The hostile-input corpus runs the release binary, as users get it (Tests/HostileTests).
swift build -c release --product roadbook 2>&1 | grep -vE '^\[[0-9]+/[0-9]+\] |prohibited flag\(s\)' || true
ROADBOOK_BIN="$(swift build -c release --show-bin-path)/roadbook"
export ROADBOOK_BIN

set +e
swift test 2>&1 | grep --line-buffered -vE '^\[[0-9]+/[0-9]+\] |prohibited flag\(s\)'
status=${PIPESTATUS[0]}
set -e
# The page of `roadbook serve` in headless Chromium against the real server (the release binary
# built above): rows, editing, undo and redo, live updates, dragging a handle, screenshots in
# .build/browser-artefacts. Skipped, saying so, only when Chromium cannot start here (exit 77).
browser_status=0
scripts/browser-test.sh || browser_status=$?
case "$browser_status" in
  0) ;;
  77) echo "SKIPPED: the browser tests (Chromium cannot start here; apt-get install chromium chromium-driver)" >&2 ;;
  *) status=1 ;;
esac
# Outputs all or nothing: a 5,000-row build killed 20 times (release binary, under a minute).
scripts/kill-test.sh || status=1
# scripts/install.sh into a temporary prefix, with the release binary built above, and that
# installed binary run alone, from /, with no ROADBOOK_* variable (seconds).
scripts/install-test.sh --no-build || status=1

# A short libFuzzer run of every harness (Fuzz/, scripts/fuzz.sh): 10 s each, as many at once as
# there are processors (longer runs are for `scripts/fuzz.sh NAME SECONDS`), after building them
# (two and a half minutes the first time on two processors, then only what changed). A finding is saved under
# Fuzz/NAME/crashes and fails the run. ROADBOOK_FUZZ_SECONDS=0 skips it.
fuzz_seconds="${ROADBOOK_FUZZ_SECONDS:-10}"
if [ "$fuzz_seconds" != 0 ]; then
  if scripts/fuzz.sh build; then
    fuzz_report=$(scripts/fuzz.sh all "$fuzz_seconds")
    printf '%s\n' "$fuzz_report"
    if grep -q FOUND <<<"$fuzz_report"; then status=1; fi
  else
    echo "error: the fuzz harnesses do not build (scripts/fuzz.sh build)" >&2
    status=1
  fi
fi
exit "$status"
