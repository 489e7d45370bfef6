#!/usr/bin/env bash
# Reconstruction accuracy and speed on simulated scans with ground truth (release build).
# Usage: Benchmarks/reconstruction/run.sh [SECONDS] [STRIDE]
# For ideal and restless: simulate, reconstruct aligned to the truth, then print the marker map's
# RMS against the truth (after similarity alignment) and the distance from the reconstructed
# cap-region surface (head frame z > 12 mm) to the true head mesh.
set -euo pipefail
cd "$(dirname "$0")/../.."
SECONDS_SCAN=${1:-60}
STRIDE=${2:-2}
OUT=Benchmarks/reconstruction/out
mkdir -p "$OUT"
swift build --scratch-path .build-recon-rel -c release --product headscan >/dev/null
H=.build-recon-rel/release/headscan
for scenario in ideal restless; do
  if [ ! -f "$OUT/$scenario.hscan" ]; then
    "$H" simulate --scenario "$scenario" --seed 1 --seconds "$SECONDS_SCAN" --out "$OUT/$scenario.hscan" \
      --truth "$OUT/$scenario.truth.json" --overwrite >/dev/null
  fi
  echo "== $scenario"
  "$H" reconstruct "$OUT/$scenario.hscan" --out "$OUT/$scenario.ply" --stride "$STRIDE" --json \
    --align-to "$OUT/$scenario.truth.json" --markers-out "$OUT/$scenario.map.json" | tee "$OUT/$scenario.json"
  python3 Benchmarks/reconstruction/surface_distance.py "$OUT/$scenario.ply" "$OUT/$scenario.truth.ply" | tee "$OUT/$scenario.surface.json"
done
