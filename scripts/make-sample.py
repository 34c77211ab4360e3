#!/usr/bin/env python3
"""Make samples/andorra-envalira.gpx from a real OSRM car route through Andorra.

Asks a local OSRM (see scripts/engines/osrm.sh) for the route from Sant Julia de
Loria north along the CG-1 and CG-2 over the Port d'Envalira to Pas de la Casa,
writes the full geometry as a GPX 1.1 track with road-book waypoints taken from
OSRM's steps, and writes the expected distances into samples/README.md.

Standard library only. Usage:
    scripts/make-sample.py [--osrm http://127.0.0.1:5917] [--out samples/andorra-envalira.gpx]
                           [--readme samples/README.md]
"""

import argparse
import json
import math
import os
import sys
import tempfile
import urllib.error
import urllib.request
from xml.sax.saxutils import escape, quoteattr

# Via-points chosen by hand on the CG-1 / CG-2 (lon, lat). Each is checked
# against OSRM below: it must snap within VIA_MAX_SNAP_M onto the expected road.
VIAS = [
    ("Sant Julià de Lòria", (1.490203, 42.462961), ("CG-1",)),        # Carrer Francesc Cairat
    ("Santa Coloma", (1.508125, 42.496862), ("CG-1",)),
    ("Andorra la Vella", (1.515740, 42.503204), ("CG-1",)),           # Avinguda de Tarragona
    ("Escaldes-Engordany", (1.540600, 42.507600), ("CG-2",)),
    ("Encamp", (1.584878, 42.533168), ("CG-2",)),
    ("Canillo", (1.598481, 42.566088), ("CG-2",)),            # before the roundabout, not in it
    ("Soldeu", (1.666935, 42.576832), ("CG-2",)),
    ("Port d'Envalira", (1.719332, 42.540217), ("CG-2",)),
    ("Pas de la Casa", (1.732978, 42.542285), ()),                    # town centre, off the CG-2
]
# A via-point further than this from a road was mistyped.
VIA_MAX_SNAP_M = 25.0
# Checkpoints are placed at these via-points (their arrival in OSRM's legs).
CHECKPOINT_VIAS = ("Canillo", "Port d'Envalira")
# How many maneuver notes (besides DSS, ASS and CPs) to keep: the brief wants 8-14 wpts in all.
TURN_NOTES = 10
# Two notes closer than this would share one road-book box.
NOTE_MIN_GAP_M = 300.0
# Real GPS waypoints sit beside the road: these notes (1-based among the turn notes)
# are moved sideways by these metres, to the right of the direction of travel.
OFFSETS_M = {2: 12.0, 6: 22.0}
# Nothing in the sample may be further than this from the track.
MAX_OFFSET_M = 30.0
# Mean Earth radius used by OSRM's haversine (util/coordinate_calculation.hpp).
EARTH_RADIUS_M = 6372797.560856

NOTE_TYPES = {"turn", "end of road", "fork", "roundabout", "rotary", "roundabout turn",
              "on ramp", "off ramp", "merge"}


def fetch(base, path):
    url = base.rstrip("/") + path
    try:
        with urllib.request.urlopen(url, timeout=30) as resp:
            data = json.load(resp)
    except urllib.error.HTTPError as e:
        sys.exit(f"error: OSRM answered HTTP {e.code} for {url}: {e.read()[:300]!r}")
    except urllib.error.URLError as e:
        sys.exit(f"error: no OSRM at {base} ({e.reason}); start it with "
                 "scripts/engines/osrm.sh start DIR/andorra.osrm PORT")
    if data.get("code") != "Ok":
        sys.exit(f"error: OSRM said {data.get('code')}: {data.get('message')} for {url}")
    return data


def haversine(a, b):
    """Distance in metres between (lon, lat) points, as OSRM computes it."""
    lon1, lat1, lon2, lat2 = map(math.radians, (a[0], a[1], b[0], b[1]))
    h = math.sin((lat2 - lat1) / 2) ** 2 + math.cos(lat1) * math.cos(lat2) * math.sin((lon2 - lon1) / 2) ** 2
    return 2 * EARTH_RADIUS_M * math.asin(math.sqrt(h))


def destination(p, bearing_deg, dist_m):
    """Point dist_m from (lon, lat) p on the given compass bearing (spherical)."""
    lon, lat = map(math.radians, p)
    brg = math.radians(bearing_deg)
    d = dist_m / EARTH_RADIUS_M
    lat2 = math.asin(math.sin(lat) * math.cos(d) + math.cos(lat) * math.sin(d) * math.cos(brg))
    lon2 = lon + math.atan2(math.sin(brg) * math.sin(d) * math.cos(lat),
                            math.cos(d) - math.sin(lat) * math.sin(lat2))
    return (math.degrees(lon2), math.degrees(lat2))


