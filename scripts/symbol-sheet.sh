#!/usr/bin/env bash
# Renders every symbol of a folder into one contact sheet, to look at the drawings as a road book
# prints them: each at 8 mm at 300 dpi (95 px) and at 32 px, its name underneath, grouped as the
# folder's symbols.json groups them. Checks each file on the way: it must be well-formed XML
# (xmllint) and rsvg-convert must draw it without a word on stderr; any failure is named and the
# script exits 1. With -r each file must also keep the drawing rules of Symbols/README.md.
#
#   scripts/symbol-sheet.sh [-r] [-o OUT.png] [-c COLUMNS] [-g GROUP,...] [DIR]
#
# DIR defaults to Symbols/ of this checkout, OUT to symbols-sheet.png in the current folder,
# COLUMNS to 10. -g draws only the groups named. Needs rsvg-convert (Debian librsvg2-bin), xmllint
# (libxml2-utils) and python3. docs/symbols.png is this script's output for Symbols/.
set -euo pipefail

here=$(cd "$(dirname "$0")/.." && pwd)
out=symbols-sheet.png
columns=10
group=
rules=0
while getopts "ro:c:g:h" opt; do
    case $opt in
        r) rules=1 ;;
        o) out=$OPTARG ;;
        c) columns=$OPTARG ;;
        g) group=$OPTARG ;;
        *) sed -n '2,12p' "$0" | sed 's/^# \{0,1\}//'; exit 2 ;;
    esac
done
shift $((OPTIND - 1))
dir=${1:-$here/Symbols}

for tool in rsvg-convert xmllint python3; do
    command -v "$tool" >/dev/null || { echo "symbol-sheet: $tool is missing (apt-get install librsvg2-bin libxml2-utils python3)" >&2; exit 1; }
