#!/usr/bin/env bash
# Simulated phones whose factory focal length and depth unit are off: the focal estimate, the
# map's scale against the printed geometry, the map's RMS and the frames used, with the scale set
# by the stickers' printed size (as every scan is now) and by the depth alone (--depth-scale).
# Usage: Benchmarks/reconstruction/phones.sh [SEED] [SECONDS]   (default: seed 81, 12 s)
# Cases: focal length off by -6, 0, +6 %, depth reading -1, 0, +1 % too far, on two recordings:
#   board: the check-phone board (5 x 7 markers of 20 mm, 4x4_100) from 30 cm, SECONDS/2 long;
#   head:  a restless head scan with the standard cap, SECONDS long.
# Each row: the focal estimate over the true focal length (target within 0.3 %), the map's
# similarity scale against the truth (1 = right size; target within 0.5 %), the map's RMS after
# that alignment (target 0.6 mm), frames used of examined, and the stickers' size through the
# depth over their printed size (what set the scale: "print" or "depth").
set -euo pipefail
cd "$(dirname "$0")/../.."
SEED=${1:-81}
SECONDS_SCAN=${2:-12}
OUT=Benchmarks/reconstruction/out/phones
mkdir -p "$OUT"
# HEADSCAN=path/to/headscan runs that binary instead of building one.
H=${HEADSCAN:-.build/release/headscan}
[ -n "${HEADSCAN:-}" ] || swift build -c release --product headscan >/dev/null
BOARD_SECONDS=$(python3 -c "print(max(2, $SECONDS_SCAN / 2))")
for kind in board head; do
  for f in -6 0 6; do
    for d in -1 0 1; do
      name="$OUT/$kind.s$SEED.f$f.d$d"
      if [ ! -f "$name.hscan" ]; then
        if [ "$kind" = board ]; then
          "$H" simulate-board --distance 0.3 --rows 5 --columns 7 --marker-mm 20 --gap-mm 5 --dictionary 4x4_100 --seed "$SEED" \
            --seconds "$BOARD_SECONDS" --focal-error="$f" --depth-scale-error="$d" --out "$name.hscan" --truth "$name.truth.json" \
            --overwrite >/dev/null
        else
          "$H" simulate --scenario restless --seed "$SEED" --seconds "$SECONDS_SCAN" --focal-error="$f" --depth-scale-error="$d" \
            --out "$name.hscan" --truth "$name.truth.json" --overwrite >/dev/null
        fi
      fi
      for mode in print depth; do
        flags=(--json --align-to "$name.truth.json" --map-only)
        [ "$mode" = depth ] && flags+=(--depth-scale)
        "$H" reconstruct "$name.hscan" "${flags[@]}" > "$name.$mode.json" 2>/dev/null
      done
      python3 - "$name" "$kind" "$f" "$d" <<'PY'
import json, sys
name, kind, f, d = sys.argv[1], sys.argv[2], float(sys.argv[3]), float(sys.argv[4])
def row(mode):
    r = json.load(open(f"{name}.{mode}.json"))
    focal = r["focalScale"] * (1 + f / 100)
    p = r.get("printedScale") or {}
    source = "print" if p and not p.get("refused") else "depth"
    return (f"focal {focal:.4f} ± {r['focalScaleSigma']:.4f}  map scale {1 / r['mapScale']:.4f}  map RMS {r['mapRMSMillimetres']:.2f} mm"
            f"  frames {r['framesUsed']} used, {r['framesRejected']} rejected"
            f"  stickers/print {p.get('ratio', float('nan')):.4f} -> {source}")
print(f"{kind:5s} focal {f:+.0f} %, depth {d:+.0f} %:  print: {row('print')}   |   depth alone: {row('depth')}")
PY
    done
  done
done