def distance_to_line(p, line):
    """Smallest distance in metres from p to the polyline (local equirectangular projection)."""
    best = float("inf")
    k = math.cos(math.radians(p[1]))
    m_per_deg = EARTH_RADIUS_M * math.pi / 180
    px, py = p[0] * k * m_per_deg, p[1] * m_per_deg
    for a, b in zip(line, line[1:]):
        ax, ay = a[0] * k * m_per_deg, a[1] * m_per_deg
        bx, by = b[0] * k * m_per_deg, b[1] * m_per_deg
        dx, dy = bx - ax, by - ay
        seg2 = dx * dx + dy * dy
        t = 0.0 if seg2 == 0 else max(0.0, min(1.0, ((px - ax) * dx + (py - ay) * dy) / seg2))
        best = min(best, math.hypot(px - (ax + t * dx), py - (ay + t * dy)))
    return best


def road_label(step):
    """'CG-2', 'Avinguda de Tarragona (CG-1)' or '' for a step's road."""
    name, ref = step.get("name") or "", step.get("ref") or ""
    if ref == "FIXME":  # a literal placeholder in the 2013 data, not a road number
        ref = ""
    if name and ref:
        return f"{name} ({ref})"
    return name or ref


def ordinal(n):
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def lowercase_first(text):
    return text[:1].lower() + text[1:]


