#!/usr/bin/env bash
# OSRM from the osrm-bindings wheel, for integration tests and sample making.
#
#   osrm.sh install                      venv + osrm-bindings (only if missing)
#   osrm.sh prepare PROFILE PBF OUTDIR   extract/partition/customize (MLD); skips when up to date
#   osrm.sh start OUTDIR/X.osrm PORT     osrm-routed on 127.0.0.1:PORT in the background
#   osrm.sh stop [PORT]                  stops the server on PORT, or every server this script started
#   osrm.sh bin                          prints the directory holding the osrm-* executables
#
# PROFILE is car, bicycle, foot (the wheel's profiles) or a path to a .lua file.
# OSRM keeps one dataset per profile: use one OUTDIR per profile.
# Environment: ROADBOOK_CACHE (default $HOME/.cache/roadbook), ROADBOOK_PYTHON.
set -euo pipefail

OSRM_BINDINGS_VERSION="26.10.0"
# osrm-routed answers in under 0.1 s here; 10 s leaves room for a loaded CI machine.
OSRM_START_TIMEOUT_S=10

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# shellcheck source=common.sh
source "$here/common.sh"

usage() {
    sed -n '2,12p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//' >&2
    exit 2
}

osrm_pkg_dir() {
    [[ -x "$ROADBOOK_VENV/bin/python" ]] || rb_die "no venv at $ROADBOOK_VENV; run '$0 install' first"
    local dir
    dir="$(rb_site_packages)/osrm"
    [[ -x "$dir/bin/osrm-routed" ]] \
        || rb_die "osrm-bindings is not installed in $ROADBOOK_VENV ($dir/bin/osrm-routed missing); run '$0 install' first"
    echo "$dir"
}

cmd_install() {
    [[ $# -eq 0 ]] || usage
    rb_pip_ensure osrm-bindings "$OSRM_BINDINGS_VERSION"
    local dir
    dir="$(osrm_pkg_dir)"
    rb_log "osrm-bindings $OSRM_BINDINGS_VERSION ready: $dir/bin"
}

cmd_bin() {
    [[ $# -eq 0 ]] || usage
    echo "$(osrm_pkg_dir)/bin"
}

cmd_prepare() {
    [[ $# -eq 3 ]] || usage
    local profile="$1" pbf="$2" outdir="$3"
    local dir bin lua
    dir="$(osrm_pkg_dir)"
    bin="$dir/bin"
    if [[ "$profile" == *.lua ]]; then
        lua="$(cd "$(dirname "$profile")" && pwd)/$(basename "$profile")"
    else
        lua="$dir/share/profiles/$profile.lua"
    fi
    [[ -f "$lua" ]] || rb_die "profile '$profile' not found ($lua); use car, bicycle, foot or a path to a .lua file"
    [[ -f "$pbf" ]] || rb_die "OSM file '$pbf' not found"

    mkdir -p "$outdir"
    local name base stamp want
    name="$(basename "$pbf")"
    base="${name%.osm.pbf}"
    base="${base%.pbf}"
    stamp="$outdir/$base.osrm.prepared"
    # Up to date means: same input bytes, same profile text, same OSRM version.
    want="osrm-bindings=$OSRM_BINDINGS_VERSION
profile=$(sha256sum "$lua" | cut -d' ' -f1) $lua
pbf=$(sha256sum "$pbf" | cut -d' ' -f1) $pbf"
    if [[ -f "$stamp" && "$(cat "$stamp")" == "$want" && -f "$outdir/$base.osrm.mldgr" ]]; then
        rb_log "$outdir/$base.osrm is up to date"
        echo "$outdir/$base.osrm"
        return 0
    fi
    rm -f "$stamp"
    # The extract is written next to the pbf, so work on a copy: the source may be read-only.
    cp -f "$pbf" "$outdir/$base.osm.pbf"
    local log="$outdir/$base.prepare.log"
    rb_log "preparing $outdir/$base.osrm with $(basename "$lua") (log: $log)"
    {
        "$bin/osrm-extract" -p "$lua" "$outdir/$base.osm.pbf" \
            && "$bin/osrm-partition" "$outdir/$base.osrm" \
            && "$bin/osrm-customize" "$outdir/$base.osrm"
    } >"$log" 2>&1 || {
        tail -n 20 "$log" >&2
        rb_die "OSRM preparation failed for $pbf with $lua; full log in $log"
    }
    echo "$want" >"$stamp"
    echo "$outdir/$base.osrm"
}

pidfile_for() {
    echo "$ROADBOOK_RUN/osrm-routed-$1.pid"
}

cmd_start() {
    [[ $# -eq 2 ]] || usage
    local data="$1" port="$2" bin
    [[ "$port" =~ ^[0-9]+$ ]] || rb_die "PORT must be a number, got '$port'"
    [[ -f "$data.mldgr" ]] || rb_die "$data is not a prepared MLD dataset ($data.mldgr missing); run '$0 prepare' first"
    bin="$(osrm_pkg_dir)/bin"
    mkdir -p "$ROADBOOK_RUN"
    local pidfile log
    pidfile="$(pidfile_for "$port")"
    log="$ROADBOOK_RUN/osrm-routed-$port.log"
    rb_stop_pidfile "$pidfile" osrm-routed
    rb_port_free "$port" || rb_die "port $port on 127.0.0.1 is already in use by another process; pick another PORT"

    nohup "$bin/osrm-routed" --algorithm mld -i 127.0.0.1 -p "$port" "$data" \
        </dev/null >"$log" 2>&1 &
    local pid=$!
    echo "$pid" >"$pidfile"

    local url="http://127.0.0.1:$port/nearest/v1/driving/0,0" i
    for ((i = 0; i < OSRM_START_TIMEOUT_S * 20; i++)); do
        if ! kill -0 "$pid" 2>/dev/null; then
            rm -f "$pidfile"
            tail -n 20 "$log" >&2
            rb_die "osrm-routed exited during start-up; log in $log"
        fi
        if rb_http_answers "$url"; then
            rb_log "osrm-routed (pid $pid) answers on http://127.0.0.1:$port"
            echo "http://127.0.0.1:$port"
            return 0
        fi
        sleep 0.05
    done
    rb_stop_pidfile "$pidfile" osrm-routed
    rb_die "osrm-routed did not answer on port $port within ${OSRM_START_TIMEOUT_S} s; log in $log"
}

cmd_stop() {
    [[ $# -le 1 ]] || usage
    if [[ $# -eq 1 ]]; then
        rb_stop_pidfile "$(pidfile_for "$1")" osrm-routed
        return 0
    fi
    local f
    for f in "$ROADBOOK_RUN"/osrm-routed-*.pid; do
        [[ -e "$f" ]] || continue
        rb_stop_pidfile "$f" osrm-routed
    done
}

[[ $# -ge 1 ]] || usage
sub="$1"
shift
case "$sub" in
    install) cmd_install "$@" ;;
    prepare) cmd_prepare "$@" ;;
    start) cmd_start "$@" ;;
    stop) cmd_stop "$@" ;;
    bin) cmd_bin "$@" ;;
    -h | --help | help) usage ;;
    *) echo "unknown subcommand '$sub'" >&2; usage ;;
esac
