#!/usr/bin/env bash
# Installs roadbook under a prefix, so the binary works outside the checkout: builds the release
# binary (after scripts/install-deps.sh build) and installs
#   PREFIX/bin/roadbook
#   PREFIX/share/roadbook/Templates, Fonts, Symbols, Page   what the binary looks for beside itself
#   PREFIX/share/roadbook/VERSION             "VERSION COMMIT", which `roadbook --version` prints
#   PREFIX/share/man/man1/roadbook.1          written by the installed binary (roadbook --man)
#   PREFIX/share/bash-completion/completions/roadbook, PREFIX/share/zsh/site-functions/_roadbook
#                                             written by it too (roadbook --completions bash|zsh)
# Safe to run again: every file is replaced whole, and files a new version no longer has are
# removed from Templates and Fonts. As root it writes directly; otherwise it uses sudo only when
# the prefix is not writable.
#
# Usage: scripts/install.sh [--prefix DIR] [--no-build]
#   --prefix DIR  where to install (default /usr/local)
#   --no-build    install the release binary already built (scripts/test.sh builds it first)
set -euo pipefail
usage="usage: scripts/install.sh [--prefix DIR] [--no-build]"

prefix=/usr/local
build=1
while [ $# -gt 0 ]; do
  case "$1" in
    --prefix)
      [ $# -ge 2 ] && [ -n "$2" ] || { echo "install.sh: --prefix needs a folder; $usage" >&2; exit 64; }
      prefix=$2; shift 2 ;;
    --prefix=?*) prefix=${1#--prefix=}; shift ;;
    --no-build) build=0; shift ;;
    -h|--help) echo "$usage"; exit 0 ;;
    *) echo "install.sh: unknown argument '$1'; $usage" >&2; exit 64 ;;
  esac
done
# A relative prefix is the caller's, not the checkout's.
case "$prefix" in /*) ;; *) prefix="$PWD/$prefix" ;; esac
cd "$(dirname "$0")/.."

if [ "$build" = 1 ]; then
  scripts/install-deps.sh build
  set +e
  swift build -c release --product roadbook 2>&1 | grep -vE '^\[[0-9]+/[0-9]+\] |prohibited flag\(s\)'
  status=${PIPESTATUS[0]}
  set -e
  [ "$status" = 0 ] || { echo "install.sh: the release build failed (swift build -c release --product roadbook)" >&2; exit 1; }
fi
built="$(swift build -c release --show-bin-path)/roadbook"
[ -x "$built" ] || { echo "install.sh: no release binary at $built; run without --no-build" >&2; exit 1; }
fonts=(Fonts/*.ttf)
[ -f "${fonts[0]}" ] || { echo "install.sh: Fonts/ has no .ttf files; run scripts/install-deps.sh build" >&2; exit 1; }

# sudo only for a prefix this user cannot write (the nearest folder of it that exists).
as=()
if [ "$(id -u)" -ne 0 ]; then
  existing=$prefix
  while [ ! -e "$existing" ]; do existing=$(dirname "$existing"); done
  [ -w "$existing" ] || as=(sudo)
  if [ ${#as[@]} -gt 0 ] && ! command -v sudo >/dev/null; then
    echo "install.sh: $existing is not writable and there is no sudo; run as root or give --prefix DIR" >&2
    exit 1
  fi
fi

stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT

# put SOURCE DEST MODE: DEST replaced whole, by a rename in its own folder.
put() {
  local dest=$2 tmp
  tmp="$(dirname "$dest")/.$(basename "$dest").install-$$"
  "${as[@]}" install -D -m "$3" "$1" "$tmp"
  "${as[@]}" mv -f "$tmp" "$dest"
}
# put_folder SOURCE... DEST: DEST holds exactly these files afterwards (the old folder is swapped out).
put_folder() {
  local dest=${*: -1} files=("${@:1:$#-1}") new old
  new="$(dirname "$dest")/.$(basename "$dest").install-$$"
  old="$(dirname "$dest")/.$(basename "$dest").old-$$"
  "${as[@]}" rm -rf "$new"
  "${as[@]}" install -d -m 755 "$new"
  "${as[@]}" install -m 644 "${files[@]}" "$new/"
  if [ -e "$dest" ]; then "${as[@]}" mv "$dest" "$old"; fi
  "${as[@]}" mv "$new" "$dest"
  "${as[@]}" rm -rf "$old"
}

share="$prefix/share/roadbook"
put "$built" "$prefix/bin/roadbook" 755
put_folder Templates/*.json Templates/README.md "$share/Templates"
put_folder "${fonts[@]}" Fonts/README.md "$share/Fonts"
# The symbol library: a pictogram a symbol and the meanings. Without it books print symbols as names.
symbols=()
for f in Symbols/*.svg Symbols/symbols.json Symbols/README.md; do [ -f "$f" ] && symbols+=("$f"); done
if [ ${#symbols[@]} -gt 0 ]; then
  put_folder "${symbols[@]}" "$share/Symbols"
else
  echo "install.sh: warning: Symbols/ holds no pictograms; the installed binary prints symbols as their names" >&2
fi
# The web editor's page (`roadbook serve`), its subfolders (Leaflet) kept: swapped in whole.
if [ -f Sources/Serve/Page/index.html ]; then
  new="$share/.Page.install-$$"; old="$share/.Page.old-$$"
  "${as[@]}" rm -rf "$new"
  "${as[@]}" install -d -m 755 "$new"
  "${as[@]}" cp -R Sources/Serve/Page/. "$new/"
  "${as[@]}" chmod -R u=rwX,go=rX "$new"
  if [ -e "$share/Page" ]; then "${as[@]}" mv "$share/Page" "$old"; fi
  "${as[@]}" mv "$new" "$share/Page"
  "${as[@]}" rm -rf "$old"
else
  echo "install.sh: warning: Sources/Serve/Page/ holds no index.html; roadbook serve will not find its page" >&2
fi

# The commit, as the built binary reads it from this checkout: recorded beside the installed one.
line=$("$built" --version)
if [[ $line =~ ^roadbook\ ([^ ]+)\ \(([0-9a-f]+(-dirty)?)\)$ ]]; then
  echo "${BASH_REMATCH[1]} ${BASH_REMATCH[2]}" >"$stage/VERSION"
  put "$stage/VERSION" "$share/VERSION" 644
else
  echo "install.sh: warning: no commit to record ($line); roadbook --version will say so" >&2
  "${as[@]}" rm -f "$share/VERSION"
fi

# The man page and the completions, from the installed binary's own option tables.
installed="$prefix/bin/roadbook"
"$installed" --man >"$stage/roadbook.1"
"$installed" --completions bash >"$stage/roadbook.bash"
"$installed" --completions zsh >"$stage/_roadbook"
put "$stage/roadbook.1" "$prefix/share/man/man1/roadbook.1" 644
put "$stage/roadbook.bash" "$prefix/share/bash-completion/completions/roadbook" 644
put "$stage/_roadbook" "$prefix/share/zsh/site-functions/_roadbook" 644

echo "installed $("$installed" --version) in $prefix"
