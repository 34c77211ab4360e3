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
# -sanitize=fuzzer,address), in dependency order read from `swift package dump-package` (the
# modules of one level of that order, and then the harnesses' links, as many at once as there are
# processors; `all` runs the harnesses so too, printing their lines in the list's order); C modules
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
# Modules compiled, harnesses linked and harnesses run at once (ROADBOOK_FUZZ_JOBS, default: the
# processors here); modules a level apart wait for the level below.
parallelism="${ROADBOOK_FUZZ_JOBS:-$(nproc)}"
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
    -I "$out/modules" $(c_flags) -c "${srcs[@]}" -o "$obj" 2> >(grep -v -e 'prohibited flag' -e 'Cannot export local symbol' >&2) \
    || return 1   # said here: `set -e` does not reach a function run by in_parallel
  # swiftc leaves an object it would write the same untouched: dated now, it is not compiled again.
  touch "$obj"
}

# Runs the function $1 on each further argument, $parallelism at a time; fails when one failed.
in_parallel() {
  local f=$1 failed=0 a pid pids=()
  shift
  for a in "$@"; do
    # Polled, not `wait -n`: a job that ends before it is waited for must keep its status for below.
    while (( $(jobs -rp | wc -l) >= parallelism )); do sleep 0.2; done
    "$f" "$a" &
    pids+=($!)
  done
  for pid in "${pids[@]}"; do wait "$pid" || failed=1; done
  return $failed
}

# The Swift modules the harnesses "$@" need, each after the modules it imports: level by level
# (a module's level is one more than its deepest import's), the modules of a level at once.
declare -A level
set_level() {
  local m=$1 d top=0
  [ -n "${level[$m]:-}" ] && return
  for d in ${deps[$m]}; do
    [ "${kind[$d]}" = system ] && continue
    set_level "$d"
    if (( level[$d] > top )); then top=${level[$d]}; fi
  done
  level[$m]=$((top + 1))
}
build_modules() {
  local h m l top=0
  order=(); seen=()
  for h in "$@"; do
    [ -n "${module[$h]:-}" ] || { echo "fuzz: no harness $h (have: ${harnesses[*]})" >&2; exit 64; }
    visit "${module[$h]}"
  done
  local swift=()
  for m in "${order[@]}"; do
    [ "${kind[$m]}" = system ] && continue
    swift+=("$m")
    set_level "$m"
    if (( level[$m] > top )); then top=${level[$m]}; fi
  done
  for ((l = 1; l <= top; l++)); do
    local now=()
    for m in "${swift[@]}"; do
      if [ "${level[$m]}" = "$l" ]; then now+=("$m"); fi
    done
    in_parallel build_module "${now[@]}" || { echo "fuzz: a module did not compile (above)" >&2; exit 1; }
  done
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

# Links harness $1 with the objects of the modules it needs (built by build_modules).
link_harness() {
  local h=$1 d
  order=(); seen=()
  visit "${module[$h]}"
  local objects=()
  for d in "${order[@]}"; do
    [ "${kind[$d]}" = system ] || objects+=("$out/modules/$d.o")
  done
  # Harnesses of modules that speak HTTP also get the canned client that answers with the input.
  local shared=(Fuzz/Common.swift)
  case " ${order[*]} " in *" HTTP "*) shared+=(Fuzz/CannedClient.swift) ;; esac
  local bin="$out/fuzz-$h"
  if [ -f "$bin" ] && [ -z "$(find "Fuzz/$h/$h.swift" "${shared[@]}" "${objects[@]}" -newer "$bin")" ]; then return; fi
  echo "fuzz: linking fuzz-$h" >&2
  swiftc -module-name "FuzzHarness" -parse-as-library -package-name roadbook -swift-version 6 -O -sanitize=fuzzer,address \
    -I "$out/modules" $(c_flags) "${shared[@]}" "Fuzz/$h/$h.swift" "${objects[@]}" $(link_flags) -o "$bin" \
    2> >(grep -v -e 'prohibited flag' -e 'Cannot export local symbol' >&2) || return 1
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

# Builds the harnesses "$@": their modules, then each link.
build_harnesses() {
  build_modules "$@"
  in_parallel link_harness "$@" || { echo "fuzz: a harness did not link (above)" >&2; exit 1; }
}

# Runs every harness for $seconds, $parallelism at once, and prints their lines in the list's order.
run_all() {
  local h
  report() { run_harness "$1" "$seconds" > "$out/report-$1"; }
  in_parallel report "${harnesses[@]}" || true
  for h in "${harnesses[@]}"; do cat "$out/report-$h"; rm -f "$out/report-$h"; done
}

load_graph
case "${1:-}" in
  list) printf '%s\n' "${harnesses[@]}" ;;
  build)
    shift
    build_harnesses "${@:-${harnesses[@]}}" ;;
  all)
    seconds=${2:?usage: scripts/fuzz.sh all SECONDS}
    build_harnesses "${harnesses[@]}"
    run_all ;;
  ""|-h|--help) sed -n '2,7p' "$0"; exit 64 ;;
  *)
    seconds=${2:?usage: scripts/fuzz.sh HARNESS SECONDS}
    build_harnesses "$1"
    run_harness "$1" "$seconds" ;;
esac
