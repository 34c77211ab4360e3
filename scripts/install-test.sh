#!/usr/bin/env bash
# The install test: scripts/install.sh into a temporary prefix, twice (the second run must change
# nothing), then the installed binary, run from / with no ROADBOOK_* variable (env -i), builds
# the Andorra sample: the PDF has pages and embeds DejaVu fonts only, which it finds in its own
# share/roadbook. --version names the checkout's commit; man finds the page under the prefix and
# renders it without a warning; bash and zsh load the completions from where they look.
#
# Usage: scripts/install-test.sh [--no-build]   (scripts/test.sh passes --no-build after its
# release build; without it install.sh builds, which is quick when the build is up to date)
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
prefix="$tmp/prefix"
failures=0
fail() { echo "install-test: $*" >&2; failures=$((failures + 1)); }
clean=(env -i PATH=/usr/bin:/bin)
pages=0

scripts/install.sh --prefix "$prefix" "$@" >/dev/null
listing() { (cd "$prefix" && find . -type f -print0 | sort -z | xargs -0 sha256sum); }
first=$(listing)
scripts/install.sh --prefix "$prefix" --no-build >/dev/null
[ "$(listing)" = "$first" ] || fail "a second install changed the files: $(diff <(echo "$first") <(listing))"
for f in bin/roadbook share/roadbook/Templates/a5.json share/roadbook/Fonts/DejaVuSans.ttf share/man/man1/roadbook.1 \
         share/bash-completion/completions/roadbook share/zsh/site-functions/_roadbook; do
  [ -s "$prefix/$f" ] || fail "$f was not installed"
done
# The symbol library, when the checkout has it: every pictogram and the meanings.
for f in Symbols/*.svg Symbols/symbols.json; do
  [ -f "$f" ] || continue
  [ -s "$prefix/share/roadbook/$f" ] || fail "share/roadbook/$f was not installed"
done

# The installed binary alone: from /, no ROADBOOK_* variable, no checkout among its ancestors.
mkdir "$tmp/out"
if (cd / && "${clean[@]}" "$prefix/bin/roadbook" build "$root/samples/andorra-envalira.gpx" -o "$tmp/out/book.pdf" \
      --book "$tmp/out/book.json") >/dev/null 2>"$tmp/build.err"; then
  ! grep -q "not found" "$tmp/build.err" || fail "the installed binary did not find its resources: $(cat "$tmp/build.err")"
  pages=$(pdfinfo "$tmp/out/book.pdf" | awk '/^Pages:/ { print $2 }')
  [ "${pages:-0}" -gt 0 ] || fail "book.pdf has no pages"
  fonts=$(pdffonts "$tmp/out/book.pdf" | tail -n +3 | awk '{ print $1 }')
  [ -n "$fonts" ] || fail "book.pdf embeds no font"
  ! grep -v 'DejaVuSans' <<<"$fonts" || fail "book.pdf embeds fonts other than DejaVu Sans: $fonts"
else
  fail "the installed binary could not build the sample: $(cat "$tmp/build.err")"
fi

version=$(cd / && "${clean[@]}" "$prefix/bin/roadbook" --version)
if head=$(git -C "$root" rev-parse --short=7 HEAD 2>/dev/null); then
  [[ $version =~ ^roadbook\ [0-9]+\.[0-9]+\.[0-9]+\ \($head(-dirty)?\)$ ]] || fail "--version says '$version', not commit $head"
else
  [[ $version =~ ^roadbook\ [0-9]+\.[0-9]+\.[0-9]+\ \(.+\)$ ]] || fail "--version says '$version'"
fi

# Where man, bash-completion and zsh look under a prefix.
page=$(MANPATH="$prefix/share/man" man -w roadbook 2>&1) && [ "$page" = "$prefix/share/man/man1/roadbook.1" ] \
  || fail "man does not find the page under $prefix/share/man: $page"
warnings=$(MANWIDTH=80 man --warnings=w -l "$page" 2>&1 >/dev/null) && [ -z "$warnings" ] \
  || fail "man -l roadbook.1: $warnings"
answer=$(bash -c 'source "$1" && COMP_WORDS=(roadbook bu) COMP_CWORD=1 && _roadbook && echo "${COMPREPLY[*]}"' bash \
  "$prefix/share/bash-completion/completions/roadbook" 2>&1) && [ "$answer" = build ] \
  || fail "bash completes 'roadbook bu' to '$answer', not build"
registered=$(zsh -f -c 'fpath=("$1" $fpath); autoload -U compinit && compinit -u -D && print -r -- ${_comps[roadbook]}' zsh \
  "$prefix/share/zsh/site-functions" 2>&1) && [ "$registered" = _roadbook ] \
  || fail "zsh does not take _roadbook from site-functions: $registered"

if [ "$failures" -gt 0 ]; then echo "install-test: $failures failures" >&2; exit 1; fi
echo "install-test: installed, and the installed binary built the sample ($pages pages, $version)"
