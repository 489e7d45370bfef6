#!/usr/bin/env bash
# Brings the public real head surfaces into Benchmarks/real-heads/out (never committed):
#   - MNE-Python's wheel from PyPI (fsaverage's scalp and fiducials);
#   - two files of the mne-testing-data repository (the "sample" subject's scalp and fiducials);
#   - one file of ICT-FaceKit at a fixed commit (the ICT Face Model's generic neutral head);
# converted by convert.py into PLY meshes in metres with landmarks JSON.
#
# Where GitHub cannot be reached, point at local copies instead: TESTING_DATA=DIR (a checkout
# of mne-testing-data, or its git directory) and ICT_FACEKIT=DIR (a checkout of ICT-FaceKit,
# or its git directory).
set -euo pipefail
cd "$(dirname "$0")"
OUT=out
mkdir -p "$OUT" "$OUT/testing-data/subjects/sample/bem"
if [ ! -x .venv/bin/python ]; then
  python3 -m venv .venv
  .venv/bin/pip install -q mne
fi

# bring REPO_URL COMMIT PATH TARGET LOCAL: from LOCAL (a checkout or a git directory) if set,
# otherwise downloaded.
bring() {
  local url=$1 commit=$2 path=$3 target=$4 local=$5
  [ -s "$target" ] && return 0
  if [ -z "$local" ]; then curl -fsSL "$url/raw/$commit/$path" -o "$target"
  elif [ -f "$local/$path" ]; then cp "$local/$path" "$target"
  else git --git-dir "$local" show "$commit:$path" > "$target"
  fi
}
for f in sample-head.fif sample-fiducials.fif; do
  bring https://github.com/mne-tools/mne-testing-data HEAD "subjects/sample/bem/$f" \
    "$OUT/testing-data/subjects/sample/bem/$f" "${TESTING_DATA:-}"
done
ICT_COMMIT=da5f95a607f5e6b37755b38d3385d7f2853732e5
bring https://github.com/ICT-VGL/ICT-FaceKit "$ICT_COMMIT" FaceXModel/generic_neutral_mesh.obj \
  "$OUT/ict-generic-neutral.obj" "${ICT_FACEKIT:-}"
.venv/bin/python convert.py "$OUT" --testing-data "$OUT/testing-data" --ict "$OUT/ict-generic-neutral.obj"
