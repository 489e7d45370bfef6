#!/usr/bin/env python3
"""Distance from a reconstructed head mesh (already in the truth's head frame) to the true mesh.

Usage: surface_distance.py RECON.ply TRUE.ply [--min-z 0.012] [--truth TRUTH.json]
Prints JSON: mean, median, p95, max distance in millimetres over the reconstructed vertices in the
cap region (head frame z > min-z), the vertex count, and the share of true cap-region vertices
that have reconstructed surface within 2 mm (completeness).
With --truth (the simulator's truth JSON) it also reports the same over the vertices off the
stickers (farther than 14 mm from every sticker centre): the stickers are flat paper on a curved
head, so the sensor sees them up to a millimetre above the true mesh, which is head without
stickers; off them the figures measure the reconstruction alone.
Distances are exact point-to-triangle distances against the 16 triangles whose centroids are nearest.
"""
import json, struct, sys
import numpy as np
from scipy.spatial import cKDTree


def read_ply(path):
    data = open(path, 'rb').read()
    end = data.index(b'end_header\n') + len(b'end_header\n')
    header = data[:end].decode().splitlines()
    nv = nf = 0
    ascii_ = 'format ascii 1.0' in header
    props = []
    for line in header:
        p = line.split()
        if p[:2] == ['element', 'vertex']: nv = int(p[2]); cur = 'v'
        elif p[:2] == ['element', 'face']: nf = int(p[2]); cur = 'f'
        elif p and p[0] == 'property' and cur == 'v': props.append(p[1])
    if ascii_:
        rows = data[end:].decode().split('\n')
        v = np.array([[float(x) for x in r.split()[:3]] for r in rows[:nv]])
        f = np.array([[int(x) for x in r.split()[1:4]] for r in rows[nv:nv + nf]], dtype=np.int64)
        return v, f
    sizes = {'float': '<f4', 'double': '<f8', 'uchar': 'u1', 'int': '<i4', 'uint': '<u4', 'float32': '<f4', 'float64': '<f8', 'uint8': 'u1'}
    names = [l.split()[2] for l in header if l.startswith('property') and not l.startswith('property list')][:len(props)]
    vdt = np.dtype([(n, sizes[t]) for n, t in zip(names, props)])
    raw = np.frombuffer(data, dtype=vdt, count=nv, offset=end)
    v = np.stack([raw['x'], raw['y'], raw['z']], 1).astype(np.float64)
    fdt = np.dtype([('n', 'u1'), ('i', '<i4', 3)])
    f = np.frombuffer(data, dtype=fdt, count=nf, offset=end + nv * vdt.itemsize)['i'].astype(np.int64)
    return v, f


def point_triangle_distance(p, a, b, c):
    """Exact distances, vectorised over rows (Ericson's closest-point regions)."""
    ab, ac, ap = b - a, c - a, p - a
    d1, d2 = (ab * ap).sum(1), (ac * ap).sum(1)
    bp = p - b
    d3, d4 = (ab * bp).sum(1), (ac * bp).sum(1)
    cp = p - c
    d5, d6 = (ab * cp).sum(1), (ac * cp).sum(1)
    va = d3 * d6 - d5 * d4
    vb = d5 * d2 - d1 * d6
    vc = d1 * d4 - d3 * d2
    denom = va + vb + vc
    with np.errstate(divide='ignore', invalid='ignore'):
        v = vb / denom
        w = vc / denom
    q = a + ab * v[:, None] + ac * w[:, None]
    def seg(s, e):
        d = e - s
        t = np.clip(((p - s) * d).sum(1) / np.maximum((d * d).sum(1), 1e-30), 0, 1)
        return s + d * t[:, None]
    inside = (va >= 0) & (vb >= 0) & (vc >= 0) & np.isfinite(v) & np.isfinite(w)
    best = np.where(inside, np.linalg.norm(p - q, axis=1), np.inf)
    closest = np.where(inside[:, None], q, a)
    for s, e in ((a, b), (b, c), (c, a)):
        qq = seg(s, e)
        dd = np.linalg.norm(p - qq, axis=1)
        closest = np.where((dd < best)[:, None], qq, closest)
        best = np.minimum(best, dd)
    return best, closest


def distances(points, verts, faces, k=16):
    cent = verts[faces].mean(1)
    tree = cKDTree(cent)
    _, idx = tree.query(points, k=k)
    best = np.full(len(points), np.inf)
    sign = np.ones(len(points))
    for j in range(k):
        tri = faces[idx[:, j]]
        a, b, c = verts[tri[:, 0]], verts[tri[:, 1]], verts[tri[:, 2]]
        d, q = point_triangle_distance(points, a, b, c)
        better = d < best
        # Outside (positive) when the point lies on the side the face normal points to.
        side = np.sign(((points - q) * np.cross(b - a, c - a)).sum(1))
        sign = np.where(better, np.where(side == 0, 1, side), sign)
        best = np.minimum(best, d)
    return best, sign


def main():
    args = sys.argv[1:]
    min_z = 0.012
    if '--min-z' in args:
        i = args.index('--min-z'); min_z = float(args[i + 1]); del args[i:i + 2]
    truth = None
    if '--truth' in args:
        i = args.index('--truth'); truth = json.load(open(args[i + 1])); del args[i:i + 2]
    recon_v, _ = read_ply(args[0])
    true_v, true_f = read_ply(args[1])
    pts = recon_v[recon_v[:, 2] > min_z]
    d, sign = distances(pts, true_v, true_f)
    d *= 1000
    # Completeness: true cap-region vertices with reconstructed vertices nearby.
    cap_true = true_v[true_v[:, 2] > min_z + 0.003]
    near, _ = cKDTree(recon_v).query(cap_true, k=1) if len(recon_v) else (np.full(len(cap_true), np.inf), None)
    result = {
        'vertices': int(len(pts)),
        'meanMM': float(d.mean()), 'signedMeanMM': float((d * sign).mean()), 'medianMM': float(np.median(d)),
        'p95MM': float(np.percentile(d, 95)), 'maxMM': float(d.max()),
        'completeness2mm': float((near < 0.002).mean()),
    }
    if truth is not None:
        centres = np.array([np.mean(m['corners'], 0) for m in truth['markers3D'] if m['id'] not in truth.get('droppedMarkers', [])])
        off = cKDTree(centres).query(pts)[0] > 0.014
        result['offStickers'] = {
            'vertices': int(off.sum()), 'meanMM': float(d[off].mean()), 'signedMeanMM': float((d * sign)[off].mean()),
            'p95MM': float(np.percentile(d[off], 95)),
        }
    print(json.dumps(result, sort_keys=True))


if __name__ == '__main__':
    main()
