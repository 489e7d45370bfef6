#!/usr/bin/env bash
# Brings the public real head surfaces into Benchmarks/real-heads/out (never committed):
# MNE-Python's wheel from PyPI (fsaverage's scalp and fiducials) and two files of the
# mne-testing-data repository (the "sample" subject's scalp and fiducials), converted by
# convert.py into PLY meshes in metres with landmarks JSON.
set -euo pipefail
cd "$(dirname "$0")"
OUT=out
mkdir -p "$OUT" "$OUT/testing-data/subjects/sample/bem"
if [ ! -x .venv/bin/python ]; then
  python3 -m venv .venv
  .venv/bin/pip install -q mne
fi
BASE=https://github.com/mne-tools/mne-testing-data/raw/master/subjects/sample/bem
for f in sample-head.fif sample-fiducials.fif; do
  target="$OUT/testing-data/subjects/sample/bem/$f"
  # TESTING_DATA=DIR uses a local copy of the repository instead of downloading.
  if [ -n "${TESTING_DATA:-}" ]; then cp "$TESTING_DATA/subjects/sample/bem/$f" "$target"
  elif [ ! -s "$target" ]; then curl -fsSL "$BASE/$f" -o "$target"; fi
done
.venv/bin/python convert.py "$OUT" --testing-data "$OUT/testing-data"