def instruction(steps, i):
    """An English instruction for steps[i], built from its maneuver."""
    step = steps[i]
    m = step["maneuver"]
    kind, mod = m["type"], m.get("modifier", "straight")
    road = road_label(step)
    if kind in ("roundabout", "rotary", "roundabout turn"):
        # OSRM names the road of the roundabout step itself after the exit; when it
        # is unnamed, the following 'exit roundabout' step may carry the name.
        if not road and i + 1 < len(steps) and steps[i + 1]["maneuver"]["type"].startswith("exit"):
            road = road_label(steps[i + 1])
        text = f"Roundabout, {ordinal(m['exit'])} exit" if m.get("exit") else "Roundabout"
        if kind == "roundabout turn" and not m.get("exit"):
            text = f"Roundabout, turn {mod}"
    elif kind == "fork":
        text = "Keep " + ("left" if "left" in mod else "right" if "right" in mod else "straight on")
    elif kind == "end of road":
        text = f"End of road, turn {mod.replace('slight ', '')}"
    elif kind == "arrive":
        text = "Arrive"
    elif kind == "depart":
        compass = ("north", "north-east", "east", "south-east", "south", "south-west", "west", "north-west")
        text = "Head " + compass[int(((m["bearing_after"] + 22.5) % 360) // 45)]
    else:
        if mod == "straight":
            text = "Straight on"
        elif mod.startswith("slight "):
            text = f"Bear {mod[7:]}"
        elif mod.startswith("sharp "):
            text = f"Sharp {mod[6:]}"
        elif mod == "uturn":
            text = "U-turn"
        else:
            text = f"Turn {mod}"
    if road and kind not in ("arrive", "depart"):
        text += f" onto {road}"
    elif road:
        text += f" on {road}"
    dest = step.get("destinations")
    if dest:
        text += f" towards {dest}"
    return text


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--osrm", default="http://127.0.0.1:5917", help="base URL of a car OSRM over the Andorra extract")
    ap.add_argument("--out", default="samples/andorra-envalira.gpx")
    ap.add_argument("--readme", default="samples/README.md")
    args = ap.parse_args()

    # 1. Check every via-point lands on the road it is meant for.
    for label, (lon, lat), refs in VIAS:
        near = fetch(args.osrm, f"/nearest/v1/driving/{lon},{lat}")["waypoints"][0]
        if near["distance"] > VIA_MAX_SNAP_M:
            sys.exit(f"error: via-point {label} {lon},{lat} is {near['distance']:.0f} m from a road")
        if refs:
            slon, slat = near["location"]
            step = fetch(args.osrm, f"/route/v1/driving/{slon},{slat};{slon},{slat}?steps=true")[
                "routes"][0]["legs"][0]["steps"][0]
            if step.get("ref") not in refs:
                sys.exit(f"error: via-point {label} snaps onto {road_label(step)!r}, not {'/'.join(refs)}")

    # 2. The route.
    coords = ";".join(f"{lon},{lat}" for _, (lon, lat), _ in VIAS)
    route = fetch(args.osrm, f"/route/v1/driving/{coords}?steps=true&overview=full&geometries=geojson")["routes"][0]
    line = [tuple(c) for c in route["geometry"]["coordinates"]]
    # Legs meet at their shared via-point, which OSRM repeats; a zero-length segment
    # carries no shape and trips bearing computations, so drop exact repeats only.
    track = [c for k, c in enumerate(line) if k == 0 or c != line[k - 1]]

    # 3. Walk the steps with OSRM's cumulative distance.
    steps, along = [], []
    total = 0.0
    for leg_index, leg in enumerate(route["legs"]):
        for step_index, step in enumerate(leg["steps"]):
            step["_leg"], step["_first"], step["_last"] = leg_index, step_index == 0, step_index == len(leg["steps"]) - 1
            steps.append(step)
            along.append(total)
            total += step["distance"]
    if abs(total - route["distance"]) > 1.0:
        sys.exit(f"error: steps add up to {total:.1f} m but the route is {route['distance']:.1f} m")
    total = route["distance"]
    if any(s["maneuver"]["type"] == "continue" and s["maneuver"].get("modifier") == "uturn" for s in steps):
        sys.exit("error: the route makes a U-turn; a via-point sits on the wrong side of a road")

    last_leg = len(route["legs"]) - 1
    notes = []  # (along, location, name, desc, type, step)
    notes.append((0.0, steps[0]["maneuver"]["location"], "DSS",
                  f"Start of the stage, {VIAS[0][0]}: {lowercase_first(instruction(steps, 0))}", "DSS", steps[0]))
    for cp_number, label in enumerate(CHECKPOINT_VIAS, start=1):
        leg = [v[0] for v in VIAS].index(label) - 1
        i = next(k for k, s in enumerate(steps) if s["_leg"] == leg and s["_last"])
        notes.append((along[i], steps[i]["maneuver"]["location"], f"CP{cp_number}",
                      f"Checkpoint {label}: continue on {road_label(steps[i + 1]) or 'the road'}", "CP", steps[i]))
    i_end = len(steps) - 1
    notes.append((along[i_end], steps[i_end]["maneuver"]["location"], "ASS",
                  f"Finish of the stage, {VIAS[-1][0]}: {lowercase_first(instruction(steps, i_end))}", "ASS", steps[i_end]))

    # Maneuver candidates: real decisions, not via-point arrivals or roundabout exits.
    # 'turn straight' is OSRM noting a road change at a junction, not a decision.
    candidates = [k for k, s in enumerate(steps)
                  if s["maneuver"]["type"] in NOTE_TYPES and not s["_first"] and not s["_last"]
                  and not (s["maneuver"]["type"] == "turn" and s["maneuver"].get("modifier") == "straight")]
    # A test sample wants every kind of maneuver the route has: seed with the first
    # of each kind, then spread the rest along the route, farthest from any note first.
    def kind(k):
        m = steps[k]["maneuver"]
        if m["type"] in ("roundabout", "rotary", "roundabout turn"):
            return "roundabout"
        if m["type"] == "turn":  # slight, plain and sharp turns draw different tulips
            return "turn " + m.get("modifier", "").split(" ")[0] if " " in m.get("modifier", "") else "turn"
        return m["type"]
    chosen = []
    for k in candidates:
        if kind(k) not in {kind(c) for c in chosen}:
            chosen.append(k)
    anchors = [note[0] for note in notes]  # DSS, CPs, ASS
    while len(chosen) < TURN_NOTES:
        def gap(k):
            return min(abs(along[k] - d) for d in anchors + [along[c] for c in chosen])
        free = [k for k in candidates if k not in chosen and gap(k) >= NOTE_MIN_GAP_M]
        if not free:
            break
        chosen.append(max(free, key=gap))  # fill the widest stretch without a note first
    chosen.sort()
    for n, k in enumerate(chosen, start=1):
        step = steps[k]
        loc = tuple(step["maneuver"]["location"])
        if n in OFFSETS_M:
            # Beside the road, to the right of the direction of arrival.
            loc = destination(loc, (step["maneuver"]["bearing_before"] + 90) % 360, OFFSETS_M[n])
        notes.append((along[k], loc, f"R{n}", instruction(steps, k), "", step))
    notes.sort(key=lambda t: (t[0], t[2] != "DSS", t[2] == "ASS"))

    for note in notes:
        off = distance_to_line(note[1], track)
        if off > MAX_OFFSET_M:
            sys.exit(f"error: waypoint {note[2]} is {off:.1f} m from the track (max {MAX_OFFSET_M} m)")
    if not 8 <= len(notes) <= 14:
        sys.exit(f"error: {len(notes)} waypoints; the sample wants 8 to 14")

    # 4. GPX 1.1.
    out = []
    out.append('<?xml version="1.0" encoding="UTF-8"?>')
    out.append('<gpx version="1.1" creator="roadbook scripts/make-sample.py" '
               'xmlns="http://www.topografix.com/GPX/1/1" '
               'xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" '
               'xsi:schemaLocation="http://www.topografix.com/GPX/1/1 http://www.topografix.com/GPX/1/1/gpx.xsd">')
    out.append("  <metadata>")
    out.append("    <name>Andorra — Envalira</name>")
    out.append("    <desc>Car route Sant Julià de Lòria – Andorra la Vella – Escaldes-Engordany – Encamp – "
               "Canillo – Soldeu – Port d'Envalira – Pas de la Casa, computed by OSRM (car profile).</desc>")
    out.append('    <copyright author="OpenStreetMap contributors">')
    out.append("      <year>2013</year>")
    out.append("      <license>https://opendatacommons.org/licenses/odbl/1-0/</license>")
    out.append("    </copyright>")
    out.append("  </metadata>")
    for _, (lon, lat), name, desc, typ, _ in notes:
        out.append(f'  <wpt lat="{lat:.6f}" lon="{lon:.6f}">')
        out.append(f"    <name>{escape(name)}</name>")
        out.append(f"    <desc>{escape(desc)}</desc>")
        out.append(f"    <type>{escape(typ)}</type>")
        out.append("  </wpt>")
    out.append("  <trk>")
    out.append("    <name>Andorra — Envalira</name>")
    out.append("    <trkseg>")
    for lon, lat in track:
        out.append(f'      <trkpt lat="{lat:.6f}" lon="{lon:.6f}"/>')
    out.append("    </trkseg>")
    out.append("  </trk>")
    out.append("</gpx>")
    write_atomically(args.out, "\n".join(out) + "\n")

    # 5. Report and README table.
    print(f"route: {total:.1f} m ({total / 1000:.2f} km), {route['duration'] / 60:.1f} min, "
          f"{len(track)} track points ({len(line)} from OSRM), {len(notes)} waypoints")
    # The same distances measured along the written track (haversine between its
    # points), which is what a reader of the GPX alone can compute.
    track_along = [0.0]
    for a, b in zip(track, track[1:]):
        track_along.append(track_along[-1] + haversine(a, b))
    rows, start = [], 0
    for d, (lon, lat), name, desc, typ, step in notes:
        at = tuple(step["maneuver"]["location"])
        start = next((v for v in range(start, len(track)) if track[v] == at), None)
        if start is None:
            sys.exit(f"error: the maneuver of {name} at {at} is not a vertex of the track")
        off = distance_to_line((lon, lat), track)
        print(f"  {name:4} {typ:4} {d / 1000:7.2f} km  (track {track_along[start] / 1000:7.2f} km)  "
              f"{off:5.1f} m off  {desc}")
        rows.append(f"| {name} | {typ} | {d / 1000:.2f} | {track_along[start] / 1000:.2f} | {off:.0f} | {desc} |")
    update_readme(args.readme, total, track_along[-1], rows)


def write_atomically(path, text):
    directory = os.path.dirname(os.path.abspath(path))
    os.makedirs(directory, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=directory, prefix=".tmp-", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(tmp, 0o666 & ~umask)  # mkstemp makes 0600; a sample is an ordinary file
        os.replace(tmp, path)
    except BaseException:
        os.unlink(tmp)
        raise


BEGIN, END = "<!-- expected-table:begin -->", "<!-- expected-table:end -->"


def update_readme(path, total, track_total, rows):
    """Replaces the generated table between the markers in the README."""
    table = "\n".join([
        BEGIN,
        f"Total distance (OSRM): **{total / 1000:.2f} km** ({total:.1f} m); "
        f"along the track points: {track_total / 1000:.2f} km ({track_total:.1f} m).",
        "",
        "| waypoint | type | distance along (km) | along the track points (km) | metres off the track | desc |",
        "|---|---|---:|---:|---:|---|",
        *rows,
        END,
    ])
    with open(path, encoding="utf-8") as f:
        text = f.read()
    if BEGIN not in text or END not in text:
        sys.exit(f"error: {path} lacks the markers {BEGIN} and {END}; add them where the table goes")
    head, rest = text.split(BEGIN, 1)
    _, tail = rest.split(END, 1)
    write_atomically(path, head + table + tail)


if __name__ == "__main__":
    main()
