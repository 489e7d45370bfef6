#!/usr/bin/env bash
# Brings a public real RGB-D recording into Benchmarks/real-rgbd/out (never committed): the
# 50-frame sample of andyzeng/tsdf-fusion (BSD-2-Clause; a box of objects on a desk at 0.3-0.8 m,
# colour 640x480, 16-bit depth in millimetres registered to colour, a camera-to-world pose per
# frame from a reconstruction, not motion capture), at a fixed commit, converted to the TUM
# layout that `headscan import-tum` reads: out/tum with its one-pixel depth gaps filled, out/tum-raw
# as recorded (convert.py).
#
# Where GitHub cannot be reached, point at a local copy: TSDF_FUSION=DIR (a checkout of
# andyzeng/tsdf-fusion, or its git directory).
set -euo pipefail
cd "$(dirname "$0")"
COMMIT=afbd0d16dcb2afb95e71d19fcddb2f926055d08b
SAMPLE=old-version/data/sample
mkdir -p out
if [ ! -x .venv/bin/python ] || ! .venv/bin/python -c 'import open3d; assert open3d.__version__ == "0.19.0"' 2>/dev/null; then
  python3 -m venv .venv
  .venv/bin/pip install -q "open3d==0.19.0" numpy
fi
if [ ! -d out/sample ]; then
  src=${TSDF_FUSION:-}
  if [ -z "$src" ]; then
    git clone -q https://github.com/andyzeng/tsdf-fusion out/tsdf-fusion
    src=out/tsdf-fusion
  fi
  if [ -d "$src/.git" ]; then src="$src/.git"; fi
  mkdir -p out/extract
  git --git-dir "$src" archive "$COMMIT" "$SAMPLE" | tar -x -C out/extract
  mv "out/extract/$SAMPLE" out/sample
  rm -rf out/extract
fi
rm -rf out/tum out/tum-raw
.venv/bin/python -W ignore convert.py out/sample out/tum --fill-gaps
.venv/bin/python -W ignore convert.py out/sample out/tum-raw
