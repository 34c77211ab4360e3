#!/usr/bin/env bash
# Regenerates Tests/GeoTests/GeodesicFixtures.swift: reference answers for our WGS84
# geodesics, computed by GeographicLib's GeodSolve (Debian package geographiclib-tools).
#
#   scripts/make-geodesic-fixtures.sh            # writes the Swift file
#
# Inputs are pseudo-random but reproducible (Park–Miller "minimal standard" generator,
# fixed seed, integer arithmetic exact in awk's doubles, so mawk and gawk agree), plus
# deliberate hard cases: nearly antipodal, exactly antipodal, equatorial (both sides of the
# (1 − f)·180° limit where the shortest path leaves the equator), polar (±90 and ±89.9999),
# meridional, coincident, sub-metre (1 mm – 1 m) and long (> 15 000 km) pairs, and the
# inverse problems GeographicLib's own tests single out as numerically delicate.
# Every input is written once as a decimal string; that same string goes to GeodSolve and
# into the Swift literal, so both sides parse the identical double.
set -euo pipefail

command -v GeodSolve >/dev/null || { echo "GeodSolve not found: apt-get install geographiclib-tools" >&2; exit 1; }

root=$(cd "$(dirname "$0")/.." && pwd)
out="$root/Tests/GeoTests/GeodesicFixtures.swift"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# ---- inverse inputs: "label azimuthDefined lat1 lon1 lat2 lon2" --------------------------
awk -v seed=20240611 '
function rnd() { state = (state * 48271) % 2147483647; return state / 2147483647 }
function uni(lo, hi) { return lo + (hi - lo) * rnd() }
function wrap(x) { while (x > 180) x -= 360; while (x < -180) x += 360; return x }
function emit(label, defined, la1, lo1, la2, lo2) {
  printf "%s %s %.12f %.12f %.12f %.12f\n", label, defined, la1, lo1, la2, lo2
}
BEGIN {
  state = seed
  # Random pairs anywhere on the globe.
  for (i = 0; i < 150; i++) emit("random", "true", uni(-90, 90), uni(-180, 180), uni(-90, 90), uni(-180, 180))
  # Short lines, 10 m to 100 km: typical road-book legs.
  for (i = 0; i < 20; i++) {
    la = uni(-85, 85); lo = uni(-180, 180); d = exp(uni(log(10), log(1e5))); az = uni(0, 2 * 3.141592653589793)
    emit("short", "true", la, lo, la + d * cos(az) / 111320, wrap(lo + d * sin(az) / (111320 * cos(la * 3.141592653589793 / 180))))
  }
  # Sub-metre lines, 1 mm to 1 m.
  for (i = 0; i < 15; i++) {
    la = uni(-85, 85); lo = uni(-180, 180); d = exp(uni(log(1e-3), log(1))); az = uni(0, 2 * 3.141592653589793)
    emit("submetre", "true", la, lo, la + d * cos(az) / 111320, wrap(lo + d * sin(az) / (111320 * cos(la * 3.141592653589793 / 180))))
  }
  # Nearly antipodal: within half a degree, and within 1e-5 degree, of the antipode.
  for (i = 0; i < 20; i++) {
    la = uni(-80, 80); lo = uni(-180, 180)
    emit("nearAntipodal", "true", la, lo, -la + uni(-0.25, 0.25), wrap(lo + 180 - uni(0, 1)))
  }
  for (i = 0; i < 6; i++) {
    la = uni(-80, 80); lo = uni(-180, 180)
    emit("nearAntipodal", "true", la, lo, -la + uni(-1e-5, 1e-5), wrap(lo + 180 - uni(0, 1e-5)))
  }
  # Exactly antipodal: the shortest geodesic is not unique.
  emit("antipodal", "false", 0, 0, 0, 180)
  emit("antipodal", "false", 30, 10, -30, -170)
  emit("antipodal", "false", -45.5, 120, 45.5, -60)
  emit("antipodal", "false", 90, 0, -90, 0)
  # Equatorial. Beyond lon12 = (1 - f) 180 = 179.3966 degrees the shortest path leaves the
  # equator and there are two mirror-image shortest paths, so the azimuth is not unique.
  split("0.001 1 10 45 90 135 170 179 179.3 179.39", eq, " ")
  for (i = 1; i <= 10; i++) { lo = uni(-180, 180); emit("equatorial", "true", 0, lo, 0, wrap(lo + eq[i])) }
  for (i = 1; i <= 4; i++) { lo = uni(-180, 180); emit("equatorial", "true", 0, lo, 0, wrap(lo - eq[i + 3])) }
  split("179.4 179.5 179.9 179.999", eqf, " ")
  for (i = 1; i <= 4; i++) { lo = uni(-180, 180); emit("equatorial", "false", 0, lo, 0, wrap(lo + eqf[i])) }
  # Polar. At an exact pole the azimuth depends on the longitude convention (not unique).
  for (i = 0; i < 4; i++) emit("polar", "false", 90, uni(-180, 180), uni(-90, 90), uni(-180, 180))
  for (i = 0; i < 4; i++) emit("polar", "false", uni(-90, 90), uni(-180, 180), -90, uni(-180, 180))
  emit("polar", "false", 90, 0, 90, 45)
  emit("polar", "false", -90, 0, 90, 0)
  for (i = 0; i < 5; i++) emit("polar", "true", 89.9999, uni(-180, 180), uni(-90, 90), uni(-180, 180))
  for (i = 0; i < 5; i++) emit("polar", "true", uni(-90, 90), uni(-180, 180), -89.9999, uni(-180, 180))
  emit("polar", "true", 89.9999, 0, 89.9999, 180)
  emit("polar", "true", -89.9999, 10, -89.9999, 11)
  emit("polar", "true", 89.9999, 0, -89.9999, 0.5)
  # Meridional: same longitude, or opposite longitudes with the path over a pole.
  for (i = 0; i < 8; i++) { lo = uni(-180, 180); emit("meridional", "true", uni(-89, 89), lo, uni(-89, 89), lo) }
  for (i = 0; i < 6; i++) { lo = uni(-180, 180); emit("meridional", "true", uni(10, 89), lo, uni(10, 89), wrap(lo + 180)) }
  for (i = 0; i < 3; i++) { lo = uni(-180, 180); emit("meridional", "true", uni(-89, -10), lo, uni(-89, -10), wrap(lo + 180)) }
  # Coincident points: distance 0, azimuth undefined.
  for (i = 0; i < 5; i++) { la = uni(-90, 90); lo = uni(-180, 180); emit("coincident", "false", la, lo, la, lo) }
  emit("coincident", "false", 0, 0, 0, 0)
  # Long lines, more than about 15 000 km.
  for (i = 0; i < 20; i++) {
    la = uni(-70, 70); lo = uni(-180, 180)
    emit("long", "true", la, lo, -la + uni(-30, 30), wrap(lo + 180 - uni(5, 40) * (rnd() < 0.5 ? 1 : -1)))
  }
  # Delicate inverse problems from the GeographicLib history (kept with all their digits).
  print "hard true 88.202499451857 0 -88.202499451857 179.981022032992859592"
  print "hard true 89.262080389218 0 -89.262080389218 179.992207982775375662"
  print "hard true 89.333123580033 0 -89.333123580032997687 179.99295812360148422"
  print "hard true 56.320923501171 0 -56.320923501171 179.664747671772880215"
  print "hard true 48.522876735459 0 -48.52287673545898293 179.599720456223079643"
  print "hard true 20.001 0 20.001 0.0000000001"
  print "hard true 0 0 0.000000000001 -179.99999999"
  print "antipodal false 0.07476 0 -0.07476 180"
  print "antipodal false 0.1 0 -0.1 180"
  print "hard true 36.530042355041 0 -48.164567277157 179.7925166909"
  print "hard true -48.164567277157 0 36.530042355041 179.7925166909"
}' > "$tmp/inv.in"

