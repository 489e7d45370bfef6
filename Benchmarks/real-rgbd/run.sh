#!/usr/bin/env bash
# Places the frames of a real RGB-D recording without markers and compares the poses with the
# recording's own, beside Open3D's RGB-D odometry and pose graph on the same frames (release
# build). Run fetch.sh first. Usage: Benchmarks/real-rgbd/run.sh [VOXEL_MM]
#   VOXEL_MM  the fusion's voxel (default 2; the scene spans a metre)
# Prints one JSON line per method (compare.py): ATE after the best rigid fit, the median error
# of each frame-to-frame step, time; then the same on the depth as recorded (RAW=0 skips it).
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
[ "${RAW:-1}" = 0 ] && exit 0
# The depth as recorded, two thirds of its pixels empty in lines: HeadScan's answer, then Open3D's.
"$H" import-tum out/tum-raw --out out/sample-raw.hscan --depth-scale 1000 --color png --overwrite >/dev/null
if "$H" reconstruct out/sample-raw.hscan --without-markers --whole-view 1.5 --voxel-mm "$VOXEL" --stride 1 --threads 1 \
  --out out/sample-raw.ply --poses-out out/poses-raw.json --json > out/reconstruct-raw.json 2> out/reconstruct-raw.err; then
  seconds=$(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['seconds'])" out/reconstruct-raw.json)
  .venv/bin/python compare.py out/tum-raw out/poses-raw.json "$seconds" | sed 's/"method": "/"method": "raw-/'
else
  python3 -c "import json,sys; print(json.dumps({'method': 'raw-headscan', 'refused': open(sys.argv[1]).read().strip().splitlines()[-1]}))" out/reconstruct-raw.err
  .venv/bin/python compare.py out/tum-raw - 0 | sed 's/"method": "/"method": "raw-/'
fi
