#!/usr/bin/env python3
"""Writes a GPX track with N waypoints (one row each) for the kill test: a wiggly line in the
Pyrenees, a track point every ~50 m and a waypoint every 4th point. Deterministic: same N, same
bytes. Usage: make-long-gpx.py N OUT.gpx"""
import math
import sys

rows = int(sys.argv[1])
out = sys.argv[2]
points = rows * 4
lines = ['<?xml version="1.0" encoding="UTF-8"?>',
         '<gpx version="1.1" creator="make-long-gpx" xmlns="http://www.topografix.com/GPX/1/1">',
         '<metadata><name>Kill test</name></metadata>']
def coordinate(i):
    lat = 42.0 + i * 0.00045
    lon = 1.0 + 0.002 * math.sin(i / 7.0)
    return lat, lon
for r in range(rows):
    lat, lon = coordinate(r * 4 + 2)
    lines.append(f'<wpt lat="{lat:.6f}" lon="{lon:.6f}"><name>R{r + 1}</name><desc>Row {r + 1} marker</desc></wpt>')
lines.append('<trk><name>Kill test</name><trkseg>')
for i in range(points):
    lat, lon = coordinate(i)
    lines.append(f'<trkpt lat="{lat:.6f}" lon="{lon:.6f}"/>')
lines.append('</trkseg></trk></gpx>')
with open(out, "w") as f:
    f.write("\n".join(lines) + "\n")
