# Shared helpers for the engine scripts (osrm.sh, valhalla.sh) and the scripts that start engines
# (test.sh, bench-regions.sh). Source this file; it defines functions and variables only.
#
# Environment:
#   ROADBOOK_CACHE   cache root (default: $HOME/.cache/roadbook)
#   ROADBOOK_PYTHON  a Python 3.12 interpreter to use instead of the search below

ROADBOOK_CACHE="${ROADBOOK_CACHE:-$HOME/.cache/roadbook}"
ROADBOOK_VENV="$ROADBOOK_CACHE/venv312"
ROADBOOK_RUN="$ROADBOOK_CACHE/run"

rb_die() {
    echo "error: $*" >&2
    exit 1
}

rb_log() {
    echo "[$(basename "${0}")] $*" >&2
}

# Prints the path of a Python 3.12 interpreter, or dies saying how to get one.
# The engine wheels are cp312-abi3: any other Python makes pip try to build a
# C++ engine from source, which is slow and fails without its toolchain.
rb_python312() {
    local candidates=()
    if [[ -n "${ROADBOOK_PYTHON:-}" ]]; then
        candidates+=("$ROADBOOK_PYTHON")
    fi
    if command -v pyenv >/dev/null 2>&1; then
        candidates+=("$(pyenv root)/versions/3.12.1/bin/python")
    fi
    local onpath
    if onpath="$(command -v python3.12 2>/dev/null)"; then
        candidates+=("$onpath")
    fi
    local py version
    for py in "${candidates[@]}"; do
        [[ -x "$py" ]] || continue
        # A pyenv shim exists even when 3.12 is not installed: ask the interpreter itself.
        version="$("$py" -c 'import sys; print("%d.%d" % sys.version_info[:2])' 2>/dev/null)" || continue
        if [[ "$version" == "3.12" ]]; then
            echo "$py"
            return 0
        fi
    done
    rb_die "Python 3.12 not found (tried: ${candidates[*]:-nothing}). The engine wheels are cp312 only.
  Install it with 'pyenv install 3.12.1', or put python3.12 on PATH, or set ROADBOOK_PYTHON=/path/to/python3.12."
}

# Creates the shared Python 3.12 venv if it is missing or broken.
rb_ensure_venv() {
    if [[ -x "$ROADBOOK_VENV/bin/python" ]] \
        && "$ROADBOOK_VENV/bin/python" -c 'import sys; assert sys.version_info[:2] == (3, 12)' 2>/dev/null; then
        return 0
    fi
    local py
    py="$(rb_python312)"
    rb_log "creating venv $ROADBOOK_VENV with $py"
    mkdir -p "$ROADBOOK_CACHE"
    rm -rf "$ROADBOOK_VENV"
    "$py" -m venv "$ROADBOOK_VENV" || rb_die "could not create venv at $ROADBOOK_VENV with $py"
}

# rb_pip_ensure DIST VERSION: installs DIST==VERSION into the venv unless that
# exact version is already there.
rb_pip_ensure() {
    local dist="$1" version="$2" have
    rb_ensure_venv
    have="$("$ROADBOOK_VENV/bin/python" -c \
        'import sys, importlib.metadata as m
try: print(m.version(sys.argv[1]))
except m.PackageNotFoundError: pass' "$dist")"
    if [[ "$have" == "$version" ]]; then
        return 0
    fi
    rb_log "installing $dist==$version into $ROADBOOK_VENV (had: ${have:-none})"
    "$ROADBOOK_VENV/bin/python" -m pip install --quiet --disable-pip-version-check \
        --only-binary=:all: "$dist==$version" \
        || rb_die "pip could not install $dist==$version (is PyPI reachable? is the venv Python 3.12?)"
}

# Prints the site-packages directory of the venv.
rb_site_packages() {
    "$ROADBOOK_VENV/bin/python" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])'
}

# rb_http_answers URL: true when anything answers HTTP at URL (any status code).
rb_http_answers() {
    local code
    code="$(curl -s -o /dev/null -m 1 -w '%{http_code}' "$1" 2>/dev/null)" || true
    [[ -n "$code" && "$code" != "000" ]]
}

# rb_free_port: prints a TCP port on 127.0.0.1 that was free a moment ago (the system picks it);
# another process may take it before it is bound, so a caller that cannot lose it retries.
rb_free_port() {
    python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# rb_port_free PORT: true when nothing accepts TCP connections on 127.0.0.1:PORT.
rb_port_free() {
    ! (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null
}

# rb_stop_pidfile PIDFILE NAME: sends SIGTERM to the pid in PIDFILE if that
# process is still NAME, waits up to 5 s, then SIGKILL; removes the pid file.
rb_stop_pidfile() {
    local pidfile="$1" name="$2" pid i
    [[ -f "$pidfile" ]] || return 0
    pid="$(cat "$pidfile")"
    if [[ "$pid" =~ ^[0-9]+$ ]] && kill -0 "$pid" 2>/dev/null \
        && [[ "$(cat "/proc/$pid/comm" 2>/dev/null)" == "$name"* ]]; then
        kill -TERM "$pid" 2>/dev/null || true
        for ((i = 0; i < 50; i++)); do
            kill -0 "$pid" 2>/dev/null || break
            sleep 0.1
        done
        if kill -0 "$pid" 2>/dev/null; then
            rb_log "$name (pid $pid) ignored SIGTERM for 5 s; sending SIGKILL"
            kill -KILL "$pid" 2>/dev/null || true
        fi
    fi
    rm -f "$pidfile"
}
