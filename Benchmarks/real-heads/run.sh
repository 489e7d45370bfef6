#!/usr/bin/env bash
# Scans public real head surfaces with the simulator and measures them (release build).
# Usage: Benchmarks/real-heads/run.sh [SEEDS] [SECONDS] [CIRCUMFERENCE_MM]
#   SEEDS            scans per head and scenario (default 3; seeds 1..SEEDS)
#   SECONDS          length of each scan (default 20)
#   CIRCUMFERENCE_MM the size the adult heads are scaled to (default 420, a six-month-old)
# MARKER_MM=11 scans with the standard layout printed at that marker side instead of 14 mm.
# Run fetch.sh first. For each head, scenario (ideal, restless) and seed:
#   1. simulate the scan into a scan library session (with a simulated therapist's picks);
#   2. the CVAI through the scan with the true landmarks: reconstruct aligned to the truth,
#      measure with the landmarks the source mesh was measured with;
#   3. process with the picks (the clinical path);
#   4. process without picks: HeadScan's own landmark search, or the reason it refused.
# Prints one JSON line per scan, then a summary (summary.py).
set -euo pipefail
cd "$(dirname "$0")"
SEEDS=${1:-3}
SECONDS_SCAN=${2:-20}
CIRCUMFERENCE=${3:-420}
ROOT=$(cd ../.. && pwd)
(cd "$ROOT" && swift build --scratch-path .build-recon-rel -c release --product headscan >/dev/null)
H="$ROOT/.build-recon-rel/release/headscan"
OUT=out/runs
rm -rf "$OUT" && mkdir -p "$OUT"
RESULTS=out/results.jsonl
: > "$RESULTS"
CAP=()
if [ -n "${MARKER_MM:-}" ]; then
  "$H" markers cap --json | python3 -c "import json,sys; d=json.load(sys.stdin); d['markerSideMillimetres']=float(sys.argv[1]); d['name']='standard-'+sys.argv[1]+'mm'; json.dump(d,sys.stdout)" "$MARKER_MM" > "$OUT/cap.json"
  CAP=(--cap "$OUT/cap.json")
fi
for landmarks in out/*.landmarks.json; do
  head=$(basename "$landmarks" .landmarks.json)
  for scenario in ideal restless; do
    for seed in $(seq 1 "$SEEDS"); do
      lib="$OUT/$head-$scenario-$seed"
      "$H" simulate --head-mesh "out/$head.ply" --head-landmarks "$landmarks" --head-circumference-mm "$CIRCUMFERENCE" \
        --scenario "$scenario" --seed "$seed" --seconds "$SECONDS_SCAN" --library "$lib" "${CAP[@]}" >/dev/null
      session=$(ls -d "$lib"/*_Scan)
      python3 -c "import json,sys; json.dump(json.load(open(sys.argv[1]))['landmarks'], open(sys.argv[2],'w'))" \
        "$session/truth.json" "$lib/true-landmarks.json"
      "$H" reconstruct "$session/scan.hscan" --out "$lib/aligned.ply" --align-to "$session/truth.json" --json > "$lib/reconstruct.json"
      "$H" measure "$lib/aligned.ply" --landmarks "$lib/true-landmarks.json" --json > "$lib/same-landmarks.json"
      "$H" measure "$session/truth.ply" --landmarks "$lib/true-landmarks.json" --json > "$lib/source-measure.json"
      python3 ../reconstruction/surface_distance.py "$lib/aligned.ply" "$session/truth.ply" --truth "$session/truth.json" \
        | tail -1 > "$lib/surface.json"
      "$H" process "$session" --json > "$lib/picks.json" 2>&1 || true
      cp "$session/measurement.json" "$lib/picks-measurement.json" 2>/dev/null || true
      mv "$session/annotations.json" "$lib/annotations.json"
      rm -f "$session/measurement.json"
      "$H" process "$session" --json > "$lib/automatic.json" 2> "$lib/automatic.err" || true
      .venv/bin/python summary.py --one "$head" "$scenario" "$seed" "$lib" "$session" >> "$RESULTS"
    done
  done
done
.venv/bin/python summary.py "$RESULTS"
