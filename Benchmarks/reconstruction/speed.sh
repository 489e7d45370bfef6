#!/usr/bin/env bash
# Reconstruction time and peak memory (release build), one thread on one core and every thread.
# Usage: Benchmarks/reconstruction/speed.sh [BASELINE_BINARY]
# Scans: 60 s and 120 s restless (simulated, cached in out/speed) and a 10 s board at 1 m (the
# wide view whose fusion volume once grew without bound). Each is reconstructed with
# `taskset -c 0 ... --threads 1`, and with every core; peak resident memory from /usr/bin/time.
# With BASELINE_BINARY (an older headscan, e.g. built from main in another folder) the same runs
# are made with it, alternately, for ratios (an older binary without --threads runs one thread).
set -euo pipefail
cd "$(dirname "$0")/../.."
OUT=Benchmarks/reconstruction/out/speed
mkdir -p "$OUT"
swift build -c release --product headscan >/dev/null
H=.build/release/headscan
BASE=${1:-}
[ -f "$OUT/r60.hscan" ] || "$H" simulate --scenario restless --seed 1 --seconds 60 --out "$OUT/r60.hscan" --truth "$OUT/r60.truth.json" --overwrite >/dev/null
[ -f "$OUT/r120.hscan" ] || "$H" simulate --scenario restless --seed 1 --seconds 120 --out "$OUT/r120.hscan" --truth "$OUT/r120.truth.json" --overwrite >/dev/null
[ -f "$OUT/board.hscan" ] || "$H" simulate-board --seed 1 --seconds 10 --out "$OUT/board.hscan" --overwrite >/dev/null
run() {  # label binary scan cpus threads-flag...
  local label=$1 bin=$2 scan=$3 cpus=$4; shift 4
  /usr/bin/time -f "%e %M" -o "$OUT/time.txt" taskset -c "$cpus" "$bin" reconstruct "$OUT/$scan.hscan" --out "$OUT/$label.$scan.ply" --json "$@" \
    > "$OUT/$label.$scan.json" 2>/dev/null
  read -r wall rss < "$OUT/time.txt"
  python3 - "$OUT/$label.$scan.json" "$label" "$scan" "$cpus" "$wall" "$rss" <<'PY'
import json, sys
path, label, scan, cpus, wall, rss = sys.argv[1:7]
d = json.load(open(path))
s = d["stageSeconds"]
print(f"{label:8s} {scan:6s} cpus {cpus:4s} wall {float(wall):6.2f} s  peak {int(rss) / 1024:6.1f} MB  markers {s['markers']:.2f}  "
      f"BA {s['bundleAdjustment']:.2f}  fusion {s['fusion']:.2f}  meshing {s['meshing']:.2f}  blocks {d['voxelBlocks']}  "
      f"reprojection {d['reprojectionRMSPixels']:.4f} px  vertices {d['vertices']}")
PY
}
for scan in r60 r120 board; do
  if [ -n "$BASE" ]; then run base "$BASE" "$scan" 0; fi
  run new "$H" "$scan" 0 --threads 1
  if [ -n "$BASE" ]; then run base "$BASE" "$scan" 0,1; fi
  run new "$H" "$scan" 0,1
done
for scan in r60 r120 board; do
  cmp -s "$OUT/new.$scan.ply" "$OUT/base.$scan.ply" 2>/dev/null && echo "$scan: the same mesh as the baseline" || true
done
