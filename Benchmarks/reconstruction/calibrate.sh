#!/usr/bin/env bash
# `headscan calibrate` against the truth and against OpenCV's calibrateCamera on the same frames.
# Usage: [LENS=K1] Benchmarks/reconstruction/calibrate.sh [SEEDS...]   (default: 1 2 3)
# Each seed records a 5 x 7 board of 20 mm markers (4x4_100) from 30 cm for 10 s, the recorded
# focal length 3 % long and the principal point (6, -4) px off; installs opencv-python in a venv.
# LENS=-0.08 gives the lens that radial distortion (k1) without the recording stating it; both
# tools then estimate k1 too.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
cd "$here/../.."
SEEDS=${*:-1 2 3}
OUT=Benchmarks/reconstruction/out/calibrate
mkdir -p "$OUT"
venv="$here/.venv-opencv"
if [ ! -x "$venv/bin/python" ] || ! "$venv/bin/python" -c "import cv2" 2>/dev/null; then
  python3 -m venv "$venv"
  "$venv/bin/pip" install --quiet opencv-python-headless numpy
fi
swift build -c release --product headscan >/dev/null
H=.build/release/headscan
for seed in $SEEDS; do
  name="$OUT/seed$seed${LENS:+.k1$LENS}"
  lens=(); k1=()
  if [ -n "${LENS:-}" ]; then lens=(--lens-distortion="$LENS" --distortion-unrecorded); k1=(--k1); fi
  [ -f "$name.hscan" ] || "$H" simulate-board --seed "$seed" --distance 0.3 --rows 5 --columns 7 --marker-mm 20 --gap-mm 5 \
    --dictionary 4x4_100 --seconds 10 --focal-error 3 --principal-shift=6,-4 "${lens[@]}" --color png --out "$name.hscan" --truth "$name.truth.json" --overwrite >/dev/null
  "$H" calibrate "$name.hscan" --json > "$name.ours.json" 2>/dev/null
  rm -rf "$name.tum"; "$H" export "$name.hscan" --out "$name.tum" >/dev/null 2>&1
  "$venv/bin/python" "$here/calibrate_opencv.py" "$name.tum" "$name.truth.json" 4x4_100 "${k1[@]}" > "$name.opencv.json"
  python3 - "$name" "$seed" <<'PY'
import json, sys
name, seed = sys.argv[1:3]
ours, cv = json.load(open(name + ".ours.json")), json.load(open(name + ".opencv.json"))
t, o = cv["truth"], cv["opencv"]
print(f"seed {seed}: headscan fx {100 * (ours['fx'] / t['fx'] - 1):+.3f} % (± {100 * ours['focalSigma'] / t['fx']:.3f} %), "
      f"cx {ours['cx'] - t['cx']:+.2f} (± {ours['cxSigma']:.2f}), cy {ours['cy'] - t['cy']:+.2f} (± {ours['cySigma']:.2f}) px, "
      f"k1 {ours['k1'] - t['k1']:+.4f} (± {ours['k1Sigma']:.4f}), "
      f"depth factor {ours['depthFactor']:.4f}, {ours['views']} views | OpenCV fx {100 * (o['fx'] / t['fx'] - 1):+.3f} %, "
      f"cx {o['cx'] - t['cx']:+.2f}, cy {o['cy'] - t['cy']:+.2f} px, k1 {o['k1'] - t['k1']:+.4f}, RMS {o['rmsPixels']:.3f} px, {cv['views']} views")
PY
done

# The same phone scanning a head (30 s restless): read with seed 1's board calibration
# (`reconstruct --camera`), with the focal length estimated on the scan alone, and with the
# recorded camera held; measured with the true landmarks against the truth.
head="$OUT/head${LENS:+.k1$LENS}"
[ -f "$head.hscan" ] || "$H" simulate --scenario restless --seed 1 --seconds 30 --focal-error 3 --principal-shift=6,-4 "${lens[@]}" \
  --out "$head.hscan" --truth "$head.truth.json" --overwrite >/dev/null
"$H" calibrate "$OUT/seed1${LENS:+.k1$LENS}.hscan" --out "$head.camera.json" >/dev/null 2>&1
python3 -c "import json,sys; json.dump(json.load(open(sys.argv[1]))['landmarks'], open(sys.argv[2], 'w'))" "$head.truth.json" "$head.landmarks.json"
for mode in calibrated estimated held; do
  extra=()
  [ "$mode" = calibrated ] && extra=(--camera "$head.camera.json")
  [ "$mode" = held ] && extra=(--fixed-focal)
  "$H" reconstruct "$head.hscan" --out "$head.$mode.ply" --json --align-to "$head.truth.json" "${extra[@]}" > "$head.$mode.json" 2>/dev/null
  "$H" measure "$head.$mode.ply" --landmarks "$head.landmarks.json" --json > "$head.$mode.measure.json"
  python3 - "$head" "$mode" <<'PY'
import json, sys
head, mode = sys.argv[1:3]
truth = json.load(open(head + ".truth.json"))["measurements"]
run = json.load(open(f"{head}.{mode}.json"))
m = json.load(open(f"{head}.{mode}.measure.json"))
m = m.get("measurement", m)
print(f"head scan, {mode:10s}: map {run['mapRMSMillimetres']:.3f} mm RMS, circumference "
      f"{100 * (m['circumferenceMM'] / truth['circumferenceMM'] - 1):+.2f} %, CVAI {m['cvai'] - truth['cvai']:+.2f}")
PY
done