# ---- direct inputs: "label lat1 lon1 azi1 s12" ------------------------------------------
awk -v seed=77031 '
function rnd() { state = (state * 48271) % 2147483647; return state / 2147483647 }
function uni(lo, hi) { return lo + (hi - lo) * rnd() }
function emit(label, la, lo, az, s) { printf "%s %.12f %.12f %.12f %.6f\n", label, la, lo, az, s }
BEGIN {
  state = seed
  # Random start and azimuth; distances log-uniform from 1 m to 20 000 km.
  for (i = 0; i < 60; i++) emit("random", uni(-89.9, 89.9), uni(-180, 180), uni(-180, 180), exp(uni(0, log(2e7))))
  # Sub-metre steps.
  for (i = 0; i < 10; i++) printf "submetre %.12f %.12f %.12f %.9f\n", uni(-89, 89), uni(-180, 180), uni(0, 360), exp(uni(log(1e-3), 0))
  # From the poles.
  for (i = 0; i < 5; i++) emit("polar", 90, uni(-180, 180), uni(-180, 180), uni(1, 1.5e7))
  for (i = 0; i < 5; i++) emit("polar", -90, uni(-180, 180), uni(-180, 180), uni(1, 1.5e7))
  for (i = 0; i < 4; i++) emit("polar", 89.9999, uni(-180, 180), uni(-180, 180), uni(10, 1e6))
  # Along the equator, east and west, including more than once round.
  for (i = 0; i < 8; i++) emit("equatorial", 0, uni(-180, 180), (i % 2 ? 90 : -90), uni(1, 5e7))
  # Along meridians, including over a pole.
  for (i = 0; i < 8; i++) emit("meridional", uni(-89, 89), uni(-180, 180), (i % 2 ? 0 : 180), uni(1, 2e7))
  # Long: half to twice round the globe.
  for (i = 0; i < 10; i++) emit("long", uni(-80, 80), uni(-180, 180), uni(-180, 180), uni(2e7, 8e7))
  # Negative distances travel backwards along the geodesic.
  for (i = 0; i < 5; i++) emit("negative", uni(-80, 80), uni(-180, 180), uni(-180, 180), -uni(1, 1e7))
}' > "$tmp/dir.in"

