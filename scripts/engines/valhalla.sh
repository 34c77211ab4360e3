#!/usr/bin/env bash
# Valhalla from the pyvalhalla wheel, for integration tests and sample making.
#
#   valhalla.sh install                          venv + pyvalhalla (only if missing)
#   valhalla.sh prepare PBF OUTDIR [ELEVATION_DIR]
#                                                config + routing tiles in OUTDIR; skips when up to date.
#                                                ELEVATION_DIR holds 1-arc-second tiles as N42/N42E001.hgt
#                                                (see upsample_hgt.py) for /height and edge grades
#   valhalla.sh start OUTDIR PORT                valhalla_service on 127.0.0.1:PORT in the background
#   valhalla.sh stop [PORT]                      stops the server on PORT, or every server this script started
#   valhalla.sh bin                              prints the directory holding the valhalla_* executables
#
# Environment: ROADBOOK_CACHE (default $HOME/.cache/roadbook), ROADBOOK_PYTHON.
set -euo pipefail

PYVALHALLA_VERSION="3.9.1"
# valhalla_service answers /status after about 0.3 s here; 20 s leaves room for a loaded CI machine.
VALHALLA_START_TIMEOUT_S=20
# The kernel keeps 15 characters of a command name: /proc/PID/comm says "valhalla_servic".
VALHALLA_COMM="valhalla_servic"
SRTM1_BYTES=$((3601 * 3601 * 2))

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# shellcheck source=common.sh
source "$here/common.sh"

usage() {
    sed -n '2,13p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//' >&2
    exit 2
}

valhalla_pkg_dir() {
    [[ -x "$ROADBOOK_VENV/bin/python" ]] || rb_die "no venv at $ROADBOOK_VENV; run '$0 install' first"
    local dir
    dir="$(rb_site_packages)/valhalla"
    [[ -x "$dir/bin/valhalla_service" && -x "$dir/bin/valhalla_build_tiles" ]] \
        || rb_die "pyvalhalla is not installed in $ROADBOOK_VENV ($dir/bin/valhalla_service missing); run '$0 install' first"
    echo "$dir"
}

