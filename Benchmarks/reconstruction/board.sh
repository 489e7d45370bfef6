#!/usr/bin/env bash
# A flat printed board seen from a metre: keyframe poses and the marker map against the truth.
# Usage: Benchmarks/reconstruction/board.sh [SEEDS...]   (default: 1 2 3)
# Each seed simulates 10 s of twelve 95.5 mm AprilTag 36h11 tags at 1 m with the TrueDepth
# sensor's distance-dependent depth noise (about 6 mm per pixel there), reconstructs the map and
# poses alone (--map-only), and prints pose errors (absolute after alignment through the map, and
# between consecutive keyframes) and the map's flatness (see board_poses.py).
# BASELINE=path/to/other/headscan runs that binary on the same recordings too, for comparison.
set -euo pipefail
cd "$(dirname "$0")/../.."
SEEDS=${*:-1 2 3}
OUT=Benchmarks/reconstruction/out/board
mkdir -p "$OUT"
swift build -c release --product headscan >/dev/null
H=.build/release/headscan
for seed in $SEEDS; do
  name="$OUT/seed$seed"
  [ -f "$name.hscan" ] || "$H" simulate-board --seed "$seed" --out "$name.hscan" --truth "$name.truth.json" --overwrite >/dev/null
  for binary in "$H" ${BASELINE:+"$BASELINE"}; do
    label=$([ "$binary" = "$H" ] && echo this || echo baseline)
    # Older builds have no --map-only: they fuse the board too, which changes no pose.
    surface=(--map-only); "$binary" reconstruct --help | grep -q -- --map-only || surface=(--out "$name.$label.ply")
    "$binary" reconstruct "$name.hscan" "${surface[@]}" --stride 1 --json --align-to "$name.truth.json" \
      --poses-out "$name.$label.poses.json" --markers-out "$name.$label.map.json" > "$name.$label.json" 2>/dev/null
    python3 Benchmarks/reconstruction/board_poses.py "$name.truth.json" "$name.$label.poses.json" "$name.$label.map.json" \
      > "$name.$label.board.json"
    python3 - "$name.$label" "$seed" "$label" <<'PY'
import json, sys
base, seed, label = sys.argv[1:4]
b = json.load(open(base + ".board.json"))
r = json.load(open(base + ".json"))
print(f"seed {seed} {label:8s} keyframes {b['keyframes']:3d}  pose {b['poseRotationDegrees']['max']:.2f} deg / {b['posePositionMM']['max']:.1f} mm max"
      f"  relative {b['relativeRotationDegrees']['median']:.3f} / {b['relativeRotationDegrees']['max']:.2f} deg,"
      f" {b['relativePositionMM']['median']:.2f} / {b['relativePositionMM']['max']:.1f} mm (median / max)"
      f"  map off plane {b['mapOffPlaneMM']['rms']:.2f} rms / {b['mapOffPlaneMM']['max']:.2f} max mm, tilt {b['markerTiltDegrees']['max']:.2f} deg max"
      f"  map RMS {r['mapRMSMillimetres']:.2f} mm")
PY
  done
done
