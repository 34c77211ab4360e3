#!/usr/bin/env python3
"""Writes samples/data/andorra/andorra-restrictions.osm.pbf: the Andorra extract with turn
restrictions added at real junctions, to test the embedded router's restrictions against OSRM.

The Andorra extract in samples/data/andorra holds no turn restriction relations, so a comparison of
the embedded router with OSRM on it cannot tell whether either honours them. This script draws, with
a fixed seed, junctions of drivable roads where every road ends (as the OSM wiki asks of a
restriction's from and to ways, and as OSRM and our reader require), and adds one restriction
relation at each: two in three `no_*` (one turn forbidden), one in three `only_*` (all turns but one
forbidden from that road). Each restricted turn is one a car may otherwise take: the from way may be
driven towards the junction and the to way away from it. The relations are synthetic and exist only
for the tests; everything else is the extract as it is.

Usage: scripts/make-restriction-extract.py [SOURCE.osm.pbf] [OUT.osm.pbf]
Needs osmium (Debian package osmium-tool) to read and write PBF; the output is committed, so tests
and CI never run this script.
"""
import math
import os
import random
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET

SEED = 20261201
COUNT = 60
FIRST_ID = 9_000_000_001
ROADS = {"motorway", "trunk", "primary", "secondary", "tertiary", "unclassified", "residential",
         "motorway_link", "trunk_link", "primary_link", "secondary_link", "tertiary_link"}
CLOSED = {"no", "private"}


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    folder = os.path.join(here, "..", "samples", "data", "andorra")
    source = sys.argv[1] if len(sys.argv) > 1 else os.path.join(folder, "andorra.osm.pbf")
    out = sys.argv[2] if len(sys.argv) > 2 else os.path.join(folder, "andorra-restrictions.osm.pbf")
    with tempfile.TemporaryDirectory() as tmp:
        xml = os.path.join(tmp, "extract.osm")
        subprocess.run(["osmium", "cat", source, "-o", xml, "-f", "osm"], check=True)
        nodes, ways = read(xml)
        relations = restrictions(nodes, ways)
        extra = os.path.join(tmp, "restrictions.osm")
        write(relations, extra)
        subprocess.run(["osmium", "merge", source, extra, "-o", out, "--overwrite"], check=True)
    kinds = {}
    for r in relations:
        kinds[r["type"]] = kinds.get(r["type"], 0) + 1
    print(f"{out}: {len(relations)} restrictions added ({', '.join(f'{v} {k}' for k, v in sorted(kinds.items()))})")


def read(path):
    nodes, ways = {}, {}
    for _, el in ET.iterparse(path):
        if el.tag == "node":
            nodes[int(el.get("id"))] = (float(el.get("lat")), float(el.get("lon")))
        elif el.tag == "way":
            tags = {t.get("k"): t.get("v") for t in el.findall("tag")}
            refs = [int(n.get("ref")) for n in el.findall("nd")]
            if usable(tags) and len(refs) >= 2:
                ways[int(el.get("id"))] = (refs, tags)
            el.clear()
    return nodes, ways


def usable(tags):
    if tags.get("highway") not in ROADS or tags.get("area") == "yes" or tags.get("junction") in ("roundabout", "circular"):
        return False
    return not any(tags.get(k) in CLOSED for k in ("access", "vehicle", "motor_vehicle", "motorcar"))


def direction(tags):
    """+1 forward only, -1 backward only, 0 both ways."""
    oneway = tags.get("oneway")
    if oneway in ("yes", "1", "true"):
        return 1
    if oneway == "-1":
        return -1
    if oneway == "no":
        return 0
    return 1 if tags.get("highway") in ("motorway",) else 0


def bearing(a, b):
    (la1, lo1), (la2, lo2) = a, b
    y = math.sin(math.radians(lo2 - lo1)) * math.cos(math.radians(la2))
    x = math.cos(math.radians(la1)) * math.sin(math.radians(la2)) - math.sin(math.radians(la1)) * math.cos(math.radians(la2)) * math.cos(math.radians(lo2 - lo1))
    return math.degrees(math.atan2(y, x)) % 360


def restrictions(nodes, ways):
    # The ways ending at each node: (way id, the node next to it along the way, whether the way may be
    # driven into the node, whether it may be driven out of it).
    ends, neighbours = {}, {}
    for wid, (refs, tags) in ways.items():
        for k, node in enumerate(refs):
            around = neighbours.setdefault(node, set())
            if k > 0:
                around.add(refs[k - 1])
            if k + 1 < len(refs):
                around.add(refs[k + 1])
        d = direction(tags)
        for node, neighbour, at_last in ((refs[0], refs[1], False), (refs[-1], refs[-2], True)):
            into = d == 0 or (d == 1) == at_last
            out_of = d == 0 or (d == 1) != at_last
            ends.setdefault(node, []).append((wid, neighbour, into, out_of))
    # Junctions of three roads or more (ways passing through counted) where two of them end. Only
    # turns are banned, as most real restrictions do, never going straight on along a road: along
    # a valley's one road that would cut the valley in two.
    junctions = sorted(n for n, e in ends.items() if len({w for w, *_ in e}) >= 2 and len(neighbours[n]) >= 3 and n in nodes)
    rng = random.Random(SEED)
    rng.shuffle(junctions)
    relations = []
    for via in junctions:
        if len(relations) >= COUNT:
            break
        e = [end for end in ends[via] if end[1] in nodes]
        only = len(relations) % 3 == 2

        def turn(a, b):
            return (bearing(nodes[via], nodes[b[1]]) - bearing(nodes[a[1]], nodes[via]) + 540) % 360 - 180
        # A `no_left_turn` or `no_right_turn` bans a turn of 45° to 135°; an `only_straight_on` bans
        # the turns off a road that goes on within 30° of straight.
        pairs = [(a, b) for a in e for b in e if a[0] != b[0] and a[2] and b[3]
                 and (abs(turn(a, b)) < 30 if only else 45 <= abs(turn(a, b)) <= 135)]
        if not pairs:
            continue
        a, b = rng.choice(pairs)
        kind = "only_straight_on" if only else ("no_left_turn" if turn(a, b) < 0 else "no_right_turn")
        relations.append({"id": FIRST_ID + len(relations), "type": kind, "from": a[0], "via": via, "to": b[0]})
    return relations


def write(relations, path):
    with open(path, "w", encoding="utf-8") as f:
        f.write('<?xml version="1.0" encoding="UTF-8"?>\n<osm version="0.6" generator="make-restriction-extract.py">\n')
        for r in relations:
            f.write(f'  <relation id="{r["id"]}" version="1">\n'
                    f'    <member type="way" ref="{r["from"]}" role="from"/>\n'
                    f'    <member type="node" ref="{r["via"]}" role="via"/>\n'
                    f'    <member type="way" ref="{r["to"]}" role="to"/>\n'
                    f'    <tag k="type" v="restriction"/>\n'
                    f'    <tag k="restriction" v="{r["type"]}"/>\n'
                    f'    <tag k="note" v="synthetic, for roadbook tests only"/>\n'
                    f'  </relation>\n')
        f.write('</osm>\n')


if __name__ == "__main__":
    main()