# ---- reference answers -------------------------------------------------------------------
cut -d' ' -f3- "$tmp/inv.in" | GeodSolve -i -p 12 > "$tmp/inv.out"     # azi1 azi2 s12
cut -d' ' -f2- "$tmp/dir.in" | GeodSolve -p 12 > "$tmp/dir.out"        # lat2 lon2 azi2
[ "$(wc -l < "$tmp/inv.in")" -eq "$(wc -l < "$tmp/inv.out")" ] || { echo "GeodSolve -i output mismatch" >&2; exit 1; }
[ "$(wc -l < "$tmp/dir.in")" -eq "$(wc -l < "$tmp/dir.out")" ] || { echo "GeodSolve output mismatch" >&2; exit 1; }

version=$(GeodSolve --version 2>&1 | head -n1)
{
  echo "// Generated by scripts/make-geodesic-fixtures.sh from $version. Do not edit;"
  echo "// rerun the script instead. Reference answers for the WGS84 ellipsoid."
  echo ""
  echo "/// One inverse problem and GeodSolve's answer (GeodSolve -i -p 12)."
  echo "struct InverseFixture {"
  echo "    /// Which family of cases it belongs to (random, antipodal, polar, ...)."
  echo "    let label: String"
  echo "    /// False where the shortest geodesic or its azimuth is not unique (coincident, exactly"
  echo "    /// antipodal, an end at a pole, equatorial beyond (1 − f)·180°)."
  echo "    let azimuthDefined: Bool"
  echo "    let lat1: Double, lon1: Double, lat2: Double, lon2: Double"
  echo "    /// Azimuths in degrees, (−180, 180], and distance in metres."
  echo "    let azi1: Double, azi2: Double, s12: Double"
  echo "}"
  echo ""
  echo "/// One direct problem and GeodSolve's answer (GeodSolve -p 12)."
  echo "struct DirectFixture {"
  echo "    let label: String"
  echo "    /// Start (degrees), initial azimuth (degrees) and distance (metres)."
  echo "    let lat1: Double, lon1: Double, azi1: Double, s12: Double"
  echo "    /// End point and azimuth there (degrees)."
  echo "    let lat2: Double, lon2: Double, azi2: Double"
  echo "}"
  echo ""
  echo "let inverseFixtures: [InverseFixture] = ["
  paste -d' ' "$tmp/inv.in" "$tmp/inv.out" | awk '{
    printf "    InverseFixture(label: \"%s\", azimuthDefined: %s, lat1: %s, lon1: %s, lat2: %s, lon2: %s, azi1: %s, azi2: %s, s12: %s),\n", $1, $2, $3, $4, $5, $6, $7, $8, $9
  }'
  echo "]"
  echo ""
  echo "let directFixtures: [DirectFixture] = ["
  paste -d' ' "$tmp/dir.in" "$tmp/dir.out" | awk '{
    printf "    DirectFixture(label: \"%s\", lat1: %s, lon1: %s, azi1: %s, s12: %s, lat2: %s, lon2: %s, azi2: %s),\n", $1, $2, $3, $4, $5, $6, $7, $8
  }'
  echo "]"
} > "$out"

echo "wrote $(grep -c 'InverseFixture(label' "$out") inverse and $(grep -c 'DirectFixture(label' "$out") direct cases to ${out#"$root"/}"
