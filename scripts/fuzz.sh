#!/usr/bin/env bash
# libFuzzer runs of roadbook's parsers. Usage:
#   scripts/fuzz.sh list               the harnesses
#   scripts/fuzz.sh build [HARNESS…]   build them (all without names)
#   scripts/fuzz.sh HARNESS SECONDS    build and run one for SECONDS
#   scripts/fuzz.sh all SECONDS        build and run each for SECONDS
#
# How it builds (SwiftPM cannot: `swift build -Xswiftc -sanitize=fuzzer` instruments the
# executables' `main` too, and libFuzzer brings its own): each library module a harness needs is
# compiled once with swiftc into .build-fuzz/ (whole-module, -O, -enable-testing, instrumented with
# -sanitize=fuzzer,address), in dependency order read from `swift package dump-package`; C modules
# come through -I Sources/CX and pkg-config. Each harness (Fuzz/NAME/NAME.swift with
# Fuzz/Common.swift) defines LLVMFuzzerTestOneInput and is linked with those objects.
#
# Each run starts from Fuzz/NAME/seeds (committed, read only) and a working corpus in
# .build-fuzz/corpus/NAME (kept between runs). A crash, timeout or running out of memory is saved
# as Fuzz/NAME/crashes/{crash,timeout,oom}-<sha1 of the input>; replay one with
#   .build-fuzz/fuzz-NAME Fuzz/NAME/crashes/crash-…
# Prints, per harness, the executions and what is new in crashes/ ("FOUND new"): a finding already
# there (committed, waiting for its fix) is not new, so a run fails only for a new one.
set -euo pipefail
cd "$(dirname "$0")/.."
root="$PWD"
out="$root/.build-fuzz"
mkdir -p "$out/modules" "$out/corpus"

# The module each harness tests (the harness also sees every module that one depends on).
declare -A module=(
  [gpx]=Formats [openrally]=Formats [book]=Formats [handles]=Formats [undo]=Formats [template]=Layout
  [osm-pbf]=OSM [osm-xml]=OSM [graph]=OSM [hgt]=Terrain [geotiff]=Terrain
  [engine]=Routing [elevation]=Terrain [draft]=Workflows [rn2]=Formats [kml]=Formats [geojson]=Formats
  [track-turns]=Guidance [journal]=Formats [symbol]=Render [serve]=Serve
)
harnesses=(gpx book template handles draft undo journal osm-pbf osm-xml graph hgt geotiff engine elevation rn2 kml geojson openrally track-turns symbol serve)
# Per run: memory a run may take (MB), seconds one input may take, largest input (bytes).
rss_limit_mb=2048
unit_timeout=10
max_len=262144

# Prints "kind name pkgconfig deps…" per target of Package.swift.
targets() {
  swift package dump-package 2>/dev/null | python3 -c '
import json, sys
for t in json.load(sys.stdin)["targets"]:
    deps = [list(d.values())[0][0] for d in t.get("dependencies", [])]
    print(t["type"], t["name"], t.get("pkgConfig") or "-", *deps)'
}

# The Swift modules $1 needs, in build order, and the system libraries they use.
declare -A kind pkg deps
load_graph() {
  while read -r k name p rest; do
    kind[$name]=$k; pkg[$name]=$p; deps[$name]="$rest"
  done < <(targets)
}
order=()
declare -A seen
visit() {
  local m=$1
  [ -n "${seen[$m]:-}" ] && return
  seen[$m]=1
  for d in ${deps[$m]}; do visit "$d"; done
  order+=("$m")
}

build_module() {
  local m=$1 flags=() srcs
  local obj="$out/modules/$m.o"
  mapfile -t srcs < <(find "Sources/$m" -name '*.swift' | sort)
  # Rebuild when a source or a module it imports is newer than the object.
  if [ -f "$obj" ] && [ -z "$(find "Sources/$m" -name '*.swift' -newer "$obj")" ]; then
    local stale=0 d
    for d in ${deps[$m]}; do
      if [ "${kind[$d]}" != system ] && [ "$out/modules/$d.o" -nt "$obj" ]; then stale=1; fi
    done
    [ $stale = 0 ] && return
  fi
  echo "fuzz: compiling $m" >&2
  swiftc -module-name "$m" -parse-as-library -package-name roadbook -swift-version 6 -O -wmo -enable-testing \
    -sanitize=fuzzer,address -emit-module -emit-module-path "$out/modules/$m.swiftmodule" \
    -I "$out/modules" $(c_flags) -c "${srcs[@]}" -o "$obj" 2> >(grep -v -e 'prohibited flag' -e 'Cannot export local symbol' >&2)
}

