#!/usr/bin/env bash
# Places the frames of a real RGB-D recording without markers and compares the poses with the
# recording's own, beside Open3D's RGB-D odometry and pose graph on the same frames (release
# build). Run fetch.sh first. Usage: Benchmarks/real-rgbd/run.sh [VOXEL_MM]
#   VOXEL_MM  the fusion's voxel (default 2; the scene spans a metre)
# Prints one JSON line per method (compare.py): ATE after the best rigid fit, the median error
# of each frame-to-frame step, time.
set -euo pipefail
cd "$(dirname "$0")"
VOXEL=${1:-2}
ROOT=$(cd ../.. && pwd)
(cd "$ROOT" && swift build -c release --product headscan >/dev/null)
H="$ROOT/.build/release/headscan"
"$H" import-tum out/tum --out out/sample.hscan --depth-scale 1000 --color png --overwrite >/dev/null
"$H" reconstruct out/sample.hscan --without-markers --whole-view 1.5 --voxel-mm "$VOXEL" --stride 1 --threads 1 \
  --out out/sample.ply --poses-out out/poses.json --json > out/reconstruct.json
seconds=$(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['seconds'])" out/reconstruct.json)
.venv/bin/python compare.py out/tum out/poses.json "$seconds"
