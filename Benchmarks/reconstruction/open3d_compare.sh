#!/usr/bin/env bash
# Our TSDF fusion against Open3D's ScalableTSDFVolume on the same optimised keyframe poses, the
# same keyframe depth (cut to the same head region), the same voxel size and truncation.
# Usage: Benchmarks/reconstruction/open3d_compare.sh [SCENARIO] [STRIDE]
# Needs python3 with numpy and scipy; installs open3d 0.19.0 into Benchmarks/reconstruction/.venv
# (open3d's wheel needs libusb-1.0-0, libgl1 and libgomp1: apt-get install -y them if missing).
# 0.19.0, not 0.20.0: 0.20.0's ScalableTSDFVolume leaves every volume empty here, even for a
# flat wall at 1 m with the tutorial's settings, while UniformTSDFVolume works.
# Both fusions run on one thread (OMP_NUM_THREADS=1 for Open3D; ours is single-threaded).
# Prints, per method, the surface distance to the true head (mean, p95, mm) and the time of
# integration and meshing, then the ratios ours / Open3D.
set -euo pipefail
cd "$(dirname "$0")/../.."
SCENARIO=${1:-ideal}
STRIDE=${2:-3}
B=Benchmarks/reconstruction
OUT=$B/out
mkdir -p "$OUT"
if ! "$B/.venv/bin/python" -c 'import open3d; assert open3d.__version__ == "0.19.0"' 2>/dev/null; then
  python3 -m venv --system-site-packages "$B/.venv"
  "$B/.venv/bin/pip" install -q "open3d==0.19.0"
fi
swift build --scratch-path .build-recon-rel -c release --product headscan >/dev/null
H=.build-recon-rel/release/headscan
if [ ! -f "$OUT/$SCENARIO.hscan" ]; then
  "$H" simulate --scenario "$SCENARIO" --seed 1 --out "$OUT/$SCENARIO.hscan" --truth "$OUT/$SCENARIO.truth.json" --overwrite >/dev/null
fi
rm -rf "$OUT/$SCENARIO.keyframes"
"$H" reconstruct "$OUT/$SCENARIO.hscan" --out "$OUT/$SCENARIO.ours.ply" --stride "$STRIDE" --json \
  --align-to "$OUT/$SCENARIO.truth.json" --poses-out "$OUT/$SCENARIO.poses.json" \
  --keyframe-depth-out "$OUT/$SCENARIO.keyframes" > "$OUT/$SCENARIO.ours.json"
OMP_NUM_THREADS=1 "$B/.venv/bin/python" "$B/open3d_fuse.py" "$OUT/$SCENARIO.poses.json" "$OUT/$SCENARIO.keyframes" \
  "$OUT/$SCENARIO.open3d.ply" > "$OUT/$SCENARIO.open3d.json"
python3 "$B/surface_distance.py" "$OUT/$SCENARIO.ours.ply" "$OUT/$SCENARIO.truth.ply" > "$OUT/$SCENARIO.ours.surface.json"
python3 "$B/surface_distance.py" "$OUT/$SCENARIO.open3d.ply" "$OUT/$SCENARIO.truth.ply" > "$OUT/$SCENARIO.open3d.surface.json"
python3 - "$OUT/$SCENARIO" <<'PY'
import json, sys
p = sys.argv[1]
ours, o3d = json.load(open(p + '.ours.json')), json.load(open(p + '.open3d.json'))
so, s3 = json.load(open(p + '.ours.surface.json')), json.load(open(p + '.open3d.surface.json'))
t = ours['stageSeconds']
rows = {
    'ours': {'meanMM': so['meanMM'], 'p95MM': so['p95MM'], 'completeness2mm': so['completeness2mm'],
             'integrationSeconds': t['fusionIntegration'], 'meshingSeconds': t['meshing'],
             'vertices': ours['vertices'], 'triangles': ours['triangles']},
    'open3d': {'meanMM': s3['meanMM'], 'p95MM': s3['p95MM'], 'completeness2mm': s3['completeness2mm'],
               'integrationSeconds': o3d['integrationSeconds'], 'meshingSeconds': o3d['meshingSeconds'],
               'vertices': o3d['vertices'], 'triangles': o3d['triangles']},
}
rows['ratioOursOverOpen3d'] = {k: rows['ours'][k] / rows['open3d'][k] for k in ('meanMM', 'p95MM', 'integrationSeconds', 'meshingSeconds')}
rows['keyframes'] = o3d['keyframes']
print(json.dumps(rows, indent=1, sort_keys=True))
PY