done
[ -d "$dir" ] || { echo "symbol-sheet: $dir is not a folder" >&2; exit 1; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

failed=0
shopt -s nullglob
files=("$dir"/*.svg)
[ ${#files[@]} -gt 0 ] || { echo "symbol-sheet: no .svg file in $dir" >&2; exit 1; }
for svg in "${files[@]}"; do
    name=$(basename "$svg" .svg)
    if ! xmllint --noout "$svg" 2>"$work/err"; then
        echo "symbol-sheet: $svg is not well-formed: $(head -1 "$work/err")" >&2; failed=1; continue
    fi
    for size in 95 32; do
        if ! rsvg-convert -w "$size" -h "$size" -o "$work/$name.$size.png" "$svg" 2>"$work/err" || [ -s "$work/err" ]; then
            echo "symbol-sheet: rsvg-convert on $svg: $(head -1 "$work/err")" >&2; failed=1
        fi
    done
done
[ "$failed" = 0 ] || exit 1

if [ "$rules" = 1 ]; then
    python3 - "${files[@]}" <<'PY' || failed=1
# The drawing rules of Symbols/README.md, file by file.
import sys, xml.etree.ElementTree as ET
NS = "{http://www.w3.org/2000/svg}"
SHAPES = {"path", "rect", "circle", "ellipse", "line", "polyline", "polygon"}
ALLOWED = SHAPES | {"svg", "title", "g", "text"}
bad = False
for path in sys.argv[1:]:
    problems = set()
    raw = open(path, encoding="utf-8").read()
    if "<!--" in raw:
        problems.add("a comment")
    root = ET.fromstring(raw)
    if (root.get("viewBox"), root.get("width"), root.get("height")) != ("0 0 100 100", "100", "100"):
        problems.add('not viewBox="0 0 100 100" width="100" height="100"')
    title = root.find(NS + "title")
    if title is None or not (title.text or "").strip():
        problems.add("no <title>")
    red = path.rsplit("/", 1)[-1].startswith("danger")
    def walk(el, inherited):
        style = dict(inherited)
        for key in ("stroke", "stroke-width"):
            if el.get(key) is not None:
                style[key] = el.get(key)
        tag = el.tag.replace(NS, "")
        if tag not in ALLOWED:
            problems.add(f"element <{tag}>")
        for key, value in el.attrib.items():
            if key in ("stroke", "fill") and value not in ("#000", "none") and not (red and value == "#d00000"):
                problems.add(f"colour {value}")
            if "href" in key or key.startswith("on") or key in ("style", "filter", "mask", "clip-path"):
                problems.add(f"attribute {key}")
        if tag in SHAPES and style.get("stroke", "none") != "none" and float(style.get("stroke-width", "1")) < 6:
            problems.add(f"a stroke {style.get('stroke-width', '1')} wide (at least 6)")
        if tag == "text":
            if float(el.get("font-size", "0")) < 28:
                problems.add(f"text of size {el.get('font-size')} (at least 28)")
            if el.get("font-family") != "DejaVu Sans" or el.get("font-weight") != "bold":
                problems.add("text not in DejaVu Sans bold")
        for child in el:
            walk(child, style)
    walk(root, {})
    if problems:
        bad = True
        print(f"symbol-sheet: {path}: " + "; ".join(sorted(problems)), file=sys.stderr)
sys.exit(1 if bad else 0)
PY
fi
[ "$failed" = 0 ] || exit 1

python3 - "$dir" "$work" "$columns" "$group" >"$work/sheet.svg" <<'PY'
import base64, json, os, sys
from xml.sax.saxutils import escape

folder, work, columns, only = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
names = sorted(n[:-4] for n in os.listdir(folder) if n.endswith(".svg"))
groups = []   # (group id, [names])
catalogue = os.path.join(folder, "symbols.json")
if os.path.exists(catalogue):
    with open(catalogue, encoding="utf-8") as fh:
        data = json.load(fh)
    by_group = {}
    for s in data.get("symbols", []):
        if s["name"] in names:
            by_group.setdefault(s.get("group", "other"), []).append(s["name"])
    listed = {n for ns in by_group.values() for n in ns}
    order = [g["id"] for g in data.get("groups", [])] + [g for g in by_group if g not in {x["id"] for x in data.get("groups", [])}]
    groups = [(g, by_group[g]) for g in order if g in by_group]
    rest = [n for n in names if n not in listed]
    if rest:
        groups.append(("not in symbols.json", rest))
else:
    groups = [("symbols", names)]
if only:
    wanted = only.split(",")
    groups = [(g, ns) for g, ns in groups if g in wanted]

cell_w, cell_h, pad, head = 140, 128, 12, 30
width = pad * 2 + columns * cell_w
parts, y = [], pad

def data_uri(path):
    with open(path, "rb") as fh:
        return "data:image/png;base64," + base64.b64encode(fh.read()).decode("ascii")

for gid, members in groups:
    parts.append(f'<text x="{pad}" y="{y + 21}" font-family="DejaVu Sans" font-weight="bold" font-size="18">{escape(gid)} ({len(members)})</text>')
    y += head
    for i, name in enumerate(members):
        cx, cy = pad + (i % columns) * cell_w, y + (i // columns) * cell_h
        parts.append(f'<rect x="{cx + 2}" y="{cy}" width="{cell_w - 4}" height="{cell_h - 6}" fill="none" stroke="#ccc"/>')
        parts.append(f'<image x="{cx + 4}" y="{cy + 4}" width="95" height="95" href="{data_uri(os.path.join(work, name + ".95.png"))}"/>')
        parts.append(f'<image x="{cx + 104}" y="{cy + 67}" width="32" height="32" href="{data_uri(os.path.join(work, name + ".32.png"))}"/>')
        parts.append(f'<text x="{cx + cell_w / 2}" y="{cy + 115}" text-anchor="middle" font-family="DejaVu Sans" font-size="11">{escape(name)}</text>')
    y += ((len(members) + columns - 1) // columns) * cell_h + 6
height = y + pad
print(f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}">')
print(f'<rect width="{width}" height="{height}" fill="#fff"/>')
print("\n".join(parts))
print("</svg>")
PY
rsvg-convert -o "$work/sheet.png" "$work/sheet.svg"

# The sheet has few colours (greys and the danger red's shades): stored with a palette it is a
# third of the size rsvg-convert writes, small enough to keep in docs/.
python3 - "$work/sheet.png" "$out" <<'PY'
import struct, sys, zlib

def chunks(data):
    pos = 8
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        yield kind, data[pos + 8:pos + 8 + length]
        pos += 12 + length

def paeth(a, b, c):
    p = a + b - c
    pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
    return a if pa <= pb and pa <= pc else b if pb <= pc else c

source, target = sys.argv[1], sys.argv[2]
data = open(source, "rb").read()
idat = b""
for kind, body in chunks(data):
    if kind == b"IHDR":
        width, height, depth, colour, _, _, interlace = struct.unpack(">IIBBBBB", body)
    elif kind == b"IDAT":
        idat += body
if depth != 8 or colour not in (2, 6) or interlace:
    open(target, "wb").write(data)      # not a layout this knows: kept as rsvg-convert wrote it
    sys.exit(0)
bpp = 3 if colour == 2 else 4
raw, stride = zlib.decompress(idat), width * bpp
low, high = int("7f" * stride, 16), int("80" * stride, 16)
rows, previous, at = [], bytes(stride), 0
for _ in range(height):
    kind, row = raw[at], raw[at + 1:at + 1 + stride]
    at += 1 + stride
    if kind == 2:                          # up: added byte by byte, without carries, as integers
        x, y = int.from_bytes(row, "big"), int.from_bytes(previous, "big")
        row = (((x & low) + (y & low)) ^ ((x ^ y) & high)).to_bytes(stride, "big")
    elif kind:
        row = bytearray(row)
        for i in range(stride):
            a = row[i - bpp] if i >= bpp else 0
            b = previous[i]
            if kind == 1:
                row[i] = (row[i] + a) & 255
            elif kind == 3:
                row[i] = (row[i] + (a + b) // 2) & 255
            else:
                c = previous[i - bpp] if i >= bpp else 0
                row[i] = (row[i] + paeth(a, b, c)) & 255
        row = bytes(row)
    rows.append(row)
    previous = row
palette = None
for shift in (2, 3, 4):
    levels = bytes(v >> shift for v in range(256))
    found, indices = {}, bytearray()
    for row in rows:
        indices.append(0)                  # filter: none
        pixels = row.translate(levels)
        for i in range(0, stride, bpp):
            indices.append(found.setdefault(pixels[i:i + 3], len(found)))
        if len(found) > 256:
            break
    else:
        palette = found
        break
if palette is None:
    open(target, "wb").write(data)
    sys.exit(0)
top = 255 >> shift
plte = b"".join(bytes(round(v * 255 / top) for v in key) for key in palette)

def chunk(kind, body):
    return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))

open(target, "wb").write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 3, 0, 0, 0))
                         + chunk(b"PLTE", plte) + chunk(b"IDAT", zlib.compress(bytes(indices), 9)) + chunk(b"IEND", b""))
PY
echo "symbol-sheet: $(ls "$dir"/*.svg | wc -l) symbols checked, sheet in $out"
