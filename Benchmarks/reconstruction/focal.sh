#!/usr/bin/env bash
# Reconstruction of simulated scans whose recorded (factory) focal length is off, with the focal
# length estimated in the bundle adjustment and held at the recorded value (--fixed-focal).
# Usage: Benchmarks/reconstruction/focal.sh [SECONDS] [ERROR_PERCENT...]   (default: 30 s; 0 -6 -3 3 6)
# For each: the map's similarity scale against the truth (1 = right size), the estimated focal
# length over the true one, and circumference and CVAI of the aligned mesh measured with the
# true landmarks, against the truth.
set -euo pipefail
cd "$(dirname "$0")/../.."
SECONDS_SCAN=${1:-30}
shift $(( $# < 1 ? $# : 1 ))
ERRORS=${*:-0 -6 -3 3 6}
OUT=Benchmarks/reconstruction/out/focal
mkdir -p "$OUT"
# HEADSCAN=path/to/headscan runs that binary instead of building one.
H=${HEADSCAN:-.build/release/headscan}
[ -n "${HEADSCAN:-}" ] || swift build -c release --product headscan >/dev/null
for e in $ERRORS; do
  name="f$e"
  if [ ! -f "$OUT/$name.hscan" ]; then
    "$H" simulate --scenario restless --seed 1 --seconds "$SECONDS_SCAN" --focal-error="$e" --out "$OUT/$name.hscan" \
      --truth "$OUT/$name.truth.json" --overwrite >/dev/null
  fi
  python3 -c "import json,sys; json.dump(json.load(open(sys.argv[1]))['landmarks'], open(sys.argv[2], 'w'))" \
    "$OUT/$name.truth.json" "$OUT/$name.landmarks.json"
  for mode in estimated fixed; do
    flag=(); [ "$mode" = fixed ] && flag=(--fixed-focal)
    "$H" reconstruct "$OUT/$name.hscan" --out "$OUT/$name.$mode.ply" --json --align-to "$OUT/$name.truth.json" "${flag[@]}" \
      > "$OUT/$name.$mode.json" 2>/dev/null
    "$H" measure "$OUT/$name.$mode.ply" --landmarks "$OUT/$name.landmarks.json" --json > "$OUT/$name.$mode.measure.json"
    python3 - "$OUT/$name" "$mode" "$e" <<'PY'
import json, sys
base, mode, error = sys.argv[1], sys.argv[2], float(sys.argv[3])
truth = json.load(open(base + ".truth.json"))["measurements"]
run = json.load(open(f"{base}.{mode}.json"))
m = json.load(open(f"{base}.{mode}.measure.json"))
m = m.get("measurement", m)
focal = run.get("focalScale")
print(f"focal {error:+.0f} % {mode:9s} map scale {run['mapScale']:.4f}  focal/true "
      f"{(1 + error / 100) * focal:.4f} ± {run.get('focalScaleSigma', 0):.4f} applied {run.get('focalScaleApplied') or '-'}" if focal else
      f"focal {error:+.0f} % {mode:9s} map scale {run['mapScale']:.4f}  focal/true -", end="")
print(f"  circumference {100 * (m['circumferenceMM'] / truth['circumferenceMM'] - 1):+.2f} %  CVAI {m['cvai'] - truth['cvai']:+.2f}")
PY
  done
done
