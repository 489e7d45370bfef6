#!/usr/bin/env bash
# Builds headscan (release), generates the marker test images and compares our detector with
# OpenCV's. Needs Python 3 with venv and network access to PyPI on first run.
# Usage: Benchmarks/markers/run.sh [images per category, default 55]
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
per_category="${1:-55}"
venv="$here/.venv"
if [ ! -x "$venv/bin/python" ]; then
    python3 -m venv "$venv"
    "$venv/bin/pip" install --quiet opencv-contrib-python-headless numpy
fi
scratch="${SCRATCH_PATH:-$root/.build-markers-rel}"
swift build -c release --package-path "$root" --scratch-path "$scratch" --product headscan
binary="$scratch/release/headscan"
out="$here/out"
rm -rf "$out"
"$binary" markers export --dictionary 4x4_100 --ids 0-99 --size 120 --out-dir "$out/ours"
"$venv/bin/python" "$here/generate.py" "$out/ours" "$out" --per-category "$per_category"
"$venv/bin/python" "$here/compare.py" "$out" "$binary"
