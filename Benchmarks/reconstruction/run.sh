#!/usr/bin/env bash
# Reconstruction accuracy and speed on simulated scans with ground truth (release build).
# Usage: Benchmarks/reconstruction/run.sh [SECONDS] [STRIDE] [CASE...]
# Cases (default: all):
#   ideal        a careful operator
#   restless     the infant moves a lot and now and then turns away
#   unreadable20 restless, and in 20 % of the frames (half-second spells) no marker can be read:
#                the simulator prints the stickers blank there (--unreadable-frames 0.2), depth
#                is unchanged, so those frames cannot be registered and are skipped
#   missing5     restless with 5 markers fallen off the cap (--drop 5)
# For each: simulate (cached in out/), reconstruct aligned to the truth, then print the marker
# map's RMS against the truth (after similarity alignment) and the distance from the
# reconstructed cap-region surface (head frame z > 12 mm) to the true head mesh, everywhere and
# off the stickers (which sit up to 1 mm above the true mesh; see surface_distance.py).
# RECONSTRUCT_ARGS adds options to every reconstruction (e.g. --depth-scale, the depth's own
# scale instead of the stickers' printed size); SUFFIX names that run's outputs apart.
set -euo pipefail
cd "$(dirname "$0")/../.."
SECONDS_SCAN=${1:-60}
STRIDE=${2:-3}
shift $(( $# < 2 ? $# : 2 ))
CASES=${*:-ideal restless unreadable20 missing5}
OUT=Benchmarks/reconstruction/out
mkdir -p "$OUT"
swift build --scratch-path .build-recon-rel -c release --product headscan >/dev/null
H=.build-recon-rel/release/headscan
for name in $CASES; do
  case $name in
    ideal) args=(--scenario ideal) ;;
    restless) args=(--scenario restless) ;;
    unreadable20) args=(--scenario restless --unreadable-frames 0.2) ;;
    missing5) args=(--scenario restless --drop 5) ;;
    *) echo "unknown case $name" >&2; exit 2 ;;
  esac
  if [ ! -f "$OUT/$name.hscan" ]; then
    "$H" simulate "${args[@]}" --seed 1 --seconds "$SECONDS_SCAN" --out "$OUT/$name.hscan" \
      --truth "$OUT/$name.truth.json" --overwrite >/dev/null
  fi
  echo "== $name${SUFFIX:-}"
  run="$OUT/$name${SUFFIX:-}"
  # shellcheck disable=SC2086
  "$H" reconstruct "$OUT/$name.hscan" --out "$run.ply" --stride "$STRIDE" --json ${RECONSTRUCT_ARGS:-} \
    --align-to "$OUT/$name.truth.json" --markers-out "$run.map.json" | tee "$run.json"
  python3 Benchmarks/reconstruction/surface_distance.py "$run.ply" "$OUT/$name.truth.ply" --truth "$OUT/$name.truth.json" \
    | tee "$run.surface.json"
done
