#!/usr/bin/env bash
# Benchmarks the scan simulator: speed and head-model exactness (headscan bench simulation),
# and realism: OpenCV's ArUco detector on simulated frames against the simulator's truth.
# Needs Python 3 with venv and access to PyPI on first run.
# Usage: Benchmarks/simulation/run.sh [seconds of ideal scan, default 20]
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
seconds="${1:-20}"
venv="$here/.venv"
if [ ! -x "$venv/bin/python" ]; then
    python3 -m venv "$venv"
    "$venv/bin/pip" install --quiet opencv-contrib-python-headless numpy
fi
scratch="${SCRATCH_PATH:-$root/.build-release}"
swift build -c release --package-path "$root" --scratch-path "$scratch" --product headscan
binary="$scratch/release/headscan"
out="$here/out"
rm -rf "$out" && mkdir -p "$out"
"$binary" bench simulation
"$binary" simulate --scenario ideal --seed 3 --seconds "$seconds" --out "$out/ideal.hscan" --truth "$out/ideal.truth.json"
"$binary" export "$out/ideal.hscan" --format tum --out "$out/tum"
"$venv/bin/python" "$here/realism.py" "$out/tum" "$out/ideal.truth.json"
