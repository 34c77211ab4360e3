#!/usr/bin/env python3
"""Upsample an SRTM3 elevation tile (3 arc-seconds, 1201 x 1201) to SRTM1 (1 arc-second, 3601 x 3601).

    upsample_hgt.py SRC ELEVATION_DIR

SRC is a .hgt file or a .zip holding one (e.g. N42E001.hgt.zip). The result is written to
ELEVATION_DIR/N42/N42E001.hgt, the layout Valhalla's additional_data.elevation expects, and its
path is printed. Valhalla's /height reads only 1-arc-second tiles: it calls an SRTM3 tile corrupt
and answers null.

Every output sample lies on a 3 x 3 subdivision of the source grid: output (3i+a, 3j+b), with
a, b in {0, 1, 2}, is the bilinear interpolation of source samples (i, j), (i, j+1), (i+1, j),
(i+1, j+1) with weights (3-a)(3-b), (3-a)b, a(3-b), ab over 9, rounded to the nearest whole
metre (never a tie: a sum of integers over 9 is never k + 1/2). So every source sample is kept
exactly and the surface is the same bilinear surface as the source to within 0.5 m.
Voids (-32768): an output sample is void when any source sample with a non-zero weight is void.
A source sample that coincides with an output sample is therefore kept as it is, void or not.

Standard library only: rows are upsampled as whole lists (slice assignment, zip), not sample by
sample, and rows without voids take a fast path.
"""

import array
import os
import re
import sys
import time
import zipfile

SRC_SIDE = 1201
DST_SIDE = 3601
VOID = -32768
TILE_NAME = re.compile(r"([NS])(\d{2})([EW])(\d{3})\.hgt$", re.IGNORECASE)


def fail(message):
    print(f"upsample_hgt.py: error: {message}", file=sys.stderr)
    sys.exit(1)


def read_source(path):
    """Returns (tile name like 'N42E001', big-endian bytes of the SRTM3 tile)."""
    if not os.path.isfile(path):
        fail(f"{path}: no such file")
    if zipfile.is_zipfile(path):
        with zipfile.ZipFile(path) as z:
            members = [n for n in z.namelist() if TILE_NAME.search(os.path.basename(n))]
            if len(members) != 1:
                fail(f"{path}: expected exactly one NxxEyyy.hgt inside, found {members or 'none'}")
            member = members[0]
            data = z.read(member)
            name = os.path.basename(member)
    else:
        with open(path, "rb") as f:
            data = f.read()
        name = os.path.basename(path)
    match = TILE_NAME.search(name)
    if not match:
        fail(f"{path}: the tile name '{name}' is not like N42E001.hgt; it says where the tile is")
    tile = f"{match.group(1).upper()}{match.group(2)}{match.group(3).upper()}{match.group(4)}"
    want = SRC_SIDE * SRC_SIDE * 2
    if len(data) != want:
        side = int(round((len(data) / 2) ** 0.5))
        fail(f"{path}: {len(data)} bytes, not an SRTM3 tile ({want} bytes, {SRC_SIDE} x {SRC_SIDE});"
             f" it looks like {side} x {side}")
    return tile, data


def horizontal(row):
    """Source row (1201 ints) -> 3601 values in ninths-of-a-metre / 3, i.e. 3x the interpolated
    value along the row; None where void (a void with a non-zero weight)."""
    out = [0] * DST_SIDE
    left, right = row[:-1], row[1:]
    if VOID not in row:
        out[0::3] = [3 * x for x in row]
        out[1::3] = [2 * x + y for x, y in zip(left, right)]
        out[2::3] = [x + 2 * y for x, y in zip(left, right)]
        return out, False
    out[0::3] = [None if x == VOID else 3 * x for x in row]
    out[1::3] = [None if x == VOID or y == VOID else 2 * x + y for x, y in zip(left, right)]
    out[2::3] = [None if x == VOID or y == VOID else x + 2 * y for x, y in zip(left, right)]
    return out, True


def vertical(upper, lower, a, voids):
    """Output row 3i+a from the horizontally upsampled source rows i and i+1 (lower is unused
    when a == 0). Values are rounded to whole metres: round(n / 9) == (2n + 9) // 18."""
    if a == 0:
        if voids:
            return [VOID if x is None else (6 * x + 9) // 18 for x in upper]
        return [(6 * x + 9) // 18 for x in upper]
    wu, wl = 2 * (3 - a), 2 * a
    if voids:
        return [VOID if x is None or y is None else (wu * x + wl * y + 9) // 18
                for x, y in zip(upper, lower)]
    return [(wu * x + wl * y + 9) // 18 for x, y in zip(upper, lower)]


def upsample(data, out):
    """Writes the SRTM1 tile for the SRTM3 bytes `data` to the binary file `out`, row by row."""
    src = array.array("h", data)
    if sys.byteorder == "little":
        src.byteswap()
    swap = sys.byteorder == "little"

    def emit(values):
        row = array.array("h", values)
        if swap:
            row.byteswap()
        out.write(row.tobytes())

    upper, upper_voids = horizontal(src[0:SRC_SIDE].tolist())
    for i in range(SRC_SIDE - 1):
        lower, lower_voids = horizontal(src[(i + 1) * SRC_SIDE:(i + 2) * SRC_SIDE].tolist())
        emit(vertical(upper, None, 0, upper_voids))
        for a in (1, 2):
            emit(vertical(upper, lower, a, upper_voids or lower_voids))
        upper, upper_voids = lower, lower_voids
    emit(vertical(upper, None, 0, upper_voids))


def main(argv):
    if len(argv) != 3 or argv[1] in ("-h", "--help"):
        print(__doc__, file=sys.stderr)
        return 2
    src_path, elevation_dir = argv[1], argv[2]
    started = time.monotonic()
    tile, data = read_source(src_path)
    target_dir = os.path.join(elevation_dir, tile[:3])
    os.makedirs(target_dir, exist_ok=True)
    target = os.path.join(target_dir, f"{tile}.hgt")
    # Valhalla opens tiles lazily while serving: never let it see a half-written one.
    partial = f"{target}.partial-{os.getpid()}"
    try:
        with open(partial, "wb") as out:
            upsample(data, out)
        size = os.path.getsize(partial)
        if size != DST_SIDE * DST_SIDE * 2:
            fail(f"wrote {size} bytes to {partial}, expected {DST_SIDE * DST_SIDE * 2}")
        os.replace(partial, target)
    finally:
        if os.path.exists(partial):
            os.remove(partial)
    print(f"upsample_hgt.py: {src_path} -> {target} in {time.monotonic() - started:.1f} s",
          file=sys.stderr)
    print(target)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