cmd_install() {
    [[ $# -eq 0 ]] || usage
    rb_pip_ensure pyvalhalla "$PYVALHALLA_VERSION"
    local dir
    dir="$(valhalla_pkg_dir)"
    [[ -x "$ROADBOOK_VENV/bin/valhalla_build_config" ]] \
        || rb_die "pyvalhalla $PYVALHALLA_VERSION has no valhalla_build_config in $ROADBOOK_VENV/bin"
    rb_log "pyvalhalla $PYVALHALLA_VERSION ready: $dir/bin"
}

cmd_bin() {
    [[ $# -eq 0 ]] || usage
    echo "$(valhalla_pkg_dir)/bin"
}

# Prints "sha256 path" for every .hgt under DIR, sorted: what the tiles' edge grades depend on.
elevation_fingerprint() {
    local dir="$1"
    [[ -n "$dir" ]] || return 0
    (cd "$dir" && find . -name '*.hgt' -type f -print0 | sort -z | xargs -0 -r sha256sum)
}

# Valhalla reads DIR/N42/N42E001.hgt and only 1-arc-second tiles (3601 x 3601 samples): it logs
# "Corrupt elevation data" for anything else and answers null heights. Say so now instead.
check_elevation_dir() {
    local dir="$1" tile size found=0
    while IFS= read -r -d '' tile; do
        found=1
        size="$(stat -c %s "$tile")"
        [[ "$size" == "$SRTM1_BYTES" ]] \
            || rb_die "$tile has $size bytes, not a 1-arc-second tile ($SRTM1_BYTES bytes); Valhalla would answer null heights. Upsample SRTM3 tiles with upsample_hgt.py"
    done < <(find "$dir" -mindepth 2 -maxdepth 2 -type f -regextype posix-extended \
        -regex '.*/[NS][0-9]{2}/[NS][0-9]{2}[EW][0-9]{3}\.hgt' -print0)
    ((found)) || rb_die "no tile like N42/N42E001.hgt under $dir; Valhalla reads 1-arc-second tiles in that layout (see upsample_hgt.py)"
}

cmd_prepare() {
    [[ $# -eq 2 || $# -eq 3 ]] || usage
    local pbf="$1" outdir="$2" elevation="${3:-}"
    local bin
    bin="$(valhalla_pkg_dir)/bin"
    [[ -f "$pbf" ]] || rb_die "OSM file '$pbf' not found"
    pbf="$(cd "$(dirname "$pbf")" && pwd)/$(basename "$pbf")"
    if [[ -n "$elevation" ]]; then
        [[ -d "$elevation" ]] || rb_die "elevation directory '$elevation' not found (expected tiles as N42/N42E001.hgt)"
        elevation="$(cd "$elevation" && pwd)"
        check_elevation_dir "$elevation"
    fi
    mkdir -p "$outdir"
    outdir="$(cd "$outdir" && pwd)"

    local conf="$outdir/valhalla.json" stamp="$outdir/valhalla.prepared"
    # Up to date means: same input bytes, same elevation tiles at the same place, same Valhalla.
    local want
    want="pyvalhalla=$PYVALHALLA_VERSION
pbf=$(sha256sum "$pbf" | cut -d' ' -f1) $pbf
elevation=$elevation
$(elevation_fingerprint "$elevation")"
    if [[ -f "$stamp" && "$(cat "$stamp")" == "$want" && -f "$conf" && -d "$outdir/tiles" ]]; then
        rb_log "$outdir is up to date"
        echo "$outdir"
        return 0
    fi
    rm -f "$stamp"
    rm -rf "$outdir/tiles"
    mkdir -p "$outdir/tiles"

    local log="$outdir/prepare.log"
    rb_log "preparing Valhalla tiles in $outdir (log: $log)"
    # No admin, timezone or traffic databases: not needed for routing a small extract.
    # Listen and ipc endpoints are placeholders here: 'start' writes them per port.
    # drain/shutdown 0: otherwise SIGTERM waits about 29 s for requests that will never come.
    "$ROADBOOK_VENV/bin/valhalla_build_config" \
        --mjolnir-tile-dir "$outdir/tiles" \
        --mjolnir-tile-extract '' \
        --mjolnir-traffic-extract '' \
        --mjolnir-admin '' \
        --mjolnir-timezone '' \
        --additional-data-elevation "$elevation" \
        --httpd-service-listen "tcp://127.0.0.1:0" \
        --httpd-service-loopback "ipc://$outdir/unset-loopback" \
        --httpd-service-interrupt "ipc://$outdir/unset-interrupt" \
        --httpd-service-drain-seconds 0 \
        --httpd-service-shutdown-seconds 0 \
        >"$conf.tmp" 2>"$log" || {
        tail -n 20 "$log" >&2
        rb_die "valhalla_build_config failed; full log in $log"
    }
    mv "$conf.tmp" "$conf"
    # Run from OUTDIR: the builder leaves its intermediate .bin files in the working directory.
    (cd "$outdir" && "$bin/valhalla_build_tiles" -c "$conf" "$pbf") >>"$log" 2>&1 || {
        tail -n 20 "$log" >&2
        rb_die "valhalla_build_tiles failed for $pbf; full log in $log"
    }
    [[ -n "$(find "$outdir/tiles" -name '*.gph' -type f -print -quit)" ]] || {
        tail -n 20 "$log" >&2
        rb_die "valhalla_build_tiles wrote no tiles for $pbf (no roads in it?); full log in $log"
    }
    echo "$want" >"$stamp"
    echo "$outdir"
}

pidfile_for() {
    echo "$ROADBOOK_RUN/valhalla_service-$1.pid"
}

conf_for() {
    echo "$ROADBOOK_RUN/valhalla_service-$1.json"
}

stop_port() {
    rb_stop_pidfile "$(pidfile_for "$1")" "$VALHALLA_COMM"
    rm -f "$(conf_for "$1")"
}

cmd_start() {
    [[ $# -eq 2 ]] || usage
    local outdir="$1" port="$2" bin
    [[ "$port" =~ ^[0-9]+$ ]] || rb_die "PORT must be a number, got '$port'"
    [[ -f "$outdir/valhalla.prepared" && -f "$outdir/valhalla.json" ]] \
        || rb_die "$outdir is not a prepared Valhalla directory (valhalla.prepared missing); run '$0 prepare' first"
    outdir="$(cd "$outdir" && pwd)"
    bin="$(valhalla_pkg_dir)/bin"
    mkdir -p "$ROADBOOK_RUN"
    local pidfile log conf lb int
    pidfile="$(pidfile_for "$port")"
    log="$ROADBOOK_RUN/valhalla_service-$port.log"
    # Run state beside the pid file and log, removed by 'stop'; the prepared config stays as it is.
    conf="$(conf_for "$port")"
    # Each instance needs its own ipc endpoints, or a second server steals the first one's workers.
    lb="$outdir/ipc-$port-loopback"
    int="$outdir/ipc-$port-interrupt"
    # A unix socket path holds at most 107 bytes.
    ((${#lb} < 100)) || rb_die "OUTDIR path too long for a unix socket ($lb); use a shorter OUTDIR"
    rb_stop_pidfile "$pidfile" "$VALHALLA_COMM"
    rb_port_free "$port" || rb_die "port $port on 127.0.0.1 is already in use by another process; pick another PORT"
    rm -f "$lb" "$int"

    "$ROADBOOK_VENV/bin/python" - "$outdir/valhalla.json" "$conf" "$port" "$lb" "$int" <<'EOF' \
        || rb_die "could not write $conf"
import json, sys
src, dst, port, lb, intr = sys.argv[1:]
with open(src) as f:
    conf = json.load(f)
service = conf["httpd"]["service"]
service["listen"] = f"tcp://127.0.0.1:{port}"
service["loopback"] = f"ipc://{lb}"
service["interrupt"] = f"ipc://{intr}"
with open(dst, "w") as f:
    json.dump(conf, f, indent=2)
EOF

    # The real server, not the Python wrapper in VENV/bin: killing the wrapper leaves the server
    # running and holding the port. One worker per stage is plenty for tests.
    nohup "$bin/valhalla_service" "$conf" 1 </dev/null >"$log" 2>&1 &
    local pid=$!
    echo "$pid" >"$pidfile"

    local url="http://127.0.0.1:$port/status" i
    for ((i = 0; i < VALHALLA_START_TIMEOUT_S * 20; i++)); do
        if ! kill -0 "$pid" 2>/dev/null; then
            stop_port "$port"
            tail -n 20 "$log" >&2
            rb_die "valhalla_service exited during start-up; log in $log"
        fi
        if curl -sf -o /dev/null -m 1 "$url" 2>/dev/null; then
            rb_log "valhalla_service (pid $pid) answers on http://127.0.0.1:$port"
            echo "http://127.0.0.1:$port"
            return 0
        fi
        sleep 0.05
    done
    stop_port "$port"
    tail -n 20 "$log" >&2
    rb_die "valhalla_service did not answer $url within ${VALHALLA_START_TIMEOUT_S} s; log in $log"
}

cmd_stop() {
    [[ $# -le 1 ]] || usage
    if [[ $# -eq 1 ]]; then
        [[ "$1" =~ ^[0-9]+$ ]] || rb_die "PORT must be a number, got '$1'"
        stop_port "$1"
        return 0
    fi
    local f port
    for f in "$ROADBOOK_RUN"/valhalla_service-*.pid; do
        [[ -e "$f" ]] || continue
        port="${f##*/valhalla_service-}"
        stop_port "${port%.pid}"
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