# -I for every C module and the pkg-config include paths.
c_flags() {
  local name
  for name in "${!kind[@]}"; do
    if [ "${kind[$name]}" = system ]; then
      printf -- '-I %s ' "Sources/$name"
      [ "${pkg[$name]}" != - ] && for f in $(pkg-config --cflags-only-I "${pkg[$name]}"); do printf -- '-Xcc %s ' "$f"; done
    fi
  done
}
link_flags() {
  local name
  for name in "${!kind[@]}"; do
    [ "${kind[$name]}" = system ] && [ "${pkg[$name]}" != - ] && pkg-config --libs "${pkg[$name]}" | tr '\n' ' '
  done
}

build_harness() {
  local h=$1 m=${module[$1]:-}
  [ -n "$m" ] || { echo "fuzz: no harness $h (have: ${harnesses[*]})" >&2; exit 64; }
  order=(); seen=()
  visit "$m"
  local objects=()
  for d in "${order[@]}"; do
    [ "${kind[$d]}" = system ] && continue
    build_module "$d"
    objects+=("$out/modules/$d.o")
  done
  # Harnesses of modules that speak HTTP also get the canned client that answers with the input.
  local shared=(Fuzz/Common.swift)
  case " ${order[*]} " in *" HTTP "*) shared+=(Fuzz/CannedClient.swift) ;; esac
  local bin="$out/fuzz-$h"
  if [ -f "$bin" ] && [ -z "$(find "Fuzz/$h/$h.swift" "${shared[@]}" "${objects[@]}" -newer "$bin")" ]; then return; fi
  echo "fuzz: linking fuzz-$h" >&2
  swiftc -module-name "FuzzHarness" -parse-as-library -package-name roadbook -swift-version 6 -O -sanitize=fuzzer,address \
    -I "$out/modules" $(c_flags) "${shared[@]}" "Fuzz/$h/$h.swift" "${objects[@]}" $(link_flags) -o "$bin" \
    2> >(grep -v -e 'prohibited flag' -e 'Cannot export local symbol' >&2)
}

run_harness() {
  local h=$1 seconds=$2
  local corpus="$out/corpus/$h" crashes="Fuzz/$h/crashes"
  mkdir -p "$corpus" "$crashes"
  local log="$out/fuzz-$h.log"
  local before
  before=$(ls "$crashes")
  # Fork mode with crashes, timeouts and running out of memory ignored: a run goes on after a
  # finding (an input that traps in a seed would otherwise end it at once) and saves each distinct
  # one, named after its content, in Fuzz/NAME/crashes. Leak detection is off: the Swift runtime's
  # caches look like leaks. No Swift backtrace: it takes seconds per crash and libFuzzer has the input.
  SWIFT_BACKTRACE=enable=no ASAN_OPTIONS=detect_leaks=0:allocator_may_return_null=1 \
    "$out/fuzz-$h" -fork=1 -ignore_crashes=1 -ignore_timeouts=1 -ignore_ooms=1 -max_total_time="$seconds" \
    -rss_limit_mb=$rss_limit_mb -timeout=$unit_timeout -max_len=$max_len \
    -artifact_prefix="$crashes/" "$corpus" "Fuzz/$h/seeds" > "$log" 2>&1 || true
  local runs
  runs=$(grep -oE '^#[0-9]+' "$log" | tail -1 | tr -d '#' || true)
  local all new
  all=$(ls "$crashes" | wc -l)
  new=$(comm -13 <(printf '%s\n' "$before" | sort) <(ls "$crashes" | sort) | tr '\n' ' ')
  if [ -n "${new// /}" ]; then
    echo "fuzz: $h: ${runs:-0} executions in ${seconds}s, FOUND new: $new(in $crashes; log: $log)"
  else
    echo "fuzz: $h: ${runs:-0} executions in ${seconds}s, nothing new ($all known in $crashes)"
  fi
}

load_graph
case "${1:-}" in
  list) printf '%s\n' "${harnesses[@]}" ;;
  build)
    shift
    for h in "${@:-${harnesses[@]}}"; do build_harness "$h"; done ;;
  all)
    seconds=${2:?usage: scripts/fuzz.sh all SECONDS}
    for h in "${harnesses[@]}"; do build_harness "$h"; done
    for h in "${harnesses[@]}"; do run_harness "$h" "$seconds"; done ;;
  ""|-h|--help) sed -n '2,7p' "$0"; exit 64 ;;
  *)
    seconds=${2:?usage: scripts/fuzz.sh HARNESS SECONDS}
    build_harness "$1"
    run_harness "$1" "$seconds" ;;
esac
